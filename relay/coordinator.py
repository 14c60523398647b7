"""One agy at a time per machine.

agy rewrites shared state under ~/.gemini/antigravity-cli/ and concurrent runs
race on it (agy-protocol.md §3). Inside one relay process, calls queue in FIFO
order on an anyio lock (which hands over to waiters in arrival order); across
relay processes (two editor windows) a file lock in the data dir does the same.
A conversation that is already running is refused at once rather than forked.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from filelock import FileLock, Timeout

from .contracts import Status
from .errors import RelayError

__all__ = ["Coordinator"]

_POLL = 0.2


class Coordinator:
    def __init__(self, data_dir: Path) -> None:
        self._dir = data_dir / "locks"
        self._lock = anyio.Lock()
        self._queue: list[str] = []
        self._holder: str | None = None
        self._waiting_on_other_process = False
        self._conversations: set[str] = set()

    def status(self, run_id: str) -> str:
        """A short human line for progress messages."""
        if self._holder == run_id:
            return "running"
        if run_id in self._queue:
            ahead = self._queue.index(run_id) + (1 if self._holder else 0)
            if self._waiting_on_other_process and self._queue and self._queue[0] == run_id and not self._holder:
                return "queued: waiting for another relay process's worker"
            return f"queued: position {ahead + 1}" if ahead else "queued: next"
        return "starting"

    @asynccontextmanager
    async def slot(self, run_id: str) -> AsyncIterator[int]:
        """Hold the machine's worker slot; yields how long the wait was, in ms."""
        self._dir.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        self._queue.append(run_id)
        try:
            await self._lock.acquire()
        finally:
            self._queue.remove(run_id)
        try:
            file_lock = FileLock(str(self._dir / "worker.lock"), thread_local=False)
            self._queue.insert(0, run_id)
            try:
                while True:
                    try:
                        file_lock.acquire(timeout=0)
                        break
                    except Timeout:
                        self._waiting_on_other_process = True
                        await anyio.sleep(_POLL)
            finally:
                self._waiting_on_other_process = False
                self._queue.remove(run_id)
            self._holder = run_id
            try:
                yield int((time.monotonic() - started) * 1000)
            finally:
                self._holder = None
                file_lock.release()
        finally:
            self._lock.release()

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
