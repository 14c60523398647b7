"""Mask well-known credential shapes in what the leader sees.

The worker's output can carry secrets it read (a ``.env``, a config file, a command's
output). The leader gets a review packet and ``get_result`` views, and may forward them to a
model provider: the shapes below are replaced there by ``[REDACTED:<kind>]``. The run record
on disk keeps the raw text (the data dir is 0700, records 0600), so an operator can still see
what happened; ``gravity-relay runs show`` prints the same masked view as the MCP tool.

One table, most specific first. Each pattern names what it masks; a pattern with a group
keeps the text before the group (a header name, a URL's user) and masks only the secret.
Shapes are deliberately exact (prefix plus a minimum length of the right alphabet) so that
ordinary words ("sk-learn", "task-runner", "AKIA" alone) pass untouched.

One sentence of agy's is dropped the same way: its soft-deny advice to "re-run with
`--dangerously-skip-permissions`" (agy-protocol.md §8.3, §8.6 item 8). A leader's model reads the packet and
the views and would follow it; the record keeps it, and the relay's hints name its own ways instead.
"""

from __future__ import annotations

import re
from typing import Any

from relay.core.shown import harmless

__all__ = ["PATTERNS", "mask", "redact", "redact_obj", "MASK", "drop_skip_advice", "SKIP_ADVICE_GONE"]

MASK = "[REDACTED:{}]"

# (kind, pattern). Where the pattern has a group named "secret", only that group is masked.
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("private-key", re.compile(
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*\Z)")),
    ("anthropic-key", re.compile(r"(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai-key", re.compile(r"(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    ("github-token", re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})")),
    ("aws-access-key", re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])")),
    ("aws-secret-key", re.compile(
        r"(?i)aws_?secret_?(?:access_?)?key[\"']?\s*[:=]\s*[\"']?(?P<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])")),
    ("google-api-key", re.compile(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])")),
    ("slack-token", re.compile(r"(?<![A-Za-z0-9_-])xox[abposre]-[A-Za-z0-9-]{10,}")),
    ("bearer-token", re.compile(r"(?i)\b(?:bearer|basic)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)")),
    ("url-password", re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^\s:/@]+:(?P<secret>[^\s@/]+)@")),
    ("url-token", re.compile(
        r"(?i)[?&](?:access_token|refresh_token|id_token|token|api_key|apikey|client_secret|secret|password|passwd)="
        r"(?P<secret>[^&\s#\"']{8,})")),
]


def _masker(kind: str):
    mask = MASK.format(kind)

    def replace(match: re.Match[str]) -> str:
        if "secret" in match.re.groupindex and match.group("secret") is not None:
            start, end = match.span("secret")
            whole = match.group(0)
            base = match.start()
            return whole[: start - base] + mask + whole[end - base :]
        return mask

    return replace


_REPLACERS = [(pattern, _masker(kind)) for kind, pattern in PATTERNS]


_SKIP_ADVICE = re.compile(r"[^.\n]*\b(?:re-?run|run again|retry)\b[^.\n]*--dangerously-skip-permissions[^.\n]*\.?",
                          re.IGNORECASE)
SKIP_ADVICE_GONE = "[agy's advice to auto-approve every tool removed]"


def drop_skip_advice(text: str) -> str:
    """``text`` without agy's sentence telling to re-run with ``--dangerously-skip-permissions``."""
    if not text or "dangerously-skip-permissions" not in text:
        return text
    return _SKIP_ADVICE.sub(" " + SKIP_ADVICE_GONE, text)


def mask(text: str) -> str:
    """``text`` with every credential shape in ``PATTERNS`` masked (and agy's auto-approve advice dropped), not yet
    shown: for a text that is shown once later (``one_line``, a row ``redact_obj`` shows whole)."""
    if not text:
        return text
    for pattern, replace in _REPLACERS:
        text = pattern.sub(replace, text)
    return drop_skip_advice(text)


def redact(text: str) -> str:
    """``mask``, and, as it is made for a reader, each character that drives a terminal or hides itself shown escaped
    (relay.core.shown). Once: shown again, a backslash the text holds would be doubled again."""
    return harmless(mask(text)) if text else text


def redact_obj(value: Any) -> Any:
    """The same for every string inside a JSON-like value (dict keys are left alone)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: redact_obj(item) for key, item in value.items()}
    if isinstance(value, list):
        return [redact_obj(item) for item in value]
    if isinstance(value, tuple):
        return tuple(redact_obj(item) for item in value)
    return value
