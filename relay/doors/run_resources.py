"""A run's diff and transcript as MCP resources the leader reads on demand (issue 27, item 5).

A tool result names them with resource links instead of carrying more bytes: ``relay://runs/{run_id}/diff``
(the run's whole patch, as ``runs diff`` keeps it) and ``relay://runs/{run_id}/transcript`` (agy's NDJSON
stream). Both are resource templates, one per run. What is read is masked like every other view
(``relay.core.redact``: the files keep the bytes, mode 0600) and bounded, saying where the rest is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mcp import types

from relay.core.errors import RelayError
from relay.core.files import read_regular
from relay.core.redact import redact
from relay.runs.store import RunStore, check_run_id

__all__ = ["TEMPLATES", "run_links", "read_run_resource", "MAX_RESOURCE_CHARS"]

MAX_RESOURCE_CHARS = 400_000  # a leader's context is the limit: the whole file stays on disk
_URI = re.compile(r"relay://runs/([^/]+)/(diff|transcript)")
_KINDS = {
    "diff": ("text/x-diff", "The run's whole patch (git format), masked; the review targets come first in the packet."),
    "transcript": ("application/x-ndjson", "agy's NDJSON stream of the run (steps, tool calls, result), masked."),
}

TEMPLATES = [types.ResourceTemplate(uri_template=f"relay://runs/{{run_id}}/{kind}", name=f"run-{kind}",
                                    description=description, mime_type=mime)
             for kind, (mime, description) in _KINDS.items()]


def _file(store: RunStore, run_id: str, kind: str) -> Path:
    return store.patch_path(run_id) if kind == "diff" else store.transcript_path(run_id)


def run_links(store: RunStore, answer: Any) -> list[types.ResourceLink]:
    """Links to a finished run's diff and transcript, for those it has (a refused call has neither)."""
    if not isinstance(answer, dict) or not isinstance(answer.get("run_id"), str) or answer.get("status") == "RUNNING":
        return []
    run_id = answer["run_id"]
    links = []
    for kind, (mime, _description) in _KINDS.items():
        try:
            size = _file(store, run_id, kind).stat().st_size
        except (OSError, RelayError):  # no such file, or not a run id: nothing to link
            continue
        if size:
            # The name is short: clients show it to the model beside the URI (Claude Code, Gemini CLI).
            links.append(types.ResourceLink(type="resource_link", uri=f"relay://runs/{run_id}/{kind}",
                                            name=kind, mime_type=mime, size=size))
    return links


def read_run_resource(store: RunStore, uri: str) -> types.TextResourceContents | None:
    """The contents of a run resource, or None when ``uri`` is not one (the caller says what is known)."""
    match = _URI.fullmatch(uri)
    if match is None:
        return None
    run_id, kind = check_run_id(match[1]), match[2]
    path = _file(store, run_id, kind)
    try:
        data = read_regular(path, limit=MAX_RESOURCE_CHARS * 4 + 1)
    except FileNotFoundError:
        raise ValueError(f"run {run_id} has no {kind} ({path} does not exist: nothing changed, the run never "
                         "started agy, or retention removed it)") from None
    text = redact(data.decode("utf-8", "replace"))
    if len(text) > MAX_RESOURCE_CHARS:
        text = text[:MAX_RESOURCE_CHARS] + f"\n# … cut at {MAX_RESOURCE_CHARS:,} characters; the whole file: {path}\n"
    return types.TextResourceContents(uri=uri, mime_type=_KINDS[kind][0], text=text)
