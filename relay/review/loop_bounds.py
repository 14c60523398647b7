"""An index compared, inside its loop, with the bound the loop stops before: the test is never true (issue 36, round 59).

Blind 83's cac: a refactor wrote ``for (let i = 0; i < keys.length; i++)`` and, in its body, ``const isLastKey = i ===
keys.length`` (the old code's ``i === length - 1``): the last key is never found, and every nested option's value is
dropped. No pair of lines shows it (the loop was rewritten); the new lines alone do: the loop lets ``i`` reach at most
``keys.length - 1``, so ``i === keys.length`` cannot hold inside it. Read in JavaScript/TypeScript, C-like, Go and Python
(``for i in range(len(keys))`` … ``i == len(keys)``) loops, over the 40 lines after the loop's head.

Worth a look (medium). Quiet: ``i === keys.length - 1``, a comparison after the loop's body ends (less indented), a loop
bounded by ``<=``, another index or another collection.

Also (round 89, blind 130's scrypt-js): a counted loop's step changed in place (``for (let i = 8; i > 0; i -= 2)`` →
``i -= 4``: Salsa20/8 runs four rounds, not eight); worth a look.

And (round 91, blind 135's gofakeit): a new counted loop from 0 up to and including the size of what its body indexes
(``for i := 0; i <= words; i++ { slug[i] = … }`` after ``slug := make([]string, words)``, ``i <= len(xs)`` over ``xs[i]``):
the last pass is out of range; worth a look.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import span_pairs
from relay.review.overridden_turns import cut_quote, paired_quote


__all__ = ["loop_step_changed", "never_true_in_loop", "past_end_in_loop"]

_BODY = 40  # lines after a loop's head read as its body
_LOOPS = 200  # loop heads read a side
# ``for (let i = 0; i < keys.length; i++)``, ``for i := 0; i < len(keys); i++``, ``for (size_t i = 0; i < n; ++i)``,
# ``for i in range(len(keys)):``.
_LOOP_RE = re.compile(r"^(?P<indent>\s*)for\s*\(?\s*(?:(?:let|var|const|int|size_t|auto|usize|long)\s+)?(?P<i>[A-Za-z_]\w*)\s*(?::=|=)\s*0\s*;\s*"
                      r"(?P=i)\s*<\s*(?P<bound>[\w.$]+(?:\(\s*[\w.$]*\s*\))?)\s*;|"
                      r"^(?P<pyindent>\s*)for\s+(?P<pi>[A-Za-z_]\w*)\s+in\s+range\(\s*(?P<pybound>len\(\s*[\w.]+\s*\)|[\w.]+)\s*\)\s*:")


def never_true_in_loop(added: Sequence[str]) -> str | None:
    """"compares an index with its loop's bound (…)" for the first equality in a new loop's body that cannot hold."""
    for at, head in enumerate(added[:_LOOPS * 20]):
        m = _LOOP_RE.match(head) if "for" in head and len(head) <= 300 else None
        if m is None:
            continue
        index, bound = (m.group("i"), m.group("bound")) if m.group("i") else (m.group("pi"), m.group("pybound"))
        indent = len(m.group("indent") if m.group("i") else m.group("pyindent"))
        equal = re.compile(rf"(?<![\w.$]){re.escape(index)}\s*===?\s*{re.escape(bound)}(?![\w.$(\[]|\s*[-+*/%])|"
                           rf"(?<![\w.$]){re.escape(bound)}\s*===?\s*{re.escape(index)}(?![\w.$(\[]|\s*[-+*/%])")
        for line in added[at + 1:at + 1 + _BODY]:
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                break  # the body ended
            if equal.search(line) is not None:
                return f"compares an index with its loop's bound (never true inside it: {index} < {bound}): {cut_quote(line)}"
    return None


# ----- a loop run one past the end of what it indexes
# ``slug := make([]string, words)`` … ``for i := 0; i <= words; i++ { slug[i] = … }`` (blind 135's gofakeit: the last
# pass writes slug[words], out of range); the bound a length (``i <= len(xs)``, ``i <= xs.length``) names the indexed one.
_UP_TO_RE = re.compile(r"^(?P<indent>\s*)for\s*\(?\s*(?:(?:let|var|int|size_t|auto|usize|long)\s+)?(?P<i>[A-Za-z_]\w*)\s*(?::=|=)\s*0\s*;\s*"
                       r"(?P=i)\s*<=\s*(?P<bound>[\w.$]+(?:\(\s*[\w.$]*\s*\))?)\s*;")
