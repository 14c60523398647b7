"""The MCP Registry's description of the relay (``server.json``, schema 2025-12-11), made from the package.

The file at the top of the checkout is this function's output; a test keeps the two equal, so the
version, the package name and the settings a user sets cannot drift from the package.
Regenerate it with ``python -m relay.setup.registry > server.json``.
"""

from __future__ import annotations

import json
from typing import Any

from relay import __version__
from relay.setup.launch import PACKAGE_NAME

__all__ = ["REGISTRY_NAME", "SCHEMA_URL", "USER_SETTINGS", "server_json", "render"]

# The registry's name; the package's README carries it as `<!-- mcp-name: … -->`, which is how the
# registry checks that the PyPI package belongs to this entry.
REGISTRY_NAME = "io.github.gravity-relay/gravity-relay"
SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

# The environment a user sets in the client's server entry: (name, description, format). Every other
# GRAVITY_RELAY_* setting has a default that suits a first install (docs/configuration.md).
USER_SETTINGS: tuple[tuple[str, str, str], ...] = (
    ("AGY_BIN", "The agy executable (default: agy on PATH, then its usual install locations).", "filepath"),
    ("GRAVITY_RELAY_DEFAULT_PROFILE", "The profile a call uses when it names none; with it a call needs only a task.",
     "string"),
    ("GRAVITY_RELAY_PROFILE_FILE", "A JSON file of named profiles (workspace, execution mode, timeout, verify "
     "commands, allowed paths).", "filepath"),
    ("GRAVITY_RELAY_PROFILES", "The same profiles as inline JSON; wins over GRAVITY_RELAY_PROFILE_FILE.", "string"),
    ("GRAVITY_RELAY_ALLOWED_ROOTS", "Workspaces must be under one of these absolute paths (separated by ; or ,).",
     "string"),
    ("GRAVITY_RELAY_FIXED_CONSTRAINTS", "Constraints added to every task: a JSON array, or one per line.", "string"),
    ("GRAVITY_RELAY_WAIT_SECONDS", "Answer RUNNING after this many seconds and let the run go on (for clients "
     "that cut tool calls short); unset: wait for the end.", "number"),
    ("GRAVITY_RELAY_DATA_DIR", "Where run records go (default: the platform's user data dir).", "filepath"),
)


def server_json() -> dict[str, Any]:
    return {
        "$schema": SCHEMA_URL,
        "name": REGISTRY_NAME,
        "title": "Gravity Relay",
        "description": "Delegate implementation to the Antigravity CLI (agy); get a compact, risk-ranked review packet.",
        "version": __version__,
        "packages": [{
            "registryType": "pypi",
            "registryBaseUrl": "https://pypi.org",
            "identifier": PACKAGE_NAME,
            "version": __version__,
            "runtimeHint": "uvx",
            "transport": {"type": "stdio"},
            "environmentVariables": [
                {"name": name, "description": description, "format": fmt, "isRequired": False, "isSecret": False}
                for name, description, fmt in USER_SETTINGS
            ],
        }],
    }


def render() -> str:
    return json.dumps(server_json(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    import sys

    sys.stdout.write(render())
