"""Worktrees reused per repository from a small pool, each leased under a lock; a run's change on its branch.

Layout, under the relay's data dir (never inside the user's repository, so the user's ``git status``,
editor indexers, file watchers, test discovery and ``git clean`` never see a second copy of the project,
and nothing needs adding to their .gitignore)::

    <data dir>/worktrees/<repo name>-<hash of its .git>/
        repo            the user's work tree root (for doctor and cleanup)
        w0 w1 w2        the worktrees (git worktrees of the user's repository, HEAD detached)
        w0.lock         held while a run uses w0 (a flock: it dies with its process)
        w0.run          the run that used w0 last
        w0.kept         a run whose change w0 holds unrecorded (its config defined hooks): never reused for another
        runs/<run_id>   one per run that got a branch here (so cleanup deletes only the relay's own branches)

A lease takes the first free worktree (the parent's first, for a continue), resets it to the run's base
(``checkout -f --detach``, then ``clean -ffdx`` inside that worktree only, after checking git says it is
its own top level) and creates branch ``gravity-relay/<run_id>`` there. Only a repository's first run
pays a checkout (``git worktree add``); later runs rewrite only the files that differ.

Every git command here reads the repository's config but neither the system's nor the user's (``PoolGit``,
``relay.isolate.pool_git``): the settings of theirs the steps need are passed on the command line.
What the pool holds that no run owns any more is for doctor and cleanup: ``relay.isolate.leftovers``.

The worker's change is recorded without touching the worktree, its index or HEAD: a copy of the index
takes ``add -A`` (untracked non-ignored files included), ``write-tree`` and ``commit-tree`` make the
commit, and only the branch moves. Observation after the run therefore sees exactly what it would see in
place, and a cancelled or crashed run's change can be recorded the same way later.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from filelock import Timeout

from relay.core.errors import Busy
from relay.core.files import is_link, own_folder, private_dir, read_regular, remove_tree, write_atomic, write_own
from relay.core.locks import OwnLock, own_lock
from relay.isolate.repo import BRANCH_PREFIX, RepoFacts, not_own_branch, pool_key, repo_facts, run_branch
from relay.isolate.config_hooks import ConfigHooksRefused, guarded_filters, guarded_pool_git, refuse_config_hooks
from relay.isolate.pool_git import PoolGit
from relay.observe.fifos import FifoRelease
from relay.observe.git import GitError, run_git

__all__ = ["Lease", "lease_worktree", "record_change", "still_own", "worktree_is_own", "changed_outside", "salvage_worktree",
           "discard_run", "change_kept", "pool_root", "POOL_SIZE"]

log = logging.getLogger("relay.isolate.pool")

POOL_SIZE = 3  # runs are queued one at a time per machine; three leave room for a continue and a crash


def pool_root(data_dir: Path) -> Path:
    return Path(data_dir) / "worktrees"


@dataclass
class Lease:
    """One worktree held by one run until ``release``."""

    slot: Path  # the worktree's root
    workdir: Path  # where the worker runs: the workspace's place inside the worktree
    facts: RepoFacts
    branch: str
    base: str  # the commit the change is measured from
    created: bool  # True when this lease paid a `git worktree add`
    git: PoolGit = field(repr=False)  # the environment and -c pairs of its git commands, read before the run
    lock: OwnLock = field(repr=False)

    def release(self) -> None:
        if self.lock.is_locked:
            self.lock.release()


def _lock(slot: Path) -> OwnLock:
    return own_lock(slot.with_name(slot.name + ".lock"))


def _try_lock(slot: Path) -> OwnLock | None:
    """The slot's lock, held, or None when another run holds it (never waits: a busy slot is skipped)."""
    lock = _lock(slot)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return None
    return lock


