"""What a run changed in its repository outside the workspace, when the workspace is a sub-folder of it.

An in-place run whose workspace is ``project/sub`` of a repository at ``project`` is looked at in ``sub`` only (git's
status and diff are limited to the folder): a worker that writes ``../.github/workflows/x.yml`` or ``../setup.py`` —
one ``cd ..`` away, inside the repository the person commits from — left the packet SUCCESS-quiet. Here the rest of
the repository is listed by ``git status`` before the run and after it (the entries of each folder on the way from
the top to the workspace, the workspace's own folder left out: its content is the look's), each listed path with its
stat. A path listed after the run and not before (a tracked file now changed, deleted or a new file), or listed both
times with another stat, or listed before and gone or changed back since, was changed during the run: named as the
worker's, outside its workspace, not diffed (``relay.observe.changes`` lists it as ``../path``; the review ranks it
high; under limits it is a violation: ``relay.call.enforce``). A person who edits their own files there during the
run has those edits named too: the relay cannot tell who wrote them.

A folder there that git cannot read (its mode, a path past the system's limit) is never passed over quietly: one the
run made unreadable, or whose change time falls in the run, fails the look (NOT OBSERVED, naming it as ``../path``);
one unreadable before and untouched since is named in the notes (relay.observe.unreadable, as in the workspace). A
symlink the run made or changed there is named with its target (read as text, never followed).

Bounded: past ``ABOVE_MAX`` entries before the run the rest are not kept, and an entry after it that was not kept is
judged by its change time (newer than the run's start: changed). No git runs anywhere the worker can configure: the
snapshot's private git dir, as every look.
"""

from __future__ import annotations

import logging
import os
import posixpath

from relay.observe.git import GitError, z_records
from relay.observe.private_repo import Index, Repo, git_private, look_of
from relay.observe.unreadable import blind_spots

__all__ = ["ABOVE_MAX", "ABOVE_SAID", "above_before", "above_after", "above_said", "shown_above"]

_log = logging.getLogger("relay.observe.above")

ABOVE_MAX = 20_000
ABOVE_SAID = "written outside the workspace, in the repository around it (seen by git's status; not diffed)"
_OPTS = ("--porcelain=v2", "-z", "--untracked-files=all", "--ignored=matching", "--no-renames",
         "--ignore-submodules=dirty")

Key = tuple[int, int, int, int]


def _key(path: str) -> Key | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _pathspecs(repo: Repo, kept: list[str]) -> list[str]:
    """The entries beside the workspace's folder on each level from the top down to it (``kept``: those of the
    listing before the run, so a folder the run removed whole is still asked about)."""
    parts = repo.prefix.strip("/").split("/")
    found = set(kept)
    for depth in range(len(parts)):
        folder = "/".join(parts[:depth])
        try:
            names = os.listdir(os.path.join(repo.root, folder) if folder else repo.root)
        except OSError:
            continue
        for name in names:
            if depth == 0 and name == ".git":
                continue  # the repository's own git dir: watched apart (relay.observe.git_dir)
            if name != parts[depth]:
                found.add(posixpath.join(folder, name) if folder else name)
    return sorted(found)


def _listed(snapshot_dir: str, repo: Repo, index: Index, specs: list[str]) -> tuple[dict[str, str], list[str]]:
    """(path -> its status code ("?" untracked, "!" ignored, "D" deleted, "M" else) of every entry git lists there;
    the folders there git said it could not read)."""
    if not specs:
        return {}, []
    # git's warnings of folders it could not read name the workspace's own look's (relay.observe.unreadable): kept.
    said = (repo.unreadable, look_of(repo).unreadable)
    try:
        out = git_private(snapshot_dir, repo, "status", _OPTS, index=index, paths=specs)
    finally:
        unread = look_of(repo).unreadable if index == "after" else repo.unreadable
        repo.unreadable, look_of(repo).unreadable = said
    listed: dict[str, str] = {}
    for rec, _ in z_records(out, lambda rec: 1 if rec.startswith(b"2 ") else 0):
        tag = rec[:2]
        if tag == b"1 ":
            fields = rec.split(b" ", 8)
            if fields[1][1:2] != b".":
                listed[os.fsdecode(fields[8])] = "D" if fields[1][1:2] == b"D" else "M"
        elif tag == b"2 ":
            fields = rec.split(b" ", 9)
            if fields[1][1:2] != b".":
                listed[os.fsdecode(fields[9])] = "M"
        elif tag == b"u ":
            listed[os.fsdecode(rec.split(b" ", 10)[10])] = "M"
        elif tag in (b"? ", b"! "):
            listed[os.fsdecode(rec[2:])] = tag[:1].decode()
    return listed, unread


def above_before(snapshot_dir: str, repo: Repo) -> None:
    """Before the run: what ``git status`` lists outside the workspace's folder, with each path's stat
    (``Repo.above``; the entries it asked about: ``Repo.above_specs``). Nothing for a repository's top."""
    if not repo.prefix or repo.depth or repo.git_dir is not None:
        return
    specs = _pathspecs(repo, [])
    try:
        listed, repo.above_unreadable = _listed(snapshot_dir, repo, "before", specs)
    except (GitError, OSError) as exc:  # the look in the folder goes on; the packet's note says what was not listed
        _log.warning("the repository around %s was not listed: %s", repo.root, exc)
        return
    repo.above = {p: list(_key(os.path.join(repo.root, p)) or ()) for p in list(listed)[:ABOVE_MAX]}
    repo.above_cut = max(0, len(listed) - ABOVE_MAX)
    repo.above_specs = specs


def above_after(snapshot_dir: str, repo: Repo, started_ns: int) -> dict[str, str]:
    """After the run: repository path -> "added" / "modified" / "deleted" for what changed outside the workspace's
    folder since ``above_before`` (``started_ns``: the run's start, less the clock's slack)."""
    if repo.above is None:
        return {}
    listed, unread = _listed(snapshot_dir, repo, "after", _pathspecs(repo, repo.above_specs))
    # A folder git could not read there: GitError (the look fails) when the run made it so, else named in the notes.
    look_of(repo).above_blind = blind_spots(repo.root, repo.above_unreadable, unread, started_ns,
                                            lambda folder: shown_above(repo, folder))
    changed: dict[str, str] = {}
    for path, code in listed.items():
        now = _key(os.path.join(repo.root, path))
        kind = "deleted" if code == "D" else "added" if code in "?!" else "modified"
        if path in repo.above:
            if tuple(repo.above[path]) != (now or ()):
                changed[path] = "deleted" if now is None else "modified" if repo.above[path] else "added"
        elif not repo.above_cut or now is None or max(now[1], now[2]) >= started_ns:
            changed[path] = kind
    for path, key in repo.above.items():
        if path in listed:
            continue
        now = _key(os.path.join(repo.root, path))  # listed before, not now: removed, or changed back
        if key and now is None:
            changed[path] = "deleted"
        elif tuple(key) != (now or ()):
            changed[path] = "modified"
    return changed


def shown_above(repo: Repo, path: str) -> str:
    """A repository path outside the workspace as seen from the workspace: ``../setup.py``."""
    shown = posixpath.relpath(path.rstrip("/"), repo.prefix.rstrip("/"))
    return shown + ("/" if path.endswith("/") else "")


def above_said(repo: Repo, path: str) -> str:
    """Why a path outside the workspace is named: ABOVE_SAID, led by the target of a symlink (read, never followed)."""
    try:
        return f"a symlink to {os.readlink(os.path.join(repo.root, path))}, {ABOVE_SAID}"
    except OSError:  # not a link (or gone)
        return ABOVE_SAID
