"""Round 15, part A (issue 36): no change with a risky line is called low; docs read as code without false highs.

Held-out 19 and 20's first runs left five plants low (a docs sample's throttle key no longer normalised, a README's JWT
sample mixing HS256 and RS256, a README's gem taken from a git source over plain http, a policy cache key made without
the user, read as "imports regrouped only", a complexity limit read under another name) and judged a bind widened from
loopback to every interface low. relay.review.edit_turns reads each as a kind in every ecosystem's spelling; each shape
below must be named and never low, each near miss quiet. And docs pages whose install lines are their own subject (a
how-to's ``pipx install git+https://…``, ``--trusted-host``) are no longer high; the look-alike host reader no longer
fires on a page's links to an organisation's two domains.
"""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.code_reading import mechanical_verdict
from relay.review.facts import RiskContext
from relay.review.risk import assess

__all__: list[str] = []


def _assessed(path: str, removed: list[str], added: list[str]) -> FileChange:
    change = FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)
    return assess(change, RiskContext())


# (path, removed, added, least risk, words the reason must hold)
_NAMED = [
    # a bind widened from loopback to every interface, in each ecosystem's spelling (said once: the edited-check reader names the spellings it knows)
    ("crates/cli/src/socket/parser.rs", ["\t\t\t\tOk(port) => SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port.get()),"],
     ["\t\t\t\tOk(port) => SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port.get()),"], "high", ("every interface", "UNSPECIFIED")),
    ("app/server.py", ["    app.run(host='127.0.0.1', port=8000)"], ["    app.run(host='0.0.0.0', port=8000)"], "high", ("every interface", "0.0.0.0")),
    ("cmd/serve/main.go", ['\tln, err := net.Listen("tcp", "localhost:8080")'], ['\tln, err := net.Listen("tcp", ":8080")'], "high", ("every interface",)),
    ("src/server.js", ['server.listen(3000, "localhost");'], ['server.listen(3000, "");'], "high", ("every interface",)),
    ("src/config.ts", ['  host: "::1",'], ['  host: "::",'], "high", ("every interface", '"::"')),
    ("src/Program.cs", ["        var endpoint = new IPEndPoint(IPAddress.Loopback, port);"], ["        var endpoint = new IPEndPoint(IPAddress.Any, port);"],
     "high", ("every interface", "IPAddress.Any")),
    # a JWT algorithm list mixing a shared-secret and a public-key algorithm: code and a README sample
    ("README.md", ['    "algorithm" => ["HS256", "HS384"]'], ['    "algorithm" => ["HS256", "RS256"]'], "high", ("algorithm confusion", "HS256 beside RS256")),
    ("app/auth.py", ['    claims = jwt.decode(token, key, algorithms=["RS256"])'], ['    claims = jwt.decode(token, key, algorithms=["RS256", "HS256"])'],
     "high", ("algorithm confusion",)),
    ("src/verify.ts", ["  const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'] });"],
     ["  const { payload } = await jwtVerify(token, key, { algorithms: ['ES256', 'HS512'] });"], "high", ("algorithm confusion",)),
    # a dependency's source over plain http, in a README sample and in other manifests' syntax
    ("README.md", ['gem "action_policy"'], ['gem "action_policy", git: "http://github.com/palkan/action_policy.git"'], "high", ("plain http", "git:")),
    ("docs/install.md", ["    {:plug, \"~> 1.14\"}"], ["    {:plug, git: \"http://git.example.org/plug.git\"}"], "high", ("plain http",)),
    ("docs/setup.md", ["    pip install --index-url https://pypi.org/simple tool"], ["    pip install --index-url http://pypi.example.org/simple tool"],
     "high", ("plain http",)),
    # a value's normalisation taken off (a docs sample, Python, JavaScript)
    ("docs/example_configuration.md", ["      req.params['email'].to_s.downcase.gsub(/\\s+/, \"\").presence"], ["      req.params['email'].presence"],
     "medium", ("normalisation", "downcase")),
    ("app/throttle.py", ["    key = request.form['username'].strip().lower()"], ["    key = request.form['username']"], "medium", ("normalisation", "lower")),
    ("src/limit.js", ["  const key = req.body.email.trim().toLowerCase();"], ["  const key = req.body.email;"], "medium", ("normalisation", "toLowerCase")),
    # the user or context taken out of a cache key (Ruby argument deleted, Python f-string, Go Sprintf)
    ("lib/action_policy/policy/cache.rb", ["          context_cache_key,"], [], "medium", ("cache key", "context_cache_key")),
    ("app/permissions.py", ['    cache_key = f"perm:{user.id}:{record.id}"'], ['    cache_key = f"perm:{record.id}"'], "medium", ("cache key", "user")),
    ("internal/cache/keys.go", ['\tkey := fmt.Sprintf("%s:%s", tenantID, id) // cache key'], ['\tkey := fmt.Sprintf("%s", id) // cache key'],
     "medium", ("cache key", "tenantID")),
    # a security limit read under another name (Elixir, Python, JavaScript)
    ("lib/absinthe/phase/document/complexity/result.ex", ["    max = Keyword.get(options, :max_complexity, :infinity)"],
     ["    max = Keyword.get(options, :complexity_limit, :infinity)"], "medium", ("max_complexity", "complexity_limit")),
    ("app/graphql.py", ['    depth = options.get("max_depth", None)'], ['    depth = options.get("depth_limit", None)'], "medium", ("max_depth",)),
    ("src/upload.js", ["  const limit = opts['maxFileSize'] ?? Infinity;"], ["  const limit = opts['fileSizeLimit'] ?? Infinity;"], "medium", ("maxFileSize",)),
]


