"""A person, not the model, confirms a trusted run (issue 27, item 1): MCP elicitation at the door.

A profile's ``confirm_trusted`` says who may confirm: ``"token"`` (the preview's token, repeated by the
leader: issue 10), ``"human"`` (a person answers a form; the token never reaches the model) or ``true``
("human" where the client declares form elicitation, else "token"). The core answers every gated call
the same way, CONFIRMATION_REQUIRED with a preview and its token (relay/call/confirm.py); this module
turns that answer, at the MCP door, into a question to the person:

- a 2025-era session (initialize handshake): an ``elicitation/create`` request while the call waits;
- a 2026-07-28 session (no server-to-client requests): the call answers ``input_required`` with the
  form, its ``requestState`` the token itself (HMAC-bound to the arguments, expiring in minutes), and
  the client's retry carries the person's answer and the token back.

"Run" runs the call exactly as previewed (the token is checked as any other: one launch). Declining,
cancelling or choosing "cancel" runs nothing and says so. A client that cannot ask (no form
elicitation: Gemini CLI, a headless host) gets the token flow under ``true`` and a refusal under
``"human"``: never a run. The shell door (`gravity-relay execute`) cannot ask either.
"""

from __future__ import annotations

import shlex
from typing import Any

import msgspec

from relay.core.contracts import Status
from relay.core.settings import Settings
from relay.doors.tools import ToolAnswer
from relay.runs.results import encode

__all__ = ["preview_for_person", "without_person", "declined", "confirm_form", "DECISION", "RUN", "FORM_KEY"]

FORM_KEY = "confirm_trusted"  # the input request's key in an input_required answer
DECISION, RUN, CANCEL = "decision", "run", "cancel"


def _object(answer: ToolAnswer) -> dict[str, Any] | None:
    try:
        obj = msgspec.json.decode(answer.text)
    except msgspec.DecodeError:
        return None
    return obj if isinstance(obj, dict) else None


def preview_for_person(answer: ToolAnswer, settings: Settings) -> tuple[dict[str, Any], str] | None:
    """(the preview, "human" or "human_or_token") when the answer is a gated call's preview that a person may
    answer: its profile (named in the preview's policy) says ``confirm_trusted`` "human" or true."""
    obj = _object(answer)
    if obj is None or obj.get("status") != Status.CONFIRMATION_REQUIRED.value:
        return None
    preview = obj.get("preview")
    if not isinstance(preview, dict) or not isinstance(preview.get("confirm"), str):
        return None
    profile = settings.profiles.get(str((preview.get("policy") or {}).get("profile")))
    by = {"human": "human", True: "human_or_token"}.get(profile.confirm_trusted) if profile is not None else None
    return (preview, by) if by else None


def _nothing_ran(answer: ToolAnswer, message: str, hint: str) -> ToolAnswer:
    """The preview's packet without its token (the model must not be able to confirm by itself)."""
    obj = dict(_object(answer) or {})
    obj.pop("preview", None)
    obj["ok"] = False
    obj["status"] = Status.CONFIRMATION_REQUIRED.value
    error = dict(obj.get("error") or {})
    error.pop("retryable", None)
    error.update(code=Status.CONFIRMATION_REQUIRED.value, message=message, hint=hint)
    obj["error"] = error
    return ToolAnswer(encode(obj).decode(), None, is_error=True)


def without_person(answer: ToolAnswer, why: str = "this client cannot show a confirmation form") -> ToolAnswer:
    """A "human" profile's answer where no person can be asked: a refusal, without the token."""
    return _nothing_ran(
        answer, f"this profile needs a person to confirm a trusted run, and {why}; nothing ran",
        "Run it from a client that shows MCP elicitation forms (Claude Code or Codex, interactive), use "
        "execution_mode \"safe\", or ask the user to set the profile's confirm_trusted to \"token\".")


def declined(answer: ToolAnswer, action: str) -> ToolAnswer:
    """What the model hears when the person said no (decline), dismissed the form (cancel) or chose cancel
    (``chose_cancel``)."""
    said = {"decline": "declined", "cancel": "dismissed the confirmation without answering",
            "chose_cancel": "chose not to run it"}.get(action, "did not confirm it")
    return _nothing_ran(answer, f"the person {said}: the trusted run did not start; nothing ran",
                        "Ask the user how to go on before trying again; a safe run (execution_mode \"safe\") needs "
                        "no confirmation.")


def confirm_form(preview: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(message, requested schema): the preview in words, and one required choice."""
    policy = preview.get("policy") or {}
    lines = [
        "Gravity Relay: run agy in TRUSTED mode (every tool auto-approved, shell commands included)?",
        f"Workspace: {preview.get('workspace')}",
        f"Time limit: {preview.get('timeout_minutes')} min",
        f"Command: {shlex.join(str(a) for a in preview.get('command') or [])}",
    ]
    if policy:
        lines.append("Policy: " + "; ".join(f"{k}={v}" for k, v in policy.items()))
    lines.append("Nothing runs unless you choose \"run\".")
    schema = {
        "type": "object",
        "properties": {DECISION: {"type": "string", "title": "Run this trusted agy run?", "enum": [RUN, CANCEL]}},
        "required": [DECISION],
    }
    return "\n".join(lines), schema
