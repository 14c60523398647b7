"""A changed line the readers could not read whole: worth a look of its own.

Observation keeps a line past HUNK_CHARS as its head and its tail with a mark between
(``relay.observe.kept_lines``): padding cannot push code out of reach of the readers, but the middle of a
line of thousands of characters is still unread — a payload between two long string literals would be.
The review says so rather than call the file by what it did read.
"""

from __future__ import annotations

import re

from relay.core.contracts import FileChange
from relay.observe.kept_lines import UNREAD_MARK
from relay.review.facts import FileFacts, RiskContext

__all__ = ["UNREAD_EXAMPLE", "unread_line"]

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