def _own_top(slot: Path, git: PoolGit, common_dir: Path | None = None) -> bool:
    """Is ``slot`` a linked worktree whose top level is itself (and of this repository)? Checked before any
    checkout or clean: a worker that rewrote the worktree's ``.git`` file to point at the main repository's
    git dir must not get the user's HEAD and index reset by the next lease. A slot that is a symbolic link is
    never its own: the pool's folders are the relay's, and a link planted there (the data dir is input) to a linked
    worktree of the user's passed every check below through it, and had that worktree reset and cleaned."""
    if slot.is_symlink() or not (slot / ".git").is_file():
        return False
    try:
        top, common, gitdir = run_git(slot, "rev-parse", ["--path-format=absolute", "--show-toplevel",
                                                          "--git-common-dir", "--absolute-git-dir"],
                                      timeout=20, env=git.env, config=git.config).decode("utf-8", "surrogateescape").split("\n")[:3]
    except (GitError, ValueError):
        return False
    common_path = Path(common).resolve()
    return (Path(top).resolve() == slot.resolve() and (common_dir is None or common_path == common_dir)
            and Path(gitdir).resolve().parent == common_path / "worktrees")


def _remove_slot(slot: Path, repo: Path | None, git: PoolGit | None) -> None:
    """Delete a worktree folder of the pool (never anything outside it), and let git forget it."""
    if slot.is_symlink() or slot.is_file():
        slot.unlink()
    elif slot.exists():
        remove_tree(slot)
    if repo is not None and repo.is_dir() and git is not None:
        try:
            run_git(repo, "worktree", ["prune"], timeout=60, env=git.env, config=git.config)
        except GitError as exc:
            log.warning("git worktree prune in %s: %s", repo, exc)


def _commit_of(cwd: Path, parent: str, message: str, scratch: Path, git: PoolGit, *, also: str = "") -> str:
    """A commit of everything in ``cwd``'s work tree (untracked non-ignored files too) on top of ``parent``,
    made through a copy of its index: the work tree, the real index and HEAD are left as they are. The filters
    are read right before, in ``cwd`` and each submodule checked out there (``add -A`` asks a child git in each
    whether it is dirty, and that child reads the submodule's own config); so are the hooks the config defines
    (``add`` writes an index, the caller's ``update-ref`` a ref: both fire hook events), which refuse the step.
    ``parent``: a commit, or ``HEAD``; the commit it names is returned when the tree is the same."""
    # One rev-parse: the index's path, the parent's commit and its tree (it was three git processes a recorded run).
    # The path may hold a newline; the two ids after it cannot.
    said = run_git(cwd, "rev-parse", ["--path-format=absolute", "--git-path", "index"],
                   values=[parent, f"{parent}^{{tree}}"], timeout=20, env=git.env,
                   config=git.config).decode("utf-8", "surrogateescape").removesuffix("\n")
    where, parent, parent_tree = said.rsplit("\n", 2)
    index = Path(where)
    fd, tmp = tempfile.mkstemp(prefix="index-", dir=scratch)
    os.close(fd)
    try:
        if index.is_file():
            # Its stat data spares re-hashing every clean file. copy2 keeps the index's mtime: git trusts an
            # entry's stat data only for files older than the index file, so a fresh mtime on the copy would
            # hide a same-size edit made in the index's own second (the "racy git" rule).
            shutil.copy2(index, tmp)
        else:
            os.unlink(tmp)
        into = git._replace(env={**git.env, "GIT_INDEX_FILE": tmp})
        config = [*git.config, *guarded_filters(cwd, "record the change", into, submodules=True, also=also)]
        # A FIFO the worker made in place of a .gitignore would hold `add` for its timeout: opened for it (fifos.py).
        run_git(cwd, "add", ["-A"], paths=["."], env=into.env, config=config, stalled=FifoRelease(str(cwd)))
        tree = run_git(cwd, "write-tree", env=into.env, config=config).decode().strip()
    finally:
        for leftover in (tmp, tmp + ".lock"):
            try:
                os.unlink(leftover)
            except FileNotFoundError:
                pass
    if tree == parent_tree:
        return parent
    return run_git(cwd, "commit-tree", ["-p", parent, "-m", message], values=[tree], env=git.env,
                   config=git.config).decode().strip()


def _set_branch(cwd: Path, branch: str, commit: str, git: PoolGit) -> None:
    run_git(cwd, "update-ref", ["-m", "gravity-relay"], values=[f"refs/heads/{branch}", commit], timeout=20,
            env=git.env, config=git.config)


