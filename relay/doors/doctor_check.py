"""One line of ``gravity-relay doctor``: a check's name, its level and the fix, and how the checks print."""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from relay.core.shown import harmless

__all__ = ["Check", "Level", "ok", "warn", "fail", "render_checks"]

Level = Literal["ok", "warning", "failure"]


class Check(Struct, kw_only=True, omit_defaults=True):
    name: str
    level: Level
    message: str
    fix: str = ""


def ok(name: str, message: str) -> Check:
    return Check(name=name, level="ok", message=message)


def warn(name: str, message: str, fix: str = "") -> Check:
    return Check(name=name, level="warning", message=message, fix=fix)


def fail(name: str, message: str, fix: str = "") -> Check:
    return Check(name=name, level="failure", message=message, fix=fix)


def render_checks(checks: list[Check]) -> str:
    width = max(len(c.name) for c in checks)
    lines = []
    for c in checks:
        # Names doctor read from disk (a worktree, a temp file a ledger names) are shown, never obeyed by the terminal.
        lines.append(f"{c.level:<8} {c.name:<{width}}  {harmless(c.message)}")
        if c.fix:
            lines.append(f"{'':<8} {'':<{width}}  → {harmless(c.fix)}")
    counts = {level: sum(1 for c in checks if c.level == level) for level in ("ok", "warning", "failure")}
    lines.append(f"\n{counts['ok']} ok, {counts['warning']} warning{'s' if counts['warning'] != 1 else ''}, "
                 f"{counts['failure']} failure{'s' if counts['failure'] != 1 else ''}"
                 " (checked with this shell's environment; an MCP client starts the relay with the env in its config)")
    return "\n".join(lines) + "\n"
