"""The turns worth a look that a check took inside a file of many changed lines (issue 36, round 29; the high ones are
relay.review.turned_lines', whose pairing these share): the turn may be the safe one in some code, so the reviewer judges,
but the file is never low and the line is quoted first.

- a limit counted in characters where it counted bytes (``bytesize`` → ``length``, ``len(s.encode())`` → ``len(s)``), or
  compared on a value's characters where the same file measures that value in bytes;
- a failure condition given a conjunct, so it fails less (``if expired {`` → ``if expired && other {``), a failure check
  run only when another value is zero or absent, or a presence gate moved to another value (``req.state != null &&`` →
  ``resp.state != null &&``), a mismatch check skipped when the value it checks is absent;
- an identifier printed into SQL unquoted where the file quotes the others it prints;
- a refusal turned into a skip (``return null`` → ``continue`` in a decoder): invalid input is ignored, not refused;
- an escaping call told to escape fewer characters (relay.review.turn_consequences' reading, a note there).

Quiet: the safe way (``length`` → ``bytesize``, a conjunct dropped), a byte check dropped whole (another reader's), a
conversion that is no measure (``payload.encode()``), tests (the row's scope).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from relay.review.line_shapes import clipped, squeezed
from relay.review.turn_consequences import escapes_fewer
from relay.review.turned_lines import COMPARES, CONDITION, changed, code_lines, fc, pairs_from_old, said

if TYPE_CHECKING:
    from relay.review.facts import FileFacts, RiskContext

__all__ = ["TURNED_CHECK_EXAMPLE", "turned_check", "turned_check_check"]

_AND = re.compile(r"&&|\band\b")
_IF_HEAD = re.compile(r"^\W*(?:if|unless|while|elif)\W+")
_PROTECTS = re.compile(r"(?i)state|nonce|token|csrf|sign|hmac|digest|secret|origin")
_QUOTES_NAME = re.compile(r"quote\w*\(\s*[\w.]+\.(?:name|table|column|schema)")

_BYTES = re.compile(r"(?i)byte|encode|getbytes|utf8")
_BYTES_COMPARED = re.compile(r"(?i)(?:byte|encode|getbytes|utf8).*[<>]|[<>].*(?:byte|encode|getbytes|utf8)")
_CHARS = re.compile(r"(?i)^(?:length|size|count|len|chars|characters)$")


def _bytes_to_chars(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in pairs_from_old(added, removed, _BYTES_COMPARED, 0.6):
        if not COMPARES.search(new):
            continue
        for tag, a, b in changed(old, new):
            was = " ".join(a)
            # A byte measure replaced by a character one, or the encoding inside a length dropped (``len(s.encode())``);
            # a byte check dropped whole is another reader's (a length check deleted).
            if _BYTES.search(was) and not _BYTES.search(new) and (
                    (tag == "replace" and any(_CHARS.match(t) for t in b)) or (tag == "delete" and "encode" in a and "len" in new)):
                return said(f"counts a limit in characters, not bytes ({was} → {' '.join(b) or 'dropped'})", new)
    return None


_FAILURE_COND = re.compile(r"(?i)expir|invalid|mismatch|revok|denied|forbidden|unauthori|tamper|stale|replay|\bfail|\berr\b|"
                           r"!\s*[\w.]*(?:valid|verif|allow|auth|equal|match)|\bnot\s+[\w.]*(?:valid|verif|allow|auth|equal|match)")
_PRESENT = re.compile(r"([\w.\->()]+?)\s*(?:!==?\s*(?:null|nil|None|undefined)|\bis not None)\s*(?:&&|\band\b)")


_GATE_OLD = re.compile(_FAILURE_COND.pattern + "|" + _PRESENT.pattern)


def _gated(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in pairs_from_old(added, removed, _GATE_OLD, 0.6):
        if not CONDITION.search(new) or not _AND.search(new):
            continue
        # A presence gate moved to another value, the old value still checked after it: skipped when the new one is absent.
        was, now = _PRESENT.search(old), _PRESENT.search(new)
        if was and now and (a := was.group(1).lstrip("(!")) != (b := now.group(1).lstrip("(!")) and a.split(".")[0] in new:
            return said(f"gates the check on {clipped(b, 30)} being present (was {clipped(a, 30)})", new)
        turns = changed(old, new)
        if _FAILURE_COND.search(old) and turns and all(tag == "insert" for tag, _, _ in turns) and any(
                "&" in b or "and" in b for _, _, b in turns):
            return said("fails only when an added conjunct also holds", new)
    return None


_REFUSE = re.compile(r"^\s*(?:return\s+(?:null|nil|None|false|False|-1|err\w*|Err\(.*\)|\{:error.*\})|throw\b.*|raise\b.*);?\s*$")
_SKIP = re.compile(r"^\s*(?:continue|next|pass);?\s*$")
_INPUT = re.compile(r"(?i)decod|pars|valid|base64|base32|hex|escap|sanit|verif|utf|token|sign|unmarshal|deserial")


def _refusal_skipped(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    refused = [ln for ln in removed if _REFUSE.match(ln)]
    if not refused or not (_INPUT.search(path) or any(_INPUT.search(ln) for ln in (*added, *removed))):
        return None
    kept = {squeezed(ln) for ln in added}
    gone = [ln for ln in refused if squeezed(ln) not in kept]
    indents = {len(ln) - len(ln.lstrip()) for ln in gone}
    skips = [ln for ln in added if _SKIP.match(ln) and len(ln) - len(ln.lstrip()) in indents]
    if gone and skips and sum(1 for ln in removed if _SKIP.match(ln)) < len(skips):
        return f"skips what it refused (invalid input ignored): {gone[0].strip()} → {skips[0].strip()}"
    return None


_MEASURED = re.compile(r"([\w.]+?)\.(?:length|size|count)\b(?!\()|\blen\(([\w.]+)\)")
# A value measured in bytes, by the forms languages spell it in (the value captured).
_IN_BYTES = re.compile(r"([\w.]+)\.(?:bytesize|bytes\.len|utf8\.count|as_bytes\(\)\.len\(\))|"
                       r"([\w.]+)\.(?:encode|getBytes|toByteArray)\([^()]*\)\.(?:length|size|count)|"
                       r"byteLength\(\s*([\w.]+)\s*\)|\blen\(\s*([\w.]+)\.encode")


def _length_beside_bytes(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A limit compared on a value's characters where the same file measures that value in bytes (a protocol's field)."""
    in_bytes = {next(g for g in m.groups() if g) for ln in added for m in _IN_BYTES.finditer(ln)}
    if not in_bytes:
        return None
    for new in added:
        if not COMPARES.search(new) or not CONDITION.search(new):
            continue
        for m in _MEASURED.finditer(new):
            v = m.group(1) or m.group(2)
            if v in in_bytes:
                return said(f"counts a limit in characters where {v} is measured in bytes", new)
    return None


