"""Run git so that the repository cannot run code or bend the answer.

The relay asks git what changed in a workspace the worker (or anyone who
cloned it) controls, so everything a repository can configure is treated as
hostile:

* observation reads no config of the repository's at all: its git runs with a
  private git dir (``relay.observe.private_repo``) and ``own_config_only``; so do
  the commands that write your tree while a worker may run (``runs revert``'s
  ``git apply``, apply's checkout form, recovery without a snapshot:
  ``relay.observe.configless``);
* elsewhere (a pool worktree's checkout and commit, where no worker runs, which read
  the repository's config but neither the system's nor the user's: ``relay.isolate.pool_git``; a
  submodule's own config) code that git would run on our behalf is switched off on the command
  line, which outranks every config file: the pager, ``core.fsmonitor``, hooks,
  signing, submodule recursion, external diff drivers (``--no-ext-diff``),
  textconv (``--no-textconv``) and the clean/smudge/process filters the
  repository defines (read right before the command, where it runs: a linked
  worktree's config and each checked-out submodule's are their own; then each one
  overridden with an empty command: ``filter_overrides``);
* settings that change the shape of the output are pinned (``-z``, no colour,
  no quoting, fixed locale, explicit prefixes and context in the callers);
* the child's environment drops every inherited ``GIT_*`` variable
  (``GIT_EXTERNAL_DIFF``, ``GIT_DIR``, ``GIT_INDEX_FILE`` ... would do either),
  never prompts, never takes optional locks, and never talks to a remote;
* no value handed to git may start with ``-``, and paths go after ``--``
  with literal pathspecs, so a file named ``--output=x`` or ``:(glob)*`` is a
  file name and nothing else.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import re
import shutil
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import platformdirs

from relay.core.contracts import Status
from relay.core.deadlines import call_at_deadline
from relay.core.errors import RelayError
from relay.core.platform import kill_worker_now, spawn_env, spawn_options, spawned_worker

__all__ = ["GitError", "run_git", "git_answer", "z_records", "git_env", "filter_overrides", "config_entries", "SAFE_CONFIG",
           "scoped_config_entries", "own_config_only", "FILTER_KEYS", "GIT_TIMEOUT_SECONDS", "CONFIG_READ_SECONDS",
           "GitTimeout", "EndlessConfig"]

_log = logging.getLogger("relay.git")

# Generous: `git status` on a 100k-file repository with a cold cache takes seconds, not minutes.
GIT_TIMEOUT_SECONDS = 120.0

# A read of the repository's config before a command that runs with it: milliseconds on a healthy repository. Past
# this, a config file or an include is something that never ends (a FIFO a worker made): the step is refused.
CONFIG_READ_SECONDS = 5.0

# Pinned on every call. Command-line `-c` wins over system, global and repository config and
# is inherited by any git that git itself starts (via GIT_CONFIG_PARAMETERS).
SAFE_CONFIG: tuple[tuple[str, str], ...] = (
    ("core.quotepath", "off"),
    # Git for Windows: paths past MAX_PATH (260), which a worktree ~70 characters deeper than its repository reaches.
    ("core.longpaths", "true"),
    ("core.fsmonitor", "false"),
    ("core.pager", "cat"),
    ("core.hooksPath", os.devnull),
    ("color.ui", "false"),
    ("diff.external", ""),
    ("diff.noprefix", "false"),
    ("diff.mnemonicPrefix", "false"),
    ("diff.relative", "false"),
    ("status.relativePaths", "false"),
    ("status.showUntrackedFiles", "all"),
    # A partial clone would otherwise fetch missing blobs from its remote mid-diff.
    ("protocol.allow", "never"),
    # commit-tree signs when the config says so (gpg.program: any program); a checkout recurses into submodules.
    ("commit.gpgSign", "false"),
    ("tag.gpgSign", "false"),
    ("submodule.recurse", "false"),
)

# The relay's own empty home for git (``own_config_only``): one per user, checked on each use, under a lock.
_EMPTY_HOME_LOCK = threading.Lock()
_GLOBAL_FILE = ".gitconfig"  # git's global file under HOME, and GIT_CONFIG_GLOBAL: the same empty file
_FALLBACK_HOME: list[str] = []  # where the user's cache folder cannot be written: one per process, in the temp dir


def _empty_home() -> str:
    """A folder the relay owns holding one empty file, ``.gitconfig``: ``git-home`` in the user's cache folder (one
    per user, never left behind by a relay that was killed). Checked on each use (a worker runs as the same user and
    can find it): anything else in it, or a byte in that file, and it is made again, empty, so git never reads a
    config from it. Where the cache folder cannot be written, a folder in the temp dir, removed at exit."""
    with _EMPTY_HOME_LOCK:
        try:
            home = os.path.join(platformdirs.user_cache_dir("gravity-relay", appauthor=False), "git-home")
        except Exception:  # noqa: BLE001 - no home to put a cache in: the temp dir's folder below
            home = ""
        for place in filter(None, (home, *_FALLBACK_HOME)):
            if _still_empty(place):
                return place
        try:
            return _made_empty(home)
        except OSError as exc:
            if not _FALLBACK_HOME:
                _log.warning("cannot make the relay's empty git home %s (%s); using one in the temp dir", home, exc)
                _FALLBACK_HOME.append(tempfile.mkdtemp(prefix="gravity-relay-git-home-"))
                atexit.register(shutil.rmtree, _FALLBACK_HOME[0], True)
            return _made_empty(_FALLBACK_HOME[0])


def _made_empty(home: str) -> str:
    """``home`` made again: an owner-only folder holding the one empty file (whatever was there goes)."""
    if not home:
        raise OSError("no cache folder")
    if os.path.lexists(home):
        _log.warning("the relay's empty git home %s held something (written by another process?); made again", home)
        if os.path.isdir(home) and not os.path.islink(home):
            shutil.rmtree(home)
        else:
            os.unlink(home)
    os.makedirs(home, mode=0o700, exist_ok=True)
    with open(os.path.join(home, _GLOBAL_FILE), "wb"):
        pass
    if not _still_empty(home):
        raise OSError(f"{home} is not empty after it was made")
    return home


def _still_empty(home: str) -> bool:
    try:
        st = os.lstat(os.path.join(home, _GLOBAL_FILE))
        return (not os.path.islink(home) and os.listdir(home) == [_GLOBAL_FILE] and stat.S_ISREG(st.st_mode)
                and st.st_size == 0)
    except OSError:
        return False


def own_config_only(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` for git that must read neither the system's config nor the user's (nor the system's attributes):
    ``GIT_CONFIG_NOSYSTEM``, and ``GIT_CONFIG_GLOBAL`` (git 2.32+), ``HOME`` and ``XDG_CONFIG_HOME`` (what an older
    git looks in) at an empty file and folder the relay owns (not /dev/null: Windows has none). What of the user's
    settings such git needs is passed with ``-c``; ``~`` in a value is spelled out first (git's home is not theirs)."""
    home = _empty_home()
    return {**env, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.path.join(home, _GLOBAL_FILE),
            "GIT_ATTR_NOSYSTEM": "1", "HOME": home, "XDG_CONFIG_HOME": home}

