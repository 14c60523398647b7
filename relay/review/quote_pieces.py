"""The pieces of a changed line a reason quotes: what the view and the packet's ``lines`` find the quoted line by.

A reason quotes its line after what it says the line does — "removes: LINE", "turns false into true: A → B" — but the
readers write the opening in many shapes: a reader's own words may hold a colon ("widens how long a code or token stays
good: getPeriod() multiplied (* 60): LINE", "discards the result of a check (f: its error is ignored): LINE"), or the
quote may stand in parentheses before the gloss ("turns an arm's refusal into a grant (OLD… → NEW…): what it refused now
passes"). Only the first shape was read until session 33, and a line quoted by the second or third was never found: the
view showed another hunk of the file, or a window of the right hunk placed elsewhere (dev sets 37–66: scheb/2fa's token
period multiplied, libsodium's discarded decapsulation result, rcgen's CA arm, ranked first and named, not in the view).

So every place a quote can start is a candidate: after each ": ", and inside the opening's first parentheses. A prose
candidate ("what it refused now passes") matches no code line, so a wrong candidate costs nothing but a look; a
candidate that starts inside a quote holding ": " is a tail of that same line. A low file's description quotes an edit
too ("edit (+15/-10), notably removed: LINE", relay.review.small_edits and edit_scopes): its pieces are read here as well.
"""

from __future__ import annotations

import functools
import re

from relay.core.contracts import FileChange
from relay.core.redact import redact
from relay.review.line_shapes import squeezed

__all__ = ["QUOTE_LEAST", "check_pieces", "described_pieces", "describes_a_line", "pieces_of", "quoted_pieces"]

# Shorter pieces than this say too little to place the line.
QUOTE_LEAST = 8
_MASKED_RE = re.compile(r"\[REDACTED:[^\]]*(?:\]|$)")  # a mask the quote's window cut ends the piece too
_SEPARATOR = ": "
_OLD_TOLD = " (was "  # an old line told after the quote (" (was …)") is left out


def pieces_of(quote: str) -> list[str]:
    """The pieces of one quote (squeezed, as the changed lines are matched)."""
    # An edit quoted "old → new" (relay.review.apart_edits): each side is a piece of the changed lines; the reason's cut of
    # the line ("…") and a masked credential ("[REDACTED:kind]", relay.core.redact) cut it too.
    return [squeezed(piece) for part in quote.split(" → ") for cut in part.split("…") for piece in _MASKED_RE.split(cut)
            if len(piece.strip()) >= QUOTE_LEAST]


@functools.lru_cache(maxsize=4096)
def quoted_pieces(reason: str) -> list[str]:
    """The pieces of the line(s) ``reason`` quotes, the first candidate's first (module docstring)."""
    if _SEPARATOR not in reason:
        return []
    said = redact(reason)
    head, rest = said.split(_SEPARATOR, 1)
    candidates = [rest.split(_OLD_TOLD, 1)[0]]
    while _SEPARATOR in rest:
        rest = rest.split(_SEPARATOR, 1)[1]
        candidates.append(rest.split(_OLD_TOLD, 1)[0])
    # The quote in the opening's parentheses: "grant (OLD… → NEW…): gloss" (the head ends inside them).
    if " (" in head:
        candidates.append(head.split(" (", 1)[1])
    out: list[str] = []
    for quote in candidates:
        out.extend(p for p in pieces_of(quote) if p not in out)
    return out


def check_pieces(reason: str) -> list[str]:
    """The pieces of the check line a reason quotes in its closing parentheses: "changes an input check (LINE)"."""
    if " (" not in reason or not reason.endswith(")"):
        return []
    quote = redact(reason).split(" (", 1)[1][:-1]
    return [squeezed(piece) for cut in quote.split("…") for piece in _MASKED_RE.split(cut) if len(piece.strip()) >= QUOTE_LEAST]


# What opens a small edit's quote before the edited text: its scope (relay.review.edit_scopes), a side's name.
_LABEL_RE = re.compile(r"^(?:notably )?(?:in [^:]{1,80}: )?(?:removed: |added: )?")


def describes_a_line(change: FileChange) -> bool:
    """Whether a file's description (the reason no rule wrote) quotes one of its edits: ``edit (+22/-15), notably …``."""
    return bool(described_pieces(change))


def described_pieces(change: FileChange | None) -> list[str]:
    """The pieces of the edit a low file's description quotes (``edit (+1/-1): in f(): A → B``, ``…, notably in f(): …``,
    relay.review.small_edits and edit_scopes): it is the line the leader is told about, as a line rule's quote is. The
    description is the reason no rule wrote, after the rules' ones."""
    if change is None or len(change.reasons) <= len(change.rules):
        return []
    said = change.reasons[-1]
    at = said.find(", notably ")
    quote = said[at + 2:] if at >= 0 else said.split(": ", 1)[1] if ": " in said and ("(+" in said.split(": ", 1)[0]) else ""
    if not quote:
        return []
    sides = [_LABEL_RE.sub("", side, count=1) for side in redact(quote).split(" → ")]
    return [piece for side in sides for piece in pieces_of(side)]
