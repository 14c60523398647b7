"""Typed contracts: every tool input, profile, run record and packet.

The JSON schemas that MCP clients see are generated from these Structs
(see ``relay.schemas``), so the values the code branches on are the values
clients are told about. Records and packets only ever gain defaulted
fields; ``RunRecord.schema_version`` marks a change of shape.
"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

__all__ = [
    "Status",
    "ExecutionMode",
    "Detail",
    "Risk",
    "ExecuteArgs",
    "ExecuteInput",
    "ContinueArgs",
    "ContinueInput",
    "GetResultInput",
    "CancelInput",
    "Running",
    "WaitSeconds",
    "Profile",
    "ErrorInfo",
    "ReviewTarget",
    "Changes",
    "Tests",
    "Packet",
    "WorkerReport",
    "FileChange",
    "Attempt",
    "VerifyResult",
    "RunRecord",
    "ProcessStamp",
    "RUN_RECORD_SCHEMA_VERSION",
    "explain",
]


class Status(str, enum.Enum):
    """One vocabulary for every outcome, published in schemas and docs."""

    SUCCESS = "SUCCESS"
    PERMISSION_DENIED = "PERMISSION_DENIED"
    KEYRING_TIMEOUT = "KEYRING_TIMEOUT"
    AUTH_TIMEOUT = "AUTH_TIMEOUT"
    LOGIN_REQUIRED = "LOGIN_REQUIRED"
    ACCOUNT_VERIFICATION_REQUIRED = "ACCOUNT_VERIFICATION_REQUIRED"
    QUOTA_EXHAUSTED = "QUOTA_EXHAUSTED"
    EXECUTION_TIMEOUT = "EXECUTION_TIMEOUT"
    UPSTREAM_UNAVAILABLE = "UPSTREAM_UNAVAILABLE"
    SPAWN_ERROR = "SPAWN_ERROR"
    AGY_TOO_OLD = "AGY_TOO_OLD"
    STREAM_ERROR = "STREAM_ERROR"
    INVALID_REPORT = "INVALID_REPORT"
    INVALID_JSON = "INVALID_JSON"
    INVALID_ENVELOPE = "INVALID_ENVELOPE"
    WORKER_ERROR = "WORKER_ERROR"
    CONFLICTING_OPTIONS = "CONFLICTING_OPTIONS"
    INVALID_INPUT = "INVALID_INPUT"
    INVALID_WORKSPACE = "INVALID_WORKSPACE"
    MUTATION_ABORTED = "MUTATION_ABORTED"
    BUSY = "BUSY"
    RECURSION_REFUSED = "RECURSION_REFUSED"
    CANCELLED = "CANCELLED"
    INTERRUPTED = "INTERRUPTED"
    RUNNING = "RUNNING"  # not an outcome: what every view says of a run whose relay is still working on it
    NOT_FOUND = "NOT_FOUND"
    STORAGE_ERROR = "STORAGE_ERROR"
    MCP_ERROR = "MCP_ERROR"


class ExecutionMode(str, enum.Enum):
    """How much the worker may do without asking (see README: execution modes)."""

    SAFE = "safe"
    TRUSTED = "trusted"


class Detail(str, enum.Enum):
    SUMMARY = "summary"
    ERRORS = "errors"
    FULL = "full"
    DIFF = "diff"  # the run's patch, riskiest hunks first (relay/review/diff_view.py)


Risk = Literal["low", "medium", "high"]

# Limits on what a caller may hand us; generous, but a bound is a bound.
Task = Annotated[str, Meta(min_length=1, max_length=400_000, description="What the worker must do.")]
Text = Annotated[str, Meta(max_length=400_000)]
Minutes = Annotated[float, Meta(gt=0, le=24 * 60)]
# How long a call waits before it answers RUNNING and leaves the run going (issue 9). No upper bound is
# published (bytes every session pays for): a wait longer than the run's timeout just waits to its end.
WaitSeconds = Annotated[float, Meta(ge=0)]


# --------------------------------------------------------------------------- inputs
#
# Unknown argument names are not refused: clients add their own (Gemini CLI sends
# ``wait_for_previous`` on every call). The server records the names it ignored
# (RunRecord.ignored_arguments); wrong types of known fields are still refused.


class ExecuteArgs(Struct, frozen=True, kw_only=True):
    """The published arguments of ``antigravity_execute``."""

    task: Task
    profile: Annotated[str | None, Meta(description="Server-side profile name; defaults to GRAVITY_RELAY_DEFAULT_PROFILE.")] = None
    workspace: Annotated[str | None, Meta(description="Absolute path of the workspace; defaults to the profile's.")] = None
    execution_mode: Annotated[
        ExecutionMode | None,
        Meta(description="safe: sandboxed, commands may be denied; trusted: every tool auto-approved."),
    ] = None
    wait_seconds: Annotated[WaitSeconds | None, Meta(description="Answer RUNNING after this long (keep it under your tool timeout).")] = None


class ExecuteInput(ExecuteArgs, frozen=True, kw_only=True):
    """Everything ``antigravity_execute`` accepts: the published fields plus legacy ones.

    Legacy fields keep older leaders working; they stay out of the published schema.
    """

    plan: Text | None = None
    acceptance_criteria: str | list[str] | None = None
    constraints: str | list[str] | None = None
    model: str | None = None
    effort: str | None = None
    agent: str | None = None
    timeout_minutes: Minutes | None = None
    sandbox: bool | None = None
    skip_permissions: bool | None = None


class ContinueArgs(Struct, frozen=True, kw_only=True):
    """The published arguments of ``antigravity_continue``."""

    run_id: Annotated[str | None, Meta(description="The run to continue; its workspace, conversation, profile and mode are restored.")] = None
    feedback: Annotated[str, Meta(min_length=1, max_length=400_000, description="What the worker must fix or do next.")]
    wait_seconds: WaitSeconds | None = None  # as execute's (described there and in the instructions)


class ContinueInput(ContinueArgs, frozen=True, kw_only=True):
    # Legacy form: a bare conversation id and the workspace it lives in.
    conversation_id: str | None = None
    workspace: str | None = None
    profile: str | None = None
    execution_mode: ExecutionMode | None = None
    constraints: str | list[str] | None = None
    timeout_minutes: Minutes | None = None
    model: str | None = None
    effort: str | None = None
    agent: str | None = None
    sandbox: bool | None = None
    skip_permissions: bool | None = None


class GetResultInput(Struct, frozen=True, kw_only=True):
    run_id: Annotated[str | None, Meta(description="Omit it to list recent runs.")] = None
    detail: Annotated[
        Detail,
        Meta(description="summary: the packet; errors: status, error, stderr/response tails; full: the whole record; diff: the patch."),
    ] = Detail.SUMMARY
    max_chars: Annotated[int, Meta(ge=200, le=1_000_000, description="Cut the answer to this many characters.")] = 12_000
    wait_seconds: WaitSeconds | None = None  # described in the tool's description


class CancelInput(Struct, frozen=True, kw_only=True):
    run_id: str


# --------------------------------------------------------------------------- profiles


class Profile(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A server-side profile: what a call may leave out, and the bounds it may not widen."""

    workspace: str | None = None
    execution_mode: ExecutionMode | None = None
    timeout_minutes: Minutes | None = None
    # A call that names no wait_seconds answers RUNNING after this long (issue 9); None: it waits to the end.
    wait_seconds: WaitSeconds | None = None
    constraints: list[str] = []
    model: str | None = None
    effort: str | None = None
    agent: str | None = None
    # Other models / agents a call may pick; without them a profile's model and agent win.
    allowed_models: list[str] = []
    allowed_agents: list[str] = []
    sandbox: bool | None = None
    skip_permissions: bool | None = None
    verify: list[str] = []
    verify_timeout_minutes: Minutes = 10.0
    env: dict[str, str] = {}
    paths: list[str] = []
    description: str | None = None


