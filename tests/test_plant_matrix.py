"""Issue 36, round 17: every cell of the kind x ecosystem matrix of planted lines that the review catches stays caught
(bench/plant_matrix/*.json, cases marked ``caught`` by ``bench/bench_plant_matrix.py --mark``; read there what a cell
asks: the planted file medium or high, the change not low, the reason naming the kind, the planted line first in the
target's lines and in the default view; a look-alike neither high nor named)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_plant_matrix  # noqa: E402

_CAUGHT = [(part, case) for part, case in bench_plant_matrix.load() if case.get("caught")]


def _tiered(cells: list[tuple[str, dict]]) -> list:
    """The caught cells as parameters: the first cell of each kind in the fast tier, every other cell in the process tier
    (the ``process`` mark, conftest.py), which .ci/run runs right after, so every cell still runs there. Each cell is a
    whole review (~20 ms of CPU, ~830 cells: the fast tier's costliest file); a kind's cells go through that kind's
    readers on other ecosystems and places, so the fast tier keeps each kind's reader proved on one cell (155 of 833
    cells, one in 5.4) and a change that breaks a reader for one spelling shows in --tier process."""
    kinds: set[str] = set()
    out = []
    for part, case in cells:
        name = f"{part}:{bench_plant_matrix.case_id(case)}"
        first = case["kind"] not in kinds
        kinds.add(case["kind"])
        out.append(pytest.param(part, case, id=name, marks=() if first else pytest.mark.process))
    return out


def test_the_matrix_has_caught_cells_and_unique_names():
    ids = [f"{part}:{bench_plant_matrix.case_id(case)}" for part, case in bench_plant_matrix.load()]
    assert len(ids) == len(set(ids))
    assert len(_CAUGHT) >= 60


@pytest.mark.parametrize("part, case", _tiered(_CAUGHT))
def test_a_caught_cell_stays_caught(part, case):
    out = bench_plant_matrix.review_case(case)
    assert bench_plant_matrix.caught(case, out), out
