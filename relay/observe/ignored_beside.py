"""A new git-ignored file beside tracked files of its kind is the repository's code, not its build output.

The look lists a new file git ignores only when it is worth listing (a secret's name): the others are build output by
the repository's own word (``node_modules/``, ``dist/``, ``*.o``). But a repository can ignore more than it builds:
vercel/ncc's .gitignore ignores everything (``*``) and un-ignores ``src/*.js``, while the files of ``src/utils/`` are
tracked all the same (added by force). A module a worker writes there (blind 136: ``src/utils/has-type-module.js``,
required by the tracked ``src/index.js``) was never seen: the packet did not name it, the review did not read it, the
run's patch left it out. The party guarded against is the repository, whose ignore rule hides a file, and the worker
that writes where it hides. A folder whose files the repository tracks is no build folder, and a new file of a kind the
folder tracks (its extension) is a file of that code: it is listed. A build's output beside its source is another kind
(``foo.o`` beside ``foo.c``, ``foo.pyc`` beside ``foo.py``, ``foo.js`` built beside a tracked ``foo.ts``) and stays unlisted.

The same module one folder down (``src/utils/sub/x.js``) is no file to git but a folded folder (``src/utils/sub/``: the
folder itself matches ``*``): a new folded folder inside a folder that tracks files, not named as a dependency, build or
cache folder is (``walk.SKIP_DIRS``), is walked, and its files of a kind the folder above it tracks are listed. Bounded:
past ``FOLDED_MAX`` files the look fails (NOT OBSERVED), as for the folders a changed ignore rule hides — a flood of
decoys must not hide the one file.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
from collections.abc import Callable, Sequence

from relay.observe.git import GitError
from relay.observe.private_repo import Repo, git_private
from relay.observe.walk import SKIP_DIRS, TooManyFiles, files_under

__all__ = ["FOLDED_MAX", "beside_tracked", "worth_listing"]

_PATHS_MAX = 2_000  # new ignored files weighed, at most (a build writes thousands; a slipped module is one)
FOLDED_MAX = 2_000  # files read in new folded folders beside tracked code, at most
_BUILT = (".egg-info", ".dist-info")  # what `pip install -e .` writes beside the sources (its SOURCES.txt is no source)


def _kind(path: str) -> tuple[str, str]:
    folder, name = posixpath.split(path)
    return folder, posixpath.splitext(name)[1].lower()


def _tracked(snapshot_dir: str, repo: Repo, wanted: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The (folder, extension) pairs of ``wanted`` the before index tracks a file of."""
    with contextlib.suppress(GitError, OSError):  # no answer lists nothing more: the look stands as it was
        out = git_private(snapshot_dir, repo, "ls-files", ["-z"], index="before")
        return {kind for raw in out.split(b"\0") if raw and (kind := _kind(os.fsdecode(raw))) in wanted}
    return set()


def beside_tracked(snapshot_dir: str, repo: Repo, paths: Sequence[str], folders: Sequence[str] = ()) -> list[str]:
    """The files of ``paths`` (new, git-ignored) in a folder where the before index tracks a file of the same extension,
    and those under ``folders`` (new folded ignored folders, not a build's) of a kind the folder above them tracks."""
    walked: list[tuple[str, str]] = []  # (file, the folder whose tracked kinds it is read by)
    kept = [f.rstrip("/") for f in folders if not any(part in SKIP_DIRS or part.endswith(_BUILT) for part in f.rstrip("/").split("/"))]
    if kept:
        try:
            found = files_under(repo.root, kept, limit=FOLDED_MAX)
        except TooManyFiles:
            raise TooManyFiles(f"new ignored folders beside tracked code hold more than {FOLDED_MAX:,} files") from None
        walked = [(p, posixpath.dirname(next(f for f in kept if p.startswith(f + "/")))) for p in found]
    wanted = {kind for p in paths[:_PATHS_MAX] if (kind := _kind(p))[1]}
    wanted |= {(above, _kind(p)[1]) for p, above in walked if _kind(p)[1]}
    if not wanted:
        return []
    tracked = _tracked(snapshot_dir, repo, wanted)
    return [p for p in paths[:_PATHS_MAX] if _kind(p) in tracked] + [p for p, above in walked if (above, _kind(p)[1]) in tracked]


def worth_listing(snapshot_dir: str, repo: Repo, paths: Sequence[str], secret: Callable[[str], bool] | None,
                  folders: Sequence[str] = ()) -> list[str]:
    """The new ignored files the look lists, in their order: a secret's (``secret``: the review's reader) and those
    beside tracked files of their kind, then those of new folded folders beside tracked code (``beside_tracked``)."""
    beside = beside_tracked(snapshot_dir, repo, paths, folders)
    chosen, named = set(beside), set(paths)
    return [p for p in paths if p in chosen or (secret is not None and secret(p))] + [p for p in beside if p not in named]
