"""One file's changes in Python: line diff, changed blocks, the bounded line sample, ranges.

Why it exists: a file dirty, untracked or ignored before the run is diffed here against the
bytes the snapshot kept (git knows only HEAD), so earlier edits are never blamed on the worker.

The changed lines are kept whole, up to ``HUNK_LINES`` a side, each cut to ``HUNK_CHARS``; which of
them the risk rules read is review's choice (``relay.review.file_kinds.sampled``). Ranges are 1-based inclusive line numbers in the new file; a hunk that
only removes lines is marked at the line it was removed after.
"""

from __future__ import annotations

import bisect
import difflib
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from relay.core.contracts import FileChange

__all__ = ["HUNK_LINES", "HUNK_CHARS", "MAX_RANGES", "LineSample", "Side", "ABSENT_SIDE", "split_lines", "is_binary",
           "opcodes", "compare_sides", "fill_counts", "mark_mode_only"]

MAX_RANGES = 100
# Changed lines kept per side of a file, and characters per line: whole hunks for the readers,
# bounded so a generated file cannot fill the memory.
HUNK_LINES = 4000
HUNK_CHARS = 1000
# difflib on the part between common prefix and suffix; above this many line pairs it can be
# slow, so the middle is split on lines that occur once on both sides first (patience diff).
_DIFFLIB_MAX_PRODUCT = 4_000_000
# Appended to a last line without a newline, so "x" and "x\n" differ as they do in git.
_NO_EOL = b"\0no-newline-at-end"


class LineSample:
    """Counts, ranges and the changed lines (bounded) of one file, fed hunk by hunk."""

    __slots__ = ("additions", "deletions", "ranges", "added", "removed")

    def __init__(self, path: str) -> None:
        self.additions = 0
        self.deletions = 0
        self.ranges: list[tuple[int, int]] = []
        self.added: list[str] = []
        self.removed: list[str] = []

    def hunk(self, new_start: int, old_count: int, new_count: int) -> None:
        self.additions += new_count
        self.deletions += old_count
        if new_count:
            self.ranges.append((new_start, new_start + new_count - 1))
        else:
            at = max(new_start, 1)
            self.ranges.append((at, at))

    def line(self, sign: str, raw: bytes) -> None:
        side = self.added if sign == "+" else self.removed
        if len(side) < HUNK_LINES:
            side.append(raw.replace(_NO_EOL, b"")[:HUNK_CHARS * 4].decode("utf-8", "replace")[:HUNK_CHARS])