# --------------------------------------------------------------------------- packet


class ErrorInfo(Struct, kw_only=True, omit_defaults=True):
    code: Status
    message: str
    hint: str
    retryable: bool = False
    resets_in_seconds: int | None = None


class ReviewTarget(Struct, kw_only=True, omit_defaults=True):
    file: str
    lines: str = ""
    risk: Risk  # always present, "low" included: the leader sorts its attention by it
    reason: str = ""


class Changes(Struct, kw_only=True, omit_defaults=True):
    count: int = 0
    files: list[str] = []
    risk: Risk | None = None
    review: list[ReviewTarget] = []
    source: Literal["git", "tree", "report"] | None = None
    truncated: str | None = None


class Tests(Struct, kw_only=True, omit_defaults=True):
    passed: int = 0
    failed: int = 0
    not_run: int = 0
    source: Literal["measured", "claimed", "none"] = "none"


class Packet(Struct, kw_only=True, omit_defaults=True):
    """The review packet: the leader reads this instead of the diff and the transcript."""

    ok: bool
    run_id: str
    status: Status
    summary: str = ""
    changes: Changes = msgspec.field(default_factory=Changes)
    tests: Tests = msgspec.field(default_factory=Tests)
    flags: list[str] = []
    conversation_id: str | None = None
    error: ErrorInfo | None = None


