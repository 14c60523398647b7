"""Issue 36, round 81 (blind 113/114's first runs): a bound, an index or a buffer's size moved by one; a check flipped,
let through when its value is missing, cut off by the branches before it; a default made optional; an image from a
look-alike owner; a secret as a struct tag's default.

Whom each guards against: the worker that slips one token into an ordinary change (``sizeof(buf) - 1`` → ``+ 1``,
``> limit`` → ``> limit + 1``, ``is_some()`` → ``is_none()``, ``!has(state) ||``, ``REQUIRE`` → ``USE``, ``aquasec`` →
``aquasek``, a password given as a default in a README's sample). Each loud case was low, named nothing or left its line
out of the view on the rules before this round (87d9710); each near miss beside it stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.bound_slips import bound_moved_by_one, index_moved_by_one, past_bound_by_one, size_past_buffer
from relay.review.check_slips import (absent_let_through, default_made_optional, default_unlike_comment, predicate_flipped,
                                      refusal_unreachable)
from relay.review.file_kinds import rule_lines
from relay.review.risk import RiskContext, assess

__all__: list[str] = []  # a test module exports nothing


def _assessed(path: str, added: list[str], removed: list[str]):
    # As the review reads a change: through the rules' line filter (comment lines out, but for those it keeps).
    return assess(rule_lines(fc(path, added, removed)), RiskContext())


# ----- loud: each named, with the level its harm asks
@pytest.mark.parametrize(("path", "added", "removed", "said", "risk"), [
    ("sslscan.c", ['    snprintf(hexCipherId, sizeof(hexCipherId) + 1, "0x%04X", cipherid);'],
     ['    snprintf(hexCipherId, sizeof(hexCipherId) - 1, "0x%04X", cipherid);'], "sizes a write past its buffer (sizeof(hexCipherId) + 1", "high"),
    ("src/copy.c", ["    memcpy(dst, src, sizeof(dst) + 2);"], [], "sizes a write past its buffer (sizeof(dst) + 2", "high"),
    ("xmlschema/validators/facets.py", ["            if len(value) > self.value + 1:"], ["            if len(value) > self.value:"],
     "moves a bound by one (off by one?)", "medium"),
    ("check/test.go", ["\t\t\ttestResult = a+1 >= b"], ["\t\t\ttestResult = a >= b"], "moves a bound by one (off by one?)", "medium"),
    ("src/sha3.js", ["    if (byteLength > this.inputBytesRemaining + 1) {", "      return false;", "    }"], [],
     "refuses only past one more than its bound (> this.inputBytesRemaining + 1", "medium"),
    ("records.py", ["            self[2]"], ["            self[1]"], "moves an index by one (off by one?)", "medium"),
    ("serde_derive/src/internals/ctxt.rs", ["        if !thread::panicking() && self.errors.borrow().is_none() {"],
     ["        if !thread::panicking() && self.errors.borrow().is_some() {"], "inverts a check (is_some → is_none)", "medium"),
    ("app/models.rb", ["    return head :forbidden if params[:name].blank?"], ["    return head :forbidden if params[:name].present?"],
     "inverts a check (present? → blank?)", "medium"),
    ("src/strategies/oauth2.ts", ["    if (!session.has(this.sessionStateKey) || session.get(this.sessionStateKey) === state) {"],
     ["    if (session.get(this.sessionStateKey) === state) {"], "lets a missing value through the check (!session.has(this.sessionStateKey) ||", "high"),
    ("app/views.py", ["    if request.POST.get('csrf') is None or request.POST.get('csrf') == expected:"],
     ["    if request.POST.get('csrf') == expected:"], "lets a missing value through the check", "high"),
    ("ecies/keys/private.py", ["        if not secret:", "            self._secret = get_valid_secret(curve)", "        elif secret:",
                               "            self._secret = secret", "        else:", '            raise ValueError(f"Invalid {curve} secret key")'], [],
     "makes a refusal unreachable (if not secret / elif secret leave the else nothing)", "high"),
    ("src/key.js", ["  if (!key) {", "    key = generate();", "  } else if (key) {", "    use(key);", "  } else {", "    throw new Error('invalid key');", "  }"], [],
     "makes a refusal unreachable (if not key / elif key", "high"),
    ("policy.go", ["var DefaultPolicy = USE"], ["var DefaultPolicy = REQUIRE"], "turns a default from required to optional (DefaultPolicy: REQUIRE → USE)", "high"),
    ("db/settings.py", ["SSL_MODE = 'prefer'"], ["SSL_MODE = 'require'"], "turns a default from required to optional (SSL_MODE: require → prefer)", "high"),
    ("policy.go", ["// DefaultPolicy is applied when none is configured.", "// It defaults to REQUIRE, as the spec mandates.", "var DefaultPolicy = USE"], [],
     "sets a default other than its comment says (comment: REQUIRE; code: USE)", "high"),
    ("job.yaml", ["          image: docker.io/aquasek/kube-bench:v0.15.0"], ["          image: docker.io/aquasec/kube-bench:v0.14.1"],
     "pulls an image from a look-alike of aquasec (a typo-squat?)", "high"),
    ("Dockerfile", ["FROM bitnamii/redis:7.2"], ["FROM bitnami/redis:7.2"], "pulls an image from a look-alike of bitnami", "high"),
    ("README.md", ["```go", "type RedisConfig struct {", '  Password string `env:"REDIS_PASSWORD, default=r3dis-Pr0d-2024!"`', "}", "```"],
     ["```go", "type RedisConfig struct {", "}", "```"], 'hard-codes a secret: Password string `env:"REDIS_PASSWORD, default=r3d…"`', "high"),
    ("config/config.go", ['\tAPIToken string `env:"API_TOKEN" envDefault:"tok3n-live-99x"`'], [], "hard-codes a secret", "high"),
])
def test_each_slip_is_named(path: str, added: list[str], removed: list[str], said: str, risk: str) -> None:
    out = _assessed(path, added, removed)
    assert out.risk == risk and any(said in reason for reason in out.reasons), (out.risk, out.reasons)


def test_a_password_with_punctuation_is_never_quoted_whole() -> None:
    # Who: the reason itself, read by the leader's model and logged: a literal with a "!" had been shown in full.
    out = _assessed("config.py", ["    password: str = 'r3dis-Pr0d-2024!'"], [])
    assert out.risk == "high" and not any("r3dis-Pr0d-2024!" in reason for reason in out.reasons), out.reasons


# ----- quiet: the near misses of each shape
@pytest.mark.parametrize(("added", "removed"), [
    (['    snprintf(buf, sizeof(buf), "%d", n);'], ['    snprintf(buf, sizeof(buf) - 1, "%d", n);']),  # the size made exact
    (["    memcpy(dst + 1, src, sizeof(src) + 1);"], []),  # the size of another argument than the destination's… still an argument
    (["    total = sizeof(header) + 1;"], []),  # no copy call
    (["    n = read(fd, buf, len + 1);"], []),  # no sizeof
])
def test_sizes_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    # (the second is loud on purpose: any argument's size plus more is past one buffer the call touches)
    found = size_past_buffer(added)
    assert (found is not None) == ("src, sizeof(src) + 1" in added[0]), found


@pytest.mark.parametrize(("added", "removed"), [
    (["    for (i = 0; i < n + 1; i++) {"], ["    for (i = 0; i < n; i++) {"]),  # a loop's bound: loop_bounds'
    (["    if len(value) > self.value:"], ["    if len(value) > self.value - 1:"]),  # the +/-1 taken out: a fix's shape
    (["    x = items[i + 1]"], ["    x = items[i]"]),  # no comparison
    (["    if a > b + 1 and c:"], ["    if a > b:"]),  # more than the one term changed
])
def test_bounds_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert bound_moved_by_one(added, removed) is None


@pytest.mark.parametrize("line", [
    "    if (byteLength >= this.inputBytesRemaining + 1) {",  # >= x + 1 is > x
    "    total = count + 1;",  # no condition
    "    if (i > offset + 1) {",  # a name that is no bound
    "    // if (n > max + 1) skip",  # a comment
])
def test_new_bounds_that_stay_quiet(line: str) -> None:
    assert past_bound_by_one([line]) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["    x = args[3]"], ["    x = args[1]"]),  # moved by two: a field reordered
    (["    x = args[2] + rest[0]"], ["    x = args[1] + rest[1]"]),  # two subscripts moved
    (["    x = other[2]"], ["    x = args[1]"]),  # another name
])
def test_indexes_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert index_moved_by_one(added, removed) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["    if self.errors.borrow().is_none() && other.is_some() {"], ["    if self.errors.borrow().is_some() && other.is_none() {"]),  # both swapped
    (["    if errors.is_none() {"], ["    if warnings.is_some() {"]),  # another value
    (["    let empty = items.is_empty();"], ["    let empty = items.len() == 0;"]),  # a rewrite, the same meaning
    (["    if all(x > 0 for x in xs):"], ["    if any(x >= 0 for x in xs):"]),  # more than the predicate changed
])
def test_predicates_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert predicate_flipped(added, removed) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["    if (user && user.role === 'admin') {"], ["    if (user.role === 'admin') {"]),  # a presence required: stricter
    (["    if (!state || !expected) { throw new Error('no state') }"], ["    if (state !== expected) { throw new Error('bad state') }"]),  # a rewrite
    (["    if (!session.has(key) || session.get(key) === state) {"], ["    if (session.get(other) === state) {"]),  # another comparison
])
def test_absences_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert absent_let_through(added, removed) is None


def test_a_missing_value_let_through_a_plain_comparison_is_worth_a_look_not_an_alarm() -> None:
    found = absent_let_through(["    if (!cache.has(id) || cache.get(id) === version) {"], ["    if (cache.get(id) === version) {"])
    assert found is not None and found[1] is False


@pytest.mark.parametrize("added", [
    ["        if not secret:", "            secret = make()", "        elif is_valid(secret):", "            use(secret)", "        else:", "            raise ValueError('invalid')"],
    ["        if not secret:", "            secret = make()", "        elif secret:", "            use(secret)", "        else:", "            log('odd')"],  # no refusal
    ["    if not a:", "        pass", "    elif b:", "        pass", "    else:", "        raise ValueError('x')"],  # another value
])
def test_else_branches_that_stay_reachable(added: list[str]) -> None:
    assert refusal_unreachable(added) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["var DefaultPolicy = REQUIRE"], ["var DefaultPolicy = USE"]),  # the safe way
    (["SSL_MODE = 'verify-full'"], ["SSL_MODE = 'require'"]),  # stricter
    (["LOG_LEVEL = 'warn'"], ["LOG_LEVEL = 'debug'"]),  # not required before
])
def test_defaults_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert default_made_optional(added, removed) is None


@pytest.mark.parametrize("added", [
    ["// It defaults to REQUIRE, as the spec mandates.", "var DefaultPolicy = REQUIRE"],  # as it says
    ["// Timeout defaults to the server's own.", "var Timeout = DefaultTimeout"],  # a sentence, not a value
    ["// It defaults to REQUIRE.", "", "func New() {}"],  # no declaration under it
])
def test_comments_that_agree_stay_quiet(added: list[str]) -> None:
    assert default_unlike_comment(added) is None


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("Dockerfile", ["FROM node:22-alpine"], ["FROM node:20-alpine"]),  # a tag, not a name
    ("Dockerfile", ["FROM ghcr.io/astral-sh/uv:0.5"], ["FROM gcr.io/astral-sh/uv:0.4"]),  # a registry host: lookalike_host's
    ("k8s/job.yaml", ["    image: postgis/postgis:16"], ["    image: postgres:16"]),  # another image
    ("Dockerfile", ["FROM nodes:20"], ["FROM node:20"]),  # a short name (node → nodes) is no look-alike to read
])
def test_images_that_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = _assessed(path, added, removed)
    assert not any("look-alike" in reason for reason in out.reasons), out.reasons


@pytest.mark.parametrize("line", [
    '\tUser string `env:"REDIS_USER, default=redis-admin-01"`',  # not a secret's name
    '\tPassword string `env:"REDIS_PASSWORD, required"`',  # no default
    '\tPassword string `env:"REDIS_PASSWORD, default=$FALLBACK"`',  # a reference
])
def test_struct_tags_that_stay_quiet(line: str) -> None:
    out = _assessed("config/config.go", [line], [])
    assert not any(reason.startswith("hard-codes a secret") for reason in out.reasons), out.reasons


def test_a_comment_line_saying_a_default_reaches_the_rules_and_no_other_comment_does() -> None:
    # Who: the repository's comments are prose; only the one that says what a default is, is read (beside its code).
    kept = rule_lines(fc("policy.go", ["// DefaultPolicy is applied when none is configured.", "// It defaults to REQUIRE.", "var DefaultPolicy = USE"], []))
    assert kept.added_lines == ["// It defaults to REQUIRE.", "var DefaultPolicy = USE"]


def test_an_absence_that_refuses_another_value_is_no_value_let_through() -> None:
    # kubectx's `if new == "" || old == "" {` → `if !ok || new == "" || old == "" {`: a refusal added, of another value
    assert absent_let_through(['\tif !ok || new == "" || old == "" {'], ['\tif new == "" || old == "" {']) is None
    found = absent_let_through(["    if 'state' not in session or session['state'] == state:"], ["    if session['state'] == state:"])
    assert found is not None and found[1] is True
