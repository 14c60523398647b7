"""Round 33: build files, lockfiles, examples, docs samples and grammars read by their lines, not by their kind.

Each class fires in several ecosystems and stays quiet on its look-alikes (the same shape turned the safe way, a test
file, a comment, a pin moved to another pin, the same repository at another revision, a sample that quotes its value).
"""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.facts import RiskContext
from relay.review.file_kinds import read_changes
from relay.review.path_kinds import file_kind
from relay.review.risk import assess_all

__all__: list[str] = []


def _review(path: str, removed: list[str], added: list[str]) -> FileChange:
    change = FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)
    read, partial = read_changes([change])
    return assess_all(read, RiskContext(partial=partial))[0]


def _said(path: str, removed: list[str], added: list[str], phrase: str) -> bool:
    return any(r.startswith(phrase) for r in _review(path, removed, added).reasons)


MOVING = "fetches a dependency at a moving ref"


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("tests/CMakeLists.txt", ["  GIT_TAG 5d4c3b2a19087f6e5d4c3b2a19087f6e5d4c3b2a"], ["  GIT_TAG develop"]),
    ("subprojects/libfoo.wrap", ["revision = 2.4.1"], ["revision = head"]),
    ("bazel/repos.bzl", ['    tag = "v0.9.3",'], ['    tag = "nightly",']),
    ("pyproject.toml", ['mylib = { git = "https://example.org/mylib.git", rev = "9f8e7d6" }'], ['mylib = { git = "https://example.org/mylib.git", rev = "main" }']),
])
def test_a_pinned_ref_moved_to_a_branch_is_named(path: str, removed: list[str], added: list[str]) -> None:
    assert any(r.startswith((MOVING, "takes a source from a moving branch")) for r in _review(path, removed, added).reasons)


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("tests/CMakeLists.txt", ["  GIT_TAG 5d4c3b2a19087f6e5d4c3b2a19087f6e5d4c3b2a"], ["  GIT_TAG 0a9b8c7d6e5f40312a9b8c7d6e5f40312a9b8c7d"]),  # another pin
    ("tests/CMakeLists.txt", ["  GIT_TAG v1.2.0"], ["  GIT_TAG ${DEP_TAG}"]),  # a variable
    ("subprojects/libfoo.wrap", ["revision = head"], ["revision = 2.4.1"]),  # pinned the safe way
    ("tests/CMakeLists.txt", ["  GIT_SHALLOW ON"], ["  GIT_SHALLOW OFF"]),  # not a ref
])
def test_a_pin_kept_or_made_stays_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert not _said(path, removed, added, MOVING)


COMMENTED = "comments out a test"


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("tests/CMakeLists.txt", ["add_test(NAME bad_input COMMAND decode ${DATA}/bad.bin)"], ["#add_test(NAME bad_input COMMAND decode ${DATA}/bad.bin) # slow"]),
    ("test/meson.build", ["test('overlong', t_exe, args: ['overlong.txt'])"], ["# test('overlong', t_exe, args: ['overlong.txt'])"]),
    ("pkg/BUILD.bazel", ['go_test(name = "reject_test", srcs = ["reject_test.go"])'], ['# go_test(name = "reject_test", srcs = ["reject_test.go"])']),
    ("build.gradle", ["    integrationTest()"], ["    // integrationTest()"]),
])
def test_a_test_registration_commented_out_is_named(path: str, removed: list[str], added: list[str]) -> None:
    assert _said(path, removed, added, COMMENTED)


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("tests/CMakeLists.txt", ["# add_test(NAME bad_input COMMAND decode)"], ["add_test(NAME bad_input COMMAND decode)"]),  # back in
    ("tests/CMakeLists.txt", ["add_test(NAME bad_input COMMAND decode)"], ["# the malformed corpus", "add_test(NAME bad_input COMMAND decode)"]),
    ("CMakeLists.txt", ["add_compile_options(-O2)"], ["# add_compile_options(-O2)"]),  # not a test
])
def test_a_test_kept_or_a_non_test_commented_stays_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert not _said(path, removed, added, COMMENTED)


