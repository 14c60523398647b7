"""What ``antigravity_get_result`` and ``gravity-relay runs show`` answer: one function, one set of bytes.

summary: the packet; errors: status, error, attempts and the stderr/response tails;
full: the whole record, cut to ``max_chars`` with the cut said and the record's path given.
"""

from __future__ import annotations

from typing import Any

import msgspec

from .contracts import Detail, Packet, RunRecord, Status
from .process import tail
from .redact import redact_obj

__all__ = ["render_result", "packet_of", "encode"]

_encoder = msgspec.json.Encoder()


def encode(value: Any) -> bytes:
    return _encoder.encode(value)


def packet_of(record: RunRecord) -> Packet:
    """The record's packet; a record from an interrupted relay gets one made from what it holds."""
    if record.packet is not None:
        return record.packet
    status = record.status or Status.INTERRUPTED
    return Packet(ok=False, run_id=record.run_id, status=status, error=record.error)


def _errors_view(record: RunRecord, budget: int) -> dict[str, Any]:
    share = max(200, budget // 3)
    view: dict[str, Any] = {"run_id": record.run_id, "status": record.status or "RUNNING", "state": record.state}
    if record.error is not None:
        view["error"] = msgspec.to_builtins(record.error)
    if record.exit_code is not None:
        view["exit_code"] = record.exit_code
    if record.attempts:
        view["attempts"] = [
            {k: v for k, v in msgspec.to_builtins(a).items() if k not in ("argv", "stderr_tail")} for a in record.attempts
        ]
    if record.stderr_tail:
        view["stderr_tail"] = tail(record.stderr_tail, share)
    if record.response:
        view["response_tail"] = tail(record.response, share)
    if record.transcript:
        view["transcript"] = record.transcript
    return view


def render_result(record: RunRecord, detail: Detail, max_chars: int, record_path: str) -> tuple[dict[str, Any], str]:
    """(structured content, text block) for one record; the text is the compact JSON of the object."""
    if detail is Detail.SUMMARY:
        obj = msgspec.to_builtins(packet_of(record))
    elif detail is Detail.ERRORS:
        obj = _errors_view(record, max_chars)
    else:
        obj = msgspec.to_builtins(record)
    obj = redact_obj(obj)  # the leader sees credentials masked; the file keeps them (0600)
    text = encode(obj).decode()
    if len(text) <= max_chars:
        return obj, text
    # Too long: say so, keep the beginning, and point at the file that has it all.
    cut = {
        "run_id": record.run_id,
        "status": record.status or "RUNNING",
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
