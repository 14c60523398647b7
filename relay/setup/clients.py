"""``gravity-relay setup``: register the relay with the MCP clients on this machine.

Each client keeps its MCP servers in its own file and format:

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

The entry is made for headless use (``codex exec``, ``claude -p``, ``gemini -p``): Codex gets
``required = true`` and its tools pre-approved, Claude Code allow rules for the relay's tools in
``~/.claude/settings.json``, Gemini ``"trust": true``; ``client_approvals`` leaves approvals to the
client instead. Codex starts servers with a minimal environment, so the relay settings exported in
this shell (``AGY_BIN``, ``GRAVITY_RELAY_*``) are copied into its entry's ``env``.

Edits are structural and small: JSON files are decoded, the one entry set or removed and
written back in the file's own indentation; the Codex TOML's one table is edited by toml_edit.py.
A file is only ever replaced atomically, after a timestamped backup. An entry that is not the
relay's own (another program registered as ``antigravity``) is left alone unless ``force`` is given.

The readers (``registrations``) are shared with ``gravity-relay doctor``.
"""

from __future__ import annotations

import datetime as _dt
import difflib
import json
import os
import re
import shutil
import stat
import sys
import sysconfig
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from msgspec import Struct

from relay.core.places import on_windows
from relay.core.files import write_atomic
from relay.setup.toml_edit import SetupError, toml_remove_table, toml_set_table, toml_value, value_at

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
    "TOOL_NAMES",
    "CLAUDE_ALLOW_RULES",
    "APPROVAL_KEYS",
    "toml_set_table",
    "toml_remove_table",
    "toml_value",
    "HTTP_CLIENTS",
]

SERVER_NAME = "antigravity"
SCRIPT_NAME = "gravity-relay"
# The PyPI name, also a console script that serves with no arguments: `uvx gravity-relay-mcp`.
PACKAGE_NAME = "gravity-relay-mcp"
# Runners that fetch a package into a cache and run it from there; an entry naming the runner outlives the cache.
_RUNNER_ARGS = {"uvx": (), "pipx": ("run",)}

# Long tool calls are the point: a worker run may take an hour. Codex's own limits (codex-rs
# rmcp_client.rs: 30 s to start, 300 s per tool call since 0.169) and Gemini's (10 minutes per
# call) would cut real tasks short. The first start after an install takes ~2 s; 60 s is slack.
CODEX_STARTUP_TIMEOUT_SEC = 60
CODEX_TOOL_TIMEOUT_SEC = 7200
GEMINI_TIMEOUT_MS = 7_200_000

# The relay's tool names (relay/server.py; a test keeps the two in step).
TOOL_NAMES = ("antigravity_execute", "antigravity_continue", "antigravity_get_result", "antigravity_cancel")
# Claude Code names an MCP tool mcp__<server>__<tool>; its permission rules use that name.
CLAUDE_SETTINGS_FILE = ".claude/settings.json"
CLAUDE_ALLOW_RULES = tuple(f"mcp__{SERVER_NAME}__{tool}" for tool in TOOL_NAMES)
# Rules that already allow every tool of the server (Claude Code's whole-server forms).
CLAUDE_SERVER_RULES = (f"mcp__{SERVER_NAME}", f"mcp__{SERVER_NAME}__*")
# What an entry carries so a headless client runs the relay's tools without a prompt it cannot show.
APPROVAL_KEYS: dict[str, dict[str, Any]] = {
    "codex": {"default_tools_approval_mode": "approve"},
    "gemini": {"trust": True},
}
# Clients that start MCP servers without the user's shell environment (a desktop app started from the
# Dock or the Start menu has none of it).
MINIMAL_ENV_CLIENTS = ("codex", "claude-desktop")
# Set by the relay for its own workers: never a setting to carry.
_NOT_SETTINGS = ("GRAVITY_RELAY_WORKER_RUN",)


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

    def where(self) -> str:
        return self.files.get(sys.platform, self.file)

    def path(self, home: Path) -> Path:
        return home / self.where()

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
        ClientSpec(name="codex", title="Codex", file=".codex/config.toml", format="toml", markers=(".codex",)),
        ClientSpec(name="claude", title="Claude Code", file=".claude.json", format="json",
                   markers=(".claude", ".claude.json")),
        ClientSpec(name="cursor", title="Cursor", file=".cursor/mcp.json", format="json", markers=(".cursor",)),
        # ~/.gemini alone is no sign of Gemini CLI: agy keeps its own state under ~/.gemini/antigravity-cli.
        ClientSpec(name="gemini", title="Gemini CLI", file=".gemini/settings.json", format="json",
                   markers=(".gemini/settings.json", ".gemini/oauth_creds.json")),
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

