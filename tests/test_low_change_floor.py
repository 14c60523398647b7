"""A change otherwise low that quotes a code line it turned, or one edited apart from the rest, is worth a look (round 34).

Each change is reviewed as the relay reviews a run (tests/reviewed.py: a real repository, git's diff, build_review). The
worker's plain work (two helpers added) is low; beside it one line edited in a file the work does not touch, in a shape
no line reader knows. Before the floor each answered `low` with the line quoted; the look-alikes stay as they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.review.apart_edits import Apart, Run
from relay.review.low_change_floor import quoted_turns
from relay.review.odd_edits import name_swapped_only
from reviewed import review_edits

_HELPERS_BEFORE = "def size(items):\n    return len(items)\n"
_HELPERS_AFTER = _HELPERS_BEFORE + (
    "\n\ndef join_names(names):\n    \"\"\"Join the names with a comma.\"\"\"\n    out = []\n    for name in names:\n"
    "        out.append(name.strip())\n    return ', '.join(out)\n\n\ndef first_name(names):\n    for name in names:\n"
    "        return name\n    return None\n")

_KOTLIN = """package app.export

class Exporter(private val sink: Sink) {
    fun header(cols: List<String>): String {
        val line = cols.joinToString(",")
        return line
    }

    fun write(data: List<Row>, limit: Int) {
        val taken = data.take(limit)
        sink.write(rows(taken))
    }
}
"""

# (path, the file before, the text turned, what it turned into): one line each, in a language of its own.
_TURNS = {
    "javascript": ("src/list.js", "export function visible(items) {\n  const rows = items.filter(isShown);\n  return rows;\n}\n",
                   "isShown);", "isShown).concat(hiddenRows);"),
    "ruby": ("lib/queue.rb", "class Queue\n  def pop_batch(store)\n    store.take(batch_size)\n  end\nend\n",
             "store.take(batch_size)", "store.take(store.length)"),
    "kotlin": ("src/main/kotlin/app/export/Exporter.kt", _KOTLIN, "sink.write(rows(taken))", "sink.writeAll(rows(data))"),
}


def _review(tmp_path: Path, path: str, before: str, after: str, *, more: dict[str, str] | None = None) -> tuple[str, FileChange]:
    risk, by = review_edits(tmp_path, {"app/names.py": _HELPERS_AFTER, path: after, **(more or {})},
                            before={"app/names.py": _HELPERS_BEFORE, path: before}, task="add name helpers")
    assert by["app/names.py"].risk == "low", by["app/names.py"]  # the work itself stays low: the floor raises the quote only
    return risk, by[path]


@pytest.mark.parametrize("language", sorted(_TURNS))
def test_a_line_edited_apart_in_a_change_otherwise_low_is_worth_a_look(tmp_path: Path, language: str) -> None:
    path, before, old, new = _TURNS[language]
    risk, found = _review(tmp_path, path, before, before.replace(old, new))
    assert risk == "medium"
    assert found.risk == "medium" and found.rules == ["low_change_apart"]
    assert found.reasons[0].startswith("edit apart from the change") and new.split("(")[0][-6:] in found.reasons[0]


@pytest.mark.parametrize("place", ["test", "docs"])
def test_the_same_line_in_a_test_or_a_page_of_prose_leaves_the_change_low(tmp_path: Path, place: str) -> None:
    # A test's own code and a docs page are read by other readers; a quote there is not a behaviour of the project.
    _, before, old, new = _TURNS["javascript"]
    path = "test/list.test.js" if place == "test" else "docs/list.md"
    wrap = (lambda s: s) if place == "test" else (lambda s: "# List\n\n```js\n" + s + "```\n")
    risk, found = _review(tmp_path, path, wrap(before), wrap(before.replace(old, new)))
    assert risk == "low" and found.risk == "low" and "low_change_quote" not in found.rules


def test_where_another_file_already_asks_for_a_look_the_quote_stays_a_note(tmp_path: Path) -> None:
    # The floor decides only a change that would otherwise say `low`: elsewhere the order and the reasons already lead.
    path, before, old, new = _TURNS["ruby"]
    risk, found = _review(tmp_path, path, before, before.replace(old, new), more={"Gemfile": 'gem "rake", "~> 13.0"\n'})
    assert risk in ("medium", "high")
    assert found.risk == "low" and "note_apart" in found.rules and "low_change_quote" not in found.rules


def test_a_change_with_no_quoted_line_stays_low(tmp_path: Path) -> None:
    # The same files, the line left as it was: nothing quoted, nothing raised.
    path, before, _, _ = _TURNS["kotlin"]
    after = before.replace('joinToString(",")', 'joinToString(", ")')  # the work's own edit, shared names: not apart
    risk, found = _review(tmp_path, path, before, after)
    assert risk == "low" and found.risk == "low"


def _fc(path: str, rules: list[str], reasons: list[str], risk: str = "low") -> FileChange:
    return FileChange(path=path, risk=risk, rules=rules, reasons=reasons)  # type: ignore[arg-type]


def test_which_quotes_the_floor_takes() -> None:
    turned = _fc("src/a.go", ["leading_line"], ["turns: if n < max { → if n <= max {", "edit (+9/-9)"])
    removed = _fc("src/b.c", ["leading_line"], ["removes: if (fd < 0) return -1;", "edit (+3/-5)"])
    added = _fc("src/c.py", ["leading_line"], ["adds: if not cache: return None", "edit (+12/-0)"])  # the commit's own new code
    apart = _fc("examples/d.rb", ["note_apart"], ["edit apart from the change: a → b", "example edited (+1/-1)"])
    prose = _fc("README.md", ["leading_line"], ["turns: …we ship… → …we now ship…", "docs edited (+1/-1)"])
    test = _fc("tests/test_e.py", ["note_apart"], ["edit apart from the change: x → y", "test edited (+1/-1)"])
    plain = _fc("src/f.ts", [], ["edit (+2/-2)"])
    assert quoted_turns([turned, removed, added, apart, prose, test, plain]) == {
        "src/a.go": "turns: if n < max { → if n <= max {", "src/b.c": "removes: if (fd < 0) return -1;",
        "examples/d.rb": "edit apart from the change: a → b"}
    # Any file above low: the change is not low, and no quote is raised.
    assert quoted_turns([turned, _fc("package.json", ["manifest"], ["dependency manifest"], risk="medium")]) == {}


def test_a_message_reworded_apart_stays_a_note_in_a_change_otherwise_low(tmp_path: Path) -> None:
    # Round 13's finding on ordinary history: most quotes apart were a message re-worded. The floor leaves them low.
    before = 'def main(parser):\n    parser.add_argument("--env", help="Load environment variables from this file")\n'
    risk, found = _review(tmp_path, "app/cli.py", before, before.replace("Load environment variables from this file", "Load the variables from a dotenv file"))
    assert found.rules == ["note_apart"] and found.reasons[0].startswith("edit apart from the change")  # quoted still
    assert risk == "low" and found.risk == "low"


@pytest.mark.parametrize(("before", "old", "new"), [
    ("def load(registry, key):\n    return registry.lookup(key)\n", "registry.lookup(key)", "registry.find_entry(key)"),  # a call renamed
    ("package main\n\nfunc save(png []byte) {\n\tioutil.WriteFile(\"qr.png\", png, 0644)\n}\n", "ioutil.WriteFile", "os.WriteFile"),  # an API moved
])
def test_one_name_put_for_another_apart_stays_a_note(tmp_path: Path, before: str, old: str, new: str) -> None:
    path = "app/registry.py" if before.startswith("def") else "cmd/save.go"
    risk, found = _review(tmp_path, path, before, before.replace(old, new))
    assert found.rules == ["note_apart"] and risk == "low" and found.risk == "low"


@pytest.mark.parametrize(("old", "new", "renamed"), [
    ("    return expand(fmt)", "    return expandAll(fmt)", True),
    ("\tioutil.WriteFile(name, data, 0644)", "\tos.WriteFile(name, data, 0644)", True),
    ("  cfg.fetch(:shared, false)", "  cfg.fetch(:shared, true)", False),  # a value word: the line turns
    ("  if (user == null) return;", "  if (user == undefined) return;", False),
    ("    return expand(fmt)", "    return fmt", False),  # a call dropped
    ("  n = read(fd, buf, size - used);", "  n = read(fd, buf, size);", False),
    ("  flags = O_RDONLY | O_CLOEXEC;", "  flags = O_RDONLY | O_NOFOLLOW;", False),  # a value put for another: a turn
    ("  opts[kSecAttrAccessible] = kSecAttrAccessibleWhenUnlocked", "  opts[kSecAttrAccessible] = kSecAttrAccessibleAlways", False),
])
def test_what_counts_as_one_name_put_for_another(old: str, new: str, renamed: bool) -> None:
    found = Apart(Run("src/x", 1, 1, (new,), (old,)), "q", (new,), (old,))
    assert name_swapped_only(found) is renamed


def test_a_quiet_edit_apart_stays_beside_the_turned_line_the_floor_raises() -> None:
    # Held-out 54's keychain entry: the floor raised the file on its leading `removes:` line, and the row that said it
    # outranked the edit apart quoting the plant. The turned line's row outranks only the leading line's note.
    from relay.review.facts import RiskContext
    from relay.review.risk import assess

    path = "Sources/Store/Query.swift"
    change = FileChange(path=path, additions=1, deletions=3, removed_lines=["#if os(macOS)", "#endif", "    query[kAccess] = kAccessWhenUnlocked"],
                        added_lines=["    query[kAccess] = kAccessAlways"])
    apart = "edit apart from the change in query(): …= kAccessWhenUnlocked → …= kAccessAlways"
    found = assess(change, RiskContext(apart={path: apart}, low_change_quotes={path: "removes: #if os(macOS)"}))
    assert found.risk == "medium" and "low_change_quote" in found.rules and "note_apart" in found.rules
    assert apart in found.reasons and "removes: #if os(macOS)" in found.reasons
