"""Issue 36, round 21 (part B): a reason that names two findings in one file shows both hunks in the view, for the
ranking's first three targets.

Held-out 24's go-guardian (86 files): the two-factor file's reason named a guard deleted (``if !ok { return nil,
ErrInvalidPin }``) and the check's verdict discarded (``ok, err := otp.Verify(pin)`` → ``if _, err := otp.Verify(pin)``)
a few hunks above it. The view showed the guard's hunk and spent the rest on the riskiest target's big window and the
others' second hunks: the discarded verdict, the planted line, was left out. relay.review.view_budget now keeps room for
a top-3 target's second quoted hunk (small, or under a quote's room) and shows it before any other target's second hunk.
The case is written in Go, Kotlin and PHP: the budget reads hunks, not a language.
"""

from __future__ import annotations

import pytest

from relay.review.range_hunks import RangeHunk
from relay.review.view_budget import spend
from relay.review.view_items import Item

from line_changes import hunk as _hunk

__all__: list[str] = []  # a test module exports nothing



def _item(path: str, hunks: list[RangeHunk], telling: int = 0, also: tuple[int, ...] = ()) -> Item:
    return Item(label=f"## {path} lines {hunks[0].start}-{hunks[-1].end}\n", hunks=hunks, texts=[h.text for h in hunks],
                telling=telling, quoted=True, small=[h.changed <= 3 for h in hunks], path=path, risk="high", also=list(also))


def _big(path: str, start: int = 10) -> Item:
    """A target whose quoted hunk is a big rewrite, with a small second hunk (imports) of its own."""
    rows = [f"-    value_{k} = compute_{k}(rows, width, height)  # the commit's own rewrite" for k in range(40)] + ["+    return run(rows)"]
    return _item(path, [_hunk(3, ["-import crypto", " import errors", "-import fmt"]), _hunk(start, rows)], telling=1)


_TWO = {
    "go": (["-\tok, err := otp.Verify(pin)", "+\tif _, err := otp.Verify(pin); err != nil {", "-\tif err != nil {"],
           [" ", "-\tif !ok {", "-\t\treturn nil, ErrInvalidPin", "-\t}", " \treturn info, nil"], "if _, err := otp.Verify(pin); err != nil {"),
    "kotlin": (["-        val ok = totp.verify(code)", "+        totp.verify(code)", "         log.debug(\"checked\")"],
               ["-        if (!ok) {", "-            throw InvalidCode()", "-        }", "         return session"], "totp.verify(code)"),
    "php": (["-        $ok = $this->otp->verify($pin);", "+        $this->otp->verify($pin);", "         $this->log('checked');"],
            ["-        if (!$ok) {", "-            throw new InvalidPin();", "-        }", "         return $info;"], "$this->otp->verify($pin);"),
}


@pytest.mark.parametrize("lang", sorted(_TWO))
def test_a_second_quoted_hunk_of_a_top_three_target_is_shown(lang: str) -> None:
    verdict, guard, line = _TWO[lang]
    # The guard's hunk is the one the view shows first; the discarded verdict sits 40 lines above it (no "follow").
    two = _item("auth/twofactor", [_hunk(20, verdict), _hunk(70, guard), _hunk(200, ["-a = 1", "+a = 2"])], telling=1, also=(0,))
    items = [_big("auth/basic"), _big("doc"), two, _big("auth/token", 400)]
    pick = spend(items, items, room=2500, tail_room=200, line_chars=120)
    assert (2, 0) in pick.order, pick.order
    seconds = [p for p in pick.order if p[0] != 2 and p[1] != items[p[0]].telling]
    assert not seconds or pick.order.index((2, 0)) < pick.order.index(seconds[0]), pick.order
    assert line in items[2].texts[0]


