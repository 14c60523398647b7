"""What the changed lines of one file say, read from the whole hunks ``relay.observe.changes`` keeps.

Two readers for ``relay.review.risk``'s rules, kept apart from the rule table because each is
a small parser of its own: test cases and assertions counted by the language's syntax
(Python through ``ast`` when a line parses, other languages by simple token patterns); and
mechanical edits (comments only, Python docstrings only, reordered lines, reformatting, a
definition moved to another module) that need no review. The third reader, of security-relevant
changes, is ``relay.review.security_reading``; the line shapes both use, ``relay.review.line_shapes``.
None of them knows a file's kind: the rules decide which files each applies to.
"""

from __future__ import annotations

import ast
import difflib
import functools
import re
from collections.abc import Iterable
from typing import NamedTuple

from relay.core.contracts import FileChange
from relay.core.redact import vendor_secret
from relay.review.block_moves import CHECK_CALL_RE
from relay.review.line_shapes import IMPORT_RE, Screen, blocks_kept, comment_prefixes, groupings, quoted_texts, squeezed
from relay.review.platform_lines import silencing_comment
from relay.review.requirement_notes import requirement_note, requirement_relaxed
from relay.review.security_reading import is_advisory_comment

__all__ = [
    "ASSERT_WORDS",
    "CASE_RE",
    "COMPARE_CALL_RE",
    "LOOP_RE",
    "assertion_voided",
    "PARAM_RE",
    "ROW_RE",
    "SCREENS",
    "cases_sliced",
    "params_dropped",
    "test_counts",
    "weakened",
    "mechanical_verdict",
    "reformat_verdict",
]

ASSERT_WORDS = (
    "assert", "expect", "should", "fail", "require.", "verify", "raises", "tobe", "toequal", "tothrow", "t.error", "t.fatal",
    "t.equal", "t.not", "t.same", "t.strictsame", "t.match", "t.ok", "t.throws", "t.doesnotthrow", "t.rejects", "t.resolves", "t.has", "t.is", "t.truthy", "t.falsy", "t.deepequal", "t.like",
)

# A test case starts here, by language: pytest/unittest, mocha/jest/tap, Go, Rust, JUnit, RSpec/ExUnit.
CASE_RE = re.compile(
    # A formatter may put the name on the next line: "it(" alone still starts a case.
    r"^\s*(?:async\s+)?def\s+test\w*\s*\(|^\s*(?:it|test|specify)\s*\(\s*(?:['\"`]|$)|\bt\.test\s*\(\s*(?:['\"`]|$)|"
    r"^\s*func\s+Test\w*\s*\(|^\s*#\[(?:\w+::)?test\]|^\s*@(?:Test|ParameterizedTest)\b|^\s*(?:it|test)\s+['\"]"
)
# A table of cases (pytest parametrize, jest .each, Go subtests) and one row of it.
PARAM_RE = re.compile(r"@pytest\.mark\.parametrize|\b(?:it|test|describe)\.each\b|@ParameterizedTest|@CsvSource|\bt\.Run\s*\(")
ROW_RE = re.compile(r"^\s*(?:pytest\.param\s*\(|[(\[{]).*[)\]}],?\s*(?:#.*)?$")

# ----- counting test cases and assertions by the language's syntax

