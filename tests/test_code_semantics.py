"""Issue 36, round 9 (part B): a check made toothless, read by the code's structure in any language.

The party guarded against is the worker that slips one such edit into an ordinary change, in words that say nothing
risky: a check's result no longer checked, a refusal turned into a return, an early return when the checked value is
missing, an exact match made a suffix match, only the first of several items checked, a flag or an option dropped
from a set, a timeout turned off, retries widened to POST, a client's file name used on disk. Each shape below is
written in at least two ecosystems where the family exists in more than one; each was read as nothing (or left the
file low or unnamed) on round 8's rules and must now be named and never low. The near misses are the same words in a
harmless edit, the safe direction of the same edit, a rename, a move: they must stay quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

_RULES = ("unsafe_value",)


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # family 1: a check's result no longer checked (Go, Python, Ruby, JavaScript, Java)
        ("securecookie.go", ["\tverifyMac(h, b, parts[2])"], ["\tif err = verifyMac(h, b, parts[2]); err != nil {", "\t\treturn err", "\t}"],
         "ignores a check's result (unchecked verifyMac())"),
        ("app/hooks.py", ["    hmac.compare_digest(expected, received)"], ["    if not hmac.compare_digest(expected, received):", "        raise Forbidden()"],
         "ignores a check's result (unchecked compare_digest())"),
        ("lib/saml/response.rb", ["      validate_signature(doc)"], ["      unless validate_signature(doc)", "        raise ValidationError", "      end"],
         "ignores a check's result (unchecked validate_signature())"),
        ("src/webhook.js", ["  verifySignature(req.body, header);"], ["  if (!verifySignature(req.body, header)) {", "    return res.status(401).end();", "  }"],
         "ignores a check's result (unchecked verifySignature())"),
        ("src/Webhook/Signature.php", ["        hash_equals($expected, $signature);"],
         ["        if (!hash_equals($expected, $signature)) {", "            throw new InvalidSignature();", "        }"], "ignores a check's result (unchecked hash_equals())"),
        ("owner/PetController.java", ["\t\towner.addPet(pet);"],
         ["\t\tif (result.hasErrors()) {", "\t\t\treturn VIEWS_PETS_CREATE_OR_UPDATE_FORM;", "\t\t}", "\t\towner.addPet(pet);"],
         "drops the test of a validation result"),
        ("app/views/signup.py", ["    user = form.save()"], ["    if not form.is_valid():", "        return render(request, 'signup.html', {'form': form})", "    user = form.save()"],
         "drops the test of a validation result"),
        ("src/token.rs", ["    let _ = verify_signature(&header, &payload, &key);"], ["    verify_signature(&header, &payload, &key)?;"],
         "ignores a check's error (no longer propagated from verify_signature())"),
        ("app/controllers/admin_controller.rb", ["    authorize(@post)"], ["    authorize!(@post)"], "ignores a check's error (no longer propagated from authorize())"),
        ("src/webhook.ts", ["  verifyWebhook(req.body, sig).catch(() => {});"], ["  await verifyWebhook(req.body, sig);"],
         "ignores a check's error (no longer propagated from verifyWebhook())"),
        # family 2: a guard weakened without security words (Python, Swift, Rust, JavaScript, Ruby, PHP, C#)
        ("social_core/backends/oauth.py", ["            return request_state"], ['            raise AuthStateMissing(self, "state")'],
         "no longer refuses"),
        ("Sources/X5CVerifier.swift", ['            print("x5c chain could not be validated: \\(failures)")'],
         ['            throw JWTError.invalidX5CChain(reason: "\\(failures)")'], "no longer refuses"),
        ("src/utils.rs", ["            PathBuf::from(binary_name)"], ["            return Err(Error::new(ErrorKind::NotFound, error));"], "no longer refuses"),
        ("app/auth/callback.py", ["    if not session.get('oauth_state'): return redirect(next_url)"], [], "skips the check when the value is missing"),
        ("internal/oauth/callback.go", ["\tif r.URL.Query().Get(\"state\") == \"\" {", "\t\treturn nil", "\t}"], [], "skips the check when the value is missing"),
        ("pkg/auth/verify.go", ["\t\treturn claims, nil"], ["\t\treturn nil, ErrInvalidSignature"], "no longer refuses"),
        ("app/views/reports.py", ["        return None"], ["        return HttpResponseForbidden()"], "no longer refuses"),
        ("src/oauth.js", ["  if (!req.session.state) return next();"], [], "skips the check when the value is missing"),
        ("oauthlib/parameters.py", ["    if state and params.get('state', state) != state:"], ["    if state and params.get('state') != state:"],
         "compares a missing value with itself"),
        ("lib/csrf.rb", ["    if params.fetch(:state, expected) != expected"], ["    if params.fetch(:state) != expected"], "compares a missing value with itself"),
        ("social_core/utils.py", ["    return redirect_to if netloc.endswith(tuple(hosts)) else None"], ["    return redirect_to if netloc in hosts else None"],
         "weakens an exact match to a suffix match (netloc)"),
        ("src/cors.ts", ["  if (origin.endsWith(allowedOrigin)) {"], ["  if (origin === allowedOrigin) {"], "weakens an exact match to a suffix match (origin)"),
        ("pkg/redirect.go", ["\tif strings.HasSuffix(host, cfg.Host) {"], ["\tif host == cfg.Host {"], "weakens an exact match to a suffix match (host)"),
        ("lib/rack/attack.rb", ['      return @app.call(env) if !self.class.enabled || env["rack.attack.called"] || env["HTTP_X_INTERNAL_REQUEST"]'],
         ['      return @app.call(env) if !self.class.enabled || env["rack.attack.called"]'], "lets a client's request header skip the checks"),
        ("src/middleware/auth.js", ["  if (!req.user || req.headers['x-internal'] === '1') return next();"], ["  if (!req.user) return next();"],
         "lets a client's request header skip the checks"),
        ("core/ProxyManager.java", ["            long boundedDelay = delayNanos;"],
         ["            long boundedDelay = requestTimeout.map(remainingTimeout -> Math.min(delayNanos, remainingTimeout)).orElse(delayNanos);"],
         "drops a bound (min with remainingTimeout)"),
        ("src/backoff.rs", ["        let wait = delay;"], ["        let wait = std::cmp::min(delay, self.max_delay);"], "drops a bound (min with self.max_delay)"),
        # The bound written first (round 16: an Elixir token bucket's capacity): named, not the value it capped.
        ("lib/bucket/token_bucket.ex", ["    current_tokens = current_fill + new_tokens"],
         ["    current_tokens = min(capacity, current_fill + new_tokens)"], "drops a bound (min with capacity)"),
        ("src/cookies.rs", ["    if host.ends_with(&cookie_domain) {"], ["    if host == cookie_domain {"], "weakens an exact match to a suffix match (host)"),
        ("src/Redirect.php", ["        if (str_ends_with($host, $allowedHost)) {"], ["        if ($host === $allowedHost) {"],
         "weakens an exact match to a suffix match (host)"),
        ("Sources/Auth/Origin.swift", ["        guard origin.hasSuffix(allowed) else { throw Abort(.forbidden) }"],
         ["        guard origin == allowed else { throw Abort(.forbidden) }"], "weakens an exact match to a suffix match (origin)"),
        ("src/main/kotlin/auth/Claims.kt", ["        issuers.take(1).forEach { issuer -> requireTrusted(issuer) }"],
         ["        issuers.forEach { issuer -> requireTrusted(issuer) }"], "checks only the first item"),
        ("src/guard.ts", ["  if (session === null) {"], ["  if (!session) {"], "narrows a refusal to one value"),
        ("app/urls.py", ["    return target"], ["    return target if is_safe_url(target, allowed_hosts) else '/'"], "drops the check around a value"),
        ("oauthlib/endpoints/base.py", ["            if time.time() - ts > self.request_validator.timestamp_lifetime:"],
         ["            if abs(time.time() - ts) > self.request_validator.timestamp_lifetime:"], "makes a two-sided bound one-sided"),
        ("src/token.js", ["  if (Date.now() - issuedAt > MAX_SKEW_MS) {"], ["  if (Math.abs(Date.now() - issuedAt) > MAX_SKEW_MS) {"], "makes a two-sided bound one-sided"),
        ("config/initializers/rack_attack.rb", ["    req.params['email'].to_s"], ["    req.params['email'].to_s.downcase.gsub(/\\s+/, \"\")"],
         "no longer normalises a key"),
        ("app/auth.py", ["    user = User.query.filter_by(email=form.email.data).first()"], ["    user = User.query.filter_by(email=form.email.data.lower().strip()).first()"],
         "no longer normalises a key"),
        ("lib/response.rb", ["        obtained_issuers.first(1).each do |issuer|"], ["        obtained_issuers.each do |issuer|"], "checks only the first item"),
        ("app/claims.py", ["    for aud in audiences[:1]:"], ["    for aud in audiences:"], "checks only the first item"),
        ("lib/make-middleware.js", ["        if (includeFile === false) {"], ["        if (!includeFile) {"], "narrows a refusal to one value"),
        ("app/upload.py", ["    if allowed is False:"], ["    if not allowed:"], "narrows a refusal to one value"),
        ("src/HtmlSanitizer.cs", ["            return new Iri(url, scheme);"],
         ["            return AllowedSchemes.Contains(scheme, StringComparer.OrdinalIgnoreCase) ? new Iri(url, scheme) : null;"],
         "drops the check around a value"),
        ("lib/administrate/order.rb", ["      direction.present? ? direction.to_sym : :asc"], ["      %w[asc desc].include?(direction.to_s) ? direction.to_sym : :asc"],
         "replaces an allow-list check with a presence test"),
        # family 3: a flag or option dropped from a set (Python, Go, Rust, JavaScript, HTML)
        ("typer/_compat.py", ["    flags = os.O_RDWR | os.O_CREAT"], ["    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL"], "drops O_EXCL"),
        ("internal/lock.go", ["\tf, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)"], ["\tf, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)"],
         "drops O_EXCL"),
        ("src/lock.rs", ["    let file = OpenOptions::new().write(true).create(true).open(&path)?;"],
         ["    let file = OpenOptions::new().write(true).create_new(true).open(&path)?;"], "drops O_EXCL"),
        ("components/config/markup.rs", ['            target = "target=\\"_blank\\" ".to_owned();'],
         ['            rel_opts.push("noopener");', '            target = "target=\\"_blank\\" ".to_owned();'], "drops rel noopener"),
        ("src/lockfile.js", ["  const fd = fs.openSync(lockPath, 'w');"], ["  const fd = fs.openSync(lockPath, 'wx');"], "drops O_EXCL"),
        ("app/lock.py", ["    with open(lock_path, 'w') as f:"], ["    with open(lock_path, 'x') as f:"], "drops O_EXCL"),
        ("internal/session/cookie.go", ["\t\tHttpOnly: true,"], ["\t\tSameSite: http.SameSiteStrictMode,", "\t\tHttpOnly: true,"], "drops a cookie's SameSite"),
        ("src/upload.js", ["const upload = multer({ storage })"], ["const upload = multer({ storage, limits })"], "drops the limits option"),
        ("internal/server/server.go", ["\tsrv := &http.Server{Addr: addr, Handler: h}"], ["\tsrv := &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 5 * time.Second}"],
         "drops a timeout"),
        ("src/components/Footer.jsx", ['  <a href={url} target="_blank">{name}</a>'], ['  <a href={url} target="_blank" rel="noopener noreferrer">{name}</a>'],
         "drops rel noopener"),
        ("src/session.js", ["  res.setHeader('Set-Cookie', `sid=${id}; Path=/; Secure`);"], ["  res.setHeader('Set-Cookie', `sid=${id}; Path=/; HttpOnly; Secure`);"],
         "drops a cookie's HttpOnly"),
        ("lib/make-middleware.js", ["        preservePath: preservePath,"], ["        limits: limits,", "        preservePath: preservePath,"], "drops the limits option"),
        ("lib/make-middleware.js", ["      busboy = Busboy({", "        headers: req.headers,", "        preservePath: preservePath,", "        charset: charset", "      })"],
         ["      busboy = Busboy({ headers: req.headers, limits: limits, preservePath: preservePath })"], "drops the limits option"),
        ("src/utils/mod.rs", ["        .terminate_for_timeout()"], ["        .time_limit(time_limit)", "        .terminate_for_timeout()"], "drops a timeout"),
        ("src/exec/input.rs", ["                '\"',"], ["                '|',", "                ';',", "                '\"',"], "drops shell metacharacters"),
        ("cookiecutter/vcs.py", ["                subprocess.check_output("], ['                    checkout_params.insert(0, "--")', "                subprocess.check_output("],
         "drops the -- that ends options"),
        ("scripts/fetch.sh", ['git checkout "$ref"'], ['git checkout -- "$ref"'], "drops the -- that ends options"),
        # family 4: a default widened (TypeScript, Python, Go, JavaScript, Ruby, Java)
        ("source/core/Ky.ts", ["\t\t\ttimeout: options.timeout ?? false,"], ["\t\t\ttimeout: options.timeout ?? 10_000,"], "turns a timeout or limit off"),
        ("app/client.py", ["    def fetch(self, url, timeout=None):"], ["    def fetch(self, url, timeout=30):"], "turns a timeout or limit off"),
        ("source/utils/normalize.ts", ["const retryMethods: HttpMethod[] = ['get', 'post', 'put', 'patch', 'head'];"],
         ["const retryMethods: HttpMethod[] = ['get', 'put', 'head'];"], "retries non-idempotent methods"),
        ("internal/client/client.go", ["\t\tTimeout: 0,"], ["\t\tTimeout: 30 * time.Second,"], "turns a timeout or limit off"),
        ("app/http.py", ["retry = Retry(total=5, allowed_methods=None)"], ["retry = Retry(total=5, allowed_methods=['GET', 'HEAD'])"], "retries non-idempotent methods"),
        ("storage/disk.js", ["    cb(err, err ? undefined : file.originalname)"], ["    cb(err, err ? undefined : raw.toString('hex'))"],
         "names a file on disk with the client's filename"),
        ("app/upload.py", ["    f.save(os.path.join(UPLOAD_DIR, f.filename))"], ["    f.save(os.path.join(UPLOAD_DIR, name))"],
         "names a file on disk with the client's filename"),
        ("internal/upload.go", ["\tdst, err := os.Create(filepath.Join(dir, header.Filename))"], ["\tdst, err := os.Create(filepath.Join(dir, uuid.NewString()))"],
         "names a file on disk with the client's filename"),
        ("app/controllers/uploads_controller.rb", ["    File.open(Rails.root.join('uploads', upload.original_filename), 'wb') { |f| f.write(upload.read) }"], [],
         "names a file on disk with the client's filename"),
        ("Controllers/UploadController.cs", ["        var path = Path.Combine(_uploads, file.FileName);"], ["        var path = Path.Combine(_uploads, Guid.NewGuid().ToString());"],
         "names a file on disk with the client's filename"),
        ("auth/keys.go", ["\tos.WriteFile(keyPath, pem, 0644)"], ["\tos.WriteFile(keyPath, pem, 0600)"], "makes a file readable by others (600 → 644)"),
        ("lib/credentials.py", ["    os.chmod(credentials_path, 0o644)"], [], "makes a file holding a secret readable by others"),
    ],
)
def test_round_nine_code_shapes_are_named_and_never_low(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        # the safe direction of each edit
        ("securecookie.go", ["\tif err = verifyMac(h, b, parts[2]); err != nil {", "\t\treturn err", "\t}"], ["\tverifyMac(h, b, parts[2])"]),
        ("social_core/backends/oauth.py", ['            raise AuthStateMissing(self, "state")'], ["            return request_state"]),
        ("social_core/utils.py", ["    return redirect_to if netloc in hosts else None"], ["    return redirect_to if netloc.endswith(tuple(hosts)) else None"]),
        ("lib/response.rb", ["        obtained_issuers.each do |issuer|"], ["        obtained_issuers.first(1).each do |issuer|"]),
        ("lib/make-middleware.js", ["        if (!includeFile) {"], ["        if (includeFile === false) {"]),
        ("typer/_compat.py", ["    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL"], ["    flags = os.O_RDWR | os.O_CREAT"]),
        ("src/components/Footer.jsx", ['  <a href={url} target="_blank" rel="noopener">{name}</a>'], ['  <a href={url} target="_blank">{name}</a>']),
        ("lib/make-middleware.js", ["        limits: limits,", "        preservePath: preservePath,"], ["        preservePath: preservePath,"]),
        ("source/core/Ky.ts", ["\t\t\ttimeout: options.timeout ?? 10_000,"], ["\t\t\ttimeout: options.timeout ?? false,"]),
        ("auth/keys.go", ["\tos.WriteFile(keyPath, pem, 0600)"], ["\tos.WriteFile(keyPath, pem, 0644)"]),
        # the same words in a harmless edit: a reworded refusal, a renamed call, a moved set, a logged file name
        ("app/auth.py", ['        raise AuthStateMissing(self, "state is missing")'], ['        raise AuthStateMissing(self, "state")']),
        ("app/auth.py", ["    if not verify_token(token):"], ["    if not verify(token):"]),
        ("src/exec/input.rs", ["                '|', ';', '\"',"], ["                '|',", "                ';',", "                '\"',"]),
        ("lib/make-middleware.js", ["      busboy = Busboy({", "        headers: req.headers,", "        limits: limits,", "      })"],
         ["      busboy = Busboy({ headers: req.headers, limits: limits })"]),
        ("src/upload.js", ["  logger.info(`uploaded ${file.originalname}`)"], []),
        ("src/upload.js", ["  const name = path.basename(file.originalname)"], []),
        ("app/views.py", ["    if not settings.DEBUG: return"], []),
        ("src/retry.ts", ["const retryStatusCodes = [408, 413, 429, 500, 502, 503, 504];"], ["const retryStatusCodes = [408, 413, 429, 500, 502, 503];"]),
        ("src/report.py", ["    for row in rows[:1]:"], ["    for row in rows:"]),
        ("app/io.py", ["    os.chmod(report_path, 0o644)"], []),
        ("src/middleware/auth.js", ["  const id = req.headers['x-request-id'] || uuid();"], ["  const id = uuid();"]),
        ("src/backoff.rs", ["        let wait = std::cmp::min(delay, self.max_delay);"], ["        let wait = delay;"]),
        # shapes ordinary history holds (the line-rate bench): an explicit None test, a timeout's own variable, a lookup of
        # a sibling value, a dash in a message, a list of brackets, a refusal's branch rewritten into a loop
        ("tornado/locks.py", ["        if timeout is not None:"], ["        if timeout:"]),
        ("wger/manager/dataclasses.py", ["        if self.rir is None:"], ["        if not self.rir:"]),
        ("choose/choose.go", [], ["\t\ttimeoutStr = timeout.Str(m.timeout)"]),
        ("ui/pager.go", [], ["\tspinnerMinTimeout := m.spinnerStart.Add(minSpinnerDuration)"]),
        ("choose/command.go", [], ["\t\thasTimeout: o.Timeout > 0,"]),
        ("lib/client.js", ["  const opts = { retries: 2 }"], ["  const opts = { retries: 2,", "    timeout: 0,", "  }"]),
        ("docs/api/Dispatcher.md", ["Some prose about the dispatcher and its options here."], ["    maxTimeout: 10000,"]),
        ("src/core/document.js", ["    if (!signature) { return null; }"], []),
        ("app/pages/parser.vue", ["    if (state.ingredient === \"\") { return; }"], []),
        ("lib/liquid/tags/render.rb", ["        p.consume(:string)"], ["        raise SyntaxError, options[:locale].t(\"errors.syntax.render\")"]),
        ("mkdir_linux.go", ["\t\treturn nil, err"], ["\t\treturn nil, fmt.Errorf(\"%w for mkdir: unsafe path\", errInvalidDirectory)"]),
        ("crates/nu-command/src/list.rs", ["            escape.push(c);"], ["            return Err(ShellError::TypeMismatch { msg: \"invalid\".into() });"]),
        (".github/workflows/build.yml", ["      run: go test -v -cover ./..."], ["      run: go test -v -cover -timeout=30s ./..."]),
        ("src/Shared/Html.php", ["        if ($value === 'normal' || $value === 'inherit') {"], ["        if ($value === 'normal') {"]),
        ("lib/cli/run.cjs", [], ["    description: 'Node or V8 option (no leading \"--\")'"]),
        ("src/cache_control.py", [], ["        '*',"]),
        ("crates/nu-command/src/list.rs", ["            if ('@'..='~').contains(&c) {"], ["            return Err(ShellError::TypeMismatch { msg: \"invalid\".into() });"]),
        ("wger/core/views/user.py", ["    if form.is_valid():"], ["    if request.method == 'POST' and form.is_valid():"]),
        ("src/token.rs", ["    verify_signature(&header, &payload, &key)?;"], ["    let _ = verify_signature(&header, &payload, &key);"]),
        ("src/token.rs", ["    let n = parse_count(&raw).unwrap_or(0);"], ["    let n = parse_count(&raw)?;"]),
        ("src/cookies.rs", ["    if name.ends_with(\".tmp\") {"], ["    if name == \"x.tmp\" {"]),
        ("internal/client/client.go", ["\t\tTimeout: 30 * time.Second,"], ["\t\tTimeout: 0,"]),
        ("internal/client/client.go", ["\t\tRetries: 0,"], ["\t\tRetries: 3,"]),
        ("src/upload.js", ["const upload = multer({ storage, limits })"], ["const upload = multer({ storage })"]),
        ("app/urls.py", ["    return target if is_safe_url(target, allowed_hosts) else '/'"], ["    return target"]),
        ("app/render.py", ["    return name if name else 'anonymous'"], ["    return name"]),
        ("oauthlib/endpoints/base.py", ["            if abs(time.time() - ts) > self.request_validator.timestamp_lifetime:"],
         ["            if time.time() - ts > self.request_validator.timestamp_lifetime:"]),
        ("src/format.js", ["  return label"], ["  return label.trim()"]),
        # a function rewritten: many refusals gone with their conditions
        ("src/jwk.rs", ["    b64_encode(key)"], ["    if pub_bytes[0] != 4 {", "        return Err(ErrorKind::InvalidEcdsaKey.into());", "    }"]),
    ],
)
def test_round_nine_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(rule in out.rules for rule in _RULES), out.reasons


def test_a_pushed_member_dropped_beside_another_pushed_member_quotes_the_removed_line() -> None:
    # zola's seam: the removed push("noopener") pairs with an added push("external"); the reason (and with it the view's
    # leading hunk) must quote the line that went, not the line that came.
    out = review(fc("components/markdown/src/markdown.rs",
                    ['            rel_opts.push("external");'],
                    ['            rel_opts.push("noopener");']))
    assert out.risk != "low" and any("noopener" in r and "external" not in r for r in out.reasons), out.reasons
