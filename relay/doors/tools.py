"""The tools both doors call: one dispatch, one argument decoding, one error shape, so the same bytes.

The MCP server and the CLI (``execute``, ``continue``, ``runs show``) call ``call_tool`` / ``get_result``;
the work is done by ``Relay`` (orchestrate.py) and ``render_result`` (results.py). Errors are mapped here,
once (``errors.error_object``); a bug is logged with its traceback and answered as MCP_ERROR, never as a
JSON-RPC error. Argument names a tool does not know are ignored (clients add their own, e.g. Gemini's
``wait_for_previous``) and recorded in the run record; a wrong type of a known field is still refused.

``recent_runs`` is what ``antigravity_get_result`` answers without a run id: after a client timeout
or Ctrl-C the leader never saw the run id, and this is how it finds the run again.
"""

from __future__ import annotations

import logging
import weakref
from functools import partial
from typing import Any

import anyio
import msgspec

from relay.call.detached import Detacher
from relay.call.finish import CLIENT_ADDED_ARGUMENTS
from relay.call.intake import AwaitingPerson, CallPlan, call_wait
from relay.call.once import Repeat
from relay.call.orchestrate import Relay
from relay.call.progress import no_progress
from relay.core.contracts import (CancelInput, ContinueInput, ErrorInfo, ExecuteInput, GetResultInput, Packet, RunRecord,
                                  Running, Status, explain)
from relay.core.errors import InvalidInput, RelayError, as_relay_error, error_object
from relay.core.redact import mask, redact_obj
from relay.runs.results import encode, packet_object
from relay.runs.ended_early import ended_early
from relay.runs.store import RunStore

__all__ = ["detacher_for", "EXECUTE", "CONTINUE", "GET_RESULT", "CANCEL", "ToolAnswer", "View", "call_tool", "run_call",
           "get_result", "recent_runs", "run_row", "RECENT_RUNS",
           "lone_surrogate", "as_text", "nesting_depth", "MAX_NESTING"]

log = logging.getLogger("relay.doors.tools")

EXECUTE, CONTINUE, GET_RESULT = "antigravity_execute", "antigravity_continue", "antigravity_get_result"
CANCEL = "antigravity_cancel"
RECENT_RUNS = 10  # what the leader gets: enough to find a lost run, small enough to pay for
_TASK_CHARS = 60


class View(msgspec.Struct, frozen=True):
    """A read's answer as the reader sees it (get_result's views, the recent runs, an error): its object and
    its text, made by the function that read it (runs/results.py, errors.error_object) and never re-read."""

    obj: dict[str, Any]
    text: str
    error: ErrorInfo | None = None  # set: the answer is this error (the shell door says it in words too)


class ToolAnswer:
    """A tool's answer, whichever door asked: one typed value from the call to the door's last line, and whether
    it is an error. A ``Packet`` or ``Running`` becomes JSON once, when a door first reads ``text`` or ``obj``
    (the edge); an ``AwaitingPerson`` never leaves a door: the MCP door asks the person, then answers with what
    they chose (mcp_server). Free of the MCP SDK, so the shell's commands start without importing it (~0.7 s
    of CPU each); the MCP server wraps it (mcp_server.call_result)."""

    __slots__ = ("answer", "is_error", "_obj", "_text")

    def __init__(self, answer: Packet | Running | View | AwaitingPerson) -> None:
        self.answer = answer
        # A failure: a packet that is not SUCCESS, a view of an error. RUNNING is not one: the run goes on.
        self.is_error = (not answer.ok) if isinstance(answer, Packet) else (
            isinstance(answer, View) and answer.error is not None)
        self._obj: dict[str, Any] | None = None
        self._text: str | None = None

    @property
    def obj(self) -> dict[str, Any]:
        """The answer as JSON's object: what structured content carries, the same as ``text`` says."""
        if self._obj is None:
            answer = self.answer
            if isinstance(answer, View):
                self._obj = answer.obj
            elif isinstance(answer, Packet):
                self._obj = packet_object(answer)
            elif isinstance(answer, Running):
                self._obj = msgspec.to_builtins(answer)
            else:
                raise TypeError(f"{type(answer).__name__} is answered by the door that asks, never sent as it is")
        return self._obj

    @property
    def text(self) -> str:
        """The one text block (a view keeps its own: a diff view's text is the patch)."""
        if self._text is None:
            self._text = self.answer.text if isinstance(self.answer, View) else encode(self.obj).decode()
        return self._text

    @property
    def error(self) -> ErrorInfo | None:
        answer = self.answer
        return answer.error if isinstance(answer, (Packet, View)) else None