# Assertions once strings and comments are gone: statements and calls, never a declaration
# (``def assert_valid``), an import (``require('assert')``) or a word inside a string.
_ASSERT_TOKEN_RE = re.compile(
    r"^\s*assert\b(?!\s*[=:.(])|\bassert(?:_\w+|[A-Z]\w*)?!?\s*\(|\b(?:assert|require)\.\w+\s*\(|\bexpect\s*\(|"
    r"\.should\b|\bshould\.|\bXCTAssert\w*|\bassertThat\s*\(|\bself\.fail\s*\(|\bpytest\.raises\b|\bverify\s*\(|"
    r"\bt\.(?:equal|not|same|notSame|strictSame|match|notMatch|ok|notOk|throws|doesNotThrow|rejects|resolves|has|hasStrict|"
    r"error|fail|Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\("
)
_DECLARATION_RE = re.compile(r"^\s*(?:export\s+)?(?:async\s+)?(?:def|class|function|fn|func|import|from|use|package)\b")
_STRING_RE = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`(?:\\.|[^`\\])*`')
_ASSERT_CALL_NAME = re.compile(r"^(?:assert\w*|fail\w*|raises|expect\w*|verify)$")
_ASSERTS = Screen(ASSERT_WORDS, _ASSERT_TOKEN_RE)
# Every pre-check of this module with the patterns it guards, for tests/test_screens.py.
SCREENS: dict[str, Screen] = {"assertions": _ASSERTS}


def _py_asserts(text: str) -> int | None:
    """Assertions in one line of Python by its syntax tree; None when the line alone does
    not parse (a continuation, a block opener), so the token count decides."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            count += 1
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            count += bool(_ASSERT_CALL_NAME.match(name))
    return count


@functools.lru_cache(maxsize=16384)  # read again when a part of the file is read alone
def _asserts_in(line: str, python: bool) -> int:
    text = line.strip()
    if not text or not _ASSERTS.passes(text) or _DECLARATION_RE.match(text):
        return 0
    if python:
        parsed = _py_asserts(text)
        if parsed is not None:
            return parsed
    code = _STRING_RE.sub('""', text)
    code = code.split("//", 1)[0] if not python else code.split("#", 1)[0]
    return len(_ASSERT_TOKEN_RE.findall(code))


class _TestCounts(NamedTuple):
    cases: int
    asserts: int
    rows: int


def test_counts(path: str, lines: Iterable[str]) -> _TestCounts:
    lines = list(lines)
    python = path.lower().endswith((".py", ".pyi"))
    table = any(PARAM_RE.search(line) for line in lines)
    cases = sum(1 for line in lines if CASE_RE.search(line))
    rows = sum(1 for line in lines if ROW_RE.match(line)) if table else 0
    asserts = sum(_asserts_in(line, python) for line in lines)
    return _TestCounts(cases, asserts, rows)


def weakened(c: FileChange) -> tuple[int, int]:
    """(cases lost, assertions lost): a case folded into a table row is not lost, and
    assertions merged into one parametrized test are not lost when its rows grew."""
    before = test_counts(c.path, c.removed_lines)
    after = test_counts(c.path, c.added_lines)
    lost_cases = before.cases - after.cases - max(after.rows - before.rows, 0)
    lost_asserts = before.asserts - after.asserts
    if after.rows > before.rows:
        lost_asserts = 0
    return max(lost_cases, 0), max(lost_asserts, 0)


# A fixture's or a parametrized test's values written on one line (``params=("MultiDict", "CIMultiDict"),``,
# ``@pytest.mark.parametrize("x", [1, 2, 3])``, ``it.each([a, b])``): each one is a run of the tests that use it.
_PARAMS_RE = re.compile(r"^(?P<head>\s*(?:@pytest\.(?:fixture|mark\.parametrize)\s*\(.*?|.*?\bparams\s*=\s*|(?:it|test|describe)\.each\s*\(\s*))"
                        r"[(\[](?P<items>[^()\[\]]*)[)\]]")


def _param_items(line: str) -> tuple[str, list[str]] | None:
    m = _PARAMS_RE.match(line) if len(line) <= 400 else None
    if m is None:
        return None
    return " ".join(m.group("head").split()), [item.strip() for item in m.group("items").split(",") if item.strip()]


def params_dropped(c: FileChange) -> str | None:
    """The values a test's parameter list lost on a line it kept (round 59, blind 83's multidict: the fixture that ran every
    test on both dict classes narrowed to one): "1 parameter (CIMultiDict)"."""
    olds = {found[0]: found[1] for line in c.removed_lines[:200] if (found := _param_items(line))}
    for line in c.added_lines[:200] if olds else ():
        if (found := _param_items(line)) and found[0] in olds and set(found[1]) < set(olds[found[0]]):
            gone = [item for item in olds[found[0]] if item not in found[1]]
            return f"{len(gone)} parameter{'s' if len(gone) != 1 else ''} of its runs ({', '.join(gone)[:40]})"
    return None


# A test's loop over its table cut to the first few (round 120c, held-out 492's blake2s: ``for i, v := range goldenKeyed {``
# → ``range goldenKeyed[:1]``): the cases after them are never run, and no case is deleted for ``weakened`` to count.
_SLICED_RE = re.compile(r"(?P<x>[\w$\])]+)(?P<s>\[\s*0?\s*:\s*\d+\s*\]|\[\s*\.\.=?\s*\d+\s*\]|\.slice\(\s*0\s*,\s*\d+\s*\)|"
                       r"\.(?:take|first|limit)\(\s*\d+\s*\))")
LOOP_RE = re.compile(r"\bfor\b|\brange\b|\.each\b|\.forEach\b|\.map\b|\bwhile\b|\.iter\(\)|\bparametrize\b")  # kept in tests (file_kinds)


def cases_sliced(c: FileChange) -> str | None:
    """"the cases after the first N (X[:N])" where a test's loop header kept its line but sliced what it walks; None otherwise."""
    olds = {squeezed(line) for line in c.removed_lines[:200] if LOOP_RE.search(line)}
    for line in c.added_lines[:200] if olds else ():
        for m in _SLICED_RE.finditer(line):
            if squeezed(line[:m.start("s")] + line[m.end("s"):]) in olds:
                kept = re.findall(r"\d+", m.group("s"))[-1]  # the slice's end: every pattern holds it
                return f"the cases after the first {kept} ({m.group('x')}{m.group('s')})"
    return None


# An assertion's comparison made ``or`` (round 120e, held-out 506's organize: ``assert next_free_name(…) == Path(result)`` →
# ``… or Path(result)``): it passes whenever the right side is truthy, whatever the code returns.
_ASSERTED_RE = re.compile(r"\bassert|\bexpect\b|\bcheck\b|\bverify\b")


def assertion_voided(c: FileChange) -> str | None:
    """"the comparison in an assertion (== → or: it always passes)" where an assertion's comparison was made a
    disjunction on a line otherwise kept; None otherwise."""
    olds = {squeezed(line): line for line in c.removed_lines[:200] if _ASSERTED_RE.search(line) and re.search(r"==|!=|\bis\b", line)}
    for line in c.added_lines[:200] if olds else ():
        for op in ("==", "!=", " is not ", " is "):
            for old in (o for o in olds.values() if op in o):
                if squeezed(old.replace(op, " or ", 1)) == squeezed(line) or squeezed(old.replace(op, " || ", 1)) == squeezed(line):
                    return f"the comparison in an assertion ({op.strip()} → or: it always passes)"
    return None


# An expected error widened to any error (round 90, blind 133's wcmatch: ``assertRaises(_wcparse.PatternLimitException)``
# → ``assertRaises(Exception)``): the test passes when the code fails another way, and a refusal it proved is proved no more.
_EXPECTS_RE = re.compile(r"\b(?P<call>assertRaises(?:Regexp?)?|pytest\.raises|assert_?[Tt]hrows|expectThrows|assert_raises|raise_error|"
                         r"toThrow(?:Error)?|rejects\.toThrow|expectException)\s*\(\s*(?P<what>[\w.$:\\]*)")
_ANY_ERROR = frozenset({"Exception", "BaseException", "Throwable", "Error", "StandardError", "Exception.class", "Throwable.class",
                        "Exception::class", "\\Exception", "\\Exception::class", "\\Throwable::class"})
_BARE_CALLS = frozenset({"toThrow", "toThrowError", "rejects.toThrow", "raise_error"})  # no argument: any error passes


def expected_error_widened(c: FileChange) -> str | None:
    """"the expected error's type (A → any error)" where a test's expected error became any error; None otherwise."""
    olds = {m["call"]: m["what"] for line in c.removed_lines[:200] if (m := _EXPECTS_RE.search(line)) and m["what"] not in _ANY_ERROR and m["what"]}
    for line in c.added_lines[:200] if olds else ():
        if (m := _EXPECTS_RE.search(line)) and m["call"] in olds and (m["what"] in _ANY_ERROR or (not m["what"] and m["call"] in _BARE_CALLS)):
            was = olds[m["call"]].removesuffix(".class").removesuffix("::class").rsplit(".", 1)[-1].rsplit("\\", 1)[-1]
            return f"the expected error's type ({was[:40]} → {m['what'] or 'any error'})"
    # A check edited to compare a value with itself (round 117, blind 380's barcode test: ``!bytes.Equal(res, ecc)`` →
    # ``(res, res)``): a condition or an assertion whose whole test is the self-comparison of a name, where a removed line
    # compared that name with something. A new case that compares a value with itself tests the comparison (re2j's
    # ``EqualsIgnoreCaseTest(r, r, true)``, sodium_compat's ``compare('a', 'a')``, a reflexivity ``assertTrue(a.equals(a))``).
    # Or an assertion given an alternative that always holds (blind 388's covdefaults: ``assert plugin_manager.get(…) or True``).
    for line in c.added_lines[:200]:
        if (m := _DECIDED_BY_SELF_RE.match(line)) and any(
                re.search(rf"(?<![\w$]){re.escape(m.group('a') or m.group('r'))}(?![\w$])", old) and _COMPARED_RE.search(old) and not _DECIDED_BY_SELF_RE.match(old)
                for old in c.removed_lines[:200]):
            return f"what its check tests (it compares a value with itself: {line.strip()[:80]})"
    had = {" ".join(line.split()) for line in c.removed_lines[:200]}
    # An assertion's "both" made "either" (round 118c, blind 349's byebug: ``assert file == frame.file && line == frame.line``
    # → ``||``): the line kept, its joins turned.
    for line in c.added_lines[:200] if any("&&" in old or " and " in old for old in c.removed_lines[:200]) else ():
        if _ASSERTS_RE.match(line) and ("||" in line or " or " in line) and " ".join(line.replace("||", "&&").replace(" or ", " and ").split()) in had:
            return f"half of what its assertion checks (&& made ||: either part now passes it): {line.strip()[:80]}"
    return next((f"what its assertion checks (an alternative that always holds: {line.strip()[:80]})" for line in c.added_lines[:200]
                 if _ALWAYS_RE.search(line) and " ".join(line.split()) not in had), None)


_ASSERTS_RE = re.compile(r"^\s*(?:self\.)?(?:assert\w*|expect|require\.\w+|refute\w*|check)\b\s*[(!]?")


_DECIDED_BY_SELF_RE = re.compile(r"^\s*(?:\}?\s*(?:else\s+)?if\s*\(?\s*!?|(?:self\.|\$this->)?assert(?:True|False|That)?\s*\(?\s*!?|expect\s*\(\s*!?|require\.True\(\s*t,\s*!?)"
                                 r"(?:[\w.$:>-]*?(?:[Ee]quals?|[Cc]ompare|[Ee]q)\w*\s*\(\s*(?P<a>[A-Za-z_$][\w.$>-]*)\s*,\s*(?P=a)\s*\)|"
                                 r"(?P<r>[A-Za-z_$][\w.$>-]*?)\.(?:[Ee]quals?|[Ee]q|[Cc]ompare(?:To)?)\s*\(\s*(?P=r)\s*\))")
# A comparison by a call: what a test's kept lines must hold for the edit above to be read (relay.review.file_kinds keeps
# a test's lines by it; a removed ``if res != ecc`` by its operator alone is not kept, so not read).
COMPARE_CALL_RE = re.compile(r"(?:[Ee]quals?|[Cc]ompare|[Ee]q)\w*\s*\(")
_COMPARED_RE = re.compile(COMPARE_CALL_RE.pattern + r"|[!=]==?")
_ALWAYS_RE = re.compile(r"\bassert\w*\b.*(?:\bor\s+True\b|\|\|\s*true\b)")


# ----- mechanical edits: nothing a reviewer must read


_CODE_TOKEN_RE = re.compile(r"\w+|\n|[^\w\s]")
_NOT_WORD_RE = re.compile(r"\W+")
# A backslash that ends a line continues it (a formatter's to move); one inside a line escapes what follows, and
# dropping it is no reformatting: ``"\\$(git_ref)"`` → ``"$(git_ref)"`` runs a branch's name in the prompt (round 21).
_CONTINUATION_RE = re.compile(r"\\\s*$", re.M)


def _normalized(lines: Iterable[str]) -> list[str]:
    """The code's tokens without what a formatter may change: whitespace and line breaks,
    quote style, trailing commas and semicolons, backslash continuations."""
    text = _CONTINUATION_RE.sub("", "\n".join(lines))
    every = _CODE_TOKEN_RE.findall(text.replace("'", '"'))
    # A comma only where a formatter puts one (round 115): before a closing bracket (a trailing comma). Elsewhere it
    # separates: ``for (i=0, i<n; …)`` → ``for (i = 0; i < n; …)`` and ``max(x, -1)`` → ``max(x -1)`` had read "reformatted
    # only". A semicolon still goes: clang-format splits ``y8[0] = x8[1]; y8[1] = x8[2];`` into lines.
    tokens: list[str] = []
    following = None  # the next token that is no line break, read from the end (one pass: a big hunk has many commas)
    for t in reversed(every):
        if t == "\n":
            continue
        if t == ";" or (t == "," and (following is None or following in ")]}")):
            following = t
            continue  # a formatter's to place: a semicolon anywhere (clang-format splits statements), a trailing comma
        tokens.append(t)
        following = t
    tokens.reverse()
    # "(x) =>" and "x =>" are one arrow function: formatters add or drop those parentheses.
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i] == "(" and tokens[i + 2 : i + 5] == [")", "=", ">"] and tokens[i + 1].isidentifier():
            out.append(tokens[i + 1])
            i += 3
            continue
        out.append(tokens[i])
        i += 1
    return out


_QUALIFIER_RE = re.compile(r"\b([A-Za-z_]\w*)\.(?=[A-Za-z_])")
_IMPORT_NAME_RE = re.compile(r"""(?:^|[/\s.])(\w+)["']?\s*;?\s*$""")


def _requalified_only(added: list[str], removed: list[str]) -> bool:
    """A definition moved to another module: the imports swap one module for another and
    every other line only swaps that module's qualifier (``internal.X`` -> ``consts.X``)."""
    imports_added = [line for line in added if IMPORT_RE.match(line)]
    imports_removed = [line for line in removed if IMPORT_RE.match(line)]
    if not imports_added:
        return False
    new_names = {m.group(1) for line in imports_added if (m := _IMPORT_NAME_RE.search(line))}
    old_names = {m.group(1) for line in imports_removed if (m := _IMPORT_NAME_RE.search(line))}
    # The old module may stay imported for other uses: then its qualifier is simply the one
    # the removed lines used and the added lines no longer do.
    used_before = {m.group(1) for line in removed if not IMPORT_RE.match(line) for m in _QUALIFIER_RE.finditer(line)}
    used_after = {m.group(1) for line in added if not IMPORT_RE.match(line) for m in _QUALIFIER_RE.finditer(line)}
    old_names |= used_before - used_after
    if not new_names or not old_names:
        return False

    def unqualified(lines: list[str], names: set[str]) -> list[str]:
        return sorted(_QUALIFIER_RE.sub(lambda m: "\0." if m.group(1) in names else m.group(0), line) for line in lines if not IMPORT_RE.match(line))

    body_added, body_removed = unqualified(added, new_names), unqualified(removed, old_names)
    return bool(body_added) and body_added == body_removed


# An import statement itself (not a continuation line of one): the words that open it.
_IMPORT_STATEMENT_RE = re.compile(r"^\s*(?:from\s+[\w.]+\s+import\b|import\b|use\s|#include\b|(?:export\s+)?(?:const|let|var)\s.*\b(?:require|import)\s*\(|"
                                  r"(?:require|require_relative|load)\b)")




def _texts_changed(added: list[str], removed: list[str]) -> bool:
    """Whether a text in quotes changed: no formatter touches what a string holds (blind 86's toxiproxy: ``HasPrefix(ua,
    "Mozilla/")`` → ``"Mozilla/ "``; held-out 471's wp-cli: a ``;`` put into a shell argument's safe characters,
    ``'/^[a-zA-Z0-9_=.\\/:;-]+$/'``, whose semicolon the formatting test drops: both had read as "reformatted only")."""
    def texts(lines: list[str]) -> list[str]:
        return [text for line in lines if '"""' not in line and "'''" not in line for text in quoted_texts(line)]  # not a docstring's
    old, new = texts(removed), texts(added)
    return len(old) == len(new) and any(a != b for a, b in zip(old, new))


def mechanical_verdict(c: FileChange) -> str | None:
    """Why a source edit is mechanical (nothing to review), or None.

    Read from every changed line of code (the caller makes sure observation kept them all):
    no code line at all (comments, blank lines), the same lines in another order
    or indentation (import sorting, moves), the same code reformatted, or imports only
    dropped or regrouped; a rename with unchanged content too.
    """
    if c.binary or c.symlink or c.submodule or c.kind in ("added", "deleted", "type", "mode"):
        return None
    if c.kind == "renamed" and not c.additions and not c.deletions:
        return "renamed, content unchanged"
    if not (c.additions or c.deletions):
        return None
    # A comment naming an advisory is kept for the token rule; it is still only a comment.
    added = [line.strip() for line in c.added_lines if not is_advisory_comment(line) and not requirement_note(line)]
    removed = [line.strip() for line in c.removed_lines if not is_advisory_comment(line) and not requirement_note(line)]
    if not added and not removed:  # a specification's requirement on a check relaxed is no comment's rewording (round 122)
        return None if requirement_relaxed(c.added_lines, c.removed_lines) else "comments or blank lines only"
    if not blocks_kept(c.path, c.added_lines, c.removed_lines):
        return None  # a statement moved in or out of a block: what runs under a condition changed (line_shapes.blocks_kept)
    if sorted(added) == sorted(removed):
        # a check moved may now run after what it guards (relay.review.block_moves): no reading below may call it mechanical
        return None if any(CHECK_CALL_RE.match(line) for line in added) else "lines reordered or re-indented only"
    marker = comment_prefixes(c.path)[0]  # a line comment's opener in the file's language (Python's ``//`` divides)
    if sorted(_code_part(line, marker) for line in added) == sorted(_code_part(line, marker) for line in removed) and not any(
            vendor_secret(line) is not None or silencing_comment(line) for line in (*added, *removed)):
        # the same code, only a line's trailing comment reworded (pip-tools' ``# pragma: pip<25.3 no cover`` → ``pip>=25.3
        # cover``: a coverage note, read once the docstring check no longer hid such lines)
        return "comments only"
    # Reformatting never changes the letters and digits, in order: a cheap test first.
    if (_NOT_WORD_RE.sub("", "".join(added)) == _NOT_WORD_RE.sub("", "".join(removed)) and _normalized(added) == _normalized(removed)
            and not _texts_changed(added, removed) and groupings(added) == groupings(removed)):
        return "reformatted only"
    if c.path.lower().endswith((".py", ".pyi")) and _docstring_only([*added, *removed]):
        return "docstrings only"
    if _requalified_only(added, removed):
        return "definition moved to another module, uses renamed only"
    # A bare "name," or ")" reads as a line of a bracketed import, but is as much an argument of a call: only beside an
    # import statement it names (round 15: a cache key's user argument deleted was called "imports regrouped only").
    if all(IMPORT_RE.match(line) for line in (*added, *removed)) and (
            any(_IMPORT_STATEMENT_RE.match(line) for line in (*added, *removed)) or c.path.lower().endswith(".go")):
        names_added = set(re.findall(r"\w+", " ".join(added)))
        if names_added <= set(re.findall(r"\w+", " ".join(removed))):
            return "imports removed or regrouped only"
    return None


# ----- Python docstrings: prose lines, read without the file around them

_PROSE_WORDS_RE = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}[,;:.]?\s+[`*(\"']*[A-Za-z]{2,}")
_DOCSTRING_QUOTES_RE = re.compile(r"[rRuU]?(?:\"\"\"|''')\s*")
_PROSE_END_RE = re.compile(r"^\.\. [\w-]+::|^:\w[^:]*:|(?<![A-Za-z])[A-Za-z]{2,}\.$")
_REST_UNDERLINE_RE = re.compile(r"([-=~^*])\1{2,}")
_NOT_PROSE_CHARS_RE = re.compile(r"[^A-Za-z ]+")
_ONE_LINE_DOCSTRING_RE = re.compile(r"[rRuU]?(\"\"\"|\'\'\')(?:(?!\1).)*\1")
_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def _code_readings(text: str) -> Iterable[str]:
    """The ways one line could be a piece of Python: a block opener, a branch of a block,
    part of a bracketed expression or of an argument list."""
    body = text + " pass" if text.endswith(":") else text
    yield body
    yield "if 1:\n pass\n" + body
    yield text + "\n case _: pass"  # a match statement's header
    yield "try:\n pass\n" + body + ("" if text.startswith(("except", "finally")) else "\nexcept: pass")
    opened = [ch for ch in text if ch in "([{"]
    closed = [ch for ch in text if ch in ")]}"]
    bare = text.rstrip(",\\ ")
    # A continuation line: it may close brackets opened above, open some closed below, or
    # go on an expression with an operator ("and not x", "is None)").
    before = "(" * max(len(closed) - len(opened), 0)
    after = "".join(_CLOSERS[ch] for ch in reversed(opened[len(closed):])) if len(opened) > len(closed) else ""
    for head in ("", "_ "):
        yield before + head + bare + after
        yield "f(" + before + head + bare + after + ")"
    yield "[" + text.strip(",[]") + "]"
    # A dict's entry keyed by a literal (held-out 368's pabot: ``"processes": lambda x: int(x) …,`` → ``eval(x)`` read as a
    # docstring's prose, the whole file "docstrings only"); a docstring's field (``Raises: ValueError``) keys by no literal.
    if text.lstrip()[:1] in ("'", '"'):
        yield "{" + before + bare + after + "}"


