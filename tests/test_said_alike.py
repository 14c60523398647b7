"""Issue 36, round 32: the review order sets apart what a commit does once, not what it does alike in many files, and a
medium file that quotes the changed line it was read from ranks above medium files flagged for a kind, a word or a size.

relay.review.lead_order: a reason said word for word of two files, or one generic finding's opening said of three, is the
commit's own pattern (a refactor's), and sets its file apart one step less; a line added apart from the change that
another finding of the file quotes too is a line read as risky; a quoted line (an edited check in parentheses, the
leading line, a turn's consequence) ranks above a kind-only file of the same risk. Synthetic commits in several
languages; the quiet look-alikes (the same check turned alike in two files, a note apart on another line, a low file's
quote) must not move.
"""

from __future__ import annotations

import msgspec
import pytest

from line_changes import fc
from relay.core.contracts import FileChange
from relay.review.lead_order import repeated, strength
from relay.review.risk import RiskContext, assess_all, rank_changes

__all__: list[str] = []  # a test module exports nothing

NO_CTX = RiskContext()


def _kind_only() -> list:
    """Medium files a reviewer reads for their kind or size: a deleted module, build files."""
    return [fc("src/old_pool.py", [], [f"    slot_{i} = make_slot({i})" for i in range(40)], kind="deleted"),
            fc("pyproject.toml", ['requires = ["setuptools>=61"]', 'version = "2.1.0"'], ['requires = ["setuptools>=60"]', 'version = "2.0.9"']),
            fc("Makefile", ["CFLAGS = -O2 -g"], ["CFLAGS = -O2"])]


# One check that let a peer through only when listed now also lets it through while the server drains: the turned line
# quoted by "changes an input check (…)", medium, in a file smaller than the deleted module.
_CHECKS = {
    "java": ("src/Gate.java", "        if (allowList == null || allowList.permits(peer) || draining) {",
             "        if (allowList == null || allowList.permits(peer)) {"),
    "go": ("net/gate.go", "\tif allowList == nil || allowList.Permits(peer) || draining {", "\tif allowList == nil || allowList.Permits(peer) {"),
    "python": ("app/gate.py", "    if allow_list is None or allow_list.permits(peer) or draining:", "    if allow_list is None or allow_list.permits(peer):"),
    "ruby": ("lib/gate.rb", "    if allow_list.nil? || allow_list.permits?(peer) || draining", "    if allow_list.nil? || allow_list.permits?(peer)"),
    "php": ("src/Gate.php", "        if ($allowList === null || $allowList->permits($peer) || $draining) {",
            "        if ($allowList === null || $allowList->permits($peer)) {"),
}


@pytest.mark.parametrize("lang", sorted(_CHECKS))
def test_a_quoted_check_line_ranks_above_medium_files_for_kind_or_size(lang: str) -> None:
    path, new, old = _CHECKS[lang]
    ranked = rank_changes(assess_all([*_kind_only(), fc(path, [new], [old])], NO_CTX))
    assert all(c.risk == "medium" for c in ranked), [(c.path, c.risk, c.reasons) for c in ranked]
    assert ranked[0].path == path, [(c.path, c.reasons) for c in ranked]


def test_the_same_check_turned_alike_in_two_files_is_the_commits_pattern() -> None:
    # Quiet look-alike: the one check rewritten word for word in two files (a copy kept in step) is the commit's work.
    _, new, old = _CHECKS["java"]
    pair = [fc("src/Gate.java", [new], [old]), fc("src/gate/Edge.java", [new], [old])]
    ranked = rank_changes(assess_all([*_kind_only(), *pair], NO_CTX))
    assert ranked[0].path == "src/old_pool.py", [(c.path, c.reasons) for c in ranked]
    # One file turned its own way beside them still leads.
    _, odd, was = _CHECKS["go"]
    ranked = rank_changes(assess_all([*_kind_only(), *pair, fc("net/gate.go", [odd], [was])], NO_CTX))
    assert ranked[0].path == "net/gate.go", [(c.path, c.reasons) for c in ranked]


def _flagged(path: str, risk: str, rules: list[str], reasons: list[str], size: int = 2) -> FileChange:
    return FileChange(path=path, risk=risk, rules=rules, reasons=reasons, additions=size, deletions=size)  # type: ignore[arg-type]


