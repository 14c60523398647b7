"""Round 88 (issue 36): a condition turned while the words around it stay, read from the pair (development misses).

Whom each guards against: the worker that drops the ``!`` of a Ruby guard's trailing condition in the very line the
change rewords (``fail`` → ``raise``), or joins two failure marks with ``&`` where ``|`` stood (a malformed hex pair
now refused only when both of its digits are bad). Beside each, the near miss stays quiet: the statement reworded and
its condition kept, a bitwise join turned outside any condition.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess

_CLASH_OLD = '          fail ArgumentError, "The property #{key} clashes with an existing method." if !key?(key) && respond_to?(key, true)'
_CLASH_NEW = '          raise ArgumentError, "The property #{key} clashes with an existing method." if key?(key) && respond_to?(key, true)'


def _reasons(path: str, added: list[str], removed: list[str]) -> str:
    return " | ".join(assess(fc(path, added, removed), RiskContext()).reasons)


@pytest.mark.parametrize(("path", "added", "removed", "said"), [
    ("lib/hashie/extensions/mash/safe_assignment.rb", [_CLASH_NEW], [_CLASH_OLD], "drops a negation from a check: …"),
    ("codec.go", ["\t\t\tif v1&v2 == 255 {"], ["\t\t\tif v1|v2 == 255 {"], "swaps | for & in a check: if v1&v2 == 255 {"),
])
def test_a_condition_turned_is_named(path: str, added: list[str], removed: list[str], said: str) -> None:
    reasons = _reasons(path, added, removed)
    assert said in reasons
    if path.endswith(".rb"):
        assert "if key?(key)" in reasons  # the reason quotes the condition, not the message before it


@pytest.mark.parametrize(("path", "added", "removed", "not_said"), [
    ("lib/hashie/extensions/mash/safe_assignment.rb", [_CLASH_NEW.replace("if key?", "if !key?")], [_CLASH_OLD], "negation"),
    ("codec.go", ["\t\tmask := v1 & v2"], ["\t\tmask := v1 | v2"], "swaps |"),
])
def test_the_near_miss_stays_quiet(path: str, added: list[str], removed: list[str], not_said: str) -> None:
    assert not_said not in _reasons(path, added, removed)
