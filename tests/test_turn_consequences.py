"""What a turned check now lets through (relay.review.turn_consequences and relay.review.let_through, read through their
rule rows): each reader on cases in several languages, none a copy of the held-out lines it was written for, and
look-alikes quiet."""

from __future__ import annotations

import pytest

from relay.core.records import FileChange
from relay.review.facts import RiskContext
from relay.review.risk import rule_fires
from relay.review.rules import RULE_BY_NAME

CASES = [
    # an error check narrowed by an excusing clause, or an empty handler of one error added
    ("auth.py", ["    if exc is not None:"], ["    if exc is not None and not isinstance(exc, SignatureExpired):"],
     "lets an expired signature through (SignatureExpired no longer fails)"),
    ("src/session.js", ["  if (err) {"], ["  if (err && !(err instanceof TokenExpiredError)) {"],
     "lets an expired token through (TokenExpiredError no longer fails)"),
    ("src/Tls.kt", ["    if (error != null) {"], ["    if (error != null && error !is CertificateExpiredException) {"],
     "lets an expired certificate through"),
    ("grant.go", ["\tif err != nil {"], ["\tif err != nil && err != ErrRevoked {"], "lets a revoked through (ErrRevoked no longer fails)"),
    ("app/jwt.py", ["        claims = decode(token, key)"], ["        try:", "            claims = decode(token, key)", "        except jwt.ExpiredSignatureError:",
                                                               "            pass"], "(ExpiredSignatureError no longer fails)"),
    ("src/Verify.java", ["    verifier.verify(sig);"], ["    try { verifier.verify(sig); }", "    } catch (InvalidSignatureException e) {}"],
     "lets an invalid signature through"),
    ("lib/auth.rb", ["    decode(token)"], ["    decode(token)", "  rescue JWT::ExpiredSignature; nil"], "(ExpiredSignature no longer fails)"),
    ("io.go", ["\tif err != nil {"], ["\tif err != nil && !errors.Is(err, io.EOF) {"], None),  # EOF names no failure
    ("retry.go", ["\tif err != nil {"], ["\tif err != nil && retries > 0 {"], None),
    ("src/Load.java", ["    read(f);"], ["    try { read(f); }", "    } catch (IOException e) {", "      log.warn(\"retrying\", e);"], None),
    ("fetch.go", ["\tx := 1"], ["\tif err != nil && !errors.Is(err, ErrNotFound) {"], None),  # no check it narrows
    # an alternative of a rejecting condition dropped, on one line or several
    ("views.py", ["    if not user or user.disabled:"], ["    if not user:"], "no longer rejects when user.disabled"),
    ("src/mw.ts", ["  if (!session ||", "      session.expiresAt < Date.now()) {"], ["  if (!session) {"],
     "no longer rejects when session.expiresAt < Date.now()"),
    ("lib/guard.rb", ["    if token.nil? || token.revoked?"], ["    if token.nil?"], "no longer rejects when token.revoked?"),
    ("src/Certs.java", ["    if (cert == null || !cert.isValid(now)) {"], ["    if (cert == null) {"], "no longer rejects when !cert.isValid(now)"),
    ("src/a.js", ["  if (!a) {"], ["  if (!a || b) {"], None),
    ("src/b.js", ["  if (!a || b) {"], ["  if (b || !a) {"], None),
    ("src/c.js", ["  if (a && b) {"], ["  if (a) {"], None),
    ("modes.py", ['    if mode == "a" or mode == "b":'], ['    if mode == "a":'], None),  # no missing value: not read as a rejection
    # a checking call's result discarded
    ("tokens.py", ["        return self.store.verify_token(tok)"], ["        self.store.verify_token(tok)", "        return True"],
     "discards the result of verify_token(): returns True whatever it says"),
    ("sig.go", ["\tif err := tok.Verify(key); err != nil {"], ["\ttok.Verify(key)"], "discards the result of Verify(): a failure reads as success"),
    ("src/Revoke.java", ["        if (!store.revoke(token)) return false;"], ["        store.revoke(token);"], "discards the result of revoke()"),
    ("src/acl.js", ["  return await checkPermission(user, doc)"], ["  checkPermission(user, doc)", "  return true"],
     "discards the result of checkPermission(): returns true"),
    ("src/Api.cs", ["        await validator.ValidateAsync(model);"], ["        _ = validator.ValidateAsync(model);"], "no longer awaits ValidateAsync()"),
    ("repo.py", ["    return repo.save(x)"], ["    return repo.save(x, flush=True)"], None),
    ("calc.py", ["    x = compute(a)"], ["    compute(a)"], None),
    ("src/roles.php", ["    if (!$user->hasRole('admin')) return false;"], ["    if (!$user->hasRole('admin')) { return false; }"], None),
    # an early return that gave nothing now gives the value
    ("signing.py", ["    if sig is None: return None"], ["    if sig is None: return data"], "returns data when sig is missing"),
    ("lib/cookie.rb", ["    return unless signature"], ["    return payload unless signature"], "returns payload when signature is missing"),
    ("src/Hmac.php", ["        if (!$hmac) return null;"], ["        if (!$hmac) return $body;"], "returns $body when hmac is missing"),
    ("Sources/Sig.swift", ["    guard let sig = header else { return nil }"], ["    guard let sig = header else { return body }"],
     "returns body when sig is missing"),
    ("src/d.js", ["  if (!x) return null"], ["  if (!x) return 0"], None),
    ("src/e.js", ["  if (!x) return;"], ["  if (!x) return false;"], None),
    ("src/f.js", ["  if (!a) return"], ["  if (!b) return value"], None),
    ("Sources/Snap.swift", ["    return false"], ["    return record"], None),  # no guard: a refactor as often
    # an encoding call replaced by text joined by hand, or told to escape fewer characters
    ("client.py", ['    url = base + "?" + urlencode(params)'], ['    url = base + "?" + "&".join(f"{k}={v}" for k, v in params.items())'],
     "drops urlencode(): builds the query unencoded"),
    ("api.go", ['\tu.RawQuery = "q=" + url.QueryEscape(term)'], ['\tu.RawQuery = fmt.Sprintf("q=%s", term)'],
     "drops url.QueryEscape(): builds the query unencoded"),
    ("sum.go", ["\tout := hex.EncodeToString(sum)"], ['\tout := strings.Join(parts, ":")'], None),  # a hex encoding escapes nothing
    ("src/link.js", ["  const href = `${base}?q=${encodeURIComponent(term)}`"], ["  const href = `${base}?q=${term}`"],
     "drops encodeURIComponent(): builds the query unencoded"),
    ("src/Quote.php", ["        return \"'\" . addcslashes($str, \"'\\\\\") . \"'\";"], ["        return \"'\" . addcslashes($str, \"\\\\\") . \"'\";"],
     "escapes fewer characters in addcslashes() (' no longer escaped)"),
    ("src/out.c", ['    escape_chars(out, in, "\\"\'\\\\");'], ['    escape_chars(out, in, "\\\\");'], "escapes fewer characters in escape_chars()"),
    ("q.py", ["    s = urlencode(params)"], ["    s = urlencode(params, doseq=True)"], None),
    ("src/g.php", ["    $a = addcslashes($s, \"'\");"], ["    $a = addcslashes($t, \"'\");"], None),
    ("src/h.php", ["    $a = addcslashes($s, \"\\\\\");"], ["    $a = addcslashes($s, \"'\\\\\");"], None),    # a tolerance spelt as a duration with its unit (relay.review.let_through)
    ("app/models/session.rb", ["    expires_at > Time.current &&"], ["    expires_at > Time.current - 2.days &&"],
     "out of date by up to 2.days"),
    ("auth/tokens.py", ["    if token.expires_at < now:"], ["    if token.expires_at < now - timedelta(days=30):"], "timedelta(days=30)"),
    ("src/Grant.kt", ["        if (issuedAt < clock.now() - maxAge) {"], ["        if (issuedAt < clock.now() - maxAge - Duration.ofDays(7)) {"],
     "Duration.ofDays(7)"),
    ("lib/pager.rb", ["    if offset > total"], ["    if offset > total - 1.0"], None),
]


@pytest.mark.parametrize(("path", "removed", "added", "said"), CASES, ids=[f"{c[0]}:{i}" for i, c in enumerate(CASES)])
def test_turn_consequence(path: str, removed: list[str], added: list[str], said: str | None) -> None:
    change = FileChange(path=path, additions=len(added), deletions=len(removed), added_lines=added, removed_lines=removed)
    found = (rule_fires(RULE_BY_NAME["consequence_note"], change, RiskContext())
             or rule_fires(RULE_BY_NAME["lets_through_note"], change, RiskContext()))
    if said is None:
        assert found is None
    else:
        assert found is not None and said in found, found
