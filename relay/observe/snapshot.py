"""The workspace at one moment as git trees, written without touching the user's repository.

Before the worker starts, each repository's index is copied (linked) to a private file, the bits that would hide
a file from git (``assume-unchanged``, ``skip-worktree``) cleared in the copy (``relay.observe.index_bytes``); with
git pointed at a private git dir, that copy and a private object directory that borrows the repository's
(``relay.observe.private_repo``: no config of the repository's is read), the paths ``git status`` names as
differing from it (dirty, untracked, watched ignored files) are added: the **before index**, its blobs the user's
uncommitted and untracked files (packed: git's bulk check-in), their index and object store untouched.
``git write-tree`` of it gives the **before tree**, in the background while the worker starts. A look after
starts from a copy of the before index (the **after index**) and git diffs it, or for a few changed paths the
work tree itself, against the before tree (``relay.observe.changes``); "what a file held before the run" is a
blob of the before tree (``relay.observe.restore.before_of``): no content is kept in memory.

The private index and objects live in a folder of their own (the run's, in the data dir, or a temporary one),
with ``snapshot.json`` beside them, so a run whose relay died is diffed and reverted exactly after a restart.

Sources (``Snapshot.source``): ``git``; ``tree`` outside git (the same, with a private git dir, over a walk
that skips dependency folders, virtualenvs, caches and build output); ``report`` when neither works (a tree
past ``TREE_MAX_FILES``): the worker's list is all there will be.

Rules kept from the file snapshot: ignored *folders* are folded (never called unchanged, judged by timestamp when
claimed); ignored *files* are watched up to ``_MAX_IGNORED``; submodules and untracked nested repositories get a private
index each. An untracked file larger than ``TREE_FILE_MAX`` stays out of the trees (hashing a multi-hundred-MB file
every run would cost more than the rest): it is compared by size, times and inode (``Repo.big``).
"""

from __future__ import annotations

import contextlib
import copy
import logging
import os
import stat as stat_mod
import tempfile
import threading
import time
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Literal

import msgspec

from relay.core.files import own_folder, read_regular, remove_tree, replace_file, write_own
from relay.observe.above import above_before
from relay.observe.ignored_beside import worth_listing
from relay.observe.ignored_walk import start_listing
from relay.observe.exact_bytes import keep_raw
from relay.observe.git import EndlessConfig, GitError, run_git, z_records
from relay.observe.git_dir import keep_git_dir
from relay.observe.git_dirs_named import ignored_repos
from relay.observe.index_bytes import index_pass, keep_folders, moved_folders, unhide
from relay.observe.private_repo import (PACKED, Index, Repo, copy_index, git_private, index_file, look_of,
                                        make_private_dir, read_settings, update_index)
from relay.observe.outside_git import walked_files
from relay.observe.walk import SKIP_DIRS, TooManyFiles

__all__ = ["Snapshot", "Repo", "take_snapshot", "load_snapshot", "release_indexes", "write_after", "before_trees", "repo_head",
           "stat_key", "TooManyFiles", "SKIP_DIRS", "TREE_MAX_FILES", "TREE_FILE_MAX", "EMPTY_TREE", "PACKED", "CLOCK_SLACK_NS", "git_private"]

_log = logging.getLogger("relay.observe.snapshot")

Source = Literal["git", "tree", "report"]

TREE_FILE_MAX = 16 * 1024 * 1024  # untracked and ignored files larger than this stay out of the trees (by stat)
TREE_MAX_FILES = 50_000  # past this many files a non-git workspace is not walked: the report is used instead
# Ignored files are watched (a worker editing a git-ignored .env matters) up to this many.
_MAX_IGNORED = 5_000
_MAX_SUBMODULES, _MAX_SUBMODULE_DEPTH = 32, 2  # submodules and nested repositories scanned, and how deep
# git's empty tree, in each hash function
EMPTY_TREE = {40: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
              64: "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"}

_READ_FROM_TREE_MAX = 64  # up to this many changed paths the diff names them (past it, matching costs more)

_TREE_WRITER = ThreadPoolExecutor(2, thread_name_prefix="relay-before-trees")  # see take_snapshot
# The before trees being written in the background, by snapshot (this process only, never saved).
_TREE_JOBS: dict[int, Future] = {}
# The kernel stamps files with a coarse clock that may lag time.time_ns() by a tick or two.
CLOCK_SLACK_NS = 100_000_000


