"""Where a ``.git`` sends git, read without running git; and the repositories inside ignored folders.

git folds a wholly ignored folder (``vendor/``) into one entry and never looks inside: a repository there (a vendored
clone) is scanned by no look, and its git dir was watched by no guard, so a hook the worker planted in
``vendor/lib/.git/hooks`` ran at the person's next commit there unseen. ``ignored_repos`` finds them before the run
(the folders of each folded folder, bounded) for relay.observe.git_dir to keep and watch. Reading the ``.git`` as
text runs nothing the repository's config names, and cannot wait on an include of a FIFO as git would.
"""

from __future__ import annotations

import contextlib
import os

from relay.core.files import read_regular

__all__ = ["git_dirs_named", "ignored_repos"]

_WALK_MAX = 2_000  # folders looked at inside the ignored folders, in all
_DEPTH = 3  # how deep below an ignored folder a repository is looked for


def git_dirs_named(dot_git: str) -> tuple[str, str] | None:
    """(common dir, own git dir) a ``.git`` makes git use, read as git would (a folder, a link to one, a file saying
    ``gitdir: …``; ``commondir`` in it for a worktree's), without running git; None when it names none."""
    if os.path.isdir(dot_git):
        own = os.path.realpath(dot_git) if os.path.islink(dot_git) else dot_git
    else:
        try:
            text = read_regular(dot_git, 4096).decode("utf-8", "replace").strip()
        except OSError:
            return None
        if not text.startswith("gitdir:"):
            return None
        own = os.path.normpath(os.path.join(os.path.dirname(dot_git), text[len("gitdir:"):].strip()))
        if not os.path.isdir(own):
            return None
    common = own
    with contextlib.suppress(OSError):
        common = os.path.normpath(os.path.join(own, read_regular(os.path.join(own, "commondir"), 4096).decode(
            "utf-8", "replace").strip()))
    return common, own


def ignored_repos(folders: list[str]) -> dict[str, tuple[str, str]]:
    """The repositories inside ``folders`` (absolute: the ignored folders git folds), each top -> (common dir, own
    git dir); a folder reached through a link is not entered; at most ``_WALK_MAX`` folders, ``_DEPTH`` deep."""
    found: dict[str, tuple[str, str]] = {}
    stack, seen = [(f, 0) for f in folders], 0
    while stack and seen < _WALK_MAX:
        folder, depth = stack.pop()
        seen += 1
        if os.path.lexists(os.path.join(folder, ".git")):
            if dirs := git_dirs_named(os.path.join(folder, ".git")):
                found[folder] = dirs
            continue
        if depth < _DEPTH:
            with contextlib.suppress(OSError), os.scandir(folder) as it:
                stack += [(e.path, depth + 1) for e in it if e.is_dir(follow_symlinks=False)]
    return found
