"""The workspace at one moment as git trees, written without touching the user's repository.

Before the worker starts, each repository's index is copied (linked) to a private file; with ``GIT_INDEX_FILE``
at that copy and objects going to a private object directory that borrows the repository's
(``GIT_OBJECT_DIRECTORY`` + ``GIT_ALTERNATE_OBJECT_DIRECTORIES``), the paths ``git status`` names as differing
from it (dirty, untracked, watched ignored files) are added: the **before index**, its blobs the user's
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

Rules kept from the file snapshot: ignored *folders* are folded (never called unchanged, judged by timestamp
when claimed); ignored *files* are watched up to ``_MAX_IGNORED``; submodules and untracked nested
repositories get a private index each. An untracked file larger than ``TREE_FILE_MAX`` stays out of the trees
(hashing a multi-hundred-MB file every run would cost more than the rest): it is compared by size, times and
inode (``Repo.big``).
"""

from __future__ import annotations

import contextlib
import copy
import errno
import hashlib
import os
import shutil
import stat as stat_mod
import tempfile
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal

import msgspec

from relay.core.files import remove_tree, replace_file
from relay.observe.git import GitError, filter_overrides, git_env, run_git, z_records

__all__ = ["Snapshot", "Repo", "take_snapshot", "load_snapshot", "release_indexes", "write_after", "before_trees",
           "walk_tree", "repo_head", "stat_key", "TooManyFiles", "SKIP_DIRS", "TREE_MAX_FILES", "TREE_FILE_MAX",
           "EMPTY_TREE", "PACKED", "CLOCK_SLACK_NS", "git_private"]

Source = Literal["git", "tree", "report"]

# Untracked and ignored files larger than this stay out of the trees (compared by stat).
TREE_FILE_MAX = 16 * 1024 * 1024
# Past this many files a non-git workspace is not walked: the report is used instead.
TREE_MAX_FILES = 50_000
# Ignored files are watched (a worker editing a git-ignored .env matters) up to this many.
_MAX_IGNORED = 5_000
_MAX_SUBMODULES = 32
_MAX_SUBMODULE_DEPTH = 2
# git's empty tree, in each hash function
EMPTY_TREE = {40: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
              64: "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"}

# Folders a tree walk never enters: VCS data, dependencies, virtualenvs, caches, build output.
SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".jj", "node_modules", "bower_components", "jspm_packages", ".venv", "venv",
        ".virtualenv", "virtualenv", "env.bak", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache",
        ".hypothesis", ".tox", ".nox", ".eggs", "build", "dist", "target", "out", ".next", ".nuxt", ".svelte-kit",
        ".parcel-cache", ".turbo", ".cache", ".gradle", ".idea", ".vs", ".terraform", "coverage", "htmlcov",
        ".angular", ".expo", ".dart_tool", "Pods", "DerivedData", ".stack-work", "_build", ".bundle", ".direnv",
        ".pnpm-store", ".yarn",
    }
)

# Pinned for the private index: a full index of our own (no shared index in the user's .git), no
# untracked cache to maintain, and fast loose objects.
_PRIVATE_CONFIG = (("core.splitIndex", "false"), ("core.untrackedCache", "false"), ("core.looseCompression", "1"),
                   ("core.fsync", "none"), ("core.fsyncObjectFiles", "false"),
                   ("core.bigFileThreshold", "16m"), ("index.threads", "1"))


# Up to this many changed paths the diff names them (past it, matching each path to each name costs more).
_READ_FROM_TREE_MAX = 64

# For the calls that hash past PACKED_FROM files: every blob into one pack per call (git's bulk check-in, past
# core.bigFileThreshold): a thousand edited files cost one file on disk, not a thousand (a few loose ones cost
# less than a pack, its index and their renames, which a disk busy writing can hold up for tens of ms).
PACKED, PACKED_FROM = (("core.bigFileThreshold", "1"), ("core.compression", "1")), 64
_TREE_WRITER = ThreadPoolExecutor(2, thread_name_prefix="relay-before-trees")  # see take_snapshot
# The kernel stamps files with a coarse clock that may lag time.time_ns() by a tick or two.
CLOCK_SLACK_NS = 100_000_000


