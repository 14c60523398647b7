"""Guard: code after a block comment on the same line is read (relay.review.line_shapes.comment_only).

The party: the worker. The readers leave comment-only lines out, and a line was called a comment by its first
characters: ``/* run it */ cp.exec('ls ' + x);`` started with ``/*``, so the shell call after the comment was never
read and the change was "edit (+2/-0)", low. The same line without the comment was high.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.review.line_shapes import comment_only
from reviewed import review_edits

_C = ("//", "/*", "*", "#!")


@pytest.mark.parametrize(("path", "text"), [
    ("web/run.js", "const cp = require('child_process');\nmodule.exports = (x) => {\n  /* run it */ cp.exec('ls ' + x);\n};\n"),
    ("src/main/java/app/Run.java", "class Run {\n  void go(String cmd) throws Exception {\n"
                                   "    /* tidy */ Runtime.getRuntime().exec(\"sh -c \" + cmd);\n  }\n}\n"),
    ("public/q.php", "<?php\n/* legacy */ eval($_GET['q']);\n"),
    ("web/inline.ts", "export function f(x: string) {\n  /**/ /* twice */ return eval(x);\n}\n"),
    ("src/app.c", "void f(const char *s) {\n  /* copy\n   * to the log */ char b[8]; strcpy(b, s);\n}\n"),
])
def test_code_after_a_closed_block_comment_is_read(tmp_path, path, text):
    overall, found = review_edits(Path(tmp_path), {path: text}, task="tidy the module")
    assert overall == "high", found
    assert found[path].risk == "high", found[path]


@pytest.mark.parametrize(("line", "prefixes", "only"), [
    ("/* a note */", _C, True),
    ("/** doc */", _C, True),
    (" * @param x the value", _C, True),
    (" */", _C, True),
    ("/* opens here and goes on", _C, True),
    ("/* a */ // and more", _C, True),
    ("// x */ y()", _C, True),  # a line comment runs to the end whatever it holds
    ("# a */ b()", ("#",), True),
    ("--[[ note ]] os.execute(cmd)", ("--",), False),
    ("/* a */ f()", _C, False),
    (" * end */ system(s);", _C, False),
    ("x = 1", _C, False),
])
def test_comment_only(line, prefixes, only):
    assert comment_only(line, prefixes) is only
