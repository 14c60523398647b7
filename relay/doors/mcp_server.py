"""The MCP edge: four tools, a few resources and prompts, over the SDK's low-level server.

Thin on purpose: the tools themselves (dispatch, argument decoding, the error shape) live in
tools.py, which the CLI calls too; here they are announced and their answers sent, as structured
content and as one text block.

An error result (isError) carries its packet once, as the text block only:
every client reads the text block. Gemini CLI is the exception that proves the
need: on isError it hands its model the call's own arguments (the whole task)
plus the result escaped and twice (it rebuilds structured content from the
text), ~3x the packet; so for the clients in ``_ISERROR_MANGLERS`` a failure
packet leaves as an ordinary result — its ``ok:false``/``status``/``error``
still say it failed — and reaches the model at ~1.1x.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from relay import __version__
from relay.core.contracts import CancelInput, ContinueArgs, ExecuteArgs, GetResultInput
from relay.doors.guide import PROMPTS, RESOURCES, instructions, render_prompt
from relay.doors.mcp_tasks import (TASKS, TaskParams, TaskUpdateParams, as_task, declares_tasks, refuse_undeclared,
                                   task_acknowledged, task_state)
from relay.doors.person_confirm import FORM_KEY, RUN, Pending, confirm_form, decision
from relay.doors.run_resources import TEMPLATES, read_run_resource, run_links
from relay.doors.tools import (CANCEL, CONTINUE, EXECUTE, GET_RESULT, MAX_NESTING, ToolAnswer, as_text, call_tool,
                               detacher_for, lone_surrogate, nesting_depth, run_call)
from relay.call.intake import AwaitingPerson
from relay.call.orchestrate import Relay
from relay.observe.git import stop_running_gits
from relay.core.contracts import Status
from relay.core.errors import RelayError
from relay.runs.retention import retain_in_background
from relay.runs.store import RunStore
from relay.core.platform import stop_signals
from relay.core.process import leaving
from relay.core.schemas import input_schema
from relay.core.settings import Settings, load_settings

__all__ = ["create_server", "serve", "serving_relay", "tool_definitions", "call_tool", "call_result"]

log = logging.getLogger("relay.doors.mcp_server")

# A worker edits, and may delete, files in the workspace: honest annotations say so. Only the hints that
# differ from the spec's defaults are sent (readOnly false, idempotent false, openWorld true): every session
# pays for these bytes (tools/list + instructions stay within 3,400: tests/test_tools_snapshot.py).
_WRITES = types.ToolAnnotations(destructive_hint=True)


def tool_definitions() -> list[types.Tool]:
    read_only = types.ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
    # Titles: what a client shows a person in its tool list and approval prompts (issue 27, item 6).
    return [types.Tool(name=name, title=title, description=description, input_schema=input_schema(args),
                       annotations=hints)
            for name, title, args, hints, description in (
                (EXECUTE, "Delegate to agy", ExecuteArgs, _WRITES,
                 "The Antigravity worker (agy) implements a task in the workspace; you get a compact review packet: "
                 "changed files, risk-ranked line ranges to review, test counts."),
                (CONTINUE, "Continue a run", ContinueArgs, _WRITES,
                 "Send the worker feedback on an earlier run (same workspace and conversation), or apply its change."),
                (GET_RESULT, "Read a run", GetResultInput, read_only,
                 "Read a run's record; wait_seconds waits for a RUNNING run."),
                (CANCEL, "Cancel a run", CancelInput, _WRITES, "Stop a RUNNING run; the packet lists its changes."))]


@functools.cache
def _announced_tools() -> list[types.Tool]:
    """``tool_definitions()`` made once per process: the schemas come from the Structs alone, and each server (one a
    session over stdio, one a test) built them again, ~2 ms. Only read (tools/list serializes them)."""
    return tool_definitions()


# clientInfo.name of clients that turn an isError result into several times its bytes (measured:
# tests/realclients, Gemini CLI 0.61: 441 B packet -> 1,329 B with isError, 399 B without).
_ISERROR_MANGLERS = frozenset({"gemini-cli-mcp-client"})


def _client_name(ctx: ServerRequestContext) -> str:
    try:
        return ctx.session.client_params.client_info.name or ""
    except AttributeError:  # no initialize handshake (the 2026 protocol) or an in-memory session
        return ""


def call_result(answer: ToolAnswer, client: str = "", store: RunStore | None = None) -> types.CallToolResult:
    """The SDK's result for a tool's answer: one text block, and the same JSON as structured content unless it
    is an error. For the clients in ``_ISERROR_MANGLERS`` an error leaves as an ordinary result (module doc).
    With ``store``, a finished run's answer also links its diff and transcript as resources (run_resources.py)."""
    is_error = answer.is_error and client not in _ISERROR_MANGLERS
    content: list[Any] = [types.TextContent(type="text", text=answer.text)]
    if store is not None:
        content += run_links(store, answer.obj)
    return types.CallToolResult(content=content, structured_content=None if is_error else answer.obj,
                                is_error=is_error)