LOCKED = "takes a locked package from a git repository"


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("Cargo.lock", ['source = "registry+https://github.com/rust-lang/crates.io-index"', 'checksum = "0f0f"'],
     ['source = "git+https://github.com/rust-lang-forks/itoa?branch=main#1a2b3c4d"']),
    ("package-lock.json", ['      "resolved": "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz",'], ['      "resolved": "git+ssh://git@github.com/rns/ms.git#77aa",']),
    ("Gemfile.lock", ["  remote: https://rubygems.org/"], ["  remote: https://gitlab.com/someone/rack.git"]),
    ("poetry.lock", ['url = "https://pypi.org/simple"'], ['url = "https://github.com/someone/idna.git"']),
])
def test_a_locked_package_moved_to_a_git_repository_is_named(path: str, removed: list[str], added: list[str]) -> None:
    assert _said(path, removed, added, LOCKED)


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("Cargo.lock", ['source = "git+https://github.com/a/b?branch=main#0123abcd"'], ['source = "git+https://github.com/a/b?branch=main#4567ef01"']),
    ("Cargo.lock", ['source = "registry+https://github.com/rust-lang/crates.io-index"'], ['source = "registry+https://github.com/rust-lang/crates.io-index"']),
    ("package-lock.json", ['      "resolved": "https://registry.npmjs.org/ms/-/ms-2.1.2.tgz",'], ['      "resolved": "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz",']),
])
def test_the_same_source_at_another_version_stays_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert not _said(path, removed, added, LOCKED)


TLS = "turns TLS verification off"


@pytest.mark.parametrize(("path", "added"), [
    ("examples/quic/main.go", "\t\tquic.WithInsecureSkipVerify(true),"),
    ("examples/Client.kt", "    val c = HttpClient.builder().trustAllCertificates(true).build()"),
    ("samples/fetch.ts", "const agent = createAgent().disableCertificateValidation();"),
    ("docs/client.md", "    client = Client(url).skip_tls_verification()"),
    ("examples/Main.java", "        conn.setHostnameVerifier(HostnameVerifiers.ALLOW_ALL);"),
])
def test_a_tls_option_called_on_is_named(path: str, added: str) -> None:
    removed = ["```"] if path.endswith(".md") else []
    assert _said(path, removed, [*removed, added], TLS)


@pytest.mark.parametrize(("path", "added"), [
    ("examples/quic/main.go", "\t\tquic.WithInsecureSkipVerify(false),"),  # the safe way
    ("tests/quic_test.go", "\t\tquic.WithInsecureSkipVerify(true),"),  # a test's own client
    ("examples/quic/main.go", "\t\t// quic.WithInsecureSkipVerify(true),"),  # a comment
    ("examples/quic/main.go", "\t\tquic.WithVerifyPeer(true),"),  # verification on
])
def test_a_tls_option_the_safe_way_or_in_a_test_stays_quiet(path: str, added: str) -> None:
    assert not _said(path, [], [added], TLS)


SHELL = "runs a shell command built from text"


@pytest.mark.parametrize(("path", "added"), [
    ("README.md", 'var cmd = Cli.Wrap("sh").WithArguments(["-c", $"convert {input} out.png"]);'),
    ("docs/tags.md", 'await Cli.Wrap("bash").WithArguments(["-c", $"git tag -a \\"{label}\\""]).ExecuteAsync();'),  # escaped quotes
    ("README.md", 'system("bash -c \\"grep #{pattern} log.txt\\"")'),
    ("docs/usage.md", 'Process.Start("cmd", "/c del " + path);'),
    ("README.md", "spawn('bash', ['-c', `tar -xf ${archive}`])"),
    ("docs/guide.md", 'Open3.capture2("sh", "-c", "grep #{pattern} log.txt")'),
    ("examples/run.py", "subprocess.run(['sh', '-c', f'ls {folder}'])"),
])
def test_a_shell_handed_a_filled_string_is_named(path: str, added: str) -> None:
    fence = ["```"] if path.endswith(".md") else []
    assert _said(path, fence, [*fence, added], SHELL)


