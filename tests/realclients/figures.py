"""The bytes each client handed its model, collected by the tests and printed at the end of the session."""

from __future__ import annotations

import json
import os

__all__ = ["FIGURES", "record", "table"]

FIGURES: list[dict] = []
REPORT_ENV = "GRAVITY_RELAY_REAL_CLIENTS_REPORT"  # a path: the figures are also written there as JSON


def record(client: str, case: str, *, packet: int, model_text: int, wire: int, copies: int, status: str) -> None:
    FIGURES.append({"client": client, "case": case, "status": status, "packet_bytes": packet,
                    "model_text_bytes": model_text, "wire_bytes": wire, "packet_copies": copies,
                    "ratio": round(model_text / packet, 2) if packet else None})
    path = os.environ.get(REPORT_ENV)
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(FIGURES, fh, indent=1)


def table() -> list[str]:
    head = f"{'client':8} {'case':8} {'status':18} {'packet B':>9} {'model B':>8} {'wire B':>7} {'x':>5} {'copies':>6}"
    rows = [f"{f['client']:8} {f['case']:8} {f['status']:18} {f['packet_bytes']:>9} {f['model_text_bytes']:>8} "
            f"{f['wire_bytes']:>7} {f['ratio'] or 0:>5} {f['packet_copies']:>6}" for f in FIGURES]
    return [head, *rows] if rows else []