class TooManyFiles(Exception):
    """The workspace tree is larger than a snapshot may walk."""


class Repo(msgspec.Struct, kw_only=True, dict=True):
    """One repository (the workspace's, a submodule, a nested one, or the private one of a folder
    outside git) and the trees written of it.

    ``prefix`` is the workspace's folder inside the repository ("" or "a/b/"), ``out_prefix`` how
    its paths are written in the change set ("" for the workspace's, "vendor/lib/" for a submodule).
    ``before`` is the tree of the workspace folder (its paths are the workspace's), ``before_root`` the
    whole repository's (the after index is diffed against it, ``--relative`` to the folder).
    """

    root: str
    prefix: str = ""
    out_prefix: str = ""
    git_dir: str | None = None  # a private git dir: the workspace is outside git
    no_git: bool = False  # git is not installed: every file is compared by size and times (``big``)
    objects: str | None = None  # the repository's object directory, borrowed
    config: list[tuple[str, str]] = []
    head: str | None = None
    sha256: bool = False  # the repository's objects are named by SHA-256
    key: str = "r"  # names this repository's files in the snapshot's folder
    before: str = ""  # the before tree of the workspace folder
    before_root: str = ""  # the same, of the whole repository (what the after index is diffed against)
    after: str = ""  # "index" once a look after brought the after index up to date ("" : not, or gone)
    big: dict[str, tuple[int, int, int, int]] = {}  # kept out of the trees by size: path -> stat key
    after_big: dict[str, tuple[int, int, int, int]] = {}
    folded: list[str] = []  # ignored folders, nested repositories past the limits: timestamp only
    nested: list[str] = []  # untracked nested repositories (scanned like submodules)
    subs: dict[str, Repo | None] = {}  # path (repository-relative) -> its repository (None: not scanned)
    ignored_overflow: int = 0
    new_ignored: list[str] = []  # after: ignored files not watched before (listed when ignore rules changed)
    new_nested: list[str] = []  # after: nested repositories that were not there before
    new_folded: list[str] = []  # after: ignored folders that were not there before (timestamp only, as ``folded``)
    links: list[str] | None = None  # symlinks of the before tree (None: not read from the index; ask git)
    depth: int = 0
    # Of the last look after, in this process only (not saved): a few changed paths (``changed``; None: the after
    # index holds them all) the diff reads from the work tree, their blobs put into the after index (``pending``)
    # only when a reader of it asks (``git_private``): a small change rewrites no index of the repository's size.
    changed = None
    pending = ()

    def out(self, path: str) -> str:
        return self.out_prefix + path[len(self.prefix):]


class Snapshot(msgspec.Struct, kw_only=True, weakref=True, dict=True):
    """What the workspace held before the run: trees of its repositories, in ``dir``."""

    source: Source
    workspace: str
    dir: str = ""
    elapsed_ms: int = 0
    note: str | None = None
    started_ns: int = 0  # wall clock: what git cannot show is judged by timestamps newer than this
    repo: Repo | None = None
    trees_job = None  # the before trees being written in the background (this process only, not saved)

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


# --------------------------------------------------------------------------- git with a private index


def git_private(snapshot_dir: str, repo: Repo, subcommand: str, options=(), *, index: str | None = None,
                config=(), flush: bool = True, **kw) -> bytes:
    """git in ``repo`` with the snapshot's private index (``index``: which one) and object store; a reader of the
    after index gets it with every change (``Repo.pending`` written first, unless ``flush`` is False)."""
    if index == "after" and repo.pending and flush:
        pending, repo.pending = repo.pending, []
        _update(snapshot_dir, repo, "after", pending)
    env = git_env()
    objects = os.path.join(snapshot_dir, "objects")
    if repo.git_dir is not None:
        env.update(GIT_DIR=repo.git_dir, GIT_WORK_TREE=repo.root)
    else:
        env["GIT_ALTERNATE_OBJECT_DIRECTORIES"] = repo.objects or ""
    env["GIT_OBJECT_DIRECTORY"] = objects
    env["GIT_INDEX_FILE"] = os.path.join(snapshot_dir, f"{repo.key}.{index or 'before'}.index")
    return run_git(Path(repo.root), subcommand, options, env=env, config=[*_PRIVATE_CONFIG, *repo.config, *config], **kw)


