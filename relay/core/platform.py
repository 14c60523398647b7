"""The one module that knows how processes work on this OS: spawn, identity, stop, liveness, stop signals.

Every process operation the relay needs goes through here, and no other module calls a POSIX-only
function (``os.killpg``, ``os.getpgid``, ``start_new_session``, ``signal.SIGKILL``, ``os.geteuid``, …);
``tests/test_platform.py`` greps ``relay/`` to keep it so. psutil does the portable rest.

A *worker* is a process the relay started plus everything it started. It is found three ways, and a
stop reaches all of them:

* the POSIX process group (``start_new_session``: the worker leads its own group) — the one thing that
  still finds a grandchild whose parent already exited, since the kernel re-parents it to init;
* the psutil process tree under the leader, while the leader lives (a helper that left the group);
* an environment token: every spawn gets ``GRAVITY_RELAY_SPAWN=<unique>`` and every agy worker
  ``GRAVITY_RELAY_WORKER_RUN=<run id>``; children inherit their parent's environment, so a process
  carrying the token is the worker's even once orphaned. Where there are no process groups (Windows),
  this is what finds an orphaned grandchild. Only processes started no earlier than the worker are read.

Where the POSIX group calls are absent (Windows; or a test that deletes them from ``os`` to prove this
path) the relay takes the Windows path: no group, the tree and the token only, ``CREATE_NEW_PROCESS_GROUP``
so the worker can be sent Ctrl-Break, stop signals through ``signal.signal``.

What none of the three finds — a daemon gone through a double fork, ``setsid`` and an empty environment —
the kernel holds where it can (``reaper.py``): on Linux each spawn runs under its own subreaper (the
``Worker.reaper``, whose tree holds the orphans), on Windows in its own kill-on-close Job Object
(``winjob.py``, the ``Worker.job``, terminated with the hard stop). A job is a handle of the relay
process: a relay restarted after a crash cannot use it (the kernel closed it, killing what was in it),
so recovery still works from what the run record says, through the group, the tree and the token.

Identity (is a pid read from disk still ours?) lives in ``identity``; this module uses it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any
from dataclasses import dataclass

import anyio
import psutil

from relay.core.contracts import ProcessStamp
from relay.core.identity import (_SLACK, Identity, _env_of, _process, _recorded, check, own_stamp, owner_alive,
                                  pid_alive, stamp_of, started_after)
from relay.core.settings import SPAWN_TOKEN_ENV, WORKER_MARKER_ENV

__all__ = ["Identity", "Worker", "SPAWN_TOKEN_ENV", "posix_groups", "spawn_options", "detached_popen", "spawn_env",
           "stamp_of", "own_stamp", "check", "owner_alive", "started_after", "pid_alive", "verify_worker",
           "worker_members", "worker_alive", "stop_worker", "ask_to_stop", "kill_worker_now", "stop_signals",
           "owned_by_someone_else", "kill_child_and_drain", "spawned_worker", "marked_worker"]

log = logging.getLogger("relay.core.platform")

_GROUP_CALLS = ("killpg", "getpgid", "getpgrp", "setsid")

def posix_groups() -> bool:
    """Whether the POSIX process-group calls exist here (read at each call: a test removes them)."""
    return all(hasattr(os, name) for name in _GROUP_CALLS)


def _windows() -> bool:
    return sys.platform == "win32"


def spawn_options() -> dict:
    """Popen / anyio.open_process keywords that start a worker in its own group (POSIX) or console
    process group (Windows: so Ctrl-Break can be sent to it, and the console's Ctrl-C is not)."""
    if posix_groups():
        return {"start_new_session": True}
    if _windows():
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200)}
    return {}


# Windows creation flags (subprocess names some of them only on Windows).
_CREATE_NO_WINDOW = 0x08000000
_CREATE_BREAKAWAY_FROM_JOB = 0x01000000


def detached_popen(argv: list[str], **popen: Any) -> subprocess.Popen:
    """A child relay that must outlive the shell command that started it (``execute --wait``).

    POSIX: its own session, so the terminal's signals and hang-up do not reach it. Windows (issue 37 W12): out
    of the caller's console — a console of its own with no window (``CREATE_NO_WINDOW``), so closing the
    caller's window does not end the run; not ``DETACHED_PROCESS``, under which every console program the relay
    starts (agy, git, verify commands) would open a window of its own and Ctrl-Break could not reach agy — its
    own console group, and out of the caller's job (``CREATE_BREAKAWAY_FROM_JOB``) so that a leader's shell tool
    that kills its job when the command ends does not end the run. A job that does not allow breakaway refuses
    the creation (access denied): then the child starts in it, and the run lasts as long as that job does (when
    the job is killed, the child's workers die with it: their own jobs close with the child's handles).
    """
    if not _windows():
        return subprocess.Popen(argv, **popen, **spawn_options())
    flags = spawn_options().get("creationflags", 0) | _CREATE_NO_WINDOW
    try:
        return subprocess.Popen(argv, **popen, creationflags=flags | _CREATE_BREAKAWAY_FROM_JOB)
    except PermissionError:
        log.info("the caller's job does not allow breakaway: the detached relay stays in it")
        return subprocess.Popen(argv, **popen, creationflags=flags)


