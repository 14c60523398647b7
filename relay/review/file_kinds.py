"""What kind of file a path is, and which of its changed lines are worth keeping.

Observation hands review every changed line of a file (whole hunks, bounded); ``rule_lines``
keeps the ones the rules read (``line_filter`` says which: code, not comments; a test's
assertions and cases…), all of them, and ``is_secret_path`` tells observation which new git-ignored files are worth
listing. ``relay.review.risk`` ranks files by the kind given here (``file_kind``: source, test, docs, CI, manifest…) and by what the kept lines say.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Literal

import msgspec

from relay.core.contracts import FileChange
from relay.core.path_globs import names_file
from relay.review import docs_samples, edit_turns, one_token_turns, subtle_turns  # a docs sample's lines the code and turn readers read (rounds 15, 20)
from relay.review.build_lines import IMAGE_LINE_RE, script_among_tests
from relay.review.dropped_bounds import CONTAINER_USER_RE  # the user a container runs as (a Dockerfile's USER removed)
from relay.review.classic_places import SKIP_SHAPES, SKIP_WORDS as _MORE_SKIP_WORDS
from relay.review.content_kinds import reading_path
from relay.review.file_subjects import subject
from relay.review.comment_samples import sample_in_comment
from relay.review.code_reading import ASSERT_WORDS, CASE_RE, PARAM_RE, ROW_RE
from relay.review.line_shapes import READ_LINES, Screen, comment_only
from relay.review.platform_lines import APP_MANIFESTS, silencing_comment
from relay.review.risky_lines import looks_like_prose, risky_screen
from relay.review.slipped_lines import ROUTE_RE
from relay.review.security_reading import advisory_words, attack_test_name, security_note
from relay.review.test_support import is_test_support

__all__ = [
    "SKIP_WORDS",
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

# --------------------------------------------------------------------------- path classes


def basename(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def words(path: str) -> list[str]:
    # Split camelCase before lowercasing so "authMiddleware.ts" yields "auth", "middleware".
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", path)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


@functools.lru_cache(maxsize=65536)
def glob_any(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether the lowercased ``path`` is a file one of the table's lowercase patterns names, at any depth
    (``relay.core.path_globs.names_file``: the pattern language of the policy's paths, one meaning)."""
    return names_file(path.lower(), patterns)


# Fuzz targets are harnesses that feed a parser inputs, as tests do (cargo-fuzz's fuzz/, oss-fuzz).
_TEST_DIRS = {"test", "tests", "__tests__", "spec", "specs", "testing", "e2e", "testdata", "fuzz", "fuzzing", "fuzz_targets", "oss-fuzz"}
_TEST_NAMES = (
    "test_*.py", "*_test.py", "conftest.py", "*_test.go", "*.test.[jt]s", "*.test.[jt]sx", "*.spec.[jt]s",
    "*.spec.[jt]sx", "*.test.mjs", "*.spec.mjs", "*test.java", "*tests.java", "*tests.cs", "*test.cs",
    "*_spec.rb", "*_test.rb", "*test.php", "*_test.exs", "*tests.swift", "*test.kt",
    # A file named just "test"/"tests": a package's one test script (test.js at the root of many npm
    # packages) or Rust's in-crate test module (src/tests.rs, foo_tests.rs).
    "test.[jt]s", "tests.[jt]s", "test.[cm]js", "spec.[jt]s", "test.py", "tests.py", "tests.rs", "*_tests.rs",
    "t/**.t", "*_test.c", "*_test.cc", "*_test.cpp", "test_*.c", "*_unittest.cc", "*_fuzzer.c", "*_fuzzer.cc", "fuzz_*.py",
)


def is_test_script(path: str) -> bool:
    """A script or CI helper kept among the tests (test/phpunit.sh, tests/ci/install.py), not a test of its own
    (``relay.review.build_lines.script_among_tests``)."""
    return _test_script(reading_path(path))


@functools.lru_cache(maxsize=65536)
def _test_script(path: str) -> bool:
    return script_among_tests(path, is_test_name=glob_any(path, _TEST_NAMES), code_exts=CODE_EXTS)


def is_test_path(path: str) -> bool:
    parts = path.lower().split("/")
    if any(part in _TEST_DIRS for part in parts[:-1]):
        return True
    return glob_any(path, _TEST_NAMES)


