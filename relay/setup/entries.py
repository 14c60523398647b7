"""The relay's server entry in each client's own format, made for headless use, and whether an entry is the
relay's own.

The entry is made for headless use (``codex exec``, ``claude -p``, ``gemini -p``): Codex gets
``required = true`` and its tools pre-approved, Claude Code allow rules for the relay's tools in
``~/.claude/settings.json`` (``relay.setup.claude_rules``), Gemini ``"trust": true``; ``client_approvals``
leaves approvals to the client instead. Codex starts servers with a minimal environment, so the relay
settings exported in this shell (``AGY_BIN``, ``GRAVITY_RELAY_*``) are copied into its entry's ``env``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from relay.setup.client_table import (APPROVAL_KEYS, CODEX_STARTUP_TIMEOUT_SEC, CODEX_TOOL_TIMEOUT_SEC,
                                       GEMINI_TIMEOUT_MS)
from relay.core.settings import RELAY_OWN_ENV
from relay.setup.launch import PACKAGE_NAME, SCRIPT_NAME
from relay.setup.toml_edit import SetupError

__all__ = [
    "HTTP_CLIENTS", "SHORT_LIMIT_WAIT_SECONDS", "is_relay_entry", "desired_entry", "merged_entry", "headless_notes",
]

# The keys that say how a client reaches a server (by command or by URL); switching form drops the other's.
_TRANSPORT_KEYS = frozenset({"type", "command", "args", "env", "url", "httpUrl", "headers", "http_headers"})
# URL entries (`setup --http`): the key names each client reads, checked in their sources or docs:
# Codex codex-rs/core/src/config/types.rs (url + http_headers; bearer_token_env_var is the alternative,
# a plain bearer_token is refused), Claude Code type "http" + url + headers, Gemini CLI httpUrl
# (its "url" means SSE) + headers, Cursor url + headers.
HTTP_CLIENTS = ("codex", "claude", "gemini", "cursor")


def is_relay_entry(entry: Any) -> bool:
    """True when a server entry runs Gravity Relay (its console script, or ``python -m relay``)."""
    if not isinstance(entry, dict):
        return False
    if _is_relay_url_entry(entry):
        return True
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    name = re.split(r"[\\/]", command)[-1].lower()
    for suffix in (".exe", ".cmd", ".bat"):
        name = name.removesuffix(suffix)
    if name in (SCRIPT_NAME, PACKAGE_NAME):
        return True
    args = entry.get("args")
    if name in ("uvx", "uv", "pipx") and isinstance(args, list):
        # `uvx gravity-relay-mcp`, `uvx gravity-relay-mcp@0.2.0`, `uvx --from gravity-relay-mcp gravity-relay serve`,
        # `uv tool run …`, `pipx run gravity-relay-mcp`
        return any(isinstance(a, str) and re.fullmatch(re.escape(PACKAGE_NAME) + r"(\[[^\]]*\])?([@=<>!~].*)?", a)
                   for a in args)
    if isinstance(args, list) and len(args) >= 2:
        for a, b in zip(args, args[1:]):
            if a == "-m" and b == "relay":
                return True
    return False


def _is_relay_url_entry(entry: Mapping[str, Any]) -> bool:
    """A URL entry `setup --http` wrote: a loopback .../mcp URL with a bearer Authorization header."""
    from urllib.parse import urlsplit

    url = entry.get("url") or entry.get("httpUrl")
    headers = entry.get("http_headers") or entry.get("headers")
    if not isinstance(url, str) or not isinstance(headers, dict):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return (parts.hostname in ("127.0.0.1", "localhost", "::1") and parts.path.rstrip("/") == "/mcp"
            and str(headers.get("Authorization", "")).startswith("Bearer "))


def _url_entry(client: str, url: str, token: str) -> dict[str, Any]:
    bearer = {"Authorization": f"Bearer {token}"}
    if client == "codex":
        return {"url": url, "http_headers": bearer}
    if client == "claude":
        return {"type": "http", "url": url, "headers": bearer}
    if client == "gemini":
        return {"httpUrl": url, "headers": bearer}
    if client == "cursor":
        return {"url": url, "headers": bearer}
    raise SetupError(f"registering {client} by URL is not supported yet (only {', '.join(HTTP_CLIENTS)}); "
                     "register it for stdio (setup without --http)")


# Clients that cut a tool call at a fixed, short limit (about 60 s) and take no per-server timeout
# from setup: their relay answers RUNNING before that (issue 9), and the leader waits with get_result.
SHORT_LIMIT_WAIT_SECONDS = {"cursor": "45", "windsurf": "45"}


def desired_entry(client: str, command: str, env: Mapping[str, str] | None = None, *,
                  approvals: bool = True, http: tuple[str, str] | None = None,
                  args: Iterable[str] | None = None) -> dict[str, Any]:
    """The relay's server entry in one client's own format, ready for headless use.

    ``approvals`` False leaves tool approval to the client (no pre-approval keys). ``http``
    (url, token): the entry reaches a running `serve --http` relay by URL instead of starting one. ``args``: the
    command's arguments (default ``serve``; ``uvx`` takes the package's name)."""
    entry: dict[str, Any] = {}
    if http is not None:
        entry.update(_url_entry(client, *http))
    else:
        if client == "claude":
            entry["type"] = "stdio"
        entry["command"] = command
        entry["args"] = ["serve"] if args is None else list(args)
    if client == "codex":
        entry["required"] = True  # codex exec waits for the relay instead of starting the turn without its tools
        entry["startup_timeout_sec"] = CODEX_STARTUP_TIMEOUT_SEC
        entry["tool_timeout_sec"] = CODEX_TOOL_TIMEOUT_SEC
    if client == "gemini":
        entry["timeout"] = GEMINI_TIMEOUT_MS
    if approvals:
        entry.update(APPROVAL_KEYS.get(client, {}))
    if http is None and client in SHORT_LIMIT_WAIT_SECONDS:
        env = {"GRAVITY_RELAY_WAIT_SECONDS": SHORT_LIMIT_WAIT_SECONDS[client], **(env or {})}
    if env and http is None:  # a URL entry starts no process: the relay's env is the running relay's
        entry["env"] = dict(env)
    return entry


def merged_entry(client: str, existing: Any, command: str, env: Mapping[str, str] | None,
                  approvals: bool = True, http: tuple[str, str] | None = None,
                  args: Iterable[str] | None = None) -> dict[str, Any]:
    """Our entry over the relay's existing one: keys a user added to it (and its env) are kept."""
    wanted = desired_entry(client, command, env, approvals=approvals, http=http, args=args)
    if not is_relay_entry(existing):
        return wanted
    merged = {**existing, **wanted}
    for key in _TRANSPORT_KEYS - set(wanted):  # stdio <-> URL: the other form's keys would confuse the client
        merged.pop(key, None)
    if http is not None:
        return merged
    if not approvals:
        for key in APPROVAL_KEYS.get(client, {}):
            merged.pop(key, None)
    old_env = existing.get("env")
    if isinstance(old_env, dict) and old_env:
        merged["env"] = {**old_env, **(env or {})}
    if isinstance(merged.get("env"), dict):  # an earlier setup from a worker's shell may have written them
        merged["env"] = {k: v for k, v in merged["env"].items() if k not in RELAY_OWN_ENV}
        if not merged["env"]:
            merged.pop("env")
    if "env" in merged:
        merged["env"] = merged.pop("env")  # the env table stays last
    return merged


def headless_notes(client: str, approvals: bool, carried: list[str]) -> list[str]:
    notes = []
    if client == "codex":
        notes.append("required = true: codex exec waits for the relay's tools instead of starting without them")
        if approvals:
            notes.append('default_tools_approval_mode = "approve": codex exec (approval policy never) runs the '
                         "relay's tools instead of refusing them")
        else:
            notes.append("approvals left to Codex: codex exec refuses the relay's tools until they are approved")
        if carried:
            notes.append(f"env: {', '.join(carried)} copied from this shell (Codex starts MCP servers with a "
                         "minimal environment)")
    if client == "gemini":
        if approvals:
            notes.append('"trust": true: gemini -p runs the relay\'s tools without a confirmation')
        else:
            notes.append("approvals left to Gemini CLI: gemini -p does not offer the relay's tools without "
                         '"trust": true or --yolo')
        notes.append("Gemini CLI disables MCP servers in untrusted folders: trust your project folder")
    return notes
