"""A file's bytes as they were on disk before the run, where git's form of them differs (issue 37, W11).

The before tree holds each file as git stores it: with ``core.autocrlf=true`` (git for Windows' default) or a
``.gitattributes`` that sets ``text``/``eol``, a file the user has with CRLF is an LF blob. Writing that blob back
gave the user LF where they had CRLF. Two sources give the exact bytes back:

* the files the snapshot reads anyway (dirty, untracked, watched ignored ones): their raw bytes are hashed too
  (``keep_raw``, only where a conversion can apply), ``Repo.raw`` naming each one's raw blob;
* a file git had clean (never read by the snapshot): git's own checkout of its blob (``checkout_forms``), with the
  settings and attributes from before the run, in a folder of the snapshot's, never the work tree. That is what
  git wrote there, unless the file's endings were mixed or the settings changed since: the caller holds it to
  the file's size before the run (``relay.observe.permissions``), and names a file neither form fits.

Both run the snapshot's private git (``relay.observe.private_repo``): no config of the repository's is read,
no filter driver is defined, nothing the worker wrote runs.
"""

from __future__ import annotations

import os
import stat as stat_mod
import tempfile
import threading
from pathlib import Path

import msgspec

from relay.core.files import remove_tree
from relay.observe.git import GitError
from relay.observe.private_repo import PACKED, PACKED_FROM, TEXT_AS_TEXT, Repo, git_private, index_file

__all__ = ["keep_raw", "checkout_forms", "may_convert"]

# git's words for true (core.autocrlf=input converts on the way in too).
_CONVERTS = {"true", "yes", "on", "1", "input"}
_ATTRIBUTES = b".gitattributes\0"  # a name in the index is followed by its NUL padding


def may_convert(snapshot_dir: str, repo: Repo, paths: list[str]) -> bool:
    """Whether git's form of a file in ``repo`` may differ from its bytes on disk: ``core.autocrlf`` on, or any
    attributes (a ``.gitattributes`` tracked or among ``paths``, the repository's ``info/attributes``, the user's
    attributes file) that could set ``text``, ``eol``, ``ident`` or an encoding. A false yes costs one more read of
    the files the snapshot hashes; a false no would lose the user's line endings."""
    if any(key == "core.autocrlf" and value.lower() in _CONVERTS for key, value in repo.config):
        return True
    if any(p == ".gitattributes" or p.endswith("/.gitattributes") for p in paths):
        return True
    private = os.path.join(snapshot_dir, f"{repo.key}.git", "info")
    frozen = [os.path.join(private, "attributes"), os.path.join(private, "user-attributes"),
              *(value for key, value in repo.config if key == "core.attributesfile")]
    if any(_has_rules(f) for f in frozen):
        return True
    try:
        with open(index_file(snapshot_dir, repo, "before"), "rb") as fh:
            return _ATTRIBUTES in fh.read()
    except OSError:
        return False


def _has_rules(path: str) -> bool:
    """Whether an attributes file holds more than the relay's own last line (which converts nothing)."""
    if not os.path.isfile(path):  # missing, or a FIFO, never opened
        return False
    try:
        with open(path, "rb") as fh:
            return bool(fh.read().removesuffix(TEXT_AS_TEXT).strip())
    except OSError:
        return False


def keep_raw(snapshot_dir: str, repo: Repo, paths: list[str]) -> None:
    """``paths`` (repository-relative) were just hashed into the before index: where a conversion may apply, their
    bytes as they are on disk go into the snapshot's store too, ``Repo.raw`` naming each one's blob. Regular files
    only (git reads a link's target, and hash-object would follow it)."""
    repo.converts = may_convert(snapshot_dir, repo, paths)
    if not repo.converts or not paths:
        return
    regular = []
    for path in paths:
        if "\n" in path or path.startswith('"'):  # --stdin-paths reads lines and unquotes a leading quote
            continue
        try:
            if stat_mod.S_ISREG(os.lstat(os.path.join(repo.root, path)).st_mode):
                regular.append(path)
        except OSError:
            continue
    if not regular:
        return
    try:
        out = git_private(snapshot_dir, repo, "hash-object", ["-w", "--no-filters", "--stdin-paths"],
                          input=b"".join(os.fsencode(p) + b"\n" for p in regular),
                          config=PACKED if len(regular) >= PACKED_FROM else ())
    except GitError:  # the snapshot stands; a revert then holds each file to its size (restore.exact) instead
        return
    oids = out.decode("ascii").split()
    if len(oids) == len(regular):
        repo.raw = {**repo.raw, **dict(zip(regular, oids))}


def checkout_forms(snapshot_dir: str, repo: Repo, paths: list[str]) -> dict[str, bytes]:
    """What git's checkout writes for each of ``paths`` (repository-relative files of the before tree), with the
    settings and attributes of before the run: the before tree read into an index of its own, ``checkout-index``
    writing into a folder of the snapshot's. Its work tree is an empty folder: the attributes are the before tree's
    (and the frozen ``info/attributes``), never a ``.gitattributes`` the worker wrote. {} when git cannot."""
    wanted = [p for p in paths if "\0" not in p]
    if not wanted or not repo.before_root:
        return {}
    name = f"checkout-{os.getpid()}-{threading.get_ident()}"
    folder = tempfile.mkdtemp(prefix="checkout-", dir=snapshot_dir)
    nowhere = msgspec.structs.replace(repo, root=tempfile.mkdtemp(prefix="empty-", dir=snapshot_dir))
    try:
        git_private(snapshot_dir, nowhere, "read-tree", index=name, values=[repo.before_root])
        git_private(snapshot_dir, nowhere, "checkout-index", ["-z", "--stdin", f"--prefix={Path(folder).as_posix()}/"],
                    index=name, input=b"".join(os.fsencode(p) + b"\0" for p in wanted), ok_codes=(0, 1))
        found = {}
        for path in wanted:
            written = Path(folder, *path.split("/"))
            if written.is_file() and not written.is_symlink():
                found[path] = written.read_bytes()
        return found
    finally:
        remove_tree(folder, ignore_errors=True)
        remove_tree(nowhere.root, ignore_errors=True)
        try:
            os.unlink(index_file(snapshot_dir, repo, name))
        except OSError:
            pass
