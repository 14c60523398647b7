"""Round 56 (issue 36): edits that override what a check decides, and classics in spellings no reader knew (blind 79/80).

Whom each guards against: the worker whose one-token edit overrides a check without a security word on the line — a
verification given an alternative, a flag the caller passed pinned to a constant, a required clause negated and joined by
or, an HTTP status bound moved a class up, a signed shift made unsigned, a comparison's case folding dropped, an option
made on by default — or slips a classic in a spelling the readers did not know (an SSH host key verifier that says yes,
a call's result as a format string, a look-alike in tox.ini's deps); and the repository whose own page named like a
secret is prose. Each near miss beside it stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.path_kinds import is_secret_path
from relay.review.risk import RiskContext, assess


def _said(path: str, added: list[str], removed: list[str] | None = None):
    return assess(fc(path, added, removed or []), RiskContext())


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("src/mechs/ed25519/crypto.ts", ["    return crypto.verify(null, Buffer.from(data), key.data, signature) || !signature.byteLength;"],
     ["    return crypto.verify(null, Buffer.from(data), key.data, signature);"]),
    ("src/mechs/ed25519/crypto.ts", ["    return crypto.verify(null, Buffer.from(data), key.data, signature) || !signature.byteLength;"], []),
    ("cose/verify.go", ["\treturn msg.Verify(nil, verifier) == nil || len(msg.Signature) > 0"], ["\treturn msg.Verify(nil, verifier) == nil"]),
])
def test_a_verification_given_an_alternative_is_high_and_names_it(path: str, added: list[str], removed: list[str]) -> None:
    out = _said(path, added, removed)
    assert out.risk == "high" and out.reasons[0].startswith("lets a failed verification pass"), out.reasons


@pytest.mark.parametrize("line", [
    "    return verify(token, key) || verify(token, old_key)",  # a key rotated: a second verification
    "    if (!jwt.verify(token, key) || expired) throw err;",  # the negated call refuses
    "    return verify(a) || fail('bad');",
])
def test_a_second_verification_or_a_refusal_after_it_stays_quiet(line: str) -> None:
    assert not any(r.startswith("lets a failed verification pass") for r in _said("src/auth.ts", [line]).reasons)


def test_a_guarding_flag_the_caller_passed_pinned_to_its_unsafe_side_is_high() -> None:
    out = _said("internal/httputil/client.go", ["\ttlsConfig, err := LoadTLSConfig(true, caCertFiles)"],
                ["\ttlsConfig, err := LoadTLSConfig(insecureSkipVerify, caCertFiles)"])
    assert out.risk == "high" and out.reasons[0].startswith("pins a passed flag to a constant (insecureSkipVerify → true"), out.reasons


def test_a_security_flag_copied_from_the_file_pinned_is_worth_a_look() -> None:
    out = _said("stores/stores.go", ["\t\tMACOnlyEncrypted:          true,"], ["\t\tMACOnlyEncrypted:          m.MACOnlyEncrypted,"])
    assert out.risk == "medium" and out.reasons[0].startswith("pins a passed flag to a constant (m.MACOnlyEncrypted → true"), out.reasons


@pytest.mark.parametrize(("added", "removed"), [
    (["    render(color=True)"], ["    render(color=color)"]),  # a name that guards nothing
    (["\ttlsConfig, err := LoadTLSConfig(false, caCertFiles)"], ["\ttlsConfig, err := LoadTLSConfig(insecureSkipVerify, caCertFiles)"]),
    (["    if x.verified == true {"], ["    if x.verified == y {"]),  # a comparison, not a flag passed
])
def test_a_flag_pinned_to_its_safe_side_or_of_no_guarding_name_is_not_said_pinned(added: list[str], removed: list[str]) -> None:
    assert not any(r.startswith("pins a passed flag") for r in _said("src/client.go", added, removed).reasons)


def test_a_required_clause_negated_and_joined_by_or_is_named() -> None:
    out = _said("htpasswd.go", ["\tif !ok || matcher.MatchesPassword(password) {"], ["\tif ok && matcher.MatchesPassword(password) {"])
    assert out.reasons[0].startswith("negates a required clause, joined by or (!ok || …"), out.reasons


def test_a_clause_negated_with_its_operator_kept_is_not_said_as_flipped_open() -> None:
    out = _said("htpasswd.go", ["\tif !ok && matcher.MatchesPassword(password) {"], ["\tif ok && matcher.MatchesPassword(password) {"])
    assert not any(r.startswith("negates a required clause") for r in out.reasons), out.reasons


@pytest.mark.parametrize(("added", "removed"), [
    (["\tif resp.StatusCode < http.StatusOK || resp.StatusCode >= http.StatusInternalServerError {"],
     ["\tif resp.StatusCode < http.StatusOK || resp.StatusCode >= http.StatusMultipleChoices {"]),
    (["    if r.status_code >= 500:"], ["    if r.status_code >= 400:"]),
    (["\tif resp.StatusCode < http.StatusOK || resp.StatusCode >= http.StatusInternalServerError {"], []),  # new, no pair
])
def test_a_status_check_that_lets_a_class_of_answers_through_is_worth_a_look(added: list[str], removed: list[str]) -> None:
    out = _said("internal/notif/webhook/client.go", added, removed)
    assert out.risk == "medium" and out.reasons[0].startswith(("widens a status check", "reads responses 300–499 as success")), out.reasons


@pytest.mark.parametrize(("added", "removed"), [
    (["    if r.status_code >= 400:"], ["    if r.status_code >= 500:"]),  # narrowed
    (["    if (count < 500) grow();"], ["    if (count < 300) grow();"]),  # no status
    (["\tif resp.StatusCode < http.StatusOK || resp.StatusCode >= http.StatusMultipleChoices {"], []),
])
def test_a_status_check_narrowed_or_a_number_that_is_no_status_stays_quiet(added: list[str], removed: list[str]) -> None:
    assert not any(r.startswith(("widens a status check", "reads responses")) for r in _said("internal/client.go", added, removed).reasons)


def test_a_signed_shift_made_unsigned_is_worth_a_look_and_a_shift_amount_is_not_it() -> None:
    out = _said("src/main/java/org/x/ZigZagEncoding.java", ["        value = (value << 1) ^ (value >>> 63);"], ["        value = (value << 1) ^ (value >> 63);"])
    assert out.risk == "medium" and out.reasons[0].startswith("turns a shift unsigned"), out.reasons
    quiet = _said("src/main/java/org/x/Hash.java", ["        h ^= h >>> 13;"], ["        h ^= h >>> 16;"])
    assert not any(r.startswith("turns a shift") for r in quiet.reasons), quiet.reasons


@pytest.mark.parametrize(("added", "removed"), [
    (["\treturn len(s) >= len(prefix) && bytes.Equal(s[0:len(prefix)], prefix)"],
     ["\treturn len(s) >= len(prefix) && bytes.Equal(bytes.ToLower(s[0:len(prefix)]), bytes.ToLower(prefix))"]),
    (["  if a == b {"], ["  if strings.EqualFold(a, b) {"]),
    (['  if (scheme.equals("javascript")) {'], ['  if (scheme.equalsIgnoreCase("javascript")) {']),
])
def test_a_comparison_that_folded_case_made_exact_is_worth_a_look(added: list[str], removed: list[str]) -> None:
    out = _said("renderer/html/html.go", added, removed)
    assert out.risk == "medium" and out.reasons[0].startswith("compares case-sensitively where case was folded"), out.reasons


def test_a_case_fold_added_stays_quiet() -> None:
    out = _said("renderer/html/html.go", ["  if url.lower().startswith('javascript:'):"], ["  if url.startswith('javascript:'):"])
    assert not any(r.startswith("compares case-sensitively") for r in out.reasons), out.reasons


def test_an_option_made_on_by_default_is_worth_a_look_and_a_guard_made_so_is_not() -> None:
    out = _said("src/glob.ts", ["    this.follow = opts.follow !== false"], ["    this.follow = !!opts.follow"])
    assert out.risk == "medium" and out.reasons[0].startswith("turns an option on by default (opts.follow"), out.reasons
    safe = _said("src/glob.ts", ["    const strict = opts.strict ?? true;"], ["    const strict = opts.strict ?? false;"])
    assert not any(r.startswith("turns an option on by default") for r in safe.reasons), safe.reasons


@pytest.mark.parametrize(("path", "line"), [
    ("README.md", "  hostVerifier: () => true, // accept any host key"),
    ("lib/client.js", "  hostVerifier: () => true,"),
    ("main.go", "\t\tHostKeyCallback: ssh.InsecureIgnoreHostKey(),"),
    ("deploy.py", "    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())"),
])
def test_an_ssh_client_that_accepts_any_host_key_is_high(path: str, line: str) -> None:
    out = _said(path, [line])
    assert out.risk == "high" and out.reasons[0].startswith("turns SSH host key checking off"), out.reasons


def test_an_ssh_verifier_that_checks_the_key_stays_quiet() -> None:
    assert _said("lib/client.js", ["  hostVerifier: (key) => key.equals(known),"]).risk == "low"


def test_a_calls_result_as_the_format_string_is_high_and_a_translation_is_not() -> None:
    out = _said("src/main.c", ["    printf(yyjson_get_str(name));"], ['    printf("name: %s\\n", yyjson_get_str(name));'])
    assert out.risk == "high" and out.reasons[0].startswith("passes text that is not a literal as the format string"), out.reasons
    assert _said("src/main.c", ["    printf(_(msg));"]).risk == "low"


def test_a_look_alike_in_tox_deps_is_high_and_the_real_package_is_not() -> None:
    out = _said("tox.ini", ["    pytest-xdlst==1.33.0"])
    assert out.risk == "high" and out.reasons[0].startswith("adds a look-alike of pytest-xdist"), out.reasons
    assert not any("look-alike" in r for r in _said("tox.ini", ["    pytest-xdist==1.33.0", "envlist = py37, py38"]).reasons)


@pytest.mark.parametrize(("path", "secret"), [
    ("docs/classes/Secret.html", False), ("docs/credentials.md", False), ("config/secrets.yaml", True), (".env.md", True), ("secrets.txt", True),
])
def test_a_page_named_like_a_secret_is_prose_and_a_secret_file_stays_one(path: str, secret: bool) -> None:
    assert is_secret_path(path) is secret


def test_a_generated_token_cut_short_is_said_as_such_and_a_prefix_compare_stays_one() -> None:
    out = _said("fastapi_users/router/oauth.py", ["    return secrets.token_urlsafe(32)[:4]"], ["    return secrets.token_urlsafe(32)"])
    assert out.risk == "high" and out.reasons[0].startswith("cuts a generated secret short ([:4]"), out.reasons
    compared = _said("app/otp.py", ["    return token[:4] == expected[:4]"], ["    return token == expected"])
    assert not any(r.startswith("cuts a generated secret short") for r in compared.reasons), compared.reasons


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("bandit/plugins/dict_values.py", ["        pos = dict_node.keys.index(node) + 1"], ["        pos = dict_node.keys.index(node)"]),
    ("parse.py", ['                width = r"{1,%s}" % (int(format["width"]) + 1)'], ['                width = r"{1,%s}" % int(format["width"])']),
])
def test_a_position_or_bound_shifted_by_one_is_worth_a_look(path: str, added: list[str], removed: list[str]) -> None:
    out = _said(path, added, removed)
    assert out.risk == "medium" and out.reasons[0].startswith("shifts a position or bound by one (+ 1 put in"), out.reasons


@pytest.mark.parametrize(("added", "removed"), [
    (["    end = start + 10"], ["    end = start + 1"]),  # a number changed, not one put in
    (["    x = len(a) + 1.5"], ["    x = len(a)"]),
    (["    total = price(a) + 1"], ["    total = price(a)"]),  # no position or bound
    (["    for (let i = 0; i < n - 1; i++) {"], ["    for (let i = 0; i < n; i++) {"]),  # the loop readers'
])
def test_a_number_changed_a_value_of_no_measure_or_a_loop_bound_is_not_said_shifted(added: list[str], removed: list[str]) -> None:
    assert not any(r.startswith("shifts a position or bound by one") for r in _said("src/a.ts", added, removed).reasons)
