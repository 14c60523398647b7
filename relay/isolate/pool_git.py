"""The worktree pool's git: the repository's config, and none of the system's or the user's.

The pool's steps (``worktree add``, ``checkout``, ``clean``, recording into an index copy, ``update-ref``) run git
with the repository's own config: a worktree is a checkout of that repository. They used to read the system's and
the user's config (``~/.gitconfig``) as well, which a worker can write too (it runs as the user, with the user's
HOME): git 2.54 runs a ``[hook]`` a config defines from any of them, so a hook in the user's own file (the feature's
main use) refused every worktree run. Now they run as observation's git does (``own_config_only``): neither file
is read. What of them the steps need is read once, before (``pool_git``: reading runs nothing, bounded), and passed
with ``-c``:

* how files are checked out and read (``_SHAPING``: line endings, symlinks, case, file modes), where the
  repository's own config does not set the key (``-c`` would outrank it; the pool's git reads it itself);
* the user's ignore and attributes files (``core.excludesfile``, ``core.attributesfile``, else git's default ones
  in the user's config folder), with ``~`` spelled out: git's home is the relay's empty one;
* ``safe.directory`` of the system's and the user's config only: git honours it there and on the command line
  (checked on git 2.39), never from a repository's;
* pinned, not read: ``core.safecrlf`` off (as observation's: recording never refuses a file for its line endings),
  ``core.longpaths`` on (``SAFE_CONFIG``), and the relay's own identity for the commits and reflogs it writes.

Whoever then writes ``~/.gitconfig`` (a hook, a filter, ``core.fsmonitor``, an include that never ends) changes
nothing the pool's git runs; the repository's own config is still read, and its ``hook.*`` keys still refuse
(``relay.isolate.config_hooks``), read with this same environment and these pairs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from relay.observe.git import git_env, own_config_only, scoped_config_entries

__all__ = ["PoolGit", "pool_git", "IDENTITY"]

# The relay's own name on the commits (and reflog entries) the pool writes: never the user's, never asked for.
IDENTITY = {"GIT_AUTHOR_NAME": "Gravity Relay", "GIT_AUTHOR_EMAIL": "gravity-relay@localhost",
            "GIT_COMMITTER_NAME": "Gravity Relay", "GIT_COMMITTER_EMAIL": "gravity-relay@localhost"}

# What shapes the checkout and the record (none names a program); passed when the repository's config does not set it.
_SHAPING = ("core.autocrlf", "core.eol", "core.symlinks", "core.ignorecase", "core.precomposeunicode",
            "core.filemode", "core.trustctime", "core.checkstat")
_FILES = (("core.excludesfile", "ignore"), ("core.attributesfile", "attributes"))
_READ = (r"^(core\.(autocrlf|eol|symlinks|ignorecase|precomposeunicode|filemode|trustctime|checkstat|excludesfile|"
         r"attributesfile)|safe\.directory)$")
_USERS = ("system", "global")  # the scopes the pool's git no longer reads
_PINNED = (("core.safecrlf", "false"),)


class PoolGit(NamedTuple):
    """The environment and ``-c`` pairs of every git command of the pool for one repository."""

    env: dict[str, str]
    config: list[tuple[str, str]]


def pool_git(cwd: Path) -> PoolGit:
    """The pool's git for the repository at ``cwd`` (a workspace in it, its top level, or one of its worktrees),
    the user's settings read now (``git config``, bounded; the user's own environment). Raises EndlessConfig when a
    config file (or what it includes) does not end within seconds, GitError when git cannot read it."""
    user_env = git_env()
    entries = scoped_config_entries(cwd, _READ, env=user_env)
    repository_sets = {key for scope, _, key, _ in entries if scope not in _USERS}
    config: list[tuple[str, str]] = []
    for scope, _, key, value in entries:
        if scope not in _USERS:
            continue
        if key == "safe.directory":
            config.append((key, _spelled_out(value, user_env)))
        elif key in _SHAPING and key not in repository_sets:
            config.append((key, value))
    for key, default in _FILES:
        named = [value for _, _, k, value in entries if k == key]
        path = _spelled_out(named[-1], user_env) if named else _default_file(default, user_env)
        if path:
            config.append((key, path))
    return PoolGit(env={**own_config_only(user_env), **IDENTITY}, config=[*config, *_PINNED])


def _spelled_out(value: str, env: dict[str, str]) -> str:
    """``value`` with a leading ``~`` as the user's home (git would take the relay's empty one)."""
    home = env.get("HOME") or env.get("USERPROFILE")
    if home and (value == "~" or value.startswith(("~/", "~" + os.sep))):
        return home + value[1:]
    return value


def _default_file(name: str, env: dict[str, str]) -> str | None:
    """git's default user ignore or attributes file (``$XDG_CONFIG_HOME/git/<name>``, else ``~/.config/git/<name>``)
    when there is one."""
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or env.get("USERPROFILE") or "", ".config")
    path = os.path.join(xdg, "git", name)
    return path if os.path.isabs(path) and os.path.isfile(path) else None

