"""``http-relay.json`` in the data dir: which HTTP relay is serving, where, since when.

Written when ``serve --http`` starts listening, removed when it exits. Readers (doctor)
trust it only after checking the recorded stamp against the live process: a relay that
was killed leaves the file behind, and its pid may belong to someone else by now.
"""

from __future__ import annotations

import time
from pathlib import Path

import msgspec

from relay.core.contracts import ProcessStamp
from relay.core.files import write_atomic
from relay.core.platform import Identity, check, own_stamp

__all__ = ["STATE_FILE", "HttpRelayState", "write_state", "remove_state", "read_live_state"]

STATE_FILE = "http-relay.json"


class HttpRelayState(msgspec.Struct, kw_only=True, omit_defaults=True):
    url: str
    host: str
    port: int
    pid: int
    started_at: float  # time.time() at start
    stamp: ProcessStamp | None = None
    # MCP sessions open now (handshake-era clients; 2026-protocol requests carry no session), kept
    # current by the relay within a second or so.
    sessions: int = 0


def _path(data_dir: Path) -> Path:
    return data_dir / STATE_FILE


def write_state(data_dir: Path, *, url: str, host: str, port: int, started_at: float | None = None,
                sessions: int = 0) -> HttpRelayState:
    import os

    state = HttpRelayState(url=url, host=host, port=port, pid=os.getpid(), started_at=started_at or time.time(),
                           stamp=own_stamp(), sessions=sessions)
    write_atomic(_path(data_dir), msgspec.json.encode(state), mode=0o600)
    return state


def remove_state(data_dir: Path) -> None:
    """Remove the file if it is ours (a second relay on another port may have written its own since)."""
    import os

    path = _path(data_dir)
    try:
        state = msgspec.json.decode(path.read_bytes(), type=HttpRelayState)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return
    if state.pid == os.getpid():
        path.unlink(missing_ok=True)


def read_live_state(data_dir: Path) -> tuple[HttpRelayState | None, str]:
    """(the state of a live HTTP relay, "") or (None, why not): absent, unreadable, or its process is gone."""
    path = _path(data_dir)
    try:
        state = msgspec.json.decode(path.read_bytes(), type=HttpRelayState)
    except FileNotFoundError:
        return None, "no HTTP relay has registered in this data dir"
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        return None, f"{path} is unreadable: {exc}"
    verdict = check(state.stamp, state.pid)
    if verdict is Identity.SAME:
        return state, ""
    return None, f"{path} names pid {state.pid}, which is {verdict.value} (a relay that did not exit cleanly)"
