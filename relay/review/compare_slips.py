"""Slips in how a compared value is measured or matched, read after every other reader of an edit (issue 36, rounds 59–64;
out of ``relay.review.last_readers`` in session 58, which had reached its 500 lines and calls these in its last pass).

Worth a look unless said (each from the blind run it is named for in its comment): an inclusive span's offset of one made
two; an emptiness test made to let one through; an exact match of a redirect, URL, origin, host, path or issuer made a
prefix match; a regex literal's ``i`` flag dropped; a length compared with ``< 0``; ``>= 0`` made ``>= -1``; ``unsafe
impl<T> Send`` with no ``T: Send`` bound (high); a compared text given or stripped of a space at an end.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed
from relay.review.overridden_turns import cut_quote, one_replace, paired_quote

__all__ = ["case_flag_dropped", "compared_text_spaced", "emptiness_widened", "length_below_zero", "match_made_prefix", "negative_let_through",
           "offset_moved", "send_for_any"]

_LINES = 4000  # new lines read (as last_readers reads them)
_PAIRS = 40
_LONG = 400


# ----- an offset of one made two
_OFFSETS = {"1": "2", "2": "1"}
# A span's length counted inclusively (``end - start + 1``): its offset is no tuning (``array_size + 1`` → ``+ 2`` is).
_MEASURED_RE = re.compile(r"[A-Za-z_)\]]\s*-\s*[A-Za-z_(][\w.()\[\]]*\s*[+-]\s*[12]\b")


def offset_moved(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed if _MEASURED_RE.search(line)][:_PAIRS]
    for new in [line for line in added if re.search(r"[+-]\s*[12]\b", line)][:_PAIRS] if olds else ():
        for old in olds:
            found = one_replace(old, new)
            if not found or len(found[1]) != 1 or _OFFSETS.get(found[1][0]) != "".join(found[2]) or found[0][-1:] not in (["+"], ["-"]):
                continue
            if len(found[0]) < 2 or not re.match(r"[\w)\]]", found[0][-2]):
                continue  # a sign, not an offset (``x = -1``)
            sign = found[0][-1]
            return f"shifts a position or length by one ({sign} {found[1][0]} → {sign} {found[2][0]}: an off-by-one?): {paired_quote(old, new)}"
    return None


# ----- an emptiness test made to let one through
# ``Object.keys(combinedErrors).length === 0`` → ``<= 1`` (blind 89's formik: a form with one validation error submits).
_EMPTY_RE = re.compile(r"(?P<count>[\w.)\]]*(?i:length|len|size|count)\w*(?:\(\s*\))?)\s*===?\s*0\b")


def emptiness_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {squeezed(_EMPTY_RE.sub(lambda m: f"{m.group('count')} <= 1", line)): line for line in removed[:_PAIRS * 5] if "0" in line
            and _EMPTY_RE.search(line)}
    olds |= {squeezed(_EMPTY_RE.sub(lambda m: f"{m.group('count')} < 2", line)): line for line in removed[:_PAIRS * 5] if "0" in line
             and _EMPTY_RE.search(line)}
    for new in added[:_PAIRS * 5] if olds else ():
        if (old := olds.get(squeezed(new))) is not None:
            return f"lets one through where none was allowed (== 0 → <= 1: a single one now passes as none): {paired_quote(old, new)}"
    return None


# ----- an exact match made a prefix match
# ``if _base != regbase:`` → ``if not _base.startswith(regbase):`` (blind 90's pyoidc: a redirect URI registered as
# ``https://app/cb`` let ``https://app/cb.evil.example`` through). Said for a redirect, a URL, an origin, a host, a path.
_DIFFERS_RE = re.compile(r"(?P<a>[\w.$\[\]'\"()]+)\s*(?P<op>!==?|==?=?)\s*(?P<b>[\w.$\[\]'\"()]+)")
_PREFIX_RE = re.compile(r"(?P<neg>not\s+|!\s*)?(?P<a>[\w.$\[\]'\"()]+?)\.(?:startswith|startsWith|start_with\?|starts_with)\(\s*(?P<b>[^()]+?)\s*\)|"
                        r"(?P<gneg>!\s*)?strings\.HasPrefix\(\s*(?P<ga>[^,()]+?)\s*,\s*(?P<gb>[^()]+?)\s*\)")
_PLACE_NAME_RE = re.compile(r"(?i)redirect|uri|url|origin|host|domain|path|callback|prefix|base|scope|audience|issuer")


def match_made_prefix(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [(m, line) for line in removed[:_PAIRS] if len(line) <= _LONG for m in _DIFFERS_RE.finditer(line)]
    for new in [line for line in added[:_PAIRS] if "tart" in line or "HasPrefix" in line] if olds else ():
        for p in _PREFIX_RE.finditer(new):
            a, b = (p.group("a"), p.group("b")) if p.group("a") else (p.group("ga"), p.group("gb"))
            for m, old in olds:
                if {m.group("a"), m.group("b")} != {a.strip(), b.strip()} or not _PLACE_NAME_RE.search(a + b):
                    continue
                if (m.group("op").startswith("!")) == bool(p.group("neg") or p.group("gneg")):
                    return f"makes an exact match a prefix match ({a} matched by its start: a longer value passes): {paired_quote(old, new)}"
    return None


# ----- a pattern's case-insensitive flag dropped
# ``/<\x2f(script)…/gi`` → ``/…/g`` in the line that escapes ``</script`` (blind 90's terser): ``</SCRIPT`` passes.
_REGEX_FLAGS_RE = re.compile(r"(?<![\w)\]])/(?P<body>(?:\\.|[^/\\\n])+)/(?P<flags>[gimsuy]*)")


def case_flag_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {}
    for line in removed[:_PAIRS]:
        for m in _REGEX_FLAGS_RE.finditer(line) if "/" in line and len(line) <= _LONG else ():
            if "i" in m.group("flags"):
                olds[(line[:m.start()] + "/" + m.group("body") + "/" + m.group("flags").replace("i", "") + line[m.end():]).strip()] = line
    for new in added[:_PAIRS] if olds else ():
        if (old := olds.get(new.strip())) is not None:
            return f"drops a pattern's case-insensitive flag (i: other cases no longer match): {paired_quote(old, new)}"
    return None


# ----- a length compared below zero, a non-negative check moved to -1, Send/Sync for any T
# ``if len(c.Subject.Country) < 0 {`` (blind 92's zlint: a lint that never fires), ``value >= 0`` → ``value >= -1`` (blind
# 92's is: -1 passes as a natural number), ``unsafe impl<T> Send for ThreadBound<T> {}`` (blind 91's syn: the ``T: Send``
# bound dropped, any value crosses threads).
_BELOW_ZERO_RE = re.compile(r"(?:\blen\([^()]*\)|\.length\b|\.len\(\)|\.size\(\)|\.count\(\)|\.Count\b|\.Length\b)\s*<\s*0(?![\w.])")
_NON_NEGATIVE_RE = re.compile(r"(?P<op>>=|>|<=|<)\s*(?P<n>0|-1)(?![\w.])")
_SEND_FOR_ANY_RE = re.compile(r"\bunsafe\s+impl\s*<\s*(?P<t>[A-Z]\w*)\s*>\s*(?P<trait>Send|Sync)\s+for\s+\w+\s*<[^>]*\b(?P=t)\b")


def length_below_zero(added: Sequence[str]) -> str | None:
    for line in added[:_LINES]:
        if "< 0" in line.replace("<0", "< 0") and len(line) <= _LONG and _BELOW_ZERO_RE.search(line):
            return f"compares a length with < 0 (never true: the check under it never runs): {cut_quote(line.strip())}"
    return None


_LOWERED = {(">=", "0"): "-1", (">", "-1"): "-2", ("<", "0"): "-1", ("<=", "-1"): "-2"}


def negative_let_through(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {}
    for line in removed[:_PAIRS * 5]:
        for m in _NON_NEGATIVE_RE.finditer(line) if len(line) <= _LONG else ():
            # ``>= 0`` / ``> -1`` let through, or (round 67: wcwidth's ``if col < 0:`` → ``< -1``) ``< 0`` / ``<= -1`` refuse
            if (lower := _LOWERED.get((m.group("op"), m.group("n")))) is not None:
                olds[line[:m.start("n")] + lower + line[m.end("n"):]] = line
    for new in added[:_PAIRS * 5] if olds else ():
        if (old := olds.get(new)) is not None:
            return f"lets a negative value through a non-negative check (-1 now passes): {paired_quote(old, new)}"
    return None


def send_for_any(added: Sequence[str]) -> str | None:
    for line in added[:_LINES]:
        if "unsafe" in line and (m := _SEND_FOR_ANY_RE.search(line)):
            t, trait = m.group("t"), m.group("trait")
            return (f"declares {trait} for any {t} (no {t}: {trait} bound: a value that is not thread-safe crosses threads): "
                    f"{cut_quote(line.strip())}")
    return None


# ----- a compared text given a space
_COMPARED_RE = re.compile(r"(?i)(?:has_?prefix|has_?suffix|starts_?with|ends_?with|contains|includes|index_?of|equals\w*|"
                          r"\bmatch\w*|\bstrstr|strn?cmp|in_array)\s*\(|[!=]==?")
_TEXT_RE = re.compile(r"\"([^\"\\]{1,80})\"|'([^'\\]{1,80})'")


def compared_text_spaced(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed if _COMPARED_RE.search(line) and _TEXT_RE.search(line) and len(line) <= _LONG][:_PAIRS]
    for new in [line for line in added if _COMPARED_RE.search(line) and len(line) <= _LONG][:_PAIRS] if olds else ():
        for old in olds:
            texts_old, texts_new = [m.group() for m in _TEXT_RE.finditer(old)], [m.group() for m in _TEXT_RE.finditer(new)]
            if len(texts_old) != len(texts_new) or _TEXT_RE.sub('""', old) != _TEXT_RE.sub('""', new):
                continue
            turned = [(a, b) for a, b in zip(texts_old, texts_new) if a != b]
            if len(turned) == 1 and turned[0][0][1:-1] != turned[0][1][1:-1] and turned[0][0][1:-1].strip() == turned[0][1][1:-1].strip() \
                    and turned[0][0][1:-1].strip():
                a, b = turned[0]
                return f"changes a compared text by a space at its end ({a} → {b}: it may never match): {paired_quote(old, new)}"
    return None
