"""One agy at a time per machine.

agy rewrites shared state under ~/.gemini/antigravity-cli/ and concurrent runs
race on it (agy-protocol.md §3). Calls queue in FIFO order within one relay
process and across relay processes (two editor windows): waiters take tickets
in the data dir and the oldest live ticket runs next, with a file lock under it.
A conversation that is already running is refused at once rather than forked.

A ticket counts only while the relay that wrote it holds the ticket's lock (locks/tickets/<ticket>): the
queue folder is input (docs/security.md), and a file planted there naming a live process that is no relay, or
this relay's own pid, held every call until it answered BUSY; a lock is held only by a live process, whatever
a file says. A ticket also carries its relay's identity (core/platform.py), so a dead relay's ticket
is dropped even when its pid was reused; an unstamped ticket (an older relay, or no
way to read a stamp) is judged by what can be checked: dropped when the process with
its pid started after the ticket was written, or when the ticket is older than any
queue wait plus the longest run could hold it. A ticket names the longest its call can last (its relay's queue
wait, the run's deadline, a slack); a lock held past it (a process faking the relay's command line) is not counted,
and the run that went ahead says so. A wait past its bound answers BUSY. A
relay SIGKILLed mid-run leaves its agy running and releases the lock: before a
worker starts, the holder reaps such orphans (identity checked; their runs are
finished INTERRUPTED with what they changed). Reaping rather than waiting: the
orphan's relay is gone, so nobody can receive its answer, and its hard timeout
died with it — waiting could mean waiting forever.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import msgspec
from filelock import Timeout

from relay.core.contracts import ProcessStamp
from relay.core.errors import Busy
from relay.core.identity import own_stamp, owner_alive, relay_started_by, started_after
from relay.core.files import own_folder, private_dir, read_regular, write_atomic
from relay.core.locks import OwnLock, own_lock
from relay.runs.store import now_iso

__all__ = ["Coordinator"]

_POLL = 0.1
# How long a ticket can be held once its wait is over: a run (24 h at most, contracts.Minutes), its
# verify commands (24 h at most) and an hour for the grace, observation and recording around them.
_LONGEST_HOLD = 2 * 24 * 3600.0 + 3600.0
# The longest a call may queue in any relay (GRAVITY_RELAY_QUEUE_WAIT_MINUTES' upper bound): the
# ticket's own relay may allow more than this one does.
_LONGEST_QUEUE_WAIT = 10_080 * 60.0
# Added to a ticket's own bound (its wait, its run's deadline, its verify commands): the look, the review and the record
# around the run, and a clock a little off.
_TICKET_SLACK = 15 * 60.0

log = logging.getLogger("relay.runs.coordinator")
_SLOT_MOVED = ("the worker slot's lock file (locks/worker.lock in the data dir) was removed or renamed by whoever writes "
               "the data dir")


_TICKET = msgspec.json.Encoder()
_decode_stamp = msgspec.json.Decoder(ProcessStamp)
_decode_holder = msgspec.json.Decoder(dict)


class _Bound(msgspec.Struct):
    """The part of a ticket beside its relay's stamp: until when (epoch seconds) it can stand for a call, waiting and
    running (its relay's queue wait, the run's deadline, its verify commands, a slack). None: an older relay's."""

    until: float | None = None


_decode_bound = msgspec.json.Decoder(_Bound)
# The tickets this process wrote (their names): a ticket naming this process's pid that is not one of them was
# planted, whatever stamp it carries.
_WRITTEN: set[str] = set()


def _until(data: bytes) -> float | None:
    """The bound a ticket names (``_Bound``); None for none, or one that is no number of seconds."""
    try:
        until = _decode_bound.decode(data).until if data else None
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return until if until is not None and until == until else None  # NaN is no bound


def _ticket_lock(lock_dir: Path, name: str) -> OwnLock:
    return own_lock(lock_dir / name)


