"""What holds a spawn's descendants that left its group, its tree and its token (issue 34 §2).

A daemon a worker starts with a double fork, ``setsid`` and an empty environment (``env -i``) has no group, no
parent and no token of the relay's: the group, tree and token searches of ``platform`` cannot find it, and
it can go on writing into the workspace after the relay's look. Where the kernel can hold such orphans, it
does, per spawn:

* Linux: each spawn runs under its own subreaper (``reaper_shim.py``: ``prctl(PR_SET_CHILD_SUBREAPER)``),
  which starts the program as the leader of its own session and group (so the record's pgid stays the
  program's pid) and adopts every orphan among its descendants. While it lives they are in its psutil tree
  (the relay's stop reaches them); when the program ends it stops and reaps them itself, then exits as the
  program did. Per spawn, not the relay process itself: an orphan re-parented to the relay could not be told
  apart from another run's orphan, from git, or from the host process's own children (a test runner, an
  embedding app) — a per-spawn reaper holds exactly one spawn's descendants, by construction, and leaves no
  zombies in the relay. Costs one small Python process per spawn (~12 ms of CPU: bench/bench_launches.py).
* Windows: a Job Object per spawn (``winjob.py``), closed at the spawn's end: KILL_ON_JOB_CLOSE.
* macOS (and any POSIX without a subreaper): nothing kernel-side. What holds there is the worker's group
  (a helper that stayed in it, even once orphaned), its tree while the leader lives, and the token where
  ``environ()`` can be read (rarely, on recent macOS). A daemon that double-forks, calls ``setsid`` and
  clears its environment outlives the run there; docs/security.md says so.

Where no subreaper can be made (not Linux, the POSIX group calls absent, no ``prctl``) ``wrap`` returns
None and spawns run as before.

The relay's own death (SIGKILL: Claude Code's 0.5 s after its SIGINT, an OOM killer, ``kill -9``) stops
nothing in the relay. Each shim then stops its program itself: it holds the read end of this process's
*lifeline*, a pipe whose write end the relay alone holds (close-on-exec: no program it starts inherits it) and
never writes to, so its end of file means the relay is gone, whoever killed it. A pipe rather than
``PR_SET_PDEATHSIG``: that fires when the *thread* that forked the shim ends (``popen_held`` spawns from worker
threads that a pool retires), and a parent that died before the ``prctl`` must be caught by a ``getppid`` check;
an end of file has neither problem. The run's record is left to the next relay (recovery finishes it, as it
finishes every dead relay's run); every view reads it INTERRUPTED from the moment its relay is gone.
Windows has the same guarantee from the kernel (the job's KILL_ON_JOB_CLOSE, ``winjob.py``); macOS has neither.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from relay.core.platform import posix_groups

__all__ = ["available", "Held", "wrap", "lifeline"]

log = logging.getLogger("relay.core.reaper")

SHIM = Path(__file__).with_name("reaper_shim.py")
# The shim imported, not run as a script: a script is compiled on every start (~3 ms of CPU of a ~15 ms start-up,
# paid on every spawn), an imported module is read from its cached bytecode. Its folder goes last on the path, so
# no name there can stand in for the standard library's; with -c the shim's argv[1:] are its FD and ARGV.
_START_SHIM = f"import sys; sys.path.append({str(SHIM.parent)!r}); import reaper_shim; sys.exit(reaper_shim.main())"


@functools.cache
def _prctl() -> bool:
    if not sys.platform.startswith("linux") or not SHIM.is_file():
        return False
    try:
        import ctypes

        return hasattr(ctypes.CDLL(None), "prctl")
    except (OSError, ImportError):
        return False


def available() -> bool:
    """Whether spawns here run under a subreaper (read at each call: a test removes the group calls)."""
    return posix_groups() and _prctl()


@dataclass
class Held:
    """One spawn under its subreaper: the argv that starts the shim, and the pipe it answers on."""

    argv: list[str]
    read_fd: int
    write_fd: int
    options: dict = field(default_factory=dict)

    def started(self) -> None:
        """Right after the shim was started: the relay lets go of the pipe's write end."""
        self.write_fd = _close(self.write_fd)

    async def leader(self) -> int:
        """The program's pid, once the shim started it; OSError (as Popen's) when it could not be started."""
        return await anyio.to_thread.run_sync(self.leader_now)

    def leader_now(self) -> int:
        """``leader``, for a caller that may block (a synchronous spawn: ``process.popen_held``)."""
        self.started()
        try:
            answer = _read_all(self.read_fd)
        finally:
            self.read_fd = _close(self.read_fd)
        kind, _, rest = answer.decode("utf-8", "replace").partition(" ")
        if kind == "ok":
            pid, _, held = rest.partition(" ")
            if held.strip() != "1":
                log.warning("prctl(PR_SET_CHILD_SUBREAPER) was refused: orphans of pid %s are found by group and "
                            "token only", pid)
            return int(pid)
        if kind == "err":
            number, _, text = rest.partition(" ")
            raise OSError(int(number) if number.isdigit() else 0, text or "could not start")
        raise OSError(0, "the subreaper ended before it started the program")

    def abandon(self) -> None:
        self.write_fd = _close(self.write_fd)
        self.read_fd = _close(self.read_fd)


def wrap(argv: list[str]) -> Held | None:
    """``argv`` started under a subreaper: what to start instead; None where there is no subreaper."""
    if not available():
        return None
    life = lifeline()
    read_fd, write_fd = os.pipe()
    return Held(argv=[sys.executable, "-I", "-S", "-c", _START_SHIM, str(write_fd), str(life), *argv],
                read_fd=read_fd, write_fd=write_fd, options={"pass_fds": (write_fd, life)})


# This process's lifeline: (its pid, the read end, the write end). Both ends are close-on-exec (os.pipe), and a
# spawn passes the read end alone (pass_fds), so the write end is this process's only, until it dies.
_LIFELINE: list[tuple[int, int, int]] = []
_LIFELINE_MADE = threading.Lock()  # popen_held spawns from threads


def lifeline() -> int:
    """The read end of this process's lifeline, made at its first spawn. A forked copy of the relay makes its own
    and closes the one it inherited: its parent's shims must see their relay's death, not wait for the copy's."""
    with _LIFELINE_MADE:
        if _LIFELINE and _LIFELINE[0][0] != os.getpid():
            _, inherited_read, inherited_write = _LIFELINE.pop()
            _close(inherited_read)
            _close(inherited_write)
        if not _LIFELINE:
            _LIFELINE.append((os.getpid(), *os.pipe()))
        return _LIFELINE[0][1]


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 4096):
        chunks.append(chunk)
    return b"".join(chunks)


def _close(fd: int) -> int:
    """Close ``fd`` once (-1: closed already; a number closed twice could be another file's by then)."""
    if fd >= 0:
        try:
            os.close(fd)
        except OSError:
            pass
    return -1
