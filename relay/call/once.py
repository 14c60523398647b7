"""A call answered once: a retried ``execute`` never starts a second worker (issue 38, §4).

Clients retry a tool call whose answer they lost (a dropped HTTP stream, a restart). For
``antigravity_execute`` a second run would be a second worker on the same workspace, so:

- **the same call while the first still runs** (same tool, same arguments, same session, same key or none)
  attaches to the first one's run: one worker, and both answers name its run id. Per process: a session
  lives in one relay process.
- **an idempotency key** (``idempotency_key``) names one run in every relay process of the data dir, for
  ``WINDOW_SECONDS`` (``relay.runs.keys``): a repeat answers that run, running or finished, and starts
  nothing; a new key starts a new run; the same key with other arguments is refused. A run that ended
  before its worker started (refused, previewed, cancelled in the queue) did nothing, so its key is free
  again: the repeat is a new attempt.

"The arguments" are those that say what runs: everything but ``wait_seconds`` (how long this call waits),
``confirm`` (the token that lets it run) and the key itself; they are kept in the run's record as a digest
(``RecordRequest.fingerprint``), beside the key. A claim is only a pointer: its run is answered only when
that run's own record says it was started with this key, so an edited claim cannot make the relay answer
another run (another workspace's).
"""

from __future__ import annotations

import hashlib
import math
import weakref
from dataclasses import dataclass
from pathlib import Path

import anyio
import msgspec

from relay.call.detached import Detacher
from relay.call.progress import Progress
from relay.core.contracts import ContinueInput, ExecuteInput, GetResultInput, Packet, RunRecord, Running, Status
from relay.core.errors import InvalidInput, NotFound, RelayError
from relay.runs.keys import KeyBook, KeyClaim, check_key
from relay.runs.results import status_of
from relay.runs.store import RunStore, new_run_id

__all__ = ["Once", "Go", "Repeat", "fingerprint"]

_NOT_WHAT_RUNS = ("wait_seconds", "confirm", "idempotency_key")
_RECORD_WAIT = 120.0  # how long a repeat waits for the first call's record to appear (its intake, a queue)
_RECORD_POLL = 0.1


def fingerprint(tool: str, args: ExecuteInput | ContinueInput) -> str:
    """A digest of what the call asks to run (module doc): equal for a retry, different for any other call."""
    same = msgspec.structs.replace(args, **{name: None for name in _NOT_WHAT_RUNS if name in args.__struct_fields__})
    return hashlib.sha256(tool.encode() + b"\0" + msgspec.json.encode(same)).hexdigest()


@dataclass
class Go:
    """The first of its kind: run it under ``run_id`` (the key, if any, names it now), then ``Once.done``."""

    run_id: str
    key: str | None
    fingerprint: str
    where: tuple[str, str, str | None]


@dataclass
class Repeat:
    """A repeat of a call that has a run: answer that run (``Once.answer``); ``claim``: found by its key."""

    run_id: str
    key: str | None
    fingerprint: str
    claim: KeyClaim | None = None


@dataclass
class _Live:
    run_id: str
    handling: bool = True  # the first call's door is still in it (intake, the wait); its record may not exist yet


