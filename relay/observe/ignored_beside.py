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

The next walk-arounds (session 46): such a folder that was there before the run is folded as before and no new folder,
so the look after the run (relay.observe.made_git_dirs, the folders no look enters) names a file of the code beside
written there in the run by its change time, and the listing beside the run (relay.observe.ignored_walk) one rewritten
in place: listed, not diffed (nothing of it was kept before). A new top-level folder is not read, but one holding a kind
of file the repository tracks is named in the packet's note (``unread_at_top``), as is a new top-level file of a kind
the top does not track. What a folder "tracks" is its HEAD tree's files (``tracked_kinds``): the before index holds the
ignored files the snapshot watched too, so an older ``foo.o`` made the next ``bar.o`` the folder's kind; a tool's
settings written as code (``babel.config.js``) do not count, or a package's rebuilt ``lib/`` beside them would be code.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import re
from collections.abc import Callable, Sequence

from relay.observe.git import GitError
from relay.observe.private_repo import Repo, git_private
from relay.observe.walk import SKIP_DIRS, TooManyFiles, files_under

__all__ = ["FOLDED_MAX", "beside_tracked", "code_top", "kinds_above", "read_as_code", "tracked_kinds", "unread_at_top",
           "worth_listing"]

_PATHS_MAX = 2_000  # new ignored files weighed, at most (a build writes thousands; a slipped module is one)
FOLDED_MAX = 2_000  # files read in new folded folders beside tracked code, at most
# A tool's settings written as code (``babel.config.js``, ``.eslintrc.js``, ``karma.conf.js``, ``gulpfile.js``) make
# no folder a folder of that code: a package root tracking only those, beside the ``lib/`` its build writes, is not.
_TOOL_CONFIG = re.compile(r"(?:^|/)(?:\.[^/]*|[^/]*\.(?:config|conf)\.[^/.]+|[^/]+rc\.[^/.]+|(?i:gulpfile|gruntfile)\.[^/.]+)$")
_BUILT = (".egg-info", ".dist-info")  # what `pip install -e .` writes beside the sources (its SOURCES.txt is no source)


def _kind(path: str) -> tuple[str, str]:
    folder, name = posixpath.split(path)
    return folder, posixpath.splitext(name)[1].lower()


# One run asks up to four times (the listing beside it, the look's new ignored files, its top level, the deep look) of
# one HEAD: its answer kept for the few runs in flight (read only by the callers), keyed by where and which commit.
_KINDS: dict[tuple[str, str, str], dict[str, set[str]]] = {}
_KINDS_KEPT = 8


def tracked_kinds(snapshot_dir: str, repo: Repo) -> dict[str, set[str]]:
    """Folder -> the extensions of the files the repository tracks there: its HEAD's tree (no HEAD, or no answer: none,
    the look stands as it was). Not the before index: the snapshot watched the ignored files there too, so a build's
    ``foo.o`` present before the run would make the next ``bar.o`` a file of the folder's kind."""
    key = (snapshot_dir, repo.root, repo.head or "")
    if (known := _KINDS.get(key)) is not None:
        return known
    kinds: dict[str, set[str]] = {}
    if repo.head:
        with contextlib.suppress(GitError, OSError):
            for raw in git_private(snapshot_dir, repo, "ls-tree", ["-r", "-z", "--name-only", "--full-tree"],
                                   values=[repo.head]).split(b"\0"):
                if raw and not _TOOL_CONFIG.search(name := os.fsdecode(raw)):
                    folder, ext = _kind(name)
                    kinds.setdefault(folder, set()).add(ext)
            if len(_KINDS) >= _KINDS_KEPT:
                _KINDS.clear()
            _KINDS[key] = kinds  # only a full answer is kept: one git could not give is asked again
    return kinds


def read_as_code(folder: str) -> bool:
    """Whether a folded ignored ``folder`` (repository-relative) may hold the code of the folder above it: below the
    top level, and no part of it named as a dependency's, build's or cache's folder."""
    parts = folder.rstrip("/").split("/")
    return len(parts) > 1 and not any(part in SKIP_DIRS or part.endswith(_BUILT) for part in parts)


def beside_tracked(snapshot_dir: str, repo: Repo, paths: Sequence[str], folders: Sequence[str] = ()) -> list[str]:
    """The files of ``paths`` (new, git-ignored) in a folder where the before index tracks a file of the same extension,
    and those under ``folders`` (new folded ignored folders) of a kind the folder above them tracks. A folded folder is
    walked only below the top level (a new top-level ``logs/`` or ``tmp/`` is a run's output, read by no one as code),
    in a folder that tracks files, and not named as a build's, a dependency's or a cache's."""
    paths = [p for p in paths[:_PATHS_MAX] if _kind(p)[1]]
    folders = [f.rstrip("/") for f in folders if read_as_code(f)]
    if not paths and not folders:
        return []
    kinds = tracked_kinds(snapshot_dir, repo)
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


def code_top(repo: Repo, top: str) -> bool:
    """Whether ``top``, an ignored folder git folded before the run, is read for the code of the folder above it
    (``read_as_code``; not a submodule or nested repository past the limits, not a workspace outside git)."""
    return (repo.git_dir is None and not repo.no_git and top.rstrip("/") not in repo.subs
            and top.rstrip("/") not in repo.nested and read_as_code(top))


def kinds_above(kinds: dict[str, set[str]], top: str) -> set[str]:
    """The extensions (none empty) the folder above ``top`` tracks, of ``tracked_kinds``' answer."""
    return kinds.get(posixpath.dirname(top.rstrip("/")), set()) - {""}


def unread_at_top(snapshot_dir: str, repo: Repo) -> str | None:
    """What the run made at the top of the repository that its ignore rules hide and the look does not read, when it
    holds a kind of file the repository tracks: a new ignored folder there (not named as a build's, a dependency's or a
    cache's) or a new ignored file of a kind the top level does not track (one it does is listed: ``beside_tracked``).
    Such a folder is most often a run's output (``logs/``, ``tmp/``, a compiler's ``lib/``), so it is not read as code;
    but a worker can write a module there and require it from tracked code, so the packet says it was left unread."""
    tops = [f.rstrip("/") for f in repo.new_folded if "/" not in f.rstrip("/") and not read_as_code(f)
            and f.rstrip("/") not in SKIP_DIRS and not f.rstrip("/").endswith(_BUILT)]
    files = [p for p in repo.new_ignored[:_PATHS_MAX] if "/" not in p and _kind(p)[1]]
    if not tops and not files:
        return None
    kinds = tracked_kinds(snapshot_dir, repo)
    anywhere = set().union(*kinds.values()) - {""}
    said = [repo.out(p) for p in files if _kind(p)[1] in anywhere - kinds.get("", set())]
    for top in tops:
        try:
            count = sum(_kind(p)[1] in anywhere for p in files_under(repo.root, [top], limit=FOLDED_MAX))
        except TooManyFiles:
            said.append(f"{repo.out(top + '/')} (more than {FOLDED_MAX:,} files)")
            continue
        if count:
            said.append(f"{repo.out(top + '/')} ({count:,} file{'s' if count > 1 else ''} of kinds the repository tracks)")
    if not said:
        return None
    return f"new in the run, hidden by the repository's ignore rules and not read: {', '.join(said[:5])}" + \
        (f" (+{len(said) - 5} more)" if len(said) > 5 else "")
