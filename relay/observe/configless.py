"""git in a repository's work tree that reads no config of the repository's, for the commands that write your tree.

``runs revert`` (``git apply``), apply's checkout form of an added file (``git cat-file --filters``) and recovery
without a snapshot (``git status``) run in the user's repository while a worker may be running (another run's, in another workspace: nothing stops it from writing
this repository's ``.git/config``). Switching its filters off by the names read right before was a race: a filter
defined between the read and the command ran inside the relay's git. So these commands run as observation's do
(``relay.observe.private_repo``):

* a private git dir in a temp folder: ``HEAD`` (unborn), a config that defines nothing, copies of the repository's
  ``info/attributes`` and ``info/exclude`` and of the excludes and attributes files its config names;
* neither the system's nor the user's config (``own_config_only``); the settings that shape how files are
  read and written (``core.autocrlf``, ``core.eol``, ``core.symlinks``, ... : ``read_settings``, which runs nothing)
  passed with ``-c``, so your line endings are kept;
* the repository's objects borrowed read-only (and those of the caller's environment, a run's kept trees).

Attributes (the worker's to write) can still name a filter or a driver, but no config git reads defines one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from relay.observe.git import GitError, git_env, own_config_only, run_git
from relay.observe.private_repo import Repo, copy_index, make_private_dir, read_settings

__all__ = ["configless"]


@contextlib.contextmanager
def configless(top: Path, env: Mapping[str, str] | None = None, *, head: str | None = None, index: bool = False
               ) -> Iterator[tuple[dict[str, str], list[tuple[str, str]]]]:
    """(environment, ``-c`` pairs) for git in the work tree ``top`` (a repository's top level) reading no config of
    the repository's, for as long as the block runs; ``env``: the caller's git environment (its object directories
    are kept); ``head``: the commit its HEAD names (default: none, unborn); ``index``: a copy of the repository's
    index (its stat data spares hashing clean files; the user's own is never written). Raises GitError when git
    cannot say where the repository keeps its files, EndlessConfig (one) within seconds when its config or an include
    never ends (a FIFO: the rev-parse below would wait on it for its whole timeout, and say only that it timed out)."""
    settings = read_settings(top)  # first: bounded, and it names the includes
    out = run_git(top, "rev-parse", ["--path-format=absolute", "--git-path", "objects", "--git-path", "info/exclude",
                                     "--git-path", "info/attributes", "--git-path", "index", "--absolute-git-dir",
                                     "--show-object-format"], env=env, timeout=20)
    lines = os.fsdecode(out).splitlines()
    if len(lines) < 6:
        raise GitError(f"git rev-parse in {top} said too little: {lines!r}")
    objects, exclude, attributes, index_path, git_dir, object_format = lines[:6]
    repo = Repo(root=str(top), config=settings, head=head, sha256=object_format.strip() == "sha256")
    with tempfile.TemporaryDirectory(prefix="gravity-relay-git-") as tmp:
        # Also freezes the files the config names; a split index's shared part is linked beside its copy.
        private = make_private_dir(tmp, repo, info=(exclude, attributes), git_dir=git_dir if index else None)
        if index:
            copy_index(index_path, os.path.join(private, "index"), missing_ok=True)
        child = own_config_only(git_env() if env is None else env)
        child.update(GIT_DIR=private, GIT_WORK_TREE=str(top), GIT_INDEX_FILE=os.path.join(private, "index"))
        alternates = [a for a in child.get("GIT_ALTERNATE_OBJECT_DIRECTORIES", "").split(os.pathsep) if a]
        if "GIT_OBJECT_DIRECTORY" not in child:
            child["GIT_OBJECT_DIRECTORY"] = os.path.join(private, "objects")
            os.makedirs(child["GIT_OBJECT_DIRECTORY"], exist_ok=True)
        if objects not in alternates and objects != child["GIT_OBJECT_DIRECTORY"]:
            alternates.append(objects)
        child["GIT_ALTERNATE_OBJECT_DIRECTORIES"] = os.pathsep.join(alternates)
        yield child, list(repo.config)
