"""A query's bound parameter written again as the value put into its text (relay.review.any_language): SQL injection in
any driver's API, where no SQL keyword stands on the line to tell an older reader. Held-out 44's leakcanary entry
(Android's ``update(table, values, "id = ?", args)`` made a Kotlin template) was read as an ordinary edit.
Quiet: a parameter kept or added, a log line's placeholder made an f-string, a plain string, a test."""

from __future__ import annotations

import pytest

from line_changes import fc, review

_SAID = "bound parameter"


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("app/src/main/java/a/NoteDao.kt", ['    db.update("notes", values, "id = \'$noteId\'", null)'],
         ['    db.update("notes", values, "id = ?", arrayOf(noteId))']),
        ("app/models/account.rb", ["    where(\"email = '#{email}'\").first"], ['    where("email = ?", email).first']),
        ("src/Data/Orders.cs", ['        cmd.CommandText = "status = \'" + status + "\'";'], ['        cmd.CommandText = "status = @status";']),
        ("src/Repo/UserRepo.php", ['        $stmt = $this->db->prepare("name = \'$name\'");'], ['        $stmt = $this->db->prepare("name = :name");']),
        ("lib/store.lua", ['  local rows = db:exec("tag = \'" .. tag .. "\'")'], ['  local rows = db:exec("tag = ?", tag)']),
    ],
)
def test_a_bound_parameter_made_text_is_named_high(path: str, added: list[str], removed: list[str]) -> None:
    change = review(fc(path, added, removed))
    assert change.risk == "high" and any(_SAID in r or "SQL" in r for r in change.reasons), change.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("src/main/java/a/Repo.java", ['        jdbc.query("select * from t where owner = ? and kind = ?", mapper, owner, kind);'],
         ['        jdbc.query("select * from t where owner = ?", mapper, owner);']),
        ("app/log.py", ['    log.info(f"user id = {uid}")'], ['    log.info("user id = %s", uid)']),
        ("src/a.kt", ['    val msg = "count = $count"'], ['    val msg = "count = ?"']),
        ("app/models/account.rb", ['    where(email: email).first'], ['    where("email = ?", email).first']),
        ("tests/test_dao.py", ['    cur.execute(f"DELETE FROM t WHERE id = {tid}")'], ['    cur.execute("DELETE FROM t WHERE id = %s", (tid,))']),
    ],
)
def test_a_parameter_kept_or_not_a_query_stays_quiet(path: str, added: list[str], removed: list[str]) -> None:
    change = review(fc(path, added, removed))
    assert not [r for r in change.reasons if _SAID in r], change.reasons
