"""A skip written as a one-line block's first statement (``it { skip 'later'; assert … }``, ``it "x" do skip("y") … end``)
switches the test off as a skip on its own line does: haml's attribute-escaping spec (held-out 51) was "test edited", low.
Quiet: a name that begins with skip, the word in a string, a variable named skipped."""

from __future__ import annotations

import pytest

from line_changes import fc, review

_ASSERT = "assert_render(%q|<a id='&amp;'>|, %q|%a{ id: '&' }|, escape_attrs: true)"
_BEFORE = f"      it {{ {_ASSERT} }}"


@pytest.mark.parametrize(
    "added",
    [
        f"      it {{ skip 'flaky on CI'; {_ASSERT} }}",
        f"      it {{ skip; {_ASSERT} }}",
        f"      it \"escapes attributes\" do skip(\"later\"); {_ASSERT} end",
        f"      test \"escapes attributes\" do pending; {_ASSERT} end",
    ],
)
def test_a_skip_as_a_blocks_first_statement_is_read_as_a_skip(added: str) -> None:
    change = review(fc("test/engine/attributes_test.rb", [added], [_BEFORE]))
    assert change.risk != "low" and any("skip" in r for r in change.reasons), change.reasons


@pytest.mark.parametrize(
    "added",
    [
        f"      it {{ skip_cache!; {_ASSERT} }}",
        f"      it {{ mode = 'skip'; {_ASSERT} }}",
        f"      it {{ skipped = render; {_ASSERT} }}",
    ],
)
def test_a_name_or_a_string_that_begins_with_skip_is_not_a_skip(added: str) -> None:
    change = review(fc("test/engine/attributes_test.rb", [added], [_BEFORE]))
    assert not [r for r in change.reasons if "skip" in r.split(":")[0]], change.reasons