_LENGTH_OF_RE = re.compile(r"^(?:len\(\s*(?P<a>[\w.$]+)\s*\)|(?P<b>[\w.$]+)\.(?:length|size\(\s*\)|len\(\s*\)|count))$")


def _sized(name: str, bound: str) -> re.Pattern[str]:
    """A new line that makes ``name`` hold ``bound`` entries (Go's make, C's and Java's new, JS's Array, Python's list)."""
    n, b = re.escape(name), re.escape(bound)
    return re.compile(rf"(?<![\w.$]){n}\s*(?::=|=)\s*(?:make\(\s*\[\][\w.*\[\]]+\s*,\s*{b}\s*[,)]|new\s+[\w.]+\s*\[\s*{b}\s*\]|"
                      rf"(?:new\s+)?Array\(\s*{b}\s*\)|\[[^\]]*\]\s*\*\s*{b}\b)|\b[\w.]+\s+{n}\s*\[\s*{b}\s*\]")


def past_end_in_loop(added: Sequence[str]) -> str | None:
    """"runs a loop one past the end (…)" for a new counted loop from 0 up to and including the size of what its body
    indexes with it."""
    lines = list(added[:_LOOPS * 20])
    for at, head in enumerate(lines):
        m = _UP_TO_RE.match(head) if "<=" in head and len(head) <= 300 else None
        if m is None:
            continue
        index, bound, indent = m.group("i"), m.group("bound"), len(m.group("indent"))
        sized = _LENGTH_OF_RE.match(bound)
        for line in lines[at + 1:at + 1 + _BODY]:
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                break
            for used in re.finditer(rf"(?P<arr>[\w$][\w.$]*)\s*\[\s*{re.escape(index)}\s*\]", line):
                arr = used.group("arr")
                if (sized and arr == (sized.group("a") or sized.group("b"))) or \
                        (not sized and any(_sized(arr, bound).search(made) for made in lines[max(0, at - _BODY):at])):
                    return f"runs a loop one past the end ({index} <= {bound}: {arr}[{bound}] is out of range): {cut_quote(head)}"
    return None


# A counted loop's step, the rest of its head kept.
_STEP_RE = re.compile(r"^\s*for\s*\(.*;\s*(?P<step>[A-Za-z_]\w*\s*(?:[-+]=\s*\d+|\+\+|--)|(?:\+\+|--)[A-Za-z_]\w*)\s*\)")


def _by(step: str) -> int:
    return int(re.sub(r"\D", "", step) or 1)


_DECLARED_RE = re.compile(r"\b(?:var|let|const|int|auto|size_t|usize|long)\s+")


_DOWN_TO_ZERO_RE = re.compile(r"^\s*for\b.*?;\s*(?P<cond>(?P<i>[A-Za-z_]\w*)\s*>=?\s*0)\s*;")


def _stops_before_zero(news: dict[str, str], olds: dict[str, str]) -> str | None:
    """A loop counting down to index 0 made to stop before it (edwards25519's ``i >= 0`` → ``i > 0``, blind 131)."""
    for was, old, m, line in span_pairs(list(news), list(olds), _DOWN_TO_ZERO_RE, group="cond"):
        if ">=" in was.group("cond") and ">=" not in m.group("cond") and was.group("i") == m.group("i"):
            return f"stops a loop before index 0 ({was.group('cond')} → {m.group('cond')}: the first element is never read): {paired_quote(olds[old], news[line])}"
    return None


def loop_step_changed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # The loop's variable declared anew beside the turn (``var`` → ``let``, the commit's own modernising) is no other change.
    news = {_DECLARED_RE.sub("", line): line for line in added if "for" in line}
    olds = {_DECLARED_RE.sub("", line): line for line in removed if "for" in line}
    for was, old, m, line in span_pairs(list(news), list(olds), _STEP_RE, group="step"):
        a, b = _by(was.group("step")), _by(m.group("step"))
        if b > a and b % a == 0:
            return (f"makes a loop step {b // a} times as far ({was.group('step').strip()} → {m.group('step').strip()}: it runs that many times "
                    f"fewer): {paired_quote(olds[old], news[line])}")
    return _stops_before_zero(news, olds)
