"""Put chosen files back to what they held before a run (issue 10, ``on_violation: "revert"``).

The pre-run snapshot is the only source: a file that was dirty, untracked or ignored
before has its bytes in the snapshot's ContentStore (within its budgets); a clean tracked
file's before is the snapshot's HEAD, read from git; a path that was not there before is
removed. A file whose before the relay does not hold (past the snapshot's budget, under a
folder git folds, a submodule it did not scan, a workspace with no snapshot) is never
touched: ``restore_paths`` says why instead. Nothing is written outside the workspace: a
folder the worker turned into a symlink leading out is refused, and a symlink at the path
itself is replaced, never written through.
"""

from __future__ import annotations

import os
import stat as stat_mod
from pathlib import Path
from typing import NamedTuple

from relay.observe.git import GitError, run_git
from relay.observe.snapshot import SKIP_DIRS, RepoState, Snapshot

__all__ = ["Before", "before_of", "restore_paths"]


class Before(NamedTuple):
    """A path's pre-run state: ``kind`` "absent", "file" or "link" (data: the bytes, or the link's target)."""

    kind: str
    data: bytes = b""
    executable: bool = False


_PATHS_PER_CALL = 1000
_NOT_KEPT = "its pre-run content was not kept (larger than the snapshot's per-file limit, or past its budget)"


def _locate(repo: RepoState, out_path: str) -> tuple[RepoState, str] | str:
    """The repository that holds ``out_path`` and the path inside it, or why the relay cannot say."""
    for sub, state in repo.subs.items():
        sub_out = repo.out(sub)
        if out_path == sub_out:
            return "it is a submodule or nested repository (its commit is not restored)"
        if out_path.startswith(sub_out + "/"):
            if state is None:
                return "it lies in a submodule or nested repository the snapshot did not scan"
            return _locate(state, out_path)
    return repo, repo.prefix + out_path[len(repo.out_prefix) :]


def _from_head(state: RepoState, paths: list[str]) -> dict[str, Before | str]:
    """Before-states of clean paths from the snapshot's HEAD: one ls-tree and one cat-file for all."""
    found: dict[str, Before | str] = {}
    if not state.head:
        return found
    listing = b""
    for start in range(0, len(paths), _PATHS_PER_CALL):  # a bounded argv, whatever the number of paths
        chunk = paths[start : start + _PATHS_PER_CALL]
        try:
            listing += run_git(Path(state.root), "ls-tree", ["-z", "--full-tree"], values=[state.head], paths=chunk,
                               config=state.config) + b"\0"
        except GitError as exc:
            found.update({p: f"git could not read HEAD ({exc})" for p in chunk})
    objects: list[tuple[str, str, str]] = []  # path, mode, oid
    for rec in listing.split(b"\0"):
        if not rec or b"\t" not in rec:
            continue
        meta, _, name = rec.partition(b"\t")
        mode, kind, oid = meta.decode("ascii", "replace").split(" ")
        path = os.fsdecode(name)
        if kind != "blob":
            found[path] = f"it is a {kind} in HEAD, not a file"
        else:
            objects.append((path, mode, oid))
    if not objects:
        return found
    try:
        blob = run_git(Path(state.root), "cat-file", ["--batch"], config=state.config,
                       input="".join(f"{oid}\n" for _, _, oid in objects).encode("ascii"))
    except GitError as exc:
        return {**found, **{p: f"git could not read HEAD ({exc})" for p, _, _ in objects}}
    pos = 0
    for path, mode, _ in objects:
        end = blob.find(b"\n", pos)
        header = blob[pos:end].split(b" ")
        pos = end + 1
        if len(header) != 3:
            found[path] = "git could not read its HEAD content"
            continue
        size = int(header[2])
        data = blob[pos : pos + size]
        pos += size + 1
        found[path] = Before("link" if mode == "120000" else "file", data, mode == "100755")
    return found


def _in_folded(state: RepoState, rel: str) -> bool:
    return any(rel.startswith(folder) for folder in state.folded)


