"""The agy configuration a workspace carries, read as hostile input (agy-protocol.md §8.4, §8.6 item 1).

agy ≥ 1.3 loads MCP servers and hooks from the workspace itself, in print mode too, and print mode has no
trust gate: ``.agents/mcp_config.json``, ``.agents/plugins/<p>/mcp_config.json`` and ``.agents/hooks.json``
are programs a repository makes a worker start before any tool permission applies. Rules files
(``.agents/rules/*.md``, ``AGENTS.md``, ``GEMINI.md``) only add words to the worker's instructions.

The guarded party is the repository under work. It may hide the files where a quick look misses them, so the
look is wide and conservative: the workspace and every folder up to its repository's root (agy's workspace
may be a sub-folder); any ``mcp_config.json`` or ``hooks.json`` anywhere under ``.agents`` (plugins nested
deeper included), through symlinks (a symlinked ``.agents``, a symlinked file, a dangling one), with names
compared case-insensitively (``.Agents/Hooks.json`` is the same file on macOS and Windows); a file that cannot
be read or parsed counts (agy might read it; §8.3: a hooks.json agy cannot load leaves calls unguarded); only a
file that parses to nothing at all (``{}``, empty lists) does not. Nothing found is run or imported: the files
are stat-ed and, when regular and small, parsed as JSON. A FIFO or a device named like them is never opened.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from msgspec import Struct

__all__ = ["AgyConfig", "find_agy_config", "PROGRAM_FILES", "RULES_FILES"]

PROGRAM_FILES = frozenset({"mcp_config.json", "hooks.json"})
RULES_FILES = frozenset({"agents.md", "gemini.md"})
_AGENTS_DIR = ".agents"
_MAX_DEPTH = 6  # below .agents; plugins/<p>/mcp_config.json is depth 3
_MAX_ENTRIES = 5_000  # a walk that finds more stops and says so (the rest counts as unknown: refused)
_MAX_READ = 1024 * 1024


class AgyConfig(Struct, kw_only=True):
    """What agy would load from a workspace: programs (MCP servers, hooks) and rules, as workspace-relative paths."""

    programs: list[str] = []  # files naming MCP servers or hooks, each "path (why)" when it could not be read
    rules: list[str] = []
    # each found file's (size, mtime_ns, ctime_ns), by its entry above: an edit in place shows as a new stamp
    stamps: dict[str, tuple[int, int, int]] = {}

    @property
    def found(self) -> bool:
        return bool(self.programs or self.rules)


def _folders(workspace: Path) -> list[Path]:
    """The workspace and its parents up to the repository root (the folder holding .git), at most 20 up."""
    out = [workspace]
    here = workspace
    for _ in range(20):
        if os.path.lexists(here / ".git") or here.parent == here:
            break
        here = here.parent
        out.append(here)
    return out if os.path.lexists(out[-1] / ".git") else [workspace]


def _empty(value: object) -> bool:
    if isinstance(value, dict):
        return all(_empty(v) for v in value.values())
    if isinstance(value, list):
        return all(_empty(v) for v in value)
    return value in (None, "", False)


def _judge(path: Path) -> str | None:
    """None when the file names nothing agy could start; else why it counts."""
    try:
        st = os.stat(path)  # follows a symlink: agy reads the target
    except OSError:
        return "a link to nothing agy can read now"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size > _MAX_READ:
        return "too large to read"
    try:
        with open(path, "rb") as fh:
            value = json.loads(fh.read(_MAX_READ).decode("utf-8-sig"))
    except (OSError, ValueError):
        return "unreadable or not JSON: it may still be loaded"
    return None if _empty(value) else ""


def _stamp(config: AgyConfig, key: str, path: Path) -> None:
    try:
        st = os.stat(path)
    except OSError:
        return
    config.stamps[key] = (st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _walk(top: Path, shown: Path, config: AgyConfig) -> None:
    seen: set[tuple[int, int]] = set()
    budget = [_MAX_ENTRIES]

    def visit(folder: Path, rel: Path, depth: int) -> None:
        try:
            st = os.stat(folder)
        except OSError:
            return
        if (st.st_dev, st.st_ino) in seen or depth > _MAX_DEPTH:
            return
        seen.add((st.st_dev, st.st_ino))
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            budget[0] -= 1
            if budget[0] < 0:
                config.programs.append(f"{shown / rel} (too many files to look through)")
                return
            name = entry.name.lower()
            path, inner = Path(entry.path), rel / entry.name
            try:
                is_dir = entry.is_dir()  # follows symlinks
            except OSError:
                is_dir = False
            if is_dir:
                visit(path, inner, depth + 1)
            elif name in PROGRAM_FILES:
                why = _judge(path)
                if why is not None:
                    config.programs.append(str(shown / inner) + (f" ({why})" if why else ""))
                    _stamp(config, config.programs[-1], path)
            elif name.endswith(".md") and "rules" in {p.lower() for p in inner.parts}:
                config.rules.append(str(shown / inner))
                _stamp(config, config.rules[-1], path)

    visit(top, Path(), 0)


def find_agy_config(workspace: str | Path) -> AgyConfig:
    """What agy would load from ``workspace`` (and the folders above it up to its repository's root)."""
    root = Path(workspace)
    config = AgyConfig()
    for folder in _folders(root):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        shown = Path(os.path.relpath(folder, root)) if folder != root else Path()
        for entry in entries:
            name = entry.name.lower()
            if name == _AGENTS_DIR:
                _walk(Path(entry.path), shown / entry.name, config)
            elif name in RULES_FILES:
                config.rules.append(str(shown / entry.name))
                _stamp(config, config.rules[-1], Path(entry.path))
    config.programs.sort()
    config.rules.sort()
    return config