def spawn_env(env: Mapping[str, str] | None) -> tuple[dict[str, str], str]:
    """``env`` (or this process's) with a fresh spawn token added; (the environment, the token)."""
    token = f"{os.getpid()}-{secrets.token_hex(8)}"
    out = dict(os.environ if env is None else env)
    out[SPAWN_TOKEN_ENV] = token
    return out, token


def owned_by_someone_else(st: os.stat_result) -> bool:
    """A file whose owner is not this user (POSIX). Windows has no uid in ``stat``: its data dir is
    protected by the per-user profile's ACL instead, so there is nothing to compare and this is False."""
    geteuid = getattr(os, "geteuid", None)
    return geteuid is not None and st.st_uid != geteuid()


# --------------------------------------------------------------------------- a worker and its processes


@dataclass
class Worker:
    """A process the relay started and everything it started.

    ``leader`` is the pid spawned (on POSIX also its group id: the run record's ``pgid``);
    ``leader_trusted`` says the leader pid itself is verified (ours and unreaped, or its stamp checked);
    ``group`` that the POSIX group ``leader`` is this worker's; ``token_env``/``token`` the environment
    entry its processes inherit; ``since`` when it started (members never start earlier); ``reaper`` the
    subreaper the leader runs under (reaper.py; the relay's unreaped child), whose tree holds its orphans;
    ``job`` the Windows Job Object holding everything it started (winjob.py), terminated with the hard stop.
    """

    leader: int
    token_env: str
    token: str | None
    leader_trusted: bool = True
    group: bool = False
    since: float | None = None
    reaper: int | None = None
    job: Any = None


def spawned_worker(pid: int, token: str | None, since: float, *, reaper: int | None = None, job: Any = None) -> Worker:
    """The worker of a child this process just started (not reaped yet, so its pid is still its own); with
    ``reaper``, ``pid`` is the program that subreaper (this process's unreaped child) started."""
    return Worker(leader=pid, token_env=SPAWN_TOKEN_ENV, token=token, group=posix_groups(), since=since, reaper=reaper,
                  job=job)