# A refactor's rename read generically in many files (each quoting its own line), as Kotlin, C# and TypeScript would say it.
_RENAMES = {
    "kotlin": ("app/src/{}.kt", "edits a security line (get → of): val p = Path.of(home, \"{}\")"),
    "csharp": ("src/{}.cs", "edits a security line (Combine → Join): var p = Path.Join(home, \"{}\");"),
    "typescript": ("src/{}.ts", "edits a security line (resolve → join): const p = path.join(home, '{}');"),
}


@pytest.mark.parametrize("lang", sorted(_RENAMES))
def test_a_generic_read_said_of_many_files_falls_behind_a_line_added_apart(lang: str) -> None:
    pattern, said = _RENAMES[lang]
    refactor = [_flagged(pattern.format(f"mod{i}"), "medium", ["edits_security_line"], [said.format(f"f{i}")], size=20) for i in range(5)]
    words = _flagged(pattern.format("Session"), "high", ["security_tokens"], ["changes security-relevant code (credentials: token: string,)"], 30)
    apart = _flagged(pattern.format("Login"), "high", ["note_apart", "security_tokens"], [
        "added apart from the change in start(): server.onLogin { user, secret -> accept(user) }",
        "changes security-relevant code (credentials: …gin { user, secret -> accept(user) }…)"])
    order = [c.path for c in rank_changes([*refactor, words, apart])]
    assert order[:2] == [apart.path, words.path], order
    assert len(repeated([*refactor, words, apart])) == 5
    assert strength(apart) == 1 and strength(words) == 3


def test_a_note_apart_on_another_line_is_a_quoted_line_only() -> None:
    # Quiet look-alike: the line added apart is not the one the word reason quotes: a quoted line (2), not a read one (1).
    other = _flagged("lib/login.rb", "high", ["note_apart", "security_tokens"], [
        "added apart from the change in start(): log.info(\"starting listener\")",
        "changes security-relevant code (credentials: def login(user, secret))"])
    assert strength(other) == 2
    generic = _flagged("lib/flow.rb", "high", ["weakens_check"], ["drops a clause from a check: if user.active? (was if user.active? && user.admin?)"])
    assert [c.path for c in rank_changes([other, generic])] == ["lib/flow.rb", "lib/login.rb"]


def test_a_low_files_quote_orders_nothing() -> None:
    # Quiet look-alike: a low file's leading line is a note; the low files keep their order by size.
    small = _flagged("src/a.py", "low", ["leading_line"], ["turns: if n >= most: → if n > most:", "edit (+1/-1)"], 1)
    big = _flagged("src/b.py", "low", [], ["edit (+20/-20)"], 20)
    assert [c.path for c in rank_changes([small, big])] == ["src/b.py", "src/a.py"]


@pytest.mark.parametrize(("path", "old", "new"), [
    ("pkg/window.go", "\tif skew > allowed {", "\tif skew > allowed*1000 {"),
    ("lib/verify.rb", "    return false if digest.nil?", "    return true if digest.nil?"),
    ("src/Check.cs", "        if (attempts >= limit) return Deny();", "        if (attempts > limit) return Deny();"),
])
def test_a_row_not_listed_that_quotes_its_changed_line_ranks_as_a_quoted_line(path: str, old: str, new: str) -> None:
    # A row the order does not know by name (a floor added later) that quotes the file's own turned line ranks above the
    # kind-only files of its risk; a kind row that quotes a word of the file (a test weakened) does not.
    floor = FileChange(path=path, risk="medium", rules=["a_later_floor"], reasons=[f"worth a look, a deciding value turned: {new.strip()}"],
                       added_lines=[new], removed_lines=[old], additions=1, deletions=1)
    kinds = rank_changes(assess_all(_kind_only(), NO_CTX))
    assert rank_changes([*kinds, floor])[0].path == path
    assert strength(floor) == 2
    elsewhere = msgspec.structs.replace(floor, reasons=["worth a look, a deciding value turned: if other_value > bound"])
    assert strength(elsewhere) == 3  # the quote is no line of this file
    weakened = _flagged("test/test_gate.py", "medium", ["removed_assertions"], ["test weakened: removes 2 assertions"], 30)
    assert strength(weakened) == 3