_DETACHERS: weakref.WeakKeyDictionary[Relay, Detacher] = weakref.WeakKeyDictionary()


def detacher_for(relay: Relay) -> Detacher:
    """The detacher of ``relay`` (one per Relay, built at first use): its detached runs, waits and cancels.

    The doors own it (the run never calls back into it): both doors reach the same one through the Relay they
    share, so a run started by the MCP server is waited for and cancelled by the same object."""
    detacher = _DETACHERS.get(relay)
    if detacher is None:
        detacher = _DETACHERS[relay] = Detacher(relay.store, relay.settings, relay.cancel_reasons, relay.where)
    return detacher


def _view(obj: dict[str, Any], text: str) -> ToolAnswer:
    return ToolAnswer(View(obj, text))


def _split_arguments(arguments: dict[str, Any], accepted: type) -> tuple[dict[str, Any], list[str]]:
    """(the arguments the tool knows, the names it ignores)."""
    fields = accepted.__struct_fields__
    known = {k: v for k, v in arguments.items() if k in fields}
    return known, sorted(k for k in arguments if k not in fields)


def _decode(name: str, arguments: dict[str, Any], kind: type):
    known, _ignored = _split_arguments(arguments, kind)
    try:
        return msgspec.convert(known, kind, strict=False)
    except msgspec.ValidationError as exc:
        raise _bad_arguments(name, exc, kind) from None


# The closed choices a hint spells out, for a tool that takes them (antigravity_cancel takes neither).
_CHOICES = {"execution_mode": "execution_mode is 'safe' or 'trusted'",
            "detail": "detail is 'summary', 'errors', 'full' or 'diff'"}


def _bad_arguments(tool: str, exc: msgspec.ValidationError, accepted: type) -> RelayError:
    fields = accepted.__struct_fields__
    choices = "; ".join(said for name, said in _CHOICES.items() if name in fields)
    return InvalidInput(f"{tool}: {explain(exc)}",
                        f"Accepted arguments: {', '.join(fields)}." + (f" {choices}." if choices else ""))


def lone_surrogate(value: Any, where: str = "arguments") -> str | None:
    """The path of the first string (or key) that is not valid Unicode text: a lone UTF-16 surrogate."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"{where} (character {exc.start}: {value[exc.start]!a})"
        return None
    is_dict = isinstance(value, dict)
    for key, item in value.items() if is_dict else enumerate(value) if isinstance(value, list) else ():
        found = ((is_dict and lone_surrogate(key, f"{where} key"))
                 or lone_surrogate(item, f"{where}.{key}" if is_dict else f"{where}[{key}]"))
        if found:
            return found
    return None


MAX_NESTING = 32  # the deepest argument a tool has is 2 levels; JSON parsers stop at a few hundred


def nesting_depth(value: Any, stop: int = MAX_NESTING + 1) -> int:
    """How deep lists and objects nest in ``value`` (a string is 0), counted up to ``stop`` without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if deepest >= stop:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def as_text(value: Any) -> str:
    return str(value).encode("utf-8", "replace").decode("utf-8")


