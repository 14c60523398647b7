"""What a run cost: its own tokens, the model, its wall time (issue 27, item 4), and totals over runs.

agy's result counts a conversation's turns together (``--conversation``: usage, num_turns and
duration_seconds are cumulative, agy-protocol.md §7.2), so a continue's own share is its total less
the total of the latest earlier run of the same conversation that reported one. A print timeout's
partial result reports zero (§6.2): such a run shows no tokens, and a later continue's share then
includes the cut turn's tokens, which agy did spend. The record keeps agy's raw totals (``usage``);
the packet carries the run's own share.

What agy reports is the worker's word, and it goes into the leader's context: a count past ``MAX_TOKENS``
is no count (not shown), and the model name keeps only the characters model names are made of, cut to
``MODEL_MAX`` (issue 34: ``in: 10^30`` and a 3 KB "model" holding an instruction went through whole).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from relay.core.contracts import RunRecord, Usage

__all__ = ["ANCESTORS", "MAX_TOKENS", "MODEL_MAX", "run_usage", "usage_totals", "record_usage", "model_name"]

ANCESTORS = 50  # a conversation longer than this is counted from its 50th-latest run
# Ten billion tokens: thousands of times a long conversation's total; a larger count is not agy counting.
MAX_TOKENS = 10**10
MODEL_MAX = 48  # "gemini-3.6-flash-medium" is 23; room for longer slugs, never for prose
_NOT_IN_A_MODEL_NAME = re.compile(r"[^A-Za-z0-9._:/@+-]+")


def model_name(raw: str | None) -> str | None:
    """A model name fit for the packet: each run of characters no slug holds (spaces, newlines, quotes,
    backticks…) becomes one ``-``, cut to ``MODEL_MAX``; None when nothing is left."""
    if not raw:
        return None
    name = _NOT_IN_A_MODEL_NAME.sub("-", raw).strip("-")
    if len(name) > MODEL_MAX:
        name = name[:MODEL_MAX - 1].rstrip("-") + "~"
    return name or None


def _tokens(raw: Mapping[str, Any] | None) -> tuple[int, int]:
    raw = raw or {}
    got = raw.get("input_tokens", 0), raw.get("output_tokens", 0)
    # bool is an int to Python, not a count; past MAX_TOKENS it is no count either
    return tuple(v if type(v) is int and 0 < v <= MAX_TOKENS else 0 for v in got)  # type: ignore[return-value]


def _earlier_total(earlier: Iterable[RunRecord], record: RunRecord) -> tuple[int, int]:
    """agy's running total of the conversation before this run: the latest earlier run of the same
    conversation that reported tokens, else nothing (a new conversation). ``earlier``: the runs this one
    continues, nearest first, as intake read them (``CallPlan.ancestors``)."""
    for seen, run in enumerate(earlier):
        if seen >= ANCESTORS or run.outcome.conversation_id != record.outcome.conversation_id:
            break  # this run started a new conversation: its total is its own
        if any(_tokens(run.process.usage)):
            return _tokens(run.process.usage)
    return 0, 0


def run_usage(record: RunRecord, *, model: str | None, seconds: float, earlier: Iterable[RunRecord] = ()) -> Usage:
    """The packet's usage of a run that launched agy (``record.process.usage`` holds agy's raw totals)."""
    total_in, total_out = _tokens(record.process.usage)
    before_in, before_out = _earlier_total(earlier, record) if record.request.parent_run_id else (0, 0)
    if total_in < before_in or total_out < before_out:
        before_in = before_out = 0  # not a running total after all (agy restarted the count): take it as it is
    own_in, own_out = (total_in - before_in, total_out - before_out) if total_in or total_out else (0, 0)
    return Usage(tokens_in=own_in, tokens_out=own_out, model=model_name(model or record.plan.model),
                 seconds=round(seconds, 1))


def record_usage(record: RunRecord) -> Usage | None:
    """The usage a finished run's packet carries (None for runs that never launched agy, or older records)."""
    return record.outcome.packet.usage if record.outcome.packet is not None else None


def usage_totals(usages: Iterable[Usage | None]) -> dict[str, Any]:
    """Sums over runs for `runs list --json`: runs, runs with usage, tokens in/out, seconds, per model."""
    totals: dict[str, Any] = {"runs": 0, "runs_with_usage": 0, "tokens_in": 0, "tokens_out": 0, "seconds": 0.0}
    models: dict[str, dict[str, Any]] = {}
    for usage in usages:
        totals["runs"] += 1
        if usage is None:
            continue
        totals["runs_with_usage"] += 1
        totals["tokens_in"] += usage.tokens_in
        totals["tokens_out"] += usage.tokens_out
        totals["seconds"] += usage.seconds
        if usage.model:
            row = models.setdefault(usage.model, {"runs": 0, "tokens_in": 0, "tokens_out": 0})
            row["runs"] += 1
            row["tokens_in"] += usage.tokens_in
            row["tokens_out"] += usage.tokens_out
    totals["seconds"] = round(totals["seconds"], 1)
    if models:
        totals["models"] = dict(sorted(models.items()))
    return totals