SECRET_GLOBS = (
    ".env", ".env.*", "*.env", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx", "id_rsa*",
    "id_dsa*", "id_ecdsa*", "id_ed25519*", "secrets.*", "secret.*", "credentials", "credentials.*", ".npmrc",
    ".pypirc", ".netrc", ".htpasswd", "kubeconfig", "*.tfvars", ".aws/**", ".ssh/**",
)
SECRET_TEMPLATES = (".example", ".sample", ".template", ".dist", ".tmpl")

CI_GLOBS = (
    ".github/workflows/**", ".github/actions/**", ".gitlab-ci.yml", ".gitlab-ci.yaml", ".gitlab/**", ".circleci/**",
    "jenkinsfile", "*.jenkinsfile", ".travis.yml", "azure-pipelines.yml", "azure-pipelines.yaml", ".buildkite/**",
    "bitbucket-pipelines.yml", ".drone.yml", "appveyor.yml", ".appveyor.yml", ".ci/**", "cloudbuild.yaml",
    "cloudbuild.yml", ".woodpecker.yml", ".woodpecker/**", "codecov.yml", ".codecov.yml",
)
HOOK_GLOBS = (".husky/**", ".githooks/**", ".pre-commit-config.yaml", ".pre-commit-hooks.yaml", "lefthook.yml", ".lefthook.yml")

_MANIFESTS = (
    # Requirements of every name: requirements-dev.txt, dev-requirements.txt, test_requirements.txt, pip-tools' .in files.
    "package.json", "*requirements*.txt", "*requirements*.in", "requirements/**.txt", "requirements/**.in", "*constraints*.txt",
    "pyproject.toml", "setup.py",
    "setup.cfg", "*.versions.toml", "pipfile", "cargo.toml", "go.mod", "gemfile", "*.gemspec", "pom.xml", "build.gradle",
    "build.gradle.kts", "composer.json", "*.csproj", "packages.config", "directory.packages.props",
    "environment.yml", "environment.yaml", "mix.exs", "pubspec.yaml", "package.swift", "deno.json", "deno.jsonc",
    "vcpkg.json", "conanfile.txt", "conanfile.py", "*.cabal", "stack.yaml", "rebar.config", "project.clj",
    "deps.edn", "build.sbt", "dune-project", "*.opam", "bower.json", "shard.yml", "podfile",
    # Dependency files of other names: Appraisal's gemfiles/*.gemfile, F#/VB projects, CocoaPods and NuGet specs, Perl, Go dep.
    "*.gemfile", "*.fsproj", "*.vbproj", "*.podspec", "*.nuspec", "cpanfile", "gopkg.toml", "paket.dependencies",
)
_LOCKFILES = (
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock",
    "poetry.lock", "pipfile.lock", "pdm.lock", "uv.lock", "cargo.lock", "go.sum", "gemfile.lock",
    "composer.lock", "packages.lock.json", "mix.lock", "pubspec.lock", "podfile.lock", "flake.lock",
    "gradle.lockfile", "deno.lock", "conda-lock.yml", "requirements*.lock", "*.lock",
)
BUILD_GLOBS = (
    "makefile", "gnumakefile", "*.mk", "cmakelists.txt", "*.cmake", "dockerfile", "dockerfile.*", "*.dockerfile",
    "docker-compose*.yml", "docker-compose*.yaml", "compose.yml", "compose.yaml", "tox.ini", "noxfile.py",
    "webpack.config.*", "vite.config.*", "rollup.config.*", "esbuild.config.*", "tsconfig*.json",
    "babel.config.*", ".babelrc", "gradle.properties", "settings.gradle*", "build", "build.bazel", "workspace",
    "workspace.bazel", "module.bazel", ".bazelrc", "meson.build", "build.rs", "justfile", "rakefile",
    "gulpfile.*", "gruntfile.*", "next.config.*", "nuxt.config.*", "svelte.config.*", "turbo.json",
    "nx.json", "lerna.json", "pnpm-workspace.yaml", ".gitattributes", ".gitmodules", ".gitignore",
    "manifest.in", "setup.py", "setup.cfg", "pyproject.toml", "cargo.toml", "pom.xml", "build.gradle",
    "build.gradle.kts", ".dockerignore", "procfile", "vercel.json", "netlify.toml", "fly.toml",
)
# Not "changelog": a changelog/ folder holds news fragments far more often than Liquibase files.
def is_lockfile(path: str) -> bool:
    return glob_any(path, _LOCKFILES)


