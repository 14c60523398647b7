"""A worktree run's change as two trees: what apply writes (issue 23).

Observation already wrote the worktree's **before** tree (``relay.observe.snapshot``) and brought a private
after index up to the worktree; ``keep_after_tree`` writes that index's tree of the workspace's folder into
the same private object store, after the policy put back what it reverts, and saves its id beside the
before tree (``after.json``). The observed, checked change is then exactly ``git diff-tree`` of the two:
nothing outside the workspace's folder (the trees hold only it), none of the reverted files (back to their
before), nothing a verification command wrote later, the new ignored secrets observation listed included.

``after.json`` also names what the trees cannot hold (``left_out``: files kept out by size, submodule moves),
so apply can take those from the run's commit (recorded at the same moment) or refuse them, never drop one
silently. ``run_trees`` reads a run's two trees back, for a continued chain the first run's before and the
last run's after, with a git environment that reaches both private stores and the repository's objects.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import NamedTuple

import msgspec

from relay.core.files import write_atomic
from relay.observe.changes import ChangeSet
from relay.observe.git import GitError, git_env, run_git
from relay.observe.patch import NOT_IN_PATCH, quote_path
from relay.observe.snapshot import EMPTY_TREE, Snapshot, git_private, load_snapshot

__all__ = ["AFTER_FILE", "AfterTree", "RunTrees", "keep_after_tree", "keep_or_drop_after_tree", "run_trees", "chain_patch"]

log = logging.getLogger("relay.isolate.trees")

AFTER_FILE = "after.json"


class AfterTree(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The after tree of a run's workspace folder, the before tree it is diffed against (kept here too: the
    snapshot may write its before tree only at the first look after), and the paths it does not hold."""

    tree: str
    before: str = ""
    left_out: dict[str, str] = {}


class RunTrees(NamedTuple):
    before: str  # the workspace folder's tree before the run (the chain's first run, for a continue)
    after: str  # ... and after it (as policy left it)
    env: dict[str, str]  # git's environment reaching both trees' objects and the repository's
    left_out: dict[str, str]  # paths of the change the trees do not hold: path -> why


def keep_after_tree(snapshot: Snapshot, left_out: dict[str, str]) -> str | None:
    """Write the after tree of ``snapshot``'s workspace folder from its after index (observation brought it up
    to date a moment ago) and save it in the snapshot's folder; its id, or None when there is none to write
    (not a git workspace, no look after). Raises GitError or OSError."""
    repo = snapshot.repo
    if snapshot.source != "git" or repo is None or repo.after != "index" or not repo.before or not snapshot.dir:
        return None
    try:
        options = [f"--prefix={repo.prefix}"] if repo.prefix else []
        tree = git_private(snapshot.dir, repo, "write-tree", options, index="after").decode().strip()
    except GitError:
        if not repo.prefix:
            raise
        tree = EMPTY_TREE[64 if len(repo.before) == 64 else 40]  # nothing is left under the workspace's folder
    write_atomic(Path(snapshot.dir) / AFTER_FILE, msgspec.json.encode(AfterTree(tree=tree, before=repo.before,
                                                                               left_out=dict(left_out))))
    return tree


def _after(trees_dir: Path) -> AfterTree | None:
    try:
        return msgspec.json.decode((trees_dir / AFTER_FILE).read_bytes(), type=AfterTree)
    except (OSError, msgspec.DecodeError):
        return None


def run_trees(first: Path, last: Path, repo_objects: Path) -> RunTrees | None:
    """The change from the before tree kept in ``first`` (a run's trees folder) to the after tree kept in
    ``last`` (the same folder for a single run), or None when either is not there (a run from before trees
    were kept for apply, a workspace outside git, retention removed one)."""
    after = _after(last)
    start = after if first == last else _after(first)
    before = start.before if start is not None else ""
    if not before:  # no before tree beside the after tree: the one the snapshot saved
        snapshot = load_snapshot(first)
        before = snapshot.repo.before if snapshot is not None and snapshot.source == "git" and snapshot.repo else ""
    if not before or after is None:
        return None
    env = git_env()
    env["GIT_OBJECT_DIRECTORY"] = str(last / "objects")
    env["GIT_ALTERNATE_OBJECT_DIRECTORIES"] = os.pathsep.join(
        dict.fromkeys([str(repo_objects), str(first / "objects")]))
    return RunTrees(before=before, after=after.tree, env=env, left_out=after.left_out)


def keep_or_drop_after_tree(snapshot: Snapshot, changeset: ChangeSet, run_id: str) -> None:
    """``keep_after_tree`` for a run just observed; when it fails, no after tree is left at all (an earlier one,
    from before a policy revert, would make apply write the reverted files): apply then uses the run's commit."""
    try:
        if keep_after_tree(snapshot, changeset.not_in_patch) is not None:
            return
        log.warning("run %s: no after tree to keep (no look after in git); apply will use its commit", run_id)
    except (GitError, OSError) as exc:
        log.warning("run %s: its after tree was not kept (%s); apply will use its commit", run_id, exc)
    try:
        (Path(snapshot.dir) / AFTER_FILE).unlink(missing_ok=True)
    except OSError:
        pass


_PATCH_OPTS = ["-r", "-p", "--binary", "--full-index", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-commit-id"]


def chain_patch(toplevel: Path, trees: RunTrees | None, base: str, tip: str, prefix: str, *, runs: str,
                workspace: str) -> bytes:
    """What an apply of a chain of continues wrote, as a patch ``runs revert`` reverses (issue 34): the diff apply
    used (the chain's kept trees, the files kept out of them by size from the commits, as apply takes them; for
    runs from before trees were kept, their commits under the workspace's folder). Paths are relative to the
    workspace, as in every run's patch; what it cannot hold is named in its header, so a revert refuses it rather
    than undo part of the apply. Raises GitError."""
    relative = [f"--relative={prefix}"] if prefix else []
    left_out: dict[str, str] = {}
    if trees is not None:
        body = run_git(toplevel, "diff-tree", _PATCH_OPTS, values=[trees.before, trees.after], env=trees.env)
        big = sorted(prefix + p for p, why in trees.left_out.items() if why.startswith("larger than"))
        if big:
            body += run_git(toplevel, "diff-tree", _PATCH_OPTS + relative, values=[base, tip], env=trees.env, paths=big)
        left_out = {p: why for p, why in trees.left_out.items() if not why.startswith("larger than")}
    else:
        body = run_git(toplevel, "diff-tree", _PATCH_OPTS + relative, values=[base, tip])
    header = [b"# gravity-relay: what `runs apply` wrote for runs " + runs.encode() + b" in "
              + quote_path(os.fsencode(workspace)) + b" (the chain's change; earlier edits are not in it)\n"]
    for why in sorted(set(left_out.values())):
        names = b", ".join(quote_path(os.fsencode(p)) for p, w in sorted(left_out.items()) if w == why)
        header.append(NOT_IN_PATCH + why.encode() + b": " + names + b"\n")
    return b"".join(header) + body
