"""What a new user met trying the relay from its README (session 14): each item with a test that failed on main.

Through the doors a person and a model use: the MCP tools (in memory, the fake agy as a real subprocess, real git
repositories in temp dirs) and the `gravity-relay` commands (cli.main in this process).
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, launches, success_scenario

pytestmark = pytest.mark.anyio


# --------------------------------------------------------------------------- a workspace that holds the data dir


@pytest.mark.parametrize("where", ["inside", "ignored"])
async def test_a_workspace_that_holds_the_relays_data_dir_is_refused_before_agy_starts(tmp_path, repo, where):
    # Party: the worker (and the user's own slip: workspace = their home, where ~/.local/share/gravity-relay is).
    # Before: the call ran. The relay's own run files (the snapshot it takes of the git dir, the record) were
    # written inside the workspace and came back as the worker's changes (39 files "changed but not in the
    # worker's report", the real edit cut from the packet), and the worker could read and write the relay's
    # records and confirm key, which its workspace then held.
    data = repo / "relaydata"
    if where == "ignored":
        (repo / ".gitignore").write_text("relaydata/\n", encoding="utf-8")
    agy = install_fake_agy(tmp_path / "fake", success_scenario([{"path": "a.py", "content": "x = 1\n"}]))
    async with memory_relay(relay_env(data, agy)) as client:
        answer = payload(await client.call_tool("antigravity_execute", {"task": "add a", "workspace": str(repo)}))
    assert answer["status"] == "INVALID_WORKSPACE", answer
    error = answer["error"]
    assert str(data) in error["message"] and "data dir" in error["message"]
    assert "GRAVITY_RELAY_DATA_DIR" in error["hint"]
    assert launches(agy) == []  # nothing ran
    assert not (repo / "a.py").exists()


@asynccontextmanager
async def _running(tmp_path: Path, repo: Path):
    """(the client, the relay's env, the run id) of a run whose worker hangs, still RUNNING after its call answered."""
    agy = install_fake_agy(tmp_path / "fake", {"version": "1.2.17", "launches": [{"behaviour": "hang"}]})
    env = relay_env(tmp_path / "data", agy)
    async with memory_relay(env) as client:
        running = payload(await client.call_tool("antigravity_execute",
                                                 {"task": "t", "workspace": str(repo), "wait_seconds": 0.3}))
        assert running["status"] == "RUNNING", running
        yield client, env, running["run_id"]


# --------------------------------------------------------------------------- `runs cancel`: antigravity_cancel from a shell


async def test_runs_cancel_stops_a_running_run_from_a_shell_with_the_tools_bytes(tmp_path, repo):
    # Before: `gravity-relay execute --wait 60` answered RUNNING ("antigravity_cancel stops it") and a shell had
    # no command to stop the run: `runs cancel` was an invalid choice, exit 2, and the worker went on.
    import anyio

    from conftest import cli_main

    async with _running(tmp_path, repo) as (client, env, run_id):
        shell = await anyio.to_thread.run_sync(cli_main, ["runs", "cancel", run_id], env)
        assert shell.returncode == 1, shell  # not ok: the work did not finish
        said = json.loads(shell.stdout)
        assert said["status"] == "CANCELLED" and said["run_id"] == run_id
        assert "CANCELLED" in shell.stderr or said["error"]["message"] in shell.stderr
        # The same words the tool answers for that run now (a run that ended answers its own packet).
        tool = await client.call_tool("antigravity_cancel", {"run_id": run_id})
        assert shell.stdout == tool.content[0].text + "\n"
        # A run that never existed: the tool's NOT_FOUND, byte for byte, and in words on stderr.
        never = "r20260101T000000-deadbeef"
        missing = await anyio.to_thread.run_sync(cli_main, ["runs", "cancel", never], env)
        tool = await client.call_tool("antigravity_cancel", {"run_id": never})
    assert missing.returncode == 1 and missing.stdout == tool.content[0].text + "\n"
    assert json.loads(missing.stdout)["status"] == "NOT_FOUND" and "Check the run_id" in missing.stderr


# --------------------------------------------------------------------------- an argument the tool does not know


async def test_an_argument_the_tool_does_not_know_is_named_in_the_packet_not_dropped_in_silence(tmp_path, repo):
    # Party: the leader's model, which writes `mode` for execution_mode or `working_directory` for workspace.
    # Before: the names were dropped in silence (a log line on the relay's stderr, a field of the record): a run
    # asked `"mode": "trusted"` answered SUCCESS as if it had been trusted, and a call that named its folder
    # `working_directory` was told "no workspace: the call names none", which the model could not square with its
    # call. Gemini CLI adds wait_for_previous to every call itself: that one is not the model's doing, not named.
    agy = install_fake_agy(tmp_path / "fake", success_scenario([{"path": "a.py", "content": "x = 1\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        ran = payload(await client.call_tool("antigravity_execute", {
            "task": "add a", "workspace": str(repo), "mode": "trusted", "wait_for_previous": False}))
        lost = payload(await client.call_tool("antigravity_execute", {"task": "add a",
                                                                      "working_directory": str(repo)}))
        again = payload(await client.call_tool("antigravity_continue", {
            "run_id": ran["run_id"], "feedback": "and b", "timeout": 600}))
        plain = payload(await client.call_tool("antigravity_execute", {
            "task": "add a", "workspace": str(repo), "wait_for_previous": False}))
        kept = payload(await client.call_tool("antigravity_get_result", {"run_id": ran["run_id"]}))
    assert ran["status"] == "SUCCESS"
    (flag,) = [f for f in ran["flags"] if "ignored" in f]
    assert "'mode'" in flag and "antigravity_execute" in flag and "execution_mode" in flag
    assert "wait_for_previous" not in flag
    assert lost["status"] == "INVALID_WORKSPACE"
    assert any("'working_directory'" in f and "workspace" in f for f in lost["flags"]), lost
    assert any("'timeout'" in f and "antigravity_continue" in f and "timeout_minutes" in f for f in again["flags"])
    assert not any("ignored" in f for f in plain.get("flags", [])), plain
    assert kept["flags"] == ran["flags"]  # the recorded packet says it too


# --------------------------------------------------------------------------- numbers on the command line


def _doctor_env(tmp_path: Path, agy: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {"HOME": str(home), "PATH": "/usr/bin:/bin", "AGY_BIN": str(agy),
            "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "relay-data")}


def test_doctor_says_the_probe_timeout_it_was_given_and_refuses_one_that_is_no_time(tmp_path):
    # Before: `doctor --probe-timeout 0.5` failed the probe "did not answer within 25s" (the relay's default, not
    # the bound it was given), and `--probe-timeout -3` (or 0) was taken: the probe was cut at once and doctor
    # reported AUTH_TIMEOUT, an agy fault, for the person's typo.
    from conftest import cli_main
    from fake_agy_harness import scenario

    agy = install_fake_agy(tmp_path / "agy", scenario(models="hang", models_sleep=60))
    env = _doctor_env(tmp_path, agy)
    got = cli_main(["doctor", "--json", "--probe-timeout", "0.5"], env)
    auth = {c["name"]: c for c in json.loads(got.stdout)["checks"]}["auth"]
    assert auth["message"].startswith("AUTH_TIMEOUT") and "within 0.5s" in auth["message"], auth
    for bad in ("-3", "0", "nan", "soon"):
        refused = cli_main(["doctor", "--probe-timeout", bad], env)
        assert refused.returncode == 2 and refused.stdout == "", (bad, refused)
        assert f"--probe-timeout: {bad!r} is not" in refused.stderr and "e.g. --probe-timeout 60" in refused.stderr


@pytest.mark.parametrize(("args", "named"), [
    (["runs", "list", "--limit", "0"], "--limit: '0' is not"),
    (["runs", "list", "--limit", "-1"], "--limit: '-1' is not"),
    (["cleanup", "--max-age-days", "-5", "--dry-run"], "--max-age-days: '-5' is not"),
    (["cleanup", "--max-runs", "-1", "--dry-run"], "--max-runs: '-1' is not"),
])
def test_a_count_or_an_age_below_its_range_is_refused_naming_the_range(tmp_path, args, named):
    # Before: `runs list --limit 0` and `--limit -1` listed one run (a slice [:-1] of the newest), and `cleanup
    # --max-age-days -5` answered "max age -5 days" as if it were a limit; exit 0 each time.
    from conftest import cli_main

    got = cli_main(args, {"HOME": str(tmp_path), "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")})
    assert got.returncode == 2 and got.stdout == "", got
    assert named in got.stderr and ("a whole number" in got.stderr or "a number" in got.stderr), got.stderr


# --------------------------------------------------------------------------- setup on a machine a client never ran on


def test_setup_with_no_client_config_names_every_folder_it_looked_for_and_a_client_that_is_installed(tmp_path):
    # Before: a person who had just run `npm install -g @openai/codex` (codex on PATH, no ~/.codex until it first
    # runs) was told "No client found … Install a client", and the Claude Desktop line read "not found (no ); skipped"
    # (its only sign on Linux is the folder of its file, which the message left out).
    import os

    from conftest import cli_main

    home, bin_dir = tmp_path / "home", tmp_path / "bin"
    home.mkdir()
    bin_dir.mkdir()
    for name in ("codex", "claude"):
        (bin_dir / name).write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    env = {"HOME": str(home), "PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin",
           "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")}
    got = cli_main(["setup", "--dry-run"], env)
    assert got.returncode == 0, got.stderr
    lines = {line.split()[0]: line for line in got.stdout.splitlines() if line and not line.startswith(" ")}
    assert "(no )" not in got.stdout and "(no ~/.config/Claude)" in lines["claude-desktop"], got.stdout
    assert f"`codex` is on PATH ({bin_dir / 'codex'})" in lines["codex"] and "--client codex" in lines["codex"]
    assert f"`claude` is on PATH ({bin_dir / 'claude'})" in lines["claude"]
    assert "is on PATH" not in lines["gemini"]
    last = got.stdout.splitlines()[-1]
    assert last.startswith("No client found") and "Installed but never run here: codex, claude" in last, last
    assert "`gravity-relay setup --client codex --client claude`" in last
    assert sorted(p.name for p in home.iterdir()) == []  # a dry run


# --------------------------------------------------------------------------- a wrong argument's hint


async def test_a_wrong_arguments_hint_names_only_what_that_tool_takes(tmp_path):
    # Before: every tool's INVALID_INPUT hint ended "execution_mode is 'safe' or 'trusted'; detail is 'summary',
    # 'errors', 'full' or 'diff'", antigravity_cancel's too, which takes neither: a model reading it for a fix was
    # pointed at arguments the tool refuses to know.
    async with memory_relay(relay_env(tmp_path / "data", None)) as client:
        cancel = payload(await client.call_tool("antigravity_cancel", {}))
        get = payload(await client.call_tool("antigravity_get_result", {"run_id": "r1", "detail": "all"}))
        execute = payload(await client.call_tool("antigravity_execute", {"task": "t", "execution_mode": "yolo"}))
    assert cancel["error"]["hint"] == "Accepted arguments: run_id."
    assert "detail is 'summary', 'errors', 'full' or 'diff'" in get["error"]["hint"]
    assert "execution_mode" not in get["error"]["hint"]
    assert "execution_mode is 'safe' or 'trusted'" in execute["error"]["hint"] and "detail" not in execute["error"]["hint"]


# --------------------------------------------------------------------------- a profile field that is wrong


@pytest.mark.parametrize(("body", "said"), [
    ({"mode": "trusted"}, "profile 'app': Object contains unknown field `mode`"),
    ({"execution_mode": "yolo"}, "profile 'app': Invalid enum value 'yolo' - at `$.execution_mode`"),
    ("trusted", "profile 'app': Expected `object`, got `str`"),
])
async def test_a_wrong_profile_field_names_the_profile_it_is_in(tmp_path, repo, body, said):
    # Before: "GRAVITY_RELAY_PROFILES: Object contains unknown field `mode` - at `$[...]`": with several profiles the
    # person was not told which one to fix.
    from conftest import cli_main

    profiles = json.dumps({"ok": {}, "app": body, "last": {"execution_mode": "safe"}})
    env = relay_env(tmp_path / "data", None, GRAVITY_RELAY_PROFILES=profiles)
    async with memory_relay(env) as client:
        answer = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert answer["status"] == "INVALID_INPUT" and said in answer["error"]["message"], answer
    assert "A profile accepts: workspace, execution_mode" in answer["error"]["message"]
    doctor = cli_main(["doctor", "--json"], {**env, "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    (check,) = [c for c in json.loads(doctor.stdout)["checks"] if c["name"] == "profiles"]
    assert said in check["message"], check


# --------------------------------------------------------------------------- feedback to a run still running


async def test_feedback_to_a_run_still_running_is_told_how_to_wait_for_it_and_how_to_stop_it(tmp_path, repo):
    # Before: BUSY "Wait for its packet, then continue it." named no way to wait, so a model called again at once;
    # the relay has two (get_result with wait_seconds, cancel), and the hint names both, for continue and apply.
    import anyio

    from conftest import cli_main

    async with _running(tmp_path, repo) as (client, env, run_id):
        more = payload(await client.call_tool("antigravity_continue", {"run_id": run_id, "feedback": "more"}))
        apply = payload(await client.call_tool("antigravity_continue", {"run_id": run_id, "apply": True}))
        shell = await anyio.to_thread.run_sync(cli_main, ["runs", "apply", run_id], env)
        await client.call_tool("antigravity_cancel", {"run_id": run_id})
    for answer, then in ((more, "continue it"), (apply, "apply it")):
        assert answer["status"] == "BUSY" and answer["error"]["retryable"] is True, answer
        hint = answer["error"]["hint"]
        assert "antigravity_get_result" in hint and "wait_seconds" in hint and "antigravity_cancel" in hint, hint
        assert hint.endswith(f"then {then}."), hint
    assert json.loads(shell.stdout)["error"]["hint"] == apply["error"]["hint"] and apply["error"]["hint"] in shell.stderr


# --------------------------------------------------------------------------- the README's own registration line


def test_doctor_on_the_readmes_uvx_line_without_uv_says_what_is_missing(tmp_path):
    # The README's `codex mcp add antigravity -- uvx gravity-relay-mcp`, on a machine without uv. Before: doctor
    # failed it "its command uvx no longer exists", as if something had been removed, and sent the person back to
    # setup "from the installation you use" without naming uv, which that line needs.
    from conftest import cli_main

    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    (home / ".codex" / "config.toml").write_text(
        '[mcp_servers.antigravity]\ncommand = "uvx"\nargs = ["gravity-relay-mcp"]\n', encoding="utf-8")
    env = {"HOME": str(home), "PATH": str(tmp_path / "empty"), "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"),
           "AGY_BIN": str(tmp_path / "no-agy")}
    got = cli_main(["doctor", "--json"], env)
    (codex,) = [c for c in json.loads(got.stdout)["checks"] if c["name"] == "client codex"]
    assert codex["level"] == "failure", codex
    assert "its command uvx is not on PATH" in codex["message"] and "no longer" not in codex["message"], codex
    assert "Install uv (it provides uvx)" in codex["fix"] and "gravity-relay setup --client codex" in codex["fix"]


# --------------------------------------------------------------------------- get_result with run_id misspelled


async def test_get_result_with_run_id_misspelled_says_why_it_lists_the_recent_runs(tmp_path, repo):
    # Party: the leader's model, writing `runId` or `id`. Before: the list of recent runs answered as if the call had
    # asked for it, and the model read it as that run's result. Gemini CLI's own wait_for_previous stays unsaid.
    agy = install_fake_agy(tmp_path / "fake", success_scenario([{"path": "a.py", "content": "x = 1\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        ran = payload(await client.call_tool("antigravity_execute", {"task": "add a", "workspace": str(repo)}))
        misspelled = payload(await client.call_tool("antigravity_get_result",
                                                    {"runId": ran["run_id"], "wait_for_previous": False}))
        listed = payload(await client.call_tool("antigravity_get_result", {"wait_for_previous": False}))
    assert [row["run_id"] for row in misspelled["recent_runs"]] == [ran["run_id"]]
    said = misspelled["ignored"]
    assert "'runId'" in said and "run_id" in said and "wait_for_previous" not in said, said
    assert "ignored" not in listed, listed


async def test_get_result_with_a_run_id_and_an_argument_it_does_not_take_is_refused_naming_it(tmp_path, repo):
    # Party: the leader's model, writing `details` for detail. Before: the summary answered as if the diff had been
    # asked for, and the model went on sure it had read the diff. Gemini CLI's own wait_for_previous stays unsaid.
    agy = install_fake_agy(tmp_path / "fake", success_scenario([{"path": "a.py", "content": "x = 1\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        ran = payload(await client.call_tool("antigravity_execute", {"task": "add a", "workspace": str(repo)}))
        wrong = payload(await client.call_tool("antigravity_get_result", {"run_id": ran["run_id"], "details": "diff",
                                                                          "wait_for_previous": False}))
        right = payload(await client.call_tool("antigravity_get_result", {"run_id": ran["run_id"],
                                                                          "wait_for_previous": False}))
    assert wrong["ok"] is False and wrong["error"]["code"] == "INVALID_INPUT", wrong
    said = wrong["error"]["message"] + wrong["error"]["hint"]
    assert "'details'" in said and "detail" in said.replace("'details'", "") and "wait_for_previous" not in said, said
    assert right["run_id"] == ran["run_id"] and right["status"] == "SUCCESS", right


def test_doctor_points_at_a_readme_section_that_exists(tmp_path):
    # Before: doctor's profiles line sent the person to "README, 'Who may choose trusted'", a heading the README does
    # not have (it is "Profiles and who may choose trusted").
    import re

    from conftest import cli_main

    got = cli_main(["doctor", "--json"], {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
                                          "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")})
    (profiles,) = [c for c in json.loads(got.stdout)["checks"] if c["name"] == "profiles"]
    named = re.findall(r"README, '([^']+)'", profiles["message"])
    headings = {line.lstrip("#").strip() for line in
                (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8").splitlines() if line.startswith("## ")}
    assert named and all(name in headings for name in named), (named, headings)


async def test_continue_with_nothing_names_run_id_and_feedback_at_once(tmp_path):
    # Party: the leader's model. Before: antigravity_continue({}) answered "needs feedback or apply=true; feedback was
    # left out"; the model added feedback and was then told, a turn later, that run_id was missing too.
    async with memory_relay(relay_env(tmp_path / "data", None)) as client:
        empty = payload(await client.call_tool("antigravity_continue", {}))
        named = payload(await client.call_tool("antigravity_continue", {"run_id": "r20260101T000000-deadbeef"}))
    assert empty["status"] == "INVALID_INPUT"
    assert "run_id was left out" in empty["error"]["message"] and "feedback was left out" in empty["error"]["message"]
    assert empty["error"]["hint"].startswith("Pass the run_id from the packet")
    assert "run_id" not in named["error"]["message"] and named["error"]["hint"].startswith("Say in `feedback`")
