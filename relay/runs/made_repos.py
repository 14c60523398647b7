"""``runs revert`` of a run whose worker made a repository of its own in a new folder (a ``git init`` in ``tool/``).

git folds such a folder into one entry (a nested repository), so the run's patch cannot hold what is in it: its header
names the folder with ``MADE_REPO``. Before, `runs revert` refused every patch that does not hold the whole run, and a
worker's ``git init`` stopped the person from putting the workspace back at all. Such a folder is what the run made,
whole: the revert removes it, after checking that it is (all or nothing, as the rest of the revert):

- a real folder inside the workspace (no link on the way out of it);
- new in the run: the run's snapshot holds nothing there (nothing under it in the before tree, no nested repository
  nor ignored folder git folded there before the run);
- untouched since the run was looked at: nothing in it changed after the run's patch was written (walked, bounded:
  past ``_WALK_MAX`` entries it is not removed).

Anything else the header leaves out still refuses the revert, as before.
"""

from __future__ import annotations

import os
import shutil

from relay.core.contracts import RunRecord, Status
from relay.core.errors import RelayError
from relay.observe.git import GitError
from relay.observe.patch import CUT, MADE_REPO, NOT_IN_PATCH, unquote_path
from relay.observe.snapshot import git_private, load_snapshot
from relay.runs.store import RunStore

__all__ = ["made_folders", "check_made", "remove_made"]

_WALK_MAX = 20_000
_SLACK_NS = 1_000_000_000  # the patch is written right after the look: a file stamped within a second is the run's


def made_folders(header: list[bytes]) -> tuple[list[str], list[str]]:
    """(the folders the header names as repositories the run made, the other lines saying what the patch lacks)."""
    made: list[str] = []
    other: list[str] = []
    prefix = NOT_IN_PATCH + MADE_REPO.encode() + b": "
    for line in header:
        if line.startswith(prefix) and b" (+" not in line:
            names = line[len(prefix):].rstrip(b"\n").split(b", ")
            made += [os.fsdecode(unquote_path(n)).rstrip("/") for n in names if n]
        elif line.startswith(NOT_IN_PATCH) or line.startswith(CUT):
            other.append(line.decode("utf-8", "replace").rstrip("\n")[2:])
    return made, other


def _refuse(run_id: str, folder: str, why: str) -> RelayError:
    return RelayError(Status.INVALID_WORKSPACE, f"cannot revert run {run_id}: {folder}/, a repository the run made, "
                      f"cannot be removed: {why}", "Nothing was changed. Remove the folder yourself if it is the run's "
                      "(rm -r), then run the revert again; or restore the rest by hand.")


def check_made(store: RunStore, record: RunRecord, folders: list[str]) -> None:
    """Raise (changing nothing) unless each folder is new in the run and untouched since (see the module's doc)."""
    ws = os.path.realpath(record.plan.workspace)
    snapshot = load_snapshot(store.trees_path(record.run_id))
    repo = snapshot.repo if snapshot is not None else None
    if repo is None or os.path.realpath(snapshot.workspace) != ws or not repo.before:  # type: ignore[union-attr]
        raise _refuse(record.run_id, folders[0], "the run's snapshot cannot say the folder was new")
    try:
        since = os.stat(store.patch_path(record.run_id)).st_mtime_ns + _SLACK_NS
    except OSError as exc:
        raise _refuse(record.run_id, folders[0], f"the run's patch cannot be read ({exc.strerror})") from None
    for folder in folders:
        path = os.path.join(ws, folder)
        if os.path.islink(path) or not os.path.isdir(path) or os.path.realpath(path) != os.path.normpath(path) or \
                ".." in folder.split("/"):
            raise _refuse(record.run_id, folder, "it is not a folder of the workspace (gone, or a link)")
        inside = repo.prefix + folder
        if any(p.rstrip("/") == inside or p.startswith(inside + "/") or inside.startswith(p.rstrip("/") + "/")
               for p in [*repo.nested, *repo.folded]):
            raise _refuse(record.run_id, folder, "it was there before the run")
        try:
            git_private(snapshot.dir, repo, "rev-parse", ["-q", "--verify"], values=[f"{repo.before}:{folder}"])
            raise _refuse(record.run_id, folder, "it held files before the run")
        except GitError:
            pass  # nothing there in the before tree: new in the run
        _untouched_since(record.run_id, folder, path, since)


def _untouched_since(run_id: str, folder: str, top: str, since: int) -> None:
    seen, stack = 0, [top]
    while stack:
        current = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError as exc:
            raise _refuse(run_id, folder, f"{current} cannot be read ({exc.strerror})") from None
        for entry in entries:
            seen += 1
            if seen > _WALK_MAX:
                raise _refuse(run_id, folder, f"it holds more than {_WALK_MAX:,} entries")
            st = entry.stat(follow_symlinks=False)
            if max(st.st_mtime_ns, st.st_ctime_ns) > since:
                raise _refuse(run_id, folder, f"{os.path.relpath(entry.path, os.path.dirname(top))} changed since "
                              "the run")
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)


def remove_made(workspace: str, folders: list[str]) -> list[str]:
    """Remove each folder whole (no link followed); the revert's lines saying so."""
    actions = []
    for folder in folders:
        try:
            shutil.rmtree(os.path.join(workspace, folder))
            actions.append(f"remove {folder}/ (a repository the run made, its .git included)")
        except OSError as exc:
            actions.append(f"could not remove {folder}/ ({exc.strerror or exc}): remove it yourself")
    return actions
