"""What of one changed line the review reads: all of what it does, in bounded room.

Observation keeps each changed line for the readers in ``relay.review`` within HUNK_CHARS characters, so a
generated file cannot fill the memory and no reader's cost grows with a line's length. A plain cut at
HUNK_CHARS let the worker hide code from every reader: ``return "ok"`` followed by 1,200 spaces and
``; eval(request.args["q"])`` was read as ``return "ok"`` and called "re-indented only", low. So:

- runs of blanks are folded before anything is cut (indentation and alignment keep their look up to
  FOLD_BLANKS; a longer run is padding, and padding must not push code out of reach);
- a line still too long keeps its head and its tail (what padding pushes out is at the end), and in between
  a mark that gives the unread middle's length and a digest of the whole line: two long lines that differ
  anywhere never read alike, and a reader that quotes the line quotes the mark.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["FOLD_BLANKS", "UNREAD_MARK", "kept_line"]

FOLD_BLANKS = 32
_TAIL_CHARS = 240
# Bytes decoded at each end of a very long line (a minified bundle may hold megabytes in one line).
_END_BYTES = 16_000
_BLANKS_RE = re.compile(rb"[ \t]{%d,}" % (FOLD_BLANKS + 1))
# The mark's words are searched by the readers' tests; change them with relay.review's rule on it.
UNREAD_MARK = "…[unread: "


def _fold(raw: bytes) -> bytes:
    return _BLANKS_RE.sub(lambda m: m.group()[:FOLD_BLANKS], raw)


def kept_line(raw: bytes, limit: int) -> str:
    """One changed line (its bytes without the diff sign and newline) as the readers get it: at most ``limit``
    characters, the mark included when it is cut."""
    if len(raw) <= limit and not _BLANKS_RE.search(raw):
        return raw.decode("utf-8", "replace")  # the common line: short, no padding
    head = _fold(raw[:_END_BYTES]).decode("utf-8", "replace")
    if len(raw) <= _END_BYTES and len(head) <= limit:
        return head
    tail = _fold(raw[-_END_BYTES:]).decode("utf-8", "replace")[-_TAIL_CHARS:]
    digest = hashlib.blake2b(raw, digest_size=6).hexdigest()
    mark = f"{UNREAD_MARK}{len(raw):,} bytes, #{digest}]…"
    return head[:max(limit - len(mark) - len(tail), 0)] + mark + tail  # ``limit`` characters in all
