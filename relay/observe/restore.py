"""Put chosen files back to what they held before a run (issue 10, ``on_violation: "revert"``).

The before tree is the only source (``before_of``): a file's blob there is what it held,
the user's uncommitted edits included; a path not in it was not there before and is removed.
A file whose before the relay does not hold (kept out of the trees by size, under a folder
git folds, a submodule it did not scan, a workspace with no snapshot) is never touched:
``restore_paths`` says why instead. Nothing is written outside the workspace: a
folder the worker turned into a symlink leading out is refused, and a symlink at the path
itself is replaced, never written through. A file comes back as the user had it on disk, not in git's form
(``relay.observe.exact_bytes``: CRLF under ``core.autocrlf``).
"""

from __future__ import annotations

import os
import shlex
import stat as stat_mod
import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path
from typing import NamedTuple

from relay.core.files import read_regular, replace_file
from relay.observe.exact_bytes import checkout_forms
from relay.observe.git import GitError
from relay.observe.permissions import PreRun
from relay.observe.snapshot import SKIP_DIRS, TREE_FILE_MAX, Repo, Snapshot, before_trees, git_private

__all__ = ["Before", "before_of", "blob_states", "exact", "restore_paths", "restore_endings", "TempsFor"]

# Temp paths for a list of files to write, named (in a ledger of the data dir, ``relay.isolate.apply_temps.
# ledgered_temps``) for as long as the block writes them: a relay killed between a temp file's write and its rename
# leaves one doctor names and cleanup removes. Given by the caller, who knows the data dir.
TempsFor = Callable[[list[Path]], AbstractContextManager[list[Path]]]


@contextlib.contextmanager
def _unnamed(targets: list[Path]) -> Iterator[list[Path]]:
    """Without a ledger (a caller with no data dir): one temp name beside each target, this process's."""
    yield [t.parent / f".{t.name}.relay-restore.{os.getpid()}" for t in targets]


class Before(NamedTuple):
    """A path's pre-run state: ``kind`` "absent", "file", "link" (data: the bytes, or the link's target) or
    "folder" (a tree: only ever put back as a folder in place of a symlink the worker swapped in). ``checkout``:
    None when ``data`` is the file's bytes on disk; else git's checkout of ``data`` (line endings converted), the
    file's bytes being one of the two (``exact``)."""

    kind: str
    data: bytes = b""
    executable: bool = False
    checkout: bytes | None = None


_PATHS_PER_CALL = 1000
_LINK = "120000"


def blob_states(git: Callable[..., bytes], objects: list[tuple[str, str]]) -> list[Before | None]:
    """Each (mode, blob id)'s content as a ``Before`` (None: no such blob), one ``cat-file --batch`` run by ``git``
    where the blobs are: the one reader of a tree's files (restore's before, both sides of worktree apply)."""
    if not objects:
        return []
    out = git("cat-file", ["--batch"], input="".join(f"{oid}\n" for _, oid in objects).encode("ascii"))
    states: list[Before | None] = []
    pos = 0
    for mode, _ in objects:
        end = out.find(b"\n", pos)
        header, pos = out[pos:end].split(b" "), end + 1
        size = int(header[2]) if len(header) == 3 else -1  # "<oid> missing": no content follows
        states.append(Before("link" if mode == _LINK else "file", out[pos : pos + size], mode == "100755")
                      if size >= 0 else None)
        pos += size + 1 if size >= 0 else 0
    return states


def _locate(snapshot: Snapshot, out_path: str) -> tuple[Repo, str] | str:
    """The repository whose trees hold ``out_path`` and the path inside its trees, or why the relay cannot say."""
    repo = snapshot.repo
    assert repo is not None
    while True:
        for sub, state in repo.subs.items():
            sub_out = repo.out(sub)
            if out_path == sub_out:
                return "it is a submodule or nested repository (its commit is not restored)"
            if out_path.startswith(sub_out + "/"):
                if state is None:
                    return "it lies in a submodule or nested repository the snapshot did not scan"
                repo = state
                break
        else:
            return repo, out_path[len(repo.out_prefix):]


