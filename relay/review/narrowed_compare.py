"""A comparison of several fields narrowed to fewer (issue 36, round 23).

A check that two things are the same one compares all that makes them so: a redirect keeps credentials only when the
new location's scheme, host and port all equal the old one's; a session is reused only when its user and its tenant
match. A slipped edit compares fewer of them and the check passes for more: Elixir's ``if {loc.host, loc.scheme,
loc.port} == {url.host, url.scheme, url.port} do`` made ``if loc.host == url.host do`` (credentials now follow a
redirect to plain http or another port), Python's ``(a.scheme, a.netloc) == (b.scheme, b.netloc)`` made ``a.netloc ==
b.netloc``, Ruby's ``[a.host, a.port] == [b.host, b.port]``, JavaScript's ``[a.origin, a.port].join() === …``, Go's or
Rust's tuple/struct literal pairs. The old comparison may span lines (a formatter breaks it after ``==``).

Quiet: the same fields compared again (re-wrapped, reordered), a field added, a comparison of other objects, one of
plain values (``(x, y) == (0, 0)``), a single field renamed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from relay.review.line_shapes import window

__all__ = ["ORIGIN_PARTS", "fields_dropped"]

# Fields that together say who or where a thing is: an origin's parts, an identity's. One of them dropped from the
# comparison lets another origin or identity pass as the same (classic: high); other fields dropped are worth a look.
ORIGIN_PARTS = re.compile(r"(?i)^(?:scheme|protocol|proto|port|host|hostname|netloc|origin|domain|authority|tenant\w*|"
                          r"user\w*|account\w*|issuer|iss|audience|aud|realm|org\w*|owner\w*|client_?id)$")

_JOIN_AFTER = ("==", "===", "&&", "and", "||", "or", ",", "(", "{", "[", "=")
_MAX_JOIN = 4
# A group of object fields: {a.host, a.scheme}, (a.host, a.port), [a.host, a.port]; members spelled obj.field, obj[:field],
# obj["field"], obj.field(), obj.getField().
_MEMBER = r"[A-Za-z_$@][\w$]*(?:\.[A-Za-z_]\w*(?:\(\))?|\[\s*:?[\"']?\w+[\"']?\s*\])"
_GROUP_RE = re.compile(r"[{(\[]\s*(" + _MEMBER + r"(?:\s*,\s*" + _MEMBER + r")+)\s*,?\s*[})\]]")
_FIELD_RE = re.compile(r"([A-Za-z_$@][\w$]*)(?:\.([A-Za-z_]\w*)(?:\(\))?|\[\s*:?[\"']?(\w+)[\"']?\s*\])")
_EQ_RE = re.compile(r"===?|!==?|\beq\b|\bne\b")
# What may stand between two compared groups: the operator, a joining call on the left (``.join()``), a constructor or a
# literal's head on the right (``Pair``, ``listOf``, ``tuple``, ``%``).
_BETWEEN_RE = re.compile(r"\s*(?:\.\w+\(\s*[\"']?[^()]{0,3}[\"']?\s*\))?\s*(?:===?|!==?|\beq\b)\s*[%\w:]*\s*")


def _logical(lines: Sequence[str]) -> Iterator[str]:
    """Lines joined where a formatter broke one expression (after an operator or an opening bracket, or before ``==``)."""
    i = 0
    while i < len(lines):
        text, n = lines[i].strip(), 1
        while i + n < len(lines) and n < _MAX_JOIN and (
                text.endswith(_JOIN_AFTER) or lines[i + n].strip().startswith(("==", "===", "&&", "||", "and ", "or ", ")", "}", "]"))):
            text += " " + lines[i + n].strip()
            n += 1
        yield text
        i += n


def _fields(group: str) -> tuple[str, ...] | None:
    """``a.host, a.port`` → ("a", ("host", "port")): one object's fields, or None when the members mix objects."""
    found = [(m.group(1), m.group(2) or m.group(3)) for m in _FIELD_RE.finditer(group)]
    objects = {obj for obj, _ in found}
    return (found[0][0], *(field for _, field in found)) if len(objects) == 1 and len(found) >= 2 else None


def _compared(line: str) -> tuple[str, str, frozenset[str]] | None:
    """A comparison of two groups of the same fields of two objects: (left object, right object, fields)."""
    groups = list(_GROUP_RE.finditer(line))
    for left, right in zip(groups, groups[1:]):
        between = line[left.end():right.start()]
        if not _BETWEEN_RE.fullmatch(between):
            continue
        a, b = _fields(left.group(1)), _fields(right.group(1))
        if a and b and a[0] != b[0] and set(a[1:]) == set(b[1:]):
            return a[0], b[0], frozenset(a[1:])
    return None


def _fields_of(line: str, obj: str) -> set[str]:
    return {m.group(2) or m.group(3) for m in _FIELD_RE.finditer(line) if m.group(1) == obj}


def fields_dropped(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """The first comparison of the old side whose new side compares a strict subset of its fields, quoted, with whether
    a dropped field is an origin's or an identity's part (classic)."""
    olds = [(line, found) for line in _logical(removed) if (found := _compared(line))]
    if not olds:
        return None
    news = list(_logical(added))
    for old, (left, right, fields) in olds:
        if any(fields <= _fields_of(new, left) for new in news):
            continue  # every field still compared (re-wrapped, reordered)
        for new in news:
            if not _EQ_RE.search(new):
                continue
            kept = _fields_of(new, left) & _fields_of(new, right) & fields
            if kept and kept < fields:
                dropped = ", ".join(sorted(fields - kept))
                shown = window(new, 0, len(new), 72)
                classic = any(ORIGIN_PARTS.match(field) for field in fields - kept)
                return f"compares fewer fields ({dropped} no longer compared, only {', '.join(sorted(kept))}): {shown}", classic
    return None
