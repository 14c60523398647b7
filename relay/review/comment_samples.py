"""A code sample inside a doc comment, read as a docs page's sample is (issue 36, round 17 part B).

Javadoc's ``<pre>{@code …}</pre>``, KDoc/JSDoc/PHPDoc's `` * `` lines, Rust's and Swift's ``///`` and ``//!``, C#'s
``///`` hold the examples a reader copies. The line filter (relay.review.file_kinds) leaves comment lines out of what
the rules read, so a risky call or value written into such a sample was read as "comments only". A doc-comment line
is kept when, its marker taken off, it is code (not a sentence) that a risky-line pattern names — the rules then read
it as any other line. Plain ``//`` and ``#`` comments stay out: commented-out code (``# app.run(debug=True)``) is the
ordinary history those markers hold.
"""

from __future__ import annotations

import re

from relay.review.risky_lines import dangerous_call, looks_like_prose, risky_screen, unsafe_value

__all__ = ["sample_in_comment"]

# A doc comment's marker, and a sample's own opening (<pre>, {@code, a fence, a doctest prompt) after it.
_DOC_MARK_RE = re.compile(r"^(?:///?!?|//!|/\*\*|\*(?!/))\s?(?:<pre>\s*|\{@code\s*|```\w*\s*|>>>\s*|\$\s+)*")
_DOC_START = ("///", "//!", "/**", "*")
# A doc comment's reference or tag line names an API, it runs nothing: {@link Runtime#exec(String)}, @see, @param.
_DOC_TAG_RE = re.compile(r"\{@link(?:plain)?\s|^\S+\s*@(?:see|param|return|returns|throws|exception|since|deprecated)\b|\[`[^`]*`\]\(")


def sample_in_comment(text: str) -> bool:
    """Whether a stripped comment line is a doc comment's code sample holding a risky value or call."""
    if not text.startswith(_DOC_START) or text.startswith("*/") or not risky_screen(text) or _DOC_TAG_RE.search(text):
        return False
    code = _DOC_MARK_RE.sub("", text, count=1).strip()
    if not code or looks_like_prose(code):
        return False
    return bool(unsafe_value([code], [], prose_too=False) or dangerous_call([code], [], prose_too=False))