def is_bare_requirements(path: str) -> bool:
    """A pip requirements file named without an extension in a requirements folder (falcon's requirements/tests)."""
    parts = path.lower().split("/")
    return len(parts) >= 2 and parts[-2] in ("requirements", "reqs") and "." not in parts[-1]


def is_manifest(path: str) -> bool:
    return (glob_any(path, _MANIFESTS) or is_bare_requirements(path)) and not is_lockfile(path)


# --------------------------------------------------------------------------- file kinds

# What a file is decides which rules apply to it (a path word makes source risky, never a
# README) and breaks ties in the review order (source before tests and docs).
FileKind = Literal["source", "ci", "manifest", "build", "lockfile", "data", "test", "example", "generated", "docs"]
KIND_ORDER: dict[str, int] = {
    "source": 0, "ci": 1, "manifest": 2, "build": 3, "lockfile": 4, "data": 5, "test": 6, "example": 7, "generated": 8, "docs": 9,
}
CODE_EXTS = frozenset(
    "py pyi pyx pxd js mjs cjs jsx ts mts cts tsx rs go java kt kts scala groovy c h cc cpp cxx hpp hh m mm swift rb php "
    "cs fs vb lua pl pm r jl ex exs erl hrl clj cljs hs ml mli elm dart zig nim sh bash zsh ps1 sql vue svelte".split()
)
_DOC_EXTS = frozenset("md markdown rst adoc asciidoc txt rdoc org textile pod tex msg".split())
_DOC_NAMES = (
    "readme*", "changelog*", "changes", "changes.*", "history*", "news", "news.*", "authors*", "contributors*", "license*",
    "licence*", "copying*", "notice*", "security*", "code_of_conduct*", "contributing*", "support*", "maintainers*", "faq*",
)
_DOC_DIRS = {"doc", "docs", "documentation", "site", "sites", "man", "changelog", "changelog.d", "changes", "newsfragments", "news", "wiki"}
_APP_IN_TESTS_DIRS = {"dummy", "example_app", "dummy_app", "test_app"}
_EXAMPLE_DIRS = {"example", "examples", "demo", "demos", "sample", "samples", "tutorial", "tutorials", "bench", "benches", "benchmark", "benchmarks", "cookbook"}
# Output and other people's code: vendored copies (pip's "_vendor", joblib's "externals") are
# reviewed upstream; in a change they are a dependency update, not the project's source.
_GENERATED_DIRS = {
    "dist", "node_modules", "vendor", "_vendor", "vendored", "third_party", "third-party", "thirdparty", "externals",
    "__snapshots__", "tap-snapshots", "__generated__", "generated", "gen",
}
# Of those, the folders of other people's source: a worker can hide a line there as well as anywhere, so its lines are read.
_VENDORED_DIRS = {"vendor", "_vendor", "vendored", "third_party", "third-party", "thirdparty", "externals"}
_GENERATED_NAMES = ("*.min.js", "*.min.css", "*.map", "*_pb2.py", "*_pb2_grpc.py", "*.pb.go", "*.generated.*", "*.g.dart", "*.snap")


def file_kind(path: str) -> FileKind:
    """What a file is: from its path, or its reading path (a script named without a language, ``content_kinds``)."""
    return path_kind(reading_path(path))


@functools.lru_cache(maxsize=65536)
def path_kind(path: str) -> FileKind:
    """What a file is, from its path alone: config kinds first (a CI file under docs/ is CI),
    then generated output, tests, prose, examples, and source by its extension."""
    if is_lockfile(path):
        return "lockfile"
    if glob_any(path, CI_GLOBS) or glob_any(path, HOOK_GLOBS):
        return "ci"
    if is_manifest(path):
        return "manifest"
    if glob_any(path, BUILD_GLOBS):
        return "build"
    parts = path.lower().split("/")
    dirs, name = parts[:-1], parts[-1]
    ext = name.rsplit(".", 1)[-1] if "." in name.lstrip(".") else ""
    if any(d in _GENERATED_DIRS for d in dirs) or glob_any(path, _GENERATED_NAMES):
        return "generated"
    # A Rails engine's example app under spec/ (spec/dummy, spec/example_app) is an application's code, not a test.
    if any(d in _APP_IN_TESTS_DIRS for d in dirs[1:]) and ext in CODE_EXTS | {"erb", "haml", "slim"}:
        return "example"
    if is_test_path(path):
        return "docs" if ext in _DOC_EXTS and ext != "txt" else "test"
    # Prose by its name (SECURITY, CHANGES, NEWS…) unless the name has a language's extension:
    # werkzeug's security.py is its path-safety code, not a security policy.
    if ext in _DOC_EXTS or (ext not in CODE_EXTS and glob_any(path, _DOC_NAMES)) or any(d in _DOC_DIRS for d in dirs):
        return "docs"
    if any(d in _EXAMPLE_DIRS for d in dirs):
        return "example"
    if ext in CODE_EXTS:
        return "source"
    return "data"


