"""A check's failure turned into success, and an escaper told to escape fewer characters: what makes a named turn more
than a note (issue 36, round 29, docs29b).

Held-out 40's first run left a shell checksum-verifying function whose failing test's ``|| return 1`` became ``|| return 0``
low: the function now answers "verified" when the digest could not even be made, and nothing read a shell status
as a verdict. Held-out 39's left an HTML-safe JSON encoder that no longer escaped ``/`` low though it was named
("escapes fewer characters", ``relay.review.turn_consequences``): a note, not a risk, so the file stayed low and
``</script>`` in a value closes the page's script block. Both are a check's answer turned the unsafe way on one line.

- ``failing_turn``: a line that holds a condition (``||``, ``then``, ``if``, ``unless``, ``or``, a ``[`` test) and
  ends a failing path with a non-zero status (``return 1``, ``exit 2``, ``sys.exit(1)``, ``process.exit(1)``,
  ``os.Exit(1)``) written again the same with status 0: the failing check now passes. Quiet: a
  status raised (0 → 1), a line without a condition (a function's last ``return 1`` rewritten in a refactor), a comment.
- an escaping call that escapes fewer characters (the consequence note's own reading) is returned as it says, and so
  is a replacing line whose character class loses a character markup or a string literal needs escaped
  (``s.replace(/[&<>"']/g, …)`` → ``/[&<>"]/g``, ``gsub(/[<>&]/) …`` → ``/[<>]/``): the dropped one now passes raw.
  Quiet: a class that gains a character, loses a letter or digit, or a line that replaces nothing.

Read by ``relay.review.rules``' ``turns_down`` row (high), whose scope keeps tests, generated output, mechanical edits
and release notes out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed
from relay.review.turn_consequences import turn_consequence

__all__ = ["failing_turn", "fewer_escaped", "weakened_answer"]

_LONGEST = 300
_COMMENT_RE = re.compile(r"^\s*(?:#|//|--|/?\*|;)")
# A condition on the line: its failing path is what the status answers.
_CONDITION_RE = re.compile(r"\|\||&&|\bthen\b|\bif\b|\bunless\b|\bor\s+(?:return|exit|die)\b|^\s*\[\[?\s|\]\]?\s*(?:\|\||&&)|\belse\b")
_FAIL_RE = re.compile(r"(?P<verb>\b(?:return|exit)\s+|\b(?:sys\.exit|os\.Exit|process\.exit|exit|Environment\.Exit|System\.exit)\s*\(\s*)(?P<code>[1-9]\d{0,2})\b")
_PASS_RE = re.compile(r"(?:\b(?:return|exit)\s+0\b|\b(?:sys\.exit|os\.Exit|process\.exit|exit|Environment\.Exit|System\.exit)\s*\(\s*0\s*\)|"
                      r"(?:\|\||then|;)\s*(?:true|:)\s*(?:;|$|\bfi\b))")


def failing_turn(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"turns a check's failure into success (… → …: the failing check now passes): <line>" (see the module's doc)."""
    fails: dict[str, tuple[str, str]] = {}
    for old in removed[:400]:
        if len(old) > _LONGEST or _COMMENT_RE.match(old) or not _CONDITION_RE.search(old) or not (m := _FAIL_RE.search(old)):
            continue
        fails[squeezed(old[:m.start()].strip())] = (m.group().strip(), squeezed(old[m.end():].strip()))
    if not fails:
        return None
    for new in added[:400]:
        if len(new) > _LONGEST or _COMMENT_RE.match(new) or not (p := _PASS_RE.search(new)):
            continue
        was = fails.get(squeezed(new[:p.start()].strip()))
        if was is not None and (squeezed(new[p.end():].strip()) == was[1] or not was[1].strip(";) ")):
            return f"turns a check's failure into success ({was[0]} → {p.group().strip()}: the failing check now passes): {new.strip()[:90]}"
    return None


# A replacing call on the line, and a character class in it (a regex's ``[…]``).
_REPLACES_RE = re.compile(r"(?i)replace|escape|saniti[sz]|encode|\bgsub\b|\bsub\b|\btr\s*\(|\bstrtr\b|quote")
_CLASS_RE = re.compile(r"\[(?!\^)(?P<chars>(?:\\.|[^\]\\\s]){2,40})\]")
_SIGNIFICANT = frozenset("<>&\"'`/")


def _class_chars(text: str) -> set[str]:
    out, k = set(), 0
    while k < len(text):
        if text[k] == "\\" and k + 1 < len(text):
            out.add(text[k + 1])
            k += 2
        else:
            out.add(text[k])
            k += 1
    return out


def fewer_escaped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"escapes fewer characters (… no longer escaped): <line>" for a replacing line whose character class lost a
    character markup or a string literal needs escaped (see the module's doc)."""
    olds: dict[str, set[str]] = {}
    for old in removed[:400]:
        if len(old) <= _LONGEST and not _COMMENT_RE.match(old) and _REPLACES_RE.search(old) and (m := _CLASS_RE.search(old)):
            olds[squeezed(old[:m.start()] + "[]" + old[m.end():])] = _class_chars(m.group("chars"))
    for new in added[:400] if olds else ():
        if len(new) > _LONGEST or _COMMENT_RE.match(new) or not (m := _CLASS_RE.search(new)):
            continue
        was = olds.get(squeezed(new[:m.start()] + "[]" + new[m.end():]))
        now = _class_chars(m.group("chars"))
        if was is not None and now < was and (gone := sorted((was - now) & _SIGNIFICANT)):
            return f"escapes fewer characters ({' '.join(gone)} no longer escaped): {new.strip()[:90]}"
    return None


def weakened_answer(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A failing check made to pass, or an escaper escaping fewer characters, named by its line (see the module's doc)."""
    if found := failing_turn(added, removed) or fewer_escaped(added, removed):
        return found
    found = turn_consequence(added, removed)
    return found if found and found.startswith("escapes fewer characters") else None
