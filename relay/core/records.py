"""The run record: everything a run needs later, grouped by step, and the parts it is made of.

Split out of ``contracts`` (issue 38, §3), which re-exports every name. Records only ever gain defaulted
fields; ``RunRecord.schema_version`` marks a change of shape (2: the grouped record; 1, flat, is still read by
``relay.runs.record_v1``).
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import Struct

from relay.core.answers import ErrorInfo, Packet, WorkerReport
from relay.core.vocabulary import ExecutionMode, OnViolation, Risk, Status

__all__ = ["FileChange", "Attempt", "VerifyResult", "ProcessStamp", "PolicyViolation", "RUN_RECORD_SCHEMA_VERSION",
           "RecordRequest", "RecordPlan", "RecordProcess", "RecordOutcome", "RecordObservation", "RecordIsolation",
           "RunRecord"]


# --------------------------------------------------------------------------- run record


class FileChange(Struct, kw_only=True, omit_defaults=True):
    """One changed path as observed by the relay (never as claimed by the worker)."""

    path: str
    kind: Literal["added", "modified", "deleted", "renamed", "mode", "type"] = "modified"
    old_path: str | None = None
    additions: int = 0
    deletions: int = 0
    binary: bool = False
    symlink: bool = False
    submodule: bool = False
    mode_before: str | None = None
    mode_after: str | None = None
    ranges: list[tuple[int, int]] = []
    removed_lines: list[str] = []
    added_lines: list[str] = []
    risk: Risk = "low"
    reasons: list[str] = []
    # The ranking rules behind ``risk`` and ``reasons`` (relay.review.rules), in the reasons' order: the
    # review order reads these, never the reasons' text. Empty in records written before they existed.
    rules: list[str] = []


class Attempt(Struct, kw_only=True, omit_defaults=True):
    number: int
    started_at: str
    ended_at: str | None = None
    duration_ms: int | None = None
    exit_code: int | None = None
    status: Status | None = None
    pgid: int | None = None
    stderr_tail: str = ""
    argv: list[str] = []
    workspace_changed: bool | None = None


class VerifyResult(Struct, kw_only=True, omit_defaults=True):
    command: str
    exit_code: int | None = None
    timed_out: bool = False
    duration_ms: int = 0
    passed: int = 0
    failed: int = 0
    output_tail: str = ""


class ProcessStamp(Struct, kw_only=True, omit_defaults=True):
    """What identifies a process beside its pid, so a reused pid is never mistaken for it (core/platform.py)."""

    pid: int
    start: str  # "psutil:<create time, epoch s>"; older relays wrote "linux:<ticks>" or "ps:<lstart>" (not compared)
    boot_id: str | None = None  # "boot:<boot time, epoch s>" (psutil); older relays: the Linux boot_id
    marker: str | None = None  # the worker's GRAVITY_RELAY_WORKER_RUN value


class PolicyViolation(Struct, kw_only=True, omit_defaults=True):
    """Which policy rules a run's change broke, the files that broke them, and what was put back (issue 10)."""

    rules: list[str]  # "paths", "protected", "max_files", "max_lines", in that order
    limits: list[str] = []  # one line per rule that fired: the bound and what the run did
    files: list[str] = []  # the offending files (for max_files / max_lines: every changed file)
    on_violation: OnViolation = "keep"
    restored: list[str] = []  # put back to their pre-run bytes (on_violation "revert")
    not_restored: dict[str, str] = {}  # path -> why it was left as the worker made it


RUN_RECORD_SCHEMA_VERSION = 2  # 1: the flat record of before issue 24, still read (relay.runs.record_v1)


class RecordRequest(Struct, kw_only=True, omit_defaults=True):
    """What the call asked, before anything was resolved."""

    task: str = ""  # the task, or a continue's feedback
    parent_run_id: str | None = None  # the run a continue follows
    requested_conversation_id: str | None = None  # the conversation a continue asked agy to resume
    ignored_arguments: list[str] = []  # argument names the call sent that the tool does not know
    idempotency_key: str | None = None  # the key the call named (relay/call/once.py)
    fingerprint: str | None = None  # a digest of the arguments that say what runs: a retry's are equal (once.py)


