"""What agy said about an attempt, read the same way by every failure reader: its result envelope (status,
error, the structured report), its ``AGY_ERROR:`` line, stderr and its log.

A ``SUCCESS`` envelope wins over words in stderr or the log (agy ≥ 1.2.1 retries 429s and 503s in-process,
so a run that succeeded can log them): ``said_of`` and ``heard_of`` are empty for a run that succeeded.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from relay.agy.outcome import Outcome
from relay.core.contracts import WorkerReport

__all__ = [
    "error_text", "envelope_status", "succeeded", "said_of", "heard_of", "agy_error", "agy_status",
    "agy_error_is_quota", "first_line", "report_of",
]

_AGY_ERROR = re.compile(r"AGY_ERROR: (\{.*\})")
# 1.2.9/1.3.1 AGY_ERROR carries only short_error: its prefix names the status (agy-protocol.md §7.3).
_SHORT_STATUS = re.compile(r"^\s*([A-Z][A-Z_]+) \(code (\d+)\):")


def error_text(o: Outcome) -> str:
    env = o.envelope or (o.result_raw if isinstance(o.result_raw, dict) else {})
    err = env.get("error") if isinstance(env, dict) else None
    return err if isinstance(err, str) else ""


def envelope_status(o: Outcome) -> str:
    return (o.envelope or {}).get("status", "")


def succeeded(o: Outcome) -> bool:
    """agy's envelope says SUCCESS: that wins over words in stderr and the log."""
    return envelope_status(o) == "SUCCESS"


def said_of(o: Outcome) -> str:
    """What agy said about a failed run: the envelope's error and stderr (never the log on its own)."""
    return "" if succeeded(o) else error_text(o) + "\n" + o.stderr


def heard_of(o: Outcome) -> str:
    """Everything agy said about a failed run, its log included."""
    return "" if succeeded(o) else error_text(o) + "\n" + o.stderr + "\n" + o.log


def agy_error(o: Outcome) -> dict[str, Any]:
    match = _AGY_ERROR.search(o.stderr)
    if not match:
        return {}
    try:
        value = msgspec.json.decode(match[1])
    except msgspec.DecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def agy_status(o: Outcome) -> tuple[str, int | None]:
    """AGY_ERROR's status and code: its fields, else the short_error's `NAME (code N):` prefix."""
    err = agy_error(o)
    status, code = err.get("status"), err.get("error_code")
    prefix = _SHORT_STATUS.match(str(err.get("short_error") or ""))
    if prefix:
        status = status if isinstance(status, str) and status else prefix[1]
        code = code if isinstance(code, int) else int(prefix[2])
    return (status if isinstance(status, str) else ""), (code if isinstance(code, int) else None)


def agy_error_is_quota(o: Outcome) -> bool:
    status, code = agy_status(o)
    return status == "RESOURCE_EXHAUSTED" or code == 429


def report_of(o: Outcome) -> WorkerReport | None:
    """The worker's structured report: agy's ``structured_output``, if it has the shape the relay asked for.

    Only there (agy-protocol.md §8.6 item 11): agy checks it against the --json-schema, while ``response`` is the
    worker's own text (1.2.11/1.2.12 put keys there the schema forbids, §8.1). A report the worker writes in its
    answer, fenced JSON or bare, is its chatter: taken for the report it would say what the worker likes (tests that
    never ran, files it did not touch) where the packet shows the report. None: INVALID_REPORT, the relay's own look.
    """
    candidate = (o.envelope or {}).get("structured_output")
    if not isinstance(candidate, dict):
        return None
    try:
        return msgspec.convert(candidate, WorkerReport)
    except msgspec.ValidationError:
        return None


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""
