"""Both doors answer with the same bytes: ``gravity-relay runs show`` versus ``antigravity_get_result``.

The records are real: one successful run and one failed run made by the relay with the fake
agy, and one early refusal (with non-ASCII text, so encoding differences would show). The MCP
side is the server `serve` builds behind the SDK's client (legacy handshake; the stdio pipe itself
is test_e2e_stdio's); the CLI side is the real command: in a subprocess for the non-ASCII case (the
process's own stdout encoding) and for one shell `execute`, in process for the rest (a Python start-up
each would cost ~1 s and prove nothing more).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import cli_main, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import failure_scenario, install_fake_agy, success_scenario

from relay.call.orchestrate import Relay
from relay.doors.mcp_server import call_tool
from relay.core.settings import load_settings

DETAILS = ("summary", "errors", "full")
MAX_CHARS = (12_000, 400)


async def make_records(tmp_path: Path) -> tuple[Path, list[str]]:
    data = tmp_path / "data"
    repo = make_repo(tmp_path / "project", {"README.md": "# app\n", "src/app.py": "def main():\n    return 1\n"})
    agy = install_fake_agy(tmp_path / "agy", success_scenario([
        {"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2, "content": "    return 2  # café ✓\n"},
        {"op": "write", "path": "src/new_module.py", "content": "VALUE = 'ünïcødé'\n" * 40},
    ]))
    env = {**os.environ, "GRAVITY_RELAY_DATA_DIR": str(data), "AGY_BIN": str(agy)}
    env.pop("GRAVITY_RELAY_DEFAULT_PROFILE", None)
    env.pop("GRAVITY_RELAY_PROFILES", None)
    relay = Relay(load_settings(env), environ=env)
    ids = []
    ok = payload(await call_tool(relay, "antigravity_execute",
                                 {"task": "Make main return 2 — and add a module (naïve café ✓)", "workspace": str(repo)}))
    assert ok["status"] == "SUCCESS", ok
    ids.append(ok["run_id"])

    failing = install_fake_agy(tmp_path / "agy-failing", failure_scenario("api_error"))
    env_failing = {**env, "AGY_BIN": str(failing)}
    relay_failing = Relay(load_settings(env_failing), environ=env_failing)
    failed = payload(await call_tool(relay_failing, "antigravity_execute",
                                     {"task": "Do something the API refuses", "workspace": str(repo)}))
    assert failed["ok"] is False and failed["status"] == "WORKER_ERROR", failed
    ids.append(failed["run_id"])

    refused = payload(await call_tool(relay, "antigravity_execute",
                                      {"task": "Réparer l'entrée ☕ — 日本語", "workspace": str(tmp_path / "missing")}))
    assert refused["status"] == "INVALID_WORKSPACE"
    ids.append(refused["run_id"])
    return data, ids


def runs_show(data: Path, run_id: str, detail: str, max_chars: int) -> bytes:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env["GRAVITY_RELAY_DATA_DIR"] = str(data)
    got = subprocess.run([sys.executable, "-m", "relay", "runs", "show", run_id, "--detail", detail,
                          "--max-chars", str(max_chars)], env=env, capture_output=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert got.returncode == 0, got.stderr.decode()
    return got.stdout


def cli_in_process(monkeypatch, env: dict[str, str], *args: str) -> tuple[int, bytes]:
    """`gravity-relay ARGS` through cli.main in this process: (exit code, stdout as the bytes a process writes)."""
    from relay.doors.cli import main

    with monkeypatch.context() as m:
        for key in [k for k in os.environ if k.startswith(("GRAVITY_RELAY_", "AGY_"))]:
            m.delenv(key)
        for key, value in env.items():
            m.setenv(key, value)
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n", write_through=True)
        m.setattr(sys, "stdout", out)
        code = main(list(args))
        return code, out.buffer.getvalue()


def runs_show_in_process(monkeypatch, data: Path, run_id: str, detail: str, max_chars: int) -> bytes:
    code, out = cli_in_process(monkeypatch, {"GRAVITY_RELAY_DATA_DIR": str(data)},
                               "runs", "show", run_id, "--detail", detail, "--max-chars", str(max_chars))
    assert code == 0
    return out


@pytest.mark.anyio
async def test_runs_show_prints_the_same_bytes_as_get_result_for_every_detail(tmp_path, monkeypatch):
    data, ids = await make_records(tmp_path)
    mcp_texts: dict[tuple[str, str, int], str] = {}
    async with memory_relay(relay_env(data, agy=None)) as client:
        for run_id in ids:
            for detail in DETAILS:
                for max_chars in MAX_CHARS:
                    result = await client.call_tool("antigravity_get_result",
                                                    {"run_id": run_id, "detail": detail, "max_chars": max_chars})
                    assert not result.is_error
                    payload(result)  # text block and structured content carry the same JSON
                    mcp_texts[(run_id, detail, max_chars)] = result.content[0].text
    compared = 0
    for (run_id, detail, max_chars), text in mcp_texts.items():
        in_subprocess = (run_id, detail, max_chars) == (ids[2], "full", 12_000)  # the non-ASCII refusal
        cli = (runs_show if in_subprocess else
               lambda *a: runs_show_in_process(monkeypatch, *a))(data, run_id, detail, max_chars)
        assert cli == text.encode("utf-8") + b"\n", (run_id, detail, max_chars)
        compared += 1
    assert compared == len(ids) * len(DETAILS) * len(MAX_CHARS)
    # The cases differ from one another: a cut answer really was cut, non-ASCII really was there.
    assert '"truncated"' in mcp_texts[(ids[0], "full", 400)]
    assert "日本語" in mcp_texts[(ids[2], "full", 12_000)]
    assert "café ✓" in mcp_texts[(ids[0], "full", 12_000)] or "café ✓" in mcp_texts[(ids[0], "summary", 12_000)]


def runs_cli(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env["GRAVITY_RELAY_DATA_DIR"] = str(data)
    return cli_main(["runs", *args], env)


@pytest.mark.anyio
async def test_runs_list_is_newest_first_filters_by_status_and_speaks_json(tmp_path):
    import json

    data, ids = await make_records(tmp_path)
    listed = runs_cli(data, "list")
    assert listed.returncode == 0, listed.stderr
    rows = listed.stdout.splitlines()
    assert [row.split()[0] for row in rows] == sorted(ids, reverse=True)
    assert "SUCCESS" in next(r for r in rows if r.startswith(ids[0]))
    only = runs_cli(data, "list", "--status", "worker_error", "--json")
    (row, totals) = [json.loads(line) for line in only.stdout.splitlines()]
    assert totals["totals"]["runs"] == 1  # the last line sums what the listed runs cost (issue 27)
    assert row["run_id"] == ids[1] and row["status"] == "WORKER_ERROR"
    bad = runs_cli(data, "list", "--status", "GREAT")
    assert bad.returncode == 2 and "SUCCESS" in bad.stderr and "LOGIN_REQUIRED" in bad.stderr
    unknown = runs_cli(data, "show", "r20260101T000000-00000000")
    assert unknown.returncode == 1 and "no run record" in unknown.stderr


def test_execute_and_continue_from_the_shell_answer_like_the_tools(tmp_path, monkeypatch):
    # The first command is a real process (the shell door end to end); the rest run cli.main in process.
    import json

    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "agy", success_scenario([{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env.update({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy), "GRAVITY_RELAY_PROGRESS_SECONDS": "0.2"})

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "relay", *args], env=env, capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL, encoding="utf-8")

    done = cli("execute", "add new.py", "--workspace", str(repo), "--arg", "timeout_minutes=5")
    assert done.returncode == 0, done.stderr
    packet = json.loads(done.stdout)
    assert packet["status"] == "SUCCESS" and packet["changes"]["files"] == ["src/new.py"]
    relay_vars = {k: v for k, v in env.items() if k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    code, shown = cli_in_process(monkeypatch, relay_vars, "runs", "show", packet["run_id"])
    assert code == 0 and shown == done.stdout.encode()  # the same bytes from both doors
    code, follow = cli_in_process(monkeypatch, relay_vars, "continue", packet["run_id"], "also add a docstring")
    assert code == 0, follow
    assert json.loads(follow)["conversation_id"] == packet["conversation_id"]
    code, refused = cli_in_process(monkeypatch, relay_vars, "execute", "t", "--workspace", "relative")
    assert code == 1 and json.loads(refused)["status"] == "INVALID_WORKSPACE"


def test_runs_commands_exit_2_for_a_run_id_not_of_its_form_and_1_for_a_refused_run(tmp_path):
    # Bad usage answers 2, a run-level failure 1, in every `runs` command alike (docs/commands.md). Before: `runs apply
    # ""` exited 1 (the tool's "apply needs the run_id of a worktree run") where `runs show ""`, `runs cancel ""`,
    # `runs revert ""` and `runs diff ""` exited 2, so a script could not tell a typo from a refused run.
    from conftest import cli_main, relay_env

    env = relay_env(tmp_path / "data", None)
    for command in ("show", "apply", "cancel", "revert", "diff"):
        for bad in ("", "bogus", "../etc"):
            said = cli_main(["runs", command, bad], env)
            assert said.returncode == 2, (command, bad, said.stderr)
            assert said.stderr.startswith("gravity-relay: "), (command, bad, said.stderr)
        missing = cli_main(["runs", command, "r20260101T000000-deadbeef"], env)
        assert missing.returncode == 1, (command, missing.stderr)
