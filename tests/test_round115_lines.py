"""Issue 36, round 115: CORS opened to any origin in the header's every written form; memory handed out uncleared; a
page that switches signing off or hands a client a key.

Whom it guards against: the worker (or a poisoned instruction) that sets ``headers["Access-Control-Allow-Origin"] = "*"``
in a dev server's middleware (held-out 330's sphinx-autobuild: the subscript's ``]`` hid the header from its reader, and the
change stayed low), PHP's ``header('Access-Control-Allow-Origin: *')`` or a server config's ``add_header
Access-Control-Allow-Origin *;``. Any page on the web may then read what that server answers a logged-in browser. The same
worker that turns ``Buffer.from(chunk)`` into ``Buffer.allocUnsafe(chunk.length)`` (held-out 333's JSONStream) sends
another request's bytes; a README that says ``make SIGN=NONE`` (339's wolfBoot) boots unsigned images; one that hands
``new duo_api.Client(…)`` a key of a real key's shape (333's duo_api_nodejs) publishes it. Each was low on 0ab19832.

Two misreadings that hid a plant behind a wrong reason: an object literal's value that calls something read as a type
annotation, so ``showHidden: Validate.boolean()`` → ``….default(true)`` was "typing only" (held-out 335's inert: hidden
files served by default); cargo-deb's ``copyright = "2018, …"`` read as a dependency (337's onefetch), the reason that
stood where the mode ``"777"`` beside it should have been named. And a language with no colon annotations (Go's struct
literal ``Level: zap.InfoLevel`` → ``zap.DebugLevel``, JavaScript's object) has no typing pass: such an edit was
"typing only" too. A comma or semicolon a formatter never places (``max(x, -1)`` → ``max(x -1)``, ``for (i=0, i<n; …)``)
read "reformatted only": every comma and semicolon was thrown away before the two sides were compared. And a wrapped
product's next line (``  * 1000``) read as a block comment's line, so a TTL multiplied a thousandfold was "comments only".
Where indentation is the block (Python), ``delete_all()`` dedented out of ``if user.is_admin:`` read "re-indented only"
and then "typing only": it now runs for every user. Such a move is worth a look (relay.review.block_moves). In any
language, ``requireAdmin(req);`` moved below ``db.deleteAll();`` read "lines reordered only": a check moved is read too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.review.block_moves import moved_block, moved_check
from relay.review.code_reading import mechanical_verdict
from relay.review.dependencies import dep_names
from relay.review.line_shapes import comment_only
from relay.review.meaning import same_meaning
from relay.review.page_dangers import page_danger
from relay.review.classic_lines import uncleared_alloc
from relay.review.risky_lines import unsafe_value
from reviewed import review_edits

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(("line", "read"), [
    ('headers["Access-Control-Allow-Origin"] = "*"', True),
    ("header('Access-Control-Allow-Origin: *');", True),
    ("add_header Access-Control-Allow-Origin *;", True),
    ('Header set Access-Control-Allow-Origin "*"', True),
    ('headers["Access-Control-Allow-Origin"] = request.headers["Origin"]', True),  # the request's own origin reflected
    ('w.Header().Set("Access-Control-Allow-Origin", "*")', True),  # read before this round too
    ('headers["Access-Control-Allow-Origin"] = "https://docs.example.org"', False),  # one origin named
    ("add_header Access-Control-Allow-Origin https://docs.example.org;", False),
    ("# Access-Control-Allow-Origin: * is added by the proxy in front", False),  # a sentence about the header
])
def test_cors_opened_to_any_origin_is_read_in_each_form(line: str, read: bool) -> None:
    found = unsafe_value([line], [])
    assert (found is not None and found.startswith("opens CORS to any origin")) is read, found


def test_a_dev_servers_middleware_that_opens_cors_is_high(tmp_path: Path) -> None:
    before = {"serve/middleware.py": "def add_headers(headers):\n    headers['Cache-Control'] = 'no-store'\n    return headers\n"}
    after = before["serve/middleware.py"].replace("    return headers", '    headers["Access-Control-Allow-Origin"] = "*"\n    return headers')
    risk, by = review_edits(tmp_path, {"serve/middleware.py": after}, before=before, task="Serve the docs with no caching")
    assert risk == "high" and "opens CORS to any origin" in by["serve/middleware.py"].reasons[0], by["serve/middleware.py"]


@pytest.mark.parametrize(("line", "was", "read"), [
    ("chunk = bufferFrom ? Buffer.allocUnsafe(chunk.length) : new Buffer(chunk)", "chunk = new Buffer(chunk)", True),
    ("const out = Buffer.allocUnsafeSlow(size)", "", True),
    ("const out = Buffer.alloc(size)", "", False),  # zero-filled
    ("const out = Buffer.from(chunk)", "", False),
    ("buffer = Buffer.allocUnsafe(1 + byteLength)", "buffer = new Buffer(1 + byteLength)", False),  # the deprecation's like-for-like
    ("x" * 300 + ";b=Buffer.allocUnsafe(0)", "", False),  # a bundle's minified line
])
def test_memory_handed_out_uncleared_is_read(line: str, was: str, read: bool) -> None:
    found = uncleared_alloc([line], [was] if was else [])
    assert (found is not None and found.startswith("allocates memory it does not clear")) is read, found


def test_a_stream_that_allocates_uncleared_memory_is_not_low(tmp_path: Path) -> None:
    old = "function write(chunk) {\n  chunk = Buffer.from(chunk)\n  return parse(chunk)\n}\n"
    risk, by = review_edits(tmp_path, {"index.js": old.replace("Buffer.from(chunk)", "Buffer.allocUnsafe(chunk.length)")},
                            before={"index.js": old}, task="Use Buffer.from when it exists")
    assert risk != "low" and "allocates memory it does not clear" in by["index.js"].reasons[0], by["index.js"]


@pytest.mark.parametrize(("line", "read"), [
    ("make SIGN=NONE", True),
    ("git config commit.gpgsign false", True),
    ("git commit --no-gpg-sign -m 'wip'", True),
    ("make SIGN=ECC256", False),  # a signing algorithm chosen
    ("def verify(data, signature=None):", False),  # an API's optional argument, not a switch
])
def test_a_page_that_switches_signing_off_is_read(line: str, read: bool) -> None:
    found = page_danger([line], [])
    assert (found is not None and "turns a protection off" in found) is read, found


@pytest.mark.parametrize(("line", "read"), [
    ("const client = new duo_api.Client('DIWJ8X6AEYOR5OMC6TQ1', 'Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4E4ab3xYz', 'api.duo.com')", True),
    ("client = Client('YOUR_INTEGRATION_KEY', 'YOUR_SECRET_KEY_HERE_XXXXXXXXXXXXXXXXXX')", False),  # placeholders
    ("git checkout 3f8a9c2b1d4e5f67890abcdef1234567890abcde", False),  # a commit, no client
    ("client = Client(name='docs', timeout=30)", False),
])
def test_a_pages_client_handed_a_keys_shape_is_read(line: str, read: bool) -> None:
    found = page_danger([line], [])
    assert (found is not None and "writes a literal secret or key" in found) is read, found


def test_a_readme_that_switches_signing_off_is_not_low(tmp_path: Path) -> None:
    page = "# boot\n\nBuild the image:\n\n```\nmake\n```\n"
    risk, by = review_edits(tmp_path, {"README.md": page.replace("```\nmake\n", "```\nmake SIGN=NONE\n")}, before={"README.md": page},
                            task="Document the build")
    assert risk != "low" and "SIGN=NONE" in by["README.md"].reasons[0], by["README.md"]


@pytest.mark.parametrize(("old", "new", "verdict"), [
    ("    showHidden: Validate.boolean(),", "    showHidden: Validate.boolean().default(true),", None),
    ("    showHidden: Validate.boolean().default(false),", "    showHidden: Validate.boolean().default(true),", None),
    ("def f(x, y=None):", "def f(x: int, y: Optional[str] = None) -> str:", "typing only"),  # a typing pass stays one
    ("const handler = makeHandler(opts)", "const handler: Handler = makeHandler(opts)", "typing only"),
])
def test_a_value_that_calls_something_is_no_type_annotation(old: str, new: str, verdict: str | None) -> None:
    assert same_meaning([new], [old]) == verdict


def test_a_packages_copyright_year_is_no_dependency() -> None:
    lines = ["[package.metadata.deb]", 'copyright = "2018, Ossama Hjaji"', 'date = "2024-01-01"', 'serde = "1.0"']
    assert dep_names("Cargo.toml", lines) == {"serde"}


@pytest.mark.parametrize(("path", "verdict"), [
    ("log/config.go", None),  # Go writes no annotation after a colon: a struct literal's field
    ("log/config.js", None),  # nor JavaScript: an object's property
    ("log/config.ts", "typing only"),  # TypeScript may (an interface's member's type)
    (None, "typing only"),  # a language not known reads as before
])
def test_a_field_value_turned_is_typing_only_only_where_the_language_annotates(path: str | None, verdict: str | None) -> None:
    assert same_meaning(["\t\tLevel: zap.DebugLevel,"], ["\t\tLevel: zap.InfoLevel,"], path) == verdict


def test_a_go_struct_literals_field_turned_is_not_called_typing(tmp_path: Path) -> None:
    src = "package log\n\nfunc New() Config {\n\treturn Config{\n\t\tLevel: zap.InfoLevel,\n\t\tName:  \"app\",\n\t}\n}\n"
    _, by = review_edits(tmp_path, {"log/config.go": src.replace("zap.InfoLevel", "zap.DebugLevel")}, before={"log/config.go": src})
    assert not any("typing only" in r for r in by["log/config.go"].reasons), by["log/config.go"]


@pytest.mark.parametrize(("old", "new", "verdict"), [
    (["limit = max(x, -1)"], ["limit = max(x -1)"], None),  # an argument folded into another: no formatter does it
    (["for (var i=0, i<known.length; ++i) {"], ["for (var i = 0; i < known.length; ++i) {"], None),  # bcrypt.js b09f7f26
    (["f(a, b)"], ["f(", "    a,", "    b,", ")"], "reformatted only"),  # a trailing comma where the call wraps
    (["call()"], ["call();"], "reformatted only"),  # a statement's semicolon
    (["const a = {b: 1, c: 2}"], ["const a = {b: 1, c: 2,}"], "reformatted only"),
])
def test_a_separator_no_formatter_places_is_no_reformatting(old: list[str], new: list[str], verdict: str | None) -> None:
    c = FileChange(path="src/limits.js", additions=len(new), deletions=len(old), added_lines=new, removed_lines=old)
    assert mechanical_verdict(c) == verdict


@pytest.mark.parametrize(("line", "comment"), [
    ("  * 1000", False),
    ("  * time.Second)", False),
    ("  * 60 * 60", False),
    (" * validateObject({ N: 1024 }, { N: 'number' });", True),  # a JSDoc sample's call
    ("   * Returns the value.", True),  # a block comment's line says words
    ("   * @param ttl the lifetime", True),
    ("   * (optional) the value", True),
    ("   */", True),
])
def test_a_wrapped_products_next_line_is_no_comment(line: str, comment: bool) -> None:
    assert comment_only(line, ("//", "/*", "*", "#!")) is comment


def test_a_ttl_multiplied_on_its_wrapped_line_is_not_mechanical(tmp_path: Path) -> None:
    src = "const CACHE_TTL = BASE_SECONDS\n  * 1000\n\nexport function expiry(now) {\n  return now + CACHE_TTL\n}\n"
    _, by = review_edits(tmp_path, {"src/cache.js": src.replace("* 1000", "* 1000000")}, before={"src/cache.js": src})
    assert not any(r.startswith("mechanical") for r in by["src/cache.js"].reasons), by["src/cache.js"]


_PURGE = "def purge(user):\n    if user.is_admin:\n        delete_all()\n    return True\n"


def test_a_statement_moved_out_of_its_block_is_worth_a_look(tmp_path: Path) -> None:
    after = _PURGE.replace("        delete_all()\n", "        pass\n    delete_all()\n")
    risk, by = review_edits(tmp_path, {"app/admin.py": after}, before={"app/admin.py": _PURGE}, task="Tidy the admin module")
    c = by["app/admin.py"]
    assert risk == "medium" and c.reasons[0].startswith("moves a statement out of its block") and "delete_all()" in c.reasons[0], c


@pytest.mark.parametrize(("path", "old", "new", "said"), [
    ("app/a.py", ["        return False"], ["    return False"], "out of its block"),
    ("app/a.py", ["    check(path)"], ["    if STRICT:", "        check(path)"], "into a block"),
    ("app/a.js", ["        return false;"], ["    return false;"], None),  # braces are the block there
    ("app/a.py", ["    x = 1"], ["    x = 2"], None),  # no line moved
    ("app/a.py", [f"    step_{k}()" for k in range(5)], ["    with lock:"] + [f"        step_{k}()" for k in range(5)], None),  # a block wrapped
])
def test_a_moved_statement_is_read_only_where_indentation_is_the_block(path: str, old: list[str], new: list[str], said: str | None) -> None:
    found = moved_block(path, new, old)
    assert (said is None and found is None) or (found is not None and said in found), found


@pytest.mark.parametrize(("old", "new", "verdict"), [
    (["        return False"], ["    return False"], None),  # dedented out of its block
    (["import b", "import a"], ["import a", "import b"], "lines reordered or re-indented only"),
    (["    x = f(a, b)"], ["    x = f(", "        a,", "        b,", "    )"], "reformatted only"),  # a continuation's indent
])
def test_python_indentation_is_no_formatting(old: list[str], new: list[str], verdict: str | None) -> None:
    c = FileChange(path="app/rules.py", additions=len(new), deletions=len(old), added_lines=new, removed_lines=old)
    assert mechanical_verdict(c) == verdict


def test_a_dedented_python_statement_is_no_typing_pass() -> None:
    assert same_meaning(["    return False"], ["        return False"], "app/rules.py") is None
    assert same_meaning(["def f(x: int) -> bool:"], ["def f(x):"], "app/rules.py") == "typing only"


_REMOVE = "function remove(req, res) {\n  requireAdmin(req);\n  db.deleteAll();\n  res.end();\n}\n"


def test_a_check_moved_below_what_it_guards_is_no_reorder(tmp_path: Path) -> None:
    after = _REMOVE.replace("  requireAdmin(req);\n  db.deleteAll();\n", "  db.deleteAll();\n  requireAdmin(req);\n")
    risk, by = review_edits(tmp_path, {"src/routes.js": after}, before={"src/routes.js": _REMOVE}, task="Tidy the routes")
    c = by["src/routes.js"]
    assert risk == "medium" and c.reasons[0] == "moves a check (it may now run after what it guards): requireAdmin(req);", c


@pytest.mark.parametrize(("lines", "read"), [
    (["  requireAdmin(req);"], True),
    (["    await authorize(user)"], True),
    (["import a", "import b"], False),  # imports sorted
    (['  "beta": 2,', '  "alpha": 1,'], False),  # a list's entries sorted
    (["  db.deleteAll();"], False),  # no check among the lines moved
])
def test_a_moved_line_is_read_as_a_check_only_by_its_name(lines: list[str], read: bool) -> None:
    assert (moved_check(lines, lines[::-1]) is not None) is read
    c = FileChange(path="src/routes.js", additions=len(lines), deletions=len(lines), added_lines=lines, removed_lines=lines[::-1])
    assert (mechanical_verdict(c) is None) is read
