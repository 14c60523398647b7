"""Issue 36, round 86 (blind 123/124's first runs): one slip that widens what a line reaches.

Whom each guards against: the worker that unscopes a user's query (django-two-factor-auth's ``phonedevice_set`` →
``PhoneDevice.objects``), counts an object by ``.length`` (jsonld.js's context-URL limit), logs a signing certificate
whole (boxyhq/jackson), deletes a match's refusing arm (thephpleague/uri's nested-list guard), gives a parameter a mutable
default the body keeps (tomli-w's cache), spans a letter range across both cases (dropbear's ``'A'``..``'z'``), drops
``le=100`` from a tutorial's query parameter (sqlmodel), chains a test script with ``;`` (pretty-bytes), keeps one of
two values in a membership test (pelican's ``os.pardir``) or swaps a choice's two values inside an expression
(pretty-bytes' divisor). Each was low, unnamed or out of the view on round 85's rules (5e8002d); each near miss beside it
stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.file_kinds import rule_lines
from relay.review.reach_slips import reach_slip
from relay.review.risk import RiskContext, assess

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(("path", "added", "removed", "said", "risk"), [
    ("two_factor/plugins/phonenumber/views.py", ["        return PhoneDevice.objects.filter(name='backup')"],
     ["        return self.request.user.phonedevice_set.filter(name='backup')"],
     "no longer scopes a query to the user (self.request.user.phonedevice_set → PhoneDevice.objects", "high"),
    ("app/views.py", ["    qs = Document.objects.filter(name=name)"], ["    qs = Document.objects.filter(owner=request.user, name=name)"],
     "no longer scopes a query to the user (owner=request.user dropped", "high"),
    ("lib/context.js", ["    if(cycles.length > MAX_CONTEXT_URLS) {"], ["    if(Object.keys(cycles).length > MAX_CONTEXT_URLS) {"],
     "counts an object by .length (cycles.length is undefined", "high"),
    ("npm/src/controller/sso-handler.ts", ["      console.log('createSAMLResponse certificate', JSON.stringify(certificate));",
                                           "      const responseSigned = await saml.createSAMLResponse({"], [],
     "writes the whole certificate to the log", "high"),
    ("src/UriTemplate/VariableBag.php", ["            is_array($value) => 1,"],
     ["            !$isNestedListAllowed => throw TemplateCanNotBeExpanded::dueToNestedListOfValue($name),"],
     "drops a refusing arm from a match (what it refused, !$isNestedListAllowed", "high"),
    ("src/tomli_w/_writer.py", ["def make_context(multiline_strings: bool, indent: int, cache: dict = {}) -> Context:",
                                "    if indent < 0:", '        raise ValueError("Indent width must be non-negative")',
                                '    return Context(multiline_strings, cache, " " * indent)'], [],
     "gives cache a mutable default ({}: one object shared across calls", "medium"),
    ("src/dbctype.h", ["static inline int ascii_isalpha(int c) {", "\treturn (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'z');", "}"], [],
     "spans a letter range across both cases", "medium"),
    ("docs_src/tutorial/fastapi/delete/tutorial001.py", ["def read_heroes(offset: int = 0, limit: int = Query(default=100)):"],
     ["def read_heroes(offset: int = 0, limit: int = Query(default=100, le=100)):"], "drops an input's upper bound (le=100 removed", "medium"),
    ("package.json", ['    "test": "xo; ava; tsd"'], ['    "test": "xo && ava && tsd"'], "runs on past a failure (&& → ;", "medium"),
    ("pelican/server.py", ["            if os.path.dirname(word) or word == os.curdir:"],
     ["            if os.path.dirname(word) or word in (os.curdir, os.pardir):"], "drops an alternative from a check or case (os.pardir no longer matches", "medium"),
    ("index.js", ["\tnumber = divide(number, (options.binary ? 1000 : 1024) ** exponent);"],
     ["\tnumber = divide(number, (options.binary ? 1024 : 1000) ** exponent);"], "swaps a choice's two values (1024 and 1000", "medium"),
])
def test_each_slip_is_named(path: str, added: list[str], removed: list[str], said: str, risk: str) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    assert out.risk == risk and any(said in reason for reason in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(("path", "added", "removed"), [
    # a query that keeps its user, another way (the manager's own filter by user)
    ("app/views.py", ["        return PhoneDevice.objects.filter(user=self.request.user, name='backup')"],
     ["        return self.request.user.phonedevice_set.filter(name='backup')"]),
    # an array's length is a length: no Object.keys on the old side
    ("lib/context.js", ["    if(urls.length > MAX_CONTEXT_URLS) {"], ["    if(urls.size > MAX_CONTEXT_URLS) {"]),
    # a certificate's subject or fingerprint logged, not the object whole
    ("src/tls.ts", ["  console.log('loaded certificate', certificate.subject, fingerprint);"], []),
    # a refusing arm moved (the same refusal written again in the new match)
    ("src/Bag.php", ["            !$allowed => throw Bag::dueToNested($name),", "            default => $value,"],
     ["            !$isNestedListAllowed => throw Bag::dueToNested($name),"]),
    # a mutable default only read, a None default, a default the old signature had
    ("lib/util.py", ["def render(template, context={}):", "    return template.format(**context)"], []),
    ("lib/util.py", ["def make(items: list | None = None) -> Box:", "    return Box(items or [])"], []),
    ("lib/util.py", ["def make(name: str, items: list = []) -> Box:"], ["def make(items: list = []) -> Box:"]),
    # a range within one case, a regex class with both ranges
    ("src/ctype.c", ["\treturn (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');"], []),
    ("lib/slug.js", ["const SLUG = /^[A-Za-z0-9-]+$/;"], []),
    # a bound renamed, not dropped; a bound's keyword kept while another argument goes
    ("app/api.py", ["def read(limit: int = Query(default=100, le=MAX_PAGE)):"], ["def read(limit: int = Query(default=100, le=100)):"]),
    ("app/api.py", ["def read(limit: int = Query(le=100)):"], ["def read(limit: int = Query(default=100, le=100)):"]),
    # a chain kept, a semicolon added beside it
    ("package.json", ['    "test": "xo && ava && tsd; echo done"'], ['    "test": "xo && ava && tsd"']),
    # a membership test that keeps both values (reordered), a choice's arms that change (not swap)
    ("pelican/server.py", ["            if word in (os.pardir, os.curdir):"], ["            if word in (os.curdir, os.pardir):"]),
    ("index.js", ["\tnumber = divide(number, (options.binary ? 1024 : 1e3) ** exponent);"],
     ["\tnumber = divide(number, (options.binary ? 1024 : 1000) ** exponent);"]),
])
def test_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    said = " ".join(assess(rule_lines(fc(path, added, removed)), RiskContext()).reasons)
    for quiet in ("scopes a query", "counts an object by .length", "writes the whole", "refusing arm", "mutable default",
                  "letter range", "upper bound", "runs on past a failure", "drops an alternative", "swaps a choice's"):
        assert quiet not in said, said


def test_the_reader_answers_the_first_slip_with_its_weight() -> None:
    # The reader itself: a high slip as classic, a worth-a-look one not, nothing on an ordinary edit.
    high = reach_slip(["  if(cycles.length > 3) {"], ["  if(Object.keys(cycles).length > 3) {"])
    assert high is not None and high[1] is True and high[0].startswith("counts an object by .length"), high
    worth = reach_slip(['"test": "a; b"'], ['"test": "a && b"'])
    assert worth is not None and worth[1] is False, worth
    assert reach_slip(["x = compute(a, b)"], ["x = compute(a)"]) is None


@pytest.mark.parametrize(("line", "debug"), [
    ("$ GITLINT_DEBUG=1 gitlint --debug", False),  # a page showing how to run the tool with debug output
    ("GITLINT_DEBUG=1 gitlint", False),
    ("# gitlint -c general.debug=true", False),
    ("app.run(host='0.0.0.0', debug=True)", True),  # a server's setting in a sample is still one
    ("DEBUG = True", True),
])
def test_a_docs_page_running_the_tool_with_debug_is_no_debug_setting(line: str, debug: bool) -> None:
    # gitlint's docs (blind 119): three pages telling how to turn on the tool's debug output were called high.
    page = ["Run it with debug output:", "", "```sh", line, "```"]
    out = assess(rule_lines(fc("docs/configuration/index.md", page, [])), RiskContext())
    assert any("turns debug mode on" in reason for reason in out.reasons) is debug, out.reasons