Action = Literal["add", "update", "unchanged", "remove", "absent", "skip", "refuse"]


class Plan(Struct, kw_only=True):
    """What setup will do to one client's file (or did, once applied)."""

    client: str
    path: str
    action: Action
    message: str
    old_text: str | None = None  # None: the file does not exist
    new_text: str | None = None  # None: nothing to write
    backup: str | None = None
    warning: str = ""
    notes: list[str] = []  # what the entry does for headless use, said whenever it is written

    @property
    def writes(self) -> bool:
        return self.new_text is not None and self.new_text != self.old_text

    def diff(self) -> str:
        if not self.writes:
            return ""
        old = (self.old_text or "").splitlines(keepends=True)
        new = (self.new_text or "").splitlines(keepends=True)
        label = self.path
        lines = difflib.unified_diff(old, new, fromfile=f"{label} (now)" if self.old_text is not None else "/dev/null",
                                     tofile=f"{label} (after setup)")
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


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


# --------------------------------------------------------------------------- where things are


def home_dir(environ: Mapping[str, str] | None = None) -> Path:
    """HOME from the environment (tests point it at a temp dir), else the platform's home."""
    env = os.environ if environ is None else environ
    home = env.get("HOME") or (env.get("USERPROFILE") if on_windows() else None)
    return Path(home) if home else Path.home()


def _script_names() -> list[str]:
    return [f"{SCRIPT_NAME}.exe", f"{SCRIPT_NAME}-script.py", SCRIPT_NAME] if on_windows() else [SCRIPT_NAME]


def relay_command(environ: Mapping[str, str] | None = None) -> str:
    """The absolute path of the ``gravity-relay`` console script of the running installation.

    Never an interpreter path: the script keeps working when the relay is upgraded in place,
    and a pipx/uv shim on PATH (which survives reinstalls) is preferred when it leads to the
    same installation as the one running.
    """
    env = os.environ if environ is None else environ
    dirs: list[Path] = []
    for scheme in (None, "nt_user" if on_windows() else "posix_user"):
        try:
            got = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
        except KeyError:
            got = None
        if got:
            dirs.append(Path(got))
    dirs.append(Path(sys.executable).parent)
    beside = next((d / n for d in dirs for n in _script_names() if (d / n).is_file()), None)
    on_path = shutil.which(SCRIPT_NAME, path=env.get("PATH"))
    if on_path:
        on_path = os.path.abspath(on_path)
    if beside is not None:
        if on_path and os.path.realpath(on_path) == os.path.realpath(beside):
            return on_path
        return str(beside.absolute())
    if on_path:
        return on_path
    raise SetupError(
        f"the {SCRIPT_NAME} command was not found next to {sys.executable} nor on PATH; install the package "
        f"(pipx install gravity-relay-mcp, or pip install into a venv), or pass --command /path/to/{SCRIPT_NAME}"
    )


