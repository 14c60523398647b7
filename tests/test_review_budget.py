"""Guard: a change built to be slow to read cannot hold the review's answer back (relay.review.review_budget).

The party: the worker. Lines made of words between runs of blanks cost the readers tens of milliseconds each; a few
hundred files of them would keep the packet back for hours. Past the review's CPU budget the files not yet read say
so and are never low; what was read before the budget keeps its verdict.
"""

from __future__ import annotations

from pathlib import Path

from relay.review import review_budget
from reviewed import review_edits

_SLOW = "".join(f"limit{i}" + " " * 31 + "-" for i in range(28))  # the readers' worst line the fold keeps


def _review(tmp_path: Path, files: dict[str, str]) -> dict[str, tuple[str, list[str]]]:
    overall, found = review_edits(tmp_path, files, before={"README.md": "# p\n", **{p: "x = 1\n" for p in files}}, task="t")
    assert overall != "low"
    return {path: (c.risk, c.reasons) for path, c in found.items()}


def test_past_the_budget_the_files_left_say_they_were_not_read_and_are_not_low(tmp_path, monkeypatch):
    monkeypatch.setattr(review_budget, "REVIEW_CPU_SECONDS", 0.05)
    slow = "".join(f"{_SLOW}{i}\n" for i in range(120))  # far more than 0.05 s of reading: the budget is spent on it
    found = _review(tmp_path, {"a_slow.py": slow, "b_app.py": "def f(q):\n    return eval(q)\n"})
    assert found["b_app.py"][0] == "medium" and "not read line by line" in found["b_app.py"][1][-1], found
    assert "not read line by line" in found["a_slow.py"][1][-1]  # cut inside the slow file itself


def test_within_the_budget_nothing_says_not_read(tmp_path):
    found = _review(tmp_path, {"a_slow.py": f"{_SLOW}\n", "b_app.py": "def f(q):\n    return eval(q)\n"})
    assert found["b_app.py"][0] == "high" and "runs text as code" in found["b_app.py"][1][0], found
    assert not any("not read line by line" in r for _, reasons in found.values() for r in reasons)