def _toplevel(workspace: Path) -> tuple[str, str, str, str, str | None, list[tuple[str, str]], bool]:
    """(repository root, the workspace's prefix inside it, the index file, the object dir, HEAD's commit or None,
    the filter overrides, whether objects are SHA-256), or GitError. Two git calls, run at once: their waits overlap."""
    with ThreadPoolExecutor(1) as pool:
        filters = pool.submit(filter_overrides, workspace)
        # An unborn HEAD fails only the --verify part: exit 1, the other answers printed.
        out = run_git(workspace, "rev-parse", ["--show-toplevel", "--show-prefix", "--git-path", "index", "--git-path",
                                               "objects", "--show-object-format", "--verify", "-q"],
                      values=["HEAD^{commit}"], ok_codes=(0, 1))
        config = filters.result()
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 5 or not lines[0]:
        raise GitError("git rev-parse gave no top level")
    index, objects = (os.path.join(str(workspace), p) if not os.path.isabs(p) else p for p in lines[2:4])
    head = lines[5].strip() if len(lines) > 5 and lines[5].strip() else None
    return lines[0], lines[1], index, objects, head, config, lines[4].strip() == "sha256"


_STATUS_OPTS = ("--porcelain=v2", "-z", "--untracked-files=all", "--ignored=matching", "--no-renames",
                # A submodule's content is looked at by its own git (its filters neutralised), never from here.
                "--ignore-submodules=dirty")


def _status(snapshot_dir: str, repo: Repo, index: str) -> tuple[list[str], list[str], list[str], set[str], bool]:
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
    """Submodule paths from .gitmodules, read as text: no git, no config includes."""
    try:
        with open(os.path.join(root, ".gitmodules"), encoding="utf-8", errors="surrogateescape") as fh:
            text = fh.read(1024 * 1024)
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


def _update(snapshot_dir: str, repo: Repo, index: str, paths: list[str]) -> None:
    if paths:
        data = b"".join(os.fsencode(p) + b"\0" for p in paths)
        git_private(snapshot_dir, repo, "update-index", ["--add", "--remove", "-z", "--stdin"], index=index, input=data,
                    config=PACKED if len(paths) >= PACKED_FROM else ())


def _write_before(snapshot_dir: str, repo: Repo) -> None:
    """The before trees (``Repo.before``, ``Repo.before_root``) of the before index, written from a copy of it
    (write-tree rewrites its index, and the before index must stay as the snapshot left it)."""
    # A name of this writer's own: another process (or thread) may write the same trees at the same time.
    name = f"tree-{os.getpid()}-{threading.get_ident()}"
    tree_index = os.path.join(snapshot_dir, f"{repo.key}.{name}.index")
    try:
        _copy_index(os.path.join(snapshot_dir, f"{repo.key}.before.index"), tree_index)
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
    finally:
        os.unlink(tree_index)


def repo_head(repo: Repo) -> str | None:
    try:
        return run_git(Path(repo.root), "rev-parse", ["-q", "--verify"], values=["HEAD^{commit}"], config=repo.config,
                       ok_codes=(0, 1)).decode().strip() or None
    except GitError:
        return None


