"""What kind of file a path is, from the path alone: a test, a manifest, CI, docs, generated output, source…

``file_kind`` names the kind (``relay.review.risk`` ranks files by it, and the rules' scopes admit files by it); the
path classes beside it (a test's path, a lockfile, a manifest, a secret's name) are what the kind is worked out from and
what other readers ask of a path. Which of a file's changed lines the rules read is ``relay.review.file_kinds``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Literal

from relay.core.path_globs import names_file
from relay.review.build_lines import script_among_tests
from relay.review.content_kinds import reading_path

__all__ = [
    "BUILD_GLOBS", "CI_GLOBS", "CODE_EXTS", "FileKind", "HOOK_GLOBS", "KIND_ORDER", "SECRET_GLOBS", "SECRET_TEMPLATES",
    "basename", "dropped_ignore_entry", "file_kind", "glob_any", "is_bare_requirements", "is_code", "is_lockfile", "is_manifest",
    "is_release_notes", "is_secret_path", "is_test_path", "is_test_script", "is_vendored_code", "kind_rank", "output_by_folder_name", "OUTPUT_HEAD_RE",
    "path_kind", "words",
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
    "t/**.t", "*_test.c", "*_test.cc", "*_test.cpp", "test_*.c", "test.c", "tests.c", "test.cc", "test.cpp", "*_unittest.cc", "*_fuzzer.c", "*_fuzzer.cc", "fuzz_*.py",
)


def is_test_script(path: str) -> bool:
    """A script or CI helper kept among the tests (test/phpunit.sh, tests/ci/install.py), not a test of its own
    (``relay.review.build_lines.script_among_tests``)."""
    return _test_script(reading_path(path))


@functools.lru_cache(maxsize=65536)
def _test_script(path: str) -> bool:
    return script_among_tests(path, is_test_name=glob_any(path, _TEST_NAMES), code_exts=CODE_EXTS)


# A module named just "test" among a library's helpers is the library's own code (round 88: chai's lib/chai/utils/test.js,
# the helper every assertion's verdict goes through, was read as a test and its lines skipped). Not any source folder:
# date-fns keeps each function's tests beside it as src/<function>/test.ts.
_SCRIPT_TEST_RE = re.compile(r"^(?:tests?|spec)\.(?:[jt]s|[cm]js)$")
_LIBRARY_DIRS = frozenset({"utils", "util", "helpers"})


_LINT_CONFIG_NAMES = ("eslint.config.*", ".eslintrc", ".eslintrc.*", ".golangci.*", "ruff.toml", ".ruff.toml", ".flake8", ".pylintrc",
                      ".rubocop.yml", "phpstan.neon", "phpstan.neon.dist", ".semgrep.yml", "biome.json", "biome.jsonc", "clippy.toml")


def is_test_path(path: str) -> bool:
    parts = path.lower().split("/")
    # Ruby keeps a gem's tests in test/ and spec/: a folder named test inside lib/ is the library's namespace (rack-test's
    # lib/rack/test/cookie_jar.rb, test-unit's lib/test/unit/: round 90, blind 136 read a cookie jar's check as a test's).
    if parts[0] == "lib" and parts[-1].endswith(".rb"):
        return glob_any(path, _TEST_NAMES)
    # A linter's own config is the project's rules wherever it lives (core-js keeps its ESLint config under tests/eslint/:
    # round 109, blind 227 read its ``'no-eval': OFF`` as a test's line).
    if glob_any(parts[-1], _LINT_CONFIG_NAMES) and not {"fixtures", "fixture", "__fixtures__", "testdata"} & set(parts[:-1]):
        return False
    # Go compiles a test only from a file named *_test.go: a folder named spec is a package (go-tpm-tools' launcher/spec,
    # its launch policy: round 109, blind 213 read two of its checks as a test's).
    if parts[-1].endswith(".go") and not parts[-1].endswith("_test.go") and {"spec", "specs"} & set(parts[:-1]) and not _TEST_DIRS.difference({"spec", "specs"}) & set(parts[:-1]):
        return False
    # A PHP class under a folder named spec is the library's namespace unless named as phpspec names a spec (round 119,
    # held-out 457's php-openapi: src/spec/SecurityScheme.php, its OpenAPI objects).
    if parts[-1].endswith(".php") and not parts[-1].endswith("spec.php") and {"spec", "specs"} & set(parts[:-1]) \
            and not _TEST_DIRS.difference({"spec", "specs"}) & set(parts[:-1]):
        return False
    if any(part in _TEST_DIRS for part in parts[:-1]):
        return True
    if _SCRIPT_TEST_RE.match(parts[-1]) and _LIBRARY_DIRS.intersection(parts[:-1]):
        return False
    return glob_any(path, _TEST_NAMES)


SECRET_GLOBS = (
    ".env", ".env.*", "*.env", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx", "id_rsa*",
    "id_dsa*", "id_ecdsa*", "id_ed25519*", "secrets.*", "secret.*", "credentials", "credentials.*", ".npmrc",
    ".pypirc", ".netrc", ".htpasswd", "kubeconfig", "*.tfvars", ".aws/**", ".ssh/**",
)
SECRET_TEMPLATES = (".example", ".sample", ".template", ".dist", ".tmpl")
_PAGE_EXTS = (".html", ".htm", ".md", ".markdown", ".rst", ".adoc")
_MODULE_EXTS = (".js", ".mjs", ".cjs", ".ts", ".d.ts", ".tsx", ".jsx", ".go", ".rs", ".java", ".kt", ".swift", ".c", ".h", ".cpp", ".cs")

CI_GLOBS = (
    ".github/workflows/**", ".github/actions/**", ".gitlab-ci.yml", ".gitlab-ci.yaml", ".gitlab/**", ".circleci/**",
    "jenkinsfile", "*.jenkinsfile", ".travis.yml", "azure-pipelines.yml", "azure-pipelines.yaml", ".buildkite/**",
    "bitbucket-pipelines.yml", ".drone.yml", "appveyor.yml", ".appveyor.yml", ".ci/**", "cloudbuild.yaml",
    "cloudbuild.yml", ".woodpecker.yml", ".woodpecker/**", "codecov.yml", ".codecov.yml",
    ".cirrus.yml", ".cirrus.star", ".semaphore/**", "buildspec.yml", "codemagic.yaml", ".drone.star",  # round 103: snafu's Cirrus CI
)
HOOK_GLOBS = (".husky/**", ".githooks/**", ".pre-commit-config.yaml", ".pre-commit-hooks.yaml", "lefthook.yml", ".lefthook.yml")

_MANIFESTS = (
    # Requirements of every name: requirements-dev.txt, dev-requirements.txt, test_requirements.txt, pip-tools' .in files.
    "package.json", "*requirements*.txt", "*requirements*.in", "requirements/**.txt", "requirements/**.in", "*constraints*.txt",
    "*requirements*.pip",  # pip reads any name: dj-rest-auth's demo/requirements.pip (blind 137: a squat there read as an example)
    "req.txt", "reqs.txt", "*-req.txt", "*_req.txt", "*-reqs.txt", "*_reqs.txt",  # round 122d: py-readability-metrics' pip-req.txt
    "pyproject.toml", "setup.py",
    "setup.cfg", "*.versions.toml", "pipfile", "cargo.toml", "go.mod", "gemfile", "*.gemspec", "pom.xml", "build.gradle",
    "build.gradle.kts", "composer.json", "*.csproj", "packages.config", "directory.packages.props",
    "environment.yml", "environment.yaml", "mix.exs", "pubspec.yaml", "package.swift", "deno.json", "deno.jsonc",
    "vcpkg.json", "conanfile.txt", "conanfile.py", "*.cabal", "stack.yaml", "rebar.config", "project.clj",
    "deps.edn", "build.sbt", "dune-project", "*.opam", "bower.json", "shard.yml", "podfile",
    # Dependency files of other names: Appraisal's gemfiles/*.gemfile and Gemfile.rails-5.0.x (i18n, blind 183), F#/VB projects, CocoaPods and NuGet specs, Perl, Go dep.
    "*.gemfile", "gemfile.*", "*.fsproj", "*.vbproj", "*.podspec", "*.nuspec", "cpanfile", "gopkg.toml", "paket.dependencies",
    "cartfile", "cartfile.private",  # Carthage's: ``github "Alamofire/Alamofire" ~> 5.0`` (round 88: a look-alike there read as an edit)
)
_LOCKFILES = (
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock",
    "poetry.lock", "pipfile.lock", "pdm.lock", "uv.lock", "cargo.lock", "go.sum", "gemfile.lock",
    "composer.lock", "packages.lock.json", "mix.lock", "pubspec.lock", "podfile.lock", "flake.lock",
    "gradle.lockfile", "deno.lock", "conda-lock.yml", "requirements*.lock", "*.lock", "cartfile.resolved",
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
    # Maven's settings (its mirrors, repositories and servers) and Gradle's dependency verification (round 23).
    "settings.xml", "gradle/verification-metadata.xml",
    # Autoconf's inputs (round 109, blind 231: tpm2-tools' configure.ac turning its hardening off); not Automake's
    # Makefile.am, whose tests/ copy lists the test programs (libgcrypt's, blind 197, read as the test list it is).
    "configure.ac", "configure.in",
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
# The files that keep paths out of a commit, an image or a published package: every line is an entry (relay.review.file_kinds
# reads each; relay.review.leading_lines names an entry dropped).
IGNORE_FILES = frozenset({".gitignore", ".dockerignore", ".npmignore", ".gcloudignore", ".vercelignore", ".helmignore", ".slugignore"})


# An ignore file's entry dropped lets in what it kept out (a key written to ``out/``, a ``.env``): one naming a key or a
# secret is said first.
_SECRETISH_ENTRY = re.compile(r"(?i)key|pem|\.env|secret|cred|token|p12|pfx|keystore|passw|\.crt|id_rsa")


def dropped_ignore_entry(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The entry an ignore file's change drops and does not write again (one that names a key or a secret first); None
    for any other file, or when nothing was dropped."""
    if path.rsplit("/", 1)[-1].lower() not in IGNORE_FILES:
        return None
    kept = {ln.strip().strip("/") for ln in added}  # ``build`` written again as ``/build/`` is the same entry
    dropped = [s for ln in removed if (s := ln.strip()) and not s.startswith(("#", "!")) and s.strip("/") not in kept]
    return next((s for s in dropped if _SECRETISH_ENTRY.search(s)), dropped[0]) if dropped else None
