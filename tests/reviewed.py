"""One worker's edits reviewed as the relay reviews a run: a real repository, its before tree, the files written,
git's diff observed and the review built (no relay, no agy). Shared by the guard tests of the review."""

from __future__ import annotations

from pathlib import Path

from git_repos import make_repo
from relay.core.contracts import FileChange, WorkerReport
from relay.observe.changes import observe_changes
from relay.observe.snapshot import take_snapshot
from relay.review.packet import build_review


def review_edits(root: Path, files: dict[str, str], *, before: dict[str, str] | None = None,
                 task: str = "tidy the code") -> tuple[str, dict[str, FileChange]]:
    """(the change's overall risk, each assessed file by path) after ``files`` are written over ``before``."""
    repo = make_repo(root / "project", before or {"README.md": "# p\n"})
    snap = take_snapshot(repo)
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    changes, _, assessed = build_review(observe_changes(snap, repo), report=WorkerReport(summary="s", files_changed=list(files)),
                                        workspace=repo, task=task)
    return changes.risk, {c.path: c for c in assessed}
