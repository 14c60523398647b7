"""Read agy's stream-json output one line at a time.

The reader never raises on what agy prints: unknown events, unknown step
types, a banner line before the first event, or garbage are all counted and
left to the classifier to judge. ``--output-format json`` (one bare result
object) is understood as well, so an older or differently-invoked agy still
yields its envelope.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any

import msgspec

__all__ = ["StreamReader", "LineSplitter", "ENVELOPE_KEYS", "MAX_LINE_BYTES"]

# One stdout line longer than this is skipped, not buffered: agy's result line (the response
# and the report) is far smaller, and a 300 MB line without a newline must cost neither memory
# nor minutes of CPU. Counted and said in the record.
MAX_LINE_BYTES = 16 * 1024 * 1024
# The agent's streamed text kept for the response when there is no result envelope: its tail.
_TEXT_LIMIT = 2 * 1024 * 1024


class LineSplitter:
    """Splits a byte stream into lines in linear time, never holding more than ``max_line`` bytes of one.

    Each chunk is scanned once (no re-joining a growing partial line with every new chunk, which
    made a long line quadratic); a line longer than ``max_line`` is dropped up to its newline and
    counted in ``skipped_lines`` / ``skipped_bytes``.
    """

    def __init__(self, max_line: int = MAX_LINE_BYTES) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._skipping = False
        self.skipped_lines = 0
        self.skipped_bytes = 0

    def _overflow(self, extra: int) -> None:
        self.skipped_lines += 1
        self.skipped_bytes += len(self._buf) + extra
        self._buf.clear()
        self._skipping = True

    def feed(self, chunk: bytes) -> list[bytes]:
        out: list[bytes] = []
        start = 0
        while True:
            nl = chunk.find(b"\n", start)
            end = len(chunk) if nl < 0 else nl
            size = end - start
            if self._skipping:
                self.skipped_bytes += size
            elif len(self._buf) + size > self.max_line:
                self._overflow(size)
            elif nl >= 0:
                if self._buf:
                    self._buf += chunk[start:end]
                    out.append(bytes(self._buf))
                    self._buf.clear()
                else:
                    out.append(chunk[start:end])
            else:
                self._buf += chunk[start:end]
            if nl < 0:
                return out
            self._skipping = False
            start = nl + 1

    def finish(self) -> list[bytes]:
        """The last line when the stream ended without a newline."""
        rest = b"" if self._skipping else bytes(self._buf)
        self._buf.clear()
        self._skipping = False
        return [rest] if rest else []

# The keys a result envelope must have (agy-protocol.md §2); missing ones make it invalid. Not
# conversation_id: users have seen results without it (§6.2, #1018) for turns that did the work;
# the id then comes from the init event, or the run simply cannot be continued.
ENVELOPE_KEYS = ("status", "response")

_decode = msgspec.json.Decoder().decode

# A tool step refused by a permissions.deny rule or a pre-tool hook ends ERROR and the turn goes on, ending
# SUCCESS with denied_actions empty (agy-protocol.md §7.1): the reader keeps those refusals, compact and capped.
_REFUSED = re.compile(r"Matches user-configured deny rule|denied by pre-tool hook", re.IGNORECASE)
MAX_REFUSALS = 8
# A tool step agy's permission check refused (agy-protocol.md §8.3: `permission check failed for write_file: user
# denied permission for write_file`), whatever the result says: a turn that then answers nothing was denied.
_PERMISSION_CHECK = re.compile(r"^\s*permission check failed for (unsandboxed command|[\w.-]+)", re.IGNORECASE)
# A delegation (agy-protocol.md §8.2): an `invoke_subagent` tool step, or (1.3.1) a `subagent` step.
SUBAGENT_TOOL = "invoke_subagent"
_NAME_KEY = re.compile(r"name|agent|role", re.IGNORECASE)


class StreamReader:
    """Accumulates what a run printed on stdout."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.lines = 0
        self.json_lines = 0
        self.bad_lines = 0
        self.bad_sample: list[str] = []
        self.events = 0
        self.init: dict[str, Any] | None = None
        self.conversation_id: str | None = None
        self.result: Any = None
        self.results = 0
        self.text: deque[str] = deque()
        self._text_chars = 0
        self.text_cut = 0
        self.step_type: str | None = None
        self.tool: str | None = None
        self.steps = 0
        self.tool_steps = 0
        self.tool_errors = 0
        self.refusals: list[str] = []
        self.refused_total = 0
        self.error_steps = 0  # `error_message` steps (1.3.3): agy says something failed, never what (§8.2)
        self.permission_checks: list[str] = []  # tools whose permission check failed (§8.3), capped
        self.subagents: dict[str, bool] = {}  # who the worker delegated to -> whether it came back with output

    def feed(self, raw: bytes | str) -> dict[str, Any] | None:
        """Take one line; return the decoded event if it was one (for progress reporting)."""
        line = raw.strip()
        if not line:
            return None
        self.lines += 1
        try:
            value = _decode(line)
        except msgspec.DecodeError:
            self.bad_lines += 1
            if len(self.bad_sample) < 3:
                text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
                self.bad_sample.append(text[:200])
            return None
        self.json_lines += 1
        if not isinstance(value, dict):
            self.bad_lines += 1
            return None
        event = value.get("event")
        if event is None and "status" in value:
            # --output-format json: the whole output is one result object.
            self._take_result(value)
            return {"event": "result", "result": value}
        self.events += 1
        if event == "init":
            self.init = value.get("init") if isinstance(value.get("init"), dict) else {}
            self._take_conversation(value.get("conversation_id"))
        elif event == "step_update":
            self._take_step(value.get("step_update"))
        elif event == "result":
            self._take_result(value.get("result"))
        return value

    def _take_conversation(self, cid: Any) -> None:
        if isinstance(cid, str) and cid:
            self.conversation_id = cid

    def _take_step(self, step: Any) -> None:
        if not isinstance(step, dict):
            return
        self.steps += 1
        self._take_conversation(step.get("conversation_id"))
        kind = step.get("step_type")
        self.step_type = kind if isinstance(kind, str) else "unknown"
        if kind == "agent_response" and isinstance(step.get("text_delta"), str):
            delta = step["text_delta"]
            self.text.append(delta)
            self._text_chars += len(delta)
            while self._text_chars > _TEXT_LIMIT and len(self.text) > 1:  # keep the tail: the answer comes last
                gone = self.text.popleft()
                self._text_chars -= len(gone)
                self.text_cut += len(gone)
        if kind == "error_message":
            self.error_steps += 1
        if kind == "subagent":
            info = step.get("subagent_info")
            name = info.get("name") if isinstance(info, dict) else None
            self._take_subagent(name if isinstance(name, str) else "", step.get("state") == "DONE" and isinstance(
                info, dict) and str(info.get("status", "")).upper() in ("DONE", "COMPLETED", "SUCCESS"))
        if kind == "tool":
            name = step.get("tool_name")
            self.tool = name if isinstance(name, str) else None
            info = step.get("tool_info")
            if self.tool == SUBAGENT_TOOL or (isinstance(info, dict) and info.get("name") == SUBAGENT_TOOL):
                output = info.get("output") if isinstance(info, dict) else None
                self._take_subagent(_subagent_name(info), step.get("state") == "DONE" and bool(
                    isinstance(output, str) and output.strip()))
            if step.get("state") == "DONE":
                self.tool_steps += 1
            if step.get("state") == "ERROR":
                self.tool_errors += 1
                self._take_refusal(self.tool, info)
                self._take_permission_check(self.tool, info)

    def _take_subagent(self, name: str, returned: bool) -> None:
        name = name.strip()[:80] or "a subagent"
        if name in self.subagents or len(self.subagents) < MAX_REFUSALS:
            self.subagents[name] = self.subagents.get(name, False) or returned

    def _take_permission_check(self, name: str | None, info: Any) -> None:
        error = info.get("error") if isinstance(info, dict) else None
        message = error.get("message") if isinstance(error, dict) else None
        match = _PERMISSION_CHECK.match(message) if isinstance(message, str) else None
        if match and _REFUSED.search(message):
            return  # the person's own deny rule (its text starts the same): a refusal (_take_refusal), not agy's check
        if match and len(self.permission_checks) < MAX_REFUSALS:
            checked = match[1]
            label = f"{name} ({checked})" if name and name != checked else checked
            if label not in self.permission_checks:
                self.permission_checks.append(label)

    def _take_refusal(self, name: str | None, info: Any) -> None:
        error = info.get("error") if isinstance(info, dict) else None
        message = error.get("message") if isinstance(error, dict) else None
        if not isinstance(message, str) or not _REFUSED.search(message):
            return
        self.refused_total += 1
        if len(self.refusals) < MAX_REFUSALS:
            why = "a pre-tool hook" if "hook" in message.lower() else "a deny rule"
            target = re.search(r'for \w+ "([^"]{1,80})"', message)
            what = f"{name or 'a tool'}{f' {target[1]}' if target else ''}"
            self.refusals.append(f"{what} (refused by {why})")

    @property
    def offered_tools(self) -> list[str] | None:
        """init.tools: what agy offered the worker (None when init did not say)."""
        tools = (self.init or {}).get("tools")
        return [t for t in tools if isinstance(t, str)] if isinstance(tools, list) else None

    def _take_result(self, result: Any) -> None:
        self.results += 1
        self.result = result
        if isinstance(result, dict):
            self._take_conversation(result.get("conversation_id"))

    # ------------------------------------------------------------------ views

    @property
    def envelope(self) -> dict[str, Any] | None:
        """The result object when it has the envelope's shape, else None."""
        result = self.result
        if not isinstance(result, dict):
            return None
        if not all(key in result for key in ENVELOPE_KEYS):
            return None
        if not isinstance(result.get("status"), str) or not isinstance(result.get("response"), str):
            return None
        return result

    @property
    def response(self) -> str:
        env = self.envelope
        if env is not None and env.get("response"):
            return env["response"]
        return "".join(self.text)

    def progress_line(self) -> str | None:
        if self.tool and self.step_type == "tool":
            return f"agy step {self.steps}: running {self.tool}"
        if self.step_type:
            return f"agy step {self.steps}: {self.step_type}"
        return None


def _subagent_name(info: Any) -> str:
    """Who an invoke_subagent step called: a parameter that names it (its key says name, agent or role)."""
    params = info.get("parameters") if isinstance(info, dict) else None
    if not isinstance(params, dict):
        return ""
    named = [v for k, v in params.items() if isinstance(v, str) and _NAME_KEY.search(str(k)) and len(v) <= 80]
    return named[0] if named else ""
