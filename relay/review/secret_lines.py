"""The hard-coded secret's own shapes, for relay.review.risky_lines' "hard-codes a secret" row: an assignment of a
secret-named variable in a shell script, a dotenv or Makefile, a Dockerfile or YAML (``NPM_TOKEN=…``, ``export API_KEY="…"``),
an XML property holding a literal, and how the row's reason quotes such a line with the secret masked. A vendor's credential
shape (``npm_…``, ``glpat-…``, ``AKIA…``) is relay.core.redact's table: redaction and the review read the same one."""

from __future__ import annotations

import base64
import binascii
import re

from relay.core.redact import mask, vendor_secret

__all__ = ["ENV_SECRET", "SECRET", "TAG_SECRET", "XML_SECRET", "encodes_text", "masked", "said"]

# An XML property holding a secret literal: masked in the reason as classic_cells masks a properties file's (round 23).
XML_SECRET = (r"<(?P<tag>[\w.:-]*(?:api_?key|passw(?:or)?d|passphrase|secret|access_?key|private_?key|auth_?token|access_?token)[\w.-]*)>\s*"
              r"(?P<xmlval>(?=[^<\s]*\d)(?=[^<\s]*[A-Za-z])[^<\s$%{}()@]{8,})\s*</(?P=tag)>|"
              # …or as a named entry's value attribute (Spring's and Ant's <property name=… value=…>, .NET's <add key=… value=…>).
              r"<(?:property|entry|add|setting|param)\s+(?:name|key)\s*=\s*\"[\w.:-]*(?:api_?key|passw(?:or)?d|passphrase|secret|access_?key|"
              r"private_?key|auth_?token|access_?token)[\w.-]*\"\s+value\s*=\s*\"(?P<xmlattr>(?=[^\"\s]*\d)(?=[^\"\s]*[A-Za-z])[^\"\s$%{}()@]{8,})\"")
XML_SECRET_RE = re.compile(XML_SECRET, re.I)

# A secret-named variable (TOKEN, SECRET, PASSWORD, API_KEY, PRIVATE_KEY, an AUTH part; not a name for where it lives or
# how long: _FILE, _URL, _TTL…) set to a literal: not a reference ($VAR, ${{ secrets.X }}, %VAR%, $(cmd)), not empty, not a
# URL or path; letters and digits both (``POSTGRES_PASSWORD: postgres`` in a CI service is a throwaway, a number a setting).
ENV_SECRET = (r"(?-i:^\s*(?:-\s+)?(?:export\s+|ENV\s+|ARG\s+|setx?\s+|declare\s+(?:-x\s+)?|readonly\s+)?"
              # (the name taken whole, once: read in linear time whatever the line, tests/test_vendor_secrets.py)
              r"(?=[A-Z0-9_]*?(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|(?<![A-Z0-9])AUTH(?![A-Z0-9])))(?P<envname>(?>[A-Z0-9_]+))"
              r"(?<!_FILE)(?<!_PATH)(?<!_URL)(?<!_URI)(?<!_NAME)(?<!_TYPE)(?<!_TTL)(?<!_ID)(?<!_DIR)(?<!_HOST)(?<!_PORT)(?<!_USER)(?<!_MODE)"
              r"(?<!_ENV)(?<!_VAR)(?<!_HEADER)(?<!_LENGTH)(?<!_EXPIRY)(?<!_ENABLED)(?<!_METHOD)(?<!_SCOPE)(?<!_SCOPES)(?<!_ENDPOINT)(?<!_PROVIDER)"
              r"\s*(?:[?:+]?=\s*|:\s+|\s+(?=['\"]))['\"]?(?P<envval>(?![./~])(?=[^\s'\"\d]*\d)(?=[^\s'\"A-Za-z]*[A-Za-z])(?![^\s'\"]*://)"
              r"(?>[^\s'\"$`%{}()<>#;,]{8,}))['\"]?\s*(?:#.*)?$|"
              # …or set for one command, inside a line (round 109, blind 218: webcrypto-core's package.json script
              # ``nyc report … | COVERALLS_REPO_TOKEN=hX9k… coveralls``): a long literal of letters and digits, a command after it.
              r"(?:^|(?<=[\s|;&\"'(]))(?P<inname>[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|API_?KEY|PRIVATE_KEY))="
              r"(?P<inval>(?=[^\s'\"]*\d)(?=[^\s'\"]*[a-z])(?=[^\s'\"]*[A-Z])[A-Za-z0-9+/_\-]{16,}={0,2})(?=\s+[\w./-]))")

# A struct tag's default for a secret-named variable (round 81: blind 114's go-envconfig README, ``Password string
# `env:"REDIS_PASSWORD, default=r3dis-Pr0d-2024!"```; caarlos0/env's ``envDefault:"…"``, envconfig's ``default:"…"`` on
# a secret-named field): the literal applies whenever the variable is unset. Letters and digits both, as ENV_SECRET's.
TAG_SECRET = (r"\benv\s*:\s*\"\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY)\w*\s*,[^\"]*?\bdefault=(?P<tagval>(?=[^\s\",]*\d)"
              r"(?=[^\s\",]*[A-Za-z])[^\s\",$]{8,})|"
              r"\b\w*(?:password|passwd|secret|token|api_?key)\w*\s+\*?string\s+`[^`]*?\b(?:envDefault|default)\s*:\s*\""
              r"(?P<tagdef>(?=[^\s\"]*\d)(?=[^\s\"]*[A-Za-z])[^\s\"$]{8,})\"")
