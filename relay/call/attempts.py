"""The worker step with its retry guard (DESIGN.md's steps 7–9): run agy, and run it once more only when
the failure is one the relay retries (``classify.relay_retries``) and the workspace is untouched.

Whether to retry is decided once, in ``_attempt``: the attempt's answer carries the decision
(``again``), and the retry policy only reads it.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import msgspec
from tenacity import AsyncRetrying, retry_if_result, stop_after_attempt, wait_exponential

from relay.agy.answer_reading import stored_answer
from relay.agy.classify import Outcome, Verdict, classify, relay_retries, transient_oauth
from relay.agy.prompt import argv_safe_prompt
from relay.agy.stream import StreamReader
from relay.agy.workspace_config import AgyConfig, find_agy_config
from relay.agy.worker import run_worker
from relay.call.confirm import plan_argv
from relay.call.intake import CallPlan
from relay.call.policy import RunPlan
from relay.core.contracts import Attempt, RunRecord, Status, WorkerReport
from relay.core.errors import SpawnError
from relay.core.files import create_fresh
from relay.core.identity import stamp_of
from relay.core.process import tail
from relay.core.settings import Settings
from relay.observe.changes import workspace_changed
from relay.observe.snapshot import Snapshot
from relay.runs.store import RunStore, now_iso

__all__ = ["Attempted", "MAX_ATTEMPTS", "run_attempts"]

log = logging.getLogger("relay")

MAX_ATTEMPTS = 2  # one retry (classify.relay_retries says which failures), only if the workspace is untouched


class Attempted(msgspec.Struct, kw_only=True):
    """The last attempt's outcome and verdict; whether it had changed the workspace; whether to run again."""

    outcome: Outcome
    verdict: Verdict
    mutated: bool = False
    again: bool = False


async def run_attempts(call: CallPlan, plan: RunPlan, *, store: RunStore, settings: Settings, env: dict[str, str],
                       before: Snapshot, reader: StreamReader, notes: list[str],
                       healthy_seconds_ago: Callable[[], float | None],
                       before_spawn: Callable[[], None] = lambda: None) -> Attempted:
    """Run agy for ``call`` in ``plan``'s workspace (a worktree run's own); the record follows every attempt.
    ``before_spawn`` raises when agy must not start now (the worker slot's lock moved: coordinator.keep_slot)."""
    record = call.record
    # Measured on the argv the run launches, quoted as Windows quotes it: the prompt itself is what it leaves out.
    argv_before = plan_argv(plan, agy=call.agy, version=call.version, prompt="", conversation_id=call.conversation_id,
                            spill=None, log_file=str(store.log_path(record.run_id, 1)))[:-1]
    argv_prompt, spill = argv_safe_prompt(call.prompt, store.runs_dir, record.run_id, argv_before)
    record.process.prompt_chars = len(call.prompt)
    transcript = store.transcript_path(record.run_id)
    record.process.transcript = str(transcript)
    # What the prelaunch check let this run load (agy-protocol.md §8.4): nothing, for a run that is not trusted and
    # not allowed. A retry is another launch, and agy loads the workspace's config afresh.
    at_launch = await anyio.to_thread.run_sync(find_agy_config, plan.workspace)

    blocked = False  # a retry the worker's agy configuration stopped

    async def attempt() -> Attempted:
        nonlocal blocked
        number = len(record.process.attempts) + 1
        before_spawn()
        if number > 1:
            reader.reset()
        log_file: Path | None = store.log_path(record.run_id, number)
        made = None
        try:  # made here, new and owner-only, before agy opens it by name (agy's umask would leave it readable)
            fd = create_fresh(log_file)
            made = _file_id(os.fstat(fd))
            os.close(fd)
        except OSError as exc:  # agy is never handed a name the relay did not just make: it runs without a log
            notes.append(f"agy ran without --log-file on attempt {number}: {log_file} could not be made the relay's "
                         f"own ({exc.strerror or exc}); its log markers were not read. Find what writes the data dir")
            log_file = None
        # The same function a confirm preview shows (confirm.py).
        argv = plan_argv(plan, agy=call.agy, version=call.version, prompt=argv_prompt, conversation_id=call.conversation_id,
                         spill=spill, log_file=str(log_file) if log_file else None)
        record.process.argv = [a if len(a) < 300 else a[:300] + "…" for a in argv]
        outcome, verdict, attempt = await _spawn(record, store, settings, argv, plan, env, transcript, log_file,
                                                 reader, notes, number, healthy_seconds_ago())
        if log_file is not None and made is not None and _still(log_file) != made:
            # agy opens the name, after the relay made the file: a link put there in between is followed. Not
            # prevented (that would take handing agy the open file), but never unsaid.
            notes.append(f"agy's log {log_file} was replaced during attempt {number} (a link or another file in place "
                         "of the one the relay made): agy may have written its log there. Find what writes the data dir")
        answer = Attempted(outcome=outcome, verdict=verdict)
        if relay_retries(verdict, call.version):
            # Mutation guard: a failed attempt that already changed files is never repeated.
            answer.mutated = attempt.workspace_changed = await anyio.to_thread.run_sync(
                workspace_changed, before, Path(plan.workspace))
            if not answer.mutated and number < MAX_ATTEMPTS:
                answer.mutated = blocked = bool((await _agy_config_left(plan, at_launch)).programs)
            answer.again = not answer.mutated and number < MAX_ATTEMPTS
            if answer.again:
                log.info("attempt %d: %s, workspace untouched; retrying once", number, verdict.status.value)
        return answer

    retrying = AsyncRetrying(
        stop=stop_after_attempt(MAX_ATTEMPTS),
        wait=wait_exponential(multiplier=1, max=4),
        retry=retry_if_result(lambda got: got.again),
        retry_error_callback=lambda state: state.outcome.result(),  # out of attempts: answer with the last
        reraise=True,
    )
    attempted = await retrying(attempt)
    left = await _agy_config_left(plan, at_launch)
    if left.found:
        notes.append(_left_note(left, blocked=blocked))
    return attempted