def ephemeral_runner(prefix: str | None = None, environ: Mapping[str, str] | None = None) -> str | None:
    """``"uvx"`` or ``"pipx"`` when the running installation is a throwaway environment in that runner's
    cache (``uvx gravity-relay-mcp setup``, ``pipx run …``), else None.

    A path into such a cache works today and vanishes at the next ``uv cache clean`` or pipx's
    expiry (14 days), so setup must not register it."""
    env = os.environ if environ is None else environ
    where = Path(os.path.abspath(prefix or sys.prefix))
    parts = [p.lower() for p in where.parts]
    uv_caches = [env.get("UV_CACHE_DIR"), env.get("XDG_CACHE_HOME") and os.path.join(env["XDG_CACHE_HOME"], "uv")]
    home = env.get("HOME") or env.get("USERPROFILE")
    if home:
        uv_caches.append(os.path.join(home, ".cache", "uv"))
    if env.get("LOCALAPPDATA"):
        uv_caches.append(os.path.join(env["LOCALAPPDATA"], "uv", "cache"))
    if any(c and _is_within(where, Path(c)) for c in uv_caches) or (
            "uv" in parts and any(re.fullmatch(r"(archive|environments|builds)-v\d+", p) for p in parts)):
        return "uvx"
    pipx_caches = [env.get("PIPX_CACHE_DIR"), env.get("PIPX_HOME") and os.path.join(env["PIPX_HOME"], ".cache")]
    if home:
        pipx_caches += [os.path.join(home, ".cache", "pipx"), os.path.join(home, ".local", "pipx", ".cache"),
                        os.path.join(home, "Library", "Caches", "pipx")]
    if any(c and _is_within(where, Path(c)) for c in pipx_caches) or any(
            a == "pipx" and b in (".cache", "cache") for a, b in zip(parts, parts[1:])):
        return "pipx"
    return None