def before_of(snapshot: Snapshot, paths: list[str]) -> dict[str, Before | str]:
    """Each workspace-relative path's pre-run state, or (a string) why the relay does not hold it."""
    out: dict[str, Before | str] = {}
    if snapshot.source == "report":
        return {p: "the relay took no snapshot of this workspace before the run" for p in paths}
    if snapshot.source == "tree":
        tree = snapshot.tree or {}
        for path in paths:
            entry = tree.get(path)
            if entry is None:
                skipped = any(part in SKIP_DIRS for part in path.split("/")[:-1])
                out[path] = "it lies in a folder the snapshot does not walk" if skipped else Before("absent")
            else:
                out[path] = _kept(snapshot, os.path.join(str(snapshot.workspace), path), entry.kind, entry.executable)
        return out
    assert snapshot.repo is not None
    from_head: dict[int, tuple[RepoState, dict[str, str]]] = {}  # repo -> {rel: out path}
    for path in paths:
        where = _locate(snapshot.repo, path)
        if isinstance(where, str):
            out[path] = where
            continue
        state, rel = where
        entry = state.entries.get(rel)
        if entry is not None:
            out[path] = _kept(snapshot, os.path.join(state.root, rel), entry.kind, entry.executable)
        elif _in_folded(state, rel):
            out[path] = "it lies in a folder git folds (ignored, or a nested repository); its before is unknown"
        else:
            from_head.setdefault(id(state), (state, {}))[1][rel] = path
    for state, wanted in from_head.values():
        heads = _from_head(state, sorted(wanted))
        for rel, path in wanted.items():
            if rel in heads:
                out[path] = heads[rel]
            elif state.ignored_overflow:
                out[path] = "it may be an ignored file past the snapshot's watch limit; its before is unknown"
            else:
                out[path] = Before("absent")  # not in HEAD, not dirty, untracked or ignored before: new
    return out


def _kept(snapshot: Snapshot, abspath: str, kind: str, executable: bool) -> Before | str:
    if kind == "absent":
        return Before("absent")
    if kind not in ("file", "link"):
        return f"it was a {kind} before the run, not a file"
    data = snapshot.store.content(abspath)
    if data is None:
        return _NOT_KEPT
    return Before(kind, data, executable)


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _put_back(root: str, path: str, before: Before, mode: int | None = None) -> str | None:
    """Make ``path`` hold ``before`` again; None when done, else why it was left alone. ``mode``: the file's
    permission bits before the run, when the relay took them (issue 22): put back exactly."""
    target = os.path.join(root, *path.split("/"))
    ancestor = os.path.dirname(target)
    while not os.path.lexists(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not _inside(os.path.realpath(ancestor), root):
        return "its folder now leads out of the workspace (a symlink); nothing was written there"
    if not os.path.isdir(ancestor):
        return f"{os.path.relpath(ancestor, root)} is no longer a folder"
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat_mod.S_ISDIR(st.st_mode):
        return "it is a folder now; folders are not removed"
    if before.kind == "absent":
        if st is not None:
            os.unlink(target)
        return None
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.relay-restore.{os.getpid()}")
    if os.path.lexists(tmp):
        os.unlink(tmp)
    if before.kind == "link":
        os.symlink(os.fsdecode(before.data), tmp)
    else:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(tmp, flags, 0o777 if before.executable else 0o666)  # the umask applies, as for git
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(before.data)
        except BaseException:
            os.unlink(tmp)
            raise
        if mode is not None:
            os.chmod(tmp, mode)
        elif st is not None and stat_mod.S_ISREG(st.st_mode):
            mode = stat_mod.S_IMODE(st.st_mode)  # keep the file's permissions; only the exec bits follow before
            mode = mode | ((mode & 0o444) >> 2) if before.executable else mode & ~0o111
            os.chmod(tmp, mode)
    os.replace(tmp, target)  # replaces a symlink at the path itself, never writes through it
    return None


def restore_paths(snapshot: Snapshot, paths: list[str], modes: dict[str, int] | None = None
                  ) -> tuple[list[str], dict[str, str]]:
    """Put ``paths`` (workspace-relative) back to their pre-run state: (restored, {path: why not}). ``modes``:
    the files' permission bits before the run (relay.observe.permissions), when taken."""
    root = os.path.realpath(snapshot.workspace)
    restored: list[str] = []
    refused: dict[str, str] = {}
    wanted = list(dict.fromkeys(paths))
    for path in [p for p in wanted if "\ufffd" in p or p in (".", "")]:
        refused[path] = "the relay cannot name it exactly (the whole workspace, or a name that is not UTF-8)"
    befores = before_of(snapshot, [p for p in wanted if p not in refused])
    for path, before in befores.items():
        if isinstance(before, str):
            refused[path] = before
            continue
        try:
            why = _put_back(root, path, before, (modes or {}).get(path))
        except OSError as exc:
            why = f"could not write it ({exc.strerror or exc})"
        if why is None:
            restored.append(path)
        else:
            refused[path] = why
    return sorted(restored), dict(sorted(refused.items()))
