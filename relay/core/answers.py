"""What a call answers: the review packet (with its error, changes, tests, usage and a gate's preview), the
RUNNING answer, and the report the worker is asked for.

Split out of ``contracts`` (issue 38, §3), which re-exports every name. Packets only ever gain defaulted fields.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from relay.core.vocabulary import Risk, Status

__all__ = ["ErrorInfo", "ReviewTarget", "Changes", "Tests", "Usage", "Preview", "Packet", "Running", "WorkerReport"]


# --------------------------------------------------------------------------- packet


class ErrorInfo(Struct, kw_only=True, omit_defaults=True):
    code: Status
    message: str
    hint: str
    retryable: bool = False
    resets_in_seconds: int | None = None
    # A finer code inside the status, when one helps the leader act (e.g. WORKER_ERROR subagent_unfinished).
    reason: str | None = None


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
