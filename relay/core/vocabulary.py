"""The words every contract uses: the statuses, the modes, the views, the bounds of a caller's values.

Split out of ``contracts`` (issue 38, §3), which re-exports every name; the values are the ones clients
are told about (``relay.core.schemas``).
"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

from msgspec import Meta

__all__ = ["Status", "ExecutionMode", "Detail", "Risk", "Task", "Text", "Lines", "Minutes", "WaitSeconds", "OnViolation",
           "FileLimit"]


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
# A list of texts a call hands over (constraints, acceptance criteria): each becomes a line of the prompt; 100,000 of
# them were taken as asked (a prompt file of every bullet).
Lines = Annotated[list[Text], Meta(max_length=200)]
Minutes = Annotated[float, Meta(gt=0, le=24 * 60)]
# How long a call waits before it answers RUNNING and leaves the run going (issue 9). No upper bound is
# published (bytes every session pays for): a wait longer than the run's timeout just waits to its end.
WaitSeconds = Annotated[float, Meta(ge=0)]
# issue 10, policy: what happens to a violating change made in place (README: "Enforced policy").
OnViolation = Literal["keep", "revert"]
FileLimit = Annotated[int, Meta(ge=1)]