def lease_worktree(data_dir: Path, workspace: str | Path, run_id: str, *, start: str | None = None,
                   carry: bool = False, prefer: str | None = None, pool_size: int = POOL_SIZE) -> Lease:
    """A worktree of ``workspace``'s repository, reset to ``start`` (default HEAD, or HEAD plus the user's
    uncommitted edits with ``carry``), on new branch gravity-relay/<run_id>; BUSY when every one is in use."""
    step = "prepare a worktree for the run"
    git = guarded_pool_git(Path(workspace), step)  # the user's settings, read once: before the worker runs
    facts = repo_facts(workspace, git)
    # worktree add and the branch's update-ref run at the top level, with its config: nothing if it names a hook.
    refuse_config_hooks(facts.toplevel, step, git, conditional=True)
    # worktrees/, the pool and its ledger are the relay's own folders (owner-only, issue 22), never a link planted in
    # their place: its slots and marks would lie elsewhere (relay.core.files.own_folder).
    pool = own_folder(own_folder(pool_root(private_dir(data_dir))) / pool_key(facts))
    own_folder(pool / "runs")
    if _repo_of(pool) != facts.toplevel:
        _note(pool / "repo", str(facts.toplevel))
    base = start or facts.head
    if carry and start is None:
        base = _commit_of(facts.toplevel, facts.head, "gravity-relay: uncommitted changes carried into the run", pool,
                          git)
    names = [f"w{i}" for i in range(pool_size)]
    preferred = _slot_of(data_dir, prefer) if prefer else None
    if preferred is not None and preferred.parent == pool and preferred.name in names:
        names.remove(preferred.name)
        names.insert(0, preferred.name)
    branch = run_branch(run_id)
    for name in names:
        slot = pool / name
        if slot.with_name(name + ".kept").exists():
            continue  # holds a run's change that could not be recorded
        lock = _try_lock(slot)
        if lock is None:
            continue
        try:
            created = not _own_top(slot, git, facts.common_dir)
            if created:
                _remove_slot(slot, facts.toplevel, git)  # a broken or foreign leftover in our pool
                # Checked out below, as a reused one: a linked worktree has config of its own (includeIf
                # "gitdir:", config.worktree) whose filters only a read made there sees.
                run_git(facts.toplevel, "worktree", ["add", "-q", "-f", "--detach", "--no-checkout"],
                        values=[str(slot), base], timeout=1800, env=git.env, config=git.config)
            config = [*git.config, *guarded_filters(slot, "check out the run's worktree", git)]
            run_git(slot, "checkout", ["-q", "-f", "--detach"], values=[base], env=git.env, config=config, timeout=1800,
                    stalled=FifoRelease(str(slot)))  # a FIFO an earlier worker left as .gitignore: read as empty
            if not created:  # slot checked: its own top level
                run_git(slot, "clean", ["-q", "-ffdx"], env=git.env, config=config, timeout=600,
                        stalled=FifoRelease(str(slot)))
            _set_branch(facts.toplevel, branch, base, git)
            write_own(pool / "runs" / run_id, b"")
            _note(slot.with_name(name + ".run"), run_id)
            return Lease(slot=slot, workdir=slot / facts.prefix if facts.prefix else slot, facts=facts,
                         branch=branch, base=base, created=created, git=git, lock=lock)
        except BaseException:
            lock.release()
            raise
    raise Busy(f"all {pool_size} worktrees of {facts.toplevel} are in use by other runs",
               "Wait for one of them to finish, then call again.", retryable=True)


def record_change(lease: Lease, message: str) -> str:
    """Move the run's branch to a commit of what the worktree holds now (the worker's own commits included);
    returns that commit. The worktree itself is left exactly as the worker left it."""
    git = lease.git
    tip = _kept_if_refused(lease.slot, lease.branch, "HEAD", message, git)  # HEAD read with the index's path
    _set_branch(lease.slot, lease.branch, tip, git)
    return tip


def _kept_if_refused(slot: Path, branch: str, head: str, message: str, git: PoolGit) -> str:
    """``_commit_of`` the slot; when its config refuses that (``relay.isolate.config_hooks``), the slot is marked
    kept (no later lease resets it) before the refusal goes on, saying where the change is."""
    run_id = branch[len(BRANCH_PREFIX):]
    also = (f". The run's change was NOT recorded on branch {branch}: it is kept as the worker left it in worktree "
            f"{slot}, which the relay will not reuse for another run (retention removes it with the run); copy it "
            f"from there, or remove the hook sections and commit it there yourself")
    try:
        return _commit_of(slot, head, message, slot.parent, git, also=also)
    except ConfigHooksRefused:
        _note(slot.with_name(slot.name + ".kept"), run_id)
        raise


