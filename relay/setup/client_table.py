"""The MCP clients setup knows: where each keeps its MCP servers, in which format, how to tell it is here,
and the limits and keys each needs for headless use.

    codex        ~/.codex/config.toml                 [mcp_servers.antigravity]
    claude       ~/.claude.json                       mcpServers.antigravity (type stdio)
    cursor       ~/.cursor/mcp.json                   mcpServers.antigravity
    gemini       ~/.gemini/settings.json              mcpServers.antigravity
    antigravity  ~/.gemini/config/mcp_config.json     mcpServers.antigravity  (opt-in: agy's own
                 headless runs load this file, so every worker would see the relay)
    windsurf     ~/.codeium/windsurf/mcp_config.json  mcpServers.antigravity
    claude-desktop  where Claude Desktop keeps it:    mcpServers.antigravity
                 Windows %APPDATA%\\Claude\\claude_desktop_config.json (its default place under the profile),
                 macOS ~/Library/Application Support/Claude/…, Linux ~/.config/Claude/…

HOME is the user's profile (%USERPROFILE% on Windows), so on Windows Codex's file is
%USERPROFILE%\\.codex\\config.toml and Gemini CLI's %USERPROFILE%\\.gemini\\settings.json.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Literal

from msgspec import Struct

__all__ = [
    "SERVER_NAME", "CLIENTS", "ClientSpec", "TOOL_NAMES", "APPROVAL_KEYS", "MINIMAL_ENV_CLIENTS",
    "CODEX_STARTUP_TIMEOUT_SEC", "CODEX_TOOL_TIMEOUT_SEC", "GEMINI_TIMEOUT_MS",
]

SERVER_NAME = "antigravity"
# Long tool calls are the point: a worker run may take an hour. Codex's own limits (codex-rs
# rmcp_client.rs: 30 s to start, 300 s per tool call since 0.169) and Gemini's (10 minutes per
# call) would cut real tasks short. The first start after an install takes ~2 s; 60 s is slack.
CODEX_STARTUP_TIMEOUT_SEC = 60
CODEX_TOOL_TIMEOUT_SEC = 7200
GEMINI_TIMEOUT_MS = 7_200_000
# The relay's tool names (relay/server.py; a test keeps the two in step).
TOOL_NAMES = ("antigravity_execute", "antigravity_continue", "antigravity_get_result", "antigravity_cancel")
# What an entry carries so a headless client runs the relay's tools without a prompt it cannot show.
APPROVAL_KEYS: dict[str, dict[str, Any]] = {
    "codex": {"default_tools_approval_mode": "approve"},
    "gemini": {"trust": True},
}
# Clients that start MCP servers without the user's shell environment (a desktop app started from the
# Dock or the Start menu has none of it).
MINIMAL_ENV_CLIENTS = ("codex", "claude-desktop")


class ClientSpec(Struct, frozen=True, kw_only=True):
    name: str
    title: str
    file: str  # relative to HOME
    format: Literal["toml", "json"]
    markers: tuple[str, ...]  # relative to HOME; any of them existing means the client is here
    opt_in: bool = False  # registered only when named with --client
    warning: str = ""
    # Where the file is instead on one OS (by sys.platform: "win32", "darwin"), relative to HOME; the
    # folder holding it is then the marker.
    files: dict[str, str] = {}
    program: str = ""  # the client's command on PATH, when it has one: installed, though it may never have run

    def where(self) -> str:
        return self.files.get(sys.platform, self.file)

    def path(self, home: Path) -> Path:
        return home / self.where()

    def signs(self) -> tuple[str, ...]:
        """What tells the client is here, as `found` looks for it (relative to HOME)."""
        return (str(Path(self.where()).parent.as_posix()),) if self.files else self.markers

    def found(self, home: Path) -> bool:
        if self.files:
            return self.path(home).parent.is_dir()
        return any((home / marker).exists() for marker in self.markers)


_ANTIGRAVITY_WARNING = (
    "agy's headless runs load this same file, so every worker would see the relay's tools; the relay refuses "
    "to delegate from inside a worker (RECURSION_REFUSED), but registering it here is not recommended "
    "unless you use the relay from the Antigravity IDE itself"
)
# Keyed by the names of relay.setup.client_names, in its order (the CLI's `setup --client` choices read those).
CLIENTS: dict[str, ClientSpec] = {
    spec.name: spec
    for spec in (
        ClientSpec(name="codex", title="Codex", file=".codex/config.toml", format="toml", markers=(".codex",),
                   program="codex"),
        ClientSpec(name="claude", title="Claude Code", file=".claude.json", format="json",
                   markers=(".claude", ".claude.json"), program="claude"),
        ClientSpec(name="cursor", title="Cursor", file=".cursor/mcp.json", format="json", markers=(".cursor",)),
        # ~/.gemini alone is no sign of Gemini CLI: agy keeps its own state under ~/.gemini/antigravity-cli.
        ClientSpec(name="gemini", title="Gemini CLI", file=".gemini/settings.json", format="json",
                   markers=(".gemini/settings.json", ".gemini/oauth_creds.json"), program="gemini"),
        ClientSpec(name="antigravity", title="Antigravity", file=".gemini/config/mcp_config.json", format="json",
                   markers=(".gemini/config", ".gemini/antigravity"), opt_in=True, warning=_ANTIGRAVITY_WARNING),
        ClientSpec(name="windsurf", title="Windsurf", file=".codeium/windsurf/mcp_config.json", format="json",
                   markers=(".codeium/windsurf",)),
        ClientSpec(name="claude-desktop", title="Claude Desktop", file=".config/Claude/claude_desktop_config.json",
                   format="json", markers=(), files={
                       "win32": "AppData/Roaming/Claude/claude_desktop_config.json",
                       "darwin": "Library/Application Support/Claude/claude_desktop_config.json"}),
    )
}