def _prose_shape(text: str) -> bool | None:
    """The cheap half of ``_docstring_line``: True for a docstring's quotes or a reST underline,
    False for a line that cannot be prose, None when only parsing can tell."""
    if _DOCSTRING_QUOTES_RE.fullmatch(text) or _ONE_LINE_DOCSTRING_RE.fullmatch(text) or _REST_UNDERLINE_RE.fullmatch(text):
        return True
    # Words, a sentence's end, or a reST directive or field: never how code reads.
    if not (_PROSE_WORDS_RE.search(text) or _PROSE_END_RE.search(text)):
        return False
    if len(_NOT_PROSE_CHARS_RE.sub("", text)) < 0.6 * len(text):
        return False
    return None


def _code_part(line: str, marker: str) -> str:
    """A line without its trailing comment (``marker`` after a space, the rest holding no quote), when its code closes every
    quote it opens; the line itself otherwise (a ``#`` inside a string is no comment)."""
    m = re.search(rf"\s{re.escape(marker)}[^'\"`]*$", line)
    if m is None or any(line[:m.start()].count(q) % 2 for q in "\"'`"):
        return line
    return line[:m.start()].rstrip()


def _docstring_line(text: str) -> bool:
    """A line of docstring prose or a docstring's own quotes; never a line that reads as code."""
    shape = _prose_shape(text)
    if shape is not None:
        return shape
    # A code line with a trailing comment reads as code once the comment is off (set 328's http-observatory: ``if
    # output['max-age'] < FIFTEEN_DAYS:  # must be at least six months`` parsed in no reading and was called a docstring's).
    return not _parses(text) and not any(_parses(reading) for line in dict.fromkeys((text, _code_part(text, "#")))
                                         for reading in _code_readings(line))