def _scan(snapshot_dir: str, repo: Repo, *, after: bool, list_ignored=None) -> None:
    """One pass over ``repo`` and its sub-repositories: the private index brought to the work tree."""
    if after and not (repo.no_git or repo.before_root):
        raise GitError("the before tree was not written")
    index = "after" if after else "before"
    if after and not repo.no_git:
        repo.pending = []  # the after index starts again from the before one
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
        _update(snapshot_dir, repo, index, dirty + _sized(repo.root, untracked + ignored, big))
        repo.big = big
    else:
        # New ignored files are build output by the repository's word; one worth listing (a secret) is added.
        repo.new_ignored = [p for p in ignored if p not in repo.big]
        listed = [p for p in repo.new_ignored if list_ignored is not None and list_ignored(p)]
        repo.new_nested = [p for p in nested if p not in repo.subs]
        repo.new_folded = [p for p in folded if p not in repo.folded]
        big = _still_big(repo)
        added = _sized(repo.root, [p for p in untracked if p not in repo.big] + listed, big)
        # Few changed files, none a submodule or unmerged: the diff reads them from the work tree (see ``changed``).
        few = len(dirty) + len(added) <= _READ_FROM_TREE_MAX and not unmerged and not gitlinks.intersection(dirty)
        _update(snapshot_dir, repo, index, added if few else dirty + added)
        repo.pending, repo.changed = (dirty, dirty + added) if few else ([], None)
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
    # .gitmodules is workspace content: a "submodule" reached through a symlink could be any
    # repository on the machine, so only a real folder inside this one is scanned.
    inside = os.path.realpath(sub_root).startswith(os.path.realpath(parent.root) + os.sep) and not os.path.islink(sub_root)
    if not inside or parent.depth + 1 > _MAX_SUBMODULE_DEPTH or not os.path.exists(os.path.join(sub_root, ".git")):
        return None
    try:
        root, prefix, index, objects, head, config, sha256 = _toplevel(Path(sub_root))
        if os.path.realpath(root) != os.path.realpath(sub_root):
            return None
        repo = Repo(root=root, prefix="", out_prefix=parent.out(sub) + "/", objects=objects, config=config, head=head, sha256=sha256,
                    key=f"{parent.key}.{len(parent.subs)}", depth=parent.depth + 1)
        _copy_index(index, os.path.join(snapshot_dir, f"{repo.key}.before.index"), missing_ok=True)
        return repo
    except (GitError, OSError):
        return None


def _after_index(snapshot_dir: str, repo: Repo) -> None:
    """The after index starts as a copy of the before one (its stat data spares re-reading unchanged files);
    once the run has ended and it was released, from the before tree itself: every file compared by content."""
    try:
        _copy_index(os.path.join(snapshot_dir, f"{repo.key}.before.index"), os.path.join(snapshot_dir, f"{repo.key}.after.index"))
    except FileNotFoundError:
        git_private(snapshot_dir, repo, "read-tree", index="after", values=[repo.before_root])


_SYMLINK_MODE = (0o120000).to_bytes(4, "big")


def _index_pass(snapshot_dir: str, repo: Repo, since_s: int) -> None:
    """Read the before index once written: its symlinks (``Repo.links``), and its entries whose stat could lie
    smudged. git compares ctime by the second (unless built with nanosecond stat) and re-reads an entry only when
    its mtime is not older than the index: a same-size rewrite in the second of the entry's ctime, mtime put back,
    looks clean. Such entries get size 0 (git's own smudge): git compares their content. An index this does not
    read (version 4, split, sparse) is rewritten as version 2 first."""
    path, hash_len = os.path.join(snapshot_dir, f"{repo.key}.before.index"), 32 if repo.sha256 else 20
    for attempt in range(2):
        try:
            st, data = os.stat(path), bytearray(Path(path).read_bytes())
        except FileNotFoundError:
            repo.links = []  # nothing was ever added: no entries
            return
        index_s = st.st_mtime_ns // 10**9
        # Most indexes need no reading: an entry cannot be a symlink, nor have a recent ctime, without those bytes.
        if _SYMLINK_MODE not in data and not any(s.to_bytes(4, "big") in data for s in range(since_s, index_s + 2)):
            repo.links = []
            return
        read = _read_index(data, hash_len, since_s, index_s)
        if read is not None or attempt:
            break  # None twice: links stay None (observation asks git), nothing smudged
        git_private(snapshot_dir, repo, "update-index", ["--no-split-index", "--index-version", "2"])
    if read is None:
        return
    links, smudged = read
    repo.links = [repo.out(p) for p in links if p.startswith(repo.prefix)]
    if smudged:
        if any(data[-hash_len:]):  # an index written with index.skipHash keeps its zero trailer
            data[-hash_len:] = hashlib.new("sha256" if hash_len == 32 else "sha1", data[:-hash_len]).digest()
        if st.st_nlink == 1:  # the snapshot's own file (not linked to the user's index): the changed bytes only
            with open(path, "r+b") as fh:
                for at, width in [*((o + 36, 4) for o in smudged), (len(data) - hash_len, hash_len)]:
                    fh.seek(at)
                    fh.write(data[at:at + width])
        else:
            Path(path + ".tmp").write_bytes(data)
            replace_file(path + ".tmp", path)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # the mtime git's racy rule reads: as git wrote it


