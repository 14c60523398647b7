"""``relay.review.range_hunks``: a 3-line-context patch re-cut to the ranges git -U0 gives (issue 29)."""

from __future__ import annotations

import subprocess

from conftest import make_repo
from relay.observe.changes import HUNK_CHARS
from relay.observe.kept_lines import UNREAD_MARK, kept_line
from relay.review.diff_view import DEFAULT_VIEW_CHARS
from relay.review.range_hunks import cut_hunks
from test_review_read import DEFAULT_VIEW_CHARS as PINNED, _git_runs, _runs


def test_the_review_read_tests_pin_the_default_budget_the_relay_uses():
    assert PINNED == DEFAULT_VIEW_CHARS


def test_cut_hunks_finds_git_s_own_zero_context_hunks_in_a_three_line_context_patch(tmp_path):
    repo = make_repo(tmp_path / "r", {"f.txt": "".join(f"{i}\n" for i in range(1, 41))})
    lines = [f"{i}\n" for i in range(1, 41)]
    lines[4] = "five\n"          # a changed line
    del lines[9:11]               # two removed lines (10, 11)
    lines.insert(20, "new\n")     # an added line
    lines[30:32] = ["x\n", "y\n", "z\n"]
    (repo / "f.txt").write_text("".join(lines), encoding="utf-8")
    patch = subprocess.run(["git", "diff", "-U3", "--no-color"], cwd=repo, capture_output=True, text=True, check=True, encoding="utf-8").stdout
    hunks = ["@@" + h for h in patch.split("\n@@")[1:]]
    hunks = [h if h.endswith("\n") else h + "\n" for h in hunks]
    git_runs = _git_runs(repo, "f.txt")
    every = cut_hunks(hunks, None)
    assert [r for h in every for r in _runs(h.text)] == git_runs
    assert [(h.start, h.end) for h in every] == [r for r in git_runs]  # ±1 line of context joins none here
    # Asked for one range, only the runs that meet it, each with one line of context.
    one = cut_hunks(hunks, [(9, 9)])
    assert [(h.start, h.end) for h in one] == [(9, 9)]
    assert one[0].text == "@@ -9,4 +9,2 @@\n 9\n-10\n-11\n 12\n"


def test_kept_gives_the_runs_lines_as_observation_keeps_them_for_the_readers():
    # A minified bundle's line read whole from the patch cost the pair readers seconds (session 32: ~28 s of CPU for one
    # commit); ``kept`` hands them what the file's own reading got: within HUNK_CHARS, its cut said by the mark.
    long_old, long_new = "var a=function(q){return q*rate};" * 1500, "var b=function(q){return q*rate};" * 1500
    hunk = f"@@ -1,2 +1,2 @@\n-{long_old}\n-x = 1\n+{long_new}\n+x = 2\n"
    [run] = cut_hunks([hunk], None, context=0, text=False, kept=HUNK_CHARS)
    assert run.removed == (kept_line(long_old.encode(), HUNK_CHARS), "x = 1")
    assert run.added == (kept_line(long_new.encode(), HUNK_CHARS), "x = 2")
    assert len(run.added[0]) <= HUNK_CHARS and UNREAD_MARK in run.added[0]
    [whole] = cut_hunks([hunk], None, context=0, text=False)  # the diff view's own reading is unchanged
    assert whole.added == (long_new, "x = 2")