def _live(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:
        return True


def _group_members(pgid: int) -> list[psutil.Process]:
    """Live members of POSIX process group ``pgid``."""
    found = []
    for proc in psutil.process_iter():
        try:
            if os.getpgid(proc.pid) == pgid and _live(proc):
                found.append(proc)
        except OSError:
            continue
    return found


def _token_holders(key: str, value: str, since: float | None) -> list[psutil.Process]:
    """Live processes whose environment has ``key=value``, started no earlier than ``since``."""
    found = []
    for proc in psutil.process_iter():
        try:
            if since is not None and proc.create_time() < since - _SLACK:
                continue
        except psutil.Error:
            continue
        env = _env_of(proc)
        if env is not None and env.get(key) == value and _live(proc):
            found.append(proc)
    return found


def _with_trees(procs: list[psutil.Process]) -> list[psutil.Process]:
    out: dict[int, psutil.Process] = {}
    for proc in procs:
        out.setdefault(proc.pid, proc)
        try:
            for child in proc.children(recursive=True):
                out.setdefault(child.pid, child)
        except psutil.Error:
            pass
    return [p for p in out.values() if _live(p)]


def _spared() -> set[int]:
    """This process and its ancestors: never part of a worker (a relay started inside a worker carries
    that worker's marker, and on the Windows path a worker shares nothing else with the relay)."""
    spared = {os.getpid()}
    try:
        spared.update(p.pid for p in psutil.Process().parents())
    except psutil.Error:
        pass
    return spared


def worker_members(worker: Worker) -> list[psutil.Process]:
    """The worker's live processes: its group, the leader's tree, and every holder of its token."""
    roots: list[psutil.Process] = []
    if worker.leader_trusted and (leader := _process(worker.leader)) is not None:
        roots.append(leader)
    if worker.reaper is not None and (reaper := _process(worker.reaper)) is not None:
        roots.append(reaper)  # its tree: the orphans it adopted
    if worker.group and posix_groups():
        roots.extend(_group_members(worker.leader))
    if worker.token:
        roots.extend(_token_holders(worker.token_env, worker.token, worker.since))
    if not roots:
        return []  # the usual answer once a spawn has ended: no need to walk this process's ancestors (~1 ms)
    spared = _spared()
    return [p for p in _with_trees(roots) if p.pid not in spared]


def worker_alive(worker: Worker) -> bool:
    return bool(worker_members(worker))


def verify_worker(leader: int | None, stamp: ProcessStamp | None, run_id: str) -> tuple[Identity, Worker | None]:
    """Is the worker recorded as ``leader`` (the record's pgid) with ``stamp`` still ``run_id``'s worker?

    SAME when the leader is the recorded process (create and boot time), or when live processes carry
    the relay's marker for this run (agy's helpers inherit it; on POSIX a group id cannot be reused while
    any member of the group lives). Then the worker to stop comes with it: the leader's group and tree
    only when the leader itself or a marked member of its group proves them. GONE when nothing is left;
    OTHER when something alive is provably someone else's; UNKNOWN otherwise — callers leave it alone.
    """
    if not leader or leader <= 1:
        return Identity.GONE, None
    since = _recorded(stamp)[0] if stamp is not None else None
    leader_id = check(stamp, leader) if stamp is not None else Identity.UNKNOWN
    groups = posix_groups()
    if leader_id is Identity.SAME:
        return Identity.SAME, Worker(leader=leader, token_env=WORKER_MARKER_ENV, token=run_id, group=groups, since=since)
    spared = _spared()
    holders = [p for p in _token_holders(WORKER_MARKER_ENV, run_id, since) if p.pid not in spared]
    members = [p for p in _group_members(leader) if p.pid not in spared] if groups else []
    if holders:
        in_group = bool({p.pid for p in holders} & {p.pid for p in members})
        return Identity.SAME, Worker(leader=leader, token_env=WORKER_MARKER_ENV, token=run_id, leader_trusted=False,
                                     group=in_group, since=since)
    if members:
        markers = [(_env_of(p) or {}).get(WORKER_MARKER_ENV) for p in members]
        if leader_id is Identity.OTHER or any(m is not None for m in markers):
            return Identity.OTHER, None
        return Identity.UNKNOWN, None
    if _process(leader) is None:
        return Identity.GONE, None
    return (leader_id if leader_id is not Identity.GONE else Identity.UNKNOWN), None


def marked_worker(run_id: str, since: float) -> Worker | None:
    """``run_id``'s worker found by the relay's marker alone, for a run whose record names no pgid: its relay died
    between the spawn and the record's write (a SIGKILL; on a loaded machine agy had already written files). Only
    live processes carrying the run's marker and started no earlier than ``since`` (its attempt's start, from the
    record) are it: an older one, or this process and its ancestors, is never taken for it. None when there is none."""
    spared = _spared()
    holders = [p for p in _token_holders(WORKER_MARKER_ENV, run_id, since) if p.pid not in spared]
    if not holders:
        return None
    return Worker(leader=holders[0].pid, token_env=WORKER_MARKER_ENV, token=run_id, leader_trusted=False, since=since)


# --------------------------------------------------------------------------- stopping a worker


def _signal_group(pgid: int, hard: bool) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL if hard else signal.SIGTERM)
    except OSError:
        pass


def _ask(proc: psutil.Process) -> None:
    """The polite stop: SIGTERM on POSIX. Windows has no such request for a process without a console
    window (TerminateProcess is already the hard stop), so there the leader's console group gets
    Ctrl-Break instead (see ``_ask_group``) and the rest wait for the hard stop."""
    if _windows():
        return
    with contextlib.suppress(psutil.Error):
        proc.terminate()


def _ask_group(worker: Worker) -> None:
    if worker.group and posix_groups():
        _signal_group(worker.leader, hard=False)
    elif _windows() and worker.leader_trusted and hasattr(signal, "CTRL_BREAK_EVENT"):
        with contextlib.suppress(OSError):
            os.kill(worker.leader, signal.CTRL_BREAK_EVENT)  # its own console group (CREATE_NEW_PROCESS_GROUP)


def ask_to_stop(worker: Worker) -> None:
    """The polite stop sent to the worker's group (its console group on Windows) at once, nothing else: for a relay
    that is leaving, before its calls' own stops walk each worker's processes (``stop_worker``)."""
    _ask_group(worker)


