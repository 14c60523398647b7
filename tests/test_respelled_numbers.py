"""A formatter's pass that respells a number (0777 → 0o777, 1000000 → 1_000_000) writes the line that stood, not a new
risky one: afero's literal pass (held-out 44) had three files high for "world-writable" modes that were there before.
The near misses: the value itself widened, and a new line with the mode, stay named."""

from __future__ import annotations

import pytest

from line_changes import fc, review

_WORLD = "world-writable"


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("util.go", ["\terr = fs.MkdirAll(dir, 0o777) // rwx"], ["\terr = fs.MkdirAll(dir, 0777) // rwx"]),
        ("tools/setup.py", ["    os.chmod(path, 0o777)"], ["    os.chmod(path, 0777)"]),
        ("lib/store.rb", ["    FileUtils.mkdir_p(dir, mode: 0o777)"], ["    FileUtils.mkdir_p(dir, mode: 0777)"]),
    ],
)
def test_a_mode_respelled_in_another_octal_form_is_not_a_new_finding(path: str, added: list[str], removed: list[str]) -> None:
    change = review(fc(path, added, removed))
    assert not [r for r in change.reasons if _WORLD in r], change.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("util.go", ["\terr = fs.MkdirAll(dir, 0o777)"], ["\terr = fs.MkdirAll(dir, 0o755)"]),  # widened, same spelling
        ("util.go", ["\terr = fs.MkdirAll(dir, 0o777)"], ["\terr = fs.MkdirAll(dir, 0755)"]),  # widened and respelled
        ("tools/setup.py", ["    os.chmod(path, 0o777)"], []),  # a new line
    ],
)
def test_a_mode_widened_or_new_is_still_named(path: str, added: list[str], removed: list[str]) -> None:
    change = review(fc(path, added, removed))
    assert change.risk == "high" and any(_WORLD in r for r in change.reasons), change.reasons
