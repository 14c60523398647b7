"""One status for one worker attempt: exit code + envelope + stderr + agy's log.

Exit 0 is not success (agy-protocol.md §4). The verdict comes from ``RULES``,
a table read top to bottom, first match wins; adding a failure mode is adding
one row. Each row names the status, a predicate over the ``Outcome``, the
hint the leader is shown and, where agy says so, whether calling again can help.

What agy's users report (agy-protocol.md §6) shapes three habits here:
- a ``SUCCESS`` envelope wins over words in stderr or the log (agy ≥ 1.2.1
  retries 429s and 503s in-process, so a run that succeeded can log them);
- the sign-in lines are matched case-insensitively, in every wording agy has
  used, from the envelope, stderr, non-JSON stdout and the log;
- the start-up log line "You are not logged into Antigravity." is never, on
  its own, a failure (it precedes "Auth succeeded" on healthy runs).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import Struct

from relay.agy.command import MIN_VERSION
from relay.core.contracts import ErrorInfo, Status, WorkerReport

__all__ = [
    "Outcome",
    "Verdict",
    "Rule",
    "RULES",
    "classify",
    "parse_reset",
    "AuthWatch",
    "TRANSIENT",
    "LOGIN_CLASS",
    "IN_PROCESS_RETRY_SINCE",
    "relay_retries",
    "transient_oauth",
    "AUTH_SIGNALS",
    "says",
    "LOGIN_HINT",
    "KEYRING_HINT",
    "verification_hint",
    "report_of",
]


class Outcome(Struct, kw_only=True):
    """What one attempt left behind, as plain facts."""

    exit_code: int | None = None
    relay_timeout: bool = False
    cancelled: bool = False
    stopped_for: Status | None = None  # an early-stop marker seen while it ran
    stop_kind: str = ""  # why: signed_out | oauth_prompt | verification | keyring
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
    schema_requested: bool = True
    min_version: str = ""


class Verdict(Struct, kw_only=True):
    status: Status
    message: str
    hint: str
    resets_in_seconds: int | None = None
    retryable: bool | None = None  # None: transient statuses are retryable, others not

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
        )


# Auth hiccups that a second attempt can cure (the relay retries these once, workspace unchanged).
TRANSIENT = frozenset({Status.KEYRING_TIMEOUT, Status.AUTH_TIMEOUT})
# The user must act (sign in, verify the account): the auth cache is dropped, nothing is retried.
LOGIN_CLASS = frozenset({Status.LOGIN_REQUIRED, Status.ACCOUNT_VERIFICATION_REQUIRED})
# agy retries 502/503/504, per-minute 429s and cut streams itself since 1.2.1 (agy-protocol.md §6.1).
IN_PROCESS_RETRY_SINCE = (1, 2, 1)


def relay_retries(verdict: Verdict, version: tuple[int, int, int] | None) -> bool:
    """Whether the relay itself runs the attempt again (always under the mutation guard).

    Transient auth: yes, once. An upstream outage (503, capacity, network): only when this agy
    does not retry in-process (older than 1.2.1); a newer agy already retried with backoff, so a
    second turn right away would spend its tokens for the same answer: the leader is told it
    may call again later (``retryable: true``). Quota: never (agy says retryable even for
    week-long resets).
    """
    if verdict.status in TRANSIENT:
        return True
    if verdict.status is Status.UPSTREAM_UNAVAILABLE:
        return version is not None and version < IN_PROCESS_RETRY_SINCE
    return False


# ---------------------------------------------------------------- agy's own signals

# agy's auth signals, one table: the worker's AuthWatch, the classifier and the `agy models` probe (auth.py)
# all read them here, so a new wording is taught once.
AUTH_SIGNALS: dict[str, re.Pattern[str]] = {
    # Signed out, today's wording (≥1.0.11, also from `agy models`) and its earlier ending; "Please sign in"
    # comes from `agy models` and from 1.2.x envelopes. Case-insensitive: the probe once missed it.
    "signed_out": re.compile(r"authentication required\. run .?agy.? to log in|please sign in", re.IGNORECASE),
    # The interactive OAuth prompt (print mode falls back to a browser login nobody will finish).
    "oauth_prompt": re.compile(r"Authentication required\. Please visit the URL|Waiting for authentication \(timeout|"
                               r"paste the authorization code here|accounts\.google\.com/o/oauth2"),
    # The account must be verified (or is not eligible) before it can be used.
    "verification": re.compile(r"Eligibility check failed|VALIDATION_REQUIRED|Verify your account to continue",
                               re.IGNORECASE),
    "keyring": re.compile(r"keyringAuth: timed out"),
    "quota": re.compile(r"quota reached|RESOURCE_EXHAUSTED", re.IGNORECASE),
}
LOGIN_HINT = (
    "agy is not signed in. Run `agy` once in a terminal on this machine and complete the Google login, then call "
    "again. (An API key or ADC login works too: see README, 'agy's own credentials'.)"
)
KEYRING_HINT = (
    "agy could not reach the system keyring (no D-Bus/Secret Service session?). The relay retried once. "
    "Make sure the relay is started from a desktop session (DBUS_SESSION_BUS_ADDRESS set) or unlock the keyring."
)


def says(kind: str, text: str) -> bool:
    """Whether agy said one of the AUTH_SIGNALS (by kind) anywhere in ``text``."""
    return bool(AUTH_SIGNALS[kind].search(text))


_VALIDATION_URL = re.compile(r"validation_url\W{0,4}(https://[^\s\"'<>,}\]]+)", re.IGNORECASE)
_ANY_URL = re.compile(r"https://[^\s\"'<>,}\]]+")
_AUTH_TIMED_OUT = re.compile(r"Print mode: auth timed out|authentication timed out")
_RESETS = re.compile(r"Resets in ((?:\d+h)?(?:\d+m)?(?:\d+(?:\.\d+)?s)?)")
_PRINT_TIMEOUT = re.compile(r"\[agy\] print timeout|timeout waiting for response|timed out waiting for response")
_SOFT_DENY = re.compile(r"no output produced .{0,40}permission|auto-denied")
_SOFT_DENY_ACTION = re.compile(r"required the \"([\w-]+)\" permission")
_UNKNOWN_FLAG = re.compile(r"flags provided but not defined: (-\S+)")
_AGY_ERROR = re.compile(r"AGY_ERROR: (\{.*\})")
_NETWORK = re.compile(r"network issue connecting to the server", re.IGNORECASE)
_TERMINATED = re.compile(r"Agent execution terminated due to error")
_CAPACITY = re.compile(r"UNAVAILABLE|\(code 50[234]\)|No capacity available|overloaded", re.IGNORECASE)
_ERROR_ID = re.compile(r"Error ID:\s*(\S+)")
_BAD_MODEL = re.compile(r"invalid model selection|Failed to resolve model flag|Available models:|is not recognized")
_RESOLVE_MODEL = re.compile(r"Failed to resolve model flag (\S+?):? model (\S+) is not recognized")
_QUOTED_MODEL = re.compile(r"model \"([^\"]+)\"")
_SLUG = re.compile(r"[a-z0-9][a-z0-9._-]*[a-z0-9]")


def verification_hint(text: str) -> str:
    """What the user does, with agy's validation URL when it gave one."""
    match = _VALIDATION_URL.search(text)
    if not match:
        urls = [u for u in _ANY_URL.findall(text) if "oauth2" not in u]
        url = urls[0] if urls else ""
    else:
        url = match[1]
    where = f"Open {url} in a browser" if url else "Run `agy` in a terminal and follow its link"
    if "401" in text and not url:
        return ("agy's eligibility check says the account is not authenticated (401). Run `agy` in a terminal, "
                "sign in again and complete any account verification it asks for, then call again.")
    return (f"{where}, signed in as the account agy uses, and complete Google's account verification; "
            "then call again. The relay cannot do this step for you.")


