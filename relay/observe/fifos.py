"""A FIFO the worker put in place of git's ignore or attributes file, which git would wait on for its whole timeout.

git opens each folder's ``.gitignore`` (and ``.gitattributes``) with a blocking ``open``: a worker that made one a
FIFO (``mkfifo``) held the look after the run for git's two minutes, and the next run's snapshot too, until the
relay fell back to the worker's report. While git runs the relay watches it (``run_git(stalled=...)``): where the
system says git waits for a FIFO's other end (Linux: ``/proc/PID/wchan`` is ``wait_for_partner``), every FIFO named
like those files in the work tree is opened for writing and closed at once: git reads it as an empty file (no rule
hidden by it, nothing hidden from the relay) and goes on. The paths are said in the look's notes. Elsewhere
(no ``/proc``) git's timeout stays what bounds it.
"""

from __future__ import annotations

import os
import stat
import threading

__all__ = ["FifoRelease", "GIT_READS"]

GIT_READS = frozenset({".gitignore", ".gitattributes"})  # what git opens in each folder it walks
_SKIP = frozenset({".git"})


class FifoRelease:
    """A ``stalled`` watcher for git in the work tree ``root``; ``released``: the FIFOs it opened (relative paths)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.released: list[str] = []
        self._found_none = False  # a walk that opened nothing is not made again (git waits on some other FIFO)
        # Held from before a FIFO is opened for git until its path is recorded: opening it lets git go on, and under
        # load git ended and its caller read ``released`` while this thread had not yet written the path down (the
        # look's note lost the FIFO). ``seen`` waits for it.
        self._lock = threading.Lock()

    def __call__(self, pid: int) -> None:
        try:
            with open(f"/proc/{pid}/wchan", encoding="ascii", errors="replace") as fh:
                waiting = fh.read().strip() == "wait_for_partner"
        except OSError:
            return
        if waiting and not self._found_none:
            with self._lock:
                self._found_none = self._release() == 0

    def seen(self) -> list[str]:
        """The FIFOs opened for git, read once git has ended (a release under way is waited for)."""
        with self._lock:
            return list(self.released)

    def _release(self) -> int:
        """Open each FIFO git may be waiting on; how many were opened."""
        opened = 0
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = [d for d in dirs if d not in _SKIP]
            for name in GIT_READS.intersection(files):
                path = os.path.join(folder, name)
                try:
                    if not stat.S_ISFIFO(os.lstat(path).st_mode):
                        continue
                    os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # git's open returns; it reads an end of file
                except OSError:
                    continue  # no reader waits on it (ENXIO): not the one git waits on
                opened += 1
                rel = os.path.relpath(path, self.root).replace(os.sep, "/")
                if rel not in self.released:
                    self.released.append(rel)
        return opened
