"""The path of one call, top to bottom (DESIGN.md, "The path of one call").

    surface ─▶ policy ─▶ record ─▶ coordinator ─▶ auth preflight ─▶ snapshot
            ─▶ worker (+ retry guard) ─▶ observe ─▶ verify ─▶ review ─▶ record

``Relay`` holds what lives as long as the process (settings, the store, the
worker queue, the auth cache); each call's state lives in its RunRecord, so a
continue works from any relay process, after any restart.
"""

from __future__ import annotations

import errno
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import anyio
import msgspec
from tenacity import AsyncRetrying, retry_if_result, stop_after_attempt, wait_exponential

from relay.agy import command as agy_cli
from relay.agy.auth import AuthPreflight
from relay.observe.changes import ChangeSet, observe_changes, workspace_changed
from relay.review.file_kinds import is_secret_path
from relay.observe.run_patch import write_run_patch
from relay.agy.classify import (LOGIN_CLASS, TRANSIENT, Outcome, Verdict, classify, refusals_flag, relay_retries,
                                report_of, transient_oauth)
from relay.core.contracts import (
    Attempt,
    Changes,
    ContinueInput,
    Detail,
    ErrorInfo,
    ExecuteInput,
    GetResultInput,
    Packet,
    Preview,
    RunRecord,
    Status,
    Tests,
    WorkerReport,
)
from relay.runs.coordinator import Coordinator
from relay.call.confirm import Gate, plan_argv, preview_answer
from relay.call.apply_run import apply_run
from relay.call.progress import Progress, no_progress
from relay.core.errors import InvalidInput, InvalidWorkspace, RelayError, SpawnError, StorageError, as_relay_error
from relay.isolate.pool import Lease, changed_outside, lease_worktree, record_change, still_own
from relay.observe.git import GitError
from relay.call.policy import CallOptions, RunPlan, require_text, resolve_plan, validate_workspace
from relay.call.enforce import (HIJACKED, VIOLATION_HINT, apply_policy, enforce_outside, enforce_policy,
                                outside_violation, prompt_limits)
from relay.call.limits import asked_by, recorded_limits
from relay.core.process import tail
from relay.core.platform import Identity, own_stamp, stamp_of, stop_worker, verify_worker
from relay.runs.recovery import recover_interrupted, recover_run
from relay.agy.prompt import argv_safe_prompt, compose_feedback, compose_prompt
from relay.core.redact import redact
from relay.runs.results import MAX_CHARS, render_result, status_of
from relay.review.diff_view import diff_view
from relay.review.packet import build_review, fit_packet, tests_from_report
from relay.core.settings import Settings
from relay.observe.snapshot import Snapshot, take_snapshot
from relay.runs.store import RunStore, new_run_id, now_iso
from relay.runs.usage import run_usage
from relay.agy.stream import StreamReader
from relay.review.verify import run_verification, tests_from_verification
from relay.agy.worker import run_worker
from relay.agy.env import build_worker_env

__all__ = ["Relay"]

log = logging.getLogger("relay")

_MAX_ATTEMPTS = 2  # one retry (classify.relay_retries says which failures), only if the workspace is untouched
_RESPONSE_LIMIT = 1_000_000
# How many earlier runs of a conversation a follow-up's review reads the task of (``_asked``).
_ASKED_DEPTH = 8


class _Live:
    """What one run is doing right now: read by the progress ticker and by the cancel path."""

    def __init__(self) -> None:
        self.stage = "starting"
        self.reader = StreamReader()
        self.before: Snapshot | None = None
        self.workspace: str | None = None  # where the worker runs, when not the plan's (its worktree)
        self.lease: Lease | None = None  # the worktree held by a run that ended early (settled at the end)
        self.violation = ""  # a stopped run's broken policy, said in its message (enforce.apply_policy)
        self.outside: list[str] = []  # a worktree run's change outside its workspace (issue 22, D1)


