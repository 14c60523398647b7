"""Issue 36, round 113: lines the blind first runs of held-out 308–315 left low, read where they stood.

Whom each guards against: the worker (or a poisoned instruction it follows) that puts Nextcloud's ``@NoAdminRequired`` on
a settings controller's method (a doc comment's annotation that decides who may call it), turns an enum's boundary from
``STRICT`` to ``KEEP``, drops the ciphertext from a KEM combiner's hash while its label stays, or discards the error a
reader's call used to keep. Each was low on round 112's rules (efc06f1d); each near miss beside it stays as it was.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.core.contracts import FileChange
from relay.review.file_kinds import rule_lines
from relay.review.low_change_floor import dropped_step, value_turned
from relay.review.risk import RiskContext, assess

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(("added", "read"), [
    ("     * @NoAdminRequired", True),  # any signed-in user may call it
    ("     * @PublicPage", True),  # anyone may
    ("     * @NoCSRFRequired", True),
    ("     * @return JSONResponse", False),  # a doc comment's ordinary tag
])
def test_a_guard_annotation_in_a_doc_comment_is_read(added: str, read: bool) -> None:
    found = assess(rule_lines(fc("lib/Controller/SettingsController.php", [added, "     */"], ["     */"])), RiskContext())
    assert (found.risk == "high" and "access open" in found.reasons[0]) is read, found


@pytest.mark.parametrize(("old", "new", "quoted"), [
    ("flag_dict['_boundary_'] = STRICT", "flag_dict['_boundary_'] = KEEP", True),
    ("session.mode = VERIFY_REQUIRED", "session.mode = VERIFY_OPTIONAL", True),
    ("flag_dict['_boundary_'] = KEEP", "flag_dict['_boundary_'] = EJECT", False),  # neither said how strict
])
def test_a_strictness_word_turned_is_a_value_turned(old: str, new: str, quoted: bool) -> None:
    found = value_turned(FileChange(path="aenum/_enum.py", added_lines=[new], removed_lines=[old]))
    assert (found is not None and new.split("= ")[1] in found) is quoted, found


@pytest.mark.parametrize(("removed", "added", "said"), [
    # the ciphertext no longer hashed into the shared key; the label stays
    (["\th.Write([]byte(label))", "\th.Write(ctX)"], ["\th.Write([]byte(label))"], "hash's input"),
    # the reader's error once kept, now dropped
    (["\tvar err2 error", "\tr, err2 = i.DocValueReader(q.Fields)"], ["\tr, _ = i.DocValueReader(fields)"], "discards the error"),
    (["\th.Write(ctX)", "\th.Write(pkX)"], ["\th.Write(pkX)", "\th.Write(ctX)"], None),  # the same inputs, reordered
    (["\th.Write(ctX)"], [], None),  # the whole hashing removed: no sibling left to say it was one of a sequence
    (["\tr, err = i.Reader()"], ["\tr, _ = i.Other()"], None),  # another call
])
def test_a_step_dropped_from_a_sequence_is_quoted(removed: list[str], added: list[str], said: str | None) -> None:
    found = dropped_step(FileChange(path="xwing/xwing.go", added_lines=added, removed_lines=removed))
    assert (found is None) if said is None else (found is not None and said in found), found
