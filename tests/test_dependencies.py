"""Every third-party package relay/ imports is declared in pyproject.toml (issue 38, §3).

An import that works only because another dependency happens to pull it in (the MCP SDK brings anyio,
pydantic, uvicorn and mcp-types today) breaks the day that dependency stops: each one is declared in
``[project].dependencies``, whatever imports it and however deep (inside a function too).
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

from relay_sources import relay_files, walked

ROOT = Path(__file__).resolve().parent.parent


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported() -> dict[str, set[str]]:
    """Top-level module name -> the relay modules that import it (stdlib and relay itself left out)."""
    found: dict[str, set[str]] = {}
    for path in relay_files():
        for node in walked(path):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "relay" and top not in sys.stdlib_module_names:
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {_norm(re.match(r"[A-Za-z0-9._-]+", spec).group(0)) for spec in project["dependencies"]}


def test_every_third_party_package_relay_imports_is_declared_in_pyproject():
    distributions = importlib.metadata.packages_distributions()
    declared = _declared()
    missing = {}
    for module, users in _imported().items():
        names = {_norm(d) for d in distributions.get(module, [module])}
        if not names & declared:
            missing[module] = f"{', '.join(sorted(names))} (imported by {', '.join(sorted(users)[:3])})"
    assert missing == {}, f"declare these in pyproject.toml's [project].dependencies: {missing}"


def test_the_import_walk_sees_the_packages_it_must_see():
    # The walk itself: a test that found nothing would pass whatever relay imports.
    imported = _imported()
    assert {"mcp", "msgspec", "anyio", "filelock"} <= set(imported)
    assert "relay" not in imported and "os" not in imported
