"""The end of a call, in one place: an ``Ending`` becomes the record's outcome and the packet.

Every way a call ends (refused at intake, previewed, finished, failed, stopped, broken by a bug, the
data dir unwritable, its relay dead: recovery) is one Ending handed to ``finish``, which fills the record's outcome, builds the
packet from it (``ok`` is the packet's own: status SUCCESS), adds what the record says about the run
(a policy broken before a stop, a worktree to apply, the call's arguments the tool did not know), and writes the
record once.
"""

from __future__ import annotations

import errno
import logging
import time
from pathlib import Path
from typing import Literal

import msgspec

from relay.agy.classify import Verdict
from relay.call.enforce import VIOLATION_HINT
from relay.core.contracts import (Changes, ContinueInput, ExecuteInput, Packet, Preview, RunRecord, Status, Tests,
                                  Usage)
from relay.core.errors import RelayError, as_relay_error
from relay.core.redact import redact
from relay.isolate.pool import change_kept
from relay.runs.ended_early import ended_early, note_ended_early
from relay.runs.store import RunStore, now_iso

__all__ = ["Ending", "finish", "refusal_ending", "stopped_verdict", "unrecorded_ending"]

log = logging.getLogger("relay")


class Ending(msgspec.Struct, kw_only=True):
    """How a call ended: the verdict (status, message, hint) and what the packet says beside it."""

    verdict: Verdict
    summary: str = ""
    changes: Changes | None = None
    tests: Tests | None = None
    flags: list[str] = []
    preview: Preview | None = None  # a confirm_trusted profile's preview (CONFIRMATION_REQUIRED)
    usage: Usage | None = None  # what a run that launched agy cost (issue 27: relay.runs.usage)
    recorded: bool = True  # False: the data dir cannot be written; the packet is the only copy and says so
    state: Literal["finished", "interrupted"] = "finished"  # interrupted: its relay died (call/recovery.py)


def refusal_ending(run_id: str, exc: Exception) -> Ending:
    """A call refused before its worker ran (or after, by a RelayError): the error's own status and words."""
    if not isinstance(exc, RelayError):
        log.error("call %s failed before its run started", run_id, exc_info=exc)
    error = as_relay_error(exc, f"run {run_id} (before agy started)")
    return Ending(verdict=Verdict(status=error.status, message=error.message[:2000], hint=error.hint,
                                  retryable=error.retryable))


def stopped_verdict(verdict: Verdict, violation: str, unobserved: str) -> Verdict:
    """A run stopped before its end keeps its status (why it ended); a policy it broke goes in the message
    (``violation``), and that its change was not observed (``unobserved``: its look past its bound).

    Not POLICY_VIOLATION: the leader that cancelled must see its cancel took, and a waiting call the same
    ending; the violation is in the message, a flag, the record, and `apply` refuses the run.
    """
    said = "; ".join(filter(None, [violation, unobserved]))
    if not said:
        return verdict
    hint = f"{VIOLATION_HINT} {verdict.hint}" if violation else verdict.hint
    return Verdict(status=verdict.status, message=f"{verdict.message}; {said}"[:2000], hint=hint, retryable=False)


def unrecorded_ending(exc: OSError, runs_dir: Path, data_dir: Path) -> Ending:
    """The data dir cannot take the run's record (read-only, not a folder, full): nothing ran (issue 13, minor)."""
    where = exc.filename or runs_dir
    log.error("cannot write run records in %s: %s", runs_dir, exc)
    verdict = Verdict(
        status=Status.STORAGE_ERROR,
        message=f"the relay cannot write its run records in {runs_dir} ({where}: {exc.strerror or exc}); "
        "the worker was not started",
        hint=f"Make {data_dir} writable by this user (chmod u+w, or chown it if `sudo` created it; "
        "free disk space if it is full), or set GRAVITY_RELAY_DATA_DIR to a writable folder in the relay's MCP "
        "server env; `gravity-relay doctor` checks it. Nothing ran and the workspace was not touched.",
    )
    return Ending(verdict=verdict, recorded=False,
                  flags=["no run record was written: get_result will not find this run_id"])


def _violation_flag(record: RunRecord) -> str:
    violation = record.outcome.violation
    assert violation is not None
    done = f"; {len(violation.restored)} file(s) restored" if violation.restored else ""
    said = "; ".join(violation.limits)
    return f"policy violation before the run ended: {said if len(said) <= 240 else said[:240] + '…'}{done}"


# Names a client adds to every call itself (Gemini CLI: wait_for_previous): not the model's slip, so not flagged.
CLIENT_ADDED_ARGUMENTS = frozenset({"wait_for_previous"})


