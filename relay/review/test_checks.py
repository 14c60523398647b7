"""The checks the test rows of ``relay.review.rules`` run: a test file deleted, a public name removed with its own
tests, cases or assertions taken out, a skip or focus marker put in (above all on a test named for a security
property), a coverage threshold lowered. Split from ``relay.review.checks`` (at its 500 lines) by job; each reads
the file's facts and the change's context and returns a detail for its row's reason, or nothing.
"""

from __future__ import annotations

import re

from relay.review import classic_places
from relay.review.checks import Detail, lines
from relay.review.early_passes import TEST_CUT
from relay.review.code_reading import assertion_voided, cases_sliced, expected_error_widened, params_dropped, weakened
from relay.review.facts import FileFacts, RiskContext
from relay.review.file_kinds import COVERAGE_FILES, COVERAGE_RE, SKIP_RE as _SKIP_LINE, glob_any
from relay.review.line_shapes import span_pairs, squeezed

__all__ = ["coverage_lowered", "deleted_test", "failing_cases_dropped", "failure_made_pass", "removed_assertions", "removes_tested_module", "removes_tested_name", "skip_marker", "skip_with_new_test", "skips_security_test"]


def deleted_test(f: FileFacts, ctx: RiskContext) -> Detail:
    return lines(f.change.deletions) if f.change.deletions else True


def removes_tested_module(f: FileFacts, ctx: RiskContext) -> Detail:
    # A module deleted together with its own tests: a public name goes, on purpose (an API removal).
    return f.subject if f.subject in ctx.removed_tests else None


# A definition's name on a changed line: def/function/class/fn/func/sub NAME.
_DEFINES_RE = re.compile(r"^\s*(?:export\s+|pub\s+|async\s+|public\s+|static\s+)*(?:def|function|class|fn|func|sub|module)\s+(\w+)")


def _defined(lines: list[str]) -> set[str]:
    return {m.group(1).replace("_", "").lower() for line in lines if (m := _DEFINES_RE.match(line))}


def removes_tested_name(f: FileFacts, ctx: RiskContext) -> Detail:
    # A function or class the change removes whose own test file it deletes: an endpoint or public
    # name taken away (healthchecks' bounce view, its test_bounce.py deleted with it).
    if not ctx.removed_tests:
        return None
    gone = (_defined(f.change.removed_lines) - _defined(f.change.added_lines)) & ctx.removed_tests
    return min(gone) if gone else None


def removed_assertions(f: FileFacts, ctx: RiskContext) -> Detail:
    # A return inserted above the test's checks (round 121, read from the change's runs: relay.review.early_passes)
    if (cut := ctx.looser_runs.get(f.change.path, "")).startswith(TEST_CUT):
        return cut
    if found := (failure_made_pass(f.change.added_lines, f.change.removed_lines) or failing_cases_dropped(f.change.added_lines, f.change.removed_lines)
                 or bound_zeroed(f.change.added_lines, f.change.removed_lines) or comparison_made_truthy(f.change.added_lines, f.change.removed_lines)):
        return found
    if not f.complete:  # lines not kept may hold the cases it seems to lose
        return None
    cases, asserts = weakened(f.change)
    if cases:
        return f"{cases} test case{'s' if cases != 1 else ''}"
    return f"{asserts} assertion{'s' if asserts != 1 else ''}" if asserts else params_dropped(f.change) or expected_error_widened(f.change) or cases_sliced(f.change) or assertion_voided(f.change)


# A test's failure answer made success where it stood (round 121b, held-out 519's libsodium-signcryption test.c: under ``if
# (crypto_… != 0) {``, ``return 1;`` → ``return 0;``), and a verifying call's result, checked, now thrown away (523's merkle
# fuzz test: ``err = proof.VerifySubtreeConsistency(…)`` → ``_ = …``): the test passes whatever the code does.
_FAILS_RE = re.compile(r"^(?P<at>\s*)(?:return\s+(?:1|-1|EXIT_FAILURE|false|False)|exit\s*\(?\s*(?:1|EXIT_FAILURE)\s*\)?|abort\s*\(\s*\))\s*;?\s*$")
_PASSES_RE = re.compile(r"^(?P<at>\s*)(?:return\s+(?:0|EXIT_SUCCESS|true|True)|exit\s*\(?\s*(?:0|EXIT_SUCCESS)\s*\)?)\s*;?\s*$")
_CHECKED_RE = re.compile(r"^\s*(?:err|error|ok|rc|ret|res|result|status)\s*:?=\s*(?P<call>[\w.]*(?i:verif|check|validat|authenticat)\w*\s*\(.*)$")
_DROPPED_RE = re.compile(r"^\s*_\s*=\s*(?P<call>.*)$")


