"""The suite's two tiers (tests/conftest.py): the README's command runs the fast one, `--tier process` the
other, and every test belongs to exactly one, so the two runs of .ci/run together run every test once."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import subprocess
import sys

import pytest

import conftest

TESTS = Path(__file__).resolve().parent


class _Item:
    def __init__(self, path: str, marked: bool = False) -> None:
        self.path, self._marked = TESTS / path, marked

    def get_closest_marker(self, name: str):
        return object() if self._marked and name == "process" else None


def _run(tier: str, args: list[str], items: list[_Item]) -> tuple[list[str], list[str]]:
    dropped: list[_Item] = []
    hook = SimpleNamespace(pytest_deselected=lambda items: dropped.extend(items))
    config = SimpleNamespace(getoption=lambda name: tier, args=args, hook=hook)
    kept = list(items)
    conftest._deselect_other_tier(config, kept)
    return [f"{i.path.name}{'*' if i._marked else ''}" for i in kept], [i.path.name for i in dropped]


ITEMS = [_Item("test_review.py"), _Item("test_reliability.py"), _Item("test_once.py", marked=True),
         _Item("test_once.py")]


def test_the_default_tier_leaves_out_the_process_files_and_the_marked_tests_and_says_so():
    kept, dropped = _run("fast", ["tests"], ITEMS)
    assert kept == ["test_review.py", "test_once.py"]
    assert dropped == ["test_reliability.py", "test_once.py"]


def test_the_process_tier_runs_exactly_what_the_default_left_out():
    kept, _ = _run("process", ["tests"], ITEMS)
    assert kept == ["test_reliability.py", "test_once.py*"]
    assert _run("all", ["tests"], ITEMS)[0] == ["test_review.py", "test_reliability.py", "test_once.py*", "test_once.py"]


def test_a_file_named_on_the_command_line_runs_whatever_its_tier():
    items = ITEMS + [_Item("test_long_runs.py")]
    kept, dropped = _run("fast", ["tests/test_reliability.py::test_x", "tests/test_once.py"], items)
    assert kept == ["test_review.py", "test_reliability.py", "test_once.py*", "test_once.py"]
    assert dropped == ["test_long_runs.py"]


def test_every_file_of_the_process_tier_exists():
    # A renamed file left in PROCESS_TIER would silently join the default tier: named here instead.
    missing = sorted(name for name in conftest.PROCESS_TIER if not (TESTS / name).is_file())
    assert not missing, f"conftest.PROCESS_TIER names files that do not exist: {missing}"


# An inner pytest run, as test_windows_ci's: the process tier (tests/conftest.py).
@pytest.mark.process
def test_a_wrong_tier_is_refused_naming_the_accepted_ones():
    done = subprocess.run([sys.executable, "-m", "pytest", "--tier", "slowest", "--co", "-q", "-n", "0"],
                          cwd=TESTS.parent, capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert done.returncode == 4, done
    assert "'slowest'" in done.stderr and all(f"'{tier}'" in done.stderr for tier in conftest.TIERS), done.stderr
