"""``detail="diff"``: a run's patch as the leader reads it, riskiest hunks first, never over ``max_chars``.

The patch on disk (``relay.observe.run_patch``) is in path order, as ``git apply`` wants it.
The view puts the files in the packet's risk order (``rank_changes``: the review targets come
first, exactly as the packet lists them), keeps each file's hunks in order, and stops at a hunk
boundary when the next hunk would pass ``max_chars``; the last line then says what was cut and
how to see the rest. A binary file's payload is shown as "binary, N bytes", object ids short. Credentials are
masked as in every other view (``relay.core.redact``); the file on disk keeps them (0600).

``gravity-relay runs diff`` prints these same characters (it calls ``antigravity_get_result``).
"""

from __future__ import annotations

import re
from typing import Any

from relay.core.contracts import RunRecord, Status
from relay.core.redact import redact
from relay.observe.run_patch import CUT, NOT_IN_PATCH, Section, split_patch
from relay.review.packet import rank_changes

__all__ = ["diff_view"]


# The patch's full object ids (git apply needs them for binary files) read as git's short ones here.
_SHORT_INDEX = re.compile(r"^index ([0-9a-f]{7})[0-9a-f]*\.\.([0-9a-f]{7})[0-9a-f]*", re.MULTILINE)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _binary_head(section: Section) -> str:
    before, after = section.binary or (0, 0)
    return f"binary, {after:,} bytes (before: {before:,} bytes); its git binary patch is in the patch file\n"


def _ordered(record: RunRecord, sections: list[Section]) -> list[Section]:
    rank = {c.path: i for i, c in enumerate(rank_changes(record.observation.changes))}
    last = len(rank)
    # A file <-> symlink swap has two sections of one path: sorted() keeps their order.
    return sorted(sections, key=lambda s: (rank.get(s.path, rank.get(s.old_path, last)), s.path))


def diff_view(record: RunRecord, status: Status, patch: bytes | None, patch_path: str,
              max_chars: int) -> tuple[dict[str, Any], str]:
    """(structured content, text block): the run's patch in risk order, cut at a hunk boundary.

    ``status`` is the run's status as every view reads it (RUNNING while its relay lives)."""
    run_id = record.run_id
    if patch is None:
        if status is Status.RUNNING:
            text = f"# run {run_id} has not finished: its patch is written once its changes are observed\n"
        elif not record.observation.changes:
            text = f"# run {run_id} changed no files: there is no patch\n"
        else:
            text = (f"# run {run_id} has no patch ({len(record.observation.changes)} files changed): it ran before patches were "
                    f"kept, its changes came from the worker's report only, or patches are off "
                    f"(GRAVITY_RELAY_PATCH_MAX_SIZE=0); detail=\"full\" lists the files\n")
        text = text[:max_chars]
        return {"run_id": run_id, "status": status.value, "diff": text}, text
    header, sections = split_patch(patch)
    notes = [_text(line) for line in header if line.startswith(NOT_IN_PATCH) or line.startswith(CUT)]
    top = f"# run {run_id}: {len(sections)} file sections, riskiest first (review targets first); full patch: {patch_path}\n"
    if len(top) > max_chars // 2:
        top = f"# run {run_id}: {len(sections)} file sections, riskiest first\n"
    pieces: list[str] = [top, *[redact(n)[:_NOTE_LINE] for n in notes]]
    # (text, starts a file) for every hunk, in risk order; a file's header goes with its first hunk.
    body: list[tuple[str, bool]] = []
    for section in _ordered(record, sections):
        head = redact(_SHORT_INDEX.sub(r"index \1..\2", _text(section.head)))
        hunks = [_binary_head(section)] if section.binary is not None else [redact(_text(h)) for h in section.hunks]
        for i, hunk in enumerate(hunks or [""]):
            body.append(((head if i == 0 else "") + hunk, i == 0))
    used = sum(map(len, pieces))
    if used + sum(len(t) for t, _ in body) <= max_chars:
        text = "".join(pieces) + "".join(t for t, _ in body)
        return {"run_id": run_id, "status": status.value, "diff": text}, text
    files_shown = hunks_shown = 0
    for piece, first in body:
        if used + len(piece) + _NOTE_ROOM > max_chars:
            break
        pieces.append(piece)
        used += len(piece)
        hunks_shown += 1
        files_shown += first
    note = (f"# cut at max_chars={max_chars}: {files_shown} of {len(sections)} files, {hunks_shown} of {len(body)} "
            f"hunks shown; ask with a larger max_chars or read the patch file\n")
    while pieces and sum(map(len, pieces)) + len(note) > max_chars:
        pieces.pop()  # only the header lines can be this long: drop them rather than answer over the limit
    pieces.append(note[: max_chars - sum(map(len, pieces))])
    text = "".join(pieces)
    return {"run_id": run_id, "status": status.value, "diff": text}, text


# Room kept for the cut note (its longest form is ~150 characters); a header note line's own bound.
_NOTE_ROOM = 160
_NOTE_LINE = 400