def _kill_all(worker: Worker, procs: list[psutil.Process]) -> None:
    if worker.job is not None:
        worker.job.terminate()  # Windows: everything it started, found or not
    if worker.group and posix_groups():
        _signal_group(worker.leader, hard=True)
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.kill()  # psutil refuses a pid that now names another process


def _any_alive(procs: list[psutil.Process]) -> bool:
    return any(_live(p) for p in procs)


async def stop_worker(worker: Worker, grace: float = 3.0) -> None:
    """Ask the whole worker to stop, wait up to ``grace`` seconds, then kill what is left."""
    procs = worker_members(worker)
    if not procs:
        return
    grouped = {p.pid for p in _group_members(worker.leader)} if worker.group and posix_groups() else set()
    _ask_group(worker)
    for proc in procs:
        if proc.pid not in grouped:  # the group signal reached those already: one SIGTERM each
            _ask(proc)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if not _any_alive(procs):
            break
        await anyio.sleep(0.05)
    else:
        log.warning("worker %s ignored SIGTERM for %.1fs; killed", worker.leader, grace)
    # Once more from scratch: a grandchild started while the first ones were stopping.
    left = [p for p in {p.pid: p for p in procs + worker_members(worker)}.values() if _live(p)]
    if left:
        _kill_all(worker, left)


def kill_worker_now(worker: Worker, wait: float) -> bool:
    """Kill a verified worker at once and wait (bounded) until it is gone; True if it is."""
    procs = worker_members(worker)
    _kill_all(worker, procs)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if not worker_alive(worker):
            return True
        _kill_all(worker, worker_members(worker))
        time.sleep(0.05)
    return False


def kill_child_and_drain(child: subprocess.Popen, token: str | None, since: float, wait: float = 2.0, *,
                         worker: Worker | None = None) -> None:
    """Kill a child this process started (not reaped yet) with everything it started, then reap it and
    drain its pipes within ``wait`` seconds each: a helper that inherited a pipe and outlived the child
    would otherwise keep the drain waiting for an end of file as long as it lives. ``token``: the
    child's spawn token (``spawn_env``), which finds a helper that left the group; ``worker``: the
    child's, when it is known (a program under a subreaper: ``child`` is the subreaper)."""
    kill_worker_now(worker or spawned_worker(child.pid, token, since), wait)
    try:
        child.communicate(timeout=wait)
    except (subprocess.TimeoutExpired, OSError, ValueError):
        # Something still holds a pipe (it escaped the kill): give up on its output rather than wait.
        for pipe in (child.stdout, child.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=wait)


# --------------------------------------------------------------------------- stop signals


def stop_signal_numbers() -> list[int]:
    """The signals that ask a relay to stop here: SIGTERM, SIGINT (Ctrl-C), and SIGHUP (POSIX) or
    SIGBREAK (Windows Ctrl-Break)."""
    return [getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP", "SIGBREAK") if hasattr(signal, name)]


@contextlib.contextmanager
def stop_signals() -> Iterator[AsyncIterator[int]]:
    """An async iterator of the stop signals received while the block runs.

    POSIX: anyio's receiver (the event loop's own handlers). Windows' event loop has no signal
    handlers, so there plain ``signal.signal`` handlers hand the number to the loop (they run in the
    main thread, between bytecodes; the loop's wake-up fd makes it notice).
    """
    numbers = stop_signal_numbers()
    if posix_groups():
        # asyncio's removal sets SIGINT to Python's default handler and the rest to the default action, not to
        # what they were: a signal ignored when the relay started (a background job, nohup) is ignored again after.
        previous = {num: signal.getsignal(num) for num in numbers}
        try:
            with anyio.open_signal_receiver(*numbers) as received:
                yield received
        finally:
            for num, old in previous.items():
                if old is not None:  # None: a handler not set from Python, which cannot be put back
                    signal.signal(num, old)
        return
    import asyncio

    loop = asyncio.get_running_loop()
    send, receive = anyio.create_memory_object_stream[int](16)

    def deliver(signum: int) -> None:
        with contextlib.suppress(anyio.WouldBlock, anyio.ClosedResourceError, anyio.BrokenResourceError):
            send.send_nowait(signum)

    def handler(signum, _frame) -> None:
        loop.call_soon_threadsafe(deliver, int(signum))

    previous = {num: signal.signal(num, handler) for num in numbers}

    async def numbers_received() -> AsyncIterator[int]:
        async for num in receive:
            yield num

    try:
        yield numbers_received()
    finally:
        for num, old in previous.items():
            signal.signal(num, old)
        send.close()
