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
