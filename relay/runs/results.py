"""What ``antigravity_get_result`` and ``gravity-relay runs show`` answer: one function, one set of bytes.

summary: the packet; errors: status, error, attempts and the stderr/response tails;
full: the whole record, cut to ``max_chars`` with the cut said and the record's path given.
"""

from __future__ import annotations

from typing import Any

import msgspec

from relay.core.contracts import Detail, ErrorInfo, Packet, RunRecord, Status
from relay.core.process import tail
from relay.core.identity import owner_alive
from relay.core.redact import redact_obj

__all__ = ["render_result", "packet_of", "interrupted_error", "packet_object", "encode", "status_of", "MAX_CHARS"]

# The JSON views' default max_chars (detail="diff" has its own: relay.review.diff_view.DEFAULT_VIEW_CHARS).
MAX_CHARS = 12_000

_encoder = msgspec.json.Encoder()


def encode(value: Any) -> bytes:
    return _encoder.encode(value)


def packet_object(packet: Packet) -> dict[str, Any]:
    """The packet as the leader reads it: no empty ``changes``/``tests`` (a refusal has neither)."""
    obj = msgspec.to_builtins(packet)
    for key in ("changes", "tests"):
        if obj.get(key) == {}:
            del obj[key]
    return obj


def status_of(record: RunRecord) -> Status:
    """One answer for every view, from any relay process: RUNNING while the relay that runs it lives
    (identity checked, so a reused pid does not count), INTERRUPTED once it is gone."""
    if record.outcome.status is not None:
        return record.outcome.status
    if record.state == "running" and owner_alive(record.process.relay_pid, record.process.relay_stamp):
        return Status.RUNNING
    return Status.INTERRUPTED


def interrupted_error(relay_pid: int | None, notes: list[str] | tuple[str, ...] = (), *, recovered: bool) -> ErrorInfo:
    """Why a run of a dead relay has no packet: read before recovery finished it, or written by recovery."""
    pid = "" if relay_pid is None else f" {relay_pid}"
    return ErrorInfo(
        code=Status.INTERRUPTED,
        message=f"the relay process{pid} that ran this call ended before it finished"
        + (f"; {'; '.join(notes)}" if notes else ""),
        hint="Check the workspace (changes may be partial; the listed files are what git shows changed now); call "
        "again to redo the task." if recovered else "Check the workspace (changes may be partial); call again to redo "
        "the task. The next relay start finishes this record.",
    )


def packet_of(record: RunRecord) -> Packet:
    """The record's packet; a running run says so, and a dead relay's run gets one made from what it holds."""
    if record.outcome.packet is not None:
        return record.outcome.packet
    status = status_of(record)
    error = record.outcome.error
    if status is Status.RUNNING:
        error = ErrorInfo(code=Status.RUNNING,
                          message=f"run {record.run_id} is still running (started {record.created_at}, "
                          f"relay pid {record.process.relay_pid})",
                          hint="Wait for its packet, or call antigravity_get_result again later.", retryable=True)
    elif error is None:
        error = interrupted_error(record.process.relay_pid, recovered=False)
    return Packet(run_id=record.run_id, status=status, error=error)


def _errors_view(record: RunRecord, budget: int) -> dict[str, Any]:
    share = max(200, budget // 3)
    status = status_of(record)
    view: dict[str, Any] = {"run_id": record.run_id, "status": status.value, "state": record.state}
    if record.outcome.error is not None:
        view["error"] = msgspec.to_builtins(record.outcome.error)
    elif status is not Status.SUCCESS:
        view["error"] = msgspec.to_builtins(packet_of(record).error)
    if record.process.exit_code is not None:
        view["exit_code"] = record.process.exit_code
    if record.process.attempts:
        view["attempts"] = [
            {k: v for k, v in msgspec.to_builtins(a).items() if k not in ("argv", "stderr_tail")} for a in record.process.attempts
        ]
    if record.process.stderr_tail:
        view["stderr_tail"] = tail(record.process.stderr_tail, share)
    if record.process.response:
        view["response_tail"] = tail(record.process.response, share)
    if record.process.transcript:
        view["transcript"] = record.process.transcript
    return view


def render_result(record: RunRecord, detail: Detail, max_chars: int, record_path: str) -> tuple[dict[str, Any], str]:
    """(structured content, text block) for one record; the text is the compact JSON of the object."""
    # The leader sees credentials masked and names shown (relay.core.redact); the file keeps them (0600). A finished
    # run's packet was made so when it was fitted: shown again, a backslash the worker wrote would be doubled twice.
    shown = record.outcome.packet
    if detail is Detail.SUMMARY:
        obj = packet_object(shown) if shown is not None else redact_obj(packet_object(packet_of(record)))
    elif detail is Detail.ERRORS:
        obj = redact_obj(_errors_view(record, max_chars))
    else:
        obj = msgspec.to_builtins(record)
        obj["status"] = status_of(record).value
        packet = obj.get("outcome", {}).pop("packet", None)
        obj = redact_obj(obj)
        if packet is not None:
            obj["outcome"]["packet"] = packet
    text = encode(obj).decode()
    if len(text) <= max_chars:
        return obj, text
    # Too long: say so, keep the beginning, and point at the file that has it all.
    cut = {
        "run_id": record.run_id,
        "status": status_of(record).value,
        "truncated": f"{detail.value} view is {len(text)} chars; showing the first part. Full record: {record_path}",
        "partial": "",
    }
    if len(encode(cut)) > max_chars:
        # A long record path would not fit a small budget: a shorter note, still never over max_chars.
        cut["truncated"] = f"{detail.value} view is {len(text)} chars; ask with a larger max_chars"
    room = max(0, max_chars - len(encode(cut)))
    while True:
        cut["partial"] = text[:room]
        out = encode(cut).decode()
        if len(out) <= max_chars:
            return cut, out
        if room == 0:  # cannot happen with max_chars >= 200 (the schema's minimum); never answer over the limit
            cut = {"run_id": record.run_id, "truncated": f"over {max_chars} chars"}
            return cut, encode(cut).decode()[:max_chars]
        room = max(0, room - (len(out) - max_chars))
