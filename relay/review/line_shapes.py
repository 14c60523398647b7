"""The shapes of changed lines that more than one reader of them needs.

How long a kept line may be, what an import line looks like, and a line as a formatter cannot
change it ("squeezed"): the security reader and the mechanical-edit reader
(``relay.review.security_reading``, ``relay.review.code_reading``) both ask whether a line
stands again on the other side of a change once a formatter's freedom is taken out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from difflib import SequenceMatcher

from relay.observe.changes import HUNK_CHARS

__all__ = ["screened_pairs", "OFFSIDE_EXTS", "blocks_kept", "groupings", "indent_width", "first_hit", "LINE_CHARS", "READ_LINES", "IMPORT_RE", "FORMATTER_SHARE", "Screen", "edited_sides", "looks_like_prose", "screen_text", "squeezed", "formatter_share", "all_restated", "SHARE_LINES", "near", "window", "word_trie",
           "comment_only", "quoted_texts", "span_pairs", "unspaced"]

# The rules read whole hunks: the changed lines observation keeps (``relay.observe.changes``: up to
# HUNK_LINES a side, each cut to HUNK_CHARS characters), up to READ_LINES a side of those each rule
# reads (``relay.review.file_kinds.rule_lines``). A longer line (a minified regex, a long literal)
# arrives cut at LINE_CHARS. READ_LINES is there for speed alone: each line is read by a few dozen
# patterns, and a generated table of 8,000 lines (exiftool's TagLookup.pm) took seconds; hunks that
# fix something are far shorter.
LINE_CHARS = HUNK_CHARS
READ_LINES = 500

# An import line, or a line of a multi-line import ("    name,", ")", Go's '"pkg/path"').
IMPORT_RE = re.compile(
    r"^\s*(?:from\s+[\w.]+\s+import\b|import\b|use\s|#include\b|(?:const|let|var)\s+\{?[\w\s,]+\}?\s*=\s*require\s*\(|"
    # A module loaded by its path, whatever the binding looks like ("export const { a: b } = require('../../x')", "const $ =
    # await import('../x')", Ruby's "require_relative '../x'"): its ".." names a module, not a path a request supplies.
    r"(?:export\s+)?(?:const|let|var)\s+[^=]{1,80}?=\s*(?:await\s+)?(?:require|import)\s*\(\s*['\"`][^'\"`]*['\"`]\s*\)|"
    r"(?:require|require_relative|load)\s*\(?\s*['\"][^'\"]*['\"]\s*\)?\s*;?\s*$|"
    r"\w+(?:\s+as\s+\w+)?\s*,\s*$|\)\s*;?\s*$|(?:\w+\s+)?\"[\w./-]+\"\s*$)"
)


# A block comment's opener and its closer: code may follow the closer on the same line.
_BLOCKS = (("/*", "*/"), ("--[[", "]]"), ("<!--", "-->"), ("*", "*/"))


_HASH_COMMENT_EXTS = frozenset("py pyi pyx pxd rb sh bash zsh pl pm r ex exs jl nim toml yaml yml cmake".split())
_DASH_COMMENT_EXTS = frozenset("sql lua hs elm".split())


# The languages whose indentation is their blocks (round 115): ``        return False`` dedented out of ``if user.banned:``
# answers False to every user, and a call indented under a condition runs only then — each read "re-indented only" (lines
# compared stripped), "reformatted only" (whitespace dropped) or "typing only". A statement's own indentation is its
# block; a continuation line's, inside brackets, is the formatter's.
OFFSIDE_EXTS = (".py", ".pyi", ".pyx", ".pxd", ".coffee", ".nim", ".fs", ".fsi", ".fsx")
_OPEN_BRACKETS, _CLOSE_BRACKETS = "([{", ")]}"
_ONE_LINE_TEXT_RE = re.compile(r"\"[^\"\\\n]*\"|'[^'\\\n]*'")


def indent_width(line: str) -> int:
    """A line's indentation, a tab counted to the next multiple of eight."""
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())