# Kept from the parent environment: what git needs to find itself, its user config
# (safe.directory, excludesFile) and a temp dir. Everything else, GIT_* above all, is dropped.
_KEEP_ENV = ("PATH", "HOME", "USERPROFILE", "XDG_CONFIG_HOME", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "HOMEDRIVE", "HOMEPATH")

_FILTER_VARS = ("clean", "smudge", "process")


class GitError(Exception):
    """git could not answer (not a repository, refused, timed out, or missing)."""


class GitTimeout(GitError):
    """git did not finish in time (it was stopped, with whatever it started)."""


class EndlessConfig(GitTimeout, RelayError):
    """A read of the repository's (or the user's) config did not end (``config_entries``): the step that needed it is
    not run. A GitError to git's callers; CONFLICTING_OPTIONS to the user, with what to do: the workspace's config
    does not fit a run (an include of a FIFO would hold every git command there until its timeout, minutes)."""

    def __init__(self, message: str) -> None:
        RelayError.__init__(self, Status.CONFLICTING_OPTIONS, message, _ENDLESS_HINT)


_ENDLESS_HINT = ("Remove the include that never ends (a FIFO, a slow network path, or a file that includes itself "
                 "through one) from the config file named; `git config --show-origin --get-regexp '^include'` lists "
                 "the includes. Nothing ran and the workspace was not touched.")


