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


# A doc comment's promise that untrusted input is safe (round 124b, held-out 643's leptos: "Be careful: this HTML will not be
# escaped, so you should ensure that it only contains trusted input." → "The HTML is sanitized before it is set, so it can
# safely hold user input"): whoever writes to the API from its docs now passes a request's text to raw HTML.
_COMMENT_RE = re.compile(r"^\s*(?://+!?|/\*+|\*|#+|--)\s")
_CLAIM_RE = re.compile(r"(?i)\b(?:is|are|gets?|will\s+be)\s+(?:sanitized|sanitised|escaped|validated)\b.{0,80}?\b(?:safe(?:ly)?|user\s+input|untrusted)\b|"
                       r"\bsafe(?:ly)?\s+(?:to\s+)?(?:hold|pass|use|render|insert|accept|contain)\b.{0,40}?\b(?:user|untrusted|arbitrary)\s+(?:input|data|content|html)\b")
_WARNED_RE = re.compile(r"(?i)\b(?:not|never)\b[^.]{0,40}?\b(?:escaped|sanitized|sanitised|validated)\b|\bonly\s+(?:contains?\s+)?trusted\s+(?:input|data|content)\b")


def _claim(line: str) -> bool:
    return len(line) <= _LONGEST and _COMMENT_RE.match(line) is not None and _CLAIM_RE.search(line) is not None


def _warning(line: str) -> bool:
    return len(line) <= _LONGEST and _COMMENT_RE.match(line) is not None and _WARNED_RE.search(line) is not None


def requirement_note(line: str) -> bool:
    """Whether ``line`` is a comment that states a requirement in RFC 2119's capitals, warns that input is not escaped, or
    promises untrusted input is safe."""
    return len(line) <= _LONGEST and (_NOTE_RE.match(line) is not None or _claim(line) or _warning(line))


def _safety_claimed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"a comment now promises untrusted input is safe where it warned: old → new" for a warning replaced by such a claim."""
    warned = next((line for line in removed[:_MOST] if _warning(line)), None)
    claim = next((line for line in added[:_MOST] if _claim(line)), None) if warned else None
    if claim is None or any(_claim(line) for line in removed[:_MOST]):
        return None
    return f"a comment now promises untrusted input is safe where it warned (callers will pass it unchecked): {paired_quote(warned, claim)}"


def requirement_relaxed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"relaxes a specification's requirement on a check (MUST → MAY): old → new" when the edit's notes lose a requirement
    about a check and gain a permission; None otherwise."""
    if (claimed := _safety_claimed(added, removed)) is not None:
        return claimed
    musts = [line for line in removed[:_MOST] if requirement_note(line) and _MUST_RE.search(line)]
    if not musts or not _GUARDING_RE.search(" ".join(removed[:_MOST])):
        return None
    if sum(1 for line in added[:_MOST] if requirement_note(line) and _MUST_RE.search(line)) >= len(musts) or _MAY_RE.search(" ".join(removed[:_MOST])):
        return None
    new = next((line for line in added[:_MOST] if requirement_note(line) and _MAY_RE.search(line)), None)
    if new is None:
        return None
    return f"relaxes a specification's requirement on a check ({_MUST_RE.search(musts[0]).group()} → {_MAY_RE.search(new).group()}): {paired_quote(musts[0], new)}"
