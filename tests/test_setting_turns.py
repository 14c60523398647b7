"""Round 16 (issue 36): a security setting or a check's shape turned the unsafe way, in several ecosystems' spelling,
and the ordinary look-alikes that stay quiet (relay.review.setting_turns, read through edit_direction.judged)."""

from __future__ import annotations

import pytest

from relay.review.edit_direction import judged
from relay.review.risky_lines import dangerous_call


def _said(path: str, added: list[str], removed: list[str], *, sample: bool = False) -> tuple[str, bool] | None:
    return judged(path, added, removed, sample=sample)


@pytest.mark.parametrize("path, added, removed", [
    ("config.go", ["\t\tMinVersion:     tls.VersionTLS10,"], ["\t\tNextProtos: []string{\"h2\"},"]),
    ("server.go", ["\tcfg := &tls.Config{MinVersion: tls.VersionSSL30}"], ["\tcfg := &tls.Config{MinVersion: tls.VersionTLS12}"]),
    ("net/client.py", ["    ctx.minimum_version = ssl.TLSVersion.TLSv1"], ["    ctx.minimum_version = ssl.TLSVersion.TLSv1_2"]),
    ("lib/agent.js", ["  minVersion: 'TLSv1',"], ["  minVersion: 'TLSv1.2',"]),
    ("src/Http.java", ["    SSLContext ctx = SSLContext.getInstance(\"TLSv1\");"], ["    SSLContext ctx = SSLContext.getInstance(\"TLSv1.2\");"]),
    ("Client.cs", ["    handler.SslProtocols = SslProtocols.Tls;"], ["    handler.SslProtocols = SslProtocols.Tls12;"]),
    ("main.tf", ["  min_tls_version = \"1.0\""], ["  min_tls_version = \"1.2\""]),
])
def test_a_tls_floor_lowered_is_high(path, added, removed):
    found = _said(path, added, removed)
    assert found is not None and found[1] and found[0].startswith("lowers the TLS floor")


@pytest.mark.parametrize("path, added, removed", [
    ("Xml/XmlHelpers.cs", ["            DtdProcessing = DtdProcessing.Parse"], ["            DtdProcessing = DtdProcessing.Prohibit"]),
    ("Xml/Reader.cs", ["    settings.XmlResolver = new XmlUrlResolver();"], ["    settings.XmlResolver = null;"]),
    ("src/Parse.java", ["        dbf.setExpandEntityReferences(true);"], ["        dbf.setExpandEntityReferences(false);"]),
    ("src/Parse.java", ["  f.setFeature(\"http://apache.org/xml/features/disallow-doctype-decl\", false);"],
     ["  f.setFeature(\"http://apache.org/xml/features/disallow-doctype-decl\", true);"]),
    ("app/xml.py", ["parser = etree.XMLParser(resolve_entities=True)"], ["parser = etree.XMLParser(resolve_entities=False)"]),
    ("src/Feed.php", ["$doc->loadXML($xml, LIBXML_NOENT);"], ["$doc->loadXML($xml);"]),
    ("lib/feed.rb", ["doc = Nokogiri::XML(xml) { |c| c.noent }"], ["doc = Nokogiri::XML(xml) { |c| c.nonet }"]),
])
def test_xml_made_to_resolve_entities_is_high(path, added, removed):
    found = _said(path, added, removed)
    assert found is not None and found[1] and "external entities" in found[0]


@pytest.mark.parametrize("path, added, removed", [
    ("README.md", ["                     .WithVerifySignature(false)"], ["                     .MustVerifySignature()"]),
    ("docs/usage.md", ["jwt.decode(token, key, options={'verify_signature': False})"], ["jwt.decode(token, key)"]),
    ("config/auth.rb", ["  validate_issuer: false,"], ["  validate_issuer: true,"]),
])
def test_a_verification_turned_off_is_high_in_code_and_in_a_sample(path, added, removed):
    found = _said(path, added, removed, sample=path.endswith(".md"))
    assert found is not None and found[1] and found[0].startswith("turns verification off")


def test_a_sample_new_in_a_page_or_a_form_switch_stays_quiet():
    assert _said("README.md", ["    .WithVerifySignature(false)"], [], sample=True) is None
    assert _said("src/form.js", ["  validateOnBlur: false,"], ["  validateOnBlur: true,"]) is None


@pytest.mark.parametrize("path, line", [
    (".coveralls.yml", "repo_token: 7Qe2Lr9WvX4mTz8KpB1cN6hYs3JdGfA0u"),
    (".travis.yml", "  api_key: a8F3kd92LmQp0ZxV7rT1yB4nW6cE5hJs"),
    ("codecov.yml", "  token: 3f9c2b7e-41d0-4a8e-9b6f-2c5d8e1a7f40"),
    ("setup.cfg", "secret = Zk4Lm9Qp2Wx7Rt5Yv8Bn3Cd6Fg1Hj0Ks"),
])
def test_a_credential_literal_in_a_setting_is_high(path, line):
    found = _said(path, [line], [])
    assert found is not None and found[1] and found[0].startswith("hard-codes a credential")


