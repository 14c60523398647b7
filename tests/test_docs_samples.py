"""Issue 36, round 19 (part B): a code sample in a docs page is read by the code readers; the page's sentences are not.

Held-out 23/24's first runs left two docs-page plants low ("docs edited"): a README's Java sample whose JWT clock skew was
made ``Integer.MAX_VALUE``, and an rdoc sample whose task passed its arguments into a shell (``sh "echo #{args.x}"``). A
sample is what people copy. relay.review.docs_samples picks a docs run's sample lines (code-shaped, not a sentence, not the
page's markup) and relay.review.apart_edits reads them for a turned value as it reads code; rake's ``sh "…#{…}"`` is a
shell command built from text in code and in a sample alike. Each case is one kind in a fenced block, an rst literal
block or an rdoc indented sample, in several languages; the look-alikes are prose and markup saying the same words.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from relay.review.docs_samples import sample_lines

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_plant_matrix  # noqa: E402

__all__: list[str] = []  # a test module exports nothing

_MD = "# Lib\n\nUse it like this:\n\n```{lang}\n{setup}\n{line}\n```\n\nThat is all you need.\n"
_RST = "Usage\n=====\n\nUse it like this::\n\n    {setup}\n    {line}\n\nThat is all you need.\n"
_RDOC = "= Tasks\n\nUse it like this:\n\n   {setup}\n     {line}\n   end\n\nThat is all you need.\n"

# (path, page, language, setup line, old line, new line, words a naming reason holds)
_SAMPLES = [
    ("README.md", _MD, "java", 'Verifier verifier = HMACVerifier.newVerifier("secret");',
     "JWT jwt = JWT.getDecoder().withClockSkew(60).decode(encodedJWT, verifier);",
     "JWT jwt = JWT.getDecoder().withClockSkew(Integer.MAX_VALUE).decode(encodedJWT, verifier);", ["unbounded"]),
    ("docs/usage.rst", _RST, "python", "import jwt",
     'claims = jwt.decode(token, key, algorithms=["HS256"], leeway=30)',
     'claims = jwt.decode(token, key, algorithms=["HS256"], leeway=sys.maxsize)', ["unbounded"]),
    ("doc/rakefile.rdoc", _RDOC, "ruby", "task :name, [:first_name] do |t, args|",
     'puts "First name is #{args.first_name}"', 'sh "echo First name is #{args.first_name}"', ["shell"]),
    ("README.md", _MD, "ruby", "task :name, [:first_name] do |t, args|",
     'puts "First name is #{args.first_name}"', 'system "echo First name is #{args.first_name}"', ["shell"]),
    ("docs/client.md", _MD, "js", "const https = require('https');",
     "const agent = new https.Agent({ rejectUnauthorized: true });",
     "const agent = new https.Agent({ rejectUnauthorized: false });", ["true into false", "verif", "tls", "certificate"]),
    ("README.md", _MD, "sh", "set -e",
     'if [ -z "$SKIP_SIGNATURE" ]; then gpg --verify "$PKG.sig"; fi',
     'if [ -n "$SKIP_SIGNATURE" ]; then gpg --verify "$PKG.sig"; fi', ["turns -z into -n"]),
]


def _case(path: str, page: str, lang: str, setup: str, old: str, new: str, words: list[str]) -> dict:
    fill = lambda line: page.replace("{lang}", lang).replace("{setup}", setup).replace("{line}", line)  # noqa: E731
    return {"kind": "sample", "eco": lang, "place": "sample", "path": path, "before": fill(old), "after": fill(new),
            "line": new, "words": words}


@pytest.mark.parametrize("path, page, lang, setup, old, new, words", _SAMPLES, ids=[f"{s[0]}:{s[2]}" for s in _SAMPLES])
def test_a_turn_in_a_docs_sample_is_named_and_never_low(path, page, lang, setup, old, new, words) -> None:
    out = bench_plant_matrix.review_case(_case(path, page, lang, setup, old, new, words))
    assert out["risk"] != "low" and out["not_low"] and out["named"] and out["view"], out


# The page's own words: a sentence, a list item, a table row, a heading, an inline code span, a link.
_PROSE = [
    ("Tasks are enabled by default.", "Tasks are disabled by default."),
    ("- `verify`: true", "- `verify`: false"),
    ("| verify | true |", "| verify | false |"),
    ("## Locking is on", "## Locking is off"),
    ("Pass `leeway=30` to allow a little skew.", "Pass `leeway=sys.maxsize` to allow any skew."),
    ("See [the options](options.md) for always-on checks.", "See [the options](options.md) for never-on checks."),
]


@pytest.mark.parametrize("old, new", _PROSE, ids=[str(i) for i in range(len(_PROSE))])
def test_the_pages_prose_and_markup_stay_prose(old: str, new: str) -> None:
    page = "# Lib\n\nSome words about the library and how to use it.\n\n{line}\n\nThat is all you need to know here.\n"
    case = {"kind": "prose", "eco": "md", "place": "docs", "path": "README.md", "before": page.replace("{line}", old),
            "after": page.replace("{line}", new), "line": new, "words": ["turns", "unbounded", "shell"]}
    out = bench_plant_matrix.review_case(case)
    assert out["risk"] == "low" and not out["named"], out


def test_sample_lines_keeps_code_and_leaves_the_page() -> None:
    lines = ["```ruby", "   sh \"echo #{args.name}\"", "The first argument is the name of the task.", "= Tasks",
             "    claims = jwt.decode(token, key, leeway=30)", "- item: value", "Tasks take arguments:"]
    assert sample_lines(lines) == ["   sh \"echo #{args.name}\"", "    claims = jwt.decode(token, key, leeway=30)"]
