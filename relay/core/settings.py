"""Read the environment once into a Settings value.

Everything configurable lives here, so the rest of the relay never calls
``os.environ`` and a test can build Settings directly.
"""

from __future__ import annotations

import math
import os
import re
import shutil
from pathlib import Path

import msgspec
from msgspec import Struct

from relay.core import places
from relay.core.contracts import Profile, explain
from relay.core.places import is_absolute, on_windows, root_problem, split_roots
from relay.core.path_globs import pattern_problem

__all__ = ["Settings", "load_settings", "parse_profiles", "parse_size", "parse_bounded", "SIZE_FORMS", "agy_candidates",
           "WORKER_MARKER_ENV", "SPAWN_TOKEN_ENV", "RELAY_OWN_ENV"]

# Set in the worker's environment; a relay that sees it was started by agy itself.
WORKER_MARKER_ENV = "GRAVITY_RELAY_WORKER_RUN"
# Set in every process the relay spawns (relay.core.platform): finds a descendant that outlived its parent.
SPAWN_TOKEN_ENV = "GRAVITY_RELAY_SPAWN"
# The relay's marks on its own processes: never settings (setup never writes them into a client's entry).
RELAY_OWN_ENV = (WORKER_MARKER_ENV, SPAWN_TOKEN_ENV)


class Settings(Struct, kw_only=True, frozen=True):
    data_dir: Path
    agy_bin: str | None = None
    profiles: dict[str, Profile] = {}
    profile_source: str | None = None
    profile_error: str | None = None
    default_profile: str | None = None
    fixed_constraints: list[str] = []
    allowed_roots: list[str] = []
    inside_worker: str | None = None
    # Environment values outside their accepted range: `serve` refuses to start with any
    # (a typo must not quietly become another limit), doctor reports each as a failure.
    problems: list[str] = []
    max_runs: int = 500
    max_age_days: float = 30.0
    max_size_bytes: int = 500 * 1024 * 1024
    progress_interval: float = 3.0
    auth_cache_seconds: float = 60.0
    # A stopped worker's group gets SIGTERM, then SIGKILL this long after if any of it is still alive.
    kill_grace_seconds: float = 3.0
    # agy's own --print-timeout fires first; the relay's hard stop waits this much longer.
    timeout_grace_seconds: float = 30.0
    # A call queued longer than this answers BUSY (position, and which run holds the slot since when).
    queue_wait_seconds: float = 120 * 60.0
    # The transcript on disk keeps its head and tail within this size; the middle is cut, and the cut said.
    transcript_max_bytes: int = 20 * 1024 * 1024
    # Calls that name no wait_seconds answer RUNNING after this long (issue 9); None: they wait to the end.
    wait_seconds: float | None = None
    # The HTTP door's global request rate (token bucket, burst 4x): a runaway client cannot flood the relay.
    http_max_rps: float = 50.0
    # Each run's patch (<run_id>.patch) is cut to this size, the cut stated; 0: no patches are written.
    patch_max_bytes: int = 8 * 1024 * 1024
    # An HTTP session with no request in flight (no call, no open GET stream) this long is closed; None: never.
    http_session_idle_seconds: float | None = 8 * 3600.0

    @property
    def runs_dir(self) -> Path:
        return self.data_dir / "runs"


def parse_profiles(raw: str, source: str) -> dict[str, Profile]:
    """Decode ``{"name": {...profile...}}``; errors name the source, the key and what is accepted."""
    try:
        profiles = msgspec.json.decode(raw.encode() if isinstance(raw, str) else raw, type=dict[str, Profile])
    except msgspec.ValidationError as exc:
        accepted = ", ".join(Profile.__struct_fields__)
        named = _first_bad_profile(raw)  # `$[...]` alone does not say which of several profiles to fix
        said = f"profile {named[0]!r}: {explain(named[1])}" if named else explain(exc)
        raise ValueError(f"{source}: {said}. A profile accepts: {accepted}.") from None
    except msgspec.DecodeError as exc:
        raise ValueError(f"{source}: not valid JSON ({exc}). Expected an object of named profiles.") from None
    for name, profile in profiles.items():
        # A relative workspace would be resolved against whatever folder the client started
        # the relay in, and bound calls to that: refused, whatever the cwd happens to be.
        if profile.workspace is not None and not is_absolute(profile.workspace):
            example = r"E:\projects\app" if on_windows() else "/home/me/src/app"
            raise ValueError(f"{source}: profile {name!r}: workspace {profile.workspace!r} is not an absolute path; "
                             f"give the project's full path, e.g. {example}")
        for key in ("paths", "protected"):  # enforced after every run (issue 10): a bad pattern is caught here
            for pattern in getattr(profile, key):
                if (problem := pattern_problem(pattern)) is not None:
                    raise ValueError(f"{source}: profile {name!r}: {key} pattern {pattern!r} {problem}; write "
                                     "workspace-relative folders or globs, e.g. \"src/\", \".github/**\", \"*.lock\"")
    return profiles


