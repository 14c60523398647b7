"""Apply a run's change to the user's work tree with a three-way merge per file, all or nothing.

The change is a list of ``Entry`` (old and new mode and blob of each path), from ``git diff-tree`` of two
trees or commits (``changed_entries``): for a run since issue 23, the before and after trees observation
kept (``relay.isolate.trees``), so what is applied is exactly what was observed and checked; for an older
run, its recorded commits. Both sides' content comes through ``relay.observe.restore.blob_states``, the one
reader of a tree's files.

Why not ``git apply --3way``: it implies ``--index``, so it stages the change and refuses a file whose
working copy differs from the index. A run in place leaves its edits unstaged in the working tree; an
applied worktree run should look the same, with the user's index untouched and unstaged edits merged.

Per changed path, with *yours* the file in the user's tree now:

* yours equals the run's result: nothing to do (applying twice is harmless);
* yours equals the before (the run's base): the run's result is written (or the file deleted);
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
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import NamedTuple

from relay.core.files import replace_file
from relay.isolate.apply_temps import ledgered, temp_names
from relay.isolate.endings import as_yours, autocrlf, checkout_form, in_git_form
from relay.observe.configless import configless
from relay.observe.git import GitError, run_git
from relay.observe.restore import Before, blob_states

__all__ = ["ApplyConflicts", "Applied", "Entry", "changed_entries", "three_way_apply"]

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


class Entry(NamedTuple):
    """One path the change touches (relative to the repository's top level), as ``git diff-tree --raw`` says."""

    old_mode: str
    new_mode: str
    old_sha: str
    new_sha: str
    path: str


class _Action(NamedTuple):
    path: str
    result: Before | None  # None: delete


def changed_entries(toplevel: Path, base: str, tip: str, *, env: Mapping[str, str] | None = None, under: str = "",
                    paths: Sequence[str] | None = None) -> list[Entry]:
    """Every path changed from tree (or commit) ``base`` to ``tip``; ``under``: the folder the trees stand for
    in the repository ("sub/" for trees of a workspace folder), prefixed to each path. ``env``: git's
    environment where the trees' objects are (default: the repository's)."""
    out = run_git(toplevel, "diff-tree", ["-r", "-z", "--no-renames", "--no-commit-id"], values=[base, tip], env=env,
                  paths=None if paths is None else list(paths))
    fields = out.split(b"\0")
    found = []
    for i in range(0, len(fields) - 1, 2):
        meta = fields[i].decode("ascii")
        if not meta.startswith(":"):
            continue
        old_mode, new_mode, old_sha, new_sha, _status = meta[1:].split(" ")
        found.append(Entry(old_mode, new_mode, old_sha, new_sha, under + os.fsdecode(fields[i + 1])))
    return found


def _sides(toplevel: Path, entries: list[Entry], env: Mapping[str, str] | None) -> dict[str, Before]:
    """Each blob both sides of the change name, read once."""
    wanted = {sha: mode for e in entries for mode, sha in ((e.old_mode, e.old_sha), (e.new_mode, e.new_sha))
              if sha != _ZERO and mode not in (_GITLINK, "000000")}
    # A blob id names its bytes; whether it is a link is its mode's, given per side in _side.
    objects = sorted(wanted.items())
    states = blob_states(partial(run_git, toplevel, env=env), [(mode, sha) for sha, mode in objects])
    missing = [sha for (sha, _), state in zip(objects, states) if state is None]
    if missing:
        raise GitError(f"the run's objects are gone ({len(missing)} blob(s), e.g. {missing[0][:12]})")
    return {sha: state for (sha, _), state in zip(objects, states) if state is not None}


def _side(mode: str, sha: str, blobs: dict[str, Before]) -> Before | None:
    if sha == _ZERO or mode == "000000":
        return None
    return Before("link" if mode == _LINK else "file", blobs[sha].data, mode == "100755")


def _yours(target: Path) -> Before | None | str:
    """The user's file now: a side, None if absent, or why it cannot be compared."""
    try:
        info = target.lstat()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return "a parent of it is a file in your tree"
    if stat.S_ISLNK(info.st_mode):
        return Before("link", os.fsencode(os.readlink(target)))
    if stat.S_ISREG(info.st_mode):
        return Before("file", target.read_bytes(), bool(info.st_mode & stat.S_IXUSR))
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


def _decide(path: str, base: Before | None, theirs: Before | None, yours: Before | None) -> _Action | str | None:
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
    mode = theirs.executable if yours.executable == base.executable else yours.executable
    if yours.data == base.data or yours.data == theirs.data:
        data = theirs.data if yours.data == base.data else yours.data
        return None if (data, mode) == (yours.data, yours.executable) else _Action(path, Before("file", data, mode))
    merged = _merge_text(yours.data, base.data, theirs.data)
    if merged is None:
        binary = b"\0" in yours.data or b"\0" in theirs.data
        return "binary file changed on both sides" if binary else "your edits and the run's overlap"
    if merged == yours.data and mode == yours.executable:
        return None  # the run's edit is already in your file (applied before, or made by hand)
    return _Action(path, Before("file", merged, mode))


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


def _write(target: Path, side: Before | None, tmp: Path) -> None:
    """Write one path; a file goes through ``tmp`` (named in the apply's ledger: ``relay.isolate.apply_temps``)."""
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
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(side.data)
        umask = os.umask(0)
        os.umask(umask)
        mode = old_mode if old_mode is not None else 0o666 & ~umask
        mode = (mode | (0o111 & ~umask)) if side.executable else (mode & ~0o111)
        os.chmod(tmp, mode)
        replace_file(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _cannot_link() -> str | None:
    """Why this process cannot create a symbolic link (Windows without Developer Mode: WinError 1314), or None."""
    with tempfile.TemporaryDirectory(prefix="gravity-relay-link-") as tmp:
        try:
            os.symlink("probe", os.path.join(tmp, "link"))
        except OSError as exc:
            return (f"this process cannot create symbolic links: {exc.strerror or exc}; on Windows turn on Developer "
                    "Mode (Settings > System > For developers) or run as an administrator, then apply again")
    return None


def three_way_apply(toplevel: Path, entries: list[Entry], *, env: Mapping[str, str] | None = None, within: str = "",
                    dry_run: bool = False, data_dir: Path | None = None) -> Applied:
    """Apply ``entries`` (``changed_entries``) to the work tree at ``toplevel``; ApplyConflicts (nothing written)
    on any conflict. ``env``: git's environment where their blobs are. ``within``: the run's workspace folder in
    the repository ("sub/"; "" for its root): a path outside it is never written. ``data_dir``: where the
    ledger of the temp files goes, so a killed apply's are removed later (``relay.isolate.apply_temps``)."""
    blobs = _sides(toplevel, entries, env)
    actions: list[_Action] = []
    added: list[tuple[int, str]] = []  # (its action, its blob): files the run adds
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
        base, theirs = _side(old_mode, old_sha, blobs), _side(new_mode, new_sha, blobs)
        yours, crlf = in_git_form(yours, base)  # your CRLF file, compared as git holds it (relay.isolate.endings)
        decided = _decide(path, base, theirs, yours)
        if isinstance(decided, _Action):
            decided = decided._replace(result=as_yours(decided.result, crlf))
            if base is None and yours is None and theirs is not None and theirs.kind == "file":
                added.append((len(actions), new_sha))
        if decided is None:
            unchanged.append(path)
        elif isinstance(decided, str):
            conflicts.append((path, decided))
        else:
            actions.append(decided)
    links = [a for a in actions if a.result is not None and a.result.kind == "link"]
    if links and (why := _cannot_link()) is not None:  # found before a file is written: all or nothing
        conflicts += [(a.path, f"a symbolic link to {os.fsdecode(a.result.data)!r} ({why})") for a in links if a.result]
    if conflicts:
        raise ApplyConflicts(conflicts)
    if added and not dry_run and autocrlf(toplevel):  # a file the run adds: as your git would check it out
        # Reading no config of the repository's (a worker running meanwhile may write it): your settings only.
        with configless(toplevel, env) as (own_env, settings):
            for at, sha in added:
                action = actions[at]
                assert action.result is not None
                form = checkout_form(toplevel, action.path, sha, own_env, settings)
                if form is not None:
                    actions[at] = action._replace(result=action.result._replace(data=form))
    if not dry_run:
        token, temps = temp_names([toplevel / action.path for action in actions])
        with ledgered(data_dir, token, temps):
            for action, tmp in zip(actions, temps):
                _write(toplevel / action.path, action.result, tmp)
    return Applied(written=[a.path for a in actions], unchanged=unchanged)
