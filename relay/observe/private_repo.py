"""A repository as the relay's own git sees it: every setting git reads is the relay's, none the repository's.

The relay looks at a workspace the worker (or whoever cloned it) controls, so git's configuration there is
hostile: a clean filter, ``core.fsmonitor``, a textconv, a hook, an ``include.path`` of a tracked file, a
submodule's config or ``core.worktree`` each names a program or a place. Switching keys off by name is a race
(the names are read before the worker writes new ones) and a list that is never complete. So no git command of
observation reads any of it:

* each repository gets a **private git dir** in the snapshot's folder (``<key>.git``): ``HEAD`` (the commit the
  run started from), a config of three lines, and copies of ``info/exclude`` and ``info/attributes`` taken before
  the run. git runs with ``GIT_DIR`` there and ``GIT_WORK_TREE`` at the repository's root, so the repository's
  own config (with its includes, ``config.worktree``, ``core.worktree``) and its hooks are never opened;
* ``own_config_only`` (``GIT_CONFIG_NOSYSTEM``, ``GIT_ATTR_NOSYSTEM``, ``GIT_CONFIG_GLOBAL`` (git 2.32+) and a
  ``HOME`` the relay owns with nothing in it, for an older git) keeps the system's and the user's files out too; what of them shapes the answer (line
  endings, case, symlinks) is read once before the run (``read_settings``: reading runs nothing) and passed with
  ``-c``, with every setting ``relay.observe.git`` pins; the excludes and attributes files the config names (or
  git's default ones) are copied in beside ``info/exclude``: ignore rules are the ones from before the run;
* objects: the repository's are borrowed read-only (``GIT_ALTERNATE_OBJECT_DIRECTORIES``), new ones go to the
  snapshot's own store; the index is a private file (``index_file``), never the user's.

Attributes (``.gitattributes``, the worker's to write) can still name a filter or diff driver, but a driver
exists only in config, and no config the relay's git reads defines one: nothing runs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import msgspec

from relay.core.files import own_folder, read_regular, write_own
from relay.observe.fifos import FifoRelease
from relay.observe.git import GitError, config_entries, git_env, own_config_only, run_git
from relay.observe.unreadable import said_by_git

__all__ = ["Repo", "RepoLook", "look_of", "git_private", "index_file", "Index", "read_settings", "make_private_dir",
           "TEXT_AS_TEXT", "copy_index", "update_index", "PRIVATE_CONFIG", "PACKED", "PACKED_FROM"]

# Which private index a reader gets: the before one (what the snapshot added) or the after one (a look after);
# write-tree's own copies have names of their own (``relay.observe.snapshot``).
Index = Literal["before", "after"]

# Pinned for the private index: a full index of our own (no shared index in the user's .git), no
# untracked cache to maintain, and fast loose objects; CRLF warnings never fail an update.
PRIVATE_CONFIG = (("core.splitIndex", "false"), ("core.untrackedCache", "false"), ("core.looseCompression", "1"),
                  ("core.fsync", "none"), ("core.fsyncObjectFiles", "false"), ("core.bigFileThreshold", "16m"),
                  ("index.threads", "1"), ("core.safecrlf", "false"))

# The settings of the user's and the repository's config that shape what git reads from the work tree; none
# names a program. Read once, before the run (the worker's later writes do not count).
_SETTINGS = r"^core\.(autocrlf|eol|ignorecase|precomposeunicode|symlinks|filemode|trustctime|checkstat|excludesfile|attributesfile)$"


class Repo(msgspec.Struct, kw_only=True, weakref=True):
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
    config: list[tuple[str, str]] = []  # its settings, read before the run (``read_settings``), passed with -c
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
    converts: bool = False  # git's form of a file may differ from its bytes on disk (line endings: exact_bytes)
    raw: dict[str, str] = {}  # files the snapshot hashed, when it converts: path -> the blob of their bytes on disk
    depth: int = 0
    unreadable: list[str] = []  # folders the look before the run could not read (relay.observe.unreadable)
    skipped: list[str] = []  # outside git: folders the walk before the run skipped (relay.observe.outside_git)
    # A workspace that is a sub-folder of the repository (relay.observe.above): what git's status listed outside the
    # folder before the run (path -> stat key, [] when absent; None: not looked at), how many past the bound, and the
    # entries asked about.
    above: dict[str, list[int]] | None = None
    above_cut: int = 0
    above_specs: list[str] = []
    above_unreadable: list[str] = []  # of those, the folders git could not read before the run (relay.observe.above)

    def out(self, path: str) -> str:
        return self.out_prefix + path[len(self.prefix):]


@dataclass(slots=True)
class RepoLook:
    """Of the last look after at a repository, in this process only (never saved): a few changed paths
    (``changed``; None: the after index holds them all) the diff reads from the work tree, their blobs put into
    the after index (``pending``) only when a reader of it asks (``git_private``): a small change rewrites no index
    of the repository's size."""

    changed: list[str] | None = None
    pending: list[str] = field(default_factory=list)
    fifos: list[str] = field(default_factory=list)  # FIFOs git waited on, opened for it (``relay.observe.fifos``)
    unreadable: list[str] = field(default_factory=list)  # folders this look could not read (relay.observe.unreadable)
    new_skipped: list[str] = field(default_factory=list)  # outside git: folders skipped now, walked or absent before
    above_blind: list[str] = field(default_factory=list)  # beside a sub-folder workspace: unreadable, untouched (above)


