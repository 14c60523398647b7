"""What the readers could not read, said: a changed line too long to read whole, generated output not read.

Observation keeps a line past HUNK_CHARS as its head and its tail with a mark between
(``relay.observe.kept_lines``): padding cannot push code out of reach of the readers, but the middle of a
line of thousands of characters is still unread — a payload between two long string literals would be.
The review says so rather than call the file by what it did read.

Generated output (``dist/``, ``gen/``, ``*.min.js``, ``*_pb2.py`` …) is not read line by line: a bundle holds ``eval``
and thousands of lines no one reviews. But the worker names its files: ``eval(request.args["q"])`` written to
``src/gen/util.py`` and imported was a "new file", low. So a file counts as output a tool wrote only by its shape
too (``relay.review.generated_shape``: more lines than a hand writes at once, or lines no hand writes); one of hand's size is read as
code wherever it lives, and output that is not read is said (medium), never low. Test snapshots and source maps
do not run: they are neither read nor flagged.
"""

from __future__ import annotations

import re

from relay.core.contracts import FileChange
from relay.observe.kept_lines import UNREAD_MARK
from relay.review.facts import FileFacts, RiskContext
from relay.review.generated_shape import not_run

__all__ = ["GENERATED_EXAMPLE", "UNREAD_EXAMPLE", "generated_unread", "unread_line"]

_SIZE_RE = re.compile(re.escape(UNREAD_MARK) + r"([\d,]+) bytes")


def unread_line(f: FileFacts, ctx: RiskContext) -> str | None:
    longest = 0
    for line in f.change.added_lines:
        if UNREAD_MARK in line and (match := _SIZE_RE.search(line)):
            longest = max(longest, int(match.group(1).replace(",", "")))
    if not longest:
        return None
    return f"a changed line too long to read whole ({longest:,} bytes): its middle is unread"


# The rule's example (relay.review.rules): a line kept with its middle unread, and a short one.
UNREAD_EXAMPLE = (
    FileChange(path="src/app.js", additions=1, added_lines=[f'const s = "{"A" * 760}{UNREAD_MARK}4,012 bytes, #0a1b2c3d4e5f]…{"B" * 236}";']),
    "a changed line too long to read whole (4,012 bytes): its middle is unread",
    FileChange(path="src/app.js", additions=1, added_lines=['const s = "AB";']),
)


def generated_unread(f: FileFacts, ctx: RiskContext) -> str | None:
    if not f.generated_output or not_run(f.path):
        return None
    return f"generated output, not read line by line (+{f.change.additions}/-{f.change.deletions})"


GENERATED_EXAMPLE = (
    FileChange(path="dist/app.min.js", additions=1, deletions=1, removed_lines=["!function(e){" + "a" * 400 + "}"],
               added_lines=["!function(e){" + "b" * 400 + "}"]),
    "generated output, not read line by line (+1/-1)",
    FileChange(path="src/__snapshots__/app.test.js.snap", additions=400, added_lines=["exports[`app 1`] = `<div/>`;"]),
)