def _read_index(data: bytearray, hash_len: int, since_s: int, index_s: int) -> tuple[list[str], list[int]] | None:
    """(the symlinks, the offsets of the entries smudged) of a version 2 or 3 index (gitformat-index), smudging in
    ``data`` its entries with a ctime of ``since_s`` or later that git's racy rule (an mtime of ``index_s`` or
    later) does not already re-read; None for any other index, or one cut short."""
    if data[:4] != b"DIRC" or int.from_bytes(data[4:8], "big") not in (2, 3):
        return None
    since, index = since_s.to_bytes(4, "big"), index_s.to_bytes(4, "big")
    fixed = 42 + hash_len  # ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each), the object id, flags
    end, any_links = len(data) - hash_len, _SYMLINK_MODE in data
    offset, links, smudged = 12, [], []
    try:
        for _ in range(int.from_bytes(data[8:12], "big")):
            flags = data[offset + fixed - 2]
            head = fixed + 2 if flags & 0x40 else fixed  # version 3's extended flags
            size = (flags & 0x0F) << 8 | data[offset + fixed - 1]
            if size == 0xFFF:  # a long name: its length is where its NUL is
                size = data.index(0, offset + head, end) - offset - head
            if data[offset:offset + 4] >= since and data[offset + 8:offset + 12] < index and any(data[offset + 36:offset + 40]):
                data[offset + 36:offset + 40] = bytes(4)
                smudged.append(offset)
            if any_links and data[offset + 24:offset + 28] == _SYMLINK_MODE:
                links.append(os.fsdecode(bytes(data[offset + head:offset + head + size])))
            offset += (head + size + 8) & ~7
    except (IndexError, ValueError):
        return None  # cut short
    while offset + 8 <= end:  # extensions: a split or sparse index lists only part of its entries here
        if data[offset:offset + 4] in (b"link", b"sdir"):
            return None
        offset += 8 + int.from_bytes(data[offset + 4:offset + 8], "big")
    return (links, smudged) if offset == end else None


def _copy_index(src: str, dest: str, *, missing_ok: bool = False) -> None:
    """``dest`` as ``src``: a hard link where the file system allows (git replaces an index whole, never writes
    into one, so neither can change under the other; a megabyte not written per copy), else a copy. Both keep the
    index's mtime, which git's racy-clean check reads: an entry as new as its index is re-read. A missing ``src``
    (``missing_ok``: a repository with no index yet) leaves none: the private index starts empty."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(dest)
    try:
        os.link(src, dest)
    except FileNotFoundError:
        if not missing_ok:
            raise
    except OSError:
        shutil.copy2(src, dest)


# --------------------------------------------------------------------------- outside git


def walk_tree(workspace: str, *, limit: int | None = None) -> list[str]:
    """Every file under ``workspace`` outside ``SKIP_DIRS`` and virtualenvs, by relative path."""
    limit = TREE_MAX_FILES if limit is None else limit
    found: list[str] = []
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        abs_dir = os.path.join(workspace, rel_dir) if rel_dir else workspace
        try:
            with os.scandir(abs_dir) as it:
                items = list(it)
        except OSError as exc:
            if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EACCES):
                continue
            raise
        for item in items:
            rel = f"{rel_dir}/{item.name}" if rel_dir else item.name
            try:
                is_dir = item.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if item.name in SKIP_DIRS or os.path.exists(os.path.join(item.path, "pyvenv.cfg")):
                    continue
                stack.append(rel)
                continue
            if len(found) >= limit:
                raise TooManyFiles(f"more than {limit:,} files outside skipped folders")
            found.append(rel)
    return found


def _scan_walked(snapshot_dir: str, repo: Repo, *, after: bool) -> None:
    index = "after" if after else "before"
    walked = walk_tree(repo.root)
    if repo.no_git:
        found = {p: k for p in walked if (k := stat_key(os.path.join(repo.root, p))) is not None}
        if after:
            repo.after_big = found
        else:
            repo.big = found
        return
    if after:
        known = git_private(snapshot_dir, repo, "ls-files", ["-z"], index=index).split(b"\0")
        walked = list(dict.fromkeys([*walked, *(os.fsdecode(p) for p in known if p)]))
    big = _still_big(repo) if after else {}
    _update(snapshot_dir, repo, index, _sized(repo.root, walked, big))
    if after:
        repo.after_big, repo.after = big, "index"
    else:
        repo.big = big


# --------------------------------------------------------------------------- entry points


def _snapshot_dir(where: Path | None) -> tuple[str, bool]:
    if where is None:
        return tempfile.mkdtemp(prefix="relay-trees-"), True
    where.mkdir(parents=True, exist_ok=True, mode=0o700)
    return str(where), False


def _discard(folder: str) -> None:
    """A temporary snapshot's folder, its read-only git objects too (core.files.remove_tree); a finalizer never raises."""
    try:
        remove_tree(folder, missing_ok=True)
    except OSError:
        pass


