"""Issue 36, round 16 part B: a check that lost a clause names the clause it lost (relay/review/guard_reading.py).

A long condition was quoted from its start and cut at the reason's length, before the clause the edit dropped: the
reason said "drops a clause from a check" without what the check stopped asking (a signed element compared with the
signature's parent; an admin flag). The dropped clause is now named first, in every language the reader reads.
"""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("src/Xml/SignedXmlHelper.cs", ["                if (signedElement == null)"],
         ["                if (signedElement == null || signedElement != signatureElement.ParentNode)"],
         "drops a clause from a check: (signedElement != signatureElement.ParentNode)"),
        ("src/admin.js", ["  if (!user.isAuthenticated) {"], ["  if (!user.isAuthenticated || !user.isAdmin) {"],
         "drops a clause from a check: (!user.isAdmin)"),
    ],
)
def test_the_clause_a_check_lost_is_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    reasons = review(fc(path, added, removed)).reasons
    assert reasons and reasons[0].startswith(named), reasons


def test_a_clause_added_to_a_check_is_not_called_dropped() -> None:
    reasons = review(fc("src/admin.js", ["  if (!user.isAuthenticated || !user.isAdmin) {"], ["  if (!user.isAuthenticated) {"])).reasons
    assert not any("drops a clause" in r for r in reasons), reasons