class Running(Struct, kw_only=True):
    """What a call answers when its wait ends before the run does: small, and says what to call next."""

    run_id: str
    status: Status = Status.RUNNING
    where: str  # queued (position) / checking agy's login / running · agy's last step / observing / verifying
    elapsed_seconds: int
    next: str


# --------------------------------------------------------------------------- worker report


class WorkerReport(Struct, kw_only=True, omit_defaults=True):
    """What the worker is asked to return through ``--json-schema`` (flat: agy wants a plain object root)."""

    summary: Annotated[str, Meta(description="Two or three sentences: what you changed and why.")]
    files_changed: Annotated[list[str], Meta(description="Workspace-relative paths of every file you created, edited or deleted.")]
    tests_passed: Annotated[int, Meta(ge=0, description="Tests you ran that passed.")] = 0
    tests_failed: Annotated[int, Meta(ge=0, description="Tests you ran that failed.")] = 0
    tests_not_run: Annotated[int, Meta(ge=0, description="Tests you know of but did not run.")] = 0
    tests_run: Annotated[bool, Meta(description="True only if you actually executed a test command.")] = False
    open_questions: Annotated[list[str], Meta(description="Anything the reviewer must decide.")] = []


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
    """What identifies a process beside its pid, so a reused pid is never mistaken for it (proc_identity.py)."""

    pid: int
    start: str  # "linux:<ticks since boot>" (/proc/PID/stat field 22) or "ps:<lstart>"
    boot_id: str | None = None
    marker: str | None = None  # the worker's GRAVITY_RELAY_WORKER_RUN value


RUN_RECORD_SCHEMA_VERSION = 1


class RunRecord(Struct, kw_only=True, omit_defaults=True):
    """Everything a run needs later, so the relay stays stateless between calls."""

    schema_version: int = RUN_RECORD_SCHEMA_VERSION
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
    # The pre-run snapshot's identity, cheap to keep: if the relay dies, recovery can tell the run's
    # changes from edits that were already there (git HEAD, and the paths git showed changed).
    before_head: str | None = None
    before_dirty: list[str] = []
    # what was asked
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
    parent_run_id: str | None = None
    requested_conversation_id: str | None = None
    ignored_arguments: list[str] = []  # argument names the call sent that the tool does not know
    where: str | None = None  # the stage of a running run, for RUNNING answers from other relay processes
    # what happened
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


# --------------------------------------------------------------------------- error text

_ENUM_FIELDS: dict[str, type[enum.Enum]] = {"execution_mode": ExecutionMode, "detail": Detail}


def explain(exc: msgspec.ValidationError) -> str:
    """msgspec's message, plus the accepted values when an enum-shaped field got something else."""
    text = str(exc)
    for field, kind in _ENUM_FIELDS.items():
        if f".{field}`" in text:
            return f"{text} (accepted values: {', '.join(repr(m.value) for m in kind)})"
    return text