class AuthWatch:
    """Watches stderr, non-JSON stdout and agy's log while the worker runs, for lines that settle it at once.

    Stopping there spares the leader agy's 30-60 s wait for a browser login that will never happen in a
    headless run (and, on 1.2.14, a wait for a pasted code that lasts until the relay's timeout).
    """

    def __init__(self) -> None:
        self.keyring_seen = False
        self.kind = ""
        self.line = ""
        self.status: Status | None = None  # the plainest verdict seen so far

    def feed(self, line: str) -> Status | None:
        if says("keyring", line):
            # agy may still get in another way; wait for its OAuth fallback before judging.
            self.keyring_seen = True
            return None
        if says("verification", line):
            return self._settle("verification", line, Status.ACCOUNT_VERIFICATION_REQUIRED)
        if says("signed_out", line):
            return self._settle("signed_out", line, Status.LOGIN_REQUIRED)
        if "silent auth failed, triggering OAuth" in line or says("oauth_prompt", line):
            if self.keyring_seen:
                return self._settle("keyring", line, Status.KEYRING_TIMEOUT)
            return self._settle("oauth_prompt", line, Status.LOGIN_REQUIRED)
        return None

    # A later, plainer line wins: agy prints "authentication required" and then its paste prompt, and the
    # readers of stderr, stdout and the log race; the sign-out must not be taken for a transient prompt.
    _RANK = {"oauth_prompt": 1, "keyring": 1, "signed_out": 2, "verification": 3}

    def _settle(self, kind: str, line: str, status: Status) -> Status:
        if self._RANK[kind] > self._RANK.get(self.kind, 0):
            self.kind, self.line, self.status = kind, line.strip()[:300], status
        return status


