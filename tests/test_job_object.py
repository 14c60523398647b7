"""Windows Job Objects (relay/core/winjob.py; issue 37 W1, issue 34 §2 on Windows): nothing a worker starts
outlives its spawn, nor the relay when a client terminates it outright.

Two halves. On every OS: the kernel32 call sequence against a stub (the flags, the structure's layout, each
refusal closing what it opened, a suspended child always resumed). On Windows only (the windows-latest CI
leg; this file is in conftest's Windows-runnable set): the real thing — a worker's detached, environment-less
grandchild gone at the spawn's end, and a relay killed with TerminateProcess taking its worker with it within
the 2 s a client waits.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from relay.core import winjob

windows_only = pytest.mark.skipif(sys.platform != "win32", reason="a real Job Object needs Windows")


class StubKernel32:
    """Records each call; ``refuse`` names the calls that fail (return 0, as kernel32 does)."""

    def __init__(self, refuse: set[str] = frozenset()) -> None:
        self.calls: list[tuple] = []
        self.refuse = refuse
        self.limits: winjob.ExtendedLimits | None = None

    def _answer(self, name: str, value: int) -> int:
        return 0 if name in self.refuse else value

    def CreateJobObjectW(self, attributes, name):
        self.calls.append(("CreateJobObjectW", attributes, name))
        return self._answer("CreateJobObjectW", 0x70)

    def SetInformationJobObject(self, job, klass, info, size):
        self.limits = winjob.ExtendedLimits.from_buffer_copy(ctypes.string_at(ctypes.addressof(info._obj), size))
        self.calls.append(("SetInformationJobObject", job, klass, size))
        return self._answer("SetInformationJobObject", 1)

    def OpenProcess(self, access, inherit, pid):
        self.calls.append(("OpenProcess", access, inherit, pid))
        return self._answer("OpenProcess", 0x80)

    def AssignProcessToJobObject(self, job, process):
        self.calls.append(("AssignProcessToJobObject", job, process))
        return self._answer("AssignProcessToJobObject", 1)

    def TerminateJobObject(self, job, code):
        self.calls.append(("TerminateJobObject", job, code))
        return 1

    def CloseHandle(self, handle):
        self.calls.append(("CloseHandle", handle))
        return 1


def test_each_spawn_gets_a_kill_on_close_job_and_is_put_in_it():
    k = StubKernel32()
    job = winjob.contain(4242, kernel32=k)
    assert job is not None and job.handle == 0x70
    assert k.calls == [
        ("CreateJobObjectW", None, None),
        ("SetInformationJobObject", 0x70, 9, ctypes.sizeof(winjob.ExtendedLimits)),  # JobObjectExtendedLimitInformation
        ("OpenProcess", 0x0100 | 0x0001, False, 4242),  # PROCESS_SET_QUOTA | PROCESS_TERMINATE
        ("AssignProcessToJobObject", 0x70, 0x80),
        ("CloseHandle", 0x80),  # the process handle only: the job's is kept until the spawn ends
    ]
    # Kill on close, and nothing else: no breakaway allowed, no limit that could stop agy on its own.
    assert k.limits.BasicLimitInformation.LimitFlags == 0x2000
    job.terminate()
    job.close()
    job.close()  # twice: the handle is closed once
    assert k.calls[-2:] == [("TerminateJobObject", 0x70, 1), ("CloseHandle", 0x70)]


def test_the_limit_structure_has_windows_layout():
    # JOBOBJECT_EXTENDED_LIMIT_INFORMATION: 144 bytes on 64-bit Windows, 112 on 32-bit; LimitFlags at offset 16.
    # SetInformationJobObject fails with ERROR_BAD_LENGTH on any other size.
    assert winjob.BasicLimits.LimitFlags.offset == 16
    assert ctypes.sizeof(winjob.ExtendedLimits) == (144 if ctypes.sizeof(ctypes.c_void_p) == 8 else 112)
    assert winjob.ExtendedLimits.IoInfo.offset == ctypes.sizeof(winjob.BasicLimits)


@pytest.mark.parametrize(("refused", "closed"), [("CreateJobObjectW", []), ("SetInformationJobObject", [0x70]),
                                                  ("OpenProcess", [0x70]), ("AssignProcessToJobObject", [0x80, 0x70])])
def test_a_refused_call_closes_what_it_opened_and_leaves_the_spawn_to_its_tree_and_token(refused, closed, caplog):
    k = StubKernel32(refuse={refused})
    assert winjob.contain(4242, kernel32=k) is None
    assert [c[1] for c in k.calls if c[0] == "CloseHandle"] == closed, k.calls
    assert refused in caplog.text and "tree and token" in caplog.text


def test_a_suspended_child_is_resumed_even_when_its_job_cannot_be_made():
    # A child left suspended would hang the call for ever: whatever the job calls did, it runs.
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        psutil.Process(child.pid).suspend()
        assert winjob.hold(child.pid, kernel32=StubKernel32(refuse={"AssignProcessToJobObject"})) is None
        assert psutil.Process(child.pid).status() != psutil.STATUS_STOPPED

        class Broken:
            def __getattr__(self, name):
                raise OSError("no kernel32 here")

        psutil.Process(child.pid).suspend()
        assert winjob.hold(child.pid, kernel32=Broken()) is None
        assert psutil.Process(child.pid).status() != psutil.STATUS_STOPPED
    finally:
        child.kill()
        child.wait()


# --------------------------------------------------------------------------- the real thing (Windows)

# A worker that starts a grandchild the way a daemon escapes on Windows (a new console group, no console, an
# empty environment, breakaway asked for), writes its pid, then waits (or exits at once with "exit").
_WORKER = r"""
import os, subprocess, sys, time
flags = 0x200 | 0x8 | 0x01000000  # CREATE_NEW_PROCESS_GROUP | DETACHED_PROCESS | CREATE_BREAKAWAY_FROM_JOB
argv = [sys.executable, "-c", "import time; time.sleep(120)"]
env = {"SYSTEMROOT": os.environ.get("SYSTEMROOT", "")}
try:
    child = subprocess.Popen(argv, creationflags=flags, env=env)
