"""The private index read and edited as bytes (gitformat-index, versions 2 and 3): what git would otherwise hide.

Two passes, each over a private copy only (the user's index is never written):

* ``unhide`` (before the snapshot's status): an entry the user marked ``assume-unchanged`` or ``skip-worktree``
  is skipped by ``git status``, so a worker's rewrite of it would be invisible: no change, no patch, no policy.
  The copy loses both bits (and the entry's size, so git compares the content): the relay sees every file.
* ``index_pass`` (once the before index is written): its symlinks (``Repo.links``), and its entries whose stat
  could lie smudged (see there).

And one read: ``keep_folders``, the folders of the tree write-tree just wrote of an index, kept for the look after
(``before_folders``: no ``ls-tree`` then).

An index in a shape this does not read (version 4, split) is first rewritten as version 2 by git.
"""

from __future__ import annotations

import hashlib
import os
import weakref
from pathlib import Path

from relay.core.files import replace_file
from relay.observe.private_repo import Repo, git_private, index_file

__all__ = ["index_pass", "unhide", "keep_folders", "moved_folders", "before_folders", "FOLDERS_MAX"]

FOLDERS_MAX = 100_000  # folders of a before tree kept, at most
# The folders of each repository's before tree, read as the tree was written (this process only, never saved; by id
# of the Repo, dropped with it): the look after asks git for them only without this (``before_folders``).
_FOLDERS: dict[int, list[str]] = {}
_SYMLINK_MODE = (0o120000).to_bytes(4, "big")
_ASSUME_UNCHANGED = 0x80  # the high byte of an entry's flags
_EXTENDED = 0x40  # ... the entry has a second flags field (version 3)
_SKIP_WORKTREE = 0x40  # the high byte of that second field


def _hash_len(repo: Repo) -> int:
    return 32 if repo.sha256 else 20


def _entries(data: bytearray, hash_len: int):
    """(offset, where the name starts, the name's length) of each entry of a version 2 or 3 index; raises
    IndexError or ValueError on one cut short; None when the index is of another version."""
    fixed = 42 + hash_len  # ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each), the object id, flags
    end, offset = len(data) - hash_len, 12
    for _ in range(int.from_bytes(data[8:12], "big")):
        flags = data[offset + fixed - 2]
        head = fixed + 2 if flags & _EXTENDED else fixed
        size = (flags & 0x0F) << 8 | data[offset + fixed - 1]
        if size == 0xFFF:  # a long name: its length is where its NUL is
            size = data.index(0, offset + head, end) - offset - head
        yield offset, head, size
        offset += (head + size + 8) & ~7
    while offset + 8 <= end:  # extensions: a split or sparse index lists only part of its entries here
        if data[offset:offset + 4] in (b"link", b"sdir"):
            raise ValueError("split or sparse")
        offset += 8 + int.from_bytes(data[offset + 4:offset + 8], "big")
    if offset != end:
        raise ValueError("cut short")


def _readable(data: bytearray) -> bool:
    return data[:4] == b"DIRC" and int.from_bytes(data[4:8], "big") in (2, 3)


