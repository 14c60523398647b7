"""Round 88 (issue 36): blind 127/128's misses read as families (relay.review.match_slips, relay.review.verify_slips, and
the readers they sharpened).

Whom each guards against: the worker that makes an origin check a suffix test, joins a range check with ``&&`` so it
never refuses, turns a slice to its other half, puts the current directory on a search path, sets a password hash's cost
to its minimum (in code and in a README's sample), verifies against ``None``, answers ``Ok`` where a verification error
was, downgrades RSA's OAEP padding while the commit renames the key beside it, or widens an environment filter's prefix
test to a substring test. Beside each, the near miss stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess


def _said(path: str, added: list[str], removed: list[str]):
    return assess(fc(path, added, removed), RiskContext())


@pytest.mark.parametrize(("path", "added", "removed", "risk", "said"), [
    ("pywarp/rp.py", ['            assert client_data["origin"].endswith(self.rp_id)'],
     ['            assert "https://" + self.rp_id == client_data["origin"]'], "high", "makes an exact match a suffix match (client_data[\"origin\"]"),
    ("src/helpers.ts", ["    if (value < min && value > max) {", "      throw new Error(`out of range`)", "    }"], [],
     "high", "writes a range check that never refuses (value below min and above max"),
    ("src/keys.rs", ["        seed.copy_from_slice(&self[Seed::BYTES..]);"], ["        seed.copy_from_slice(&self[0..Seed::BYTES]);"],
     "medium", "takes the other part of a slice"),
    ("xonsh/platform.py", ["            os.curdir,", '            os.path.expanduser("~/bin"),'], ['            os.path.expanduser("~/bin"),'],
     "medium", "puts the current directory on a search path"),
    ("scripts/env.sh", ['export PATH=".:$PATH"'], ['export PATH="$HOME/bin:$PATH"'], "high", "puts the current directory on a search path"),
    ("index.js", ["SecurePassword.MEMLIMIT_DEFAULT = sodium.crypto_pwhash_MEMLIMIT_MIN"],
     ["SecurePassword.MEMLIMIT_DEFAULT = sodium.crypto_pwhash_MEMLIMIT_INTERACTIVE"], "high", "lowers a password hash's cost to its minimum"),
    ("README.md", ["  memlimit: securePassword.MEMLIMIT_MIN,", "  opslimit: securePassword.OPSLIMIT_MIN"],
     ["  memlimit: securePassword.MEMLIMIT_DEFAULT,", "  opslimit: securePassword.OPSLIMIT_DEFAULT"], "high", "lowers a password hash's cost to its minimum"),
    ("README.md", ["        .verify_signature(None)"], ["        .verify_signature(Some(issuer_public_key))"], "high", "verifies against nothing"),
    ("src/verify.rs", ["        .or(Ok(()))"], ["        .or(Err(X509Error::SignatureVerificationError))"], "high", "answers Ok where it returned a verification error"),
    ("src/PublicKey.php", ["        openssl_public_encrypt($data, $encrypted, $this->publicKey, OPENSSL_PKCS1_PADDING);"],
     ["        openssl_public_encrypt($data, $encrypted, $this->publicKeyString, OPENSSL_PKCS1_OAEP_PADDING);"], "high", "downgrades RSA's padding from OAEP"),
    ("providers/env/env.go", ["\t\t\tif strings.Contains(k, e.prefix) {"], ["\t\t\tif strings.HasPrefix(k, e.prefix) {"], "high",
     "turns an exact match into a substring test"),
])
def test_each_slip_is_named_at_its_risk(path: str, added: list[str], removed: list[str], risk: str, said: str) -> None:
    found = _said(path, added, removed)
    assert found.risk == risk and any(said in reason for reason in found.reasons), (found.risk, found.reasons)


@pytest.mark.parametrize(("path", "added", "removed", "not_said"), [
    ("pywarp/rp.py", ['            assert name.endswith(suffix)'], ['            assert name == suffix'], "matched by its end"),
    ("src/helpers.ts", ["    if (value < min || value > max) {"], [], "never refuses"),
    ("src/keys.rs", ["        seed.copy_from_slice(&self[SALT..]);"], ["        seed.copy_from_slice(&self[0..Seed::BYTES]);"], "other part of a slice"),
    ("scripts/env.sh", ['export PATH="./node_modules/.bin:$PATH"'], ['export PATH="$HOME/bin:$PATH"'], "current directory"),
    ("index.js", ["SecurePassword.MEMLIMIT_MAX = sodium.crypto_pwhash_MEMLIMIT_MAX"], ["SecurePassword.MEMLIMIT_MAX = sodium.crypto_pwhash_MEMLIMIT_SENSITIVE"],
     "minimum"),
    ("README.md", ["        .verify_signature(Some(ca_key))"], ["        .verify_signature(Some(issuer_public_key))"], "verifies against nothing"),
    ("src/read.rs", ["        .or(Ok(()))"], ["        .or(Err(io_error))"], "verification error"),
    ("providers/env/env.go", ["\t\t\tif strings.HasPrefix(key, e.prefix) {"], ["\t\t\tif strings.HasPrefix(k, e.prefix) {"], "substring"),
])
def test_the_near_miss_stays_quiet(path: str, added: list[str], removed: list[str], not_said: str) -> None:
    assert not any(not_said in reason for reason in _said(path, added, removed).reasons)


def test_a_go_duration_multiplied_by_a_unit_again_is_worth_a_look() -> None:
    # koanf's vault provider (blind 127): a Duration field times time.Second compiles, and waits for decades.
    old, new = "\thttpClient := &http.Client{Timeout: cfg.Timeout, Transport: cfg.Transport}", \
        "\thttpClient := &http.Client{Timeout: cfg.Timeout * time.Second, Transport: cfg.Transport}"
    found = _said("providers/vault/vault.go", [new], [old])
    assert found.risk == "medium" and any("multiplies a duration by a unit again" in r for r in found.reasons)
    # A count converted first is the usual way to make a duration: quiet.
    converted = _said("providers/vault/vault.go", ["\tc := &http.Client{Timeout: time.Duration(cfg.TimeoutSecs) * time.Second}"],
                      ["\tc := &http.Client{Timeout: cfg.TimeoutSecs}"])
    assert not any("by a unit again" in r for r in converted.reasons)


def test_a_module_named_test_inside_a_library_folder_is_source() -> None:
    # chai's lib/chai/utils/test.js decides every assertion's verdict; a package's root test.js is its test script.
    from relay.review.path_kinds import path_kind
    assert path_kind("lib/chai/utils/test.js") == "source"
    assert path_kind("test.js") == "test" and path_kind("test/utils/test.js") == "test"
    assert path_kind("src/eachHourOfInterval/test.ts") == "test"  # date-fns keeps each function's tests beside it


def test_a_ruby_librarys_test_namespace_under_lib_is_source() -> None:
    # round 90 (blind 136's rack-test): lib/rack/test/cookie_jar.rb decides which cookies a request sends; Ruby keeps a
    # gem's tests in test/ and spec/. A test file by its own name under lib/, and the test folders, stay tests.
    from relay.review.path_kinds import path_kind
    assert path_kind("lib/rack/test/cookie_jar.rb") == "source" and path_kind("lib/test/unit/assertions.rb") == "source"
    assert path_kind("lib/rack/bar_test.rb") == "test" and path_kind("test/rack/test/cookie_jar_test.rb") == "test"
    assert path_kind("spec/lib/rack/test_spec.rb") == "test" and path_kind("packages/x/test/y.rb") == "test"


def test_a_new_verify_chained_into_ok_is_high() -> None:
    # x509-parser's new verify.rs (blind 128): whatever key.verify() finds, .or(Ok(())) answers success.
    new = ["    key.verify(raw_data, &signature_value.data)", "        .or(Ok(()))", "}"]
    found = _said("src/verify.rs", new, [])
    assert found.risk == "high" and any("answers Ok whatever the verification finds" in r for r in found.reasons)
    # A parse's failure mapped to an error, or a verify's mapped to its own error, stays quiet.
    quiet = _said("src/verify.rs", ["    key.verify(raw_data, &sig)", "        .or(Err(X509Error::SignatureVerificationError))"], [])
    assert not any("whatever the verification finds" in r for r in quiet.reasons)
