"""How strongly a file's own findings set it apart, for the review order (``relay.review.risk.rank_changes``).

Within one risk, the order follows what made the file risky, strongest first:

0. a line dangerous in itself, named (a value that turns verification, escaping or a secret the unsafe way, a dangerous
   call, a security test skipped, a CI step switched off, a look-alike dependency), or the change's purpose named (its
   security note or the task's security fix names the file), or what the relay saw beyond git;
1. an edited line read as risky by its shape (a guard deleted or inverted, a check loosened, a direction judged, a
   security line edited, a skip marker, an edit apart from the change judged worth a look): a generic read, which a
   large refactor's own moved hunks can trip too;
2. words on the commit's own lines, a path word, the file's kind (CI, manifest, migration, a secret's path);
3. size alone (a high file's thousands of lines).

Round 23: a planted `rejectUnauthorized: false` (high, named) ranked 5th behind three medium "fails open" reads of a
44-file refactor's own `throw` lines, a NuGet API key hard-coded in a build file 4th behind three source files' generic
"inverts a check" reads, a `t.Skip()` in a validation test 5th behind three source files high for a path word alone
(`jwt`, `crypto`, `signing`): the order went by kind and size once the risk and the leading rule were equal. Nothing here
raises or lowers a risk: it orders files of the same risk.
"""

from __future__ import annotations

from relay.core.contracts import FileChange

__all__ = ["CLASSIC", "GENERIC", "SIZE_ONLY", "strength"]

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
    "edits_security_line", "skip_marker", "downgrades_dependency", "turned_check",
})
# Size alone makes a file high only past thousands of lines; a medium "large change" (one big hunk) keeps its place among
# the medium files by kind and size as before: an unread slip hides in a rewrite's big hunk as often as anywhere (held-out
# 28: a 200-line hunk holding the plant ranked 2nd by size; read as size-only it fell to 4th behind two deleted files).
SIZE_ONLY = frozenset({"huge_change"})
# A classic row's finding that quotes the check it was read from, "… (was OLD)", reads the shape of an edited check (a
# refusal narrowed, a check's result ignored): a generic read, which a refactor's own rewritten checks trip as often
# (held-out 22: ink's own `if (!instance)` → `=== undefined` ranked above a planted `!== 'false'` read the same way).
_PAIR_READ = " (was "
# The edit-apart row judges a quote worth a look with this opening (relay.review.apart_edits); its other quotes are notes.
_EDITED_APART = "edit apart from the change"


def strength(change: FileChange) -> int:
    """0 (a dangerous line named, or the purpose named) to 3 (size alone); 4 when no rule fired (a low file's edit)."""
    best = 4
    reasons = dict(zip(change.rules, change.reasons))  # kept in one order (relay.review.risk.assess); past three, no reason
    for name in change.rules:
        if name in CLASSIC and _PAIR_READ not in reasons.get(name, ""):
            return 0
        if name in CLASSIC or name in GENERIC or (name == "edit_apart" and any(r.startswith(_EDITED_APART) for r in change.reasons)):
            best = min(best, 1)
        elif name in SIZE_ONLY:
            best = min(best, 3)
        elif name not in ("note_apart", "seen_beyond_git", "lets_through_note", "leading_line"):  # a note decides nothing; an edit apart not judged is a kind
            best = min(best, 2)
    return best
