"""What the relay can still see when its look after the run failed: files changed during the run by their timestamps.

A worker that makes git fail after the run (moves ``.git/objects`` away: ``bad object HEAD``), or floods a workspace
outside git past the walk's bound, left the look with nothing but its own report: a SUCCESS that listed only the files
the worker chose to name. Without git's trees, each file's change time still says what the run touched: the kernel
sets ``ctime`` on every write, and no process can set it back (``touch -d`` moves ``mtime`` only). So the workspace is
walked (``.git`` aside, nothing else skipped: a worker could hide in ``build/``), bounded, and every file changed since
the snapshot started is listed, not diffed; the files the before index held that are gone are listed deleted.

The timestamps are read with the clock's slack (a file stamped up to 0.1 s before the snapshot counts): a person's own
edit made just before the run would be blamed on the worker. The before index holds what each file held when the
snapshot took it (the person's edit included), so a file whose bytes and mode now are that blob's is left out, said in
the first flag (``_same_as_before``: read only up to ``TREE_FILE_MAX``; a file git's form may differ from, line
endings converted, is compared by the bytes the snapshot kept, else listed).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat as stat_mod

from relay.core.files import read_regular
from relay.observe.git import GitError
from relay.observe.snapshot import CLOCK_SLACK_NS, TREE_FILE_MAX, Snapshot, git_private

__all__ = ["seen_by_time", "SCAN_MAX", "LIST_MAX"]

SCAN_MAX = 200_000  # entries looked at, at most
LIST_MAX = 2_000  # changed files listed, at most


def _walk(root: str, since_ns: int, unread: list[str]) -> tuple[list[str], int, bool]:
    """(files changed since ``since_ns``, entries looked at, whether the walk stopped at a bound); the folders it
    could not open added to ``unread`` (a worker's ``chmod 000``: said, never passed over as unchanged)."""
    changed: list[str] = []
    seen = 0
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        try:
            with os.scandir(os.path.join(root, rel_dir) if rel_dir else root) as it:
                items = list(it)
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ENOTDIR):
                unread.append(f"{rel_dir or '.'}/ ({exc.strerror})")
            continue
        for item in items:
            seen += 1
            if seen > SCAN_MAX or len(changed) >= LIST_MAX:
                return changed, seen, True
            rel = f"{rel_dir}/{item.name}" if rel_dir else item.name
            try:
                st = item.stat(follow_symlinks=False)
                if item.is_dir(follow_symlinks=False):
                    if item.name != ".git":
                        stack.append(rel)
                    continue
            except OSError:
                continue
            if max(st.st_mtime_ns, st.st_ctime_ns) >= since_ns:
                changed.append(rel)
    return changed, seen, False


def _gone(before: Snapshot, root: str) -> list[str]:
    """The paths the before index held under the workspace that are no longer there (reads the index only)."""
    repo = before.repo
    if repo is None or repo.no_git:
        return []
    with contextlib.suppress(GitError, OSError):
        out = git_private(before.dir, repo, "ls-files", ["-z"], index="before")
        paths = [os.fsdecode(p) for p in out.split(b"\0") if p]
        prefix = repo.prefix
        return [p[len(prefix):] for p in paths if p.startswith(prefix) and _absent(os.path.join(repo.root, p))][:LIST_MAX]
    return []


def _absent(path: str) -> bool:
    """Gone for sure (a file in a folder the relay may not open is not known to be gone: that folder is said)."""
    try:
        os.lstat(path)
    except OSError as exc:
        return exc.errno in (errno.ENOENT, errno.ENOTDIR)
    return False


def _same_as_before(before: Snapshot, paths: list[str]) -> set[str]:
    """Of ``paths`` (workspace-relative), those whose bytes and mode now are the before index's blob for them."""
    repo = before.repo
    if repo is None or repo.no_git or not paths:
        return set()
    try:
        out = git_private(before.dir, repo, "ls-files", ["-s", "-z"], index="before")
    except (GitError, OSError):
        return set()
    held: dict[str, tuple[bytes, str]] = {}
    for rec in out.split(b"\0"):
        meta, _, path = rec.partition(b"\t")
        if meta.count(b" ") == 2:
            mode, blob, _ = meta.split(b" ")
            held[os.fsdecode(path)] = (mode, blob.decode("ascii", "replace"))
    same = set()
    for rel in paths:
        mode, blob = held.get(repo.prefix + rel, (b"", ""))
        blob = repo.raw.get(repo.prefix + rel, blob)  # the bytes on disk, where git's form differs
        full = os.path.join(repo.root, repo.prefix + rel)
        with contextlib.suppress(OSError):
            st = os.lstat(full)
            if mode not in (b"100644", b"100755") or not stat_mod.S_ISREG(st.st_mode) or st.st_size > TREE_FILE_MAX or \
                    (mode == b"100755") != bool(st.st_mode & stat_mod.S_IXUSR):
                continue
            data = read_regular(full)
            digest = (hashlib.sha256 if repo.sha256 else hashlib.sha1)(b"blob %d\0" % len(data) + data).hexdigest()
            if digest == blob:
                same.add(rel)
    return same


def seen_by_time(before: Snapshot, root: str) -> tuple[dict[str, str], str]:
    """path -> kind ("modified" or "deleted": a file changed during the run is not told apart from a new one) of what
    the run's files' timestamps show, and a sentence saying how far the walk went and what it could not read ("" when
    it went everywhere)."""
    since = before.started_ns - CLOCK_SLACK_NS
    changed, seen, cut = _walk(root, since, unread := [])
    kept = _same_as_before(before, changed)  # a person's edit just before the run, within the clock's slack
    found = {p: "modified" for p in changed if p not in kept}
    found.update({p: "deleted" for p in _gone(before, root) if p not in found})
    # What makes the list less than whole comes first: a long flag is cut, and the leader must read that part.
    said = [f"the walk stopped after {seen:,} entries ({len(changed):,} changed files listed)" if cut else "",
            f"the walk could not read {', '.join(unread[:5])}" + (f" (+{len(unread) - 5} more)" if len(unread) > 5
                                                                  else "") if unread else "",
            f"{len(kept):,} file(s) stamped in the run unchanged since the snapshot: not listed" if kept else ""]
    return found, "; ".join(filter(None, said))
