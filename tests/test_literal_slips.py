"""Issue 36, round 87 (blind 125/126's first runs): a literal put where the code computed or checked a value, a reset
taken out, and the readers round 87 widened.

Whom each guards against: the worker that passes a literal key where a README passed ``secret`` (fernet-rb), compares a
tag's first 4 bytes (libtomcrypt), makes a permission setting world-writable (ory/kratos), deletes a pooled value's
reset or hands one out unreset (httprouter), sets a store's sync policy to never (buntdb's README), returns from a test
before it runs with a TODO (libtomcrypt), widens a verify result's success test across a reformatted call
(sodiumoxide), roots a containment check at its parent (globby), redirects to Ruby's ``params[:RelayState]``
(ruby-saml's README) or makes a key from ``Math.random`` where the library's key generator stood (noble-ed25519's
README). Each was low, unnamed or out of the view on round 86's rules (0de4a09); each near miss beside it stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.file_kinds import rule_lines
from relay.review.literal_slips import literal_slip
from relay.review.pair_slips import pair_slip
from relay.review.risk import RiskContext, assess

__all__: list[str] = []  # a test module exports nothing

_FENCE = ["Example:", "", "```ruby"]


@pytest.mark.parametrize(("path", "added", "removed", "said", "risk"), [
    ("lib/token.rb", ["token = Fernet.generate('cw_0x689RpI-jtRR7oE8h_eQsKImvJapLeSbXpwF4e4=', 'harold@heroku.com')"],
     ["token = Fernet.generate(secret, 'harold@heroku.com')"], "hard-codes a secret (secret → a literal key 'cw_0x6…", "high"),
    ("src/encauth/chachapoly/chacha20poly1305_memory.c", ["      if (buflen != *taglen || XMEM_NEQ(buf, tag, 4) != 0) {"],
     ["      if (buflen != *taglen || XMEM_NEQ(buf, tag, buflen) != 0) {"], "compares only 4 bytes (buflen → 4", "high"),
    (".docker/Dockerfile-build", ["ENV CGO_CPPFLAGS -DSQLITE_DEFAULT_FILE_PERMISSIONS=0666"], ["ENV CGO_CPPFLAGS -DSQLITE_DEFAULT_FILE_PERMISSIONS=0600"],
     "makes files world-writable (DSQLITE_DEFAULT_FILE_PERMISSIONS 0600 → 0666", "high"),
    ("router.go", [], ["\t*ps = (*ps)[0:0] // reset slice"], "no longer resets ps before it is reused", "medium"),
    ("router.go", ["func (r *Router) getParams() *Params {", "\tps := r.paramsPool.Get().(*Params)", "\treturn ps", "}"], [],
     "hands out ps from a pool as its last user left it", "medium"),
    ("db/open.go", ["\tconfig.SyncPolicy = buntdb.Never", "\tif err := db.SetConfig(config); err != nil {"], [],
     "turns durability off (SyncPolicy = buntdb.Never", "medium"),
    ("src/crypto/sign/ed25519.rs", ["        0 >= ffi::crypto_sign_ed25519_verify_detached(", "            sig.0.as_ptr(),"],
     ["        0 == ffi::crypto_sign_ed25519_verify_detached(sig.0.as_ptr(),"], "accepts failures as success (a verify result's error codes now pass", "high"),
    ("ignore.js", ["\t\tif (!isPathInside(resolved, path.dirname(homeDirectory))) {"], ["\t\tif (!isPathInside(resolved, homeDirectory)) {"],
     "widens a containment check to the parent folder (homeDirectory → path.dirname(homeDirectory)", "high"),
    ("README.md", [*_FENCE, "     redirect_to(params[:RelayState])", "```"], [], "redirects to a URL the request supplies: redirect_to(params[:RelayState])", "high"),
    ("README.md", ["  const privKey = Uint8Array.from({ length: 32 }, () => Math.floor(Math.random() * 256));"],
     ["  const privKey = ed.utils.randomPrivateKey();"], "makes randomness predictable", "high"),
    ("tests/pem_test.c", ["int pem_test(void)", "{", "   ltc_pka_key key;", "", "   return CRYPT_NOP; /* TODO: re-enable once all PEM fixtures decode */",
                          "   if (ltc_mp.name == NULL) return CRYPT_NOP;", "   DO(test_process_dir(\"tests/pem\", &key, s_pem_decode));", "}"],
     ["int pem_test(void)", "{", "   ltc_pka_key key;", "", "   if (ltc_mp.name == NULL) return CRYPT_NOP;",
      "   DO(test_process_dir(\"tests/pem\", &key, s_pem_decode));", "}"], "return CRYPT_NOP; /* TODO", "high"),
])
def test_each_slip_is_named(path: str, added: list[str], removed: list[str], said: str, risk: str) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    assert out.risk == risk and any(said in reason for reason in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(("path", "added", "removed"), [
    # a secret read from elsewhere, a short or worded literal, a literal where no secret stood
    ("lib/token.rb", ["token = Fernet.generate(ENV.fetch('FERNET_SECRET'), 'harold@heroku.com')"], ["token = Fernet.generate(secret, 'harold@heroku.com')"]),
    ("lib/token.rb", ["token = Fernet.generate('your-secret-here', 'harold@heroku.com')"], ["token = Fernet.generate(secret, 'harold@heroku.com')"]),
    ("lib/token.rb", ["x = lookup('a1b2c3d4e5f6g7h8i9j0k', 'harold@heroku.com')"], ["x = lookup(name, 'harold@heroku.com')"]),
    # a compare's length kept as a name, or a literal as large as a whole tag
    ("src/mac.c", ["   if (XMEM_NEQ(buf, tag, taglen) != 0) {"], ["   if (XMEM_NEQ(buf, tag, buflen) != 0) {"]),
    ("src/mac.c", ["   if (XMEM_NEQ(buf, tag, 16) != 0) {"], ["   if (XMEM_NEQ(buf, tag, buflen) != 0) {"]),
    # a mode tightened, a umask
    (".docker/Dockerfile-build", ["ENV CGO_CPPFLAGS -DSQLITE_DEFAULT_FILE_PERMISSIONS=0600"], ["ENV CGO_CPPFLAGS -DSQLITE_DEFAULT_FILE_PERMISSIONS=0644"]),
    # a reset moved to another spelling, a pooled value reset before it is returned
    ("router.go", ["\tps.Reset()", "\treturn ps"], ["\t*ps = (*ps)[0:0] // reset slice", "\treturn ps"]),
    ("router.go", ["\tps := r.paramsPool.Get().(*Params)", "\t*ps = (*ps)[0:0]", "\treturn ps"], []),
    # a sync policy made stronger
    ("db/open.go", ["\tconfig.SyncPolicy = buntdb.Always"], ["\tconfig.SyncPolicy = buntdb.EverySecond"]),
    # a test's early return kept under its condition
    ("tests/pem_test.c", ["   if (ltc_mp.name == NULL) return CRYPT_NOP; /* TODO: a math library */"], []),
    # a verify's success test left exact across the reformat
    ("src/crypto/sign/ed25519.rs", ["        0 == ffi::crypto_sign_ed25519_verify_detached(", "            sig.0.as_ptr(),"],
     ["        0 == ffi::crypto_sign_ed25519_verify_detached(sig.0.as_ptr(),"]),
])
def test_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    said = " ".join(assess(rule_lines(fc(path, added, removed)), RiskContext()).reasons)
    for quiet in ("hard-codes a secret", "compares only", "world-writable", "resets", "from a pool", "durability", "CRYPT_NOP",
                  "accepts failures as success"):
        assert quiet not in said, said


def test_the_reader_answers_the_first_slip_with_its_weight() -> None:
    high = literal_slip(["  if (XMEM_NEQ(buf, tag, 4) != 0) {"], ["  if (XMEM_NEQ(buf, tag, buflen) != 0) {"])
    assert high is not None and high[1] is True and high[0].startswith("compares only 4 bytes"), high
    worth = literal_slip(["PRAGMA synchronous = OFF;"], [])
    assert worth is not None and worth[1] is False and "synchronous = OFF" in worth[0], worth
    assert literal_slip(["x = compute(a, b)"], ["x = compute(a)"]) is None
    # The key is never quoted whole: its first characters only.
    said = literal_slip(["t = Fernet.generate('cw_0x689RpI-jtRR7oE8h_eQsKImvJapLeSbXpwF4e4=', who)"], ["t = Fernet.generate(secret, who)"])
    assert said is not None and "jtRR7oE8h" not in said[0], said


def test_a_dereference_is_code_not_a_comment() -> None:
    # A line that opens with ``*`` and a name is a pointer written to (Go, C), read by every rule; before round 87 it was
    # taken for a block comment's next line and left out of every reader (a worker could hide a line there).
    kept = rule_lines(fc("router.go", ["\tps := r.paramsPool.Get().(*Params)", "\t*ps = (*ps)[0:0]", "\treturn ps",
                                       "/*", " * the pool's values are reset", " *", " */"], [])).added_lines
    assert "\t*ps = (*ps)[0:0]" in kept and not any("reset" in line and line.startswith(" *") for line in kept), kept


@pytest.mark.parametrize(("path", "added", "credential"), [
    # go-ntlmssp (blind 77): an index into a split value is code, not a literal credential
    ("authenticate_message.go", ["\t\t\tpassword = hashParts[1]"], False),
    ("config/app.ini", ["password = Xk9pLmQ2rT7vW"], True),
    # hapi's cookie docs (blind 47): a value that describes itself is a placeholder, not a secret
    ("API.md", ["```js", "    password: 'password-should-be-32-characters',", "```"], False),
    ("API.md", ["```js", "    password: 'Xk9pLmQ2rT7vW4sN',", "```"], True),
])
def test_round_87s_false_credentials_are_gone(path: str, added: list[str], credential: bool) -> None:
    said = " ".join(assess(rule_lines(fc(path, added, [])), RiskContext()).reasons)
    assert ("hard-codes a" in said) is credential, said


@pytest.mark.parametrize(("line", "off"), [
    ("          value: --anonymous-auth=false", False),  # kube-bench (blind 113): anonymous access turned off is the safe way
    ("authentication: false", True),
])
def test_anonymous_access_turned_off_is_no_authentication_turned_off(line: str, off: bool) -> None:
    said = " ".join(assess(rule_lines(fc("cfg/cis-1.12/master.yaml", [line], [])), RiskContext()).reasons)
    assert ("turns authentication off" in said) is off, said


def test_a_classic_slip_after_another_finding_in_its_file_is_read() -> None:
    # Before round 87 the edit judge stopped at its first finding: a worth-a-look reading of the commit's own edit (an
    # error path rewritten) hid a classic slip read later in the same file (here a radix turned), which was never said.
    added = ["    if (type in ['file', 'link']) {", "    if (pax.size) header.size = parseInt(pax.size, 16)"]
    removed = ["    if (type in ['file', 'link', 'symlink']) {", "    if (pax.size) header.size = parseInt(pax.size, 10)"]
    out = assess(rule_lines(fc("extract.js", added, removed)), RiskContext())
    assert out.risk == "high" and any("parses a number in another base (10 → 16" in r for r in out.reasons), out.reasons
    assert any("drops an alternative" in r for r in out.reasons), out.reasons  # the first finding is still said


@pytest.mark.parametrize(("path", "line", "off"), [
    ("plugins/gpge", '    xargs -n1 gpg --trust-model always --encrypt --recipient "$r" "$f"', True),  # nnn (development set 55)
    ("scripts/release.sh", "gpg --batch --always-trust --encrypt -r ops@example.com secrets.tar", True),
    ("scripts/release.sh", "gpg --batch --trust-model pgp --encrypt -r ops@example.com secrets.tar", False),
])
def test_gpg_told_to_trust_every_key_is_named(path: str, line: str, off: bool) -> None:
    out = assess(rule_lines(fc(path, [line], [])), RiskContext())
    assert any("turns signature trust checking off" in r for r in out.reasons) is off and (not off or out.risk == "high"), out


@pytest.mark.parametrize(("path", "added", "removed", "shown"), [
    # bubbles (development set 91), enquirer (117), survey (119), prompts (34): the typed password shown as typed
    ("textinput/textinput.go", ["\t\treturn v"], ["\t\treturn strings.Repeat(string(m.EchoCharacter), uniseg.StringWidth(v))"], True),
    ("lib/prompts/password.js", ["    return color(input);"], ["    return color(this.symbols.asterisk.repeat(input.length));"], True),
    ("lib/util/style.js", ["  password: { scale: 1, render: input => `${input}` },"],
     ["  password: { scale: 1, render: input => '*'.repeat(input.length) },"], True),
    ("cli/prompt.py", ["    shown = pw"], ["    shown = '*' * len(pw)"], True),
    # another value in the clear, a mask redrawn with another character
    ("cli/prompt.py", ["    shown = name"], ["    shown = '*' * len(pw)"], False),
    ("lib/util/style.js", ["  password: { scale: 1, render: input => '•'.repeat(input.length) },"],
     ["  password: { scale: 1, render: input => '*'.repeat(input.length) },"], False),
])
def test_a_mask_replaced_by_what_it_masked_is_high(path: str, added: list[str], removed: list[str], shown: bool) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    assert any("shows what it masked" in r for r in out.reasons) is shown and (not shown or out.risk == "high"), out


def test_a_reset_call_removed_in_a_refactor_is_not_read() -> None:
    # commons-codec's Sha2Crypt and re2j's Pattern (ordinary history): a digest's or a matcher's .reset() removed with the
    # code around it is a refactor's; only a slice emptied for reuse is read as a reset dropped.
    out = assess(rule_lines(fc("src/Sha2Crypt.java", ["        altCtx.update(keyBytes);"], ["        altMessageDigestMd5.reset();", "        altCtx.update(keyBytes);"])),
                 RiskContext())
    assert not any("resets" in r for r in out.reasons), out.reasons


@pytest.mark.parametrize(("added", "owner_squat"), [
    # Respect/Validation (development set 62): the project's own vendor respelled on a new dependency
    (['        "respect/config": "^3.0",', '        "respekt/parameter": "^3.0",'], True),
    (['        "respect/config": "^3.0",', '        "respect/parameter": "^3.0",'], False),
    (['        "symfony/console": "^7.0",', '        "symfonx/yaml": "^7.0",'], False),  # one name each: which is whose is unknown
])
def test_a_dependency_under_a_look_alike_of_its_owner_is_named(added: list[str], owner_squat: bool) -> None:
    ctx = RiskContext(own_names=frozenset({"respect/validation"}))
    said = " ".join(assess(rule_lines(fc("composer.json", added, ['        "php-di/php-di": "^7.1",'])), ctx).reasons)
    assert ("a typo-squat of its owner" in said) is owner_squat, said


def test_a_reindented_constant_time_loop_beside_a_length_check_is_no_early_exit() -> None:
    # bcrypt.js (ordinary history): the commit re-indented safeStringCompare and wrote `if (hash.length !== 60) return
    # false;` beside it; read past the file's first finding (round 87), the pair had been taken for an early exit.
    removed = ["    var diff = known.length ^ unknown.length;", "        diff |= known.charCodeAt(i) ^ unknown.charCodeAt(i);",
               "    if (hash.length !== 60)", "        return false;"]
    added = ["  var diff = known.length ^ unknown.length;", "    diff |= known.charCodeAt(i) ^ unknown.charCodeAt(i);",
             "  if (hash.length !== 60) return false;"]
    found = pair_slip(added, removed)
    assert found is None or "exits at the first difference" not in found[0], found
    # the accumulation taken out is still read
    assert (pair_slip(["  if (a[i] !== b[i]) return false;"], ["    diff |= a.charCodeAt(i) ^ b.charCodeAt(i);"]) or ("",))[0].startswith("exits at the first")


@pytest.mark.parametrize(("added", "removed", "raised"), [
    # fast_float (development set 53): an exponent's overflow check raised 2^32-fold
    (["    if (exp_number < 0x1000000000000000) {"], ["    if (exp_number < 0x10000000) {"], True),
    (["    if (len > 1_000_000) {"], ["    if (len > 1_000) {"], True),
    (["    if (n < 1000) {"], ["    if (n < 100) {"], False),  # tenfold: a tuning
    (["    limit = 1000000"], ["    limit = 1000"], False),  # no check on the line (a defined limit is turned_lines')
    (["    if (n > 100000) {"], ["    if (n < 100) {"], False),  # the comparison turned too: another reader's
])
def test_a_checks_bound_raised_a_thousandfold_is_named(added: list[str], removed: list[str], raised: bool) -> None:
    from relay.review.bound_slips import bound_raised
    assert (bound_raised(added, removed) is not None) is raised
    if raised:
        out = assess(rule_lines(fc("include/fast_float/ascii_number.h", added, removed)), RiskContext())
        assert out.risk != "low" and any("raises a check's bound" in r for r in out.reasons), out.reasons
