"""Read the environment once into a Settings value.

Everything configurable lives here, so the rest of the relay never calls
``os.environ`` and a test can build Settings directly.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import msgspec
from msgspec import Struct

from .contracts import Profile, explain

__all__ = ["Settings", "load_settings", "parse_profiles", "parse_size", "agy_candidates", "WORKER_MARKER_ENV"]

# Set in the worker's environment; a relay that sees it was started by agy itself.
WORKER_MARKER_ENV = "GRAVITY_RELAY_WORKER_RUN"


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
    problems: list[str] = []  # environment values that were ignored, for doctor and the log
    max_runs: int = 500
    max_age_days: float = 30.0
    max_size_bytes: int = 500 * 1024 * 1024
    progress_interval: float = 3.0
    auth_cache_seconds: float = 60.0
    kill_grace_seconds: float = 3.0
    # agy's own --print-timeout fires first; the relay's hard stop waits this much longer.
    timeout_grace_seconds: float = 30.0
    # A call queued longer than this answers BUSY (position, and which run holds the slot since when).
    queue_wait_seconds: float = 120 * 60.0
    # The transcript on disk keeps its head and tail within this size; the middle is cut, and the cut said.
    transcript_max_bytes: int = 20 * 1024 * 1024

    @property
    def runs_dir(self) -> Path:
        return self.data_dir / "runs"


def parse_profiles(raw: str, source: str) -> dict[str, Profile]:
    """Decode ``{"name": {...profile...}}``; errors name the source, the key and what is accepted."""
    try:
        return msgspec.json.decode(raw.encode() if isinstance(raw, str) else raw, type=dict[str, Profile])
    except msgspec.ValidationError as exc:
        accepted = ", ".join(Profile.__struct_fields__)
        raise ValueError(f"{source}: {explain(exc)}. A profile accepts: {accepted}.") from None
    except msgspec.DecodeError as exc:
        raise ValueError(f"{source}: not valid JSON ({exc}). Expected an object of named profiles.") from None


def _split_list(raw: str, seps: str) -> list[str]:
    items = [raw]
    for sep in seps:
        items = [part for item in items for part in item.split(sep)]
    return [item.strip() for item in items if item.strip()]


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


def _number(env: dict[str, str], key: str, default: float, problems: list[str]) -> float:
    raw = env.get(key)
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        problems.append(f"{key}={raw!r} is not a number; using {default:g}")
        return default


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


def parse_size(text: str) -> int:
    """'500MB', '2G', '1.5GiB', '10kb', '0' -> bytes (binary units)."""
    match = _SIZE.match(text or "")
    if not match:
        raise ValueError(f"size {text!r} is not understood: use a number with an optional unit, e.g. 500MB or 2GB")
    return int(float(match[1]) * _UNITS[match[2].upper()])


def _size(env: dict[str, str], key: str, default: int, problems: list[str]) -> int:
    raw = env.get(key)
    if not raw:
        return default
    try:
        return parse_size(raw)
    except ValueError as exc:
        # A typo in a housekeeping limit must not stop the server; doctor reports it.
        problems.append(f"{key}: {exc}; using the default")
        return default


def default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("gravity-relay", appauthor=False))


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
        allowed_roots=_split_list(env.get("GRAVITY_RELAY_ALLOWED_ROOTS", ""), ";,"),
        inside_worker=env.get(WORKER_MARKER_ENV) or None,
        max_runs=int(_number(env, "GRAVITY_RELAY_MAX_RUNS", 500, problems)),
        max_age_days=_number(env, "GRAVITY_RELAY_MAX_AGE_DAYS", 30.0, problems),
        max_size_bytes=_size(env, "GRAVITY_RELAY_MAX_SIZE", 500 * 1024 * 1024, problems),
        progress_interval=_number(env, "GRAVITY_RELAY_PROGRESS_SECONDS", 3.0, problems),
        timeout_grace_seconds=_number(env, "GRAVITY_RELAY_TIMEOUT_GRACE_SECONDS", 30.0, problems),
        queue_wait_seconds=60 * _number(env, "GRAVITY_RELAY_QUEUE_WAIT_MINUTES", 120.0, problems),
        transcript_max_bytes=max(64 * 1024, int(1024 * 1024 * _number(env, "GRAVITY_RELAY_TRANSCRIPT_MAX_MB", 20.0, problems))),
    )


def agy_candidates(settings: Settings, environ: dict[str, str] | None = None) -> list[str]:
    """Where agy may be, in the order the relay tries: AGY_BIN, PATH, the install locations."""
    env = os.environ if environ is None else environ
    if settings.agy_bin:
        return [settings.agy_bin]
    found = shutil.which("agy", path=env.get("PATH"))
    out = [found] if found else []
    home = Path(env.get("HOME") or Path.home())
    out.append(str(home / ".local" / "bin" / "agy"))
    out.append("/opt/homebrew/bin/agy")
    if env.get("LOCALAPPDATA"):
        out.append(str(Path(env["LOCALAPPDATA"]) / "agy" / "bin" / "agy.exe"))
    return out
