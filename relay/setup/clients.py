"""``gravity-relay setup``'s public face: registering the relay with the MCP clients on this machine, and
the readers ``gravity-relay doctor`` shares. The work is in small modules, each with one job:

    client_table   the clients: each one's file, format, markers and headless limits
    launch         the command setup registers (this installation's script, or ``uvx …``), the shell's settings
    entries        the relay's entry in each client's format; is an entry the relay's own
    config_files   reading a client's file safely, keeping its JSON shape; the plan, its backup and atomic write
    claude_rules   Claude Code's allow rules for the relay's tools
    gemini_auth    Gemini CLI's chosen sign-in
    register       plan each client's edit and apply it (``setup``)
    registrations  what the files say about the relay (doctor), and the entries that shadow it

The names below are the ones the doors, the tests and the benches import; new code may import a part directly.
"""

from __future__ import annotations

from relay.setup.claude_rules import CLAUDE_ALLOW_RULES, claude_allow_rules, plan_claude_rules
from relay.setup.client_table import APPROVAL_KEYS, CLIENTS, SERVER_NAME, TOOL_NAMES, ClientSpec
from relay.setup.config_files import Plan, apply_plan
from relay.setup.entries import HTTP_CLIENTS, desired_entry, is_relay_entry
from relay.setup.gemini_auth import GEMINI_AUTH_FIX, gemini_auth_type
from relay.setup.launch import PACKAGE_NAME, ephemeral_runner, home_dir, relay_command, relay_launch, relay_settings
from relay.setup.register import found_clients, plan_install, plan_uninstall, setup
from relay.setup.registrations import Registration, Shadow, registrations, shadowing_entries
from relay.setup.toml_edit import SetupError, toml_remove_table, toml_set_table, toml_value

__all__ = [
    "SERVER_NAME",
    "CLIENTS",
    "ClientSpec",
    "Plan",
    "Registration",
    "SetupError",
    "home_dir",
    "relay_command",
    "relay_launch",
    "ephemeral_runner",
    "PACKAGE_NAME",
    "Shadow",
    "shadowing_entries",
    "desired_entry",
    "is_relay_entry",
    "found_clients",
    "plan_install",
    "plan_uninstall",
    "apply_plan",
    "setup",
    "registrations",
    "relay_settings",
    "plan_claude_rules",
    "claude_allow_rules",
    "gemini_auth_type",
    "GEMINI_AUTH_FIX",
    "TOOL_NAMES",
    "CLAUDE_ALLOW_RULES",
    "APPROVAL_KEYS",
    "toml_set_table",
    "toml_remove_table",
    "toml_value",
    "HTTP_CLIENTS",
]
