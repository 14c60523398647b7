"""What one worker attempt left behind (``Outcome``, plain facts) and the verdict read from it (``Verdict``)."""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from relay.core.contracts import ErrorInfo, Status

__all__ = ["Outcome", "Verdict", "TRANSIENT", "LOGIN_CLASS"]

class Outcome(Struct, kw_only=True):
    """What one attempt left behind, as plain facts."""

    exit_code: int | None = None
    relay_timeout: bool = False
    cancelled: bool = False
    stopped_for: Status | None = None  # an early-stop marker seen while it ran
    stop_kind: str = ""  # why: signed_out | oauth_prompt | verification | keyring | keyring_locked | always_proceed |
    # conversation_not_found (watch.py)
    stop_line: str = ""  # the line that stopped it
    stdout_lines: int = 0
    json_lines: int = 0
    bad_lines: int = 0
    results: int = 0
    envelope: dict[str, Any] | None = None
    result_raw: Any = None
    response: str = ""
    conversation_id: str | None = None
    model: str | None = None  # init.model: the model agy ran (always said from 1.3.2; before, only with --model)
    stderr: str = ""
    log: str = ""
    refusals: list[str] = []  # tool steps a deny rule or a pre-tool hook refused (stream.StreamReader.refusals)
    refused_total: int = 0
    error_steps: int = 0  # `error_message` steps (agy-protocol.md §8.2): counted, the reason is agy's secret
    permission_checks: list[str] = []  # tool steps agy's own permission check refused (§8.3), named; not a deny rule's
    subagents: dict[str, bool] = {}  # the worker's delegations (§8.2) -> whether each came back with output
    offered_tools: list[str] | None = None  # init.tools
    agent: str | None = None  # the --agent the worker ran as (its tools can leave out invoke_subagent)
    effort: str | None = None  # the --effort the worker was given (watch.RunWatch reads it off the argv)
    agy_version: str | None = None  # the agy the attempt ran, as `agy --version` said (record.plan.agy_version)
    schema_requested: bool = True


class Verdict(Struct, kw_only=True):
    status: Status
    message: str
    hint: str
    resets_in_seconds: int | None = None
    retryable: bool | None = None  # None: transient statuses are retryable, others not
    retry_once: bool = False  # the relay runs it once more whatever agy's version (a network failure agy did not retry)
    reason: str | None = None  # a finer code inside the status, e.g. subagent_unfinished (a WORKER_ERROR)

    @property
    def ok(self) -> bool:
        return self.status is Status.SUCCESS

    def error(self) -> ErrorInfo | None:
        if self.ok:
            return None
        return ErrorInfo(
            code=self.status,
            message=self.message,
            hint=self.hint,
            retryable=self.status in TRANSIENT if self.retryable is None else self.retryable,
            resets_in_seconds=self.resets_in_seconds,
            reason=self.reason,
        )


# Auth hiccups that a second attempt can cure (the relay retries these once, workspace unchanged).
TRANSIENT = frozenset({Status.KEYRING_TIMEOUT, Status.AUTH_TIMEOUT})
# The user must act (sign in, verify the account): the auth cache is dropped, nothing is retried.
LOGIN_CLASS = frozenset({Status.LOGIN_REQUIRED, Status.ACCOUNT_VERIFICATION_REQUIRED})
