"""Which process a pid on disk really is: start time + boot id beside every pid the relay records.

A pid read back from a run record or a queue ticket may have been reused by the
kernel (after a reboot, or simply after many processes). Before the relay trusts
such a pid as "still running" or kills its group, it compares what it recorded
at the time with what the OS says now:

* Linux: field 22 of ``/proc/PID/stat`` (start time in clock ticks since boot)
  and ``/proc/sys/kernel/random/boot_id``; for a worker also the marker
  ``GRAVITY_RELAY_WORKER_RUN=<run_id>`` in ``/proc/PID/environ`` when readable.
* elsewhere: ``ps -o lstart= -p PID`` (one short call; psutil is not a dependency).

Every answer is one of ``SAME`` (verified), ``GONE`` (no such process), ``OTHER``
(a different process now has that pid) or ``UNKNOWN`` (cannot tell). Callers that
kill act only on ``SAME``: on doubt, never kill.
"""

from __future__ import annotations

import enum
import os
import subprocess

from relay.core.contracts import ProcessStamp
from relay.core.settings import WORKER_MARKER_ENV

__all__ = ["Identity", "own_stamp", "stamp_of", "check", "worker_marker", "group_members", "group_is_run", "owner_alive",
           "started_after"]

_PROC = "/proc"


class Identity(str, enum.Enum):
    SAME = "same"
    GONE = "gone"
    OTHER = "other"
    UNKNOWN = "unknown"


def _boot_id() -> str | None:
    try:
        with open(os.path.join(_PROC, "sys", "kernel", "random", "boot_id"), encoding="ascii") as fh:
            return fh.read().strip() or None
    except OSError:
        return None


def _linux_start(pid: int) -> str | None:
    """Start time in clock ticks since boot (stat field 22), or None if there is no such process."""
    try:
        with open(os.path.join(_PROC, str(pid), "stat"), "rb") as fh:
            stat = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    # Fields after the ")" closing the command name start at field 3 (state); field 22 is index 19.
    fields = stat.rsplit(")", 1)[-1].split()
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None  # a zombie has finished: it is not running anything
    return fields[19]


