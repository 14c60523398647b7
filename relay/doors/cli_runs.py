"""``gravity-relay runs list|show``: the run records, read the way the MCP tool reads them.

``runs show`` is ``antigravity_get_result`` itself (tools.get_result): the same bytes, errors included.
"""

from __future__ import annotations

import sys

import msgspec

from relay.call.orchestrate import Relay
from relay.core.contracts import Status
from relay.core.errors import RelayError
from relay.core.settings import Settings
from relay.doors.tools import RECENT_RUNS, get_result, recent_runs, run_row
from relay.runs.results import encode, status_of
from relay.runs.store import RunStore

__all__ = ["runs_list", "runs_show", "recent_runs", "run_row", "RECENT_RUNS"]


def _say(message: str, hint: str) -> None:
    """An error in words on stderr, the one way the runs commands say one: what is wrong, then what to do."""
    print(f"gravity-relay: {message}\n  {hint}", file=sys.stderr)


def runs_show(settings: Settings, run_id: str | None, *, detail: str = "summary", max_chars: int = 12_000) -> int:
    """Print exactly the text block antigravity_get_result returns for the same arguments, errors included
    (stdout); an error is also said in words on stderr. Exit 0, 1 for an error, 2 for a bad argument."""
    arguments = {} if run_id is None else {"run_id": run_id, "detail": detail, "max_chars": max_chars}
    result = get_result(Relay(settings), arguments)
    text = result.text
    sys.stdout.write(text + "\n")
    if not result.is_error:
        return 0
    error = msgspec.json.decode(text)["error"]
    _say(error["message"], error["hint"])
    return 2 if error["code"] == Status.INVALID_INPUT.value else 1


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
        _say(error.message, error.hint)
    return 0


