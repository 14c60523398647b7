"""Install a pinned real client from npm into a cache dir outside the repo, reused between runs.

``client_bin("codex")`` returns the path of the client's executable, installing it on first use:
``npm install --prefix ~/.cache/gravity-relay-tests/npm/<pkg>-<version> <pkg>@<version>``.
A ``.complete`` marker is written only after a successful install, so an interrupted install is
redone rather than trusted. ``skip_reason()`` says why the real-client tests cannot run here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from filelock import FileLock

__all__ = ["PINNED", "cache_root", "client_bin", "skip_reason", "OPT_IN_ENV"]

OPT_IN_ENV = "GRAVITY_RELAY_REAL_CLIENTS"

# Pinned exact versions (npm view PKG versions); bump deliberately, the wire formats change.
PINNED: dict[str, tuple[str, str, str]] = {
    # client: (npm package, version, executable name in node_modules/.bin)
    "codex": ("@openai/codex", "0.171.0", "codex"),
    "claude": ("@anthropic-ai/claude-code", "2.1.332", "claude"),
    "gemini": ("@google/gemini-cli", "0.61.0", "gemini"),
}

INSTALL_TIMEOUT = 900


def cache_root() -> Path:
    base = os.environ.get("GRAVITY_RELAY_TESTS_CACHE") or os.environ.get("XDG_CACHE_HOME") or "~/.cache"
    root = Path(base).expanduser()
    return root if os.environ.get("GRAVITY_RELAY_TESTS_CACHE") else root / "gravity-relay-tests"


def skip_reason() -> str | None:
    if os.environ.get(OPT_IN_ENV) != "1":
        return (f"real-client tests are opt-in: set {OPT_IN_ENV}=1 (they install Codex, Claude Code and "
                "Gemini CLI from npm and drive them against a loopback fake model)")
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found on PATH; the real clients are npm packages that need Node.js 20+"
    return None


def client_bin(client: str) -> Path:
    package, version, exe = PINNED[client]
    prefix = cache_root() / "npm" / f"{package.lstrip('@').replace('/', '-')}-{version}"
    binary = prefix / "node_modules" / ".bin" / exe
    done = prefix / ".complete"
    prefix.mkdir(parents=True, exist_ok=True)
    with FileLock(str(prefix) + ".lock"):
        if not (done.exists() and binary.exists()):
            proc = subprocess.run(
                ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--no-save",
                 f"{package}@{version}"],
                capture_output=True, text=True, timeout=INSTALL_TIMEOUT, encoding="utf-8")
            if proc.returncode != 0 or not binary.exists():
                raise RuntimeError(f"npm install {package}@{version} failed (exit {proc.returncode}):\n"
                                   f"{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
            done.write_text(f"{package}@{version}\n", encoding="utf-8")
    return binary
