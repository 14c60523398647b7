"""Folders the relay's look could not read: a blind spot is said, never read as "nothing changed there".

git skips a folder it cannot open and still succeeds: ``git status`` (and ``git add -A``) warns ``could not open
directory 'secret/': Permission denied`` on stderr, a tracked file under it gets ``secret/key.txt: Permission
denied``, and the exit code is 0. The walk of a workspace outside git skipped such a folder too. So a worker that
writes into a folder, a protected file included, and then ``chmod 000``s it, left a look that listed nothing there:
SUCCESS, and under a ``protected`` limit no violation. (A process that reads every folder whatever its mode, root,
is not blinded this way; the person's relay normally runs as the person.)

Each look keeps the folders it could not read (before the run on the repository, after it on its look): a folder
unreadable after the run that was readable before, or whose change time falls in the run (a ``chmod`` sets it; no
process sets a ctime back), makes the look fail: the packet says NOT OBSERVED, naming it, and a run with limits is a
violation (rule ``observed``). One that was unreadable before and untouched since is named in the packet's notes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from relay.observe.git import GitError

__all__ = ["said_by_git", "blind_spots", "UNREADABLE"]

# Why a folder could not be read (strerror under LC_ALL=C, as the relay runs git); a folder gone is not a blind spot.
UNREADABLE = ("Permission denied", "Operation not permitted", "Input/output error", "File name too long",
              "Too many levels of symbolic links", "Stale file handle")
_OPEN = "warning: could not open directory '"
_GONE = ("No such file or directory", "Not a directory")
_PERROR = re.compile(rf"^(?!warning: |error: |fatal: )(.+): ({'|'.join(UNREADABLE)})$")  # perror(path)


def said_by_git(lines: list[str]) -> list[str]:
    """The folders git's stderr says it could not read (relative to its work tree, each ending ``/``), once each:
    a folder it could not open, the folder of a tracked file it could not look at."""
    found: list[str] = []
    for line in lines:
        if line.startswith(_OPEN):
            path, said, why = line[len(_OPEN):].rpartition("': ")
            if not said:  # git cuts a message at 4 KB: a name that long has lost its reason, not its blindness
                path, why = line[len(_OPEN):], ""
            if why not in _GONE:
                found.append(path.rstrip("/") + "/")
        elif m := _PERROR.match(line):
            found.append(os.path.dirname(m.group(1)) + "/" if "/" in m.group(1) else m.group(1) + "/")
    return list(dict.fromkeys(found))


def blind_spots(root: str, before: list[str], now: list[str], since_ns: int, shown: Callable[[str], str]) -> list[str]:
    """After the run, of ``now`` (the folders under ``root`` the look could not read; ``before``: those the look
    before the run could not): GitError naming each that the run made unreadable (see the module's doc); else the
    ones unreadable before and untouched since, as ``shown`` names them, for the notes."""
    made, kept = [], []
    for folder in now:
        try:
            touched = os.lstat(os.path.join(root, folder)).st_ctime_ns >= since_ns
        except OSError:
            touched = True  # not even its own entry can be read: nothing says it is as it was
        name = shown(folder)
        (made if folder not in before or touched else kept).append(name if len(name) <= 200 else name[:199] + "…")
    if made:
        raise GitError(f"the look could not read {', '.join(made[:5])}" + (f" (+{len(made) - 5} more)" if len(made) > 5
                       else "") + ": unreadable since the run (its mode changed during it, or it is new), so what the run "
                       "did there is not seen")
    return kept
