"""Typed contracts: every tool input, profile, run record and packet.

The JSON schemas that MCP clients see are generated from these Structs
(see ``relay.schemas``), so the values the code branches on are the values
clients are told about. Records and packets only ever gain defaulted
fields; ``RunRecord.schema_version`` marks a change of shape (2: the grouped record; 1, flat, is still
read by ``relay.runs.record_v1``).
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
    "Usage",
    "WaitSeconds",
    "Profile",
    "ErrorInfo",
    "ReviewTarget",
    "Changes",
    "Tests",
    "Packet",
    "Preview",
    "WorkerReport",
    "FileChange",
    "Attempt",
    "VerifyResult",
    "RunRecord",
    "RecordRequest",
    "RecordPlan",
    "RecordProcess",
    "RecordOutcome",
    "RecordObservation",
    "RecordIsolation",
    "ProcessStamp",
    "RUN_RECORD_SCHEMA_VERSION",
    "explain",
    "OnViolation",
    "PolicyViolation",
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
    # issue 10, gate: a trusted run under a confirm_trusted profile waits for the leader's confirm token
    CONFIRMATION_REQUIRED = "CONFIRMATION_REQUIRED"
    # issue 10, policy: the run's change broke the profile's paths / protected / max_files / max_lines
    POLICY_VIOLATION = "POLICY_VIOLATION"
    # Isolation (issue 10): applying a worktree run's change would conflict with the user's tree.
    APPLY_CONFLICT = "APPLY_CONFLICT"


class ExecutionMode(str, enum.Enum):
    """How much the worker may do without asking (see docs/profiles.md: Execution modes)."""

    SAFE = "safe"
    TRUSTED = "trusted"


class Detail(str, enum.Enum):
    SUMMARY = "summary"
    ERRORS = "errors"
    FULL = "full"
    DIFF = "diff"  # the review read: the targets at the packet's lines, then the rest (relay/review/diff_view.py)


Risk = Literal["low", "medium", "high"]

# Limits on what a caller may hand us; generous, but a bound is a bound.
Task = Annotated[str, Meta(min_length=1, max_length=400_000, description="What the worker must do.")]
Text = Annotated[str, Meta(max_length=400_000)]
Minutes = Annotated[float, Meta(gt=0, le=24 * 60)]
# How long a call waits before it answers RUNNING and leaves the run going (issue 9). No upper bound is
# published (bytes every session pays for): a wait longer than the run's timeout just waits to its end.
WaitSeconds = Annotated[float, Meta(ge=0)]
# issue 10, policy: what happens to a violating change made in place (README: "Enforced policy").
OnViolation = Literal["keep", "revert"]
FileLimit = Annotated[int, Meta(ge=1)]


# --------------------------------------------------------------------------- inputs
#
# Unknown argument names are not refused: clients add their own (Gemini CLI sends
# ``wait_for_previous`` on every call). The server records the names it ignored
# (RunRecord.ignored_arguments); wrong types of known fields are still refused.


class ExecuteArgs(Struct, frozen=True, kw_only=True):
    """The published arguments of ``antigravity_execute``."""

    task: Task
    profile: Annotated[str | None, Meta(description="Server-side profile name.")] = None
    workspace: Annotated[str | None, Meta(description="Absolute path of the workspace; defaults to the profile's.")] = None
    execution_mode: Annotated[
        ExecutionMode | None,
        Meta(description="safe: sandboxed, commands may be denied; trusted: every tool auto-approved."),
    ] = None
    wait_seconds: Annotated[WaitSeconds | None, Meta(description="Answer RUNNING after this long (keep it under your tool timeout).")] = None
    confirm: Annotated[str | None, Meta(description="Token from a preview.")] = None  # issue 10, gate


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
    # issue 10, policy: a call may narrow its profile's limits, never widen them (unpublished; README).
    paths: list[str] | None = None
    protected: list[str] | None = None
    max_files: FileLimit | None = None
    max_lines: FileLimit | None = None
    on_violation: OnViolation | None = None


class ContinueArgs(Struct, frozen=True, kw_only=True):
    """The published arguments of ``antigravity_continue``."""

    run_id: Annotated[str | None, Meta(description="The run to continue; its workspace, profile and mode are kept.")] = None
    # Published as optional: a call with apply needs none (Gemini CLI refuses a call that lacks a required field).
    feedback: Annotated[str, Meta(max_length=400_000, description="What the worker must fix or do next.")] | None = None
    # Published so a leader finds it and a client that checks calls against the schema lets it through
    # (README "Isolation and apply"); ``True`` only: a bool | None publishes no default.
    apply: Annotated[bool | None, Meta(description="true: put a worktree run's change in your tree.")] = None
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
    confirm: str | None = None  # issue 10, gate: the token of a CONFIRMATION_REQUIRED preview (hint names it)
    # issue 10, policy: narrows the continued run's limits further (never widens them).
    paths: list[str] | None = None
    protected: list[str] | None = None
    max_files: FileLimit | None = None
    max_lines: FileLimit | None = None
    on_violation: OnViolation | None = None
    # The text the code reads: "" when left out (refused unless apply is set: orchestrate.continue_).
    feedback: Annotated[str, Meta(max_length=400_000)] = ""


class GetResultInput(Struct, frozen=True, kw_only=True):
    run_id: Annotated[str | None, Meta(description="Omit it to list recent runs.")] = None
    detail: Annotated[
        Detail,
        Meta(description="summary: the packet; errors: error, stderr/response tails; full: the record; diff: the patch."),
    ] = Detail.SUMMARY
    # None: each detail's own default (12,000; detail="diff": the review read's small budget, relay.review.diff_view).
    max_chars: Annotated[int, Meta(ge=200, le=1_000_000, description=(
        "Cut the answer to this many characters (default 12,000; diff: 2,500)."))] | None = None
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
    # issue 10, policy: enforced after the run (relay.call.enforce); a call may only narrow them.
    protected: list[str] = []
    max_files: FileLimit | None = None
    max_lines: FileLimit | None = None
    on_violation: OnViolation = "keep"
    description: str | None = None
    # issue 10, gate: a trusted run first answers CONFIRMATION_REQUIRED with a preview and a token
    # "token" (true before issue 27 meant this): the preview's token, repeated by the leader; "human": a person
    # answers an elicitation form, never the model (a client that cannot ask gets a refusal); true: "human"
    # where the client declares form elicitation, else "token".
    confirm_trusted: bool | Literal["human", "token"] = False
    # Isolation (issue 10): run the worker in a pooled git worktree on branch gravity-relay/<run_id>;
    # carry_uncommitted copies the user's uncommitted edits (untracked non-ignored files too) into it.
    isolation: Literal["in_place", "worktree"] = "in_place"
    carry_uncommitted: bool = False


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


class Usage(Struct, kw_only=True, omit_defaults=True):
    """What a run cost (issue 27, item 4): the tokens of this run alone (agy counts a conversation's turns
    together: a continue's share is its total less the earlier run's), the model, the run's wall time.
    No tokens when agy reported none (a print timeout's partial result says zero)."""

    tokens_in: int = msgspec.field(default=0, name="in")  # short keys: every packet pays for them
    tokens_out: int = msgspec.field(default=0, name="out")
    model: str | None = None
    seconds: float = 0.0


class Preview(Struct, kw_only=True, omit_defaults=True):
    """What a confirm_trusted profile shows before a trusted run (issue 10, gate): run it by repeating the call
    with ``confirm``."""

    command: list[str]  # agy's argv as the relay would run it; prompt and report schema shortened
    workspace: str
    execution_mode: str
    timeout_minutes: float
    policy: dict[str, object] = {}
    # The token, bound to exactly these arguments: only where the model may confirm ("token", or true on a client
    # that cannot show a form); never in a record but a "token" profile's (issue 34, relay/call/confirm.py).
    confirm: str | None = None
    expires_at: str


class Packet(Struct, kw_only=True, omit_defaults=True):
    """The review packet: the leader reads this instead of the diff and the transcript.

    ``ok`` is derived, never set: it means the status is SUCCESS (``__post_init__``, on decoding too).
    """

    ok: bool | None = None  # always written: None is never its value once built
    run_id: str
    status: Status
    summary: str = ""
    changes: Changes = msgspec.field(default_factory=Changes)
    tests: Tests = msgspec.field(default_factory=Tests)
    flags: list[str] = []
    conversation_id: str | None = None
    error: ErrorInfo | None = None
    preview: Preview | None = None  # issue 10, gate: only on CONFIRMATION_REQUIRED
    # Isolation (issue 10): where a worktree run's change lives until it is applied.
    branch: str | None = None
    worktree: str | None = None
    usage: Usage | None = None  # issue 27: tokens, model, duration; a few dozen bytes

    def __post_init__(self) -> None:
        self.ok = self.status is Status.SUCCESS


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


# --------------------------------------------------------------------------- error text

_ENUM_FIELDS: dict[str, type[enum.Enum]] = {"execution_mode": ExecutionMode, "detail": Detail}


def explain(exc: msgspec.ValidationError) -> str:
    """msgspec's message, plus the accepted values when an enum-shaped field got something else."""
    text = str(exc)
    for field, kind in _ENUM_FIELDS.items():
        if f".{field}`" in text:
            return f"{text} (accepted values: {', '.join(repr(m.value) for m in kind)})"
    return text
