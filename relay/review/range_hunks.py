"""A patch's hunks re-cut to line ranges: the changed lines a range holds, with a line of context.

Why it exists: the run's patch (``relay.observe.run_patch``) carries three lines of context per
hunk, as ``git apply`` wants, while the packet names line ranges counted as ``git diff -U0``
counts them: one run of changed lines is one hunk, its range its added lines or, for lines only
removed, the new line just before them (line 1 at the top). ``cut_hunks`` finds those runs in
the patch's hunks, keeps the ones that meet the ranges asked for, and gives each back with
``context`` unchanged lines around it as a unified-diff hunk with its own ``@@`` counts, so the
review read shows exactly what the packet names and little else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from relay.observe.kept_lines import kept_line

__all__ = ["RangeHunk", "cut_hunks", "parse_lines", "window", "CONTEXT"]

# Unchanged lines shown on each side of a run of changed lines: enough to see where it sits.
CONTEXT = 1
# Blank context lines a removal's trailing context looks past for the statement that follows it.
_BLANK_RUN = 2

_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True, slots=True)
class RangeHunk:
    """One hunk of the view: the range it covers as the packet counts it, and its text."""

    start: int
    end: int
    text: str  # "@@ -a,b +c,d @@\n" and its lines, each ending in "\n"
    added: tuple[str, ...]  # the added lines' text, without sign (what the ranking's rules read)
    removed: tuple[str, ...]

    @property
    def changed(self) -> int:
        return len(self.added) + len(self.removed)

    @property
    def line_count(self) -> int:
        return self.text.count("\n") - 1


@dataclass(frozen=True, slots=True)
class _Line:
    sign: str  # " ", "+", "-" or "\\" (git's "\ No newline at end of file")
    text: str  # the line as the patch has it, sign included, "\n"-ended
    old: int  # the next old line number when this line starts
    new: int  # the next new line number when this line starts


def parse_lines(hunk: str) -> list[_Line]:
    """The lines of one patch hunk (its ``@@`` line first), each with where it stands in both files."""
    rows = hunk.splitlines(keepends=True)
    match = _HEADER.match(rows[0]) if rows else None
    if match is None:
        return []
    old_start, old_count, new_start, new_count = match.groups()
    # A side with no lines names the line before it: the next one is one further.
    old = int(old_start) + (old_count == "0")
    new = int(new_start) + (new_count == "0")
    out: list[_Line] = []
    for row in rows[1:]:
        row = row if row.endswith("\n") else row + "\n"
        sign = row[0] if row[0] in " +-\\" else " "
        out.append(_Line(sign, row, old, new))
        if sign in " -":
            old += 1
        if sign in " +":
            new += 1
    return out


def _blocks(lines: list[_Line]) -> list[tuple[int, int, int, int]]:
    """(first index, end index, range start, range end) of each run of changed lines."""
    out: list[tuple[int, int, int, int]] = []
    i = 0
    while i < len(lines):
        if lines[i].sign not in "+-":
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].sign in "+-\\":
            j += 1
        added = [ln.new for ln in lines[i:j] if ln.sign == "+"]
        if added:
            lo, hi = added[0], added[-1]
        else:
            lo = hi = max(lines[i].new - 1, 1)
        out.append((i, j, lo, hi))
        i = j
    return out


def _meets(lo: int, hi: int, ranges: Sequence[tuple[int, int]] | None) -> bool:
    return ranges is None or any(lo <= end and hi >= start for start, end in ranges)


# A run of blanks longer than indentation or alignment needs is shown by its length: padding must not push the rest of a
# line out of the view (nor the cut hide its end: a long line shows its head and its tail).
_PADDING_RE = re.compile(r"[ \t]{33,}")
_TAIL = 100


def _cut_line(text: str, limit: int) -> str:
    body = text[:-1]
    if len(body) > 32:
        body = _PADDING_RE.sub(lambda m: f" …[{len(m.group()):,} blanks]… ", body)
    if len(body) <= limit:
        return body + "\n" if body != text[:-1] else text
    return f"{body[:max(limit - _TAIL, 0)]}…[{len(body) - limit:,} chars]…{body[-_TAIL:]}\n"


def _render(lines: list[_Line], line_chars: int) -> str:
    olds = sum(ln.sign in " -" for ln in lines)
    news = sum(ln.sign in " +" for ln in lines)
    first = lines[0]
    old_start = first.old if olds else first.old - 1
    new_start = first.new if news else first.new - 1
    head = f"@@ -{old_start},{olds} +{new_start},{news} @@\n"
    return head + "".join(_cut_line(ln.text, line_chars) for ln in lines)


def cut_hunks(hunks: Sequence[str], ranges: Sequence[tuple[int, int]] | None, *, context: int = CONTEXT,
              line_chars: int = 400, text: bool = True, kept: int | None = None) -> list[RangeHunk]:
    """The runs of changed lines of ``hunks`` that meet ``ranges`` (None: all of them), each with
    ``context`` unchanged lines around it, runs whose context touches joined into one hunk; in
    line order. A line longer than ``line_chars`` is cut, and the cut said on it. ``text`` false: each hunk's text is
    left empty (a reader of its runs' lines alone does not pay for every line rendered). ``kept``: the runs' added and
    removed lines as observation keeps them for the readers, within ``kept`` characters (``relay.observe.kept_lines``)."""
    # A reader of the patch's runs gets the lines the file's own reading got: the readers are bounded per line of at most
    # HUNK_CHARS, and a minified bundle's 48,000-character line, read whole from the patch, cost a pair reader seconds.
    keep = (lambda line: line) if kept is None else (lambda line: kept_line(line.encode(), kept))
    out: list[RangeHunk] = []
    for hunk in hunks:
        lines = parse_lines(hunk)
        spans: list[list[int]] = []  # [first, end, range start, range end]
        for i, j, lo, hi in _blocks(lines):
            if not _meets(lo, hi, ranges):
                continue
            first = i
            while first > 0 and i - first < context and lines[first - 1].sign == " ":
                first -= 1
            end = j
            while end < len(lines) and end - j < context and lines[end].sign == " ":
                end += 1
            # A run that removes lines shows, past blank context, the first line that now runs where they stood: a guard
            # deleted above a blank line showed the blank and not what the guard guarded (round 27 part C: held-out 35's
            # go-chi/jwtauth, `if err != nil { … return }` deleted, its next statement one blank line below, out of view).
            if any(ln.sign == "-" for ln in lines[i:j]):
                while (end > j and end < len(lines) and end - j < context + _BLANK_RUN and lines[end].sign == " "
                       and not lines[end - 1].text[1:].strip()):
                    end += 1
            if end < len(lines) and lines[end].sign == "\\":
                end += 1  # "\ No newline at end of file" belongs to the line before it
            if spans and first <= spans[-1][1]:
                spans[-1][1], spans[-1][3] = end, max(spans[-1][3], hi)
            else:
                spans.append([first, end, lo, hi])
        for first, end, lo, hi in spans:
            part = lines[first:end]
            out.append(RangeHunk(
                start=lo, end=hi, text=_render(part, line_chars) if text else "",
                added=tuple(keep(ln.text[1:-1]) for ln in part if ln.sign == "+"),
                removed=tuple(keep(ln.text[1:-1]) for ln in part if ln.sign == "-"),
            ))
    return out


def window(text: str, first: int, end: int, *, line_chars: int = 400) -> str:
    """Rows ``first`` to ``end`` (0-based, after the ``@@`` line) of a rendered hunk, as a hunk of their own
    with its own ``@@`` counts."""
    lines = parse_lines(text)[first:end]
    return _render(lines, line_chars) if lines else ""
