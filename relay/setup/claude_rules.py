"""Claude Code's allow rules for the relay's tools in its user settings (``~/.claude/settings.json``):
``claude -p`` cannot ask before a tool call, so without a rule every call is denied.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from relay.setup.client_table import SERVER_NAME, TOOL_NAMES
from relay.setup.config_files import Plan, dump_json, load_json, read_config, refused
from relay.setup.toml_edit import SetupError

__all__ = [
    "CLAUDE_SETTINGS_FILE", "CLAUDE_ALLOW_RULES", "CLAUDE_SERVER_RULES", "claude_allow_rules", "plan_claude_rules",
]

# Claude Code names an MCP tool mcp__<server>__<tool>; its permission rules use that name.
CLAUDE_SETTINGS_FILE = ".claude/settings.json"
CLAUDE_ALLOW_RULES = tuple(f"mcp__{SERVER_NAME}__{tool}" for tool in TOOL_NAMES)
# Rules that already allow every tool of the server (Claude Code's whole-server forms).
CLAUDE_SERVER_RULES = (f"mcp__{SERVER_NAME}", f"mcp__{SERVER_NAME}__*")


def claude_allow_rules(home: Path) -> tuple[list[str], str | None]:
    """The relay's tools that Claude Code's user settings allow, and why not when unreadable."""
    path = home / CLAUDE_SETTINGS_FILE
    try:
        allow = _claude_allow_list(load_json(read_config(path)))
    except SetupError as exc:
        return [], str(exc)
    if any(rule in allow for rule in CLAUDE_SERVER_RULES):
        return list(CLAUDE_ALLOW_RULES), None
    return [rule for rule in CLAUDE_ALLOW_RULES if rule in allow], None


def _claude_allow_list(doc: dict[str, Any]) -> list[Any]:
    permissions = doc.get("permissions")
    if permissions is None:
        return []
    if not isinstance(permissions, dict):
        raise SetupError("its permissions is not an object; fix it first")
    allow = permissions.get("allow", [])
    if not isinstance(allow, list):
        raise SetupError("its permissions.allow is not a list; fix it first")
    return allow


def plan_claude_rules(home: Path, *, allow: bool) -> Plan:
    """Claude Code's allow rules for the relay's tools in its user settings: added (``allow``) or removed.

    ``claude -p`` cannot ask before a tool call, so without a rule every call is denied."""
    path = home / CLAUDE_SETTINGS_FILE
    plan = Plan(client="claude", path=str(path), action="unchanged", message="")
    try:
        old = read_config(path)
        plan.old_text = old
        doc = load_json(old)
        rules = _claude_allow_list(doc)
        if allow:
            server_rule = next((r for r in CLAUDE_SERVER_RULES if r in rules), None)
            missing = [] if server_rule else [r for r in CLAUDE_ALLOW_RULES if r not in rules]
            if not missing:
                plan.message = f"permissions.allow already allows the relay's tools ({server_rule or 'all three'})"
                return plan
            new_rules = [*rules, *missing]
            plan.message = f"permissions.allow + {', '.join(missing)}"
            plan.notes = ["claude -p runs the relay's tools without asking (--client-approvals leaves that to Claude Code)"]
        else:
            gone = [r for r in rules if r in CLAUDE_ALLOW_RULES]
            if not gone:
                plan.action = "absent" if old is None or not rules else "unchanged"
                plan.message = "no allow rule for the relay's tools" + ("" if old is None else "; nothing to remove")
                return plan
            new_rules = [r for r in rules if r not in CLAUDE_ALLOW_RULES]
            plan.message = f"permissions.allow - {', '.join(gone)}"
        permissions = doc.setdefault("permissions", {})
        if new_rules:
            permissions["allow"] = new_rules
        else:
            permissions.pop("allow", None)
            if not permissions:
                doc.pop("permissions")
        plan.new_text = dump_json(doc, old)
    except SetupError as exc:
        return refused(plan, exc)
    plan.action = ("add" if old is None else "update") if allow else "remove"
    return plan
