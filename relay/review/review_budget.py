"""The review's CPU budget: a change built to be slow to read cannot hold the answer back.

The party: the worker (or the repository it copies from). Each changed line goes past a few hundred patterns and
pair readers; every reader is bounded per line (tests/test_review_backtracking.py), but lines built to be read
slowly — runs of blanks between words, thousands of near-alike lines, in hundreds of files — still cost tens of
milliseconds a line: minutes to hours for the 400,000 lines observation keeps. The review of one change therefore
has a budget of CPU (its own thread's time, so a busy machine does not spend it): past it, the files not yet read
are judged by what needs no reading of their lines, and each says it was not read line by line (medium: a file the
relay did not read is never low). Files are read code first, small edits first (``relay.review.risk.assess_all``), so
what the budget leaves unread is the biggest prose or generated output, not a slipped line behind them. Most ordinary
changes of the corpora take under 2 s; a regenerated Javadoc tree of 100 files (37,000 lines of HTML) reaches the budget.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar

__all__ = ["REVIEW_CPU_SECONDS", "NOT_READ", "review_budget", "over_budget"]

REVIEW_CPU_SECONDS = 20.0
NOT_READ = "not read line by line: the review spent its {seconds:g} s of CPU on the files before it"

_DEADLINE: ContextVar[float | None] = ContextVar("review_deadline", default=None)


@contextlib.contextmanager
def review_budget(seconds: float | None = None) -> Iterator[None]:
    """Within the block, ``over_budget`` says when this thread has spent ``seconds`` of CPU since it began."""
    token = _DEADLINE.set(time.thread_time() + (REVIEW_CPU_SECONDS if seconds is None else seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def over_budget() -> bool:
    deadline = _DEADLINE.get()
    return deadline is not None and time.thread_time() > deadline


def not_read_reason() -> str:
    return NOT_READ.format(seconds=REVIEW_CPU_SECONDS)
