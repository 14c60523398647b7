"""A name swapped for its sibling where it decides, read without a token list (issue 36, round 33).

Round 32's floor (relay.review.deciding_tokens) knows kinds of tokens: operators, results, MIN/MAX names. The next blind
lows were pairs whose one difference is a NAME, and no list of names can know which ones matter. What tells is the shape:
an edited pair whose only difference is one name (or a few, each the same way; a ``!`` put in or taken out beside it)
swapped for a SIBLING, in a place where the name decides what the code does. Any language, any names:

- siblings: two names of one family: members of the same type or module (``Mode.STRICT`` → ``Mode.LAX``, ``Kind::a`` →
  ``Kind::b``); names sharing a stem (a common start or end of 3 characters or more, case and ``_``/``$`` folded:
  ``allowAll`` → ``denyAll``, ``LEVEL_HIGH`` → ``LEVEL_LOW``); or one the other with something put before or after it
  (``name`` ↔ ``safeName``, ``v2`` ↔ ``lv2``): a processed copy and its source. Where the affix says which is the
  processed copy (lower, safe, escaped, checked, valid, clean, norm…; raw, orig, unsafe…), only the turn to the
  unprocessed one is said: the other way is a fix;
- deciding places: a condition (``if``/``while``/``unless``/``when``/``guard``, a ``&&``/``||``/``-or`` clause, ``?:``),
  a comparison, a returned value; a constant or a type's member passed to a call or given as a default; a factor of a
  product that is assigned or compared (a computed bound: any name, family or not, since a bound's factors are not
  siblings by their names);
- a format call's literal dropped so the input takes its place (``log("%s", msg)`` → ``log(msg)``): the input is now
  read as the format.

Quiet look-alikes: a rename (the new name declared by the change, or the old one gone from the change's added lines and
the same swap made in two places or more; a name lengthened by a word that says nothing of it), a case or ``_`` change
only, a misspelt name corrected, a type or class swapped (a PascalCase name alone, a package's type), an object's field,
a plain variable passed to a call, a word in a string or a trailing comment, a log line's level and an error's reason
code (they name what is written, not what passes), the turn away from an extreme setting, a test file (the rule's
scope). Reads the floor's pairs only: bounded by them. Its cost on the 30 newest commits of 60 repositories: one commit
more goes low → medium (3 of 1,788, was 2).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

__all__ = ["SIBLING_SAYS", "sibling_swapped"]

SIBLING_SAYS = ("swaps a name for its sibling", "makes the input the format string")

_NAME_RE = re.compile(r"^[A-Za-z_$][\w$]*$")
_NOT = frozenset({"!", "not"})
_MOST = 3  # names swapped on one pair, each the same way
_STEM = 3
_KEYWORDS = frozenset({"if", "else", "elif", "while", "for", "return", "not", "and", "or", "in", "is", "true", "false", "True",
                       "False", "None", "null", "nil", "undefined", "new", "this", "self", "const", "let", "var", "int", "char",
                       "bool", "string", "void", "static", "final", "public", "private", "await", "async", "typeof"})
_CONDITION_RE = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|else\s*if|elsif|while|unless|until|guard|when|case|assert\w*|require|ensure|expect)\b|"
                           r"&&|\|\||\s-(?:or|and|eq|ne|lt|le|gt|ge)\s|\band\b|\bor\b|\?[^?.:]+:|\bwhere\b")
_COMPARE_RE = re.compile(r"===?|!==?|<=|>=|<>|[^<\-=>]<[^<=]|[^-=>]>[^>=]")
_RETURN_RE = re.compile(r"^\s*(?:return|yield|raise|throw)\b|=>\s*[^{]*$")
# An affix that marks the processed copy of a value (the one checked, lowered, escaped…), and one that marks the source.
_PROCESSED = ("lower", "lc", "l", "low", "upper", "uc", "norm", "normalized", "normalised", "safe", "escaped", "esc", "quoted",
              "checked", "valid", "validated", "verified", "clean", "cleaned", "sanitized", "sanitised", "trimmed", "canon",
              "canonical", "resolved", "abs", "real", "bounded", "clamped", "limited", "fixed")
_SOURCE = ("raw", "orig", "original", "unsafe", "unchecked", "unescaped", "untrusted", "input", "user", "unvalidated", "insecure")
_FORMAT_RE = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[sdifuxXcpqvgeT]|\{\d*\}|\{:[^}]*\}")
_CALL_RE = re.compile(r"([A-Za-z_$][\w$.:>-]*)\s*\(")
_STRING_RE = re.compile(r"^\s*(?:[A-Za-z]{0,2})?(['\"`]).*\1\s*$", re.S)


def _fold(name: str) -> str:
    return name.replace("$", "").replace("_", "").lower()


def _affix(short: str, long: str) -> str | None:
    """What ``long`` holds beside ``short`` when it is ``short`` with something put before or after it, else None."""
    s, lg = _fold(short), _fold(long)
    if not s or len(lg) <= len(s):
        return None
    affix = lg[:-len(s)] if lg.endswith(s) else lg[len(s):] if lg.startswith(s) else None
    if affix is None or (len(s) < 2 and affix not in _PROCESSED and affix not in _SOURCE):
        return None  # a one-letter name is anyone's prefix: only a known affix (``c`` ↔ ``lc``) makes it a copy
    return affix


def _family(old: str, new: str, member: bool) -> str | None:
    """How two names are siblings ("" when they are, without a direction), "quiet" for the safe direction, or None."""
    a, b = _fold(old), _fold(new)
    if not a or not b or a == b:
        return None  # a case or ``_`` change is a spelling
    for short, long, to_short in ((b, a, True), (a, b, False)):
        if (affix := _affix(short, long)) is not None:
            processed = affix in _PROCESSED
            source = affix in _SOURCE
            if processed or source:  # the affix tells which is the processed copy: only the turn to the source is said
                risky = processed == to_short
                return "" if risky else "quiet"
            return "quiet"  # a name lengthened or shortened by a word that tells nothing of it (``limit`` → ``limitSecs``): a rename
    if _words(old) & _EXTREME and not _words(new) & _EXTREME:
        return "quiet"  # the turn away from an extreme setting (``MIN_X`` → ``DEFAULT_X``) is round 32's safe way
    if member:
        return ""
    common_start = len(_common(a, b))
    common_end = len(_common(a[::-1], b[::-1]))
    return "" if max(common_start, common_end) >= _STEM else None


# The words that make a setting the extreme one (round 32's floor says the turn to it): the turn from it is quiet here.
_EXTREME = frozenset({"MIN", "MINIMUM", "MAX", "MAXIMUM", "WEAK", "WEAKEST", "NONE", "ANY", "ALL", "LOW", "LOWEST", "LEAST", "OFF"})
_WORD_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _words(name: str) -> set[str]:
    return {w.upper() for w in _WORD_RE.findall(name)}


def _common(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def _constant(name: str) -> bool:
    bare = name.lstrip("$")
    return bare.isupper() and len(bare) > 1


def _in_call(tokens: Sequence[str], at: int) -> bool:
    depth = 0
    for i in range(at - 1, -1, -1):
        t = tokens[i]
        if t == ")":
            depth += 1
        elif t == "(":
            if depth == 0:
                return i > 0 and bool(_NAME_RE.match(tokens[i - 1])) and tokens[i - 1] not in _KEYWORDS
            depth -= 1
    return False


def _place(line: str, tokens: Sequence[str], at: int, name: str, member: bool) -> str | None:
    """Where the name at ``at`` decides, or None."""
    before = tokens[at - 1] if at > 0 else ""
    after = tokens[at + 1] if at + 1 < len(tokens) else ""
    if after == "(":
        return None  # a function swapped for another is a call changed, read by other readers
    if (before == "*" or after == "*") and ("=" in tokens or _COMPARE_RE.search(line)):
        return "factor"
    if _CONDITION_RE.search(line) or _COMPARE_RE.search(f" {line} "):
        return "condition"
    if _RETURN_RE.search(line):
        return "return"
    if (member or _constant(name)) and (_in_call(tokens, at) or before == "="):
        return "argument"
    return None


def _member(ta: list[str], i: int, tb: list[str], j: int) -> bool:
    """Whether both names are values of one type: after the same type (``Mode.``, ``RE2.``) or scope (``policy::``), the
    name a constant's or a scoped value's; a package's or an object's member (``pkg.KeyMsg``, ``self._items``) is a type
    or a field, a rename's or an upgrade's, not a value chosen."""
    if not (i > 1 and j > 1 and ta[i - 1] == tb[j - 1] and ta[i - 1] in (".", "::") and ta[i - 2] == tb[j - 2]):
        return False
    qualifier, a, b = ta[i - 2], ta[i], tb[j]
    if ta[i - 1] == "::":
        return not (a[:1].isupper() and not a.isupper()) or qualifier[:1].isupper()
    return qualifier[:1].isupper() and (a.isupper() or b.isupper() or qualifier != qualifier.upper())


def _type(name: str) -> bool:
    """A PascalCase name standing alone: a type or a class (a constant is UPPER_CASE, a variable lowerCase)."""
    bare = name.lstrip("$")
    return bare[:1].isupper() and not bare.isupper() and any(ch.islower() for ch in bare)


def _quoted(tokens: Sequence[str], at: int) -> bool:
    return any(sum(1 for t in tokens[:at] if t == q) % 2 for q in ("'", '"', "`"))


def _typo(a: str, b: str) -> bool:
    """Two spellings of one name, one a letter or two off the other inside it (``SECRETBOXBOX`` → ``SECRETBOX``)."""
    x, y = _fold(a), _fold(b)
    return abs(len(x) - len(y)) <= 3 and min(len(x), len(y)) >= 5 and SequenceMatcher(None, x, y).ratio() >= 0.85 and \
        _affix(min(a, b, key=len), max(a, b, key=len)) is None


def _commented(tokens: Sequence[str], at: int) -> bool:
    """Whether the token at ``at`` stands in a trailing comment (after ``//``, ``/*`` or a ``#`` past the line's start)."""
    for k in range(at):
        t, nxt = tokens[k], tokens[k + 1] if k + 1 < len(tokens) else ""
        if (t == "/" and nxt in ("/", "*")) or (t == "#" and k > 0):
            return True
    return False


def _declared(name: str, added: Sequence[str]) -> bool:
    bare = re.escape(name)
    declared = re.compile(rf"(?:\b(?:let|var|const|val|def|fn|func|function|local|my|our|auto|int|char|bool|string|String)\s+[*&]?{bare}\b|"
                          rf"(?<![\w.$]){bare}\s*(?::[^=]*)?:?=(?!=)|\bfor\s*\(?\s*(?:\w+\s+)?{bare}\b)")
    return any(declared.search(line) for line in added[:200])


def _swaps(ta: list[str], tb: list[str]) -> tuple[list[tuple[str, str, int, int]], bool] | None:
    """The names swapped one for one (old, new, at in old, at in new) and whether a ``!`` was put in or taken out beside
    one; None when the pair differs in anything else."""
    ops = [op for op in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not ops or len(ops) > 2 * _MOST:
        return None
    swaps: list[tuple[str, str, int, int]] = []
    negated = False
    for tag, i1, i2, j1, j2 in ops:
        a, b = ta[i1:i2], tb[j1:j2]
        if tag in ("insert", "delete") and (a or b) in (["!"], ["not"]):
            negated = True
            continue
        if tag == "replace" and len(a) == 1 and len(b) == 2 and b[0] in _NOT:
            negated, b = True, b[1:]
        elif tag == "replace" and len(a) == 2 and len(b) == 1 and a[0] in _NOT:
            negated, a = True, a[1:]
        if tag != "replace" or len(a) != 1 or len(b) != 1 or not (_NAME_RE.match(a[0]) and _NAME_RE.match(b[0])):
            return None
        if a[0] in _KEYWORDS or b[0] in _KEYWORDS:
            return None
        swaps.append((a[0], b[0], i1 + (i2 - i1 - 1), j1 + (j2 - j1 - 1)))
    if not swaps or len(swaps) > _MOST:
        return None
    return swaps, negated


def _renamed(old: str, new: str, added: Sequence[str], removed: Sequence[str]) -> bool:
    """A rename: the new name declared by the change, or the old one gone from its added lines and swapped in two places
    or more (a rename renames a name everywhere; one swapped name in one place is a turn)."""
    if _declared(new, added):
        return True
    word = re.compile(rf"(?<![\w$]){re.escape(old)}(?![\w$])")
    if any(word.search(line) for line in added[:200]):
        return False
    new_word = re.compile(rf"(?<![\w$]){re.escape(new)}(?![\w$])")
    return sum(1 for line in added[:200] if new_word.search(line)) >= 2 and not any(new_word.search(line) for line in removed[:200])


# A log line's level or argument swapped decides what is written, not what the code lets through (a sweep of log levels
# in a big change is a decoy): a logger's or a level's line is left to the log readers.
# An error raised or reported names which error, not what passes (a vendored library's reason codes swapped).
_LOGGING_RE = re.compile(r"(?i)(?<![a-z])(?:log(?:s|ger|gers|ging|level|_level)?|err|errors?|exception|raise|throw)(?![a-z])|loggable")
_LEVEL_RE = re.compile(r"(?<![A-Za-z])Level\s*(?:\.|::)")


def _named_swap(old: str, new: str, ta: list[str], tb: list[str], added: Sequence[str], removed: Sequence[str]) -> str | None:
    if _LOGGING_RE.search(new) or _LEVEL_RE.search(new):
        return None
    found = _swaps(ta, tb)
    if found is None:
        return None
    swaps, negated = found
    said: tuple[str, str, str] | None = None
    for a, b, i, j in swaps:
        if _commented(tb, j) or _commented(ta, i):
            return None
        member = _member(ta, i, tb, j)
        if not member and i > 1 and ta[i - 1] == "." and ta[i - 2][:1].islower() and a[:1].isupper() and not a.isupper():
            return None  # a package's type (``pkg.KeyMsg``): an upgrade's rename, not a value chosen
        place = _place(new, tb, j, b, member)
        if place is None:
            return None
        if not member and (_type(a) or _type(b)):
            return None  # a type or a class swapped (``FooDigest`` → ``BarDigest``, a generic's argument): a signature's turn
        if _quoted(tb, j) or _typo(a, b):
            return None  # a word in a string; a misspelt name corrected
        family = "" if place == "factor" else _family(a, b, member)
        if family is None or family == "quiet" or _renamed(a, b, added, removed):
            return None
        said = said or (a, b, place)
    if said is None:
        return None
    a, b, place = said
    where = {"factor": "a computed bound's factor", "condition": "a condition", "return": "a returned value",
             "argument": "a setting passed"}[place]
    more = f", +{len(swaps) - 1} more" if len(swaps) > 1 else ""
    return f"swaps a name for its sibling in {where}{' and negates it' if negated else ''} ({a} → {b}{more})"


def _args(line: str, callee: str) -> list[str] | None:
    at = line.find(callee + "(")
    if at < 0:
        return None
    depth, start, out, quote = 0, at + len(callee) + 1, [], ""
    for k in range(start, min(len(line), start + 300)):
        ch = line[k]
        if quote:
            if ch == quote and line[k - 1] != "\\":
                quote = ""
        elif ch in "'\"`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}" and depth:
            depth -= 1
        elif ch == ")":
            return [*out, line[start:k].strip()]
        elif ch == "," and not depth:
            out.append(line[start:k].strip())
            start = k + 1
    return None


def _format_dropped(old: str, new: str) -> str | None:
    if "%" not in old and "{" not in old:
        return None
    for callee in dict.fromkeys(m.group(1) for m in _CALL_RE.finditer(old)):
        was, now = _args(old, callee), _args(new, callee)
        if not was or not now or len(now) >= len(was):
            continue
        at = next((k for k, arg in enumerate(was) if _STRING_RE.match(arg) and _FORMAT_RE.search(arg)), None)
        if at is None or at >= len(now) or any(_STRING_RE.match(arg) for arg in now):
            continue
        if now[:at] == was[:at] and now[at] and _NAME_RE.match(now[at].split(".")[-1].split("[")[0].rstrip("()")):
            return f"makes the input the format string ({_cut(now[at])} in {callee})"  # the literal it replaced is quoted after
    return None


def _cut(text: str, most: int = 24) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def sibling_swapped(old: str, new: str, ta: list[str], tb: list[str], added: Sequence[str], removed: Sequence[str]) -> str | None:
    """What an edited pair turns by a sibling name or a dropped format literal (the pair's reason without its quote), or None."""
    return _named_swap(old, new, ta, tb, added, removed) or _format_dropped(old, new)