class Once:
    """The calls of one relay process, and the keys of its data dir."""

    def __init__(self, store: RunStore, data_dir: Path) -> None:
        self.store, self.keys = store, KeyBook(data_dir / "keys")
        self._lock = anyio.Lock()
        self._live: dict[tuple[str, str, str | None], _Live] = {}
        self._sessions: weakref.WeakKeyDictionary[object, str] = weakref.WeakKeyDictionary()

    def _session(self, session: object | None) -> str:
        if session is None:
            return "this process"  # the shell's command: one call per process (the MCP door always names one)
        try:
            return self._sessions.setdefault(session, f"session {len(self._sessions) + 1}:{id(session)}")
        except TypeError:  # not weakly referable: its id (reused only once it is gone)
            return f"session {id(session)}"

    async def take(self, tool: str, args: ExecuteInput | ContinueInput, session: object | None = None) -> Go | Repeat:
        """A new run's id (Go), or the run this call repeats (Repeat); raises the refusals (a bad key, a key
        used with other arguments, an edited claim)."""
        key = getattr(args, "idempotency_key", None)
        if key is not None:
            check_key(key)
        digest = fingerprint(tool, args)
        async with self._lock:  # the check and the registration are one step for this process's calls
            self._forget_ended()
            where = (self._session(session), digest, key)
            live = self._live.get(where)
            if live is not None:
                return Repeat(run_id=live.run_id, key=key, fingerprint=digest)
            run_id = new_run_id()
            if key is not None:
                found = await anyio.to_thread.run_sync(self._by_key, key, digest, run_id)
                if found is not None:
                    return found
            self._live[where] = _Live(run_id)
            return Go(run_id=run_id, key=key, fingerprint=digest, where=where)

    def done(self, go: Go) -> None:
        """The first call's door is through with it: the entry stays while its run runs (a detached run)."""
        live = self._live.get(go.where)
        if live is not None and live.run_id == go.run_id:
            live.handling = False

    def _forget_ended(self) -> None:
        for where, live in list(self._live.items()):
            if live.handling:
                continue
            try:
                running = status_of(self.store.read(live.run_id)) is Status.RUNNING
            except RelayError:
                running = False  # never recorded (the data dir could not be written): nothing to attach to
            if not running:
                del self._live[where]

    def _by_key(self, key: str, digest: str, run_id: str) -> Repeat | None:
        """Claim the key for ``run_id`` (None), or the run it already names (Repeat). In a worker thread."""
        replacing = None
        for _ in range(3):  # a free claim replaced under the lock; another process may have replaced it first
            standing = self.keys.claim(key, run_id, replacing=replacing)
            if standing is None:
                return None
            try:
                record = self.store.read(standing.run_id)
            except NotFound:
                if standing.owner_alive():
                    # Its relay is still taking the call in (or asking a person): no record yet; the repeat waits.
                    return Repeat(run_id=standing.run_id, key=key, fingerprint=digest, claim=standing)
                replacing = standing.run_id  # its relay died before recording it: nothing ran
                continue
            if not _reached_worker(record):
                replacing = standing.run_id  # refused, previewed or cancelled before its worker: nothing ran
                continue
            _check_record(record, key, digest)
            return Repeat(run_id=standing.run_id, key=key, fingerprint=digest, claim=standing)
        raise RelayError(Status.BUSY, f"idempotency_key {key!r} is being claimed by several calls at once",
                         "Call again in a moment.", retryable=True)

    async def answer(self, repeat: Repeat, wait: float | None, detacher: Detacher, progress: Progress
                     ) -> Packet | Running:
        """The repeated run's answer, as a get_result with this call's wait: its packet once it ended (the
        first call's own bytes), or RUNNING when this call's wait ends first (to its end without a wait)."""
        record = await self._recorded(repeat)
        if repeat.key is not None:
            _check_record(record, repeat.key, repeat.fingerprint)
        args = GetResultInput(run_id=repeat.run_id, wait_seconds=math.inf if wait is None else wait)
        return await detacher.wait(args, progress)

    async def _recorded(self, repeat: Repeat) -> RunRecord:
        """The repeated run's record; the first call may still be in its intake (no record yet)."""
        with anyio.move_on_after(_RECORD_WAIT):
            while True:
                try:
                    return await anyio.to_thread.run_sync(self.store.read, repeat.run_id)
                except NotFound:
                    if not self._first_alive(repeat):
                        break
                await anyio.sleep(_RECORD_POLL)
        owner = f"relay pid {repeat.claim.relay_pid}" if repeat.claim is not None else "this relay"
        raise RelayError(Status.BUSY, f"run {repeat.run_id}, which this call repeats, was not recorded by {owner}: "
                         "the first call did not start it (yet)",
                         "Call again: if the first call ended without a run, the repeat starts it.", retryable=True)

    def _first_alive(self, repeat: Repeat) -> bool:
        if repeat.claim is not None:
            return repeat.claim.owner_alive()
        return any(live.run_id == repeat.run_id for live in self._live.values())


def _reached_worker(record: RunRecord) -> bool:
    """Whether the run may have done something: it is still running, or it launched agy at least once."""
    return bool(record.process.attempts) or status_of(record) is Status.RUNNING


def _check_record(record: RunRecord, key: str, digest: str) -> None:
    """The run a claim names is this key's run, asked with these arguments; else refused, saying which."""
    if record.request.idempotency_key != key:
        raise RelayError(Status.STORAGE_ERROR, f"the claim of idempotency_key {key!r} names run {record.run_id}, which "
                         "was not started with this key: the claim was changed outside the relay; nothing was started",
                         "Send a new idempotency_key; check what else writes the relay's data dir.")
    if record.request.fingerprint != digest:
        raise InvalidInput(f"idempotency_key {key!r} already names run {record.run_id}, which was asked with other "
                           "arguments; nothing was started",
                           f"To get that run's answer repeat its exact arguments (or antigravity_get_result with "
                           f"run_id {record.run_id}); for a new task send a new idempotency_key.")