@pytest.mark.parametrize("path, line", [
    (".travis.yml", "  api_key: $PYPI_TOKEN"),
    ("codecov.yml", "  token: ${{ secrets.CODECOV_TOKEN }}"),
    (".coveralls.yml", "service_name: travis-ci"),
    ("config.yml", "  token_endpoint: https://example.org/oauth/token"),
    (".travis.yml", "  api_key: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ("src/app.py", "api_key = os.environ['API_KEY']"),
])
def test_a_setting_without_a_literal_credential_stays_quiet(path, line):
    assert _said(path, [line], []) is None


@pytest.mark.parametrize("path, added, removed", [
    ("core/pkce/PKCEService.java", ["        this(4);"], ["        this(32);"]),
    ("app/tokens.py", ["    return secrets.token_bytes(4)"], ["    return secrets.token_bytes(32)"]),
    ("lib/nonce.rb", ["  SecureRandom.hex(8)"], ["  SecureRandom.hex(32)"]),
    ("src/salt.go", ["\tsalt := make([]byte, 4)"], ["\tsalt := make([]byte, 16)"]),
    ("totp/totp.go", ["\t\topts.SecretSize = 4"], ["\t\topts.SecretSize = 20"]),
])
def test_a_secret_shortened_is_high(path, added, removed):
    found = _said(path, added, removed)
    assert found is not None and found[1] and found[0].startswith("shortens a secret-bearing value")


def test_a_number_lowered_in_an_ordinary_line_stays_quiet():
    assert _said("src/layout.js", ["  const columns = grid(4);"], ["  const columns = grid(32);"]) is None
    assert _said("app/tokens.py", ["    return secrets.token_bytes(64)"], ["    return secrets.token_bytes(32)"]) is None


@pytest.mark.parametrize("path, added, removed", [
    ("tenacity/retry.py", ["                return bool(prog.search(str(exception)))"], ["                return bool(prog.match(str(exception)))"]),
    ("app/check.py", ["    if re.match(PATTERN, name):"], ["    if re.fullmatch(PATTERN, name):"]),
    ("lib/check.rb", ["  return false unless value =~ /^[a-z0-9]+$/"], ["  return false unless value =~ /\\A[a-z0-9]+\\z/"[:-3] + "$/"]),
    ("src/host.js", ["  if (!/example\\.com$/.test(host)) return deny();"], ["  if (!/^example\\.com$/.test(host)) return deny();"]),
])
def test_an_anchored_match_loosened_is_worth_a_look(path, added, removed):
    found = _said(path, added, removed)
    assert found is not None and not found[1] and found[0].startswith("loosens an anchored match")


def test_a_match_turned_the_strict_way_or_a_word_match_stays_quiet():
    assert _said("app/check.py", ["    if re.fullmatch(PATTERN, name):"], ["    if re.match(PATTERN, name):"]) is None
    assert _said("app/find.py", ["    best = search(items)"], ["    best = match(items)"]) is None


@pytest.mark.parametrize("path, added, removed", [
    ("http.go", ["\t\t\th.ServeHTTP(w, r)"], ["\t\t\tt.error(w, r, err)"]),
    ("lib/limit.js", ["      return next();"], ["      return res.status(429).send('slow down');"]),
    ("src/Filter.java", ["            chain.doFilter(request, response);"], ["            response.sendError(403);"]),
    ("app/mw.py", ["        return await call_next(request)"], ["        raise HTTPException(status_code=401)"]),
])
def test_an_error_branch_that_calls_the_next_handler_is_worth_a_look(path, added, removed):
    found = _said(path, added, removed)
    assert found is not None and not found[1] and found[0].startswith("lets the request through")


def test_the_next_handler_called_with_the_error_stays_quiet():
    assert _said("lib/mw.js", ["    return next(err);"], ["    return res.status(500).send(err.message);"]) is None


@pytest.mark.parametrize("path, added, removed", [
    ("lib/output-file/index.js", ["  fs.writeFile(file, data, encoding).catch(() => {})"], ["  return fs.writeFile(file, data, encoding)"]),
    ("src/store.rs", ["    fs::write(&path, data).ok();"], ["    fs::write(&path, data)?;"]),
    ("pkg/store.go", ["\t\tlog.Printf(\"write failed: %v\", err)"], ["\t\treturn err"]),
    ("lib/copy.js", ["    console.error(err)"], ["    callback(err)"]),
    ("Sources/Store/Vault.swift", ["        try? keychain.write(item, for: account)"], ["        try keychain.write(item, for: account)"]),
    ("Sources/Kit/Apply.swift", ["    let result = try? transform(&copy)"], ["    let result = try transform(&copy)"]),
])
def test_an_error_swallowed_is_worth_a_look(path, added, removed):
    found = _said(path, added, removed)
    assert found is not None and not found[1] and ("swallows an error" in found[0] or "only logs an error" in found[0])


def test_an_error_still_propagated_stays_quiet():
    assert _said("pkg/store.go", ["\t\treturn fmt.Errorf(\"write: %w\", err)"], ["\t\treturn err"]) is None
    assert _said("lib/copy.js", ["  return fs.writeFile(file, data, encoding).catch(wrap)"], ["  return fs.writeFile(file, data, encoding)"]) is None
    # Swift: try? that was already there, a try kept, a Java try block opened around the call
    assert _said("Sources/Store/Vault.swift", ["        try keychain.write(item, for: account, sync: true)"], ["        try keychain.write(item, for: account)"]) is None
    assert _said("src/Store.java", ["        try {", "            keychain.write(item);"], ["        keychain.write(item);"]) is None


@pytest.mark.parametrize("path, added, removed", [
    ("tenacity/before_sleep.py", ["        fn_name = f\"{retry_state.get_fn_name()}{retry_state.args}{retry_state.kwargs}\""],
     ["        fn_name = retry_state.get_fn_name()"]),
    ("lib/trace.js", ["  logger.info(`calling ${name} with ${args}`)"], ["  logger.info(`calling ${name}`)"]),
])
def test_call_arguments_written_into_a_message_are_worth_a_look(path, added, removed):
    found = _said(path, added, removed)
    assert found is not None and not found[1] and found[0].startswith("writes a call's arguments")


def test_a_download_piped_into_php_is_a_pipe_into_an_interpreter():
    assert (dangerous_call(["`curl -s http://getcomposer.org/installer | php && php composer.phar require x/y`"], [], prose_too=True)
            or "").startswith("pipes a download into a shell")
    assert dangerous_call(["curl -s https://api.example.org/x | python -m json.tool"], [], prose_too=True) is None


def test_a_callback_api_made_a_promise_with_its_error_dropped_is_worth_a_look():
    found = _said("lib/output-file/index.js", ["  fs.writeFile(file, data, encoding).catch(() => {})"],
                  ["    if (itDoes) return fs.writeFile(file, data, encoding, callback)", "      fs.writeFile(file, data, encoding, callback)"])
    assert found is not None and not found[1] and "swallows an error" in found[0]
    assert _said("src/player.js", ["  audio.play().catch(() => {})"], ["  audio.pause(callback)"]) is None


def test_a_rewrite_of_hundreds_of_lines_stays_cheap():
    import time
    removed = [f"    if re.match(r'^item{i}$', value): return check(value, {i + 16}, token)" for i in range(400)]
    added = [f"    if re.fullmatch(r'item{i}', other): return verify(other, {i % 8}, token) or err" for i in range(400)]
    started = time.process_time()
    judged("app/rewrite.py", added, removed)
    assert time.process_time() - started < 2.0


@pytest.mark.parametrize("path, added, removed", [
    ("rate.go", ["\t\tincrement := g.emissionInterval"], ["\t\tincrement := time.Duration(quantity) * g.emissionInterval"]),
    ("lib/bucket.rb", ["    cost = tokens_per_request"], ["    cost = weight * tokens_per_request"]),
    ("src/limiter.ts", ["  const used = elapsed;"], ["  const used = elapsed * this.rate;"]),
])
def test_a_factor_dropped_from_a_rate_is_worth_a_look(path, added, removed):
    found = _said(path, added, removed)
    assert found is not None and not found[1] and found[0].startswith("drops a factor")


def test_a_factor_dropped_outside_a_rate_stays_quiet():
    assert _said("src/cart.go", ["\ttotal := price"], ["\ttotal := qty * price"]) is None


def test_the_factor_reader_hands_difflib_only_pairs_one_deletion_can_make(monkeypatch):
    # difflib's matching costs the square of a line's tokens: a bundle rebuilt in a rate limiter's file (every fresh line
    # against each old one with a "*") was seconds of CPU. A pair whose new line is not the old one's head and tail is
    # no factor dropped, and is not compared.
    from relay.review import setting_turns
    compared = []

    class Counting(setting_turns.SequenceMatcher):
        def __init__(self, *args, **kwargs):
            compared.append(args[1:])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(setting_turns, "SequenceMatcher", Counting)
    removed = [f"  used{i} = elapsed{i} * this.rate{i};" for i in range(60)] + ["  const used = elapsed * this.rate;"]
    added = [f"  spent{i} = elapsed{i} + this.rate{i};" for i in range(60)] + ["  const used = elapsed;"]
    found = _said("src/limiter.ts", added, removed)
    assert found is not None and found[0].startswith("drops a factor")
    assert len(compared) == 1
