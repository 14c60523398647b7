"""One changed file as the review's line rules read it: the line-reading tests' shared helpers (issue 36)."""

from __future__ import annotations

from relay.core.contracts import FileChange
from relay.review.file_kinds import read_changes
from relay.review.range_hunks import RangeHunk
from relay.review.risk import RiskContext, assess

__all__ = ["fc", "hunk", "review"]


def fc(path: str, added: list[str] | None = None, removed: list[str] | None = None, **kw: object) -> FileChange:
    """A changed file with these added and removed lines (counts from them); other FileChange fields by keyword."""
    added, removed = added or [], removed or []
    return FileChange(path=path, additions=len(added), deletions=len(removed), added_lines=added, removed_lines=removed, **kw)  # type: ignore[arg-type]


def review(change: FileChange) -> FileChange:
    """The file as the ranking reads it: the lines its path's filter keeps, then every rule."""
    [read], partial = read_changes([change])
    return assess(read, RiskContext(partial=partial))


def hunk(start: int, rows: list[str]) -> RangeHunk:
    """A view hunk from its diff rows (" ctx", "+added", "-removed"), its first line at ``start``."""
    text = f"@@ -{start},{len(rows)} +{start},{len(rows)} @@\n" + "".join(r + "\n" for r in rows)
    added = tuple(r[1:] for r in rows if r.startswith("+"))
    removed = tuple(r[1:] for r in rows if r.startswith("-"))
    return RangeHunk(start=start, end=start + len(rows) - 1, text=text, added=added, removed=removed)
