"""The run's undertaker: a small process that finishes the run's record when the relay running it dies.

A relay SIGKILLed mid-run (Claude Code 0.5 s after its SIGINT, an OOM killer, ``kill -9``) writes nothing more:
its worker is stopped by the spawn's subreaper (relay/core/reaper.py, the lifeline), but its record stayed
"running" until a relay started again. Each run (POSIX) gets one of these, started with the record: it holds the
read end of a pipe whose write end only the relay holds, closed when the run ends. At the pipe's end of file it
reads the record: finished (the usual end) — it exits; still "running" — the relay died, and it finishes the run
as a relay's start-up would (``recovery.recover_run``: its identity checks, its recovery lock, the same finish), so
the record says INTERRUPTED, "the relay process N that ran this call ended before it finished", seconds after.

Run as ``python -I -S -c … RECORD FD PATHS`` (``watch``): standard library only until the relay died, so a run that
ends as usual pays an interpreter start and one read of its record, ~10 ms of CPU; the relay's own import path
(PATHS) is taken only then. The record is read by ``_json``, the C codec under ``json``, set up as ``json.loads`` sets
it up: ``import json`` pulls in ``re`` and ``enum`` and compiles their patterns, ~11 ms of CPU more a run (22 against
11 ms an undertaker, measured); anything off the plain path (a BOM, another encoding, a decode error) is read by
``json`` itself, so what counts as "running" is json's reading. Its own session, and none of the relay's stdio: the
client's Ctrl-C and hang-up are not its, and a client waiting for the end of the server's stderr does not wait for it.
"""

import os
import stat
import sys

try:
    import _json
except ImportError:  # no C codec: ``json`` reads the record (``_state``)
    _json = None

__all__ = ["main", "watch", "Watch"]

_MAX_RECORD = 64 << 20  # a record is far smaller; a bigger file is read as "running": recovery then says what it is
_START = ("import sys; sys.path.append({folder!r}); import undertaker; sys.exit(undertaker.main())")


class Watch:
    """A run's undertaker, seen from the relay: ``close`` at the run's end (the record written) lets it go."""

    def __init__(self, write_fd: int = -1, proc=None) -> None:  # no fd: none was started
        self._write_fd, self.proc = write_fd, proc

    def close(self) -> None:
        if self._write_fd >= 0:
            os.close(self._write_fd)  # its end of file: it reads the finished record and exits (subprocess reaps it)
            self._write_fd = -1


def watch(record_path) -> Watch:
    """Start the undertaker of the run whose record is ``record_path``; a Watch of nothing where it cannot (no fd
    passing: Windows, whose worker dies with its job anyway and whose record the next start finishes) or when it
    fails to start."""
    import json
    import subprocess

    from relay.core.platform import posix_groups, spawn_options

    if not posix_groups():
        return Watch()
    read_fd, write_fd = os.pipe()
    start = _START.format(folder=os.path.dirname(os.path.abspath(__file__)))
    try:
        proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", start, os.fspath(record_path), str(read_fd),
                                 json.dumps(sys.path)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, pass_fds=(read_fd,), **spawn_options())
    except OSError:
        os.close(write_fd)
        return Watch()
    finally:
        os.close(read_fd)
    return Watch(write_fd, proc)


def _running(path: str) -> bool:
    """Whether the record at ``path`` still says "running" (a FIFO or a link there is never waited on or followed:
    read as running, and recovery refuses it and says so)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False  # no record: nothing to finish
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return True
        data = os.read(fd, _MAX_RECORD + 1)
    finally:
        os.close(fd)
    try:
        return len(data) > _MAX_RECORD or _state(data) == "running"
    except (ValueError, AttributeError):
        return True


class _Loads:
    """What ``_json.make_scanner`` reads of a ``json.JSONDecoder``: json.loads's defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


_SCAN = _json.make_scanner(_Loads()) if _json is not None else None
_WHITESPACE = " \t\n\r"  # JSON's, as json.loads skips it around the value


def _state(data: bytes):
    """``json.loads(data).get("state")``: a UTF-8 record by the C scanner alone, anything else by ``json``."""
    if _SCAN is not None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = ""  # json decides (its own encoding detection, surrogates let through)
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = _SCAN(text, start) if text else (None, -1)
        except (StopIteration, ValueError):
            pass
        else:
            if end >= 0 and not text[end:].strip(_WHITESPACE):
                return value.get("state")
    import json

    return json.loads(data).get("state")


def main() -> int:
    record_path, fd, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    try:
        while os.read(fd, 512):
            pass  # nothing is ever written: only the end of file counts
    except OSError:
        return 1
    if not _running(record_path):
        return 0
    import json

    sys.path[:] = json.loads(paths)  # the relay's own: its packages and their dependencies
    from pathlib import Path

    from relay.call.recovery import recover_run
    from relay.runs.store import RunStore

    path = Path(record_path)
    return 0 if recover_run(RunStore(path.parent), path.stem) else 3