def git_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment every git child gets: an allowlist plus fixed, answer-neutral settings."""
    src = os.environ if environ is None else environ
    env = {key: src[key] for key in _KEEP_ENV if key in src}
    env.update(
        LC_ALL="C",
        LANG="C",
        LANGUAGE="C",
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",
        GIT_PAGER="cat",
        PAGER="cat",
        GIT_LITERAL_PATHSPECS="1",
        GIT_NO_REPLACE_OBJECTS="1",
        GIT_NO_LAZY_FETCH="1",
        GIT_ASKPASS="",
        SSH_ASKPASS="",
    )
    return env


# The keys that define a filter driver (a regular expression, without anchors: a caller's read may take more).
FILTER_KEYS = r"filter\..*\.(clean|smudge|process|required)"
_FILTER_KEY = re.compile(f"^{FILTER_KEYS}$")


def filter_overrides(cwd: Path, *, env: Mapping[str, str] | None = None, submodules: bool = False,
                     config: Sequence[tuple[str, str]] = (),
                     read: Sequence[tuple[str, str, str]] | None = None) -> list[tuple[str, str]]:
    """Config pairs that disable every filter driver the repository (or the user) defines.

    Reading config runs nothing; the names found are then overridden with empty commands
    (git skips an empty filter) and ``required=false`` (so a required filter is not fatal).
    A name git's ``-c`` syntax cannot carry safely makes the whole repository unobservable
    through git rather than half-protected. Read in ``cwd`` itself, as the command that follows
    runs there: a linked worktree's config (``config.worktree``, ``includeIf "gitdir:"``) is not
    its main one's. ``submodules``: for a command that asks a child git in each checked-out
    submodule whether it is dirty (``status``, ``diff``, ``add -A``; the child reads the
    submodule's own config and inherits our ``-c`` pairs), the names those define too. ``env`` and ``config``: the
    command's own (what config files it reads, whether ``safe.directory`` lets it read the repository's). ``read``:
    ``cwd``'s entries the caller read already (``config_entries``, its pattern taking ``FILTER_KEYS`` among others),
    used rather than a second read: one read decides all the caller checks (``relay.isolate.config_hooks``).
    """
    names: list[str] = []
    _filter_names(cwd, env, config, names, depth=_SUBMODULE_DEPTH if submodules else 0, read=read)
    pairs: list[tuple[str, str]] = []
    for name in names:
        pairs.extend((f"filter.{name}.{var}", "") for var in _FILTER_VARS)
        pairs.append((f"filter.{name}.required", "false"))
    return pairs


# Variables that name one repository's files (git's own, or the relay's for the command): not a submodule's.
_REPOSITORY_PLACES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                      "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR")
# How deep submodules of submodules are followed, and how many in all; past either, git is not used there.
_SUBMODULE_DEPTH, _SUBMODULE_MAX = 8, 500


def _filter_names(cwd: Path, env: Mapping[str, str] | None, config: Sequence[tuple[str, str]], names: list[str], *,
                  depth: int, seen: list[int] | None = None, read: Sequence[tuple[str, str, str]] | None = None) -> None:
    """Add the filter names ``cwd``'s config defines to ``names``; with ``depth``, those of each submodule its
    index holds that is checked out (a ``.git`` in its folder: where git would start a child), recursively."""
    for _, key, _ in config_entries(cwd, f"^{FILTER_KEYS}$", env=env, config=config) if read is None else read:
        if not _FILTER_KEY.match(key):
            continue
        name = key[len("filter.") : key.rindex(".")]
        if "=" in name or "\n" in name:
            raise GitError(f"repository defines a filter named {name!r}, which cannot be neutralised safely")
        if name not in names:
            names.append(name)
    if depth <= 0:
        return
    seen = [0] if seen is None else seen
    # From the top level: git asks every submodule of the repository, wherever in it the command runs.
    top = Path(os.fsdecode(run_git(cwd, "rev-parse", ["--show-toplevel"], env=env, config=config).rstrip(b"\n")))
    # A child git in a submodule finds its own repository: none of the caller's repository places (its index copy).
    sub_env = None if env is None else {k: v for k, v in env.items() if k not in _REPOSITORY_PLACES}
    for record in run_git(top, "ls-files", ["-s", "-z"], env=env, config=config).split(b"\0"):
        if not record.startswith(b"160000 "):
            continue
        sub = top / os.fsdecode(record.split(b"\t", 1)[1])
        if not os.path.lexists(sub / ".git"):
            continue  # not checked out: git asks it nothing
        seen[0] += 1
        if depth == 1 or seen[0] > _SUBMODULE_MAX:
            raise GitError(f"{cwd} holds submodules deeper than {_SUBMODULE_DEPTH} levels or more than "
                           f"{_SUBMODULE_MAX} of them; their filters cannot all be switched off")
        _filter_names(sub, sub_env, config, names, depth=depth - 1, seen=seen)


def config_entries(cwd: Path, pattern: str, *, env: Mapping[str, str] | None = None, file: str | None = None,
                   config: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str, str]]:
    """(origin, key, value) of each config entry git in ``cwd`` sees whose key matches ``pattern``: every file git
    reads there (or the absolute ``file`` only), includes followed, as the command that follows will (run with its
    ``env`` and ``-c`` pairs, ``config``: ``safe.directory`` decides whether the repository's own file is read).
    Bounded (``CONFIG_READ_SECONDS``): a read that does not end is refused with an EndlessConfig naming the includes
    (a FIFO would hold git, and the relay, until the command's own timeout). Reading config runs nothing."""
    return [entry[1:] for entry in scoped_config_entries(cwd, pattern, env=env, file=file, config=config)]


def scoped_config_entries(cwd: Path, pattern: str, *, env: Mapping[str, str] | None = None, file: str | None = None,
                          config: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str, str, str]]:
    """``config_entries`` with the scope of each first: (scope, origin, key, value); the scope is git's word
    (``system``, ``global``, ``local``, ``worktree``, ``command``)."""
    which = [f"--file={file}", "--includes"] if file is not None else []
    try:
        out = run_git(cwd, "config", ["-z", "--show-scope", "--show-origin", *which, "--get-regexp"], values=[pattern],
                      env=env, config=config, timeout=CONFIG_READ_SECONDS, ok_codes=(0, 1))
    except GitTimeout as exc:
        raise EndlessConfig(f"{exc}{_endless_why(cwd, env, config)}") from None
    records = out.split(b"\0")
    entries = []
    for scope, origin, entry in zip(records[0::3], records[1::3], records[2::3]):
        key, _, value = os.fsdecode(entry).partition("\n")
        entries.append((os.fsdecode(scope), _origin(cwd, os.fsdecode(origin)), key, value))
    return entries


def _origin(cwd: Path, origin: str) -> str:
    """An origin git printed (``file:.git/config``, relative to ``cwd``), as an absolute file name where it is a file."""
    kind, _, where = origin.partition(":")
    return os.path.normpath(cwd / where) if kind == "file" and where else origin


def _endless_why(cwd: Path, env: Mapping[str, str] | None, config: Sequence[tuple[str, str]]) -> str:
    """Said when a config read timed out: the includes the config files name (read without following them)."""
    try:
        code, out, _ = git_answer(cwd, "config", ["-z", "--show-origin", "--no-includes", "--get-regexp"],
                                  values=[r"^include(if\..*)?\.path$"], env=env, config=config,
                                  timeout=CONFIG_READ_SECONDS)
    except GitError:
        return "; a config file itself never ends (is one a FIFO?)"
    records = out.split(b"\0") if code == 0 else []
    named = [f"{os.fsdecode(entry).replace(chr(10), '=', 1)} (in {_origin(cwd, os.fsdecode(origin))})"
             for origin, entry in zip(records[0::2], records[1::2])]
    return (f"; it follows {', '.join(named)}: one of those (or what it includes) never ends, a FIFO perhaps"
            if named else "; a config file itself never ends (is one a FIFO?)")


def run_git(cwd: Path, subcommand: str, options: Sequence[str] = (), *, values: Sequence[str] = (),
            paths: Sequence[str] | None = None, config: Sequence[tuple[str, str]] = (), ok_codes: Sequence[int] = (0,),
            env: Mapping[str, str] | None = None, input: bytes | None = None, timeout: float | None = None,
            stalled: Callable[[int], None] | None = None, warnings: list[str] | None = None) -> bytes:
    """Run ``git -C cwd <subcommand> <options> <values> [-- <paths>]`` and return stdout (``warnings``: gets the
    lines git said on stderr, where a command that succeeds says what it skipped).

    ``options`` are the caller's own constant flags; ``values`` (revisions, patterns, files for --no-index)
    must not start with ``-`` so they can never be read as an option; ``paths`` always follow ``--``. Raises
    GitError on a missing git, a timeout, or an exit code outside ``ok_codes``. ``input`` feeds stdin
    (``cat-file --batch``); otherwise stdin is closed so git can never wait on it.
    """
    code, stdout, stderr = git_answer(cwd, subcommand, options, values=values, paths=paths, config=config, env=env,
                                      input=input, timeout=timeout, stalled=stalled)
    if warnings is not None:
        warnings += stderr.decode("utf-8", "surrogateescape").splitlines()
    if code not in ok_codes:
        tail = stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {subcommand} exited {code}: {tail[-1] if tail else 'no message'}"[:300])
    return stdout


def git_answer(cwd: Path, subcommand: str, options: Sequence[str] = (), *, values: Sequence[str] = (),
               paths: Sequence[str] | None = None, config: Sequence[tuple[str, str]] = (),
               env: Mapping[str, str] | None = None, input: bytes | None = None,
               timeout: float | None = None, stalled: Callable[[int], None] | None = None) -> tuple[int, bytes, bytes]:
    """``run_git`` for a caller that reads git's refusal itself: (exit code, stdout, stderr), whatever the code.
    Raises GitError on a missing git, GitTimeout on a timeout (``timeout``: GIT_TIMEOUT_SECONDS, read now).
    ``stalled(pid)``: called while git still runs, 0.2 s in, then each second (``relay.observe.fifos``: what it waits on)."""
    timeout = GIT_TIMEOUT_SECONDS if timeout is None else timeout
    for value in values:
        if not value or value.startswith("-"):
            raise ValueError(f"refusing to pass {value!r} to git: a value may not be empty or start with '-'")
    argv = ["git", "--no-pager", "--no-optional-locks", "--literal-pathspecs"]
    for key, value in (*SAFE_CONFIG, *config):
        argv += ["-c", f"{key}={value}"]
    argv += ["-C", os.fspath(cwd), subcommand, *options, *values]
    if paths is not None:
        argv += ["--", *paths]
    _log.debug("spawn %s", argv[:40])
    killed: list[bool] = []
    # Its own group and a spawn token, as every child of the relay's: a timeout stops git with whatever it
    # started (a helper holding its stdout would otherwise keep the read below waiting, and outlive the call).
    child_env, token = spawn_env(git_env() if env is None else env)
    since = time.time()

    def stop(proc: subprocess.Popen) -> None:
        killed.append(True)
        if proc.poll() is None:  # not reaped yet: its pid and group are still git's
            kill_worker_now(spawned_worker(proc.pid, token, since), wait=2.0)

    try:
        with subprocess.Popen(argv, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env, **spawn_options()) as proc, \
                _running(proc, token, since):
            # A deadline, not communicate(timeout=): with one, the wait for git's exit polls in sleeps of 1, 2, 4 ms.
            # The process's one deadline thread (relay.core.deadlines), not a thread per call; a relay that is leaving
            # does not wait for it (a stopped run's look left behind).
            timer = call_at_deadline(timeout, lambda: stop(proc))
            ended = threading.Event()
            if stalled is not None:
                threading.Thread(target=_watch, args=(proc.pid, stalled, ended), daemon=True).start()
            try:
                stdout, stderr = proc.communicate(input)
            finally:
                ended.set()
                timer.cancel()
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH") from None
    except OSError as exc:
        raise GitError(f"git {subcommand} could not start: {exc.strerror or exc}") from None
    if killed:
        raise GitTimeout(f"git {subcommand} in {cwd} took longer than {timeout:.0f}s")
    return proc.returncode, stdout, stderr


# The gits this process started that still run: the relay's exit stops them (``stop_running_gits``).
_RUNNING: dict[int, tuple[subprocess.Popen, str | None, float]] = {}
_RUNNING_LOCK = threading.Lock()


@contextlib.contextmanager
def _running(proc: subprocess.Popen, token: str | None, since: float) -> Iterator[None]:
    with _RUNNING_LOCK:
        _RUNNING[id(proc)] = (proc, token, since)
    try:
        yield
    finally:
        with _RUNNING_LOCK:
            _RUNNING.pop(id(proc), None)


def stop_running_gits() -> None:
    """Stop, with what it started, every git this process started that still runs: an abandoned look's, left in its
    daemon thread (``relay.call.judge.judged_within``), would outlive a relay that leaves (its timeout's timer dies
    with it), and a git held on a FIFO never ends. Each is this process's own child, not reaped yet (its pid is still
    git's): safe to kill. Called by the relay's exits (``os._exit`` runs no atexit) and at the interpreter's end."""
    with _RUNNING_LOCK:
        running = list(_RUNNING.values())
    for proc, token, since in running:
        with contextlib.suppress(Exception):  # leaving anyway: one that cannot be stopped does not hold the rest
            if proc.poll() is None:
                kill_worker_now(spawned_worker(proc.pid, token, since), wait=1.0)


atexit.register(stop_running_gits)


# The watcher's first look comes soon, then once a second: a git held on a FIFO waits for nothing else (each held git
# step waited a whole second before it was let go), and most git calls have ended before the first look.
_FIRST_LOOK, _LOOK_EVERY = 0.2, 1.0


def _watch(pid: int, stalled: Callable[[int], None], ended: threading.Event) -> None:
    wait = _FIRST_LOOK
    while not ended.wait(wait):
        wait = _LOOK_EVERY
        try:
            stalled(pid)
        except Exception:  # noqa: BLE001 - a watcher's failure is no git failure
            _log.debug("watching git %s failed", pid, exc_info=True)


def z_records(out: bytes, followers: Callable[[bytes], int]) -> Iterator[tuple[bytes, list[bytes]]]:
    """The entries of a ``-z`` answer: each non-empty record with the records that belong to it.

    ``followers(record)`` says how many records that follow are its own (a rename's other path, the
    paths of a ``--name-status`` code); fewer come back only where the answer was cut short.
    """
    records = out.split(b"\0")
    i = 0
    while i < len(records):
        record, i = records[i], i + 1
        if record:
            count = followers(record)
            yield record, records[i : i + count]
            i += count
