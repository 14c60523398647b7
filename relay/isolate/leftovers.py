"""What the worktree pool holds that no run owns any more, for doctor and cleanup (``relay.isolate.pool``'s layout).

Leftovers: the pool of a repository that is gone, a slot that is no git worktree any more, the branch of a run whose
record was deleted (only branches this data dir made: ``runs/<run_id>``). Cleanup removes those, never a worktree in
use. A worktree holding a change that was never recorded (``wN.kept``) is the one place that change exists: when its
run's record (or its repository) is gone nothing would ever remove it or say it is there, so doctor names it and
cleanup leaves it, saying what to do.
"""

from __future__ import annotations

import os
from collections.abc import Container
from pathlib import Path

from relay.core.files import is_link, remove_tree
from relay.isolate.config_hooks import refuse_config_hooks
from relay.isolate.pool import _git_of, _remove_slot, _repo_of, _try_lock, pool_root
from relay.isolate.repo import BRANCH_PREFIX
from relay.observe.git import GitError, run_git

__all__ = ["find_leftovers", "kept_leftovers", "remove_leftovers"]


def _orphans(pool: Path, known_runs: Container[str], repo_gone: bool) -> dict[Path, str]:
    """The worktrees of ``pool`` that hold a change never recorded (``wN.kept``) whose run's record is gone, or whose
    repository is: slot -> that run's id. No run will ever remove them (retention does it with the run's record)."""
    found: dict[Path, str] = {}
    for marker in sorted(pool.glob("w*.kept")):
        try:
            run_id = marker.read_text(encoding="utf-8").strip()
        except OSError:
            run_id = "(unreadable)"
        slot = marker.with_suffix("")
        if (repo_gone or run_id not in known_runs) and os.path.lexists(slot):
            found[slot] = run_id
    return found


def _orphan_said(slot: Path, run_id: str) -> str:
    return (f"{slot}: holds run {run_id}'s change, never recorded on a branch (its repository's git config defined a "
            f"hook), and no run record owns it any more; cleanup leaves it. Copy what you need from it (remove the "
            f"repository's [hook] sections first: git would run them there too), then delete the folder {slot} and "
            f"the file {slot.name}.kept beside it")


def kept_leftovers(data_dir: Path, known_runs: Container[str]) -> list[str]:
    """Each worktree holding a change never recorded whose run's record (or repository) is gone, and what to do:
    doctor names them, cleanup leaves them and says so (the change is in no other place)."""
    root = pool_root(data_dir)
    found: list[str] = []
    if is_link(root):
        return found  # not the relay's folder (find_leftovers names it)
    for pool in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        repo = _repo_of(pool)
        found += [_orphan_said(slot, run_id)
                  for slot, run_id in _orphans(pool, known_runs, repo is None or not repo.is_dir()).items()]
    return found


def find_leftovers(data_dir: Path, known_runs: Container[str]) -> list[str]:
    """What the pool holds that no run owns any more: pools of repositories that are gone, broken worktrees,
    branches of runs whose record is gone (only branches this data dir created), and worktrees holding a change
    never recorded whose run's record is gone (``kept_leftovers``: left to the user)."""
    found: list[str] = kept_leftovers(data_dir, known_runs)
    root = pool_root(data_dir)
    if is_link(root):
        return [*found, f"{root}: a symbolic link, not the relay's worktrees folder (cleanup removes the link alone)"]
    if not root.is_dir():
        return found
    for pool in sorted(p for p in root.iterdir() if p.is_dir()):
        repo = _repo_of(pool)
        if repo is None or not repo.is_dir():
            found.append(f"{pool}: worktrees of a repository that is gone ({repo})")
            continue
        kept = _orphans(pool, known_runs, False)
        for slot in sorted(p for p in pool.iterdir() if p.is_dir() and p.name.startswith("w")):
            if not (slot / ".git").is_file() and slot not in kept:
                found.append(f"{slot}: not a git worktree any more")
        ledger = pool / "runs"
        for entry in sorted(ledger.iterdir()) if ledger.is_dir() else []:
            if entry.name not in known_runs:
                found.append(f"{repo}: branch {BRANCH_PREFIX}{entry.name} of a run whose record is gone")
    return found


def _unlinked(link: Path, what: str, removed: list[str], errors: list[str]) -> tuple[list[str], list[str]]:
    """A link planted in the data dir in place of one of the pool's folders: the link alone is removed, and said."""
    try:
        os.rmdir(link) if not os.path.islink(link) else link.unlink()  # a junction: rmdir takes the junction only
        removed.append(f"{link} (a symbolic link, not {what}: the link alone, not what it leads to)")
    except OSError as exc:
        errors.append(f"{link}: {exc}")
    return removed, errors


def remove_leftovers(data_dir: Path, known_runs: Container[str]) -> tuple[list[str], list[str]]:
    """Remove what ``find_leftovers`` reports (never a worktree in use); (removed, errors)."""
    removed: list[str] = []
    errors: list[str] = []
    root = pool_root(data_dir)
    if is_link(root):  # not the relay's folder: every folder it leads to would be taken for a pool of a gone repository
        return _unlinked(root, "the worktrees folder", removed, errors)
    if not root.is_dir():
        return removed, errors
    for pool in sorted(p for p in root.iterdir() if p.is_dir()):
        if pool.is_symlink():  # not the relay's folder: its slots would be folders elsewhere (lease_worktree too)
            try:
                pool.unlink()
                removed.append(f"{pool} (a symbolic link, not a worktree pool: the link alone)")
            except OSError as exc:
                errors.append(f"{pool}: {exc}")
            continue
        repo = _repo_of(pool)
        try:
            gone = repo is None or not repo.is_dir()
            kept = _orphans(pool, known_runs, gone)  # a change in no other place: never removed here
            if gone:
                spared = {*kept, *(slot.with_name(slot.name + ".kept") for slot in kept)}
                for entry in [pool] if not kept else sorted(e for e in pool.iterdir() if e not in spared):
                    if entry.is_dir() and not entry.is_symlink():
                        remove_tree(entry)
                    else:
                        entry.unlink()
                removed.append(f"{pool} (its repository is gone)" if not kept else
                               f"{pool}, but for the {len(kept)} worktree(s) holding a change never recorded "
                               "(its repository is gone)")
                continue
            git = _git_of(pool, "clean up its worktrees and branches", repo)
            for slot in sorted(p for p in pool.iterdir() if p.is_dir() and p.name.startswith("w")):
                if (slot / ".git").is_file() or slot in kept:
                    continue
                lock = _try_lock(slot)
                if lock is None:
                    continue
                try:
                    _remove_slot(slot, repo, git)
                    removed.append(f"{slot} (not a git worktree)")
                finally:
                    lock.release()
            ledger = pool / "runs"
            if is_link(ledger):  # not the relay's ledger: each file where it leads would be deleted as a run's mark
                _unlinked(ledger, "a worktree pool's ledger of runs", removed, errors)
                continue
            for entry in sorted(ledger.iterdir()) if ledger.is_dir() else []:
                if entry.name in known_runs:
                    continue
                refuse_config_hooks(repo, f"delete branch {BRANCH_PREFIX}{entry.name}", git)  # a ref update: a hook event
                run_git(repo, "update-ref", ["-d"], values=[f"refs/heads/{BRANCH_PREFIX}{entry.name}"], timeout=20,
                        env=git.env, config=git.config)
                entry.unlink()
                removed.append(f"branch {BRANCH_PREFIX}{entry.name} in {repo}")
        except (GitError, OSError) as exc:
            errors.append(f"{pool}: {exc}")
    return removed, errors
