"""``gravity-relay doctor``: is this machine ready to delegate, and if not, what to do.

Each check answers ok, warning or failure, with the fix in one line. The checks use
the relay's own functions (``locate_agy``, ``feature_list``, the auth probe's
``judge_probe`` on ``agy models``, ``validate_workspace``, setup's config readers),
so doctor sees what a tool call would see. Every child process has a timeout.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from relay import __version__

from relay.agy import command as agy_cli
from relay.core.errors import RelayError
from relay.core.places import on_windows
from relay.runs.retention import human_bytes
from relay.core.settings import Settings
from relay.doors.doctor_check import Check, fail, ok, render_checks, warn
from relay.doors.doctor_clients import check_client_headless, check_clients, check_shadowed
from relay.doors.doctor_host import check_data_dir_privacy, check_git_ownership

__all__ = ["Check", "check_safe_write", "check_confirm_key", "check_worktrees", "run_doctor", "render_checks", "check_http_relay",
           "check_clients", "check_shadowed", "check_client_headless", "VERSION_TIMEOUT"]

VERSION_TIMEOUT = 15.0


# --------------------------------------------------------------------------- checks


def check_python() -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    where = f"Python {version} ({sys.executable}); gravity-relay {__version__} ({Path(__file__).resolve().parent})"
    if sys.version_info < (3, 11):
        return fail("python", where, "The relay needs Python 3.11 or newer: reinstall it with a newer interpreter.")
    return ok("python", where)


async def _probe_agy(agy: str, environ: Mapping[str, str], env: dict[str, str], probe_timeout: float,
                     data_dir: Path | None):
    """(the version answer or the OSError that stopped it, `agy models`' answer or its OSError)."""
    import anyio

    try:
        version = await anyio.to_thread.run_sync(functools.partial(agy_cli.read_version, agy, dict(environ),
                                                                   VERSION_TIMEOUT, data_dir=data_dir))
    except OSError as exc:
        return exc, None
    try:
        from relay.agy.auth import probe_models  # the relay's own probe: stops at agy's first sign-in line

        models = await probe_models(agy, env, probe_timeout, data_dir=data_dir)
    except OSError as exc:
        return version, exc
    return version, models


def check_agy(settings: Settings, environ: Mapping[str, str], probe_timeout: float) -> list[Check]:
    """Where agy is, which version, which relay features it supports, and whether it is signed in."""
    import anyio

    from relay.agy.auth import judge_probe
    from relay.agy.env import build_worker_env

    try:
        agy = agy_cli.locate_agy(settings, dict(environ))
    except RelayError as exc:
        return [fail("agy", exc.message, exc.hint),
                warn("auth", "not checked: agy was not found", "Fix agy first, then run doctor again.")]
    source = "AGY_BIN" if settings.agy_bin else "found on PATH or an install location"
    passthrough = {}
    if settings.default_profile and settings.default_profile in settings.profiles:
        passthrough = settings.profiles[settings.default_profile].env
    env = build_worker_env(environ, run_id="doctor", passthrough=passthrough)
    got_version, got_models = anyio.run(_probe_agy, agy, environ, env, probe_timeout,
                                       # doctor makes no data dir: with none yet, the temp folder
                                       settings.data_dir if settings.data_dir.is_dir() else None)

    checks: list[Check] = []
    if isinstance(got_version, OSError):
        detail = got_version.strerror or str(got_version)
        return [fail("agy", f"{agy} ({source}) cannot be started: {detail}",
                      "Point AGY_BIN at the agy executable (`which agy`), or reinstall the Antigravity CLI."),
                warn("auth", "not checked: agy cannot be started")]
    version = got_version.version
    if got_version.exit_code is None:
        checks.append(warn("agy", f"{agy} ({source}): `agy --version` did not answer within {VERSION_TIMEOUT:g}s",
                            "Run `agy --version` in a terminal; a first run may be updating itself."))
    elif version is None:
        said = got_version.said
        checks.append(warn("agy", f"{agy} ({source}): version unknown (`agy --version` exited {got_version.exit_code}"
                            f"{': ' + said if said else ''})",
                            "The relay will assume every flag exists; update agy (`agy update`) if runs fail."))
    elif (old := agy_cli.too_old(version)) is not None:
        checks.append(fail("agy", f"{old.message} (at {agy})", old.hint))
    else:
        checks.append(ok("agy", f"agy {got_version.shown} at {agy} ({source})"))
    supported = agy_cli.feature_list(version)
    missing = [name for name in agy_cli.FEATURES if name not in supported]
    if version is None:
        checks.append(warn("features", "unknown version: all relay features assumed (" + ", ".join(supported) + ")"))
    elif missing:
        checks.append(warn("features", f"supported: {', '.join(supported) or 'none'}; missing: {', '.join(missing)}",
                            "Run `agy update` for the missing ones."))
    else:
        checks.append(ok("features", f"all relay features supported: {', '.join(supported)}"))

    if isinstance(got_models, OSError):
        checks.append(warn("auth", f"`agy models` could not start: {got_models}"))
        return checks
    verdict = judge_probe(got_models.exit_code, got_models.stdout, got_models.stderr, got_models.timed_out,
                          probe_timeout)
    if verdict is not None:
        checks.append(fail("auth", f"{verdict.status.value}: {verdict.message}", verdict.hint))
    elif got_models.exit_code != 0:
        first = (got_models.stderr or got_models.stdout).strip().splitlines()[:1]
        checks.append(warn("auth", f"`agy models` exited {got_models.exit_code}: {first[0][:160] if first else 'no output'}",
                            "Run `agy models` in a terminal to see what agy says."))
    else:
        count = sum(1 for line in got_models.stdout.splitlines() if "\t" in line)
        checks.append(ok("auth", f"signed in (`agy models` lists {count} model{'s' if count != 1 else ''})"))
    return checks


def _tree_size(folder: Path) -> tuple[int, int]:
    total = files = 0
    for root, _dirs, names in os.walk(folder):
        for name in names:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
                files += 1
            except OSError:
                pass
    return total, files


def check_data_dir(settings: Settings) -> Check:
    from relay.runs.store import RunStore

    folder = settings.data_dir
    if not folder.exists():
        parent = folder
        while not parent.exists() and parent.parent != parent:
            parent = parent.parent
        if os.access(parent, os.W_OK | os.X_OK):
            return ok("data dir", f"{folder} does not exist yet; it will be created on the first run")
        return fail("data dir", f"{folder} does not exist and {parent} is not writable",
                     "Set GRAVITY_RELAY_DATA_DIR to a writable folder in the relay's MCP server env.")
    if not folder.is_dir():
        return fail("data dir", f"{folder} is not a directory", "Set GRAVITY_RELAY_DATA_DIR to a folder.")
    probe = folder / f".doctor-{os.getpid()}.tmp"
    try:
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as exc:
        return fail("data dir", f"{folder} is not writable: {exc.strerror or exc}",
                     "Fix its permissions, or set GRAVITY_RELAY_DATA_DIR to a writable folder.")
    size, _files = _tree_size(folder)
    store = RunStore(settings.runs_dir)
    runs = sum(1 for _ in store.iter_ids())
    message = f"{folder}: writable, {human_bytes(size)} in {runs} run{'s' if runs != 1 else ''}"
    over = []
    if settings.max_size_bytes and size > settings.max_size_bytes:
        over.append(f"size over {human_bytes(settings.max_size_bytes)}")
    if settings.max_runs and runs > settings.max_runs:
        over.append(f"more than {settings.max_runs} runs")
    if over:
        return warn("data dir", f"{message} ({', '.join(over)})", "Run `gravity-relay cleanup` (the server also "
                     "trims at start-up).")
    return ok("data dir", message)


def check_confirm_key(settings: Settings) -> Check:
    """The confirm gate's HMAC key (call/confirm.py), by the gate's own rules; doctor never makes or replaces it."""
    from relay.call.confirm import KEY_FILE, key_problem
    from relay.core.errors import StorageError

    path = settings.data_dir / KEY_FILE
    gated = sorted(name for name, p in settings.profiles.items() if p.confirm_trusted)
    if not settings.data_dir.is_dir():  # the data dir check says what is wrong with it
        return ok("confirm key", f"{path} not created yet (no data dir): it is made, owner-only, at the first trusted "
                   "call of a confirm_trusted profile")
    try:
        exists, problem = key_problem(path)
    except StorageError as exc:
        # The gate raises the same at a call: every trusted call of a confirm_trusted profile would be refused.
        make = fail if gated else warn
        readable = (f"its Properties → Security, or `icacls \"{path}\" /grant \"%USERNAME%:R\"`" if on_windows()
                    else "`chmod u+r`, or `chown` it if another user made it")
        return make("confirm key", f"{exc.message}; a confirm_trusted call cannot be confirmed until it is fixed",
                    f"Make {path} a file readable by this user ({readable}), or remove it ({_remove(path)}): a new "
                    "key is made at the next trusted call.")
    if not exists:
        return ok("confirm key", f"{path} not created yet: it is made, owner-only, at the first trusted call of a "
                   "confirm_trusted profile")
    if problem is None:
        used = f"used by {', '.join(gated)}" if gated else "no confirm_trusted profile uses it now"
        return ok("confirm key", f"{path}: owner-only, {used}")
    readable = problem.startswith("was readable")  # the gate's words for group/other permission bits
    if readable:
        problem = "is" + problem[len("was"):] + " and may have leaked: a leaked key forges confirm tokens"
    return warn("confirm key", f"{path} {problem}; the relay replaces it with a new key at the next trusted "
                 "call (tokens issued before are refused)",
                 f"Remove it ({_remove(path)}): a new owner-only key is made on first use."
                 + (f" `chmod 600 {path}` alone would keep a key others may have copied." if readable else ""))


def _remove(path: Path) -> str:
    """The command that removes a file, in this OS's own shell (cmd's ``del`` on Windows)."""
    return f'`del "{path}"`' if on_windows() else f"`rm {path}`"


def check_worktrees(settings: Settings) -> Check:
    """Isolation (issue 10): what the worktree pool holds that no run owns (a repository gone, a broken
    worktree, the branch of a run whose record was removed by hand, a change never recorded that no record owns)."""
    from relay.isolate.apply_temps import leftovers as apply_temps
    from relay.isolate.leftovers import find_leftovers
    from relay.isolate.pool import pool_root
    from relay.runs.store import RunStore

    root = pool_root(settings.data_dir)
    temps = [f"{temp}: a temp file of an apply or a policy revert that was killed" for temp in apply_temps(settings.data_dir)]
    if not root.is_dir() and not temps:
        return ok("worktrees", "none (no run has used isolation 'worktree')")
    leftovers = temps + (find_leftovers(settings.data_dir, set(RunStore(settings.runs_dir).iter_ids()))
                         if root.is_dir() else [])
    pools = sum(1 for p in root.iterdir() if p.is_dir()) if root.is_dir() else 0
    if not leftovers:
        return ok("worktrees", f"{root}: {pools} repositor{'y' if pools == 1 else 'ies'}, no leftovers")
    shown = "; ".join(leftovers[:5]) + (f"; and {len(leftovers) - 5} more" if len(leftovers) > 5 else "")
    kept = any("never recorded" in item for item in leftovers)
    return warn("worktrees", f"{len(leftovers)} leftover(s): {shown}",
                 "Run `gravity-relay cleanup`: it removes them (never a worktree in use; the next apply removes "
                 "a killed apply's or policy revert's temp files too)"
                 + ("; a worktree holding a change never recorded it leaves to you, as said above." if kept else "."))


def check_http_relay(settings: Settings) -> Check:
    """Is a `serve --http` relay running on this data dir: its address, uptime and runs in flight."""
    import time

    from relay.doors.http_state import read_live_state

    state, why = read_live_state(settings.data_dir)
    if state is None:
        return ok("http relay", f"not running ({why}); leaders use stdio, or start one with "
                   "`gravity-relay serve --http`")
    up = int(time.time() - state.started_at)
    uptime = f"{up // 3600}h{up % 3600 // 60:02d}m" if up >= 3600 else f"{up // 60}m{up % 60:02d}s"
    active = settings.runs_dir / "active"
    running = sum(1 for _ in active.iterdir()) if active.is_dir() else 0
    return ok("http relay", f"serving {state.url} (pid {state.pid}, up {uptime}, {state.sessions} MCP session(s) "
               f"open); {running} run(s) in flight on this data dir")


def check_profiles(settings: Settings) -> list[Check]:
    from relay.call.policy import profile_grants_trusted, validate_workspace

    if settings.profile_error:
        return [fail("profiles", settings.profile_error,
                      "Fix the profile configuration (GRAVITY_RELAY_PROFILES or GRAVITY_RELAY_PROFILE_FILE); until "
                      "then every call is refused. Schema: resource relay://profile-schema.")]
    if not settings.profiles:
        return [ok("profiles", "none configured: each call passes an absolute workspace and chooses its mode, "
                    "trusted included (a default profile forbids trusted runs: README, 'Profiles and who may choose "
                    "trusted'; profiles: GRAVITY_RELAY_PROFILES or GRAVITY_RELAY_PROFILE_FILE)")]
    names = ", ".join(sorted(settings.profiles))
    checks = [ok("profiles", f"{len(settings.profiles)} from {settings.profile_source}: {names}")]
    default = settings.default_profile
    if not default:
        checks.append(ok("default profile", "none: a call names a profile or a workspace "
                          "(GRAVITY_RELAY_DEFAULT_PROFILE sets one)"))
    for name in sorted(settings.profiles, key=lambda n: (n != default, n)):
        profile = settings.profiles[name]
        label = "default profile" if name == default else f"profile {name}"
        if profile.confirm_trusted and not profile_grants_trusted(profile):
            # The gate only stops trusted runs, and this profile never runs one: the confirmation can never be asked.
            checks.append(warn(f"{label} confirm", f"'{name}': confirm_trusted is set, but the profile grants no "
                                "trusted mode, so no run is ever confirmed (its runs are safe-bounded)",
                                f"Set \"execution_mode\": \"trusted\" in profile '{name}' if its runs are meant to "
                                "be trusted, or remove its confirm_trusted."))
        if not profile.workspace:
            if name == default:
                # README's way to forbid trusted runs is such a profile ({"guarded": {}}): said, not warned about.
                bound = ("no call runs trusted" if not profile_grants_trusted(profile)
                         else "its calls may run trusted")
                checks.append(ok(label, f"'{name}' has no workspace: every call passes one; {bound}"))
            continue
        try:
            real = validate_workspace(profile.workspace, settings)
        except RelayError as exc:
            make = fail if name == default else warn
            checks.append(make(label, f"'{name}': {exc.message}", exc.hint))
            continue
        if name == default:
            checks.append(ok(label, f"'{name}': workspace {real} exists"))
    return checks


def check_safe_write(settings: Settings, environ: Mapping[str, str], *, timeout: float | None = None) -> Check:
    """ok when safe mode wrote the probe's file, a warning saying what to change when it did not."""
    from relay.core.contracts import Status
    from relay.doors.write_probe import PROBE_TIMEOUT, run_write_probe

    name = "safe-write"
    got = run_write_probe(settings, environ, timeout=PROBE_TIMEOUT if timeout is None else timeout)
    if got.not_run is not None:
        return warn(name, f"not run: {got.not_run}", got.hint)
    if got.wrote:
        return ok(name, f"safe mode can write: {got.agy} created a file under {got.under} (one turn spent)")
    if got.status is Status.CONFLICTING_OPTIONS:  # agy's settings auto-approve: a safe run is stopped at init
        return warn(name, f"safe mode is refused with {got.agy}: {got.message}; every safe run would be stopped "
                           "the same way", got.hint)
    if got.status is Status.PERMISSION_DENIED:
        return warn(name, f"safe mode cannot write with {got.agy} under {got.under}: {got.message}; every safe run "
                           "would end PERMISSION_DENIED with nothing done", got.hint)
    return warn(name, f"write probe inconclusive: agy ended {got.status.value if got.status else 'without a verdict'} "
                       f"({got.message}) and wrote nothing",
                 got.hint or "Run `gravity-relay doctor` without --write-probe first and fix what it reports.")


def run_doctor(settings: Settings, *, environ: Mapping[str, str] | None = None, home: Path | None = None,
               probe_timeout: float | None = None, write_probe: bool = False, cwd: Path | None = None) -> list[Check]:
    from relay.agy.auth import PROBE_TIMEOUT
    from relay.setup.clients import home_dir

    env = dict(os.environ if environ is None else environ)
    checks = [check_python()]
    for problem in settings.problems:
        checks.append(fail("settings", problem, "Fix that variable in the relay's environment (the MCP client's "
                            "server env); until then `gravity-relay serve` refuses to start."))
    if settings.inside_worker:
        checks.append(warn("worker", f"this shell is inside agy worker run {settings.inside_worker}: a relay started "
                            "here refuses to delegate (RECURSION_REFUSED)"))
    checks += check_agy(settings, env, PROBE_TIMEOUT if probe_timeout is None else probe_timeout)
    if write_probe:  # opt-in: it spends one agy turn (relay/doors/write_probe.py)
        checks.append(check_safe_write(settings, env))
    checks.append(check_data_dir(settings))
    if (privacy := check_data_dir_privacy(settings, env)) is not None:
        checks.append(privacy)
    checks.append(check_confirm_key(settings))
    checks.append(check_worktrees(settings))
    checks.append(check_http_relay(settings))
    checks += check_profiles(settings)
    workspaces = {f"profile {name}": p.workspace for name, p in sorted(settings.profiles.items()) if p.workspace}
    checks += check_git_ownership({**workspaces, "this folder": str(Path.cwd() if cwd is None else cwd)}, env)
    checks += check_clients(home or home_dir(env))
    checks += check_shadowed(home or home_dir(env), Path.cwd() if cwd is None else cwd)
    checks += check_client_headless(home or home_dir(env), env)
    return checks


