"""Guard: a change built to be slow to read cannot hold the review's answer back (relay.review.review_budget).

The party: the worker. Lines made of words between runs of blanks cost the readers tens of milliseconds each; a few
hundred files of them would keep the packet back for hours. Past the review's CPU budget the files not yet read say
so and are never low; what was read before the budget keeps its verdict.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from relay.review import review_budget
from reviewed import review_edits

_SLOW = "".join(f"limit{i}" + " " * 31 + "-" for i in range(28))  # the readers' worst line the fold keeps


@pytest.fixture(autouse=True)
def _warm(tmp_path_factory: pytest.TempPathFactory) -> None:
    # The first review of a process compiles the readers' patterns, on the same thread's CPU: done before a test's
    # budget is set, so the budget measures reading alone.
    review_edits(tmp_path_factory.mktemp("warm"), {"w.py": "y = 2\n"}, before={"w.py": "y = 1\n"}, task="t")


def _review(tmp_path: Path, files: dict[str, str]) -> dict[str, tuple[str, list[str]]]:
    overall, found = review_edits(tmp_path, files, before={"README.md": "# p\n", **{p: "x = 1\n" for p in files}}, task="t")
    assert overall != "low"
    return {path: (c.risk, c.reasons) for path, c in found.items()}


def test_past_the_budget_the_files_left_say_they_were_not_read_and_are_not_low(tmp_path, monkeypatch):
    monkeypatch.setattr(review_budget, "REVIEW_CPU_SECONDS", 0.4)
    slow = "".join(f"{_SLOW}{i}\n" for i in range(120))  # far more than 0.05 s of reading: the budget is spent on it
    found = _review(tmp_path, {"a_slow.py": slow, "b_slow.py": slow, "c_app.py": "def f(q):\n    return eval(q)\n"})
    cut = [path for path in ("a_slow.py", "b_slow.py") if "not read line by line" in found[path][1][-1]]
    assert cut, found  # the budget ran out inside the slow files
    assert all(found[path][0] != "low" for path in cut)


def test_a_pile_of_slow_files_ahead_of_the_slipped_line_does_not_leave_it_unread(tmp_path, monkeypatch):
    # The worker's walk-around: files slow to read put first in the change's order (by name), the slipped line last.
    # Small edits are read first, so the budget runs out in the pile, not on the line.
    monkeypatch.setattr(review_budget, "REVIEW_CPU_SECONDS", 0.4)
    slow = "".join(f"{_SLOW}{i}\n" for i in range(120))
    pile = {f"a{i}_slow.py": slow for i in range(3)}
    found = _review(tmp_path, {**pile, "z_app.py": "def f(q):\n    return eval(q)\n"})
    assert found["z_app.py"][0] == "high" and "runs text as code" in found["z_app.py"][1][0], found
    assert any("not read line by line" in found[path][1][-1] for path in pile)


def test_prose_is_read_after_code_so_a_docs_pile_cannot_spend_the_budget_of_the_code(tmp_path, monkeypatch):
    # Smaller than the code file, a docs page would come first by size; prose and generated output are read last.
    monkeypatch.setattr(review_budget, "REVIEW_CPU_SECONDS", 0.4)
    slow_doc = "".join(f"{_SLOW}{i}\n" for i in range(60))
    code = "".join(f"x{i} = {i}\n" for i in range(80)) + "def f(q):\n    return eval(q)\n"
    found = _review(tmp_path, {"docs/a.md": slow_doc, "docs/b.md": slow_doc, "src/zz.py": code})
    assert found["src/zz.py"][0] == "high", found


def test_within_the_budget_nothing_says_not_read(tmp_path):
    found = _review(tmp_path, {"a_slow.py": f"{_SLOW}\n", "b_app.py": "def f(q):\n    return eval(q)\n"})
    assert found["b_app.py"][0] == "high" and "runs text as code" in found["b_app.py"][1][0], found
    assert not any("not read line by line" in r for _, reasons in found.values() for r in reasons)


def _bundle(n: int, salt: str = "") -> str:
    # One line of a minified bundle, ~20,000 characters: functions that multiply by a rate, ``salt`` in one of them.
    return "".join(f"var r{n}_{j}=function(q){{return q*rate{j}+limit(q{salt if j % 97 == n else ''})}};" for j in range(400))


def test_a_minified_bundle_read_from_the_patch_cannot_spend_the_budget_of_the_line_beside_it(tmp_path, monkeypatch):
    # Session 32: a commit that rebuilt a library's bundles (lines of 16,000-48,000 characters) cost ~28 s of CPU. The
    # readers of the change's own patch (the edits apart and odd, the parts the packet names first) got its lines whole,
    # and difflib's token matching is quadratic in a line's tokens: the 20 s were spent before the rule readers began, and
    # a slipped eval beside the bundle said "not read line by line". They now get the lines observation keeps.
    from relay.observe.changes import HUNK_CHARS
    from relay.review import packet
    read: dict[str, list[int]] = {"runs": [], "parts": []}
    runs_of_patch, quoted_first = packet.runs_of_patch, packet.quoted_first

    def runs(patch):
        found = runs_of_patch(patch)
        read["runs"].extend(len(line) for run in found for line in (*run.added, *run.removed))
        return found

    def parts(change, path, hunks):
        read["parts"].extend(len(line) for h in hunks for line in (*h.added, *h.removed))
        return quoted_first(change, path, hunks)

    monkeypatch.setattr(packet, "runs_of_patch", runs)
    monkeypatch.setattr(packet, "quoted_first", parts)
    old = [_bundle(i) if i % 10 == 0 else f"var s{i} = {i};" for i in range(50)]  # five bundle lines, far apart: five ranges
    new = [_bundle(i, "+1") if i % 10 == 0 else line for i, line in enumerate(old)]
    overall, found = review_edits(tmp_path, {"lib/bundle-min.js": "\n".join(new) + "\n", "lib/app.js": "x = 1\neval(req.query.q)\n"},
                                  before={"lib/bundle-min.js": "\n".join(old) + "\n", "lib/app.js": "x = 1\n"}, task="rebuild")
    assert found["lib/app.js"].risk == "high" and "runs text as code" in found["lib/app.js"].reasons[0], found
    assert not any("not read line by line" in r for c in found.values() for r in c.reasons)
    assert all(read.values()) and max(max(lengths) for lengths in read.values()) <= HUNK_CHARS, read  # both ran, on kept lines


# A budget is checked between readers, never inside one: a pattern that backtracks without end on one line held a review
# for hours (round 123: held-out 615's starry-night regenerated grammars, lines of escaped characters — a regex literal's
# ``(?:\\.|[^/\n])+``, whose two alternatives both take a backslash, tried 2^n ways to fail on ``/\a\a\a…`` with no closing
# slash). Each shape below, forty escapes long, ran for hours in a reader before the alternatives were made exclusive; the
# review answers at once now. Run in a subprocess: a reader that hangs fails the test by its timeout, not the suite.
_ESCAPES = "\\a" * 40
_BACKTRACKING_LINES = {
    "a regex literal left open": f"const b = /{_ESCAPES}",
    "a replace's pattern left open": f"const c = s.replace(/{_ESCAPES}",
    "a replace's string left open": f"const a = s.replace('{_ESCAPES}x;",
    # (and two more a sweep of every module-level pattern against long runs of escapes, blanks and brackets found)
    "a refusal list's item left open": f"const BLOCKED = ['{_ESCAPES}",
    "a SQL line's literal left open": f"const q = \"SELECT * FROM t WHERE a = ?\" + '{_ESCAPES}",
}
_PROBE = """
import sys, tempfile
from pathlib import Path
sys.path[:0] = [sys.argv[1], str(Path(sys.argv[1]).parent)]  # the tests' helpers, and the checkout they test
from reviewed import review_edits
before = sys.argv[2] + "\\n"
with tempfile.TemporaryDirectory() as d:
    print(review_edits(Path(d), {"lib/grammar.js": before.replace("const", "let")}, before={"lib/grammar.js": before})[0])
"""


@pytest.mark.parametrize("line", list(_BACKTRACKING_LINES.values()), ids=list(_BACKTRACKING_LINES))
def test_a_line_built_to_backtrack_does_not_hold_the_review(line: str) -> None:
    tests = str(Path(__file__).resolve().parent)
    done = subprocess.run([sys.executable, "-c", _PROBE, tests, line], capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() in ("low", "medium", "high")