FileKind = Literal["source", "ci", "manifest", "build", "lockfile", "data", "test", "example", "generated", "docs"]
KIND_ORDER: dict[str, int] = {
    "source": 0, "ci": 1, "manifest": 2, "build": 3, "lockfile": 4, "data": 5, "test": 6, "example": 7, "generated": 8, "docs": 9,
}
CODE_EXTS = frozenset(
    "py pyi pyx pxd js mjs cjs jsx ts mts cts tsx rs go java kt kts scala groovy c h cc cpp cxx hpp hh m mm swift rb php "
    "cs fs vb lua pl pm r jl ex exs erl hrl clj cljs hs ml mli elm dart zig nim sh bash zsh ps1 sql vue svelte".split()
    # A grammar's or a lexer's source (yacc/bison, flex, Ragel, ANTLR, PEG, re2c, jison): its actions are the host
    # language's code, compiled into the parser; a check turned there is one turned in the source (round 33).
    + "y yy ypp l ll lex rl g4 peg leg re2c jison lalrpop".split()
    # Python under a server's own extension (round 106: python-stdnum's online_check/stdnum.wsgi, blind 196) and Windows'.
    + "wsgi pyw".split()
    # Code included into code: C's and PHP's ``.inc``, C++'s inline and template bodies, CUDA (round 112: held-out 299's
    # XKCP ``KeccakSponge.inc``, its rate check's ``||`` made ``&&``, was read as data and no line reader saw it).
    + "inc inl ipp tcc cu cuh".split()
    # Languages read as data until round 120 (held-out 488's node-cache: a TTL's multiplier in CoffeeScript raised
    # sixtyfold, and no line reader saw it): CoffeeScript, Crystal, Solidity, Haxe, Tcl, fish, PowerShell's modules, F#'s
    # scripts and signatures, the Lisps, Gleam, PureScript, GDScript, Vala, Odin, Raku, Nushell, awk, ksh.
    + "coffee litcoffee cr sol hx tcl fish psm1 fsx fsi el lisp scm rkt cljc gleam purs gd vala odin raku nu awk ksh".split()
)
_DOC_EXTS = frozenset("md markdown rst adoc asciidoc txt rdoc org textile pod tex msg".split())
_DOC_NAMES = (
    "readme*", "changelog*", "changes", "changes.*", "history*", "news", "news.*", "authors*", "contributors*", "license*",
    "licence*", "copying*", "notice*", "security*", "code_of_conduct*", "contributing*", "support*", "maintainers*", "faq*",
)
_DOC_DIRS = {"doc", "docs", "documentation", "site", "sites", "man", "changelog", "changelog.d", "changes", "newsfragments", "news", "wiki"}
_CONFIG_EXTS = frozenset("yml yaml json toml xml ini cfg conf properties plist".split())
# The folders a package's code sits under: a docs folder below one is a package of the code (com/acme/docs/), not a page.
_SOURCE_ROOTS = {"src", "lib", "main", "java", "kotlin", "scala", "app", "pkg", "internal", "sources", "source"}
# Android's resources of a build file's name (res/xml/settings.xml: a preference screen, not Maven's settings).
_ANDROID_RESOURCE_NAMES = {"settings.xml"}
_APP_IN_TESTS_DIRS = {"dummy", "example_app", "dummy_app", "test_app"}
_EXAMPLE_DIRS = {"example", "examples", "demo", "demos", "sample", "samples", "tutorial", "tutorials", "bench", "benches", "benchmark", "benchmarks", "cookbook"}
# Other people's source: vendored copies (pip's "_vendor", joblib's "externals") are reviewed upstream; in a change they
# are a dependency update, not the project's source — but a worker can hide a line there as well as anywhere, so their
# lines are read. (dynaconf's "vendor_src", blind 166: a vendored YAML library's own loaders outranked the project's
# safe_load → load.)
_VENDORED_DIRS = {"vendor", "_vendor", "vendored", "vendors", "vendor_src", "vendor-src", "third_party", "third-party", "thirdparty", "externals"}
# Output, and those: ranked as generated.
_GENERATED_DIRS = _VENDORED_DIRS | {"dist", "node_modules", "__snapshots__", "tap-snapshots", "__generated__", "generated", "gen"}
_GENERATED_NAMES = ("*.min.js", "*.min.css", "*.map", "*_pb2.py", "*_pb2_grpc.py", "*.pb.go", "*.generated.*", "*.g.dart", "*.snap")


