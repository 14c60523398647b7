"""Which of a file's changed lines are worth keeping, and (from ``relay.review.path_kinds``) what kind of file a path is.

Observation hands review every changed line of a file (whole hunks, bounded); ``rule_lines``
keeps the ones the rules read (``line_filter`` says which: code, not comments; a test's
assertions and cases…), all of them. ``is_secret_path`` tells observation which new git-ignored files are worth
listing, and ``relay.review.risk`` ranks files by ``file_kind`` (source, test, docs, CI, manifest…) and by what the
kept lines say: both are ``relay.review.path_kinds``', named here too for the readers that ask this module.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

import msgspec

from relay.core.contracts import FileChange
from relay.core.redact import vendor_secret
from relay.review.kind_values import MAKE_IGNORED_RE  # a check's make recipe let fail (round 100)
from relay.review import any_screen, deciding_tokens, docs_samples, edit_turns, one_token_turns, package_values, sample_code, subtle_turns, swap_slips, unguarded_swaps, vanishing_checks, written_slips  # a docs sample's lines the code and turn readers read (rounds 15, 20)
from relay.review.build_lines import IMAGE_LINE_RE
from relay.review.dropped_bounds import CONTAINER_USER_RE  # the user a container runs as (a Dockerfile's USER removed)
from relay.review.classic_places import SKIP_SHAPES, SKIP_WORDS as _MORE_SKIP_WORDS
from relay.review.content_kinds import reading_path
from relay.review.file_subjects import subject
from relay.review.check_slips import says_default
from relay.review.comment_samples import sample_in_comment
from relay.review.code_reading import ASSERT_WORDS, CASE_RE, COMPARE_CALL_RE, LOOP_RE, PARAM_RE, ROW_RE
from relay.review.line_shapes import READ_LINES, Screen, comment_only, comment_prefixes
from relay.review.path_kinds import (  # the path half (split in round 23), still named here for its readers
    BUILD_GLOBS, CI_GLOBS, CODE_EXTS, FileKind, HOOK_GLOBS, IGNORE_FILES, KIND_ORDER, SECRET_GLOBS, SECRET_TEMPLATES, basename,
    file_kind, glob_any, is_bare_requirements, is_code, is_lockfile, is_manifest, is_release_notes, is_secret_path,
    is_test_path, is_test_script, is_vendored_code, kind_rank, output_by_folder_name, path_kind, words, OUTPUT_HEAD_RE,
)
from relay.review.platform_lines import APP_MANIFESTS, silencing_comment
from relay.review.requirement_notes import requirement_note
from relay.review.risky_lines import looks_like_prose, risky_screen
from relay.review.slipped_lines import ROUTE_RE
from relay.review.page_dangers import action_line  # a policy's action (round 118d: Block → Audit)
from relay.review.security_reading import advisory_words, attack_test_name, security_note
from relay.review.test_support import is_test_support

__all__ = [
    "SKIP_WORDS",
    "session_token",
    "BUILD_GLOBS",
    "CI_GLOBS",
    "CODE_EXTS",
    "COVERAGE_FILES",
    "COVERAGE_RE",
    "FileKind",
    "HOOK_GLOBS",
    "KIND_ORDER",
    "SECRET_GLOBS",
    "SECRET_TEMPLATES",
    "SCREENS",
    "SKIP_RE",
    "is_bare_requirements",
    "basename",
    "file_kind",
    "glob_any",
    "is_lockfile",
    "is_manifest",
    "is_secret_path",
    "read_changes",
    "subject",
    "rule_lines",
    "is_release_notes",
    "is_test_path",
    "is_test_script",
    "kind_rank",
    "path_kind",
    "line_matters",
    "line_filter",
    "words",
]

# --------------------------------------------------------------------------- line signals

# Lines the rules read of a test file (``line_filter``): assertions, skip markers, case starts, table rows.
_ASSERT_RE = re.compile(
    r"\bassert\b|\bassert[A-Z_]\w*\s*\(|\bassert_\w+!?\s*\(|\bexpect\s*\(|\.should\b|\bshould\.|"
    r"\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\b|\brequire\.\w+\(|\bXCTAssert|\bverify\s*\(|"
    r"\bpytest\.raises\b|\bassertThat\b|\bself\.fail\(|\btoBe\w*\(|\btoEqual\(|\btoThrow\w*\(|"
    r"\bt\.(?:equal|not|same|notSame|strictSame|match|notMatch|ok|notOk|throws|doesNotThrow|rejects|resolves|has|hasStrict|error|fail|"
    r"is|truthy|falsy|deepEqual|notDeepEqual|like)\s*\("  # and ava's (round 124g: electron-store's ``t.is`` → ``t.truthy``)
)
SKIP_RE = re.compile(
    r"@pytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.(?:skip|xfail)\s*\(|@unittest\.(?:skip\w*|expectedFailure)\b|"
    r"@skip(?:If|Unless)?\s*\(|"  # unittest's decorators imported by name (round 85: python-gnupg's ``@skipIf(True, 'flaky on CI')``)
    r"\bself\.skipTest\s*\(|\b(?:it|test|describe|context|suite)\.(?:skip|todo|only)\s*\(|"
    # A project's own test helper skipped the same way (testSql.skip(…), itBehavesLike.only(…), queryTest.skip(…)).
    r"\b(?:(?:test|it|spec|describe)[A-Z]\w*|[a-z]\w*(?:Test|Spec|Case|Suite))\.(?:skip|only)\s*\(|"
    r"\b(?:xit|xdescribe|xtest|xcontext|fit|fdescribe)\s*\(|(?:\bginkgo\.|(?<![\w.]))P(?:It|Describe|Context|When|Specify|Entry|DescribeTable)\s*\(\s*[\"`]|"  # Ginkgo's pending forms (119d)
    # A spec DSL's block disabled by its x prefix in any case (Kotest's xGiven/xWhen/xShould, Spek's xdescribe…).
    r"\bx(?:[Gg]iven|[Ww]hen|[Tt]hen|[Dd]escribe|[Cc]ontext|[Ss]hould|[Ff]eature|[Ss]cenario|[Ee]xpect|[Ss]pecify|[Tt]est|It|[Aa]nd)\s*\(\s*['\"]|\bt\.Skip(?:f|Now)?\s*\(|@(?:\w+\.)*(?:Ignore|Disabled)\b|"
    r"#\[ignore\]|@Test\b.*\.disabled\b|\bskip\s*\(\s*['\"]|\bmarkTestSkipped\(|\[Ignore\]|\[Fact\(Skip|"
    # RSpec's and minitest-spec's forms without parentheses ("xit 'verifies the host' do").
    r"^\s*(?:xit|xdescribe|xcontext|xspecify|xscenario|fit|fdescribe|fcontext)\s+['\"]|"
    # Their ``skip 'reason'`` without parentheses, alone or in a hook (round 123, held-out 605's rubocop-ast:
    # ``before { skip 'slow on JRuby' }`` put at the top of a spec skips every example in it).
    r"(?:^\s*|\bbefore\s*(?:\(\s*:(?:each|all|example|context)\s*\)\s*)?(?:\{|do\b)\s*)skip\s+['\"]|"
    # A varnishtest's requirement made one no build meets (round 123, held-out 610's haproxy ``ssl_client_auth.vtc``:
    # ``feature cmd "$HAPROXY_PROGRAM -cc 'feature(OPENSSL)' && false"``): the test is skipped everywhere.
    r"^\s*feature\s+cmd\s+\"[^\"\n]*&&\s*false\s*\"|"
    # A test returned from before it runs, left with a note (round 87: libtomcrypt's ``return CRYPT_NOP; /* TODO: re-enable … */``).
    # Round 111: or left with a success exit (mysqljs's ``process.exit(0); // TODO: flaky with dynamic ports``), and Japa's
    # chained skip (``test('…', …).skip(true, 'flaky on CI')``).
    r"^\s*(?:return\b[^;{}]*|process\.exit\(\s*0?\s*\)|(?:sys|os)\.[eE]xit\(\s*0?\s*\))\s*;?\s*(?:/\*|//|#)\s*(?i:todo|skip|disabled|flaky)|"
    r"\)\.skip\(\s*(?:true\b|['\"])|\bif\s*\(\s*(?:0|false)\s*&&[^)]*\)[^\n]*(?:/\*|//|#)\s*(?i:todo|fixme|skip|disabled|flaky)|"
    + SKIP_SHAPES  # other frameworks' (round 11); a check made dead with ``0 &&`` and a note (held-out 281's dilithium)
)
COVERAGE_RE = re.compile(
    r"(?P<key>fail[_-]under|cov-fail-under|coverageThreshold|minimum_coverage|min[_-]coverage|"
    r"check-coverage|branches|functions|lines|statements|coverage)\W{0,4}[=:\s]\s*['\"]?(?P<value>\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
COVERAGE_FILES = (
    ".coveragerc", "setup.cfg", "pyproject.toml", "tox.ini", "pytest.ini", "package.json", "jest.config.*",
    "vitest.config.*", "vite.config.*", ".nycrc", ".nycrc.*", "karma.conf.*", "codecov.yml", ".codecov.yml",
    "makefile", "noxfile.py", ".github/workflows/**", ".gitlab-ci.yml", ".ci/**", "*.mk", ".simplecov",
    "phpunit.xml*", "build.gradle*", "pom.xml", ".c8rc*", "go.mk",
)


# Cheap substring screens run before the regexes: almost no changed line contains any of
# these, and ``in`` is ~20x faster than the alternations below. Every alternative of a
# regex contains one of its screen's words (lowercased), so a screen never hides a match.
SKIP_WORDS = ("skip", "xfail", "expectedfailure", "todo", "only", "xit", "xdescribe", "xtest", "xcontext", "fit", "fdescribe", "ignore", "disabled",
              "xspecify", "xscenario", "fcontext", "xgiven", "xwhen", "xthen", "xshould", "xfeature", "xexpect", "xand", "flaky", "fixme",
              "pit(", "pdescribe(", "pcontext(", "pwhen(", "pspecify(", "pentry(", "pdescribetable(", "&& false") + _MORE_SKIP_WORDS
_CASE_WORDS = ("test", "it(", "it (", "it '", 'it "', "specify", "parametrize", ".each", "t.run", "csvsource")
_COVERAGE_WORDS = ("fail", "cov", "threshold", "branches", "functions", "lines", "statements")


def _keep_nonblank(line: str) -> bool:
    return bool(line.strip())


_SKIPS = Screen(SKIP_WORDS, SKIP_RE)
_COVERAGE = Screen(SKIP_WORDS + ASSERT_WORDS + _COVERAGE_WORDS, SKIP_RE, _ASSERT_RE, COVERAGE_RE)
_TEST_WORDS = Screen(SKIP_WORDS + ASSERT_WORDS + _CASE_WORDS, SKIP_RE, _ASSERT_RE, CASE_RE, PARAM_RE)
# Every pre-check of this module with the patterns it guards, for tests/test_screens.py.
SCREENS: dict[str, Screen] = {"skip markers": _SKIPS, "coverage settings": _COVERAGE, "test signals": _TEST_WORDS}


def _KEEP_SKIPS(line: str) -> bool:
    return _SKIPS.search(line) is not None


def _KEEP_COVERAGE(line: str) -> bool:
    return _COVERAGE.search(line) is not None
_FETCH_SCREEN = re.compile(r"\b(?:curl|wget)\b[^\n]*\||\b(?:eval|exec|instance_eval|(?-i:Function)|iex|Invoke-Expression)\b[^\n]*\b(?:open|urlopen|get|fetch|HTTP|DownloadString|iwr|Invoke-WebRequest|irm|Invoke-RestMethod|file_get_contents)\b", re.I)


# A C suite's test registration, commented out or not (round 97: mod_auth_openidc's ``// tcase_add_test(core, …);``).
# (or a C runner's bare call of a case, ``test_node_read_possible();``: mpack's, commented out in blind 237)
_REGISTRATION_RE = re.compile(r"^\s*(?:(?://+|#+|--|;+)\s*)?(?:tcase_add_\w*test\w*|g_test_add\w*|cmocka_unit_test\w*|RUN_TEST\w*|add_test|addTest\w*|"
                              r"test_\w+\s*\(\s*\)\s*;\s*$)\s*\(?|"
                              # …or a case renamed off its runner (``public void xtestRsa…()``: bc-java's, blind 240)
                              r".*\b(?:void|def|func|fn)\s+(?:x|_+|disabled_?|skip_?|DISABLED_)?test\w*\s*\(")


# A test's exit status or a verifying call's result (relay.review.test_checks.failure_made_pass: ``return 1;`` → ``return 0;``,
# ``err = Verify(…)`` → ``_ = Verify(…)``): a coarse screen of both sides.
_RESULT_LINE_RE = re.compile(r"^\s*(?:return\s+(?:-?[01]|EXIT_\w+|true|false|True|False)\s*;?\s*$|exit\s*\(?\s*(?:[01]|EXIT_\w+)\s*\)?\s*;?\s*$|abort\s*\(|"
                             r"(?:_|err|error|ok|rc|ret|res|result|status)\s*:?=\s*[\w.]*(?i:verif|check|validat|authenticat))")


def session_token(line: str) -> bool:
    """A vendor's token in ``line`` (``relay.core.redact``), not a key block or a JWT: those are a crypto or token library's
    test vectors (swift-crypto's PEM tests), where a ``ghp_…`` or ``AKIA…`` is someone's account."""
    return (m := vendor_secret(line)) is not None and not m.group().startswith(("-----BEGIN", "eyJ"))


def _keep_test_signals(line: str) -> bool:
    # Assertions, skip markers, case starts and table rows: what counting cases needs; a line naming an advisory or attack,
    # or a case named for one (a security regression test, see relay.review.risk); a download run (relay.review.fetched_code).
    head = line.lstrip()[:1]
    return (
        _TEST_WORDS.search(line) is not None or _FETCH_SCREEN.search(line) is not None or _REGISTRATION_RE.match(line) is not None
        or (head in "([{p" and bool(head) and ROW_RE.match(line) is not None)
        or advisory_words(line) is not None
        or attack_test_name(line) is not None
        or ("(" in line and COMPARE_CALL_RE.search(line) is not None)  # a check made vacuous (round 117, blind 380's barcode test)
        or LOOP_RE.search(line) is not None  # a loop over the cases, sliced to its first (round 120c)
        or _RESULT_LINE_RE.match(line) is not None  # a failure answered as a pass, a check's result dropped (round 121b)
        or session_token(line)  # a vendor's token pasted into a test (round 124b, relay.review.edit_places)
    )


# Source keeps every line that is code: comment-only lines are left out, so a change whose kept lines are none changed
# only comments and blank lines. A comment naming an advisory or an attack (CVE-…, "quadratic", "attacker") is kept for
# the token rule, and a doc comment's risky code sample (round 17); code_reading's mechanical check reads both as comments.


def _keep_code(prefixes: tuple[str, ...]) -> Callable[[str], bool]:
    def keep(line: str) -> bool:
        text = line.strip()
        if not text:
            return False
        # A comment that pastes a vendor's credential (``# token: npm_…``) is one committed all the same (relay.core.redact).
        return (not comment_only(text, prefixes) or advisory_words(text) is not None or silencing_comment(text) or sample_in_comment(text)
                or vendor_secret(text) is not None or says_default(text)  # round 81: "It defaults to REQUIRE" above a default set to USE
                or _GUARD_ANNOTATION.search(text) is not None or _COMMENTED_EXIT_RE.match(text) is not None
                or requirement_note(text))  # round 122: a specification's MUST made MAY (relay.review.requirement_notes)

    return keep


# A framework's guard written as a doc comment's annotation (round 113: held-out 312's passman, Nextcloud's ``* @NoAdminRequired``
# put on a settings controller's method, a comment line no rule read): it decides who may call the method.
_GUARD_ANNOTATION = re.compile(r"@(?:NoAdminRequired|PublicPage|NoCSRFRequired|NoTwoFactorRequired|PasswordConfirmationRequired|"
                               r"BruteForceProtection|PermitAll|AllowAnonymous|RolesAllowed|Secured|PreAuthorize)\b")


# An exit commented out where it stood (round 121b, held-out 521's PHPAuth README: ``exit();`` → ``// exit();`` after a
# refusal's "Forbidden"): relay.review.pair_slips reads the pair, and the comment is the half that tells.
# (code's shape only: a statement's ``;``, a call's parentheses, or the bare word; "// return value for that function." is prose)
_COMMENTED_EXIT_RE = re.compile(r"^(?://+|#+|--)\s*(?:(?:return|throw|raise)\b[^;]{0,40};|(?:exit|die|abort|sys\.exit|process\.exit|os\.Exit)\s*\([^()]{0,20}\)\s*;?|"
                                r"return|exit|die)\s*$|"
                                # a random fill made a comment (round 123: relay.review.commented_calls.random_fill_commented reads it)
                                r"^(?://+|#+)\s*[\w.:>&*-]*(?:fill_bytes|getrandom|getRandomValues|randomFillSync|RAND_bytes|randombytes_buf|nextBytes|rand\.Read|urandom|token_bytes|random_bytes)\s*\(")


def line_filter(path: str) -> Callable[[str], bool]:
    return _line_filter(reading_path(path))  # a script named without a language is read as its head says (content_kinds)


@functools.lru_cache(maxsize=4096)
def _line_filter(path: str) -> Callable[[str], bool]:
    """The test for "is this changed line of ``path`` one the rules read".

    Decided once per path: a manifest keeps every non-blank line (dependency lines), a
    coverage config its thresholds, a test file its assertions, skip markers, case starts
    and table rows, a source file every line of code (comment-only lines are left out),
    prose its skip markers and lines naming an advisory, any other file only skip markers.
    """
    if is_manifest(path) or glob_any(path, CI_GLOBS):
        return _keep_nonblank  # a CI file's lines tell a version matrix from new steps
    if glob_any(path, APP_MANIFESTS):
        return _keep_nonblank  # an app manifest's value stands on the line under its key (relay.review.platform_lines)
    if basename(path).lower() in _PACKAGE_SETTINGS:
        return _keep_nonblank  # a package manager's settings (.npmrc): each line is a setting (relay.review.line_edits)
    if basename(path).lower() in IGNORE_FILES:
        return _keep_nonblank  # an ignore file: each line is an entry (relay.review.leading_lines names one dropped)
    if path.lower().endswith(".zcml"):
        return _keep_nonblank  # Zope's configuration: each line declares who may do what (round 123: an attribute list's continued line)
    if basename(path).lower() == "tox.ini":
        return _keep_nonblank  # its ``deps`` name packages, one a line (round 54: a look-alike there, relay.review.dependencies)
    if glob_any(path, COVERAGE_FILES):
        # A Makefile, tox.ini or noxfile holds coverage settings and commands that run: both are read.
        return lambda line: _KEEP_COVERAGE(line) or risky_screen(line) or vanishing_checks.screen(line) or MAKE_IGNORED_RE.match(line) is not None
    kind = file_kind(path)
    if kind == "test" and (is_test_script(path) or (is_code(path) and is_test_support(path))):
        code = _keep_code(comment_prefixes(path))  # a script kept among the tests runs, a test's support code runs with each: read
        return lambda line: code(line) or _keep_test_signals(line)
    if kind == "test":
        return _keep_test_signals
    # Code under a folder named for output is read as code too: a generator's own source is as often there, and the review
    # reads it as source when its change is of hand's shape (facts.kind; round 124f: bob's ``gen/templates/…go.tpl``, its
    # ``len(o) == 0`` made ``< 0``, was "comments or blank lines only"); machine-made output stays unread by its rows.
    if kind == "generated" and not is_vendored_code(path) and output_by_folder_name(path):
        code = _keep_code(comment_prefixes(path))  # the generator's head kept too: it tells output from a hand's change
        return lambda line: code(line) or OUTPUT_HEAD_RE.search(line) is not None
    # A build script in a language (build.rs, setup.py, a Gradle or Rake file) runs at every build: read as code, not only
    # its risky words.
    if kind == "source" or (kind in ("example", "build") and is_code(path)) or (kind == "generated" and is_vendored_code(path)):
        # An example is code a reader copies: its lines are read as source's are (a risky line, a guard deleted).
        return _keep_code(comment_prefixes(path))
    if kind == "docs":
        return _keep_doc_signals
    return _keep_skips_or_risky


_PACKAGE_SETTINGS = frozenset({".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", ".pypirc", ".gemrc", ".bunfig.toml", "bunfig.toml", "nuget.config"})




# A guard as a docs code sample writes it: a condition's head, or the refusal under it (relay.review.guard_reading).
_DOC_GUARD_RE = re.compile(r"^\s*(?:\}\s*)?(?:(?:else\s*)?if|elif|elsif|unless|guard)\b.*[:{)]\s*$|^\s*(?:raise|throw)\b|\babort\s*\(|"
                           r"^\s*return\s+(?:False|false|None|nil|null|-1|0)?\s*;?\s*$|^\s*return\b.*\b(?:40[0-9]|Forbidden|Unauthorized)\b")


def _keep_doc_signals(line: str) -> bool:
    # A changelog entry naming an advisory says the change beside it is a security fix; a line of code
    # in the docs that may turn a security value the unsafe way is read as code is (relay.review.risky_lines);
    # so is a sample's guard (a reader copies the sample: its check deleted is a check the reader never writes); so is a
    # sentence telling the reader to commit a credential (relay.review.deciding_tokens, round 32).
    return _KEEP_SKIPS(line) or security_note(line) is not None or risky_screen(line) or edit_turns.screen(line) or docs_samples.is_sample(line) or deciding_tokens.screen(line) or sample_code.screen(line) or sample_code.MODULE_PATH_RE.search(line) is not None or swap_slips.screen(line) or unguarded_swaps.screen(line) or written_slips.screen(line) or _COMMENTED_EXIT_RE.match(line.strip()) is not None or ((  # a route's line holds its guards
        _DOC_GUARD_RE.search(line) is not None or ROUTE_RE.search(line) is not None) and not looks_like_prose(line.strip()))


# An access policy's grant in a data file (round 123: an IAM policy's ``"Action": "kms:*"`` was never kept for the rules,
# so a JSON policy widened to every action read "edit"): relay.review.edit_direction reads it widened.
_POLICY_GRANT_RE = re.compile(r"""^\s*(?:-\s*)?['"]?(?:Action|NotAction|Resource|NotResource|Principal)['"]?\s*:""")


def _keep_skips_or_risky(line: str) -> bool:
    # Settings, build files, other languages' examples: a skip, a maybe-risky line, an image, a lifetime or a port (round 17);
    # a line relay.review.any_language may pair (relay.review.any_screen), in a language no reader claims (a Vim plugin, an Apache .conf: round 30).
    return _KEEP_SKIPS(line) or risky_screen(line) or _POLICY_GRANT_RE.match(line) is not None or unguarded_swaps.GUARD_WORD_RE.search(line) is not None or bool(IMAGE_LINE_RE.search(line) or CONTAINER_USER_RE.search(line)) or subtle_turns.screen(line) or one_token_turns.screen(line) or vanishing_checks.screen(line) or package_values.screen(line) or any_screen.screen(line) or action_line(line) or swap_slips.form_method(line)


def rule_lines(change: FileChange) -> FileChange:
    """``change`` with only the lines the rules read: the kept changed lines its path's filter
    accepts, whole hunks in line order, at most ``READ_LINES`` a side. A symlink's target and a
    submodule's commits are kept as they are: the rules read them whatever the filter says."""
    if change.symlink or change.submodule:
        return change
    keep = line_filter(change.path)

    def side(lines: list[str]) -> list[str]:
        out: list[str] = []
        for i, line in enumerate(lines):
            if keep(line):
                out.append(line)
                if len(out) > READ_LINES:
                    # One past the bound: read_changes knows the side was cut. Past it, the lines that may be a
                    # risky one are still kept (a bounded few): one line slipped into a big change decides.
                    out.extend(_risky_rest(lines[i + 1:], keep))
                    break
        return out

    return msgspec.structs.replace(change, added_lines=side(change.added_lines), removed_lines=side(change.removed_lines))


# Past READ_LINES a side, at most this many lines that may be risky ones are still read (a generated table of
# thousands of lines that mention "token" costs no more than this).
RISKY_REST = 100


def _risky_rest(lines: list[str], keep: Callable[[str], bool]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if risky_screen(line) and keep(line):
            out.append(line)
            if len(out) >= RISKY_REST:
                break
    return out


def _bounded(lines: list[str]) -> list[str]:
    """A side cut to READ_LINES, the risky lines after the cut kept (``rule_lines`` kept only those past it)."""
    return lines[:READ_LINES] + [line for line in lines[READ_LINES:READ_LINES + 1] if risky_screen(line)] + lines[READ_LINES + 1:]


def read_changes(changes: Iterable[FileChange]) -> tuple[list[FileChange], frozenset[str]]:
    """Every change as the rules read it (``rule_lines``), and the files read only in part: those whose
    lines observation kept only in part (a side past its bound per file, or every line past its budget
    for the whole change) or whose kept lines run past ``READ_LINES`` a side."""
    read: list[FileChange] = []
    partial: set[str] = set()
    for c in changes:
        r = rule_lines(c)
        if not (c.symlink or c.submodule or c.binary):
            if len(c.added_lines) < c.additions or len(c.removed_lines) < c.deletions:
                partial.add(c.path)
            if len(r.added_lines) > READ_LINES or len(r.removed_lines) > READ_LINES:
                partial.add(c.path)
                r = msgspec.structs.replace(r, added_lines=_bounded(r.added_lines), removed_lines=_bounded(r.removed_lines))
        read.append(r)
    return read, frozenset(partial)


def line_matters(path: str, line: str) -> bool:
    """Whether a changed line is one the rules read."""
    return line_filter(path)(line)