def test_a_second_quote_past_the_third_target_or_big_waits_its_turn() -> None:
    verdict, guard, _ = _TWO["go"]
    fourth = _item("auth/twofactor", [_hunk(20, verdict), _hunk(70, guard)], telling=1, also=(0,))
    items = [_big("auth/basic"), _big("doc"), _big("auth/token", 400), fourth]
    pick = spend(items, items, room=2500, tail_room=200, line_chars=120)
    assert (3, 0) not in pick.order[:4], pick.order
    long_verdict = verdict + [f"+    note_{k} = {k}  # more of the commit's own work, line after line" for k in range(12)]
    big = _item("auth/twofactor", [_hunk(20, long_verdict), _hunk(90, guard)], telling=1, also=(0,))
    items = [_big("auth/basic"), _big("doc"), big]
    pick = spend(items, items, room=2500, tail_room=200, line_chars=120)
    firsts = [p for p in pick.order if p[1] == items[p[0]].telling]
    assert (2, 0) not in pick.order[:len(firsts)], pick.order


def test_a_top_three_targets_second_quote_comes_before_a_lower_targets_first() -> None:
    # Session 38 (blind 84's cosign, 33 files): the second target's reason named a guard deleted in a big hunk and, second,
    # a failure's check narrowed (``if err != nil && pubKey.Status == tuf.Active {``) in a small one; the windows of the
    # fourth and fifth targets' quoted hunks took the room first, and the narrowed check was not shown.
    verdict, guard, line = _TWO["go"]
    guard_rewrite = [f"-\t\tstep_{k}, err := parse_{k}(entryUUID, 16, 64)  # the commit's own removal" for k in range(30)] + guard
    second = _item("pkg/cosign/tlog.go", [_hunk(20, guard_rewrite), _hunk(393, verdict)], telling=0, also=(1,))
    items = [_big("internal/client.go"), second, _big("go.mod"), _big("cmd/fulcio.go", 75), _big("cmd/common.go", 365)]
    pick = spend(items, items, room=2500, tail_room=200, line_chars=120)
    assert (1, 1) in pick.order, pick.order
    lower = [p for p in pick.order if p[0] >= 3]
    assert not lower or pick.order.index((1, 1)) < pick.order.index(lower[0]), pick.order
    assert line in items[1].texts[1]


def test_a_second_window_goes_to_the_line_the_first_window_does_not_show() -> None:
    # Session 38 (blind 90's csvkit): the riskiest file's first reason (a check's result discarded) quoted a call in one hunk,
    # its second reason (`+ 1` taken out) a line 40 rows into a new function in another; the second hunk's window, placed
    # by every piece of the reasons, opened on the function's first row, which holds a name the first reason quotes in
    # parentheses, and the `+ 1` line was not shown.
    from relay.core.contracts import FileChange
    from relay.review.view_budget import _second_quotes

    function = ["+def _resolve(identifier, names, offset, ignore_unknown, ignore_invalid_range):", "+    a, b = identifier.split('-')"]
    function += [f"+    step_{k} = names[{k}]" for k in range(36)] + ["+    b = int(b) if b else len(names) + 1", "+    return a, b"]
    call = ["-        raise", "+        columns.extend(_resolve(ids, names, offset, ignore_unknown=ignore, ignore_invalid_range=ignore))"]
    change = FileChange(path="csvkit/cli.py", risk="high", rules=["any_turn", "weakens_more"], reasons=[
        "discards the result of a check (_invalid_range: its error is ignored): ignore_invalid_range=ignore))",
        "shifts a position or bound by one (+ 1 taken out: an off-by-one?): …b) + 1 if b else len(names… → …b) if b else l"])
    hunks = [_hunk(516, function), _hunk(571, call)]
    item = Item(label="## csvkit/cli.py lines 516-571\n", hunks=hunks, texts=[h.text for h in hunks], telling=1, quoted=True,
                small=[False, True], path=change.path, risk="high", also=[0], change=change)
    quotes = _second_quotes(item)
    assert "_invalid_range" not in quotes and any("bifbelse" in q for q in quotes), quotes