def _first_bad_profile(raw: str | bytes) -> tuple[str, msgspec.ValidationError] | None:
    """The first profile that does not decode, by name, with its own error (its path starts at the profile)."""
    try:
        bodies = msgspec.json.decode(raw.encode() if isinstance(raw, str) else raw, type=dict[str, msgspec.Raw])
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    for name, body in bodies.items():
        try:
            msgspec.json.decode(body, type=Profile)
        except msgspec.ValidationError as exc:
            return name, exc
    return None


def _allowed_roots(raw: str, problems: list[str]) -> list[str]:
    roots = split_roots(raw)
    for root in roots:
        if (problem := root_problem(root)) is not None:
            problems.append(f"GRAVITY_RELAY_ALLOWED_ROOTS entry {root!r} {problem}")
    return roots


def _fixed_constraints(raw: str | None) -> list[str]:
    if not raw or not raw.strip():
        return []
    text = raw.strip()
    if text.startswith("["):
        try:
            value = msgspec.json.decode(text.encode(), type=list[str])
            return [v.strip() for v in value if v.strip()]
        except (msgspec.ValidationError, msgspec.DecodeError):
            pass
    return [line.strip() for line in text.splitlines() if line.strip()]


# Every number the environment sets has a range; a value outside it (a typo, "inf", "nan", 0
# where 0 would flood the client) stops `serve` with this text instead of silently becoming
# something else. (key, default, low, high, integer, what 0 means or None if 0 is not allowed)
_BOUNDS: dict[str, tuple[float, float, float, bool, str | None]] = {
    "GRAVITY_RELAY_MAX_RUNS": (500, 1, 10_000_000, True, "no limit on the number of runs"),
    "GRAVITY_RELAY_MAX_AGE_DAYS": (30.0, 0.01, 36_500, False, "no age limit"),
    "GRAVITY_RELAY_PROGRESS_SECONDS": (3.0, 0.05, 3600, False, None),
    "GRAVITY_RELAY_TIMEOUT_GRACE_SECONDS": (30.0, 1, 3600, False, None),
    # 0 is refused: agy always gets a moment to stop on SIGTERM (it then writes its "interrupted" result).
    "GRAVITY_RELAY_KILL_GRACE_SECONDS": (3.0, 0.1, 600, False, None),
    "GRAVITY_RELAY_QUEUE_WAIT_MINUTES": (120.0, 0.01, 10_080, False, None),
    "GRAVITY_RELAY_TRANSCRIPT_MAX_MB": (20.0, 0.0625, 102_400, False, None),
    "GRAVITY_RELAY_WAIT_SECONDS": (0.0, 1, 86_400, False, "no default: a call waits for the end of its run"),
    "GRAVITY_RELAY_HTTP_MAX_RPS": (50.0, 0.1, 100_000, False, None),
    "GRAVITY_RELAY_HTTP_SESSION_IDLE_MINUTES": (480.0, 0.01, 10_080, False, "sessions that never expire"),
}
_MAX_SIZE_BOUND = 1024**5  # 1 PiB: past it a size is a typo


def _accepted(key: str) -> str:
    _default, low, high, integer, zero = _BOUNDS[key]
    kind = "a whole number" if integer else "a number"
    return f"{kind} from {low:g} to {high:g}" + (f", or 0 for {zero}" if zero else "") + f" (default {_default:g})"


def parse_bounded(key: str, raw: str) -> float:
    """One bounded number from the environment; ValueError names the variable, the value and the range."""
    _default, low, high, integer, zero = _BOUNDS[key]
    text = raw.strip()
    try:
        value = float(int(text)) if integer else float(text)
    except ValueError:
        value = None
    ok = value is not None and math.isfinite(value) and (low <= value <= high or (value == 0 and zero is not None))
    if not ok:
        raise ValueError(f"{key}={raw!r} is not accepted: use {_accepted(key)}")
    return value


def _number(env: dict[str, str], key: str, problems: list[str]) -> float:
    raw = env.get(key)
    default = _BOUNDS[key][0]
    if raw is None or not raw.strip():
        return default
    try:
        return parse_bounded(key, raw)
    except ValueError as exc:
        problems.append(str(exc))
        return default


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(I?B)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
SIZE_FORMS = "a number of megabytes (500), or a number with a unit: 500MB, 2GB, 1.5GiB, 800KB, 4096B; 0 for no size limit"


def parse_size(text: str) -> int:
    """'500MB', '2G', '1.5GiB', '10kb', '4096B', '0' -> bytes (binary units).

    A bare number is megabytes: `GRAVITY_RELAY_MAX_SIZE=500` once meant 500 bytes and
    deleted every record at the next start. Bytes must be said: '4096B'.
    """
    match = _SIZE.match(text or "")
    if not match:
        raise ValueError(f"size {text!r} is not understood: use {SIZE_FORMS}")
    unit = match[2].upper()
    if not unit and not match[3]:
        unit = "M"
    size = float(match[1]) * _UNITS[unit]
    if not math.isfinite(size) or size > _MAX_SIZE_BOUND:
        raise ValueError(f"size {text!r} is too large: at most 1 PiB, e.g. 500MB or 2GB")
    return int(size)


