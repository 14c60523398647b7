"""Sign-in failures: agy's auth signals (one table, read by the worker's ``AuthWatch``, the classifier and the
``agy models`` probe), and what each says to the leader.

What agy's users report (agy-protocol.md §6) shapes two habits here: the sign-in lines are matched
case-insensitively, in every wording agy has used, from the envelope, stderr, non-JSON stdout and the log;
the start-up log line "You are not logged into Antigravity." is never, on its own, a failure (it precedes
"Auth succeeded" on healthy runs).
"""

from __future__ import annotations

import re

from relay.agy.agy_said import agy_error, agy_status, envelope_status, error_text, first_line, heard_of, succeeded
from relay.agy.outcome import Outcome, Verdict
from relay.core.contracts import Status

__all__ = [
    "AUTH_SIGNALS", "says", "LOGIN_HINT", "KEYRING_HINT", "KEYRING_LOCKED_HINT", "verification_hint", "AuthWatch",
    "transient_oauth", "auth_failed", "keyring_locked", "login_signal", "login_message", "login_hint",
    "verification_text",
]

# agy's auth signals, one table: the worker's AuthWatch, the classifier and the `agy models` probe (auth.py)
# all read them here, so a new wording is taught once.
AUTH_SIGNALS: dict[str, re.Pattern[str]] = {
    # Signed out, today's wording (≥1.0.11, also from `agy models`) and its earlier ending; "Please sign in"
    # comes from `agy models` and from 1.2.x envelopes. Case-insensitive: the probe once missed it.
    # 1.3.3: "Authentication expired. Please log back in." (stderr or the result's error, agy-protocol.md §8.3),
    # matched at a line start (agy's `error: ` echo allowed), so a sentence quoting it mid-line settles nothing.
    "signed_out": re.compile(r"authentication required\. run .?agy.? to log in|please sign in|"
                             r"^[ \t]*(?:error:[ \t]*)?authentication expired\. please log back in",
                             re.IGNORECASE | re.MULTILINE),
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
# Healthy start-up lines after "You are not logged into Antigravity." (agy-protocol.md §6.4).
_AUTH_OK = re.compile(r"Auth succeeded|authenticated via keyring|ChainedAuth: authenticated|silent auth succeeded",
                      re.IGNORECASE)


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


def auth_failed(o: Outcome) -> bool:
    return "authentication failed" in error_text(o) or bool(_AUTH_TIMED_OUT.search(o.stderr + o.log))


def keyring_locked(o: Outcome) -> bool:
    """agy could not read its token from a locked keyring (agy-protocol.md §7.3): the vendor's line, or a failed
    run with zero usage whose log says "You are not logged into Antigravity." with no auth success after it."""
    if o.stop_kind == "keyring_locked" or says("keyring_locked", heard_of(o)):
        return True
    env = o.envelope or {}
    if succeeded(o) or envelope_status(o) != "ERROR" or any((env.get("usage") or {}).get(k) for k in ("input_tokens", "output_tokens")):
        return False
    at = o.log.rfind("You are not logged into Antigravity.")
    return at >= 0 and not _AUTH_OK.search(o.log[at:])


def login_signal(o: Outcome) -> bool:
    """A sign-out line or an OAuth prompt beside a failed run (so a lone 'authentication failed' is a login)."""
    if o.stopped_for is Status.LOGIN_REQUIRED:
        return True
    if agy_status(o)[0] == "UNAUTHENTICATED":
        return True
    text = heard_of(o)
    return says("signed_out", text) or says("oauth_prompt", text) or (
        "triggering OAuth" in text and not says("keyring", text))


def login_message(o: Outcome) -> str:
    if keyring_locked(o):
        said = o.stop_line or first_line("\n".join(ln for ln in heard_of(o).splitlines() if says("keyring_locked", ln)))
        return ("agy could not read its sign-in token: the system keyring is locked"
                + (f" (agy said: {said[:160]})" if said else " (agy's run ended with no usage, and its log says it "
                   "was not logged in, with no successful sign-in after that)"))
    if agy_status(o)[0] == "UNAUTHENTICATED" and not o.stopped_for:
        return f"agy's service refused the sign-in: {str(agy_error(o).get('short_error') or 'UNAUTHENTICATED')[:200]}"
    line = o.stop_line or first_line("\n".join(
        ln for ln in heard_of(o).splitlines() if says("signed_out", ln) or says("oauth_prompt", ln)))
    if o.stop_kind == "oauth_prompt" or (not o.stop_kind and says("oauth_prompt", line or "")):
        what = "agy asked for an interactive browser login"
    elif "expired" in (line or "").lower():
        what = "agy's sign-in has expired"
    else:
        what = "agy is signed out"
    stopped = "; the worker was stopped at once" if o.stopped_for else ""
    return f"{what}{stopped}" + (f" (agy said: {line[:160]})" if line else "")


def verification_text(o: Outcome) -> str:
    # The whole texts first: the stop line is cut at 300 characters, and agy's log line carrying the
    # validation URL is longer (the URL came out cut at "continue=https:" when the log won the race).
    return "\n".join((error_text(o), o.stderr, o.log, o.stop_line))


def login_hint(o: Outcome) -> str:
    return KEYRING_LOCKED_HINT if keyring_locked(o) else LOGIN_HINT
