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
from relay.core.files import read_regular, write_atomic
from relay.core.identity import Identity, check, own_stamp

__all__ = ["STATE_FILE", "HttpRelayState", "write_state", "remove_state", "read_live_state", "names_us"]

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
    """Our state, written unless the file names another relay that is still serving (returned either way).

    Two HTTP relays on one data dir (issue 22): the file names the first; the second neither overwrites it nor,
    stopping, removes it (``remove_state``), so doctor keeps seeing the first. When the first stops, the other
    writes its own at its next update (``serve_http`` calls this every second)."""
    import os

    state = HttpRelayState(url=url, host=host, port=port, pid=os.getpid(), started_at=started_at or time.time(),
                           stamp=own_stamp(), sessions=sessions)
    other, _why = read_live_state(data_dir)
    if other is None or other.pid == state.pid:
        write_atomic(_path(data_dir), msgspec.json.encode(state), mode=0o600)
    return state


def names_us(data_dir: Path) -> bool:
    """Whether the file names this process now."""
    import os

    try:
        return msgspec.json.decode(read_regular(_path(data_dir), limit=1 << 16), type=HttpRelayState).pid == os.getpid()
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return False


def remove_state(data_dir: Path) -> None:
    """Remove the file if it is ours (a second relay on another port may have written its own since)."""
    import os

    path = _path(data_dir)
    try:
        state = msgspec.json.decode(read_regular(path, limit=1 << 16), type=HttpRelayState)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return
    if state.pid == os.getpid():
        path.unlink(missing_ok=True)


def read_live_state(data_dir: Path) -> tuple[HttpRelayState | None, str]:
    """(the state of a live HTTP relay, "") or (None, why not): absent, unreadable, or its process is gone."""
    path = _path(data_dir)
    try:
        state = msgspec.json.decode(read_regular(path, limit=1 << 16), type=HttpRelayState)
    except FileNotFoundError:
        return None, "no HTTP relay has registered in this data dir"
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        return None, f"{path} is unreadable: {exc}"
    verdict = check(state.stamp, state.pid)
    if verdict is Identity.SAME:
        return state, ""
    return None, f"{path} names pid {state.pid}, which is {verdict.value} (a relay that did not exit cleanly)"
