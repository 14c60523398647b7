"""Word pre-checks never hide a match: for every screen, random lines its patterns match all pass it."""

from __future__ import annotations

import pytest

from regex_samples import samples
from relay.review import (code_reading, edit_direction, file_kinds, guard_reading, let_through, risky_lines, security_reading, slipped_lines,
                          turn_consequences, turned_lines, weakened_values)
from relay.review.line_shapes import Screen, screen_text

__all__: list[str] = []  # a test module exports nothing

SCREENS: dict[str, Screen] = {**security_reading.SCREENS, **file_kinds.SCREENS, **code_reading.SCREENS, **risky_lines.SCREENS, **guard_reading.SCREENS,
                              **turn_consequences.SCREENS, **slipped_lines.SCREENS, **let_through.SCREENS, **edit_direction.SCREENS,
                              **turned_lines.SCREENS, **weakened_values.SCREENS}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_passes_every_line_its_patterns_match(name: str) -> None:
    screen = SCREENS[name]
    for number, pattern in enumerate(screen.patterns):
        lines = samples(pattern, 400, seed=number)
        assert len(lines) >= 50, f"{name}: pattern {number} yielded only {len(lines)} samples"
        hidden = [line for line in lines if not screen.passes(line)]
        assert hidden == [], f"{name}: pattern {number} matches lines its screen hides: {hidden[:5]}"


@pytest.mark.parametrize(
    "line",
    [
        # Regression: "select " was a screen word, so a tab after SELECT hid the SQL pattern's match.
        'query = "SELECT\t* FROM users WHERE id = " + uid',
        # Regression: "fn " and "it(" hid a case name after a tab or before a spaced parenthesis.
        "fn\ttest_overflow_rejected() {",
        "it\t('rejects too_deep nesting', () => {",
        # re.IGNORECASE matches the long s and the Kelvin sign as s and k; lower() does not.
        "if ſymlink(dest):",
    ],
)
def test_screens_pass_lines_their_patterns_match_across_whitespace_and_case(line: str) -> None:
    matched = [name for name, screen in SCREENS.items() if any(p.search(line) for p in screen.patterns)]
    assert matched, line
    assert [name for name in matched if not SCREENS[name].passes(line)] == []


def test_screen_text_folds_case_whitespace_and_ignorecase_letters() -> None:
    assert screen_text("SELECT\t*  FROM") == "select*from"
    assert screen_text("ſecret \u212aey İd") == "secretkeyid"
