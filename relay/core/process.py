"""Child processes the relay starts: own process group, stdin closed, a hard timeout, a group kill.

Every spawn goes through here, so no child can inherit the MCP pipe on stdin
and none outlives the call that started it.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence

import anyio
from msgspec import Struct

from relay.core.identity import group_members

__all__ = ["Captured", "run_capture", "kill_group", "group_alive", "pid_alive", "tail", "start_drains", "settle"]

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


async def start_drains(tg, pairs, drain) -> anyio.Event:
    """Start one reader per (stream, sink); the event is set once every reader hit EOF."""
    done = anyio.Event()
    left = [len(pairs)]

    async def one(stream, sink) -> None:
        try:
            await drain(stream, sink)
        finally:
            left[0] -= 1
            if left[0] == 0:
                done.set()

    for stream, sink in pairs:
        tg.start_soon(one, stream, sink)
    return done


async def settle(tg, drained: anyio.Event, grace: float = 2.0) -> None:
    """After the main process exited: let the readers finish, but never wait forever for EOF
    (a helper daemon left in the group can hold the pipe open; agy-protocol.md §5)."""
    with anyio.move_on_after(grace):
        await drained.wait()
    tg.cancel_scope.cancel()


def pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def group_alive(pgid: int) -> bool:
    """True while any member of the group is alive; a zombie (dead, not yet reaped) does not count."""
    members = group_members(pgid)
    if members is not None:
        return bool(members)
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def kill_group(pgid: int | None, grace: float = 3.0) -> None:
    """TERM the whole group, wait up to ``grace`` seconds, then KILL what is left."""
    if not pgid or pgid <= 1 or pgid == os.getpgrp():
        return
    try:
        os.killpg(pgid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if not group_alive(pgid):
            return
        await anyio.sleep(0.05)
    try:
        os.killpg(pgid, signal.SIGKILL)
        log.warning("process group %s ignored SIGTERM for %.1fs; killed", pgid, grace)
    except (ProcessLookupError, PermissionError):
        pass


async def run_capture(
    argv: Sequence[str],
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
    log.info("spawn %s", list(argv)[:6])
    proc = await anyio.open_process(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=dict(env) if env is not None else None,
        start_new_session=True,
    )
    out = bytearray()
    err = bytearray()
    timed_out = False

    async def drain(stream, sink: bytearray) -> None:
        async for chunk in stream:
            sink.extend(chunk)
            if len(sink) > 2 * limit:
                del sink[: len(sink) - limit]

    try:
        with anyio.move_on_after(timeout) as scope:
            async with anyio.create_task_group() as tg:
                drained = await start_drains(tg, [(proc.stdout, out), (proc.stderr, err)], drain)
                await proc.wait()
                await settle(tg, drained)
        timed_out = scope.cancelled_caught
    finally:
        with anyio.CancelScope(shield=True):
            await kill_group(proc.pid, grace=1.0)
            if proc.returncode is None:
                with anyio.move_on_after(2.0):
                    await proc.wait()
            await proc.aclose()
    return Captured(
        exit_code=None if timed_out else proc.returncode,
        stdout=tail(out.decode("utf-8", "replace"), limit),
        stderr=tail(err.decode("utf-8", "replace"), limit),
        timed_out=timed_out,
        duration_ms=int((time.monotonic() - started) * 1000),
    )
