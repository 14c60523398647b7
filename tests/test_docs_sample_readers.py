"""Issue 36, round 20 (part B): every line of a docs page's code sample reaches the code readers, whatever its words.

Held-out 25/26's first runs left six docs plants "docs edited" (low, or unnamed): a README's rate-limit sample keyed on
``req.headers['x-forwarded-for']``, a token-bucket page's ``math.min(count + refill, max)`` cut to ``count + refill``, a
keyset page ordering by ``params[:sort]``, a sanitizer README allowing ``script``/``onerror``, a Swift README's package
pin made ``branch: "master"``. Round 19's docs_samples read a page's runs for a turned value only; the rules never saw
these lines: a docs file's line filter (relay.review.file_kinds) kept only lines passing a word screen. Now a sample's
line (relay.review.docs_samples.is_sample) is kept, so the code readers and the turn readers read it, and three readers
learnt the classes (relay.review.classic_cells): a value keyed on a forwarding header any client sets, a query ordered
by a request parameter, a sanitizer's allow-list given script; a docs sample's pin made a branch is the manifest
reader's (relay.review.manifest_lines.sample_source). Each plant is tried in a fenced block and an rst literal block in
several languages; the look-alikes change the same samples harmlessly, or say the words in prose.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_plant_matrix  # noqa: E402

__all__: list[str] = []  # a test module exports nothing

_MD = "# Lib\n\nUse it like this:\n\n```{lang}\n{setup}\n{line}\n```\n\nThat is all you need.\n"
_RST = "Usage\n=====\n\nUse it like this::\n\n    {setup}\n    {line}\n\nThat is all you need.\n"

# (path, page, language, setup line, old line, new line, words a naming reason holds)
_PLANTS = [
    ("README.md", _MD, "js", "const app = express();", "rateLimiter.consume(remoteAddress, 2)",
     "rateLimiter.consume(req.headers['x-forwarded-for'] || remoteAddress, 2)", ["x-forwarded-for"]),
    ("docs/limits.rst", _RST, "python", "limiter = Limiter(app)", "key = request.remote_addr",
     "key = request.headers.get('X-Real-IP', request.remote_addr)", ["x-real-ip"]),
    ("pages/rate-limit/token-bucket.md", _MD, "ts", "const refill = Math.floor(elapsed / interval);",
     "count = Math.min(count + refill, max);", "count = count + refill;", ["bound"]),
    ("docs/toolbox/keyset.md", _MD, "ruby", "def index", "set = collection.order(:id)",
     "set = collection.order(params[:sort] || :id)", ["request parameter"]),
    ("docs/listing.rst", _RST, "php", "$query = Post::query();", "$posts = $query->orderBy('id')->paginate();",
     "$posts = $query->orderBy($request->input('sort', 'id'))->paginate();", ["request parameter"]),
    ("README.md", _MD, "ruby", "safe_list_sanitizer = Rails::HTML5::SafeListSanitizer.new",
     "safe_list_sanitizer.sanitize(@article.body, tags: %w(table tr td), attributes: %w(id class))",
     "safe_list_sanitizer.sanitize(@article.body, tags: %w(table tr td script), attributes: %w(id class onerror))", ["script"]),
    ("docs/purify.md", _MD, "js", "import DOMPurify from 'dompurify';", "const clean = DOMPurify.sanitize(dirty, { ADD_ATTR: ['target'] });",
     "const clean = DOMPurify.sanitize(dirty, { ADD_ATTR: ['target', 'onload'] });", ["onload"]),
    ("README.md", _MD, "swift", "dependencies: [", '    .package(url: "https://github.com/o/Lib", .upToNextMajor(from: "4.0.0"))',
     '    .package(url: "https://github.com/o/Lib", branch: "master")', ["moving branch"]),
]


def _case(path: str, page: str, lang: str, setup: str, old: str, new: str, words: list[str]) -> dict:
    fill = lambda line: page.replace("{lang}", lang).replace("{setup}", setup).replace("{line}", line)  # noqa: E731
    return {"kind": "sample", "eco": lang, "place": "sample", "path": path, "before": fill(old), "after": fill(new),
            "line": new.strip(), "words": words}


@pytest.mark.parametrize("path, page, lang, setup, old, new, words", _PLANTS, ids=[f"{p[0]}:{p[2]}:{i}" for i, p in enumerate(_PLANTS)])
def test_a_risky_sample_line_is_named_and_never_low(path, page, lang, setup, old, new, words) -> None:
    out = bench_plant_matrix.review_case(_case(path, page, lang, setup, old, new, words))
    assert out["risk"] != "low" and out["named"] and out["view"], out


# The same samples changed harmlessly, and the words said in the page's prose.
_QUIET = [
    ("README.md", _MD, "js", "const app = express();", "rateLimiter.consume(remoteAddress, 2)", "rateLimiter.consume(remoteAddress, 3)"),
    ("docs/toolbox/keyset.md", _MD, "ruby", "def index", "set = collection.order(:id)", "set = collection.order(:created_at, :id)"),
    ("README.md", _MD, "ruby", "s = Rails::HTML5::SafeListSanitizer.new", "s.sanitize(body, tags: %w(table tr td))",
     "s.sanitize(body, tags: %w(table tr td strong))"),
    ("docs/purify.md", _MD, "js", "import DOMPurify from 'dompurify';", "const clean = DOMPurify.sanitize(dirty);",
     "const clean = DOMPurify.sanitize(dirty, { FORBID_TAGS: ['script'], FORBID_ATTR: ['onerror'] });"),
    ("README.md", _MD, "swift", "dependencies: [", '    .package(url: "https://github.com/o/Lib", from: "4.0.0")',
     '    .package(url: "https://github.com/o/Lib", from: "5.0.0")'),
    ("README.md", _MD, "ts", "const refill = 1;", "count = Math.min(count + refill, max);", "count = Math.min(count + refill, capacity);"),
    ("README.md", "# Lib\n\nSome words about the library.\n\n{line}\n\nThat is all.\n", "", "",
     "Behind a proxy the address comes from a header your proxy sets.",
     "Behind a proxy the address comes from the X-Forwarded-For header your proxy sets, so order results by it."),
]


@pytest.mark.parametrize("path, page, lang, setup, old, new", _QUIET, ids=[f"{p[0]}:{p[2]}:{i}" for i, p in enumerate(_QUIET)])
def test_a_harmless_sample_edit_or_prose_stays_low(path, page, lang, setup, old, new) -> None:
    out = bench_plant_matrix.review_case(_case(path, page, lang, setup, old, new, ["any client sets", "request parameter", "allow-list", "moving branch", "drops a bound"]))
    assert out["risk"] == "low" and not out["named"], out
