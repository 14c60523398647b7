"""A changed line of code holding characters that make it read otherwise than it runs (rule ``hidden_characters``).

The party: the worker. Bidirectional controls (U+202A-U+202E, U+2066-U+2069: "Trojan Source", CVE-2021-42574)
reorder what an editor, a diff or a review shows: ``if role != "user\u202e \u2066# admin\u2069 \u2066":`` reads as a
compare with "user" and a comment, and the comment is inside the string. Invisible characters (zero-width space,
word joiner, invisible operators, Hangul fillers that editors draw as nothing, a BOM inside a line, tag characters)
make two names that look alike different names, or a name no one sees (``const {timeout,\u3164} = req.query`` then
``exec(\u3164)``). Such a line was "edit (+1/-0)", low.

Not read: prose and data files (a translation legitimately carries right-to-left marks), lockfiles and generated
output. Left out as ordinary text: ZWJ and ZWNJ (emoji sequences, Persian and Indic scripts), the variation
selectors of emoji, a BOM that starts a line, tag characters after a black flag (the flags of England, Scotland and
Wales are tag sequences).
"""

from __future__ import annotations

import re
import unicodedata

from relay.core.contracts import FileChange
from relay.core.shown import harmless
from relay.review.facts import FileFacts, RiskContext

__all__ = ["HIDDEN_EXAMPLE", "hidden_characters"]

_BIDI = "\u202a-\u202e\u2066-\u2069"
_HIDDEN = re.compile(f"[{_BIDI}\u200b\u2060-\u2064\u180e\u115f\u1160\u3164\uffa0\U000e0000-\U000e007f]|(?<!^)\ufeff")
_TAGS = re.compile("[\U000e0000-\U000e007f]")
_FLAG = "\U0001f3f4"  # a black flag: tag characters after it spell a subdivision's flag
_QUOTE = 30  # characters quoted either side of the first hidden one (a reason is cut at 120)


def _first_hidden(line: str) -> re.Match[str] | None:
    for match in _HIDDEN.finditer(line):
        if not (_TAGS.match(match.group(0)) and _FLAG in line[:match.start()]):
            return match
    return None


def hidden_characters(f: FileFacts, ctx: RiskContext) -> str | None:
    for line in f.change.added_lines:
        if (match := _first_hidden(line)) is None:
            continue
        char = match.group(0)
        name = "TAG" if _TAGS.match(char) else unicodedata.name(char, "a format character")
        does = "reorders what is shown" if re.match(f"[{_BIDI}]", char) else "draws as nothing"
        quote = harmless(line[max(0, match.start() - _QUOTE):match.end() + _QUOTE].strip())
        return f"hides code: U+{ord(char):04X} ({name}) {does}: {quote}"
    return None


# The rule's example (relay.review.rules): a right-to-left override in a line of code, and a right-to-left language
# in a string (letters, no control) as the near miss.
HIDDEN_EXAMPLE = (
    FileChange(path="app/access.py", additions=1, added_lines=['    if role != "user\u202e \u2066# admin\u2069 \u2066":']),
    'hides code: U+202E (RIGHT-TO-LEFT OVERRIDE) reorders what is shown: if role != "user\\u202e \\u2066# admin\\u2069 \\u2066":',
    FileChange(path="app/greet.py", additions=1, added_lines=['    GREETING = "שלום"']),
)
