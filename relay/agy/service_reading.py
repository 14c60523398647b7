"""Failures of agy's service: quota (and when it resets), an upstream outage or a network failure (and who
retries it), an API error agy reported, an agent stopped on an internal error."""

from __future__ import annotations

import re

from relay.agy.agy_said import (agy_error, agy_error_is_quota, agy_status, error_text, first_line, said_of,
                                 succeeded)
from relay.agy.outcome import TRANSIENT, Outcome, Verdict
from relay.core.contracts import Status

__all__ = [
    "IN_PROCESS_RETRY_SINCE", "relay_retries", "parse_reset", "TERMINATED", "network_failure", "upstream",
    "upstream_message", "upstream_hint", "terminated_hint", "api_error_message", "api_error_hint", "agy_retryable",
    "retry_once",
]

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


_RESETS = re.compile(r"Resets in ((?:\d+h)?(?:\d+m)?(?:\d+(?:\.\d+)?s)?)")
# Transport failures agy ends a turn on with retryable:false (exit 3): the flag cannot be trusted (§7.3).
_NETWORK_FAIL = re.compile(r"Bad Gateway|wsasend|connection reset|connection refused|broken pipe|i/o timeout|"
                           r"TLS handshake timeout|no such host|network is unreachable|unexpected EOF", re.IGNORECASE)
_NETWORK = re.compile(r"network issue connecting to the server", re.IGNORECASE)
TERMINATED = re.compile(r"Agent execution terminated due to error")
_CAPACITY = re.compile(r"UNAVAILABLE|\(code 50[234]\)|No capacity available|overloaded", re.IGNORECASE)
_ERROR_ID = re.compile(r"Error ID:\s*(\S+)")


def parse_reset(text: str) -> int | None:
    """'Resets in 167h51m3s' -> seconds."""
    match = _RESETS.search(text or "")
    if not match or not match[1]:
        return None
    total = 0.0
    for amount, unit in re.findall(r"(\d+(?:\.\d+)?)([hms])", match[1]):
        total += float(amount) * {"h": 3600, "m": 60, "s": 1}[unit]
    return int(total)


def network_failure(o: Outcome) -> bool:
    """A transport failure that ended the turn (exit 3 with AGY_ERROR, or its `error:` line)."""
    if succeeded(o) or not agy_error(o):
        return False
    return bool(_NETWORK_FAIL.search(str(agy_error(o).get("short_error") or "") + "\n" + o.stderr))


def no_capacity(o: Outcome) -> bool:
    """The model had no capacity (503) and the turn ended before its time ran out.

    agy retries a 503 in-process for a short while, yet 1.3.1 still ended 2 of 5 runs of one model in an hour on
    "No capacity available" while another model ran 5 of 5 (agy-protocol.md §8.3): capacity comes back within
    minutes, so the relay tries once more itself, workspace untouched (§8.6 item 10). Not after agy's print
    timeout: agy then retried for all the time the turn had, and another try would wait as long again."""
    if succeeded(o) or agy_error_is_quota(o) or "print timeout" in o.stderr:
        return False
    said = error_text(o) + "\n" + str(agy_error(o).get("short_error") or "") + "\n" + said_of(o) + "\n" + o.log
    return bool(re.search(r"No capacity available|UNAVAILABLE \(code 503\)", said))


def retry_once(o: Outcome) -> bool:
    """Failures the relay runs once more whatever agy's version: a network failure agy gave up on, no capacity."""
    return network_failure(o) or no_capacity(o)


def upstream(o: Outcome) -> bool:
    """A transient upstream failure agy reported: 503/capacity/network, or agy's own retryable flag."""
    if succeeded(o):
        return False
    err = agy_error(o)
    if err and not agy_error_is_quota(o):
        if err.get("retryable") is True or network_failure(o):
            return True
        return bool(_CAPACITY.search(agy_status(o)[0] + " " + str(err.get("short_error", ""))))
    said = said_of(o)
    if _NETWORK.search(said):
        return True
    if TERMINATED.search(said):
        # "Agent execution terminated" wraps many causes; only a capacity one (in stderr or the log) is transient.
        return bool(_CAPACITY.search(said + "\n" + o.log))
    return bool(re.search(r"UNAVAILABLE \(code 503\)|No capacity available", error_text(o)))


def upstream_message(o: Outcome) -> str:
    err = agy_error(o)
    if err:
        detail = str(err.get("short_error") or err.get("status"))
    else:
        said = said_of(o)
        cause = next((ln for ln in (said + "\n" + o.log).splitlines() if _CAPACITY.search(ln)), "")
        detail = first_line(error_text(o)) or first_line(o.stderr)
        if cause and cause.strip()[:200] not in detail:
            detail += f" (cause: {cause.strip()[:200]})"
    return f"agy's service was unavailable or unreachable: {detail[:300]}"


def upstream_hint(o: Outcome) -> str:
    if network_failure(o):
        return ("A network failure between agy and its service (agy marks it not retryable, yet it usually is): the "
                "relay ran the task once more when the workspace was still untouched. Call again in a minute; if it "
                "persists, check this machine's network and proxy settings (HTTPS_PROXY reaches agy).")
    if no_capacity(o):
        return ("The model had no capacity: agy retried in-process and the relay ran the task once more when the "
                "workspace was still untouched. Call again in a few minutes, or use a profile with another model "
                "(`agy models` lists them); capacity is per model, not your quota.")
    return ("Transient: agy ≥ 1.2.1 already retried in-process (an older agy is retried once by the relay, "
            "workspace unchanged). Call again in a minute; if it persists, check agy's status page or switch model.")


def terminated_hint(o: Outcome) -> str:
    eid = _ERROR_ID.search(o.stderr + "\n" + error_text(o))
    ref = f" (agy's Error ID: {eid[1]})" if eid else ""
    return ("agy's agent stopped on an internal error" + ref + ". Check that agy's settings.json "
            "(~/.gemini/antigravity-cli/) is valid JSON and that `agy` works in a terminal; then call again.")


def api_error_hint(o: Outcome) -> str:
    status, code = agy_status(o)
    if status == "NOT_FOUND" or code == 404:
        return ("agy's service did not find what the turn asked for: usually the model is not available to this "
                "account or in this location. Pick another model from `agy models` for the profile's model, then "
                "call again; `antigravity_get_result(detail='errors')` has agy's stderr.")
    if status == "PERMISSION_DENIED" or code == 403:
        return ("agy's service refused the request for this account (403). Run `agy` in a terminal to check the "
                "account and its access; `antigravity_get_result(detail='errors')` has agy's stderr.")
    return "Read the message; `antigravity_get_result(detail='errors')` has agy's stderr."


def api_error_message(o: Outcome) -> str:
    err = agy_error(o)
    status, code = agy_status(o)
    short = str(err.get("short_error") or status)
    named = "" if short.startswith(status) or not status else f"{status}{f' ({code})' if code else ''}: "
    return f"agy API error: {named}{short}"[:300]


def agy_retryable(o: Outcome) -> bool | None:
    """agy's own word (AGY_ERROR.retryable), except for quota: it says retryable even for week-long resets."""
    value = agy_error(o).get("retryable")
    return value if isinstance(value, bool) and not agy_error_is_quota(o) else None
