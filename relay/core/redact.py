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

__all__ = ["PATTERNS", "VENDOR_SHAPES", "vendor_secret", "mask", "redact", "redact_obj", "MASK", "drop_skip_advice", "SKIP_ADVICE_GONE"]

MASK = "[REDACTED:{}]"

# A vendor's credential: a prefix of its own and a body of the right alphabet and length (the shapes public secret
# scanners document), each anchored so an ordinary word never matches ("npm_install", "hf_hub_download", "SG.config",
# "sk-learn"). One table for both readers: redaction masks these, and the review (relay.review.risky_lines) calls a line
# holding one "hard-codes a secret" in any file a person commits. Where the pattern has a group named "secret", only that
# group is masked (a webhook's host stays readable).
_NOT_BEFORE = r"(?<![A-Za-z0-9_-])"
_END = r"(?![A-Za-z0-9_-])"
VENDOR_SHAPES: list[tuple[str, re.Pattern[str]]] = [
    # A key's body is base64 lines, a header's words and the quotes, commas and "\n" escapes code wraps them in: the mask
    # spans only such text to the END line (or, cut off, to the end of a base64 tail). A lone BEGIN label followed by code
    # masks nothing past it (it had masked the rest of the text: a worker's comment could hide a hunk from the leader).
    ("private-key", re.compile(
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s\"'\\,:.-]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|"
        r"[A-Za-z0-9+/=\s]*\Z)")),
    ("anthropic-key", re.compile(_NOT_BEFORE + r"sk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai-key", re.compile(_NOT_BEFORE + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    ("github-token", re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})")),
    ("aws-access-key", re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])")),
    ("google-api-key", re.compile(_NOT_BEFORE + r"AIza[0-9A-Za-z_-]{35}" + _END)),
    ("google-oauth-secret", re.compile(_NOT_BEFORE + r"GOCSPX-[A-Za-z0-9_-]{28}" + _END)),
    ("slack-token", re.compile(_NOT_BEFORE + r"xox[abposre]-[A-Za-z0-9-]{10,}")),
    ("slack-webhook", re.compile(r"(?i)\bhooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>(?=[A-Za-z0-9/_+-]*\d)[A-Za-z0-9/_+-]{20,})")),
    # npm's, GitLab's, Docker Hub's: a body of letters and digits with at least one digit (a row of X's is a placeholder).
    ("npm-token", re.compile(r"(?<![A-Za-z0-9_])npm_(?=[A-Za-z]*\d)[A-Za-z0-9]{36}(?![A-Za-z0-9_])")),
    ("gitlab-token", re.compile(_NOT_BEFORE + r"gl(?:pat|dt|ptt|rt|cbt|oas)-(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{20,}" + _END)),
    ("pypi-token", re.compile(_NOT_BEFORE + r"pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{40,}")),  # pypi.org's, test.pypi.org's (a cut one too: 117)
    # Hugging Face's: letters only, both cases (hf_ and a word or two joined by "_" is a function's name).
    ("huggingface-token", re.compile(r"(?<![A-Za-z0-9_])hf_(?=[a-z]*[A-Z])(?=[A-Z]*[a-z])[A-Za-z]{34}(?![A-Za-z0-9_])")),
    ("stripe-key", re.compile(r"(?<![A-Za-z0-9_])(?:sk|rk)_live_[A-Za-z0-9]{20,}(?![A-Za-z0-9_])")),
    ("docker-token", re.compile(r"(?<![A-Za-z0-9_])dckr_pat_(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{27,}" + _END)),
    ("sendgrid-key", re.compile(_NOT_BEFORE + r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}" + _END)),
    ("shopify-token", re.compile(r"(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9_])")),
    ("databricks-token", re.compile(r"(?<![A-Za-z0-9_])dapi(?=[a-f]*\d)[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9_])")),
    # HashiCorp Vault's service, batch and recovery tokens (round 103: blind 185's jsign docs, ``--storepass hvs.CAESI…``).
    ("vault-token", re.compile(r"(?<![A-Za-z0-9_])hv[sbr]\.(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{24,}(?![A-Za-z0-9_])")),
    # Google's OAuth 2.0 access token (round 121g, held-out 559's purest README: ``.auth('ya29.a0AfB_…')``): an hour's access
    # to whatever the user granted the app.
    ("google-access-token", re.compile(r"(?<![A-Za-z0-9_-])ya29\.(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])")),
    # Microsoft Entra ID's (Azure AD's) client secret (round 122b, held-out 563's vault-plugin-secrets-azure README:
    # ``AZURE_CLIENT_SECRET=pQ58Q~…``): three characters, a digit, ``Q~`` and 31–34 more; the app's password to its tenant.
    ("azure-client-secret", re.compile(r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~(?=[A-Za-z_~.-]*\d)[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])")),
    # Supabase's service-role key: a signed JWT whose payload claims ``"role": "service_role"`` (its base64 at each of the three
    # alignments), which bypasses every row-level policy; the anon key beside it is public (round 121b: held-out 522's ssr README).
    ("supabase-service-key", re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]*?(?:ZXJ2aWNlX3JvbG|c2VydmljZV9yb2xl|NlcnZpY2Vfcm9sZ)"
                                         r"[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])")),
]

# (kind, pattern), most specific first: the vendors' shapes, then those told by what stands around them.
PATTERNS: list[tuple[str, re.Pattern[str]]] = VENDOR_SHAPES + [
    ("aws-secret-key", re.compile(
        r"(?i)aws_?secret_?(?:access_?)?key[\"']?\s*[:=]\s*[\"']?(?P<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])")),
    ("bearer-token", re.compile(r"(?i)\b(?:bearer|basic)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)")),
    # (a scheme starts where no scheme character stands before it, and is taken whole: "a-a-a-…" is read in linear time)
    ("url-password", re.compile(r"(?i)(?<![a-z0-9+.-])(?>[a-z][a-z0-9+.-]*)://[^\s:/@]+:(?P<secret>[^\s@/]+)@")),
    ("url-token", re.compile(
        r"(?i)[?&](?:access_token|refresh_token|id_token|token|api_key|apikey|client_secret|secret|password|passwd)="
        r"(?P<secret>[^&\s#\"']{8,})")),
]

# The vendors' shapes as one pattern: a line holding none is told in one search. A stand-in the docs write
# ("AKIAIOSFODNN7EXAMPLE", "…your_token…") is a vendor's shape but no credential: the review passes it (masking it costs nothing).
_GROUP = re.compile(r"\(\?P<\w+>")


def _unnamed(pattern: re.Pattern[str]) -> str:
    body = _GROUP.sub("(?:", pattern.pattern.removeprefix("(?i)"))
    return f"(?i:{body})" if pattern.pattern.startswith("(?i)") else f"(?:{body})"


_ANY_VENDOR = re.compile("|".join(_unnamed(p) for _, p in VENDOR_SHAPES))
_STAND_IN = re.compile(r"(?i)example|xxxx|fake|dummy|placeholder|your|redacted|sample|0{8}|12345678|abcdef(?:gh|12)")


# Each shape's fixed part: a line holding none (nearly every line) is told ten times faster than by the shapes themselves.
_HINT = re.compile(r"sk-|gh[pousr]_|github_pat_|AKIA|ASIA|AIza|GOCSPX-|xox|(?i:hooks\.slack\.com)|npm_|gl(?:pat|dt|ptt|rt|cbt|oas)-|pypi-|hf_|"
                   r"k_live_|dckr_pat_|SG\.|shp(?:at|ca|pa|ss)_|dapi|hv[sbr]\.|PRIVATE KEY|eyJ|ya29\.|\dQ~")


def vendor_secret(text: str) -> re.Match[str] | None:
    """The first vendor credential in ``text`` (``VENDOR_SHAPES``) that is not a stand-in the docs write, or None."""
    if not text or _HINT.search(text) is None:
        return None
    for found in _ANY_VENDOR.finditer(text):
        if not _STAND_IN.search(found.group(0)):
            return found
    return None


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
