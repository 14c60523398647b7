"""Child processes the relay starts: own group, stdin closed, a hard timeout, the whole worker stopped.

Every spawn goes through here, so no child can inherit the MCP pipe on stdin
and none outlives the call that started it. How a worker is grouped, found and
stopped on this OS is ``platform.py``'s business.
"""

from __future__ import annotations

import dataclasses
import logging
import subprocess
import time
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager

import anyio
from anyio.abc import Process
from msgspec import Struct

from relay.core import platform, reaper, winjob

__all__ = ["Captured", "ByteTail", "run_capture", "spawned", "popen_held", "stop_spawned", "worker_of", "tail", "start_drains",
           "settle", "leaving", "stop_grace", "LEAVING_GRACE"]

log = logging.getLogger("relay.core.process")


class Captured(Struct, kw_only=True):
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool = False
    duration_ms: int = 0


def tail(text: str, limit: int) -> str:
    """The last ``limit`` characters, marked when cut."""
    if len(text) <= limit:
        return text
    return "…" + text[-(limit - 1):]


class ByteTail:
    """The last bytes of a stream, trimmed as they come (to ``limit`` once past twice that)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.data = bytearray()

    def feed(self, chunk: bytes) -> None:
        self.data.extend(chunk)
        if len(self.data) > 2 * self.limit:
            del self.data[: len(self.data) - self.limit]

    def text(self) -> str:
        return tail(self.data.decode("utf-8", "replace"), self.limit)


async def start_drains(tg, pairs: Sequence[tuple[AsyncIterable[bytes], Callable[[bytes], None]]]) -> anyio.Event:
    """Start one reader per (stream, take): every chunk goes to ``take``, then ``b""`` once at EOF
    (a reader cancelled before EOF never sends it). The event is set once every reader is done."""
    done = anyio.Event()
    left = len(pairs)

    async def one(stream: AsyncIterable[bytes], take: Callable[[bytes], None]) -> None:
        nonlocal left
        try:
            async for chunk in stream:
                take(chunk)
            take(b"")
        finally:
            left -= 1
            if left == 0:
                done.set()

    for stream, take in pairs:
        tg.start_soon(one, stream, take)
    return done


# The workers of the children spawned here and not yet reaped, by pid (so a stop reaches their token too).
_WORKERS: dict[int, platform.Worker] = {}


# Once the relay process is leaving (its client sent a stop signal), a worker gets this long between SIGTERM and
# SIGKILL, whatever GRAVITY_RELAY_KILL_GRACE_SECONDS says: Claude Code SIGKILLs a stdio server 0.5 s after its
# SIGINT, and a relay still waiting out a worker deaf to SIGTERM then dies with the worker alive and its record
# "running" (bench/bench_shutdown.py).
LEAVING_GRACE = 0.2
_leaving: list[bool] = []


def leaving() -> None:
    """The relay process is leaving: ask every worker's group to stop now, before the cancellation reaches the calls
    (a syscall each, no process walk), and cut every stop's grace from here on to ``LEAVING_GRACE``."""
    _leaving.append(True)
    for worker in list(_WORKERS.values()):
        platform.ask_to_stop(worker)


def stop_grace(grace: float) -> float:
    """The grace a stop gives a worker now: ``grace``, or ``LEAVING_GRACE`` once the relay is leaving."""
    return min(grace, LEAVING_GRACE) if _leaving else grace


def worker_of(proc: Process) -> platform.Worker:
    """The worker of a child ``spawned`` started (its group, its tree, its spawn token). Its ``leader`` is the
    program's pid (the record's pgid): ``proc.pid`` is its subreaper's where there is one (reaper.py)."""
    return _WORKERS.get(proc.pid) or platform.spawned_worker(proc.pid, None, time.time())


