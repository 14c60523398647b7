"""A few representative runs, replayed the same way by any version of the relay.

Two uses: ``tests/fixtures/records_v1/`` holds the run records and packets these runs gave with the
relay at commit 9159aac (schema version 1, made by ``python tests/record_runs.py OUT_DIR`` there), and
``tests/test_record_versions.py`` replays them with today's relay: the packets must be byte for byte
the same, and the old records must still be listed, shown, diffed, reverted and applied.

What differs from one replay to the next is put in words first (``normalize``): the temp folder the
runs live in (``@ROOT@``), run ids and agy's conversation ids in packets (``@RUN1@``, ``@CONV2@``…, in
the order they appear), the worktree pool's folder hash, the size of a preview's prompt (it holds the folder), a quota's time to reset (it counts down), the
confirm token with its expiry, and the packet's ``usage`` (added by issue 27 after the fixtures were made; its
own tests pin its bytes). Records keep their run ids; only their temp folder becomes ``@ROOT@``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from fake_agy_harness import failure_scenario, install_fake_agy, make_report, set_scenario, success_scenario  # noqa: E402
from git_repos import git_env, make_repo  # noqa: E402

__all__ = ["SCENARIOS", "replay", "normalize", "profiles"]

ROOT = "@ROOT@"
_RUN_ID = re.compile(r"r\d{8}T\d{6}-[0-9a-f]{8}")
_TOKEN = re.compile(r"c1\.\d+\.[0-9a-f]+\.[0-9a-f]+")
_EXPIRES = re.compile(r'"expires_at":"[0-9TZ:-]+"')
_BEFORE = re.compile(r"before \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_CONVERSATION = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_RESETS = re.compile(r"Resets in [0-9hms]+")
_RESETS_IN = re.compile(r"\"resets_in_seconds\":\d+")
_PROMPT_SIZE = re.compile(r"<prompt, \d+ chars")  # holds the temp folder's path, whose length varies
_USAGE = re.compile(r',"usage":\{[^{}]*\}')  # issue 27's packet field, added after the fixtures (tests/test_usage.py)
_POOL = re.compile(r"/worktrees/([^/\"]+)-[0-9a-f]{12}/")

_EDITS = [{"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2,
           "content": "    return compute(1)\n"},
          {"op": "write", "path": "src/new.py", "content": "def compute(x):\n    return x + 1\n"}]
_FOLLOW_UP = [{"op": "append", "path": "src/new.py", "content": "\n\ndef twice(x):\n    return 2 * x\n"}]

SCENARIOS = ("success", "continued", "refused", "quota", "policy_revert", "verified", "worktree", "preview")


def profiles(root: Path) -> dict[str, Any]:
    return {
        "guarded": {"protected": ["README.md"], "on_violation": "revert"},
        "checked": {"verify": [f"{sys.executable} -c \"print('3 passed, 1 failed')\""]},
        "isolated": {"isolation": "worktree", "workspace": str(root / "iso")},
        "careful": {"execution_mode": "trusted", "confirm_trusted": True},
    }


def normalize(text: str, root: Path, ids: dict[str, str]) -> str:
    """``text`` with what differs between two replays of the same runs put in words."""
    text = text.replace(str(root), ROOT)
    for found in _RUN_ID.findall(text):
        ids.setdefault(found, f"@RUN{len(ids) + 1}@")
    for real, word in ids.items():
        text = text.replace(real, word)
    for found in _CONVERSATION.findall(text):
        ids.setdefault(found, f"@CONV{len(ids) + 1}@")
    for real, word in ids.items():
        text = text.replace(real, word)
    text = _RESETS.sub("Resets in @RESETS@", text)
    text = _RESETS_IN.sub('"resets_in_seconds":0', text)
    text = _POOL.sub(r"/worktrees/\1-@POOL@/", text)
    text = _USAGE.sub("", text)
    text = _PROMPT_SIZE.sub("<prompt, @N@ chars", text)
    text = _TOKEN.sub("@TOKEN@", text)
    text = _EXPIRES.sub('"expires_at":"@EXPIRES@"', text)
    return _BEFORE.sub("before @EXPIRES@", text)


async def replay(root: Path) -> dict[str, tuple[str, str | None]]:
    """Run every scenario under ``root``: {name: (the packet's text as the tool answers it, run id)}.

    The relay is built as `serve` builds it and called through the tools' one dispatch (both doors' bytes).
    """
    from relay.call.orchestrate import Relay
    from relay.core.settings import load_settings
    from relay.doors.tools import call_tool

    root = Path(root)
    repo = make_repo(root / "project")
    make_repo(root / "iso")
    agy = install_fake_agy(root / "bin", success_scenario(
        _EDITS, report=make_report(summary="Routed main through compute.", files_changed=["src/app.py", "src/new.py"],
                                   tests_passed=2, tests_run=True)))
    env = {"GRAVITY_RELAY_DATA_DIR": str(root / "data"), "AGY_BIN": str(agy), "PATH": "/usr/bin:/bin",
           "HOME": str(root), "GRAVITY_RELAY_PROFILES": json.dumps(profiles(root))}
    relay = Relay(load_settings(env), environ=env)
    answers: dict[str, tuple[str, str | None]] = {}

    async def call(name: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        answer = await call_tool(relay, tool, arguments)
        obj = json.loads(answer.text)
        answers[name] = (answer.text, obj.get("run_id"))
        return obj

    first = await call("success", "antigravity_execute", {"task": "Route main through compute()",
                                                         "workspace": str(repo)})
    set_scenario(agy, success_scenario(_FOLLOW_UP, report=make_report(summary="Added twice().",
                                                                      files_changed=["src/new.py"])))
    await call("continued", "antigravity_continue", {"run_id": first["run_id"], "feedback": "Add twice() too"})
    await call("refused", "antigravity_execute", {"task": "t", "workspace": "relative/path"})
    set_scenario(agy, failure_scenario("quota_1_2_11"))
    await call("quota", "antigravity_execute", {"task": "Anything", "workspace": str(repo)})
    set_scenario(agy, success_scenario([{"op": "write", "path": "README.md", "content": "# changed\n"}]))
    await call("policy_revert", "antigravity_execute", {"task": "Edit the readme", "workspace": str(repo),
                                                        "profile": "guarded"})
    set_scenario(agy, success_scenario([{"op": "write", "path": "src/more.py", "content": "y = 2\n"}]))
    await call("verified", "antigravity_execute", {"task": "Add more.py", "workspace": str(repo),
                                                   "profile": "checked"})
    set_scenario(agy, success_scenario([{"op": "write", "path": "src/iso.py", "content": "z = 3\n"}]))
    await call("worktree", "antigravity_execute", {"task": "Add iso.py", "profile": "isolated"})
    await call("preview", "antigravity_execute", {"task": "Trusted work", "workspace": str(repo),
                                                  "profile": "careful", "execution_mode": "trusted"})
    return answers


def agy_path(root: Path) -> Path:
    return root / "bin" / "agy"


def _capture(out: Path) -> None:
    """Write the fixtures: each run's record (and patch), its packet, and the isolated repository."""
    import shutil
    import tempfile

    import anyio

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        answers = anyio.run(replay, root)
        ids: dict[str, str] = {}
        packets = {name: normalize(text, root, ids) for name, (text, _) in answers.items()}
        (out / "packets.json").write_text(json.dumps(packets, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        runs = root / "data" / "runs"
        names = {run_id: name for name, (_, run_id) in answers.items() if run_id}
        for path in sorted(runs.iterdir()):
            run_id = path.name.split(".", 1)[0]
            if run_id in names and path.suffix in (".json", ".patch"):
                # Run ids stay as written (the isolated repository's branch and commit message hold them).
                text = path.read_text(encoding="utf-8").replace(str(root), ROOT)
                (out / f"{names[run_id]}{path.suffix}").write_text(text, encoding="utf-8")
        # A run whose relay died mid-run (what recovery finds): written by the store, as a crash leaves it.
        from relay.core.contracts import ProcessStamp, RunRecord
        from relay.runs.store import RunStore

        gone = RunRecord(run_id="r20261201T090000-0000dead", created_at="2026-12-01T09:00:00.000000Z",
                         task="A run whose relay died", workspace=str(root / "project"), relay_pid=4194303,
                         relay_stamp=ProcessStamp(pid=4194303, start="linux:1"), agy_bin=str(agy_path(root)))
        RunStore(runs).write(gone)
        (out / "interrupted.json").write_text(
            (runs / f"{gone.run_id}.json").read_text(encoding="utf-8").replace(str(root), ROOT), encoding="utf-8")
        stream = subprocess.run(["git", "fast-export", "--all"], cwd=root / "iso", env=git_env(),
                                capture_output=True, check=True).stdout
        (out / "iso.fast-export").write_bytes(stream)
        shutil.rmtree(root / "data", ignore_errors=True)


if __name__ == "__main__":
    _capture(Path(sys.argv[1]))