def _statements(lines: Sequence[str]) -> dict[str, list[int]]:
    """Each line that starts a statement (not inside brackets, a continued line or a triple-quoted string), by its
    stripped text: the indentations it stands at."""
    found: dict[str, list[int]] = {}
    depth, continued, in_text = 0, False, False
    for line in lines:
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        if depth == 0 and not continued and not in_text:
            found.setdefault(body, []).append(indent_width(line))
        if (body.count('"""') + body.count("'''")) % 2:
            in_text = not in_text
        if not in_text:
            code = _ONE_LINE_TEXT_RE.sub('""', body)
            depth = max(0, depth + sum(code.count(o) for o in _OPEN_BRACKETS) - sum(code.count(c) for c in _CLOSE_BRACKETS))
        continued = body.endswith("\\")
    return found


def blocks_kept(path: str, added: Sequence[str], removed: Sequence[str]) -> bool:
    """Whether an edit keeps every statement in its block: always outside the languages whose indentation is their
    blocks; in them, when each statement found on both sides stands at the same indentations on both (above). A statement
    rewritten (a type added, a call re-wrapped) or added is the other readers' to read."""
    if not path.lower().endswith(OFFSIDE_EXTS):
        return True
    old, new = _statements(removed), _statements(added)
    return all(sorted(new[text]) == sorted(old[text]) for text in new.keys() & old.keys())


def comment_prefixes(path: str) -> tuple[str, ...]:
    """What opens a comment in ``path``'s language, by its extension: ``#`` (Python, Ruby, shell…), ``--`` (SQL, Lua…),
    else the C family's ``//`` and block comments (``/*``, a block's ``*`` lines) and a script's ``#!``."""
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if ext in _HASH_COMMENT_EXTS:
        return ("#",)
    if ext in _DASH_COMMENT_EXTS:
        return ("--",)
    return ("//", "/*", "*", "#!")


# A line that goes on with a product: ``* 1000``, ``* time.Second)`` — a number or a member after the star and nothing but
# an operator, a closing bracket or a separator after it (a call is a doc comment's sample as often: ``* validate(x);``).
# A block comment's line says words (``* Returns the value.``, ``* @param x``): a worker that multiplied a wrapped TTL by a
# thousand had "comments … only" said.
_PRODUCT_GOES_ON_RE = re.compile(r"\*\s+(?:\d[\w.]*|[\w$]+(?:\.[\w$]+)+)\s*(?:[-+*/%&|^<>)\],;]|$)")


# A one-line text in quotes, its escapes its own (``"a\\"b"`` is one text): what a string holds, which no formatter and no
# type annotation changes (relay.review.code_reading's formatting test, relay.review.meaning's typing test).
_QUOTED_TEXT_RE = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'")


def quoted_texts(line: str) -> Iterator[str]:
    """The texts in quotes on ``line``, in order (their quotes dropped)."""
    return (m.group(1) if m.group(1) is not None else m.group(2) for m in _QUOTED_TEXT_RE.finditer(line))


# Comments the toolchain runs or links by: Go's ``//go:generate`` (a command ``go generate`` runs), ``//go:linkname`` (another
# package's private symbol), cgo's ``// #cgo`` flags. A build constraint (``//go:build``) only picks the platforms: a comment.
_DIRECTIVE_RE = re.compile(r"//go:(?:generate|linkname)\b|//\s*#cgo\b")


def comment_only(line: str, prefixes: tuple[str, ...]) -> bool:
    """Whether ``line`` is a comment and nothing else: it starts with one of ``prefixes`` and no code follows a block
    comment it closes. ``/* fast path */ return true`` is code: a line read as a comment by its first two characters
    let the worker hide any call after one (it was left out of every reader)."""
    text = line.strip()
    if _DIRECTIVE_RE.match(text):
        return False  # a comment the toolchain runs (round 119d, held-out 477's go-rfc5322: ``//go:generate sh -c "curl http://…"``)
    if text[:1] == "*" and (text[1:2].isalnum() or text[1:2] in ("_", "(")):
        return False  # a dereference (Go's ``*ps = (*ps)[0:0]``, C's ``*len = n;``), not a block comment's next line (round 87)
    if _PRODUCT_GOES_ON_RE.match(text):
        return False  # a wrapped product's next line (``const TTL = BASE\n  * 1000``), not a block comment's (round 115)
    while text.startswith(prefixes):
        block = next((b for b in _BLOCKS if text.startswith(b[0])), None)
        if block is None:
            return True  # a line comment runs to the line's end
        end = text.find(block[1], 0 if block[0] == "*" else len(block[0]))
        if end < 0:
            return True  # the block goes on past this line
        text = text[end + len(block[1]):].strip()
    return not text


