"""Codex's model wire: the OpenAI Responses API, ``POST {base_url}/responses`` streamed as SSE."""

from __future__ import annotations

import itertools
import json
from typing import Any

from .dialogue import Call, Delegation, Say, ToolOutput
from .fakemodel import Recorded, Reply

__all__ = ["ResponsesAdapter"]


def _event(obj: dict[str, Any]) -> bytes:
    return f"event: {obj['type']}\ndata: {json.dumps(obj)}\n\n".encode()


def _names(tools: Any) -> list[str]:
    """Every tool name in the request; a namespaced one (Codex puts each MCP server's tools in
    ``{"type": "namespace", "name": "mcp__<server>", "tools": [...]}``) as ``namespace.name``."""
    names: list[str] = []
    for tool in tools or []:
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            continue
        if tool.get("type") == "namespace":
            names += [f"{tool['name']}.{n}" for n in _names(tool.get("tools"))]
        else:
            names.append(tool["name"])
    return names


def _function_call(name: str, arguments: dict[str, Any], n: int) -> dict[str, Any]:
    namespace, _, bare = name.rpartition(".")
    item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": bare,
            "arguments": json.dumps(arguments)}
    if namespace:
        item["namespace"] = namespace
    return item


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(part.get("text", "") for part in value if isinstance(part, dict))
    return json.dumps(value)


class ResponsesAdapter:
    def __init__(self, dialogue: Delegation) -> None:
        self.dialogue = dialogue
        self._ids = itertools.count(1)

    def reply(self, request: Recorded) -> Reply:
        if request.method != "POST" or not request.path.rstrip("/").endswith("/responses"):
            return Reply.json({"error": {"message": f"fake model: no {request.method} {request.path}"}}, status=404)
        body = request.json() or {}
        outputs = [ToolOutput(item.get("output"), _text(item.get("output")))
                   for item in body.get("input", []) if isinstance(item, dict)
                   and item.get("type") in ("function_call_output", "custom_tool_call_output")]
        step = self.dialogue.next(_names(body.get("tools")), outputs)
        n = next(self._ids)
        events = [_event({"type": "response.created", "response": {"id": f"resp_{n}"}})]
        if isinstance(step, Call):
            events.append(_event({"type": "response.output_item.done", "item": _function_call(step.name, step.args, n)}))
        else:
            assert isinstance(step, Say)
            events.append(_event({"type": "response.output_item.done", "item": {
                "type": "message", "role": "assistant", "id": f"msg_{n}",
                "content": [{"type": "output_text", "text": step.text}]}}))
        events.append(_event({"type": "response.completed", "response": {"id": f"resp_{n}", "usage": {
            "input_tokens": 1, "input_tokens_details": None, "output_tokens": 1,
            "output_tokens_details": None, "total_tokens": 2}}}))
        return Reply.sse(events)
