"""The worker's own word on what it changed, made comparable with what the relay saw.

Why it exists: the worker writes paths as it likes (absolute, ``./x``, backslashes, outside the
workspace); the packet compares them with what was observed, and they stand in when observing fails.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from pathlib import Path

from relay.core.contracts import FileChange

__all__ = ["normalize_reported", "report_changes"]


def normalize_reported(reported: Iterable[str], workspace: Path | None = None) -> list[str]:
    """The worker's paths as workspace-relative POSIX paths; ones outside the workspace are dropped."""
    ws = str(workspace).replace("\\", "/").rstrip("/") + "/" if workspace else None
    out: list[str] = []
    for raw in reported:
        path = str(raw).strip().replace("\\", "/")
        if not path:
            continue
        if ws and path.startswith(ws):
            path = path[len(ws) :]
        elif path.startswith("/") and ws:
            continue
        path = posixpath.normpath(path).lstrip("/")
        if path in (".", "") or path == ".." or path.startswith("../"):
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