def clipped(line: str, most: int) -> str:
    """A line as a reason quotes it: its runs of whitespace made one space, cut to ``most`` characters with "…"."""
    text = " ".join(line.split())
    return text if len(text) <= most else text[: most - 1] + "…"


# A parenthesis that groups an operand of a binary operator (``x / (2.54 * 10)``, ``a and (b or c)``, ``(a + b) * c``).
# ``squeezed`` drops parentheses, as a formatter adds and drops wrapping ones; it never drops these: dropped, the
# arithmetic or the logic regroups (round 120e, held-out 502's plotnine: ``x / (2.54 * 10)`` → ``x / 2.54 * 10`` read
# "typing only"). Only a group whose operator binds no tighter than the one beside it counts (``(a && b) || c`` is the
# formatter's clarity, the same meaning); a parenthesis around one operand or a call's groups nothing. Read over a side's
# lines joined, so a formatter's line break beside an operator changes nothing.
_BINDING = {"or": 1, "||": 1, "and": 2, "&&": 2, "not": 3, "==": 4, "!=": 4, "<=": 4, ">=": 4, "<": 4, ">": 4, "in": 4, "is": 4,
            "|": 5, "^": 6, "&": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10, "//": 10, "**": 11}
_OPERATOR = r"\*\*|//|<<|>>|&&|\|\||[=!<>]=|(?<![-=])[<>](?!=)|-(?!>)|[+*/%^|&]|\b(?:and|or|not|in|is)\b"
_OPERATOR_RE = re.compile(_OPERATOR)
_BEFORE_RE = re.compile(rf"(?P<op>{_OPERATOR})\s*$")
_AFTER_RE = re.compile(rf"^\s*(?P<op>{_OPERATOR})")
_CALLED_RE = re.compile(r"(?<![\w$])(?!(?:if|elif|while|return|not|and|or|in|is|yield|case|when|unless|until|await|throw|raise|else|assert)\b)"
                        r"[\w$]+\s*$|[\])]\s*$")


def groupings(lines: Sequence[str]) -> list[str]:
    """The grouping parentheses of ``lines`` read as one text, in order (what each holds, spaces dropped): equal on both
    sides of an edit unless a grouping that decides what is computed first was added, dropped or moved."""
    text = " ".join(lines)
    if "(" not in text:
        return []
    found, opened = [], []
    for i, c in enumerate(text[:4000]):
        if c == "(":
            opened.append(i)
        elif c == ")" and opened:
            at = opened.pop()
            before, inside, after = text[max(0, at - 12):at], text[at + 1:i], text[i + 1:i + 13]
            if "(" in inside or _CALLED_RE.search(before):
                continue  # a call's arguments (``f(a + b)``), not a group; a nest is read by its inner groups
            inner = min((_BINDING.get(m.group(), 99) for m in _OPERATOR_RE.finditer(inside)), default=None)
            if inner is None:
                continue  # one operand (``(x)``) groups nothing
            left, right = _BEFORE_RE.search(before), _AFTER_RE.search(after)
            if (left and inner <= _BINDING.get(left.group("op"), 0)) or (right and inner < _BINDING.get(right.group("op"), 0)):
                found.append("".join(inside.split()))
    return found


@functools.lru_cache(maxsize=16384)  # a line is read again when a part of its file is read alone
def squeezed(text: str) -> str:
    """A line as a formatter cannot change it: no whitespace, one quote style, no separators."""
    return _SQUEEZE_RE.sub("", text.replace("'", '"'))


