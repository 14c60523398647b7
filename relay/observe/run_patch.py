"""Every run's patch: the worker's change, kept beside the run record as a git patch.

Why it exists: the record lists which files a run changed, not their content; once the
leader moves on, the change itself was gone. The patch keeps it, so the leader can read the
risky hunks (``detail="diff"``) and the user can undo a run (``gravity-relay runs revert``,
which is ``git apply -R``).

The patch is git's: ``git diff-index --cached -p --binary --full-index`` of the before tree and
the after index (``relay.observe.changes`` asked for it once, for the change set and this file alike), so only
the worker's change is in it, never the user's earlier edits, and binary files, renames, modes
and symlinks go back byte for byte. This module picks whole sections of that answer and writes
a header over them.

What the patch cannot carry exactly is named in its header (``# not in this patch: ...``):
files kept out of the trees by size, files seen by timestamp only, submodule commit moves. The
whole patch is bounded (``max_bytes``); files past the bound are left out and the cut is stated
(``# cut: ...``). A revert refuses a patch with either line: it would not restore the whole run.

``split_patch`` (``relay.observe.patch``) reads a patch back, for the diff view and the revert.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from relay.core.files import write_atomic
from relay.observe.changes import ChangeSet
from relay.observe.patch import CUT, MADE_REPO, NOT_IN_PATCH, Section, quote_path, split_patch, unquote_path
from relay.observe.snapshot import Snapshot

__all__ = ["PATCH_MAX_BYTES", "PatchWritten", "Section", "build_run_patch", "write_run_patch", "split_patch",
           "quote_path", "unquote_path", "NOT_IN_PATCH", "CUT", "MADE_REPO"]

log = logging.getLogger("relay.observe.run_patch")

# Default bound of one run's patch (GRAVITY_RELAY_PATCH_MAX_SIZE; Settings.patch_max_bytes).
PATCH_MAX_BYTES = 8 * 1024 * 1024
_NAMES_IN_HEADER = 20
_NAMES_BYTES = 1024
# Room kept for the header: two lines, one per reason a file was left out, the cut; names bounded above.
_HEADER_ROOM = 16 * 1024


@dataclass(slots=True)
class PatchWritten:
    """What ``write_run_patch`` wrote: how many file sections, how many bytes, what was left out."""

    path: Path
    files: int
    bytes: int
    left_out: list[str] = field(default_factory=list)
    elapsed_ms: int = 0


def _names(paths: list[str]) -> bytes:
    shown: list[bytes] = []
    used = 0
    for path in paths[:_NAMES_IN_HEADER]:
        name = quote_path(os.fsencode(path))
        if used + len(name) > _NAMES_BYTES:
            break
        shown.append(name)
        used += len(name) + 2
    more = len(paths) - len(shown)
    return b", ".join(shown) + (b" (+%d more)" % more if more > 0 else b"")


def build_run_patch(before: Snapshot, changes: ChangeSet, workspace: Path, *, run_id: str,
                    max_bytes: int = PATCH_MAX_BYTES) -> tuple[bytes, int, list[str]] | None:
    """(the patch, how many file sections, the paths left out) of a run, or None when there is none
    to write (no snapshot worth the name, nothing changed, the workspace itself gone)."""
    if before.source not in ("git", "tree") or changes.source == "report" or changes.workspace_gone or not changes.files:
        return None
    ws = str(Path(os.path.abspath(workspace)))
    left_out = dict(changes.not_in_patch)
    made = [p.rstrip("/") + "/" for p, why in changes.not_in_patch.items() if why == MADE_REPO]
    for path in changes.outside:
        if not any(path.startswith(folder) for folder in made):  # the folder is named: revert removes it whole
            left_out[path] = "seen by timestamp only"
    _, sections = split_patch(changes.patch)
    by_path: dict[str, list[Section]] = {}
    for section in sections:
        by_path.setdefault(section.path, []).append(section)
    budget = max_bytes - _HEADER_ROOM
    kept: list[bytes] = []
    cut: list[str] = []
    size = 0
    for path in sorted(by_path):
        data = b"".join(s.data for s in by_path[path])
        if len(data) > budget:
            left_out[path] = "too large"
            continue
        if size + len(data) > budget:  # all of a file or none of it: a later, smaller one may still fit
            cut.append(path)
            continue
        kept.append(data)
        size += len(data)
    if not kept and not left_out and not cut:
        return None
    header = [b"# gravity-relay: the change of run " + run_id.encode() + b" in " + quote_path(os.fsencode(ws))
              + b" (the worker's only; earlier edits are not in it)\n",
              b"# undo it: gravity-relay runs revert " + run_id.encode() + b" (--dry-run first)\n"]
    for why in sorted(set(left_out.values())):
        header.append(NOT_IN_PATCH + why.encode() + b": " + _names(sorted(p for p, w in left_out.items() if w == why)) + b"\n")
    if cut:
        header.append(CUT + b"the patch limit (%d bytes) was reached; left out: " % max_bytes + _names(cut) + b"\n")
    return b"".join(header) + b"".join(kept), len(kept), sorted([*left_out, *cut])


def write_run_patch(before: Snapshot, changes: ChangeSet, workspace: Path, dest: Path, *, run_id: str,
                    max_bytes: int = PATCH_MAX_BYTES) -> PatchWritten | None:
    """Write the run's patch to ``dest`` (atomic, 0600); None when there is nothing to write.

    Never raises for the file system: the run's answer matters more than its patch.
    """
    started = time.perf_counter()
    try:
        built = build_run_patch(before, changes, workspace, run_id=run_id, max_bytes=max_bytes)
        if built is None:
            return None
        data, sections, left_out = built
        write_atomic(dest, data)
    except (OSError, ValueError) as exc:
        log.warning("patch of run %s not written: %s", run_id, exc)
        return None
    except Exception:  # noqa: BLE001 - a bug here must not cost the run its answer; logged whole
        log.exception("patch of run %s not written", run_id)
        return None
    return PatchWritten(path=dest, files=sections, bytes=len(data), left_out=left_out,
                        elapsed_ms=int((time.perf_counter() - started) * 1000))
