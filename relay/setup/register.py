"""``gravity-relay setup``: plan each client's edit (install or uninstall) and, unless a dry run, apply it.

An entry that is not the relay's own (another program registered as ``antigravity``) is left alone unless
``force`` is given.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

from relay.setup.claude_rules import plan_claude_rules
from relay.setup.client_table import CLIENTS, MINIMAL_ENV_CLIENTS, SERVER_NAME
from relay.setup.config_files import (Plan, apply_plan, current_entry, dump_json, entry_label, load_json, read_config,
                                      refused, unwritable)
from relay.setup.entries import HTTP_CLIENTS, headless_notes, is_relay_entry, merged_entry
from relay.setup.launch import relay_launch
from relay.setup.toml_edit import SetupError, toml_remove_table, toml_set_table

__all__ = ["found_clients", "plan_install", "plan_uninstall", "setup"]

def found_clients(home: Path) -> list[str]:
    return [name for name, spec in CLIENTS.items() if spec.found(home)]


def plan_install(client: str, home: Path, command: str, *, env: Mapping[str, str] | None = None,
                 force: bool = False, approvals: bool = True, exported: Mapping[str, str] | None = None,
                 http: tuple[str, str] | None = None, args: Iterable[str] | None = None) -> Plan:
    """``exported``: the relay settings of this shell, carried into the entry of clients that do not
    pass the shell's environment to their servers (Codex); ``env`` (from --env) wins over them."""
    spec = CLIENTS[client]
    path = spec.path(home)
    plan = Plan(client=client, path=str(path), action="unchanged", message="", warning=spec.warning)
    try:
        old = read_config(path)
        plan.old_text = old
        current = current_entry(spec, old)
        if current is not None and not is_relay_entry(current) and not force:
            shown = (current.get("command") or current.get("url") or current.get("httpUrl")) \
                if isinstance(current, dict) else current
            plan.action = "refuse"
            plan.message = (f"'{SERVER_NAME}' there runs {shown!r}, not Gravity Relay; left alone "
                            "(pass --force to replace it; a backup is kept)")
            return plan
        carried = sorted(k for k in (exported or {}) if k not in (env or {})) \
            if client in MINIMAL_ENV_CLIENTS and http is None else []
        full_env = {**{k: (exported or {})[k] for k in carried}, **(env or {})}
        entry = merged_entry(client, current, command, full_env, approvals, http, args)
        plan.notes = headless_notes(client, approvals, carried)
        if current == entry:
            plan.action = "unchanged"
            plan.message = "already registered; nothing to change"
            return plan
        if spec.format == "toml":
            new = toml_set_table(old or "", ("mcp_servers", SERVER_NAME), entry)
        else:
            doc = load_json(old)
            servers = doc.get("mcpServers")
            if servers is None:
                doc["mcpServers"] = servers = {}
            servers[SERVER_NAME] = entry
            new = dump_json(doc, old)
    except SetupError as exc:
        return refused(plan, exc)
    plan.new_text = new
    plan.action = "add" if current is None else "update"
    if current is None:
        plan.message = entry_label(spec)
    else:
        changed = sorted(k for k in set(entry) | set(current) if entry.get(k) != current.get(k))
        plan.message = f"{entry_label(spec)}: {', '.join(changed)} changed"
    return plan


def plan_uninstall(client: str, home: Path, *, force: bool = False) -> Plan:
    spec = CLIENTS[client]
    path = spec.path(home)
    plan = Plan(client=client, path=str(path), action="absent", message="not registered; nothing to remove")
    try:
        old = read_config(path)
        plan.old_text = old
        current = current_entry(spec, old)
        if current is None:
            return plan
        if not is_relay_entry(current) and not force:
            plan.action = "refuse"
            plan.message = f"'{SERVER_NAME}' there is not Gravity Relay; left alone (--force removes it anyway)"
            return plan
        if spec.format == "toml":
            new = toml_remove_table(old or "", ("mcp_servers", SERVER_NAME))
        else:
            doc = load_json(old)
            doc["mcpServers"].pop(SERVER_NAME)
            new = dump_json(doc, old)
    except SetupError as exc:
        return refused(plan, exc)
    plan.new_text = new
    plan.action = "remove"
    plan.message = entry_label(spec)
    return plan


def setup(home: Path, clients: Iterable[str] | None = None, *, command: str | None = None,
          env: Mapping[str, str] | None = None, uninstall: bool = False, dry_run: bool = False,
          force: bool = False, client_approvals: bool = False,
          exported: Mapping[str, str] | None = None, http: tuple[str, str] | None = None,
          args: Iterable[str] | None = None) -> list[Plan]:
    """Plan (and unless ``dry_run``, apply) the registration for each client.

    Without ``clients``: install goes to every client found here except the opt-in ones
    (Antigravity), which are reported and skipped; uninstall looks at every client's file.
    ``client_approvals`` leaves tool approval to each client (no pre-approval keys, no Claude
    allow rules, and removes those setup wrote before). ``exported``: the relay settings of
    this shell (``relay_settings()``), copied into Codex's entry. ``args``: the command's arguments (default
    ``serve``); without a command, ``relay_launch()`` chooses both.
    """
    named = list(dict.fromkeys(clients or []))
    for name in named:
        if name not in CLIENTS:
            raise SetupError(f"unknown client {name!r}; known: {', '.join(CLIENTS)}")
    if not uninstall and command is None and http is None:
        command, args = relay_launch()
    plans: list[Plan] = []
    for name, spec in CLIENTS.items():
        if named and name not in named:
            continue
        path = spec.path(home)
        extra: list[Plan] = []
        if uninstall:
            plan = plan_uninstall(name, home, force=force)
            if name == "claude":
                extra.append(plan_claude_rules(home, allow=False))
        elif not named and not spec.found(home):
            installed = shutil.which(spec.program) if spec.program else None
            # Installed but never run: it makes its folder at its first start; registering now is the person's call.
            also = (f"; `{spec.program}` is on PATH ({installed}): run it once, or `--client {name}` registers it now"
                    if installed else "")
            plan = Plan(client=name, path=str(path), action="skip",
                        message=f"not found (no {' or '.join('~/' + m for m in spec.signs())}){also}; skipped")
        elif http is not None and name not in HTTP_CLIENTS:
            plan = Plan(client=name, path=str(path), action="skip" if not named else "refuse",
                        message=f"registering by URL is not supported for it yet (only {', '.join(HTTP_CLIENTS)}); "
                        "run setup without --http for it")
        elif not named and spec.opt_in:
            plan = Plan(client=name, path=str(path), action="skip", warning=spec.warning,
                        message=f"found, not registered by default; `--client {name}` registers it anyway")
        else:
            plan = plan_install(name, home, command or "", env=env, force=force, approvals=not client_approvals,
                                exported=exported, http=http, args=args)
            if name == "claude" and plan.action != "refuse":
                extra.append(plan_claude_rules(home, allow=not client_approvals))
        for each in (plan, *extra):
            why = unwritable(Path(each.path)) if each.writes else None
            if why:
                each.action, each.message = "refuse", f"cannot edit {each.path}: {why}"
                each.new_text = None  # nothing is written, nor shown as if it would be
            elif not dry_run and each.writes:
                try:
                    apply_plan(each, private=http is not None)
                except (SetupError, OSError) as exc:
                    each.action = "refuse"
                    each.message = f"cannot write {each.path}: {exc}"
            plans.append(each)
    return plans
