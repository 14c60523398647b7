"""Values that weaken a check, said and kept from low (relay.review.weakened_values, issue 36 round 28 part B), and words
inside names read as whole tokens of their language: each reader on cases in several languages that no planted set
holds, and look-alikes that must stay quiet."""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.facts import RiskContext
from relay.review.file_kinds import rule_lines
from relay.review.risk import assess


def _fc(path: str, removed: list[str], added: list[str]) -> FileChange:
    return FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


# (path, removed, added, what a reason must hold; "" for a look-alike weakens_value must not fire on)
CASES = [
    # a strength parameter cut: a password hash's cost, a key's length
    ("app/auth/passwords.py", ["    time_cost=3, memory_cost=65536,  # argon2"], ["    time_cost=3, memory_cost=1024,  # argon2"], "65536 → 1024"),
    ("app/auth/passwords.py", ["PBKDF2_ITERATIONS = 600_000"], ["PBKDF2_ITERATIONS = 1_000"], "PBKDF2_ITERATIONS 600_000 → 1_000"),
    ("lib/crypto/kdf.js", ["  iterations: 310000,  // pbkdf2"], ["  iterations: 1000,  // pbkdf2"], "iterations 310000 → 1000"),
    ("src/Security/Hasher.php", ["        'cost' => 12, // bcrypt"], ["        'cost' => 4, // bcrypt"], "weakens the hash: cost 12 → 4"),
    ("src/crypto/keys.rs", ["const KEY_LEN: usize = 32;"], ["const KEY_LEN: usize = 8;"], "KEY_LEN 32 → 8"),
    ("pkg/auth/hash.go", ["\th, err := bcrypt.GenerateFromPassword([]byte(pw), 12)"], ["\th, err := bcrypt.GenerateFromPassword([]byte(pw), 4)"],
     "a cost in its call 12 → 4"),
    ("accounts/hashing.py", ["    dk = hashlib.pbkdf2_hmac('sha256', pw, salt, 200000)"], ["    dk = hashlib.pbkdf2_hmac('sha256', pw, salt, 2000)"],
     "a cost in its call 200000 → 2000"),
    ("pkg/auth/hash.go", ["\th, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)"],
     ["\th, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.MinCost)"], "MinCost"),
    ("pkg/auth/hash.go", ["\th, err := bcrypt.GenerateFromPassword([]byte(pw), 10)"], ["\th, err := bcrypt.GenerateFromPassword([]byte(pw), 12)"], ""),
    ("deploy/compose.py", ["    memory = 512"], ["    memory = 256"], ""),
    ("src/pool.rs", ["const BUF_LEN: usize = 4096;"], ["const BUF_LEN: usize = 1024;"], ""),
    # a validity window widened
    ("lib/otp/totp.rb", ["    drift: 30,"], ["    drift: 3000,"], "drift 30 → 3000"),
    ("src/auth/jwt.ts", ["  clockTolerance: 5,"], ["  clockTolerance: 86400,"], "clockTolerance 5 → 86400"),
    ("src/auth/jwt.ts", ["const leeway = 5; // jwt"], ["const leeway = 3600; // jwt"], "leeway 5 → 3600"),
    ("app/Otp/Verifier.kt", ["        val ok = totp.verify(code, config.window())"], ["        val ok = totp.verify(code, config.window() * 20)"], "window() multiplied"),
    ("src/TwoFactor/Totp.php", ["            'period' => 30,"], ["            'period' => 600,"], "period 30 → 600"),
    ("mfa/totp.go", ["\t\tSkew:   1,"], ["\t\tSkew:   20,"], "Skew 1 → 20"),
    ("accounts/otp.py", ["    code_ok = totp.verify(code, valid_window=self.valid_window())"], ["    code_ok = totp.verify(code, valid_window=self.valid_window() * 10)"], "multiplied"),
    ("billing/cycle.py", ["    period = 30"], ["    period = 60"], ""),
    ("src/otp.py", ["    window = 4"], ["    window = 1"], ""),
    # a secret compared by its prefix
    ("auth/tokens.py", ["    return hmac.compare_digest(expected, given)"], ["    return hmac.compare_digest(expected[:6], given[:6])"], "prefix only ([:6])"),
    ("src/verify.ts", ["  if (sig === expectedSig) return true;"], ["  if (expectedSig.startsWith(sig)) return true;"], "prefix only (startsWith)"),
    ("src/check.rs", ["    if digest == expected {"], ["    if digest[..4] == expected[..4] {"], "prefix only ([..4])"),
    ("lib/Api/Auth.java", ["        return token.equals(stored);"], ["        return token.substring(0, 8).equals(stored.substring(0, 8));"], "prefix only"),
    ("src/show.py", ["    if name == other:"], ["    if name[:4] == other[:4]:"], ""),
    ("src/route.ts", ["  if (path === prefix) return true;"], ["  if (path.startsWith(prefix)) return true;"], ""),
    # a value checked for its presence
    ("app/models/captcha.rb", ["    body.dig('success')"], ["    body.key?('success')"], "checks that 'success' is present, not its value"),
    ("client/verify.py", ["    if data.get('verified'):"], ["    if 'verified' in data:"], "checks that 'verified' is present"),
    ("src/Check.php", ["        if ($resp['ok']) {"], ["        if (isset($resp['ok'])) {"], "checks that 'ok' is present"),
    ("src/Gate.java", ["        if (claims.getBoolean(\"admin\")) {"], ["        if (claims.containsKey(\"admin\")) {"], "checks that 'admin' is present"),
    ("client/load.py", ["    if 'items' in data:"], ["    if 'items' in data and data.get('items'):"], ""),
    ("client/load.py", ["    if data.get('items'):"], ["    if data.get('items') and 'items' in data:"], ""),
    # a missing value let through a check
    ("lib/risk.js", ["  return score !== null && score >= minScore;"], ["  return score === null || score >= minScore;"], "passes when score is missing"),
    ("app/policy.py", ["    return level is not None and level >= required"], ["    return level is None or level >= required"], "passes when level is missing"),
    ("src/Limits.cs", ["        return quota >= used;"], ["        return (quota ?? Infinity) >= used;"], "passes when quota is missing"),
    ("src/Limits.cs", ["        return quota >= used;"], ["        return (quota ?? 0) >= used;"], ""),
    ("src/claims.ts", ["  return iss === expected;"], ["  return iss === expected || iss === undefined;"], "passes when iss is missing"),
    ("lib/claims.js", [], ["const isIssuerValid = (iss, want) => iss === want || iss == null;"], "passes when iss is missing"),
    ("lib/score.rb", [], ["  def valid_score?(s) = s.nil? || s >= MIN_SCORE"], "passes when s is missing"),
    ("app/age.py", [], ["def verify_age(age): return age is None or age >= 18"], "passes when age is missing"),
    ("lib/opts.js", [], ["const isValid = (opts) => opts === undefined || opts.strict;"], ""),
    # a match arm's result turned from a refusal to a grant
    ("src/access.rs", ["        Some(Role::Guest) => Access::Denied,"], ["        Some(Role::Guest) => Access::Granted,"], "turns an arm's refusal into a grant"),
    ("app/src/Gate.kt", ["        Status.EXPIRED -> Result.Invalid"], ["        Status.EXPIRED -> Result.Valid"], "turns an arm's refusal into a grant"),
    ("lib/check.ex", ['  defp check_sig(%{valid?: false}), do: {:error, "bad signature"}'], ["  defp check_sig(%{valid?: false}), do: :ok"],
     "turns an arm's refusal into a grant"),
    ("src/Policy.cs", ["            null => false,"], ["            null => true,"], "turns an arm's refusal into a grant"),
    ("src/color.rs", ["        Kind::A => Color::Red,"], ["        Kind::A => Color::Blue,"], ""),
    ("src/access.rs", ["        Some(Role::Admin) => Access::Granted,"], ["        Some(Role::Admin) => Access::Denied,"], ""),
    ("src/parse.rs", ["        Some(x) => x,"], ["        Some(x) => x + 1,"], ""),
    ("config/app.php", ["    'cache_routes' => false,"], ["    'cache_routes' => true,"], ""),
    ("lib/fmt.rb", ["    name = user.name || 'anon'"], ["    name = user.name.nil? || 'anon'"], ""),
    ("app/policy.py", ["    return level is None or level >= required"], ["    return level is None or level > required"], ""),
]


