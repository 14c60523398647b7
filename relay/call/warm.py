"""The review, imported in the background once a run starts.

The server does not import ``relay.review`` at start (a client waits on the start: Claude Code gives a server 30 s; the
review compiles a thousand patterns). But the first run's end then paid the import — also when the client was leaving:
Claude Code sends SIGINT, then SIGTERM, then kills, and a relay still importing the review under load to finish a
cancelled run's record could be killed before it said so. So the import starts, once a process, in a daemon thread
as soon as a run takes the worker slot, while the worker runs; and a first review of a one-line change is made there
too, since the review compiles most of its path patterns on first use (~20 ms of CPU, ~10 times that on a loaded
machine, paid by the first run's end: bench/bench_shutdown.py).
"""

from __future__ import annotations

import importlib
import threading

__all__ = ["warm_review"]

_MODULES = ("relay.review.packet", "relay.review.diff_view")
_lock = threading.Lock()
_thread: threading.Thread | None = None


def _import() -> None:
    for name in _MODULES:
        importlib.import_module(name)
    from relay.core.records import FileChange
    from relay.observe.changes import ChangeSet
    from relay.review.packet import build_review

    # Nothing is read (no workspace): the rules' patterns compile, as a stopped run's end would have them compile.
    build_review(ChangeSet(source="report", files=[FileChange(path="src/warm.py", kind="added", additions=1,
                                                               added_lines=["x = 1"])]), report=None)


def warm_review() -> threading.Thread:
    """Start the review's import, once a process; the thread that does it."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_import, name="relay-review-import", daemon=True)
            _thread.start()
        return _thread