@pytest.mark.parametrize(("path", "added"), [
    ("README.md", 'var cmd = Cli.Wrap("sh").WithArguments(["-c", "convert \\"$1\\" out.png", "sh", input]);'),  # quoted by the shell
    ("README.md", 'sh -c "echo ${HOME}"'),  # the shell's own variable
    ("README.md", 'gcc -c "$SRC" -o out.o'),  # another tool's -c
    ("tests/test_run.py", "subprocess.run(['sh', '-c', f'ls {folder}'])"),  # a test
])
def test_a_quoted_or_constant_shell_command_stays_quiet(path: str, added: str) -> None:
    fence = ["```"] if path.endswith(".md") else []
    assert not _said(path, fence, [*fence, added], SHELL)


@pytest.mark.parametrize("path", ["src/parse.y", "grammar/Query.g4", "lexer/scan.l", "machine/uri.rl", "grammar/expr.peg"])
def test_a_grammar_is_read_as_source(path: str) -> None:
    assert file_kind(path) == "source"


def test_a_check_turned_in_a_grammar_action_is_read_as_code() -> None:
    out = _review("src/parse.y", ['    if (depth >= MAX_NEST) { yyerror("nested"); YYABORT; }'], ['    if (0 && depth >= MAX_NEST) { yyerror("nested"); YYABORT; }'])
    assert out.risk == "high", out.reasons


DIGEST = "drops a download's checksum"


@pytest.mark.parametrize(("path", "removed"), [
    ("WORKSPACE", ['    sha256 = "0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6",']),
    ("cmake/deps.cmake", ["  URL_HASH SHA256=0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6"]),
    ("subprojects/libz.wrap", ["source_hash = 0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6"]),
])
def test_a_download_digest_dropped_is_named(path: str, removed: list[str]) -> None:
    assert _said(path, removed, [], DIGEST)


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("WORKSPACE", ['    sha256 = "0d1e",'], ['    sha256 = "9a8b",']),  # a bump: the digest moves with the version
    ("WORKSPACE", ['    sha256 = "0d1e",', '    urls = ["https://example.org/z-1.0.tar.gz"],'], []),  # the whole download removed
])
def test_a_digest_moved_or_removed_with_its_download_stays_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert not _said(path, removed, added, DIGEST)


OFF = "switches a block of the build off"


@pytest.mark.parametrize(("path", "added"), [
    ("tests/CMakeLists.txt", ["if(FALSE)", "  add_test(NAME limits COMMAND t_limits)", "endif()"]),
    ("tests/CMakeLists.txt", ["if (OFF)", "  add_subdirectory(fuzz)", "endif()"]),
    ("meson.build", ["if false", "  subdir('tests')", "endif"]),
])
def test_a_block_switched_off_is_named(path: str, added: list[str]) -> None:
    assert _said(path, [added[1]], added, OFF)


def test_a_block_switched_back_on_stays_quiet() -> None:
    assert not _said("tests/CMakeLists.txt", ["if(FALSE)", "  add_test(NAME limits COMMAND t_limits)", "endif()"], ["  add_test(NAME limits COMMAND t_limits)"], OFF)


def test_a_lock_of_git_sources_names_only_a_repository_moved_to_another_owner() -> None:
    # Composer locks every package by its git URL: a new package is not a move; the same name under another owner is.
    assert not _said("composer.lock", ['            "url": "https://github.com/acme/strings.git",'], ['            "url": "https://github.com/acme/numbers.git",'], LOCKED)
    assert _said("composer.lock", ['            "url": "https://github.com/acme/strings.git",'], ['            "url": "https://github.com/acrne/strings.git",'], LOCKED)


def test_a_git_source_the_manifest_also_writes_is_said_by_the_manifest_only() -> None:
    manifest = FileChange(path="Cargo.toml", additions=1, deletions=1, removed_lines=['ropey = "1.6"'],
                          added_lines=['ropey = { git = "https://github.com/cessen/ropey" }'])
    lock = FileChange(path="Cargo.lock", additions=1, deletions=1, removed_lines=['source = "registry+https://github.com/rust-lang/crates.io-index"'],
                      added_lines=['source = "git+https://github.com/cessen/ropey#0a1b2c3d"'])
    read, partial = read_changes([manifest, lock])
    out = {c.path: c for c in assess_all(read, RiskContext(partial=partial))}
    assert not any(r.startswith(LOCKED) for r in out["Cargo.lock"].reasons)
