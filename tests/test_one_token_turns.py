"""One-token edits that turn a check (relay.review.one_token_turns, round 20 part A): each class in several languages,
and look-alikes that stay quiet. Every case is synthetic; none names a project."""

from __future__ import annotations

import pytest

from relay.review.file_kinds import line_filter
from relay.review.subtle_turns import subtle_turned

TURNS = [
    # a deciding comparison in an else-if head (PHP's elseif, C-like "} else if")
    ("src/Otp.php", ["        } elseif ($counter > $this->getCounter()) {"], ["        } elseif ($counter < $this->getCounter()) {"], "inverts a comparison"),
    ("src/otp.js", ["    } else if (counter > this.counter) {"], ["    } else if (counter < this.counter) {"], "inverts a comparison"),
    # min <-> max on a bound
    ("lib/paging.rb", ["    per = [requested, max_per_page].max"], ["    per = [requested, max_per_page].min"], "swaps min for max"),
    ("src/page.ts", ["  const limit = Math.max(query.limit, MAX_LIMIT);"], ["  const limit = Math.min(query.limit, MAX_LIMIT);"], "swaps min for max"),
    ("app/page.py", ["    size = max(int(request.args['size']), PAGE_CAP)"], ["    size = min(int(request.args['size']), PAGE_CAP)"], "swaps min for max"),
    # a subtraction's operands swapped in a comparison
    ("src/Cache.java", ["    return (entry.writeTime() - now) > ttlNanos;"], ["    return (now - entry.writeTime()) > ttlNanos;"], "swaps a subtraction"),
    ("cache/expiry.go", ["\tif issued - time.Now().Unix() >= maxAge {"], ["\tif time.Now().Unix() - issued >= maxAge {"], "swaps a subtraction"),
    ("session.py", ["    expired = created_at - now > LIFETIME"], ["    expired = now - created_at >= LIFETIME"], "swaps a subtraction"),
    # a value's match or validation dropped, the raw value kept
    ("lib/locale.rb", ["    @locale = value.to_s"], ["    @locale = value.to_s[LOCALE_PATTERN]"], "drops the value's match"),
    ("lib/name.rb", ["    name = params[:name]"], ["    name = params[:name][/\\A[a-z]+\\z/]"], "drops the value's match"),
    ("src/Name.kt", ["    val slug = input"], ["    val slug = input.validateSlug()"], "drops the value's match"),
    # an escaping table's entry removed
    ("lib/html/safe.ex", ['    {?>, "&gt;"},'], ['    {?<, "&lt;"},', '    {?>, "&gt;"},'], "drops an escaping table's entry"),
    ("src/escape.js", ["  '>': '&gt;',"], ["  '<': '&lt;',", "  '>': '&gt;',"], "drops an escaping table's entry"),
    ("escape.py", ['    ">": "&gt;",'], ['    "\'": "&#39;",', '    ">": "&gt;",'], "drops an escaping table's entry"),
    ("lib/escape.rb", ["    when '>' then '&gt;'"], ["    when '<' then '&lt;'", "    when '>' then '&gt;'"], "drops an escaping table's entry"),
    # an allow-list widened by a dangerous entry
    ("lib/sanitizer.rb", ['        "style",'], [], "widens an allow-list"),
    ("src/clean.ts", ["const ALLOWED_TAGS = ['b', 'i', 'iframe'];"], ["const ALLOWED_TAGS = ['b', 'i'];"], "widens an allow-list"),
    ("app/links.py", ["SAFE_SCHEMES = ('http', 'https', 'javascript:')"], ["SAFE_SCHEMES = ('http', 'https')"], "widens an allow-list"),
    # a duration's unit raised 60x or more, its number kept
    ("term/query.go", ["const readTimeout = time.Hour * 2"], ["const readTimeout = time.Second * 2"], "raises a duration's unit"),
    ("src/Client.cs", ["    var timeout = TimeSpan.FromHours(5);"], ["    var timeout = TimeSpan.FromSeconds(5);"], "raises a duration's unit"),
    ("src/Lock.java", ["    Duration wait = Duration.ofHours(30);"], ["    Duration wait = Duration.ofSeconds(30);"], "raises a duration's unit"),
    # a value swapped for its sibling in another unit
    ("lib/store.js", ["      ttl > 0 ? Date.now() + ttlSec : null"], ["      ttl > 0 ? Date.now() + ttlMs : null"], "another unit"),
    ("cache/entry.py", ["    self.expires = time.time() + timeout_ms"], ["    self.expires = time.time() + timeout_s"], "another unit"),
    ("lib/store.js", ["      ttl > 0 ? Date.now() + ttlSec : null"], ["      ttl > 0 ? new Date(Date.now() + ttlMs) : null"], "another unit"),
    # a security scanner's scope moved off the source
    (".github/codeql/codeql-config.yml", ["  - lib/Widget.Tests/"], ["  - lib/Widget/"], "moves a security scanner's scope"),
    ("sonar-project.properties", ["sonar.sources=test"], ["sonar.sources=src"], "moves a security scanner's scope"),
    # a push made forced
    ("fastlane/Fastfile", ["    push_to_git_remote(force: true)"], ["    push_to_git_remote"], "makes a push forced"),
    ("scripts/release.sh", ["git push --force origin main"], ["git push origin main"], "makes a push forced"),
    (".github/workflows/docs.yml", ["        run: git push -f origin gh-pages"], ["        run: git push origin gh-pages"], "makes a push forced"),
]

