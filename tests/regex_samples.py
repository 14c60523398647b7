"""Random strings that a compiled regular expression matches, for property tests.

Walks the pattern's parse tree (``re._parser``, the standard library's own parser) and builds text
that follows it: literals in any case the pattern's flags allow (the long s and the Kelvin sign
too, which ``re.IGNORECASE`` matches as s and k), each character class from its members, repeats
a few times, one branch of each alternation. Anchors and look-arounds are not planned for, so a
string is kept only when the pattern really finds a match in it (with some text around it).
"""

from __future__ import annotations

import random
import re
from re import _constants as c  # type: ignore[attr-defined]
from re import _parser as sre  # type: ignore[attr-defined]

__all__ = ["samples"]

_POOL = "aAzZ09_ -.,;:()[]{}'\"\t/\\<>=!*+?#@$%&|~^`é"
_CATEGORY = {
    c.CATEGORY_DIGIT: "0123456789",
    c.CATEGORY_NOT_DIGIT: "aZ_ -.(",
    c.CATEGORY_SPACE: " \t\n\r\f\v",
    c.CATEGORY_NOT_SPACE: "aZ0_-.(",
    c.CATEGORY_WORD: "aZ09_é",
    c.CATEGORY_NOT_WORD: " -.(\t;",
}
# What IGNORECASE lets stand for a letter besides its two cases.
_FOLDS = {"s": "ſ", "k": "\u212a", "i": "İ"}
_CONTEXT = ("", " ", "x = ", "  # ", "(", "\t")
_TAILS = ("", " ", ";", ")", " {", ".")


def _case(ch: str, rng: random.Random) -> str:
    options = {ch, ch.lower(), ch.upper()}
    if ch.lower() in _FOLDS and rng.random() < 0.15:
        return _FOLDS[ch.lower()]
    return rng.choice(sorted(options))


def _class_chars(items: list, ignorecase: bool) -> tuple[bool, list[tuple]]:
    negate = bool(items) and items[0][0] is c.NEGATE
    return negate, [item for item in items if item[0] is not c.NEGATE]


def _in_class(ch: str, items: list[tuple]) -> bool:
    for op, av in items:
        if op is c.LITERAL and ord(ch) == av:
            return True
        if op is c.RANGE and av[0] <= ord(ch) <= av[1]:
            return True
        if op is c.CATEGORY and ch in _CATEGORY.get(av, ""):
            return True
    return False


# The pool's characters outside a negated class, by the class's items: the same list each time it is drawn from (so the
# same draws), built once a class, not once a draw (~800,000 membership tests a run of tests/test_screens.py).
_OUTSIDE: dict[tuple, list[str]] = {}


def _outside(items: list[tuple]) -> list[str]:
    key = tuple(items)
    if key not in _OUTSIDE:
        _OUTSIDE[key] = [ch for ch in _POOL if not _in_class(ch, items)] or ["a"]
    return _OUTSIDE[key]


def _gen(parsed, rng: random.Random, ignorecase: bool, groups: dict[int, str]) -> str:
    out: list[str] = []
    # A parse tree's node is a SubPattern whose items are read one by one through its __getitem__: its list, read directly.
    for op, av in getattr(parsed, "data", parsed):
        if op is c.LITERAL:
            out.append(_case(chr(av), rng) if ignorecase else chr(av))
        elif op is c.NOT_LITERAL:
            out.append(rng.choice([ch for ch in _POOL if ord(ch) != av]))
        elif op is c.ANY:
            out.append(rng.choice(_POOL))
        elif op is c.IN:
            negate, items = _class_chars(av, ignorecase)
            if negate:
                out.append(rng.choice(_outside(items)))
                continue
            item_op, item = rng.choice(items)
            if item_op is c.LITERAL:
                out.append(_case(chr(item), rng) if ignorecase else chr(item))
            elif item_op is c.RANGE:
                out.append(chr(rng.randint(item[0], min(item[1], item[0] + 200))))
            else:
                out.append(rng.choice(_CATEGORY.get(item, "a")))
        elif op is c.BRANCH:
            out.append(_gen(rng.choice(av[1]), rng, ignorecase, groups))
        elif op is c.SUBPATTERN:
            group, add, remove, sub = av
            flags = (ignorecase or bool(add & re.I)) and not (remove & re.I)
            text = _gen(sub, rng, flags, groups)
            if group is not None:
                groups[group] = text
            out.append(text)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = av
            count = rng.randint(low, min(high, low + 3))
            out.extend(_gen(sub, rng, ignorecase, groups) for _ in range(count))
        elif op is c.GROUPREF:
            out.append(groups.get(av, ""))
        elif op is c.GROUPREF_EXISTS:
            group, yes, no = av
            chosen = yes if group in groups else no
            if chosen is not None:
                out.append(_gen(chosen, rng, ignorecase, groups))
        elif op is getattr(c, "ATOMIC_GROUP", None):
            out.append(_gen(av, rng, ignorecase, groups))
        # AT (anchors), ASSERT and ASSERT_NOT (look-arounds) produce nothing: the match check decides.
    return "".join(out)


def samples(pattern: re.Pattern[str], count: int, *, seed: int = 0) -> list[str]:
    """Up to ``count`` distinct lines in which ``pattern.search`` finds a match."""
    rng = random.Random(seed)
    parsed = sre.parse(pattern.pattern, pattern.flags)
    found: set[str] = set()
    for _ in range(count * 3):
        core = _gen(parsed, rng, bool(pattern.flags & re.I), {})
        line = rng.choice(_CONTEXT) + core + rng.choice(_TAILS)
        if pattern.search(line):
            found.add(line)
        elif pattern.search(core):
            found.add(core)
        if len(found) >= count:
            break
    return sorted(found)
