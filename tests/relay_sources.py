"""The relay's own source files, read and parsed once per pytest process for the tests that read the code itself.

Plain module (no pytest). Parsing relay/ takes ~0.9 s of CPU, and six test files did it on their own (two of them
twice): the layout, the declared dependencies, the POSIX-only calls, the retrying replace, the plan views and the
CI's encoding rule. Here each file is read and parsed at most once a process, and conftest.py hands those test
files to one xdist worker together (conftest.SOURCE_READING_FILES), so one worker holds the trees (~60 MB), not
four. The trees are shared: a test walks them and never changes them. A file is read as it is when first asked
for; nothing in the suite writes to relay/.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

__all__ = ["RELAY", "relay_files", "source", "tree", "walked"]

RELAY = Path(__file__).resolve().parent.parent / "relay"


@functools.cache
def relay_files() -> tuple[Path, ...]:
    """Every module of the package, sorted."""
    return tuple(sorted(RELAY.rglob("*.py")))


@functools.cache
def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@functools.cache
def tree(path: Path) -> ast.Module:
    """``path``'s syntax tree (any file: the relay's, or one a test wrote), parsed once."""
    return ast.parse(source(path))


@functools.cache
def walked(path: Path) -> tuple[ast.AST, ...]:
    """Every node of ``path``'s tree (``ast.walk``'s order), listed once: eight tests walk the whole package (~270,000
    nodes, ~0.25 s of CPU a walk), each now reads the one list."""
    return tuple(ast.walk(tree(path)))