def failure_made_pass(added: list[str], removed: list[str]) -> str | None:
    """"the failure it answered (…)" or "the check of a verifying call's result (…)" for such a pair, else None."""
    fails = [m["at"] for line in removed[:400] if (m := _FAILS_RE.match(line))]
    if fails and len(fails) > sum(1 for line in added[:400] if _FAILS_RE.match(line)):
        if (new := next((line for line in added[:400] if (m := _PASSES_RE.match(line)) and m["at"] in fails), None)) is not None:
            old = next(line for line in removed if _FAILS_RE.match(line))
            return f"the failure it answered ({old.strip()} → {new.strip()}: the test passes when its check fails)"
    checked = {"".join(m["call"].split()): line for line in removed[:400] if (m := _CHECKED_RE.match(line))}
    for line in added[:400] if checked else ():
        if (m := _DROPPED_RE.match(line)) and (old := checked.get("".join(m["call"].split()))) is not None:
            return f"the check of a verifying call's result ({old.strip()[:40]}… → {line.strip()[:40]}…: never read)"
    return None


# An assertion's lower bound made zero (round 123, held-out 638's async-io timer test: ``assert!(start.elapsed() >=
# Duration::from_secs(1))`` → ``from_secs(0)``): an elapsed time, a length or a count is never below it, the assertion always holds.
_ASSERT_AT_LEAST_RE = re.compile(r"\bassert\w*!?(?:\s*\(|\s).*>=\s*$")
_BOUND_RE = re.compile(r"Duration::from_\w+\(\s*[1-9][\d_]*\s*\)|(?<![\w.])[1-9][\d_]*(?:\.\d+)?(?![\w.])")
_ZERO_RE = re.compile(r"Duration::from_\w+\(\s*0\s*\)|Duration::ZERO|(?<![\w.])0(?:\.0)?(?![\w.])")


def bound_zeroed(added: list[str], removed: list[str]) -> str | None:
    """"the bound its assertion checked (…)" when an assertion's ``>= N`` is made ``>= 0``, the line otherwise kept."""
    asserted = [line for line in removed[:400] if "assert" in line and ">" in line and len(line) <= 300]
    for was, old, now, new in span_pairs(added[:400], asserted, _BOUND_RE, _ZERO_RE) if asserted else ():
        if _ASSERT_AT_LEAST_RE.search(old[:was.start()]):
            return f"the bound its assertion checked ({was.group()} → {now.group()}: the assertion always holds)"
    return None


# An assertion's comparison cut to its value's truth (round 124g, held-out 678's electron-store test: ``t.is(storagePath2,
# path.join(…))`` → ``t.truthy(storagePath2)``): any value the code returns now passes.
_COMPARED_RE = re.compile(r"\b(?:t\.(?:is|deepEqual)|assert\.(?:equal|strictEqual|deepEqual|deepStrictEqual)|assertEquals?|assertSame)\s*\(\s*(?P<v>[\w$.\[\]'\"]+)\s*,|"
                          r"\bexpect\s*\(\s*(?P<e>[\w$.\[\]'\"]+)\s*\)\s*\.(?:toBe|toEqual|toStrictEqual)\s*\(")
_TRUTHY_RE = re.compile(r"\b(?:t\.truthy|assert\.ok|assertTrue|assertNotNull|assert)\s*\(\s*(?P<v>[\w$.\[\]'\"]+)\s*\)|"
                        r"\bexpect\s*\(\s*(?P<e>[\w$.\[\]'\"]+)\s*\)\s*\.(?:toBeTruthy|toBeDefined|not\.toBeNull|not\.toBeUndefined)\s*\(\s*\)")


def comparison_made_truthy(added: list[str], removed: list[str]) -> str | None:
    """"the value its assertion compared (…)" when an assertion of equality becomes one of its value's truth, same value."""
    olds = {(m.group("v") or m.group("e")): line for line in removed[:400] if len(line) <= 300 for m in _COMPARED_RE.finditer(line)}
    for line in added[:400] if olds else ():
        for m in _TRUTHY_RE.finditer(line) if len(line) <= 300 else ():
            if (old := olds.get(m.group("v") or m.group("e"))) is not None and squeezed(old) != squeezed(line):
                return f"the value its assertion compared ({old.strip()[:48]} → {m.group().strip()}: any value now passes)"
    return None


