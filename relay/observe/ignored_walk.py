"""The folders inside the ignored folders git folds (and those the walk outside git skips), listed beside the run, so
that the look after it reads only what the run changed there (relay.observe.made_git_dirs.deep_git_dirs).

Reading every folder of a large ``node_modules`` after every run (a directory listing each) cost half a second per
50,000 folders, and a repository past the bound was NOT OBSERVED on every run. So right after the snapshot a thread
lists those folders (each one's inode and change time), the ``.git`` they hold and the places that run among their
files (relay.observe.runs_next), while the worker runs. After the run only a stat of each listed folder is needed:
a folder gains or loses an entry (a ``.git`` made, a folder renamed into place, a link or a file created) only by a
change of its own change time, which no process can set back (a worker can set mtime back, never ctime). A folder
whose change time falls in the run, whose inode is another, or that the listing met only after the run had changed
it, is read again, and what is new beneath it (a folder not listed, or listed only after the run touched it) is
walked whole, as before: a repository prepared elsewhere and renamed into place keeps the old times of all it holds,
but the renamed folder's own change time is the run's. The ``.git`` folders listed and the places that run are
stat-ed one by one (a write inside an existing file changes no folder), and so are the installed packages' modules
listed (relay.observe.runs_next.package_module: one rewritten in place changes no folder), at most MODULES_LISTED_MAX.

The listing is the relay's own, in this process only: a run whose listing did not end before the look (a run shorter
than the listing), or one looked at by another process (recovery after a crash), gets the whole walk as before.
"""

from __future__ import annotations

import os
import stat
import threading
import time
import weakref
from typing import TYPE_CHECKING, NamedTuple

from relay.observe.ignored_beside import code_top, kinds_above, tracked_kinds
from relay.observe.runs_next import CODE_SUFFIXES, in_packages, runs_when

if TYPE_CHECKING:
    from relay.observe.private_repo import Repo

__all__ = ["Listing", "start_listing", "wait_listing", "changed_folders", "tops_before", "LISTING_MAX",
           "LISTING_BYTES_MAX", "LISTING_WAIT_S"]

LISTING_MAX = 1_000_000  # folders listed beside the run, at most; past it (or LISTING_BYTES_MAX) all are walked
# The memory the listing holds for the whole run, at most (bench/bench_listing_memory.py: 61 MB held for 200,000
# folders, 298 MB at its peak on the way to a million, about 310 bytes a folder with paths of 70 characters): a relay
# on a laptop does not hold 300 MB beside every run. Counted as it grows, per folder its path's length and the rest.
LISTING_BYTES_MAX = 128 * 1024 * 1024
_FOLDER_BYTES = 240  # a listed folder's bytes besides its path's characters (measured: 310 - 70)
_PLACE_BYTES = 80  # a place that runs: its path's characters and this
_UNREAD = 1 << 62  # the change time a folder the listing could not read is given: always read again after the run
# Package modules listed beside the run, at most: a stat each after it (100,000: 1.1 s on a loaded 2-core machine), a
# place's bytes each while it runs.
MODULES_LISTED_MAX = 100_000
LISTING_WAIT_S = 0.5  # how long the look after the run waits for a listing still going before it walks them all


class Listing(NamedTuple):
    """What the thread listed: folder -> (inode, change time ns) for every folder inside the tops (absolute paths);
    the folders holding a ``.git``; the places that run (relay.observe.runs_next); the CPU it took (ms)."""

    folders: dict[str, tuple[int, int, int]]  # folder -> (inode, ctime ns, index of its top in tops_before)
    git_holders: list[str]
    places: list[str]
    ms: float
    modules: list[str] = []  # the installed packages' modules (never changed: the listing's own)
    modules_cut: int | None = None  # the index of the top where MODULES_LISTED_MAX was met; None: all listed
    code: list[str] = []  # files of the code beside in the folders read for it (relay.observe.ignored_beside.code_top)


class _Job:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.stop = threading.Event()
        self.listing: Listing | None = None


_JOBS: dict[int, _Job] = {}
_LOCK = threading.Lock()


def tops_before(repos: list[Repo]) -> list[tuple[Repo, str]]:
    """(repository, top folder relative to its root) of each folder no look enters that was there before the run."""
    return [(repo, top) for repo in repos
            for top in dict.fromkeys(t.rstrip("/") for t in [*repo.folded, *repo.skipped])]


def _code_kinds(snapshot_dir: str, code: dict[int, tuple[Repo, str]]) -> dict[int, set[str]]:
    """Top's index -> the extensions of the code of the folder above it, for the tops read for that code."""
    tracked: dict[int, dict[str, set[str]]] = {}
    for repo, _ in code.values():
        if id(repo) not in tracked:
            tracked[id(repo)] = tracked_kinds(snapshot_dir, repo)
    return {index: kinds for index, (repo, top) in code.items() if (kinds := kinds_above(tracked[id(repo)], top))}


