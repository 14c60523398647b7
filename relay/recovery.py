"""Start-up recovery: runs left "running" by a relay process that no longer exists.

Their worker's process group may still be alive (the relay was SIGKILLed, the
machine slept); kill it and mark the run INTERRUPTED, so nothing is orphaned
and every record ends with a verdict.
"""

from __future__ import annotations

import logging
import os
import signal

from .contracts import ErrorInfo, Packet, Status
from .errors import RelayError
from .process import group_alive, pid_alive
from .store import RunStore, now_iso

__all__ = ["recover_interrupted"]

log = logging.getLogger("relay.recovery")


def recover_interrupted(store: RunStore, *, own_pid: int | None = None) -> list[str]:
    """Mark dead relays' running runs INTERRUPTED and kill their leftover groups; returns their ids."""
    recovered = []
    for run_id in store.active_ids():
        try:
            record = store.read(run_id)
        except RelayError:
            store.clear_active(run_id)
            continue
        if record.state != "running":
            store.clear_active(run_id)
            continue
        if record.relay_pid in (own_pid or os.getpid(),) or pid_alive(record.relay_pid):
            continue  # another live relay (or this one) owns it
        if record.pgid and group_alive(record.pgid):
            try:
                os.killpg(record.pgid, signal.SIGKILL)
                log.warning("killed leftover worker group %s of run %s", record.pgid, run_id)
            except (ProcessLookupError, PermissionError):
                pass
        error = ErrorInfo(
            code=Status.INTERRUPTED,
            message=f"the relay process {record.relay_pid} that ran this call ended before it finished",
            hint="Check the workspace (changes may be partial); call again to redo the task.",
        )
        record.state = "interrupted"
        record.status = Status.INTERRUPTED
        record.error = error
        record.finished_at = now_iso()
        record.packet = Packet(ok=False, run_id=run_id, status=Status.INTERRUPTED, error=error)
        record.pgid = None
        store.write(record)
        store.clear_active(run_id)
        recovered.append(run_id)
    return recovered
