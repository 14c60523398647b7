"""The permission bits of a workspace's files before a run, so a revert puts a file's mode back exactly (issue 22).

Git's trees and the snapshot keep only the executable bit (100644 / 100755): a worker's ``chmod 755`` on a
0600 file came back 0644 after ``on_violation: "revert"``, a private file left readable by others. Taken
only for runs that may revert: one ``git ls-files`` (tracked and untracked files, not ignored ones) and one
lstat per file, or a walk of the tree when the workspace is not a repository.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from relay.observe.git import GitError, run_git
from relay.observe.snapshot import SKIP_DIRS

__all__ = ["permission_bits", "MAX_FILES"]

MAX_FILES = 200_000  # past this the rest keep the old rule (only the executable bit follows)


def _listed(workspace: Path) -> list[str]:
    try:
        out = run_git(workspace, "ls-files", ["-z", "--cached", "--others", "--exclude-standard"], timeout=120)
        return [os.fsdecode(name) for name in out.split(b"\0") if name][:MAX_FILES]
    except GitError:
        pass
    found: list[str] = []
    for root, dirs, files in os.walk(workspace):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        found.extend(os.path.relpath(os.path.join(root, name), workspace).replace(os.sep, "/") for name in files)
        if len(found) >= MAX_FILES:
            break
    return found[:MAX_FILES]


def permission_bits(workspace: str | Path) -> dict[str, int]:
    """Workspace-relative path -> permission bits, for the regular files in it now (best effort: {} on error)."""
    workspace = Path(workspace)
    modes: dict[str, int] = {}
    try:
        names = _listed(workspace)
    except OSError:
        return modes
    for name in names:
        try:
            info = os.lstat(workspace / name)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            modes[name] = stat.S_IMODE(info.st_mode)
    return modes
