"""Writing a file so that a reader never sees half of it (run records, queue files, client configs),
and reading one back only when it is a regular file, so a pipe or a link in its place cannot hang or mislead."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import sys
import tempfile
import time
from pathlib import Path
from typing import BinaryIO

from relay.core.platform import owned_by_someone_else

__all__ = ["write_atomic", "replace_file", "remove_tree", "read_regular", "open_regular", "read_secret", "private_dir", "create_private",
           "create_fresh", "own_folder", "is_link", "write_own"]

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def read_secret(path: Path, limit: int, *, tighten: bool) -> tuple[bytes | None, str | None]:
    """A secret the relay keeps in its data dir (the HTTP token, the confirm key), read by one rule.

    (data, None) for a good file (at most ``limit`` + 1 bytes, so the caller can tell an oversized one);
    (None, None) when there is none; (None, why) when the file must be replaced: a symbolic link (never
    followed: its target's text would become the secret and a chmod would land on the target), a FIFO or
    other non-file (never waited on), another user's file, or one readable by others unless ``tighten``
    (then it is made owner-only and kept). A folder or an unreadable file raises the OSError: the caller
    says what to do, since neither can be replaced by the relay.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, "is a symbolic link"
        raise
    try:
        st = os.fstat(fd)  # the file opened, not the name: no check-then-use race
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if not stat.S_ISREG(st.st_mode):
            return None, "is not a regular file"
        if owned_by_someone_else(st):
            return None, f"is owned by uid {st.st_uid}, not this user"
        if os.name != "nt" and st.st_mode & 0o077:
            if not tighten:
                return None, f"was readable by others (mode {stat.S_IMODE(st.st_mode):04o})"
            os.fchmod(fd, 0o600)
        return os.read(fd, limit + 1), None
    finally:
        os.close(fd)


def read_regular(path: Path | str, limit: int | None = None, *, follow: bool = False) -> bytes:
    """The bytes of the regular file at ``path`` (its first ``limit`` bytes when given); anything else is an
    OSError saying what it is, at once.

    O_NOFOLLOW: a symbolic link named like the relay's file is refused, not followed to whatever it
    names (``follow``: followed, for a file of the user's or the repository's that git itself would follow, an
    excludes file kept in a dotfiles folder). O_NONBLOCK: opening a FIFO does not wait for a writer (it is then
    refused by its fstat).
    """
    with open_regular(path, follow=follow) as fh:
        return fh.read() if limit is None else fh.read(limit)


def open_regular(path: Path | str, *, follow: bool = False) -> BinaryIO:
    """``path`` opened for reading when it is a regular file (``read_regular``'s checks), for a reader that seeks."""
    nofollow = 0 if follow else getattr(os, "O_NOFOLLOW", 0)
    flags = os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
            raise OSError(errno.ELOOP, "a symbolic link, not a regular file (not followed)", str(path)) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "not a file")
            raise OSError(errno.EINVAL, f"{kind}, not a regular file", str(path))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise

def private_dir(path: Path) -> Path:
    """``path`` as an owner-only folder (0700): every folder made on the way to it too (``mkdir(parents=True,
    mode=…)`` gives the mode to the last one only), and an existing one of ours that others could read is
    tightened. The relay's data dir, its runs and worktrees hold tasks, transcripts and copies of code."""
    path = Path(path)
    missing = []
    probe = path
    while not probe.exists() and probe.parent != probe:
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
    if os.name != "nt":  # Windows: the per-user profile's ACL protects the data dir (relay.core.platform)
        try:
            info = os.stat(path)
            if not owned_by_someone_else(info) and info.st_mode & 0o077 and stat.S_ISDIR(info.st_mode):
                os.chmod(path, 0o700)
        except OSError:
            pass
    return path


def is_link(path: str | os.PathLike) -> bool:
    """A symbolic link, or (Windows) a junction: a name that leads elsewhere."""
    return os.path.islink(path) or bool(getattr(os.path, "isjunction", lambda _p: False)(path))


def own_folder(path: Path) -> Path:
    """``path`` as a folder of the relay's own inside its data dir (owner-only when made): the data dir is input
    (docs/security.md), and a symbolic link or junction planted under the name of one of the relay's folders had the
    relay write its files (and cleanup delete them) in whatever folder the link led to. Such a link is removed (the
    link alone, never what it leads to) and a folder made in its place; anything else that is not a folder is an
    OSError naming it. The parent must exist."""
    path = Path(path)
    if is_link(path):
        if os.path.isdir(path) and not os.path.islink(path):
            os.rmdir(path)  # a junction: rmdir removes the junction itself, not its target's files
        else:
            os.unlink(path)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or is_link(path):  # a link planted again since: never followed
        raise OSError(errno.ENOTDIR, "is not a folder of the relay's own (a link or a file is in its place)", str(path))
    return path


