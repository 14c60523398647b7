"""Registering the relay with MCP clients (Codex, Claude Code, Cursor, Gemini CLI…), ready for headless use.
"""

__all__: list[str] = []
