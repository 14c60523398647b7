"""Claude Code's model wire: the Anthropic Messages API, ``POST {ANTHROPIC_BASE_URL}/v1/messages`` (SSE).

Claude Code also sends side requests (a title or a quota probe, token counting); a request that
offers no relay tool is answered with plain text and does not advance the dialogue.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from .dialogue import Call, Delegation, Say, ToolOutput
from .fakemodel import Recorded, Reply

__all__ = ["MessagesAdapter"]

# Claude Code defers MCP tools: the model sees their names only and must load them with ToolSearch,
# as a real model does when the system prompt lists a connecting or deferred MCP server.
TOOL_SEARCH = "ToolSearch"
# All four, as a model that may wait for, cancel or read a run loads them (with two, a cancel was "No such tool").
SEARCH_QUERY = ("select:mcp__antigravity__antigravity_execute,mcp__antigravity__antigravity_continue,"
                "mcp__antigravity__antigravity_get_result,mcp__antigravity__antigravity_cancel")


def _event(obj: dict[str, Any]) -> bytes:
    return f"event: {obj['type']}\ndata: {json.dumps(obj)}\n\n".encode()


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return json.dumps(content)


def _blocks(messages: list[Any], role: str, kind: str) -> list[dict[str, Any]]:
    return [block for m in messages if isinstance(m, dict) and m.get("role") == role and isinstance(m.get("content"), list)
            for block in m["content"] if isinstance(block, dict) and block.get("type") == kind]


def _tool_results(messages: list[Any]) -> tuple[list[ToolOutput], bool]:
    """The relay tools' results in order, and whether a ToolSearch was already answered."""
    called = {b.get("id"): b.get("name", "") for b in _blocks(messages, "assistant", "tool_use")}
    outputs, searched = [], False
    for block in _blocks(messages, "user", "tool_result"):
        name = called.get(block.get("tool_use_id"), "")
        if name == TOOL_SEARCH:
            searched = True
        elif "antigravity_" in name:
            outputs.append(ToolOutput(block.get("content"), _text(block.get("content"))))
    return outputs, searched


class MessagesAdapter:
    def __init__(self, dialogue: Delegation, model: str = "claude-sonnet-4-5") -> None:
        self.dialogue = dialogue
        self.model = model
        self._ids = itertools.count(1)

    def reply(self, request: Recorded) -> Reply:
        path = request.path.split("?")[0].rstrip("/")
        if request.method == "POST" and path.endswith("/messages/count_tokens"):
            return Reply.json({"input_tokens": 10})
        if request.method != "POST" or not path.endswith("/messages"):
            return Reply.json({"type": "error", "error": {"type": "not_found_error",
                                                           "message": f"fake model: no {request.method} {request.path}"}},
                              status=404)
        body = request.json() or {}
        names = [t["name"] for t in body.get("tools") or [] if isinstance(t, dict) and isinstance(t.get("name"), str)]
        outputs, searched = _tool_results(body.get("messages") or [])
        if any(n.endswith("antigravity_execute") for n in names):
            step = self.dialogue.next(names, outputs)
        elif TOOL_SEARCH in names and "antigravity" in json.dumps(body.get("system")) + json.dumps(body.get("messages")):
            step = Call(TOOL_SEARCH, {"query": SEARCH_QUERY}) if not searched else self.dialogue.next(names, outputs)
        else:
            step = Say("ok")  # a side request (title, probe): not part of the dialogue
        n = next(self._ids)
        if isinstance(step, Call):
            block = {"type": "tool_use", "id": f"toolu_{n:04d}", "name": step.name, "input": step.args}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": step.text}
            stop = "end_turn"
        usage = {"input_tokens": 1, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        message = {"id": f"msg_{n:04d}", "type": "message", "role": "assistant", "model": body.get("model", self.model),
                   "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage}
        if not body.get("stream"):
            return Reply.json({**message, "content": [block], "stop_reason": stop})
        if block["type"] == "tool_use":
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        return Reply.sse([
            _event({"type": "message_start", "message": message}),
            _event({"type": "content_block_start", "index": 0, "content_block": start}),
            _event({"type": "content_block_delta", "index": 0, "delta": delta}),
            _event({"type": "content_block_stop", "index": 0}),
            _event({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 1}}),
            _event({"type": "message_stop"}),
        ])