@pytest.mark.parametrize(("path", "removed", "added", "said"), CASES)
def test_a_value_that_weakens_a_check_is_said_and_not_low(path: str, removed: list[str], added: list[str], said: str) -> None:
    change = assess(_fc(path, removed, added), RiskContext())
    if said:
        assert change.risk != "low" and said in change.reasons[0], change.reasons
    else:
        assert "weakens_value" not in change.rules, change.reasons


# Words inside names: a method whose name ends in "_free" outside a language that frees by hand, a backtick or a word
# inside a message string, are no memory release and no command.
WORDS = [
    ("lib/verify.rb", ["    raw = api_verification(hash, timeout)"], ["    raw = api_verification_free(hash, timeout)"], "memory safety", False),
    ("src/zip.c", ["    _zip_buffer_free(buffer);"], [], "memory safety", True),
    ("lib/oidc.ex", ['  defp check(%{"kid" => kid}), do: {:error, "No key for the `kid` value \\"#{kid}\\""}'],
     ["  defp check(%{\"kid\" => kid}),", '    do: {:error, "No key for the `kid` value #{kid}"}'], "quoting of a command", False),
    ("lib/run.rb", ['    system("convert \\"#{path}\\" out.png")'], ['    system("convert #{path} out.png")'], "quoting of a command", True),
]