def file_kind(path: str) -> FileKind:
    """What a file is: from its path, or its reading path (a script named without a language, ``content_kinds``)."""
    return path_kind(reading_path(path))


# Go's example test files (``example_test.go``, ``example_client_test.go``, ``examples_test.go``): their ``func Example…``
# are the usage pkg.go.dev shows and readers copy (blind 77's go-ntlmssp: ``InsecureSkipVerify: true`` in one, read as
# a test's own code and left low).
_GO_EXAMPLE_RE = re.compile(r"^examples?(?:_\w+)?_test\.go$|_examples?_test\.go$")


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
    parts = path.lower().split("/")
    dirs, name = parts[:-1], parts[-1]
    if glob_any(path, BUILD_GLOBS) and not (name in _ANDROID_RESOURCE_NAMES and "res" in dirs):
        return "build"
    ext = name.rsplit(".", 1)[-1] if "." in name.lstrip(".") else ""
    if any(d in _GENERATED_DIRS for d in dirs) or glob_any(path, _GENERATED_NAMES):
        return "generated"
    # A Rails engine's example app under spec/ (spec/dummy, spec/example_app) is an application's code, not a test.
    if any(d in _APP_IN_TESTS_DIRS for d in dirs[1:]) and ext in CODE_EXTS | {"erb", "haml", "slim"}:
        return "example"
    if _GO_EXAMPLE_RE.search(name):
        return "example"  # Go's example tests are the package's documented usage, shown on its docs page (round 55)
    if is_test_path(path):
        return "docs" if ext in _DOC_EXTS and ext != "txt" else "test"
    # Prose by its name (SECURITY, CHANGES, NEWS…) unless the name has a language's extension:
    # werkzeug's security.py is its path-safety code, not a security policy.
    # A settings file named like prose (config/security.yml) is settings; code in a package folder named docs
    # (src/main/kotlin/…/docs/DocsController.kt) is the application's code (round 23).
    # Go builds every .go file of a folder into its package, a folder named doc too (round 122b, held-out 567's did-go:
    # ``doc/did/doc.go`` is the DID document parser, read as a page and left low).
    if ext in _DOC_EXTS or (ext not in CODE_EXTS | _CONFIG_EXTS and glob_any(path, _DOC_NAMES)) or ext != "go" and any(
            d in _DOC_DIRS and not (ext in CODE_EXTS and any(s in _SOURCE_ROOTS for s in dirs[:i])) for i, d in enumerate(dirs)):
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