def _unknown(snapshot: Snapshot, repo: Repo, rel: str) -> str | None:
    """Why the before trees do not say what ``rel`` held, or None when they do."""
    if repo.no_git:
        return "git is not installed: the relay kept no pre-run content"
    if repo.prefix + rel in repo.big:  # its keys are the repository's paths, rel the workspace's
        return f"its pre-run content was not kept (larger than {TREE_FILE_MAX // (1024 * 1024)} MB: compared by size only)"
    if snapshot.source == "tree" and any(part in SKIP_DIRS for part in rel.split("/")[:-1]):
        return "it lies in a folder the snapshot does not walk"
    full = repo.prefix + rel
    if any(full.startswith(folder) for folder in repo.folded):
        return "it lies in a folder git folds (ignored, or a nested repository); its before is unknown"
    return None


def _from_tree(snapshot: Snapshot, repo: Repo, paths: list[str]) -> dict[str, Before | str]:
    """Before-states from the before tree: one ls-tree per thousand paths, one cat-file for all."""
    found: dict[str, Before | str] = {}
    objects: list[tuple[str, str, str]] = []  # path, mode, oid
    for start in range(0, len(paths), _PATHS_PER_CALL):  # a bounded argv, whatever the number of paths
        chunk = paths[start : start + _PATHS_PER_CALL]
        try:
            listing = git_private(snapshot.dir, repo, "ls-tree", ["-z"], values=[repo.before], paths=chunk)
        except GitError as exc:
            found.update({p: f"git could not read the before tree ({exc})" for p in chunk})
            continue
        for rec in listing.split(b"\0"):
            if not rec or b"\t" not in rec:
                continue
            meta, _, name = rec.partition(b"\t")
            mode, kind, oid = meta.decode("ascii", "replace").split(" ")
            path = os.fsdecode(name)
            if kind != "blob":
                found[path] = Before("folder") if kind == "tree" else f"it was a {kind} before the run, not a file"
            else:  # a file the snapshot read from disk: the blob of its bytes there, where git's form differs
                objects.append((path, mode, repo.raw.get(repo.prefix + path, oid) if mode != _LINK else oid))
    if objects:
        try:
            states = blob_states(partial(git_private, snapshot.dir, repo), [(mode, oid) for _, mode, oid in objects])
        except GitError as exc:
            return {**found, **{p: f"git could not read the before tree ({exc})" for p, _, _ in objects}}
        for (path, _, _), state in zip(objects, states):
            found[path] = state if state is not None else "git could not read its pre-run content"
        _checkouts(snapshot, repo, found, [p for p, mode, _ in objects if mode != _LINK])
    for path in paths:
        if path not in found:
            found[path] = Before("absent") if not repo.ignored_overflow else \
                "it may be an ignored file past the snapshot's watch limit; its before is unknown"
    return found


def _checkouts(snapshot: Snapshot, repo: Repo, found: dict[str, Before | str], files: list[str]) -> None:
    """Where git's form of a file may differ from what was on disk and the snapshot did not read it (a file git
    had clean), the file's ``Before`` gains git's checkout of it: the user had one of the two."""
    files = [p for p in files if isinstance(found.get(p), Before) and repo.prefix + p not in repo.raw]
    if not repo.converts or not files:
        return
    try:
        forms = checkout_forms(snapshot.dir, repo, [repo.prefix + p for p in files])
    except (GitError, OSError):
        forms = {}
    for path in files:
        state = found[path]
        assert isinstance(state, Before)
        found[path] = state._replace(checkout=forms.get(repo.prefix + path, state.data))


def exact(before: Before, size: int | None) -> bytes | str:
    """The bytes to write for a file: its blob, or git's checkout of it, whichever its size before the run fits
    (``size`` unknown: git's checkout); a string says why neither does."""
    if before.checkout is None:
        return before.data
    if size is None:
        return before.checkout
    for data in (before.data, before.checkout):
        if len(data) == size:
            return data
    return ("its bytes before the run were not git's checkout of it (line endings mixed in a committed file, "
            "line-ending settings changed since it was checked out, or a filter such as Git LFS), so the relay does "
            "not hold them exactly; `git checkout -- <the file>` writes git's checkout of it")


