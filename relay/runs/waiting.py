"""Waiting on a run from its record, in any relay process (issue 9).

The record file is the truth: a run is RUNNING while its relay lives (``status_of``,
identity checked) and finished once the record has a packet. Waiting polls the file's
mtime every half second — a stat, and a read only when it changed — so a relay that did
not start the run can wait on it as cheaply as the one that did; the one that did is also
woken by the run's end, so its answer is not up to a poll late.
"""

from __future__ import annotations

import datetime as _dt
import os
import time
from collections.abc import Awaitable, Callable

import anyio

from relay.core.contracts import RunRecord, Running, Status
from relay.runs.results import status_of
from relay.runs.store import RunStore, iso_time

__all__ = ["running_packet", "wait_for_run", "POLL_SECONDS", "cancel_request_path"]

POLL_SECONDS = 0.5


def _elapsed(record: RunRecord) -> int:
    started = iso_time(record.created_at)
    if started is None:
        return 0
    return max(0, int((_dt.datetime.now(_dt.timezone.utc) - started).total_seconds()))


def running_packet(record: RunRecord, where: str | None, wait_seconds: float | None) -> Running:
    """The small answer of a call whose wait ended first: the run id, where the run is, and what to call next."""
    wait = f"wait_seconds {wait_seconds:g}" if wait_seconds else "wait_seconds"
    return Running(run_id=record.run_id, where=where or record.process.where or "starting", elapsed_seconds=_elapsed(record),
                   next=f"antigravity_get_result with this run_id and {wait}; antigravity_cancel stops it")


def cancel_request_path(store: RunStore, run_id: str):
    """A file any relay process may create to ask the run's own relay to stop it (see relay.call.detached)."""
    return store.runs_dir / f"{run_id}.cancel"


async def wait_for_run(store: RunStore, run_id: str, seconds: float,
                       tick: Callable[[RunRecord], Awaitable[None]] | None = None,
                       tick_every: float = 3.0, ended: anyio.Event | None = None) -> RunRecord:
    """The run's record once it is no longer RUNNING, or as it stands when ``seconds`` have passed.

    ``ended``: set when the run, started by this process, has finished its record; the wait then answers
    at once instead of at the next poll (up to half a second later)."""
    path = store.record_path(run_id)
    record = store.read(run_id)
    deadline = time.monotonic() + seconds
    next_tick = time.monotonic() + tick_every
    seen = _mtime(path)
    while status_of(record) is Status.RUNNING:
        now = time.monotonic()
        if now >= deadline:
            break
        if tick is not None and now >= next_tick:
            next_tick = now + tick_every
            await tick(record)
        pause = min(POLL_SECONDS, max(0.0, deadline - now))
        if ended is None:
            await anyio.sleep(pause)
        else:
            with anyio.move_on_after(pause):
                await ended.wait()
        mtime = _mtime(path)
        if mtime != seen or (ended is not None and ended.is_set()):
            # Once ended, the record is read once more; should it still say RUNNING (it could not be written),
            # the wait goes back to polling rather than spinning on the set event.
            ended = None if ended is not None and ended.is_set() else ended
            seen = mtime
            record = store.read(run_id)
    return record


def _mtime(path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
        return st.st_ino, st.st_mtime_ns  # an atomic write is a new inode, whatever the clock's resolution
    except OSError:
        return None