@pytest.mark.parametrize(("path", "removed", "added", "word", "fires"), WORDS)
def test_a_word_inside_a_name_or_a_message_is_not_read(path: str, removed: list[str], added: list[str], word: str, fires: bool) -> None:
    change = assess(_fc(path, removed, added), RiskContext())
    assert any(word in reason for reason in change.reasons) is fires, change.reasons


# Build and packaging values (relay.review.package_values): named and kept from low.
PACKAGING = [
    ("snap/snapcraft.yaml", ["version: '1.2'", "confinement: strict"], ["version: '1.3'", "confinement: classic"], "confinement: strict → classic"),
    ("build/org.example.App.yml", ["  - --filesystem=xdg-documents"], ["  - --filesystem=host"], "loosens the sandbox"),
    ("flatpak/org.example.Tool.json", ['    "--device=dri",'], ['    "--device=all",'], "loosens the sandbox"),
    ("snap/snapcraft.yaml", ["confinement: devmode"], ["confinement: strict"], ""),
    ("Cargo.lock", ['source = "registry+https://github.com/rust-lang/crates.io-index"'],
     ['source = "registry+https://github.com/rust-lang-forks/crates.io-index"'], "another registry"),
    ("package-lock.json", ['      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",'],
     ['      "resolved": "https://npm.example-mirror.io/left-pad/-/left-pad-1.3.0.tgz",'], "another registry"),
    ("Gemfile.lock", ["  remote: https://rubygems.org/"], ["  remote: https://gems.example-mirror.dev/"], "another registry"),
    ("package-lock.json", ['      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",'],
     ['      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.1.tgz",'], ""),
    # Round 33: a lockfile's package moved to a git repository is said by the lockfile where no other file of the change
    # writes that repository (relay.review.kind_values; the manifest's own git line stays the manifest's to say).
    ("Cargo.lock", ['source = "registry+https://github.com/rust-lang/crates.io-index"'],
     ['source = "git+https://github.com/tree-sitter/tree-sitter-rust?rev=1a2b#1a2b"'], "takes a locked package from a git repository"),
    ("Cargo.lock", ['source = "git+https://github.com/tree-sitter/tree-sitter?rev=1a2b#1a2b"'],
     ['source = "git+https://github.com/helix-editor/tree-sitter?rev=3c4d#3c4d"'], "takes a locked package from a git repository"),
    ("Cargo.lock", ['source = "git+https://github.com/tree-sitter/tree-sitter?rev=1a2b#1a2b"'],
     ['source = "git+https://github.com/tree-sitter/tree-sitter?rev=3c4d#3c4d"'], ""),
    ("docs/setup.md", ['  visibility = "internal"'], ['  visibility = "public"'], "makes it public (visibility internal → public)"),
    ("examples/bucket.tf", ['  acl    = "private"'], ['  acl    = "public-read"'], "makes it public"),
    ("README.rst", ["   private: true"], ["   private: false"], "makes it public"),
    ("docs/setup.md", ['  visibility: "public"'], ['  visibility: "private"'], ""),
    ("scripts/get.sh", ["  status=$?"], ["  status=0"], "zeroes a command's status"),
    ("tools/hooks/pre-push.bash", ['  exit "$rc"'], ["  exit 0"], "exits 0 whatever the status"),
    ("ci/fetch.sh", ["curl -fsSL $URL -o out.tgz"], ["curl -fsSL $URL -o out.tgz || true"], "swallows a fetch's failure"),
    ("scripts/get.sh", ["  status=$?"], ["  rc=$?"], ""),
    ("src/run.py", ["    status = rc"], ["    status = 0"], ""),
]


@pytest.mark.parametrize(("path", "removed", "added", "said"), PACKAGING)
def test_a_packaging_value_that_weakens_what_ships_is_said_and_not_low(path: str, removed: list[str], added: list[str], said: str) -> None:
    # Only the lines the rules read (relay.review.file_kinds): a settings file keeps the lines its screens pass.
    change = assess(rule_lines(_fc(path, removed, added)), RiskContext())
    if said:
        assert change.risk != "low" and any(said in reason for reason in change.reasons), change.reasons
    else:
        assert "weakens_package" not in change.rules, change.reasons