def _ignored_flag(record: RunRecord) -> str | None:
    """The call's argument names the tool does not know, said to the model: ignored in silence, a `mode` meant
    as execution_mode or a `working_directory` meant as workspace left the model sure of a call it never made."""
    names = [n for n in record.request.ignored_arguments if n not in CLIENT_ADDED_ARGUMENTS]
    if not names:
        return None
    tool, accepted = ("antigravity_continue", ContinueInput) if record.tool == "continue" else \
        ("antigravity_execute", ExecuteInput)
    shown = ", ".join(repr(n if len(n) <= 40 else n[:40] + "…") for n in names[:5])
    more = f" and {len(names) - 5} more" if len(names) > 5 else ""
    return (f"ignored argument(s) {shown}{more}: not {tool}'s, so they had no effect; its arguments are "
            f"{', '.join(accepted.__struct_fields__)}")


def finish(store: RunStore, record: RunRecord, ending: Ending, *, started: float | None = None) -> Packet:
    """The record's outcome and the packet from ``ending``; the record written (its last write)."""
    verdict = ending.verdict
    outcome = record.outcome
    record.state = ending.state
    outcome.status = verdict.status
    outcome.error = verdict.error()
    outcome.finished_at = now_iso()
    if started is not None:
        outcome.duration_ms = int((time.monotonic() - started) * 1000)
    from relay.review.packet import fit_packet  # at the first packet, not at start (relay.call.orchestrate)

    packet = fit_packet(Packet(run_id=record.run_id, status=verdict.status, summary=ending.summary,
                               changes=ending.changes or Changes(), tests=ending.tests or Tests(),
                               flags=list(ending.flags), conversation_id=outcome.conversation_id, error=outcome.error,
                               preview=ending.preview, usage=ending.usage))
    if not ending.recorded:
        return packet
    if outcome.violation is not None and verdict.status is not Status.POLICY_VIOLATION:
        # a stopped run's status says why it ended; the flag names the worker's files, added after fit_packet made
        # the packet's text safe to show, so it is made so here
        packet.flags = [redact(_violation_flag(record)), *packet.flags]
    isolation = record.isolation
    if isolation.branch:
        packet.branch, packet.worktree = isolation.branch, isolation.worktree
        if change_kept(store.runs_dir.parent, isolation.worktree, record.run_id):  # its config defines hooks
            packet.flags = [*packet.flags, f"isolated: nothing reached {record.plan.workspace}, and the change is NOT "
                            f"on branch {isolation.branch} (the repository's git config defines hooks): it is kept "
                            f"as the worker left it in worktree {isolation.worktree}"]
        else:
            packet.flags = [*packet.flags, f"isolated: nothing reached {record.plan.workspace}; apply the change with "
                            f"antigravity_continue(run_id, apply=true) or `gravity-relay runs apply {record.run_id}`"]
    ignored = _ignored_flag(record)
    if ignored:
        packet.flags = [*packet.flags, ignored]
    outcome.packet = packet
    record.process.pgid = None
    record.process.where = None  # only a running run is somewhere
    try:
        _save_final(store, record)
    except OSError as exc:
        log.error("could not write run record %s: %s", record.run_id, exc)
        packet.flags = [*packet.flags, f"run record {record.run_id} not saved ({exc.strerror or exc}); "
                        "this answer is the only copy of the result"]
    else:
        if ended_early(record):  # a bounded number of these is kept (relay.runs.ended_early)
            try:
                note_ended_early(store, record)
            except OSError as exc:
                log.warning("could not mark call %s as ended before agy started: %s", record.run_id, exc)
    log.info("run %s finished: %s", record.run_id, verdict.status.value)
    return packet


def _save_final(store: RunStore, record: RunRecord) -> None:
    """Write the finished record; on a full disk, shrink this run's transcript to make room and try again."""
    try:
        store.write(record)
    except OSError as exc:
        transcript = Path(record.process.transcript) if record.process.transcript else None
        if exc.errno != errno.ENOSPC or transcript is None or not transcript.exists():
            raise
        with transcript.open("r+b") as fh:
            fh.truncate(min(transcript.stat().st_size, 64 * 1024))
        log.warning("disk full: cut transcript %s to 64 KiB to save run record %s", transcript, record.run_id)
        packet = record.outcome.packet
        if packet is not None:
            packet.flags = [*packet.flags, "disk full: the transcript was cut to its first 64 KiB to make room for "
                            "the run record"]
        store.write(record)
    store.clear_active(record.run_id)