_LOOKS: dict[int, RepoLook] = {}


def look_of(repo: Repo) -> RepoLook:
    """``repo``'s look state in this process (made on first use, dropped with the Repo)."""
    look = _LOOKS.get(id(repo))
    if look is None:
        look = _LOOKS[id(repo)] = RepoLook()
        weakref.finalize(repo, _LOOKS.pop, id(repo), None)
    return look


def index_file(snapshot_dir: str, repo: Repo, which: str) -> str:
    """The one place a private index file is named: ``which`` is an ``Index`` or a writer's own copy."""
    return os.path.join(snapshot_dir, f"{repo.key}.{which}.index")


def _private_dir(snapshot_dir: str, repo: Repo) -> str:
    return os.path.join(snapshot_dir, f"{repo.key}.git")


# What is copied of an excludes or attributes file: a repository's (or a user's) file past this is cut there.
_INFO_MAX = 4 * 1024 * 1024
# Last in the private info/attributes, which outranks every .gitattributes: no file's ``diff`` attribute is set, so
# git tells text from binary by the bytes. A ``*.py -diff`` (or ``binary``, or a macro that unsets diff) written by
# the worker, or committed in the repository, made a text file's diff "Binary files differ": its lines went unread
# and the packet said "binary file" of a Python file holding eval().
TEXT_AS_TEXT = b"\n# gravity-relay: text is read as text, whatever a .gitattributes says\n* !diff\n"


def make_private_dir(snapshot_dir: str, repo: Repo, *, git_dir: str | None = None,
                     info: tuple[str, str] | None = None) -> str:
    """Write ``repo``'s private git dir: HEAD, a config that defines nothing, the repository's ``info/exclude``
    and ``info/attributes`` (``info``) as they are now, and links to a split index's shared files (in ``git_dir``,
    the repository's own). Writes files only: no git runs."""
    # Its folders and files lie in the data dir (a run's trees), which is input: a link planted in place of one is
    # replaced, never written through (relay.core.files).
    path = str(own_folder(Path(_private_dir(snapshot_dir, repo))))
    for sub in ("refs", "info"):
        own_folder(Path(path, sub))
    write_own(Path(path, "HEAD"), (f"{repo.head}\n" if repo.head else "ref: refs/heads/unborn\n").encode())
    write_own(Path(path, "config"), ("[core]\n\trepositoryformatversion = 1\n\tbare = false\n[extensions]\n"
                                     "\tobjectformat = sha256\n" if repo.sha256 else
                                     "[core]\n\trepositoryformatversion = 0\n\tbare = false\n").encode())
    copied = {}
    for src, name in zip(info or (), ("exclude", "attributes")):
        with contextlib.suppress(OSError):  # missing, or not a file (a FIFO is not waited on): none is read
            copied[name] = read_regular(src, _INFO_MAX, follow=True)
    if "exclude" in copied:
        write_own(Path(path, "info", "exclude"), copied["exclude"])
    write_own(Path(path, "info", "attributes"), copied.get("attributes", b"") + TEXT_AS_TEXT)
    _freeze(path, repo)
    if git_dir:
        with contextlib.suppress(OSError):
            for name in os.listdir(git_dir):
                if name.startswith("sharedindex."):
                    copy_index(os.path.join(git_dir, name), os.path.join(path, name))
    return path


def _freeze(path: str, repo: Repo) -> None:
    """The excludes and attributes files the config names (else git's default ones, the user's) as they are now, in
    the private git dir, and ``repo.config`` naming those copies: a rule the worker adds to one (a tracked file, say)
    hides nothing new, and git needs no home of the user's to find them (``git_private`` gives it none)."""
    for key, default in (("core.excludesfile", "ignore"), ("core.attributesfile", "attributes")):
        named = [v for k, v in repo.config if k == key]
        if named:
            src = os.path.join(repo.root, os.path.expanduser(named[-1]))
        else:
            xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
            src = os.path.join(xdg, "git", default)
        frozen = os.path.join(path, "info", f"user-{default}")
        with contextlib.suppress(OSError):  # missing, or not a file (a FIFO is not waited on): none is read
            Path(frozen).write_bytes(read_regular(src, _INFO_MAX, follow=True))
        repo.config = [(k, v) for k, v in repo.config if k != key] + [(key, frozen)]


