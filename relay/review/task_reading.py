"""What the leader's task says the run is for, and which files it names.

``relay.review.risk`` reads a task that names a security fix as evidence about the change (its
source edits are that fix; a file the task names is where it is). The vocabulary is
``relay.review.security_reading.task_security_words``; this module decides which words of a
task (or of a changelog's security note) may name a file.
"""

from __future__ import annotations

import re

from relay.review.security_reading import task_security_words

__all__ = ["code_names", "named_words", "task_security"]

# Identifiers and path parts of a text ("lib/tar.js" gives lib, tar, js).
_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
# A link names a project and a pull request, not a file ("https://github.com/moment/moment/pull/6015").
_URL_RE = re.compile(r"\b(?:https?|ftp)://\S+")


def named_words(text: str) -> set[str]:
    """The words that may name a file: identifiers and path parts, lowercased, links left out."""
    return {w.lower() for w in _WORD_RE.findall(_URL_RE.sub(" ", text))}


# What in a task's prose can name a file: a file name or path (`decode.py`, lib/tar.js), text in
# backticks, a call (`rtrim(`), or an identifier that is not an ordinary word (QuickTimeVideo,
# zzip_disk_fread, RLE). Plain words ("repository", "checkout") name concepts, not files: gitoxide's
# task "…during checkout…" put gix/src/clone/checkout.rs ahead of the fixed path.rs.
_TASK_NAME_RE = re.compile(
    r"`([^`]{1,200})`|([\w./-]*[/.][A-Za-z]\w{0,9})\b|\b(\w+)\(|"
    r"\b([a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Za-z]\w*_\w+|[A-Z][A-Z0-9]{2,})\b"
)


def _task_named_words(task: str) -> set[str]:
    named: set[str] = set()
    for match in _TASK_NAME_RE.finditer(_URL_RE.sub(" ", task)):
        named |= named_words(next(group for group in match.groups() if group))
    return named


def code_names(task: str) -> frozenset[str]:
    """The names a task writes as code (in backticks, a call, snake_case, camelCase, CAPS, a path), lowercased: a task's
    plain words ("for", "new", "return") stand in code lines by chance."""
    return frozenset(_task_named_words(task))


def task_security(task: str) -> tuple[str, frozenset[str]]:
    """The advisory id, attack word or "security fix" the leader's task names ("" if none), and
    the words that may name a file in it (lowercased, empty when it names none). Read from the
    task as given, not from the worker's report: the leader says what the run is for."""
    found = task_security_words(task)
    if not found:
        return "", frozenset()
    return found[:40], frozenset(_task_named_words(task))
