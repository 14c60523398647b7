"""Apply a run's change (``base..tip``) to the user's work tree with a three-way merge per file, all or nothing.

Why not ``git apply --3way``: it implies ``--index``, so it stages the change and refuses a file whose
working copy differs from the index. A run in place leaves its edits unstaged in the working tree; an
applied worktree run should look the same, with the user's index untouched and unstaged edits merged.

Per changed path (``git diff-tree base tip``), with *yours* the file in the user's tree now:

* yours equals the run's result: nothing to do (applying twice is harmless);
* yours equals base: the run's result is written (or the file deleted);
* both changed a text file: ``git merge-file``; a clean merge is written, overlapping edits conflict;
* anything else (a file you deleted that the run edited, a file you created where the run adds one,
  binary files, submodules) conflicts.

Every path is decided before anything is written; one conflict refuses the whole apply, naming each
file and why, and nothing in the user's tree changes. Two refusals guard the user's tree whatever the
change holds (issue 22): a path outside the run's workspace folder (``within``), and a path with a symbolic
link in any parent folder in the user's tree (as ``git apply`` refuses: the link may lead out of the
repository, and the worker's worktree had a plain folder there). The file mode follows the same rule (the run's
new mode unless yours changed it too).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import NamedTuple

from relay.observe.git import GitError, run_git

__all__ = ["ApplyConflicts", "Applied", "three_way_apply"]

_ZERO = "0" * 40
_LINK, _GITLINK = "120000", "160000"


class ApplyConflicts(Exception):
    """The change does not apply; ``conflicts`` holds (path, why) for each file, nothing was written."""

    def __init__(self, conflicts: list[tuple[str, str]]) -> None:
        super().__init__(f"{len(conflicts)} conflicting file(s)")
        self.conflicts = conflicts


class Applied(NamedTuple):
    written: list[str]  # paths written or deleted
    unchanged: list[str]  # paths that already held the run's result


class _Side(NamedTuple):
    kind: str  # "file" | "link"
    data: bytes
    exec: bool = False


class _Action(NamedTuple):
    path: str
    result: _Side | None  # None: delete


def _entries(toplevel: Path, base: str, tip: str) -> list[tuple[str, str, str, str, str]]:
    """(old mode, new mode, old blob, new blob, path) of every path the change touches."""
    out = run_git(toplevel, "diff-tree", ["-r", "-z", "--no-renames", "--no-commit-id"], values=[base, tip])
    fields = out.split(b"\0")
    found = []
    for i in range(0, len(fields) - 1, 2):
        meta = fields[i].decode("ascii")
        if not meta.startswith(":"):
            continue
        old_mode, new_mode, old_sha, new_sha, _status = meta[1:].split(" ")
        found.append((old_mode, new_mode, old_sha, new_sha, os.fsdecode(fields[i + 1])))
    return found


def _blobs(toplevel: Path, shas: set[str]) -> dict[str, bytes]:
    if not shas:
        return {}
    ordered = sorted(shas)
    out = run_git(toplevel, "cat-file", ["--batch"], input="".join(f"{s}\n" for s in ordered).encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    for sha in ordered:
        end = out.index(b"\n", pos)
        header = out[pos:end].split(b" ")
        size = int(header[2])
        blobs[sha] = out[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
    return blobs


def _side(mode: str, sha: str, blobs: dict[str, bytes]) -> _Side | None:
    if sha == _ZERO or mode == "000000":
        return None
    return _Side("link" if mode == _LINK else "file", blobs[sha], mode == "100755")


def _yours(target: Path) -> _Side | None | str:
    """The user's file now: a side, None if absent, or why it cannot be compared."""
    try:
        info = target.lstat()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return "a parent of it is a file in your tree"
    if stat.S_ISLNK(info.st_mode):
        return _Side("link", os.fsencode(os.readlink(target)))
    if stat.S_ISREG(info.st_mode):
        return _Side("file", target.read_bytes(), bool(info.st_mode & stat.S_IXUSR))
    return "it is a folder or a special file in your tree"


def _merge_text(yours: bytes, base: bytes, theirs: bytes) -> bytes | None:
    """git merge-file's clean result, or None when the edits overlap (or a side is binary)."""
    if b"\0" in yours or b"\0" in base or b"\0" in theirs:
        return None
    with tempfile.TemporaryDirectory(prefix="gravity-relay-merge-") as tmp:
        names = []
        for name, data in (("yours", yours), ("base", base), ("run", theirs)):
            (Path(tmp) / name).write_bytes(data)
            names.append(name)
        try:
            return run_git(Path(tmp), "merge-file", ["-p", "-L", "yours", "-L", "base", "-L", "run"], values=names)
        except GitError:
            return None  # exit code = number of conflicts (or an error): either way, not clean


