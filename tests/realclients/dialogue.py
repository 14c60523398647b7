"""What the fake model does, whatever the wire: delegate, continue, then answer in text.

Each API adapter turns a request into (tool names offered, tool outputs so far) and turns the
dialogue's next step into its own wire format. The dialogue keeps every tool output exactly as the
client handed it to the model, for the test to measure.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

__all__ = ["Call", "Say", "ToolOutput", "Delegation", "compact", "model_bytes", "run_id_in", "FINAL_TEXT"]

EXECUTE = "antigravity_execute"
CONTINUE = "antigravity_continue"
FINAL_TEXT = "Delegation finished."
NO_TOOLS_TEXT = "The relay's tools were not offered."


class Call:
    def __init__(self, name: str, args: dict[str, Any]) -> None:
        self.name = name
        self.args = args


class Say:
    def __init__(self, text: str) -> None:
        self.text = text


class ToolOutput:
    """A tool result as it sits in the model request.

    ``value`` is the JSON value the client sent (``wire_size``: its compact JSON); ``text`` is what
    the model reads (``size``): the text blocks joined where the wire has typed blocks (Codex,
    Claude Code), the decoded string of Gemini's ``{"output"|"error": text}`` response object.
    """

    def __init__(self, value: Any, text: str) -> None:
        self.value = value
        self.text = text

    @property
    def size(self) -> int:
        return len(self.text.encode())

    @property
    def wire_size(self) -> int:
        return model_bytes(self.value)


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def model_bytes(value: Any) -> int:
    """Bytes the model reads: a string's UTF-8 bytes, else the compact JSON of the value."""
    if isinstance(value, str):
        return len(value.encode())
    return len(compact(value).encode())


_RUN_ID = re.compile(r'\\?"run_id\\?"\s*:\s*\\?"([^"\\]+)')


def run_id_in(text: str) -> str | None:
    found = _RUN_ID.search(text)
    return found.group(1) if found else None


def _tool(names: list[str], suffix: str) -> str | None:
    return next((n for n in names if n == suffix or n.endswith("__" + suffix) or n.endswith("_" + suffix)
                 or n.endswith("." + suffix)), None)


class Delegation:
    """Turn 1 calls ``antigravity_execute``; with its output, ``antigravity_continue`` (its run_id); then text.

    ``apply``: the continue is ``{"run_id", "apply": true}`` alone (no feedback), as a leader that read only
    the published schema would send it to bring a worktree run's change into the tree.
    """

    def __init__(self, workspace: str, *, task: str = "Add a file hello.txt saying hello.",
                 feedback: str | None = "Also say goodbye.", apply: bool = False,
                 profile: str | None = None, then: tuple[tuple[str, dict[str, Any]], ...] = (),
                 continue_args: dict[str, Any] | None = None) -> None:
        # Calls after the continue (tool, arguments): a value "{run_id}" is the run id in the last output,
        # "{first_run_id}" the execute's.
        self.then = then
        self.continue_args = continue_args or {}  # more arguments of the continue (wait_seconds)
        self.workspace = workspace
        self.task = task
        self.feedback = feedback  # None (and no apply): no continue (a failing call is answered in text)
        self.apply = apply
        self.profile = profile
        self.outputs: list[ToolOutput] = []  # every distinct output handed back, in order
        self.offered: list[list[str]] = []  # tool names per main request
        self.calls: list[Call] = []
        self._lock = threading.Lock()

    def next(self, names: list[str], outputs: list[ToolOutput]) -> Call | Say:
        with self._lock:
            self.offered.append(list(names))
            for out in outputs[len(self.outputs):]:
                self.outputs.append(out)
            execute = _tool(names, EXECUTE)
            if execute is None:
                return Say(NO_TOOLS_TEXT)
            if not outputs:
                profile = {"profile": self.profile} if self.profile else {}
                call = Call(execute, {"task": self.task, "workspace": self.workspace, **profile})
            elif len(outputs) == 1 and (self.feedback is not None or self.apply):
                run_id = run_id_in(outputs[0].text)
                if run_id is None:
                    return Say(f"No run_id in the output: {outputs[0].text[:200]}")
                follow = {"apply": True} if self.apply else {"feedback": self.feedback}
                call = Call(_tool(names, CONTINUE) or CONTINUE, {"run_id": run_id, **follow, **self.continue_args})
            elif 0 < len(outputs) - (1 if self.feedback is not None or self.apply else 0) <= len(self.then):
                name, args = self.then[len(outputs) - (2 if self.feedback is not None or self.apply else 1)]
                ids = {"{run_id}": run_id_in(outputs[-1].text) or "", "{first_run_id}": run_id_in(outputs[0].text) or ""}
                call = Call(_tool(names, name) or name, {k: ids.get(v, v) if isinstance(v, str) else v
                                                         for k, v in args.items()})
            else:
                return Say(FINAL_TEXT)
            self.calls.append(call)
            return call
