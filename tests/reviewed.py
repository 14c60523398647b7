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


def one_edit_named(root: Path, path: str, before: str, after: str, said: str) -> FileChange:
    """The file ``path`` edited from ``before`` to ``after``, checked to lift the change above low with ``said`` in its
    first reason (a round's named case), returned for any further look."""
    risk, files = review_edits(root, {path: after}, before={path: before})
    assert risk != "low" and said in files[path].reasons[0], files[path]
    return files[path]


def one_edit_says_none(root: Path, path: str, before: str, after: str, words: tuple[str, ...]) -> None:
    """The same edit's near miss: none of ``words`` (what the round's readers say) in the file's reasons."""
    _, files = review_edits(root, {path: after}, before={path: before})
    said = " ".join(files[path].reasons)
    assert not any(w in said for w in words), files[path]
