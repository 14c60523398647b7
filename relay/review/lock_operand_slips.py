"""A lock let go before its work, an operand read from the other side, a floor written as -1 (issue 36, round 65).

From blind 92's misses, each a slip in code the commit writes itself (so no removed line pairs with it), worth a look
(medium), read by ``relay.review.last_readers`` after every other reader of an edit:

- ``released_at_once`` (new lines, and pairs): a block opened by taking a lock whose first line releases it, nothing
  held under it (``if tr.lock() {`` then ``tr.unlock() // reset below is cheap``: blind 92's btree, a ``Clear`` that
  resets the tree unguarded), or a deferred release made immediate (``defer mu.Unlock()`` → ``mu.Unlock()``).
- ``operand_mixed`` (new lines): a list of one side's fields with one field read from the other side (``&(self.major,
  self.minor, self.patch, &other.pre)``: blind 92's semver, an order that compares other's pre-release with itself).
  The review had called the pair "names changed only": ``relay.review.meaning`` no longer reads a receiver renamed at
  one place and kept at another as a rename.
- ``minus_one_floor`` (new lines): a value compared ``>= -1`` (blind 92's is: ``isInteger(value) && value >= -1`` in a
  new natural-number check lets -1 through); ``> -1`` is the usual index test and stays quiet.

The party guarded against is the worker that slips one such line into code it writes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from relay.review.overridden_turns import cut_quote

__all__ = ["held_or_mixed"]

_LINES = 4000  # new lines read
_LONG = 400  # a longer line is data, not a slip's line

# A lock taken or let go, by its receiver (``mu.Lock()``, ``tr.lock()``, ``self._lock.acquire()``, ``m.RLock()``).
_TAKE_RE = re.compile(r"(?P<recv>[\w.]+)\.(?P<op>lock|Lock|RLock|rlock|tryLock|try_lock|TryLock|acquire|lock_shared|Enter)\(\s*\)")
_GIVE_RE = re.compile(r"^\s*(?P<defer>defer\s+)?(?P<recv>[\w.]+)\.(?P<op>unlock|Unlock|RUnlock|runlock|release|unlock_shared|Exit)"
                      r"\(\s*\)\s*;?\s*(?://.*|#.*)?$")
_COMMENT_RE = re.compile(r"^\s*(?://|#|/\*|\*)")


def _released_at_once(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # A deferred release made immediate (a pair: the same line without its ``defer``).
    deferred = {_give_key(line) for line in removed[:_LINES] if "defer" in line and _GIVE_RE.match(line)}
    for new in added[:_LINES] if deferred else ():
        if (m := _GIVE_RE.match(new)) and not m.group("defer") and _give_key(new) in deferred:
            return f"releases a lock at once where it was held to the function's end (its defer dropped): {cut_quote(new.strip())}"
    # A block opened by taking a lock whose first line lets it go (a comment or a blank between them holds nothing). Only a
    # block's head: the added lines stand without the unchanged ones, and ``mu.RLock()`` / ``mu.RUnlock()`` added around a
    # kept line read as neighbours (afero's getBucket, ordinary history).
    code = [line for line in added[:_LINES] if line.strip() and not _COMMENT_RE.match(line)]
    for take, give in zip(code, code[1:]):
        if len(take) > _LONG or not take.rstrip().endswith("{") or (t := _TAKE_RE.search(take)) is None:
            continue
        if (g := _GIVE_RE.match(give)) and not g.group("defer") and g.group("recv") == t.group("recv"):
            return f"releases a lock on the line after taking it (nothing runs under it): {cut_quote(take.strip())} {cut_quote(give.strip())}"
    return None


def _give_key(line: str) -> str:
    """A release line by its receiver and call alone (its ``defer``, comment and spacing left out)."""
    m = _GIVE_RE.match(line)
    return f"{m.group('recv')}.{m.group('op')}" if m else ""


# The two sides a comparison or an ordering reads, by the names code gives them.
_SIDES = ({"self", "other"}, {"this", "other"}, {"this", "that"}, {"lhs", "rhs"}, {"left", "right"}, {"a", "b"})
_GROUP_RE = re.compile(r"[(\[]([^()\[\]]{8,300})[)\]]")
_FIELD_RE = re.compile(r"^[&*\s]*(?P<base>[A-Za-z_]\w*)\.(?P<field>[A-Za-z_]\w*)\s*$")


def _operand_mixed(added: Sequence[str]) -> str | None:
    for line in added[:_LINES]:
        if len(line) > _LONG or "." not in line or "," not in line:
            continue
        for group in _GROUP_RE.finditer(line):
            items = [m for item in group.group(1).split(",") if (m := _FIELD_RE.match(item))]
            if len(items) < 3 or len(items) != group.group(1).count(",") + 1:
                continue  # a list of fields only, three or more
            bases = Counter(m.group("base") for m in items)
            if len(bases) != 2:
                continue
            (most, many), (odd, one) = bases.most_common()
            fields = {m.group("field") for m in items if m.group("base") == most}
            lone = next(m.group("field") for m in items if m.group("base") == odd)
            if one == 1 and many >= 2 and {most, odd} in _SIDES and lone not in fields:
                return (f"reads {odd}.{lone} among {most}'s fields (one side compared with the other's value, not its own): "
                        f"{cut_quote(line.strip())}")
    return None


# ``>= -1`` as a floor (``> -1`` is the usual "found" test of an index, and stays quiet).
_MINUS_ONE_FLOOR_RE = re.compile(r"[\w.)\]]\s*>=\s*-\s*1(?![\w.])")


def _minus_one_floor(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {line.strip() for line in removed[:_LINES] if ">=" in line}
    for line in added[:_LINES]:
        if ">=" in line and len(line) <= _LONG and _MINUS_ONE_FLOOR_RE.search(line) and line.strip() not in olds:
            return f"lets -1 through a floor written as >= -1 (a non-negative check passes a negative value): {cut_quote(line.strip())}"
    return None


def held_or_mixed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first of these slips the edit makes (each worth a look)."""
    for found in (_released_at_once(added, removed), _operand_mixed(added), _minus_one_floor(added, removed)):
        if found:
            return found
    return None

