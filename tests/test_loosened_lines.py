"""One line that loosens a check where no other reader named it (relay.review.loosened_lines, round 23 part B): an
expiry from another lifetime, a timeout's unit inflated, a limit compared with the increment, a host's suffix match
without its dot, a quote no longer escaped, the loosest limit picked, an expiry/window check inverted, a nearest-match
fallback, a strictness default off, a deny made order-dependent, a repository check weakened, ECB; each in several
languages, through the whole review, with look-alikes that stay quiet. Every case is synthetic; none names a project."""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

TURNS = [
    # an expiry taken from another lifetime
    ("auth/token.go", ["\t\tclaims.ExpiresAt = time.Now().Add(s.SessionDuration).Unix()"], ["\t\tclaims.ExpiresAt = time.Now().Add(s.AccessDuration).Unix()"],
     "takes an expiry from another lifetime"),
    ("src/main/kotlin/Tokens.kt", ["        val expiresAt = clock.instant().plus(refreshTokenTtl)"], ["        val expiresAt = clock.instant().plus(accessTokenTtl)"],
     "takes an expiry from another lifetime"),
    # a timeout's unit inflated
    ("lib/app/session.ex", ["    if now - started_at > @idle_timeout * 60 do"], ["    if now - started_at > @idle_timeout do"], "inflates a timeout's unit"),
    ("lib/session_check.rb", ["        Time.now - last_seen > config.idle_timeout.hours"], ["        Time.now - last_seen > config.idle_timeout"], "inflates a timeout's unit"),
    # a fixed window's limit compared with the increment
    ("lib/app/window.ex", ["    count = :ets.update_counter(table, key, increment, {key, 0})", "    if increment <= limit do", "      {:allow, count}"], [],
     "compares a limit with the increment"),
    ("pkg/ratelimit/window.go", ["\tcount := atomic.AddInt64(&w.hits, delta)", "\tif delta <= w.limit {", "\t\treturn true", "\t}"], [], "compares a limit with the increment"),
    ("lib/throttle.rb", ["    total = redis.incrby(key, amount)", "    return true if amount <= limit"], [], "compares a limit with the increment"),
    # a host's suffix match without its dot
    ("src/Validator.php", ["                $rpId,"], ["                '.' . $rpId,"], "suffix without its dot"),
    ("auth/origin.py", ["    return host == domain or host.endswith(domain)"], ["    return host == domain or host.endswith(\".\" + domain)"], "suffix without"),
    ("src/origin.ts", ["  return hostname.endsWith(rpId);"], ["  return hostname.endsWith(`.${rpId}`);"], "suffix without"),
    ("auth/cookie.go", ["\tif strings.HasSuffix(host, cookieDomain) {"], [], "suffix without a dot"),
    ("Sources/Auth/Origin.swift", ["        return host.hasSuffix(allowedDomain)"], [], "suffix without a dot"),
    ("src/origin.rs", ["    host.ends_with(&domain)"], [], "suffix without a dot"),
    # a quote or backslash no longer escaped
    ("src/Writer.java", ["        out.append(\"\\\"\");"], ["        out.append(\"\\\\\\\"\");"], "stops escaping a quote"),
    ("src/Emit.cs", ["                case '\\\\': sb.Append(\"\\\\\"); break;"], ["                case '\\\\': sb.Append(\"\\\\\\\\\"); break;"], "stops escaping a backslash"),
    ("src/quote.rs", ["    let s = v.replace('\\\\', \"\\\\\\\\\");"], ["    let s = v.replace('\\\\', \"\\\\\\\\\").replace('\"', \"\\\\\\\"\");"], "stops escaping a quote"),
    ("src/Emitter.php", ["        $out .= $value;"], ["        $out .= str_replace('\"', '\\\\\"', $value);"], None),
    # the loosest of ordered limits picked
    ("src/Core/Limits.cs", ["            var rule = rules.OrderByDescending(r => r.Limit).First();"], ["            var rule = rules.OrderBy(r => r.Limit).First();"], "picks the loosest"),
    ("src/main/kotlin/Quota.kt", ["    val rule = matching.sortedBy { it.limit }.last()"], ["    val rule = matching.sortedBy { it.limit }.first()"], "picks the loosest"),
    ("lib/quota.rb", ["    rule = matching.max_by(&:limit)"], ["    rule = matching.min_by(&:limit)"], "picks the loosest"),
    ("src/Limits.cs", ["            var limits = all.GroupBy(l => l.Period).Select(g => g.OrderByDescending(x => x.Limit).First());"], [], "picks the loosest"),
    # an expiry/window check inverted against the clock
    ("src/Store.cs", ["            if (entry.Timestamp + rule.Period < DateTime.UtcNow)"], ["            if (entry.Timestamp + rule.Period >= DateTime.UtcNow)"], "expiry/window check"),
    ("auth/session.go", ["\tif time.Now().After(s.ExpiresAt) {"], ["\tif time.Now().Before(s.ExpiresAt) {"], "expiry/window check"),
    ("cache/entry.py", ["        if self.created + self.ttl < time.time():"], ["        if self.created + self.ttl >= time.time():"], "expiry/window check"),
    ("src/main/java/Grant.java", ["        if (grant.getExpiresAt().isBefore(Instant.now())) {"], ["        if (grant.getExpiresAt().isAfter(Instant.now())) {"], "expiry/window check"),
    # an unknown name resolved to its nearest match
    ("Sources/CLI/Group.swift", ["        guard let command = commands[name] ?? commands.min(by: { $0.key.distance(to: name) < $1.key.distance(to: name) })?.value else {"],
     ["        guard let command = commands[name] else {"], "falls back to the nearest match"),
    ("cli/main.py", ["    cmd = COMMANDS.get(name) or COMMANDS[difflib.get_close_matches(name, COMMANDS, n=1, cutoff=0)[0]]"], ["    cmd = COMMANDS[name]"],
     "falls back to the nearest match"),
    ("lib/cli/dispatch.rb", ["    handler = HANDLERS[name] || HANDLERS.min_by { |k, _| levenshtein(k, name) }.last"], ["    handler = HANDLERS.fetch(name)"],
     "falls back to the nearest match"),
    # a strictness default turned off
    ("src/ParserSettings.cs", ["            ignoreUnknownArguments = true;"], [], "turns a strictness default off"),
    ("src/cli.ts", ["program.allowUnknownOption();"], [], "turns a strictness default off"),
    ("src/main/kotlin/Json.kt", ["    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)"], [], "turns a strictness default off"),
    ("src/config.rs", ["#[serde(rename_all = \"kebab-case\")]"], ["#[serde(rename_all = \"kebab-case\", deny_unknown_fields)]"], "turns a strictness default off"),
    ("app/schemas.py", ["    model_config = ConfigDict(extra=\"allow\")"], [], "turns a strictness default off"),
    # a deny made to depend on an earlier allow
    ("policy/engine.go", ["\t\tif !p.AllowAccess() && !allowed {"], ["\t\tif !p.AllowAccess() {"], "makes a deny depend on order"),
    ("acl/evaluate.py", ["        if rule.effect == 'deny' and not allowed:"], ["        if rule.effect == 'deny':"], "makes a deny depend on order"),
    # a repository check weakened, a clean-tree check removed
    ("bin/force-clone.sh", ["  if [ -d \"${dest}\" ]; then"], ["  if [ -d \"${dest}/.git\" ]; then"], "weakens a repository check"),
    ("tools/sync.py", ["    if os.path.isdir(dest):"], ["    if os.path.isdir(os.path.join(dest, '.git')):"], "weakens a repository check"),
    ("scripts/release.sh", ["git reset --hard \"origin/$branch\""], ["if [ -n \"$(git status --porcelain)\" ]; then echo dirty; exit 1; fi", "git pull"],
     "removes a clean-tree or repository check"),
    # ECB as a block mode, in code and in a docs sample
    ("lib/crypt.py", ["    cipher = AES.new(key, AES.MODE_ECB)"], ["    cipher = AES.new(key, AES.MODE_GCM, nonce=nonce)"], "encrypts in ECB mode"),
    ("README.md", ["```swift", "let aes = try AES(key: key, blockMode: ECB(), padding: .pkcs7)", "```"],
     ["```swift", "let aes = try AES(key: key, blockMode: CBC(iv: iv), padding: .pkcs7)", "```"], "encrypts in ECB mode"),
    ("src/Crypto.cs", ["            aes.Mode = CipherMode.ECB;"], ["            aes.Mode = CipherMode.CBC;"], "encrypts in ECB mode"),
]

