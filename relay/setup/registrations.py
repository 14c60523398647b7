"""What the clients' files say about the relay, for ``gravity-relay doctor``: is each client here, is the
relay registered and does its command exist, and which narrower-scope entries shadow the user-scope one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from msgspec import Struct

from relay.setup.client_table import CLIENTS, SERVER_NAME
from relay.setup.config_files import current_entry, load_json, read_config
from relay.setup.entries import is_relay_entry
from relay.setup.toml_edit import SetupError

__all__ = ["Registration", "registrations", "Shadow", "shadowing_entries"]

class Registration(Struct, kw_only=True, omit_defaults=True):
    """What a client's config says about the relay (for doctor)."""

    client: str
    title: str
    path: str
    found: bool
    registered: bool = False
    ours: bool = False
    command: str | None = None
    command_exists: bool | None = None
    error: str | None = None
    opt_in: bool = False
    entry: dict[str, Any] | None = None  # the registered entry itself (doctor checks its headless keys)


def _command_exists(command: str) -> bool:
    if os.path.isabs(command):
        return os.path.isfile(command) and os.access(command, os.X_OK)
    return shutil.which(command) is not None


def registrations(home: Path, clients: Iterable[str] | None = None) -> list[Registration]:
    """For each client: is it here, is the relay registered, and does the registered command exist."""
    out = []
    for name in clients or CLIENTS:
        spec = CLIENTS[name]
        path = spec.path(home)
        reg = Registration(client=name, title=spec.title, path=str(path), found=spec.found(home), opt_in=spec.opt_in)
        try:
            entry = current_entry(spec, read_config(path))
        except SetupError as exc:
            reg.error = str(exc)
            out.append(reg)
            continue
        if entry is not None:
            reg.registered = True
            reg.ours = is_relay_entry(entry)
            reg.entry = dict(entry) if isinstance(entry, dict) else None
            command = entry.get("command") if isinstance(entry, dict) else None
            if isinstance(command, str):
                reg.command = command
                reg.command_exists = _command_exists(command)
        out.append(reg)
    return out


class Shadow(Struct, kw_only=True, omit_defaults=True):
    """An ``antigravity`` entry at a narrower scope than setup's user-scope one: the client uses it instead."""

    client: str
    scope: Literal["local", "project"]
    path: str  # the file that holds it
    project: str  # the folder where it wins
    ours: bool  # it runs the relay (perhaps another installation's command), else another program
    command: str | None = None
    fix: str = ""


def shadowing_entries(home: Path, cwd: Path | None = None) -> list[Shadow]:
    """Entries that shadow the user-scope registration (``claude mcp add`` / ``gemini mcp add`` without
    ``-s user`` write them): Claude Code's local scope (``projects.<dir>.mcpServers`` in ~/.claude.json)
    and project scope (``<dir>/.mcp.json``), Gemini CLI's project settings (``<dir>/.gemini/settings.json``).

    Looked for in ``cwd`` and its parents and in every project ~/.claude.json knows. An unreadable file
    is skipped here: the client reports it when it loads it."""
    found: list[Shadow] = []
    try:
        claude = load_json(read_config(home / ".claude.json"))
    except SetupError:
        claude = {}
    projects = claude.get("projects") if isinstance(claude.get("projects"), dict) else {}
    for folder, state in projects.items():
        servers = state.get("mcpServers") if isinstance(state, dict) else None
        entry = servers.get(SERVER_NAME) if isinstance(servers, dict) else None
        if entry is not None:
            found.append(_shadow("claude", "local", home / ".claude.json", folder, entry,
                                 f"in {folder}: `claude mcp remove -s local {SERVER_NAME}`"))
    folders: list[Path] = []
    if cwd is not None:
        here = Path(os.path.abspath(cwd))
        folders += [here, *here.parents]
    folders += [Path(f) for f in projects if isinstance(f, str) and os.path.isabs(f)]
    seen: set[str] = set()
    for folder in folders:
        key = os.path.normcase(str(folder))
        if key in seen:
            continue
        seen.add(key)
        for client, file, fix in (
                ("claude", folder / ".mcp.json", f"in {folder}: `claude mcp remove -s project {SERVER_NAME}` "
                 f"(or delete mcpServers.{SERVER_NAME} from .mcp.json)"),
                ("gemini", folder / ".gemini" / "settings.json", f"in {folder}: `gemini mcp remove -s project "
                 f"{SERVER_NAME}` (or delete mcpServers.{SERVER_NAME} from .gemini/settings.json)")):
            if client == "gemini" and os.path.normcase(str(folder)) == os.path.normcase(str(home)):
                continue  # ~/.gemini/settings.json is the user scope itself
            try:
                entry = (load_json(read_config(file)).get("mcpServers") or {}).get(SERVER_NAME)
            except (SetupError, OSError):
                continue
            if entry is not None:
                found.append(_shadow(client, "project", file, str(folder), entry, fix))
    return found


def _shadow(client: str, scope: Literal["local", "project"], path: Path, project: str, entry: Any,
            fix: str) -> Shadow:
    command = entry.get("command") or entry.get("url") or entry.get("httpUrl") if isinstance(entry, dict) else None
    return Shadow(client=client, scope=scope, path=str(path), project=project, ours=is_relay_entry(entry),
                  command=command if isinstance(command, str) else None, fix=fix)
