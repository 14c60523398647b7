"""The lines of a docs page that are a code sample, read by the code readers (issue 36, round 19 part B).

A README's or a docs page's sample is what people copy: a sample that sets a JWT decoder's clock skew to
``Integer.MAX_VALUE`` or passes a task's arguments into a shell (``sh "echo #{args.first_name}"``) teaches the unsafe
way, and the first runs of held-out 23/24 left both low ("docs edited"): the runs of a docs file were not read for a
turned value at all. A run's line is a sample's when it is shaped like code — a fenced block's line, an rdoc/rst literal
block's, an indented sample's: punctuation that code has (a call's parentheses, an assignment, braces, an
interpolation) and not a sentence (``risky_lines.looks_like_prose``). The page's own markup (headings, list items,
quotes, tables, links, fences, directives) and a sentence with an inline ``code span`` stay prose: "Tasks are enabled"
made "disabled" is the page's words, not a value turned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.risky_lines import looks_like_prose

__all__ = ["is_sample", "sample_lines"]

# What code has and a sentence rarely does: a call, an assignment, braces, a statement's end, an interpolation, a path
# into a member (``::``, ``->``, ``=>``).
_CODE_SHAPE_RE = re.compile(r"\w\s*\(|[{};]|(?<![=!<>])=(?!=)|#\{|\$\{|->|::|=>")
# A docs page's own markup: a heading (markdown, rdoc ``= Title``, rst underline), a list item, a quote, a table row, a
# link or image, a fence, an rst directive or comment, an html tag.
_MARKUP_RE = re.compile(r"^(?:#{1,6}\s|=+\s|[-*+]\s|\d+[.)]\s|>|\||!?\[|```|~~~|\.\.\s|<[a-zA-Z/!]|[=\-~^\"'`#*+]{3,}\s*$)")


def is_sample(line: str) -> bool:
    """Whether a docs page's line is a code sample's (see the module's doc): the rules read it as code is read
    (relay.review.file_kinds keeps it among a docs file's lines whatever its words)."""
    text = line.strip()
    if not text or _MARKUP_RE.match(text) or "`" in text:
        return False
    return bool(_CODE_SHAPE_RE.search(text)) and not looks_like_prose(text)


def sample_lines(lines: Sequence[str]) -> list[str]:
    """The lines of a docs page's run that are a code sample's (see the module's doc), in order."""
    return [line for line in lines if is_sample(line)]