def transient_oauth(verdict: Verdict, outcome: Outcome, *, attempt: int, healthy_seconds_ago: float | None) -> Verdict:
    """One OAuth prompt right after a healthy login is agy's transient fallback, not a sign-out.

    WSL2 with file token storage, agy 1.1.26-1.1.27 (agy-protocol.md §6.4): the token is valid, yet the
    prompt appears and the next run works. Only a first attempt, only a prompt (never agy's explicit
    "authentication required" line), only when the login was confirmed healthy within the auth cache window.
    """
    if (verdict.status is not Status.LOGIN_REQUIRED or attempt != 1 or healthy_seconds_ago is None
            or outcome.stop_kind != "oauth_prompt"):
        return verdict
    return Verdict(
        status=Status.AUTH_TIMEOUT,
        message=f"agy showed a browser-login prompt although its login was confirmed healthy "
                f"{healthy_seconds_ago:.0f}s earlier (agy's transient OAuth fallback); retried once",
        hint="Usually transient (seen on WSL2 with file token storage). If it repeats, run `agy` in a terminal "
             "and sign in again.",
    )


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


def _status(o: Outcome) -> str:
    return (o.envelope or {}).get("status", "")


def _succeeded(o: Outcome) -> bool:
    """agy's envelope says SUCCESS: that wins over words in stderr and the log."""
    return _status(o) == "SUCCESS"


def _said(o: Outcome) -> str:
    """What agy said about a failed run: the envelope's error and stderr (never the log on its own)."""
    return "" if _succeeded(o) else _error_text(o) + "\n" + o.stderr


def _heard(o: Outcome) -> str:
    """Everything agy said about a failed run, its log included."""
    return "" if _succeeded(o) else _error_text(o) + "\n" + o.stderr + "\n" + o.log


def _agy_error(o: Outcome) -> dict[str, Any]:
    match = _AGY_ERROR.search(o.stderr)
    if not match:
        return {}
    try:
        value = msgspec.json.decode(match[1])
    except msgspec.DecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _agy_error_is_quota(o: Outcome) -> bool:
    err = _agy_error(o)
    return err.get("status") == "RESOURCE_EXHAUSTED" or err.get("error_code") == 429


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


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def _auth_failed(o: Outcome) -> bool:
    return "authentication failed" in _error_text(o) or bool(_AUTH_TIMED_OUT.search(o.stderr + o.log))


def _login_signal(o: Outcome) -> bool:
    """A sign-out line or an OAuth prompt beside a failed run (so a lone 'authentication failed' is a login)."""
    if o.stopped_for is Status.LOGIN_REQUIRED:
        return True
    text = _heard(o)
    return says("signed_out", text) or says("oauth_prompt", text) or (
        "triggering OAuth" in text and not says("keyring", text))


