"""MCP Tasks (the 2026-07-28 extension ``io.modelcontextprotocol/tasks``) over the run store (issue 27, item 2).

A client that declares the extension on a request (Claude Code's interactive CLI does) gets
``antigravity_execute`` / ``antigravity_continue`` answered at once with a task whose id is the run id;
it then polls ``tasks/get`` and may send ``tasks/cancel``. Nothing new runs here: the call is today's
call with ``wait_seconds`` 0 (the run detaches, relay/call/detached.py), ``tasks/get`` is
``antigravity_get_result`` (a finished run answers the packet a waited call answers) and ``tasks/cancel``
is ``antigravity_cancel`` (the worker group killed, CANCELLED recorded). Clients that do not declare the
extension keep ``wait_seconds``/RUNNING unchanged.

Only on 2026-07-28 sessions: the SDK passes an extension ``resultType`` through there only (a legacy wire
is sieved to the core result shapes), and the extension belongs to that revision.

Every task object carries what the extension's ``Task`` requires (its 2026-07-28 text): ``createdAt`` (the
record's), ``lastUpdatedAt`` (the run's end, or the last write to its record or transcript while it runs),
``ttlMs`` (the runs folder's age limit, GRAVITY_RELAY_MAX_AGE_DAYS; null when that rule is off) and
``pollIntervalMs`` (the relay's progress cadence: polling faster learns nothing new; Claude Code honours it).
``tasks/get`` answers at once (the extension has no blocking read). ``tasks/cancel`` and ``tasks/update``
answer the empty acknowledgement the extension asks for (a relay task never waits for input, so an update
has nothing to deliver); the cancelled run's packet stays readable through ``tasks/get``. A request for a
task from a client that did not declare the extension on it is refused with -32021, as the extension says.
"""

from __future__ import annotations

import datetime as _dt
import os
from typing import Any

import anyio
from mcp import types
from mcp.server import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

from relay.core.contracts import Packet, Running, Status
from relay.core.errors import RelayError
from relay.doors.tools import CANCEL, CONTINUE, EXECUTE, GET_RESULT, ToolAnswer, call_tool
from relay.runs.results import status_of

__all__ = ["TASKS", "TaskParams", "TaskUpdateParams", "declares_tasks", "declared", "refuse_undeclared", "as_task",
           "task_state", "task_acknowledged"]

TASKS = "io.modelcontextprotocol/tasks"
MISSING_CAPABILITY = -32021  # the extension's "Missing Required Client Capability"
MIN_POLL_MS = 250  # a floor for a tiny GRAVITY_RELAY_PROGRESS_SECONDS: a poll is a record read


class TaskParams(types.RequestParams):
    """``tasks/get`` and ``tasks/cancel``: the task (= run) id."""

    task_id: str = Field(alias="taskId")


class TaskUpdateParams(TaskParams):
    """``tasks/update``: answers to a task's input requests (a relay task never has any outstanding)."""

    input_responses: dict[str, Any] = Field(default_factory=dict, alias="inputResponses")


def declares_tasks(ctx: ServerRequestContext, tool: str) -> bool:
    """Whether this request may be answered with a task: execute/continue, a 2026 session, the extension declared."""
    return tool in (EXECUTE, CONTINUE) and declared(ctx)


def declared(ctx: ServerRequestContext) -> bool:
    """Whether this request (a 2026-07-28 session's; its capabilities ride on each request) declares Tasks."""
    session = ctx.session
    if getattr(session, "protocol_version", None) not in MODERN_PROTOCOL_VERSIONS:
        return False
    caps = getattr(session, "client_capabilities", None)
    extensions = getattr(caps, "extensions", None) if caps is not None else None
    return bool(extensions) and TASKS in extensions


def refuse_undeclared(ctx: ServerRequestContext, method: str) -> None:
    """A tasks/* request from a client that did not declare the extension on it: -32021, naming what is missing."""
    if not declared(ctx):
        raise MCPError(code=MISSING_CAPABILITY,
                       message=f"{method} needs the {TASKS} extension declared in the request's client capabilities",
                       data={"requiredCapabilities": {"extensions": {TASKS: {}}}})


def _iso(stamp: float) -> str:
    return _dt.datetime.fromtimestamp(stamp, _dt.timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _mtime(path) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def _task_times(relay, record) -> dict[str, Any]:
    """The fields every task object carries, from the run's record (read off the event loop by the caller)."""
    settings = relay.settings
    updated = record.outcome.finished_at
    if updated is None:  # running: its record and transcript are written as it goes
        latest = max(_mtime(relay.store.record_path(record.run_id)), _mtime(relay.store.transcript_path(record.run_id)))
        updated = max(_iso(latest), record.created_at) if latest else record.created_at
    ttl = round(settings.max_age_days * 86_400_000) if settings.max_age_days and settings.max_age_days > 0 else None
    return {"createdAt": record.created_at, "lastUpdatedAt": updated, "ttlMs": ttl,
            "pollIntervalMs": max(MIN_POLL_MS, round(settings.progress_interval * 1000))}


async def _record(relay, task_id: str):
    try:
        return await anyio.to_thread.run_sync(relay.store.read, task_id)
    except RelayError as exc:
        # Unknown id, unreadable record: what was wrong and what to do, as the request's error.
        raise MCPError(code=types.INVALID_PARAMS, message=f"task {task_id}: {exc.message} {exc.hint}") from None


async def as_task(relay, answer: ToolAnswer) -> dict[str, Any] | None:
    """The task answer for a call's answer when it is a RUNNING run, else None (the call answered by itself:
    a refusal, a preview, an apply)."""
    running = answer.answer
    if not isinstance(running, Running):
        return None
    record = await _record(relay, running.run_id)
    return {"resultType": "task", "taskId": running.run_id, "status": "working",
            "statusMessage": running.where or "running", **await anyio.to_thread.run_sync(_task_times, relay, record)}


async def task_acknowledged(relay, task_id: str, *, cancel: bool) -> dict[str, Any]:
    """``tasks/cancel`` (the run stopped: today's cancel) or ``tasks/update`` (nothing awaits input): {} once done."""
    await _record(relay, task_id)
    if cancel:
        answer = await call_tool(relay, CANCEL, {"run_id": task_id})
        if status_of(await _record(relay, task_id)) is Status.RUNNING:  # not stopped: say why, not "done"
            raise MCPError(code=types.INTERNAL_ERROR, message=f"task {task_id} was not stopped: {answer.text}")
    return {}


async def task_state(relay, task_id: str, result_of) -> dict[str, Any]:
    """``tasks/get`` for one run: working, or its end with the packet as the task's ``result``.
    ``result_of`` turns a ToolAnswer into the tools/call result (mcp_server.call_result)."""
    await _record(relay, task_id)
    answer = await call_tool(relay, GET_RESULT, {"run_id": task_id, "wait_seconds": 0})
    said = answer.answer
    if not isinstance(said, (Packet, Running)):  # a read that failed: say it as the request's error
        raise MCPError(code=types.INTERNAL_ERROR, message=f"task {task_id}: {answer.text}")
    # Read after the answer: the times then describe the state the answer gives (a run may end in between).
    times = await anyio.to_thread.run_sync(_task_times, relay, await _record(relay, task_id))
    if isinstance(said, Running):
        return {"taskId": task_id, "status": "working", "statusMessage": said.where or "running", **times}
    state = "cancelled" if said.status is Status.CANCELLED else "completed"
    result = result_of(answer).model_dump(mode="json", by_alias=True, exclude_none=True)
    return {"taskId": task_id, "status": state, "statusMessage": said.status.value, **times, "result": result}
