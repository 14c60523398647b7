"""Hooks a git config defines (git 2.54+), which no command-line key reliably switches off: the step is refused.

git 2.54 runs ``hook.<name>.command`` for each event a ``hook.<name>.event`` names, from any config file git
reads: the repository's ``.git/config`` (which a worker in a pool worktree can write: it is the shared one), a
worktree's ``config.worktree``, an ``include.path`` or ``includeIf`` target, the user's own file. The pool's git reads
neither the user's file nor the system's (``relay.isolate.pool_git``): a hook there, the user's own, is not run and
refuses nothing.
``core.hooksPath=/dev/null`` covers only the hooks directory, and how ``hook.*.enabled`` switches a hook off
changes between versions. So where the relay must run git with the repository's config on a command that fires
hook events (the pool worktree's ``worktree add``, ``checkout``, ``add`` / ``write-tree`` into an index,
``update-ref``), the ``hook.*`` keys are read right before, as that command will read them (its environment and
``-c`` pairs: ``PoolGit``; reading config runs nothing), and if git is new enough to run them the command is not run
at all. On an older git the keys are inert and nothing changes.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path

from relay.core.contracts import Status
from relay.core.errors import RelayError
from relay.isolate.pool_git import PoolGit, pool_git
from relay.observe.git import FILTER_KEYS, EndlessConfig, GitError, config_entries, filter_overrides, run_git

__all__ = ["ConfigHooksRefused", "refuse_config_hooks", "git_version", "parse_git_version", "runs_config_hooks",
           "FIRST_WITH_CONFIG_HOOKS", "guarded_filters", "refuse_endless_config", "guarded_pool_git"]

log = logging.getLogger("relay.isolate")

FIRST_WITH_CONFIG_HOOKS = (2, 54)

_VERSION = re.compile(r"^(?:git version )?(\d+)\.(\d+)(?:\.(\d+))?")


class ConfigHooksRefused(GitError, RelayError):
    """A step not run: the config git reads there names a program (``hook.*``), or could not be read in time.
    A GitError to the pool's callers (what they do when git fails), CONFLICTING_OPTIONS to the user: the
    workspace's config does not fit the worktree isolation the run asked for."""

    def __init__(self, message: str, hint: str) -> None:
        RelayError.__init__(self, Status.CONFLICTING_OPTIONS, message, hint)


def parse_git_version(text: str) -> tuple[int, int, int] | None:
    """(major, minor, patch) of ``git version``'s answer ("git version 2.54.0", "2.54.0.windows.1",
    "2.39.5 (Apple Git-154)"); None when it says something else."""
    found = _VERSION.match(text.strip())
    if found is None:
        return None
    major, minor, patch = found.groups()
    return int(major), int(minor), int(patch or 0)


@functools.cache
def git_version() -> tuple[int, int, int] | None:
    """The version of the git on PATH, asked once per process; None when its answer cannot be read."""
    try:
        return parse_git_version(os.fsdecode(run_git(Path(os.path.abspath(os.sep)), "version", timeout=20)))
    except GitError:
        return None


def runs_config_hooks() -> bool:
    """Does the git in use run hooks its config defines? An unreadable version is taken to (the safe side)."""
    version = git_version()
    return version is None or version[:2] >= FIRST_WITH_CONFIG_HOOKS


@functools.cache
def _inert_once(origin: str) -> None:
    log.info("the git config %s defines hooks (hook.*), which this git (older than 2.54) does not run", origin)


def _conditional_hooks(cwd: Path, git: PoolGit) -> list[tuple[str, str, str]]:
    """The ``hook.*`` keys of each file an ``includeIf`` names, whether or not its condition holds in ``cwd``:
    ``git worktree add`` runs git as the new worktree (its HEAD's ref update), where ``includeIf "gitdir:"`` may
    hold as it does not at the top level, and no read can be made there before it exists."""
    found: list[tuple[str, str, str]] = []
    for origin, key, value in config_entries(cwd, r"^includeif\..*\.path$", env=git.env, config=git.config):
        target = os.path.expanduser(value)
        if not value or not os.path.isabs(target) and not os.path.isabs(origin):
            continue  # a relative path from the command line: git includes nothing
        target = os.path.join(os.path.dirname(origin), target)  # relative to the including file; absolute stays
        found += [(f"{where}, which {key} in {origin} includes", k, v)
                  for where, k, v in config_entries(cwd, r"^hook\.", env=git.env, config=git.config, file=target)]
    return found


_HOOKS_AND_FILTERS = rf"^(hook\..*|{FILTER_KEYS})$"  # guarded_filters' one read