async def call_tool(relay: Relay, name: str, arguments: dict[str, Any] | None, progress=None, *,
                    ask: bool = False, session: object | None = None) -> ToolAnswer:
    """Dispatch one tool call; shared by the MCP handler, the CLI and tests. ``ask``: this door can show a person
    a confirmation form (then a call only a person may confirm answers ``AwaitingPerson``; else it is refused).
    ``session``: the client connection that sent it (a repeat of a running call attaches to its run only
    within one session: relay/call/once.py)."""
    progress = progress or no_progress
    arguments = arguments or {}
    try:
        if nesting_depth(arguments) > MAX_NESTING:
            # Issue 22: 400 levels got no answer over stdio (the SDK's parser stops at its recursion limit and
            # the line was dropped); refused here, for every door, before anything walks it recursively.
            error = InvalidInput(f"{as_text(name)}: the arguments nest lists or objects more than {MAX_NESTING} "
                                 "levels deep", "Send the tool's arguments as its schema says: strings, numbers, "
                                 "lists of strings.")
            if name in (EXECUTE, CONTINUE):
                text = arguments.get("task" if name == EXECUTE else "feedback", "")
                return ToolAnswer(relay.refuse_input(name, as_text(text) if isinstance(text, str) else "", error))
            raise error
        bad = lone_surrogate(arguments)
        if bad:
            # Text no file, argv or JSON answer can hold: refused here, before it reaches any of them.
            error = InvalidInput(
                f"{as_text(name)}: {as_text(bad).replace('arguments.', '', 1)} is not valid Unicode text: it holds "
                "a lone UTF-16 surrogate",
                "Send valid UTF-8 text; in JSON a \\ud800-\\udbff escape must be followed by a \\udc00-\\udfff one.",
            )
            if name in (EXECUTE, CONTINUE):
                text = arguments.get("task" if name == EXECUTE else "feedback", "")
                return ToolAnswer(relay.refuse_input(name, as_text(text), error))
            raise error
        if name in (EXECUTE, CONTINUE):
            kind, text_field = {EXECUTE: (ExecuteInput, "task"), CONTINUE: (ContinueInput, "feedback")}[name]
            known, ignored = _split_arguments(arguments, kind)
            if ignored:
                log.info("%s: ignored unknown argument(s) %s", name, ", ".join(ignored))
            try:
                args = msgspec.convert(known, kind, strict=False)
            except msgspec.ValidationError as exc:
                # Refused, and recorded like any early refusal.
                return ToolAnswer(relay.refuse_input(name, str(arguments.get(text_field, "")),
                                                         _bad_arguments(name, exc, kind), ignored=ignored))
            if name == CONTINUE and args.apply:
                return ToolAnswer(await relay.apply(args))  # not a turn: the run's change into the user's tree
            tool = "execute" if name == EXECUTE else "continue"
            try:
                taken = await relay.once.take(tool, args, session)
            except RelayError as exc:  # a bad key, a key of other arguments, an edited claim: recorded, nothing ran
                return ToolAnswer(relay.refuse_input(name, getattr(args, text_field) or "", exc, ignored=ignored))
            if isinstance(taken, Repeat):
                # A retry of a call that has its run (relay/call/once.py): that run's answer; nothing starts.
                wait = call_wait(args, relay.settings)
                return ToolAnswer(await relay.once.answer(taken, wait, detacher_for(relay), progress))
            try:
                # Resolved once (relay/call/intake.py), before the wait is decided: a refusal or a preview answers
                # here, and a call a person must confirm goes back to the door that asks (mcp_server), which runs
                # it below.
                call = await relay.intake(tool, args, ignored=ignored, ask=ask, run_id=taken.run_id,
                                          fingerprint=taken.fingerprint)
                if isinstance(call, (Packet, AwaitingPerson)):
                    return ToolAnswer(call)
                return await run_call(relay, call, progress)
            finally:
                relay.once.done(taken)
        if name == CANCEL:
            return ToolAnswer(await detacher_for(relay).cancel(_decode(CANCEL, arguments, CancelInput).run_id))
        if name == GET_RESULT:
            args = _decode(GET_RESULT, arguments, GetResultInput)
            if args.run_id is not None and args.wait_seconds is not None:
                answer = await detacher_for(relay).wait(args, progress)
                if isinstance(answer, Running) or args.detail.value == "summary":
                    return ToolAnswer(answer)  # the summary of a finished run: execute's own bytes
            return get_result(relay, arguments)
        raise InvalidInput(f"unknown tool {name!r}", f"Use {EXECUTE}, {CONTINUE}, {GET_RESULT} or {CANCEL}.")
    except anyio.get_cancelled_exc_class():
        raise
    except Exception as exc:  # noqa: BLE001 - the one boundary: every exception leaves in the error shape
        return _error_result(name, exc)


async def run_call(relay: Relay, call: CallPlan, progress=None) -> ToolAnswer:
    """Run a resolved call: RUNNING when its wait ends first and the run goes on (relay/call/detached.py), else
    its packet. The door that asked a person runs the call they confirmed through here too."""
    progress = progress or no_progress
    detached = detacher_for(relay)
    launch = partial(_launch, relay, call)
    if call.wait is not None and detached.available:
        return ToolAnswer(await detached.call(launch, call.wait, progress, run_id=call.record.run_id))
    return ToolAnswer(await detached.inline(launch, progress, run_id=call.record.run_id))


async def _launch(relay: Relay, call: CallPlan, progress, run_id: str) -> Packet:
    return await relay.run(call, progress)


