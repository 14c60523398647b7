"""The permission bits and sizes of a workspace's files before a run, so a revert puts a file back exactly.

Git's trees and the snapshot keep only the executable bit (100644 / 100755): a worker's ``chmod 755`` on a
0600 file came back 0644 after ``on_violation: "revert"``, a private file left readable by others (issue 22).
The size tells which of git's forms of a file the user had on disk (``relay.observe.exact_bytes``: LF or CRLF,
issue 37 W11). Taken only for runs that may revert: one ``git ls-files`` (tracked and untracked files, not
ignored ones) and one lstat per file, or a walk of the tree when the workspace is not a repository.

The listing is the snapshot's own (``relay.observe.private_repo``): its private git dir, its before index, the
excludes frozen before the run, no config of the repository's read. It used to run ``git ls-files`` in the
workspace with the repository's config and includes: an include of a FIFO, or a ``core.excludesFile`` naming one,
held the call for git's two-minute timeout, and the repository's config chose what git did in the relay.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import NamedTuple

from relay.core.files import write_own
from relay.observe.git import GitError, GitTimeout
from relay.observe.snapshot import SKIP_DIRS, Snapshot, git_private

__all__ = ["PreRun", "pre_run_files", "keep_sizes", "kept_sizes", "MAX_FILES"]

MAX_FILES = 200_000  # past this the rest keep the old rule (only the executable bit follows)


class PreRun(NamedTuple):
    """A regular file as the run found it."""

    mode: int  # its permission bits
    size: int  # its size on disk, in bytes


def _listed(workspace: Path, before: Snapshot | None) -> list[str]:
    repo = before.repo if before is not None and before.source == "git" else None
    # The before index holds the untracked files the snapshot added; --others: those kept out by size. Twice at
    # most: the background tree job may be smudging a few of its entries in place (index_bytes.index_pass), and a
    # read in that instant fails the index's checksum.
    for _ in range(2 if repo is not None else 0):
        try:
            out = git_private(before.dir, repo, "ls-files", ["-z", "--cached", "--others", "--exclude-standard"],
                              index="before", paths=[repo.prefix.rstrip("/") or "."], timeout=120)
            cut = len(repo.prefix)
            return [os.fsdecode(name)[cut:] for name in out.split(b"\0") if name][:MAX_FILES]
        except GitTimeout:
            break  # not a read that met a write: not waited on twice
        except GitError:
            continue
    found: list[str] = []
    for root, dirs, files in os.walk(workspace):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        found.extend(os.path.relpath(os.path.join(root, name), workspace).replace(os.sep, "/") for name in files)
        if len(found) >= MAX_FILES:
            break
    return found[:MAX_FILES]


def pre_run_files(workspace: str | Path, before: Snapshot | None = None) -> dict[str, PreRun]:
    """Workspace-relative path -> its bits and size, for the regular files in it now (best effort: {} on error),
    listed by ``before``'s private git (the snapshot just taken of it) or, outside git, by a walk."""
    workspace = Path(workspace)
    modes: dict[str, PreRun] = {}
    try:
        names = _listed(workspace, before)
    except OSError:
        return modes
    root = str(workspace)
    for name in names:
        try:
            info = os.lstat(os.path.join(root, name))  # not a Path per file: a third of the pass on 10,000 files
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            modes[name] = PreRun(stat.S_IMODE(info.st_mode), info.st_size)
    return modes


_SIZES = "sizes.json"


def keep_sizes(folder: str, pre_run: dict[str, PreRun], paths: list[str]) -> None:
    """The pre-run sizes of ``paths`` (the run's changed files) beside its snapshot in ``folder``: `runs revert`
    reads them to give back the line endings the user had (``relay.observe.restore.restore_endings``)."""
    sizes = {p: pre_run[p].size for p in paths if p in pre_run}
    try:
        write_own(os.path.join(folder, _SIZES), json.dumps(sizes).encode("utf-8"))  # never through a planted link
    except OSError:
        pass  # best effort: without them a revert writes git's checkout of each file


def kept_sizes(folder: str) -> dict[str, int]:
    """What ``keep_sizes`` kept ({} when nothing, or unreadable)."""
    try:
        with open(os.path.join(folder, _SIZES), encoding="utf-8") as fh:
            sizes = json.load(fh)
    except (OSError, ValueError):
        return {}
    if not isinstance(sizes, dict):
        return {}
    return {k: v for k, v in sizes.items() if isinstance(k, str) and isinstance(v, int)}
