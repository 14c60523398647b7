"""A small edit quoted: what changed, centred on the change and cut to fit a reason.

Why it exists: a file whose whole change is one or two runs of at most three changed lines was described by its size
("edit (+1/-1)"), which tells a leader nothing; a slipped line (a state check's ``===`` made ``!==``, a default flipped)
is exactly such a change, in a file the rest of the work never touches. Such a file's reason shows the edit itself
(``old → new``, ``added: …``, ``removed: …``), whatever kind of file it is (code, a docs sample, a template). The quote
decides nothing: no rule reads it, the file's risk and rank stay as its rules set them (``relay.review.risk``'s
description of a file no rule flagged). ``relay.review.apart_edits`` quotes its edits apart the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

__all__ = ["centred", "common_ends", "cut", "one", "quote_run", "quote_within", "small_edits"]

# A file's whole change is small when it is at most this many runs of at most this many changed lines (blank ones left
# out) in all: what a slipped line looks like. Past it the size says enough.
_MOST_RUNS = 2
_MOST_LINES = 3
# How much of a line a quote keeps before and after what changed, and each side's length (one run; two share it).
_BEFORE = 10
_AFTER = 6
_OLD, _NEW, _ONE_SIDE = 34, 46, 80
# Words before a change that say nothing of it.
_CONNECTIVES = frozenset("and or not if elif else unless return then in is".split())


class _Run(Protocol):
    @property
    def path(self) -> str: ...

    @property
    def added(self) -> Sequence[str]: ...

    @property
    def removed(self) -> Sequence[str]: ...


def one(lines: Sequence[str]) -> str:
    """Lines as one line of text."""
    return " ".join(ln.strip() for ln in lines)


def cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def common_ends(old: Sequence[object], new: Sequence[object]) -> tuple[int, int]:
    """How many items two sequences share at their start, then at their end (not counting the start's again)."""
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch in "_$"


def centred(old: str, new: str, old_most: int = _OLD, new_most: int = _NEW) -> tuple[str, str]:
    """Both sides of an edited line, cut around what changed when too long to quote whole: whole words kept."""
    if len(old) <= old_most and len(new) <= new_most:
        return old, new
    head, tail = common_ends(old, new)
    # A change that begins inside a word or number (``LIMIT 10`` → ``LIMIT 10000``, ``0x9F`` → ``0xBF``) is that token's
    # change: it opens where the token does, so the name before it is the word kept (round 34: "…10 → …10000" named nothing).
    while 0 < head and _word_char(old[head - 1]) and ((head < len(old) and _word_char(old[head])) or (head < len(new) and _word_char(new[head]))):
        head -= 1
    # What changed must be seen whole where it can: when a side's change does not fit its room with ``_BEFORE`` characters
    # before it, the quote opens on the word just before the change (guardian's ``…self.user and not self.user.is_a…``
    # hid ``is_active``); room left after the change goes to the words after it (what a removed ``not`` applied to).
    span = max(len(old) - head - tail - old_most, len(new) - head - tail - new_most)
    free = -span - 2  # the room both sides have beyond what changed (less the two ellipses)
    before = max(_BEFORE, free * 2 // 3) if free >= _BEFORE else 4
    start = max(0, head - before)
    while start > 0 and (old[start - 1].isalnum() or old[start - 1] in "_$"):
        start -= 1
    after = max(_AFTER, -span - (head - start) - 2)
    keep = max(0, tail - after)

    def side(text: str, at: int) -> str:
        end = len(text) - keep
        while end < len(text) and (text[end].isalnum() or text[end] in "_?!"):
            end += 1
        return ("…" if at else "") + text[at:end] + ("…" if end < len(text) else "")

    # Too long still: the words before the change give way first (a whole word at a time), what follows it is kept; the
    # name just before the change stays (``originalUrl`` of ``originalUrl.replace(…)`` → ``originalUrl``).
    last = head
    while last > 0 and not (old[last - 1].isalnum() or old[last - 1] in "_$"):
        last -= 1
    word_end = last
    while last > 0 and (old[last - 1].isalnum() or old[last - 1] in "_$"):
        last -= 1
    if "&&" in old[word_end:head] or "||" in old[word_end:head] or old[last:word_end].lower() in _CONNECTIVES:
        last = head  # a word joined to the change by a connective tells less than what follows (guardian's ``and not self.user.is_active``)
    while start < last and (len(side(old, start)) > old_most or len(side(new, start)) > new_most):
        nxt = start + 1
        while nxt < last and (old[nxt - 1].isalnum() or old[nxt - 1] in "_$"):
            nxt += 1
        start = min(nxt, last)
    return side(old, start), side(new, start)


def paired(old: str, new: str) -> str:
    """An edited pair as a reason quotes it: ``old → new``, each centred on where they differ."""
    a, b = centred(old.strip(), new.strip())
    return f"{a} → {b}"


def quote_run(added: Sequence[str], removed: Sequence[str], share: float = 1.0) -> str:
    """One run's edit quoted: ``old → new`` centred on what changed, ``added: …`` or ``removed: …``; ``share`` of the
    room one run's quote may take."""
    return quote_within(added, removed, int(_OLD * share), int(_NEW * share), int(_ONE_SIDE * share))


def quote_within(added: Sequence[str], removed: Sequence[str], old_most: int, new_most: int, side_most: int,
                 sides: tuple[str, str] = ("removed: ", "added: ")) -> str:
    """One run's edit quoted within the given room: ``old → new`` centred on what changed, else one side after its
    word (``sides``: what a removed and an added side are called)."""
    if added and removed:
        old, new = centred(one(removed), one(added), old_most, new_most)
        return f"{cut(old, old_most)} → {cut(new, new_most)}"
    if removed:
        return f"{sides[0]}{cut(one(removed), side_most)}"
    return f"{sides[1]}{cut(one(added), side_most)}"


def small_edits(runs: Sequence[_Run]) -> dict[str, str]:
    """Path -> the quote of its whole change, for each file of the change whose runs (``git diff -U0``'s hunks, in
    order) are at most ``_MOST_RUNS`` holding at most ``_MOST_LINES`` changed lines in all (blank ones left out)."""
    by_path: dict[str, list[tuple[list[str], list[str]]]] = {}
    for run in runs:
        by_path.setdefault(run.path, []).append(([ln for ln in run.added if ln.strip()], [ln for ln in run.removed if ln.strip()]))
    out: dict[str, str] = {}
    for path, edits in by_path.items():
        edits = [(a, r) for a, r in edits if a or r]
        if not edits or len(edits) > _MOST_RUNS or sum(len(a) + len(r) for a, r in edits) > _MOST_LINES:
            continue
        out[path] = "; ".join(quote_run(a, r, 1.0 / len(edits)) for a, r in edits)
    return out
