"""One agy at a time per machine.

agy rewrites shared state under ~/.gemini/antigravity-cli/ and concurrent runs
race on it (agy-protocol.md §3). Calls queue in FIFO order within one relay
process and across relay processes (two editor windows): waiters take tickets
in the data dir and the oldest live ticket runs next, with a file lock under it.
A conversation that is already running is refused at once rather than forked.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from filelock import FileLock, Timeout

from .contracts import Status
from .errors import RelayError
from .process import pid_alive

__all__ = ["Coordinator"]

_POLL = 0.1


class Coordinator:
    def __init__(self, data_dir: Path) -> None:
        self._dir = data_dir / "locks"
        self._queue_dir = data_dir / "queue"
        self._positions: dict[str, int] = {}
        self._holder: str | None = None
        self._conversations: set[str] = set()

    def status(self, run_id: str) -> str:
        """A short human line for progress messages."""
        if self._holder == run_id:
            return "running"
        position = self._positions.get(run_id)
        if position is None:
            return "starting"
        return "queued: next" if position == 0 else f"queued: {position} ahead (all relay processes)"

    def _tickets(self) -> list[Path]:
        """Live tickets in arrival order; tickets of relay processes that died are removed."""
        tickets = []
        for path in sorted(self._queue_dir.iterdir()):
            try:
                pid = int(path.name.split("-")[1])
            except (IndexError, ValueError):
                continue
            if pid != os.getpid() and not pid_alive(pid):
                path.unlink(missing_ok=True)
                continue
            tickets.append(path)
        return tickets

    @asynccontextmanager
    async def slot(self, run_id: str) -> AsyncIterator[int]:
        """Hold the machine's worker slot; yields how long the wait was, in ms.

        Every waiter, in every relay process, takes a ticket in the data dir; the oldest live
        ticket runs next. That makes the queue FIFO across processes, not only within one, and
        gives each waiter its true position. The file lock is the safety net under it.
        """
        self._dir.mkdir(parents=True, exist_ok=True)
        self._queue_dir.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        ticket = self._queue_dir / f"{time.time_ns():020d}-{os.getpid()}-{run_id}"
        ticket.touch()
        file_lock = FileLock(str(self._dir / "worker.lock"), thread_local=False)
        locked = False
        try:
            while True:
                tickets = await anyio.to_thread.run_sync(self._tickets)
                position = tickets.index(ticket) if ticket in tickets else 0
                self._positions[run_id] = position
                if position == 0:
                    try:
                        file_lock.acquire(timeout=0)
                        locked = True
                        break
                    except Timeout:
                        pass
                await anyio.sleep(_POLL)
            self._positions.pop(run_id, None)
            self._holder = run_id
            yield int((time.monotonic() - started) * 1000)
        finally:
            self._positions.pop(run_id, None)
            if self._holder == run_id:
                self._holder = None
            ticket.unlink(missing_ok=True)
            if locked:
                file_lock.release()

    @asynccontextmanager
    async def conversation(self, conversation_id: str | None) -> AsyncIterator[None]:
        """Claim a conversation for one continue; a second claimant is refused with BUSY."""
        if not conversation_id:
            yield
            return
        self._dir.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(conversation_id.encode()).hexdigest()[:24]
        file_lock = FileLock(str(self._dir / f"conversation-{digest}.lock"), thread_local=False)
        busy = RelayError(
            Status.BUSY,
            f"conversation {conversation_id} is already running a turn",
            "Wait for that call's packet, then continue; two turns at once would fork the conversation.",
            retryable=True,
        )
        if conversation_id in self._conversations:
            raise busy
        try:
            file_lock.acquire(timeout=0)
        except Timeout:
            raise busy from None
        self._conversations.add(conversation_id)
        try:
            yield
        finally:
            self._conversations.discard(conversation_id)
            file_lock.release()