def before_of(snapshot: Snapshot, paths: list[str]) -> dict[str, Before | str]:
    """Each workspace-relative path's pre-run state, or (a string) why the relay does not hold it.

    The one place that knows what a file held before the run: the blob of the before tree."""
    out: dict[str, Before | str] = {}
    if snapshot.source == "report" or snapshot.repo is None:
        return {p: "the relay took no snapshot of this workspace before the run" for p in paths}
    before_trees(snapshot)  # written by the first look after; now, if there was none
    wanted: dict[int, tuple[Repo, dict[str, str]]] = {}  # repo -> {path in its trees: out path}
    for path in paths:
        where = _locate(snapshot, path)
        if isinstance(where, str):
            out[path] = where
            continue
        repo, rel = where
        why = _unknown(snapshot, repo, rel)
        if why is not None:
            out[path] = why
        else:
            wanted.setdefault(id(repo), (repo, {}))[1][rel] = path
    for repo, rels in wanted.values():
        for rel, before in _from_tree(snapshot, repo, sorted(rels)).items():
            if rel in rels:
                out[rels[rel]] = before
    return out


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


# ERROR_PRIVILEGE_NOT_HELD: Windows creates a symbolic link only with Developer Mode on, or for an administrator.
_NO_PRIVILEGE = 1314


def _no_link(where: str, target: str, exc: OSError) -> str:
    """Why a symbolic link was not put back: its target and how to make it by hand, so nothing of it is lost."""
    said = f"could not create the symbolic link ({exc.strerror or exc}); it pointed to {target!r}"
    if getattr(exc, "winerror", None) == _NO_PRIVILEGE or os.name == "nt":
        folder = " /D" if os.path.isdir(os.path.join(os.path.dirname(where), target)) else ""
        return (f"{said}. Windows creates symbolic links only with Developer Mode on (Settings > System > For "
                f"developers) or as an administrator; turn it on, then create it in cmd.exe: "
                f'mklink{folder} "{where}" "{target.replace("/", chr(92))}"')
    return f"{said}; create it by hand: ln -s {shlex.quote(target)} {shlex.quote(where)}"


def _put_back(root: str, path: str, before: Before, pre: PreRun | None = None, tmp: Path | None = None) -> str | None:
    """Make ``path`` hold ``before`` again; None when done, else why it was left alone. ``pre``: the file's
    permission bits and size before the run, when the relay took them (issue 22, 37): put back exactly. ``tmp``:
    the temp file a file or link is written to before its rename (``TempsFor``); needed for those two kinds."""
    data = exact(before, pre.size if pre else None) if before.kind == "file" else before.data
    if isinstance(data, str):
        return data
    mode = pre.mode if pre else None
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
    if before.kind == "folder":  # the worker swapped the folder for a symlink: the link goes, never written through
        if st is not None and stat_mod.S_ISLNK(st.st_mode):
            os.unlink(target)
            os.mkdir(target)
            return None
        return None if st is not None and stat_mod.S_ISDIR(st.st_mode) else "it was a folder before the run, not a file"
    if st is not None and stat_mod.S_ISDIR(st.st_mode):
        return "it is a folder now; folders are not removed"
    if before.kind == "absent":
        if st is not None:
            os.unlink(target)
        return None
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if tmp is None:
        raise ValueError(f"no temp file named for {path}")
    if os.path.lexists(tmp):
        os.unlink(tmp)
    if before.kind == "link":
        try:
            os.symlink(os.fsdecode(data), tmp)
        except OSError as exc:
            return _no_link(target, os.fsdecode(data), exc)
    else:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(tmp, flags, 0o777 if before.executable else 0o666)  # the umask applies, as for git
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        except BaseException:
            os.unlink(tmp)
            raise
        if mode is not None:
            os.chmod(tmp, mode)
        elif st is not None and stat_mod.S_ISREG(st.st_mode):
            mode = stat_mod.S_IMODE(st.st_mode)  # keep the file's permissions; only the exec bits follow before
            mode = mode | ((mode & 0o444) >> 2) if before.executable else mode & ~0o111
            os.chmod(tmp, mode)
    replace_file(tmp, target)  # replaces a symlink at the path itself, never writes through it
    return None


