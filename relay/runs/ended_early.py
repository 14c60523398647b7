"""Calls that ended before agy started (refused at intake, a confirm preview, a person's no, a login refused): a
bounded number of their records is kept.

The leader's model can make such calls as fast as it likes, and each was a run record like a real run's: thousands
of bad calls filled the data dir, pushed the runs that changed something out of the recent runs ``get_result``
shows, and at the next start-up retention's ``max_runs`` removed those runs' records and patches (what `runs revert`
needs). Each such call leaves a mark in ``runs/ended-early/``; past ``KEPT`` marks the oldest go, their records with
them. The newest ``KEPT`` are kept whole (what a person diagnosing a refusal reads: `runs show`, `runs list`); the
recent runs list the runs that got to agy, and the newest of these beside them.

The marks lie in the data dir, which is input (docs/security.md): a mark has a record removed only when that record
itself says the call ended before agy started (finished, no attempt, no worktree), so a mark planted under a real
run's id removes nothing but the mark.
"""

from __future__ import annotations

import contextlib
import logging

from relay.core.files import is_link, own_folder, write_own
from relay.core.records import RunRecord
from relay.core.errors import RelayError
from relay.runs.store import RUN_ID_PATTERN, RunStore, check_run_id

__all__ = ["KEPT", "ended_early", "note_ended_early", "early_ids"]

KEPT = 100  # records of calls that ended before agy started, the newest kept

log = logging.getLogger("relay.runs.ended_early")

_FOLDER = "ended-early"


def ended_early(record: RunRecord) -> bool:
    """Did this call end before agy started, leaving nothing but its record (no attempt, no worktree)?"""
    return record.state == "finished" and not record.process.attempts and not record.isolation.worktree


def early_ids(store: RunStore) -> set[str]:
    """The ids marked as calls that ended before agy started (never read through a link planted for the folder)."""
    folder = store.runs_dir / _FOLDER
    if is_link(folder) or not folder.is_dir():
        return set()
    return {p.name for p in folder.iterdir() if RUN_ID_PATTERN.fullmatch(p.name)}


def _marked_at(folder, run_id: str) -> tuple[int, str]:
    """When the call was marked (ns), then its id: ids sort by their second only, and many calls share one."""
    try:
        return (folder / run_id).lstat().st_mtime_ns, run_id
    except OSError:
        return 0, run_id


def note_ended_early(store: RunStore, record: RunRecord) -> list[str]:
    """Mark ``record``'s call as ended before agy started, then let the oldest such records go past ``KEPT``;
    returns the ids removed."""
    folder = own_folder(store.runs_dir / _FOLDER)
    write_own(folder / check_run_id(record.run_id), b"")
    marks = sorted(early_ids(store), key=lambda run_id: _marked_at(folder, run_id), reverse=True)  # newest first
    removed = []
    for run_id in marks[KEPT:]:
        try:
            if ended_early(store.read(run_id)):  # the record's own word, not the mark's
                for path in store.run_files(run_id):
                    path.unlink(missing_ok=True)
                removed.append(run_id)
        except RelayError:
            pass  # gone already, or unreadable: not the relay's to remove on a mark's word
        except OSError as exc:
            log.warning("could not remove the record of call %s that ended before agy started: %s", run_id, exc)
            continue
        with contextlib.suppress(OSError):
            (folder / run_id).unlink()
    if removed:
        log.info("kept the newest %d records of calls that ended before agy started; removed %s", KEPT,
                 ", ".join(removed))
    return removed
