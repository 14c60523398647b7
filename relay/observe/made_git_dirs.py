"""The ``.git`` a worker made during the run in a folder of the workspace: a ``git init`` in ``sub/`` (or a ``.git``
file or link there naming another git dir) makes that folder a repository of its own, and the person's next
``git checkout`` or ``git status`` in it runs the hooks and program keys the worker put there.

Neither look sees it: git never lists a path named ``.git`` (inside a folder it tracks, ``sub/.git`` is simply not
there for the parent's status; an untracked folder that holds one is folded into one "nested repository" entry), and
the walk of a workspace outside git skips ``.git``. So after the run each folder where a ``.git`` could have appeared
is looked at (a stat each, nothing walked but the new nested repositories, bounded): every folder of the before
trees (read as each was written, ``index_bytes.before_folders``; else ``ls-tree -d``), every folder above a changed path, the nested repositories and ignored folders git's status
names. A ``.git`` there that was not there before the run (the git-dir state names the folders that had one) and
whose change time falls in the run (no process sets a ctime back; an old one nobody touched is left alone) is handed
to relay.observe.git_dir, which watches it from nothing: its hooks and program keys are plants like any other,
named high, a violation under limits, removed by a revert.

Inside the folders no look enters (the ignored folders git folds, the dependency and build folders the walk outside
git skips) every folder is looked at, at any depth (``deep_git_dirs``, no link followed): those listed beside the run
(relay.observe.ignored_walk) by a stat each, and read again (a scandir) only when the run changed them, with what is
new beneath them; without that listing, each one read. The folders read are bounded by ``IGNORED_WALK_MAX`` in all:
past it the look fails (NOT OBSERVED, naming the folder), never a quiet success. There a ``.git`` counts as touched by the run when its own change time, or its hooks folder's, its
``config``'s or its ``info`` folder's, falls in the run: a clone that was there before the run but deeper than the
look before it went (relay.observe.git_dirs_named) is then watched from nothing, so hooks it had before the run are
named with the plant. So is one whose folder, or a folder above it in the workspace, changed in the run
(``_moved_in``): a repository prepared elsewhere and renamed into place keeps the times of everything it holds.

Not looked at: a repository that was in a tracked folder before the run without being scanned as one.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Container, Iterable
from typing import NamedTuple

from relay.observe.git import GitError
from relay.observe.git_dir import watch_made
from relay.observe.git_dirs_named import git_dirs_named
from relay.observe.ignored_beside import code_top, kinds_above, tracked_kinds
from relay.observe import ignored_walk
from relay.observe.ignored_walk import changed_folders, tops_before, wait_listing
from relay.observe.private_repo import Repo, look_of
from relay.observe.runs_next import MODULES_READ_MAX, link_out, package_module, planted
from relay.observe.index_bytes import FOLDERS_MAX, before_folders
from relay.observe.snapshot import CLOCK_SLACK_NS, Snapshot, TooManyFiles, git_private

__all__ = ["note_made_git_dirs", "deep_git_dirs", "DeepLook", "IGNORED_WALK_MAX"]

_FOLDERS_MAX = FOLDERS_MAX  # folders looked at, at most (a stat each)
_WALK_MAX = 2_000  # folders walked inside the nested repositories the run made
IGNORED_WALK_MAX = 200_000  # folders looked at inside the ignored and skipped folders, in all; past it the look fails
_TOUCHED = ("", "hooks", "config", "info")  # a .git, or these of it, changed in the run: the .git is watched


def _tree_folders(before: Snapshot) -> list[str]:
    """Every folder of the before trees (the workspace's and each scanned repository's), absolute."""
    found: list[str] = []
    for repo in before.repos():
        if repo.no_git or not repo.before:
            continue
        base = os.path.join(repo.root, repo.prefix) if repo.prefix else repo.root
        if (known := before_folders(repo)) is not None:  # read from the index the tree was written of
            found += [os.path.join(base, p) for p in known]
            continue
        with contextlib.suppress(GitError, OSError):
            out = git_private(before.dir, repo, "ls-tree", ["-r", "-d", "--name-only", "-z"], values=[repo.before])
            found += [os.path.join(base, os.fsdecode(p)) for p in out.split(b"\0") if p][:_FOLDERS_MAX]
    return found


def _walked(top: str) -> list[str]:
    """The folders under a nested repository the run made (a ``git init`` inside it is as new), bounded."""
    found, stack = [], [top]
    while stack and len(found) < _WALK_MAX:
        folder = stack.pop()
        with contextlib.suppress(OSError), os.scandir(folder) as it:
            for item in it:
                if item.name != ".git" and item.is_dir(follow_symlinks=False):
                    found.append(item.path)
                    stack.append(item.path)
    return found


def _folders(before: Snapshot, changed: Iterable[str]) -> list[str]:
    ws = before.workspace
    folders = [ws, *_tree_folders(before)]
    for path in changed:
        parts = path.replace("\\", "/").split("/")[:-1]
        folders += [os.path.join(ws, *parts[:i]) for i in range(1, len(parts) + 1) if ".." not in parts[:i]]
    for repo in before.repos():
        folders += [os.path.join(repo.root, p.rstrip("/")) for p in [*repo.nested, *repo.folded, *repo.new_folded]]
        for new in repo.new_nested:
            folders += [top := os.path.join(repo.root, new.rstrip("/")), *_walked(top)]
    return list(dict.fromkeys(folders))[:_FOLDERS_MAX]


def _touched(dot_git: str, since: int) -> bool:
    for name in _TOUCHED:
        with contextlib.suppress(OSError):
            st = os.lstat(os.path.join(dot_git, name) if name else dot_git)
            if max(st.st_ctime_ns, st.st_mtime_ns) >= since:
                return True
    return False


def _moved_in(folder: str, top: str, since: int) -> bool:
    """Whether ``folder`` or a folder above it, below ``top``, changed in the run: a repository prepared elsewhere (by
    an earlier run, outside the workspace) and renamed into place keeps the times of all it holds; the moved folder's
    own change time is the run's."""
    while folder.startswith(top.rstrip(os.sep) + os.sep):
        with contextlib.suppress(OSError):
            if os.lstat(folder).st_ctime_ns >= since:
                return True
        folder = os.path.dirname(folder)
    return False


