"""A specification's requirement, written in a doc comment in RFC 2119's capitals, relaxed (issue 36, round 122).

Held-out 558's PSR-7 interfaces: "Implementations MUST raise an exception for ports outside the established TCP and UDP
port ranges." became "Implementations MAY accept any integer as the port; range checks are left to the caller.", and "…
is_uploaded_file() and move_uploaded_file() SHOULD be used to ensure permissions and upload status are verified" became
"rename() MAY be used directly". Every implementation written to the interface may now skip the check, and the change is
a comment's words only, which no other reader reads.

Such a comment line is kept for the readers (``relay.review.file_kinds``) but stays a comment everywhere else: an edit of
comments alone is still mechanical, and a note is never an edit apart from the change (``relay.review.code_reading``,
``relay.review.apart_edits``), unless the requirement it states on a check is relaxed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.overridden_turns import paired_quote

__all__ = ["requirement_note", "requirement_relaxed"]

_NOTE_RE = re.compile(r"^\s*(?://+|/\*+|\*|#+|--)\s.*\b(?:MUST|SHALL|SHOULD|REQUIRED|MAY|OPTIONAL)\b")
_MUST_RE = re.compile(r"\b(?:MUST|SHALL|SHOULD|REQUIRED)\b")
_MAY_RE = re.compile(r"\b(?:MAY|OPTIONAL|NOT\s+(?:REQUIRED|needed|required))\b")
# What the requirement was about: a check, a refusal, an error raised, a named call to make (PSR-7's "is_uploaded_file() …
# SHOULD be used"); a "MUST be a string" on a value's type is no guard.
_GUARDING_RE = re.compile(r"(?i)\b(?:raise|throw|reject|refuse|exception|error|verif|validat|check|ensure|escap|saniti|permission|authori|"
                          r"authenticat|secure|safe)\w*|\b\w+\(\)")
_MOST, _LONGEST = 40, 300


def requirement_note(line: str) -> bool:
    """Whether ``line`` is a comment that states a requirement in RFC 2119's capitals."""
    return len(line) <= _LONGEST and _NOTE_RE.match(line) is not None


def requirement_relaxed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"relaxes a specification's requirement on a check (MUST → MAY): old → new" when the edit's notes lose a requirement
    about a check and gain a permission; None otherwise."""
    musts = [line for line in removed[:_MOST] if requirement_note(line) and _MUST_RE.search(line)]
    if not musts or not _GUARDING_RE.search(" ".join(removed[:_MOST])):
        return None
    if sum(1 for line in added[:_MOST] if requirement_note(line) and _MUST_RE.search(line)) >= len(musts) or _MAY_RE.search(" ".join(removed[:_MOST])):
        return None
    new = next((line for line in added[:_MOST] if requirement_note(line) and _MAY_RE.search(line)), None)
    if new is None:
        return None
    return f"relaxes a specification's requirement on a check ({_MUST_RE.search(musts[0]).group()} → {_MAY_RE.search(new).group()}): {paired_quote(musts[0], new)}"
