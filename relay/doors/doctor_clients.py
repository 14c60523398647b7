"""Doctor's checks of the MCP clients' configs: is the relay registered where a client is found, does a
narrower-scope entry shadow it, and would a headless call (codex exec, claude -p, gemini -p) reach it.
They read the configs with setup's own readers (``relay.setup.clients``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from relay.doors.doctor_check import Check, fail, ok, warn

__all__ = ["check_clients", "check_shadowed", "check_client_headless"]


def check_clients(home: Path) -> list[Check]:
    from relay.setup.clients import CLIENTS, registrations

    checks: list[Check] = []
    registered = 0
    for reg in registrations(home):
        spec = CLIENTS[reg.client]
        shown = reg.path.replace(str(home), "~", 1) if reg.path.startswith(str(home)) else reg.path
        name = f"client {reg.client}"
        if reg.error:
            checks.append(warn(name, f"{reg.title}: {shown} cannot be read: {reg.error}",
                                "Fix the file, then run `gravity-relay setup`."))
            continue
        if not reg.registered:
            if reg.found and not spec.opt_in:
                checks.append(warn(name, f"{reg.title} found, relay not registered",
                                    f"Run `gravity-relay setup --client {reg.client}`."))
            elif reg.found:
                checks.append(ok(name, f"{reg.title} found, relay not registered there (recommended: "
                                  "agy's own runs load that file)"))
            continue
        if not reg.ours:
            checks.append(warn(name, f"{reg.title}: 'antigravity' in {shown} runs {reg.command!r}, not Gravity Relay",
                                f"Rename or remove that entry, or `gravity-relay setup --client {reg.client} --force`."))
            continue
        registered += 1
        url = (reg.entry or {}).get("url") or (reg.entry or {}).get("httpUrl")
        if reg.command is None and isinstance(url, str):  # `setup --http`: reaches a running relay by URL
            checks.append(ok(name, f"{reg.title}: registered in {shown} → {url} (the HTTP relay must be running)"))
        elif not reg.command_exists and reg.command and not os.path.isabs(reg.command):
            # A bare name, as the README's `… -- uvx gravity-relay-mcp` lines register: a tool never installed here.
            provider = {"uvx": "uv", "pipx": "pipx"}.get(reg.command)
            get = f"Install {provider} (it provides {reg.command})" if provider else f"Install {reg.command}"
            checks.append(fail(name, f"{reg.title}: registered in {shown}, but its command {reg.command} is not on "
                                "PATH", f"{get}, or run `gravity-relay setup --client {reg.client}` to register "
                                "this installation's command instead."))
        elif not reg.command_exists:
            checks.append(fail(name, f"{reg.title}: registered in {shown}, but its command {reg.command} no longer "
                                "exists", f"Run `gravity-relay setup --client {reg.client}` again from the "
                                "installation you use."))
        elif spec.opt_in:
            checks.append(warn(name, f"{reg.title}: registered in {shown} → {reg.command}; {spec.warning}",
                                f"`gravity-relay setup --uninstall --client {reg.client}` removes it."))
        else:
            checks.append(ok(name, f"{reg.title}: registered in {shown} → {reg.command}"))
    if registered == 0:
        checks.append(warn("clients", "the relay is not registered with any MCP client",
                            "Run `gravity-relay setup` (or `--dry-run` first to see the edits)."))
    return checks


def check_shadowed(home: Path, cwd: Path | None) -> list[Check]:
    """Project- and local-scope entries named like setup's: where they apply, the client never sees setup's
    user-scope entry (a `claude mcp add` or `gemini mcp add` without `-s user` makes one)."""
    from relay.setup.clients import CLIENTS, shadowing_entries

    checks: list[Check] = []
    for shadow in shadowing_entries(home, cwd):
        shown = shadow.path.replace(str(home), "~", 1) if shadow.path.startswith(str(home)) else shadow.path
        runs = (f"another installation of the relay ({shadow.command})" if shadow.ours and shadow.command
                else "the relay" if shadow.ours else f"{shadow.command!r}, not Gravity Relay")
        checks.append(warn(f"shadow {shadow.client}",
                            f"{CLIENTS[shadow.client].title}: a {shadow.scope}-scope 'antigravity' entry in {shown} "
                            f"wins over the user-scope one in {shadow.project}; it runs {runs}",
                            f"Remove it so the user-scope entry applies there too: {shadow.fix}."))
    return checks


def check_client_headless(home: Path, environ: Mapping[str, str]) -> list[Check]:
    """Per registered client: what would stop a headless call (codex exec, claude -p, gemini -p)
    before it reaches the relay. Each problem is said with the exact fix."""
    from relay.setup.clients import (CLAUDE_ALLOW_RULES, GEMINI_AUTH_FIX, claude_allow_rules, gemini_auth_type,
                                     registrations, relay_settings)

    checks: list[Check] = []
    for reg in registrations(home, ("codex", "claude", "gemini")):
        if not reg.ours or reg.entry is None:
            continue
        entry = reg.entry
        name = f"headless {reg.client}"
        shown = reg.path.replace(str(home), "~", 1) if reg.path.startswith(str(home)) else reg.path
        setup_fix = f"Run `gravity-relay setup --client {reg.client}` from this shell"
        if reg.client == "codex":
            problems, keys = [], []
            if entry.get("required") is not True:
                problems.append("no `required = true` (codex exec may start the turn before the relay lists its tools)")
                keys.append("required = true")
            if entry.get("default_tools_approval_mode") != "approve" and not _codex_tools_approved(entry):
                problems.append("no tool approval (codex exec, approval policy never, refuses the relay's tools)")
                keys.append('default_tools_approval_mode = "approve"')
            if problems:
                checks.append(warn(name, f"Codex entry in {shown}: " + "; ".join(problems),
                                    f"{setup_fix}, or add {' and '.join(keys)} to [mcp_servers.antigravity] "
                                    "(fine to leave if you approve calls yourself)."))
            else:
                checks.append(ok(name, "Codex entry: required, tools approved; codex exec can call the relay"))
            exported = relay_settings(environ)
            env = entry.get("env") if isinstance(entry.get("env"), dict) else {}
            missing = [k for k in exported if k not in env]
            differ = [k for k in exported if k in env and str(env[k]) != exported[k]]
            if missing or differ:
                said = []
                if missing:
                    said.append(f"{', '.join(missing)} set in this shell but not in the entry's env")
                if differ:
                    said.append(f"{', '.join(differ)} different in the entry's env")
                checks.append(warn(f"{name} env", "Codex starts the relay with a minimal environment: "
                                    + "; ".join(said), f"{setup_fix} (it copies them into the entry's env), or edit "
                                    f"the env table of [mcp_servers.antigravity] in {shown}."))
        elif reg.client == "claude":
            allowed, error = claude_allow_rules(home)
            missing = [r for r in CLAUDE_ALLOW_RULES if r not in allowed]
            if error:
                checks.append(warn(name, f"~/.claude/settings.json cannot be read: {error}",
                                    "Fix the file, then run `gravity-relay setup --client claude`."))
            elif missing:
                checks.append(warn(name, f"no allow rule in ~/.claude/settings.json for {', '.join(missing)}: claude -p "
                                    "denies those calls (interactive sessions ask)",
                                    f"{setup_fix}, or add \"mcp__antigravity\" to permissions.allow "
                                    "(or pass --allowedTools mcp__antigravity)."))
            else:
                checks.append(ok(name, "Claude Code allows the relay's tools; claude -p can call them"))
        elif reg.client == "gemini":
            if entry.get("trust") is not True:
                checks.append(warn(name, f"Gemini entry in {shown} has no \"trust\": true: gemini -p does not offer "
                                    "the relay's tools without --yolo",
                                    f"{setup_fix}, or add \"trust\": true to mcpServers.antigravity. Gemini CLI also "
                                    "disables MCP servers in untrusted folders: trust your project folder."))
            else:
                checks.append(ok(name, "Gemini entry trusted; in a trusted folder gemini -p can call the relay"))
            chosen, error = gemini_auth_type(home)
            if chosen:
                checks.append(ok(f"{name} auth", f"Gemini CLI auth type: {chosen}"))
            elif not error:  # an unreadable file is already said by the client check
                checks.append(warn(f"{name} auth", "no auth type chosen in ~/.gemini/settings.json "
                                    "(security.auth.selectedType): gemini -p exits 41 \"Invalid auth method "
                                    "selected.\", even with GEMINI_API_KEY set", GEMINI_AUTH_FIX))
    return checks


def _codex_tools_approved(entry: Mapping) -> bool:
    """Every relay tool approved one by one ([mcp_servers.antigravity.tools.<name>] approval_mode)."""
    from relay.setup.clients import TOOL_NAMES

    tools = entry.get("tools")
    if not isinstance(tools, Mapping):
        return False
    return all(isinstance(tools.get(t), Mapping) and tools[t].get("approval_mode") == "approve" for t in TOOL_NAMES)