def _connection(ctx: ServerRequestContext) -> object | None:
    """The client connection a request came on, which a repeated call must share to attach to the first one's
    run (relay/call/once.py). SDK 2.3 builds a ServerSession per request around the connection it keeps as
    ``_connection``; a 2026-07-28 single-exchange request has a connection of its own (no session: only an
    idempotency key makes its retry one run). Should the SDK stop keeping it there, each request is its own
    session: nothing attaches, never two sessions' calls to one run; mcp 2.3 offers no public way from a request's
    context to its connection, so this is the SDK's one private name the relay reads, and
    tests/test_once.py::test_the_sdk_still_keeps_each_requests_connection_where_the_relay_reads_it names it when
    an SDK moves it."""
    return getattr(ctx.session, "_connection", ctx.session)


def _can_show_form(ctx: ServerRequestContext) -> bool:
    """Whether the client declared form elicitation (``elicitation: {}`` means form, per the spec)."""
    try:
        caps = ctx.session.client_capabilities
    except AttributeError:
        return False
    elicitation = getattr(caps, "elicitation", None) if caps is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


async def _ask_now(ctx: ServerRequestContext, relay: Relay, waiting: AwaitingPerson, progress,
                   asking: set[int]) -> ToolAnswer:
    """A 2025-era session: ask the person while the call waits; run only on their "run". One form at a time in a
    session (``asking``: the sessions a form is open in): a trusted call the model repeats while the person still
    reads the first form was asked in a second form, and a yes to each ran it twice; it is refused, nothing run."""
    assert waiting.call.question is not None
    session = id(_connection(ctx))
    if session in asking:
        return ToolAnswer(relay.decline(waiting.call, "form_open"))
    message, schema = confirm_form(waiting.call.question.preview, waiting.call.prompt)
    asking.add(session)
    try:
        said = await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
    except anyio.get_cancelled_exc_class():
        raise
    except Exception as exc:  # noqa: BLE001 - a client that fails the request has not confirmed anything
        log.warning("confirmation form not answered: %s", exc)
        return ToolAnswer(relay.decline(waiting.call, "error"))
    finally:
        asking.discard(session)
    return await _decided(relay, waiting, said, progress)


async def _answered(relay: Relay, pending: Pending, params: types.CallToolRequestParams, progress) -> ToolAnswer:
    """A 2026-07-28 retry: the person's answer in input_responses, our key to the held call as request_state."""
    waiting, same = pending.take(params.request_state or "", params.name, params.arguments)
    if waiting is None:
        text = (params.arguments or {}).get("task" if params.name == EXECUTE else "feedback", "")
        return ToolAnswer(relay.refuse_input(params.name, as_text(text) if isinstance(text, str) else "", RelayError(
            Status.CONFIRMATION_REQUIRED, "this confirmation is not pending: it was answered already, it expired, or "
            "this relay did not ask it; nothing ran", "Call the tool again for a new confirmation form.")))
    if not same:  # the person was asked about another call than this retry's: neither runs
        return ToolAnswer(relay.decline(waiting.call, "changed"))
    return await _decided(relay, waiting, (params.input_responses or {}).get(FORM_KEY), progress)