_HINT = ("Remove the [hook \"...\"] section(s) named from that config file (`git config --show-origin "
         "--get-regexp '^hook\\.'` lists them), or run this work in place (a profile with \"isolation\": "
         "\"in_place\") rather than in the relay's worktree pool.")


@contextlib.contextmanager
def _endless_refuses(step: str, also: str = "") -> Iterator[None]:
    """A config read that did not end (EndlessConfig) refuses ``step`` as a config hook does, saying ``also``."""
    try:
        yield
    except EndlessConfig as exc:
        raise ConfigHooksRefused(f"the relay did not {step}: {exc}{also}", exc.hint) from None


def refuse_config_hooks(cwd: Path, step: str, git: PoolGit, *, also: str = "", conditional: bool = False) -> None:
    """Raise ConfigHooksRefused, naming each ``hook.*`` key and the file it comes from, when git in ``cwd`` (run with
    ``git``: the pool's environment and ``-c`` pairs) would read one and runs such hooks; also (whatever the git)
    when that config cannot be read within seconds (a FIFO included: git would wait on it in the command that
    follows). Another failure of the read is a plain GitError. ``step``: what is not done (``"check out the run's
    worktree"``); ``also``: what the user should know besides (where a change is kept); ``conditional``: also the
    files an ``includeIf`` names, whatever its condition."""
    with _endless_refuses(step, also):  # read on every git: it also proves the config can be read at all before a
        keys = config_entries(cwd, r"^hook\.", env=git.env, config=git.config)  # command that would wait on it
        if conditional:
            keys += _conditional_hooks(cwd, git)
    _refuse_named(cwd, step, keys, also)


def _refuse_named(cwd: Path, step: str, keys: list[tuple[str, str, str]], also: str) -> None:
    """ConfigHooksRefused naming ``keys`` (origin, key, value: the ``hook.*`` entries read) where git runs them."""
    if not keys:
        return
    if not runs_config_hooks():
        _inert_once(keys[0][0])
        return
    named = ", ".join(f"{key} = {value!r} (from {origin})" for origin, key, value in keys[:8])
    more = f" and {len(keys) - 8} more" if len(keys) > 8 else ""
    version = ".".join(map(str, git_version() or ())) or "of unknown version"
    raise ConfigHooksRefused(
        f"the relay did not {step} in {cwd}: the git config there defines {named}{more}, and git {version} runs "
        f"hooks its config defines (2.54 and later); the relay's own git commands run no program a config file "
        f"names (a worker can write the repository's){also}",
        _HINT)


def guarded_filters(cwd: Path, step: str, git: PoolGit, *, submodules: bool = False,
                    also: str = "") -> list[tuple[str, str]]:
    """``filter_overrides`` for a command in ``cwd`` that runs with the repository's config (and ``git``) and fires
    hook events, its ``hook.*`` keys refused as ``refuse_config_hooks`` does; a config read that does not end is
    refused the same way. One read of ``cwd``'s config decides both: it was read twice (hooks, then filters), and a
    write between the two (a worker's process still running, another process) was judged as two configs, neither
    of them the one the command then read. Submodules' own configs are read after it, for their filters."""
    with _endless_refuses(step, also):
        entries = config_entries(cwd, _HOOKS_AND_FILTERS, env=git.env, config=git.config)
    _refuse_named(cwd, step, [e for e in entries if e[1].startswith("hook.")], also)
    with _endless_refuses(step, also):
        return filter_overrides(cwd, env=git.env, config=git.config, submodules=submodules,
                                read=[e for e in entries if not e[1].startswith("hook.")])


def guarded_pool_git(cwd: Path, step: str, *, also: str = "") -> PoolGit:
    """``pool_git`` for a route of the pool; the user's or the repository's config not read within seconds (a FIFO
    included) refuses ``step`` as ``refuse_config_hooks`` does."""
    with _endless_refuses(step, also):
        return pool_git(cwd)


def refuse_endless_config(cwd: Path, step: str) -> None:
    """ConfigHooksRefused when git in ``cwd`` cannot read its config within seconds (an include of a FIFO): checked
    before the first git command of a route, which would wait on it up to its own timeout (minutes). Any other
    failure is left to that command to report."""
    try:
        config_entries(cwd, r"^include(if\..*)?\.path$")
    except EndlessConfig as exc:  # a GitError too: refused here, before the plain failures below are left alone
        raise ConfigHooksRefused(f"the relay did not {step}: {exc}", exc.hint) from None
    except GitError:
        pass