def _write(path: str, data: bytearray, hash_len: int, st: os.stat_result) -> None:
    """``data`` as the index at ``path``, a new file (``path`` may be a link to the user's index), its checksum
    made again and its mtime as git wrote it (git's racy rule reads it)."""
    if any(data[-hash_len:]):  # an index written with index.skipHash keeps its zero trailer
        data[-hash_len:] = hashlib.new("sha256" if hash_len == 32 else "sha1", data[:-hash_len]).digest()
    Path(path + ".tmp").write_bytes(data)
    replace_file(path + ".tmp", path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _as_version_2(snapshot_dir: str, repo: Repo, index: str) -> None:
    git_private(snapshot_dir, repo, "update-index", ["--no-split-index", "--index-version", "2"], index=index)


def _hidden(data: bytearray, hash_len: int) -> list[tuple[int, bool]] | None:
    """(offset, has extended flags) of each entry marked assume-unchanged or skip-worktree; None when cut short or
    split or sparse. On every snapshot's path before git starts: one tight loop, nothing built per entry."""
    fixed = 42 + hash_len
    flags_at, end, offset, hidden = fixed - 2, len(data) - hash_len, 12, []
    try:
        for _ in range(int.from_bytes(data[8:12], "big")):
            flags = data[offset + flags_at]
            if flags & 0xC0:  # assume-unchanged, or extended flags that may hold skip-worktree
                extended = bool(flags & _EXTENDED)
                if flags & _ASSUME_UNCHANGED or data[offset + fixed] & _SKIP_WORKTREE:
                    hidden.append((offset, extended))
                head = fixed + 2 if extended else fixed
            else:
                head = fixed
            size = (flags & 0x0F) << 8 | data[offset + flags_at + 1]
            if size == 0xFFF:
                size = data.index(0, offset + head, end) - offset - head
            offset += (head + size + 8) & ~7
        while offset + 8 <= end:  # extensions: a split or sparse index lists only part of its entries above
            if data[offset:offset + 4] in (b"link", b"sdir"):
                return None
            offset += 8 + int.from_bytes(data[offset + 4:offset + 8], "big")
    except (IndexError, ValueError):
        return None
    return hidden if offset == end else None


def unhide(snapshot_dir: str, repo: Repo) -> int:
    """Clear ``assume-unchanged`` and ``skip-worktree`` in the before index copy; how many entries had one."""
    path, hash_len = index_file(snapshot_dir, repo, "before"), _hash_len(repo)
    for attempt in range(2):
        try:
            st, data = os.stat(path), bytearray(Path(path).read_bytes())
        except FileNotFoundError:
            return 0
        if not data:
            return 0
        if _readable(data):
            hidden = _hidden(data, hash_len)
            if hidden is not None:
                break
        if attempt:
            return 0  # git could not give a shape this reads: left as it is
        _as_version_2(snapshot_dir, repo, "before")
    if not hidden:
        return 0
    fixed = 42 + hash_len
    for offset, extended in hidden:
        data[offset + fixed - 2] &= ~_ASSUME_UNCHANGED & 0xFF
        if extended:
            data[offset + fixed] &= ~_SKIP_WORKTREE & 0xFF
        data[offset + 36:offset + 40] = bytes(4)  # size 0: git compares the content, whatever the stat says
    _write(path, data, hash_len, st)
    return len(hidden)


def index_pass(snapshot_dir: str, repo: Repo, since_s: int) -> None:
    """Read the before index once written: its symlinks (``Repo.links``), and its entries whose stat could lie
    smudged. git compares ctime by the second (unless built with nanosecond stat) and re-reads an entry only when
    its mtime is not older than the index: a same-size rewrite in the second of the entry's ctime, mtime put back,
    looks clean. Such entries get size 0 (git's own smudge): git compares their content."""
    path, hash_len = index_file(snapshot_dir, repo, "before"), _hash_len(repo)
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
        _as_version_2(snapshot_dir, repo, "before")
    if read is None:
        return
    links, smudged = read
    repo.links = [repo.out(p) for p in links if p.startswith(repo.prefix)]
    if smudged and st.st_nlink == 1:  # the snapshot's own file (not linked to the user's index): changed bytes only
        if any(data[-hash_len:]):
            data[-hash_len:] = hashlib.new("sha256" if hash_len == 32 else "sha1", data[:-hash_len]).digest()
        with open(path, "r+b") as fh:
            for at, width in [*((o + 36, 4) for o in smudged), (len(data) - hash_len, hash_len)]:
                fh.seek(at)
                fh.write(data[at:at + width])
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    elif smudged:
        _write(path, data, hash_len, st)


def _read_index(data: bytearray, hash_len: int, since_s: int, index_s: int) -> tuple[list[str], list[int]] | None:
    """(the symlinks, the offsets of the entries smudged) of a version 2 or 3 index, smudging in ``data`` its
    entries with a ctime of ``since_s`` or later that git's racy rule (an mtime of ``index_s`` or later) does not
    already re-read; None for any other index, or one cut short."""
    if not _readable(data):
        return None
    since, index = since_s.to_bytes(4, "big"), index_s.to_bytes(4, "big")
    any_links = _SYMLINK_MODE in data
    links, smudged = [], []
    try:
        for offset, head, size in _entries(data, hash_len):
            if data[offset:offset + 4] >= since and data[offset + 8:offset + 12] < index and any(data[offset + 36:offset + 40]):
                data[offset + 36:offset + 40] = bytes(4)
                smudged.append(offset)
            if any_links and data[offset + 24:offset + 28] == _SYMLINK_MODE:
                links.append(os.fsdecode(bytes(data[offset + head:offset + head + size])))
    except (IndexError, ValueError):
        return None  # cut short, split or sparse
    return links, smudged


def keep_folders(repo: Repo, path: str) -> None:
    """Keep the folders of the tree just written of the index at ``path`` for ``before_folders`` (when it reads)."""
    if (folders := _index_folders(path, repo, FOLDERS_MAX)) is not None:
        _keep(repo, folders)


def moved_folders(written: Repo, repo: Repo) -> None:
    """The folders kept for ``written`` (the copy a background writer wrote the trees of), kept for ``repo``."""
    if (folders := _FOLDERS.pop(id(written), None)) is not None:
        _keep(repo, folders)


def _keep(repo: Repo, folders: list[str]) -> None:
    if id(repo) not in _FOLDERS:
        weakref.finalize(repo, _FOLDERS.pop, id(repo), None)
    _FOLDERS[id(repo)] = folders


def before_folders(repo: Repo) -> list[str] | None:
    """The folders of ``repo``'s before tree, relative to its workspace folder, as written in this process; None when
    they were not (a run recovered after a restart, an index this does not read): ``ls-tree -r -d`` names them."""
    return _FOLDERS.get(id(repo))


def _index_folders(path: str, repo: Repo, limit: int) -> list[str] | None:
    """The folders of the tree ``write-tree`` wrote of the index at ``path`` (its ``repo.prefix`` folder's, relative to
    it; at most ``limit``): every folder above an entry, which is every folder of that tree (git keeps no empty one; a
    submodule is an entry, not a folder), as ``ls-tree -r -d`` would list them. Read by the writer right after it
    wrote the tree, from the same file: no git process more per run. None when the index is not one this reads
    (version 4, split, sparse, cut short): the caller asks git."""
    try:
        data = bytearray(Path(path).read_bytes())
    except OSError:
        return None
    if not _readable(data):
        return None
    prefix, seen = os.fsencode(repo.prefix), set()
    try:
        for offset, head, size in _entries(data, _hash_len(repo)):
            name = bytes(data[offset + head:offset + head + size])
            if not name.startswith(prefix):
                continue
            folder = name[len(prefix):].rpartition(b"/")[0]
            while folder and folder not in seen:  # entries come sorted: a folder's parents are mostly seen already
                seen.add(folder)
                folder = folder.rpartition(b"/")[0]
    except (IndexError, ValueError):
        return None
    return [os.fsdecode(f) for f in sorted(seen)[:limit]]
