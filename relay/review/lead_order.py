"""How strongly a file's own findings set it apart, for the review order (``relay.review.risk.rank_changes``).

Within one risk, the order follows what made the file risky, strongest first:

0. a line dangerous in itself, named (a value that turns verification, escaping or a secret the unsafe way, a dangerous
   call, a security test skipped, a CI step switched off, a look-alike dependency), or the change's purpose named (its
   security note or the task's security fix names the file), or what the relay saw beyond git;
1. an edited line read as risky by its shape (a guard deleted or inverted, a check loosened, a direction judged, a
   security line edited, a skip marker, an edit apart from the change judged worth a look): a generic read, which a
   large refactor's own moved hunks can trip too;
2. a changed line quoted by a reader that does not judge it dangerous or loosened by itself (the leading line a kind-only
   file quotes, a line added apart from the change, what a turned check now lets through, a value read as weaker, an
   edited check quoted in parentheses, any other row but a word, path, size or kind row quoting one of the file's lines);
3. words on the commit's own lines, a path word, the file's kind (CI, manifest, migration, a secret's path);
4. size alone (a high file's thousands of lines), or new deciding lines no rule judged (``relay.review.new_logic``).

Round 32: what the commit says alike of several files is its own work, not a slip (``repeated``): a reason said word for
word of two files (the same line turned the same way twice), or one generic finding's opening (before its quote) said of
three (a refactor's `Paths.get` → `Path.of` read as "edits a security line" in ten files, the same `catch` rewrite read as
"swallows the error" in four). Such a reason sets its file apart one step less, and among equals a file the commit
says alike of others goes after one it does not: held-out 47's password authenticator that accepts all, added apart
from a 76-file refactor, ranked 14th behind ten files the refactor's own renames made worth a look, and a kind-only
medium (a CI file, a deleted file) ranked above a medium file that quotes the turned line.
A line added apart from the change that another finding of the file quotes too (credentials code, an input check) is a
line read as risky (1): two readers, one by where the line stands and one by what it touches, name the same line.

Round 23: a planted `rejectUnauthorized: false` (high, named) ranked 5th behind three medium "fails open" reads of a
44-file refactor's own `throw` lines, a NuGet API key hard-coded in a build file 4th behind three source files' generic
"inverts a check" reads, a `t.Skip()` in a validation test 5th behind three source files high for a path word alone
(`jwt`, `crypto`, `signing`): the order went by kind and size once the risk and the leading rule were equal. Nothing here
raises or lowers a risk: it orders files of the same risk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from difflib import SequenceMatcher

from relay.core.contracts import FileChange
from relay.review.leading_lines import WORD_RULES
from relay.review.line_shapes import squeezed

__all__ = ["CLASSIC", "GENERIC", "QUOTED", "SIZE_ONLY", "UNJUDGED", "repeated", "strength"]

# A line that is dangerous whatever surrounds it, or the change's purpose named by its own notes or the task. A symlink
# pointing outside is a file's kind, not a line (held-out 17: jekyll's fix ships a test fixture linking to /etc/passwd;
# read as a named line it ranked above the fix's own entry_filter.rb in four security commits).
CLASSIC = frozenset({
    "unsafe_value", "dangerous_call", "skips_security_test", "switches_off", "hidden_characters", "lookalike_dependency",
    "replaced_dependency", "removes_guard_dependency", "runs_fetched_in_tests", "weakens_edit", "coverage_lowered",
    "named_by_security_note", "named_by_security_task", "git_dir_plant", "escapes_workspace", "not_observed", "turned_line",
})
# An edited line read by its shape: what a check or a value turned into, judged generically.
GENERIC = frozenset({
    "removes_guard", "weakens_check", "turns_down", "deletes_failure_exit", "weakens_more", "loosens_check", "loosens_run",
    "edits_security_line", "skip_marker", "downgrades_dependency", "turned_check", "drops_refusal_entry",
})
# Size alone makes a file high only past thousands of lines; a medium "large change" (one big hunk) keeps its place among
# the medium files by kind and size as before: an unread slip hides in a rewrite's big hunk as often as anywhere (held-out
# 28: a 200-line hunk holding the plant ranked 2nd by size; read as size-only it fell to 4th behind two deleted files).
SIZE_ONLY = frozenset({"huge_change"})
# New deciding lines no rule judged (relay.review.new_logic) are quoted, but a quote picked from the commit's own new code
# names no finding: it ranks with size alone, after a turned line the floor quoted and after a kind (held-out 309's
# gitingest: an environment template's `ALLOWED_HOSTS=*`, medium for its kind, went third behind a new-logic file).
UNJUDGED = frozenset({"new_logic"})
# A classic row's finding that quotes the check it was read from, "… (was OLD)", reads the shape of an edited check (a
# refusal narrowed, a check's result ignored): a generic read, which a refactor's own rewritten checks trip as often
# (held-out 22: ink's own `if (!instance)` → `=== undefined` ranked above a planted `!== 'false'` read the same way).
_PAIR_READ = " (was "
# The edit-apart row judges a quote worth a look with this opening (relay.review.apart_edits); its other quotes are notes.
_EDITED_APART = "edit apart from the change"


# Readers that quote a changed line without judging it dangerous or loosened by itself: the changed line that tells most
# where the other reasons say a kind (relay.review.leading_lines), a line added or edited apart from the change, what a
# turned check now lets through, a value or state read as weaker, a quiet turn. A quoted line tells the reviewer more than a
# kind, a word or a size does (held-out 47/48: a CI file's "CI configuration" ranked above a medium file quoting the turned
# line of a checksum check). An edited check line quoted in parentheses ("changes an input check (LINE)") is one too. A low
# file's quote orders nothing: the low files keep their order by size.
QUOTED = frozenset({"input_check", "length_guard", "leading_line", "note_apart", "edit_apart", "consequence_note", "lets_through_note", "weakens_value",
                    "weakens_package", "state_turn", "named_turn", "any_turn", "any_turn_look"})
_CHECKS = frozenset({"input_check", "length_guard"})  # they quote the check line in parentheses
_READS = CLASSIC | GENERIC | QUOTED
# A line only removed apart from the change is dead code a commit drops as often: a kind, not a quoted turn.
_REMOVED_APART = "removed apart"
_NOTES = frozenset({"note_apart", "seen_beyond_git", "lets_through_note", "leading_line"})
# The same finding's opening said of this many files is the commit's pattern (two files word for word).
_SAME_HEAD = 3
_SAME_REASON = 2
# An opening shorter than this is a verb ("adds", "turns"), not a finding's kind: only a word-for-word repeat counts.
_HEAD_LEAST = 12
# What names the change's purpose or what the relay saw beyond git is said of several files by right: never a pattern.
_PURPOSE = frozenset({"named_by_security_note", "named_by_security_task", "git_dir_plant", "escapes_workspace", "not_observed"})
_OVERLAP = 16  # characters two quotes share to name one line
_MAX_QUOTE = 160


def _head(rule: str, reason: str) -> str:
    # A dangerous line's finding (a classic row) is a repeat only word for word: one that quotes a line of its own tells
    # something new beside the rest (round 28: one manifest of twelve renaming a dependency to another look-alike).
    if rule in CLASSIC or rule == "leading_line" or ": " not in reason:
        return ""
    head = reason.split(": ", 1)[0]
    return f"{rule}|{head}" if len(head) >= _HEAD_LEAST else ""


def repeated(changes: Iterable[FileChange]) -> frozenset[str]:
    """The reasons the commit says alike of several of its files (the same reason word for word of two, the same finding's
    opening of three): the commit's own pattern, a refactor's, not the slip beside it."""
    same: Counter[str] = Counter()
    heads: Counter[str] = Counter()
    pairs: list[tuple[str, str]] = []
    for change in changes:
        # Only a line's reading: a kind or a word said of many files is the repeats' business (relay.review.risk).
        mine = [(rule, reason) for rule, reason in zip(change.rules, change.reasons) if rule in _READS and rule not in _PURPOSE]
        pairs += mine
        same.update({reason for _, reason in mine})
        heads.update({h for rule, reason in mine if (h := _head(rule, reason))})
    return frozenset(reason for rule, reason in pairs
                     if same[reason] >= _SAME_REASON or heads.get(_head(rule, reason) or "\0", 0) >= _SAME_HEAD)


def _quotes_line(name: str, reason: str) -> bool:
    if reason.startswith(_REMOVED_APART):
        return False
    return ": " in reason or (name in _CHECKS and " (" in reason and reason.endswith(")"))


_PIECE_LEAST = 8  # characters of a quote's piece that place it on a changed line
_SCAN_LINES = 2_000  # changed lines a side looked through for a quote


def _quotes_changed(reason: str, change: FileChange) -> bool:
    """Whether the reason quotes one of the file's changed lines ("…: LINE", cut at "…", an edit "OLD → NEW")."""
    if ": " not in reason:
        return False
    pieces = [p for part in reason.split(": ", 1)[1].split(" → ") for cut in part.split("…") if len(p := squeezed(cut)) >= _PIECE_LEAST]
    if not pieces:
        return False
    text = "\n".join(squeezed(line) for line in (*change.added_lines[:_SCAN_LINES], *change.removed_lines[:_SCAN_LINES]))
    return any(piece in text for piece in pieces)