def _login_message(o: Outcome) -> str:
    line = o.stop_line or _first_line("\n".join(
        ln for ln in _heard(o).splitlines() if says("signed_out", ln) or says("oauth_prompt", ln)))
    if o.stop_kind == "oauth_prompt" or (not o.stop_kind and says("oauth_prompt", line or "")):
        what = "agy asked for an interactive browser login"
    else:
        what = "agy is signed out"
    stopped = "; the worker was stopped at once" if o.stopped_for else ""
    return f"{what}{stopped}" + (f" (agy said: {line[:160]})" if line else "")


def _verification_text(o: Outcome) -> str:
    # The whole texts first: the stop line is cut at 300 characters, and agy's log line carrying the
    # validation URL is longer (the URL came out cut at "continue=https:" when the log won the race).
    return "\n".join((_error_text(o), o.stderr, o.log, o.stop_line))


def _upstream(o: Outcome) -> bool:
    """A transient upstream failure agy reported: 503/capacity/network, or agy's own retryable flag."""
    if _succeeded(o):
        return False
    err = _agy_error(o)
    if err and not _agy_error_is_quota(o):
        if err.get("retryable") is True:
            return True
        return bool(_CAPACITY.search(str(err.get("status", "")) + " " + str(err.get("short_error", ""))))
    said = _said(o)
    if _NETWORK.search(said):
        return True
    if _TERMINATED.search(said):
        # "Agent execution terminated" wraps many causes; only a capacity one (in stderr or the log) is transient.
        return bool(_CAPACITY.search(said + "\n" + o.log))
    return bool(re.search(r"UNAVAILABLE \(code 503\)|No capacity available", _error_text(o)))


def _upstream_message(o: Outcome) -> str:
    err = _agy_error(o)
    if err:
        detail = str(err.get("short_error") or err.get("status"))
    else:
        said = _said(o)
        cause = next((ln for ln in (said + "\n" + o.log).splitlines() if _CAPACITY.search(ln)), "")
        detail = _first_line(_error_text(o)) or _first_line(o.stderr)
        if cause and cause.strip()[:200] not in detail:
            detail += f" (cause: {cause.strip()[:200]})"
    return f"agy's service was unavailable or unreachable: {detail[:300]}"


def _upstream_hint(o: Outcome) -> str:
    return ("Transient: agy ≥ 1.2.1 already retried in-process (an older agy is retried once by the relay, "
            "workspace unchanged). Call again in a minute; if it persists, check agy's status page or switch model.")


def _terminated_hint(o: Outcome) -> str:
    eid = _ERROR_ID.search(o.stderr + "\n" + _error_text(o))
    ref = f" (agy's Error ID: {eid[1]})" if eid else ""
    return ("agy's agent stopped on an internal error" + ref + ". Check that agy's settings.json "
            "(~/.gemini/antigravity-cli/) is valid JSON and that `agy` works in a terminal; then call again.")


def _denied(o: Outcome) -> list[str]:
    """What agy auto-denied: the envelope's denied_actions, else the permission named on stderr."""
    env = o.envelope or {}
    out = []
    for a in env.get("denied_actions") or []:
        if isinstance(a, dict):
            action, name = a.get("action"), a.get("display_name")
            label = f"{name} ({action})" if name and action else str(name or action)
            if label not in out:
                out.append(label)
    if not out:
        out = [f'the "{m}" permission' for m in dict.fromkeys(_SOFT_DENY_ACTION.findall(o.stderr))]
    return out


def _denied_kinds(o: Outcome) -> set[str]:
    kinds = {str(a.get("action")) for a in (o.envelope or {}).get("denied_actions") or [] if isinstance(a, dict)}
    return kinds | set(_SOFT_DENY_ACTION.findall(o.stderr))


def _denied_message(o: Outcome) -> str:
    what = _denied(o)
    return "agy auto-denied " + (", ".join(what) if what else "a tool permission") + " (headless agy cannot ask)"


