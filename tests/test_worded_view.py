"""Issue 36, round 32: the view shows the hunk of the line each of the first three targets' reasons quotes before any
other hunk: a line quoted in parentheses alone ("adds a skip/focus marker (markTestSkipped()", "changes an input check
(if (…))") is a quote too, and a big hunk holding it shows as a window around it rather than not at all.

Held-out 47: a skipped escaping test ranked 2nd, its one-line hunk never shown (its reason quotes the call in
parentheses); a connection filter's turned check ranked 3rd, quoted by "changes an input check (…)" in a 505-character
hunk, and the view spent its room on a low file's hunk instead. Cases in PHP, Python, Go and JavaScript; the quiet
look-alikes: a parenthesis that quotes no line (a size, a kind), a fourth target's big hunk.
"""

from __future__ import annotations

import pytest

from line_changes import hunk as _hunk
from relay.core.contracts import FileChange
from relay.review.range_hunks import RangeHunk
from relay.review.telling import quoted_part
from relay.review.view_budget import spend
from relay.review.view_items import Item

__all__: list[str] = []  # a test module exports nothing

_SKIPS = {
    "php": ("tests/EscapeTest.php", "        $this->markTestSkipped('slow on the runner');", "adds a skip/focus marker (markTestSkipped()"),
    "python": ("tests/test_escape.py", "    pytest.skip(\"slow on the runner\")", "adds a skip/focus marker (pytest.skip()"),
    "go": ("escape/escape_test.go", "\tt.Skip(\"slow on the runner\")", "adds a skip/focus marker (t.Skip(\"slow on)"),
    "javascript": ("test/escape.test.js", "  it.skip('escapes quotes in attributes', () => {", "adds a skip/focus marker (it.skip('escapes)"),
}


def _filler(n: int, start: int = 10) -> RangeHunk:
    return _hunk(start, [f"+    part_{k} = build_part({k}, width, height)  # the commit's own rewrite" for k in range(n)])


@pytest.mark.parametrize("lang", sorted(_SKIPS))
def test_a_line_quoted_in_parentheses_places_the_hunk(lang: str) -> None:
    path, line, reason = _SKIPS[lang]
    change = FileChange(path=path, risk="high", rules=["skip_marker"], reasons=[reason], additions=41, deletions=0)
    parts = [_filler(40), _hunk(120, ["     def test_attributes():", "+" + line, "     assert True"])]
    assert quoted_part(change, parts, any_reason=True) == 1
    assert quoted_part(change, parts) is None  # a line rule's quote alone: the skip marker is not one


def test_a_parenthesis_that_quotes_no_line_places_nothing() -> None:
    change = FileChange(path="src/Tokenizer.php", risk="medium", rules=["large_hunk"], reasons=["large change (223 lines in one hunk)"],
                        additions=40, deletions=0)
    assert quoted_part(change, [_filler(40), _filler(3, 200)], any_reason=True) is None


_CHECK = "        if (allowList == null || allowList.permits(peer)) {"


def _worded(path: str) -> Item:
    """A target whose reason quotes an edited check in parentheses, the check deep in a 30-row hunk of the commit's work."""
    rows = [f"+        note_{k} = record(peer, {k});  // the commit's own logging" for k in range(14)]
    rows += ["-" + _CHECK[:-3] + " || draining) {", "+" + _CHECK] + [f"+        trace_{k} = record(peer, {k});" for k in range(14)]
    h = _hunk(40, rows)
    change = FileChange(path=path, risk="medium", rules=["input_check"], reasons=[f"changes an input check ({_CHECK.strip()[:40]})"],
                        additions=29, deletions=1)
    return Item(label=f"## {path} lines 40-70\n", hunks=[h], texts=[h.text], telling=0, worded=True, small=[False], path=path,
                risk="medium", change=change)


def _plain(path: str, risk: str = "high") -> Item:
    h = _hunk(5, [f"+    value_{k} = compute_{k}(rows)  # configuration of the build" for k in range(5)])
    return Item(label=f"## {path} lines 5-9\n", hunks=[h], texts=[h.text], telling=0, quoted=False, small=[False], path=path, risk=risk)


def test_a_top_three_worded_target_shows_a_window_around_its_quote_first() -> None:
    items = [_plain("src/Log.java"), _plain("pom.xml"), _worded("src/net/Gate.java"), *(_plain(f"src/Low{k}.java", "low") for k in range(3))]
    assert len(items[2].texts[0]) > 500
    pick = spend(items, items, room=2000, tail_room=300, line_chars=120)
    assert pick.order[0] == (2, 0), pick.order
    assert _CHECK.strip() in pick.cut[(2, 0)]


def test_a_fourth_targets_big_worded_hunk_waits_its_turn() -> None:
    items = [_plain("src/Log.java"), _plain("pom.xml"), _plain("src/Other.java"), _worded("src/net/Gate.java")]
    pick = spend(items, items, room=2000, tail_room=300, line_chars=120)
    assert pick.order[0] != (3, 0), pick.order


