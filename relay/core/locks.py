"""The relay's lock files (the worker slot, queue tickets, conversations, idempotency keys, worktree slots), each
taken on a file of the relay's own in its data dir.

The data dir is input (docs/security.md, "Whoever can write the data dir"): a symbolic link planted under a lock's
name had filelock (before 3.20.1) open its target with O_CREAT and O_TRUNC, creating or emptying a file of the user's
anywhere they can write; a hard link to a file of the user's had it emptied by filelock versions that truncate the
lock file they hold. From 3.20.1 on the open refuses a symbolic link (ELOOP), which failed the call instead. So before
each acquire the name is made the relay's own again: a link (symbolic, a junction, or a second name of a file that
holds something) is removed, the link alone, and the lock taken on a new empty file. A link planted again in the
moment between that look and filelock's open is refused by the open itself (pyproject pins filelock >= 3.20.1) and
tried once more.

A lock is held on a file, not on a name: whoever writes the data dir can remove or rename the file a relay holds, and
the next relay then makes a new file under that name and locks it, two relays holding "the same" lock (two workers at
once). The relay's own release-then-unlink of a ticket's lock opens the same gap to a relay that opened the old file
just before. So a lock taken on a file the name no longer names is let go and taken again (``acquire``), and a holder
can ask, where it acts, whether the name still names the file it holds (``still_named``).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from filelock import FileLock

from relay.core.files import is_link

__all__ = ["own_lock", "OwnLock"]


def _unlink_planted(path: str) -> bool:
    """Remove ``path`` when it is not a lock file the relay could have made: a symbolic link or junction, or a
    regular file with another name elsewhere that holds something (the relay's lock files are empty: filelock writes
    nothing into them). True when something went.

    An empty file with a second name is kept: it is the relay's own lock given another name (a hard link to the lock
    another relay holds, made by whoever writes the data dir), and removing its name had the next relay take a new
    lock on a new file while the first still held the old one: two workers at once. Opening it empties nothing."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    planted = is_link(path) or (stat.S_ISREG(info.st_mode) and info.st_nlink > 1 and info.st_size > 0)
    if not planted:
        return False
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            os.rmdir(path)  # a junction: rmdir removes the junction itself, never its target's files
        else:
            os.unlink(path)  # the link alone: its target (or the file's other name) is left as it was
    except FileNotFoundError:
        pass
    return True


# How many times a lock taken on a file its name no longer names is let go and taken again before the acquire fails.
_RETAKES = 5


class OwnLock(FileLock):
    """A FileLock whose file is the relay's own at every acquire, and is the file its name names (the module's
    docstring)."""

    def acquire(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201 - filelock's own signature, passed on whole
        if self.is_locked:
            return self._acquire_own(*args, **kwargs)  # held already: one more level of the same hold
        for _ in range(_RETAKES):
            proxy = self._acquire_own(*args, **kwargs)
            if self.still_named():
                return proxy
            # The file locked is no longer (or never was) the one the name names: removed or renamed between the open
            # and the lock. Another relay may make and lock a new file there; let this one go, take the name's.
            super().release(force=True)
        raise OSError(errno.EAGAIN, "the relay's lock file is removed or replaced again and again as the relay takes "
                      "it (in its data dir); find what writes the data dir", self.lock_file)

    def still_named(self) -> bool:
        """Is this lock held, on the very file its name names now (not one removed or renamed since)? On Windows held
        is enough: a file open without FILE_SHARE_DELETE (os.open's, filelock's) can be neither removed nor renamed, and
        an inode read two ways that differed would have the holder refuse its own lock."""
        fd = getattr(self._context, "lock_file_fd", None)
        if not self.is_locked or fd is None:
            return False
        if os.name == "nt":
            return True
        try:
            return os.path.samestat(os.fstat(fd), os.lstat(self.lock_file))
        except OSError:
            return False

    def _acquire_own(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        if not self.is_locked:
            _unlink_planted(self.lock_file)
        try:
            return super().acquire(*args, **kwargs)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.EMLINK) or not _unlink_planted(self.lock_file):
                raise
        try:
            return super().acquire(*args, **kwargs)  # planted again between the look and the open: once more
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EMLINK):
                raise OSError(exc.errno, "a link is planted again and again as the relay's lock file in its data dir "
                              "(removed each time, never followed); find what writes the data dir",
                              self.lock_file) from None
            raise


def own_lock(path: str | os.PathLike) -> OwnLock:
    """The lock at ``path`` (one object per holder, usable across threads as filelock's thread_local=False)."""
    return OwnLock(str(Path(path)), thread_local=False)
