"""``gravity-relay setup``: register the relay with the MCP clients on this machine.

Each client keeps its MCP servers in its own file and format:

    codex        ~/.codex/config.toml                 [mcp_servers.antigravity]
    claude       ~/.claude.json                       mcpServers.antigravity (type stdio)
    cursor       ~/.cursor/mcp.json                   mcpServers.antigravity
    gemini       ~/.gemini/settings.json              mcpServers.antigravity
    antigravity  ~/.gemini/config/mcp_config.json     mcpServers.antigravity  (opt-in: agy's own
                 headless runs load this file, so every worker would see the relay)
    windsurf     ~/.codeium/windsurf/mcp_config.json  mcpServers.antigravity

Edits are structural and small: JSON files are decoded, the one entry set or removed and
written back in the file's own indentation; the Codex TOML is edited at table level (only the
``[mcp_servers.antigravity]`` table's text is replaced, every other byte kept, comments
included) and the result is re-parsed with ``tomllib`` and compared with what was intended
before anything is written. A file is only ever replaced atomically, after a timestamped
backup. An entry that is not the relay's own (another program registered as ``antigravity``)
is left alone unless ``force`` is given.

The readers (``registrations``) are shared with ``gravity-relay doctor``.
"""

from __future__ import annotations

import copy
import datetime as _dt
import difflib
import json
import math
import os
import re
import shutil
import sys
import sysconfig
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from msgspec import Struct

from .store import write_atomic

__all__ = [
    "SERVER_NAME",
    "CLIENTS",
    "ClientSpec",
    "Plan",
    "Registration",
    "SetupError",
    "home_dir",
    "relay_command",
    "desired_entry",
    "is_relay_entry",
    "found_clients",
    "plan_install",
    "plan_uninstall",
    "apply_plan",
    "setup",
    "registrations",
    "toml_sections",
    "toml_set_table",
    "toml_remove_table",
    "toml_value",
]

SERVER_NAME = "antigravity"
SCRIPT_NAME = "gravity-relay"

# Long tool calls are the point: a worker run may take an hour. Codex's defaults (10 s start,
# 60 s per tool call) would cut every real task short.
CODEX_STARTUP_TIMEOUT_SEC = 20
CODEX_TOOL_TIMEOUT_SEC = 7200
GEMINI_TIMEOUT_MS = 7_200_000


class SetupError(Exception):
    """A registration that cannot be done safely; the message says what to do instead."""


class ClientSpec(Struct, frozen=True, kw_only=True):
    name: str
    title: str
    file: str  # relative to HOME
    format: Literal["toml", "json"]
    markers: tuple[str, ...]  # relative to HOME; any of them existing means the client is here
    opt_in: bool = False  # registered only when named with --client
    warning: str = ""

    def path(self, home: Path) -> Path:
        return home / self.file

    def found(self, home: Path) -> bool:
        return any((home / marker).exists() for marker in self.markers)


_ANTIGRAVITY_WARNING = (
    "agy's headless runs load this same file, so every worker would see the relay's tools; the relay refuses "
    "to delegate from inside a worker (RECURSION_REFUSED), but registering it here is not recommended "
    "unless you use the relay from the Antigravity IDE itself"
)

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


# --------------------------------------------------------------------------- where things are


def home_dir(environ: Mapping[str, str] | None = None) -> Path:
    """HOME from the environment (tests point it at a temp dir), else the platform's home."""
    env = os.environ if environ is None else environ
    home = env.get("HOME") or (env.get("USERPROFILE") if os.name == "nt" else None)
    return Path(home) if home else Path.home()


def _script_names() -> list[str]:
    return [f"{SCRIPT_NAME}.exe", f"{SCRIPT_NAME}-script.py", SCRIPT_NAME] if os.name == "nt" else [SCRIPT_NAME]


def relay_command(environ: Mapping[str, str] | None = None) -> str:
    """The absolute path of the ``gravity-relay`` console script of the running installation.

    Never an interpreter path: the script keeps working when the relay is upgraded in place,
    and a pipx/uv shim on PATH (which survives reinstalls) is preferred when it leads to the
    same installation as the one running.
    """
    env = os.environ if environ is None else environ
    dirs: list[Path] = []
    for scheme in (None, f"{os.name}_user"):
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


def is_relay_entry(entry: Any) -> bool:
    """True when a server entry runs Gravity Relay (its console script, or ``python -m relay``)."""
    if not isinstance(entry, dict):
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    name = re.split(r"[\\/]", command)[-1].lower()
    for suffix in (".exe", ".cmd", ".bat"):
        name = name.removesuffix(suffix)
    if name == SCRIPT_NAME:
        return True
    args = entry.get("args")
    if isinstance(args, list) and len(args) >= 2:
        for a, b in zip(args, args[1:]):
            if a == "-m" and b == "relay":
                return True
    return False


