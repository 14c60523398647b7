"""One thread that calls back at deadlines, for the relay's bounded child processes (git's timeout).

Every git call is bounded (``relay.observe.git``): it used to start a ``threading.Timer`` of its own, a thread
created, started (the caller waits for it to run) and woken again to end, ~0.1 ms of CPU for a call of ~2 ms, and
a run makes a dozen of them. Here one daemon thread per process keeps the deadlines in a heap and sleeps until the
nearest. A deadline that passes is handed to a thread of its own, so a slow callback (a kill that waits for the
process to go) never holds another deadline back. Cancelled deadlines stay in the heap until their time and are
dropped then. A forked child starts with no deadlines and its own thread when it first needs one.
"""

from __future__ import annotations

import heapq
import itertools
import os
import threading
import time
from collections.abc import Callable

__all__ = ["Deadline", "call_at_deadline"]


class Deadline:
    """A pending callback; ``cancel()`` before its time and it never runs (nor is it kept alive meanwhile)."""

    __slots__ = ("callback",)

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback: Callable[[], None] | None = callback

    def cancel(self) -> None:
        self.callback = None


_lock = threading.Condition(threading.Lock())
_heap: list[tuple[float, int, Deadline]] = []
_order = itertools.count()
_owner = {"pid": 0}  # the process whose thread serves the heap (a forked child has none)


def _forked() -> None:
    """In a forked child: the parent's thread is not there, and it may have held the lock at the fork."""
    global _lock
    _lock = threading.Condition(threading.Lock())
    _heap.clear()
    _owner["pid"] = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


def call_at_deadline(seconds: float, callback: Callable[[], None]) -> Deadline:
    """Call ``callback()`` in a thread of its own ``seconds`` from now, unless the returned Deadline is cancelled."""
    deadline = Deadline(callback)
    with _lock:
        if _owner["pid"] != os.getpid():
            _owner["pid"] = os.getpid()
            threading.Thread(target=_serve, name="relay-deadlines", daemon=True).start()
        heapq.heappush(_heap, (time.monotonic() + seconds, next(_order), deadline))
        if _heap[0][2] is deadline:
            _lock.notify()  # the nearest deadline moved closer: the thread sleeps until it
    return deadline


def _serve() -> None:
    while True:
        with _lock:
            while True:
                while _heap and _heap[0][2].callback is None:
                    heapq.heappop(_heap)  # cancelled
                wait = _heap[0][0] - time.monotonic() if _heap else None
                if wait is not None and wait <= 0:
                    callback = heapq.heappop(_heap)[2].callback
                    break
                _lock.wait(wait)
        if callback is not None:
            threading.Thread(target=callback, name="relay-deadline", daemon=True).start()
