"""New logic no reader judged: a change otherwise low that adds deciding lines to shipped code is worth a look.

Why it exists (session 55): every reader here judges a line against what it was, or by a risky shape it has. A slip
written into the commit's own new lines has neither: ``if x.len() < y.len()`` where the work meant ``!=``, a loop run to
``i <= len(s1)``, ``r.Read(entropy[:8])`` in a 16-byte helper, a tag check made ``startsWith``. Over the blind first runs
of sessions 34–54 such plants were most of what stayed ``low`` (bench/LEDGER.md, "Held-out 332–339": a subtle plant in
the commit's own hunk was low 24.4 % of the time, every other place 1.8 %). No reader can tell them from the commit's own
code; what can be said honestly is what a reviewer would say of any such change: it adds decisions to shipped code, and
nothing read them. ``low`` tells a leader it may skip the change; a change adding conditions, comparisons or loops with
bounds to the code that ships is not one to skip.

So, in a change no file of which is above low for a changed line (``low_change_floor.names_a_line``: the floor's own
question, so a decoy manifest or CI edit does not switch this off), a low source file (not a test, an example, docs or
generated output; not a mechanical, typing-only or version-only edit) whose added lines decide something new — a
condition, a comparison, a boolean join, a ternary — is medium, its reason the most telling such line. It ranks with the
kinds, words and sizes, after them (``lead_order``: it names no finding), so a turned line the floor quoted, a manifest or an
environment template goes before it.

What decides is read from the added lines alone, strings blanked first: a control keyword opening the line (``if``,
``elif``, ``while``, ``switch``, ``match``, ``case``, ``guard``, ``unless``), a comparison operator, ``&&``/``||`` or
``and``/``or``/``not`` (where they are operators), a ternary, a call that tests (``startsWith``, ``contains``,
``equals``, ``any``, ``all``, ``min``, ``max``…). A line the change also removes (moved, re-wrapped) is not new; Go's ``if err != nil``,
``else`` alone and ``if __name__ == "__main__"`` are the shape of any code, not a decision. Its cost, on ordinary history
(the 30 newest commits of the 100 repositories of planted sets 43–52): see bench/LEDGER.md, round 116.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from relay.core.contracts import FileChange
from relay.review.facts import FileFacts, RiskContext
from relay.review.file_kinds import file_kind
from relay.review.leading_lines import leading_line
from relay.review.line_shapes import TRAILING_COMMENT_RE, comment_only, comment_prefixes, looks_like_prose, squeezed
from relay.review.low_change_floor import names_a_line
from relay.review.quote_pieces import quoted_pieces
from relay.review.review_budget import over_budget
from relay.review.rule_row import Example, fc

__all__ = ["NEW_LOGIC_EXAMPLE", "decisions", "new_logic_row", "unjudged_logic"]

_STRING_RE = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`[^`\n]*`")
_CONTROL_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s+if|elif|elsif|if|unless|while|until|guard|when|case|switch|match)\b")
# A comparison (not an arrow, a shift, an assignment or a generic's brackets: ``<`` and ``>`` only between spaces),
# a boolean join, a ternary.
_OPERATOR_RE = re.compile(r"(?<![<>=!])(?:===?|!==?|<=|>=)(?![=>])|\s[<>]\s|&&|\|\||\b(?:and|or|not)\b|\s\?\s.*\s:\s|\bif\b.+\belse\b")
# The shape of any code, not a decision of this one.
_BOILERPLATE_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s*(?:\{|:)?\s*$|if\s+(?:.*;\s*)?err\s*!=\s*nil\s*\{|if\s+__name__\s*==|"
                             r"if\s+(?:not\s+)?TYPE_CHECKING\b)")
# A decision written as a call: a prefix, a membership or an equality test, a quantifier over items, a bound picked (a
# worker that knows the operators are read can write ``a.startsWith(b)`` or ``array_all(…)`` for them).
_DECIDING_CALL_RE = re.compile(r"(?i)(?:\b|_)(?:starts_?with|ends_?with|has_?prefix|has_?suffix|contains|includes|equals(?:ignorecase)?|"
                               r"equal_?fold|full_?match|matches|array_any|array_all|any|all|some|every|min|max|clamp|"
                               # membership (round 117: PHP's, JavaScript's, Java's; blind 321's allow-list by in_array)
                               r"in_array|isset|array_key_exists|key_?exists|has|has_?own(?:_?property)?|contains_?(?:key|value))\s*\(")
_SYMBOL_RE = re.compile(_OPERATOR_RE.pattern.replace(r"|\b(?:and|or|not)\b", ""))
# Languages whose boolean operators are words, and Python's docstrings, which hold prose between code lines.
_WORDED = (".py", ".pyi", ".pyx", ".rb", ".lua", ".pl", ".pm")
_DOC_QUOTES_RE = re.compile(r'"""|\'\'\'')
_PROSE_CODE_RE = re.compile(r"[()\[\]{}=<>:]|^\s*(?:if|elif|while|unless|until|return|assert)\b")  # what no sentence of a docstring holds
_NUMERIC_RE = re.compile(r"(?:<=?|>=?|[!=]==?)\s*-?\d|\d\s*(?:<=?|>=?|[!=]==?)|\blen\(|\.len\(\)|\.length\b|\.size\(?|\bcount\b")
_MOST_LINES = 4000
_PIECE = 12  # characters of a quote's piece that place it on a deciding line
_QUOTE = 140


