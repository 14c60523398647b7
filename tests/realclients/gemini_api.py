"""Gemini CLI's model wire: the Gemini API, ``POST {GOOGLE_GEMINI_BASE_URL}/v1beta/models/M:streamGenerateContent?alt=sse``.

Side requests (routing classifier, next-speaker check: plain ``generateContent`` with a JSON
schema, and ``countTokens``) get a neutral answer and do not advance the dialogue.
"""

from __future__ import annotations

import json
from typing import Any

from .dialogue import Call, Delegation, Say, ToolOutput, compact
from .fakemodel import Recorded, Reply

__all__ = ["GeminiAdapter"]

USAGE = {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}


# Gemini CLI adds this argument to every tool's schema (MCP tools too) and tells the model to set it;
# a model that follows the schema sends it, so the fake does too.
INJECTED = {"wait_for_previous": False}


def _declarations(tools: Any) -> dict[str, dict[str, Any]]:
    return {d["name"]: d for tool in tools or [] if isinstance(tool, dict)
            for d in tool.get("functionDeclarations") or [] if isinstance(d, dict) and isinstance(d.get("name"), str)}


def _with_injected(declaration: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    schema = declaration.get("parametersJsonSchema") or declaration.get("parameters") or {}
    props = schema.get("properties") or {}
    return {**args, **{k: v for k, v in INJECTED.items() if k in props}}


def _outputs(contents: list[Any]) -> list[ToolOutput]:
    outputs = []
    for content in contents:
        for part in (content.get("parts") or []) if isinstance(content, dict) else []:
            response = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(response, dict) and "antigravity_" in str(response.get("name", "")):
                value = response.get("response")
                outputs.append(ToolOutput(value, _read(value)))
    return outputs


def _read(value: Any) -> str:
    """What the model reads: Gemini CLI answers ``{"output": text}`` (success) or ``{"error": text}``
    (an isError result: the call's args and the whole CallToolResult, stringified); the text, decoded."""
    if isinstance(value, dict) and len(value) == 1:
        (text,) = value.values()
        if isinstance(text, str):
            return text
    return compact(value)


def _side_answer(body: dict[str, Any]) -> str:
    """Schema-constrained side requests want JSON; these keys satisfy the ones Gemini CLI sends."""
    config = body.get("generationConfig") or {}
    if config.get("responseJsonSchema") or config.get("responseSchema") or config.get("responseMimeType") == "application/json":
        return json.dumps({"reasoning": "fake model", "next_speaker": "user", "model_choice": "flash",
                           "complexity_reasoning": "fake", "complexity_score": 1})
    return "ok"


class GeminiAdapter:
    def __init__(self, dialogue: Delegation) -> None:
        self.dialogue = dialogue

    def reply(self, request: Recorded) -> Reply:
        path = request.path.split("?")[0]
        body = request.json() or {}
        if request.method == "POST" and path.endswith(":countTokens"):
            return Reply.json({"totalTokens": 10})
        if request.method != "POST" or not (path.endswith(":streamGenerateContent") or path.endswith(":generateContent")):
            return Reply.json({"error": {"code": 404, "message": f"fake model: no {request.method} {request.path}",
                                         "status": "NOT_FOUND"}}, status=404)
        declarations = _declarations(body.get("tools"))
        names = list(declarations)
        if any(n.endswith("antigravity_execute") for n in names):
            step = self.dialogue.next(names, _outputs(body.get("contents") or []))
        else:
            step = Say(_side_answer(body))
        if isinstance(step, Call):
            args = _with_injected(declarations.get(step.name, {}), step.args)
            part: dict[str, Any] = {"functionCall": {"name": step.name, "args": args}}
        else:
            part = {"text": step.text}
        chunk = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": USAGE, "modelVersion": "gemini-fake"}
        if path.endswith(":generateContent"):
            return Reply.json(chunk)
        return Reply.sse([f"data: {json.dumps(chunk)}\r\n\r\n".encode()])