def _size(env: dict[str, str], key: str, default: int, problems: list[str]) -> int:
    raw = env.get(key)
    if raw is None or not raw.strip():
        return default
    try:
        return parse_size(raw)
    except ValueError as exc:
        problems.append(f"{key}={raw!r}: {exc}")
        return default


def default_data_dir() -> Path:
    return places.default_data_dir()


def load_settings(environ: dict[str, str] | None = None) -> Settings:
    env = dict(os.environ if environ is None else environ)
    data_dir = Path(env["GRAVITY_RELAY_DATA_DIR"]).expanduser() if env.get("GRAVITY_RELAY_DATA_DIR") else default_data_dir()

    profiles: dict[str, Profile] = {}
    source = None
    error = None
    try:
        if env.get("GRAVITY_RELAY_PROFILES", "").strip():
            source = "GRAVITY_RELAY_PROFILES"
            profiles = parse_profiles(env["GRAVITY_RELAY_PROFILES"], source)
        elif env.get("GRAVITY_RELAY_PROFILE_FILE", "").strip():
            source = str(Path(env["GRAVITY_RELAY_PROFILE_FILE"]).expanduser())
            try:
                text = Path(source).read_text(encoding="utf-8")
            except OSError as exc:
                raise ValueError(f"{source}: cannot read the profile file ({exc.strerror})") from None
            profiles = parse_profiles(text, source)
    except ValueError as exc:
        error = str(exc)

    default = env.get("GRAVITY_RELAY_DEFAULT_PROFILE", "").strip() or None
    if default and not error and default not in profiles:
        names = ", ".join(sorted(profiles)) or "none are defined"
        error = f"GRAVITY_RELAY_DEFAULT_PROFILE={default!r} names no profile (defined: {names})"

    problems: list[str] = []
    return Settings(
        problems=problems,
        data_dir=data_dir,
        agy_bin=env.get("AGY_BIN") or None,
        profiles=profiles,
        profile_source=source,
        profile_error=error,
        default_profile=default,
        fixed_constraints=_fixed_constraints(env.get("GRAVITY_RELAY_FIXED_CONSTRAINTS")),
        allowed_roots=_allowed_roots(env.get("GRAVITY_RELAY_ALLOWED_ROOTS", ""), problems),
        inside_worker=env.get(WORKER_MARKER_ENV) or None,
        max_runs=int(_number(env, "GRAVITY_RELAY_MAX_RUNS", problems)),
        max_age_days=_number(env, "GRAVITY_RELAY_MAX_AGE_DAYS", problems),
        max_size_bytes=_size(env, "GRAVITY_RELAY_MAX_SIZE", 500 * 1024 * 1024, problems),
        progress_interval=_number(env, "GRAVITY_RELAY_PROGRESS_SECONDS", problems),
        timeout_grace_seconds=_number(env, "GRAVITY_RELAY_TIMEOUT_GRACE_SECONDS", problems),
        kill_grace_seconds=_number(env, "GRAVITY_RELAY_KILL_GRACE_SECONDS", problems),
        queue_wait_seconds=60 * _number(env, "GRAVITY_RELAY_QUEUE_WAIT_MINUTES", problems),
        transcript_max_bytes=max(64 * 1024, int(1024 * 1024 * _number(env, "GRAVITY_RELAY_TRANSCRIPT_MAX_MB", problems))),
        wait_seconds=_number(env, "GRAVITY_RELAY_WAIT_SECONDS", problems) or None,
        http_max_rps=_number(env, "GRAVITY_RELAY_HTTP_MAX_RPS", problems),
        patch_max_bytes=_patch_size(env, problems),
        http_session_idle_seconds=60 * _number(env, "GRAVITY_RELAY_HTTP_SESSION_IDLE_MINUTES", problems) or None,
    )


def _patch_size(env: dict[str, str], problems: list[str]) -> int:
    # 0 turns patches off; anything else is at least 64 KiB (the header and one small file).
    size = _size(env, "GRAVITY_RELAY_PATCH_MAX_SIZE", 8 * 1024 * 1024, problems)
    return 0 if size == 0 else max(size, 64 * 1024)


def agy_candidates(settings: Settings, environ: dict[str, str] | None = None) -> list[str]:
    """Where agy may be, in the order the relay tries: AGY_BIN, PATH, the install locations."""
    env = os.environ if environ is None else environ
    if settings.agy_bin:
        return [settings.agy_bin]
    found = shutil.which("agy", path=env.get("PATH"))
    out = [found] if found else []
    return out + [path for path in places.agy_install_paths(env) if path not in out]