@pytest.mark.parametrize(("path", "removed", "added", "risk", "words"), _NAMED, ids=[f"{i}-{n[0].rsplit('/', 1)[-1]}" for i, n in enumerate(_NAMED)])
def test_a_turned_edit_is_named_and_never_low(path: str, removed: list[str], added: list[str], risk: str, words: tuple[str, ...]) -> None:
    out = _assessed(path, removed, added)
    assert out.risk == "high" or (risk == "medium" and out.risk == "medium"), out
    assert any(all(w in r for w in words) for r in out.reasons), out.reasons


# Near misses: the safe direction, the rename done on both sides, a look-alike of each kind that turns nothing.
_QUIET = [
    ("app/server.py", ["    app.run(host='0.0.0.0', port=8000)"], ["    app.run(host='127.0.0.1', port=8000)"]),
    ("src/client.py", ["    url = 'http://localhost:8000/api'"], ["    url = 'http://localhost:9000/api'"]),
    ("docker-compose.yml", ["      - '127.0.0.1:5432:5432'"], ["      - '127.0.0.1:5433:5432'"]),
    ("README.md", ['    "algorithm" => ["HS256", "RS256"]'], ['    "algorithm" => ["HS256"]']),
    ("app/auth.py", ['    claims = jwt.decode(token, key, algorithms=["RS256"])'], ['    claims = jwt.decode(token, key, algorithms=["RS256", "ES256"])']),
    ("lib/jwt/algos.rb", [], ['    SUPPORTED = %w[HS256 HS384 HS512 RS256 RS384 RS512 ES256 ES384].freeze']),
    ("README.md", ['gem "action_policy", git: "http://github.com/palkan/action_policy.git"'], ['gem "action_policy", git: "https://github.com/palkan/action_policy.git"']),
    ("docs/how-to/use-private-index.md", [], ["    pip install --index-url http://localhost:8080/simple tool"]),
    ("app/throttle.py", ["    key = request.form['username']"], ["    key = request.form['username'].strip().lower()"]),
    ("app/format.py", ["    title = heading.strip().title()"], ["    title = heading.title()"]),
    ("app/permissions.py", ['    cache_key = f"perm:{record.id}"'], ['    cache_key = f"perm:{user.id}:{record.id}"']),
    ("app/views.py", ["        user,"], []),
    ("lib/opts.ex", ["    max = Keyword.get(options, :max_complexity, :infinity)"], ["    max = Keyword.get(options, :max_complexity, 200)"]),
    ("lib/config.ex", ["    max = Keyword.get(options, :max_complexity, :infinity)", "  @doc \"Set :max_complexity\""],
     ["    max = Keyword.get(options, :complexity_limit, :infinity)", "  @doc \"Set :complexity_limit\""]),
]


@pytest.mark.parametrize(("path", "removed", "added"), _QUIET, ids=[f"{i}-{q[0].rsplit('/', 1)[-1]}" for i, q in enumerate(_QUIET)])
def test_a_near_miss_stays_quiet(path: str, removed: list[str], added: list[str]) -> None:
    out = _assessed(path, removed, added)
    assert not {"weakens_edit", "weakens_more"} & set(out.rules), out