def _decide(path: str, base: _Side | None, theirs: _Side | None, yours: _Side | None) -> _Action | str | None:
    """What to do with one path: an action, None (already done), or why it conflicts."""
    if yours == theirs:
        return None
    if yours == base:
        return _Action(path, theirs)
    if yours is None:
        return "deleted in your tree, changed by the run" if base is not None else None
    if base is None:
        return "exists in your tree with other content; the run adds it"
    if theirs is None:
        return "changed in your tree since the run started; the run deletes it"
    if yours.kind != "file" or base.kind != "file" or theirs.kind != "file":
        return "a symbolic link changed on both sides"
    mode = theirs.exec if yours.exec == base.exec else yours.exec
    if yours.data == base.data or yours.data == theirs.data:
        data = theirs.data if yours.data == base.data else yours.data
        return None if (data, mode) == (yours.data, yours.exec) else _Action(path, _Side("file", data, mode))
    merged = _merge_text(yours.data, base.data, theirs.data)
    if merged is None:
        binary = b"\0" in yours.data or b"\0" in theirs.data
        return "binary file changed on both sides" if binary else "your edits and the run's overlap"
    if merged == yours.data and mode == yours.exec:
        return None  # the run's edit is already in your file (applied before, or made by hand)
    return _Action(path, _Side("file", merged, mode))


def _linked_parent(toplevel: Path, path: str) -> str | None:
    """The first parent folder of ``path`` that is a symbolic link in the user's tree, or None."""
    parts = Path(path).parts[:-1]
    for i in range(1, len(parts) + 1):
        try:
            if stat.S_ISLNK(os.lstat(toplevel.joinpath(*parts[:i])).st_mode):
                return "/".join(parts[:i])
        except FileNotFoundError:
            return None
        except NotADirectoryError:
            return None  # a file where a folder should be: _yours names it
    return None


def _confined(toplevel: Path, path: str) -> Path | None:
    parts = Path(path).parts
    if not parts or ".." in parts or ".git" in parts or Path(path).is_absolute():
        return None
    return toplevel / path


def _write(target: Path, side: _Side | None) -> None:
    if side is None:
        target.unlink(missing_ok=True)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink() or (side.kind == "link" and target.exists()):
        target.unlink()
    if side.kind == "link":
        os.symlink(os.fsdecode(side.data), target)
        return
    old_mode = target.stat().st_mode & 0o777 if target.exists() else None
    fd, tmp = tempfile.mkstemp(prefix=".gravity-relay-", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(side.data)
        umask = os.umask(0)
        os.umask(umask)
        mode = old_mode if old_mode is not None else 0o666 & ~umask
        mode = (mode | (0o111 & ~umask)) if side.exec else (mode & ~0o111)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def three_way_apply(toplevel: Path, base: str, tip: str, *, within: str = "", dry_run: bool = False) -> Applied:
    """Apply ``base..tip`` to the work tree at ``toplevel``; ApplyConflicts (nothing written) on any conflict.
    ``within``: the run's workspace folder in the repository ("sub/"; "" for its root)."""
    entries = _entries(toplevel, base, tip)
    wanted = {sha for old_mode, new_mode, old_sha, new_sha, _ in entries
              for mode, sha in ((old_mode, old_sha), (new_mode, new_sha)) if sha != _ZERO and mode != _GITLINK}
    blobs = _blobs(toplevel, wanted)
    actions: list[_Action] = []
    unchanged: list[str] = []
    conflicts: list[tuple[str, str]] = []
    for old_mode, new_mode, old_sha, new_sha, path in entries:
        target = _confined(toplevel, path)
        if target is None:
            conflicts.append((path, "not a path inside the work tree"))
            continue
        if within and not path.startswith(within):
            conflicts.append((path, f"outside the run's workspace ({within}); a run's change there is never applied"))
            continue
        linked = _linked_parent(toplevel, path)
        if linked is not None:
            conflicts.append((path, f"its folder {linked} is a symbolic link in your tree; apply never writes "
                                    "through one"))
            continue
        if _GITLINK in (old_mode, new_mode):
            conflicts.append((path, "a submodule change cannot be applied; update the submodule by hand"))
            continue
        yours = _yours(target)
        if isinstance(yours, str):
            conflicts.append((path, yours))
            continue
        decided = _decide(path, _side(old_mode, old_sha, blobs), _side(new_mode, new_sha, blobs), yours)
        if decided is None:
            unchanged.append(path)
        elif isinstance(decided, str):
            conflicts.append((path, decided))
        else:
            actions.append(decided)
    if conflicts:
        raise ApplyConflicts(conflicts)
    if not dry_run:
        for action in actions:
            _write(toplevel / action.path, action.result)
    return Applied(written=[a.path for a in actions], unchanged=unchanged)
