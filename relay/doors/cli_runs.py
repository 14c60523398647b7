"""``gravity-relay runs list|show``: the run records, read the way the MCP tool reads them.

``recent_runs`` is what ``antigravity_get_result`` answers without a run id and what
``gravity-relay runs show`` prints without one: after a client timeout or Ctrl-C the
leader never saw the run id, and this is how it finds the run again.
"""

from __future__ import annotations

import sys
from typing import Any

import msgspec

from relay.core.contracts import GetResultInput, RunRecord, Status
from relay.core.errors import RelayError
from relay.runs.results import encode, render_result, status_of
from relay.core.settings import Settings
from relay.runs.store import RunStore

__all__ = ["runs_list", "runs_show", "recent_runs", "run_row", "RECENT_RUNS"]

RECENT_RUNS = 10  # what the leader gets: enough to find a lost run, small enough to pay for
_TASK_CHARS = 60


def run_row(record: RunRecord) -> dict[str, Any]:
    """One run in a line: id, tool, status (or state while it runs), start time, the task's beginning."""
    task = " ".join(record.task.split())
    return {
        "run_id": record.run_id,
        "tool": record.tool,
        "status": record.status.value if record.status else record.state.upper(),
        "created_at": record.created_at[:19],
        "task": task if len(task) <= _TASK_CHARS else task[: _TASK_CHARS - 1] + "…",
    }


def recent_runs(store: RunStore, limit: int = RECENT_RUNS) -> tuple[dict[str, Any], str]:
    """(structured content, text block) listing the newest runs, newest first."""
    # Ids sort by their second only; runs started in the same second are ordered by created_at (µs).
    records: list[RunRecord] = []
    unreadable: list[str] = []
    last_second = None
    for run_id in store.iter_ids():
        second = run_id.split("-", 1)[0]
        if len(records) >= limit and second != last_second:
            break
        try:
            records.append(store.read(run_id))
        except RelayError as exc:
            unreadable.append(exc.message)  # named, not hidden: one bad file must not hide a run
            continue
        last_second = second
    records.sort(key=lambda r: (r.created_at, r.run_id), reverse=True)
    obj: dict[str, Any] = {"recent_runs": [run_row(r) for r in records[:limit]]}
    if unreadable:
        obj["unreadable"] = unreadable[:limit]
    return obj, encode(obj).decode()


def runs_show(settings: Settings, run_id: str | None, *, detail: str = "summary", max_chars: int = 12_000) -> int:
    """Print exactly the text block antigravity_get_result returns for the same arguments."""
    store = RunStore(settings.runs_dir)
    if run_id is None:
        sys.stdout.write(recent_runs(store)[1] + "\n")
        return 0
    try:
        args = msgspec.convert({"run_id": run_id, "detail": detail, "max_chars": max_chars}, GetResultInput)
        record = store.read(args.run_id)
    except msgspec.ValidationError as exc:
        print(f"gravity-relay: {exc}", file=sys.stderr)
        return 2
    except RelayError as exc:
        print(f"gravity-relay: {exc.message}\n  {exc.hint}", file=sys.stderr)
        return 1
    _, text = render_result(record, args.detail, args.max_chars, str(store.record_path(run_id)))
    sys.stdout.write(text + "\n")
    return 0


def runs_list(settings: Settings, *, status: str | None = None, limit: int = 20, as_json: bool = False) -> int:
    if status:
        try:
            wanted = Status(status.upper())
        except ValueError:
            names = ", ".join(s.value for s in Status)
            print(f"gravity-relay: unknown status {status!r}; one of: {names}", file=sys.stderr)
            return 2
    else:
        wanted = None
    store = RunStore(settings.runs_dir)
    shown = 0
    unreadable: list[RelayError] = []
    for run_id, record, error in store.iter_readable():
        if record is None:
            # Listed as what it is, never a traceback: one bad file must not hide the others.
            unreadable.append(error)
            if wanted is not None:
                continue  # its status is unknown; it is still named on stderr below
            if as_json:
                sys.stdout.write(encode({"run_id": run_id, "status": "UNREADABLE", "error": error.message}).decode() + "\n")
            else:
                sys.stdout.write(f"{run_id}  {'?':<19}  {'UNREADABLE':<18} (see below)\n")
            shown += 1
            if shown >= limit:
                break
            continue
        shown_status = status_of(record)
        if wanted is not None and shown_status is not wanted:
            continue
        files = len(record.changes)
        seconds = f"{record.duration_ms / 1000:.1f}s" if record.duration_ms is not None else "-"
        state = shown_status.value
        if as_json:
            row = {**run_row(record), "files": files, "duration_ms": record.duration_ms, "workspace": record.workspace}
            sys.stdout.write(encode(row).decode() + "\n")
        else:
            sys.stdout.write(f"{record.run_id}  {record.created_at[:19].replace('T', ' ')}  {state:<18} "
                             f"{files:>4} files  {seconds:>8}  {record.workspace or ''}\n")
        shown += 1
        if shown >= limit:
            break
    if shown == 0 and not as_json:
        print(f"no runs{' with status ' + wanted.value if wanted else ''} in {store.runs_dir}", file=sys.stderr)
    for error in unreadable:
        print(f"gravity-relay: {error.message}\n  {error.hint}", file=sys.stderr)
    return 0


