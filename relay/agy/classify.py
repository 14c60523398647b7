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
    "KEYRING_LOCKED_HINT",
    "verification_hint",
    "report_of",
    "refusals_flag",
]


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
    schema_requested: bool = True
    min_version: str = ""


class Verdict(Struct, kw_only=True):
    status: Status
    message: str
    hint: str
    resets_in_seconds: int | None = None
    retryable: bool | None = None  # None: transient statuses are retryable, others not
    retry_once: bool = False  # the relay runs it once more whatever agy's version (a network failure agy did not retry)

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
    may call again later (``retryable: true``). A network failure agy ended the turn on (exit 3,
    `Bad Gateway`, `wsasend`: agy says retryable:false, agy-protocol.md §7.3): once, any version.
    Quota: never (agy says retryable even for week-long resets).
    """
    if verdict.status in TRANSIENT or verdict.retry_once:
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
    # The vendor's troubleshooting text for a locked keyring (agy-protocol.md §6.5, §7.3).
    "keyring_locked": re.compile(r"secret keyring is locked|keyring is locked", re.IGNORECASE),
    "quota": re.compile(r"quota reached|RESOURCE_EXHAUSTED", re.IGNORECASE),
}
LOGIN_HINT = (
    "agy is not signed in. Run `agy` once in a terminal on this machine and complete the Google login, then call "
    "again. (An API key or ADC login works too: see docs/configuration.md, 'agy's own credentials'.)"
)
KEYRING_LOCKED_HINT = (
    "agy keeps its sign-in token in the system keyring, and the keyring was locked (or out of reach) for the "
    "relay's worker. Unlock it: start the relay (or your editor) from your logged-in desktop session, so "
    "DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR reach agy (the relay passes both to the worker), and unlock the "
    "keyring there (on a headless box: `export $(dbus-launch)` and unlock it in that session). Or use a route "
    "without the keyring: agy's file token (~/.gemini/antigravity-cli/antigravity-oauth-token, used over SSH and in "
    "containers) or an API key (GEMINI_API_KEY with modelProvider gemini) — docs/configuration.md, 'agy's own credentials'."
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
# 1.2.9/1.3.1 AGY_ERROR carries only short_error: its prefix names the status (agy-protocol.md §7.3).
_SHORT_STATUS = re.compile(r"^\s*([A-Z][A-Z_]+) \(code (\d+)\):")
# Transport failures agy ends a turn on with retryable:false (exit 3): the flag cannot be trusted (§7.3).
_NETWORK_FAIL = re.compile(r"Bad Gateway|wsasend|connection reset|connection refused|broken pipe|i/o timeout|"
                           r"TLS handshake timeout|no such host|network is unreachable|unexpected EOF", re.IGNORECASE)
_INTERRUPTED = re.compile(r"^error: interrupted\s*$", re.MULTILINE)
_BACKGROUND_CUT = re.compile(r"terminating (\d+) background task\(s\) on exit")
_TOOK_PROMPT = re.compile(r"-p took .{0,80} as its prompt")
# Region eligibility (1.2.14): exit 1, no init, while `agy models` still passes (agy-protocol.md §7.3).
_REGION = re.compile(r"not (?:currently )?available in your (?:location|region|country)", re.IGNORECASE)
# Healthy start-up lines after "You are not logged into Antigravity." (agy-protocol.md §6.4).
_AUTH_OK = re.compile(r"Auth succeeded|authenticated via keyring|ChainedAuth: authenticated|silent auth succeeded",
                      re.IGNORECASE)
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
        if says("keyring_locked", line):
            # Final (the token cannot be read), and the CLI may hang after it (agy-protocol.md §7.3).
            return self._settle("keyring_locked", line, Status.LOGIN_REQUIRED)
        if says("signed_out", line):
            return self._settle("signed_out", line, Status.LOGIN_REQUIRED)
        if "silent auth failed, triggering OAuth" in line or says("oauth_prompt", line):
            if self.keyring_seen:
                return self._settle("keyring", line, Status.KEYRING_TIMEOUT)
            return self._settle("oauth_prompt", line, Status.LOGIN_REQUIRED)
        return None

    # A later, plainer line wins: agy prints "authentication required" and then its paste prompt, and the
    # readers of stderr, stdout and the log race; the sign-out must not be taken for a transient prompt.
    _RANK = {"oauth_prompt": 1, "keyring": 1, "signed_out": 2, "keyring_locked": 2, "verification": 3}

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


def _agy_status(o: Outcome) -> tuple[str, int | None]:
    """AGY_ERROR's status and code: its fields, else the short_error's `NAME (code N):` prefix."""
    err = _agy_error(o)
    status, code = err.get("status"), err.get("error_code")
    prefix = _SHORT_STATUS.match(str(err.get("short_error") or ""))
    if prefix:
        status = status if isinstance(status, str) and status else prefix[1]
        code = code if isinstance(code, int) else int(prefix[2])
    return (status if isinstance(status, str) else ""), (code if isinstance(code, int) else None)


def _agy_error_is_quota(o: Outcome) -> bool:
    status, code = _agy_status(o)
    return status == "RESOURCE_EXHAUSTED" or code == 429


def _network_failure(o: Outcome) -> bool:
    """A transport failure that ended the turn (exit 3 with AGY_ERROR, or its `error:` line)."""
    if _succeeded(o) or not _agy_error(o):
        return False
    return bool(_NETWORK_FAIL.search(str(_agy_error(o).get("short_error") or "") + "\n" + o.stderr))


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


def _keyring_locked(o: Outcome) -> bool:
    """agy could not read its token from a locked keyring (agy-protocol.md §7.3): the vendor's line, or a failed
    run with zero usage whose log says "You are not logged into Antigravity." with no auth success after it."""
    if o.stop_kind == "keyring_locked" or says("keyring_locked", _heard(o)):
        return True
    env = o.envelope or {}
    if _succeeded(o) or _status(o) != "ERROR" or any((env.get("usage") or {}).get(k) for k in ("input_tokens", "output_tokens")):
        return False
    at = o.log.rfind("You are not logged into Antigravity.")
    return at >= 0 and not _AUTH_OK.search(o.log[at:])


def _login_signal(o: Outcome) -> bool:
    """A sign-out line or an OAuth prompt beside a failed run (so a lone 'authentication failed' is a login)."""
    if o.stopped_for is Status.LOGIN_REQUIRED:
        return True
    if _agy_status(o)[0] == "UNAUTHENTICATED":
        return True
    text = _heard(o)
    return says("signed_out", text) or says("oauth_prompt", text) or (
        "triggering OAuth" in text and not says("keyring", text))


def _login_message(o: Outcome) -> str:
    if _keyring_locked(o):
        said = o.stop_line or _first_line("\n".join(ln for ln in _heard(o).splitlines() if says("keyring_locked", ln)))
        return ("agy could not read its sign-in token: the system keyring is locked"
                + (f" (agy said: {said[:160]})" if said else " (agy's run ended with no usage, and its log says it "
                   "was not logged in, with no successful sign-in after that)"))
    if _agy_status(o)[0] == "UNAUTHENTICATED" and not o.stopped_for:
        return f"agy's service refused the sign-in: {str(_agy_error(o).get('short_error') or 'UNAUTHENTICATED')[:200]}"
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
        if err.get("retryable") is True or _network_failure(o):
            return True
        return bool(_CAPACITY.search(_agy_status(o)[0] + " " + str(err.get("short_error", ""))))
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
    if _network_failure(o):
        return ("A network failure between agy and its service (agy marks it not retryable, yet it usually is): the "
                "relay ran the task once more when the workspace was still untouched. Call again in a minute; if it "
                "persists, check this machine's network and proxy settings (HTTPS_PROXY reaches agy).")
    return ("Transient: agy ≥ 1.2.1 already retried in-process (an older agy is retried once by the relay, "
            "workspace unchanged). Call again in a minute; if it persists, check agy's status page or switch model.")


def _terminated_hint(o: Outcome) -> str:
    eid = _ERROR_ID.search(o.stderr + "\n" + _error_text(o))
    ref = f" (agy's Error ID: {eid[1]})" if eid else ""
    return ("agy's agent stopped on an internal error" + ref + ". Check that agy's settings.json "
            "(~/.gemini/antigravity-cli/) is valid JSON and that `agy` works in a terminal; then call again.")


def _login_hint(o: Outcome) -> str:
    return KEYRING_LOCKED_HINT if _keyring_locked(o) else LOGIN_HINT


def _interrupted(o: Outcome) -> bool:
    """agy's turn ended "interrupted" (a SIGINT/SIGTERM; agy-protocol.md §7.2), or its result said CANCELED.
    Read only after the rules for the relay's own stops (timeout, early stop; cancel is handled by the caller)."""
    return (_error_text(o).strip() == "interrupted" or _status(o) == "CANCELED"
            or (not _succeeded(o) and bool(_INTERRUPTED.search(o.stderr))))


