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
folder itself matches ``*``): a new folded folder below the top level, inside a folder that tracks files, not named as a
dependency, build or cache folder is (``walk.SKIP_DIRS``, ``*.egg-info``), is walked, and its files of a kind the folder
above it tracks are listed. A new top-level ignored folder (``logs/``, ``tmp/``) is a run's output and is not walked.
Bounded: past ``FOLDED_MAX`` files the look fails (its files are then named by their change times), as for the folders
a changed ignore rule hides — a flood of decoys must not hide the one file.
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


def _tracked_kinds(snapshot_dir: str, repo: Repo) -> dict[str, set[str]]:
    """Folder -> the extensions of the files the before index tracks there (no answer: none, the look stands as it was)."""
    kinds: dict[str, set[str]] = {}
    with contextlib.suppress(GitError, OSError):
        for raw in git_private(snapshot_dir, repo, "ls-files", ["-z"], index="before").split(b"\0"):
            if raw:
                folder, ext = _kind(os.fsdecode(raw))
                kinds.setdefault(folder, set()).add(ext)
    return kinds


def beside_tracked(snapshot_dir: str, repo: Repo, paths: Sequence[str], folders: Sequence[str] = ()) -> list[str]:
    """The files of ``paths`` (new, git-ignored) in a folder where the before index tracks a file of the same extension,
    and those under ``folders`` (new folded ignored folders) of a kind the folder above them tracks. A folded folder is
    walked only below the top level (a new top-level ``logs/`` or ``tmp/`` is a run's output, read by no one as code),
    in a folder that tracks files, and not named as a build's, a dependency's or a cache's."""
    paths = [p for p in paths[:_PATHS_MAX] if _kind(p)[1]]
    folders = [f.rstrip("/") for f in folders if "/" in f.rstrip("/")
               and not any(part in SKIP_DIRS or part.endswith(_BUILT) for part in f.rstrip("/").split("/"))]
    if not paths and not folders:
        return []
    kinds = _tracked_kinds(snapshot_dir, repo)
    listed = [p for p in paths if _kind(p)[1] in kinds.get(_kind(p)[0], ())]
    beside = [f for f in folders if posixpath.dirname(f) in kinds]
    if beside:
        try:
            found = files_under(repo.root, beside, limit=FOLDED_MAX)
        except TooManyFiles:
            raise TooManyFiles(f"new ignored folders beside tracked code hold more than {FOLDED_MAX:,} files") from None
        for p in found:
            above = posixpath.dirname(next(f for f in beside if p.startswith(f + "/")))
            if _kind(p)[1] and _kind(p)[1] in kinds[above]:
                listed.append(p)
    return listed


def worth_listing(snapshot_dir: str, repo: Repo, paths: Sequence[str], secret: Callable[[str], bool] | None,
                  folders: Sequence[str] = ()) -> list[str]:
    """The new ignored files the look lists, in their order: a secret's (``secret``: the review's reader) and those
    beside tracked files of their kind, then those of new folded folders beside tracked code (``beside_tracked``)."""
    beside = beside_tracked(snapshot_dir, repo, paths, folders)
    chosen, named = set(beside), set(paths)
    return [p for p in paths if p in chosen or (secret is not None and secret(p))] + [p for p in beside if p not in named]
