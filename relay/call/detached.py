"""Runs that outlive the call that started them (issue 9).

A call with a wait (its ``wait_seconds``, else its profile's, else GRAVITY_RELAY_WAIT_SECONDS)
starts its run in a task group owned by the server's lifetime, not by the call: when
the wait ends first, the call answers RUNNING and the run goes on. Until then the call
is attached: its progress notifications flow, and a client that cancels it still
cancels the run (today's behaviour). Without any wait the run stays inline in the call,
exactly as before.

Stopping a detached run: in the relay that runs it, its cancel scope is cancelled, so
``Relay._run`` kills the worker group, observes what it changed and records CANCELLED —
the one path every cancellation already takes. From another relay process a cancel
request file (``runs/<run_id>.cancel``) asks the owner to do the same: only the owner
holds the pre-run snapshot that tells the run's changes from earlier edits, and one
writer per record avoids two processes finishing it differently. The owner polls for
the file every half second while the run runs, whether it was started detached or inline
(``Detacher.inline``): a run started without a wait is stopped the same way.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
import anyio
import anyio.abc

from relay.call.progress import Progress
from relay.core.contracts import GetResultInput, Packet, RunRecord, Running, Status
from relay.core.errors import RelayError
from relay.core.files import read_regular, write_atomic
from relay.core.settings import Settings
from relay.runs.results import packet_of, status_of
from relay.runs.store import RunStore, new_run_id, now_iso
from relay.runs.waiting import POLL_SECONDS, cancel_request_path, running_packet, wait_for_run

__all__ = ["Detacher"]

log = logging.getLogger("relay")

_REQUEST_BYTES = 4096  # a request holds who asked ("relay pid N"); more is never read

Launch = Callable[[Progress, str], Awaitable[Packet]]  # (progress, run_id) -> the run's packet
Where = Callable[[str], "str | None"]  # run_id -> where this process's run is now (Relay.where), None if not ours


async def _silent(elapsed: float, message: str) -> None:
    return None


class _Run:
    def __init__(self, run_id: str, progress: Progress) -> None:
        self.run_id = run_id
        self.forward = progress  # the attached call's progress; silent once the call has answered
        self.scope = anyio.CancelScope()
        self.done = anyio.Event()
        self.packet: Packet | None = None

    async def progress(self, elapsed: float, message: str) -> None:
        await self.forward(elapsed, message)


class Detacher:
    """The detached runs of one relay process, and the waits and cancels on any run.

    Built by the doors beside the Relay (``relay.doors.tools.detacher_for``) from what both share: the
    store, the settings, the cancel reasons the run's CANCELLED message quotes, and where a run is now.
    """

    def __init__(self, store: RunStore, settings: Settings, cancel_reasons: dict[str, str], where: Where) -> None:
        self.store, self.settings, self.cancel_reasons, self.where = store, settings, cancel_reasons, where
        self._tg: anyio.abc.TaskGroup | None = None
        self._runs: dict[str, _Run] = {}

    @property
    def available(self) -> bool:
        return self._tg is not None

    @asynccontextmanager
    async def serving(self, *, finish_runs: bool = False) -> AsyncIterator[Detacher]:
        """The lifetime detached runs live in. On exit they are stopped and recorded CANCELLED (a server that
        ends leaves no worker behind), or, with ``finish_runs`` (the shell's `execute --wait`), waited for."""
        async with anyio.create_task_group() as tg:
            self._tg = tg
            try:
                yield self
            finally:
                self._tg = None
                if not finish_runs:
                    for run in list(self._runs.values()):
                        self.cancel_reasons.setdefault(run.run_id, "the relay stopped")
                        run.scope.cancel()

    async def call(self, launch: Launch, wait: float, progress: Progress, *, run_id: str | None = None
                   ) -> Packet | Running:
        """Start a run in the server's lifetime; its packet if it ends within ``wait`` (the call's, decided at
        intake), else RUNNING."""
        if self._tg is None:
            raise RuntimeError("no detached-run lifetime: use Detacher.serving()")
        run = _Run(run_id or new_run_id(), progress)
        self._runs[run.run_id] = run
        self._tg.start_soon(self._body, run, launch)
        try:
            with anyio.move_on_after(wait):
                await run.done.wait()
        except anyio.get_cancelled_exc_class():
            # The client gave up before the run detached: the run stops with the call, as it always did.
            run.scope.cancel()
            with anyio.CancelScope(shield=True):
                await run.done.wait()
            raise
        if run.done.is_set():
            return run.packet or self._final(run.run_id)
        run.forward = _silent
        try:
            record = self.store.read(run.run_id)
        except RelayError:  # wait 0: the run task may not have written its record yet
            record = RunRecord(run_id=run.run_id, created_at=now_iso())
        return running_packet(record, self.where(run.run_id), wait)

    async def inline(self, launch: Launch, progress: Progress, *, run_id: str | None = None) -> Packet:
        """A run the call waits for to its end (no wait given): stoppable by antigravity_cancel like a detached one."""
        # Regression: such a run once did not poll the cancel request, so a cancel from another relay
        # answered BUSY after ~33 s and the run went on.
        run = _Run(run_id or new_run_id(), progress)
        self._runs[run.run_id] = run
        await self._guarded(run, launch)
        return run.packet or self._final(run.run_id)

    async def _body(self, run: _Run, launch: Launch) -> None:
        try:
            await self._guarded(run, launch)
        except Exception:  # noqa: BLE001 - Relay._run records its own failures; this is a last guard
            log.exception("detached run %s failed", run.run_id)

    async def _guarded(self, run: _Run, launch: Launch) -> None:
        """Run ``launch`` in the run's cancel scope while watching for a cancel request; a failure leaves as it is."""
        failure: Exception | None = None
        try:
            with run.scope:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(self._watch_cancel_request, run)
                    try:
                        run.packet = await launch(run.progress, run.run_id)
                    except Exception as exc:  # noqa: BLE001 - raised below, not wrapped in an ExceptionGroup
                        failure = exc
                    tg.cancel_scope.cancel()
        finally:
            self._runs.pop(run.run_id, None)
            _unlink(cancel_request_path(self.store, run.run_id))  # a request that came too late
            run.done.set()
        if failure is not None:
            raise failure

    async def _watch_cancel_request(self, run: _Run) -> None:
        path = cancel_request_path(self.store, run.run_id)
        while True:
            await anyio.sleep(POLL_SECONDS)
            # Off the event loop, as records are read (issue 22, D4): a FIFO named like the request once
            # blocked this read inside the loop, and every call of every session waited with it.
            asker = await anyio.to_thread.run_sync(_read_cancel_request, path)
            if asker is None:
                continue
            _unlink(path)
            self.cancel_reasons[run.run_id] = f"stopped by antigravity_cancel{' from ' + asker if asker else ''}"
            run.scope.cancel()
            return

    def _final(self, run_id: str) -> Packet:
        return packet_of(self.store.read(run_id))

    # ------------------------------------------------------------------ any run, from any relay process

    async def wait(self, args: GetResultInput, progress: Progress) -> Packet | Running:
        """get_result with a wait: the run's packet once it ends (execute's own bytes), or a fresh RUNNING."""
        assert args.run_id is not None and args.wait_seconds is not None
        started = anyio.current_time()

        async def tick(record) -> None:
            where = self.where(record.run_id) or record.process.where or "running"
            await progress(anyio.current_time() - started, where)

        own = self._runs.get(args.run_id)  # a run of this relay: its end is an event, not the next poll
        record = await wait_for_run(self.store, args.run_id, args.wait_seconds, tick,
                                    tick_every=self.settings.progress_interval,
                                    ended=own.done if own is not None else None)
        if status_of(record) is Status.RUNNING:
            return running_packet(record, self.where(record.run_id), args.wait_seconds)
        return packet_of(record)

    async def cancel(self, run_id: str) -> Packet:
        """Stop a running run: CANCELLED recorded with the changes so far; the packet lists them."""
        store = self.store
        record = store.read(run_id)
        if status_of(record) is not Status.RUNNING:
            return packet_of(record)  # nothing to stop: the run's own answer says how it ended
        run = self._runs.get(run_id)
        if run is not None:
            self.cancel_reasons[run_id] = "stopped by antigravity_cancel"
            run.scope.cancel()
            with anyio.CancelScope(shield=True):
                await run.done.wait()
            return self._final(run_id)
        # Another relay (another process, or another server in this one) runs it: ask it, and wait for its
        # record to say CANCELLED. Every run a relay starts polls for this request (``_watch_cancel_request``).
        path = cancel_request_path(store, run_id)
        try:
            # A new file put in place: never written through a link planted under the request's name (the data dir
            # is input, docs/security.md), which once had the user's file it named overwritten with these words.
            write_atomic(path, f"relay pid {os.getpid()}".encode())
        except OSError as exc:
            raise RelayError(Status.STORAGE_ERROR, f"cannot write the cancel request {path}: {exc.strerror or exc}",
                             f"Make {store.runs_dir} writable, then call again.") from None
        limit = self.settings.kill_grace_seconds + 30.0
        record = await wait_for_run(store, run_id, limit)
        if status_of(record) is Status.RUNNING:
            _unlink(path)
            raise RelayError(Status.BUSY, f"relay pid {record.process.relay_pid} runs {run_id} and did not stop it within "
                             f"{limit:g} s",
                             "Wait for its packet with antigravity_get_result, or stop that relay.", retryable=True)
        _unlink(path)
        return packet_of(record)


def _read_cancel_request(path) -> str | None:
    """Who asked (the request's first words), "" when it says nothing, or None when there is no request.

    Only a regular file is a request (read_regular: no link followed, a FIFO never waited on), and only its
    first bytes are read; anything else in its place is removed and is not a request."""
    try:
        data = read_regular(path, limit=_REQUEST_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("ignoring %s: %s", path, exc.strerror or exc)
        _unlink(path)
        return None
    return data.decode("utf-8", "replace").strip()[:40]


def _unlink(path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