# ----- "imports regrouped only" is said only of imports

def test_a_deleted_argument_is_not_called_imports_regrouped() -> None:
    for path in ("lib/policy/cache.rb", "app/views.py", "src/keys.ts"):
        change = FileChange(path=path, deletions=1, removed_lines=["          context_cache_key,"])
        assert mechanical_verdict(change) is None, path


def test_imports_regrouped_are_still_said() -> None:
    change = FileChange(path="app/x.py", additions=1, deletions=2, removed_lines=["from x import (", "    a,"], added_lines=["from x import ("])
    assert mechanical_verdict(change) == "imports removed or regrouped only"
    change = FileChange(path="main.go", deletions=1, removed_lines=['\t"fmt"'])
    assert mechanical_verdict(change) == "imports removed or regrouped only"


# ----- docs whose install lines are their own subject; a sample turned toward risk still named

@pytest.mark.parametrize(("path", "added"), [
    ("docs/how-to/install-pipx.rst", [".. code-block:: console", "", "    $ pipx install git+https://github.com/psf/black.git"]),
    ("docs/how-to/troubleshoot.rst", ["    $ pipx install termpair --pip-args '--trusted-host files.pythonhosted.org --trusted-host pypi.org'"]),
    ("docs/guide/private.md", ["```sh", "npm install github:acme/tool", "```"]),
])
def test_a_docs_pages_own_install_example_is_not_high(path: str, added: list[str]) -> None:
    out = _assessed(path, [], added)
    assert out.risk != "high", out


def test_a_docs_sample_turned_toward_an_unpinned_install_is_still_high() -> None:
    out = _assessed("README.md", ["    $ pip install black==24.1.0"], ["    $ pip install git+https://github.com/psf/black.git"])
    assert out.risk == "high" and any("git branch" in r for r in out.reasons), out


# ----- look-alike hosts: read on lines that bring code in, against a host the old side named

def test_an_organisations_two_domains_in_links_are_not_look_alikes() -> None:
    out = _assessed("CONTRIBUTING.md", ["Read more on [our site](https://documenso.com/about)."],
                    ["Read more on [our site](https://documenso.com/about) or [short](https://documen.so/about)."])
    assert "weakens_edit" not in out.rules, out
    out = _assessed("README.md", ["Sponsored by [TestMu](https://testmuai.com/)"], ["Sponsored by [TestMu](https://testmu.ai/)", "See https://testmuai.com/"])
    assert "weakens_edit" not in out.rules, out


def test_a_download_pointed_at_a_look_alike_is_still_named() -> None:
    out = _assessed("docs/install.md", ["    curl -fsSLO https://downloads.acme.dev/tool.tar.gz"], ["    curl -fsSLO https://downloads-acme.dev/tool.tar.gz"])
    assert out.risk == "high" and any("look-alike" in r for r in out.reasons), out


# ----- the unchecked twin: said once, and never of another object's method of the same name

def test_a_twin_the_dangerous_call_row_names_is_said_once() -> None:
    out = _assessed("tasks/config.py", ["    data = yaml.safe_load(stream)"], ["    data = yaml.load(stream)"])
    assert out.risk == "high" and "weakens_more" not in out.rules and any("deserializes" in r for r in out.reasons), out


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("lib/liquid/tags/case.rb", ["        expr = safe_parse_expression(parser)"], ["        expr = Condition.parse_expression(parse_context, parser.expression, safe: true)"]),
    ("src/parse.ts", ["  const node = safeParse(text);"], ["  const node = Schema.parse(text);"]),
])
def test_another_objects_method_is_not_an_unchecked_twin(path: str, removed: list[str], added: list[str]) -> None:
    out = _assessed(path, removed, added)
    assert "weakens_more" not in out.rules, out


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("src/read.rs", ["    let s = str::from_utf8(bytes)?;"], ["    let s = unsafe { str::from_utf8_unchecked(bytes) };"]),
    ("lib/buf.js", ["  const b = Buffer.alloc(size);"], ["  const b = Buffer.allocUnsafe(size);"]),
])
def test_a_twin_on_the_same_receiver_is_still_named(path: str, removed: list[str], added: list[str]) -> None:
    out = _assessed(path, removed, added)
    assert "weakens_more" in out.rules or out.risk == "high", out
