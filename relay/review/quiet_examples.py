"""The weakens rows' further cases for relay.review.quiet_turns' readers (round 31), kept apart from the readers: the
rows' Example type reads the facts module, which the readers sit under (a circular import otherwise)."""

from __future__ import annotations

from relay.core.contracts import FileChange
from relay.review.rule_row import Example

__all__ = ["HIGH_EXAMPLES", "MEDIUM_EXAMPLES"]


# weakens_edit's high cases, then weakens_more's medium ones.
def _edit(path: str, old: str, new: str) -> FileChange:
    return FileChange(path=path, additions=1, deletions=1, removed_lines=[old], added_lines=[new])


HIGH_EXAMPLES = (
    Example(_edit("src/seal.rs", "    if want.ct_eq(&got).into() {", "    if want[..6].ct_eq(&got[..6]).into() {"),
            "compares only a prefix (its first bytes): if want[..6].ct_eq(&got[..6]).into() {",
            _edit("src/seal.rs", "    trace!(\"{:?}\", got);", "    trace!(\"{:?}\", &got[..6]);")),
    Example(_edit("store/files.py", "    default_mode = OWNER_RW", "    default_mode = ALL_ACCESS"),
            "widens a default permission (open to all users): default_mode = OWNER_RW → default_mode = ALL_ACCESS",
            _edit("store/files.py", "    default_mode = ALL_ACCESS", "    default_mode = OWNER_RW")),
)
MEDIUM_EXAMPLES = (
    Example(_edit("src/main/java/app/Loader.java", "      throw new LoadException(\"no settings at \" + where);",
                  "      System.err.println(\"no settings at \" + where);"),
            "turns an error into a message and goes on: System.err.println(\"no settings at \" + where); "
            "(was throw new LoadException(\"",
            _edit("src/main/java/app/Loader.java", "      throw new LoadException(\"no settings at \" + where);",
                  "      throw new LoadException(\"no settings found at \" + where);")),
    Example(_edit("lib/size.rb", "    n = body.bytesize", "    n = body.size"),
            "counts characters where bytes were counted: n = body.bytesize → n = body.size",
            _edit("lib/size.rb", "    n = body.size", "    n = body.bytesize")),
)