def desired_entry(client: str, command: str, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The relay's server entry in one client's own format."""
    entry: dict[str, Any] = {}
    if client == "claude":
        entry["type"] = "stdio"
    entry["command"] = command
    entry["args"] = ["serve"]
    if client == "codex":
        entry["startup_timeout_sec"] = CODEX_STARTUP_TIMEOUT_SEC
        entry["tool_timeout_sec"] = CODEX_TOOL_TIMEOUT_SEC
    if client == "gemini":
        entry["timeout"] = GEMINI_TIMEOUT_MS
    if env:
        entry["env"] = dict(env)
    return entry


def _merged_entry(client: str, existing: Any, command: str, env: Mapping[str, str] | None) -> dict[str, Any]:
    """Our entry over the relay's existing one: keys a user added to it (and its env) are kept."""
    wanted = desired_entry(client, command, env)
    if not is_relay_entry(existing):
        return wanted
    merged = {**existing, **wanted}
    old_env = existing.get("env")
    if isinstance(old_env, dict) and old_env:
        merged["env"] = {**old_env, **(env or {})}
    return merged


def found_clients(home: Path) -> list[str]:
    return [name for name, spec in CLIENTS.items() if spec.found(home)]


# --------------------------------------------------------------------------- TOML, table level


class TomlSection(Struct, frozen=True):
    """One table of a TOML document, as lines ``[start, end)``; ``key`` is None for the root."""

    key: tuple[str, ...] | None
    array: bool
    start: int
    end: int


_HEADER_START = re.compile(r"[ \t]*\[")


def _header_key(line: str) -> tuple[tuple[str, ...], bool]:
    """The key path of a header line, parsed by tomllib itself (quoted keys, spaces, comments)."""
    doc = tomllib.loads(line)
    path: list[str] = []
    node: Any = doc
    array = False
    while True:
        if isinstance(node, list):
            array = True
            node = node[-1]
        if not isinstance(node, dict) or len(node) != 1:
            break
        (name, node), = node.items()
        path.append(name)
    return tuple(path), array or isinstance(node, list)


def toml_sections(text: str) -> list[TomlSection]:
    """Split a TOML document into its tables, line by line.

    A character scanner tracks strings (all four kinds), comments and open brackets, so a
    line starting with ``[`` inside a multi-line string or array is never taken for a header.
    """
    lines = text.splitlines(keepends=True)
    sections: list[TomlSection] = []
    key: tuple[str, ...] | None = None
    array = False
    start = 0
    state = "normal"  # normal | basic | literal | ml_basic | ml_literal
    depth = 0
    for index, line in enumerate(lines):
        if state == "normal" and depth == 0 and _HEADER_START.match(line):
            sections.append(TomlSection(key=key, array=array, start=start, end=index))
            key, array = _header_key(line)
            start = index
            continue
        i = 0
        n = len(line)
        while i < n:
            ch = line[i]
            if state == "normal":
                if ch == "#":
                    break
                if line.startswith('"""', i):
                    state, i = "ml_basic", i + 3
                    continue
                if line.startswith("'''", i):
                    state, i = "ml_literal", i + 3
                    continue
                if ch == '"':
                    state = "basic"
                elif ch == "'":
                    state = "literal"
                elif ch in "[{":
                    depth += 1
                elif ch in "]}":
                    depth = max(0, depth - 1)
            elif state == "basic":
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    state = "normal"
            elif state == "literal":
                if ch == "'":
                    state = "normal"
            elif state == "ml_basic":
                if ch == "\\":
                    i += 1
                elif line.startswith('"""', i):
                    while i < n and line[i] == '"':
                        i += 1
                    state = "normal"
                    continue
            elif state == "ml_literal":
                if line.startswith("'''", i):
                    while i < n and line[i] == "'":
                        i += 1
                    state = "normal"
                    continue
            i += 1
        if state in ("basic", "literal"):
            state = "normal"  # single-line strings cannot cross a newline
    sections.append(TomlSection(key=key, array=array, start=start, end=len(lines)))
    return sections


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_string(value: str) -> str:
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_string(key)


def toml_value(value: Any) -> str:
    """One TOML value on one line (tables become inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _toml_table(path: tuple[str, ...], entry: Mapping[str, Any], newline: str) -> str:
    header = "[" + ".".join(_toml_key(p) for p in path) + "]"
    body = [f"{_toml_key(k)} = {toml_value(v)}" for k, v in entry.items()]
    return newline.join([header, *body]) + newline


def _newline_of(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _is_filler(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _own_span(lines: list[str], section: TomlSection) -> tuple[int, int]:
    """The section's lines without the blank and comment lines that end it: those introduce
    whatever comes next ("# my other server" above ``[mcp_servers.other]``), so they stay."""
    end = section.end
    while end > section.start + 1 and _is_filler(lines[end - 1]):
        end -= 1
    return section.start, end


def _get(doc: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = doc
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _with(doc: dict[str, Any], path: tuple[str, ...], value: Any | None) -> dict[str, Any]:
    """A copy of ``doc`` with ``path`` set to ``value`` (or removed, pruning emptied parents)."""
    out = copy.deepcopy(doc)
    parents = [out]
    node = out
    for part in path[:-1]:
        node = node.setdefault(part, {})
        parents.append(node)
    if value is None:
        node.pop(path[-1], None)
        for depth in range(len(path) - 1, 0, -1):
            if parents[depth] == {}:
                parents[depth - 1].pop(path[depth - 1], None)
    else:
        node[path[-1]] = value
    return out


def _prune_empty(doc: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    for depth in range(len(path) - 1, 0, -1):
        parent = _get(out, path[: depth - 1]) if depth > 1 else out
        if isinstance(parent, dict) and parent.get(path[depth - 1]) == {}:
            parent.pop(path[depth - 1])
    return out


def _edit_toml(text: str, path: tuple[str, ...], entry: Mapping[str, Any] | None) -> str:
    """Replace (or remove, when ``entry`` is None) the table at ``path`` and its sub-tables."""
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"it is not valid TOML ({exc}); fix it first") from None
    lines = text.splitlines(keepends=True)
    sections = toml_sections(text)
    ours = [s for s in sections if s.key is not None and s.key[: len(path)] == path]
    if any(s.array for s in ours):
        raise SetupError(f"[{'.'.join(path)}] is written as an array of tables there; edit it by hand")
    if _get(before, path) is not None and not ours:
        raise SetupError(
            f"{'.'.join(path)} is defined inline or with dotted keys, not as a [{'.'.join(path)}] table; "
            "edit it by hand, or move it to its own table and run setup again"
        )
    newline = _newline_of(text)
    block = _toml_table(path, entry, newline) if entry is not None else None

    spans = [_own_span(lines, s) for s in ours]
    out: list[str] = []
    cursor = 0
    for n, (start, end) in enumerate(spans):
        out.extend(lines[cursor:start])
        if n == 0 and block is not None:
            out.append(block)
        cursor = end
        if block is None or n > 0:
            # Removing a table: drop one blank line that separated it, so no gap grows.
            if cursor < len(lines) and not lines[cursor].strip() and (not out or not out[-1].strip()):
                cursor += 1
    out.extend(lines[cursor:])
    new = "".join(out)
    if not ours and block is not None:
        if new and not new.endswith(("\n", "\r")):
            new += newline
        if new.strip():
            new += newline  # one blank line before the table; removal takes exactly that one away
        new += block
    if block is None and spans and spans[-1][1] >= len(lines) and new.strip() and new.endswith(newline * 2):
        # The table was the file's last: take away the blank line that preceded it.
        new = new[: -len(newline)]

    # Proof before writing: the new text parses, and differs from the old one only at ``path``.
    try:
        after = tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"editing it would produce invalid TOML ({exc}); nothing was written, edit it by hand") from None
    expected = _with(before, path, dict(entry) if entry is not None else None)
    if _prune_empty(after, path) != _prune_empty(expected, path):
        raise SetupError("the table-level edit would change more than the relay's table; nothing was written, "
                         "edit it by hand")
    return new


def toml_set_table(text: str, path: tuple[str, ...], entry: Mapping[str, Any]) -> str:
    """``text`` with the table at ``path`` replaced by ``entry`` (added at the end if absent)."""
    return _edit_toml(text, path, entry)


def toml_remove_table(text: str, path: tuple[str, ...]) -> str:
    """``text`` without the table at ``path`` and its sub-tables; every other line kept."""
    return _edit_toml(text, path, None)


# --------------------------------------------------------------------------- JSON


def _json_indent(text: str) -> str | int:
    for line in text.splitlines()[1:]:
        match = re.match(r"^([ \t]+)\S", line)
        if match:
            return match[1] if "\t" in match[1] else len(match[1])
    return 2


def _load_json(text: str | None) -> dict[str, Any]:
    if text is None or not text.strip():
        return {}
    try:
        doc = json.loads(text)
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
    return text + ("\n" if like is None or like.endswith("\n") or not like.strip() else "")


# --------------------------------------------------------------------------- plans


def _read(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise SetupError("it is a directory") from None
    try:
        return data.decode("utf-8-sig") if data.startswith(b"\xef\xbb\xbf") else data.decode("utf-8")
    except UnicodeDecodeError:
        raise SetupError("it is not UTF-8 text") from None


def _current_entry(spec: ClientSpec, text: str | None) -> Any:
    if text is None:
        return None
    if spec.format == "toml":
        try:
            return _get(tomllib.loads(text), ("mcp_servers", SERVER_NAME))
        except tomllib.TOMLDecodeError as exc:
            raise SetupError(f"it is not valid TOML ({exc}); fix it first") from None
    return (_load_json(text).get("mcpServers") or {}).get(SERVER_NAME)


def _entry_label(spec: ClientSpec) -> str:
    return f"[mcp_servers.{SERVER_NAME}]" if spec.format == "toml" else f"mcpServers.{SERVER_NAME}"


def plan_install(client: str, home: Path, command: str, *, env: Mapping[str, str] | None = None,
                 force: bool = False) -> Plan:
    spec = CLIENTS[client]
    path = spec.path(home)
    plan = Plan(client=client, path=str(path), action="unchanged", message="", warning=spec.warning)
    try:
        old = _read(path)
        plan.old_text = old
        current = _current_entry(spec, old)
        if current is not None and not is_relay_entry(current) and not force:
            shown = current.get("command") if isinstance(current, dict) else current
            plan.action = "refuse"
            plan.message = (f"'{SERVER_NAME}' there runs {shown!r}, not Gravity Relay; left alone "
                            "(pass --force to replace it; a backup is kept)")
            return plan
        entry = _merged_entry(client, current, command, env)
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
        plan.action = "refuse"
        plan.message = f"cannot edit {path}: {exc}"
        return plan
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
        plan.action = "refuse"
        plan.message = f"cannot edit {path}: {exc}"
        return plan
    plan.new_text = new
    plan.action = "remove"
    plan.message = _entry_label(spec)
    return plan


def _backup_name(path: Path) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.bak-{stamp}")
    n = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.bak-{stamp}-{n}")
        n += 1
    return candidate


def apply_plan(plan: Plan) -> Plan:
    """Write a plan's new text: backup first, then an atomic replace keeping the file's mode.

    Refuses when the file changed since the plan was made (a client rewrote it meanwhile).
    """
    if not plan.writes:
        return plan
    path = Path(plan.path)
    if _read(path) != plan.old_text:
        raise SetupError(f"{path} changed while setup was running; run setup again")
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = 0o600
    if plan.old_text is not None:
        backup = _backup_name(path)
        shutil.copy2(path, backup)
        plan.backup = str(backup)
        mode = path.stat().st_mode & 0o7777
    write_atomic(path, (plan.new_text or "").encode("utf-8"), mode)
    return plan


def setup(home: Path, clients: Iterable[str] | None = None, *, command: str | None = None,
          env: Mapping[str, str] | None = None, uninstall: bool = False, dry_run: bool = False,
          force: bool = False) -> list[Plan]:
    """Plan (and unless ``dry_run``, apply) the registration for each client.

    Without ``clients``: install goes to every client found here except the opt-in ones
    (Antigravity), which are reported and skipped; uninstall looks at every client's file.
    """
    named = list(dict.fromkeys(clients or []))
    for name in named:
        if name not in CLIENTS:
            raise SetupError(f"unknown client {name!r}; known: {', '.join(CLIENTS)}")
    if not uninstall and command is None:
        command = relay_command()
    plans: list[Plan] = []
    for name, spec in CLIENTS.items():
        if named and name not in named:
            continue
        path = spec.path(home)
        if uninstall:
            plan = plan_uninstall(name, home, force=force)
        elif not named and not spec.found(home):
            plan = Plan(client=name, path=str(path), action="skip",
                        message=f"not found (no {' or '.join('~/' + m for m in spec.markers)}); skipped")
        elif not named and spec.opt_in:
            plan = Plan(client=name, path=str(path), action="skip", warning=spec.warning,
                        message=f"found, not registered by default; `--client {name}` registers it anyway")
        else:
            plan = plan_install(name, home, command or "", env=env, force=force)
        if not dry_run and plan.writes:
            try:
                apply_plan(plan)
            except (SetupError, OSError) as exc:
                plan.action = "refuse"
                plan.message = f"cannot write {path}: {exc}"
        plans.append(plan)
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
            command = entry.get("command") if isinstance(entry, dict) else None
            if isinstance(command, str):
                reg.command = command
                reg.command_exists = _command_exists(command)
        out.append(reg)
    return out