def _file_id(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def _still(path: Path) -> tuple[int, int] | None:
    """The file now at ``path`` (its own, not a link's target), or None."""
    try:
        return _file_id(os.lstat(path))
    except OSError:
        return None


async def _agy_config_left(plan: RunPlan, at_launch: AgyConfig) -> AgyConfig:
    """The agy configuration the worker left in the workspace that was not there at launch (agy-protocol.md §8.4).

    The guarded party is the worker (steered by the repository it reads). The retry guard's look and the change
    list see what git sees: a ``.agents/hooks.json`` written into an ignored folder left the workspace "untouched",
    the retry then ran the worker's hooks in a safe run the prelaunch check had cleared, and a run that succeeded
    said nothing of them while the next launch in that workspace loads them. A file there at launch that the worker
    edited counts too: a run trusted, or allowed to load the repository's config, vouched for the repository's
    version, not the worker's.
    """
    now = await anyio.to_thread.run_sync(find_agy_config, plan.workspace)

    def left(paths: list[str], before: list[str]) -> list[str]:  # new, or edited in place (a trusted or allowed run)
        return [p for p in paths if p not in before or now.stamps.get(p) != at_launch.stamps.get(p)]

    return AgyConfig(programs=left(now.programs, at_launch.programs), rules=left(now.rules, at_launch.rules))


def _left_note(left: AgyConfig, *, blocked: bool) -> str:
    def names(paths: list[str]) -> str:
        return ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")

    said = []
    if left.programs:
        said.append(f"MCP servers or hooks agy starts at its next launch here: {names(left.programs)}")
    if left.rules:
        said.append(f"rules agy reads into the next worker's instructions: {names(left.rules)}")
    return ("the worker left agy configuration in the workspace (" + "; ".join(said) + "), in the change list only "
            "where git sees it; read it before another run" + ("; the failed attempt was not retried for it"
                                                               if blocked else ""))


async def _spawn(record: RunRecord, store: RunStore, settings: Settings, argv: list[str], plan: RunPlan,
                 env: dict[str, str], transcript: Path, log_file: Path | None, reader: StreamReader, notes: list[str],
                 number: int, healthy_ago: float | None) -> tuple[Outcome, Verdict, Attempt]:
    """One attempt: spawn agy, stream it, classify its end; the attempt is in the record from its start."""
    attempt = Attempt(number=number, started_at=now_iso())
    record.process.attempts.append(attempt)
    store.write(record)
    t0 = time.monotonic()

    def spawned(pgid: int) -> None:
        attempt.pgid = record.process.pgid = pgid
        # Identity beside the pid: a relay restarted after a crash kills this group only if it is still ours.
        record.process.worker_stamp = stamp_of(pgid, marker=record.run_id)
        store.write(record)  # so a relay restarted after a crash can find and kill the group

    try:
        # agy's own --print-timeout fires first; the relay's hard stop leaves it a grace period.
        outcome = await run_worker(argv, cwd=plan.workspace, env=env,
                                   timeout=plan.timeout_seconds + settings.timeout_grace_seconds,
                                   transcript=transcript, log_file=log_file, reader=reader, on_spawn=spawned,
                                   kill_grace=settings.kill_grace_seconds,
                                   transcript_max_bytes=settings.transcript_max_bytes, notes=notes)
    except OSError as exc:
        raise SpawnError(f"could not start {argv[0]}: {exc.strerror or exc}") from None
    outcome.agy_version = record.plan.agy_version  # the efforts it takes, when agy's refusal does not list them
    verdict = transient_oauth(classify(outcome), outcome, attempt=number, healthy_seconds_ago=healthy_ago)
    attempt.ended_at, attempt.duration_ms = now_iso(), int((time.monotonic() - t0) * 1000)
    attempt.exit_code, attempt.status = outcome.exit_code, verdict.status
    attempt.stderr_tail = tail(outcome.stderr, 2000)
    attempt.argv = [a if len(a) < 120 else a[:120] + "…" for a in argv]
    record.process.pgid = None
    return outcome, verdict, attempt


def worker_said(record: RunRecord, outcome: Outcome, verdict: Verdict, report: WorkerReport | None) -> None:
    """What the worker answered, into the record as soon as it answered: every ending after it keeps it (a refusal
    while its change is recorded, a hook in the config: relay/call/kept.py names the conversation to resume)."""
    process = record.process
    process.exit_code = outcome.exit_code
    process.response = stored_answer(outcome, timed_out=verdict.status is Status.EXECUTION_TIMEOUT)
    process.report = report
    process.stderr_tail = tail(outcome.stderr, 16_000)
    cid = (outcome.envelope or {}).get("conversation_id")
    record.outcome.conversation_id = cid if isinstance(cid, str) and cid else outcome.conversation_id
    usage = (outcome.envelope or {}).get("usage")
    if isinstance(usage, dict):
        process.usage = {k: v for k, v in usage.items() if isinstance(v, int)}
