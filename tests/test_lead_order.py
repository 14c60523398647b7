"""Issue 36, round 23: within one risk, the review order follows what made each file risky (relay.review.lead_order): a
dangerous line named > a line read generically > words, paths, kinds > size; a security fix's main file stays first.

Each case is a synthetic multi-file commit: an ordinary refactor whose files are high for a path word, a big hunk, or a
generic read of their own lines, and one planted line in a smaller file (or a file of a kind that ranks later)."""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.packet import rank_changes
from relay.review.risk import RiskContext, assess_all

__all__: list[str] = []  # a test module exports nothing

NO_CTX = RiskContext()


def _body(n: int, name: str) -> list[str]:
    return [f"    {name}_{i} = compute_{name}({i})" for i in range(n)]


def _path_word_files(ext: str) -> list:
    """Three bigger files high only for a word in their path (a refactor's renames)."""
    return [fc(f"src/{word}.{ext}", _body(30, "part"), _body(28, "piece")) for word in ("jwt", "crypto", "signing")]


def _order(files: list, ctx: RiskContext = NO_CTX) -> list[str]:
    return [c.path for c in rank_changes(assess_all(files, ctx))]


@pytest.mark.parametrize(
    ("plant", "ext"),
    [
        # Go: a validation test skipped, behind three source files high for "jwt", "crypto", "signing" in their path.
        (fc("jwt/validation_test.go", ["\tt.Skip(\"flaky after the import move\")"]), "go"),
        # JavaScript: TLS verification off in the request defaults.
        (fc("lib/helpers/request.js", ["  rejectUnauthorized: false,"]), "js"),
        # C#: a NuGet API key written into the build's shared properties (a build file ranks after source by kind).
        (fc("src/Directory.Build.props", ["    <NuGetApiKey>oy2hq7rkd3vqfx5e2mz6tlb4wa9ncu8jgs1py0xei3oqhv</NuGetApiKey>"]), "cs"),
        # Ruby: a nonce made a constant.
        (fc("lib/vault/box.rb", ['      "\\0" * box.nonce_bytes'], ["      SecureRandom.random_bytes(box.nonce_bytes)"]), "rb"),
        # Kotlin: a cipher's IV made a zero buffer.
        (fc("app/src/main/kotlin/Sealer.kt", ["        val iv = ByteArray(12)"], ["        val iv = SecureRandom().generateSeed(12)"]), "kt"),
    ],
)
def test_a_named_dangerous_line_ranks_first_over_files_high_for_path_words(plant, ext) -> None:
    ranked = rank_changes(assess_all([*_path_word_files(ext), plant], NO_CTX))
    assert all(c.risk == "high" for c in ranked), [(c.path, c.risk, c.reasons) for c in ranked]
    assert ranked[0].path == plant.path, [(c.path, c.reasons) for c in ranked]


def test_a_named_dangerous_line_ranks_above_generic_reads_of_the_commits_own_hunks() -> None:
    # A refactor's bigger files each read generically (a check's clause dropped as code moved), and one
    # line that turns TLS verification off: the named line first, the generic reads after it.
    moved = [fc(f"lib/flow_{i}.js", ["  if (!user.isAuthenticated) {", *_body(20, "step")],
                ["  if (!user.isAuthenticated || !user.isAdmin) {", *_body(20, "stage")]) for i in range(3)]
    plant = fc("lib/helpers/request.js", ["  rejectUnauthorized: false,"])
    ranked = rank_changes(assess_all([*moved, plant], NO_CTX))
    assert [c.risk for c in ranked[:4]] == ["high"] * 4, [(c.path, c.risk, c.reasons) for c in ranked]
    assert ranked[0].path == plant.path, [(c.path, c.reasons) for c in ranked]


def test_a_generic_read_ranks_above_path_words_and_path_words_above_size() -> None:
    # Rust: a huge generated-looking source high for its size alone, a file high for a path word, and a file whose guard
    # was deleted (a generic read): the read first, the path word next, the size last.
    huge = fc("src/tables.rs", [f"    ENTRY_{i}," for i in range(6000)])
    worded = fc("src/session.rs", _body(30, "slot"), _body(30, "cell"))
    guard = fc("src/upload.rs", ["    let body = request.body();"], ["    if body.len() > MAX_BODY {", "        return Err(Error::TooLarge);", "    }"])
    order = _order([huge, worded, guard])
    assert order == ["src/upload.rs", "src/session.rs", "src/tables.rs"], order


def test_a_security_fix_main_file_stays_first_beside_generic_reads() -> None:
    # C: the task names the fix; its main file (a quiet one-line clamp) stays first, ahead of a bigger file whose guard
    # deletion reads generically and of a file high for a path word.
    main = fc("lib/rle.c", ["  n = hdr[1];", "  n &= 0x7f;"], ["  n = hdr[1];"])
    guard = fc("lib/inflate.c", ["  out = grow(out);"], ["  if (len > MAX_OUT) {", "    return ERR_SIZE;", "  }"])
    worded = fc("lib/token.c", _body(30, "word"), _body(30, "term"))
    ctx = RiskContext(task_security="heap overflow", task_words=frozenset({"fix", "the", "heap", "overflow", "rle", "decoder"}))
    assert _order([guard, worded, main], ctx)[0] == "lib/rle.c"


def test_among_medium_files_a_large_hunk_keeps_its_place_by_size() -> None:
    # A rewrite's 200-line hunk (medium for its size) is not pushed behind smaller medium files deleted beside it.
    big = fc("src/Core/Processor.cs", [f"        var v{i} = Step{i}(v{i - 1});" for i in range(200)], ranges=[(10, 209)])
    gone = [fc(f"src/Core/Old{i}.cs", [], [f"    // old {k}" for k in range(40)], kind="deleted") for i in range(2)]
    order = _order([*gone, big])
    assert order[0] == "src/Core/Processor.cs", order


def test_a_test_fixtures_symlink_outside_is_a_kind_not_a_named_line() -> None:
    # Ruby: a fix to how symlinks are filtered ships a fixture linking to /etc/passwd; the fix's own source stays first.
    fix = fc("lib/site/entry_filter.rb", ["      next true if symlink?(e)", "      special?(e) || backup?(e) || excluded?(e)"],
             ["      special?(e) || backup?(e)"])
    fixture = fc("test/source/symlink-test/outside", ["/etc/passwd"], kind="added", symlink=True)
    ranked = rank_changes(assess_all([fixture, fix], NO_CTX))
    assert [c.risk for c in ranked] == ["high", "high"], [(c.path, c.risk, c.reasons) for c in ranked]
    assert ranked[0].path == "lib/site/entry_filter.rb", [(c.path, c.reasons) for c in ranked]
