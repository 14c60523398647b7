"""Issue 36, round 19 (part B): the small hunk right after the one a target's reason quotes goes into the view with it.

Held-out 24's spectre.console: the reason quoted ``public static string Escape(string? markup)`` (the signature's rename,
a hunk of its own) and the escape made a no-op (``return markup;``) sat in the next hunk, four lines below; the view's
room went to the other targets' big hunks and the plant was left out. relay.review.view_budget now shows a small hunk
starting a few lines below a quoted one right after it, before any target's other hunks; one far below, or a big one,
waits its turn as before. The case is written in C#, Python and Go: the budget reads hunks, not a language.
"""

from __future__ import annotations

import pytest

from relay.review.range_hunks import RangeHunk
from relay.review.view_budget import spend
from relay.review.view_items import Item

from line_changes import hunk as _hunk

__all__: list[str] = []  # a test module exports nothing



def _item(path: str, hunks: list[RangeHunk], risk: str = "high", telling: int = 0, quoted: bool = True) -> Item:
    return Item(label=f"## {path} lines {hunks[0].start}-{hunks[-1].end}\n", hunks=hunks, texts=[h.text for h in hunks],
                telling=telling, quoted=quoted, small=[h.changed <= 3 for h in hunks], path=path, risk=risk)


def _big(path: str) -> Item:
    rows = [f"+    value_{k} = compute_{k}(rows, width, height)  # the commit's own rewrite" for k in range(40)]
    return _item(path, [_hunk(10, rows)])


_SIG = {
    "csharp": (["-    public static string Escape(string? text)", "+    public static string Escape(string? markup)", "     {"],
               ["     {", "-        if (text == null) return string.Empty;", "-        return text.Replace(\"[\", \"[[\");",
                "+        if (markup == null) return string.Empty;", "+        return markup;", "     }"], "return markup;"),
    "python": (["-def escape(text):", "+def escape(markup):", '     """Escape markup."""'],
               ["-    if text is None:", "-        return ''", "-    return text.replace('[', '[[')", "+    if markup is None:",
                "+        return ''", "+    return markup"], "return markup"),
    "go": (["-func Escape(text string) string {", "+func Escape(markup string) string {", " \t// escape brackets"],
           ["-\tif text == \"\" {", "-\t\treturn \"\"", "-\t}", "-\treturn strings.ReplaceAll(text, \"[\", \"[[\")", "+\treturn markup"],
           "return markup"),
}


@pytest.mark.parametrize("lang", sorted(_SIG))
def test_the_hunk_after_a_quoted_signature_is_shown_with_it(lang: str) -> None:
    sig, body, line = _SIG[lang]
    target = _item("src/markup", [_hunk(40, sig), _hunk(40 + len(sig) + 4, body), _hunk(300, ["-a = 1", "+a = 2"] * 3)])
    items = [_big("src/auth/rules"), target, _big("src/crypto/keys")]
    pick = spend(items, items, room=2500, tail_room=200, line_chars=120)
    assert 1 in pick.chosen.get(1, []), pick.order
    assert pick.order.index((1, 1)) < min(pick.order.index(p) for p in pick.order if p[0] == 2), pick.order
    assert line in items[1].texts[1]


def test_a_hunk_far_below_or_big_waits_its_turn() -> None:
    sig, body, _ = _SIG["python"]
    far = _item("src/markup", [_hunk(40, sig), _hunk(200, body)])
    items = [_big("src/auth/rules"), far, _big("src/crypto/keys")]
    pick = spend(items, items, room=2500, tail_room=200, line_chars=120)
    assert (1, 1) not in pick.order[:3], pick.order
    long_body = body + [f"+    note_{k} = {k}  # more of the commit's own work" for k in range(20)]
    big = _item("src/markup", [_hunk(40, sig), _hunk(46, long_body)])
    items = [_big("src/auth/rules"), big, _big("src/crypto/keys")]
    pick = spend(items, items, room=2500, tail_room=200, line_chars=120)
    assert (1, 1) not in pick.order[:3], pick.order
