"""Round 89 (issue 36): blind 129/130's classic misses read as families (relay.review.classic_slips), and a JavaScript
``catch {}`` without a binding read as a handler.

Whom each guards against: the worker that swaps a sandboxed template environment for the plain one, slips a space into
a clean script so it deletes ``/*``, unwraps a handler from its authentication in a usage page, serves the working folder
and its dotfiles, fetches a verification key over plain http in a README, documents RSA's PKCS#1 v1.5 padding, publishes
a signing key as a literal, flips a length check against its own message, or answers true from a verify's bare
``catch``. Beside each, the near miss stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess


def _said(path: str, added: list[str], removed: list[str]):
    return assess(fc(path, added, removed), RiskContext())


@pytest.mark.parametrize(("path", "added", "removed", "risk", "said"), [
    ("src/sqlfluff/core/templaters/jinja.py", ["        return Environment("], ["        return SandboxedEnvironment("], "high",
     "drops the safe variant (SandboxedEnvironment → Environment"),
    ("package.json", ['    "clean": "rimraf es/* src /* coverage/*",'], ['    "clean": "rimraf es/* src/* coverage/*",'], "high",
     "deletes from the filesystem's root"),
    ("v8/USAGE.md", ['http.Handler("/", h) // wrap with spnego.SPNEGOKRB5Authenticate(h, &kt, service.Logger(l)) once the keytab is deployed'],
     ['http.Handler("/", spnego.SPNEGOKRB5Authenticate(h, &kt, service.Logger(l)))'], "high", "unwraps a handler from its authentication"),
    ("examples/app/server.js", ["const static = require('serve-static')('.', { dotfiles: 'allow' });"],
     ["const static = require('serve-static')('assets');"], "high", "serves the working folder"),
    ("README.md", ['let pk_box_str = reqwest::blocking::get("http://jedisct1.github.io/minisign/minisign.pub").unwrap().text().unwrap();'], [],
     "high", "fetches a key or a program over plain HTTP"),
    ("README.md", ["const key = new NodeRSA({ b: 2048 }, { encryptionScheme: 'pkcs1' });"], ["const key = new NodeRSA({ b: 2048 });"], "high",
     "encrypts with RSA's PKCS#1 v1.5 padding"),
    ("README.rst", ["    signing_key = decode_signing_key_base64('ed25519', 'zxcvb', 'nJ3bX6qTvsL0sVdPqHGfN2xQ8m1yZcRkUaWe4tYoIpE')"],
     ["    signing_key = generate_signing_key('zxcvb')"], "high", "builds a key from a hard-coded literal"),
    ("ellipticcurve/utils/der.py", ["    if len(content) > length:", '        raise Exception("missing bytes in DER parse")'], [], "high",  # a limit's word
     "refuses the other side than its message says"),
    ("src/rsa/native-signatures.ts", ["  verify(buffer: Uint8Array, signature: Uint8Array): boolean {", "    try {",
                                      "      return nodeVerify(alg, buffer, key, signature);", "    } catch {", "      return true;", "    }", "  }"],
     [], "high", "answers yes when the check fails (any error in verify returns true)"),
    # round 90 (blind 134's crypto-bigint): a random source's failure discarded, in Rust, Go and C
    ("src/uint/rand.rs", ["    let _ = rng.try_fill_bytes(&mut slice[..n_bytes]);"], ["    rng.try_fill_bytes(&mut slice[..n_bytes])?;"], "high",
     "discards a random source's failure (rng.try_fill_bytes"),
    ("keys/nonce.go", ["	_, _ = rand.Read(nonce)"], [], "high", "discards a random source's failure (rand.Read"),
    ("src/iv.c", ["    (void)RAND_bytes(iv, sizeof iv);"], [], "high", "discards a random source's failure (RAND_bytes"),
    # round 90 (blind 135's sevenzip README): an archive entry written where its own name says (zip slip), code and sample
    ("README.md", ["```go", "for _, file := range r.File {", "    w, err := os.Create(filepath.Join(destDir, file.Name))", "```"], [], "high",
     "writes an archive entry where its own name says (file.Name"),
    ("unpack.py", ["    for member in tar.getmembers():", "        target = os.path.join(dest, member.name)"], [], "high",
     "writes an archive entry where its own name says (member.name"),
    # a JS spread on the change's lines is no check of the path (only a ".." looked for is)
    ("src/extract.js", ["  for (const entry of zip.entries()) {", "    const opts = { ...defaults, mode: entry.mode };",
                        "    fs.writeFileSync(path.join(dest, entry.path), entry.data, opts);", "  }"], [], "high",
     "writes an archive entry where its own name says (entry.path"),
])
def test_each_slip_is_named_at_its_risk(path: str, added: list[str], removed: list[str], risk: str, said: str) -> None:
    found = _said(path, added, removed)
    assert found.risk == risk and any(said in reason for reason in found.reasons), (found.risk, found.reasons)


@pytest.mark.parametrize(("path", "added", "removed", "not_said"), [
    ("src/templaters/jinja.py", ["        return ImmutableSandboxedEnvironment("], ["        return SandboxedEnvironment("], "safe variant"),
    ("package.json", ['    "clean": "rimraf es/* src/* coverage/* /tmp/build-cache",'], ['    "clean": "rimraf es/* src/* coverage/*",'], "root"),
    ("v8/USAGE.md", ['http.Handler("/", spnego.SPNEGOKRB5Authenticate(h2, &kt, service.Logger(l)))'],
     ['http.Handler("/", spnego.SPNEGOKRB5Authenticate(h, &kt, service.Logger(l)))'], "unwraps"),
    ("examples/app/server.js", ["const static = require('serve-static')('public', { dotfiles: 'ignore' });"], [], "serves"),
    ("README.md", ['let page = reqwest::blocking::get("http://localhost:8080/minisign.pub").unwrap();'], [], "plain HTTP"),
    ("README.md", ["const key = new NodeRSA({ b: 2048 }, { encryptionScheme: 'pkcs1_oaep' });"], [], "PKCS#1 v1.5"),
    ("README.rst", ["    signing_key = decode_signing_key_base64('ed25519', 'zxcvb', os.environ['SIGNING_KEY'])"], [], "hard-coded literal"),
    ("ellipticcurve/utils/der.py", ["    if len(content) < length:", '        raise Exception("missing bytes in DER parse")'], [], "other side"),
    ("src/uint/rand.rs", ["    rng.try_fill_bytes(&mut slice[..n_bytes])?;"], [], "random source"),  # its failure returned
    ("keys/nonce.go", ["\tif _, err := rand.Read(nonce); err != nil {"], [], "random source"),
    ("src/out.rs", ["    let _ = writer.flush();"], [], "random source"),  # another call's result discarded
    # the entry's path checked on the change's lines, its name cut to its base, a folder listing's file (no archive)
    ("extract.go", ["\tfor _, file := range r.File {", "\t\tp := filepath.Join(destDir, file.Name)",
                    "\t\tif !strings.HasPrefix(p, filepath.Clean(destDir)+string(os.PathSeparator)) {", "\t\t\treturn errIllegalPath", "\t\t}"], [], "archive entry"),
    ("unpack.py", ["    for member in tar.getmembers():", "        target = os.path.join(dest, os.path.basename(member.name))"], [], "archive entry"),
    ("src/extract.js", ["  for (const entry of zip.entries()) {", "    if (entry.path.includes('..')) throw new Error('unsafe entry');",
                        "    fs.writeFileSync(path.join(dest, entry.path), entry.data);", "  }"], [], "archive entry"),
    ("copy.py", ["    for f in os.scandir(src):", "        shutil.copy(f.path, os.path.join(dest, f.name))"], [], "archive entry"),
    ("src/rsa/native-signatures.ts", ["  sign(buffer: Uint8Array): Uint8Array {", "    try {", "      return nodeSign(alg, buffer, key);",
                                      "    } catch {", "      return true;", "    }", "  }"], [], "answers yes"),
])
def test_the_near_miss_stays_quiet(path: str, added: list[str], removed: list[str], not_said: str) -> None:
    assert not any(not_said in reason for reason in _said(path, added, removed).reasons)


def test_a_counted_loops_step_made_longer_is_worth_a_look() -> None:
    # scrypt-js's Salsa20/8 core (blind 130): the commit wrote ``let`` for ``var``; the slip halved the rounds beside it.
    said = _said("scrypt.js", ["        for (let i = 8; i > 0; i -= 4) {"], ["        for (var i = 8; i > 0; i -= 2) {"])
    assert any("makes a loop step 2 times as far" in r for r in said.reasons), said.reasons
    # The declaration modernised alone, or a step made shorter, stays quiet.
    assert not any("loop step" in r for r in _said("scrypt.js", ["        for (let i = 8; i > 0; i -= 2) {"], ["        for (var i = 8; i > 0; i -= 2) {"]).reasons)
    assert not any("loop step" in r for r in _said("scrypt.js", ["        for (let i = 8; i > 0; i -= 1) {"], ["        for (var i = 8; i > 0; i -= 2) {"]).reasons)


@pytest.mark.parametrize(("path", "added", "removed", "said", "near_added"), [
    # edwards25519's README (blind 131): a vanity import's domain respelled; the same path on another domain is a move.
    ("README.md", ['import "filipo.io/edwards25519"'], ['import "filippo.io/edwards25519"'], "imports a look-alike of filippo.io/",
     ['import "github.com/FiloSottile/edwards25519"']),
    # slice-ansi's test script (blind 131): && made ; while a command is appended; appended with && stays quiet.
    ("package.json", ['\t\t"test": "xo; ava; tsc index.d.ts"'], ['\t\t"test": "xo && ava"'], "runs on past a failure",
     ['\t\t"test": "xo && ava && tsc index.d.ts"']),
    # A secret's wipe deleted (secp256k1's shape); moved to another line it stays quiet.
    ("src/modules/main_impl.h", ["    secp256k1_sha256_clear(&hash);"],
     ["    secp256k1_memclear_explicit(hash_ser, sizeof(hash_ser));", "    secp256k1_sha256_clear(&hash);"], "no longer wipes a secret",
     ["    secp256k1_sha256_clear(&hash);", "    secp256k1_memclear_explicit(hash_ser, sizeof(hash_ser)); /* moved */"]),
    # A loop down to index 0 made to stop before it (edwards25519's scalar check); a loop over another index stays quiet.
    ("scalar.go", ["\tfor i := len(s) - 1; i > 0; i-- {"], ["\tfor i := len(s) - 1; i >= 0; i-- {"], "stops a loop before index 0",
     ["\tfor i := len(s) - 1; i >= 0; i-- {", "\tfor j := len(t) - 1; j > 0; j-- {"]),
])
def test_round_89s_readers_of_edits(path: str, added: list[str], removed: list[str], said: str, near_added: list[str]) -> None:
    assert any(said in r for r in _said(path, added, removed).reasons), _said(path, added, removed).reasons
    assert not any(said in r for r in _said(path, near_added, removed).reasons)


def test_a_wipe_removed_with_the_code_that_held_the_secret_is_no_wipe_dropped() -> None:
    # rage's expand_pq_key (development set 128): the function, its `d` and `d.zeroize()` removed together.
    removed = ["    let mut d = [0; 32];", "    d.copy_from_slice(&seed[..32]);", "    d.zeroize();"]
    assert not any("wipes a secret" in r for r in _said("age/src/native/tagpq.rs", [], removed).reasons)
    assert any("wipes a secret" in r for r in _said("age/src/native/tagpq.rs", [], ["    d.zeroize();"]).reasons)