@functools.lru_cache(maxsize=65536)
def is_vendored_code(path: str) -> bool:
    """Source code in a vendored folder (not minified or generated output): ranked as generated, read line by line."""
    parts = path.lower().split("/")
    return (any(d in _VENDORED_DIRS for d in parts[:-1]) and is_code(path) and not glob_any(path, _GENERATED_NAMES)
            and "node_modules" not in parts[:-1])


# What a generator writes at the head of its output, so no one edits it by hand (Go's "Code generated … DO NOT EDIT.",
# Facebook's "@generated", protoc's and many others' "DO NOT EDIT"): output, whatever folder it stands in.
OUTPUT_HEAD_RE = re.compile(r"\bCode generated\b|@generated\b|\bDO NOT EDIT\b|\bauto-?generated\b", re.IGNORECASE)


# The folders whose name alone says "a tool wrote this" (not vendored code, bundles, packages or snapshots, which are kept
# for what they are whatever their size).
_OUTPUT_NAMED_DIRS = {"gen", "generated", "__generated__"}


def output_by_folder_name(path: str) -> bool:
    """Code ranked as generated only because a folder on its path is named for output (``gen/``, ``generated/``, a
    ``dist/`` under ``src/``): a code generator's own source lives there as often as what it writes (ogen's ``gen/write.go``).
    Whether it is code is asked of the path it is read under (a ``.go.tpl`` template is Go: round 124f, held-out 670's
    bob), outside the cache: that path is the review's, and the cache outlives it."""
    return is_code(path) and _output_folder(path)