class Snapshot(msgspec.Struct, kw_only=True, weakref=True):
    """What the workspace held before the run: trees of its repositories, in ``dir``."""

    source: Source
    workspace: str
    dir: str = ""
    elapsed_ms: int = 0
    note: str | None = None
    started_ns: int = 0  # wall clock: what git cannot show is judged by timestamps newer than this
    repo: Repo | None = None

    def __repr__(self) -> str:
        return f"Snapshot(source={self.source!r}, workspace={self.workspace!r}, elapsed_ms={self.elapsed_ms})"

    def repos(self) -> list[Repo]:
        """Every scanned repository, the workspace's first."""
        out, stack = [], [self.repo] if self.repo else []
        while stack:
            repo = stack.pop(0)
            out.append(repo)
            stack.extend(s for s in repo.subs.values() if s is not None)
        return out


def stat_key(abspath: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.lstat(abspath)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _open_repo(snapshot_dir: str, workspace: Path, *, dirs: dict, within: str | None = None, **fields) -> Repo:
    """The repository at ``workspace`` as a Repo (``fields``: its key, prefixes, depth), its index copied to the
    before index with nothing hidden (``unhide``) and its private git dir written; GitError when git cannot read it,
    or when its top level is not ``within`` (a submodule must be its own repository). Neither git call opens the index
    or runs a program; the bounded config read first: EndlessConfig in seconds where rev-parse would wait minutes."""
    config = read_settings(workspace)
    # An unborn HEAD fails only the --verify part: exit 1, the other answers printed.
    paths = [arg for p in ("index", "objects", "info/exclude", "info/attributes") for arg in ("--git-path", p)]
    out = run_git(workspace, "rev-parse", ["--show-toplevel", "--show-prefix", "--absolute-git-dir", *paths,
                                           "--show-object-format", "--path-format=absolute", "--git-common-dir",
                                           "--verify", "-q"], values=["HEAD^{commit}"], ok_codes=(0, 1))
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 9 or not lines[0]:
        raise GitError("git rev-parse gave no top level")
    if within is not None and os.path.realpath(lines[0]) != os.path.realpath(within):
        raise GitError(f"{within} is not the top level of its repository")
    index, objects, exclude, attributes = (p if os.path.isabs(p) else os.path.join(str(workspace), p) for p in lines[3:7])
    repo = Repo(root=lines[0], prefix=lines[1] if within is None else "", objects=objects, config=config,
                head=lines[9].strip() or None if len(lines) > 9 else None, sha256=lines[7].strip() == "sha256", **fields)
    dirs.update({str(workspace): (lines[8], lines[2])} if lines[8] else {})  # (common, own): keep_git_dir's question
    make_private_dir(snapshot_dir, repo, git_dir=lines[2], info=(exclude, attributes))
    copy_index(index, index_file(snapshot_dir, repo, "before"), missing_ok=True)
    unhide(snapshot_dir, repo)
    return repo


_STATUS_OPTS = ("--porcelain=v2", "-z", "--untracked-files=all", "--ignored=matching", "--no-renames",
                # A submodule's content is looked at by its own git (its own private git dir), never from here.
                "--ignore-submodules=dirty")


def _status(snapshot_dir: str, repo: Repo, index: Index) -> tuple[list[str], list[str], list[str], set[str], bool]:
    """(paths whose work tree differs from the private index, untracked, ignored, gitlinks, whether any is unmerged)."""
    out = git_private(snapshot_dir, repo, "status", _STATUS_OPTS, index=index, paths=[repo.prefix.rstrip("/") or "."])
    dirty: list[str] = []
    untracked: list[str] = []
    ignored: list[str] = []
    gitlinks: set[str] = set()
    unmerged = False
    for rec, _ in z_records(out, lambda rec: 1 if rec.startswith(b"2 ") else 0):
        tag = rec[:2]
        if tag == b"1 ":
            fields = rec.split(b" ", 8)
            path = os.fsdecode(fields[8])
            if b"160000" in fields[3:6]:
                gitlinks.add(path)
            if fields[1][1:2] != b".":
                dirty.append(path)
        elif tag == b"2 ":
            fields = rec.split(b" ", 9)
            if fields[1][1:2] != b".":
                dirty.append(os.fsdecode(fields[9]))
        elif tag == b"u ":
            unmerged = True
            dirty.append(os.fsdecode(rec.split(b" ", 10)[10]))
        elif tag == b"? ":
            untracked.append(os.fsdecode(rec[2:]))
        elif tag == b"! ":
            ignored.append(os.fsdecode(rec[2:]))
    return dirty, untracked, ignored, gitlinks, unmerged


def _gitmodule_paths(root: str) -> list[str]:
    """Submodule paths from .gitmodules, read as text: no git, no config includes; a .gitmodules that is not a regular
    file (a FIFO the worker made would hold the relay's read for good; git refuses a link there) names none."""
    try:
        text = read_regular(os.path.join(root, ".gitmodules"), 1024 * 1024).decode("utf-8", "surrogateescape")
    except OSError:
        return []
    paths = []
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip().lower() == "path":
            value = value.strip().strip('"').strip("/")
            if value and not value.startswith("/") and ".." not in value.split("/"):
                paths.append(value)
    return paths


def _still_big(repo: Repo) -> dict[str, tuple[int, int, int, int]]:
    """The files kept out of the trees by size that are still there, by their stat now."""
    return {p: k for p in repo.big if (k := stat_key(os.path.join(repo.root, p))) is not None}


def _sized(root: str, paths: list[str], big: dict[str, tuple[int, int, int, int]]) -> list[str]:
    """``paths`` a tree can hold; the ones past ``TREE_FILE_MAX`` go to ``big`` by stat instead."""
    kept = []
    for path in paths:
        try:
            st = os.lstat(os.path.join(root, path))
        except OSError:
            kept.append(path)  # gone: the index forgets it
            continue
        if not (stat_mod.S_ISREG(st.st_mode) or stat_mod.S_ISLNK(st.st_mode) or stat_mod.S_ISDIR(st.st_mode)):
            continue  # a FIFO, a socket, a device: git holds none (and a FIFO would block a reader)
        if st.st_size > TREE_FILE_MAX and stat_mod.S_ISREG(st.st_mode):
            big[path] = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        else:
            kept.append(path)
    return kept


def _write_before(snapshot_dir: str, repo: Repo) -> None:
    """The before trees (``Repo.before``, ``Repo.before_root``) of the before index, written from a copy of it
    (write-tree rewrites its index, and the before index must stay as the snapshot left it)."""
    # A name of this writer's own: another process (or thread) may write the same trees at the same time.
    name = f"tree-{os.getpid()}-{threading.get_ident()}"
    tree_index = index_file(snapshot_dir, repo, name)
    try:
        copy_index(index_file(snapshot_dir, repo, "before"), tree_index)
    except FileNotFoundError:
        raise GitError("the before index is gone and its tree was never written") from None
    try:
        root = git_private(snapshot_dir, repo, "write-tree", index=name).decode().strip()
        before = root
        if repo.prefix:
            try:
                before = git_private(snapshot_dir, repo, "rev-parse", ["-q", "--verify"],
                                     values=[f"{root}:{repo.prefix.rstrip('/')}"]).decode().strip()
            except GitError:
                # Nothing left under the workspace's folder in this index: its tree is the empty one.
                before = EMPTY_TREE[64 if len(root) == 64 else 40]
        repo.before, repo.before_root = before, root
        keep_folders(repo, tree_index)  # its folders, from the index it was written of (relay.observe.made_git_dirs)
    finally:
        os.unlink(tree_index)


def repo_head(repo: Repo) -> str | None:
    """The commit HEAD names in ``repo`` now (rev-parse: it opens no index and runs nothing the config names)."""
    try:
        return run_git(Path(repo.root), "rev-parse", ["-q", "--verify"], values=["HEAD^{commit}"], ok_codes=(0, 1)).decode().strip() or None
    except GitError:
        return None


def _scan(snapshot_dir: str, repo: Repo, *, after: bool, list_ignored=None) -> None:
    """One pass over ``repo`` and its sub-repositories: the private index brought to the work tree."""
    if after and not (repo.no_git or repo.before_root):
        raise GitError("the before tree was not written")
    index = "after" if after else "before"
    if after and not repo.no_git:
        look_of(repo).pending = []  # the after index starts again from the before one
        _after_index(snapshot_dir, repo)
    if repo.git_dir is not None or repo.no_git:
        _scan_walked(snapshot_dir, repo, after=after)
        return
    dirty, untracked, ignored, gitlinks, unmerged = _status(snapshot_dir, repo, index)
    # An untracked nested repository is one folded "? dir/" entry (git never looks inside): it gets a private index of its own.
    nested = [p.rstrip("/") for p in untracked if p.endswith("/")]
    untracked = [p for p in untracked if not p.endswith("/")]
    folded = [p for p in ignored if p.endswith("/")]
    ignored = [p for p in ignored if not p.endswith("/")]
    if not after:
        repo.nested = nested
        subs = [p for p in dict.fromkeys([*_gitmodule_paths(repo.root), *sorted(gitlinks), *nested]) if p.startswith(repo.prefix)]
        repo.folded = folded + [s + "/" for s in subs[_MAX_SUBMODULES:]]
        for sub in subs[:_MAX_SUBMODULES]:
            repo.subs[sub] = _sub_repo(snapshot_dir, repo, sub)
            if repo.subs[sub] is None:
                repo.folded.append(sub + "/")
        if len(ignored) > _MAX_IGNORED:
            repo.ignored_overflow = len(ignored) - _MAX_IGNORED
            ignored = ignored[:_MAX_IGNORED]
        big: dict[str, tuple[int, int, int, int]] = {}
        update_index(snapshot_dir, repo, index, hashed := dirty + _sized(repo.root, untracked + ignored, big))
        keep_raw(snapshot_dir, repo, hashed)  # their bytes on disk too, where git's form of them may differ
        repo.big = big
    else:
        # New ignored files are build output by the repository's word; a secret, or one beside its tracked kind, is listed.
        repo.new_ignored = [p for p in ignored if p not in repo.big]
        repo.new_folded = [p for p in folded if p not in repo.folded]
        listed = worth_listing(snapshot_dir, repo, repo.new_ignored, list_ignored, repo.new_folded)
        repo.new_nested = [p for p in nested if p not in repo.subs]
        big = _still_big(repo)
        added = _sized(repo.root, [p for p in untracked if p not in repo.big] + listed, big)
        # Few changed files, none a submodule or unmerged: the diff reads them from the work tree (see ``changed``).
        few = len(dirty) + len(added) <= _READ_FROM_TREE_MAX and not unmerged and not gitlinks.intersection(dirty)
        update_index(snapshot_dir, repo, index, added if few else dirty + added)
        look = look_of(repo)
        look.pending, look.changed = (dirty, dirty + added) if few else ([], None)
        # No after tree is written: git diffs the after index (or work tree) against the before tree.
        repo.after_big, repo.after = big, "index"
    for path, sub in list(repo.subs.items()):
        if sub is not None:
            try:
                _scan(snapshot_dir, sub, after=after, list_ignored=list_ignored)
            except (GitError, OSError):
                if not after:  # a submodule git cannot read is folded, as one the snapshot does not scan
                    repo.subs[path] = None
                    repo.folded.append(path + "/")
                    continue
                sub.after = ""  # gone or unreadable now: its files are reported from the parent's view


def _sub_repo(snapshot_dir: str, parent: Repo, sub: str) -> Repo | None:
    """A submodule or nested repository, its index copied; None when it is not scanned."""
    sub_root = os.path.join(parent.root, sub)
    # .gitmodules is workspace content: only a real folder inside this one is scanned (a symlink may reach any repo).
    inside = os.path.realpath(sub_root).startswith(os.path.realpath(parent.root) + os.sep) and not os.path.islink(sub_root)
    if not inside or parent.depth + 1 > _MAX_SUBMODULE_DEPTH or not os.path.exists(os.path.join(sub_root, ".git")):
        return None
    try:
        return _open_repo(snapshot_dir, Path(sub_root), within=sub_root, out_prefix=parent.out(sub) + "/",
                          key=f"{parent.key}.{len(parent.subs)}", depth=parent.depth + 1, dirs={})
    except (GitError, OSError):
        return None


def _after_index(snapshot_dir: str, repo: Repo) -> None:
    """The after index starts as a copy of the before one (its stat data spares re-reading unchanged files);
    once the run has ended and it was released, from the before tree itself: every file compared by content."""
    try:
        copy_index(index_file(snapshot_dir, repo, "before"), index_file(snapshot_dir, repo, "after"))
    except FileNotFoundError:
        git_private(snapshot_dir, repo, "read-tree", index="after", values=[repo.before_root])


# --------------------------------------------------------------------------- outside git


def _scan_walked(snapshot_dir: str, repo: Repo, *, after: bool) -> None:
    index = "after" if after else "before"
    walked = walked_files(snapshot_dir, repo, after=after, limit=TREE_MAX_FILES)  # what it skips: outside_git
    if repo.no_git:
        found = {p: k for p in walked if (k := stat_key(os.path.join(repo.root, p))) is not None}
        if after:
            repo.after_big = found
        else:
            repo.big = found
        return
    big = _still_big(repo) if after else {}
    update_index(snapshot_dir, repo, index, hashed := _sized(repo.root, walked, big))
    if after:
        repo.after_big, repo.after = big, "index"
    else:
        repo.big = big
        keep_raw(snapshot_dir, repo, hashed)


# --------------------------------------------------------------------------- entry points


def _snapshot_dir(where: Path | None) -> tuple[str, bool]:
    if where is None:
        return tempfile.mkdtemp(prefix="relay-trees-"), True
    where.parent.mkdir(parents=True, exist_ok=True)
    return str(own_folder(where)), False  # a run's trees in the data dir: never a link planted in their place


def _save(snap: Snapshot) -> None:
    path = os.path.join(snap.dir, "snapshot.json")
    write_own(tmp := path + ".tmp", msgspec.json.encode(snap))  # the data dir is input: never through a planted link
    replace_file(tmp, path)


def take_snapshot(workspace: Path, where: Path | None = None) -> Snapshot:
    """Capture the workspace before the run into ``where`` (a temporary folder when None, removed with the
    snapshot): its before index and blobs (the trees are written in the background, ``before_trees``);
    git if it is a repository, else a private git dir over a walk, else nothing."""
    started = time.perf_counter()
    started_ns = time.time_ns()
    ws = Path(workspace).resolve()
    snapshot_dir, temporary = _snapshot_dir(where)
    own_folder(Path(snapshot_dir, "objects"))  # in the data dir: a link planted there had git write into your folder
    git_note = None
    snap = Snapshot(source="report", workspace=str(ws), dir=snapshot_dir, started_ns=started_ns)
    if temporary:
        weakref.finalize(snap, remove_tree, snapshot_dir, ignore_errors=True)
    try:
        repo = _open_repo(snapshot_dir, ws, dirs=(dirs := {}))
        _scan(snapshot_dir, repo, after=False)
        above_before(snapshot_dir, repo)  # a workspace that is a sub-folder: the rest of its repository, listed
        snap.source, snap.repo = "git", repo
    except EndlessConfig as exc:  # not a look without git: the worker's git would wait on it too (CONFLICTING_OPTIONS)
        raise EndlessConfig(f"the relay did not start the run: it cannot read the git config of {ws} ({exc})") from None
    except (GitError, OSError) as exc:
        if os.path.exists(ws / ".git"):
            git_note = f"git could not read the repository ({exc}); using a private git dir over the files"
        try:
            git_dir = os.path.join(snapshot_dir, "git")
            try:
                run_git(ws, "init", ["-q", "--bare"], values=[git_dir])
                repo = Repo(root=str(ws), git_dir=git_dir)
            except GitError as exc:
                if "not installed" not in str(exc):
                    raise
                repo = Repo(root=str(ws), no_git=True)
                git_note = "git is not installed: files are compared by size and time, without their lines"
            _scan(snapshot_dir, repo, after=False)
            snap.source, snap.repo = "tree", repo
            snap.note = git_note
        except (TooManyFiles, GitError, OSError) as exc2:
            reason = exc2 if isinstance(exc2, TooManyFiles) else f"cannot snapshot the workspace ({exc2})"
            note = f"{reason}; changes will be taken from the worker's report"
            snap.note = f"{git_note.split(';')[0]}; {note}" if git_note else note
    keep_git_dir(str(ws), snapshot_dir, [r.root for r in snap.repos()[1:]],  # .git/ is in no tree, nor walked (git_dir)
                 ignored_repos([os.path.join(r.root, f) for r in snap.repos() for f in r.folded]), known=dirs)
    big = sum(len(r.big) for r in snap.repos() if not r.no_git)
    overflow = sum(r.ignored_overflow for r in snap.repos())
    notes = [n for n in (snap.note,
                         f"{big} file(s) larger than {TREE_FILE_MAX // (1024 * 1024)} MB compared by size and time only" if big else None,
                         f"{overflow} ignored file(s) past {_MAX_IGNORED:,} not watched" if overflow else None) if n]
    snap.note = "; ".join(notes) or None
    snap.elapsed_ms = int((time.perf_counter() - started) * 1000)
    if snap.source != "report":
        _save(snap)
        # The before trees are written while the worker starts: the content is captured, git only reads the index.
        _TREE_JOBS[id(snap)] = _TREE_WRITER.submit(_background_trees, snap)
        weakref.finalize(snap, _TREE_JOBS.pop, id(snap), None)
        start_listing(snap, snap.repos())  # the ignored folders' folders, listed while the worker runs (ignored_walk)
    return snap


def _background_trees(snapshot: Snapshot) -> list[Repo]:
    _write_trees(snapshot, repos := copy.deepcopy(snapshot.repos()))  # a copy: the snapshot changes when joined
    return repos


def _write_trees(snapshot: Snapshot, repos: list[Repo] | None = None) -> bool:
    unwritten = [r for r in repos or snapshot.repos() if not r.before_root and not r.no_git]
    for repo in unwritten:
        try:
            if repo.links is None:  # its entries whose stat could lie smudged before a look copies the index
                index_pass(snapshot.dir, repo, (snapshot.started_ns - CLOCK_SLACK_NS) // 10**9)
            _write_before(snapshot.dir, repo)
        except (GitError, OSError):
            if not repo.depth:  # a sub-repository's look says it (its changes reported from the parent's view)
                raise
    return bool(unwritten)


def _joined(snapshot: Snapshot) -> bool:
    """Wait for the before trees written in the background; whether there was such a job (its trees to be saved)."""
    job = _TREE_JOBS.pop(id(snapshot), None)
    if job is None:
        return False
    try:
        for repo, done in zip(snapshot.repos(), job.result()):
            repo.before, repo.before_root, repo.links = done.before, done.before_root, done.links
            moved_folders(done, repo)
    except Exception:  # noqa: BLE001 - said, never lost: the trees left unwritten are written again by the caller
        _log.warning("the before trees of %s were not written in the background", snapshot.workspace, exc_info=True)
    return True


def write_after(snapshot: Snapshot, *, list_ignored=None) -> None:
    """Bring the after index of every repository of ``snapshot`` up to the work tree (``Repo.after``)."""
    assert snapshot.repo is not None
    if not os.path.isdir(snapshot.repo.root):
        raise GitError("the repository is gone")
    if _joined(snapshot) | _write_trees(snapshot):  # written in the background (or now, after a restart)
        _save(snapshot)  # kept with the run
    _scan(snapshot.dir, snapshot.repo, after=True, list_ignored=list_ignored)


def before_trees(snapshot: Snapshot) -> None:
    """Write the before trees of ``snapshot`` now, for a reader that needs them before any look after."""
    if _joined(snapshot) | _write_trees(snapshot):
        _save(snapshot)


def release_indexes(snapshot: Snapshot) -> None:
    """Drop the private index files once the run has ended: they only speed up its own looks after
    (a stat cache of the workspace, as large as the repository's index); the trees stay with the run
    (written now if no look after wrote them)."""
    if not snapshot.dir:
        return
    with contextlib.suppress(GitError, OSError):
        before_trees(snapshot)
    with contextlib.suppress(OSError):
        for name in [n for n in os.listdir(snapshot.dir) if n.endswith(".index")]:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(snapshot.dir, name))


def load_snapshot(where: Path) -> Snapshot | None:
    """The snapshot saved in ``where`` (a run's trees folder), or None when there is none to read."""
    try:
        data = (where / "snapshot.json").read_bytes()
        snap = msgspec.json.decode(data, type=Snapshot)
    except (OSError, msgspec.DecodeError):
        return None
    snap.dir = str(where)
    return snap

