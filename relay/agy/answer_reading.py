"""What the worker's answer itself says went wrong, when agy said SUCCESS (agy-protocol.md §8.2, §8.6 items 2, 5, 6).

- The subagent stall: the worker delegated (an ``invoke_subagent`` tool step, or a ``subagent`` step), agy ended
  the turn while the subagent still ran, and the whole answer is the worker's narration ("I am waiting for the
  independent reviewer subagent to complete its analysis.") after thousands of output tokens. agy says SUCCESS;
  the work is not done and the report never came. A subagent that came back and a worker that then answered
  stays a success.
- ``error_message`` steps: agy says a step failed, and keeps the reason in its own database (never read here).
- Folded answers: an own-line ``<truncated N bytes>`` / ``<truncated N lines>`` marker where agy cut the middle of
  the answer; agy keeps the full text nowhere.
"""

from __future__ import annotations

import re

from relay.agy.agy_said import succeeded
from relay.agy.outcome import Outcome
from relay.agy.turn_reading import refusals_flag

__all__ = ["stored_answer", "subagent_stall", "stall_message", "stall_hint", "STALL_REASON", "folds", "answer_flags",
           "STALL_MIN_OUTPUT_TOKENS"]

STALL_REASON = "subagent_unfinished"
# The reported stall spent 22,282 output tokens on a one-line answer; a real answer costs about a token per 4 chars.
STALL_MIN_OUTPUT_TOKENS = 2_000
_NARRATION_MAX_CHARS = 2_000
_WAITING = re.compile(r"\bwait(?:ing)?\b|\bonce (?:it|they|the [\w -]{1,40}) (?:complete|finish|report)|"
                      r"\buntil (?:it|they|the [\w -]{1,40}) (?:complete|finish|report)", re.IGNORECASE)
_WAITED_FOR = re.compile(r"waiting for (?:the |my |an? )?([\w -]{1,60}?) ?sub-?agent", re.IGNORECASE)
_FOLD = re.compile(r"^<truncated (\d+) (bytes|lines)>\r?$", re.MULTILINE)
_STORED = 1_000_000
# A print timeout's partial answer can be a degenerate repetition (289 KB seen, agy-protocol.md §8.2, §8.6 item 7):
# the record keeps its head; the transcript keeps every byte.
_STORED_PARTIAL = 64_000


def stored_answer(o: Outcome, *, timed_out: bool) -> str:
    """What the run record keeps of the worker's answer."""
    return o.response[:_STORED_PARTIAL if timed_out else _STORED]


def _output_tokens(o: Outcome) -> int:
    usage = (o.envelope or {}).get("usage")
    value = usage.get("output_tokens") if isinstance(usage, dict) else None
    return value if isinstance(value, int) else 0


def _an_answer(text: str) -> bool:
    """The report as JSON (fenced or not) is an answer, however short."""
    return text.startswith("{") or text.startswith("```")


def subagent_stall(o: Outcome) -> bool:
    if not succeeded(o) or not o.subagents:
        return False
    answer = o.response.strip()
    if len(answer) > _NARRATION_MAX_CHARS or _an_answer(answer):
        return False
    waiting = bool(_WAITING.search(answer))
    if all(o.subagents.values()) and not waiting:
        return False  # every subagent came back with output and the worker did not say it is still waiting
    spent = _output_tokens(o)
    lopsided = spent >= STALL_MIN_OUTPUT_TOKENS and spent >= 20 * (len(answer) // 4 + 1)
    return waiting or lopsided


def _who(o: Outcome) -> str:
    named = _WAITED_FOR.search(o.response)
    if named and named[1].strip():
        return named[1].strip()
    pending = [name for name, came_back in o.subagents.items() if not came_back] or list(o.subagents)
    return ", ".join(pending[:3])


def stall_message(o: Outcome) -> str:
    said = " ".join(o.response.split())[:160]
    spent = _output_tokens(o)
    return (f"the worker delegated to a subagent ({_who(o)}) and ended before it reported: agy said SUCCESS, but the "
            f"answer is only the worker's narration (\"{said}\")" + (f" after {spent} output tokens" if spent else "")
            + "; the work may be unfinished and the report is missing")


def stall_hint(o: Outcome) -> str:
    offered = o.offered_tools is not None and "invoke_subagent" in o.offered_tools
    return ("Review the listed changes, then continue: antigravity_continue(run_id, feedback='finish the task "
            "yourself without delegating to a subagent, and report') resumes the conversation (agy's print mode "
            "ends the turn while a subagent still runs). To prevent it, a profile's `agent` can name an agy agent "
            "whose tools leave out invoke_subagent" + (" (agy offered this worker invoke_subagent)." if offered else "."))


def folds(text: str) -> list[str]:
    """agy's fold markers in an answer, as it printed them (``<truncated N bytes>``)."""
    return [f"<truncated {n} {unit}>" for n, unit in _FOLD.findall(text)]


def answer_flags(o: Outcome) -> list[str]:
    """The packet's lines about the answer: tools refused by the user's rules, agy's internal error steps, folding."""
    flags = [refusals_flag(o)] if o.refused_total else []
    if o.error_steps:
        flags.append("agy reported an internal error step (no reason given)" if o.error_steps == 1 else
                     f"agy reported {o.error_steps} internal error steps (no reason given)")
    folded = folds(o.response)
    if folded:
        flags.append(f"lossy answer: agy folded the worker's answer ({', '.join(folded[:2])} cut from its middle; "
                     "agy keeps no full copy): ask for long findings in a file the worker writes")
    return flags
