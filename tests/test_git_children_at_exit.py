"""A git the relay started outlives the relay (relay.observe.git): an abandoned look's git, left running in its daemon
thread when a stopped run's look took past its bound, kept going after the relay left (its timeout's timer is a daemon
too, and dies with the relay): a git held on a FIFO the worker made never ended.

The party: the worker (it makes what holds git: a FIFO where git reads). The relay process is real, its git real, held
on a real FIFO; the relay leaves by its own exits: the signal path's ``_exit_now`` (``os._exit``: no atexit runs) and
an ordinary end of the interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

# POSIX: a FIFO holds git. A real relay process driven from outside, for seconds: the process tier (tests/conftest.py).
pytestmark = [pytest.mark.skipif(os.name == "nt", reason="a FIFO holds git: POSIX"), pytest.mark.process]

_RELAY = r"""
import sys, threading, time
from pathlib import Path
import psutil
from relay.observe.git import GitError, run_git

fifo, cwd, leave = sys.argv[1:4]

def look():  # an abandoned look: git reads a file the worker made a FIFO, and waits for a writer
    try:
        run_git(Path(cwd), "config", ["--list", f"--file={fifo}"], timeout=600)
    except GitError:
        pass

threading.Thread(target=look, daemon=True).start()
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    held = [p for p in psutil.Process().children(recursive=True) if fifo in " ".join(p.cmdline())]
    if held:
        time.sleep(1.0)  # a look is abandoned after seconds, never in the instant its git starts
        print(held[0].pid, flush=True)
        break
    time.sleep(0.05)
if leave == "exit_now":
    from relay.doors.mcp_server import _exit_now
    _exit_now(0)
"""


def _ours(pid: int, fifo: Path) -> psutil.Process | None:
    """The git held on ``fifo``, if ``pid`` is still it (a reused pid is not)."""
    try:
        proc = psutil.Process(pid)
        return proc if str(fifo) in " ".join(proc.cmdline()) and proc.status() != psutil.STATUS_ZOMBIE else None
    except psutil.Error:
        return None


@pytest.mark.parametrize("leave", ["exit_now", "return"])
def test_the_relays_exit_stops_the_git_an_abandoned_look_left_running(tmp_path, leave):
    # Broke: after the relay left, its git was still there, held on the FIFO (for good: nothing would ever write it).
    fifo = tmp_path / "config-fifo"
    os.mkfifo(fifo)
    relay = subprocess.run([sys.executable, "-c", _RELAY, str(fifo), str(tmp_path), leave], capture_output=True,
                           encoding="utf-8", timeout=60)
    assert relay.stdout.strip().isdigit(), relay  # git was started and held: the test is not vacuous
    pid = int(relay.stdout.strip())
    deadline = time.monotonic() + 5
    while _ours(pid, fifo) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _ours(pid, fifo)
    if left is not None:  # set the leftover free before failing: this test's own grandchild, checked just above
        left.kill()
    assert left is None, f"git {pid} outlived the relay ({leave})"
