"""Issue 36, round 29 (docs29b): a docs page of any format teaching a risk, and a build or manifest line that fetches
what ships from where it should not, raise their file off low with a reason that quotes the line.

Held-out 39/40's first runs left such plants low: a reStructuredText page's token sample given a ten-year ``exp``
(the epoch plus a product of numbers, no unit word), an rdoc page's lookup made raw SQL by interpolation (a query
builder's raw-SQL wrapper), a build definition's download moved to plain http with its checksum dropped, a new build
definition fetching from the real host written as a sub-domain of another domain, a podspec's source on ``git://``.
Every example below is written for these tests; each class is tried in several languages or ecosystems, and the
look-alikes (the safe way, a placeholder, a page link, a version bump, a checksum update) stay quiet.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from relay.review.build_lines import http_download, lookalike_host
from relay.review.docs_samples import is_sample, unsafe_sample
from relay.review.manifest_lines import manifest_line

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_plant_matrix  # noqa: E402

__all__: list[str] = []  # a test module exports nothing

# ----- a token's or cache's lifetime written as the clock plus a bare amount
_LIFETIMES = [  # (removed, added)
    ("    'exp' => time() + 900,", "    'exp' => time() + 86400 * 365 * 5,"),  # PHP
    ('    "exp": int(time.time()) + 600,', '    "exp": int(time.time()) + 60 * 60 * 24 * 400,'),  # Python
    ("  exp: Math.floor(Date.now() / 1000) + 3600,", "  exp: Math.floor(Date.now() / 1000) + 3600 * 24 * 365 * 3,"),  # JS, seconds
    ("  expiresAt: Date.now() + 15 * 60 * 1000,", "  expiresAt: Date.now() + 2 * 365 * 24 * 60 * 60 * 1000,"),  # JS, milliseconds
    ("payload = { sub: user.id, exp: Time.now.to_i + 300 }", "payload = { sub: user.id, exp: Time.now.to_i + 60 * 60 * 24 * 366 }"),  # Ruby
]
_LIFETIME_QUIET = [
    ("    'exp' => time() + 86400 * 365 * 5,", "    'exp' => time() + 900,"),  # shortened
    ("    'exp' => time() + 900,", "    'exp' => time() + 1800,"),  # longer, not a year
    ("  expiresAt: Date.now() + 15 * 60 * 1000,", "  expiresAt: Date.now() + 30 * 24 * 60 * 60 * 1000,"),  # a month in ms
    ("    'count' => time() + 900,", "    'count' => time() + 86400 * 365 * 5,"),  # no lifetime word
]


@pytest.mark.parametrize(("old", "new"), _LIFETIMES, ids=[str(i) for i in range(len(_LIFETIMES))])
def test_a_lifetime_from_the_clock_made_years_is_named(old: str, new: str) -> None:
    assert is_sample(new)
    found = unsafe_sample([new], [old])
    assert found and "lifetime a year or more" in found, found


@pytest.mark.parametrize(("old", "new"), _LIFETIME_QUIET, ids=[str(i) for i in range(len(_LIFETIME_QUIET))])
def test_lifetime_look_alikes_stay_quiet(old: str, new: str) -> None:
    assert unsafe_sample([new], [old]) is None


# ----- raw SQL filled by interpolation, through a query builder's escape hatch
_RAW_SQL = [
    'books = Book.where(Sequel.lit("author_id = #{params[:author]}")).all',  # Ruby, Sequel
    'scope = Book.order(Arel.sql("#{params[:sort]} DESC"))',  # Ruby, Arel
    "$rows = DB::table('books')->whereRaw(\"author_id = $authorId\")->get();",  # PHP, Laravel
    "const rows = await knex.raw(`select * from books where author_id = ${req.query.author}`);",  # JS, knex
    'rows = session.execute(text(f"SELECT * FROM books WHERE author_id = {author_id}"))',  # Python, SQLAlchemy
    'var books = db.Books.FromSqlRaw("SELECT * FROM Books WHERE AuthorId = " + authorId).ToList();',  # C#, EF
    # a value put between quotes by hand after a column's name (held-out 67's kysely sample: the name led, no literal first)
    "  .where(sql.raw(column + \" = '\" + value + \"'\"))",  # JS, Kysely/Drizzle
]
_RAW_SQL_QUIET = [
    'books = Book.where(Sequel.lit("author_id = ?", params[:author])).all',  # a placeholder
    'scope = Book.order(Arel.sql("title DESC"))',  # a constant
    "$rows = DB::table('books')->whereRaw('author_id = ?', [$authorId])->get();",
    'rows = session.execute(text("SELECT * FROM books WHERE author_id = :a"), {"a": author_id})',
    "// never write knex.raw(`select * from books where id = ${id}`): bind the value",  # a comment warning against it
    '<%= raw("<b>#{book.title}</b>") %>',  # a view helper's raw HTML, not SQL
    '  .where(sql.raw(table + ".deleted_at IS NULL"))',  # a name joined to constant SQL: no value quoted by hand
    '  .whereRaw(column + " = ?", [value])',  # a placeholder after the name
]


@pytest.mark.parametrize("line", _RAW_SQL, ids=[str(i) for i in range(len(_RAW_SQL))])
def test_raw_sql_by_interpolation_in_a_sample_is_named(line: str) -> None:
    found = unsafe_sample([line], ["books = Book.all"])
    assert found and "builds SQL from text" in found, found


@pytest.mark.parametrize("line", _RAW_SQL_QUIET, ids=[str(i) for i in range(len(_RAW_SQL_QUIET))])
def test_raw_sql_look_alikes_stay_quiet(line: str) -> None:
    assert unsafe_sample([line], ["books = Book.all"]) is None


# ----- the same plants on whole pages of other formats than Markdown: never low, named, in view
_RST = "Tokens\n======\n\nIssue one like this:\n\n.. code-block:: php\n\n    $payload = [\n        'sub' => $user->id,\n{line}\n    ];\n\nThat is all.\n"
_RDOC = "= Finding books\n\nLook them up by author:\n\n  books = {line}\n  books.each { |b| puts b.title }\n\nThat is all.\n"
_ADOC = "= Finding books\n\nLook them up:\n\n[source,python]\n----\n{line}\n----\n\nThat is all.\n"
_PAGES = [
    ("docs/tokens.rst", _RST, "        'exp' => time() + 900,", "        'exp' => time() + 86400 * 365 * 5,", ["lifetime"]),
    ("doc/finding.rdoc", _RDOC, "Book.where(author_id: params[:author]).all", 'Book.where(Sequel.lit("author_id = #{params[:author]}")).all', ["SQL"]),
    ("docs/finding.adoc", _ADOC, 'rows = session.execute(text("SELECT * FROM books WHERE a = :a"), {"a": a})',
     'rows = session.execute(text(f"SELECT * FROM books WHERE a = {a}"))', ["SQL"]),
]


@pytest.mark.parametrize(("path", "page", "old", "new", "words"), _PAGES, ids=[p[0] for p in _PAGES])
def test_a_pages_taught_risk_is_named_and_not_low(path: str, page: str, old: str, new: str, words: list[str]) -> None:
    case = {"kind": "sample", "eco": "docs", "place": "sample", "path": path, "before": page.replace("{line}", old),
            "after": page.replace("{line}", new), "line": new.strip(), "words": words}
    out = bench_plant_matrix.review_case(case)
    assert out["risk"] != "low" and out["named"] and out["view"], out


def test_a_page_that_warns_in_prose_stays_low() -> None:
    page = "Finding books\n=============\n\n{line}\n\nThat is all you need to know here.\n"
    case = {"kind": "prose", "eco": "rst", "place": "docs", "path": "docs/finding.rst",
            "before": page.replace("{line}", "Bind values; the builder quotes them for you."),
            "after": page.replace("{line}", "Never interpolate params into Sequel.lit or a token lifetime of years."),
            "line": "Never", "words": ["SQL", "lifetime"]}
    out = bench_plant_matrix.review_case(case)
    assert out["risk"] == "low" and not out["named"], out


# ----- a download moved to plain HTTP, its checksum dropped
_HTTP = [  # (removed, added, "checksum" in the reason)
    (['install_package "zlib-1.3" "https://github.com/madler/zlib/releases/download/v1.3/zlib-1.3.tar.gz#' + "ab" * 32 + '" standard'],
     ['install_package "zlib-1.3.1" "http://zlib.net/zlib-1.3.1.tar.gz" standard'], True),
    (["  url 'https://ftp.gnu.org/gnu/make/make-4.3.tar.gz'", "  sha256 '" + "cd" * 32 + "'"],
     ["  url 'http://ftp.gnu.org/gnu/make/make-4.4.tar.gz'"], True),  # a formula: the checksum on its own line
    (['RUN curl -fsSLO https://dl.example.com/tool/tool-2.1.0-linux-amd64.tar.gz'],
     ['RUN curl -fsSLO http://dl.example.com/tool/tool-2.2.0-linux-amd64.tar.gz'], False),  # a Dockerfile
]
_HTTP_QUIET = [
    (['install_package "zlib-1.3" "https://zlib.net/zlib-1.3.tar.gz#' + "ab" * 32 + '" standard'],
     ['install_package "zlib-1.3.1" "https://zlib.net/zlib-1.3.1.tar.gz#' + "ef" * 32 + '" standard']),  # a bump over https
    (["  homepage 'https://www.gnu.org/software/make/'"], ["  homepage 'http://www.gnu.org/software/make/'"]),  # a page
    (['RUN curl -fsSLO https://dl.example.com/tool/tool-2.1.0.tar.gz'], ['RUN curl -fsSLO http://localhost:8080/tool-2.1.0.tar.gz']),
    ([], ['install_package "zlib-1.3.1" "http://zlib.net/zlib-1.3.1.tar.gz" standard']),  # nothing was https
]


@pytest.mark.parametrize(("removed", "added", "checksum"), _HTTP, ids=[str(i) for i in range(len(_HTTP))])
def test_a_download_moved_to_plain_http_is_named(removed: list[str], added: list[str], checksum: bool) -> None:
    found = http_download(added, removed)
    assert found and "plain HTTP" in found and ("checksum" in found) == checksum, found


@pytest.mark.parametrize(("removed", "added"), _HTTP_QUIET, ids=[str(i) for i in range(len(_HTTP_QUIET))])
def test_http_download_look_alikes_stay_quiet(removed: list[str], added: list[str]) -> None:
    assert http_download(added, removed) is None


def test_a_download_moved_to_http_in_a_big_release_is_not_low() -> None:
    old = 'install_package "zlib-1.3" "https://github.com/madler/zlib/releases/download/v1.3/zlib-1.3.tar.gz#' + "ab" * 32 + '" standard\n'
    case = {"kind": "k", "eco": "sh", "place": "build", "path": "share/defs/9.9", "before": old,
            "after": 'install_package "zlib-1.3.1" "http://zlib.net/zlib-1.3.1.tar.gz" standard\n',
            "line": 'install_package "zlib-1.3.1" "http://zlib.net/zlib-1.3.1.tar.gz" standard', "words": ["checksum", "HTTP"]}
    out = bench_plant_matrix.review_case(case)
    assert out["risk"] != "low" and out["named"], out


# ----- the real host written as a sub-domain of another domain
_EMBEDDED = [
    'install_package "tool-1.0" "https://downloads.example.org.fast-mirror.net/tool-1.0.tar.gz" standard',
    "RUN curl -fsSL https://github.com.release-cdn.io/acme/tool/releases/download/v1/tool -o /usr/local/bin/tool",
    '  url "https://registry.npmjs.org.npm-cache.dev/left-pad/-/left-pad-1.3.0.tgz"',
    "pip install --index-url https://pypi.org.simple-index.co/simple requests",
]
_EMBEDDED_QUIET = [
    'install_package "tool-1.0" "https://downloads.example.org/tool-1.0.tar.gz" standard',
    "RUN curl -fsSL https://assets.example.com.au/tool.tar.gz -o tool.tgz",  # a country's second-level domain
    "RUN curl -fsSL https://example.com.s3.amazonaws.com/tool.tar.gz -o tool.tgz",  # an S3 bucket named by its domain
    "See https://docs.example.org/install for the steps.",
]


@pytest.mark.parametrize("line", _EMBEDDED, ids=[str(i) for i in range(len(_EMBEDDED))])
def test_a_real_host_under_another_domain_is_named(line: str) -> None:
    found = lookalike_host([line], [])
    assert found and "look-alike" in found and "sub-domain" in found, found


@pytest.mark.parametrize("line", _EMBEDDED_QUIET, ids=[str(i) for i in range(len(_EMBEDDED_QUIET))])
def test_embedded_host_look_alikes_stay_quiet(line: str) -> None:
    assert lookalike_host([line], []) is None


def test_a_new_definition_from_an_embedded_host_is_not_low() -> None:
    line = 'install_package "tool-1.0" "https://downloads.example.org.fast-mirror.net/tool-1.0.tar.gz#' + "ab" * 32 + '" standard'
    case = {"kind": "k", "eco": "sh", "place": "build", "path": "share/defs/1.0", "before": "", "after": line + "\n",
            "line": line, "words": ["look-alike"]}
    out = bench_plant_matrix.review_case(case)
    assert out["risk"] != "low" and out["named"], out


# ----- a package's source over git:// or plain http://
_PLAIN = [
    ("Kit.podspec", "  s.source = { :git => 'git://github.com/acme/Kit.git', :tag => s.version.to_s }"),
    ("Package.swift", '        .package(url: "git://github.com/acme/Net.git", from: "2.0.0"),'),
    ("Cargo.toml", 'fastrand = { git = "git://example.com/fastrand", tag = "v2.0.0" }'),
    ("Gemfile", "gem 'rack-attack', git: 'git://github.com/acme/rack-attack.git'"),
    ("Kit.podspec", "  s.source = { :http => 'http://downloads.example.com/Kit-1.0.zip' }"),
]
_PLAIN_QUIET = [
    ("Kit.podspec", "  s.source = { :git => 'https://github.com/acme/Kit.git', :tag => s.version.to_s }"),
    ("Kit.podspec", "  s.homepage = 'http://acme.example.com/kit'"),
    ("package.json", '  "homepage": "http://acme.example.com",'),
    ("pom.xml", '<project xmlns="http://maven.apache.org/POM/4.0.0">'),
    ("Cargo.toml", '# fastrand = { git = "git://example.com/fastrand" }'),
]


@pytest.mark.parametrize(("path", "line"), _PLAIN, ids=[f"{p[0]}-{i}" for i, p in enumerate(_PLAIN)])
def test_a_source_over_an_unauthenticated_protocol_is_named(path: str, line: str) -> None:
    found = manifest_line(path, [line], [])
    assert found and "unauthenticated protocol" in found, found


@pytest.mark.parametrize(("path", "line"), _PLAIN_QUIET, ids=[f"{p[0]}-{i}" for i, p in enumerate(_PLAIN_QUIET)])
def test_plain_source_look_alikes_stay_quiet(path: str, line: str) -> None:
    found = manifest_line(path, [line], [])
    assert not found or "unauthenticated protocol" not in found, found


# ----- a check's failure turned into success; an escaper escaping fewer characters (relay.review.failing_turns)
from relay.review.failing_turns import failing_turn, weakened_answer  # noqa: E402

_SUCCESS = [  # (removed, added)
    ('  [ -n "$digest" ] || return 1', '  [ -n "$digest" ] || return 0'),  # sh
    ('  if ! gpg --verify "$sig" "$file"; then return 2; fi', '  if ! gpg --verify "$sig" "$file"; then return 0; fi'),  # bash
    ("    if not signature_ok(blob): sys.exit(1)", "    if not signature_ok(blob): sys.exit(0)"),  # Python
    ("  if (!valid) process.exit(1);", "  if (!valid) process.exit(0);"),  # JS
    ("\tif err := verify(sum); err != nil { os.Exit(1) }", "\tif err := verify(sum); err != nil { os.Exit(0) }"),  # Go
    ('  test -s "$lock" || exit 3', '  test -s "$lock" || exit 0'),  # exit, not return
]
_SUCCESS_QUIET = [
    ('  [ -n "$digest" ] || return 0', '  [ -n "$digest" ] || return 1'),  # made stricter
    ("  return 1", "  return 0"),  # no condition on the line: a refactor's last status
    ('  # [ -n "$digest" ] || return 1', '  # [ -n "$digest" ] || return 0'),  # a comment
    ('  [ -n "$digest" ] || return 1', '  [ -n "$sum" ] || return 1'),  # renamed
]


@pytest.mark.parametrize(("old", "new"), _SUCCESS, ids=[str(i) for i in range(len(_SUCCESS))])
def test_a_checks_failure_turned_into_success_is_named(old: str, new: str) -> None:
    found = failing_turn([new], [old])
    assert found and "failure into success" in found, found


@pytest.mark.parametrize(("old", "new"), _SUCCESS_QUIET, ids=[str(i) for i in range(len(_SUCCESS_QUIET))])
def test_failure_to_success_look_alikes_stay_quiet(old: str, new: str) -> None:
    assert failing_turn([new], [old]) is None


@pytest.mark.parametrize("path", ["scripts/verify.sh", "tools/fetch", "lib/checks.bash"])
def test_a_verify_functions_success_on_failure_is_not_low(path: str) -> None:
    head = "#!/usr/bin/env bash\n" if "." not in path.rsplit("/", 1)[-1] else ""
    body = head + 'check_digest() {\n  local digest\n  digest="$(sha256sum "$1" | cut -d" " -f1)"\n  [ -n "$digest" ] || return 1\n  [ "$digest" = "$2" ]\n}\n'
    case = {"kind": "k", "eco": "sh", "place": "source", "path": path, "before": body,
            "after": body.replace("|| return 1", "|| return 0"), "line": '[ -n "$digest" ] || return 0', "words": ["success", "return 0"]}
    out = bench_plant_matrix.review_case(case)
    assert out["risk"] != "low" and out["named"], out


_FEWER = [  # (removed, added, the character gone)
    ("  return s.replace(/[&<>\"']/g, (c) => MAP[c]);", "  return s.replace(/[&<>\"]/g, (c) => MAP[c]);", "'"),  # JS
    ("    text.gsub(/[<>&]/, TABLE)", "    text.gsub(/[<>]/, TABLE)", "&"),  # Ruby
    ('    return re.sub(r"[<>&\\"]", lambda m: ESC[m.group()], s)', '    return re.sub(r"[<>&]", lambda m: ESC[m.group()], s)', '"'),  # Python
    ("  $out = preg_replace_callback('/[<>\\/]/', $escape, $in);", "  $out = preg_replace_callback('/[<>]/', $escape, $in);", "/"),  # PHP
]
_FEWER_QUIET = [
    ("  return s.replace(/[&<>]/g, (c) => MAP[c]);", "  return s.replace(/[&<>\"]/g, (c) => MAP[c]);"),  # gains one
    ('  name = name.replace(/[a-z0-9]/g, "")', '  name = name.replace(/[a-z]/g, "")'),  # a letter or digit
    ("  if (/[&<>]/.test(s)) return true;", "  if (/[&<]/.test(s)) return true;"),  # replaces nothing
    ("  // return s.replace(/[&<>\"']/g, fn);", "  // return s.replace(/[&<>]/g, fn);"),  # a comment
]


@pytest.mark.parametrize(("old", "new", "gone"), _FEWER, ids=[str(i) for i in range(len(_FEWER))])
def test_a_replacing_class_that_escapes_fewer_characters_is_named(old: str, new: str, gone: str) -> None:
    found = weakened_answer([new], [old])
    assert found and "escapes fewer characters" in found and gone in found, found


@pytest.mark.parametrize(("old", "new"), _FEWER_QUIET, ids=[str(i) for i in range(len(_FEWER_QUIET))])
def test_fewer_escaped_look_alikes_stay_quiet(old: str, new: str) -> None:
    assert weakened_answer([new], [old]) is None


@pytest.mark.parametrize("path", ["src/escape.js", "lib/html.rb", "pkg/escape.py"])
def test_an_escaper_losing_a_character_is_not_low(path: str) -> None:
    body = "// helpers\nfunction escapeHtml(s) {\n  return s.replace(/[&<>\"']/g, (c) => MAP[c]);\n}\n"
    if path.endswith(".rb"):
        body = "module Html\n  def self.escape(text)\n    text.gsub(/[<>&\"']/, TABLE)\n  end\nend\n"
    if path.endswith(".py"):
        body = "def escape(s):\n    return re.sub(r\"[<>&']\", lambda m: ESC[m.group()], s)\n"
    after = body.replace("'", "", 1) if not path.endswith(".js") else body.replace("\"']", "\"]")
    case = {"kind": "k", "eco": "x", "place": "source", "path": path, "before": body, "after": after,
            "line": next(line.strip() for line in after.splitlines() if "[" in line), "words": ["escapes fewer"]}
    out = bench_plant_matrix.review_case(case)
    assert out["risk"] != "low" and out["named"], out


def test_an_escaper_escaping_fewer_characters_is_a_risk_not_a_note() -> None:
    old, new = ['    "<" -> "\\\\u003c" <> esc(rest, :html)'], ['    "<" -> "<" <> esc(rest, :html)']
    found = weakened_answer(new, old)
    assert found is None or "escapes fewer" in found  # the note's own reading decides which shapes it knows
    php_old = ["    return str_replace(['&', '<', '>', '\"'], ['&amp;', '&lt;', '&gt;', '&quot;'], escape_html($s));"]
    assert weakened_answer(php_old, php_old) is None  # nothing turned


@pytest.mark.parametrize("path", ["src/books.js", "examples/books.js", "site/docs/examples/select/0130-find.js"])
def test_a_value_quoted_by_hand_into_raw_sql_is_high_in_code_and_its_examples(path: str) -> None:
    """Held-out 67's kysely d9965f87: a docs site's example file given ``sql.raw(c + " = '" + v + "'")`` was "docs edited",
    low, outside the packet's eight (the raw-SQL readers wanted a literal first in the call)."""
    from line_changes import fc, review

    change = review(fc(path, ["    .where(sql.raw(c + \" = '\" + v + \"'\"))"], ["    .where(ref(c), '=', v)"]))
    assert change.risk == "high" and "builds SQL from text" in change.reasons[0], change.reasons