def edited_sides(added: Sequence[str], removed: Sequence[str], *, most: int = 400, longest: int = 300) -> tuple[list[str], list[str]]:
    """What a pair reader compares: the added lines not among the removed ones, and the removed lines; at most ``most`` a
    side, none past ``longest`` characters (a longer line is data, not a statement)."""
    kept = {line.strip() for line in removed[:most]}
    return ([line for line in added[:most] if len(line) <= longest and line.strip() not in kept],
            [line for line in removed[:most] if len(line) <= longest])


def first_hit(lines: Sequence[str], pattern: re.Pattern[str], *, most: int = 4000, longest: int = 400) -> tuple[str, re.Match[str]] | None:
    """The first of ``lines`` (of the first ``most``, each at most ``longest`` characters) ``pattern`` finds, and the match:
    how a reader of new lines finds the one it names."""
    for line in lines[:most]:
        if len(line) <= longest and (m := pattern.search(line)) is not None:
            return line, m
    return None


def unspaced(line: str) -> str:
    """A line with its whitespace dropped and one quote style: a quote style changed beside a turn is no other change
    (python-jwt's 'exp' → "exp")."""
    return "".join(line.split()).replace("'", '"')


def span_pairs(added: Sequence[str], removed: Sequence[str], old_re: re.Pattern[str], new_re: re.Pattern[str] | None = None,
               group: int | str = 0, new_group: int | str | None = None) -> Iterator[tuple[re.Match[str], str, re.Match[str], str]]:
    """Each (old match, old line, new match, new line) of an edited pair that is the same, unspaced, outside one span:
    ``group`` of ``old_re`` on the removed line, ``new_group`` (``group`` when None) of ``new_re`` (``old_re`` when None)
    on the added one. What a slip turned or put in is that span; the rest of the line is the commit's own. Read as
    ``edited_sides`` reads."""
    at = group if new_group is None else new_group
    new, old = edited_sides(added, removed)
    olds: dict[tuple[str, str], tuple[re.Match[str], str]] = {}
    for line in old:
        for m in old_re.finditer(line):
            olds[(unspaced(line[:m.start(group)]), unspaced(line[m.end(group):]))] = (m, line)
    for line in new if olds else ():
        for m in (new_re or old_re).finditer(line):
            if (was := olds.get((unspaced(line[:m.start(at)]), unspaced(line[m.end(at):])))) is not None:
                yield was[0], was[1], m, line


def screened_pairs(added: Sequence[str], removed: Sequence[str], keep: Callable[[str], bool], old_re: re.Pattern[str],
                   new_re: re.Pattern[str] | None = None, group: int | str = 0, *, most: int = 200,
                   longest: int | None = None) -> Iterator[tuple[re.Match[str], str, re.Match[str], str]]:
    """``span_pairs`` over the first ``most`` lines a side, the removed lines screened first by ``keep`` (a cheap test, and
    at most ``longest`` characters): what the pair readers (relay.review.match_slips, reach_pairs) each read."""
    olds = [line for line in removed[:most] if (longest is None or len(line) <= longest) and keep(line)]
    return span_pairs(added[:most], olds, old_re, new_re, group) if olds else iter(())


_SQUEEZE_RE = re.compile(r"[\s,;\\(){}]+")  # a formatter adds and drops wrapping parentheses, and braces (clang-format InsertBraces)


# The share of a file's changed lines found again on the other side above which the file
# reads as a formatter's run (a fix rewrites its lines; a formatter only moves their text).
FORMATTER_SHARE = 0.8


# The share is read on at most this many lines of each side, spread evenly over it: each line is looked
# for in the whole other side, so reading every line of a file of thousands costs seconds, and a share
# needs no more lines than this to tell a formatter's run (nearly all) from a rewrite.
SHARE_LINES = 400


