"""The walk of a workspace outside git, before and after the run: what it lists, and what it skips said.

The walk skips folders named like dependency or build output and virtualenvs (relay.observe.walk): tens of thousands
of files nobody reviews. A worker can use that: a ``pyvenv.cfg`` it writes into a folder makes the look after the run
skip that folder, and a new folder it names ``build`` (anywhere) is never walked. So after the run every folder the
walk listed files in before is walked again whatever it holds now, and a folder skipped now that was not skipped
before is a change of its own (``RepoLook.new_skipped``: listed as one entry, "not walked", and policy-checked by its
path). The folders the walks could not open are kept for relay.observe.unreadable.
"""

from __future__ import annotations

import os

from relay.observe.private_repo import Repo, git_private, look_of
from relay.observe.walk import walk_tree

__all__ = ["walked_files"]


def _folders(paths: list[str]) -> set[str]:
    """Every folder above ``paths`` (``a/b`` for ``a/b/c.txt``, and ``a``)."""
    found: set[str] = set()
    for path in paths:
        parts = path.split("/")[:-1]
        found.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return found


def walked_files(snapshot_dir: str, repo: Repo, *, after: bool, limit: int) -> list[str]:
    """The files of the workspace outside git, by relative path (after the run: with every file the before index
    holds, so one gone is seen gone); what the walk skipped and could not open kept on the repository (before) or its
    look (after)."""
    known: list[str] = []
    if after:
        known = list(repo.big) if repo.no_git else [os.fsdecode(p) for p in git_private(
            snapshot_dir, repo, "ls-files", ["-z"], index="after").split(b"\0") if p]
    unread: list[str] = []
    skipped: list[str] = []
    walked = walk_tree(repo.root, limit=limit, unread=unread, keep=_folders(known), skipped=skipped)
    if after:
        look = look_of(repo)
        look.unreadable, look.new_skipped = unread, [f for f in skipped if f not in repo.skipped]
        return list(dict.fromkeys([*walked, *known])) if not repo.no_git else walked
    repo.unreadable, repo.skipped = unread, skipped
    return walked
