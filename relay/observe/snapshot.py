"""Record what the workspace holds before a run, so nothing already there is blamed on the worker.

Three sources, tried in order (``Snapshot.source`` says which one was used):

git   One ``git status`` pass (porcelain v2, ``-z``, untracked files listed one by one,
      ignored *files* listed but ignored folders left folded). Every path git reports as
      dirty, untracked or ignored is recorded by content identity (a hash, not only its
      mtime), and its bytes are kept, compressed, so that a file the worker edits on top of
      earlier edits can later show only the worker's lines. Clean tracked files need
      nothing: their before-content is HEAD. Checked-out submodules get the same treatment,
      each by its own safe git.
tree  Outside git: a walk of the workspace that skips .git, dependency folders,
      virtualenvs, caches and build output, recording every file the same way.
report  When neither works (a tree past ``TREE_MAX_FILES``), the worker's own list is all
      there will be; the snapshot records only that fact.

Everything is bounded: per-file and total budgets for kept content and for hashing. Past
a budget a file is remembered by hash only, then by stat only, and ``Snapshot.note`` says
so. The building blocks here (``Entry``, ``RepoState``, ``ContentStore``, ``scan_repo``,
``walk_tree``, ``read_entry``) are shared with ``relay.observe.changes``, which takes the second
look after the run.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat as stat_mod
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

from relay.observe.git import GitError, filter_overrides, run_git, z_records

__all__ = [
    "Snapshot",
    "take_snapshot",
    "Entry",
    "ABSENT",
    "RepoState",
    "ContentStore",
    "scan_repo",
    "walk_tree",
    "read_entry",
    "read_bytes",
    "TooManyFiles",
    "SKIP_DIRS",
    "TREE_MAX_FILES",
    "KEEP_FILE_BYTES",
]

Source = Literal["git", "tree", "report"]

# Before-content is kept for files up to this size (larger ones: hash only, and a note).
KEEP_FILE_BYTES = 4 * 1024 * 1024
# Total compressed before-content a snapshot may hold in memory.
_KEEP_TOTAL_BYTES = 48 * 1024 * 1024
# Total bytes read for hashing; past it, identity falls back to stat (size, mtime, ctime, inode).
_HASH_TOTAL_BYTES = 512 * 1024 * 1024
# Past this many files a non-git workspace is not walked: the report is used instead.
TREE_MAX_FILES = 50_000
# Ignored files are watched (a worker editing a git-ignored .env matters) up to this many.
_MAX_IGNORED = 5_000
_MAX_SUBMODULES = 32
_MAX_SUBMODULE_DEPTH = 2
_CHUNK = 1024 * 1024

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


class TooManyFiles(Exception):
    """The workspace tree is larger than a snapshot may walk."""


class Entry(NamedTuple):
    """The identity of one path at one moment.

    kind: "file", "link", "dir" (a nested repository git folds) or "absent".
    stat: (size, mtime_ns, ctime_ns, inode), the cheap first comparison.
    digest: a hash of the content (of the target for a link); None when a budget ran out.
    """

    kind: str
    executable: bool
    stat: tuple[int, int, int, int] | None
    digest: bytes | None


ABSENT = Entry("absent", False, None, b"absent")


def _hash(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


class ContentStore:
    """Before-content of dirty, untracked and ignored files: compressed, in memory, bounded."""

    def __init__(self, *, keep_file: int | None = None, keep_total: int | None = None, hash_total: int | None = None) -> None:
        # Defaults are read at call time so a test (or a tuned deployment) can move them.
        self._blobs: dict[str, bytes] = {}
        self._keep_file = KEEP_FILE_BYTES if keep_file is None else keep_file
        self._keep_left = _KEEP_TOTAL_BYTES if keep_total is None else keep_total
        self._hash_left = _HASH_TOTAL_BYTES if hash_total is None else hash_total
        self.not_kept: list[str] = []  # hashed, content not kept (too large or budget spent)
        self.not_hashed: list[str] = []  # stat only

    def record(self, abspath: str, label: str, *, ignored: bool = False) -> Entry:
        """Read ``abspath`` once: identity, and the bytes when the budgets allow.

        Ignored files over the per-file limit (databases, models, archives) are known by
        stat alone and without a note: hashing them on every run would cost more than the
        whole observation, and they are not where a worker's edits hide.
        """
        st, entry = _lstat_entry(abspath)
        if entry.kind == "link":
            try:
                self._blobs[abspath] = zlib.compress(os.fsencode(os.readlink(abspath)), 1)
            except OSError:  # replaced since the lstat; its digest already says what it was
                pass
            return entry
        if st is None or entry.kind != "file":
            return entry
        size = st.st_size
        if ignored and size > self._keep_file:
            return entry
        if size > self._hash_left:
            self.not_hashed.append(label)
            return entry
        if size <= self._keep_file and self._keep_left > 0:
            data = read_bytes(abspath)
            if data is None:  # vanished or became unreadable since the lstat
                return entry
            self._hash_left -= len(data)
            packed = zlib.compress(data, 1)
            self._keep_left -= len(packed)
            self._blobs[abspath] = packed
            return entry._replace(digest=_hash(data))
        hasher = hashlib.blake2b(digest_size=16)
        if read_bytes(abspath, limit=0, hasher=hasher) is None:
            return entry
        self._hash_left -= size
        self.not_kept.append(label)
        return entry._replace(digest=hasher.digest())

    def content(self, abspath: str) -> bytes | None:
        packed = self._blobs.get(abspath)
        return None if packed is None else zlib.decompress(packed)

    @property
    def kept_bytes(self) -> int:
        return sum(len(b) for b in self._blobs.values())


def _lstat_entry(abspath: str) -> tuple[os.stat_result | None, Entry]:
    try:
        st = os.lstat(abspath)
    except OSError:
        return None, ABSENT
    key = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    if stat_mod.S_ISLNK(st.st_mode):
        try:
            target = os.fsencode(os.readlink(abspath))
        except OSError:
            target = b""
        return st, Entry("link", False, key, _hash(b"link:" + target))
    if stat_mod.S_ISDIR(st.st_mode):
        return st, Entry("dir", False, None, b"dir")
    if not stat_mod.S_ISREG(st.st_mode):
        # FIFOs, sockets, devices: never opened (a FIFO would block); identity by stat only.
        return st, Entry("special", False, key, None)
    return st, Entry("file", bool(st.st_mode & 0o100), key, None)


def read_bytes(abspath: str, *, limit: int | None = None, hasher: "hashlib._Hash | None" = None) -> bytes | None:
    """Read a regular file without following a symlink or blocking on a FIFO.

    With ``hasher`` the content is streamed into it and only the first ``limit`` bytes are
    returned (``limit=0``: none); without, the whole file (up to ``limit``) is returned.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(abspath, flags)
    except OSError:
        return None
    parts: list[bytes] = []
    kept = 0
    try:
        if not stat_mod.S_ISREG(os.fstat(fd).st_mode):
            return None
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            if hasher is not None:
                hasher.update(chunk)
            if limit is None or kept < limit:
                piece = chunk if limit is None else chunk[: limit - kept]
                parts.append(piece)
                kept += len(piece)
            elif hasher is None:
                break
    except OSError:
        return None
    finally:
        os.close(fd)
    return b"".join(parts)