async def _decided(relay: Relay, waiting: AwaitingPerson, said: Any, progress) -> ToolAnswer:
    choice = decision(said)
    if choice != RUN:
        return ToolAnswer(relay.decline(waiting.call, choice))
    log.info("run %s: a person confirmed the trusted run", waiting.call.record.run_id)
    return await run_call(relay, waiting.call, progress)  # exactly the previewed call: one launch, one record


def create_server(settings: Settings, relay: Relay | None = None,
                  agy: tuple[str | None, str | None] | None = None) -> Server:
    relay = relay or Relay(settings)
    tools = _announced_tools()
    pending = Pending()  # the calls a 2026 session's person is being asked about (person_confirm.py)
    asking: set[int] = set()  # the 2025-era sessions a confirmation form is open in (_ask_now)

    async def on_list_tools(ctx: ServerRequestContext, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams
                           ) -> types.CallToolResult | types.InputRequiredResult | dict[str, Any]:
        sent: list[float] = []  # the last value sent

        async def progress(elapsed: float, message: str) -> None:
            # The spec wants strictly increasing values; two steps in the same tenth of a second
            # (queued, then agy started) would otherwise both say 0.1.
            value = round(elapsed, 1)
            if sent and value <= sent[-1]:
                value = round(sent[-1] + 0.1, 1)
            sent[:] = [value]
            try:
                await ctx.session.report_progress(value, None, message)
            except Exception as exc:  # progress is a courtesy; never let it fail the call
                log.debug("progress not sent: %s", exc)

        # A client that declares Tasks gets a RUNNING run as a task at once (mcp_tasks.py): wait 0, polled later.
        tasked = declares_tasks(ctx, params.name) and isinstance(params.arguments, dict)
        if tasked:
            params = params.model_copy(update={"arguments": {**params.arguments, "wait_seconds": 0}})
        if params.request_state is not None and params.name in (EXECUTE, CONTINUE):
            # A 2026-07-28 retry after our input_required question: the person's answer, our key as state.
            answer = await _answered(relay, pending, params, progress)
        else:
            answer = await call_tool(relay, params.name, params.arguments, progress, ask=_can_show_form(ctx),
                                     session=_connection(ctx))
            waiting = answer.answer
            if isinstance(waiting, AwaitingPerson):  # only a person may confirm this trusted run: ask them
                if ctx.session.protocol_version in MODERN_PROTOCOL_VERSIONS:
                    assert waiting.call.question is not None
                    message, schema = confirm_form(waiting.call.question.preview, waiting.call.prompt)
                    return types.InputRequiredResult(
                        input_requests={FORM_KEY: types.ElicitRequest(params=types.ElicitRequestFormParams(
                            message=message, requested_schema=schema))},
                        request_state=pending.hold(waiting, params.name, params.arguments))
                answer = await _ask_now(ctx, relay, waiting, progress, asking)
        task = await as_task(relay, answer) if tasked else None
        if task is not None:
            return task  # the run goes on; the client polls tasks/get
        return call_result(answer, _client_name(ctx), relay.store)

    async def on_list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[types.Resource(uri=uri, name=r.name, description=r.description, mime_type=r.mime_type)
                       for uri, r in RESOURCES.items()]
        )

    async def on_list_resource_templates(ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=TEMPLATES)

    async def on_read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri not in RESOURCES:
            run_file = await anyio.to_thread.run_sync(read_run_resource, relay.store, uri)
            if run_file is not None:
                return types.ReadResourceResult(contents=[run_file])
            raise ValueError(f"unknown resource {uri}; known: {', '.join(RESOURCES)}, "
                             f"{', '.join(t.uri_template for t in TEMPLATES)}")
        res = RESOURCES[uri]
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=res.mime_type, text=res.render(settings))]
        )

    async def on_list_prompts(ctx, params) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[types.Prompt(name=name, description=p.description,
                                  arguments=[types.PromptArgument(name=a, required=True) for a in p.arguments])
                     for name, p in PROMPTS.items()]
        )

    async def on_get_prompt(ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        return render_prompt(params.name, params.arguments or {})

    @asynccontextmanager
    async def lifespan(_server):
        # Detached runs belong to the server's lifetime, not to the call that started them.
        async with detacher_for(relay).serving():
            yield {}

    def result_of(answer: ToolAnswer) -> types.CallToolResult:
        return call_result(answer, "", relay.store)

    async def on_task_get(ctx: ServerRequestContext, params: TaskParams) -> dict[str, Any]:
        refuse_undeclared(ctx, "tasks/get")
        return await task_state(relay, params.task_id, result_of)

    async def on_task_cancel(ctx: ServerRequestContext, params: TaskParams) -> dict[str, Any]:
        refuse_undeclared(ctx, "tasks/cancel")
        return await task_acknowledged(relay, params.task_id, cancel=True)

    async def on_task_update(ctx: ServerRequestContext, params: TaskUpdateParams) -> dict[str, Any]:
        refuse_undeclared(ctx, "tasks/update")
        return await task_acknowledged(relay, params.task_id, cancel=False)

    server = Server(
        "gravity-relay",
        lifespan=lifespan,
        version=__version__,
        instructions=instructions(settings, agy),
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
        on_list_resources=on_list_resources,
        on_list_resource_templates=on_list_resource_templates,
        on_read_resource=on_read_resource,
        on_list_prompts=on_list_prompts,
        on_get_prompt=on_get_prompt,
    )
    # Tasks for clients that declare them (issue 27, item 2): advertised, and served from the run store.
    server.extensions[TASKS] = {}
    server.add_request_handler("tasks/get", TaskParams, on_task_get)
    server.add_request_handler("tasks/cancel", TaskParams, on_task_cancel)
    server.add_request_handler("tasks/update", TaskUpdateParams, on_task_update)
    return server


def serving_relay(settings: Settings) -> Relay:
    """The Relay a long-lived server starts with (stdio or HTTP): settings problems said, and the runs of
    relay processes that died finished first (INTERRUPTED, their orphan groups killed, identity checked)."""
    for problem in settings.problems:
        log.warning("configuration: %s", problem)
    relay = Relay(settings)
    try:
        recovered = relay.recover_dead_runs()
        if recovered:
            log.warning("marked %d run(s) of dead relay processes INTERRUPTED: %s", len(recovered), ", ".join(recovered))
    except OSError as exc:
        log.warning("could not check for interrupted runs in %s: %s", settings.runs_dir, exc)
    return relay


async def serve(settings: Settings | None = None, agy: tuple[str | None, str | None] | None = None) -> None:
    """Serve MCP over stdio until the client hangs up or a signal arrives."""
    from mcp.server.stdio import stdio_server

    settings = settings or load_settings()
    relay = serving_relay(settings)
    server = create_server(settings, relay, agy)
    server_scope = anyio.CancelScope()
    stopped_by: list[int] = []
    async with anyio.create_task_group() as tg:

        async def on_signals() -> None:
            # SIGTERM from the client (or Ctrl-C, Ctrl-Break) must still stop the worker and write its record, then exit.
            # The receiver stays open until the process leaves: a second signal during that cleanup (Claude Code
            # sends SIGINT, then SIGTERM) must not take the default action and kill the relay mid-record.
            with stop_signals() as signals:
                async for signum in signals:
                    if stopped_by:
                        log.info("signal %s: already stopping (records first)", signum)
                        continue
                    stopped_by.append(int(signum))
                    leaving()  # the workers asked to stop first: the client kills the relay ~0.5 s after its signal
                    log.info("signal %s: stopping", signum)
                    server_scope.cancel()  # calls in flight stop their worker and record CANCELLED
                    tg.start_soon(watchdog)

        async def watchdog() -> None:
            # If that cleanup itself hangs, leave anyway.
            await anyio.sleep(_STOP_DEADLINE)
            log.error("cleanup after signal %s took over %ss; exiting", stopped_by[0], _STOP_DEADLINE)
            _exit_now(1)

        tg.start_soon(on_signals)
        tg.start_soon(retain_in_background, settings)
        async with stdio_server() as (read, write):
            # Requests the SDK cannot parse (a lone surrogate) are answered by a filter in between.
            checked_send, checked_read = anyio.create_memory_object_stream[Any](0)
            tg.start_soon(_answer_what_the_sdk_drops, relay, read, checked_send, write)
            with server_scope:
                await server.run(checked_read, write, server.create_initialization_options())
            if stopped_by:
                # Every call has finished its record. The stdin reader is a thread blocked in read(), which
                # no cancellation reaches (and the interpreter would join it at exit): leave now.
                log.info("stopped by signal %s; records written; exiting", stopped_by[0])
                _exit_now(0)
        tg.cancel_scope.cancel()


_STOP_DEADLINE = 20.0


def _exit_now(code: int) -> None:
    stop_running_gits()  # os._exit runs no atexit: an abandoned look's git would outlive the relay
    for handler in logging.getLogger().handlers:
        try:
            handler.flush()
        except Exception:  # noqa: BLE001 - leaving anyway
            pass
    try:
        sys.stdout.flush()
    except Exception:  # noqa: BLE001
        pass
    os._exit(code)


async def _answer_what_the_sdk_drops(relay: Relay, read, forward, write) -> None:
    """Pass the transport's messages on; answer the requests the SDK cannot parse but Python can.

    The SDK parses each stdin line with pydantic's JSON parser, which refuses a lone
    surrogate escape ("\\ud800": "unexpected end of hex escape"); the line becomes an
    exception on the read stream and the dispatcher drops it at DEBUG level, so the
    leader waited for ever. Python's json module reads such a line; a tools/call is then
    answered (INVALID_INPUT, by call_tool's own check) and any other request gets a
    JSON-RPC error, so every request with an id gets an answer.
    """
    try:
        async with forward:
            async for item in read:
                if isinstance(item, Exception):
                    reply = await _reply_to_undecodable(relay, item)
                    if reply is not None:
                        await write.send(reply)
                        continue
                await forward.send(item)
            # The end of stdin: the client has left (the MCP SDKs' transports close stdin first, then signal 2 s
            # later). Its workers are asked to stop before the server's end reaches the calls, as on a signal.
            leaving()
    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
        return  # the server or the transport has ended: nothing left to pass on


async def _reply_to_undecodable(relay: Relay, exc: Exception):
    import json

    from mcp.shared.message import SessionMessage

    errors = getattr(exc, "errors", None)
    raw = errors()[0].get("input") if callable(errors) and errors() else None
    if not isinstance(raw, str):
        return None
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or "id" not in message or not isinstance(message.get("method"), str):
        return None
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    request_id = message["id"]
    if not isinstance(request_id, (int, str)) or lone_surrogate(request_id):
        return None
    deep = nesting_depth(message, stop=MAX_NESTING + 4) > MAX_NESTING + 3  # the envelope adds params, arguments
    bad = None if deep else lone_surrogate(message)
    if bad is None and not deep:
        return None  # some other reason; the SDK's behaviour stands
    if deep:  # past the SDK parser's recursion limit (issue 22): the request is answered, not dropped
        bad = "the request nests lists or objects too deep"
        log.warning("request %s: %s; answered without the SDK", request_id, bad)
    else:
        log.warning("request %s: %s is not valid Unicode (lone surrogate); answered without the SDK", request_id, bad)
    if deep and message["method"] == "tools/call" and isinstance(params.get("name"), str):
        arguments = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
        result = call_result(await call_tool(relay, params["name"], arguments))
        reply = types.JSONRPCResponse(jsonrpc="2.0", id=request_id,
                                      result=result.model_dump(mode="json", by_alias=True, exclude_none=True))
        return SessionMessage(reply)
    if deep:
        reply = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(
            code=types.INVALID_PARAMS, message=f"{bad} (more than {MAX_NESTING} levels)"))
        return SessionMessage(reply)
    if message["method"] == "tools/call" and isinstance(params.get("name"), str) and not lone_surrogate(params["name"]):
        arguments = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
        result = call_result(await call_tool(relay, params["name"], arguments))
        reply = types.JSONRPCResponse(jsonrpc="2.0", id=request_id,
                                      result=result.model_dump(mode="json", by_alias=True, exclude_none=True))
    else:
        reply = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(
            code=types.INVALID_PARAMS, message=f"{as_text(bad)} is not valid Unicode text (a lone UTF-16 surrogate)"))
    return SessionMessage(reply)