def _is_within(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(os.path.abspath(folder))
    except ValueError:
        return False
    return True


def relay_launch(environ: Mapping[str, str] | None = None, prefix: str | None = None) -> tuple[str, list[str]]:
    """(command, args) that setup registers: this installation's script with ``serve``, or, when the relay
    runs from a runner's cache (``ephemeral_runner``), the runner itself: ``uvx gravity-relay-mcp``."""
    env = os.environ if environ is None else environ
    runner = ephemeral_runner(prefix, env)
    if runner is None:
        return relay_command(env), ["serve"]
    found = shutil.which(runner, path=env.get("PATH"))
    return (os.path.abspath(found) if found else runner), [*_RUNNER_ARGS[runner], PACKAGE_NAME]


def is_relay_entry(entry: Any) -> bool:
    """True when a server entry runs Gravity Relay (its console script, or ``python -m relay``)."""
    if not isinstance(entry, dict):
        return False
    if _is_relay_url_entry(entry):
        return True
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    name = re.split(r"[\\/]", command)[-1].lower()
    for suffix in (".exe", ".cmd", ".bat"):
        name = name.removesuffix(suffix)
    if name in (SCRIPT_NAME, PACKAGE_NAME):
        return True
    args = entry.get("args")
    if name in ("uvx", "uv", "pipx") and isinstance(args, list):
        # `uvx gravity-relay-mcp`, `uvx gravity-relay-mcp@0.2.0`, `uvx --from gravity-relay-mcp gravity-relay serve`,
        # `uv tool run …`, `pipx run gravity-relay-mcp`
        return any(isinstance(a, str) and re.fullmatch(re.escape(PACKAGE_NAME) + r"(\[[^\]]*\])?([@=<>!~].*)?", a)
                   for a in args)
    if isinstance(args, list) and len(args) >= 2:
        for a, b in zip(args, args[1:]):
            if a == "-m" and b == "relay":
                return True
    return False


def relay_settings(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The relay's settings exported in this environment: ``AGY_BIN`` and every ``GRAVITY_RELAY_*``."""
    env = os.environ if environ is None else environ
    return {k: v for k, v in sorted(env.items())
            if (k == "AGY_BIN" or k.startswith("GRAVITY_RELAY_")) and k not in _NOT_SETTINGS}


# The keys that say how a client reaches a server (by command or by URL); switching form drops the other's.
_TRANSPORT_KEYS = frozenset({"type", "command", "args", "env", "url", "httpUrl", "headers", "http_headers"})
# URL entries (`setup --http`): the key names each client reads, checked in their sources or docs:
# Codex codex-rs/core/src/config/types.rs (url + http_headers; bearer_token_env_var is the alternative,
# a plain bearer_token is refused), Claude Code type "http" + url + headers, Gemini CLI httpUrl
# (its "url" means SSE) + headers, Cursor url + headers.
HTTP_CLIENTS = ("codex", "claude", "gemini", "cursor")


def _is_relay_url_entry(entry: Mapping[str, Any]) -> bool:
    """A URL entry `setup --http` wrote: a loopback .../mcp URL with a bearer Authorization header."""
    from urllib.parse import urlsplit

    url = entry.get("url") or entry.get("httpUrl")
    headers = entry.get("http_headers") or entry.get("headers")
    if not isinstance(url, str) or not isinstance(headers, dict):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return (parts.hostname in ("127.0.0.1", "localhost", "::1") and parts.path.rstrip("/") == "/mcp"
            and str(headers.get("Authorization", "")).startswith("Bearer "))


def _url_entry(client: str, url: str, token: str) -> dict[str, Any]:
    bearer = {"Authorization": f"Bearer {token}"}
    if client == "codex":
        return {"url": url, "http_headers": bearer}
    if client == "claude":
        return {"type": "http", "url": url, "headers": bearer}
    if client == "gemini":
        return {"httpUrl": url, "headers": bearer}
    if client == "cursor":
        return {"url": url, "headers": bearer}
    raise SetupError(f"registering {client} by URL is not supported yet (only {', '.join(HTTP_CLIENTS)}); "
                     "register it for stdio (setup without --http)")


# Clients that cut a tool call at a fixed, short limit (about 60 s) and take no per-server timeout
# from setup: their relay answers RUNNING before that (issue 9), and the leader waits with get_result.
SHORT_LIMIT_WAIT_SECONDS = {"cursor": "45", "windsurf": "45"}


def desired_entry(client: str, command: str, env: Mapping[str, str] | None = None, *,
                  approvals: bool = True, http: tuple[str, str] | None = None,
                  args: Iterable[str] | None = None) -> dict[str, Any]:
    """The relay's server entry in one client's own format, ready for headless use.

    ``approvals`` False leaves tool approval to the client (no pre-approval keys). ``http``
    (url, token): the entry reaches a running `serve --http` relay by URL instead of starting one. ``args``: the
    command's arguments (default ``serve``; ``uvx`` takes the package's name)."""
    entry: dict[str, Any] = {}
    if http is not None:
        entry.update(_url_entry(client, *http))
    else:
        if client == "claude":
            entry["type"] = "stdio"
        entry["command"] = command
        entry["args"] = ["serve"] if args is None else list(args)
    if client == "codex":
        entry["required"] = True  # codex exec waits for the relay instead of starting the turn without its tools
        entry["startup_timeout_sec"] = CODEX_STARTUP_TIMEOUT_SEC
        entry["tool_timeout_sec"] = CODEX_TOOL_TIMEOUT_SEC
    if client == "gemini":
        entry["timeout"] = GEMINI_TIMEOUT_MS
    if approvals:
        entry.update(APPROVAL_KEYS.get(client, {}))
    if http is None and client in SHORT_LIMIT_WAIT_SECONDS:
        env = {"GRAVITY_RELAY_WAIT_SECONDS": SHORT_LIMIT_WAIT_SECONDS[client], **(env or {})}
    if env and http is None:  # a URL entry starts no process: the relay's env is the running relay's
        entry["env"] = dict(env)
    return entry


def _merged_entry(client: str, existing: Any, command: str, env: Mapping[str, str] | None,
                  approvals: bool = True, http: tuple[str, str] | None = None,
                  args: Iterable[str] | None = None) -> dict[str, Any]:
    """Our entry over the relay's existing one: keys a user added to it (and its env) are kept."""
    wanted = desired_entry(client, command, env, approvals=approvals, http=http, args=args)
    if not is_relay_entry(existing):
        return wanted
    merged = {**existing, **wanted}
    for key in _TRANSPORT_KEYS - set(wanted):  # stdio <-> URL: the other form's keys would confuse the client
        merged.pop(key, None)
    if http is not None:
        return merged
    if not approvals:
        for key in APPROVAL_KEYS.get(client, {}):
            merged.pop(key, None)
    old_env = existing.get("env")
    if isinstance(old_env, dict) and old_env:
        merged["env"] = {**old_env, **(env or {})}
    if "env" in merged:
        merged["env"] = merged.pop("env")  # the env table stays last
    return merged


def _headless_notes(client: str, approvals: bool, carried: list[str]) -> list[str]:
    notes = []
    if client == "codex":
        notes.append("required = true: codex exec waits for the relay's tools instead of starting without them")
        if approvals:
            notes.append('default_tools_approval_mode = "approve": codex exec (approval policy never) runs the '
                         "relay's tools instead of refusing them")
        else:
            notes.append("approvals left to Codex: codex exec refuses the relay's tools until they are approved")
        if carried:
            notes.append(f"env: {', '.join(carried)} copied from this shell (Codex starts MCP servers with a "
                         "minimal environment)")
    if client == "gemini":
        if approvals:
            notes.append('"trust": true: gemini -p runs the relay\'s tools without a confirmation')
        else:
            notes.append("approvals left to Gemini CLI: gemini -p does not offer the relay's tools without "
                         '"trust": true or --yolo')
        notes.append("Gemini CLI disables MCP servers in untrusted folders: trust your project folder")
    return notes


def found_clients(home: Path) -> list[str]:
    return [name for name, spec in CLIENTS.items() if spec.found(home)]


# --------------------------------------------------------------------------- JSON


def _json_indent(text: str) -> str | int:
    for line in text.splitlines()[1:]:
        match = re.match(r"^([ \t]+)\S", line)
        if match:
            return match[1] if "\t" in match[1] else len(match[1])
    return 2


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            # json.loads keeps the last one: a rewrite would silently drop the other (issue 22)
            raise SetupError(f"it has the key {key!r} twice in one object (a rewrite would keep only one); "
                             "fix it first")
        seen[key] = value
    return seen


def _load_json(text: str | None) -> dict[str, Any]:
    if text is None or not text.strip():
        return {}
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise SetupError(
            f"it is not plain JSON ({exc.msg} at line {exc.lineno}; comments are not supported); "
            "add the entry by hand"
        ) from None
    if not isinstance(doc, dict):
        raise SetupError("its top level is not a JSON object; add the entry by hand")
    servers = doc.get("mcpServers")
    if servers is not None and not isinstance(servers, dict):
        raise SetupError("its mcpServers is not an object; fix it first")
    return doc


def _dump_json(doc: Mapping[str, Any], like: str | None) -> str:
    indent = _json_indent(like) if like and like.strip() else 2
    text = json.dumps(doc, indent=indent, ensure_ascii=False)
    text += "\n" if like is None or like.endswith("\n") or not like.strip() else ""
    return text.replace("\n", "\r\n") if like and "\r\n" in like else text  # CRLF files stay CRLF


# --------------------------------------------------------------------------- plans


MAX_CONFIG_BYTES = 4 * 1024 * 1024  # far above any client's config; a bigger file is not edited


def _read(path: Path) -> str | None:
    """The config's text, None when there is none; SetupError saying why it cannot be edited. A FIFO is never
    waited on, a huge file never read whole (issue 22: hostile config files)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise SetupError("it is a directory") from None
    except OSError as exc:
        raise SetupError(f"it cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SetupError("it is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise SetupError("it is not a regular file (a FIFO, a socket or a device)")
        if info.st_size > MAX_CONFIG_BYTES:
            raise SetupError(f"it is {info.st_size:,} bytes, larger than any client config setup edits "
                             f"({MAX_CONFIG_BYTES:,}); add the entry by hand")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8-sig") if data.startswith(b"\xef\xbb\xbf") else data.decode("utf-8")
    except UnicodeDecodeError:
        raise SetupError("it is not UTF-8 text") from None


def _current_entry(spec: ClientSpec, text: str | None) -> Any:
    if text is None:
        return None
    if spec.format == "toml":
        try:
            return value_at(tomllib.loads(text), ("mcp_servers", SERVER_NAME))
        except tomllib.TOMLDecodeError as exc:
            raise SetupError(f"it is not valid TOML ({exc}); fix it first") from None
    return (_load_json(text).get("mcpServers") or {}).get(SERVER_NAME)


def _entry_label(spec: ClientSpec) -> str:
    return f"[mcp_servers.{SERVER_NAME}]" if spec.format == "toml" else f"mcpServers.{SERVER_NAME}"


def _refused(plan: Plan, exc: SetupError) -> Plan:
    plan.action, plan.message = "refuse", f"cannot edit {plan.path}: {exc}"
    return plan


def plan_install(client: str, home: Path, command: str, *, env: Mapping[str, str] | None = None,
                 force: bool = False, approvals: bool = True, exported: Mapping[str, str] | None = None,
                 http: tuple[str, str] | None = None, args: Iterable[str] | None = None) -> Plan:
    """``exported``: the relay settings of this shell, carried into the entry of clients that do not
    pass the shell's environment to their servers (Codex); ``env`` (from --env) wins over them."""
    spec = CLIENTS[client]
    path = spec.path(home)
    plan = Plan(client=client, path=str(path), action="unchanged", message="", warning=spec.warning)
    try:
        old = _read(path)
        plan.old_text = old
        current = _current_entry(spec, old)
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
        entry = _merged_entry(client, current, command, full_env, approvals, http, args)
        plan.notes = _headless_notes(client, approvals, carried)
        if current == entry:
            plan.action = "unchanged"
            plan.message = "already registered; nothing to change"
            return plan
        if spec.format == "toml":
            new = toml_set_table(old or "", ("mcp_servers", SERVER_NAME), entry)
        else:
            doc = _load_json(old)
            servers = doc.get("mcpServers")
            if servers is None:
                doc["mcpServers"] = servers = {}
            servers[SERVER_NAME] = entry
            new = _dump_json(doc, old)
    except SetupError as exc:
        return _refused(plan, exc)
    plan.new_text = new
    plan.action = "add" if current is None else "update"
    if current is None:
        plan.message = _entry_label(spec)
    else:
        changed = sorted(k for k in set(entry) | set(current) if entry.get(k) != current.get(k))
        plan.message = f"{_entry_label(spec)}: {', '.join(changed)} changed"
    return plan


def plan_uninstall(client: str, home: Path, *, force: bool = False) -> Plan:
    spec = CLIENTS[client]
    path = spec.path(home)
    plan = Plan(client=client, path=str(path), action="absent", message="not registered; nothing to remove")
    try:
        old = _read(path)
        plan.old_text = old
        current = _current_entry(spec, old)
        if current is None:
            return plan
        if not is_relay_entry(current) and not force:
            plan.action = "refuse"
            plan.message = f"'{SERVER_NAME}' there is not Gravity Relay; left alone (--force removes it anyway)"
            return plan
        if spec.format == "toml":
            new = toml_remove_table(old or "", ("mcp_servers", SERVER_NAME))
        else:
            doc = _load_json(old)
            doc["mcpServers"].pop(SERVER_NAME)
            new = _dump_json(doc, old)
    except SetupError as exc:
        return _refused(plan, exc)
    plan.new_text = new
    plan.action = "remove"
    plan.message = _entry_label(spec)
    return plan


def claude_allow_rules(home: Path) -> tuple[list[str], str | None]:
    """The relay's tools that Claude Code's user settings allow, and why not when unreadable."""
    path = home / CLAUDE_SETTINGS_FILE
    try:
        allow = _claude_allow_list(_load_json(_read(path)))
    except SetupError as exc:
        return [], str(exc)
    if any(rule in allow for rule in CLAUDE_SERVER_RULES):
        return list(CLAUDE_ALLOW_RULES), None
    return [rule for rule in CLAUDE_ALLOW_RULES if rule in allow], None


GEMINI_SETTINGS_FILE = ".gemini/settings.json"
# What `gemini -p` needs besides the entry: an auth type the user chose (else it exits 41, "Invalid auth
# method selected.", even with GEMINI_API_KEY set). Setup never picks one: it is the user's sign-in.
GEMINI_AUTH_FIX = ('Run `gemini` once and choose how to sign in, or add "security": {"auth": {"selectedType": '
                   '"gemini-api-key"}} (or "oauth-personal", "vertex-ai") to ~/.gemini/settings.json.')


def gemini_auth_type(home: Path) -> tuple[str | None, str | None]:
    """The auth type Gemini CLI's user settings select (``security.auth.selectedType``, or the older
    top-level ``selectedAuthType`` it migrates), and why not when the file cannot be read."""
    try:
        doc = _load_json(_read(home / GEMINI_SETTINGS_FILE))
    except SetupError as exc:
        return None, str(exc)
    security = doc.get("security")
    auth = security.get("auth") if isinstance(security, dict) else None
    chosen = auth.get("selectedType") if isinstance(auth, dict) else None
    if not chosen:
        chosen = doc.get("selectedAuthType")
    return (chosen if isinstance(chosen, str) and chosen.strip() else None), None


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
        old = _read(path)
        plan.old_text = old
        doc = _load_json(old)
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
        plan.new_text = _dump_json(doc, old)
    except SetupError as exc:
        return _refused(plan, exc)
    plan.action = ("add" if old is None else "update") if allow else "remove"
    return plan


def _backup_name(path: Path) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.bak-{stamp}")
    n = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.bak-{stamp}-{n}")
        n += 1
    return candidate


def unwritable(path: Path) -> str | None:
    """Why setup must not replace the file at ``path`` (None: it may). Checked before any write, and for a dry
    run, so the user hears what was not done and why (issue 22): a symbolic link (replacing it would cut the
    link a dotfile manager made), a file its owner made read-only."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be examined ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return (f"it is a symbolic link (to {os.readlink(path)}); setup does not replace links: add the entry "
                "to the file it points to by hand")
    if os.name != "nt" and stat.S_ISREG(info.st_mode) and not info.st_mode & stat.S_IWUSR:
        return (f"it is read-only (mode {stat.S_IMODE(info.st_mode):04o}); setup leaves it so: make it writable, "
                "or add the entry by hand")
    return None


def apply_plan(plan: Plan, *, private: bool = False) -> Plan:
    """Write a plan's new text: backup first, then an atomic replace keeping the file's mode (and its byte
    order mark). ``private``: the text holds a secret (the HTTP token): the file and its backup are made
    owner-only whatever their mode was.

    Refuses when the file changed since the plan was made (a client rewrote it meanwhile), and when
    ``unwritable`` says so.
    """
    if not plan.writes:
        return plan
    path = Path(plan.path)
    why = unwritable(path)
    if why:
        raise SetupError(why)
    if _read(path) != plan.old_text:
        raise SetupError(f"{path} changed while setup was running; run setup again")
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = 0o600
    data = (plan.new_text or "").encode("utf-8")
    if plan.old_text is not None:
        with open(path, "rb") as fh:
            if fh.read(3) == b"\xef\xbb\xbf":
                data = b"\xef\xbb\xbf" + data  # the file's BOM stays: the client wrote it so
        backup = _backup_name(path)
        shutil.copy2(path, backup)
        plan.backup = str(backup)
        mode = path.stat().st_mode & 0o7777
        if private and mode & 0o077:
            os.chmod(backup, mode & 0o700)
            plan.warning = "; ".join(filter(None, [plan.warning, f"made owner-only (was {mode:04o}): it now holds "
                                                   "the relay's token"]))
    if private:
        mode &= 0o700
    write_atomic(path, data, mode)
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
            plan = Plan(client=name, path=str(path), action="skip",
                        message=f"not found (no {' or '.join('~/' + m for m in spec.markers)}); skipped")
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


# --------------------------------------------------------------------------- readers (doctor)


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
            entry = _current_entry(spec, _read(path))
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
        claude = _load_json(_read(home / ".claude.json"))
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
                entry = (_load_json(_read(file)).get("mcpServers") or {}).get(SERVER_NAME)
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