def _interrupted_message(o: Outcome) -> str:
    if _status(o) == "CANCELED":
        return "agy reported its turn CANCELED (the relay did not stop it)"
    return ("agy's turn was interrupted by a signal the relay did not send (an OOM killer, a shutdown, or a Ctrl-C "
            "on its process group); not retried")


def _interrupted_hint(o: Outcome) -> str:
    how = ("the conversation was kept: antigravity_continue(run_id, feedback) carries on from where it stopped "
           "(review the listed changes first)") if _conversation_of(o) else "call again with the whole task"
    return f"Nothing was retried; {how}. If it keeps happening, check the machine's memory and who signals agy."


def _conversation_of(o: Outcome) -> str | None:
    cid = (o.envelope or {}).get("conversation_id")
    return cid if isinstance(cid, str) and cid else o.conversation_id


def _api_error_hint(o: Outcome) -> str:
    status, code = _agy_status(o)
    if status == "NOT_FOUND" or code == 404:
        return ("agy's service did not find what the turn asked for: usually the model is not available to this "
                "account or in this location. Pick another model from `agy models` for the profile's model, then "
                "call again; `antigravity_get_result(detail='errors')` has agy's stderr.")
    if status == "PERMISSION_DENIED" or code == 403:
        return ("agy's service refused the request for this account (403). Run `agy` in a terminal to check the "
                "account and its access; `antigravity_get_result(detail='errors')` has agy's stderr.")
    return "Read the message; `antigravity_get_result(detail='errors')` has agy's stderr."


