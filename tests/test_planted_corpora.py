"""bench/corpora/risk_corpus_*planted*.json (issue 36): the planted-risk sets' labels are only honest if each
entry names one small risky edit the labeller wrote down before any run, labels the planted file riskiest, and
comes from a project no other corpus holds. Checked on the files alone: no mirror, nothing replayed or ranked."""

from __future__ import annotations

import json
from pathlib import Path

CORPORA = Path(__file__).resolve().parents[1] / "bench" / "corpora"
BASE_KINDS = {"feature", "typing", "release", "refactor", "dependency", "docs"}


def _planted() -> list[Path]:
    return sorted(p for p in CORPORA.glob("risk_corpus_*.json") if "planted" in p.name)


def test_planted_sets_exist_and_each_plant_is_one_small_written_down_edit() -> None:
    assert "risk_corpus_planted_dev.json" in {p.name for p in _planted()}
    for path in _planted():
        for entry in json.loads(path.read_text(encoding="utf-8"))["commits"]:
            plant, where = entry["plant"], f"{path.name}: {entry['repo']}@{entry['commit']}"
            assert entry["kind"] == "planted" and entry["base_kind"] in BASE_KINDS, where
            assert entry["riskiest"] == [plant["file"]], where
            assert entry["task"] and entry["label_from"], where
            assert plant["find"] != plant["replace"] and plant["risk"] and plant["words"], where
            replaced = [line.strip() for line in plant["replace"].splitlines()]
            assert plant["line"] in replaced, where  # the planted line, as it reads after the edit
            found = [line.strip() for line in plant["find"].splitlines()]
            edited = [line for line in replaced if line not in found] + [line for line in found if line not in replaced]
            assert 1 <= len(edited) <= 6, where  # 1-3 lines changed (a changed line counts on both sides)
            # A deleted guard names what it deleted; everything else adds the planted line (once more than before).
            assert plant.get("deleted") or replaced.count(plant["line"]) > found.count(plant["line"]), where


def test_planted_sets_come_from_projects_in_no_other_corpus_and_share_none() -> None:
    planted = _planted()
    other = {e["repo"] for p in CORPORA.glob("risk_corpus*.json") if p not in planted
             for e in json.loads(p.read_text(encoding="utf-8"))["commits"]}
    owner: dict[str, str] = {}
    for path in planted:
        repos = {e["repo"] for e in json.loads(path.read_text(encoding="utf-8"))["commits"]}
        assert not repos & other, (path.name, sorted(repos & other))
        for repo in repos:
            assert owner.setdefault(repo, path.name) == path.name, (repo, owner[repo], path.name)
