"""Run records of schema version 1 (before issue 24): one flat object of sixty keys, no ``schema_version``
written (it was the default). Users' disks hold them; every view reads them through ``upgrade``, which
moves each field to its part of today's grouped record. Never written again.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from relay.core.contracts import (Attempt, ErrorInfo, ExecutionMode, FileChange, OnViolation, Packet, PolicyViolation,
                                  ProcessStamp, RecordIsolation, RecordObservation, RecordOutcome, RecordPlan,
                                  RecordProcess, RecordRequest, RunRecord, Status, VerifyResult, WorkerReport)
from relay.core.views import view

__all__ = ["RunRecordV1", "upgrade"]


class RunRecordV1(Struct, kw_only=True, omit_defaults=True):
    """The flat record, exactly as version 1 declared it (field names are the file's keys)."""

    schema_version: int = 1
    run_id: str
    tool: Literal["execute", "continue", "demo"] = "execute"
    state: Literal["running", "finished", "interrupted"] = "running"
    status: Status | None = None
    created_at: str
    finished_at: str | None = None
    duration_ms: int | None = None
    queue_wait_ms: int | None = None
    relay_pid: int | None = None
    relay_stamp: ProcessStamp | None = None
    pgid: int | None = None
    worker_stamp: ProcessStamp | None = None
    before_head: str | None = None
    before_dirty: list[str] = []
    task: str = ""
    profile: str | None = None
    workspace: str | None = None
    execution_mode: ExecutionMode | None = None
    sandbox: bool = False
    skip_permissions: bool = False
    model: str | None = None
    effort: str | None = None
    agent: str | None = None
    timeout_seconds: float | None = None
    constraints: list[str] = []
    verify: list[str] = []
    paths: list[str] = []
    protected: list[str] = []
    max_files: int | None = None
    max_lines: int | None = None
    on_violation: OnViolation | None = None
    violation: PolicyViolation | None = None
    parent_run_id: str | None = None
    requested_conversation_id: str | None = None
    ignored_arguments: list[str] = []
    where: str | None = None
    agy_bin: str | None = None
    agy_version: str | None = None
    argv: list[str] = []
    prompt_chars: int = 0
    attempts: list[Attempt] = []
    conversation_id: str | None = None
    exit_code: int | None = None
    response: str = ""
    report: WorkerReport | None = None
    stderr_tail: str = ""
    transcript: str | None = None
    usage: dict[str, int] = {}
    observation_source: Literal["git", "tree", "report"] | None = None
    observation_ms: int | None = None
    changes: list[FileChange] = []
    verification: list[VerifyResult] = []
    error: ErrorInfo | None = None
    packet: Packet | None = None
    worktree: str | None = None
    branch: str | None = None
    base_commit: str | None = None
    tip_commit: str | None = None
    applied_at: str | None = None


def upgrade(old: RunRecordV1) -> RunRecord:
    """The same run in today's grouped shape: every field of version 1 has exactly one place."""
    return RunRecord(
        run_id=old.run_id, tool=old.tool, state=old.state, created_at=old.created_at,
        request=RecordRequest(task=old.task, parent_run_id=old.parent_run_id,
                              requested_conversation_id=old.requested_conversation_id,
                              ignored_arguments=old.ignored_arguments),
        plan=view(RecordPlan, old),  # every field of the plan, by its name in version 1
        process=RecordProcess(relay_pid=old.relay_pid, relay_stamp=old.relay_stamp, pgid=old.pgid,
                              worker_stamp=old.worker_stamp, where=old.where, queue_wait_ms=old.queue_wait_ms,
                              argv=old.argv, prompt_chars=old.prompt_chars, attempts=old.attempts,
                              exit_code=old.exit_code, response=old.response, report=old.report,
                              stderr_tail=old.stderr_tail, transcript=old.transcript, usage=old.usage),
        outcome=RecordOutcome(status=old.status, error=old.error, finished_at=old.finished_at,
                              duration_ms=old.duration_ms, conversation_id=old.conversation_id,
                              violation=old.violation, packet=old.packet),
        observation=RecordObservation(before_head=old.before_head, before_dirty=old.before_dirty,
                                      source=old.observation_source, ms=old.observation_ms, changes=old.changes,
                                      verification=old.verification),
        isolation=RecordIsolation(worktree=old.worktree, branch=old.branch, base_commit=old.base_commit,
                                  tip_commit=old.tip_commit, applied_at=old.applied_at),
    )
