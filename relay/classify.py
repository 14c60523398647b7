"""One status for one worker attempt: exit code + envelope + stderr + agy's log.

Exit 0 is not success (agy-protocol.md §4). The verdict comes from ``RULES``,
a table read top to bottom, first match wins; adding a failure mode is adding
one row. Each row names the status, a predicate over the ``Outcome`` and the
hint the leader is shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import Struct

from .contracts import ErrorInfo, Status, WorkerReport

__all__ = [
    "Outcome",
    "Verdict",
    "Rule",
    "RULES",
    "classify",
    "parse_reset",
    "AuthWatch",
    "TRANSIENT",
    "report_of",
]


class Outcome(Struct, kw_only=True):
    """What one attempt left behind, as plain facts."""

    exit_code: int | None = None
    relay_timeout: bool = False
    cancelled: bool = False
    stopped_for: Status | None = None  # an early-stop marker seen while it ran
    stdout_lines: int = 0
    json_lines: int = 0
    bad_lines: int = 0
    results: int = 0
    envelope: dict[str, Any] | None = None
    result_raw: Any = None
    response: str = ""
    conversation_id: str | None = None
    stderr: str = ""
    log: str = ""
    schema_requested: bool = True
    min_version: str = ""


class Verdict(Struct, kw_only=True):
    status: Status
    message: str
    hint: str
    resets_in_seconds: int | None = None

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
            retryable=self.status in TRANSIENT,
            resets_in_seconds=self.resets_in_seconds,
        )


# Auth hiccups that a second attempt can cure (and only these are retried).
TRANSIENT = frozenset({Status.KEYRING_TIMEOUT, Status.AUTH_TIMEOUT})

# ---------------------------------------------------------------- agy's own signals

_OAUTH_LINES = re.compile(
    r"Authentication required\. Please visit the URL|Waiting for authentication \(timeout|"
    r"paste the authorization code here|Please sign in"
)
_KEYRING = re.compile(r"keyringAuth: timed out")
_AUTH_TIMED_OUT = re.compile(r"Print mode: auth timed out|authentication timed out")
_QUOTA = re.compile(r"quota reached|RESOURCE_EXHAUSTED", re.IGNORECASE)
_RESETS = re.compile(r"Resets in ((?:\d+h)?(?:\d+m)?(?:\d+(?:\.\d+)?s)?)")
_PRINT_TIMEOUT = re.compile(r"\[agy\] print timeout|timeout waiting for response")
_SOFT_DENY = re.compile(r"no output produced .{0,40}permission|auto-denied")
_UNKNOWN_FLAG = re.compile(r"flags provided but not defined: (-\S+)")
_AGY_ERROR = re.compile(r"AGY_ERROR: (\{.*\})")


class AuthWatch:
    """Watches stderr and agy's log while the worker runs, for lines that settle the attempt at once.

    Stopping there spares the leader agy's 30-60 s wait for a browser login that
    will never happen in a headless run.
    """

    def __init__(self) -> None:
        self.keyring_seen = False

    def feed(self, line: str) -> Status | None:
        if _KEYRING.search(line):
            # agy may still get in another way; wait for its OAuth fallback before judging.
            self.keyring_seen = True
            return None
        if "silent auth failed, triggering OAuth" in line or _OAUTH_LINES.search(line):
            return Status.KEYRING_TIMEOUT if self.keyring_seen else Status.LOGIN_REQUIRED
        return None


def parse_reset(text: str) -> int | None:
    """'Resets in 167h51m3s' -> seconds."""
    match = _RESETS.search(text or "")
    if not match or not match[1]:
        return None
    total = 0.0
    for amount, unit in re.findall(r"(\d+(?:\.\d+)?)([hms])", match[1]):
        total += float(amount) * {"h": 3600, "m": 60, "s": 1}[unit]
    return int(total)


def _error_text(o: Outcome) -> str:
    env = o.envelope or (o.result_raw if isinstance(o.result_raw, dict) else {})
    err = env.get("error") if isinstance(env, dict) else None
    return err if isinstance(err, str) else ""


def _all_text(o: Outcome) -> str:
    return "\n".join((_error_text(o), o.stderr, o.log))


def _status(o: Outcome) -> str:
    return (o.envelope or {}).get("status", "")


def _agy_error(o: Outcome) -> dict[str, Any]:
    match = _AGY_ERROR.search(o.stderr)
    if not match:
        return {}
    try:
        value = msgspec.json.decode(match[1])
    except msgspec.DecodeError:
        return {}
    return value if isinstance(value, dict) else {}


_FENCE = re.compile(r"^```(?:json)?\s*(\{.*\})\s*```$", re.S)


def report_of(o: Outcome) -> WorkerReport | None:
    """The worker's structured report, if it has the shape the relay asked for.

    agy puts it in ``structured_output``; the same JSON is also the ``response`` text
    (json-schema capture). A build that fills only the response still yields its report.
    """
    env = o.envelope or {}
    candidates: list[object] = [env.get("structured_output")]
    text = (env.get("response") or "").strip() if isinstance(env.get("response"), str) else ""
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced[1]
    if text.startswith("{"):
        try:
            candidates.append(msgspec.json.decode(text))
        except msgspec.DecodeError:
            pass
    for candidate in candidates:
        if isinstance(candidate, dict):
            try:
                return msgspec.convert(candidate, WorkerReport)
            except msgspec.ValidationError:
                continue
    return None


def _tail(text: str, limit: int = 300) -> str:
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def _auth_failed(o: Outcome) -> bool:
    return "authentication failed" in _error_text(o) or bool(_AUTH_TIMED_OUT.search(o.stderr + o.log))


class Rule(Struct, frozen=True):
    status: Status
    when: Callable[[Outcome], bool]
    message: Callable[[Outcome], str]
    hint: str


_LOGIN_HINT = (
    "agy needs an interactive sign-in. Run `agy` once in a terminal on this machine and complete the "
    "Google login, then call again."
)
_KEYRING_HINT = (
    "agy could not reach the system keyring (no D-Bus/Secret Service session?). The relay retried once. "
    "Make sure the relay is started from a desktop session (DBUS_SESSION_BUS_ADDRESS set) or unlock the keyring."
)

RULES: list[Rule] = [
    Rule(Status.CANCELLED, lambda o: o.cancelled, lambda o: "the call was cancelled; the worker was stopped",
         "Nothing more to do; call again to retry."),
    Rule(Status.LOGIN_REQUIRED, lambda o: o.stopped_for is Status.LOGIN_REQUIRED,
         lambda o: "agy asked for an interactive login; the worker was stopped at once", _LOGIN_HINT),
    Rule(Status.KEYRING_TIMEOUT, lambda o: o.stopped_for is Status.KEYRING_TIMEOUT,
         lambda o: "agy timed out reaching the system keyring and fell back to a browser login; stopped at once",
         _KEYRING_HINT),
    Rule(Status.EXECUTION_TIMEOUT, lambda o: o.relay_timeout,
         lambda o: "the worker did not finish within its timeout and was stopped (its whole process group killed)",
         "Split the task, or raise timeout_minutes in the profile; changes so far are listed."),
    Rule(Status.AGY_TOO_OLD, lambda o: o.exit_code == 2 and bool(_UNKNOWN_FLAG.search(o.stderr)),
         lambda o: f"agy rejected the flag {_UNKNOWN_FLAG.search(o.stderr)[1]}: this agy is too old",
         "Update the Antigravity CLI (`agy update`) to 1.1.8 or newer."),
    Rule(Status.QUOTA_EXHAUSTED, lambda o: bool(_QUOTA.search(_all_text(o))),
         lambda o: "agy's model quota is used up" + (f": {_first_line(_error_text(o))}" if _error_text(o) else ""),
         "Wait for the reset shown in resets_in_seconds, or switch model/account; retrying sooner fails again."),
    Rule(Status.KEYRING_TIMEOUT, lambda o: bool(_KEYRING.search(o.log + o.stderr)) and (o.exit_code != 0 or _auth_failed(o)),
         lambda o: "agy timed out reaching the system keyring and could not authenticate", _KEYRING_HINT),
    Rule(Status.LOGIN_REQUIRED, lambda o: bool(_OAUTH_LINES.search(o.stderr + o.log)) or "triggering OAuth" in o.log,
         lambda o: "agy needs an interactive login", _LOGIN_HINT),
    Rule(Status.AUTH_TIMEOUT, lambda o: _auth_failed(o),
         lambda o: f"agy could not authenticate: {_error_text(o) or _first_line(o.stderr)}",
         "Usually transient (the relay retried once). If it persists, run `agy` in a terminal to check the login."),
    Rule(Status.EXECUTION_TIMEOUT, lambda o: bool(_PRINT_TIMEOUT.search(o.stderr + "\n" + _error_text(o))),
         lambda o: "agy's own print timeout expired before the turn finished; any answer is partial",
         "Split the task, or raise timeout_minutes; changes so far are listed."),
    Rule(Status.PERMISSION_DENIED,
         lambda o: bool((o.envelope or {}).get("denied_actions")) or bool(_SOFT_DENY.search(o.stderr)),
         lambda o: "agy auto-denied a tool it needed: " + ", ".join(
             str(a.get("display_name") or a.get("action")) for a in (o.envelope or {}).get("denied_actions") or []
             if isinstance(a, dict)) or "agy auto-denied a tool permission",
         "Headless agy cannot ask. Use execution_mode 'trusted' for this profile, or add an allow rule "
         "(permissions.allow in agy's settings.json, e.g. command(npm test))."),
    Rule(Status.WORKER_ERROR, lambda o: "invalid model selection" in _error_text(o),
         lambda o: f"agy rejected the model settings: {_error_text(o)[:200]}",
         "Use a slug from `agy models`, and do not combine --effort with an effort-suffixed model."),
    Rule(Status.WORKER_ERROR, lambda o: bool(_agy_error(o)),
         lambda o: f"agy API error: {str(_agy_error(o).get('short_error') or _agy_error(o).get('status'))[:300]}",
         "Read the message; `antigravity_get_result(detail='errors')` has agy's stderr."),
    Rule(Status.STREAM_ERROR, lambda o: o.stdout_lines == 0 and o.exit_code == 0,
         lambda o: "agy exited 0 but printed nothing", "Run `gravity-relay doctor`; check agy's log in the run record."),
    Rule(Status.WORKER_ERROR, lambda o: o.stdout_lines == 0,
         lambda o: f"agy exited {o.exit_code} without output: {_first_line(o.stderr) or 'no stderr'}",
         "See the stderr tail with antigravity_get_result(detail='errors')."),
    Rule(Status.INVALID_JSON, lambda o: o.json_lines == 0,
         lambda o: f"agy printed {o.stdout_lines} line(s), none of them JSON",
         "agy's output format changed or a wrapper prints to stdout; run `gravity-relay doctor`."),
    Rule(Status.STREAM_ERROR, lambda o: o.results == 0,
         lambda o: f"agy's stream ended without a result event (exit {o.exit_code})",
         "The worker may have crashed mid-turn; see detail='errors'. Changes so far are listed."),
    Rule(Status.INVALID_ENVELOPE, lambda o: o.envelope is None,
         lambda o: "agy's result event does not have the expected fields (conversation_id, status, response)",
         "agy's output format changed; update the relay or pin agy."),
    Rule(Status.WORKER_ERROR, lambda o: _status(o) != "SUCCESS",
         lambda o: f"agy reported {_status(o) or 'no status'}: {_error_text(o)[:300] or _first_line(o.stderr)}",
         "Read the error; continue the run with feedback, or see detail='errors'."),
    Rule(Status.WORKER_ERROR, lambda o: o.exit_code not in (0, None),
         lambda o: f"agy reported success but exited {o.exit_code}: {_first_line(o.stderr)}",
         "See detail='errors'."),
    Rule(Status.INVALID_REPORT, lambda o: o.schema_requested and report_of(o) is None,
         lambda o: "agy finished but returned no structured report; the change set below is the relay's own observation",
         "Review the listed changes; continue the run asking for the report if you need the worker's summary."),
]


def classify(outcome: Outcome) -> Verdict:
    for rule in RULES:
        if rule.when(outcome):
            status = rule.status
            return Verdict(
                status=status,
                message=rule.message(outcome),
                hint=rule.hint,
                resets_in_seconds=parse_reset(_all_text(outcome)) if status is Status.QUOTA_EXHAUSTED else None,
            )
    return Verdict(status=Status.SUCCESS, message="", hint="")