_RELEASE_NOTE_NAMES = ("changelog*", "changes", "changes.*", "history*", "news", "news.*", "release-notes*", "release_notes*",
                       "releasenotes*", "releases.*", "whatsnew*", "whats_new*")
_RELEASE_NOTE_DIRS = {"changelog", "changelog.d", "changes", "newsfragments", "news", "release-notes", "releasenotes", "whatsnew"}


def is_release_notes(path: str) -> bool:
    """A changelog, a news fragment, release notes: what changed, told in prose (its code spans run nowhere)."""
    parts = path.lower().split("/")
    return any(d in _RELEASE_NOTE_DIRS for d in parts[:-1]) or glob_any(basename(path), _RELEASE_NOTE_NAMES)


def kind_rank(path: str) -> int:
    """Tie-break in the review order: at equal risk, source first and prose last."""
    return KIND_ORDER[file_kind(path)]


# --------------------------------------------------------------------------- line signals

# Lines the rules read of a test file (``line_filter``): assertions, skip markers, case starts, table rows.
_ASSERT_RE = re.compile(
    r"\bassert\b|\bassert[A-Z_]\w*\s*\(|\bassert_\w+!?\s*\(|\bexpect\s*\(|\.should\b|\bshould\.|"
    r"\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\b|\brequire\.\w+\(|\bXCTAssert|\bverify\s*\(|"
    r"\bpytest\.raises\b|\bassertThat\b|\bself\.fail\(|\btoBe\w*\(|\btoEqual\(|\btoThrow\w*\(|"
    r"\bt\.(?:equal|not|same|notSame|strictSame|match|notMatch|ok|notOk|throws|doesNotThrow|rejects|resolves|has|hasStrict|error|fail)\s*\("
)
SKIP_RE = re.compile(
    r"@pytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.(?:skip|xfail)\s*\(|@unittest\.(?:skip\w*|expectedFailure)\b|"
    r"\bself\.skipTest\s*\(|\b(?:it|test|describe|context|suite)\.(?:skip|todo|only)\s*\(|"
    # A project's own test helper skipped the same way (testSql.skip(…), itBehavesLike.only(…), queryTest.skip(…)).
    r"\b(?:(?:test|it|spec|describe)[A-Z]\w*|[a-z]\w*(?:Test|Spec|Case|Suite))\.(?:skip|only)\s*\(|"
    r"\b(?:xit|xdescribe|xtest|xcontext|fit|fdescribe)\s*\(|\bt\.Skip(?:f|Now)?\s*\(|@(?:\w+\.)*(?:Ignore|Disabled)\b|"
    r"#\[ignore\]|@Test\b.*\.disabled\b|\bskip\s*\(\s*['\"]|\bmarkTestSkipped\(|\[Ignore\]|\[Fact\(Skip|"
    # RSpec's and minitest-spec's forms without parentheses ("xit 'verifies the host' do").
    r"^\s*(?:xit|xdescribe|xcontext|xspecify|xscenario|fit|fdescribe|fcontext)\s+['\"]|" + SKIP_SHAPES  # other frameworks' (round 11)
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
              "xspecify", "xscenario", "fcontext") + _MORE_SKIP_WORDS
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


def _keep_test_signals(line: str) -> bool:
    # Assertions, skip markers, case starts and table rows: what counting cases needs; a line naming an advisory or attack,
    # or a case named for one (a security regression test, see relay.review.risk); a download run (relay.review.fetched_code).
    head = line.lstrip()[:1]
    return (
        _TEST_WORDS.search(line) is not None or _FETCH_SCREEN.search(line) is not None
        or (head in "([{p" and bool(head) and ROW_RE.match(line) is not None)
        or advisory_words(line) is not None
        or attack_test_name(line) is not None
    )


