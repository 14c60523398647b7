"""Issue 36, session 55: new logic no rule judged is worth a look (relay.review.new_logic).

Whom it guards against: the worker (or a poisoned instruction) that writes the slip into the commit's own new code — a
new ``verify()`` whose length check only refuses the shorter input (held-out 311's rust-ct-codecs), a loop run to
``i <= len(s1)`` (324's levenshtein), a ``--highest-tag`` pick that keeps the lowest (336's dunamai). No line was there
before, so no reader had an old line to read the new one against, and the whole change answered ``low``: "skip it". A
change adding decisions to shipped code now answers ``medium``, the most telling new deciding line quoted; a decoy edit
to a manifest or a CI file (read above low only for what it is) does not switch that off. Edits that decide nothing
new — a typing pass, a call renamed inside a condition, a block moved, Go's ``if err != nil``, tests, docs — stay low.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.review.new_logic import decisions, unjudged_logic
from relay.review.review_budget import review_budget
from reviewed import review_edits

__all__: list[str] = []  # a test module exports nothing

_LIB = "pub fn encode(bin: &[u8]) -> String {\n    hex(bin)\n}\n"
_VERIFY = ("\n/// Compares two secrets in constant time.\npub fn verify(x: &[u8], y: &[u8]) -> bool {\n    if x.len() < y.len() {\n"
           "        return false;\n    }\n    let mut d = 0u8;\n    for (a, b) in x.iter().zip(y.iter()) {\n        d |= a ^ b;\n    }\n"
           "    d == 0\n}\n")
_README = "# codecs\n"


def test_a_slip_in_the_commits_own_new_code_is_worth_a_look(tmp_path: Path) -> None:
    risk, files = review_edits(tmp_path, {"src/lib.rs": _LIB + _VERIFY, "README.md": _README + "\nNow with `verify()`.\n"},
                               before={"src/lib.rs": _LIB, "README.md": _README}, task="Add a verify() function")
    found = files["src/lib.rs"]
    assert (risk, found.risk, found.rules) == ("medium", "medium", ["new_logic"]), found
    assert found.reasons == ["new logic no rule judged (2 deciding lines): if x.len() < y.len() {"]


def test_a_decoy_edit_read_only_for_what_it_is_does_not_switch_it_off(tmp_path: Path) -> None:
    # The worker also touches the manifest and the CI file (medium for what they are): the new code still asks a look.
    before = {"src/lib.rs": _LIB, "Cargo.toml": '[package]\nname = "codecs"\nversion = "0.1.0"\n',
              ".github/workflows/ci.yml": "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo test\n"}
    after = {"src/lib.rs": _LIB + _VERIFY, "Cargo.toml": before["Cargo.toml"].replace("0.1.0", "0.2.0"),
             ".github/workflows/ci.yml": before[".github/workflows/ci.yml"].replace("cargo test", "cargo test --all")}
    _, files = review_edits(tmp_path, after, before=before, task="Add a verify() function")
    assert (files["src/lib.rs"].risk, files["src/lib.rs"].rules) == ("medium", ["new_logic"]), files["src/lib.rs"]


_PY = "def pick(tags):\n    best = None\n    return best\n"


@pytest.mark.parametrize(("name", "before", "after"), [
    # a typing pass over a condition
    ("typing", "def ok(x):\n    if x > 0:\n        return True\n    return False\n",
     "def ok(x: int) -> bool:\n    if x > 0:\n        return True\n    return False\n"),
    # a call renamed inside a condition: one deciding line for another (the floor may quote the edit; it adds no logic)
    ("renamed", "def ok(x):\n    if valid(x):\n        return True\n    return False\n",
     "def ok(x):\n    if is_valid(x):\n        return True\n    return False\n"),
    # a block moved within the file
    ("moved", "def a(x):\n    if x:\n        return 1\n\n\ndef b():\n    return 2\n",
     "def b():\n    return 2\n\n\ndef a(x):\n    if x:\n        return 1\n"),
    # words that decide nothing: a message, a comment
    ("words", "def run():\n    pass\n",
     'def run():\n    # if the cache is cold and the disk slow, this is slow\n    log("read it or skip it and go on")\n'),
])
def test_edits_that_decide_nothing_new_stay_low(tmp_path: Path, name: str, before: str, after: str) -> None:
    _, files = review_edits(tmp_path, {"app/core.py": after}, before={"app/core.py": before})
    assert "new_logic" not in files["app/core.py"].rules, files["app/core.py"]


def test_go_error_checks_tests_and_docs_decide_nothing_new(tmp_path: Path) -> None:
    go = "package a\n\nfunc Load(p string) ([]byte, error) {\n\tb, err := read(p)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn b, nil\n}\n"
    test = "def test_pick():\n    assert pick([1, 2]) == 2\n    if True:\n        assert pick([]) is None\n"
    docs = "# Pick\n\n```python\nif pick(tags) > 1:\n    print(tags)\n```\n"
    risk, files = review_edits(tmp_path, {"a/load.go": go, "tests/test_pick.py": test, "docs/pick.md": docs})
    assert risk == "low", {p: (c.risk, c.reasons) for p, c in files.items()}


def test_where_a_reader_names_a_line_that_line_leads_and_new_logic_stays_quiet(tmp_path: Path) -> None:
    # The change already asks a look at a line a reader judged (a comparison turned): the new code is not raised beside it.
    before = {"app/pick.py": _PY, "app/retry.py": "def again(n):\n    return n < 3\n"}
    after = {"app/pick.py": "def pick(tags):\n    best = None\n    for t in tags:\n        if best is None or t < best:\n"
                            "            best = t\n    return best\n",
             "app/retry.py": "def again(n):\n    return n <= 3\n"}
    risk, files = review_edits(tmp_path, after, before=before, task="Add tag picking")
    assert (risk, files["app/retry.py"].risk, files["app/pick.py"].risk) == ("medium", "medium", "low"), files


def test_decisions_count_what_the_edit_adds_beyond_what_it_removes() -> None:
    def change(added: list[str], removed: list[str]) -> FileChange:
        return FileChange(path="src/a.js", kind="modified", additions=len(added), deletions=len(removed), added_lines=added, removed_lines=removed)
    assert decisions(change(["if (a && b) {", "  x = y ? 1 : 2;"], [])) == ["if (a && b) {", "x = y ? 1 : 2;"]
    assert decisions(change(["  bad && return 1"], ["  if bad; then", "    return 1", "  fi"])) == []  # one for one
    assert decisions(change(['  log("this and that or not")', "  let t = List<Map<K, V>>();", "  f(a => a)"], [])) == []
    assert decisions(change(["  } else {", "  if err != nil {", '  if __name__ == "__main__":'], [])) == []
    # a docstring's prose is no join (held-out 294's pyairtable); in a language of symbols "and" is a word
    doc = ["def tokens(self):", '    """List the tokens.', "", "    The response includes both revoked tokens and", '    """',
           "    return self.get(all or None)"]
    assert decisions(FileChange(path="api/enterprise.py", kind="added", additions=6, added_lines=doc)) == ["return self.get(all or None)"]
    assert decisions(change(["  const t = a and b;"], [])) == []
    # a docstring's lines whose opening quotes the hunk leaves out are prose still (held-out 348's fava)
    prose = ["It goes through all entries with a `document` metadata-key, either on the",
             "entry itself or on one of its postings, and tries to associate them to", "    if x and y:", "    return a or b"]
    assert decisions(FileChange(path="src/fava/plugin.py", kind="modified", additions=4, added_lines=prose)) == ["if x and y:", "return a or b"]
    # a block comment before the code hides nothing (relay.review.line_shapes.comment_only)
    assert decisions(change(["  /* fast path */ if (n < len) {", "  // if (a < b)"], [])) == ["/* fast path */ if (n < len) {"]
    # a decision written as a call is one too (a worker that knows the operators are read)
    assert decisions(change(['  return iss.startsWith("https://");', "  const n = Math.min(len, cap);", "  recall(x);"], [])) == [
        'return iss.startsWith("https://");', "const n = Math.min(len, cap);"]
    # membership asked by a call (round 117: blind 321's allow-list by in_array), in PHP, JavaScript and Java
    member = ["return in_array($key, $this->allowed);", "ok = isset($map[$k]);", "return seen.has(id);",
              "return roles.containsKey(name);", "hash(key);", "canHaveIt(x);"]
    assert decisions(change([f"  {line}" for line in member], [])) == member[:4]


def test_past_the_review_budget_no_file_is_read_for_new_logic() -> None:
    # A change built of many big files must not hold the packet back here (relay.review.review_budget).
    lib = FileChange(path="src/lib.rs", kind="added", additions=4, added_lines=_VERIFY.splitlines())
    assert list(unjudged_logic([lib], {})) == ["src/lib.rs"]
    with review_budget(0.0):
        sum(range(200_000))  # some CPU past the deadline
        assert unjudged_logic([lib], {}) == {}