def _code(line: str) -> str:
    return TRAILING_COMMENT_RE.sub("", _STRING_RE.sub('""', line))


def _deciding(path: str, lines: list[str], other: list[str]) -> list[str]:
    """The lines of ``lines`` that decide something, but for those ``other`` holds too (moved, carried), stripped. In a
    language whose operators are words, a docstring's prose is no code (held-out 294's pyairtable: "The response includes
    both revoked tokens and" read as a join); elsewhere ``and``, ``or`` and ``not`` are words, not operators."""
    carried = {squeezed(line) for line in other[:_MOST_LINES]}
    worded = path.endswith(_WORDED)
    # A comment is one only with no code after it (``/* x */ if (…)``: line_shapes); a C preprocessor's ``#if`` picks a
    # platform, not a behaviour.
    prefixes = (*comment_prefixes(path), "#")
    operator = _OPERATOR_RE if worded else _SYMBOL_RE
    found, in_doc = [], False
    for line in lines[:_MOST_LINES]:
        odd = worded and len(_DOC_QUOTES_RE.findall(line)) % 2 == 1  # a docstring opens or closes on this line
        if odd or in_doc:
            in_doc ^= odd
            continue
        if not line.strip() or comment_only(line, prefixes) or _BOILERPLATE_RE.match(line) or squeezed(line) in carried:
            continue
        code = _code(line)
        if worded and _PROSE_CODE_RE.search(code) is None and looks_like_prose(code):
            continue  # a docstring's line whose opening quotes the hunk does not show (held-out 348's fava: "… either on the entry")
        if _CONTROL_RE.match(code) or operator.search(code) or _DECIDING_CALL_RE.search(code):
            found.append(line.strip())
    return found


def decisions(c: FileChange) -> list[str]:
    """The added lines of ``c`` that decide something, in order (stripped), when it adds more of them than it removes: a
    condition edited in place, a call renamed in one, a loop rewritten as a chain (``if bad; then return 1; fi`` →
    ``bad && return 1``) decides nothing new; the readers of edited lines read those."""
    added = _deciding(c.path, list(c.added_lines), list(c.removed_lines))
    return added if len(added) > len(_deciding(c.path, list(c.removed_lines), list(c.added_lines))) else []


def unjudged_logic(assessed: Iterable[FileChange], quoted: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """The low source files that add deciding lines, with those lines, in a change no file of which is above low for a
    changed line; the files the floor already quotes keep that quote."""
    assessed = list(assessed)
    if any(names_a_line(c) for c in assessed):
        return {}
    found: dict[str, tuple[str, ...]] = {}
    for c in assessed:
        # Read within the review's CPU budget (relay.review.review_budget): a change built of thousands of big files must
        # not hold the packet back here; past it, the files already say what was left unread.
        if over_budget():
            break
        if c.risk == "low" and c.kind != "deleted" and c.path not in quoted and file_kind(c.path) == "source" and (lines := decisions(c)):
            found[c.path] = tuple(lines)
    return found


def _picked(lines: list[str], said: tuple[str, ...]) -> str | None:
    """The deciding line the file's own quotes already pick out (a small edit's "notably …", the leading line's
    "adds: …"), when one does: their general score read every changed line, so it knows which of them tells most."""
    for quote in said:
        pieces = [p for p in quoted_pieces(f": {quote}") if len(p) >= _PIECE]
        if hit := next((line for line in lines if any(p in squeezed(line) for p in pieces)), None):
            return hit
    return None


def new_logic_row(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule ``new_logic``'s check: the most telling deciding line of a file ``unjudged_logic`` chose, with their count:
    the one the file's own quotes pick out, else a comparison with a number or a length (an off-by-one bound), then any
    comparison or join, then the first."""
    if f.change.path not in ctx.new_logic or f.mechanical or f.same_meaning or f.only_version:
        return None
    c = f.change
    lines = list(ctx.new_logic[c.path])  # read once, by unjudged_logic
    best = _picked(lines, (ctx.small_edits.get(c.path, ""), leading_line(c.path, c.added_lines, c.removed_lines) or "")) or max(
        lines, key=lambda line: (bool(_NUMERIC_RE.search(_code(line))), bool(_OPERATOR_RE.search(_code(line)))))
    many = f"{len(lines)} deciding lines" if len(lines) > 1 else "one deciding line"
    return f"new logic no rule judged ({many}): {best[:_QUOTE]}"


# The row's example (tests/test_rules.py runs it): a new verify() whose length check only refuses the shorter input, in a
# change otherwise low; the same file outside a chosen change is the near miss.
_ADDED = ["pub fn verify(x: &[u8], y: &[u8]) -> bool {", "    if x.len() < y.len() {", "        return false;", "    }"]
NEW_LOGIC_EXAMPLE = Example(fc("src/lib.rs", additions=4, added_lines=_ADDED),
                            "new logic no rule judged (one deciding line): if x.len() < y.len() {",
                            fc("src/verify.rs", additions=4, added_lines=_ADDED), RiskContext(new_logic={"src/lib.rs": (_ADDED[1].strip(),)}))
