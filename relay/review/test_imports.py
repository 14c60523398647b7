"""Application code that imports from the tests (rule ``imports_test_code``).

The party: the worker. A test's own code is left out of the risky-line readers (a test evals a fixture or turns TLS
off to test exactly that), so code the application runs can be hidden there: ``tests/helpers.py`` holding
``return eval(expr)``, and ``from tests.helpers import run`` with ``run(request.args['q'])`` in a route. Both files
were low ("new file", "edit"). Application code has no business importing the tests (they are not shipped, or ship
only by accident), so the import itself is worth a look, and its reason names the module to read.

Read: Python imports rooted at a tests folder (``from tests.x import``, ``import test.x``), JavaScript/TypeScript
imports and requires of a relative path through a tests folder (``../tests/x``, ``./__tests__/x``, ``../spec/x``,
``./__mocks__/x``), Go imports of a ``testdata`` package. A library's own testing module (``django.test``,
``unittest.mock``, Go's ``testing``) is not the repository's tests and stays quiet.
"""

from __future__ import annotations

import re

from relay.core.contracts import FileChange
from relay.review.facts import FileFacts, RiskContext
from relay.review.small_edits import cut

__all__ = ["TEST_IMPORT_EXAMPLE", "imports_test_code"]

_TESTS = r"(?:tests?|specs?|__tests__|__mocks__|testdata)"
_IMPORT_RE = re.compile(
    rf"^\s*(?:from\s+(?P<py>{_TESTS}(?:\.[\w.]+)?)\s+import\b|import\s+(?P<pyi>{_TESTS}\.[\w.]+)"
    rf"|.*?(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s+|^\s*import\s+)['\"](?P<js>\.{{1,2}}/(?:[\w@.-]+/)*?{_TESTS}/[^'\"]+)['\"]"
    rf"|\s*(?:\w+\s+)?\"(?P<go>[\w./-]+/testdata(?:/[\w./-]*)?)\")")
_QUOTE = 80


def imports_test_code(f: FileFacts, ctx: RiskContext) -> str | None:
    for line in f.change.added_lines:
        if _IMPORT_RE.match(line):
            return f"imports the tests' code into the application: {cut(line.strip(), _QUOTE)}"
    return None


# The rule's example (relay.review.rules): a route's module importing a test helper, and a library's testing module.
TEST_IMPORT_EXAMPLE = (
    FileChange(path="app/main.py", additions=1, added_lines=["from tests.helpers import run"]),
    "imports the tests' code into the application: from tests.helpers import run",
    FileChange(path="app/main.py", additions=1, added_lines=["from django.test import override_settings"]),
)
