"""What the workspace's repository is, read once with the relay's safe git, or why it cannot be isolated.

Isolation needs a real work tree with a commit to branch from: a folder outside git, a bare repository
or an unborn branch (``git init`` without a commit) are refused with CONFLICTING_OPTIONS, since the
workspace itself is fine for a run in place; it is the option that does not fit it.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from msgspec import Struct

from relay.core.contracts import Status
from relay.core.errors import RelayError
from relay.core.places import on_windows
from relay.isolate.config_hooks import refuse_endless_config
from relay.isolate.pool_git import PoolGit
from relay.observe.git import GitError, git_answer

__all__ = ["RepoFacts", "repo_facts", "pool_key", "BRANCH_PREFIX", "run_branch", "not_own_branch"]

BRANCH_PREFIX = "gravity-relay/"


def run_branch(run_id: str) -> str:
    """The one branch the relay makes for a run (``relay.isolate.pool``)."""
    return f"{BRANCH_PREFIX}{run_id}"


def not_own_branch(branch: str, run_id: str) -> str | None:
    """Why a record's branch is not one the relay would have made for ``run_id``; None when it is. A record is
    input (whoever writes the data dir writes it, issue 34): cleanup deletes, and recovery moves, only the
    relay's own branch of that run, never the user's."""
    if branch == run_branch(run_id):
        return None
    return f"its record names branch {branch!r}, not the relay's own {run_branch(run_id)!r}; that branch was left alone"

_HINT = ("Run it in place (a profile with \"isolation\": \"in_place\", the default), or make the workspace a git "
         "repository with at least one commit (`git init && git add -A && git commit -m init`).")


class RepoFacts(Struct, frozen=True, kw_only=True):
    toplevel: Path  # the user's work tree root
    common_dir: Path  # the repository's shared .git (objects, refs): the pool is per repository
    prefix: str  # the workspace inside the work tree ("" at its root, else "sub/dir/")
    head: str  # the commit a run starts from


def _refuse(workspace: str, why: str) -> RelayError:
    return RelayError(Status.CONFLICTING_OPTIONS,
                      f"isolation 'worktree' needs a git work tree with a commit; workspace {workspace} {why}", _HINT)


def repo_facts(workspace: str | Path, git: PoolGit | None = None) -> RepoFacts:
    """The repository of ``workspace``; CONFLICTING_OPTIONS naming the reason when it cannot be isolated. ``git``:
    the pool's (its config read proved to end); else the user's own, checked to end first."""
    ws = Path(workspace)
    if git is None:
        refuse_endless_config(ws, f"isolate workspace {workspace}")  # each git command below would wait on it
    env, config = (git.env, git.config) if git is not None else (None, ())
    # One rev-parse answers all: a work tree (the first two lines, printed before any later part can fail), its paths,
    # and its commit (an unborn HEAD fails only the --verify part: exit 1, the other answers printed).
    try:
        code, out, err = git_answer(ws, "rev-parse", ["--is-bare-repository", "--is-inside-work-tree",
                                                      "--path-format=absolute", "--show-toplevel", "--git-common-dir",
                                                      "--show-prefix", "--verify", "--quiet"],
                                    values=["HEAD^{commit}"], timeout=20, env=env, config=config)
    except GitError as exc:
        raise _refuse(str(workspace), f"cannot be read by git ({exc})") from None
    if code == 128 and b"dubious ownership" in err:
        at = re.search(r"dubious ownership in repository at '([^'\n]+)'", err.decode("utf-8", "replace"))
        top = at.group(1) if at else Path(workspace).as_posix()
        raise RelayError(Status.CONFLICTING_OPTIONS,
                         f"git refuses workspace {workspace} as another user's repository (\"dubious ownership\": a "
                         "FAT/exFAT drive, or a clone another account made), so it cannot be isolated in a worktree",
                         f"If the repository is yours, trust it: git config --global --add safe.directory {top} (the "
                         "relay passes your safe.directory on to its git); or run the work in place.")
    if code not in (0, 1, 128):
        raise _refuse(str(workspace), f"cannot be read by git (git rev-parse exited {code})")
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 2 or not lines[0]:
        raise _refuse(str(workspace), "is not inside a git repository")
    if lines[0] == "true" or lines[1] != "true":
        raise _refuse(str(workspace), "is a bare repository or a git directory, not a work tree")
    if code == 128 or len(lines) < 6:
        tail = err.decode("utf-8", "replace").strip().splitlines()
        raise _refuse(str(workspace), f"cannot be read by git (git rev-parse exited {code}: "
                                      f"{tail[-1] if tail else 'no message'})")
    paths, head = lines[2:5], lines[5].strip() if code == 0 else ""
    if not head:
        raise _refuse(str(workspace), "has no commit yet (an unborn branch): there is nothing to branch from")
    return RepoFacts(toplevel=Path(paths[0]).resolve(), common_dir=Path(paths[1]).resolve(), prefix=paths[2],
                     head=head)


def pool_key(facts: RepoFacts, platform: str | None = None) -> str:
    """A folder name per repository: readable (the work tree's name) and unique (a hash of its .git). Shorter on
    Windows, where every path of the worktree counts against MAX_PATH (260) for tools without long-path support."""
    short = on_windows(platform)
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", facts.toplevel.name)[:12 if short else 40] or "repo"
    digest = hashlib.sha256(os.fsencode(facts.common_dir)).hexdigest()[:10 if short else 12]
    return f"{name}-{digest}"