def read_entry(abspath: str, *, want_digest: bool) -> Entry:
    """The identity of a path now; the content hash only when asked (it costs a read)."""
    st, entry = _lstat_entry(abspath)
    if st is None or entry.kind != "file" or not want_digest:
        return entry
    hasher = hashlib.blake2b(digest_size=16)
    if read_bytes(abspath, limit=0, hasher=hasher) is None:
        return entry
    return entry._replace(digest=hasher.digest())


# --------------------------------------------------------------------------- git


@dataclass(slots=True)
class RepoState:
    """One repository (the workspace's, or a submodule inside it) as git saw it.

    Paths are relative to ``root``; ``prefix`` is the workspace's folder inside the repo
    ("" or "a/b/"), ``out_prefix`` how this repo's paths are written in the change set
    ("" for the workspace repo, "vendor/lib/" for a submodule).
    """

    root: str
    prefix: str
    out_prefix: str
    head: str | None
    status: dict[str, str]  # path -> "tracked" | "untracked" | "ignored"
    entries: dict[str, Entry] = field(default_factory=dict)  # before only: identities of every path in status
    subs: dict[str, RepoState | None] = field(default_factory=dict)  # submodule path -> state (None: not checked out)
    config: list[tuple[str, str]] = field(default_factory=list)
    ignored_overflow: int = 0
    depth: int = 0
    # Folders git folds and the relay does not look into: ignored ones ("build/"), and
    # nested repositories it could not scan. Edits there are judged by timestamp only.
    folded: list[str] = field(default_factory=list)
    nested: set[str] = field(default_factory=set)  # untracked nested repositories, scanned like submodules

    def out(self, path: str) -> str:
        return self.out_prefix + path[len(self.prefix) :]


