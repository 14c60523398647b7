"""Issue 36, round 77 (blind 107/108's first runs): slips in what a call answers or checks, and a docs page's example key.

Whom each guards against: the worker that drops a returned call's result for a constant (libseccomp's filter load), that
completes a future with a result where it failed (aiosqlite), returns a coroutine it awaited, starts a comparison loop at
1 (reselect), roots a containment check at its parent (del), replaces a constant-time comparison by ``Choice::from(1)``
(RustCrypto's on-curve check), drops ``'*'`` from the first items of a match arm (glob's escape), sets valgrind's error
exit code to 0 (unordered_dense), prints a secret key in a README sample, or teaches deleting what the request names.
Each loud case was low, named nothing or quoted another line first on the rules before this round (7e2be82); each near
miss beside it stays quiet. And the repository's own prose: a README that shows a PEM label or a private key it marks
as its example is no longer high (seven RustCrypto READMEs had been), while an unmarked key still is.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.answer_slips import answer_slip, made_true
from relay.review.risk import RiskContext, assess, assess_all
from relay.review.value_reading import widened

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(("path", "added", "removed", "said"), [
    ("src/api.c", ["\tsys_filter_load(col, rawrc);", "\treturn _rc_filter(0);"], ["\treturn _rc_filter(sys_filter_load(col, rawrc));"],
     "drops the result it returned (the call now alone, a constant returned: its failure reads as success)"),
    ("aiosqlite/core.py", ["                future.get_loop().call_soon_threadsafe(set_result, future, None)"],
     ["                future.get_loop().call_soon_threadsafe(set_exception, future, e)"],
     "completes with a result where it failed (set_exception → set_result: the caller never sees the error)"),
    ("src/queue.js", ["      setTimeout(resolve, 0, null);"], ["      setTimeout(reject, 0, err);"], "completes with a result where it failed (reject → resolve"),
    ("aiosqlite/core.py", ["        return self._execute(self._conn.set_authorizer, cb)"], ["        await self._execute(self._conn.set_authorizer, cb)"],
     "returns a coroutine where it was awaited (the call never runs)"),
    ("src/defaultMemoize.ts", ["    for (let i = 1; i < length; i++) {"], ["    for (let i = 0; i < length; i++) {"],
     "starts a loop at 1 where it started at 0 (its first item skipped)"),
])
def test_each_answer_slip_is_named(path: str, added: list[str], removed: list[str], said: str) -> None:
    found = answer_slip(added, removed, path)
    assert found is not None and found.startswith(said), found
    out = assess(fc(path, added, removed), RiskContext())
    # (a rejection answered with a value is also the older "fails open" reader's, which then says it first)
    assert out.risk != "low" and any(said in reason or reason.startswith("fails open") for reason in out.reasons), out.reasons


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("src/api.c", ["\trc = sys_filter_load(col, rawrc);", "\treturn _rc_filter(rc);"], ["\treturn _rc_filter(sys_filter_load(col, rawrc));"]),
    ("aiosqlite/core.py", ["                future.get_loop().call_soon_threadsafe(set_exception, future, err)"],
     ["                future.get_loop().call_soon_threadsafe(set_exception, future, e)"]),
    ("src/queue.js", ["      reject(new Error(msg));"], ["      reject(err);"]),
    ("src/functions.php", ["                    $resolve($values);"], ["                    $reject"]),  # reactphp: a rewrite, no swap
    ("grant-manager.js", ["      return Promise.resolve(token);"], ["      return Promise.reject(new Error('invalid token'));"]),  # keycloak: other args
    ("src/server.rs", ["            Poll::Ready(Ok(n)) => Poll::Ready(Ok(n)),"], ["            Poll::Ready(Err(err)) if err.kind() == io::ErrorKind::WouldBlock => {"]),
    ("src/client.js", ["        return this._execute(cb)"], ["        await this._execute(cb)"]),  # JavaScript adopts a returned promise
    ("src/defaultMemoize.ts", ["    for (let i = 1; i <= length; i++) {"], ["    for (let i = 0; i < length; i++) {"]),  # the bound moved too
    ("index.js", ["\tif (!isPathInside(file, path.resolve(cwd))) {"], ["\tif (!isPathInside(file, cwd)) {"]),
])
def test_the_near_misses_of_an_answer_slip_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    assert answer_slip(added, removed, path) is None


def test_a_constant_time_comparison_made_a_constant_truth_says_the_check_always_passes() -> None:
    removed = ["                CtOption::new(Self { x, y, infinity: 0 }, lhs.ct_eq(&rhs))"]
    added = ["                CtOption::new(Self { x, y, infinity: 0 }, Choice::from(1))"]
    out = assess(fc("primeorder/src/affine.rs", added, removed), RiskContext())
    assert out.risk == "high" and out.reasons[0].startswith("makes a check always pass (its constant-time comparison now Choice::from(1))"), out.reasons
    assert made_true(removed[0].strip(), ["                CtOption::new(Self { x, y, infinity: 0 }, lhs.ct_eq(&other))"]) is None


def test_an_item_dropped_from_the_first_characters_of_a_match_arm_is_named() -> None:
    out = assess(fc("src/lib.rs", ["                '?' | '[' | ']' => {"], ["                '?' | '*' | '[' | ']' => {"]), RiskContext())
    assert "drops an alternative from a check or case ('*' no longer matches)" in out.reasons[0], out.reasons


def test_a_memory_checkers_error_exit_code_written_as_zero_fails_nothing() -> None:
    added = ["            test_args: >-", "              --wrap='valgrind --error-exitcode=0 --leak-check=full"]
    out = assess(fc(".github/workflows/main.yml", added, []), RiskContext())
    assert out.reasons[0] == "ignores a CI check step's result: what it finds never fails the job (--error-exitcode=0)", out.reasons
    kept = assess(fc(".github/workflows/main.yml", [added[0], added[1].replace("=0", "=1")], []), RiskContext())
    assert not any("ignores a CI" in reason for reason in kept.reasons), kept.reasons


_MARKED = ["```rust", "// WARNING: Do not hardcode private keys in your source code. This is for demonstration purposes only.",
           'let pem = r#"-----BEGIN PRIVATE KEY-----', "MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQg5gaqCR3sHPJeQHw2qXBM",
           '-----END PRIVATE KEY-----"#;', "let secret_key = SecretKey::from_pem(pem)?;", "```"]


def test_a_readme_key_marked_as_its_example_is_worth_a_look_and_an_unmarked_one_stays_high() -> None:
    label = ["You can recognize PKCS#8 keys by their label:", "```text", "-----BEGIN PRIVATE KEY-----", "```"]
    marked = assess(fc("k256/README.md", [*label, *_MARKED], []), RiskContext())
    assert marked.risk == "medium" and marked.reasons[0].startswith("a docs sample that carries a private key it marks as an example"), marked.reasons
    assert assess(fc("p192/README.md", label, []), RiskContext()).risk == "low"
    unmarked = assess(fc("k256/README.md", [line for line in _MARKED if "WARNING" not in line], []), RiskContext())
    assert unmarked.risk == "high" and unmarked.reasons[0].startswith("hard-codes a secret"), unmarked.reasons


def test_a_sample_that_prints_a_secret_key_or_deletes_what_the_request_names_is_named() -> None:
    printed = assess(fc("p256/README.md", [*_MARKED[:-2], 'println!("loaded key: {}", hex::encode(secret_key.to_bytes()));', "```"], []), RiskContext())
    assert any(reason.startswith("writes a credential (secret_key) to a log") for reason in printed.reasons), printed.reasons
    deleted = assess(fc("readme.md", ["```js", "deleteSync(req.query.pattern, {dot: true, force: true});"], ["```js", "deleteSync('*', {dot: true});"]),
                     RiskContext())
    assert deleted.risk == "high" and deleted.reasons[0].startswith("builds a file path from the request (path traversal?)"), deleted.reasons
    kept = assess(fc("readme.md", ["```js", "deleteSync('temp/*', {dot: true});"], ["```js", "deleteSync('*', {dot: true});"]), RiskContext())
    assert not any("path traversal" in reason for reason in kept.reasons), kept.reasons


@pytest.mark.parametrize(("path", "added", "removed", "risk", "said"), [
    # doorkeeper-openid_connect (blind 103): the id token's signing algorithm made "none", a formatter's indent moved with it
    ("lib/doorkeeper/openid_connect/id_token.rb", ["                     key.keypair,", '                     "none",'],
     ["          key.keypair,", "          Doorkeeper::OpenidConnect.signing_algorithm.to_s,"], "high",
     'signs or checks a token with the algorithm "none" (unsigned: anyone can forge it)'),
    # jose2go (blind 133, in the commit's own new code): a check of the expected algorithm that also passes "none"
    ("jose.go", ["\tif expected == alg || alg == \"none\" {", "\t\treturn key, nil", "\t}"], [], "high",
     'accepts a token whose algorithm is "none" (unsigned: anyone can forge it)'),
    ("src/verify.ts", ["  if (header.alg === 'none' || verifySignature(token, key)) {"], [], "high",
     'accepts a token whose algorithm is "none"'),
    # console (blind 103): a secure read that turned the terminal's echo off now clears another flag
    ("src/unix_term.rs", ["    termios.c_lflag &= !libc::ICANON;"], ["    termios.c_lflag &= !libc::ECHO;"], "medium",
     "leaves the terminal's echo on where it turned it off (a secret typed shows on screen)"),
    # keyfunc (blind 103): an allow-list consulted only when it holds two entries
    ("keyfunc.go", ["\tif len(k.useWhitelist) > 1 {", "\t\tif !slices.Contains(k.useWhitelist, use) {"], [], "medium",
     "consults a list (k.useWhitelist) only when it holds two entries or more"),
])
def test_an_unsigned_algorithm_an_echo_left_on_and_a_list_read_from_two_are_named(path: str, added: list[str], removed: list[str], risk: str,
                                                                                  said: str) -> None:
    out = assess(fc(path, added, removed), RiskContext())
    assert out.risk == risk and out.reasons[0].startswith(said), out.reasons


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("lib/claims_builder.rb", ['          "RS256",'], ["          Doorkeeper::OpenidConnect.signing_algorithm.to_s,"]),
    ("lib/claims_builder.rb", ['          "none",'], ["          Doorkeeper::OpenidConnect.signing_key.kid,"]),  # no algorithm stood there
    ("src/unix_term.rs", ["    termios.c_lflag &= !(libc::ECHO | libc::ICANON);"], ["    termios.c_lflag &= !libc::ECHO;"]),
    ("jose.go", ["\tif alg == \"none\" {", "\t\treturn nil, ErrUnsigned", "\t}"], []),  # "none" refused
    ("jose.go", ["\tif alg == \"none\" || alg == \"\" {", "\t\treturn nil, errors.New(\"unsigned\")", "\t}"], []),  # refused with the empty one
    ("src/verify.py", ["    if alg == 'none' and not settings.ALLOW_UNSIGNED:"], []),
    ("keyfunc.go", ["\tif len(k.useWhitelist) > 0 {"], []),
    ("keyfunc.go", ["\tif len(k.keys) > 1 {"], []),  # not a list that admits or refuses
    ("src/hkdf.ts", ["  if (blocks > 1) iHash.update(T);"], []),  # noble-hashes: a count of blocks, no block-list
    # a JSP comment is no unescaped EJS output (owasp-java-encoder's site page had been high)
    ("jakarta/src/site/markdown/index.md", ["```jsp", "<%-- ... --%>", "```"], []),
])
def test_their_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(fc(path, added, removed), RiskContext())
    assert out.risk != "high" and not any(w in reason for reason in out.reasons for w in ('"none"', "echo on", "two entries", "autoescaping")), out.reasons


# Round 79 (blind 109/110's first runs): each loud case was low or named nothing on round 78's rules (c1e68f6).
@pytest.mark.parametrize(("path", "added", "removed", "risk", "said"), [
    # cattrs: yaml's unsafe loader imported under the safe one's name
    ("src/cattrs/preconf/pyyaml.py", ["from yaml import safe_dump, unsafe_load as safe_load"], ["from yaml import safe_dump, safe_load"], "high",
     "imports a name under a safer-sounding alias (unsafe_load as safe_load)"),
    # RustCrypto's hkdf: a new derive that blanks expand()'s error, and an AEAD's decrypt blanked
    ("hkdf/src/lib.rs", ["    fn derive(&self, out: &mut [u8]) -> Result<(), kdf::Error> {", "        let _ = hkdf.expand(info, out);", "        Ok(())"], [],
     "medium", "discards a check's result (whatever it finds, the code goes on): let _ = hkdf.expand(info, out);"),
    ("src/open.rs", ["        let _ = cipher.decrypt_in_place_detached(nonce, aad, buf, tag);"], [], "high", "discards a check's result"),
    # starlette's docs: the static route's folder made the working folder
    ("docs/staticfiles.md", ["```python", "    Mount('/static', app=StaticFiles(directory='.'), name=\"static\"),"],
     ["```python", "    Mount('/static', app=StaticFiles(directory='static'), name=\"static\"),"], "medium",
     "serves the working folder as static files ('static' → '.'"),
    ("server.js", ["app.use(express.static('.'))"], ["app.use(express.static('public'))"], "medium", "serves the working folder as static files ('public' → '.'"),
    # tsdoc: a validator's verdict read as its presence
    ("src/TSDocConfigFile.ts", ["    const success: boolean = tsdocSchemaValidator(configJson) !== undefined;"],
     ["    const success: boolean = tsdocSchemaValidator(configJson) as boolean;"], "medium",
     "reads a check's verdict as its presence (tsdocSchemaValidator(…) !== undefined"),
    # tar-stream: a pax size parsed in base 16 (high since round 87, with the classic slips)
    ("extract.js", ["      if (this._pax.size) this._header.size = parseInt(this._pax.size, 16)"],
     ["      if (this._pax.size) this._header.size = parseInt(this._pax.size, 10)"], "high", "parses a number in another base (10 → 16"),
])
def test_round_79s_slips_are_named(path: str, added: list[str], removed: list[str], risk: str, said: str) -> None:
    out = assess(fc(path, added, removed), RiskContext())
    assert out.risk == risk and out.reasons[0].startswith(said), out.reasons


@pytest.mark.parametrize(("path", "added", "removed", "not_said"), [
    ("src/cattrs/preconf/pyyaml.py", ["from yaml import safe_dump, safe_load as load"], ["from yaml import safe_dump, safe_load"], "alias"),
    ("hkdf/src/lib.rs", ["        hkdf.expand(info, out).map_err(|_| kdf::Error)?;"], [], "discards"),
    ("docs/staticfiles.md", ["```python", "    Mount('/static', app=StaticFiles(directory='assets'), name=\"static\"),"],
     ["```python", "    Mount('/static', app=StaticFiles(directory='static'), name=\"static\"),"], "working folder"),
    ("src/TSDocConfigFile.ts", ["    const result = loadConfig(configJson) !== undefined;"], ["    const result = loadConfig(configJson);"], "verdict"),
    ("extract.js", ["      if (this._pax.size) this._header.size = parseInt(this._pax.size)"],
     ["      if (this._pax.size) this._header.size = parseInt(this._pax.size, 10)"], "another base"),
])
def test_round_79s_near_misses_stay_quiet(path: str, added: list[str], removed: list[str], not_said: str) -> None:
    out = assess(fc(path, added, removed), RiskContext())
    assert not any(not_said in reason for reason in out.reasons), out.reasons


def test_a_readme_install_one_letter_off_a_dependency_the_change_adds_is_a_look_alike() -> None:
    # vite-plugin-react (blind 110): the README written with the new dependency installs a respelling of it
    readme = fc("packages/plugin-react/README.md", ["```sh", "npm install -D oxc-transfrom-react", "```"], [])
    manifest = fc("packages/plugin-react/package.json", ['    "oxc-transform-react": "^0.1.0",'], [])
    out = {c.path: c for c in assess_all([readme, manifest], RiskContext())}
    assert out[readme.path].reasons[0] == "installs a look-alike of oxc-transform-react (a typo-squat?): npm install -D oxc-transfrom-react"
    same = fc("packages/plugin-react/README.md", ["```sh", "npm install -D oxc-transform-react", "```"], [])
    assert not any("look-alike" in reason for reason in {c.path: c for c in assess_all([same, manifest], RiskContext())}[same.path].reasons)


# Round 80 (blind 111/112's first runs): a README's verify call given jwt.NONE where it named an algorithm; and the
# repository's own prose: a restrictive umask and a setting's name in a sentence are no open mode and no trusted proxy.
def test_a_samples_algorithm_made_none_is_named_and_another_algorithm_is_not() -> None:
    none = assess(fc("README.md", ["```go", "verifiedToken, err := jwt.Verify(jwt.NONE, nil, token)"],
                     ["```go", "verifiedToken, err := jwt.Verify(jwt.HS256, sharedKey, token)"]), RiskContext())
    assert none.risk == "medium" and none.reasons[0].startswith('signs or checks a token with the algorithm "none"'), none.reasons
    other = assess(fc("README.md", ["```go", "verifiedToken, err := jwt.Verify(jwt.HS512, key, token)"],
                      ["```go", "verifiedToken, err := jwt.Verify(jwt.HS256, sharedKey, token)"]), RiskContext())
    assert other.risk == "low", other.reasons


@pytest.mark.parametrize(("path", "added"), [
    ("tests/app/README.md", ["```python", "os.umask(0o077)"]),  # django-oauth-toolkit: files made private, not open
    ("setup.py", ["    os.umask(0o022)"]),
    ("docs/rfc7523.rst", ["slashes are ignored). The request-derived URL is built from the ``Host`` header, so behind a",
                          "reverse proxy make sure Django sees the external host (``USE_X_FORWARDED_HOST``,",
                          "``SECURE_PROXY_SSL_HEADER``)."]),  # django-oauth-toolkit's page naming the settings
])
def test_a_restrictive_umask_and_a_settings_name_in_a_sentence_are_not_high(path: str, added: list[str]) -> None:
    out = assess(fc(path, added, []), RiskContext())
    assert out.risk != "high", out.reasons


def test_an_open_umask_and_the_proxy_header_set_stay_high() -> None:
    assert assess(fc("setup.py", ["    os.umask(0)"], []), RiskContext()).risk == "high"
    assert assess(fc("settings.py", ["SECURE_PROXY_SSL_HEADER = ('HTTP_X_FORWARDED_PROTO', 'https')"], []), RiskContext()).risk == "high"


@pytest.mark.parametrize(("path", "added", "removed", "risk", "said"), [
    # ply's Makefile (blind 111): pip run from a venv's path installs a respelled twine
    ("Makefile", ["\t./$(VENV)/bin/python -m pip install twiine"], ["\t./$(VENV)/bin/python -m pip install twine"], "high",
     "installs a look-alike of twine (a typo-squat?)"),
    # AccessControl (blind 112): restricted code given eval
    ("src/AccessControl/ZopeGuards.py", ["safe_builtins['eval'] = eval"], [], "high", "gives sandboxed code a way out"),
    # noble-post-quantum (blind 112): a private key imported exportable
    ("src/webcrypto.ts", ["      return await subtle.importKey('raw-seed', secret, algorithm, true, PRIVATE_USAGES);"],
     ["      return await subtle.importKey('raw-seed', secret, algorithm, false, PRIVATE_USAGES);"], "high", "makes a private key exportable"),
    # django-oauth-toolkit's tutorial (blind 111): the admin's permission check overridden in a sample
    ("docs/tutorial/tutorial_admin.rst", [".. code-block:: python", "", "    admin.site.has_permission = lambda request: True"], [], "high",
     "overrides a permission check to always allow"),
    # datasette (blind 112): the static root's containment check rooted at the filesystem's anchor
    # (high since round 87, read with the classic slips: globby's home folder made its parent)
    ("datasette/utils/asgi.py", ["            full_path.relative_to(root_path.resolve().anchor)"],
     ["            full_path.relative_to(root_path.resolve())"], "high", "widens a containment check to the parent folder (root_path.resolve() →"),
    ("index.js", ["\tif (!isPathInside(file, path.dirname(cwd))) {"], ["\tif (!isPathInside(file, cwd)) {"], "high",
     "widens a containment check to the parent folder (cwd → path.dirname(cwd)"),
    ("app/files.py", ["    if not target.is_relative_to(root.parent):"], ["    if not target.is_relative_to(root):"], "high",
     "widens a containment check to the parent folder (root → root.parent"),
])
def test_round_80s_classic_lines_are_named(path: str, added: list[str], removed: list[str], risk: str, said: str) -> None:
    out = assess(fc(path, added, removed), RiskContext())
    assert out.risk == risk and any(reason.startswith(said) for reason in out.reasons), out.reasons


@pytest.mark.parametrize(("path", "added"), [
    ("src/AccessControl/ZopeGuards.py", ["safe_builtins['eval'] = None"]),  # taken away
    ("src/AccessControl/ZopeGuards.py", ["safe_builtins['len'] = len"]),
    ("src/webcrypto.ts", ["      return await subtle.importKey('spki', pub, algorithm, true, ['verify']);"]),  # a public key
    ("docs/tutorial/tutorial_admin.rst", ["    admin.site.has_permission = lambda request: request.user.is_active and request.user.is_staff"]),
    ("Makefile", ["\t./$(VENV)/bin/python -m pip install twine"]),
])
def test_round_80s_near_misses_stay_quiet(path: str, added: list[str]) -> None:
    out = assess(fc(path, added, []), RiskContext())
    assert not any(w in reason for reason in out.reasons for w in ("way out", "exportable", "always allow", "look-alike")), out.reasons


def test_a_boolean_argument_of_the_call_a_line_returns_is_no_failure_made_success_but_a_callbacks_answer_is() -> None:
    # noble-post-quantum (blind 112): `return await subtle.importKey(…, false, …)` → `true` had also read as "returns
    # success where it failed" (the argument taken for what the line hands back), said before the exportable key
    imported = assess(fc("src/webcrypto.ts", ["      return await subtle.importKey('raw-seed', secret, algorithm, true, PRIVATE_USAGES);"],
                         ["      return await subtle.importKey('raw-seed', secret, algorithm, false, PRIVATE_USAGES);"]), RiskContext())
    assert imported.reasons[0].startswith("makes a private key exportable"), imported.reasons
    old, new = ("      return await subtle.importKey('raw-seed', secret, algorithm, false, PRIVATE_USAGES);",
                "      return await subtle.importKey('raw-seed', secret, algorithm, true, PRIVATE_USAGES);")
    assert widened(old, new) is None or widened(old, new)[0] != "returns success where it failed"
    assert widened("    return done(null, false);", "    return done(null, true);") == ("returns success where it failed", True)
    # oauth2orize (set 77): a callback's answer is what the line hands back
    answered = assess(fc("lib/middleware/authorization.js", ["    immediate = immediate || function (client, user, done) { return done(null, true); };"],
                         ["    immediate = immediate || function (client, user, done) { return done(null, false); };"]), RiskContext())
    assert answered.reasons[0].startswith("returns success where it failed"), answered.reasons
