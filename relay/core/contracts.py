"""Typed contracts: every tool input, profile, run record and packet.

The tool inputs and the profile live here; the words they share (``vocabulary``), what a call answers
(``answers``: the packet, RUNNING, the worker's report) and the run record (``records``) live beside them,
and every name is importable from here. The JSON schemas that MCP clients see are generated from these
Structs (see ``relay.schemas``), so the values the code branches on are the values clients are told about.
Records and packets only ever gain defaulted fields; ``RunRecord.schema_version`` marks a change of shape
(2: the grouped record; 1, flat, is still read by ``relay.runs.record_v1``).
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

# The vocabulary, the answers and the record live in their own modules (issue 38, §3); every name stays
# importable from here, where the inputs and the profile live.
from relay.core.answers import (Changes, ErrorInfo, Packet, Preview, ReviewTarget, Running, Tests, Usage,  # noqa: F401
                                WorkerReport)
from relay.core.records import (RUN_RECORD_SCHEMA_VERSION, Attempt, FileChange, PolicyViolation,  # noqa: F401
                                ProcessStamp, RecordIsolation, RecordObservation, RecordOutcome, RecordPlan,
                                RecordProcess, RecordRequest, RunRecord, VerifyResult)
from relay.core.vocabulary import (Detail, ExecutionMode, FileLimit, Minutes, OnViolation, Risk,  # noqa: F401
                                   Status, Task, Text, Lines, WaitSeconds)


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
    # issue 38: a retry with the same key answers that run, never a second one (relay/call/once.py, checked there)
    idempotency_key: Annotated[str | None, Meta(description="Same key on a retry: that run's answer, no new run.")] = None


class ExecuteInput(ExecuteArgs, frozen=True, kw_only=True):
    """Everything ``antigravity_execute`` accepts: the published fields plus legacy ones.

    Legacy fields keep older leaders working; they stay out of the published schema.
    """

    plan: Text | None = None
    acceptance_criteria: Text | Lines | None = None
    constraints: Text | Lines | None = None
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
    constraints: Text | Lines | None = None
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
    # agy ≥1.3 loads the workspace's own MCP servers and hooks (.agents/mcp_config.json, .agents/plugins/*/
    # mcp_config.json, .agents/hooks.json) in print mode, with no trust gate: a run that is not trusted is refused
    # while they are there, unless the profile vouches for them here (agy-protocol.md §8.4).
    allow_workspace_agy_config: bool = False


# --------------------------------------------------------------------------- error text

_ENUM_FIELDS: dict[str, type[enum.Enum]] = {"execution_mode": ExecutionMode, "detail": Detail}


def explain(exc: msgspec.ValidationError) -> str:
    """msgspec's message, plus the accepted values when an enum-shaped field got something else."""
    text = str(exc)
    for field, kind in _ENUM_FIELDS.items():
        if f".{field}`" in text:
            return f"{text} (accepted values: {', '.join(repr(m.value) for m in kind)})"
    return text