_STATUS_OPTS = (
    "--porcelain=v2",
    "-z",
    "--branch",
    "--untracked-files=all",
    "--ignored=matching",
    "--no-renames",
    # Commit moves of a submodule are seen here; its content is scanned by its own git below,
    # so no git ever runs inside a submodule without that submodule's filters neutralised.
    "--ignore-submodules=dirty",
)


def _toplevel(workspace: Path) -> tuple[str, str]:
    """(repository root, the workspace's prefix inside it), or GitError outside git."""
    out = run_git(workspace, "rev-parse", ["--show-toplevel", "--show-prefix"])
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 2 or not lines[0]:
        raise GitError("git rev-parse gave no top level")
    return lines[0], lines[1]


def _parse_status(out: bytes) -> tuple[str | None, dict[str, str], set[str]]:
    head: str | None = None
    status: dict[str, str] = {}
    gitlinks: set[str] = set()
    # A rename ("2 ") has its original path in the record after it.
    for rec, _original in z_records(out, lambda rec: 1 if rec.startswith(b"2 ") else 0):
        tag = rec[:2]
        if rec.startswith(b"# branch.oid "):
            oid = rec[len(b"# branch.oid ") :].decode("ascii", "replace")
            head = None if oid == "(initial)" else oid
        elif tag == b"1 ":
            fields = rec.split(b" ", 8)
            path = os.fsdecode(fields[8])
            status[path] = "tracked"
            if b"160000" in fields[3:6]:
                gitlinks.add(path)
        elif tag == b"2 ":
            status[os.fsdecode(rec.split(b" ", 9)[9])] = "tracked"
        elif tag == b"u ":
            fields = rec.split(b" ", 10)
            status[os.fsdecode(fields[10])] = "tracked"
        elif tag == b"? ":
            status[os.fsdecode(rec[2:])] = "untracked"
        elif tag == b"! ":
            status[os.fsdecode(rec[2:])] = "ignored"
    return head, status, gitlinks


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


def scan_repo(root: str, prefix: str, *, store: ContentStore | None, out_prefix: str = "", depth: int = 0) -> RepoState:
    """One status pass over ``root`` (limited to ``prefix``); with a store, record identities too."""
    config = filter_overrides(Path(root))
    out = run_git(Path(root), "status", _STATUS_OPTS, paths=[prefix.rstrip("/") or "."], config=config)
    head, status, gitlinks = _parse_status(out)
    state = RepoState(root=root, prefix=prefix, out_prefix=out_prefix, head=head, status=status, config=config, depth=depth)

    # An untracked nested repository is one folded "? dir/" entry: git never looks inside, so
    # edits there were invisible and a worker's true claim was called false (issue 13, item 13).
    # It gets its own status pass, like a submodule.
    nested = [p.rstrip("/") for p, code in status.items() if code == "untracked" and p.endswith("/")]
    state.nested = set(nested)
    sub_paths = [p for p in dict.fromkeys([*_gitmodule_paths(root), *sorted(gitlinks), *nested]) if p.startswith(prefix)]
    for sub in sub_paths[_MAX_SUBMODULES:]:
        status.pop(sub + "/", None)
        state.folded.append(sub + "/")
    for sub in sub_paths[:_MAX_SUBMODULES]:
        status.pop(sub, None)
        status.pop(sub + "/", None)
        sub_root = os.path.join(root, sub)
        # .gitmodules is workspace content: a "submodule" reached through a symlink could be
        # any repository on the machine, so only a real folder inside this one is scanned.
        inside = os.path.realpath(sub_root).startswith(os.path.realpath(root) + os.sep) and not os.path.islink(sub_root)
        if not inside or depth + 1 > _MAX_SUBMODULE_DEPTH or not os.path.exists(os.path.join(sub_root, ".git")):
            state.subs[sub] = None
            state.folded.append(sub + "/")
            continue
        try:
            state.subs[sub] = scan_repo(sub_root, "", store=store, out_prefix=state.out(sub) + "/", depth=depth + 1)
        except GitError:
            state.subs[sub] = None
            state.folded.append(sub + "/")

    # Folded directories (an ignored folder, an untracked nested repository) are not files;
    # ignored files past the cap are not watched, and the snapshot says how many.
    ignored_seen = 0
    for path in list(status):
        if path.endswith("/") and status[path] == "ignored":
            del status[path]
            state.folded.append(path)
        elif status[path] == "ignored":
            ignored_seen += 1
            if ignored_seen > _MAX_IGNORED:
                del status[path]
                state.ignored_overflow += 1

    if store is not None:
        # Tracked and untracked first, so the budgets go where edits are likeliest to be blamed.
        order = sorted(status, key=lambda p: status[p] == "ignored")
        for path in order:
            state.entries[path] = store.record(os.path.join(root, path), state.out(path), ignored=status[path] == "ignored")
    return state