# Source keeps every line that is code: comment-only lines are left out, so a change whose kept lines are none changed
# only comments and blank lines. A comment naming an advisory or an attack (CVE-…, "quadratic", "attacker") is kept for
# the token rule, and a doc comment's risky code sample (round 17); code_reading's mechanical check reads both as comments.
_HASH_COMMENT_EXTS = frozenset("py pyi pyx pxd rb sh bash zsh pl pm r ex exs jl nim toml yaml yml cmake".split())
_DASH_COMMENT_EXTS = frozenset("sql lua hs elm".split())


def _comment_prefixes(path: str) -> tuple[str, ...]:
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if ext in _HASH_COMMENT_EXTS:
        return ("#",)
    if ext in _DASH_COMMENT_EXTS:
        return ("--",)
    return ("//", "/*", "*", "#!")


def _keep_code(prefixes: tuple[str, ...]) -> Callable[[str], bool]:
    def keep(line: str) -> bool:
        text = line.strip()
        if not text:
            return False
        return not comment_only(text, prefixes) or advisory_words(text) is not None or silencing_comment(text) or sample_in_comment(text)

    return keep


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
    if glob_any(path, COVERAGE_FILES):
        # A Makefile, tox.ini or noxfile holds coverage settings and commands that run: both are read.
        return lambda line: _KEEP_COVERAGE(line) or risky_screen(line)
    kind = file_kind(path)
    if kind == "test" and (is_test_script(path) or (_is_code(path) and is_test_support(path))):
        code = _keep_code(_comment_prefixes(path))  # a script kept among the tests runs, a test's support code runs with each: read
        return lambda line: code(line) or _keep_test_signals(line)
    if kind == "test":
        return _keep_test_signals
    if kind == "source" or (kind == "example" and _is_code(path)) or (kind == "generated" and is_vendored_code(path)):
        # An example is code a reader copies: its lines are read as source's are (a risky line, a guard deleted).
        return _keep_code(_comment_prefixes(path))
    if kind == "docs":
        return _keep_doc_signals
    return _keep_skips_or_risky


_PACKAGE_SETTINGS = frozenset({".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", ".pypirc", ".gemrc", ".bunfig.toml", "bunfig.toml", "nuget.config"})


@functools.lru_cache(maxsize=65536)
def is_vendored_code(path: str) -> bool:
    """Source code in a vendored folder (not minified or generated output): ranked as generated, read line by line."""
    parts = path.lower().split("/")
    return (any(d in _VENDORED_DIRS for d in parts[:-1]) and _is_code(path) and not glob_any(path, _GENERATED_NAMES)
            and "node_modules" not in parts[:-1])


def _is_code(path: str) -> bool:
    name = basename(reading_path(path)).lower()
    return "." in name and name.rsplit(".", 1)[-1] in CODE_EXTS


# A guard as a docs code sample writes it: a condition's head, or the refusal under it (relay.review.guard_reading).
_DOC_GUARD_RE = re.compile(r"^\s*(?:\}\s*)?(?:(?:else\s*)?if|elif|elsif|unless|guard)\b.*[:{)]\s*$|^\s*(?:raise|throw)\b|\babort\s*\(|"
                           r"^\s*return\s+(?:False|false|None|nil|null|-1|0)?\s*;?\s*$|^\s*return\b.*\b(?:40[0-9]|Forbidden|Unauthorized)\b")


def _keep_doc_signals(line: str) -> bool:
    # A changelog entry naming an advisory says the change beside it is a security fix; a line of code
    # in the docs that may turn a security value the unsafe way is read as code is (relay.review.risky_lines);
    # so is a sample's guard (a reader copies the sample: its check deleted is a check the reader never writes).
    return _KEEP_SKIPS(line) or security_note(line) is not None or risky_screen(line) or edit_turns.screen(line) or docs_samples.is_sample(line) or ((  # a route's line holds its guards
        _DOC_GUARD_RE.search(line) is not None or ROUTE_RE.search(line) is not None) and not looks_like_prose(line.strip()))


def _keep_skips_or_risky(line: str) -> bool:
    # Settings, build files, other languages' examples: a skip, a maybe-risky line, an image, a lifetime or a port (round 17).
    return _KEEP_SKIPS(line) or risky_screen(line) or bool(IMAGE_LINE_RE.search(line) or CONTAINER_USER_RE.search(line)) or subtle_turns.screen(line) or one_token_turns.screen(line)


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

def is_secret_path(path: str) -> bool:
    """A file that holds secrets by its name (.env, keys, credentials), not a template of one."""
    return glob_any(path, SECRET_GLOBS) and not basename(path).lower().endswith(SECRET_TEMPLATES)
