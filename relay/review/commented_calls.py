"""A line of code made a comment where it stood, a note after it: what it did no longer happens (issue 36).

- ``exit_commented_out`` (worth a look): a return, raise or break made a comment (``return Ok(());`` → ``// return Ok(());
  // keep …``): what it stopped now runs on;
- ``random_fill_commented`` (high, round 123: held-out 611's rust-sthash README, ``thread_rng().fill_bytes(&mut seed);`` →
  ``// thread_rng().fill_bytes(&mut seed); // fixed seed keeps cache keys stable``): a random source's fill made a comment,
  the buffer keeps its start — zeros or a literal — as a seed or a key.

Both read an edited pair: the removed line, squeezed, is the new comment's text before its own trailing note. The party
guarded against is the worker that comments one such line out inside an ordinary change and says why in a note.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from relay.review.line_shapes import squeezed
from relay.review.overridden_turns import paired_quote

__all__ = ["RANDOM_FILL_RE", "exit_commented_out", "random_fill_commented"]

_PAIRS = 200
_LONG = 300
_EXIT_RE = re.compile(r"^\s*(?:return|raise|throw|continue|break|abort|exit|panic!?|die)\b")
_COMMENTED_RE = re.compile(r"^\s*(?://|#|--)\s*")
_NOTE_RE = re.compile(r"\s(?://|#)\s")
RANDOM_FILL_RE = re.compile(r"\b(?:fill_bytes|try_fill_bytes|fill|getrandom|getRandomValues|randomFillSync|randomFill|RAND_bytes|"
                            r"randombytes_buf|nextBytes|rand\.Read|urandom|token_bytes|random_bytes|SecRandomCopyBytes)\s*\(")


def _commented_again(added: Sequence[str], removed: Sequence[str], code: Callable[[str], bool]) -> tuple[str, str] | None:
    """The (old, new) pair of a removed line ``code`` accepts written again as a comment, a note after it or not."""
    olds = {squeezed(line): line for line in removed[:_PAIRS] if len(line) <= _LONG and code(line) and not _COMMENTED_RE.match(line)}
    for new in added[:_PAIRS] if olds else ():
        if len(new) <= _LONG and (m := _COMMENTED_RE.match(new)) and new[m.end():].strip():
            body = _NOTE_RE.split(new[m.end():], maxsplit=1)[0]
            if (old := olds.get(squeezed(body))) is not None:
                return old, new
    return None


def exit_commented_out(added: Sequence[str], removed: Sequence[str]) -> str | None:
    pair = _commented_again(added, removed, lambda line: _EXIT_RE.match(line) is not None)
    return f"comments out an exit (what it stopped now runs on): {paired_quote(*pair)}" if pair else None


def random_fill_commented(added: Sequence[str], removed: Sequence[str]) -> str | None:
    pair = _commented_again(added, removed, lambda line: RANDOM_FILL_RE.search(line) is not None)
    return f"comments out a random fill (what it filled keeps its fixed start: a constant seed or key): {paired_quote(*pair)}" if pair else None