def _denied_hint(o: Outcome) -> str:
    kinds = _denied_kinds(o)
    writes = kinds & {"edit", "write", "file", "write_file", "edit_file", "create_file"}
    if writes:
        return ("Safe mode's `--mode accept-edits` did not let file edits through on this agy (agy-protocol.md §6.1; "
                "check with `gravity-relay doctor --write-probe`). Use a profile with execution_mode 'trusted' "
                "(agy then auto-approves every tool: keep it to workspaces you can revert), or allow file edits in "
                "agy's settings.json (permissions.allow).")
    if "command" in kinds or not kinds:
        return ("A command needed approval that headless agy cannot ask for. Add an allow rule for it "
                "(permissions.allow in agy's settings.json, e.g. command(npm test)), or use a profile with "
                "execution_mode 'trusted'.")
    names = ", ".join(sorted(kinds))
    return (f"Allow {names} in agy's settings.json (permissions.allow), or use a profile with execution_mode "
            "'trusted'.")


def _bad_model(o: Outcome) -> bool:
    return bool(_BAD_MODEL.search(_error_text(o) + "\n" + ("" if _succeeded(o) else o.stderr + "\n" + o.log)))


def _model_facts(o: Outcome) -> tuple[str, list[str]]:
    """(the model agy refused, the slugs it listed after "Available models:"), at most 40."""
    text = _error_text(o) + "\n" + o.stderr + "\n" + o.log
    named = _RESOLVE_MODEL.search(text) or _QUOTED_MODEL.search(text)
    model = named[1] if named else ""
    listed: list[str] = []
    at = text.find("Available models:")
    if at >= 0:
        for line in text[at + len("Available models:"):].splitlines():
            # a row is "slug", "slug<TAB>Label" or "slug · description"; labels hold no hyphenated lowercase word
            tokens = (t.strip("\"'`.;()") for t in re.split(r"[,\s]+", line.strip()))
            slugs = [t for t in tokens if _SLUG.fullmatch(t) and "-" in t]
            if not slugs and listed:
                break  # the list ended
            listed += [slug for slug in slugs if slug not in listed]
            if len(listed) >= 40:
                break
    return model, listed[:40]


def _model_message(o: Outcome) -> str:
    model, _ = _model_facts(o)
    first = _first_line(_error_text(o)) or next(
        (ln.strip() for ln in (o.stderr + "\n" + o.log).splitlines() if _BAD_MODEL.search(ln)), "")
    return f"agy rejected the model settings{f' (model {model})' if model else ''}: {first[:200]}"


def _model_hint(o: Outcome) -> str:
    model, listed = _model_facts(o)
    shown = ", ".join(listed[:12]) + (f" … ({len(listed) - 12} more)" if len(listed) > 12 else "")
    known = f" Available on this agy: {shown}." if listed else ""
    which = f"`{model}` is not a model this agy knows." if model else "agy refused the model settings."
    return (f"{which}{known} Use a slug from `agy models` in the profile's model, and do not combine --effort "
            "with an effort-suffixed model.")


class Rule(Struct, frozen=True):
    status: Status
    when: Callable[[Outcome], bool]
    message: Callable[[Outcome], str]
    hint: str | Callable[[Outcome], str]
    retryable: Callable[[Outcome], bool | None] | None = None


def _agy_retryable(o: Outcome) -> bool | None:
    """agy's own word (AGY_ERROR.retryable), except for quota: it says retryable even for week-long resets."""
    value = _agy_error(o).get("retryable")
    return value if isinstance(value, bool) and not _agy_error_is_quota(o) else None