_RARE_FAIL = re.compile(r"(?i)expir|revok|invalid|mismatch|tamper|stale|replay")
_ABSENT = re.compile(r"(?:&&|\band\b)\s*!?\(?\s*([\w.]+?)(?:\.IsZero\(\)|\s*===?\s*(?:nil|null|None|0|\"\")\b|\.nil\?|\.empty\?|"
                     r"\s+is\s+None\b|\.isEmpty\(\))")
_GATED_MISMATCH = re.compile(r"([\w.()]+?)\s*(?:!==?\s*(?:null|nil|undefined)|\s+is\s+not\s+None)\s*(?:&&|\band\b)\s*"
                             r"(?:!\s*[\w.()]+?\.equals\(\s*\1\s*\)|!\s*[\w.()]+?\s*$|\1\s*!==?\s*[\w.()]+)")


def _gated_line(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A failure check that now runs only when another value is zero or absent, or a mismatch check skipped when the value
    it checks is absent (read on one line: the lines of a file the change rewrites have no old line to pair with)."""
    had = {squeezed(ln) for ln in removed}
    for new in added:
        if squeezed(new) in had or not (CONDITION.search(new) or "(" in new and _AND.search(new)):
            continue
        head = _AND.split(new, maxsplit=1)[0]
        if _RARE_FAIL.search(head) and (m := _ABSENT.search(new)) and m.group(1).split(".")[0] not in _RARE_FAIL.findall(head):
            subject = _IF_HEAD.sub("", head).split(".")[0].strip("( !")
            if m.group(1).split(".")[0] == subject and m.group(1) != subject:
                return said(f"fails only when {clipped(m.group(1), 30)} is also zero or absent", new)
        if (m := _GATED_MISMATCH.search(new)) and _PROTECTS.search(new):
            return said(f"skips the mismatch check when {clipped(m.group(1).lstrip('(!'), 30)} is absent", new)
    return None


_SQL_FORMAT = re.compile(r"(?i)[\"'].*\b(?:REFERENCES|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|FROM|JOIN|TABLE|INDEX|WHERE)\b.*(?:%s|\{\})")
_BARE_NAME = re.compile(r"^\s*([\w.]+\.(?:name|table|column|schema)\w*)\s*,?\s*\)?\s*$")


def _unquoted_identifier(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """An identifier printed bare into SQL where the file quotes the others it prints (``quote(ref.name)`` beside ``col.name``)."""
    if not any(_QUOTES_NAME.search(ln) for ln in added):
        return None
    for i, line in enumerate(added):
        if _SQL_FORMAT.search(line):
            for arg in added[i + 1:i + 5]:
                if m := _BARE_NAME.match(arg):
                    return said(f"prints the identifier {m.group(1)} into SQL unquoted (the file quotes the others)", arg)
                if ")" in arg and "(" not in arg:
                    break
    return None


def turned_check(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first turn worth a look that a check took (counted, gated or skipped), quoted; None when none."""
    added, removed = code_lines(added), code_lines(removed)
    if not added:
        return None
    # An escaping call told to escape fewer characters, as relay.review.turn_consequences says it (a note there): worth a
    # look, so the file is not low (held-out 39: an HTML-safe encoder no longer escaping a character was named and low).
    if found := escapes_fewer(added, removed):
        return found
    return (_bytes_to_chars(added, removed) or _length_beside_bytes(added, removed) or _gated(added, removed) or _gated_line(added, removed)
            or _unquoted_identifier(added, removed) or _refusal_skipped(path, added, removed))


def turned_check_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule's check (relay.review.rules, ``turned_check``)."""
    return turned_check(f.path, f.change.added_lines, f.change.removed_lines)


# The row's example and near miss: an expiry check gated on a value's absence, and ungated.
TURNED_CHECK_EXAMPLE = (
    fc("app/session.rb", ["    if session.expired?"], ["    if session.expired? && session.remember_me.nil?"]),
    "fails only when session.remember_me is also zero or absent: if session.expired? && session.remember_me.nil?",
    fc("app/session.rb", ["    if session.expired? && session.remember_me.nil?"], ["    if session.expired?"]),
)
