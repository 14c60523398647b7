"""A new git-ignored file beside tracked files of its own kind is the repository's code, not its build output.

The look lists a new file git ignores only when it is worth listing (a secret's name): the others are build output by
the repository's own word (``node_modules/``, ``dist/``, ``*.o``). But a repository can ignore more than it builds:
vercel/ncc's .gitignore ignores everything (``*``) and un-ignores ``src/*.js``, while the files of ``src/utils/`` are
tracked all the same (added by force). A module a worker writes there (blind 136: ``src/utils/has-type-module.js``,
required by the tracked ``src/index.js``) was never seen: the packet did not name it, the review did not read it, the
run's patch left it out. The party guarded against is the repository, whose ignore rule hides a file, and the worker
that writes where it hides. A folder whose files the repository tracks is no build folder, and a new file of a kind the
folder tracks (its extension) is a file of that code: it is listed. A build's output beside its source is another kind
(``foo.o`` beside ``foo.c``, ``foo.pyc`` beside ``foo.py``, ``foo.js`` built beside a tracked ``foo.ts``) and stays unlisted.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
from collections.abc import Callable, Sequence

from relay.observe.git import GitError
from relay.observe.private_repo import Repo, git_private

__all__ = ["beside_tracked", "worth_listing"]

_PATHS_MAX = 2_000  # new ignored files weighed, at most (a build writes thousands; a slipped module is one)


def _kind(path: str) -> tuple[str, str]:
    folder, name = posixpath.split(path)
    return folder, posixpath.splitext(name)[1].lower()


def beside_tracked(snapshot_dir: str, repo: Repo, paths: Sequence[str]) -> list[str]:
    """The files of ``paths`` (new, git-ignored) in a folder where the before index tracks a file of the same extension."""
    wanted = {kind for p in paths[:_PATHS_MAX] if (kind := _kind(p))[1]}
    if not wanted:
        return []
    tracked: set[tuple[str, str]] = set()
    with contextlib.suppress(GitError, OSError):  # no answer lists nothing more: the look stands as it was
        out = git_private(snapshot_dir, repo, "ls-files", ["-z"], index="before")
        tracked = {kind for raw in out.split(b"\0") if raw and (kind := _kind(os.fsdecode(raw))) in wanted}
    return [p for p in paths[:_PATHS_MAX] if _kind(p) in tracked]


def worth_listing(snapshot_dir: str, repo: Repo, paths: Sequence[str], secret: Callable[[str], bool] | None) -> list[str]:
    """The new ignored files the look lists, in their order: a secret's (``secret``: the review's reader) and those
    beside tracked files of their kind."""
    beside = set(beside_tracked(snapshot_dir, repo, paths))
    return [p for p in paths if p in beside or (secret is not None and secret(p))]