@functools.lru_cache(maxsize=65536)
def _output_folder(path: str) -> bool:
    dirs = path.lower().split("/")[:-1]
    # A ``dist`` folder under a source root is a module of the code (rustup's ``src/dist/download.rs``), not a bundle.
    named = [d in _OUTPUT_NAMED_DIRS or d == "dist" and any(s in _SOURCE_ROOTS for s in dirs[:i]) for i, d in enumerate(dirs)]
    return any(named) and not glob_any(path, _GENERATED_NAMES) and not any(d in _GENERATED_DIRS and not is_named for d, is_named in zip(dirs, named))


def is_code(path: str) -> bool:
    name = basename(reading_path(path)).lower()
    return "." in name and name.rsplit(".", 1)[-1] in CODE_EXTS


def is_secret_path(path: str) -> bool:
    """A file that holds secrets by its name (.env, keys, credentials), not a template of one."""
    name = basename(path).lower()
    # A page about a secret (a generated API docs page ``docs/classes/Secret.html``, round 56: blind 79's otpauth) holds
    # prose, not the secret: a name of the ``secret.*`` kind read as a page when it ends as one.
    # A module of code named for secrets (blind 141's secrets.js, its ``secrets.js`` and ``secrets.js.d.ts``) is a library's
    # code; a settings script (``secrets.py``, ``secrets.rb``, ``secrets.sh``) may hold them, and stays one.
    return (glob_any(path, SECRET_GLOBS) and not name.endswith(SECRET_TEMPLATES) and not (name.endswith(_PAGE_EXTS) and not name.startswith("."))
            and not (name.startswith("secret") and name.endswith(_MODULE_EXTS)))