def _list(tops: list[tuple[str, str]], job: _Job, snapshot_dir: str = "", code: dict[int, tuple[Repo, str]] | None = None) -> None:
    started = time.thread_time()
    folders: dict[str, tuple[int, int, int]] = {}
    holders: list[str] = []
    places: list[str] = []
    modules: list[str] = []
    beside: list[str] = []  # a module rewritten in place beside the code of its kind changes no folder: stat-ed after
    kinds = _code_kinds(snapshot_dir, code) if code and snapshot_dir else {}
    cut: int | None = None
    held = 0  # the bytes the listing holds, as counted (LISTING_BYTES_MAX)
    try:
        for index, (root, top) in enumerate(tops):
            stack = [os.path.join(root, top)]
            while stack:
                folder = stack.pop()
                if job.stop.is_set() or len(folders) >= LISTING_MAX or held > LISTING_BYTES_MAX:
                    return
                try:
                    st = os.lstat(folder)
                    with os.scandir(folder) as it:
                        entries = list(it)
                except OSError:  # unreadable now (a worker's chmod 000 while the listing passes): read after the run
                    folders[folder] = (-1, _UNREAD, index)
                    continue
                folders[folder] = (st.st_ino, st.st_ctime_ns, index)
                held += len(folder) + _FOLDER_BYTES
                packages: bool | None = None  # whether the folder is inside installed packages, asked once
                for item in entries:
                    if item.name == ".git":
                        holders.append(folder)
                    elif item.is_dir(follow_symlinks=False):
                        stack.append(item.path)
                    elif runs_when(folder, item.name) is not None:
                        places.append(item.path)
                        held += len(item.path) + _PLACE_BYTES
                    elif item.name.endswith(CODE_SUFFIXES) and (packages := packages if packages is not None
                                                                else in_packages(folder)):
                        if len(modules) < MODULES_LISTED_MAX:
                            modules.append(item.path)
                            held += len(item.path) + _PLACE_BYTES
                        elif cut is None:
                            cut = index
                    elif index in kinds and os.path.splitext(item.name)[1].lower() in kinds[index]:
                        if len(modules) + len(beside) < MODULES_LISTED_MAX:
                            beside.append(item.path)
                            held += len(item.path) + _PLACE_BYTES
                        elif cut is None:
                            cut = index
        job.listing = Listing(folders, holders, places, (time.thread_time() - started) * 1000, modules, cut, beside)
    finally:
        job.done.set()


def start_listing(before: object, repos: list[Repo]) -> None:
    """Start listing the folders no look enters in ``repos`` (the snapshot ``before``'s), beside the run: a daemon
    thread, dropped with ``before``; nothing when there are none."""
    pairs = tops_before(repos)
    tops = [(repo.root, top) for repo, top in pairs]
    if not tops:
        return
    code = {index: (repo, top) for index, (repo, top) in enumerate(pairs) if code_top(repo, top)}
    job = _Job()
    with _LOCK:
        _JOBS[id(before)] = job
    weakref.finalize(before, _drop, id(before))
    threading.Thread(target=_list, args=(tops, job, getattr(before, "dir", "") or "", code), name="relay-ignored-listing",
                     daemon=True).start()


def _drop(key: int) -> None:
    with _LOCK:
        job = _JOBS.pop(key, None)
    if job is not None:
        job.stop.set()


def wait_listing(before: object, seconds: float = LISTING_WAIT_S) -> Listing | None:
    """The listing taken beside the run, waited for ``seconds`` at most; None when there is none, it was cut (past
    LISTING_MAX folders or LISTING_BYTES_MAX bytes) or it is still going (then it is stopped: the look walks the
    folders whole)."""
    with _LOCK:
        job = _JOBS.get(id(before))
    if job is None:
        return None
    if not job.done.wait(seconds):
        job.stop.set()
        return None
    return job.listing


def changed_folders(listing: Listing, since: int) -> tuple[list[tuple[str, int]], set[str]]:
    """After the run: (the listed folders the run changed, each with its top's index: read them again; the listed
    folders that do not stand as listed). Changed: another inode, a change time in the run now or already when
    listed. One gone or no longer a folder is not read: its parent's change time moved, and the parent is read."""
    lstat, is_dir, changed, moved = os.lstat, stat.S_ISDIR, [], set()
    for folder, (ino, ctime, index) in listing.folders.items():
        try:
            st = lstat(folder)
        except OSError:
            moved.add(folder)
            continue
        if st.st_ctime_ns >= since or ctime >= since or st.st_ino != ino or not is_dir(st.st_mode):
            moved.add(folder)
            if is_dir(st.st_mode):
                changed.append((folder, index))
    return changed, moved