def still_own(lease: Lease) -> bool:
    """Is the leased worktree still a worktree of its repository whose top level is itself? Checked before
    anything observes or records it: a worker that repointed the worktree's ``.git`` file at the user's git
    dir would have the relay's git commands read and refresh the user's own index (issue 22)."""
    return _own_top(lease.slot, lease.git, lease.facts.common_dir)


def changed_outside(lease: Lease, tip: str) -> list[str]:
    """The paths (relative to the repository's root) the run's change ``lease.base..tip`` touches outside its
    workspace's folder: the worker wrote them through ``..`` from its sub-folder (issue 22, D1)."""
    prefix = lease.facts.prefix
    if not prefix:
        return []
    out = run_git(lease.slot, "diff-tree", ["-r", "-z", "--name-only", "--no-renames", "--no-commit-id"],
                  values=[lease.base, tip], timeout=120, env=lease.git.env, config=lease.git.config)
    paths = [os.fsdecode(p) for p in out.split(b"\0") if p]
    return [p for p in paths if not p.startswith(prefix)]


def worktree_is_own(data_dir: Path, worktree: str | None) -> bool:
    """Is a run's recorded worktree one of the pool's, still a worktree whose top level is itself? ``still_own``
    for a run whose lease died with its relay: checked before recovery runs git there (issue 22)."""
    slot = _slot_of(data_dir, worktree)
    if slot is None:
        return False
    try:
        return _own_top(slot, _git_of(slot.parent, "look at the run's worktree"))
    except GitError:  # its config cannot be read: not looked at
        return False


def change_kept(data_dir: Path, worktree: str | None, run_id: str) -> bool:
    """Is run ``run_id``'s change kept unrecorded in its worktree (``_kept_if_refused``), not on its branch?"""
    slot = _slot_of(data_dir, worktree)
    try:
        return slot is not None and slot.with_name(slot.name + ".kept").read_text(encoding="utf-8") == run_id
    except OSError:
        return False


_SLOT_NAME = re.compile(r"w[0-9]+")


def _slot_of(data_dir: Path, path: str | Path | None) -> Path | None:
    """The pool worktree that holds ``path`` (a run's recorded worktree), or None if it is not one of ours.

    The record is input (the data dir is, docs/security.md): its word is taken only for a folder the relay could
    have made, ``worktrees/<pool>/w<N>``, reached without a ``..`` and without a link in place of ``worktrees`` or of
    the pool. Before, ``worktrees/../worktrees`` named the whole pool folder, and ``worktrees/<a link>/wip`` a folder of
    yours, and retention removed it whole. A slot that is itself a link is still returned: every use of a slot removes
    such a link alone (``_own_top``, ``_remove_slot``)."""
    if not path:
        return None
    given = Path(path)
    if not given.is_absolute() or ".." in given.parts:
        return None
    root = pool_root(data_dir)
    if is_link(root):
        return None
    try:
        rel = given.relative_to(root)
    except ValueError:
        try:  # the data dir spelled another way (a link to it, /tmp and /private/tmp): compared as real paths
            rel = given.resolve().relative_to(root.resolve())
            root = root.resolve()
        except (ValueError, OSError):
            return None
    if len(rel.parts) < 2 or not _SLOT_NAME.fullmatch(rel.parts[1]) or is_link(root / rel.parts[0]):
        return None
    return root / rel.parts[0] / rel.parts[1]


def _repo_of(pool: Path) -> Path | None:
    try:
        return Path(read_regular(pool / "repo", _NOTE_BYTES).decode("utf-8", "surrogateescape"))
    except OSError:
        return None


_NOTE_BYTES = 64 * 1024  # a path or a run id; more is not the relay's


def _note(path: Path, text: str) -> None:
    """One of the pool's small files (``repo``, ``wN.run``, ``wN.kept``), written as a new file put in its place:
    they lie in the data dir, which is input (docs/security.md), and a symbolic link planted under one of these
    names had the user's file it names overwritten with a path or a run id."""
    write_atomic(path, text.encode("utf-8", "surrogateescape"))