QUIET = [
    # min/max swapped on no bound; a subtraction swapped where nothing compares
    ("src/geo.ts", ["  const east = Math.max(a.x, b.x);"], ["  const east = Math.min(a.x, b.x);"]),
    ("src/draw.py", ["    width = right - left"], ["    width = left - right"]),
    # a call chain shortened that checks nothing; an index kept
    ("lib/user.rb", ["    name = user.name"], ["    name = user.name.strip"]),
    ("lib/user.rb", ["    name = row[0]"], ["    name = row[0][1]"]),
    ("lib/conf.rb", ["    @headers = response"], ["    @headers = response[HEADERS]"]),
    # an escape entry moved, not dropped; a deny-list gaining script
    ("src/escape.js", ["  '<': '&lt;',  // first", "  '>': '&gt;',"], ["  '>': '&gt;',", "  '<': '&lt;',"]),
    ("src/clean.ts", ["const FORBIDDEN_TAGS = ['object', 'script'];"], ["const FORBIDDEN_TAGS = ['object'];"]),
    # an entity in a test's expected text; a bare word in a list of commit types
    ("tests/test_render.py", ["    assert out == '<a href=\"/x\">'"], ["    assert out == '&lt;a href=\"/x\"&gt;'"]),
    (".github/workflows/lint.yml", ["            style"], []),
    # a unit raised on what is no timeout, expiry or wait; a unit lowered
    ("stats/report.go", ["const reportEvery = time.Hour * 2"], ["const reportEvery = time.Second * 2"]),
    ("net/dial.go", ["const dialTimeout = time.Second * 2"], ["const dialTimeout = time.Hour * 2"]),
    # a stem too short to name a value; a name that carries no unit
    ("lib/store.js", ["  const at = Date.now() + msS;"], ["  const at = Date.now() + msMs;"]),
    ("lib/store.js", ["  const at = Date.now() + delayB;"], ["  const at = Date.now() + delayA;"]),
    # a rewrite that converts: the new line names a value the old did not
    ("lib/store.js", ["  const at = Date.now() + timeoutSec * 1000;"], ["  const at = Date.now() + timeoutMs;"]),
    # a scanner's scope moved between source folders; a force flag on something that does not push
    (".github/codeql/codeql-config.yml", ["  - lib/"], ["  - src/"]),
    ("scripts/clean.sh", ["rm -rf --force build"], ["rm -rf build"]),
]


@pytest.mark.parametrize(("path", "added", "removed", "said"), TURNS)
def test_turn_is_said_medium(path: str, added: list[str], removed: list[str], said: str) -> None:
    found = subtle_turned(path, added, removed)
    assert found is not None and said in found[0], found
    assert found[1] is False  # medium, never classic high


@pytest.mark.parametrize(("path", "added", "removed"), QUIET)
def test_look_alike_is_quiet(path: str, added: list[str], removed: list[str]) -> None:
    assert subtle_turned(path, added, removed) is None


@pytest.mark.parametrize("line", ["      push_to_git_remote(force: true)", "  - src/Widget.Tests/"])
def test_settings_lines_are_kept_for_the_readers(line: str) -> None:
    assert line_filter("fastlane/Fastfile")(line) or line_filter(".github/codeql/codeql-config.yml")(line)
