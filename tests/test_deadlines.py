"""The relay's one deadline thread (relay.core.deadlines), and git's timeout through it (relay.observe.git).

A git call used to start a threading.Timer of its own (a thread made, started and ended per call, ~0.1 ms of CPU of a
~2 ms call). The guard itself, a git that never ends stopped at its timeout with what it started, is
tests/test_leftovers.py::test_a_git_timeout_stops_what_git_started_too and the endless config reads of
tests/test_config_hooks.py; here, that the calls share one thread and that a deadline still fires, in order,
never once cancelled, and never held back by another's slow callback.
"""

from __future__ import annotations

import threading

import pytest

from relay.core.deadlines import call_at_deadline
from relay.observe.git import GitError, run_git


def test_git_calls_start_no_thread_of_their_own(repo, monkeypatch):
    run_git(repo, "rev-parse", ["--show-toplevel"])  # the process's deadline thread, if not started yet
    started = []
    real_start = threading.Thread.start

    def counted(self):
        started.append(self.name)
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", counted)
    for _ in range(20):
        run_git(repo, "rev-parse", ["--show-toplevel"])
    assert started == []


def test_a_git_past_its_timeout_is_stopped_after_many_calls_that_ended(repo):
    # The deadlines of the calls that ended, cancelled, are still in the heap: the hung one's fires all the same.
    for _ in range(20):
        run_git(repo, "rev-parse", ["--show-toplevel"])
    with pytest.raises(GitError, match="took longer than 1s"):
        run_git(repo, "hang", config=[("alias.hang", "!sleep 30")], timeout=1.0)


def test_deadlines_fire_in_their_order_and_a_cancelled_one_never():
    fired: list[str] = []
    done = threading.Event()
    call_at_deadline(0.4, lambda: (fired.append("late"), done.set()))
    cancelled = call_at_deadline(0.1, lambda: fired.append("cancelled"))
    call_at_deadline(0.2, lambda: fired.append("early"))  # armed after a later one: the thread wakes sooner
    cancelled.cancel()
    assert done.wait(10)
    assert fired == ["early", "late"]


def test_a_slow_callback_holds_no_other_deadline_back():
    # A callback is a kill that waits for the process to go (up to 2 s): the next deadline fires meanwhile.
    second_ran, first_done, saw = threading.Event(), threading.Event(), []

    def first() -> None:
        saw.append(second_ran.wait(10))
        first_done.set()

    call_at_deadline(0.05, first)
    call_at_deadline(0.1, second_ran.set)
    assert first_done.wait(20)
    assert saw == [True]
