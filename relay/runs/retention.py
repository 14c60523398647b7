"""Retention: keep the runs folder bounded by count, age and total size.

A run is every file that starts with its id (record, NDJSON transcript, agy log)
plus its spilled-prompt folder, if any. Three rules, each off when its limit is
0 (or None): keep at most ``max_runs`` newest runs; drop runs older than
``max_age_days`` (by the creation time in the id); then drop the oldest until the
total is at most ``max_size_bytes``. A run whose record says ``running`` (or
that has an active marker) is never touched, whatever the rules say; files whose
record is gone (a transcript left alone) are runs like any other.

``apply_retention(settings)`` is what the server runs at start-up, in a thread
(``retain_in_background``), with the limits from the settings
(GRAVITY_RELAY_MAX_RUNS, _MAX_AGE_DAYS, _MAX_SIZE); ``gravity-relay cleanup``
runs it with the command line's limits.

Which entries are a run's, when it was created and whether it is still running are the
store's answers (``relay.runs.store``, the one owner of the data dir's layout); this module
keeps only the policy: the limits and the guard against removing most records.
"""

from __future__ import annotations

import datetime as _dt
import logging
from functools import partial
from pathlib import Path

from msgspec import Struct

from relay.core.errors import RelayError
from relay.core.files import remove_tree
from relay.core.settings import Settings, parse_size
from relay.isolate.apply_temps import sweep as sweep_temps
from relay.isolate.leftovers import kept_leftovers, remove_leftovers
from relay.isolate.pool import discard_run
from relay.runs.store import RunStore, run_created

__all__ = ["RemovedRun", "RetentionSummary", "apply_retention", "retain_in_background", "parse_size", "human_bytes"]

log = logging.getLogger("relay.runs.retention")

# The start-up pass refuses to remove more than half of the runs once that is this many.
GUARD_MIN_RUNS = 10


class RemovedRun(Struct, kw_only=True):
    run_id: str
    reason: str
    files: list[str]
    bytes: int
    created_at: str


class RetentionSummary(Struct, kw_only=True):
    runs_dir: str
    dry_run: bool
    max_runs: int | None
    max_age_days: float | None
    max_size_bytes: int | None
    removed: list[RemovedRun] = []
    freed_bytes: int = 0
    kept_runs: int = 0
    kept_bytes: int = 0
    running: list[str] = []
    errors: list[str] = []
    # Set when the start-up pass refused to apply the limits (it would remove most records).
    withheld: str | None = None
    # Isolation (issue 10): worktrees and branches removed with their runs, and leftovers no run owns.
    worktrees: list[str] = []
    # Worktrees holding a change never recorded whose run's record is gone: left to the user, each with what to do.
    left: list[str] = []


def human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{int(value)} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


class _Run(Struct, kw_only=True):
    run_id: str
    created: _dt.datetime
    paths: list[Path] = []
    bytes: int = 0
    running: bool = False
    reason: str | None = None


def _size_of(path: Path) -> int:
    try:
        if path.is_dir() and not path.is_symlink():
            return sum(p.lstat().st_size for p in path.rglob("*") if not p.is_dir() or p.is_symlink())
        return path.lstat().st_size
    except OSError:
        return 0


def _collect(store: RunStore) -> list[_Run]:
    """The runs on disk as the store knows them, newest first (the id starts with its creation time)."""
    runs = [_Run(run_id=run_id, created=run_created(run_id), paths=paths, bytes=sum(map(_size_of, paths)),
                 running=store.is_active(run_id))
            for run_id, paths in store.entries_by_run().items()]
    return sorted(runs, key=lambda r: r.run_id, reverse=True)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        remove_tree(path)
    else:
        path.unlink()