def _own_fd(path: str | os.PathLike, flags: int, mode: int) -> int:
    """An fd to the relay's own regular file at ``path`` (made when missing), opened with ``flags`` (never O_TRUNC:
    the caller truncates what it opened). The data dir is input (docs/security.md): a symbolic link planted under the
    name is removed, never followed; so is a second name of another file (a hard link to a file of yours: opening it
    opens your file). The file opened is checked, not the name, so a link planted again meanwhile changes nothing.
    O_NONBLOCK: a FIFO planted there is never waited on (with no reader its open for writing blocked for good, on the
    relay's event loop); it is refused (ENXIO) or seen by its fstat, and removed like a link."""
    flags |= os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
    if is_link(path):
        os.unlink(path)
    for fresh in (0, os.O_EXCL):
        try:
            fd = os.open(path, flags | fresh, mode)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.EMLINK, errno.EEXIST, errno.ENXIO) or fresh:
                raise
            os.unlink(path)  # a symbolic link planted between the look and the open: removed, made anew
            continue
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode) and info.st_nlink <= 1:
            return fd
        os.close(fd)  # a second name of a file that is not the relay's (or not a file): the name alone goes
        os.unlink(path)
    raise OSError(errno.EEXIST, "a link is planted again and again in place of the relay's own file", str(path))


def write_own(path: str | os.PathLike, data: bytes, mode: int = 0o600) -> None:
    """A small file of the relay's own in its data dir (a marker, a private git dir's HEAD, a spilled task), written
    whole without the fsync of ``write_atomic``, never through a link planted under its name (``_own_fd``: before, a
    hard link there had your file emptied, then the task written into it). Its folder must be the relay's own
    (``own_folder``) for that to hold."""
    with os.fdopen(_own_fd(path, os.O_WRONLY | getattr(os, "O_BINARY", 0), mode), "wb") as fh:
        fh.truncate(0)
        fh.write(data)


def create_private(path: Path) -> int:
    """An fd appending to ``path``, created owner-only (0600) when new; never through a link planted there
    (``_own_fd``: a hard link had the worker's transcript appended to your file)."""
    return _own_fd(path, os.O_WRONLY | os.O_APPEND, 0o600)


def create_fresh(path: str | os.PathLike) -> int:
    """An fd to a new, empty, owner-only file at ``path`` that the relay has just made, for a file it hands a program
    by name (agy's ``--log-file``). Whatever stood at the name is removed first, the name alone: a link, a FIFO, or a
    regular file another process made first (kept, it had agy write the run's log into a file of that process's
    mode, read through whatever fd it held). O_EXCL: a name planted again in between fails the open, never
    followed. A folder there (never removed: it may hold files) is an OSError."""
    flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
             | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    for _ in range(3):
        try:
            if not stat.S_ISDIR(os.lstat(path).st_mode) or is_link(path):
                os.unlink(path)
            else:  # said as what it is, not as a plant coming back (the relay never removes a folder)
                raise OSError(errno.EISDIR, "a folder stands where the relay makes a file of its own; the relay never "
                              "removes a folder (it may hold files): move it out of the relay's data dir, then call "
                              "again", str(path))
        except FileNotFoundError:
            pass
        try:
            return os.open(path, flags, 0o600)
        except FileExistsError:
            continue  # planted again between the unlink and the open: removed once more
    raise OSError(errno.EEXIST, "something is planted again and again where the relay makes its own file", str(path))


# How long a rename waits for another handle to let go (a `runs wait` poller reading the record, an antivirus or
# search indexer scanning the new file): Windows refuses to replace a file that is open without FILE_SHARE_DELETE
# (WinError 5 or 32, a PermissionError), and the handle is usually gone within milliseconds.
REPLACE_PATIENCE_SECONDS = 2.0


def replace_file(src: str | os.PathLike, dst: str | os.PathLike) -> None:
    """``os.replace``, tried again for up to REPLACE_PATIENCE_SECONDS while it is refused with a PermissionError
    (on POSIX one means a real permission problem, and still fails, as late as that)."""
    deadline = time.monotonic() + REPLACE_PATIENCE_SECONDS
    pause = 0.005
    while True:
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def remove_tree(path: str | os.PathLike, *, missing_ok: bool = False, ignore_errors: bool = False) -> None:
    """``shutil.rmtree``, through read-only files: git writes its objects and packs read-only, and Windows refuses
    to delete a read-only file (PermissionError), so a run's snapshot or a worktree stopped retention half-way.
    A refused entry is made writable and removed again; a second refusal raises as before (``ignore_errors``: never
    raises, for a finalizer)."""
    def writable_and_again(func, name, _exc) -> None:
        try:
            os.chmod(name, stat.S_IWRITE | stat.S_IREAD | (stat.S_IEXEC if os.path.isdir(name) else 0))
        except OSError:
            pass
        func(name)

    if missing_ok and not os.path.lexists(path):
        return
    try:
        if sys.version_info >= (3, 12):
            shutil.rmtree(path, onexc=writable_and_again)
        else:
            shutil.rmtree(path, onerror=writable_and_again)
    except OSError:
        if not ignore_errors:
            raise


def write_atomic(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Temp file beside ``path``, fsync, chmod, ``os.replace``: readers see the old or the new file, whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        replace_file(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