def bounded_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge adjacent hunks, then coarser and coarser, until at most MAX_RANGES remain."""
    gap = 1
    out = sorted(ranges)
    while True:
        merged: list[tuple[int, int]] = []
        for start, end in out:
            if merged and start - merged[-1][1] <= gap:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        if len(merged) <= MAX_RANGES:
            return merged
        out, gap = merged, gap * 4


def split_lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    elif lines:
        # A missing final newline is a difference of its own, as in git.
        lines[-1] += _NO_EOL
    return lines


def is_binary(data: bytes) -> bool:
    # git's own test: a NUL byte in the first 8000 bytes.
    return b"\0" in data[:8000]


def opcodes(a: Sequence[bytes], b: Sequence[bytes], a0: int = 0, b0: int = 0) -> list[tuple[int, int, int, int]]:
    """Changed blocks (i1, i2, j1, j2), 0-based half-open, between line lists a and b."""
    lo, n = 0, min(len(a), len(b))
    while lo < n and a[lo] == b[lo]:
        lo += 1
    ha, hb = len(a), len(b)
    while ha > lo and hb > lo and a[ha - 1] == b[hb - 1]:
        ha -= 1
        hb -= 1
    if lo == ha and lo == hb:
        return []
    if lo == ha or lo == hb:
        return [(a0 + lo, a0 + ha, b0 + lo, b0 + hb)]
    mid_a, mid_b = a[lo:ha], b[lo:hb]
    if len(mid_a) * len(mid_b) > _DIFFLIB_MAX_PRODUCT:
        anchors = _unique_anchors(mid_a, mid_b)
        if anchors:
            out: list[tuple[int, int, int, int]] = []
            pi = pj = 0
            for ai, bj in anchors:
                out += opcodes(mid_a[pi:ai], mid_b[pj:bj], a0 + lo + pi, b0 + lo + pj)
                pi, pj = ai + 1, bj + 1
            out += opcodes(mid_a[pi:], mid_b[pj:], a0 + lo + pi, b0 + lo + pj)
            return out
        # Nothing in common to anchor on: honest as one replaced block.
        return [(a0 + lo, a0 + ha, b0 + lo, b0 + hb)]
    matcher = difflib.SequenceMatcher(None, mid_a, mid_b, autojunk=True)
    return [
        (a0 + lo + i1, a0 + lo + i2, b0 + lo + j1, b0 + lo + j2)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _unique_anchors(a: Sequence[bytes], b: Sequence[bytes]) -> list[tuple[int, int]]:
    """Lines that occur exactly once in a and once in b, kept in an order both agree on
    (the longest increasing subsequence): the anchors of a patience diff."""
    count_a = Counter(a)
    count_b = Counter(b)
    where_b = {line: j for j, line in enumerate(b) if count_b[line] == 1}
    pairs = [(i, where_b[line]) for i, line in enumerate(a) if count_a[line] == 1 and line in where_b]
    if not pairs:
        return []
    # Longest increasing subsequence on j (patience sorting), O(n log n).
    tails: list[int] = []
    tails_idx: list[int] = []
    prev = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        pos = bisect.bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tails_idx.append(k)
        else:
            tails[pos] = j
            tails_idx[pos] = k
        prev[k] = tails_idx[pos - 1] if pos else -1
    out = []
    k = tails_idx[-1]
    while k != -1:
        out.append(pairs[k])
        k = prev[k]
    return out[::-1]


@dataclass(slots=True)
class Side:
    """One side of a comparison: what kind of thing, its mode and its bytes (None: unknown)."""

    kind: str
    executable: bool = False
    data: bytes | None = None


ABSENT_SIDE = Side("absent", data=b"")


def _mode(side: Side) -> str | None:
    if side.kind == "file":
        return "100755" if side.executable else "100644"
    if side.kind == "link":
        return "120000"
    return None


def compare_sides(path: str, before: Side, after: Side, *, old_path: str | None = None, notes: list[str] | None = None) -> FileChange | None:
    """Compare two sides of one path in Python (the paths git cannot diff for us)."""
    if before.kind == "absent" and after.kind == "absent":
        return None
    if old_path is not None:
        kind = "renamed"
    elif before.kind == "absent":
        kind = "added"
    elif after.kind == "absent":
        kind = "deleted"
    elif before.kind != after.kind:
        kind = "type"
    else:
        kind = "modified"
    change = FileChange(path=path, kind=kind, old_path=old_path)  # type: ignore[arg-type]
    change.symlink = "link" in (before.kind, after.kind)
    if before.kind not in ("file", "link") and after.kind not in ("file", "link"):
        return change  # a folded folder (nested repository), a FIFO: presence is all there is
    mode_b, mode_a = _mode(before), _mode(after)
    if mode_b and mode_a and mode_b != mode_a:
        change.mode_before, change.mode_after = mode_b, mode_a
    a_data = before.data if before.kind in ("file", "link") else b""
    b_data = after.data if after.kind in ("file", "link") else b""
    if b_data is None and after.kind == "file":
        if notes is not None:
            notes.append(f"{path}: not diffed (too large)")
        return change
    acc = LineSample(path)
    if a_data is None:
        # Before-content was not kept (over the budget): the whole file is shown as the
        # worker's, and the note says why.
        if notes is not None:
            notes.append(f"{path}: before-content not kept, whole file shown")
        a_data = b""
    if is_binary(a_data) or is_binary(b_data or b""):
        change.binary = True
        return mark_mode_only(change, a_data == b_data)
    a_lines, b_lines = split_lines(a_data), split_lines(b_data or b"")
    for i1, i2, j1, j2 in opcodes(a_lines, b_lines):
        acc.hunk(j1 + 1 if j2 > j1 else j1, i2 - i1, j2 - j1)
        for line in a_lines[i1:i2]:
            acc.line("-", line)
        for line in b_lines[j1:j2]:
            acc.line("+", line)
    fill_counts(change, acc)
    if change.symlink and after.kind == "link" and b_data is not None:
        # The rules judge a symlink by its target, which no sample filter would keep.
        change.added_lines = [os.fsdecode(b_data)[:HUNK_CHARS]]
    return mark_mode_only(change, not acc.additions and not acc.deletions)


def fill_counts(change: FileChange, acc: LineSample) -> None:
    change.additions, change.deletions = acc.additions, acc.deletions
    change.ranges = bounded_ranges(acc.ranges)
    change.added_lines, change.removed_lines = acc.added, acc.removed


def mark_mode_only(change: FileChange, same_content: bool) -> FileChange:
    """A file "modified" whose content is the same changed only its mode: say so, as git does."""
    if change.kind == "modified" and change.mode_before and same_content:
        change.kind = "mode"
    return change