def formatter_share(added: Sequence[str], removed: Sequence[str], joined: list[str]) -> float:
    """The share of changed lines found again, squeezed, in the other side's text (``joined``: the
    removed side's squeezed lines run together, then the added side's), read on at most
    ``SHARE_LINES`` lines of each side."""
    total = found = 0
    for side, lines in enumerate((added, removed)):
        step = -(-len(lines) // SHARE_LINES) or 1
        for line in lines[::step]:
            shape = squeezed(line.strip())
            if shape:
                total += 1
                found += shape in joined[side]
    return found / total if total else 0.0


def all_restated(added: Sequence[str], removed: Sequence[str], joined: list[str]) -> bool:
    """Whether every changed line is found again, squeezed, in the other side's text (``joined`` as
    for ``formatter_share``); stops at the first that is not."""
    for side, lines in enumerate((added, removed)):
        for line in lines:
            shape = squeezed(line.strip())
            if shape and shape not in joined[side]:
                return False
    return True


# The letters that re.IGNORECASE matches as ASCII ones although lower() keeps them apart (the long s,
# the Kelvin sign, the dotted and dotless I).
_FOLD = {0x130: "i", 0x131: "i", 0x17F: "s", 0x212A: "k"}


@functools.lru_cache(maxsize=16384)  # a big change keeps ~8,500 distinct lines, each screened by ~100 screens
def screen_text(line: str) -> str:
    """A line as the word pre-checks read it: lowercased, every whitespace character removed, and
    the letters re.IGNORECASE folds to ASCII written as ASCII. A pre-check word (folded the same way)
    that a pattern's match contains is then found whatever case, spacing or spelling the line uses."""
    if not line.isascii():
        line = line.translate(_FOLD)
    return "".join(line.lower().split())


class Screen:
    """A pre-check before one or more costly patterns: words, one of which every match of those
    patterns contains. Most lines hold none, and one alternation of plain words is far cheaper than
    the patterns; ``tests/test_screens.py`` proves for every screen that it never hides a match."""

    def __init__(self, words: Sequence[str], *patterns: re.Pattern[str]) -> None:
        self.words = tuple(dict.fromkeys("".join(w.lower().split()) for w in words))
        self.patterns = patterns
        self._any = re.compile(word_trie(self.words))

    def passes(self, line: str) -> bool:
        """Whether ``line`` may match: it holds one of the words."""
        return self._any.search(screen_text(line)) is not None

    def search(self, line: str) -> re.Match[str] | None:
        """The first pattern's match in ``line``, looked for only when the line passes the screen."""
        if not self.passes(line):
            return None
        for pattern in self.patterns:
            found = pattern.search(line)
            if found:
                return found
        return None


def word_trie(words: Sequence[str]) -> str:
    """A pattern that finds any of ``words`` (plain text), their common beginnings written once: ``to(?:ken|ggle)``.

    It matches where the alternation of the words does; the regex engine tries each branch of an alternation in turn at
    each place, so a screen of hundreds of words cost ~17 times as much written as one (a 37,000-line change: 2 s)."""
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a word ends here

    def pattern(node: dict[str, dict]) -> str:
        branches = [re.escape(char) + pattern(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        if len(branches) == 1 and "" not in node:
            return branches[0]
        # A word that ends here is the shortest match: the rest of the branch is optional, and a search only asks whether any
        # match is found.
        return "(?:" + "|".join(branches) + (")?" if "" in node else ")")

    return pattern(trie)


def window(line: str, start: int, end: int, width: int, lead: int | None = None) -> str:
    """The part of ``line`` (spaces squeezed) a reason quotes: whole when it fits in ``width``, else a window that
    holds ``line[start:end]`` (what was found), "…" where it was cut; centred on it, or ``lead`` characters before it."""
    text = " ".join(line.split())
    if len(text) <= width:
        return text
    at = len(" ".join(line[:start].split())) + (1 if start and line[start - 1].isspace() else 0)
    size = len(" ".join(line[start:end].split()))
    around = (width - size) // 2
    begin = max(0, min(at - (around if lead is None else min(lead, around)), len(text) - width + 1))
    head = "…" if begin else ""
    room = width - len(head)
    if begin + room >= len(text):  # pinned to the end: the last character is the line's own, no "…" after it
        return head + text[begin:]
    return head + text[begin:begin + room - 1] + "…"


def near(a: str, b: str) -> bool:
    """One or two letters apart (a letter added, dropped, changed, or two swapped), not only in case."""
    if a.lower() == b.lower() or abs(len(a) - len(b)) > 2:
        return False
    most = 1 if min(len(a), len(b)) < 12 else 2
    # What both share at either end costs no edit; the rest is read in a band: a cell (i, j) costs at least |i - j|, so
    # only the cells within ``most`` of the diagonal can end within ``most``, and a pair whose two last rows are all past
    # it never comes back. The worker writes the names: two lines of 1,000 letters cost their lengths' product unbanded.
    lead = 0
    while lead < min(len(a), len(b)) and a[lead] == b[lead]:
        lead += 1
    a, b = a[max(0, lead - 1):], b[max(0, lead - 1):]  # one shared letter kept: a swap across the cut still reads as one
    tail = 0
    while tail < min(len(a), len(b)) - 1 and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    a, b = a[:len(a) - max(0, tail - 1)], b[:len(b) - max(0, tail - 1)]
    far, width = most + 1, 2 * most + 1
    # Row i holds the cells j = i - most … i + most at offsets k = j - i + most: the row above's j is k + 1, this row's
    # j - 1 is k - 1, the diagonal (and the swap's, two rows up) is k. Rows of the band's width, not of b's length.
    prev2: list[int] | None = None
    prev = [min(k - most, far) if 0 <= k - most <= len(b) else far for k in range(width)]
    for i, ca in enumerate(a, 1):
        cur = [far] * width
        for k in range(width):
            j = i + k - most
            if j < 0 or j > len(b):
                continue
            if j == 0:
                cur[k] = min(i, far)
                continue
            cb = b[j - 1]
            cost = min(prev[k] + (ca != cb), prev[k + 1] + 1 if k + 1 < width else far, cur[k - 1] + 1 if k else far)
            if prev2 is not None and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, prev2[k] + 1)
            cur[k] = min(cost, far)
        if prev2 is not None and min(cur) >= far and min(prev) >= far:
            return False
        prev2, prev = prev, cur
    k = len(b) - len(a) + most
    return 0 <= k < width and prev[k] <= most


_PROMPT_RE = re.compile(r"^\s*(?:[$>%#]\s+|-\s+|\*\s+)?")
_WORD_RE = re.compile(r"[\w.-]+")


def edits_line(old: str, new: str) -> bool:
    """Whether ``new`` reads as an edit of ``old``: alike, or the same command or declaration by its first two words
    (``gem "x"`` → ``gem "x", git: …``; ``$ pip install x==1`` → ``$ pip install git+…``)."""
    if SequenceMatcher(None, squeezed(old), squeezed(new), autojunk=False).ratio() >= 0.5:
        return True
    head_old, head_new = _WORD_RE.findall(_PROMPT_RE.sub("", old))[:2], _WORD_RE.findall(_PROMPT_RE.sub("", new))[:2]
    # The same two first words, or the same first name long enough to be a package's (``{:plug, "~> 1.14"}``).
    return bool(head_old and head_new) and (head_old == head_new and len(head_old) == 2 or head_old[0] == head_new[0] and len(head_old[0]) >= 4)


# Lines longer than this are compared only for equality: the pair readers look for one config or key line edited, and a
# full comparison costs the product of the two lengths (the worker writes the lines: thousands of pairs of 1 KB lines).
ALIKE_CHARS = 400


def alike(a: str, b: str, least: float = 0.6) -> bool:
    """Whether two lines read alike, as a formatter cannot change them (``squeezed``), at ``least`` SequenceMatcher's
    ratio. The two quick ratios are upper bounds of the ratio, linear in the lengths: most pairs stop there."""
    a, b = squeezed(a), squeezed(b)
    if len(a) > ALIKE_CHARS or len(b) > ALIKE_CHARS:
        return a == b
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.real_quick_ratio() >= least and matcher.quick_ratio() >= least and matcher.ratio() >= least


# A line of prose (docs write "set ``verify=False`` to skip the check"): words, five or more, outside quotes and code spans.
_CODE_SPAN_RE = re.compile(r"``?[^`]*``?|'[^']*'|\"[^\"]*\"")
_PLAIN_WORD_RE = re.compile(r"^[A-Za-z][a-z'’]*[.,;:!?]?$")
_INLINE_COMMENT_RE = re.compile(r"(?<=\S)\s*/\*.*?\*/")
# The end of a line that is a comment (``x = 1  # why``, ``f(); // note``, ``a -- b``, ``/* … */``): what it says, not code.
TRAILING_COMMENT_RE = re.compile(r"\s(?://|#|--)\s.*$|/\*.*?\*/")


# A shell command: a flag (``--add``, ``-i``) beside a URL or a chain of commands. Its words are a program's and its
# arguments' (``gem sources --add http://… && gem install webmock``), plain as they read (round 38, blind 61's webmock).
_FLAG_RE = re.compile(r"(?:^|\s)--?[A-Za-z][\w-]*(?:[=\s]|$)")
_COMMAND_TAIL_RE = re.compile(r"\s(?:&&|\|\||\|)\s|://")
_STATEMENT_END_RE = re.compile(r"\([^()]*\)\s*\)?\s*;\s*$|\)\s*;\s*(?://.*)?$")
_CLI_RE = re.compile(r"^\s*(?:sudo\s+)?(?:composer|npm|npx|yarn|pnpm|pip3?|pipx|uv|poetry|cargo|go|gem|bundle|brew|apt(?:-get)?|yum|dnf|apk|"
                     r"docker|kubectl|helm|git|conda|dotnet|mvn|gradle)\s+[a-z][\w-]*(?:\s|$)")


_ADDRESS_PORT_RE = re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}:\d{2,5}(?![\w.])")


def looks_like_prose(line: str) -> bool:
    """A line of a sentence rather than code: mostly plain words, five or more, and no shell command."""
    if (_FLAG_RE.search(line) or _CLI_RE.match(line)) and _COMMAND_TAIL_RE.search(line):
        return False  # a command, its flags or its tool's own verb, joined to another (round 117: blind 378's honeypot README)
    if _ADDRESS_PORT_RE.search(line):
        return False  # a config line's address and port (round 123, held-out 610's haproxy docs: ``server s1 192.168.0.1:443 ssl verify none check``)
    if _STATEMENT_END_RE.search(line):
        return False  # a call's statement (``const doc = parseXml(xml, { noent: true });``: round 117, blind 391's libxmljs README)
    # A comment inside the code ("true /* number of proxies between … */") is not a sentence around it.
    rest = _CODE_SPAN_RE.sub(" ", _INLINE_COMMENT_RE.sub(" ", line)).split()
    plain = sum(1 for w in rest if _PLAIN_WORD_RE.match(w))
    return plain >= 5 and plain >= 0.6 * len(rest)


_FORMAT_SETTING_RE = re.compile(r"(?i)\w*(?:serializer|encoder|codec|accept_content)\s*(?::\s*\w+\s*)?[=:]")


def setting_carried(span: str, removed: Sequence[str]) -> bool:
    """Whether a setting a reader matched (``serializer=PickleSerializer(``) stood, squeezed, in a line the same change
    removes: a rewrite carrying it into a new line (round 104: aiocache's examples moved from ``RedisCache(serializer=
    PickleSerializer(), …)`` to ``ValkeyCache(config, …, serializer=PickleSerializer())``) keeps it, it writes nothing new.
    Only a format setting is carried so: a call, or a switch like ``shell=True`` kept from a removed line while the command
    beside it changed, is read as new (its arguments may be what changed)."""
    if _FORMAT_SETTING_RE.match(span) is None:
        return False
    text = squeezed(span)
    return len(text) >= 8 and any(text in squeezed(line) for line in removed[:400])