class DeepLook(NamedTuple):
    """What the walk inside the folders no look enters found: the folders holding a ``.git`` the run touched, and what
    the run left there where code runs next (relay.observe.runs_next; shown path -> what)."""

    git: list[str]
    plants: dict[str, str]
    note: str | None = None  # what the look left out, for the packet's note


def deep_git_dirs(before: Snapshot) -> DeepLook:
    """After the run: every folder inside the folders no look enters (ignored folders git folds, those the walk outside
    git skips) that holds a ``.git`` the run touched (``_touched``), at any depth; TooManyFiles past
    ``IGNORED_WALK_MAX`` folders read, naming the folder (the look fails loudly). On the way, in the folders that were
    there before the run, the places that run the run wrote, and anywhere the links it made out of the repository.
    With the listing taken beside the run (relay.observe.ignored_walk) only the folders the run changed are read, and
    what is new beneath them; without it, every folder."""
    look = _Deep(before.started_ns - CLOCK_SLACK_NS, before.started_ns, before.dir)
    listing, tops = wait_listing(before), tops_before(before.repos())
    try:
        return _deep_look(before, look, listing, tops)
    finally:
        if look.modules_cut is not None:  # said as a finding of its own: what was not looked at is never a quiet pass
            repo, top = look.modules_cut
            look.plants[repo.out(top + "/")] = (f"more than {MODULES_READ_MAX:,} modules of installed packages in the "
                                                "folders the run changed here, in a folder git ignores: the rest were "
                                                "not looked at")