TAG_SECRET_RE = re.compile(TAG_SECRET, re.I)

SECRET = "hard-codes a secret"
_NEAR = 44  # a quote's window (60, less its two "…") holds the finding's start and the whole mask within this
ENV_SECRET_RE = re.compile(ENV_SECRET)


_FLAG_SECRET_RE = re.compile(r"(?P<name>--(?:[\w-]*-)?(?:token|password|api-?key|secret))[= ]+['\"]?(?P<val>[A-Za-z0-9_-]{16,})")


def masked(code: str, at: tuple[int, int | None]) -> tuple[str, tuple[int, int | None]]:
    """The line with its secret masked, and where the quote centres: a vendor's credential as relay.core.redact masks it
    (before the quote's window is cut, so no part of a long token is left), an assignment's or an XML property's literal
    cut to its first characters (the reason never shows a credential whole)."""
    shown = mask(code)
    if shown != code:
        start = shown.find("[REDACTED:")
        if start < 0:
            return shown, at
        end = shown.index("]", start) + 1
        # The quote starts where the finding does (a setting's name, a URL's scheme) when the mask fits beside it.
        return shown, ((at[0], end) if at[0] <= start and end - at[0] <= _NEAR else (start, end))
    if (m := _FLAG_SECRET_RE.search(code)) is not None:  # a command's credential flag (relay.review.classic_lines, round 117)
        return code[:m.start("val") + 3] + "…" + code[m.end("val"):], (m.start("name"), None)
    if (m := ENV_SECRET_RE.search(code)) is not None:
        val, name = ("envval", "envname") if m.group("envval") else ("inval", "inname")
        return code[:m.start(val) + 3] + "…" + code[m.end(val):], (m.start(name), None)
    if (m := TAG_SECRET_RE.search(code)) is not None:
        group = "tagval" if m.group("tagval") else "tagdef"
        return code[:m.start(group) + 3] + "…" + code[m.end(group):], at
    m = XML_SECRET_RE.search(code)
    group = "xmlval" if m is not None and m.group("xmlval") else "xmlattr"
    if m is not None:
        return code[:m.start(group) + 6] + "…" + code[m.end(group):], at
    # An assignment's literal (``api_key = "c2st…"``, ``token: "AXaT…"``): its first characters only (round 72: the reason
    # had quoted a source file's key whole, while the diff view masked it).
    for lit in _LITERAL_RE.finditer(code, at[0]):
        if any(c.isdigit() for c in lit.group("lit")) and any(c.isalpha() for c in lit.group("lit")):
            return code[:lit.start("lit") + 6] + "…" + code[lit.end("lit"):], at
    return code, at


_LITERAL_RE = re.compile(r"['\"](?P<lit>[^'\"\s]{8,})['\"]")  # round 81: a password with a "!" had been quoted whole


def said(line: str) -> bool:
    """Whether the secret row names ``line`` by a shape of its own (a vendor's credential, a secret-named variable's
    literal): another reader of settings leaves it to the row (one reason for one line)."""
    return vendor_secret(line) is not None or ENV_SECRET_RE.search(line.strip()) is not None


def encodes_text(value: str) -> bool:
    """Whether a secret-shaped literal is an example's stand-in written in hex, base32 or base64: a run of digits, one word,
    a greeting (blind 90's otplib docs: ``secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY"`` is base32 for "12345678901234567890",
    ``"48656c6c6f"`` hex for "Hello"). A key's bytes are random; a password or ``user:pass`` encoded stays a secret."""
    if _SEQUENCE_RE.search(value):
        return True  # a run of the alphabet or the digits (filelock's docs: ``crashed_token = "0123456789abcdef…"``)
    for decode in (_from_hex, _from_base32, _from_base64):
        try:
            raw = decode(value)
        except (ValueError, binascii.Error):
            continue
        if all(32 <= b < 127 for b in raw) and _STAND_IN_RE.fullmatch(raw.decode("ascii")):
            return True
    return False


_SEQUENCE_RE = re.compile(r"(?i)0123456|123456789|abcdefgh|ABCDEF0123")
_STAND_IN_RE = re.compile(r"(?i)\d{4,}|[a-z]{4,12}[!.]?|(?:hello|example|sample|dummy|placeholder)(?: \w+)?[!.]?")


def _from_hex(value: str) -> bytes:
    return bytes.fromhex(value)


def _from_base32(value: str) -> bytes:
    if not re.fullmatch(r"[A-Z2-7]{16,}=*", value):
        raise ValueError(value)
    return base64.b32decode(value + "=" * (-len(value.rstrip("=")) % 8 if "=" not in value else 0))


def _from_base64(value: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9+/]{16,}={0,2}", value):
        raise ValueError(value)
    return base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
