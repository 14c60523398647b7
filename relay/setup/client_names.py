"""The names of the MCP clients setup knows, in the order it handles them: the one list both the setup
(``relay.setup.clients``, each name's file and format) and the CLI's ``setup --client`` choices read.
Its own small module so the CLI names them without importing the whole setup at start-up."""

from __future__ import annotations

__all__ = ["CLIENT_NAMES"]

CLIENT_NAMES = ("codex", "claude", "cursor", "gemini", "antigravity", "windsurf", "claude-desktop")
