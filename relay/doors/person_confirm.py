"""A person, not the model, confirms a trusted run (issue 27, item 1; issue 34, D1): MCP elicitation at the door.

A profile's ``confirm_trusted`` says who may confirm: ``"token"`` (the preview's token, repeated by the
leader: issue 10), ``"human"`` (a person answers a form) or ``true`` ("human" where the client declares form
elicitation, else "token"). The gate decides it at intake (relay/call/confirm.py), told by the door whether it
can ask: a call only a person may confirm comes back as ``AwaitingPerson`` (the resolved call, its preview,
no token), and this door asks:

- a 2025-era session (initialize handshake): an ``elicitation/create`` request while the call waits;
- a 2026-07-28 session (no server-to-client requests): the call answers ``input_required`` with the
  form; its ``requestState`` is a random key to the call the door holds in memory (``Pending``), never a
  token and never written anywhere; the client's retry carries the person's answer and that key back.

"Run" runs that very call (no second intake, one record, one launch). Declining, dismissing or choosing
"cancel" records that and runs nothing; the held call is let go, so the no is final for that preview. A
``confirm`` argument is refused for such a call whatever it holds, and no record or view of it carries a
token: the model cannot confirm by itself, nor race the person from a second session. A client that cannot
ask (no form elicitation: Gemini CLI, a headless host, the shell door) gets the token flow under ``true``
and a refusal under ``"human"``: never a run.
"""

from __future__ import annotations

import secrets
import shlex
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from relay.call.confirm import TOKEN_TTL_SECONDS
from relay.call.intake import AwaitingPerson
from relay.core.contracts import Preview
from relay.core.shown import harmless, one_line

__all__ = ["Pending", "confirm_form", "decision", "DECISION", "RUN", "FORM_KEY"]

FORM_KEY = "confirm_trusted"  # the input request's key in an input_required answer
DECISION, RUN, CANCEL = "decision", "run", "cancel"


def decision(said: Any) -> str:
    """The person's answer to the form: ``RUN``, or what they did instead ("decline", "cancel" (dismissed),
    "chose_cancel", or the unknown action as given). Read from an ElicitResult, or its JSON object."""
    get = said.get if isinstance(said, dict) else (lambda name: getattr(said, name, None))
    action, content = get("action"), get("content") or {}
    if action == "accept":
        return RUN if isinstance(content, dict) and content.get(DECISION) == RUN else "chose_cancel"
    return str(action)


PROMPT_SHOWN = 4000  # characters of agy's prompt the form quotes; a longer one says it is cut


def confirm_form(preview: Preview, prompt: str = "") -> tuple[str, dict[str, Any]]:
    """(message, requested schema): the preview in words, the prompt agy will get, and one required choice.

    The prompt is quoted whole (up to PROMPT_SHOWN characters, saying so when it is cut), each line after "> ": the
    person says yes to what the worker is told, not to its first words (the model writes the task, and once opened it
    with harmless words and put the rest where only its size showed), and a line of it cannot pose as the form's own.

    Each line is shown as one line with nothing in it that drives a terminal or hides itself (``one_line``): the
    model wrote the task the command quotes and chose the workspace, and a client shows this text to the person
    (in a terminal, for Claude Code and Codex), so an escape sequence there could erase the TRUSTED line and write
    another, and a right-to-left override turn the rest of a line around."""
    lines = [
        "Gravity Relay: run agy in TRUSTED mode (every tool auto-approved, shell commands included)?",
        f"Workspace: {preview.workspace}",
        f"Time limit: {preview.timeout_minutes} min",
        f"Command: {shlex.join(str(a) for a in preview.command)}",
    ]
    if preview.policy:
        lines.append("Policy: " + "; ".join(f"{k}={v}" for k, v in preview.policy.items()))
    lines = [one_line(line) for line in lines]
    if prompt:
        shown = prompt[:PROMPT_SHOWN]
        lines.append("What agy is told (its whole prompt):" if shown == prompt else
                     f"What agy is told ({len(prompt):,} characters; the first {PROMPT_SHOWN:,} are quoted, the rest "
                     "is not shown here):")
        lines += ["> " + harmless(line) for line in shown.splitlines()]
    lines.append("Nothing runs unless you choose \"run\".")
    schema = {
        "type": "object",
        "properties": {DECISION: {"type": "string", "title": "Run this trusted agy run?", "enum": [RUN, CANCEL]}},
        "required": [DECISION],
    }
    return "\n".join(lines), schema


class Pending:
    """The calls a 2026 session's person is being asked about, by the random ``requestState`` sent with the
    form. A key is taken once (a yes or a no ends it: a replayed retry finds nothing), lives as long as a token
    would (``TOKEN_TTL_SECONDS``), and at most ``limit`` wait at a time (the oldest is let go first: nothing of
    theirs was written or run)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, limit: int = 64) -> None:
        self._clock, self._limit = clock, limit
        self._held: OrderedDict[str, tuple[float, AwaitingPerson, str, dict[str, Any]]] = OrderedDict()

    def hold(self, waiting: AwaitingPerson, name: str, arguments: dict[str, Any] | None) -> str:
        """The key to ``waiting``. The same call held already (the model repeated it while the person's form was
        open) is let go: one form answers a call, so a yes to the older form runs nothing (it is not pending)."""
        self._forget_expired()
        asked = (name, dict(arguments or {}))
        for key in [k for k, (_expiry, _waiting, n, a) in self._held.items() if (n, a) == asked]:
            del self._held[key]
        while len(self._held) >= self._limit:
            self._held.popitem(last=False)
        key = secrets.token_urlsafe(32)
        self._held[key] = (self._clock() + TOKEN_TTL_SECONDS, waiting, name, dict(arguments or {}))
        return key

    def take(self, key: str, name: str, arguments: dict[str, Any] | None) -> tuple[AwaitingPerson | None, bool]:
        """(the held call, whether the retry is the call the person was asked about); (None, False) when no
        call waits under ``key`` (answered already, expired, another relay process, or never issued)."""
        self._forget_expired()
        held = self._held.pop(key, None) if isinstance(key, str) else None
        if held is None:
            return None, False
        _expiry, waiting, asked_name, asked_arguments = held
        return waiting, (asked_name, asked_arguments) == (name, dict(arguments or {}))

    def _forget_expired(self) -> None:
        now = self._clock()
        for key in [k for k, (expiry, *_rest) in self._held.items() if expiry < now]:
            del self._held[key]
