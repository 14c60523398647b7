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
"""

from __future__ import annotations

from typing import Any

import anyio
import msgspec
from mcp import types
from mcp.server import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

from relay.core.errors import RelayError
from relay.doors.tools import CANCEL, CONTINUE, EXECUTE, GET_RESULT, ToolAnswer, call_tool

__all__ = ["TASKS", "TaskParams", "declares_tasks", "as_task", "task_state"]

TASKS = "io.modelcontextprotocol/tasks"


class TaskParams(types.RequestParams):
    """``tasks/get`` and ``tasks/cancel``: the task (= run) id."""

    task_id: str = Field(alias="taskId")


def declares_tasks(ctx: ServerRequestContext, tool: str) -> bool:
    """Whether this request may be answered with a task: execute/continue, a 2026 session, the extension declared."""
    if tool not in (EXECUTE, CONTINUE):
        return False
    session = ctx.session
    if getattr(session, "protocol_version", None) not in MODERN_PROTOCOL_VERSIONS:
        return False
    caps = getattr(session, "client_capabilities", None)
    extensions = getattr(caps, "extensions", None) if caps is not None else None
    return bool(extensions) and TASKS in extensions


def as_task(answer: ToolAnswer) -> dict[str, Any] | None:
    """The task answer for a call's answer when it is a RUNNING run, else None (the call answered by itself:
    a refusal, a preview, an apply)."""
    obj = answer.structured
    if answer.is_error or not isinstance(obj, dict) or obj.get("status") != "RUNNING" or "run_id" not in obj:
        return None
    return {"resultType": "task", "taskId": obj["run_id"], "status": "working",
            "statusMessage": str(obj.get("where") or "running")}


async def task_state(relay, task_id: str, result_of, *, cancel: bool = False) -> dict[str, Any]:
    """``tasks/get`` (or, with ``cancel``, ``tasks/cancel``) for one run: working, or its end with the packet as
    the task's ``result``. ``result_of`` turns a ToolAnswer into the tools/call result (mcp_server.call_result)."""
    try:
        await anyio.to_thread.run_sync(relay.store.read, task_id)
    except RelayError as exc:
        # Unknown id, unreadable record: what was wrong and what to do, as the request's error.
        raise MCPError(code=types.INVALID_PARAMS, message=f"task {task_id}: {exc.message} {exc.hint}") from None
    if cancel:
        answer = await call_tool(relay, CANCEL, {"run_id": task_id})
    else:
        answer = await call_tool(relay, GET_RESULT, {"run_id": task_id, "wait_seconds": 0})
    obj = answer.structured
    if obj is None:  # a failure packet travels as text only (mcp_server.call_result)
        try:
            obj = msgspec.json.decode(answer.text)
        except msgspec.DecodeError:
            obj = None
    if not isinstance(obj, dict):
        raise MCPError(code=types.INTERNAL_ERROR, message=f"task {task_id}: {answer.text}")
    if obj.get("status") == "RUNNING":
        return {"taskId": task_id, "status": "working", "statusMessage": str(obj.get("where") or "running")}
    state = "cancelled" if obj.get("status") == "CANCELLED" else "completed"
    result = result_of(answer).model_dump(mode="json", by_alias=True, exclude_none=True)
    return {"taskId": task_id, "status": state, "statusMessage": str(obj.get("status")), "result": result}
