"""``gravity-relay setup``: register the relay with the MCP clients found here (``relay.setup``), and say
what was done, file by file (or, with ``--dry-run``, what would be, with the diff)."""

from __future__ import annotations

import argparse
import os
import sys

from relay.doors.cli_settings import quiet, settings_or_none

__all__ = ["setup_command", "DEFAULT_HTTP_PORT"]

DEFAULT_HTTP_PORT = "8765"  # `serve --http` and `setup --http` agree on it without being told

_VERBS = {
    "add": ("added", "would add"),
    "update": ("updated", "would update"),
    "remove": ("removed", "would remove"),
    "unchanged": ("unchanged", "unchanged"),
    "absent": ("absent", "absent"),
    "skip": ("skipped", "skipped"),
    "refuse": ("REFUSED", "REFUSED"),
}


def setup_command(args: argparse.Namespace) -> int:
    from pathlib import Path

    import shlex

    from relay.core.settings import RELAY_OWN_ENV
    from relay.setup.clients import SetupError, home_dir, relay_launch, relay_settings, setup

    quiet()
    env: dict[str, str] = {}
    for item in args.env or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            print(f"gravity-relay setup: --env wants KEY=VALUE, got {item!r}", file=sys.stderr)
            return 2
        if key.strip() in RELAY_OWN_ENV:
            print(f"gravity-relay setup: --env {key.strip()} is not a setting: the relay sets it on its own processes "
                  "(to know them again); leave it out", file=sys.stderr)
            return 2
        env[key.strip()] = value
    home = home_dir()
    http = None
    if args.http is not None and not args.uninstall:
        http = _http_target(args.http)
        if http is None:
            return 2
    try:
        command, command_args = None, None
        if not (args.uninstall or http):
            # --command "uvx gravity-relay-mcp" names a command line; a lone path gets `serve`.
            given = shlex.split(args.command, posix=os.name != "nt") if args.command else []
            command, command_args = (given[0], given[1:] or ["serve"]) if given else relay_launch()
        plans = setup(home, args.client, command=command, env=env, uninstall=args.uninstall,
                      dry_run=args.dry_run, force=args.force, client_approvals=args.client_approvals,
                      exported=relay_settings(), http=http, args=command_args)
    except SetupError as exc:
        print(f"gravity-relay setup: {exc}", file=sys.stderr)
        return 1
    if http is not None:
        from relay.doors.http_token import mask

        # The token never reaches the screen: a dry run's diff, --json and notes show it masked.
        hidden = mask(http[1])
        for p in plans:
            for field in ("old_text", "new_text"):
                if args.dry_run and getattr(p, field):
                    setattr(p, field, getattr(p, field).replace(http[1], hidden))
    if args.json:
        import msgspec

        rows = [{"client": p.client, "path": p.path, "action": p.action, "message": p.message,
                 "changed": p.writes, "backup": p.backup, "warning": p.warning or None, "notes": p.notes,
                 "diff": p.diff() if args.dry_run and p.writes else None} for p in plans]
        doc = {"dry_run": args.dry_run, "uninstall": args.uninstall, "command": command, "args": command_args,
               "clients": rows}
        sys.stdout.write(msgspec.json.encode(doc).decode() + "\n")
        return 1 if any(p.action == "refuse" for p in plans) else 0

    width = max(len(p.client) for p in plans) if plans else 8
    for p in plans:
        verb = _VERBS[p.action][1 if args.dry_run else 0]
        where = p.path.replace(str(home), "~", 1) if p.path.startswith(str(home)) else p.path
        line = f"{p.client:<{width}}  {verb:<12} {where}: {p.message}"
        if p.backup:
            line += f" (backup: {Path(p.backup).name})"
        print(line)
        if p.warning and p.action in ("add", "update", "skip", "unchanged"):
            print(f"{'':<{width}}  {'':<12} note: {p.warning}")
        if p.action in ("add", "update"):
            for note in p.notes:
                print(f"{'':<{width}}  {'':<12} headless: {note}")
        if args.dry_run and p.writes:
            sys.stdout.write(p.diff())
    changed = [p for p in plans if p.writes]
    absent = [p for p in plans if p.action == "skip" and p.message.startswith("not found")]
    if not args.uninstall and plans and len(absent) == len(plans):
        # Issue 22: "already registered wherever a client was found" read as if something had been checked.
        looked = "; ".join(f"{p.client}: {p.message.split('(', 1)[-1].split(')', 1)[0]}" for p in absent)
        installed = [p.client for p in absent if "is on PATH" in p.message]
        then = (f"Installed but never run here: {', '.join(installed)}; run it once and setup again, or "
                f"`gravity-relay setup {' '.join('--client ' + c for c in installed)}` registers it now."
                if installed else "Install a client, or name one with --client to register it anyway.")
        print(f"No client found, so nothing was registered. Looked for {looked} (under {home}). {then}")
    elif not changed and not any(p.action == "refuse" for p in plans):
        print("Nothing to change" + (": no registration found to remove." if args.uninstall else
                                     ": the relay is already registered wherever a client was found."))
    elif args.dry_run and changed:
        print(f"Dry run: {len(changed)} file(s) would change; nothing was written.")
    if http is not None and changed:
        print(f"{'Would register' if args.dry_run else 'Registered'}: {http[0]} with the bearer token from "
              f"the data dir's http-token (start it with `gravity-relay serve --http`)")
    if command and not args.uninstall and changed:
        line = shlex.join([command, *(command_args or [])])
        if args.dry_run:
            print(f"Would register: {line}")
        else:
            print(f"Registered command: {line} (restart the clients to pick it up)")
    return 1 if any(p.action == "refuse" for p in plans) else 0


def _http_target(url: str) -> tuple[str, str] | None:
    """(the relay's URL, its token) for `setup --http`; the token is made now if the relay never ran."""
    from urllib.parse import urlsplit

    from relay.doors.http_state import read_live_state
    from relay.doors.http_token import TokenFileError, load_or_create_token

    settings = settings_or_none()
    if settings is None:
        return None
    if not url:  # --http alone: the running relay's URL, else the default port's
        state, _why = read_live_state(settings.data_dir)
        url = state.url if state else f"http://127.0.0.1:{DEFAULT_HTTP_PORT}/mcp"
    elif "://" not in url:
        url = f"http://{url if ':' in url else '127.0.0.1:' + url}/mcp"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or not parts.port:
        print(f"gravity-relay setup: --http {url!r}: give the relay's URL, e.g. http://127.0.0.1:8765/mcp, "
              "or its port", file=sys.stderr)
        return None
    try:
        return url, load_or_create_token(settings.data_dir)
    except TokenFileError as exc:
        print(f"gravity-relay setup: {exc}", file=sys.stderr)
        return None