def _git_of(pool: Path, step: str, repo: Path | None = None) -> PoolGit:
    """The pool's git for the repository whose worktrees ``pool`` holds, its user's settings read now (in its work
    tree; where that is gone, in ``pool``: the user's config alone). ConfigHooksRefused (a GitError) when a config
    does not end."""
    repo = repo or _repo_of(pool)
    return guarded_pool_git(repo if repo is not None and repo.is_dir() else pool, step)


def salvage_worktree(data_dir: Path, worktree: str, branch: str, run_id: str) -> tuple[str | None, str]:
    """After a crash: record what the run's worktree holds on its branch, then return the worktree to the
    pool (or remove it when it is broken). Returns (the commit, what was done)."""
    slot = _slot_of(data_dir, worktree)
    if slot is None:
        return None, f"its worktree {worktree} is not in the relay's pool; left alone"
    if (why := not_own_branch(branch, run_id)) is not None:
        return None, f"its worktree's changes were not recorded: {why}"
    lock = _try_lock(slot)
    if lock is None:
        return None, f"its worktree {slot} is in use by another run; its changes there are not recorded"
    try:
        last = slot.with_name(slot.name + ".run")
        if not last.is_file() or last.read_text(encoding="utf-8") != run_id:
            return None, f"its worktree {slot} was reused since; left alone"
        git = _git_of(slot.parent, "record the change")
        if not _own_top(slot, git):
            _remove_slot(slot, _repo_of(slot.parent), git)
            return None, f"its worktree {slot} was broken and was removed"
        tip = _kept_if_refused(slot, branch, "HEAD", f"gravity-relay: run {run_id}, recorded at recovery", git)
        _set_branch(slot, branch, tip, git)
        return tip, f"its worktree's changes were recorded on branch {branch}; the worktree went back to the pool"
    except (GitError, OSError) as exc:
        return None, f"its worktree {slot} could not be recorded ({exc})"
    finally:
        lock.release()


def discard_run(data_dir: Path, run_id: str, worktree: str | None, branch: str | None) -> list[str]:
    """Retention: delete an old run's branch, and its worktree if that still holds the run (and is free).
    Returns what could not be done."""
    errors: list[str] = []
    slot = _slot_of(data_dir, worktree)
    pool = slot.parent if slot is not None else None
    repo = _repo_of(pool) if pool is not None else None
    git: PoolGit | None = None
    if pool is not None and repo is not None and repo.is_dir():
        try:
            git = _git_of(pool, f"delete run {run_id}'s branch and worktree", repo)
        except GitError as exc:
            errors.append(f"branch {run_branch(run_id)} in {repo}: {exc}")
    if slot is not None:
        last = slot.with_name(slot.name + ".run")
        lock = _try_lock(slot)
        if lock is not None:
            try:
                if last.is_file() and last.read_text(encoding="utf-8") == run_id and slot.exists():
                    _remove_slot(slot, repo, git)
                    last.unlink()
                    slot.with_name(slot.name + ".kept").unlink(missing_ok=True)
            except (GitError, OSError) as exc:
                errors.append(f"worktree {slot}: {exc}")
            finally:
                lock.release()
    if branch and (why := not_own_branch(branch, run_id)) is not None:
        errors.append(f"run {run_id}: {why}")
    if branch and repo is not None and repo.is_dir() and git is not None:
        own = run_branch(run_id)  # never the record's word for it
        try:
            refuse_config_hooks(repo, f"delete branch {own}", git)  # a ref update fires a hook event
            run_git(repo, "update-ref", ["-d"], values=[f"refs/heads/{own}"], timeout=20, env=git.env,
                    config=git.config)
        except GitError as exc:
            errors.append(f"branch {own} in {repo}: {exc}")
    if pool is not None and not is_link(pool / "runs") and not any(e.startswith("branch ") for e in errors):
        try:  # (with a branch left, cleanup still finds it; a ledger that is a link is not the relay's: cleanup's)
            (pool / "runs" / run_id).unlink()
        except FileNotFoundError:
            pass
    return errors
