"""``gravity-relay runs list|show``: the run records, read the way the MCP tool reads them."""

from __future__ import annotations

import sys

import msgspec

from .contracts import GetResultInput, Status
from .errors import RelayError
from .results import encode, render_result
from .settings import Settings
from .store import RunStore

__all__ = ["runs_list", "runs_show"]


def runs_show(settings: Settings, run_id: str, *, detail: str = "summary", max_chars: int = 12_000) -> int:
    """Print exactly the text block antigravity_get_result returns for the same arguments."""
    store = RunStore(settings.runs_dir)
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
        if wanted is not None and record.status is not wanted:
            continue
        files = len(record.changes)
        seconds = f"{record.duration_ms / 1000:.1f}s" if record.duration_ms is not None else "-"
        state = record.status.value if record.status else record.state.upper()
        if as_json:
            row = {"run_id": record.run_id, "created_at": record.created_at, "status": state, "files": files,
                   "duration_ms": record.duration_ms, "workspace": record.workspace}
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


