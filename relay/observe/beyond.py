"""What git's view of the trees cannot show, said rather than called unchanged.

Claims of the worker inside ignored folders or nested repositories (judged by timestamp), and writes through a
symlink of the before tree that leads out of the workspace (the trees hold the link, not what it points at).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from relay.core.contracts import FileChange
from relay.observe.git import GitError
from relay.observe.reported import normalize_reported
from relay.observe.snapshot import CLOCK_SLACK_NS, SKIP_DIRS, Snapshot, git_private

__all__ = ["beyond_view"]


class _Said(Protocol):
    """Where the findings go: the change set (``relay.observe.changes.ChangeSet``) being built."""

    files: list[FileChange]
    outside: dict[str, str]
    unseen: dict[str, str]
    escapes: dict[str, str]

_MAX_BEYOND_CHECKS = 2_000


def _changed_during(path: str, started_ns: int) -> bool | None:
    """True if the file's timestamps are newer than the snapshot; None if it is not there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return max(st.st_mtime_ns, st.st_ctime_ns) >= started_ns - CLOCK_SLACK_NS


def _link_escape(ws: Path, path: str) -> tuple[str, str] | None:
    """(the symlink, its target) when ``path`` leads out of the workspace through a symlink."""
    real = os.path.realpath(ws / path)
    root = str(ws)
    if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
        return None
    where = ws
    for part in Path(path).parts:
        where = where / part
        if where.is_symlink():
            try:
                return str(where.relative_to(ws)), os.readlink(where)
            except OSError:
                return str(where.relative_to(ws)), real
    return None


def _folded_reason(before: Snapshot, path: str) -> str | None:
    """Why git (or the walk) cannot see ``path``, or None when it can."""
    if before.source == "tree":
        for part in Path(path).parts[:-1]:
            if part in SKIP_DIRS:
                return f"inside {part}/, which the relay does not walk"
        return None
    for repo in before.repos():
        for folder in repo.folded:
            out = repo.out(folder) if folder.startswith(repo.prefix) else None
            if out and path.startswith(out):
                sub = folder.rstrip("/")
                kind = "nested repository" if sub in repo.subs or sub in repo.nested else "ignored folder"
                return f"inside the {kind} {out}, which git does not show"
        for new in repo.new_nested:
            out = repo.out(new) + "/"
            if path.startswith(out):
                return f"inside the nested repository {out}, new in this run"
        for folder in repo.new_folded:
            out = repo.out(folder) if folder.startswith(repo.prefix) else None
            if out and path.startswith(out):
                return f"inside the ignored folder {out}, new in this run, which git does not show"
        if path.startswith(repo.out_prefix):
            rel = repo.prefix + path[len(repo.out_prefix):]
            if rel in repo.new_ignored:
                return "an ignored file, which git does not show"
    return None


def _links(before: Snapshot) -> list[str]:
    """Symlinks of the before trees (a write through one leaves the trees unchanged): read from the before index
    by the snapshot; from the before tree where it could not read the index."""
    found: list[str] = []
    for repo in before.repos():
        links = repo.links
        if links is None and repo.before:
            with contextlib.suppress(GitError):
                out = git_private(before.dir, repo, "ls-tree", ["-r", "-z"], values=[repo.before])
                links = [repo.out_prefix + os.fsdecode(r.split(b"\t", 1)[1]) for r in out.split(b"\0") if r.startswith(b"120000 ")]
        found.extend(links or [])
    return found[:_MAX_BEYOND_CHECKS]


def beyond_view(result: _Said, before: Snapshot, ws: Path, reported: Sequence[str]) -> None:
    """What the trees cannot show: claims inside ignored folders or nested repositories, and
    writes through symlinks that lead out of the workspace.

    Never a verdict of "unchanged" on what was not looked at: a path there is listed as
    changed when its timestamps are newer than the snapshot, else named as not confirmed.
    """
    seen = {c.path for c in result.files} | {c.old_path for c in result.files if c.old_path}
    claims = normalize_reported(reported, ws)
    candidates = list(dict.fromkeys([*claims, *_links(before)]))[:_MAX_BEYOND_CHECKS]
    claimed = set(claims)
    for path in candidates:
        escape = _link_escape(ws, path)
        if escape is not None:
            link, target = escape
            changed = _changed_during(str(ws / path), before.started_ns)
            if changed or path in claimed:
                result.escapes[path] = f"{link} → {target}"
            if changed:
                if path not in seen:
                    result.files.append(FileChange(path=path, kind="modified", symlink=True))
                result.outside[path] = f"written through the symlink {link} → {target}, outside the workspace"
            continue
        if path in seen or path not in claimed:
            continue
        why = _folded_reason(before, path)
        if why is None:
            continue  # git sees this path: "claimed but unchanged" is the truth
        changed = _changed_during(str(ws / path), before.started_ns)
        if changed:
            result.files.append(FileChange(path=path, kind="modified"))
            result.outside[path] = f"{why}: changed during the run by its timestamp (not diffed)"
        else:
            state = "not there" if changed is None else "its timestamps predate the run"
            result.unseen[path] = f"{why}; {state}"
    result.files.sort(key=lambda c: c.path)