class Coordinator:
    def __init__(self, data_dir: Path, *, reap: Callable[[], list[str]] | None = None,
                 max_wait: float = 120 * 60.0) -> None:
        self._dir = data_dir / "locks"
        self._queue_dir = data_dir / "queue"
        self._ticket_locks = self._dir / "tickets"
        self._positions: dict[str, int] = {}
        self._holder: str | None = None
        self._conversations: set[str] = set()
        # Finishes runs of dead relays and kills their verified orphan agy (relay/call/recovery.py, handed in), so a crashed
        # relay's worker never runs beside the next one.
        self._reap = reap
        self._max_wait = max_wait
        self._left: set[str] = set()  # tickets whose lock a live process holds that is not a relay waiting
        self._slot_lock: OwnLock | None = None  # the worker slot's lock while a run of this relay holds it
        self._slot_moved: str | None = None  # what became of that lock's file during the hold, said in the record
        self._overdue: list[str] = []  # the tickets the holding run went ahead of, past their bound

    def _own_folders(self) -> None:
        """``locks``, ``locks/tickets`` and ``queue`` as folders of the relay's own (the data dir is input,
        docs/security.md): a link planted in place of ``queue`` had every file of yours there named like a ticket
        (``holiday-2024-06.jpg``: its second part a number) taken for a dead relay's and deleted, and one in place of
        ``locks`` had the slot's lock and holder.json written in your folder. The link alone is removed."""
        data_dir = private_dir(self._dir.parent)
        own_folder(data_dir / self._dir.name)
        own_folder(self._ticket_locks)
        own_folder(data_dir / self._queue_dir.name)

    def status(self, run_id: str) -> str:
        """A short human line for progress messages."""
        if self._holder == run_id:
            return "running"
        position = self._positions.get(run_id)
        if position is None:
            return "starting"
        return "queued: next" if position == 0 else f"queued: {position} ahead (all relay processes)"

    def _ticket_live(self, path: Path, pid: int, overdue: dict[str, str] | None = None) -> bool:
        """A ticket counts while the relay that wrote it is alive and waiting: it holds the ticket's lock, and its
        pid is the process the ticket's stamp names (not a reused pid). Never killed, only not counted."""
        if path.name in _WRITTEN:
            return True
        if pid == os.getpid():
            log.warning("queue ticket %s names this relay's pid %d, but this relay did not write it: not counted",
                        path.name, pid)
            return False
        if not self._lock_held(path.name):
            self._left.discard(path.name)  # its holder is gone: removed now like any dead ticket
            log.warning("queue ticket %s: no relay process holds its lock (pid %d is not a relay waiting in this "
                        "queue): not counted", path.name, pid)
            return False
        try:
            data = read_regular(path)  # a FIFO named like a ticket must not hang the queue
        except FileNotFoundError:
            return False
        except OSError:
            data = b""
        if not self._relay_waiting(path.name, pid, _until(data), overdue):
            self._left.add(path.name)  # its lock is held by a live process: not counted, its file left (it may be
            return False               # a relay embedded in another program), the process never touched
        stamp = None
        if data:
            try:
                stamp = _decode_stamp.decode(data)
            except (msgspec.DecodeError, msgspec.ValidationError):
                stamp = None
        if stamp is not None and stamp.pid != pid:
            stamp = None
        if stamp is None and not self._unstamped_plausible(path, pid):
            return False  # never killed, only no longer counted (regression: it counted forever)
        return owner_alive(pid, stamp)

    def _relay_waiting(self, name: str, pid: int, until: float | None, overdue: dict[str, str] | None) -> bool:
        """Is the ticket's pid a relay that started the wait? Its lock held is not enough: any local process can take
        the lock of a ticket it wrote (or of a name it guessed) and hold it for good, and the queue then waited on no
        one until every call answered BUSY. It counts only when its pid is a relay process (its command line) started
        before the ticket's time, and that time is neither ahead of now nor past the longest its call could stand for
        (the bound the ticket names, never more than any wait and run): a process that fakes the relay's command line
        holds the queue no longer than that. Past it, said in ``overdue`` (the waiting run's record)."""
        try:
            written = int(name.split("-")[0]) / 1e9
        except ValueError:
            written = 0.0
        now = time.time()
        longest = written + max(self._max_wait, _LONGEST_QUEUE_WAIT) + _LONGEST_HOLD
        deadline = min(until, longest) if until is not None else longest
        started = relay_started_by(pid, written)
        if started and written - 60 < now < deadline:
            return True
        if started and now >= deadline and overdue is not None:
            overdue[name] = (f"queue ticket {name}: its lock is still held by pid {pid}, a process with the relay's "
                             f"command line, past the longest its call could last ({time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(deadline))}): not counted, "
                             "this run went ahead of it; the process was left running. If that is no relay waiting, "
                             "find what started it")
        if name not in self._left:  # said once, not at every look
            log.warning("queue ticket %s: pid %d holds its lock but is not a relay process that started this wait (its "
                        "command line, its start time, the ticket's time): not counted, the process left running",
                        name, pid)
        return False

    def _lock_held(self, name: str) -> bool:
        """Does a live process hold the lock of the ticket named ``name``? The kernel lets a lock go with its
        process, so a planted file, or one a dead relay left, has none held."""
        lock = _ticket_lock(self._ticket_locks, name)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            return True
        except OSError:
            return False
        lock.release()
        with contextlib.suppress(OSError):
            (self._ticket_locks / name).unlink()
        return False

    def _unstamped_plausible(self, path: Path, pid: int) -> bool:
        """Could the process with ``pid`` still be the relay that wrote this unstamped ticket?"""
        try:
            written = path.stat().st_mtime
        except OSError:
            return False
        if time.time() - written > max(self._max_wait, _LONGEST_QUEUE_WAIT) + _LONGEST_HOLD:
            log.info("queue ticket %s has no identity and is older than any wait and run: not counted", path.name)
            return False
        if started_after(pid, written):
            log.info("queue ticket %s has no identity and pid %d started after it was written: not counted",
                     path.name, pid)
            return False
        return True

    def _tickets(self, overdue: dict[str, str] | None = None) -> list[Path]:
        """Live tickets in arrival order; tickets of relay processes that died (or whose pid was reused) are removed.
        A ticket held past the longest its call could last is named in ``overdue`` (by name), not counted."""
        tickets = []
        own_folder(self._queue_dir)  # at every look: a link planted while a call waits is never listed through
        own_folder(self._ticket_locks)
        for path in sorted(self._queue_dir.iterdir()):
            try:
                pid = int(path.name.split("-")[1])
            except (IndexError, ValueError):
                continue
            if not self._ticket_live(path, pid, overdue):
                if path.name in self._left:
                    continue
                log.info("removed stale queue ticket %s", path.name)
                path.unlink(missing_ok=True)
                continue
            tickets.append(path)
        return tickets

    def holder(self) -> dict | None:
        """Which run holds the worker slot, since when (written by the holder; may be stale)."""
        try:  # a regular file only: a FIFO planted in the data dir under this name was waited on, freezing the relay
            return _decode_holder.decode(read_regular(self._dir / "holder.json", 64 * 1024))
        except (OSError, msgspec.DecodeError):
            return None

    def _busy(self, run_id: str, position: int, waited: float) -> Busy:
        held = self.holder()
        who = (f"run {held.get('run_id')} (relay pid {held.get('pid')}) holds the worker slot since {held.get('since')}"
               if held else "another relay process holds the worker slot")
        return Busy(
            f"queued {waited / 60:.1f} min without getting the worker slot (position {position}: "
            f"{position} call(s) ahead); {who}",
            "Wait for that run to finish (`gravity-relay runs list` shows it), or cancel it, then call again. "
            "GRAVITY_RELAY_QUEUE_WAIT_MINUTES sets how long a call may queue.")

    @asynccontextmanager
    async def slot(self, run_id: str, first: Callable[[], Awaitable[None]] | None = None, *,
                   hold: float = _LONGEST_HOLD) -> AsyncIterator[int]:
        """Hold the machine's worker slot; yields how long the wait was, in ms.

        ``first`` runs once the slot is held, before the caller's block (the auth probe: never beside a
        worker); what it raises leaves the slot and reaches the caller.

        Every waiter, in every relay process, takes a ticket in the data dir; the oldest live
        ticket runs next. That makes the queue FIFO across processes, not only within one, and
        gives each waiter its true position. The file lock is the safety net under it. A ticket
        carries its relay's identity, so one left by a dead relay whose pid was reused does not
        block the queue; a wait longer than the bound answers BUSY instead of hanging. ``hold``: the longest the run
        can last once it has the slot (its deadline and verify commands), written in the ticket with the wait.
        """
        self._own_folders()
        started = time.monotonic()
        ticket = self._queue_dir / f"{time.time_ns():020d}-{os.getpid()}-{run_id}"
        # The ticket's lock first, held until the ticket is gone: what tells another relay this ticket is a live one.
        ticket_lock = _ticket_lock(self._ticket_locks, ticket.name)
        ticket_lock.acquire(timeout=0)
        _WRITTEN.add(ticket.name)
        own = own_stamp()
        try:
            until = time.time() + self._max_wait + hold + _TICKET_SLACK
            ticket.write_bytes(_TICKET.encode({**msgspec.structs.asdict(own), "until": round(until, 3)})
                               if own is not None else b"")
        except BaseException:
            self._drop_ticket(ticket, ticket_lock)
            raise
        file_lock = own_lock(self._dir / "worker.lock")
        locked = False
        overdue: dict[str, str] = {}  # tickets this call went ahead of, past their bound: said in its record
        try:
            while True:
                tickets = await anyio.to_thread.run_sync(self._tickets, overdue)
                position = tickets.index(ticket) if ticket in tickets else 0
                self._positions[run_id] = position
                if position == 0:
                    try:
                        file_lock.acquire(timeout=0)
                        locked = True
                        break
                    except Timeout:
                        pass
                waited = time.monotonic() - started
                if waited > self._max_wait:
                    raise self._busy(run_id, position, waited)
                await anyio.sleep(_POLL)
            if self._reap is not None:
                # The lock is ours, but a crashed relay's agy may still be running: reap it first.
                try:
                    reaped = await anyio.to_thread.run_sync(self._reap)
                except Exception as exc:  # noqa: BLE001 - reaping is a safety net; it must not fail this run
                    log.warning("could not check for orphan workers: %s", exc)
                    reaped = []
                if reaped:
                    log.warning("before starting run %s: finished %d orphan run(s) of dead relays: %s",
                                run_id, len(reaped), ", ".join(reaped))
            self._positions.pop(run_id, None)
            self._holder = run_id
            self._slot_lock, self._slot_moved, self._overdue = file_lock, None, list(overdue.values())
            try:
                write_atomic(self._dir / "holder.json",
                             _TICKET.encode({"run_id": run_id, "pid": os.getpid(), "since": now_iso()}))
            except OSError:
                pass  # only used to say who holds the slot
            waited = int((time.monotonic() - started) * 1000)
            if first is not None:
                await first()
            yield waited
        finally:
            self._positions.pop(run_id, None)
            if self._holder == run_id:
                self._holder = None
            self._drop_ticket(ticket, ticket_lock)
            if locked:
                held = self.holder()
                if held and held.get("run_id") == run_id:
                    (self._dir / "holder.json").unlink(missing_ok=True)
                if self._slot_lock is not None and self._slot_lock is not file_lock:
                    self._slot_lock.release()  # the lock keep_slot took again on the name's new file
                self._slot_lock, self._overdue = None, []
                file_lock.release()

    def keep_slot(self) -> None:
        """Right before agy starts (every attempt): does the slot's lock still hold the file ``locks/worker.lock``
        names? Whoever writes the data dir can remove or rename the held file; the next relay then locks a new file of
        that name and runs its agy beside this one. Moved: the name's file is locked now in its place, or, when
        another process holds that one, agy is not started (BUSY). Never kills anything."""
        held = self._slot_lock
        if held is None or held.still_named():
            return
        fresh = own_lock(self._dir / "worker.lock")
        try:
            fresh.acquire(timeout=0)
        except (Timeout, OSError):
            self._slot_moved = (_SLOT_MOVED + " before agy started, and another process holds the file now named so "
                                "(another relay's worker may run): agy was not started")
            raise Busy(self._slot_moved, "Find what removes or renames files in the relay's data dir (a cleanup "
                       "script?); call again when `gravity-relay runs list` shows no other run.") from None
        self._slot_lock = fresh  # the old file, named by nothing, is let go when the slot is
        self._slot_moved = _SLOT_MOVED + " before agy started; the relay locked the file now named so"

    def slot_notes(self) -> list[str]:
        """Before the run's record is finished: what became of the slot's lock file during the hold, if anything
        (removed or renamed while agy ran, the next relay could run its agy beside this one: not prevented, said), and
        the tickets the run went ahead of because they were held past their bound."""
        held = self._slot_lock
        if held is not None and not held.still_named():
            self._slot_moved = (_SLOT_MOVED + " while this run held the slot: another relay process could take the "
                                "slot and run its agy beside this one's")
        return ([self._slot_moved] if self._slot_moved else []) + self._overdue

    def _drop_ticket(self, ticket: Path, ticket_lock: OwnLock) -> None:
        ticket.unlink(missing_ok=True)
        _WRITTEN.discard(ticket.name)
        ticket_lock.release()
        with contextlib.suppress(OSError):
            (self._ticket_locks / ticket.name).unlink()

    @asynccontextmanager
    async def idle(self) -> AsyncIterator[bool]:
        """Hold the worker lock for a moment when no worker runs and nobody queues, in any relay process.

        Yields True while held (the auth probe runs then: never beside a starting worker, the overlap users
        saw end in `Agent execution terminated due to error.`, agy-protocol.md §7.2), False at once when a
        worker holds the slot or a ticket waits (the caller does not wait here: it queues).
        """
        self._own_folders()
        if self._holder is not None or await anyio.to_thread.run_sync(self._tickets):
            yield False
            return
        file_lock = own_lock(self._dir / "worker.lock")
        try:
            file_lock.acquire(timeout=0)
        except Timeout:
            yield False
            return
        try:
            yield True
        finally:
            file_lock.release()

    @asynccontextmanager
    async def conversation(self, conversation_id: str | None) -> AsyncIterator[None]:
        """Claim a conversation for one continue; a second claimant is refused with BUSY."""
        if not conversation_id:
            yield
            return
        self._own_folders()
        digest = hashlib.sha256(conversation_id.encode()).hexdigest()[:24]
        file_lock = own_lock(self._dir / f"conversation-{digest}.lock")
        busy = Busy(
            f"conversation {conversation_id} is already running a turn",
            "Wait for that call's packet, then continue; two turns at once would fork the conversation.")
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
