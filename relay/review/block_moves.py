"""A statement moved into or out of its block, where indentation is the block; a check moved (issue 36, round 115).

Why it exists: in Python (and the other languages whose indentation is their blocks: line_shapes.blocks_kept) a line's
indentation decides when it runs. ``delete_all()`` dedented out of ``if user.is_admin:`` runs for every user; a check
indented under a new ``if settings.STRICT:`` runs only then. Each compares equal to the line it was once its indentation
is stripped, so the mechanical readers called such an edit "re-indented only" and every other reader saw no turn: low.
The worker guarded against slips one such move into an ordinary change; a small edit's move is quoted as worth a look.

Quiet: a bigger rewrite (a block wrapped in ``with``/``try`` or unwrapped moves many lines by one step: the work), a
comment, a line moved at its own depth, brackets' continuation lines (a formatter's).

In any language a small edit that only moves lines, one of them a call whose name checks (``requireAdmin(req);`` moved
below ``db.deleteAll();``), was "lines reordered only": the check may now run after what it guards. ``moved_check`` says so,
and the mechanical verdict no longer covers it (relay.review.code_reading). A reorder of imports, of a list's entries or
of definitions stays mechanical.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import OFFSIDE_EXTS, clipped, indent_width

__all__ = ["CHECK_CALL_RE", "moved_block", "moved_check"]

_SMALL = 6  # changed lines a side: a slip, not a rewrite
_MOVED_MOST = 2  # lines moved across a block's edge


def moved_block(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"moves a statement out of its block (…): line" or "into a block (…)" for a small edit of an indentation-blocked
    language whose line stands again at another indentation; None otherwise."""
    if not path.lower().endswith(OFFSIDE_EXTS) or not added or not removed or len(added) > _SMALL or len(removed) > _SMALL:
        return None
    olds = {line.strip(): indent_width(line) for line in removed if line.strip() and not line.strip().startswith("#")}
    moves = [(line, indent_width(line) - olds[line.strip()]) for line in added
             if line.strip() in olds and indent_width(line) != olds[line.strip()] and not line.strip().startswith(("#", ")", "]", "}"))]
    if not moves or len(moves) > _MOVED_MOST:
        return None
    line, delta = moves[0]
    if delta < 0:
        return f"moves a statement out of its block (it now runs whatever the condition above it): {clipped(line, 60)}"
    return f"moves a statement into a block (it now runs only under the condition above it): {clipped(line, 60)}"


# A statement that is one call of a checking name (``requireAdmin(req);``, ``await authorize(user)``, ``self.check_csrf()``).
CHECK_CALL_RE = re.compile(r"^\s*(?:await\s+|try\s+|yield\s+)?[\w$.:>-]*?(?i:check|require|validat|verif|authori[sz]|authenticat|ensure|assert|"
                           r"guard|permi[st]|sanitiz|escape|deny|forbid|protect|limit|throttle|csrf)\w*[!?]?\s*\(.*\)[;?!]*\s*$")


def moved_check(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"moves a check (…): line" for a small edit whose lines only moved, one of them a checking call; None otherwise."""
    if not added or len(added) > _SMALL or sorted(line.strip() for line in added) != sorted(line.strip() for line in removed):
        return None
    moved = next((line for line in added if CHECK_CALL_RE.match(line)), None)
    return f"moves a check (it may now run after what it guards): {clipped(moved, 60)}" if moved else None
