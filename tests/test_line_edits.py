"""Issue 36, round 7: a security-relevant line edited in place is read by its structure, not by a family of words.

The party guarded against is the worker that slips one edit into an ordinary change (a typing pass, a release, a
refactor) in a shape no family reader knows: a called name swapped, an operand added, a literal moved, a clause added
on a line of its own, a value's cleaning step deleted, a dangerous module imported under a harmless name, a dependency
moved to an old release, a package manager's setting, a plant in vendored code or in a docs sample. Each shape below
was read as nothing (or stayed low) before round 7; each must now be named and never low. The near misses are the edits
an ordinary change makes to the same lines (annotations, renames, formatting, the safe way) and must stay quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc, review
from relay.review.risk import RiskContext, assess_all, rank_changes

__all__: list[str] = []  # a test module exports nothing



@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # a called name swapped: every claim → any claim (round 54: the quantifier's own reader says what it does, and leads)
        ("lib/guardian/token/verify.ex", ["    Enum.any?(valid, &(&1 in claim_values))"], ["    Enum.all?(valid, &(&1 in claim_values))"],
         "turns all into any in a check (it now holds when one holds): Enum.all?"),
        # an operand added to a bound: seconds read as milliseconds
        # Round 41: the unit reader's turn, worth a look, is quoted with the line readers; it says more and leads.
        ("src/timed.py", ["            if age > max_age * 1000:"], ["            if age > max_age:"], "adds a unit conversion on a time compared for expiry (* 1000"),
        # an allow-list written as a set literal gains a member
        ("src/flask_login/config.py", ['EXEMPT_METHODS = {"OPTIONS", "GET"}'], ['EXEMPT_METHODS = {"OPTIONS"}'], 'edits a security line (adds "GET")'),
        # a clause ANDed into the condition that signs: unsigned unless also secure
        ("plugin.js", ["  if (opts.signed && opts.secure) {"], ["  if (opts.signed) {"], "edits a security line (adds && opts.secure)"),
        # a default argument loosened inside a signature line (annotations there are a typing pass; a default is a value)
        ("lib/throttle.js", ["function rateLimit (req, res, limit = 100000, windowMs = 60000) {"],
         ["function rateLimit (req, res, limit = 100, windowMs = 60000) {"], "edits a security line (100 → 100000)"),
        # a long line: the quote centres on the changed tokens, not the line's start
        ("secure.go", ['\tssl := strings.EqualFold(r.URL.Scheme, "https") || r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"'],
         ['\tssl := strings.EqualFold(r.URL.Scheme, "https") || r.TLS != nil'], "edits a security line (adds || r.Header.Get("),
        # a framework's switch flipped, whatever its name says (every error's backtrace shown in production)
        ("examples/rails6/config/environments/production.rb", ["  config.consider_all_requests_local       = true"],
         ["  config.consider_all_requests_local       = false"], "flips a setting (false → true): config.consider_all_requests_local = true"),
        # a plant spread over two lines: a clause of its own in a wrapped condition
        ("src/decoding.rs", ["        && !signature.is_empty()"], [], "adds a clause to a check: && !signature.is_empty()"),
        # a value's cleaning step deleted, nothing in its place
        ("lib/rack/cors.rb", [], ["        path = Rack::Utils.clean_path_info(path) if Rack::Utils.valid_path?(path)"],
         "drops a step on a value (Rack::Utils.clean_path_info)"),
        # a call named for switching a protection off, in an example
        ("examples/validation.rs", ["    validation.insecure_disable_signature_validation();"], [],
         "calls a switch that turns a protection off: validation.insecure_disable_signature_validation()"),
        # a dangerous module under a harmless name
        ("src/itsdangerous/serializer.py", ["import pickle as json"], ["import json"], "imports a dangerous module under another name (pickle as json)"),
        # a dependency moved down (the Gradle coordinate read whole)
        ("lib/build.gradle", ["    implementation 'com.fasterxml.jackson.core:jackson-databind:2.9.8'"],
         ["    implementation 'com.fasterxml.jackson.core:jackson-databind:2.21.3'"], "downgrades a dependency: jackson-databind 2.21.3 → 2.9.8"),
        ("package.json", ['    "jsonwebtoken": "^8.5.1",'], ['    "jsonwebtoken": "^9.0.2",'], "downgrades a dependency: jsonwebtoken 9.0.2 → 8.5.1"),
        # mix's package rename: the app's name, another Hex package's code
        ("mix.exs", ['      {:jose, "~> 1.11.9", hex: :jose_jwt},'], ['      {:jose, "~> 1.11.9"},'], "installs dependency jose from another package: jose_jwt"),
        # a package manager's settings read as settings
        (".npmrc", ["ignore-scripts=false"], ["ignore-scripts=true"], "turns a package manager's protection off: ignore-scripts=false"),
        (".yarnrc.yml", ["enableScripts: true"], ["enableScripts: false"], "turns a package manager's protection off: enableScripts: true"),
        # a weakened MAC check hidden in vendored code
        # (round 29: the turned-line reader says first what the added clause does to the failure check)
        ("vendor/github.com/acme/jwt/hmac.go", ["\tif !hmac.Equal(sig, expected) && len(sig) > 0 {"], ["\tif !hmac.Equal(sig, expected) {"],
         "fails only when an added conjunct also holds"),
        # a docs sample's redirect guard deleted whole
        ("docs/index.rst", ["            return flask.redirect(next or flask.url_for('index'))"],
         ["            if not url_has_allowed_host_and_scheme(next, request.host):", "                return flask.abort(400)",
          "            return flask.redirect(next or flask.url_for('index'))"], "deletes a guard: if not url_has_allowed_host_and_scheme"),
    ],
)
def test_round_seven_shapes_are_named_and_never_low(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk != "low" and out.reasons[0].startswith(named), (out.risk, out.reasons)


def test_a_plant_behind_a_rename_in_the_same_change_is_still_read() -> None:
    # The worker renames a name across the file (quiet) and edits one use's operator in the same change.
    removed = ["    token = read_token(req)", "    if token.expires_at > now:", "        return token"]
    added = ["    tok = read_token(req)", "    if tok.expires_at > now - 3600:", "        return tok"]
    out = review(fc("app/session.py", added, removed))
    assert out.risk != "low" and "edits a security line" in out.reasons[0], out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        # a typing pass over security lines
        ("src/signer.py", ["    def verify_signature(self, value: str | bytes, sig: str | bytes) -> bool:"],
         ["    def verify_signature(self, value: _t_str_bytes, sig: _t_str_bytes) -> bool:"]),
        ("src/signer.py", ['        salt: str | bytes | None = b"itsdangerous.Signer",'], ['        salt: _t_opt_str_bytes = b"itsdangerous.Signer",']),
        ("src/timed.py", ['        return t.cast("cabc.Iterator[TimestampSigner]", self.iter_signers())'],
         ['        return t.cast("_t.Iterator[TimestampSigner]", self.iter_signers())']),
        # a rename applied wherever the name stands
        ("app/auth.py", ["    tok = read_token(req)", "    if not verify(tok):", "        raise Denied(tok)"],
         ["    token = read_token(req)", "    if not verify(token):", "        raise Denied(token)"]),
        # formatting, quotes, a trailing comma, a comment
        ("app/auth.py", ['    if session["user"] and verify(token, key=KEY):  # checked'], ["    if session['user'] and verify(token, key=KEY):"]),
        ("app/auth.py", ["    check_token(token, audience, issuer,)"], ["    check_token(token, audience, issuer)"]),
        # a message's wording, an error built another way, an import
        ("app/auth.py", ['        raise AuthError("the token has expired")'], ['        raise AuthError("token expired")']),
        ("src/tls/mod.rs", ["pub use cert::{Certificate, PrivateKey};"], ["pub use cert::{Certificate, PrivateKey, parse_pem};"]),
        # a security line edited the safe way: a bound lowered, a minimum raised, a check turned on, a refusal widened
        ("app/limits.py", ["MAX_TOKEN_AGE = 600"], ["MAX_TOKEN_AGE = 3600"]),
        ("app/limits.py", ["PASSWORD_MIN_LENGTH = 12"], ["PASSWORD_MIN_LENGTH = 8"]),
        ("app/client.py", ["    verify_ssl = True"], ["    verify_ssl = False"]),
        ("app/views.py", ["    if not user.is_authenticated or not user.is_active:"], ["    if not user.is_authenticated:"]),
        # a dependency moved up; an abbreviation for a module
        ("package.json", ['    "jsonwebtoken": "^9.0.2",'], ['    "jsonwebtoken": "^8.5.1",']),
        ("lib/run.js", ["const cp = require('child_process')"], []),
        ("src/run.py", ["import subprocess as sp"], []),
        # a parameter's type changed, a link's version, a range widened to the same release line
        ("src/tables/stats.tsx", ["const StatsTable = ({ displayMode = 'usage', secure }: Props) => {"],
         ["const StatsTable = ({ displayMode = true, secure }: Props) => {"]),
        ("hc/settings.py", ["# Security settings: https://docs.djangoproject.com/en/6.1/ref/settings/"],
         ["# Security settings: https://docs.djangoproject.com/en/4.2/ref/settings/"]),
        ("sinatra.gemspec", ["  s.add_dependency 'rack', '~> 2.2'"], ["  s.add_dependency 'rack', '~> 2.2.4'"]),
        # a raised exception named for what it refuses is no switch
        ("src/extract.py", ["        raise Unsafe(dest)"], []),
        # a docs list item and a link rewritten
        ("README.md", ["- Authorization code grant"], ["- Authorisation code grant"]),
    ],
)
def test_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(rule in out.rules for rule in ("edits_security_line", "downgrades_dependency", "dangerous_call", "unsafe_value")), out.reasons


def test_a_line_finding_outranks_files_high_only_for_words() -> None:
    # A large commit: files high for security words in typing-only or plain edits, one medium edited check.
    wordy = [review(fc(f"lib/auth/module_{i}.py", [f"    token_{i} = escape(session.token_{i}) + {i}"], [])) for i in range(9)]
    plant = review(fc("lib/guardian/token/verify.ex", ["    Enum.any?(valid, &(&1 in claim_values))"],
                      ["    Enum.all?(valid, &(&1 in claim_values))"]))
    assert all(w.risk == "high" for w in wordy) and plant.risk == "medium"
    order = [c.path for c in rank_changes([*wordy, plant])]
    assert order[0] == plant.path, order


@pytest.mark.parametrize(
    "removed",
    [
        ["    public PushedAuthorizationRequest(string clientId, string responseType)"],
        ["        var authorizeRedirect = new AuthorizeRedirectParameters(clientId, responseType);"],
    ],
)
def test_a_constructor_removed_is_no_check_deleted(removed: list[str]) -> None:
    # Round 6 read a constructor named for authorization as "deletes a check" and ranked the file over the planted one.
    out = review(fc("src/Client/Messages/PushedAuthorizationRequest.cs", [], removed))
    assert "removes_guard" not in out.rules, out.reasons


def test_a_gradle_look_alike_names_the_whole_group() -> None:
    # The group of a Gradle coordinate was cut back one letter so as to stand before something other than ":".
    out = review(fc("app/build.gradle", ["    implementation 'com.squareup.okhtp3:okhttp:4.12.0'"],
                    ["    implementation 'com.squareup.okhttp3:okhttp:4.12.0'"]))
    assert out.reasons[0] == "renames a dependency to a look-alike (a typo-squat?): com.squareup.okhttp3 → com.squareup.okhtp3", out.reasons


def test_a_class_moved_to_its_own_file_is_no_check_deleted_but_a_lone_refusal_still_is() -> None:
    moved = ["    class VerifierContext", "      def verify(*args, **kwargs)", "        @keys.any? do |key|",
             "          @jwa.verify(*args, **kwargs, verification_key: key)", "        end", "      end", "    end"]
    old_home = fc("lib/jwt/jwa.rb", [], moved)
    new_home = fc("lib/jwt/jwa/verifier_context.rb", moved, kind="added")
    assessed = {c.path: c for c in assess_all([old_home, new_home], RiskContext())}
    assert "removes_guard" not in assessed["lib/jwt/jwa.rb"].rules, assessed["lib/jwt/jwa.rb"].reasons
    # The worker deletes a guard and writes a like refusal in a test: one line found elsewhere is no block moved.
    guard = fc("app/views.py", [], ["    if not request.user.is_staff:", "        raise PermissionDenied"])
    test = fc("tests/test_views.py", ["        raise PermissionDenied"], kind="added")
    assessed = {c.path: c for c in assess_all([guard, test], RiskContext())}
    assert assessed["app/views.py"].reasons[0].startswith("deletes a guard"), assessed["app/views.py"].reasons


def test_a_docs_sample_guard_refusing_by_status_is_read() -> None:
    # Express's docs refuse with a status, no "return" or "raise" on the line: the sample's guard is still read.
    out = review(fc("docs/guide/auth.md", ["  res.redirect(req.query.next)"],
                    ["  if (!isSafeRedirect(req.query.next)) {", "    res.status(400).send('bad redirect')", "  }",
                     "  res.redirect(req.query.next)"]))
    assert out.reasons[0].startswith("deletes a guard"), out.reasons
