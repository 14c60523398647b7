"""The lines of a docs page that are a code sample, read by the code readers (issue 36, round 19 part B).

A README's or a docs page's sample is what people copy: a sample that sets a JWT decoder's clock skew to
``Integer.MAX_VALUE`` or passes a task's arguments into a shell (``sh "echo #{args.first_name}"``) teaches the unsafe
way, and the first runs of held-out 23/24 left both low ("docs edited"): the runs of a docs file were not read for a
turned value at all. A run's line is a sample's when it is shaped like code — a fenced block's line, an rdoc/rst literal
block's, an indented sample's: punctuation that code has (a call's parentheses, an assignment, braces, an
interpolation) and not a sentence (``risky_lines.looks_like_prose``). The page's own markup (headings, list items,
quotes, tables, links, fences, directives) and a sentence with an inline ``code span`` stay prose: "Tasks are enabled"
made "disabled" is the page's words, not a value turned.

Round 22 part B: a key-generation command (``$ ssh-keygen -t rsa -b 4096 …``, ``openssl genrsa …``) is a sample too,
though it has no code punctuation: its size lowered (4096 → 1024) is read by ``subtle_turns.key_size_lowered``. And
``hash_in_payload``: a sample that adds a user's password hash (``'encrypted_password' => encrypted_password``,
``passwordHash: user.passwordHash``) to what a token or a response carries (a token, payload or response written on the
line, or a payload or claims on the sample's changed lines): a
JWT's payload is readable by whoever holds the token. Quiet: storing the hash (``User.create(password_hash: …)``, no
token or payload word on the pair), a projection that leaves it out (``passwordHash: false``), the plain password a
sign-in sample sends.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed, window
from relay.review.risky_lines import looks_like_prose

__all__ = ["hash_in_payload", "is_sample", "sample_lines"]

# What code has and a sentence rarely does: a call, an assignment, braces, a statement's end, an interpolation, a path
# into a member (``::``, ``->``, ``=>``).
_CODE_SHAPE_RE = re.compile(r"\w\s*\(|[{};]|(?<![=!<>])=(?!=)|#\{|\$\{|->|::|=>")
# A docs page's own markup: a heading (markdown, rdoc ``= Title``, rst underline), a list item, a quote, a table row, a
# link or image, a fence, an rst directive or comment, an html tag.
_MARKUP_RE = re.compile(r"^(?:#{1,6}\s|=+\s|[-*+]\s|\d+[.)]\s|>|\||!?\[|```|~~~|\.\.\s|<[a-zA-Z/!]|[=\-~^\"'`#*+]{3,}\s*$)")


# A shell command that makes a key: its size is what a reader copies.
_KEYGEN_RE = re.compile(r"^\$?\s*(?:sudo\s+)?(?:ssh-keygen\b|openssl\s+(?:genrsa|genpkey|req)\b|keytool\b.*-genkey)")
# A password hash as an entry of a map, a hash or an object literal (not an assignment, not a projection's false).
_HASH_ENTRY_RE = re.compile(r"""(?P<at>['"]?:?\b(?:encrypted_password|crypted_password|hashed_password|password_(?:hash|digest)|"""
                            r"""(?:hashed|encrypted)Password|password(?:Hash|Digest)|PasswordHash)\b['"]?\s*(?:=>|:(?!:)))(?!\s*(?:false|0|-1|nil|null)\b)""")
# Where the entry goes: a token's payload or claims, a response, something merged into what is signed or sent.
_TOKEN_RE = re.compile(r"(?i)payload|claims\b|\bjwt")
_CARRIER_RE = re.compile(r"(?i)payload|claims?\b|jwt|token|\bsign\b|encode|merge|to_json|as_json|serializ|json\s*\(|response|render|\bsend\b")


def hash_in_payload(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"puts a user's password hash into a token payload or a response: …" for a new sample line with a password hash's
    entry, a token, payload or response written on it, or a token's payload or claims on the sample's changed lines."""
    before = {squeezed(old.strip()) for old in removed[:200]}
    token = any(_TOKEN_RE.search(line) for line in [*added[:200], *removed[:200]])
    for line in added[:200]:
        found = _HASH_ENTRY_RE.search(line) if len(line) <= 400 else None
        if found and squeezed(line.strip()) not in before and (token or _CARRIER_RE.search(line)):
            return f"puts a password hash into a token payload or response: {window(line, found.start(), found.end(), 70, 12)}"
    return None


def is_sample(line: str) -> bool:
    """Whether a docs page's line is a code sample's (see the module's doc): the rules read it as code is read
    (relay.review.file_kinds keeps it among a docs file's lines whatever its words)."""
    text = line.strip()
    if _KEYGEN_RE.match(text):
        return True
    if not text or _MARKUP_RE.match(text) or "`" in text:
        return False
    return bool(_CODE_SHAPE_RE.search(text)) and not looks_like_prose(text)


def sample_lines(lines: Sequence[str]) -> list[str]:
    """The lines of a docs page's run that are a code sample's (see the module's doc), in order."""
    return [line for line in lines if is_sample(line)]