except OSError:  # the job forbids breakaway: the same without it
    child = subprocess.Popen(argv, creationflags=flags & ~0x01000000, env=env)
open(sys.argv[1], "w").write(f"{os.getpid()} {child.pid}")
if sys.argv[2] != "exit":
    time.sleep(120)
"""

# A relay in miniature: one spawn through relay.core.process.spawned, then it waits to be killed.
_RELAY = r"""
import sys, anyio
from relay.core.process import spawned

async def main():
    async with spawned([sys.executable, "-c", sys.argv[1], sys.argv[2], "wait"]):
        await anyio.sleep(120)

anyio.run(main)
"""


def _pids(path: Path, seconds: float = 30.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            text = ""
        if len(text.split()) == 2:
            return [int(p) for p in text.split()]
        time.sleep(0.05)
    raise TimeoutError("the worker never wrote its pids")


def _all_gone(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            psutil.Process(pid).kill()
        except psutil.Error:
            pass


@windows_only
@pytest.mark.anyio
async def test_a_detached_environment_less_grandchild_is_gone_at_the_spawns_end(tmp_path):
    from relay.core.process import spawned

    out = tmp_path / "pids"
    async with spawned([sys.executable, "-c", _WORKER, str(out), "exit"]) as proc:
        await proc.wait()
    worker, grandchild = _pids(out)
    try:
        assert _all_gone([grandchild], 5), "the worker's detached grandchild outlived its spawn"
    finally:
        _kill([worker, grandchild])


@windows_only
def test_a_relay_terminated_outright_takes_its_worker_and_grandchild_with_it_within_two_seconds(tmp_path):
    # What a client does when it leaves: close stdin, wait ~2 s, TerminateProcess. Broke (no job): agy went on.
    out = tmp_path / "pids"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    relay = subprocess.Popen([sys.executable, "-c", _RELAY, _WORKER, str(out)], env=env, stdin=subprocess.DEVNULL)
    pids: list[int] = []
    try:
        pids = _pids(out)
        relay.kill()  # TerminateProcess: no cleanup of the relay's own runs
        relay.wait(timeout=10)
        assert _all_gone(pids, 2.0), "the worker or its grandchild outlived the relay"
    finally:
        if relay.poll() is None:
            relay.kill()
        _kill(pids)
