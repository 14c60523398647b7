"""A test's support code: a helper, a fixture class, conftest, spec_helper, a support folder (issue 36, round 14).

It runs with every test and is what the next test copies, so its code is read line by line (a credential written into
it, TLS turned off, a world-writable mode: ``relay.review.edit_direction.support_line``), where a test case's own lines
(which disable a check to test it) keep only their test signals (``relay.review.file_kinds.line_filter``).
"""

from __future__ import annotations

import functools
import re

__all__ = ["is_test_support"]

_SUPPORT_DIRS = frozenset({"support", "helpers", "helper", "fixtures", "factories", "testutil", "testutils", "testhelpers", "test_helpers", "testing_utils"})
_SUPPORT_STEM_RE = re.compile(r"(?:helpers?|conftest|support|setuptests?|testsetup|testutils?|testutilities|fixtures?|factory|factories|"
                              r"jestsetup|vitestsetup|bootstrap)$")


@functools.lru_cache(maxsize=65536)
def is_test_support(path: str) -> bool:
    """Whether a file among the tests is support code by its name or folder (``test/test_helper.rb``, ``tests/conftest.py``,
    ``spec/support/http.rb``, ``TestHelpers.cs``); the caller knows it is among the tests."""
    parts = path.lower().split("/")
    stem = parts[-1].split(".", 1)[0].replace("_", "").replace("-", "")
    return bool(_SUPPORT_STEM_RE.search(stem)) or any(part in _SUPPORT_DIRS for part in parts[:-1])