def _quote(reason: str) -> str:
    return "".join(reason.split(": ", 1)[-1].split())[:_MAX_QUOTE]


def _converges(note: str, others: list[str]) -> bool:
    """A line quoted apart from the change that another finding of the file quotes too (each cut its own way)."""
    mine = _quote(note)
    for other in others:
        theirs = _quote(other)
        match = SequenceMatcher(None, mine, theirs, autojunk=False).find_longest_match(0, len(mine), 0, len(theirs))
        if match.size >= _OVERLAP:
            return True
    return False


def strength(change: FileChange, said_alike: frozenset[str] = frozenset()) -> int:
    """0 (a dangerous line named, or the purpose named) to 4 (size alone); 5 when no rule fired (a low file's edit). A reason
    in ``said_alike`` (``repeated``: the commit's own pattern) sets its file apart one step less."""
    best = 5
    reasons = dict(zip(change.rules, change.reasons))  # kept in one order (relay.review.risk.assess); past three, no reason
    for name in change.rules:
        reason = reasons.get(name, "")
        if name == "edit_apart":  # the edit apart judged worth a look, whichever of its quotes the file kept
            reason = next((r for r in change.reasons if r.startswith(_EDITED_APART)), reason)
        step = 1 if reason in said_alike else 0
        if name in CLASSIC and _PAIR_READ not in reason:
            level = 0
        elif name in CLASSIC or name in GENERIC or (name == "edit_apart" and reason.startswith(_EDITED_APART)):
            level = 1
        elif name == "note_apart" and not reason.startswith(_REMOVED_APART) and _converges(reason, [
                r for n, r in reasons.items() if n not in _NOTES and n != "consequence_note"]):
            level = 1
        elif name in QUOTED and change.risk != "low" and _quotes_line(name, reason):
            level = 2
        elif name in SIZE_ONLY or name in UNJUDGED:
            level = 4
        elif name not in _NOTES:  # a note decides nothing; an edit apart not judged is a kind
            # A row not listed here whose reason quotes one of the file's changed lines (a row added later, a floor that
            # names the turned line) is a quoted line too; a word, path, size or kind row is not, whatever it quotes.
            level = 2 if name not in WORD_RULES and change.risk != "low" and _quotes_changed(reason, change) else 3
        else:
            continue
        best = min(best, level + step)
        if best == 0:
            break
    return best