# A second dangerous line in the top target, in a hunk of its own the reason does not quote (a reader names one line a
# file), and its safe twin that must not be picked out; low targets' small renames wait.
_SECOND = {
    "python": ("    subprocess.call(cmd, shell=True)", "    subprocess.call([\"convert\", name])"),
    "go": ("\ttlsConfig := &tls.Config{InsecureSkipVerify: true}", "\ttlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}"),
    "javascript": ("  const result = eval(req.query.expr);", "  const result = JSON.parse(req.query.expr);"),
}


def _top(second: str) -> Item:
    quoted = _hunk(10, ["-    old_call(a)", "+    new_call(a)", "     done()"])
    body = [f"+    step_{k} = prepare({k})" for k in range(4)]
    other = _hunk(80, ["     def run():", *body[:2], "+" + second, *body[2:], "     return"])
    change = FileChange(path="src/app", risk="high", rules=["dangerous_call"], reasons=["runs a shell command built from text: new_call(a)"],
                        additions=6, deletions=1)
    return Item(label="## src/app lines 10-12,80-87\n", hunks=[quoted, other], texts=[quoted.text, other.text], telling=0, quoted=True,
                small=[True, False], path="src/app", risk="high", change=change)


def _renames(path: str) -> Item:
    hunks = [_hunk(5 + 20 * k, [f"-    signature_{k} = s", f"+    fingerprint_{k} = s"]) for k in range(6)]
    return Item(label=f"## {path} lines 5-106\n", hunks=hunks, texts=[h.text for h in hunks], telling=0, small=[True] * 6, path=path,
                risk="low")


@pytest.mark.parametrize("lang", sorted(_SECOND))
def test_a_second_dangerous_line_of_a_top_target_is_shown_before_lower_files_small_hunks(lang: str) -> None:
    risky, safe = _SECOND[lang]
    items = [_top(risky), *(_renames(f"lib/r{k}") for k in range(4))]
    pick = spend(items, items, room=900, tail_room=200, line_chars=120)
    assert 1 in pick.chosen.get(0, []), pick.order
    items = [_top(safe), *(_renames(f"lib/r{k}") for k in range(4))]
    pick = spend(items, items, room=900, tail_room=200, line_chars=120)
    assert pick.order.index((1, 0)) < pick.order.index((0, 1)) if (0, 1) in pick.order else True, pick.order


# A one-token line turned, quoted "OLD → NEW" with both sides too short to place by a piece: placed by whole lines.
_SHORT = {
    "rust": ("turns false into true in enabled(): false → true", "    false", "    true"),
    "ruby": ("turns false into true in allowed?(): false → true", "    false", "    true"),
    "elixir": ("turns :error into :ok in check/1: :error → :ok", "      :error", "      :ok"),
}


@pytest.mark.parametrize("lang", sorted(_SHORT))
def test_a_one_token_line_turned_places_its_hunk(lang: str) -> None:
    reason, old, new = _SHORT[lang]
    change = FileChange(path="src/filter", risk="medium", rules=["loosens_run"], reasons=[reason], additions=30, deletions=2)
    # Quiet look-alikes first: the token inside a longer line, and the new token added with nothing removed.
    inside = _hunk(10, ["-    return " + old.strip() + " if x else y", "+    return " + new.strip() + " if x else y"])
    added_only = _hunk(40, ["     let a = 1;", "+" + new, "     done"])
    turned = _hunk(90, ["     last_check(level)", "-" + old, "+" + new, " end"])
    assert quoted_part(change, [_filler(30), inside, added_only, turned]) == 3
    assert quoted_part(change, [_filler(30), inside, added_only]) is None


def test_a_check_line_quoted_in_parentheses_comes_before_a_word_reasons_line() -> None:
    # OWASP's encoder (development set 106, round 87): "changes security-relevant code (escaping: static final int …)" led
    # the reasons and "adds a length check (if (j + CONTROL_CHAR_REF_LENGTH > m + 1))" followed; with no line rule's quote,
    # the view went to the word reason's constant and the planted bound was not shown.
    change = FileChange(path="core/XMLEncoder.java", risk="high", rules=["security_tokens", "length_guard"],
                        reasons=["changes security-relevant code (escaping/execution: static final int CONTROL_CHAR_REF_LENGTH = 6;)",
                                 "adds a length check (if (j + CONTROL_CHAR_REF_LENGTH > m + 1))"], additions=30, deletions=1)
    parts = [_hunk(94, ["     static final int QUOT_LENGTH = 5;", "+    static final int CONTROL_CHAR_REF_LENGTH = 6;"]),
             _hunk(360, ["     if (_version == Version.XML_1_1 && ch != 0) {", "+        if (j + CONTROL_CHAR_REF_LENGTH > m + 1) {"])]
    assert quoted_part(change, parts, any_reason=True) == 1