def _deep_look(before: Snapshot, look: _Deep, listing, tops) -> DeepLook:  # noqa: ANN001 - deep_git_dirs' own parts
    old = {(id(repo), top) for repo, top in tops}
    for repo in before.repos():
        news = [*repo.new_folded, *(look_of(repo).new_skipped if repo.git_dir is not None or repo.no_git else [])]
        for top in dict.fromkeys(t.rstrip("/") for t in [*repo.folded, *repo.skipped, *news]):
            if listing is None or (id(repo), top) not in old:
                look.walk(repo, top, os.path.join(repo.root, top), (id(repo), top) in old)
    if listing is None:
        return DeepLook(look.found, look.plants)
    changed, moved = changed_folders(listing, look.since)
    look.kept = _Kept(listing.folders, moved)
    for folder, index in changed:
        look.walk(*tops[index], folder, True)
    for folder in listing.git_holders:
        if folder in look.kept and (_touched(os.path.join(folder, ".git"), look.since)
                                    or _moved_in(folder, before.workspace, look.since)):
            look.found.append(folder)
    for paths, modules in ((listing.places, False), (listing.modules, True)):  # a module rewritten in place too
        for path in paths:
            folder = os.path.dirname(path)
            if folder in look.kept and (said := planted(folder, os.path.basename(path), look.ran, modules=modules)):
                repo = tops[listing.folders[folder][2]][0]
                look.plants[repo.out(os.path.relpath(path, repo.root).replace(os.sep, "/"))] = said
    for path in listing.code:  # a file of the code beside, rewritten in place in a folder the run did not change
        folder = os.path.dirname(path)
        if folder in look.kept:
            repo, top = tops[listing.folders[folder][2]]
            if said := look.beside_code(repo, top, folder, os.path.basename(path), False):
                look.plants[repo.out(os.path.relpath(path, repo.root).replace(os.sep, "/"))] = said
    note = None
    if listing.modules_cut is not None:
        repo, top = tops[listing.modules_cut]
        # The bound is shared with the files of the code beside tracked code the listing stats (ignored_walk, round 91).
        note = (f"more than {ignored_walk.MODULES_LISTED_MAX:,} modules of installed packages (or files of code beside "
                "tracked code) in folders git ignores "
                f"(from {repo.out(top + '/')} on): past them, one rewritten in place in a folder the run did not "
                "otherwise change is not named")
    return DeepLook(list(dict.fromkeys(look.found)), look.plants, note)


class _Kept:
    """The listed folders that stand as listed (``in``): listed, and not ``moved``; a set of 500,000 names is not
    built for it."""

    def __init__(self, listed: Container[str] = (), moved: Container[str] = ()) -> None:
        self.listed, self.moved = listed, moved

    def __contains__(self, folder: object) -> bool:
        return folder in self.listed and folder not in self.moved


