"""``gravity-relay runs list|show|diff|revert|apply|cancel``: the run records, read the way the MCP tool reads them.

``runs show`` is ``antigravity_get_result`` itself (tools.get_result): the same bytes, errors included;
``runs diff`` is ``antigravity_get_result(detail="diff")``, the patch text as it is. ``runs apply`` is
``antigravity_continue(run_id, apply=true)`` itself (tools.call_tool), likewise, and ``runs cancel`` is
``antigravity_cancel(run_id)``: a run a shell started with ``execute --wait`` is stopped from a shell. ``runs revert`` undoes
a run from its patch (relay.runs.patches).
"""

from __future__ import annotations

import sys

from relay.call.orchestrate import Relay
from relay.core.contracts import Status
from relay.core.errors import RelayError
from relay.core.redact import mask
from relay.core.shown import harmless, one_line
from relay.core.settings import Settings
from relay.doors.tools import CANCEL, CONTINUE, RECENT_RUNS, call_tool, get_result, policy_broken_beside, recent_runs, run_row
from relay.runs.patches import revert_run
from relay.runs.results import encode, status_of
from relay.runs.store import RUN_ID_PATTERN, RunStore
from relay.runs.usage import record_usage, usage_totals

__all__ = ["runs_list", "runs_show", "runs_diff", "runs_revert", "runs_apply", "runs_cancel", "recent_runs", "run_row", "RECENT_RUNS"]


def _say(message: str, hint: str) -> None:
    """An error in words on stderr, the one way the runs commands say one: what is wrong, then what to do."""
    print(f"gravity-relay: {harmless(message)}\n  {harmless(hint)}", file=sys.stderr)  # they may name a worker's file


def runs_show(settings: Settings, run_id: str | None, *, detail: str = "summary", max_chars: int | None = None) -> int:
    """Print exactly the text block antigravity_get_result returns for the same arguments, errors included
    (stdout); an error is also said in words on stderr. Exit 0, 1 for an error, 2 for a bad argument.
    ``max_chars`` None leaves it out, as a call that names none: each detail's own default."""
    arguments: dict = {} if run_id is None else {"run_id": run_id, "detail": detail}
    if run_id is not None and max_chars is not None:
        arguments["max_chars"] = max_chars
    result = get_result(Relay(settings), arguments)
    text = result.text
    # A diff view ends with its own newline; the JSON views get one.
    sys.stdout.write(text if detail == "diff" and not result.is_error else text + "\n")
    if not result.is_error:
        return 0
    error = result.error
    assert error is not None  # an error answer carries its error
    _say(error.message, error.hint)
    return 2 if error.code is Status.INVALID_INPUT else 1


def runs_apply(settings: Settings, run_id: str) -> int:
    """Apply a worktree run's change: print exactly what antigravity_continue(run_id, apply=true) answers
    (stdout), the error in words on stderr. Exit 0, 1 when refused (a conflict included), 2 for a bad run id."""
    return _as_the_tool(settings, CONTINUE, {"run_id": run_id, "apply": True})


def runs_cancel(settings: Settings, run_id: str) -> int:
    """Stop a running run: print exactly what antigravity_cancel(run_id) answers (stdout; the CANCELLED packet, or
    the packet of a run that had already ended), the error in words on stderr. Exit 0 when the packet is ok, 1
    otherwise (CANCELLED included: the work did not finish), 2 for a bad run id."""
    return _as_the_tool(settings, CANCEL, {"run_id": run_id})


def _as_the_tool(settings: Settings, tool: str, arguments: dict) -> int:
    import anyio

    result = anyio.run(call_tool, Relay(settings), tool, arguments)
    text = result.text
    sys.stdout.write(text + "\n")
    if not result.is_error:
        return 0
    error = result.error
    assert error is not None  # an error answer carries its error
    _say(error.message, error.hint)
    # Bad usage (2) is a run id not of a run id's form, whatever the tool's words for it (`runs apply ""` was told
    # "apply needs the run_id" and exited 1, its twins 2); any other refusal is about the run (1).
    return 2 if not RUN_ID_PATTERN.fullmatch(str(arguments.get("run_id", ""))) else 1


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
    usages = []  # of the runs listed, for the totals line of --json
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
        files = len(record.observation.changes)
        seconds = f"{record.outcome.duration_ms / 1000:.1f}s" if record.outcome.duration_ms is not None else "-"
        state = shown_status.value
        usage = record_usage(record)
        usages.append(usage)
        if as_json:
            row = run_row(record, wide=True)
            if usage is not None:
                row["usage"] = usage
            sys.stdout.write(encode(row).decode() + "\n")
        else:
            broke = "  ! policy violation" if policy_broken_beside(record) else ""
            sys.stdout.write(f"{record.run_id}  {record.created_at[:19].replace('T', ' ')}  {state:<18} "
                             f"{files:>4} files  {seconds:>8}  {_tokens_text(usage):>15}  "
                             f"{one_line(mask(record.plan.workspace or ''))}{broke}\n")
        shown += 1
        if shown >= limit:
            break
    if as_json:
        # The last line: what the listed runs cost together (a line without run_id, so readers of the rows can skip it).
        sys.stdout.write(encode({"totals": usage_totals(usages)}).decode() + "\n")
    if shown == 0 and not as_json:
        print(f"no runs{' with status ' + wanted.value if wanted else ''} in {store.runs_dir}", file=sys.stderr)
    for error in unreadable:
        _say(error.message, error.hint)
    return 0


def _tokens_text(usage) -> str:
    """``12.9k/127 tok``: tokens in (thousands) / out; ``-`` when agy reported none."""
    if usage is None or not (usage.tokens_in or usage.tokens_out):
        return "-"
    tokens_in = f"{usage.tokens_in / 1000:.1f}k" if usage.tokens_in >= 1000 else str(usage.tokens_in)
    return f"{tokens_in}/{usage.tokens_out} tok"


def runs_diff(settings: Settings, run_id: str, *, max_chars: int | None = None) -> int:
    """The run's review read (its review targets at the packet's lines, then the rest as room allows):
    exactly antigravity_get_result(detail="diff")'s text."""
    return runs_show(settings, run_id, detail="diff", max_chars=max_chars)


def runs_revert(settings: Settings, run_id: str, *, dry_run: bool = False, as_json: bool = False) -> int:
    """Undo a run from its patch; exit 0 when done (or, with --dry-run, when it would apply), 1 when refused."""
    try:
        result = revert_run(RunStore(settings.runs_dir), run_id, dry_run=dry_run, settings=settings)
    except RelayError as exc:
        if as_json:
            error = {"code": exc.status.value, "message": harmless(exc.message), "hint": harmless(exc.hint)}
            sys.stdout.write(encode({"run_id": run_id, "error": error}).decode() + "\n")
        _say(exc.message, exc.hint)
        return 2 if exc.status is Status.INVALID_INPUT else 1
    # The actions name the run's files as the worker named them: shown, never obeyed by the terminal.
    result.actions = [harmless(action) for action in result.actions]
    if as_json:
        sys.stdout.write(encode(result).decode() + "\n")
        return 0
    if not result.actions:
        sys.stdout.write(f"run {run_id}: its patch holds no file change; nothing to revert\n")
        return 0
    verb = "would revert" if dry_run else "reverted"
    sys.stdout.write(f"{verb} run {run_id} in {one_line(result.workspace)}:\n")
    for action in result.actions:
        sys.stdout.write(f"  {action}\n")
    if dry_run:
        sys.stdout.write("the patch reverse-applies cleanly (git apply -R --check); run without --dry-run to do it\n")
    return 0