def get_result(relay: Relay, arguments: dict[str, Any]) -> ToolAnswer:
    """antigravity_get_result; synchronous, so ``runs show`` calls it as it is."""
    try:
        args = _decode(GET_RESULT, arguments, GetResultInput)
        _known, ignored = _split_arguments(arguments, GetResultInput)
        ignored = [n for n in ignored if n not in CLIENT_ADDED_ARGUMENTS]
        if args.run_id is None:
            # `runId` or `id` for run_id: the list of recent runs answers, and says why it is not that run's.
            obj, text = recent_runs(relay.store, ignored=ignored)
        elif ignored:
            # `details` for detail: the summary answering as if the diff had been asked for left the model sure of a
            # view it never read; a read is cheap to ask again.
            shown = ", ".join(repr(n if len(n) <= 40 else n[:40] + "…") for n in ignored[:5])
            raise InvalidInput(f"{GET_RESULT}: argument(s) {shown} are not its own, so nothing was read",
                               f"Accepted arguments: {', '.join(GetResultInput.__struct_fields__)}. "
                               f"{_CHOICES['detail']}. Call again with those only.")
        else:
            obj, text = relay.get_result(args)
        return _view(obj, text)
    except Exception as exc:  # noqa: BLE001 - the one boundary
        return _error_result(GET_RESULT, exc)


def _error_result(name: str, exc: Exception) -> ToolAnswer:
    if not isinstance(exc, (RelayError, OSError)):
        log.exception("tool %s failed", name)  # a bug: logged whole; the leader gets something it can act on
    error = as_relay_error(exc, name)
    obj = error_object(error, name)
    return ToolAnswer(View(obj, encode(obj).decode(), error.info()))


def run_row(record: RunRecord, *, wide: bool = False) -> dict[str, Any]:
    """One run in a line: id, tool, status (or state while it runs), start time, the task's beginning
    (``wide``: its file count, duration and workspace too, as `runs list --json` prints).

    The one redaction step of every view of recent runs (get_result without a run id, `runs show` without
    an id, `runs list --json`): the task is masked whole before it is cut, so a key cut at the edge cannot
    leave its first part readable (issue 22, D5), and every other text of the row is masked too."""
    task = mask(" ".join(record.request.task.split()))  # shown with the row, below
    row: dict[str, Any] = {
        "run_id": record.run_id,
        "tool": record.tool,
        "status": record.outcome.status.value if record.outcome.status else record.state.upper(),
        "created_at": record.created_at[:19],
        "task": task if len(task) <= _TASK_CHARS else task[: _TASK_CHARS - 1] + "…",
    }
    if policy_broken_beside(record):
        row["policy_violation"] = True
    if wide:
        row.update(files=len(record.observation.changes), duration_ms=record.outcome.duration_ms, workspace=record.plan.workspace)
    return redact_obj(row)


def policy_broken_beside(record: RunRecord) -> bool:
    """Whether a run that ended for another reason (cancelled, stopped, interrupted) also broke its
    policy: its status says why it ended, so a list would hide the violation without this."""
    return record.outcome.violation is not None and record.outcome.status is not Status.POLICY_VIOLATION


def recent_runs(store: RunStore, limit: int = RECENT_RUNS, *, ignored: list[str] = ()) -> tuple[dict[str, Any], str]:
    """(structured content, text block) listing the newest runs, newest first. ``ignored``: the call's argument names
    antigravity_get_result does not know, said beside the list (a model that wrote `runId` asked for one run)."""
    # The store's one walk (as `runs list`). Ids sort by their second only; runs started in the same second
    # are ordered by created_at (µs), so the walk goes on to the end of the last second before the sort.
    # The newest `limit` records, and beside them the newest `limit` runs that got to agy, however many calls ended
    # before it since (refused, a preview, a person's no): a model making bad calls by the thousand pushed the runs
    # that changed something out of this list (relay.runs.ended_early keeps a bounded number of those records).
    records: list[RunRecord] = []
    unreadable: list[str] = []
    last_second = None
    ran = 0
    for run_id, record, error in store.iter_readable():
        second = run_id.split("-", 1)[0]
        if len(records) >= limit and ran >= limit and second != last_second:
            break
        if record is None:
            unreadable.append(error.message)  # named, not hidden: one bad file must not hide a run
            continue
        records.append(record)
        ran += not ended_early(record)
        last_second = second
    records.sort(key=lambda r: (r.created_at, r.run_id), reverse=True)
    shown = {id(r) for r in records[:limit]} | {id(r) for r in [r for r in records if not ended_early(r)][:limit]}
    obj: dict[str, Any] = {"recent_runs": [run_row(r) for r in records if id(r) in shown]}
    if unreadable:
        obj["unreadable"] = unreadable[:limit]
    if ignored:
        shown = ", ".join(repr(n if len(n) <= 40 else n[:40] + "…") for n in ignored[:5])
        obj["ignored"] = (f"argument(s) {shown} are not {GET_RESULT}'s, so no run was named and this is the list of "
                          "recent runs; name one with run_id (its arguments: run_id, detail, max_chars, wait_seconds)")
    return obj, encode(obj).decode()