def _save(snap: Snapshot) -> None:
    path = os.path.join(snap.dir, "snapshot.json")
    tmp = path + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(msgspec.json.encode(snap))
    replace_file(tmp, path)


def take_snapshot(workspace: Path, where: Path | None = None) -> Snapshot:
    """Capture the workspace before the run into ``where`` (a temporary folder when None, removed with the
    snapshot): its before index and blobs (the trees are written in the background, ``before_trees``);
    git if it is a repository, else a private git dir over a walk, else nothing."""
    started = time.perf_counter()
    started_ns = time.time_ns()
    ws = Path(workspace).resolve()
    snapshot_dir, temporary = _snapshot_dir(where)
    os.makedirs(os.path.join(snapshot_dir, "objects"), exist_ok=True)
    git_note = None
    snap = Snapshot(source="report", workspace=str(ws), dir=snapshot_dir, started_ns=started_ns)
    if temporary:
        weakref.finalize(snap, _discard, snapshot_dir)
    try:
        root, prefix, index, objects, head, config, sha256 = _toplevel(ws)
        repo = Repo(root=root, prefix=prefix, objects=objects, config=config, head=head, sha256=sha256)
        _copy_index(index, os.path.join(snapshot_dir, "r.before.index"), missing_ok=True)
        _scan(snapshot_dir, repo, after=False)
        snap.source, snap.repo = "git", repo
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
        snap.trees_job = _TREE_WRITER.submit(_background_trees, snap)
    return snap


def _background_trees(snapshot: Snapshot) -> list[Repo]:
    _write_trees(snapshot, repos := copy.deepcopy(snapshot.repos()))  # a copy: the snapshot changes when joined
    return repos


def _write_trees(snapshot: Snapshot, repos: list[Repo] | None = None) -> bool:
    unwritten = [r for r in repos or snapshot.repos() if not r.before_root and not r.no_git]
    for repo in unwritten:
        try:
            if repo.links is None:  # its entries whose stat could lie smudged before a look copies the index
                _index_pass(snapshot.dir, repo, (snapshot.started_ns - CLOCK_SLACK_NS) // 10**9)
            _write_before(snapshot.dir, repo)
        except (GitError, OSError):
            if not repo.depth:  # a sub-repository's look says it (its changes reported from the parent's view)
                raise
    return bool(unwritten)


def _joined(snapshot: Snapshot) -> bool:
    """Wait for the before trees written in the background; whether there was such a job (its trees to be saved)."""
    job, snapshot.trees_job = snapshot.trees_job, None
    with contextlib.suppress(Exception):
        for repo, done in zip(snapshot.repos(), job.result() if job else []):
            repo.before, repo.before_root, repo.links = done.before, done.before_root, done.links
    return job is not None


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

