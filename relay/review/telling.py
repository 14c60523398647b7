"""Where the ranking's finding sits in a file's change: its most telling hunk, and a window of a hunk too big
to show whole, placed around its most telling row.

The review read (``relay.review.diff_view``) shows first what made the ranking rank a file: the hunk and the
rows whose own assessment (``relay.review.risk.assess`` of those lines alone) comes closest to the file's risk
and reasons. This module finds them; the view decides how much room each gets (``relay.review.view_budget``).
"""

from __future__ import annotations

from relay.core.contracts import FileChange
from relay.review.file_kinds import sample_filter
from relay.review.line_shapes import SAMPLE_CHARS, SAMPLE_LINES
from relay.review.range_hunks import CONTEXT, RangeHunk, parse_lines, window
from relay.review.risk import RiskContext, assess, risk_rank

__all__ = ["telling_hunk", "cut_window"]

# A hunk too big for its room shows a window of it; the rows read to find where the window goes are bounded.
_WINDOW_SCAN = 400


def _sample(path: str, lines: tuple[str, ...]) -> list[str]:
    keep = sample_filter(path)
    return [ln[:SAMPLE_CHARS] for ln in lines if keep(ln)][:SAMPLE_LINES]


def _stem(reason: str) -> str:
    return reason.split(" (", 1)[0].split(":", 1)[0]


def telling_hunk(change: FileChange | None, path: str, hunks: list[RangeHunk]) -> int:
    """The hunk the ranking would call most telling: its own assessment nearest the file's (risk,
    then reasons in common), then the one that changes most, then the first."""
    if len(hunks) < 2:
        return 0
    stems = {_stem(r) for r in change.reasons} if change is not None else set()
    kind = change.kind if change is not None and change.kind in ("added", "modified", "renamed") else "modified"

    def score(i: int) -> tuple[int, int, int, int]:
        h = hunks[i]
        alone = assess(FileChange(path=path, kind=kind, additions=len(h.added), deletions=len(h.removed),
                                  ranges=[(h.start, h.end)], added_lines=_sample(path, h.added),
                                  removed_lines=_sample(path, h.removed)), RiskContext())
        shared = len(stems & {_stem(r) for r in alone.reasons})
        return risk_rank(alone.risk), shared, h.changed, -i

    return max(range(len(hunks)), key=score)


def _alone(change: FileChange | None, path: str, added: tuple[str, ...], removed: tuple[str, ...]) -> tuple[int, int]:
    """How the ranking reads these lines alone: (their risk, how many of the file's reasons they give)."""
    kind = change.kind if change is not None and change.kind in ("added", "modified", "renamed") else "modified"
    start = 1
    found = assess(FileChange(path=path, kind=kind, additions=len(added), deletions=len(removed),
                              ranges=[(start, start + max(len(added), 1) - 1)], added_lines=_sample(path, added),
                              removed_lines=_sample(path, removed)), RiskContext())
    stems = {_stem(r) for r in change.reasons} if change is not None else set()
    return risk_rank(found.risk), len(stems & {_stem(r) for r in found.reasons})


def _telling_row(change: FileChange | None, path: str, lines: list) -> int | None:
    """The first changed row the ranking finds most telling read alone, if any row tells more than the path."""
    base = _alone(change, path, (), ())
    best: tuple[tuple[int, int], int] | None = None
    for i, ln in enumerate(lines[:_WINDOW_SCAN]):
        if ln.sign not in "+-":
            continue
        body = (ln.text[1:-1],)
        score = _alone(change, path, body if ln.sign == "+" else (), body if ln.sign == "-" else ())
        if score > base and (best is None or score > best[0]):
            best = (score, i)
    return None if best is None else best[1]


def cut_window(change: FileChange | None, path: str, text: str, room: int, line_chars: int, least: int) -> str | None:
    """A window of a hunk too big for ``room``: from just before the row the ranking finds most telling (else
    its first added row, else its top), as many rows as fit, with its own ``@@`` counts and a line saying the rest is in the patch;
    None when fewer than ``least`` rows fit."""
    lines = parse_lines(text)
    total = len(lines)
    row = _telling_row(change, path, lines)
    where = "around the ranking's finding"
    if row is None:
        # Nothing tells more than the rest: what the worker wrote (the first added line) says most.
        row = next((i for i, ln in enumerate(lines) if ln.sign == "+"), None)
        where = "from its first added line"
    if row is None or row <= CONTEXT:
        where = "from its top"
    note = f"# … {{}} of this hunk's {total:,} lines, {where}\n"
    sizes = [len(ln.text) if len(ln.text) <= line_chars + 1 else line_chars + 24 for ln in lines]
    budget = room - len(note) - 8 - 40  # 8: the count's digits; 40: the @@ line
    first = max((row or 0) - CONTEXT, 0)
    end = first
    used = 0
    while end < total and used + sizes[end] <= budget:
        used += sizes[end]
        end += 1
    while first > 0 and used + sizes[first - 1] <= budget:
        first -= 1
        used += sizes[first]
    if end - first < max(least, 1):
        return None
    shown = window(text, first, end, line_chars=line_chars)
    while len(shown) + len(note) + 8 > room and end - first > max(least, 1):
        end -= 1
        shown = window(text, first, end, line_chars=line_chars)
    if len(shown) + len(note) + 8 > room:
        return None
    return shown + note.format(end - first)