RULES: list[Rule] = [
    Rule(Status.CANCELLED, lambda o: o.cancelled, lambda o: "the call was cancelled; the worker was stopped",
         "Nothing more to do; call again to retry."),
    Rule(Status.ACCOUNT_VERIFICATION_REQUIRED,
         lambda o: o.stopped_for is Status.ACCOUNT_VERIFICATION_REQUIRED or says("verification", _heard(o)),
         lambda o: "agy's account check failed: the account must be verified in a browser"
                   + (f" (agy said: {_first_line(o.stop_line or _said(o))[:200]})" if (o.stop_line or _said(o).strip()) else ""),
         lambda o: verification_hint(_verification_text(o)), lambda o: False),
    Rule(Status.LOGIN_REQUIRED, lambda o: o.stopped_for is Status.LOGIN_REQUIRED, _login_message, LOGIN_HINT),
    Rule(Status.KEYRING_TIMEOUT, lambda o: o.stopped_for is Status.KEYRING_TIMEOUT,
         lambda o: "agy timed out reaching the system keyring and fell back to a browser login; stopped at once",
         KEYRING_HINT),
    Rule(Status.EXECUTION_TIMEOUT, lambda o: o.relay_timeout,
         lambda o: "the worker did not finish within its timeout and was stopped (its whole process group killed)",
         "Split the task, or raise timeout_minutes in the profile; changes so far are listed."),
    Rule(Status.AGY_TOO_OLD, lambda o: o.exit_code == 2 and bool(_UNKNOWN_FLAG.search(o.stderr)),
         lambda o: f"agy rejected the flag {_UNKNOWN_FLAG.search(o.stderr)[1]}: this agy is too old",
         f"Update the Antigravity CLI (`agy update`) to {'.'.join(map(str, MIN_VERSION))} or newer."),
    # Quota from the envelope's error, AGY_ERROR and stderr of a failed run: a SUCCESS envelope wins (agy ≥ 1.2.1
    # retries per-minute 429s itself, so a successful run can carry the words in its log).
    Rule(Status.QUOTA_EXHAUSTED, lambda o: _agy_error_is_quota(o) or says("quota", _said(o)),
         lambda o: "agy's model quota is used up" + (f": {_first_line(_error_text(o) or o.stderr)}"
                                                      if (_error_text(o) or o.stderr).strip() else ""),
         "Wait for the reset shown in resets_in_seconds, or switch model/account; retrying sooner fails again.",
         lambda o: False),
    Rule(Status.KEYRING_TIMEOUT, lambda o: says("keyring", o.log + o.stderr) and (o.exit_code != 0 or _auth_failed(o))
         and not _succeeded(o),
         lambda o: "agy timed out reaching the system keyring and could not authenticate", KEYRING_HINT),
    Rule(Status.LOGIN_REQUIRED, _login_signal, _login_message, LOGIN_HINT),
    Rule(Status.AUTH_TIMEOUT, lambda o: _auth_failed(o) and not _succeeded(o),
         lambda o: f"agy could not authenticate: {_error_text(o) or _first_line(o.stderr)} (no sign-in prompt "
                   "beside it: the auth endpoint may have been unreachable)",
         "Usually transient (the relay retried once). If it persists, run `agy` in a terminal to check the login "
         "and the network."),
    Rule(Status.UPSTREAM_UNAVAILABLE, _upstream, _upstream_message, _upstream_hint, lambda o: True),
    Rule(Status.EXECUTION_TIMEOUT, lambda o: bool(_PRINT_TIMEOUT.search(o.stderr + "\n" + _error_text(o))),
         lambda o: "agy's own print timeout expired before the turn finished; any answer is partial",
         "Split the task, or raise timeout_minutes; changes so far are listed."),
    Rule(Status.PERMISSION_DENIED,
         lambda o: bool((o.envelope or {}).get("denied_actions")) or bool(_SOFT_DENY.search(o.stderr)),
         _denied_message, _denied_hint),
    Rule(Status.WORKER_ERROR, _bad_model, _model_message, _model_hint, lambda o: False),
    Rule(Status.WORKER_ERROR, lambda o: bool(_agy_error(o)),
         lambda o: f"agy API error: {str(_agy_error(o).get('short_error') or _agy_error(o).get('status'))[:300]}",
         "Read the message; `antigravity_get_result(detail='errors')` has agy's stderr.", _agy_retryable),
    Rule(Status.WORKER_ERROR, lambda o: not _succeeded(o) and bool(_TERMINATED.search(_said(o))),
         lambda o: f"agy stopped: {_first_line(_error_text(o)) or _first_line(o.stderr)}", _terminated_hint),
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
         lambda o: "agy's result event does not have the expected fields (status, response)",
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
                hint=rule.hint(outcome) if callable(rule.hint) else rule.hint,
                resets_in_seconds=parse_reset(_error_text(outcome) + "\n" + outcome.stderr)
                if status is Status.QUOTA_EXHAUSTED else None,
                retryable=rule.retryable(outcome) if rule.retryable else None,
            )
    return Verdict(status=Status.SUCCESS, message="", hint="")