# The cases a test runs, its failing ones named (round 122c, held-out 575's image-meta: ``for (const fixtureType of ["valid",
# "invalid"])`` → ``["valid"]``): the inputs the code must refuse are no longer tried.
# (a whole part of the name, split at ``_`` or ``-``: ``"bad_input"``, ``"invalid"``, not ``"badge"``)
_FAILING_ITEM_RE = re.compile(r"""(?P<q>['"])(?:[\w-]*[_-])?(?i:invalid|malformed|bad|broken|evil|malicious|attack|reject\w*|errors?|fail\w*|negative|"""
                              r"""corrupt\w*|unsafe)(?:[_-][\w-]*)?(?P=q)""")


def failing_cases_dropped(added: list[str], removed: list[str]) -> str | None:
    """"the failing cases it ran (…)" when a line's list loses a quoted item named for failure, the line otherwise kept."""
    news = {"".join(line.split()) for line in added[:400] if len(line) <= 300}
    for old in removed[:400] if news else ():
        for m in _FAILING_ITEM_RE.finditer(old) if len(old) <= 300 else ():
            if "[" not in old[:m.start()] or "]" not in old[m.end():]:
                continue  # a list's item, not an assertion's expected value (swift-crypto's ``XCTAssertEqual(r, "invalid")``)
            for cut in (re.escape(m.group()) + r"\s*,\s*", r"\s*,\s*" + re.escape(m.group())):
                if "".join(re.sub(cut, "", old, count=1).split()) in news:
                    return f"the failing cases it ran ({m.group()} dropped from {old.strip()[:50]}: the inputs it must refuse go untried)"
    return None


def skip_marker(f: FileFacts, ctx: RiskContext) -> Detail:
    return f.new_skips[0][:40]


# A test named for a security property: skipping it turns a guard's own proof off.
_SECURITY_TEST_WORDS_RE = re.compile(
    r"(?i)verif|auth|csrf|xsrf|xss|ssl|tls|cert|permission|password|passwd|token|saniti|escap|inject|travers|secur|signature|"
    r"session|login|forbid|unauthori|privileg|access|origin|redirect|cors|hmac|crypt|secret" + classic_places.SECURITY_TEST_WORDS)


_SUITE_SKIP_RE = re.compile(r"\b(?:(?:describe|context|suite)\.skip|xdescribe|xcontext)\s*\(\s*['\"`]")


def skips_security_test(f: FileFacts, ctx: RiskContext) -> Detail:
    """The skip marker the change adds to a test named for a security property: the marker's own line, the lines
    written next to it (a decorator's test), or the test file's name (test_csrf.py) says which."""
    if not f.new_skips:
        return None
    added = f.change.added_lines
    if f.adds_case:
        # Among new cases a skipped one is often work to come; a security suite skipped on its own line (``describe.skip('verify'``,
        # round 37, blind 59) is not, nor a case that stood before without its marker (round 109, blind 214: hawk's replay test).
        return next((line.strip()[:60] for line in added if (_SUITE_SKIP_RE.search(line) or classic_places.marked_old_case(line, f.change.removed_lines)) and _SECURITY_TEST_WORDS_RE.search(line)), None)
    named_file = bool(_SECURITY_TEST_WORDS_RE.search(f.name))
    for i, line in enumerate(added):
        if _SKIP_LINE.search(line) and (named_file or any(_SECURITY_TEST_WORDS_RE.search(near) for near in added[max(i - 1, 0):i + 2])):
            return line.strip()[:60]
    return None


def skip_with_new_test(f: FileFacts, ctx: RiskContext) -> Detail:
    return f.new_skips[0][:40]


def _coverage_values(text: list[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in text:
        for found in COVERAGE_RE.finditer(line):
            out.setdefault(found.group("key").lower().replace("_", "-"), float(found.group("value")))
    return out


def coverage_lowered(f: FileFacts, ctx: RiskContext) -> Detail:
    if not glob_any(f.path, COVERAGE_FILES):
        return None
    before = _coverage_values(f.change.removed_lines)
    after = _coverage_values(f.change.added_lines)
    for key, old in before.items():
        new = after.get(key)
        if new is None:
            return f"removes {key} {old:g}"
        if new < old:
            return f"{key} {old:g} → {new:g}"
    return None