def _unswap(snapshot: Snapshot, root: str, paths: list[str]) -> None:
    """The folders on the way to ``paths`` that the worker swapped for a symlink (a folder in the before tree, a
    link now) become folders again, so their files are put back inside the workspace, never through the link."""
    links = sorted({parent for path in paths for parent in _parents(path) if os.path.islink(os.path.join(root, parent))})
    if links:
        for link, before in before_of(snapshot, links).items():
            if isinstance(before, Before) and before.kind == "folder":
                _put_back(root, link, before)


def _parents(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _target(root: str, path: str) -> Path:
    return Path(root, *path.split("/"))


def restore_paths(snapshot: Snapshot, paths: list[str], pre_run: dict[str, PreRun] | None = None, *,
                  temps: TempsFor | None = None) -> tuple[list[str], dict[str, str]]:
    """Put ``paths`` (workspace-relative) back to their pre-run state: (restored, {path: why not}). ``pre_run``:
    the files' permission bits and sizes before the run (relay.observe.permissions), when taken; ``temps``: where
    each file is written before its rename, ledgered (``TempsFor``)."""
    root = os.path.realpath(snapshot.workspace)
    restored: list[str] = []
    refused: dict[str, str] = {}
    wanted = list(dict.fromkeys(paths))
    for path in [p for p in wanted if "\ufffd" in p or p in (".", "")]:
        refused[path] = "the relay cannot name it exactly (the whole workspace, or a name that is not UTF-8)"
    _unswap(snapshot, root, [p for p in wanted if p not in refused])
    befores = before_of(snapshot, [p for p in wanted if p not in refused])
    with (temps or _unnamed)([_target(root, p) for p in befores]) as tmps:
        for (path, before), tmp in zip(befores.items(), tmps):
            if isinstance(before, str):
                refused[path] = before
                continue
            try:
                why = _put_back(root, path, before, (pre_run or {}).get(path), tmp)
            except OSError as exc:
                why = f"could not write it ({exc.strerror or exc})"
            if why is None:
                restored.append(path)
            else:
                refused[path] = why
    return sorted(restored), dict(sorted(refused.items()))


def _lf(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n")


def restore_endings(snapshot: Snapshot, paths: list[str], sizes: dict[str, int], *,
                    temps: TempsFor | None = None) -> list[str]:
    """After `runs revert` reversed the run's patch (git's form of each file, written with the user's own git
    settings), each of ``paths`` whose bytes before the run differ from what is there now in line endings only
    gets them back (``sizes``: the files' sizes before the run, when kept); the paths rewritten. A file that
    differs in anything else is left as the revert wrote it."""
    root = os.path.realpath(snapshot.workspace)
    fixed = []
    befores = before_of(snapshot, paths)
    with (temps or _unnamed)([_target(root, p) for p in befores]) as tmps:
        for (path, before), tmp in zip(befores.items(), tmps):
            if not isinstance(before, Before) or before.kind != "file":
                continue
            data = exact(before, sizes.get(path))
            target = _target(root, path)
            if isinstance(data, str):
                continue
            try:
                # One open that refuses what is not a regular file (a FIFO waits for no writer, a link is not followed):
                # a check, then an open, left a moment to put a FIFO there, and the revert would wait on it forever.
                now = read_regular(target)
                if now != data and _lf(now) == _lf(data) and \
                        _put_back(root, path, Before("file", data, before.executable), tmp=tmp) is None:
                    fixed.append(path)
            except OSError:
                continue
    return fixed
