"""conftest.START_FIRST hands the longest tests out first; a renamed one would silently fall back to file order."""

from __future__ import annotations

import importlib

from conftest import START_FIRST


def test_every_test_named_to_start_first_exists():
    missing = []
    for name in START_FIRST:
        file_name, function = name.split("::")
        if not callable(getattr(importlib.import_module(file_name.removesuffix(".py")), function, None)):
            missing.append(name)
    assert missing == []


def test_what_collection_leaves_alive_is_frozen_for_the_collector():
    # conftest.pytest_collection_finish: the SDK, the relay and pytest's items outlive every test; unfrozen, each
    # full pass of the cyclic collector walked them again (~0.1 s a pass in a worker, a pass every few dozen tests).
    import gc

    assert gc.get_freeze_count() > 10_000  # ~40,000 when only this file is collected, ~300,000 for the suite