def _ensure_private_dir(snapshot_dir: str, repo: Repo) -> str:
    """The private git dir; a snapshot saved before there were any (a run of an older relay, recovered) gets one now,
    its info files from where the repository keeps them (rev-parse reads no config program)."""
    path = _private_dir(snapshot_dir, repo)
    if not os.path.isdir(path):
        info = None
        with contextlib.suppress(GitError):
            out = run_git(Path(repo.root), "rev-parse", ["--git-path", "info/exclude", "--git-path", "info/attributes"])
            found = [os.path.join(repo.root, p) for p in os.fsdecode(out).splitlines()]
            info = (found[0], found[1]) if len(found) == 2 else None
        make_private_dir(snapshot_dir, repo, info=info)
    return path


def read_settings(cwd: Path) -> list[tuple[str, str]]:
    """The repository's (and user's) settings that shape what git reads from the work tree (``_SETTINGS``), as
    ``-c`` pairs; reading config runs nothing. Bounded: a config that does not end (an include of a FIFO) raises
    EndlessConfig within seconds, naming the includes."""
    return [(key, value) for _, key, value in config_entries(cwd, _SETTINGS)]


def git_private(snapshot_dir: str, repo: Repo, subcommand: str, options=(), *, index: Index | str | None = None,
                config=(), flush: bool = True, **kw) -> bytes:
    """git in ``repo`` with the snapshot's private git dir, index (``index``: which one) and object store; a reader
    of the after index gets it with every change (``RepoLook.pending`` written first, unless ``flush`` is False)."""
    if index == "after" and flush:
        look = _LOOKS.get(id(repo))
        if look is not None and look.pending:
            pending, look.pending = look.pending, []
            update_index(snapshot_dir, repo, "after", pending)
    env = own_config_only(git_env())
    if repo.git_dir is not None:
        env.update(GIT_DIR=repo.git_dir, GIT_WORK_TREE=repo.root)
    else:
        private = _ensure_private_dir(snapshot_dir, repo)
        env.update(GIT_DIR=private, GIT_WORK_TREE=repo.root, GIT_ALTERNATE_OBJECT_DIRECTORIES=repo.objects or "")
    env["GIT_OBJECT_DIRECTORY"] = os.path.join(snapshot_dir, "objects")
    env["GIT_INDEX_FILE"] = index_file(snapshot_dir, repo, index or "before")
    watch = FifoRelease(repo.root)  # a .gitignore the worker made a FIFO would hold git until its timeout
    said: list[str] | None = [] if subcommand == "status" else None  # the folders it skips, said on stderr only
    try:
        return run_git(Path(repo.root), subcommand, options, env=env, config=[*repo.config, *PRIVATE_CONFIG, *config],
                       stalled=watch, warnings=said, **kw)
    finally:
        if said is not None:
            unread = said_by_git(said)
            if index == "after":
                look_of(repo).unreadable = unread
            else:
                repo.unreadable = unread
        if released := watch.seen():
            fifos = look_of(repo).fifos
            fifos += [repo.out_prefix + f for f in released if repo.out_prefix + f not in fifos]


# For the calls that hash past PACKED_FROM files: every blob into one pack per call (git's bulk check-in, past
# core.bigFileThreshold): a thousand edited files cost one file on disk, not a thousand (a few loose ones cost
# less than a pack, its index and their renames, which a disk busy writing can hold up for tens of ms).
PACKED, PACKED_FROM = (("core.bigFileThreshold", "1"), ("core.compression", "1")), 64


def _beyond_links(root: str, paths: list[str]) -> set[str]:
    """The paths whose folder is now a symlink (the worker swapped ``src/`` for a link): git refuses to add or
    remove them by name, and they are gone from the repository's view, so they are removed by force."""
    is_link: dict[str, bool] = {"": False}

    def linked(folder: str) -> bool:
        if folder not in is_link:
            parent = folder.rpartition("/")[0]
            is_link[folder] = linked(parent) or os.path.islink(os.path.join(root, folder))
        return is_link[folder]

    return {p for p in paths if "/" in p and linked(p.rpartition("/")[0])}


def update_index(snapshot_dir: str, repo: Repo, index: Index, paths: list[str], *, config=()) -> None:
    """Bring ``paths`` of the ``index`` private index to the work tree: added, updated, or removed when gone (a
    file that became a folder or the reverse replaces the entries in its way)."""
    if not paths:
        return
    beyond = _beyond_links(repo.root, paths)
    if beyond:
        git_private(snapshot_dir, repo, "update-index", ["--force-remove", "-z", "--stdin"], index=index, flush=False,
                    input=b"".join(os.fsencode(p) + b"\0" for p in sorted(beyond)))
        paths = [p for p in paths if p not in beyond]
    if not paths:
        return
    data = b"".join(os.fsencode(p) + b"\0" for p in paths)
    git_private(snapshot_dir, repo, "update-index", ["--add", "--remove", "--replace", "-z", "--stdin"], index=index,
                input=data, flush=False, config=(*(PACKED if len(paths) >= PACKED_FROM else ()), *config))


def copy_index(src: str, dest: str, *, missing_ok: bool = False) -> None:
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