def _api_error_message(o: Outcome) -> str:
    err = _agy_error(o)
    status, code = _agy_status(o)
    short = str(err.get("short_error") or status)
    named = "" if short.startswith(status) or not status else f"{status}{f' ({code})' if code else ''}: "
    return f"agy API error: {named}{short}"[:300]


def _background_cut(o: Outcome) -> bool:
    return _succeeded(o) and bool(_BACKGROUND_CUT.search(o.stderr))


def _background_message(o: Outcome) -> str:
    n = _BACKGROUND_CUT.search(o.stderr)[1]
    return (f"agy ended the turn while {n} background task(s) still ran and terminated them at exit (agy said: "
            f"terminating {n} background task(s) on exit): the answer is the worker's narration, not the finished "
            "work")


def _cli_refused(o: Outcome) -> bool:
    """Exit 2 for something else than an unknown flag (agy-protocol.md §7.4): not an old agy."""
    return (o.exit_code == 2 and o.json_lines == 0 and not _UNKNOWN_FLAG.search(o.stderr)
            and "panic:" not in o.stderr)  # a Go panic exits 2 too: a crash, read by the stream rules below


def _cli_refused_message(o: Outcome) -> str:
    said = _first_line(o.stderr) or _first_line(o.log)
    what = "took a dash-leading word as its prompt" if _TOOK_PROMPT.search(o.stderr) else "refused its command line"
    return f"agy {what} (exit 2, not an unknown flag: this agy is not too old)" + (f": {said[:200]}" if said else "")