class RecordPlan(Struct, kw_only=True, omit_defaults=True):
    """What the call was resolved to, once, at intake: the profile's bounds and the agy that runs it."""

    workspace: str | None = None  # the user's workspace (a worktree run's own tree is under ``isolation``)
    profile: str | None = None
    execution_mode: ExecutionMode | None = None
    sandbox: bool = False
    skip_permissions: bool = False
    model: str | None = None
    effort: str | None = None
    agent: str | None = None
    timeout_seconds: float | None = None
    constraints: list[str] = []
    verify: list[str] = []
    # issue 10, policy: the run's enforced limits (a continue inherits them)
    paths: list[str] = []
    protected: list[str] = []
    max_files: int | None = None
    max_lines: int | None = None
    on_violation: OnViolation | None = None  # None reads as "keep"
    agy_bin: str | None = None
    agy_version: str | None = None


class RecordProcess(Struct, kw_only=True, omit_defaults=True):
    """The processes of the run: the relay that owns it, the worker it spawned, and what the worker said."""

    relay_pid: int | None = None
    relay_stamp: ProcessStamp | None = None
    pgid: int | None = None  # the worker's group while it runs
    worker_stamp: ProcessStamp | None = None
    where: str | None = None  # the stage of a running run, for RUNNING answers from other relay processes
    queue_wait_ms: int | None = None
    argv: list[str] = []
    prompt_chars: int = 0
    attempts: list[Attempt] = []
    exit_code: int | None = None
    response: str = ""
    report: WorkerReport | None = None
    stderr_tail: str = ""
    transcript: str | None = None
    usage: dict[str, int] = {}


class RecordOutcome(Struct, kw_only=True, omit_defaults=True):
    """How the run ended (written once, by the finish step): the packet the leader got is part of it."""

    status: Status | None = None  # None while running
    error: ErrorInfo | None = None
    finished_at: str | None = None
    duration_ms: int | None = None
    conversation_id: str | None = None  # agy's, for a continue
    violation: PolicyViolation | None = None  # the policy the change broke (issue 10), whatever the status
    packet: Packet | None = None


class RecordObservation(Struct, kw_only=True, omit_defaults=True):
    """What the relay saw change (never the worker's claim), and the verification it ran."""

    # The pre-run snapshot's identity, cheap to keep: if the relay dies, recovery can tell the run's
    # changes from edits that were already there (git HEAD, and the paths git showed changed).
    before_head: str | None = None
    before_dirty: list[str] = []
    source: Literal["git", "tree", "report"] | None = None
    ms: int | None = None
    changes: list[FileChange] = []
    verification: list[VerifyResult] = []


class RecordIsolation(Struct, kw_only=True, omit_defaults=True):
    """Isolation (issue 10): the worktree the worker ran in (its workspace inside it), the run's branch, the
    commit its change is measured from (HEAD, the carried edits, or a parent's) and the commit holding the
    change; applied_at once `apply` brought it into the user's tree."""

    worktree: str | None = None
    branch: str | None = None
    base_commit: str | None = None
    tip_commit: str | None = None
    applied_at: str | None = None
    # When apply brought a chain of continues (issue 34): its first run. What that apply wrote is then kept as
    # runs/<run_id>.applied.patch, which `runs revert` reverses instead of this run's own patch.
    applied_from: str | None = None
    # Set on the earlier runs of that chain: the later run whose apply brought this run's change. Neither apply nor
    # revert takes this run alone then (later runs build on it); both name that run instead.
    applied_with: str | None = None


class RunRecord(Struct, kw_only=True):
    """Everything a run needs later, so the relay stays stateless between calls: a few keys, grouped by
    step (what was asked, what it was resolved to, the processes, the ending, what changed, the worktree).

    Every key is written (``schema_version`` included), each part without its defaults.
    """

    schema_version: int = RUN_RECORD_SCHEMA_VERSION
    run_id: str
    tool: Literal["execute", "continue", "demo"] = "execute"
    state: Literal["running", "finished", "interrupted"] = "running"
    created_at: str
    request: RecordRequest = msgspec.field(default_factory=RecordRequest)
    plan: RecordPlan = msgspec.field(default_factory=RecordPlan)
    process: RecordProcess = msgspec.field(default_factory=RecordProcess)
    outcome: RecordOutcome = msgspec.field(default_factory=RecordOutcome)
    observation: RecordObservation = msgspec.field(default_factory=RecordObservation)
    isolation: RecordIsolation = msgspec.field(default_factory=RecordIsolation)