# --------------------------------------------------------------------------- tree


def walk_tree(workspace: str, *, store: ContentStore | None, limit: int | None = None) -> dict[str, Entry]:
    """Every file under ``workspace`` outside ``SKIP_DIRS`` and virtualenvs, by relative path."""
    limit = TREE_MAX_FILES if limit is None else limit
    found: dict[str, Entry] = {}
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
            if store is not None:
                found[rel] = store.record(item.path, rel)
            else:
                found[rel] = _lstat_entry(item.path)[1]
    return found


# --------------------------------------------------------------------------- snapshot


class Snapshot:
    """What the workspace held before the run. Opaque to callers; cheap to keep for a run."""

    __slots__ = ("source", "workspace", "elapsed_ms", "note", "repo", "tree", "store", "started_ns")

    def __init__(
        self,
        *,
        source: Source,
        workspace: Path,
        elapsed_ms: int,
        note: str | None = None,
        repo: RepoState | None = None,
        tree: dict[str, Entry] | None = None,
        store: ContentStore | None = None,
        started_ns: int | None = None,
    ) -> None:
        # Wall-clock start: what the relay cannot diff (ignored folders, targets of symlinks
        # leading outside) is judged changed when its timestamps are newer than this.
        self.started_ns = time.time_ns() if started_ns is None else started_ns
        self.source = source
        self.workspace = workspace
        self.elapsed_ms = elapsed_ms
        self.note = note
        self.repo = repo
        self.tree = tree
        self.store = store or ContentStore()

    def __repr__(self) -> str:
        size = len(self.repo.entries) if self.repo else len(self.tree or {})
        return f"Snapshot(source={self.source!r}, workspace={str(self.workspace)!r}, entries={size}, elapsed_ms={self.elapsed_ms})"


def _budget_note(store: ContentStore, ignored_overflow: int = 0) -> str | None:
    parts = []
    if store.not_kept:
        parts.append(f"before-content of {len(store.not_kept)} large file(s) not kept (e.g. {store.not_kept[0][:80]}); their diffs may include earlier edits")
    if store.not_hashed:
        parts.append(f"{len(store.not_hashed)} file(s) compared by size and time only")
    if ignored_overflow:
        parts.append(f"{ignored_overflow} ignored file(s) past {_MAX_IGNORED:,} not watched")
    return "; ".join(parts) or None


def take_snapshot(workspace: Path) -> Snapshot:
    """Record the workspace before a run: git if it is a repository, else a tree walk, else nothing."""
    started = time.perf_counter()
    started_ns = time.time_ns()
    ws = Path(workspace).resolve()
    store = ContentStore()
    git_note = None
    try:
        root, prefix = _toplevel(ws)
        repo = scan_repo(root, prefix, store=store)
        return Snapshot(
            source="git", workspace=ws, repo=repo, store=store, started_ns=started_ns,
            elapsed_ms=int((time.perf_counter() - started) * 1000), note=_budget_note(store, repo.ignored_overflow),
        )
    except (GitError, OSError) as exc:
        if os.path.exists(ws / ".git"):
            git_note = f"git could not read the repository ({exc}); using a file-tree snapshot"
    store = ContentStore()
    try:
        tree = walk_tree(str(ws), store=store)
    except (TooManyFiles, OSError) as exc:
        reason = exc if isinstance(exc, TooManyFiles) else f"cannot walk the workspace ({exc})"
        note = f"{reason}; changes will be taken from the worker's report"
        if git_note:
            note = f"{git_note.split(';')[0]}; {note}"
        return Snapshot(source="report", workspace=ws, elapsed_ms=int((time.perf_counter() - started) * 1000), note=note,
                        started_ns=started_ns)
    notes = [n for n in (git_note, _budget_note(store)) if n]
    return Snapshot(
        source="tree", workspace=ws, tree=tree, store=store, started_ns=started_ns,
        elapsed_ms=int((time.perf_counter() - started) * 1000), note="; ".join(notes) or None,
    )
