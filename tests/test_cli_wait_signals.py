"""The shell's detached relay (``execute --wait``, relay/doors/cli_wait.py) stops the way the MCP relays do.

Real processes: the CLI parent, the child relay it leaves behind, the fake agy with a grandchild. The party is
whoever stops the child (a client sending SIGINT then SIGTERM, a person pressing Ctrl-C on the command): the run
is recorded CANCELLED and no worker is left, whatever the order and number of signals.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import relay_env
from fake_agy_harness import failure_scenario, install_fake_agy, launches, pid_alive, wait_for_launches, wait_until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="sends POSIX signals")

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]


def _until(condition, seconds: float = 30.0) -> None:
    wait_until(condition, "the condition", timeout=seconds)


def _record(data: Path) -> dict:
    (path,) = (data / "runs").glob("r*.json")
    return json.loads(path.read_text(encoding="utf-8"))


def _hung_run(tmp_path: Path, repo: Path, wait: str) -> tuple[Path, dict[str, str], list[str]]:
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", grandchild=True, edits=EDIT))
    env = {**os.environ, **relay_env(tmp_path / "data", agy)}
    return agy, env, [sys.executable, "-m", "relay", "execute", "t", "--workspace", str(repo), "--wait", wait]


def _cleanup(*pids: int) -> None:
    for pid in pids:
        if pid and pid_alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_sigint_then_sigterm_to_the_detached_relay_still_records_cancelled_and_stops_the_worker(tmp_path, repo):
    # Broke: cli_wait's child left its signal receiver after the first signal, so the second one (SIGTERM 50 ms
    # after SIGINT) took the default action mid-cleanup: the worker was stopped, the record stayed "running".
    agy, env, argv = _hung_run(tmp_path, repo, "0.3")
    early = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL, encoding="utf-8")
    assert early.returncode == 0 and json.loads(early.stdout)["status"] == "RUNNING", early.stderr
    (run,) = wait_for_launches(agy, 1)
    _until(lambda: launches(agy)[0]["grandchild_pid"] and (repo / "src" / "new.py").exists())
    (run,) = launches(agy)
    child = _record(tmp_path / "data")["process"]["relay_pid"]
    try:
        os.kill(child, signal.SIGINT)
        time.sleep(0.05)  # the child relay is stopping when the second signal comes
        os.kill(child, signal.SIGTERM)
        _until(lambda: not pid_alive(child))
        _until(lambda: not pid_alive(run["pid"]) and not pid_alive(run["grandchild_pid"]), 10)
    finally:
        _cleanup(child, run["pid"], run["grandchild_pid"])
    record = _record(tmp_path / "data")
    assert record["state"] == "finished" and record["outcome"]["status"] == "CANCELLED", record.get("outcome")


def _as_a_foreground_command() -> None:
    """SIGINT at its default in the command, as a shell starts the command a person presses Ctrl-C on. An ignored
    signal is inherited across exec, and Python leaves an ignored SIGINT ignored (no KeyboardInterrupt): under a
    pytest started with SIGINT ignored (a background job of a non-interactive shell, `nohup`, some CI runners) the
    command never saw its Ctrl-C and the test failed every time, after its 60 s wait (`trap "" INT` before pytest
    reproduces it), which read as a flake of loaded machines, where suites are run in the background."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_on_the_command_before_the_answer_cancels_the_run_through_the_childs_stdin(tmp_path, repo):
    # Ctrl-C reaches the command only (the child relay has a session, on Windows a console, of its own): the
    # command passes it on as a line on the child's stdin, the one way that works on every platform.
    agy, env, argv = _hung_run(tmp_path, repo, "600")
    parent = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              preexec_fn=_as_a_foreground_command)
    run = {"pid": 0, "grandchild_pid": 0}
    try:
        wait_for_launches(agy, 1)
        _until(lambda: launches(agy)[0]["grandchild_pid"])
        (run,) = launches(agy)
        child = _record(tmp_path / "data")["process"]["relay_pid"]
        parent.send_signal(signal.SIGINT)
        # 60 s, not 30: once in a full-suite run (quiet machine, -n 4) the command took over 30 s to leave after
        # its Ctrl-C; passed alone 5 of 5 (session 9's note). A likely cause, fixed in session 13: the stopped run's
        # look was "bounded at 30 s" by a cancel scope around a thread it could not interrupt, and the child relay's
        # exit joined that thread (tests/test_stopped_look.py). Not reproduced since (5x each under 4 busy loops).
        # A command that never leaves still fails here.
        assert parent.wait(timeout=60) == 130
        _until(lambda: not pid_alive(child))
        _until(lambda: not pid_alive(run["pid"]) and not pid_alive(run["grandchild_pid"]), 10)
    finally:
        if parent.poll() is None:
            parent.kill()
        _cleanup(run["pid"], run["grandchild_pid"])
    record = _record(tmp_path / "data")
    assert record["state"] == "finished" and record["outcome"]["status"] == "CANCELLED", record.get("outcome")
    assert "Traceback" not in parent.stderr.read().decode("utf-8", "replace")