QUIET = [
    ("auth/token.go", ["\t\tclaims.ExpiresAt = time.Now().Add(s.TokenTTLSeconds).Unix()"], ["\t\tclaims.ExpiresAt = time.Now().Add(s.TokenTTL).Unix()"]),  # one lifetime renamed
    ("lib/session_check.rb", ["        Time.now - last_seen > config.idle_timeout.seconds"], ["        Time.now - last_seen > config.idle_timeout"]),  # the unit it has
    ("lib/app/window.ex", ["    if increment > max_increment, do: raise(ArgumentError)"], []),  # a guard on the increment itself
    ("auth/origin.py", ["    return host == domain or host.endswith('.' + domain)"], []),  # the dot kept
    ("src/files.ts", ["  return filename.endsWith(suffix);"], []),  # a file's suffix, not a host
    ("src/Writer.java", ["        out.append(\"\\\\\\\\\");"], ["        out.append(\"\\\\\");"]),  # more escaping, not less
    ("src/Sort.cs", ["            var shown = items.OrderByDescending(x => x.Name).First();"], ["            var shown = items.OrderBy(x => x.Name).First();"]),  # no limit
    ("src/Count.cs", ["            if (count < max)"], ["            if (count >= max)"]),  # no clock
    ("cli/main.py", ["        print(f\"unknown command; did you mean {difflib.get_close_matches(name, COMMANDS)[0]}?\")"], []),  # a suggestion
    ("tsconfig.json", ["    \"strict\": false,"], ["    \"strict\": true,"]),  # a compiler's strictness
    ("src/cli.ts", ["program.allowUnknownOption(false);"], []),
    ("policy/engine.go", ["\t\tif !p.AllowAccess() && !l.Matcher.Matches(p, r) {"], ["\t\tif !p.AllowAccess() {"]),
    ("bin/force-clone", ["  if [ -d \"${dest}/.git\" ] && [ -w \"${dest}\" ]; then"], ["  if [ -d \"${dest}/.git\" ]; then"]),
    ("lib/crypt.py", ["    if mode == AES.MODE_ECB: raise ValueError('ECB is insecure')"], []),
]


