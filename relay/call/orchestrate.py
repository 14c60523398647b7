"""The path of one call, top to bottom (DESIGN.md, "The path of one call").

    intake (surface, policy, agy, gate) ─▶ record ─▶ coordinator ─▶ auth preflight ─▶ snapshot
            ─▶ worker (+ retry guard) ─▶ observe and judge (observe_run.py, judge.py) ─▶ verify ─▶ review ─▶ finish

``Relay`` holds what lives as long as the process (settings, the store, the worker queue, the auth
cache). A call is resolved once (``intake.take_in``: a CallPlan), run by ``run`` (the steps below,
in order) and ended once (``finish.finish``: an Ending becomes the record's outcome and the packet).
Each call's state lives in its RunRecord, so a continue works from any relay process, after any restart.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import anyio
import msgspec

from relay.agy.auth import AuthPreflight
from relay.agy.answer_reading import answer_flags
from relay.agy.classify import LOGIN_CLASS, TRANSIENT, Outcome, Verdict, report_of
from relay.agy.env import build_worker_env
from relay.call.apply_run import apply_run
from relay.call.attempts import run_attempts, worker_said
from relay.call.confirm import Gate, declined_packet, preview_packet
from relay.call.finish import Ending, finish, refusal_ending, stopped_verdict, unrecorded_ending
from relay.call.intake import AwaitingPerson, CallPlan, Refusal, refused_input, take_in
from relay.call.observe_run import Live, RunLook, branch_message
from relay.call.once import Once
from relay.call.policy import RunPlan
from relay.call.prelaunch import check_before_launch
from relay.call.warm import warm_review
from relay.call.progress import Progress, no_progress
from relay.call.recovery import recover_interrupted
from relay.call.undertaker import watch
from relay.core.contracts import (ContinueInput, Detail, ExecuteInput, GetResultInput, Packet,
                                  RunRecord, Status, Tests, WorkerReport)
from relay.core.errors import RelayError, StorageError, as_relay_error
from relay.core.platform import Identity, stop_worker, verify_worker
from relay.core.process import stop_grace
from relay.core.redact import redact
from relay.core.settings import Settings
from relay.isolate.config_hooks import ConfigHooksRefused
from relay.isolate.pool import Lease, lease_worktree, record_change, still_own
from relay.observe.changes import ChangeSet
from relay.observe.git import GitError
from relay.observe.permissions import pre_run_files
from relay.observe.snapshot import Snapshot, release_indexes, take_snapshot
# The review (relay.review: ~13,000 lines, a thousand regexes compiled at import) is imported where a run is reviewed, not
# when the server starts: a client waits on the start (Claude Code gives a server 30 s), and a refusal never reviews.
from relay.review.verify import run_verification, tests_from_verification  # (the profile's commands: no reader)
from relay.runs.coordinator import Coordinator
from relay.runs.results import MAX_CHARS, render_result, status_of
from relay.runs.store import RunStore
from relay.runs.usage import run_usage

__all__ = ["Relay"]

log = logging.getLogger("relay")

# The packet's summary when agy gave no report that fits: its answer text, said to be unchecked.
UNCHECKED_SUMMARY = "(agy's answer text, not a checked report) "


class Relay:
    """One per process: the long-lived parts every call shares."""

    def __init__(self, settings: Settings, *, environ: dict[str, str] | None = None) -> None:
        self.settings = settings
        self.environ = dict(os.environ if environ is None else environ)
        self.store = RunStore(settings.runs_dir)
        self.coordinator = Coordinator(settings.data_dir, reap=self.recover_dead_runs,
                                       max_wait=settings.queue_wait_seconds)
        self.auth = AuthPreflight(settings.auth_cache_seconds, settings.data_dir)
        self._live: dict[str, Live] = {}  # per running run of this process: where it is (RUNNING answers)
        self.look = RunLook(settings, self.store, self._live)  # a run's change observed and judged (observe_run.py)
        # Per run stopped on request (antigravity_cancel, the doors' detacher): why; its CANCELLED message says it.
        self.cancel_reasons: dict[str, str] = {}
        self.gate = Gate(settings, self.store, self.environ)  # confirm_trusted profiles (issue 10, confirm.py)
        self.once = Once(self.store, settings.data_dir)  # a retried call: answered by one run (once.py)

    def recover_dead_runs(self) -> list[str]:
        """Finish the runs of relay processes that died (``relay.call.recovery``), observed as a live run is."""
        return recover_interrupted(self.store)

    # ------------------------------------------------------------------ tools

    async def intake(self, tool: str, args: ExecuteInput | ContinueInput, *, ignored: list[str] | None = None,
                     run_id: str | None = None, fingerprint: str | None = None, ask: bool = False
                     ) -> CallPlan | AwaitingPerson | Packet:
        """The call resolved (intake.py), or its answer when it ends there: refused, or a confirm preview. ``ask``:
        the door can show a person a form; a call only a person may confirm then waits for the door to ask."""
        taken = await take_in(tool, args, settings=self.settings, store=self.store, environ=self.environ,
                              gate=self.gate, ignored=ignored, run_id=run_id, fingerprint=fingerprint, ask=ask)
        if isinstance(taken, Refusal):
            return finish(self.store, taken.record, refusal_ending(taken.record.run_id, taken.error))
        question = taken.question
        if question is None:
            return taken
        if question.by == "person":
            taken.record.process.argv = question.preview.command
            return AwaitingPerson(taken)  # nothing written yet: the person's answer ends it (confirm.py)
        return preview_packet(self.store, taken.record, taken.plan, question.preview)  # recorded like a refusal

    def decline(self, call: CallPlan, said: str) -> Packet:
        """A person did not confirm ``call`` (declined, dismissed, chose cancel): recorded, nothing ran."""
        return declined_packet(self.store, call.record, call.plan, said)

    async def execute(self, args: ExecuteInput, progress: Progress = no_progress, *,
                      ignored: list[str] | None = None, run_id: str | None = None) -> Packet:
        call = await self.intake("execute", args, ignored=ignored, run_id=run_id)
        return call if isinstance(call, Packet) else await self.run(call, progress)

    async def continue_(self, args: ContinueInput, progress: Progress = no_progress, *,
                        ignored: list[str] | None = None, run_id: str | None = None) -> Packet:
        call = await self.intake("continue", args, ignored=ignored, run_id=run_id)
        return call if isinstance(call, Packet) else await self.run(call, progress)

    def refuse_input(self, tool: str, task: str, exc: RelayError, *, ignored: list[str] | None = None) -> Packet:
        """Arguments that did not decode: refused, and recorded like any other early refusal."""
        refusal = refused_input(tool, task, exc, ignored=ignored)
        return finish(self.store, refusal.record, refusal_ending(refusal.record.run_id, exc))

    def get_result(self, args: GetResultInput) -> tuple[dict, str]:
        record = self.store.read(args.run_id)
        if args.detail is Detail.DIFF:
            from relay.review.diff_view import diff_view

            return diff_view(record, status_of(record), self.store.read_patch(args.run_id),
                             str(self.store.patch_path(args.run_id)), args.max_chars)
        return render_result(record, args.detail, args.max_chars or MAX_CHARS, str(self.store.record_path(args.run_id)))

    async def apply(self, args: ContinueInput) -> Packet:
        """antigravity_continue(run_id, apply=true): the run's change into the user's tree (call/apply_run.py)."""
        return await anyio.to_thread.run_sync(apply_run, self.store, args.run_id, self.settings)

    def where(self, run_id: str) -> str | None:
        """Where a run of this process is now (the progress line), or None if this process does not run it."""
        live = self._live.get(run_id)
        if live is None:
            return None
        step = live.reader.progress_line() if live.stage == "running" else None
        where = self.coordinator.status(run_id) if live.stage == "queued" else live.stage
        return redact(f"{where}" + (f" · {step}" if step else ""))

    # ------------------------------------------------------------------ the run

    async def run(self, call: CallPlan, progress: Progress = no_progress) -> Packet:
        """Run a resolved call to its end; every way out of it finishes its record once."""
        started = time.monotonic()
        record = call.record
        try:
            self.store.write(record)  # a record exists from here on, whatever happens next
            self.store.mark_active(record.run_id)
        except OSError as exc:
            # Not a relay bug: the data dir is read-only, not a folder or full. Nothing ran (issue 13, minor).
            return finish(self.store, record, unrecorded_ending(exc, self.store.runs_dir, self.settings.data_dir))
        live = self._live[record.run_id] = Live()
        undertaker = watch(self.store.record_path(record.run_id))  # finishes the record if this process dies first

        async def tick() -> None:
            while True:
                await anyio.sleep(self.settings.progress_interval)
                where = self.where(record.run_id) or live.stage
                if where != record.process.where and record.state == "running":
                    record.process.where = where  # so a RUNNING answer from another relay process says where it is
                    try:
                        self.store.write(record)
                    except OSError:
                        pass
                await progress(time.monotonic() - started, where)

        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(tick)
                try:
                    ending = await self._steps(call, progress, live, started)
                except RelayError as exc:
                    ending = refusal_ending(record.run_id, exc)
                    if live.before is not None and record.process.attempts:
                        # A refusal after the worker ran (a spawn error on a retry): the packet lists what changed.
                        changes = await self.look.after_stop(call, live)
                        ending.changes = changes if changes is not None and changes.count else None
                        ending.flags = [live.unobserved] if live.unobserved else []
                tg.cancel_scope.cancel()
            packet = finish(self.store, record, ending, started=started)
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                await self._stop_worker(record)
                changes = await self.look.after_stop(call, live)
                why = self.cancel_reasons.pop(record.run_id, "the call was cancelled")
                verdict = Verdict(status=Status.CANCELLED, message=f"{why}; the worker was stopped",
                                  hint="Call again to retry; changes made so far stay in the workspace (listed in the "
                                  "run record).")
                finish(self.store, record, Ending(verdict=stopped_verdict(verdict, live.violation, live.unobserved), changes=changes,
                                                  flags=[live.unobserved] if live.unobserved else []), started=started)
            raise
        except Exception as exc:  # noqa: BLE001 - every path out of a run finishes its record
            return await self._unexpected(call, live, exc, started)
        finally:
            self._live.pop(record.run_id, None)
            undertaker.close()  # the record is written: it reads it finished and exits
            if live.before is not None:  # the run has ended: its trees stay, the private indexes go
                release_indexes(live.before)
            if live.lease is not None:  # the run ended early: record what its worktree holds, then free it
                self._settle(record, live.lease)
        return packet

    async def _steps(self, call: CallPlan, progress: Progress, live: Live, started: float) -> Ending:
        record, plan = call.record, call.plan
        # Coordinator (conversation): a second turn on a running conversation is refused, never forked.
        async with self.coordinator.conversation(call.conversation_id):
            env = build_worker_env(self.environ, run_id=record.run_id, passthrough=plan.env)

            # Auth preflight: shared, cached, and never beside a worker (agy/auth.py): before the queue only while
            # the worker slot is idle (a sign-out answers at once); behind a busy slot, the last sign-out if any.
            live.stage = "checking agy's login"
            async with self.coordinator.idle() as idle:
                _refuse_login(await self.auth.check(call.agy, env) if idle else self.auth.known_bad())

            live.stage = "queued"
            await progress(time.monotonic() - started, self.coordinator.status(record.run_id))
            # Isolation (issue 10): inside the slot (a crashed run's worktree is recovered first), `plan` is rebound
            # to run in the worktree; the user's workspace stays in the record.
            async def login_in_slot() -> None:  # probes only when no healthy answer is cached (a call that queued past it)
                live.stage = "checking agy's login"
                _refuse_login(await self.auth.check(call.agy, env))

            hold = call.plan.timeout_seconds + self.settings.timeout_grace_seconds + (
                call.plan.verify_timeout_seconds if call.plan.verify else 0.0)  # written in its queue ticket
            async with self.coordinator.slot(record.run_id, first=login_in_slot, hold=hold) as waited_ms, \
                    self._isolated(call, live) as plan:
                record.process.queue_wait_ms = waited_ms
                live.notes += check_before_launch(plan, models=self.auth.models, version=call.version)  # prelaunch.py
                warm_review()  # the review's import, in the background while the worker runs (relay.call.warm)
                live.stage = "snapshot"
                before = live.before = await anyio.to_thread.run_sync(take_snapshot, Path(plan.workspace),
                                                                       self.store.trees_path(record.run_id))
                _keep_snapshot_identity(record, before)
                # A revert puts each file's mode and bytes back exactly (issue 22; 37: which line endings it had).
                if plan.on_violation == "revert" or any(r.converts for r in before.repos()):
                    live.pre_run = await anyio.to_thread.run_sync(pre_run_files, Path(plan.workspace), before)

                live.stage = "running"
                await progress(time.monotonic() - started, "agy started")
                attempted = await run_attempts(call, plan, store=self.store, settings=self.settings, env=env,
                                               before=before, reader=live.reader, notes=live.notes,
                                               healthy_seconds_ago=self.auth.healthy_seconds_ago,
                                               before_spawn=self.coordinator.keep_slot)
                outcome, verdict = attempted.outcome, attempted.verdict
                report = report_of(outcome)
                worker_said(record, outcome, verdict, report)  # kept whatever ends the run from here (a refusal)
                live.stage = "observing changes"
                judged = await anyio.to_thread.run_sync(self.look.judge, call, live, Path(plan.workspace),
                                                        list(report.files_changed) if report else [])
                changeset, record.observation.ms = judged.changeset, judged.ms
                record.outcome.violation, verdict = judged.violation, judged.verdict(verdict)  # issue 10: enforced

                tests: Tests | None = None
                if plan.verify and verdict.ok:
                    live.stage = "verifying"
                    await progress(time.monotonic() - started, f"running {len(plan.verify)} verification command(s)")
                    record.observation.verification = await run_verification(
                        plan.verify, workspace=plan.workspace, env=env, timeout=plan.verify_timeout_seconds)
                    tests = tests_from_verification(record.observation.verification)
                live.notes[:0] = self.coordinator.slot_notes()  # the slot's lock file moved, tickets passed

        if verdict.ok:
            self.auth.mark_healthy()
        elif verdict.status in LOGIN_CLASS:
            self.auth.forget(verdict)  # the next call asks agy again instead of trusting the cached answer
        if attempted.mutated and record.outcome.violation is None:
            verdict = Verdict(
                status=Status.MUTATION_ABORTED,
                message=f"attempt {len(record.process.attempts)} failed ({verdict.status.value}: {verdict.message}) "
                "after it had already changed the workspace; not retried, changes left in place",
                hint="Review the listed changes; keep or revert them, then call again.")
        return self._review(call, outcome, verdict, changeset, report, tests, live, started)

    def _review(self, call: CallPlan, outcome: Outcome, verdict: Verdict, changeset: ChangeSet,
                report: WorkerReport | None, tests: Tests | None, live: Live, started: float) -> Ending:
        """What the worker said and what the relay saw, into the record and the run's Ending."""
        from relay.review.packet import build_review, tests_from_report

        record, plan = call.record, call.plan
        changes, flags, files = build_review(changeset, report=report, paths=plan.paths, workspace=Path(plan.workspace),
                                             task=call.asked)
        record.observation.changes = files
        record.observation.source = changes.source
        flags = list(plan.notes) + live.notes + flags
        asked = record.request.requested_conversation_id
        got = record.outcome.conversation_id
        if asked and got and got != asked:
            flags.insert(0, f"agy did not resume conversation {asked}: it started a new one ({got}) without the "
                            "earlier context")
        flags[:0] = answer_flags(outcome)  # refused tools, agy's error steps, a folded answer (agy-protocol.md §8)
        if tests is None:
            tests = tests_from_report(report)
        if verdict.status is Status.INVALID_REPORT and changes.count == 0:
            flags.append("no structured report and no observed change")
        summary = report.summary if report else ""
        if not summary and outcome.response.strip():
            # No report said it: agy's answer text stands in, marked, so a leader never takes the worker's own
            # "all 412 tests passed" in it for a report the relay checked (the status says INVALID_REPORT too).
            summary = UNCHECKED_SUMMARY + outcome.response.strip()
        return Ending(verdict=verdict, summary=summary, changes=changes, tests=tests, flags=flags,
                      usage=run_usage(record, model=outcome.model, seconds=time.monotonic() - started,
                                      earlier=call.ancestors))

    async def _unexpected(self, call: CallPlan, live: Live, exc: BaseException, started: float) -> Packet:
        """A failure nobody planned for: stop the worker, keep what it changed, answer with the run_id."""
        record = call.record
        inner = exc
        while isinstance(inner, BaseExceptionGroup) and len(inner.exceptions) == 1:
            inner = inner.exceptions[0]
        log.error("run %s failed inside the relay", record.run_id, exc_info=exc)
        with anyio.CancelScope(shield=True):
            await self._stop_worker(record)
            changes = await self.look.after_stop(call, live)
        # A store that cannot be written is STORAGE_ERROR, not a relay bug (errors.as_relay_error maps it).
        error = as_relay_error(inner, f"run {record.run_id}")
        verdict = Verdict(status=error.status, message=error.message[:2000],
                          hint=error.hint + " The worker was stopped; the files it changed are listed.")
        return finish(self.store, record, Ending(verdict=stopped_verdict(verdict, live.violation, live.unobserved), changes=changes,
                                                 flags=[live.unobserved] if live.unobserved else []), started=started)

    async def _stop_worker(self, record: RunRecord) -> None:
        """Stop the run's worker if it is still there — and still ours (its leader may be reaped already)."""
        verdict, worker = verify_worker(record.process.pgid, record.process.worker_stamp, record.run_id)
        if verdict is Identity.SAME and worker is not None:
            await stop_worker(worker, stop_grace(self.settings.kill_grace_seconds))

    # ------------------------------------------------------------------ isolation (issue 10)

    @asynccontextmanager
    async def _isolated(self, call: CallPlan, live: Live) -> AsyncIterator[RunPlan]:
        """The plan, moved into a pooled worktree when the profile (or a continued run) isolates it."""
        record, plan, parent = call.record, call.plan, call.parent
        if not (parent.isolation.branch if parent is not None else plan.isolation == "worktree"):
            yield plan
            return
        live.stage = "preparing the worktree"
        # A continue starts from its parent's change, in the parent's worktree when it is free; its change is
        # measured from the chain's base (or from the parent's tip once the parent was applied).
        ran = parent.isolation if parent is not None else None
        start = (ran.tip_commit or ran.base_commit) if ran is not None else None
        try:
            lease = await anyio.to_thread.run_sync(partial(
                lease_worktree, self.settings.data_dir, plan.workspace, record.run_id, start=start,
                carry=plan.carry_uncommitted and parent is None, prefer=ran.worktree if ran else None))
        except ConfigHooksRefused:  # the repository's config names a program git would run there
            raise
        except (GitError, OSError) as exc:
            raise StorageError(f"could not prepare a worktree for {plan.workspace}: {exc}") from None
        live.lease = lease
        live.workspace = str(lease.workdir)
        isolation = record.isolation
        isolation.worktree, isolation.branch = str(lease.workdir), lease.branch
        isolation.base_commit = lease.base if ran is None or ran.applied_at else ran.base_commit
        self.store.write(record)
        yield msgspec.structs.replace(plan, workspace=str(lease.workdir))
        live.lease = None
        await anyio.to_thread.run_sync(self._settle, record, lease)

    def _settle(self, record: RunRecord, lease: Lease) -> None:
        """Give the worktree back to the pool; a run that was not observed (stopped before) gets its worktree's
        state recorded on its branch first. An observed run keeps the commit it was observed as: apply writes
        exactly that change, never what a verification command wrote afterwards (issue 22, D1)."""
        try:
            if record.isolation.tip_commit is None and still_own(lease):
                record.isolation.tip_commit = record_change(lease, branch_message(record))
            if record.state == "finished":
                self.store.write(record)
        except (GitError, OSError) as exc:
            log.error("run %s: could not record its worktree's change on %s: %s", record.run_id, lease.branch, exc)
        finally:
            lease.release()


def _keep_snapshot_identity(record: RunRecord, before: Snapshot) -> None:
    """HEAD, saved with the record (at spawn); the trees themselves are on disk beside it (``trees_path``)."""
    if before.source == "git" and before.repo is not None:
        record.observation.before_head = before.repo.head


def _refuse_login(verdict: Verdict | None) -> None:
    if verdict is not None:
        raise RelayError(verdict.status, verdict.message, verdict.hint, retryable=verdict.status in TRANSIENT)
