"""What a file is about, as a name: a test matched with the module it tests (moved out of ``file_kinds``)."""

from __future__ import annotations

import re

__all__ = ["subject"]

_TEST_AFFIXES_RE = re.compile(r"^(?:test_|tests_)|(?:[._-]?(?:tests?|specs?))$")
_PACKAGE_FILES = ("__init__", "index", "mod", "lib", "main")


def subject(path: str) -> str:
    """What a file is about, as a name to match a test with the module it tests: a test file's name
    without its test affixes (``test_nose.py``, ``AutoloaderTest.php``, ``local_test.rb``), a module's
    name, or a package file's folder (``flask/ext/__init__.py`` is ``ext``); lowercased, letters and
    digits only."""
    parts = path.lower().split("/")
    stem = parts[-1].split(".", 1)[0]
    if stem in _PACKAGE_FILES and len(parts) > 1:
        stem = parts[-2]
    stem = _TEST_AFFIXES_RE.sub("", stem) or stem
    return re.sub(r"[^a-z0-9]+", "", stem)
