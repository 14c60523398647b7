"""The worker's own word on what it changed, made comparable with what the relay saw.

Why it exists: the worker writes paths as it likes (absolute, ``./x``, backslashes, outside the
workspace); the packet compares them with what was observed, and they stand in when observing fails.
"""

from __future__ import annotations

import ntpath
import os
import posixpath
from collections.abc import Iterable
from pathlib import Path

from relay.core.contracts import FileChange

__all__ = ["normalize_reported", "report_changes", "backslash_separates", "reported_text", "reported_absolute"]


def backslash_separates() -> bool:
    """Whether a backslash in a reported name separates folders: on Windows (agy there reports ``src\\a.py``).

    On POSIX it is a character of the name (a file may be called ``a\\u202eb.txt``); reading it as ``/`` made the
    packet call a file the worker wrote "claimed but unchanged". Read at each call: a test imposes Windows.
    """
    return os.name == "nt"


def reported_text(raw: object) -> str:
    """One name as the worker wrote it, with ``/`` for every separator this OS reads in it."""
    text = str(raw).strip()
    return text.replace("\\", "/") if backslash_separates() else text


def reported_absolute(text: str) -> bool:
    """Whether ``reported_text``'s answer names a file by its full path (``/w/a.py``; ``C:/w/a.py`` on Windows)."""
    return text.startswith("/") or (backslash_separates() and bool(ntpath.splitdrive(text)[0]))


def normalize_reported(reported: Iterable[str], workspace: Path | None = None, *, beside: bool = False) -> list[str]:
    """The worker's paths as workspace-relative POSIX paths; ones outside the workspace are dropped, but for
    ``beside``: a relative ``../x`` is kept, to be matched with a write the relay saw beside a sub-folder workspace
    (relay.observe.above names them so); it never stands in for a look."""
    ws = reported_text(workspace).rstrip("/") + "/" if workspace else None
    out: list[str] = []
    for raw in reported:
        path = reported_text(raw)
        if not path:
            continue
        relative = not reported_absolute(path)
        if ws and path.startswith(ws):
            path = path[len(ws) :]
        elif not relative and ws:
            continue
        path = posixpath.normpath(path).lstrip("/")
        if path in (".", "") or path == ".." or (path.startswith("../") and not (beside and relative)):
            continue
        if path not in out:
            out.append(path)
    return out


def report_changes(workspace: Path, reported: Iterable[str]) -> list[FileChange]:
    """The changes as the worker reported them, for when the relay could not look itself."""
    out = []
    for path in normalize_reported(reported, workspace):
        exists = os.path.lexists(workspace / path)
        out.append(FileChange(path=path, kind="modified" if exists else "deleted", reasons=["from the worker's report"]))
    return out
