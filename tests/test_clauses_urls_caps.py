"""Rounds 51–52 (issue 36): slips blind 71/72 (and 51, 57) left low, each read as a class.

Whom each guards against: the worker whose slipped line reads as ordinary — a clause put at the end of a condition in
parentheses (``if (a)`` → ``if (a || force)``), a value floor-divided into another unit (``// 60``), a caller's own
argument passed on made a constant (``verify=verify`` → ``verify=False``), a docs sample's URL turned to plain http, a
sandbox config that keeps its capabilities, a bitwise ``|`` made ``&`` in a check, an rpm spec whose default file mode is
setuid. Each near miss beside it stays quiet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from line_changes import fc
from relay.review.leading_lines import _turn
from relay.review.risk import RiskContext, assess
from reviewed import review_edits

# The reader of a pair's turn, asked directly: in a review the clause's file is read by several readers (a small edit's
# own quote, an edit apart), and the leading line's choice among a big edit's lines is what this turn decides.
@pytest.mark.parametrize(("old", "new", "turned"), [
    ("    if (a) {", "    if (a || force) {", True),  # squeezed, ``if(a){`` is ``ifa``: the condition read as written
    ("    if (ok) {", "    if (ok && !expired) {", True),
    ("    if (a &&", "    if (a && force) {", False),  # a condition joined from two lines
    ("    int x = (a);", "    int x = (a || b);", False),  # an expression given an or outside a condition
    ("#if defined(HAS_RTTI)", "#if defined(HAS_RTTI) && HAS_STATIC_RTTI", False),  # a preprocessor's: what is built
    ("\t\t\tif v1|v2 == 255 {", "\t\t\tif v1&v2 == 255 {", True),  # round 52: a bitwise or made an and (blind 51's gofrs)
    ("    take(x)", "    take(&x)", False),  # an address taken, no operator swapped
    ("def f(x: int | None):", "def f(x: int | None = None):", False),
])
def test_a_clause_put_inside_a_condition_s_parentheses_is_a_turn(old: str, new: str, turned: bool) -> None:
    assert (_turn(old, new) > 0) is turned


_PY = "class Actions:\n    def set_ban_time(self, value):\n        value = to_seconds(value)\n        self.manager.set(value)\n"


def test_a_value_floor_divided_into_another_unit_keeps_a_low_change_from_low(tmp_path: Path) -> None:
    risk, files = review_edits(tmp_path, {"app/actions.py": _PY.replace("to_seconds(value)\n", "to_seconds(value) // 60\n")},
                               before={"app/actions.py": _PY})
    assert risk == "medium" and "// 60" in files["app/actions.py"].reasons[0], files["app/actions.py"].reasons


def test_a_call_wrapped_onto_the_next_line_is_no_scale(tmp_path: Path) -> None:
    after = _PY.replace("        value = to_seconds(value)\n", "        value = to_seconds(\n            value)\n")
    risk, _ = review_edits(tmp_path, {"app/actions.py": after}, before={"app/actions.py": _PY})
    assert risk == "low"


@pytest.mark.parametrize(("old", "new", "turned"), [
    ("        verify=verify,", "        verify=False,", True),
    ("    parse(text, forbid_dtd: forbid_dtd)", "    parse(text, forbid_dtd: false)", True),
    ("        verify=options,", "        verify=False,", False),  # no argument of the caller's own name was passed on
    ("        verify=verify,", "        verify=verify_tls,", False),  # another name: a rename, no constant
])
def test_a_caller_s_own_argument_made_a_constant_is_a_turn(old: str, new: str, turned: bool) -> None:
    assert (_turn(old, new) > 0) is turned


def _docs(path: str, added: list[str], removed: list[str]):
    return assess(fc(path, added, removed), RiskContext())


def test_a_docs_sample_s_url_turned_to_plain_http_is_worth_a_look() -> None:
    out = _docs("docs/guide.mdx", ["```js", "  const res = await fetch('http://api.example.org/users')", "```"],
                ["```js", "  const res = await fetch('https://...')", "```"])
    assert out.risk == "medium" and out.reasons[0].startswith("turns a URL to plain http"), out.reasons


@pytest.mark.parametrize(("added", "removed"), [
    (["  const res = await fetch('http://localhost:3000/users')"], ["  const res = await fetch('https://...')"]),  # a local server
    (["  const res = await fetch('http://api.example.org/users')"], []),  # no https line it turned
    (["  const res = await fetch('https://api.example.org/users')"], ["  const res = await fetch('http://api.example.org/users')"]),
])
def test_a_docs_sample_s_local_new_or_secured_url_stays_quiet(added: list[str], removed: list[str]) -> None:
    out = _docs("docs/guide.mdx", ["```js", *added, "```"], ["```js", *removed, "```"])
    assert not any("plain http" in r for r in out.reasons), out.reasons


def test_a_sandbox_config_that_keeps_its_capabilities_is_high() -> None:
    out = assess(fc("configs/znc.cfg", ['hostname: "ZNC"', "keep_caps: true"], ['hostname: "ZNC"']), RiskContext())
    assert out.risk == "high" and "keep_caps: true" in out.reasons[0], out.reasons


@pytest.mark.parametrize("line", ["keep_caps: false", "# keep_caps: true would keep them", "keep_capsule: true"])
def test_a_sandbox_that_drops_its_capabilities_stays_quiet(line: str) -> None:
    out = assess(fc("configs/znc.cfg", [line], []), RiskContext())
    assert not any("host's privileges" in r for r in out.reasons), out.reasons



@pytest.mark.parametrize(("line", "setuid"), [
    ("%defattr(4755,root,root)", True),  # every file the package installs, setuid root (blind 57's pigz.spec)
    ("%attr(4755,root,root) %{_bindir}/pigz", True),
    ("%defattr(-,root,root)", False),
    ("%defattr(0644,root,root,0755)", False),
])
def test_an_rpm_spec_s_default_file_mode_made_setuid_is_high(line: str, setuid: bool) -> None:
    out = assess(fc("pigz.spec", [line], ["%defattr(-,root,root)"] if setuid else []), RiskContext())
    assert (out.risk == "high" and out.reasons[0].startswith("installs a program setuid")) is setuid, out.reasons