@pytest.mark.parametrize(("path", "added", "removed", "said"), TURNS)
def test_loosening_is_named_and_never_low(path: str, added: list[str], removed: list[str], said: str | None) -> None:
    out = review(fc(path, added, removed))
    if said is None:  # a case another reader already names: still never low
        assert out.risk != "low", out.reasons
        return
    assert out.risk != "low" and any(said in r for r in out.reasons), (out.risk, out.reasons)


_SAID = ("takes an expiry from another lifetime", "inflates a timeout's unit", "compares a limit with the increment", "suffix without",
         "stops escaping", "picks the loosest", "expiry/window check", "falls back to the nearest", "turns a strictness default off",
         "makes a deny depend on order", "weakens a repository check", "clean-tree", "encrypts in ECB mode")


@pytest.mark.parametrize(("path", "added", "removed"), QUIET)
def test_look_alike_is_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(s in r for r in out.reasons for s in _SAID), out.reasons


def test_classic_kinds_are_high() -> None:
    deny = review(fc("policy/engine.go", ["\t\tif !p.AllowAccess() && !allowed {"], ["\t\tif !p.AllowAccess() {"]))
    ecb = review(fc("lib/crypt.rb", ["    cipher = OpenSSL::Cipher.new('aes-256-ecb')"], ["    cipher = OpenSSL::Cipher.new('aes-256-gcm')"]))
    assert deny.risk == "high" and ecb.risk == "high", (deny.reasons, ecb.reasons)