def apply_retention(
    settings: Settings,
    *,
    max_runs: int | None = None,
    max_age_days: float | None = None,
    max_size_bytes: int | None = None,
    dry_run: bool = False,
    now: _dt.datetime | None = None,
    guard: bool = False,
) -> RetentionSummary:
    """Trim the runs folder; limits default to the settings'. Never raises for one bad file.

    A pass that would remove more than half of the runs logs a WARNING naming the limits
    first. With ``guard`` (the automatic pass at start-up) it removes nothing at all when
    that is ``GUARD_MIN_RUNS`` runs or more: a typo in a setting must not cost the history.
    ``gravity-relay cleanup``, asked for on purpose, applies the limits whatever they remove.
    """
    max_runs = settings.max_runs if max_runs is None else max_runs
    max_age_days = settings.max_age_days if max_age_days is None else max_age_days
    max_size_bytes = settings.max_size_bytes if max_size_bytes is None else max_size_bytes
    now = now or _dt.datetime.now(_dt.timezone.utc)
    runs_dir = settings.runs_dir
    summary = RetentionSummary(runs_dir=str(runs_dir), dry_run=dry_run, max_runs=max_runs or None,
                               max_age_days=max_age_days or None, max_size_bytes=max_size_bytes or None)
    store = RunStore(runs_dir)
    runs = _collect(store)
    summary.running = [r.run_id for r in runs if r.running]

    if max_runs and max_runs > 0:
        for run in runs[max_runs:]:
            run.reason = run.reason or f"beyond the newest {max_runs} runs"
    if max_age_days and max_age_days > 0:
        cutoff = now - _dt.timedelta(days=max_age_days)
        for run in runs:
            if run.created < cutoff:
                run.reason = run.reason or f"older than {max_age_days:g} days"
    if max_size_bytes and max_size_bytes > 0:
        total = sum(r.bytes for r in runs if r.reason is None or r.running)
        for run in reversed(runs):  # oldest first
            if total <= max_size_bytes:
                break
            if run.reason is None and not run.running:
                run.reason = f"total over {human_bytes(max_size_bytes)}"
                total -= run.bytes

    doomed = [r for r in runs if r.reason is not None and not r.running]
    if runs and len(doomed) * 2 > len(runs):
        limits = _limits_text(max_runs, max_age_days, max_size_bytes)
        if guard and len(doomed) >= GUARD_MIN_RUNS:
            summary.withheld = (f"retention would remove {len(doomed)} of {len(runs)} runs in {runs_dir} ({limits}); "
                                "nothing removed. If these limits are meant, run `gravity-relay cleanup` (add --dry-run "
                                "to see the list first); otherwise fix the GRAVITY_RELAY_MAX_* setting.")
            log.warning("%s", summary.withheld)
            for run in runs:
                run.reason = None
        elif not dry_run:
            log.warning("retention: removing %d of %d runs in %s (%s)", len(doomed), len(runs), runs_dir, limits)

    for run in runs:
        if run.reason is None or run.running:
            summary.kept_runs += 1
            summary.kept_bytes += run.bytes
            continue
        if not dry_run:
            _discard_worktree(settings, store, run.run_id, summary)
            for path in run.paths:
                try:
                    _remove(path)
                except FileNotFoundError:
                    pass  # another relay's cleanup got there first
                except OSError as exc:
                    summary.errors.append(f"{path}: {exc.strerror or exc}")
        summary.removed.append(RemovedRun(run_id=run.run_id, reason=run.reason, files=[str(p) for p in run.paths],
                                          bytes=run.bytes, created_at=run.created.isoformat().replace("+00:00", "Z")))
        summary.freed_bytes += run.bytes
    summary.removed.reverse()  # oldest first reads naturally
    owned = _Owned(store, {r.run_id for r in runs if r.reason is None or r.running})
    if not dry_run and summary.withheld is None:
        removed, errors = remove_leftovers(settings.data_dir, owned)
        summary.worktrees += removed
        summary.errors += errors
        temps, errors = sweep_temps(settings.data_dir)
        summary.worktrees += [f"{temp} (a temp file of an apply or a policy revert that was killed)" for temp in temps]
        summary.errors += errors
    summary.left = kept_leftovers(settings.data_dir, owned)  # a dry run says them too
    if summary.removed and not dry_run:
        log.info("retention: removed %d run(s), freed %s", len(summary.removed), human_bytes(summary.freed_bytes))
    return summary


class _Owned:
    """Run ids that still own their branch: kept runs, and any run whose record exists by now (a run that
    started while this pass was running must keep its branch)."""

    def __init__(self, store: RunStore, kept: set[str]) -> None:
        self._store, self._kept = store, kept

    def __contains__(self, run_id: object) -> bool:
        if run_id in self._kept:
            return True
        try:
            return self._store.record_path(run_id).exists()  # type: ignore[arg-type]
        except RelayError:
            return True  # not a run id: not the relay's to remove


def _discard_worktree(settings: Settings, store: RunStore, run_id: str, summary: RetentionSummary) -> None:
    """A removed worktree run takes its branch with it, and its worktree when that still holds it."""
    try:
        record = store.read(run_id)
    except RelayError:
        return  # no readable record: a leftover branch is found by remove_leftovers (relay.isolate.leftovers)
    if not record.isolation.branch:
        return
    errors = discard_run(settings.data_dir, run_id, record.isolation.worktree, record.isolation.branch)
    summary.errors += errors
    if not errors:
        summary.worktrees.append(f"branch {record.isolation.branch}")


def _limits_text(max_runs: int | None, max_age_days: float | None, max_size_bytes: int | None) -> str:
    parts = []
    if max_runs:
        parts.append(f"GRAVITY_RELAY_MAX_RUNS={max_runs}")
    if max_age_days:
        parts.append(f"GRAVITY_RELAY_MAX_AGE_DAYS={max_age_days:g}")
    if max_size_bytes:
        parts.append(f"GRAVITY_RELAY_MAX_SIZE={human_bytes(max_size_bytes)}")
    return ", ".join(parts) or "no limits"


async def retain_in_background(settings: Settings) -> RetentionSummary | None:
    """``apply_retention`` in a worker thread, for the server's start-up; never raises.

    Housekeeping must not stop the server: a failure is logged (stderr) and forgotten.
    Cancelling the server does not wait for it (the thread finishes on its own).
    """
    import anyio

    try:
        return await anyio.to_thread.run_sync(partial(apply_retention, settings, guard=True), abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        raise
    except Exception as exc:
        log.warning("retention at start-up skipped: %s: %s", type(exc).__name__, exc)
        return None