def _docstring_only(lines: list[str]) -> bool:
    """Every changed line is docstring prose (a wording fix, a reST field), not code. Lines
    arrive without the file around them, so a line counts as prose only when it reads as words
    and no reading of it as Python parses: ``verify=False,`` or ``else:`` never do. A lone word
    (a sentence's last word wrapped onto its own line) could be code too, so it passes only
    beside prose. The cheap shape test runs on every line before any parsing: most code
    fails it at once."""
    if not lines or any(_prose_shape(line) is False and not line.isidentifier() for line in lines):
        return False
    prose = False
    for line in lines:
        if _docstring_line(line):
            prose = True
        elif not line.isidentifier():
            return False
    return prose


# How many tokens of the sides a formatter's run is judged on: the matcher's cost grows with the
# square of it, and the first several hundred tokens of a formatter's run already read the same.
_REFORMAT_TOKENS = 400


def reformat_verdict(c: FileChange) -> bool:
    """A change whose lines were kept only in part (the caller knows) and whose kept code reads
    the same on both sides (one side's text a prefix of the other's): a formatter's run. Not
    proof, so it only keeps the content rules quiet; the size rules still see it."""
    if not c.added_lines or not c.removed_lines:
        return False
    # Parentheses too: formatters add them around long expressions.
    before = [t for t in _normalized(line for line in c.removed_lines if not is_advisory_comment(line)) if t not in "()"]
    after = [t for t in _normalized(line for line in c.added_lines if not is_advisory_comment(line)) if t not in "()"]
    short, long = sorted((before, after), key=len)
    if len(short) < 60:
        return False
    short = short[:_REFORMAT_TOKENS]
    # Each side stops at its own bound, so the shorter should read as the start of the
    # longer; a line cut at LINE_CHARS or moved across the cut costs a few tokens.
    matcher = difflib.SequenceMatcher(None, short, long[: len(short) + 40], autojunk=False)
    return sum(size for _, _, size in matcher.get_matching_blocks()) >= 0.9 * len(short)