def _strings(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    return [v.strip() for v in value if v.strip()]


def _ms(since: float) -> int:
    return int((time.monotonic() - since) * 1000)


class Relay:
    """One per process: the long-lived parts every call shares."""

    def __init__(self, settings: Settings, *, environ: dict[str, str] | None = None) -> None:
        self.settings = settings
        self.environ = dict(os.environ if environ is None else environ)
        self.store = RunStore(settings.runs_dir)
        self.coordinator = Coordinator(settings.data_dir, reap=lambda: recover_interrupted(self.store),
                                       max_wait=settings.queue_wait_seconds)
        self.auth = AuthPreflight(settings.auth_cache_seconds)
        self._output_notes: dict[str, list[str]] = {}  # per running run: what the packet says about agy's output
        self._live: dict[str, _Live] = {}  # per running run of this process: where it is (RUNNING answers)
        # Per run stopped on request (antigravity_cancel, the doors' detacher): why; its CANCELLED message says it.
        self.cancel_reasons: dict[str, str] = {}
        self.gate = Gate(settings, self.store, self.environ)  # confirm_trusted profiles (issue 10, confirm.py)

    # ------------------------------------------------------------------ tools

    async def execute(self, args: ExecuteInput, progress: Progress = no_progress, *,
                      ignored: list[str] | None = None, run_id: str | None = None) -> Packet:
        record = RunRecord(run_id=run_id or new_run_id(), tool="execute", created_at=now_iso(), task=_no_nul(args.task),
                           relay_pid=os.getpid(), relay_stamp=own_stamp(), ignored_arguments=list(ignored or []))
        try:
            self._refuse_inside_worker()
            require_text("task", args.task)
            _refuse_nul(args)
            plan = resolve_plan(
                CallOptions(
                    profile=args.profile, workspace=args.workspace, execution_mode=args.execution_mode,
                    sandbox=args.sandbox, skip_permissions=args.skip_permissions,
                    constraints=_strings(args.constraints), model=args.model, effort=args.effort,
                    agent=args.agent, timeout_minutes=args.timeout_minutes, limits=asked_by(args),
                ),
                self.settings,
            )
            prompt = compose_prompt(task=args.task, workspace=plan.workspace, constraints=plan.constraints,
                                    plan=args.plan, acceptance_criteria=args.acceptance_criteria, paths=plan.paths,
                                    limits=prompt_limits(plan))
            texts = {"task": args.task, "plan": args.plan, "acceptance_criteria": args.acceptance_criteria}
            preview = await self.gate.check(record, plan, prompt, args.confirm, texts=texts, conversation_id=None)
        except Exception as exc:  # noqa: BLE001 - a refusal, or a bug, before the run: recorded, with a run_id
            return self._refused(record, exc)
        if preview is not None:
            return self._preview(record, plan, preview)
        return await self._run(record, plan, prompt, conversation_id=None, progress=progress)

    async def continue_(self, args: ContinueInput, progress: Progress = no_progress, *,
                        ignored: list[str] | None = None, run_id: str | None = None) -> Packet:
        record = RunRecord(run_id=run_id or new_run_id(), tool="continue", created_at=now_iso(), task=_no_nul(args.feedback),
                           relay_pid=os.getpid(), relay_stamp=own_stamp(), ignored_arguments=list(ignored or []))
        try:
            self._refuse_inside_worker()
            if not args.feedback.strip():
                # feedback is optional in the published schema (a call with apply needs none): say both choices.
                said = "blank (only whitespace)" if args.feedback else "left out"
                raise InvalidInput(f"antigravity_continue needs feedback or apply=true; feedback was {said}",
                                   "Say in `feedback` what the worker must do next, or send apply=true (no feedback) "
                                   "to bring a worktree run's change into your tree.")
            _refuse_nul(args)
            call, conversation_id, parent = self._continue_options(args)
            record.parent_run_id = parent
            record.requested_conversation_id = conversation_id
            plan = resolve_plan(call, self.settings)
            prompt = compose_feedback(feedback=args.feedback, constraints=plan.constraints, limits=prompt_limits(plan))
            preview = await self.gate.check(record, plan, prompt, args.confirm, texts={"feedback": args.feedback},
                                            conversation_id=conversation_id)
        except Exception as exc:  # noqa: BLE001 - a refusal, or a bug, before the run: recorded, with a run_id
            return self._refused(record, exc)
        if preview is not None:
            return self._preview(record, plan, preview)
        return await self._run(record, plan, prompt, conversation_id=conversation_id, progress=progress)

    def refuse_input(self, tool: str, task: str, exc: RelayError, *, ignored: list[str] | None = None) -> Packet:
        """Arguments that did not decode: refused, and recorded like any other early refusal."""
        record = RunRecord(run_id=new_run_id(), tool="continue" if tool.endswith("continue") else "execute",
                           created_at=now_iso(), task=_no_nul(task[:10_000]), relay_pid=os.getpid(),
                           relay_stamp=own_stamp(), ignored_arguments=list(ignored or []))
        return self._refused(record, exc)

    def get_result(self, args: GetResultInput) -> tuple[dict, str]:
        record = self.store.read(args.run_id)
        if args.detail is Detail.DIFF:
            return diff_view(record, status_of(record), self.store.read_patch(args.run_id),
                             str(self.store.patch_path(args.run_id)), args.max_chars)
        return render_result(record, args.detail, args.max_chars or MAX_CHARS, str(self.store.record_path(args.run_id)))

    # ------------------------------------------------------------------ the run

    async def _run(self, record: RunRecord, plan: RunPlan, prompt: str, *, conversation_id: str | None,
                   progress: Progress) -> Packet:
        started = time.monotonic()
        self._fill_from_plan(record, plan)
        try:
            self.store.write(record)  # a record exists from here on, whatever happens next
            self.store.mark_active(record.run_id)
        except OSError as exc:
            # Not a relay bug: the data dir is read-only, not a folder or full. Nothing ran (issue 13, minor).
            return self._unrecorded(record, exc)
        live = self._live[record.run_id] = _Live()

        async def tick() -> None:
            while True:
                await anyio.sleep(self.settings.progress_interval)
                where = self.where(record.run_id) or live.stage
                if where != record.where and record.state == "running":
                    record.where = where  # so a RUNNING answer from another relay process says where it is
                    try:
                        self.store.write(record)
                    except OSError:
                        pass
                await progress(time.monotonic() - started, where)

        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(tick)
                try:
                    packet = await self._run_steps(record, plan, prompt, conversation_id, progress, live, started)
                except RelayError as exc:
                    packet = self._refused(record, exc, started=started)
                    if live.before is not None and record.attempts:
                        packet = await self._with_changes(record, plan, live, packet)
                tg.cancel_scope.cancel()
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                await self._stop_worker(record)
                changes = await self._observe_after_cancel(record, plan, live)
                why = self.cancel_reasons.pop(record.run_id, "the call was cancelled")
                self._finish(record, _stopped(Verdict(status=Status.CANCELLED, message=f"{why}; the worker was stopped",
                                                      hint="Call again to retry; changes made so far stay in the "
                                                      "workspace (listed in the run record)."), live),
                             started=started, changes=changes)
            raise
        except Exception as exc:  # noqa: BLE001 - every path out of a run finishes its record
            return await self._unexpected(record, plan, live, exc, started)
        finally:
            self._live.pop(record.run_id, None)
            if live.lease is not None:  # the run ended early: record what its worktree holds, then free it
                self._settle(record, live.lease)
        return packet

    def where(self, run_id: str) -> str | None:
        """Where a run of this process is now (the progress line), or None if this process does not run it."""
        live = self._live.get(run_id)
        if live is None:
            return None
        step = live.reader.progress_line() if live.stage == "running" else None
        where = self.coordinator.status(run_id) if live.stage == "queued" else live.stage
        return redact(f"{where}" + (f" · {step}" if step else ""))

    async def _unexpected(self, record: RunRecord, plan: RunPlan, live: _Live, exc: BaseException,
                          started: float) -> Packet:
        """A failure nobody planned for: stop the worker, keep what it changed, answer with the run_id."""
        inner = exc
        while isinstance(inner, BaseExceptionGroup) and len(inner.exceptions) == 1:
            inner = inner.exceptions[0]
        log.error("run %s failed inside the relay", record.run_id, exc_info=exc)
        with anyio.CancelScope(shield=True):
            await self._stop_worker(record)
            changes = await self._observe_after_cancel(record, plan, live)
        # A store that cannot be written is STORAGE_ERROR, not a relay bug (errors.as_relay_error maps it).
        error = as_relay_error(inner, f"run {record.run_id}")
        verdict = Verdict(status=error.status, message=error.message[:2000],
                          hint=error.hint + " The worker was stopped; the files it changed are listed.")
        return self._finish(record, _stopped(verdict, live), started=started, changes=changes)

    async def _with_changes(self, record: RunRecord, plan: RunPlan, live: _Live, packet: Packet) -> Packet:
        """A refusal after the worker ran (a spawn error on a retry): the record lists what changed."""
        changes = await self._observe_after_cancel(record, plan, live)
        if changes is not None and changes.count:
            packet.changes = changes
            if record.violation is not None:
                packet.flags = [_violation_flag(record), *packet.flags]
            record.packet = packet
            try:
                self.store.write(record)
            except OSError:
                pass
        return packet

    async def _run_steps(self, record: RunRecord, plan: RunPlan, prompt: str, conversation_id: str | None,
                         progress: Progress, live: _Live, started: float) -> Packet:
        # Coordinator (conversation): a second turn on a running conversation is refused, never forked.
        async with self.coordinator.conversation(conversation_id):
            agy = agy_cli.locate_agy(self.settings, self.environ)
            record.agy_bin = agy
            try:  # the one cached `agy --version` probe (agy/command.py)
                version = (await anyio.to_thread.run_sync(agy_cli.read_version, agy, self.environ,
                                                          abandon_on_cancel=True)).version
            except OSError as exc:
                raise SpawnError(f"could not start {agy}: {exc.strerror or exc}") from None
            record.agy_version = ".".join(map(str, version)) if version else None
            if (old := agy_cli.too_old(version)) is not None:
                raise old
            env = build_worker_env(self.environ, run_id=record.run_id, passthrough=plan.env)

            # Auth preflight: shared, cached, and never beside a worker (agy/auth.py): before the queue only while
            # the worker slot is idle (a sign-out answers at once); behind a busy slot, the last sign-out if any.
            live.stage = "checking agy's login"
            async with self.coordinator.idle() as idle:
                _refuse_login(await self.auth.check(agy, env) if idle else self.auth.known_bad())

            live.stage = "queued"
            await progress(time.monotonic() - started, self.coordinator.status(record.run_id))
            # Isolation (issue 10): inside the slot (a crashed run's worktree is recovered first), `plan` is rebound
            # to run in the worktree; the user's workspace stays in the record.
            async def login_in_slot() -> None:  # probes only when no healthy answer is cached (a call that queued past it)
                live.stage = "checking agy's login"
                _refuse_login(await self.auth.check(agy, env))

            async with self.coordinator.slot(record.run_id, first=login_in_slot) as waited_ms, \
                    self._isolated(record, plan, live) as plan:
                record.queue_wait_ms = waited_ms
                live.stage = "snapshot"
                before = live.before = await anyio.to_thread.run_sync(take_snapshot, Path(plan.workspace),
                                                                       self.store.trees_path(record.run_id))
                _keep_snapshot_identity(record, before)

                live.stage = "running"
                await progress(time.monotonic() - started, "agy started")
                outcome, verdict, mutated = await self._attempts(record, plan, prompt, conversation_id, agy, version,
                                                                 env, before, live.reader)
                report = report_of(outcome)
                live.stage = "observing changes"
                observed_at = time.monotonic()
                changeset = await anyio.to_thread.run_sync(
                    lambda: self._observe(record, before, Path(plan.workspace),
                                          reported=list(report.files_changed) if report else [])
                )
                record.observation_ms = _ms(observed_at)
                verdict, record.violation = await anyio.to_thread.run_sync(  # issue 10: enforced policy
                    enforce_policy, plan, changeset.files, before, verdict)
                if record.violation is not None and record.violation.restored:
                    # The packet keeps listing what the worker did; the patch is what is left in the tree, so
                    # `runs revert` undoes the rest instead of refusing over the files already restored.
                    await anyio.to_thread.run_sync(self._observe, record, before, Path(plan.workspace))
                if live.lease is not None:  # issue 22, D1: what the worktree changed outside the workspace
                    verdict, record.violation = enforce_outside(verdict, record.violation, live.outside,
                                                                live.lease.facts.prefix, plan.on_violation)

                tests: Tests | None = None
                if plan.verify and verdict.ok:
                    live.stage = "verifying"
                    await progress(time.monotonic() - started, f"running {len(plan.verify)} verification command(s)")
                    record.verification = await run_verification(plan.verify, workspace=plan.workspace, env=env,
                                                                  timeout=plan.verify_timeout_seconds)
                    tests = tests_from_verification(record.verification)

        if verdict.ok:
            self.auth.mark_healthy()
        elif verdict.status in LOGIN_CLASS:
            self.auth.forget(verdict)  # the next call asks agy again instead of trusting the cached answer
        if mutated and record.violation is None:
            verdict = Verdict(
                status=Status.MUTATION_ABORTED,
                message=f"attempt {len(record.attempts)} failed ({verdict.status.value}: {verdict.message}) after it had "
                "already changed the workspace; not retried, changes left in place",
                hint="Review the listed changes; keep or revert them, then call again.",
            )
        return self._conclude(record, plan, outcome, verdict, changeset, report, tests, started)

    async def _attempts(self, record: RunRecord, plan: RunPlan, prompt: str, conversation_id: str | None, agy: str,
                        version: agy_cli.AgyVersion | None, env: dict[str, str], before, reader: StreamReader
                        ) -> tuple[Outcome, Verdict, bool]:
        """Run agy; retry once only for a transient auth failure that left the workspace untouched."""
        argv_prompt, spill = argv_safe_prompt(prompt, self.store.runs_dir, record.run_id)
        notes = self._output_notes[record.run_id] = []
        record.prompt_chars = len(prompt)
        transcript = self.store.transcript_path(record.run_id)
        record.transcript = str(transcript)

        def argv_for(log_file: Path) -> list[str]:  # the same function a confirm preview shows (confirm.py)
            return plan_argv(plan, agy=agy, version=version, prompt=argv_prompt, conversation_id=conversation_id,
                             spill=spill, log_file=str(log_file))

        async def attempt_once() -> tuple[Outcome, Verdict, bool]:
            number = len(record.attempts) + 1
            if number > 1:
                reader.reset()
            log_file = self.store.log_path(record.run_id, number)
            argv = argv_for(log_file)
            record.argv = [a if len(a) < 300 else a[:300] + "…" for a in argv]
            attempt = Attempt(number=number, started_at=now_iso())
            record.attempts.append(attempt)
            self.store.write(record)
            t0 = time.monotonic()
            healthy_ago = self.auth.healthy_seconds_ago()

            def spawned(pgid: int) -> None:
                attempt.pgid = record.pgid = pgid
                # Identity beside the pid: a relay restarted after a crash kills this group only if it is still ours.
                record.worker_stamp = stamp_of(pgid, marker=record.run_id)
                self.store.write(record)  # so a relay restarted after a crash can find and kill the group

            try:
                # agy's own --print-timeout fires first; the relay's hard stop leaves it a grace period.
                outcome = await run_worker(argv, cwd=plan.workspace, env=env,
                                           timeout=plan.timeout_seconds + self.settings.timeout_grace_seconds,
                                           transcript=transcript, log_file=log_file, reader=reader, on_spawn=spawned,
                                           kill_grace=self.settings.kill_grace_seconds,
                                           transcript_max_bytes=self.settings.transcript_max_bytes, notes=notes)
            except OSError as exc:
                raise SpawnError(f"could not start {agy}: {exc.strerror or exc}") from None
            verdict = transient_oauth(classify(outcome), outcome, attempt=number, healthy_seconds_ago=healthy_ago)
            attempt.ended_at, attempt.duration_ms = now_iso(), _ms(t0)
            attempt.exit_code, attempt.status = outcome.exit_code, verdict.status
            attempt.stderr_tail = tail(outcome.stderr, 2000)
            attempt.argv = [a if len(a) < 120 else a[:120] + "…" for a in argv]
            record.pgid = None
            mutated = False
            if relay_retries(verdict, version):
                # Mutation guard: a failed attempt that already changed files is never repeated.
                mutated = await anyio.to_thread.run_sync(workspace_changed, before, Path(plan.workspace))
                attempt.workspace_changed = mutated
                if not mutated and number < _MAX_ATTEMPTS:
                    log.info("attempt %d: %s, workspace untouched; retrying once", number, verdict.status.value)
            return outcome, verdict, mutated

        retrying = AsyncRetrying(
            stop=stop_after_attempt(_MAX_ATTEMPTS),
            wait=wait_exponential(multiplier=1, max=4),
            retry=retry_if_result(lambda got: relay_retries(got[1], version) and not got[2]),
            retry_error_callback=lambda state: state.outcome.result(),  # out of attempts: answer with the last
            reraise=True,
        )
        return await retrying(attempt_once)

    # ------------------------------------------------------------------ conclusions

    def _conclude(self, record: RunRecord, plan: RunPlan, outcome: Outcome, verdict: Verdict, changeset,
                  report: WorkerReport | None, tests: Tests | None, started: float) -> Packet:
        record.exit_code = outcome.exit_code
        record.response = outcome.response[:_RESPONSE_LIMIT]
        record.report = report
        record.stderr_tail = tail(outcome.stderr, 16_000)
        record.conversation_id = _conversation(outcome)
        usage = (outcome.envelope or {}).get("usage")
        if isinstance(usage, dict):
            record.usage = {k: v for k, v in usage.items() if isinstance(v, int)}

        changes, flags, files = build_review(changeset, report=report, paths=plan.paths, workspace=Path(plan.workspace),
                                             task=self._asked(record))
        record.changes = files
        record.observation_source = changes.source
        flags = list(plan.notes) + self._output_notes.pop(record.run_id, []) + flags
        asked = record.requested_conversation_id
        if asked and record.conversation_id and record.conversation_id != asked:
            flags.insert(0, f"agy did not resume conversation {asked}: it started a new one ({record.conversation_id}) "
                            "without the earlier context")
        if outcome.refused_total:
            flags.insert(0, refusals_flag(outcome))
        if tests is None:
            tests = tests_from_report(report)
        if verdict.status is Status.INVALID_REPORT and changes.count == 0:
            flags.append("no structured report and no observed change")

        summary = (report.summary if report else "") or outcome.response.strip()
        packet = Packet(
            ok=verdict.ok, run_id=record.run_id, status=verdict.status, summary=summary, changes=changes,
            tests=tests, flags=flags, conversation_id=record.conversation_id, error=verdict.error(),
            usage=run_usage(record, model=outcome.model, seconds=time.monotonic() - started, store=self.store),
        )
        return self._finish(record, verdict, started=started, packet=fit_packet(packet))

    async def _observe_after_cancel(self, record: RunRecord, plan: RunPlan, live: _Live) -> Changes | None:
        """Whatever the stopped worker had changed, so nothing is lost from the record (bounded in time)."""
        if live.before is None:
            return None
        workspace = Path(live.workspace or plan.workspace)  # a worktree run's own tree (issue 10)
        with anyio.move_on_after(30):
            try:
                changeset = await anyio.to_thread.run_sync(self._observe, record, live.before, workspace)
            except (OSError, RelayError) as exc:  # a RelayError: a worktree the worker repointed (not observed)
                log.warning("could not observe changes of cancelled run %s: %s", record.run_id, exc)
                return None
            changes, _, record.changes = build_review(changeset, report=None, paths=plan.paths, workspace=workspace,
                                                      task=self._asked(record))
            # The policy holds on every exit that observed a change: a stopped worker may have broken it already.
            record.violation, live.violation = await anyio.to_thread.run_sync(
                apply_policy, plan, changeset.files, live.before)
            if record.violation is not None and record.violation.restored:
                await anyio.to_thread.run_sync(self._observe, record, live.before, workspace)  # the patch: what is left
            if live.lease is not None and live.outside:
                record.violation, line = outside_violation(record.violation, live.outside, live.lease.facts.prefix,
                                                           plan.on_violation)
                live.violation = "; ".join(filter(None, [live.violation, line]))
            return changes
        return None

    def _asked(self, record: RunRecord) -> str:
        """What the leader asked for in this conversation: the run's task or feedback and those of
        the runs it continues (a few, best effort), so a follow-up of a security fix is read as one."""
        texts = [record.task]
        parent = record.parent_run_id
        for _ in range(_ASKED_DEPTH):
            if not parent:
                break
            try:
                earlier = self.store.read(parent)
            except (RelayError, OSError):
                break
            texts.append(earlier.task)
            parent = earlier.parent_run_id
        return "\n".join(texts)

    def _observe(self, record: RunRecord, before: Snapshot, workspace: Path, reported: list[str] | None = None) -> ChangeSet:
        """What changed, and the run's patch beside its record (before verification can touch a file).

        A worktree run (issue 22, D1): its worktree is first checked to be still its own (never a git command
        in a worktree the worker repointed at the user's git dir), then its whole state is recorded on its
        branch: that commit is the observed change apply will write, and what it touches outside the
        workspace's folder is a violation (``live.outside``)."""
        live = self._live.get(record.run_id)
        lease = live.lease if live is not None else None
        if lease is not None and not still_own(lease):
            raise RelayError(Status.POLICY_VIOLATION, HIJACKED,
                             "Start a new run; the relay rebuilds the worktree. Check your repository with `git status`.")
        changeset = observe_changes(before, workspace, reported=reported or [], list_ignored=is_secret_path)
        if self.settings.patch_max_bytes:
            write_run_patch(before, changeset, workspace, self.store.patch_path(record.run_id),
                            run_id=record.run_id, max_bytes=self.settings.patch_max_bytes)
        if lease is not None:
            record.tip_commit = record_change(lease, _branch_message(record))
            live.outside = changed_outside(lease, record.tip_commit)
        return changeset

    def _finish(self, record: RunRecord, verdict: Verdict, *, started: float | None = None,
                packet: Packet | None = None, changes: Changes | None = None) -> Packet:
        record.state = "finished"
        record.status = verdict.status
        record.error = verdict.error()
        record.finished_at = now_iso()
        if started is not None:
            record.duration_ms = _ms(started)
        if packet is None:
            packet = Packet(ok=verdict.ok, run_id=record.run_id, status=verdict.status, changes=changes or Changes(),
                            conversation_id=record.conversation_id, error=record.error)
            packet = fit_packet(packet)
        if record.violation is not None and verdict.status is not Status.POLICY_VIOLATION:
            packet.flags = [_violation_flag(record), *packet.flags]  # a stopped run's status says why it ended
        if record.branch:
            packet.branch, packet.worktree = record.branch, record.worktree
            packet.flags = [*packet.flags, f"isolated: nothing reached {record.workspace}; apply the change with "
                            f"antigravity_continue(run_id, apply=true) or `gravity-relay runs apply {record.run_id}`"]
        record.packet = packet
        record.pgid = None
        record.where = None  # only a running run is somewhere
        self._output_notes.pop(record.run_id, None)
        try:
            self._save_final(record)
        except OSError as exc:
            log.error("could not write run record %s: %s", record.run_id, exc)
            packet.flags = [*packet.flags, f"run record {record.run_id} not saved ({exc.strerror or exc}); "
                            "this answer is the only copy of the result"]
        log.info("run %s finished: %s", record.run_id, verdict.status.value)
        return packet

    def _unrecorded(self, record: RunRecord, exc: OSError) -> Packet:
        runs_dir = self.store.runs_dir
        where = exc.filename or runs_dir
        log.error("cannot write run records in %s: %s", runs_dir, exc)
        error = ErrorInfo(
            code=Status.STORAGE_ERROR,
            message=f"the relay cannot write its run records in {runs_dir} ({where}: {exc.strerror or exc}); "
            "the worker was not started",
            hint=f"Make {self.settings.data_dir} writable by this user (chmod u+w, or chown it if `sudo` created it; "
            "free disk space if it is full), or set GRAVITY_RELAY_DATA_DIR to a writable folder in the relay's MCP "
            "server env; `gravity-relay doctor` checks it. Nothing ran and the workspace was not touched.",
        )
        return Packet(ok=False, run_id=record.run_id, status=Status.STORAGE_ERROR, error=error,
                      flags=["no run record was written: get_result will not find this run_id"])

    async def _stop_worker(self, record: RunRecord) -> None:
        """Stop the run's worker if it is still there — and still ours (its leader may be reaped already)."""
        verdict, worker = verify_worker(record.pgid, record.worker_stamp, record.run_id)
        if verdict is Identity.SAME and worker is not None:
            await stop_worker(worker, self.settings.kill_grace_seconds)

    def _save_final(self, record: RunRecord) -> None:
        """Write the finished record; on a full disk, shrink this run's transcript to make room and try again."""
        try:
            self.store.write(record)
        except OSError as exc:
            transcript = Path(record.transcript) if record.transcript else None
            if exc.errno != errno.ENOSPC or transcript is None or not transcript.exists():
                raise
            with transcript.open("r+b") as fh:
                fh.truncate(min(transcript.stat().st_size, 64 * 1024))
            log.warning("disk full: cut transcript %s to 64 KiB to save run record %s", transcript, record.run_id)
            if record.packet is not None:
                record.packet.flags = [*record.packet.flags, "disk full: the transcript was cut to its first 64 KiB "
                                       "to make room for the run record"]
            self.store.write(record)
        self.store.clear_active(record.run_id)

    def _preview(self, record: RunRecord, plan: RunPlan, preview: Preview) -> Packet:
        """A trusted call under a confirm_trusted profile: nothing ran; recorded like a refusal (confirm.py)."""
        self._fill_from_plan(record, plan)
        record.argv = preview.command
        verdict, packet = preview_answer(record, plan, preview)
        return self._finish(record, verdict, packet=fit_packet(packet))

    def _refused(self, record: RunRecord, exc: Exception, *, started: float | None = None) -> Packet:
        if not isinstance(exc, RelayError):
            log.error("call %s failed before its run started", record.run_id, exc_info=exc)
        error = as_relay_error(exc, f"run {record.run_id} (before agy started)")
        return self._finish(record, Verdict(status=error.status, message=error.message[:2000], hint=error.hint,
                                            retryable=error.retryable), started=started)

    # ------------------------------------------------------------------ isolation (issue 10)

    async def apply(self, args: ContinueInput) -> Packet:
        """antigravity_continue(run_id, apply=true): the run's change into the user's tree (call/apply_run.py)."""
        return await anyio.to_thread.run_sync(apply_run, self.store, args.run_id)

    @asynccontextmanager
    async def _isolated(self, record: RunRecord, plan: RunPlan, live: _Live) -> AsyncIterator[RunPlan]:
        """The plan, moved into a pooled worktree when the profile (or a continued run) isolates it."""
        parent = self.store.read(record.parent_run_id) if record.parent_run_id else None
        if not (parent.branch if parent is not None else plan.isolation == "worktree"):
            yield plan
            return
        live.stage = "preparing the worktree"
        # A continue starts from its parent's change, in the parent's worktree when it is free; its change is
        # measured from the chain's base (or from the parent's tip once the parent was applied).
        start = (parent.tip_commit or parent.base_commit) if parent is not None else None
        try:
            lease = await anyio.to_thread.run_sync(partial(
                lease_worktree, self.settings.data_dir, plan.workspace, record.run_id, start=start,
                carry=plan.carry_uncommitted and parent is None, prefer=parent.worktree if parent else None))
        except (GitError, OSError) as exc:
            raise StorageError(f"could not prepare a worktree for {plan.workspace}: {exc}") from None
        live.lease = lease
        live.workspace = str(lease.workdir)
        record.worktree, record.branch = str(lease.workdir), lease.branch
        record.base_commit = lease.base if parent is None or parent.applied_at else parent.base_commit
        self.store.write(record)
        yield msgspec.structs.replace(plan, workspace=str(lease.workdir))
        live.lease = None
        await anyio.to_thread.run_sync(self._settle, record, lease)

    def _settle(self, record: RunRecord, lease: Lease) -> None:
        """Give the worktree back to the pool; a run that was not observed (stopped before) gets its worktree's
        state recorded on its branch first. An observed run keeps the commit it was observed as: apply writes
        exactly that change, never what a verification command wrote afterwards (issue 22, D1)."""
        try:
            if record.tip_commit is None and still_own(lease):
                record.tip_commit = record_change(lease, _branch_message(record))
            if record.state == "finished":
                self.store.write(record)
        except (GitError, OSError) as exc:
            log.error("run %s: could not record its worktree's change on %s: %s", record.run_id, lease.branch, exc)
        finally:
            lease.release()

    # ------------------------------------------------------------------ helpers

    def _refuse_inside_worker(self) -> None:
        if self.settings.inside_worker:
            raise RelayError(
                Status.RECURSION_REFUSED,
                f"this relay was started inside agy worker run {self.settings.inside_worker}; it will not delegate to agy again",
                "Do the work directly. (agy loads the same MCP config as your editor; see README, 'Antigravity and recursion'.)",
            )

    def _continue_options(self, args: ContinueInput) -> tuple[CallOptions, str, str | None]:
        overrides = dict(constraints=_strings(args.constraints), timeout_minutes=args.timeout_minutes,
                         model=args.model, effort=args.effort, agent=args.agent)
        if args.run_id:
            parent = self.store.read(args.run_id)
            if parent.state == "running":
                # Still running only while its relay lives (identity checked); a dead relay's run is finished now.
                if not recover_run(self.store, parent.run_id):
                    raise RelayError(Status.BUSY, f"run {args.run_id} is still running",
                                     "Wait for its packet, then continue it.", retryable=True)
                parent = self.store.read(args.run_id)
            if not parent.conversation_id:
                raise InvalidInput(
                    f"run {args.run_id} has no agy conversation to continue (it ended {parent.status.value if parent.status else 'early'})",
                    "Start a new antigravity_execute instead.",
                )
            if args.workspace:
                # A continue runs where its run ran; another folder is refused, never silently ignored.
                asked = validate_workspace(args.workspace, self.settings)
                if parent.workspace and asked != parent.workspace:
                    raise InvalidWorkspace(
                        f"run {args.run_id} ran in {parent.workspace}; a continue cannot move it to {asked}",
                        "Drop `workspace` (the run's own is restored), or start a new antigravity_execute there.",
                    )
            mode = parent.execution_mode
            return (
                CallOptions(
                    profile=parent.profile, workspace=parent.workspace, execution_mode=mode,
                    sandbox=None if mode else parent.sandbox, skip_permissions=None if mode else parent.skip_permissions,
                    **{k: v or getattr(parent, k, None) for k, v in overrides.items() if k != "constraints"},
                    constraints=overrides["constraints"], limits=asked_by(args), inherited=recorded_limits(parent),
                ),
                parent.conversation_id,
                parent.run_id,
            )
        if not args.conversation_id:
            raise InvalidInput(
                "antigravity_continue needs run_id (or the older conversation_id + workspace)",
                "Pass the run_id from the packet you are following up on.",
            )
        if not args.workspace:
            raise InvalidWorkspace(
                "continuing by conversation_id needs the workspace it ran in",
                "Pass run_id instead (the relay restores everything), or add workspace.",
            )
        return (
            CallOptions(profile=args.profile, workspace=args.workspace, execution_mode=args.execution_mode,
                        sandbox=args.sandbox, skip_permissions=args.skip_permissions, limits=asked_by(args), **overrides),
            args.conversation_id,
            None,
        )

    def _fill_from_plan(self, record: RunRecord, plan: RunPlan) -> None:
        record.workspace = plan.workspace
        record.profile = plan.profile
        record.execution_mode = plan.execution_mode
        record.sandbox = plan.sandbox
        record.skip_permissions = plan.skip_permissions
        record.model, record.effort, record.agent = plan.model, plan.effort, plan.agent
        record.timeout_seconds = plan.timeout_seconds
        record.constraints = plan.constraints
        record.verify = plan.verify
        record.paths = plan.paths
        record.protected, record.max_files, record.max_lines = plan.protected, plan.max_files, plan.max_lines
        record.on_violation = "revert" if plan.on_violation == "revert" else None  # None reads as "keep"

def _branch_message(record: RunRecord) -> str:
    # The branch lives in the user's repository (it may be pushed): the task's first line only, redacted.
    first = redact((record.task.strip().splitlines() or [""])[0][:200])
    return f"gravity-relay run {record.run_id}: {first}"


def _keep_snapshot_identity(record: RunRecord, before: Snapshot) -> None:
    """HEAD, saved with the record (at spawn); the trees themselves are on disk beside it (``trees_path``)."""
    if before.source == "git" and before.repo is not None:
        record.before_head = before.repo.head


def _stopped(verdict: Verdict, live: _Live) -> Verdict:
    """A run stopped before its end keeps its status (why it ended); a policy it broke goes in the message.

    Not POLICY_VIOLATION: the leader that cancelled must see its cancel took, and a waiting call the same
    ending; the violation is in the message, a flag, the record, and `apply` refuses the run.
    """
    if not live.violation:
        return verdict
    return Verdict(status=verdict.status, message=f"{verdict.message}; {live.violation}"[:2000],
                   hint=f"{VIOLATION_HINT} {verdict.hint}", retryable=False)


def _violation_flag(record: RunRecord) -> str:
    violation = record.violation
    assert violation is not None
    done = f"; {len(violation.restored)} file(s) restored" if violation.restored else ""
    said = "; ".join(violation.limits)
    return f"policy violation before the run ended: {said if len(said) <= 240 else said[:240] + '…'}{done}"


def _no_nul(text: str) -> str:
    return text.replace("\0", "\\0") if isinstance(text, str) else text


def _refuse_nul(args: object) -> None:
    """A NUL byte cannot travel in an argv or an environment; refuse it early, naming the field."""
    for name in args.__struct_fields__:
        value = getattr(args, name)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and "\0" in v for v in values):
            raise InvalidInput(
                f"{name} contains a NUL byte (\\u0000), which cannot be passed to agy",
                f"Remove the NUL character from {name} and call again.",
            )


def _refuse_login(verdict: Verdict | None) -> None:
    if verdict is not None:
        raise RelayError(verdict.status, verdict.message, verdict.hint, retryable=verdict.status in TRANSIENT)


def _conversation(outcome: Outcome) -> str | None:
    cid = (outcome.envelope or {}).get("conversation_id")
    return cid if isinstance(cid, str) and cid else outcome.conversation_id