class _Deep:
    """One look inside the folders no look enters: what it read, found and counted."""

    def __init__(self, since: int, ran: int, snapshot_dir: str = "") -> None:
        # ``ran``: the snapshot's start, without the clock's slack, for the places that run: the worker starts only
        # after the snapshot's git commands, far more than a coarse clock's tick of lag, so a file stamped before it is
        # the person's (written just before the run); a .git is judged with the slack, as everywhere else.
        self.since, self.ran, self.seen, self.found, self.plants = since, ran, 0, [], {}
        self.kept = _Kept()  # listed folders that stand as listed: looked at by a stat, never read
        self.read: set[str] = set()
        self.modules = 0  # package modules stat-ed (relay.observe.runs_next.package_module), at most MODULES_READ_MAX
        self.modules_cut: tuple[Repo, str] | None = None  # where the bound was met
        self._folder: tuple[str, bool] = ("", False)  # the folder last asked about, and whether the run changed it
        self.snapshot_dir, self._kinds = snapshot_dir, {}  # repository -> folder -> the extensions its HEAD tracks there

    def _module(self, folder: str, name: str, fresh: bool, where: tuple[Repo, str]) -> str | None:
        """A package's module the run wrote (``planted``'s rule) in a folder it made (``fresh``) or changed (its own
        change time in the run: a module added, renamed or replaced there changes the folder; the folders read again
        after the run are those, the whole walk without a listing reads the others too); bounded by MODULES_READ_MAX."""
        if package_module(folder, name) is None:
            return None
        if not fresh:
            if self._folder[0] != folder:
                try:
                    self._folder = (folder, os.lstat(folder).st_ctime_ns >= self.since)
                except OSError:
                    self._folder = (folder, False)
            if not self._folder[1]:
                return None
        self.modules += 1
        if self.modules > MODULES_READ_MAX:
            self.modules_cut = self.modules_cut or where
            return None
        return planted(folder, name, 0 if fresh else self.ran, modules=True)

    def beside_code(self, repo: Repo, top: str, folder: str, name: str, fresh: bool) -> str | None:
        """A file the run wrote (its change time in the run, or in a folder the run made) inside ``top``, an ignored
        folder git folds that was there before the run, of a kind the folder above ``top`` tracks: the repository's
        code, hidden by its own ignore rule (relay.observe.ignored_beside reads such folders when they are new: a worker
        that wrote into one already there walked around it). Listed, not diffed: nothing of it was kept before."""
        if not code_top(repo, top):
            return None
        if id(repo) not in self._kinds:
            self._kinds[id(repo)] = tracked_kinds(self.snapshot_dir, repo) if self.snapshot_dir else {}
        if (ext := os.path.splitext(name)[1].lower()) not in kinds_above(self._kinds[id(repo)], top):
            return None
        try:
            st = os.lstat(os.path.join(folder, name))
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or (not fresh and st.st_ctime_ns < self.ran):
            return None
        return f"written in the run beside tracked {ext} code, in {repo.out(top + '/')}, a folder git ignores"

    def _fresh(self, folder: str, ino: int | None) -> bool:
        """Whether ``folder`` was not there when listed beside the run (not listed, or another inode): made or moved
        in during the run. Unknown without the listing: False."""
        listed = self.kept.listed if isinstance(self.kept.listed, dict) else None
        return listed is not None and (folder not in listed or listed[folder][0] not in (ino, -1))

    def walk(self, repo: Repo, top: str, start: str, watched: bool) -> None:
        """Read ``start`` and every folder beneath it but those in ``kept`` (``watched``: the top was there before
        the run, so its places that run are looked at: those the run wrote, and in a folder made or moved in during
        the run, all of them: a tree prepared elsewhere and renamed into place keeps its files' old change times)."""
        stack: list[tuple[str, bool]] = []
        with contextlib.suppress(OSError):
            stack.append((start, self._fresh(start, os.lstat(start).st_ino)))
        while stack:
            folder, fresh = stack.pop()
            if folder in self.read:
                continue
            self.read.add(folder)
            self.seen += 1
            if self.seen > IGNORED_WALK_MAX:
                raise TooManyFiles(f"{repo.out(top + '/')} holds more than {IGNORED_WALK_MAX:,} folders: a .git "
                                   "made in it could not be looked for")
            with contextlib.suppress(OSError), os.scandir(folder) as it:
                for item in it:
                    if item.name == ".git":
                        if _touched(item.path, self.since) or _moved_in(folder, repo.root, self.since):
                            self.found.append(folder)
                    elif item.is_dir(follow_symlinks=False):
                        if item.path not in self.kept:
                            stack.append((item.path, fresh or self._fresh(item.path, item.inode())))
                    elif said := ((item.is_symlink() and link_out(folder, item.name, repo.root, self.ran))
                                  or (watched and (planted(folder, item.name, 0 if fresh else self.ran)
                                                   or self._module(folder, item.name, fresh, (repo, top))
                                                   or self.beside_code(repo, top, folder, item.name, fresh)))):
                        self.plants[repo.out(os.path.relpath(item.path, repo.root).replace(os.sep, "/"))] = said


def note_made_git_dirs(before: Snapshot, changed: Iterable[str], deep: Iterable[str] = ()) -> None:
    """After the run (``changed``: the change set's paths): each ``.git`` the run made in a folder of the workspace,
    handed to relay.observe.git_dir to watch from nothing (see the module's doc). Never raises: the look goes on."""
    if not before.dir:
        return
    since = before.started_ns - CLOCK_SLACK_NS
    made: dict[str, tuple[str, str]] = {}
    deep = set(deep)  # touched in the run by _touched's measure (deep_git_dirs)
    for folder in [*_folders(before, changed), *deep]:
        dot_git = os.path.join(folder, ".git")
        try:
            st = os.lstat(dot_git)
        except OSError:
            continue
        if os.path.realpath(folder) != os.path.normpath(folder):
            continue  # reached through a link the worker (or the repository) made: another folder, not this one's
        if (max(st.st_ctime_ns, st.st_mtime_ns) >= since or folder in deep or _moved_in(folder, before.workspace, since)) \
                and (dirs := git_dirs_named(dot_git)):
            made[dot_git] = dirs
    if made:
        with contextlib.suppress(OSError):
            watch_made(before.dir, made)
