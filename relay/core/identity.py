"""Is this pid still the process the relay started? Identity through psutil, the same on every OS.

Identity (a pid read from disk may be reused): psutil's create time and the boot time, stored beside
every pid the relay records, plus the worker token in the process's environment when readable. Every
answer is ``SAME`` (verified), ``GONE`` (no such process), ``OTHER`` (a different process has that pid)
or ``UNKNOWN`` (cannot tell). Callers that kill act only on ``SAME``: on doubt, never kill.

``_SLACK``, ``_process``, ``_env_of`` and ``_recorded`` are shared with ``platform`` (the worker's members).
"""

from __future__ import annotations

import enum
import os

import psutil

from relay.core.contracts import ProcessStamp
from relay.core.settings import WORKER_MARKER_ENV

__all__ = ["Identity", "stamp_of", "check", "owner_alive", "started_after", "pid_alive", "own_stamp", "relay_started_by"]

# Create and boot times are compared to this many seconds: psutil's Linux create time is boot time (whole
# seconds in /proc/stat, which may step by one) + ticks; Windows computes boot time from the uptime, which
# jitters by about a second. A pid is not reused by another process this close to the first one's start.
_SLACK = 1.5


class Identity(str, enum.Enum):
    SAME = "same"
    GONE = "gone"
    OTHER = "other"
    UNKNOWN = "unknown"


def _process(pid: int | None) -> psutil.Process | None:
    """The live (non-zombie) process with ``pid``; None when there is none."""
    if not pid or pid <= 0:
        return None
    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None  # it has finished: it runs nothing any more
        return proc
    except psutil.NoSuchProcess:
        return None
    except psutil.AccessDenied:
        return proc  # someone else's process: it exists


def _boot() -> float | None:
    try:
        return psutil.boot_time()
    except (OSError, RuntimeError):
        return None


def stamp_of(pid: int, *, marker: str | None = None) -> ProcessStamp | None:
    """What identifies ``pid`` now; None if it cannot be read (the process is gone, or no way to tell)."""
    proc = _process(pid)
    if proc is None:
        return None
    try:
        created = proc.create_time()
    except psutil.Error:
        return None
    boot = _boot()
    return ProcessStamp(pid=pid, start=f"psutil:{created:.3f}", boot_id=None if boot is None else f"boot:{boot:.3f}",
                        marker=marker)


def _recorded(stamp: ProcessStamp) -> tuple[float | None, float | None]:
    """(create time, boot time) of a stamp this module wrote; None for what an older relay wrote."""
    def num(text: str | None, prefix: str) -> float | None:
        if not text or not text.startswith(prefix):
            return None
        try:
            return float(text[len(prefix):])
        except ValueError:
            return None
    return num(stamp.start, "psutil:"), num(stamp.boot_id, "boot:")


def _env_of(proc: psutil.Process) -> dict[str, str] | None:
    try:
        return proc.environ()
    except (psutil.Error, OSError):
        return None


def check(stamp: ProcessStamp | None, pid: int | None = None) -> Identity:
    """Is the process recorded in ``stamp`` (or, with no stamp, the bare ``pid``) the one alive now?"""
    pid = stamp.pid if stamp is not None else pid
    proc = _process(pid)
    if proc is None:
        return Identity.GONE
    if stamp is None:
        return Identity.UNKNOWN  # an old record: a pid and nothing to compare it with
    created, booted = _recorded(stamp)
    if created is None:
        return Identity.UNKNOWN  # an older relay's stamp (/proc ticks, `ps` text): not comparable
    try:
        d_create = proc.create_time() - created
    except psutil.Error:
        return Identity.UNKNOWN
    boot = _boot()
    d_boot = (boot - booted) if boot is not None and booted is not None else 0.0
    if abs(d_create) <= _SLACK and abs(d_boot) <= _SLACK:
        verdict = Identity.SAME
    elif abs(d_create) <= _SLACK or abs(d_create - d_boot) <= _SLACK:
        # One of the two moved and not the other, or both by the same amount: a wall-clock step
        # (Linux derives create times from the boot time) or a reboot — cannot be told apart.
        return Identity.UNKNOWN
    else:
        return Identity.OTHER
    if stamp.marker:
        # Only another run's marker proves another process: no marker at all is also what a process shows
        # in the moment after exec, before its environment is readable (measured: ~half of fresh children).
        found = (_env_of(proc) or {}).get(WORKER_MARKER_ENV)
        if found is not None and found != stamp.marker:
            return Identity.OTHER
    return verdict


def owner_alive(pid: int | None, stamp: ProcessStamp | None) -> bool:
    """Is the relay process that wrote a record (or a ticket) still alive?

    A pid reused by another process is not alive for this purpose. A record with no stamp
    (written by an older relay) falls back to "a process with that pid exists"; so does a stamp
    that cannot be compared (on doubt it is alive: nothing of it is finished or killed).
    """
    verdict = check(stamp, pid)
    if verdict is Identity.SAME:
        return True
    if verdict is Identity.UNKNOWN:
        return _process(stamp.pid if stamp is not None else pid) is not None
    return False


def started_after(pid: int, when: float) -> bool | None:
    """Did the process now holding ``pid`` provably start after ``when`` (epoch seconds)?

    For a bare pid read from disk with no stamp: a process that started after the file naming it
    was written cannot be the one that wrote it. None when it cannot be told (no such process).
    """
    proc = _process(pid)
    if proc is None:
        return None
    try:
        return proc.create_time() > when + _SLACK
    except psutil.Error:
        return None


def pid_alive(pid: int | None) -> bool:
    """A live process (not a zombie) has this pid — whose ever it is."""
    return _process(pid) is not None


# What a relay process's command line starts with, past its interpreter: the console scripts (pyproject's
# [project.scripts]; `.exe` and `-script.py` on Windows) or `python -m relay`.
_RELAY_SCRIPTS = {"gravity-relay", "gravity-relay-mcp"}


def _relay_command(argv: list[str]) -> bool:
    for i, arg in enumerate(argv[:6]):  # past the interpreter and its own options (-I, -X utf8)
        name = os.path.basename(arg).lower()
        for suffix in (".exe", "-script.py", ".py"):
            name = name.removesuffix(suffix)
        if name in _RELAY_SCRIPTS or (arg == "-m" and argv[i + 1:i + 2] == ["relay"]):
            return True
    return False


def relay_started_by(pid: int, when: float) -> bool:
    """Is the process with ``pid`` a relay (its command line the relay's) that had started by ``when`` (epoch
    seconds, a queue ticket's time)? A lock alone says only that some live process holds it: any local process can
    take a ticket's lock and keep it. False on doubt (no such process, its command line unreadable): the caller
    then does not count what it names, and never kills it."""
    proc = _process(pid)
    if proc is None:
        return False
    try:
        return proc.create_time() <= when + _SLACK and _relay_command(proc.cmdline())
    except (psutil.Error, OSError):
        return False


_OWN: ProcessStamp | None = None


def own_stamp() -> ProcessStamp | None:
    """This process's stamp (read once; a fork gets its own pid, so it is re-read then)."""
    global _OWN
    if _OWN is None or _OWN.pid != os.getpid():
        _OWN = stamp_of(os.getpid())
    return _OWN