@asynccontextmanager
async def spawned(argv: Sequence[str] | str, *, cwd: str | None = None, env: Mapping[str, str] | None = None,
                  grace: float = 1.0) -> AsyncIterator[Process]:
    """The one spawn: ``argv`` in its own group (platform.spawn_options), stdin on /dev/null, stdout and
    stderr piped, a fresh spawn token in its environment; on Linux under its own subreaper (reaper.py), on
    Windows in its own kill-on-close Job Object (winjob.py), so what it starts cannot outlive it.

    On the way out, whatever happened (exit, timeout, cancellation), the whole worker is
    stopped (it also reaps helpers agy left behind), the child reaped and its pipes closed.
    Raises OSError when it cannot be started at all.
    """
    child_env, token = platform.spawn_env(env)
    since = time.time()
    # A str is a shell line (a Windows verify command): anyio hands it to the shell as subprocess's shell=True does.
    # Linux: an argv runs under its own subreaper, which also holds the orphans it leaves.
    command = argv if isinstance(argv, str) else list(argv)
    held = None if isinstance(command, str) else reaper.wrap(command)
    options = {**platform.spawn_options(), **(held.options if held else {})}
    if winjob.available():  # Windows: suspended until it is in its job (winjob.hold)
        options["creationflags"] = options.get("creationflags", 0) | winjob.CREATE_SUSPENDED
    try:
        # Shielded: asyncio starts the child, then waits for its pipes, and a cancellation in that wait kills the child
        # it started (the subreaper, not the program it has already started in a session of its own): the program and
        # what it started ran on with no relay to stop them (flaked under load: a relay's first signal mid-spawn).
        with anyio.CancelScope(shield=True):
            proc = await anyio.open_process(held.argv if held else command, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=child_env,
                                            **options)
    except BaseException:
        if held:
            held.abandon()
        raise
    if held is None:
        job = winjob.hold(proc.pid) if winjob.available() else None
        _WORKERS[proc.pid] = platform.spawned_worker(proc.pid, token, since, job=job)
    else:
        _WORKERS[proc.pid] = platform.spawned_worker(proc.pid, token, since, reaper=proc.pid)  # until it answers
        try:
            with anyio.CancelScope(shield=True):
                leader = await held.leader()
        except OSError:
            with anyio.CancelScope(shield=True):
                await proc.wait()  # it has exited (it could not start the program): reap it
                _WORKERS.pop(proc.pid, None)
                await proc.aclose()
            raise
        _WORKERS[proc.pid] = platform.spawned_worker(leader, token, since, reaper=proc.pid)
    try:
        yield proc
    finally:
        with anyio.CancelScope(shield=True):
            await stop_spawned(proc, grace)
            if proc.returncode is None:
                with anyio.move_on_after(stop_grace(grace) + 2):
                    await proc.wait()
            worker = _WORKERS.pop(proc.pid, None)
            if worker is not None and worker.job is not None:
                worker.job.terminate()  # what it started and nothing found (a daemon with no tree and no token)
                worker.job.close()
            await proc.aclose()


@contextmanager
def popen_held(argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None,
               text: bool = False) -> Iterator[tuple[subprocess.Popen, platform.Worker]]:
    """``spawned`` for a short call that waits synchronously (``agy --version``, asked from threads and sync
    doors): the same group, spawn token, subreaper (Linux) or Job Object (Windows), stdin on /dev/null, stdout
    and stderr piped. Yields (the Popen, its worker); on the way out a child still running is stopped with
    everything it started and reaped, its pipes drained within a bound, and what it left is stopped with it
    (the subreaper sweeps at the program's end; the job is terminated). Raises OSError when it cannot start."""
    child_env, token = platform.spawn_env(env)
    since = time.time()
    command = list(argv)
    held = reaper.wrap(command)
    options = {**platform.spawn_options(), **(held.options if held else {})}
    if winjob.available():  # Windows: suspended until it is in its job (winjob.hold)
        options["creationflags"] = options.get("creationflags", 0) | winjob.CREATE_SUSPENDED
    try:
        proc = subprocess.Popen(held.argv if held else command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=cwd, env=child_env, text=text, **options)
    except BaseException:
        if held:
            held.abandon()
        raise
    worker = platform.spawned_worker(proc.pid, token, since, reaper=proc.pid if held else None)
    try:
        if held is None:
            worker.job = winjob.hold(proc.pid) if winjob.available() else None
        else:
            worker = platform.spawned_worker(held.leader_now(), token, since, reaper=proc.pid)
        yield proc, worker
    finally:
        if proc.returncode is None:
            platform.kill_child_and_drain(proc, token, since, worker=worker)
        if worker.job is not None:
            worker.job.terminate()  # what it started and nothing found (a daemon with no tree and no token)
            worker.job.close()


async def stop_spawned(proc: Process, grace: float = 3.0) -> None:
    """Stop the worker of a child ``spawned`` started: ask, wait up to ``grace`` seconds, then kill."""
    worker = worker_of(proc)
    if proc.returncode is not None:
        # Reaped already: its pid may name someone else by now (and so may the program's, which a subreaper
        # reaped before it exited); the group and the token still find the rest.
        worker = dataclasses.replace(worker, leader_trusted=False, reaper=None)
    await platform.stop_worker(worker, stop_grace(grace))


async def settle(tg, drained: anyio.Event, grace: float = 2.0) -> None:
    """After the main process exited: let the readers finish, but never wait forever for EOF
    (a helper daemon left in the group can hold the pipe open; agy-protocol.md §5)."""
    with anyio.move_on_after(grace):
        await drained.wait()
    tg.cancel_scope.cancel()


async def run_capture(
    argv: Sequence[str] | str,
    *,
    timeout: float,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    limit: int = 64_000,
) -> Captured:
    """Run a short command to completion (or its timeout) and keep the tails of its output.

    Raises OSError when it cannot be started at all.
    """
    started = time.monotonic()
    log.info("spawn %s", argv if isinstance(argv, str) else list(argv)[:6])
    out, err = ByteTail(limit), ByteTail(limit)
    async with spawned(argv, cwd=cwd, env=env) as proc:
        with anyio.move_on_after(timeout) as scope:
            async with anyio.create_task_group() as tg:
                drained = await start_drains(tg, [(proc.stdout, out.feed), (proc.stderr, err.feed)])
                await proc.wait()
                await settle(tg, drained)
    return Captured(exit_code=None if scope.cancelled_caught else proc.returncode, stdout=out.text(), stderr=err.text(),
                    timed_out=scope.cancelled_caught, duration_ms=int((time.monotonic() - started) * 1000))