def _ps_start(pid: int) -> str | None:
    try:
        out = subprocess.run(["ps", "-o", "lstart=", "-p", str(pid)], capture_output=True, text=True, timeout=3,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    text = out.stdout.strip()
    return text or None


def _has_proc() -> bool:
    return os.path.isdir(os.path.join(_PROC, "self"))


def _start_of(pid: int) -> tuple[str | None, str]:
    if _has_proc():
        return _linux_start(pid), "linux"
    return _ps_start(pid), "ps"


def stamp_of(pid: int, *, marker: str | None = None) -> ProcessStamp | None:
    """What identifies ``pid`` now; None if it cannot be read (the process is gone, or no way to tell)."""
    start, kind = _start_of(pid)
    if start is None:
        return None
    return ProcessStamp(pid=pid, start=f"{kind}:{start}", boot_id=_boot_id(), marker=marker)


def _pid_exists(pid: int) -> bool | None:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return None
    return True


def check(stamp: ProcessStamp | None, pid: int | None = None) -> Identity:
    """Is the process recorded in ``stamp`` (or, with no stamp, the bare ``pid``) the one alive now?"""
    pid = stamp.pid if stamp is not None else pid
    if not pid or pid <= 0:
        return Identity.GONE
    exists = _pid_exists(pid)
    if exists is False:
        return Identity.GONE
    if stamp is None:
        return Identity.UNKNOWN  # an old record: a pid and nothing to compare it with
    boot = _boot_id()
    if stamp.boot_id and boot and stamp.boot_id != boot:
        return Identity.OTHER  # recorded before a reboot: whatever has that pid now is not it
    start, kind = _start_of(pid)
    if start is None:
        return Identity.GONE if kind == "linux" else Identity.UNKNOWN  # linux: gone or a zombie since
    if not stamp.start.startswith(kind + ":"):
        return Identity.UNKNOWN
    return Identity.SAME if stamp.start == f"{kind}:{start}" else Identity.OTHER


def worker_marker(pid: int) -> str | None:
    """The relay's worker marker in a process's environment (Linux, when permitted); None otherwise."""
    try:
        with open(os.path.join(_PROC, str(pid), "environ"), "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    prefix = WORKER_MARKER_ENV.encode() + b"="
    for item in data.split(b"\0"):
        if item.startswith(prefix):
            return item[len(prefix):].decode("utf-8", "replace")
    return None


def group_members(pgid: int) -> list[int] | None:
    """Live (non-zombie) members of a process group from /proc; None where there is no /proc."""
    if not _has_proc():
        return None
    members = []
    for entry in os.listdir(_PROC):
        if not entry.isdigit():
            continue
        try:
            with open(os.path.join(_PROC, entry, "stat"), "rb") as fh:
                stat = fh.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            members.append(int(entry))
    return members


def group_is_run(pgid: int | None, stamp: ProcessStamp | None, run_id: str) -> Identity:
    """Is process group ``pgid`` still the worker group of ``run_id``?

    Verified when its leader is the recorded process (same start time and boot), or when a live
    member carries the relay's marker for this run (agy's helpers inherit it; a pgid cannot be
    reused while any member of the group lives). GONE when nothing is left; OTHER when the group
    is alive and provably someone else's; UNKNOWN otherwise — callers then leave it alone.
    """
    if not pgid or pgid <= 1:
        return Identity.GONE
    leader = check(stamp, pgid) if stamp is not None else Identity.UNKNOWN
    if leader is Identity.SAME:
        return Identity.SAME
    members = group_members(pgid)
    if members is None:
        return leader if leader is not Identity.UNKNOWN or _pid_exists(pgid) else Identity.GONE
    if not members:
        return Identity.GONE
    markers = [worker_marker(pid) for pid in members]
    if run_id in markers:
        return Identity.SAME
    if leader is Identity.OTHER or any(m is not None for m in markers):
        return Identity.OTHER
    return Identity.UNKNOWN


def owner_alive(pid: int | None, stamp: ProcessStamp | None) -> bool:
    """Is the relay process that wrote a record (or a ticket) still alive?

    A pid reused by another process is not alive for this purpose. A record with no stamp
    (written by an older relay) falls back to "a process with that pid exists".
    """
    verdict = check(stamp, pid)
    if verdict is Identity.SAME:
        return True
    if verdict is Identity.UNKNOWN:
        return stamp is None or _pid_exists(stamp.pid) is not False
    return False


# The boot time (/proc/stat btime) is whole seconds and start ticks are 1/100 s: a start this close
# to a file's mtime is not told apart from it.
_CLOCK_SLACK = 2.0


def _linux_started_at(pid: int) -> float | None:
    """When ``pid`` started, in epoch seconds (Linux: boot time + start ticks), or None."""
    ticks = _linux_start(pid)
    if ticks is None:
        return None
    try:
        with open(os.path.join(_PROC, "stat"), "rb") as fh:
            btime = next(int(line.split()[1]) for line in fh if line.startswith(b"btime "))
        return btime + int(ticks) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, StopIteration, IndexError):
        return None


def started_after(pid: int, when: float) -> bool | None:
    """Did the process now holding ``pid`` provably start after ``when`` (epoch seconds)?

    For a bare pid read from disk with no stamp: a process that started after the file naming it
    was written cannot be the one that wrote it. None when it cannot be told (no such process, no /proc).
    """
    if not _has_proc():
        return None
    started = _linux_started_at(pid)
    if started is None:
        return None
    return started > when + _CLOCK_SLACK


_OWN: ProcessStamp | None = None


def own_stamp() -> ProcessStamp | None:
    """This process's stamp (read once; a fork gets its own pid, so it is re-read then)."""
    global _OWN
    if _OWN is None or _OWN.pid != os.getpid():
        _OWN = stamp_of(os.getpid())
    return _OWN