def refusals_flag(o: Outcome) -> str:
    """The packet's line for tool calls agy's own rules refused (agy-protocol.md §7.1): the turn went on and
    ended SUCCESS with denied_actions empty, but a reviewer needs to know what the worker was not let do."""
    more = o.refused_total - len(o.refusals)
    return (f"agy refused {o.refused_total} tool call(s) by your rules: " + "; ".join(o.refusals)
            + (f"; and {more} more" if more > 0 else ""))


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
    retry_once: Callable[[Outcome], bool] | None = None


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
    Rule(Status.LOGIN_REQUIRED, lambda o: o.stopped_for is Status.LOGIN_REQUIRED, _login_message, _login_hint),
    Rule(Status.KEYRING_TIMEOUT, lambda o: o.stopped_for is Status.KEYRING_TIMEOUT,
         lambda o: "agy timed out reaching the system keyring and fell back to a browser login; stopped at once",
         KEYRING_HINT),
    # The relay's own early stops of watch.py: a safe run agy reports as always-proceed, an unknown conversation.
    Rule(Status.CONFLICTING_OPTIONS, lambda o: o.stopped_for is Status.CONFLICTING_OPTIONS,
         lambda o: (f"the call asked for a safe run, but agy reported permission_mode \"{o.stop_line[:40]}\" "
                    "(tools auto-approved): the worker was stopped at its start, before any tool ran"),
         lambda o: (f"agy's own settings auto-approve tools (toolPermission \"{o.stop_line[:40]}\" in agy's "
                    "settings.json, ~/.gemini/antigravity-cli/), which a safe run must not inherit. Set it back to "
                    "request-review (or strict) for safe runs, or use a profile with execution_mode 'trusted' if agy "
                    "may run every tool unasked in this workspace."), lambda o: False),
    Rule(Status.NOT_FOUND, lambda o: o.stopped_for is Status.NOT_FOUND,
         lambda o: (f"agy does not know the conversation this continue named ({o.stop_line[:200]}): it would have run "
                    "the feedback in a new conversation without the earlier context; the worker was stopped before "
                    "it did anything"),
         lambda o: ("Start a fresh antigravity_execute with the whole task (the original task and this feedback "
                    "together): agy no longer has that conversation (its state under ~/.gemini/antigravity-cli/ was "
                    "cleared, or the run was made by another user or machine). The earlier run's changes stay as "
                    "they are."), lambda o: False),
    Rule(Status.EXECUTION_TIMEOUT, lambda o: o.relay_timeout,
         lambda o: "the worker did not finish within its timeout and was stopped (its whole process group killed)",
         "Split the task, or raise timeout_minutes in the profile; changes so far are listed."),
    Rule(Status.AGY_TOO_OLD, lambda o: o.exit_code == 2 and bool(_UNKNOWN_FLAG.search(o.stderr)),
         lambda o: f"agy rejected the flag {_UNKNOWN_FLAG.search(o.stderr)[1]}: this agy is too old",
         f"Update the Antigravity CLI (`agy update`) to {'.'.join(map(str, MIN_VERSION))} or newer."),
    Rule(Status.WORKER_ERROR, _cli_refused, _cli_refused_message,
         "The relay builds agy's command line itself, so this is a relay bug or a wrapper in front of agy: run "
         "`gravity-relay doctor`, and report it with antigravity_get_result(detail='errors').", lambda o: False),
    # agy's "interrupted" (a signal the relay did not send: its own timeout and stops are read above, its cancel
    # by the caller): CANCELLED, not retried; the conversation is kept and can be continued.
    Rule(Status.CANCELLED, _interrupted, _interrupted_message, _interrupted_hint, lambda o: False),
    # Quota from the envelope's error, AGY_ERROR and stderr of a failed run: a SUCCESS envelope wins (agy ≥ 1.2.1
    # retries per-minute 429s itself, so a successful run can carry the words in its log).
    Rule(Status.QUOTA_EXHAUSTED, lambda o: _agy_error_is_quota(o) or says("quota", _said(o)),
         lambda o: "agy's model quota is used up" + (f": {_first_line(_error_text(o) or o.stderr)}"
                                                      if (_error_text(o) or o.stderr).strip() else ""),
         "Wait for the reset shown in resets_in_seconds, or switch model/account; retrying sooner fails again.",
         lambda o: False),
    Rule(Status.LOGIN_REQUIRED, _keyring_locked, _login_message, KEYRING_LOCKED_HINT, lambda o: False),
    Rule(Status.KEYRING_TIMEOUT, lambda o: says("keyring", o.log + o.stderr) and (o.exit_code != 0 or _auth_failed(o))
         and not _succeeded(o),
         lambda o: "agy timed out reaching the system keyring and could not authenticate", KEYRING_HINT),
    Rule(Status.LOGIN_REQUIRED, _login_signal, _login_message, _login_hint),
    Rule(Status.AUTH_TIMEOUT, lambda o: _auth_failed(o) and not _succeeded(o),
         lambda o: f"agy could not authenticate: {_error_text(o) or _first_line(o.stderr)} (no sign-in prompt "
                   "beside it: the auth endpoint may have been unreachable)",
         "Usually transient (the relay retried once). If it persists, run `agy` in a terminal to check the login "
         "and the network."),
    Rule(Status.UPSTREAM_UNAVAILABLE, _upstream, _upstream_message, _upstream_hint, lambda o: True, _network_failure),
    Rule(Status.EXECUTION_TIMEOUT, lambda o: bool(_PRINT_TIMEOUT.search(o.stderr + "\n" + _error_text(o))),
         lambda o: "agy's own print timeout expired before the turn finished; any answer is partial",
         "Split the task, or raise timeout_minutes; changes so far are listed."),
    Rule(Status.PERMISSION_DENIED,
         lambda o: bool((o.envelope or {}).get("denied_actions")) or bool(_SOFT_DENY.search(o.stderr)),
         _denied_message, _denied_hint),
    Rule(Status.WORKER_ERROR, _bad_model, _model_message, _model_hint, lambda o: False),
    Rule(Status.WORKER_ERROR, lambda o: bool(_REGION.search(_said(o))),
         lambda o: f"agy is not available here: {_first_line(chr(10).join(ln for ln in _said(o).splitlines() if _REGION.search(ln)))}",
         "agy's service is not offered in this location for this account (a region eligibility check; `agy models` "
         "may still pass). Calling again will not help: run the relay where agy is available, or use another "
         "account or model.", lambda o: False),
    Rule(Status.WORKER_ERROR, lambda o: bool(_agy_error(o)), _api_error_message, _api_error_hint, _agy_retryable),
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
    Rule(Status.WORKER_ERROR, _background_cut, _background_message,
         "Continue the run asking the worker to run that command in the foreground and wait for its end (agy "
         "1.2.13+ waits for background tasks itself: `agy update`); the changes so far are listed.", lambda o: False),
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
                retry_once=bool(rule.retry_once and rule.retry_once(outcome)),
            )
    return Verdict(status=Status.SUCCESS, message="", hint="")