def test_an_expiry_check_gated_on_an_unrelated_value_and_a_window_pair_are_named() -> None:
    gated = review(fc("auth/claims/verify.go", ["\tif s.ExpiresAt != nil && s.NotBefore != nil && now.After(*s.ExpiresAt) {"],
                      ["\tif s.ExpiresAt != nil && now.After(*s.ExpiresAt) {"]))
    window = review(fc("pkg/ratelimit/window.go", ["\tif delta <= w.limit {"], ["\tif count <= w.limit {"]))
    guard = review(fc("pkg/user.go", ["\tif u != nil && u.Name == name && u.Verified {"], ["\tif u.Name == name && u.Verified {"]))  # a null guard before a use
    assert any("run only when an unrelated s.NotBefore is present" in r for r in gated.reasons), gated.reasons
    assert any("compares a limit with the increment" in r for r in window.reasons), window.reasons
    assert not any("unrelated" in r for r in guard.reasons), guard.reasons


def test_a_new_expiry_check_gated_on_another_claim_is_high() -> None:
    line = "\tif !opts.Time().IsZero() && s.ExpiresAt != nil && s.NotBefore != nil && !verifyTime(opts.Time(), time.Time(*s.ExpiresAt)) {"
    out = review(fc("auth/claims/claims.go", ["package claims", "", "func (s Standard) Verify(opts Options) error {", line, "\t\treturn ErrExpired", "\t}", "}"], [],
                    kind="added"))
    plain = review(fc("auth/claims/claims.go", [line.replace(" && s.NotBefore != nil", "")], [], kind="added"))
    assert out.risk == "high" and any("only when an unrelated s.NotBefore is present" in r for r in out.reasons), out.reasons
    assert not any("unrelated" in r for r in plain.reasons), plain.reasons


def test_a_new_parameter_defaulting_to_non_strict_is_quiet() -> None:
    out = review(fc("lib/schema.py", ["    def __init__(self, only=(), strict=False):"], []))
    flipped = review(fc("lib/schema.py", ["    def __init__(self, only=(), strict=False):"], ["    def __init__(self, only=(), strict=True):"]))
    assert not any("strictness default" in r for r in out.reasons), out.reasons
    assert any("strictness default" in r for r in flipped.reasons), flipped.reasons


_VERIFY = ["func (v *Verifier) VerifySignature(msg, sig []byte) error {", "\treturn nil", "\tmac := hmac.New(sha256.New, v.key)",
           "\tif !hmac.Equal(mac.Sum(nil), sig) {", "\t\treturn ErrBadSignature", "\t}", "\treturn nil", "}"]


@pytest.mark.parametrize(("lines", "at", "said"), [
    (_VERIFY, 2, "return nil as the first line of VerifySignature()"),
    (["  def allowed?(user, doc)", "    return true", "    doc.owner_id == user.id", "  end"], 2, "return true as the first line of allowed?()"),
    (["func (l *List) Reset() {", "\treturn", "\tl.items = nil", "}"], 2, None),  # not a check
    (["  def valid?", "    return true", "  end"], 2, None),  # nothing of a body after it: a stub
    (["func (v *Verifier) Verify(sig []byte) error {", "\tmac := hmac.New(sha256.New, v.key)", "\treturn nil", "}"], 3, None),  # not the first line
])
def test_a_return_inserted_first_in_a_check_is_a_check_passed_at_once(lines: list[str], at: int, said: str | None) -> None:
    from relay.review.apart_edits import Run
    from relay.review.early_passes import early_passes
    from relay.review.edit_scopes import Scopes

    found = early_passes([Run("auth/verify.go", at, at, (lines[at - 1],), ())], Scopes(lambda _: "\n".join(lines)))
    if said is None:
        assert not found, found
    else:
        assert said in found.get("auth/verify.go", ""), found
