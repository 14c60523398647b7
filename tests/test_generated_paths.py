"""Guard: a generated-looking path does not hide code from the review (relay.review.unread_lines).

The party: the worker, which names its own files. Generated output (``dist/``, ``gen/``, ``*.generated.*``) is not
read line by line; ``eval(request.args["q"])`` written to ``src/gen/util.py`` and imported from the app was a "new
file", low. Now a file of hand's size is read as code wherever it lives, and output too big to read says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewed import review_edits

_EVAL = 'def run(request):\n    return eval(request.args["q"])\n'


def _review(tmp_path: Path, files: dict[str, str]) -> tuple[str, dict[str, tuple[str, str]]]:
    overall, found = review_edits(tmp_path, files, before={"app.py": "def handler(request):\n    return 'ok'\n"}, task="tidy the handler")
    return overall, {path: (c.risk, c.reasons[0]) for path, c in found.items()}


@pytest.mark.parametrize("path", ["src/gen/util.py", "dist/util.js", "lib/util.generated.ts", "generated/util.rb", "node_modules/x/index.js"])
def test_code_of_hands_size_under_a_generated_path_is_read_as_code(tmp_path, path):
    overall, found = _review(tmp_path, {path: _EVAL.replace("def run(request):", "function run(request) {" if path.endswith(("js", "ts")) else "def run(request)")})
    assert found[path][0] == "high" and "eval(request.args" in found[path][1], found
    assert overall == "high"


def test_output_too_big_to_read_says_so_and_is_not_low(tmp_path):
    bundle = "".join(f"var v{i} = {i};\n" for i in range(400)) + 'eval(location.hash.slice(1));\n'
    overall, found = _review(tmp_path, {"dist/bundle.js": bundle, "dist/app.min.js": "!function(){" + "a=1;" * 200 + "eval(x)}();\n"})
    for path in ("dist/bundle.js", "dist/app.min.js"):
        assert found[path][0] == "medium" and found[path][1].startswith("generated output, not read line by line"), found
    assert overall != "low"


def test_snapshots_and_source_maps_are_neither_read_nor_flagged(tmp_path):
    overall, found = _review(tmp_path, {"src/__snapshots__/app.test.js.snap": "exports[`a 1`] = `eval(x)`;\n",
                                        "dist/app.js.map": '{"version":3,"sources":["eval.js"]}\n'})
    assert all(risk == "low" for risk, _ in found.values()), found
    assert overall == "low"
