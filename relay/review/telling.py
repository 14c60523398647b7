"""Which part of a changed file tells most: its hunks (or line ranges) read alone by the ranking.

A file's risk and reasons are decided on all its changed lines (``relay.review.risk.assess``). To
point a reviewer at the right place, each part is read alone by the same rules: the part whose own
reading comes closest to the file's (its risk, then how many of the file's reasons it gives again)
is the most telling, then the one that changes most, then the first. The packet names a file's most
telling ranges first (``relay.review.packet``); the review read spends its budget on each target's
most telling hunk first and windows a big hunk around its most telling row (``relay.review.diff_view``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from relay.core.contracts import FileChange
from relay.review.file_kinds import line_filter
from relay.review.risk import RiskContext, assess, risk_rank

__all__ = ["Part", "read_alone", "telling_order"]


class Part(Protocol):
    """A part of a file's change: the range it covers in the new file and its changed lines."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def added(self) -> Sequence[str]: ...

    @property
    def removed(self) -> Sequence[str]: ...


def _stem(reason: str) -> str:
    # "changes security-relevant code (paths: realpath)" and "...: (limits: n)" give the same reason.
    return reason.split(" (", 1)[0].split(":", 1)[0]


def read_alone(change: FileChange | None, path: str, added: Sequence[str], removed: Sequence[str],
               span: tuple[int, int] | None = None) -> tuple[int, int]:
    """How the ranking reads these lines alone (the lines its rules read of them, as in the whole
    file's reading): (their risk, how many of the file's reasons they give again)."""
    kind = change.kind if change is not None and change.kind in ("added", "modified", "renamed") else "modified"
    keep = line_filter(path)
    ranges = [span] if span is not None else [(1, max(len(added), 1))]
    found = assess(FileChange(path=path, kind=kind, additions=len(added), deletions=len(removed), ranges=ranges,
                              added_lines=[ln for ln in added if keep(ln)], removed_lines=[ln for ln in removed if keep(ln)]),
                   RiskContext())
    stems = {_stem(r) for r in change.reasons} if change is not None else set()
    return risk_rank(found.risk), len(stems & {_stem(r) for r in found.reasons})


def telling_order(change: FileChange | None, path: str, parts: Sequence[Part]) -> list[int]:
    """The indices of ``parts``, most telling first: read alone nearest the file's own reading (risk,
    then reasons in common), then the one that changes most, then in the order given."""
    if len(parts) < 2:
        return list(range(len(parts)))

    def score(i: int) -> tuple[tuple[int, int], int, int]:
        p = parts[i]
        return read_alone(change, path, p.added, p.removed, (p.start, p.end)), len(p.added) + len(p.removed), -i

    return sorted(range(len(parts)), key=score, reverse=True)
