"""Issue 36, session 55: a dict's entry is code, not a docstring's prose.

Whom it guards against: the worker that turns a parser table's ``"processes": lambda x: int(x) if x != "all" else None,``
into ``eval(x)`` (held-out 368's pabot, labelled blind). The line alone parsed in no reading the mechanical verdict tried
(a statement, a block's branch, a bracketed expression, an argument list, a list's item), so it was read as docstring
prose and the file as "docstrings only": low, its readers silenced, whatever the line held. A dict's entry is a reading
too now (relay.review.code_reading); a docstring's wording stays "docstrings only".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.review.code_reading import mechanical_verdict
from reviewed import review_edits

__all__: list[str] = []  # a test module exports nothing

_TABLE = ('def parse(args):\n    """Parse the arguments.\n\n    Returns the options.\n    """\n    value_args = {\n        "hive": str,\n'
          '        "processes": lambda x: int(x) if x != "all" else None,\n        "timeout": int,\n    }\n    return value_args\n')


def test_an_entry_of_a_dict_turned_to_eval_is_read_not_called_docstrings(tmp_path: Path) -> None:
    after = _TABLE.replace("int(x) if", "eval(x) if")
    risk, files = review_edits(tmp_path, {"src/pabot/arguments.py": after}, before={"src/pabot/arguments.py": _TABLE})
    found = files["src/pabot/arguments.py"]
    assert (risk, found.risk) == ("high", "high") and "eval(x)" in found.reasons[0], found


@pytest.mark.parametrize(("old", "new", "verdict"), [
    ('"processes": lambda x: int(x) if x != "all" else None,', '"processes": lambda x: eval(x) if x != "all" else None,', None),
    ('"verify": True,', '"verify": False,', None),
    ("Returns the value, or None.", "Returns the parsed value, or None.", "docstrings only"),
    ("Note: the value is cached, or not.", "Note: the value is kept, or not.", "docstrings only"),  # keyed by no literal
])
def test_a_dict_entry_is_code(old: str, new: str, verdict: str | None) -> None:
    c = FileChange(path="src/app/options.py", kind="modified", additions=1, deletions=1, added_lines=["        " + new], removed_lines=["        " + old])
    assert mechanical_verdict(c) == verdict
