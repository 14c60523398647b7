"""What setup registers as the relay's command: this installation's console script (or a runner such as
``uvx`` when the relay runs from a runner's throwaway cache), and the relay settings of this shell.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import sysconfig
from collections.abc import Mapping
from pathlib import Path

from relay.agy.executable import BATCH_SUFFIXES, batch_target
from relay.core.errors import RelayError
from relay.core.places import agy_install_paths, on_windows, user_home
from relay.core.settings import RELAY_OWN_ENV
from relay.setup.toml_edit import SetupError

__all__ = [
    "SCRIPT_NAME", "PACKAGE_NAME", "home_dir", "relay_command", "ephemeral_runner", "relay_launch", "relay_settings",
]

SCRIPT_NAME = "gravity-relay"
# The PyPI name, also a console script that serves with no arguments: `uvx gravity-relay-mcp`.
PACKAGE_NAME = "gravity-relay-mcp"
# Runners that fetch a package into a cache and run it from there; an entry naming the runner outlives the cache.
_RUNNER_ARGS = {"uvx": (), "pipx": ("run",)}
# Set by the relay on its own processes (a shell inside a worker carries both): never a setting to carry.
_NOT_SETTINGS = RELAY_OWN_ENV


def home_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user's home from the environment (``user_home``: USERPROFILE on Windows, HOME elsewhere; tests point
    it at a temp dir), else the platform's home."""
    home = user_home(environ)
    return Path(home) if home else Path.home()


def _script_names() -> list[str]:
    # Windows: only the .exe launcher pip writes. Codex starts a stdio server without PATHEXT and without a shell,
    # so a `-script.py`, an extensionless name or a .cmd shim there is "program not found".
    return [f"{SCRIPT_NAME}.exe"] if on_windows() else [SCRIPT_NAME]


def _on_path(name: str, path: str | None) -> str | None:
    """``name`` as it is found on PATH. On Windows the exact name (``gravity-relay.exe``), never the current folder
    nor a PATHEXT variant (a .cmd); elsewhere shutil.which."""
    if not on_windows():
        return shutil.which(name, path=path)
    for folder in (path or "").split(os.pathsep):
        if folder and os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None


def _real_exe(found: str) -> str:
    """A command found on PATH, as setup may register it. WinGet's links (``…\\Microsoft\\WinGet\\Links\\uvx.exe``)
    are symbolic links that can fail to start under a scheduled task or a service: their target is registered."""
    path = os.path.abspath(found)
    if on_windows() and "winget" in path.lower().replace("/", "\\").split("\\"):
        return os.path.realpath(path)
    return path


def relay_command(environ: Mapping[str, str] | None = None) -> str:
    """The absolute path of the ``gravity-relay`` console script of the running installation.

    Never an interpreter path: the script keeps working when the relay is upgraded in place,
    and a pipx/uv shim on PATH (which survives reinstalls) is preferred when it leads to the
    same installation as the one running.
    """
    env = os.environ if environ is None else environ
    dirs: list[Path] = []
    for scheme in (None, "nt_user" if on_windows() else "posix_user"):
        try:
            got = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
        except KeyError:
            got = None
        if got:
            dirs.append(Path(got))
    dirs.append(Path(sys.executable).parent)
    beside = next((d / n for d in dirs for n in _script_names() if (d / n).is_file()), None)
    on_path = _on_path(_script_names()[0], env.get("PATH"))
    if on_path:
        on_path = _real_exe(on_path)
    if beside is not None:
        if on_path and os.path.realpath(on_path) == os.path.realpath(beside):
            return on_path
        return str(beside.absolute())
    if on_path:
        return on_path
    raise SetupError(
        f"the {SCRIPT_NAME} command was not found next to {sys.executable} nor on PATH; install the package "
        f"(pipx install gravity-relay-mcp, or pip install into a venv), or pass --command /path/to/{SCRIPT_NAME}"
    )


def ephemeral_runner(prefix: str | None = None, environ: Mapping[str, str] | None = None) -> str | None:
    """``"uvx"`` or ``"pipx"`` when the running installation is a throwaway environment in that runner's
    cache (``uvx gravity-relay-mcp setup``, ``pipx run …``), else None.

    A path into such a cache works today and vanishes at the next ``uv cache clean`` or pipx's
    expiry (14 days), so setup must not register it."""
    env = os.environ if environ is None else environ
    where = Path(os.path.abspath(prefix or sys.prefix))
    parts = [p.lower() for p in where.parts]
    uv_caches = [env.get("UV_CACHE_DIR"), env.get("XDG_CACHE_HOME") and os.path.join(env["XDG_CACHE_HOME"], "uv")]
    home = user_home(env)
    if home:
        uv_caches.append(os.path.join(home, ".cache", "uv"))
    if env.get("LOCALAPPDATA"):
        uv_caches.append(os.path.join(env["LOCALAPPDATA"], "uv", "cache"))
    if any(c and _is_within(where, Path(c)) for c in uv_caches) or (
            "uv" in parts and any(re.fullmatch(r"(archive|environments|builds)-v\d+", p) for p in parts)):
        return "uvx"
    pipx_caches = [env.get("PIPX_CACHE_DIR"), env.get("PIPX_HOME") and os.path.join(env["PIPX_HOME"], ".cache")]
    if home:
        pipx_caches += [os.path.join(home, ".cache", "pipx"), os.path.join(home, ".local", "pipx", ".cache"),
                        os.path.join(home, "Library", "Caches", "pipx")]
    if any(c and _is_within(where, Path(c)) for c in pipx_caches) or any(
            a == "pipx" and b in (".cache", "cache") for a, b in zip(parts, parts[1:])):
        return "pipx"
    return None


def _is_within(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(os.path.abspath(folder))
    except ValueError:
        return False
    return True


def relay_launch(environ: Mapping[str, str] | None = None, prefix: str | None = None) -> tuple[str, list[str]]:
    """(command, args) that setup registers: this installation's script with ``serve``, or, when the relay
    runs from a runner's cache (``ephemeral_runner``), the runner itself: ``uvx gravity-relay-mcp``."""
    env = os.environ if environ is None else environ
    runner = ephemeral_runner(prefix, env)
    if runner is None:
        return relay_command(env), ["serve"]
    found = _on_path(f"{runner}.exe" if on_windows() else runner, env.get("PATH"))
    return (_real_exe(found) if found else runner), [*_RUNNER_ARGS[runner], PACKAGE_NAME]


def relay_settings(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The relay's settings exported in this environment: ``AGY_BIN`` and every ``GRAVITY_RELAY_*``. On Windows
    AGY_BIN is always an absolute .exe: the one exported (a batch shim stands for the .exe it runs), else agy's
    install location when agy is there — agy.exe is on PATH only for processes started after its install, and
    a client started before it would not find it."""
    env = os.environ if environ is None else environ
    out = {k: v for k, v in sorted(env.items())
           if (k == "AGY_BIN" or k.startswith("GRAVITY_RELAY_")) and k not in _NOT_SETTINGS}
    if on_windows():
        agy = out.get("AGY_BIN")
        if agy and agy.lower().endswith(BATCH_SUFFIXES):
            try:
                out["AGY_BIN"] = batch_target(agy)
            except RelayError:
                pass  # kept: the relay refuses it at the first run, naming the .exe to point AGY_BIN at
        elif not agy:
            installed = next((p for p in agy_install_paths(env) if os.path.isfile(p)), None)
            if installed:
                out = dict(sorted({**out, "AGY_BIN": installed}.items()))
    return out
