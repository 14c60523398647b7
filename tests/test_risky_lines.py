"""Issue 36: the one risky line a worker slips into an ordinary change decides its file's verdict.

The party guarded against is the worker (by mistake, or on an instruction planted in what it read): it writes
one line that turns verification off, deletes a permission check or runs text as code, inside a feature, a
typing pass or a release, wherever the file lives. The line must make its file high with a reason that names
it, lead the files of its risk, be the first range the packet names and the first hunk the review read shows.
"""

from __future__ import annotations

import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario
from line_changes import fc
from relay.review.packet import rank_changes
from relay.review.risk import RiskContext, assess, assess_all, max_risk

__all__: list[str] = []  # a test module exports nothing

NO_CTX = RiskContext()



@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # values turned the unsafe way, in source, examples, docs code, settings and build files
        ("src/client.py", ["    r = session.get(url, verify=False)"], ["    r = session.get(url)"], "turns TLS verification off: r = session.get(url, verify=False)"),
        ("lib/https.js", ["  const agent = new https.Agent({ rejectUnauthorized: false })"], [], "turns TLS verification off"),
        ("internal/tls.go", ["\t\tInsecureSkipVerify: true,"], [], "turns TLS verification off: InsecureSkipVerify: true,"),
        ("src/tls.py", ["    ctx.set_verify(SSL.VERIFY_PEER, lambda conn, cert, errno, depth, ok: True)"], [], "turns TLS verification off"),
        ("app/render.py", ["env = Environment(loader=loader, autoescape=False)"], ["env = Environment(loader=loader, autoescape=True)"],
         "turns autoescaping off: env = Environment(loader=loader, autoescape=False)"),
        ("app/render.py", ["env = Environment(loader=loader)"], ["env = Environment(loader=loader, autoescape=True)"], "drops autoescaping"),
        ("examples/templates/src/main.rs", ['#[template(path = "hello.html", escape = "none")]'], ['#[template(path = "hello.html")]'], "turns autoescaping off"),
        ("web/settings.py", ["SESSION_COOKIE_SECURE = False"], ["SESSION_COOKIE_SECURE = True"], "turns a cookie's or CSRF protection off"),
        ("lib/cache.php", ["        @chmod(dirname($cacheFile), 0777);"], [], "makes files world-writable or access open: @chmod(dirname($cacheFile), 0777);"),
        ("src/store.py", ["    os.makedirs(path, mode=0o777, exist_ok=True)"], ["    os.makedirs(path, exist_ok=True)"], "makes files world-writable"),
        ("lib/application.js", ["    this.proxy = options.proxy ?? true"], ["    this.proxy = options.proxy || false"], "trusts proxy headers"),
        ("app/server.py", ["app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1)"], [], "trusts proxy headers"),
        ("src/errors.py", ["        debug: bool = True,"], ["        debug: bool = False,"], "turns debug mode on: debug: bool = True,"),
        ("_examples/graceful/main.go", ['\tr.Mount("/debug", middleware.Profiler())'], [], "turns debug mode on"),
        ("app/upload.py", ["MAX_CONTENT_LENGTH = None"], ["MAX_CONTENT_LENGTH = 16 * 1024 * 1024"], "removes a size or rate limit"),
        ("docs/middleware.md", ['app = CORSMiddleware(app=app, allow_origin_regex=".*", allow_credentials=True)'],
         ['app = CORSMiddleware(app=app, allow_origins=["example.org"])'], "opens CORS to any origin"),
        ("server/cors.js", ["  res.setHeader('Access-Control-Allow-Origin', req.headers.origin)"], [], "opens CORS to any origin"),
        ("examples/jwt/src/main.rs", ['    let secret = std::env::var("JWT_SECRET").unwrap_or_else(|_| "Zx8pQ2vL9rT4wK7mN3bH6cJ1".to_owned());'],
         ['    let secret = std::env::var("JWT_SECRET").expect("JWT_SECRET must be set");'], "hard-codes a secret"),
        ("config/app.py", ['API_KEY = "a8f5f167f44f4964e6c998dee827110c"'], ['API_KEY = os.environ["API_KEY"]'], "hard-codes a secret"),
        # calls that run text as code or commands
        ("src/click/termui.py", ['            result = value_proc(eval(value) if value[:1] in "[{(" else value)'],
         ["            result = value_proc(value)"], "runs text as code: result = value_proc(eval(value)"),
        ("src/render.js", ["  const fn = new Function('ctx', body)"], [], "runs text as code"),
        ("app/cache.py", ["    return pickle.loads(blob)"], ["    return json.loads(blob)"], "deserializes untrusted data: return pickle.loads(blob)"),
        ("app/config.py", ["    return yaml.load(stream)"], ["    return yaml.safe_load(stream)"], "deserializes untrusted data"),
        ("src/_termui_impl.py", ["            shell=True,"], [], "runs a shell command built from text: shell=True,"),
        ("lib/git.js", ["  execSync(`git checkout ${branch}`)"], [], "runs a shell command built from text"),
        ("app/db.py", ['    cur.execute(f"SELECT * FROM users WHERE name = \'{name}\'")'], ['    cur.execute("SELECT * FROM users WHERE name = ?", (name,))'],
         "builds SQL from text"),
        ("store/items.js", ['  db.query("DELETE FROM items WHERE id = " + id)'], [], "builds SQL from text"),
        ("Dockerfile", ["RUN curl -fsSL https://get.example.sh | sh"], [], "pipes a download into a shell"),
        (".github/workflows/ci.yml", ["permissions: write-all"], ["permissions:", "  contents: read"], "widens CI permissions or triggers: permissions: write-all"),
        (".github/workflows/ci.yml", ["  pull_request_target:"], ["  pull_request:"], "widens CI permissions or triggers: pull_request_target:"),
        ("docs/migration.md", ["ctx.redirect(ctx.query.next || ctx.get('Referrer') || '/')"], ["ctx.back()"], "redirects to a URL the request supplies"),
        # guards deleted, inverted, made to pass
        ("app/views.py", ["    return render(request, 'report.html')"],
         ["    if not request.user.has_perm('reports.view'):", "        raise PermissionDenied", "    return render(request, 'report.html')"],
         "deletes a guard: if not request.user.has_perm('reports.view'): raise PermissionDenied"),
        ("starlette/staticfiles.py", [], ["            if os.path.commonpath([full_path, directory]) != str(directory):", "                continue"],
         "deletes a guard: if os.path.commonpath("),
        ("app/views.py", ["def report(request):"], ["@login_required", "def report(request):"], "deletes a check: @login_required"),
        ("auth/basic.py", ["    return given == expected"], ["    return hmac.compare_digest(given, expected)"], "replaces a constant-time comparison with ==: return hmac.compare_digest(given, expected)"),
        ("bottle.py", ["        if sig[1:] == base64.b64encode(hashed):"], ["        if _lscmp(sig[1:], base64.b64encode(hashed)):"],
         "replaces a constant-time comparison with ==: if _lscmp(sig[1:], base64.b64encode(hashed)):"),
        ("src/redirect.rs", ["            if self.referer {"],
         ["            remove_sensitive_headers(req.headers_mut(), &next_url, &self.urls);", "            if self.referer {"],
         "deletes a check: remove_sensitive_headers("),
        ("uvicorn/config.py", ['self.forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")'],
         ['self.forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")'], "trusts proxy headers"),
        ("build/build-validation.js", ["  onProtoPoisoning: 'ignore',"], ["  onProtoPoisoning: 'error',"], "turns a protection off: onProtoPoisoning: 'ignore',"),
        ("mux.go", ["\treturn &Router{namedRoutes: make(map[string]*Route), skipClean: true}"],
         ["\treturn &Router{namedRoutes: make(map[string]*Route)}"], "turns a protection off: …"),
        ("README.md", ["\tpath := h.staticPath + r.URL.Path"], ["\tpath := filepath.Join(h.staticPath, r.URL.Path)"],
         "builds a file path from the request (path traversal?): path := h.staticPath + r.URL.Path"),
        ("lib/response.js", [], ["      url = escape(url)"], "removes escaping: url = escape(url)"),
        ("src/Renderer.php", ["$html .= sprintf('<div>%s</div>', $exception->getMessage());"],
         ["$html .= sprintf('<div>%s</div>', htmlentities($exception->getMessage()));"], "removes escaping"),
        ("app/auth.py", ["    if user.is_admin:"], ["    if not user.is_admin:"], "inverts a check: if user.is_admin:"),
        ("middleware/trustedhost.py", ["        is_valid_host = True"], ["        is_valid_host = False"], "inverts a check: is_valid_host = True"),
        ("src/admin.js", ["  if (!user.isAuthenticated) {"], ["  if (!user.isAuthenticated || !user.isAdmin) {"], "drops a clause from a check"),
        # a security test skipped; a dependency renamed to a look-alike
        ("spec/faraday/env_spec.rb", ["  xit 'handle verify_hostname when fetching' do"], ["  it 'handle verify_hostname when fetching' do"],
         "skips a security test: xit 'handle verify_hostname when fetching' do"),
        ("pyproject.toml", ["    \"coloramma; platform_system == 'Windows'\","], ["    \"colorama; platform_system == 'Windows'\","],
         "renames a dependency to a look-alike (a typo-squat?): colorama → coloramma"),
    ],
)
def test_a_risky_line_makes_its_file_high_and_its_reason_names_the_line(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert out.risk == "high" and out.reasons[0].startswith(named), out.reasons
    # Its reason comes first among the file's; the rule behind it leads the review order.
    assert rank_changes([fc("src/big.py", [f"    x_{i} = re.compile(p_{i})" for i in range(300)], risk="high"), out])[0].path == path


# Round 3 (issue 36): shapes read across languages; each example is made up, none is a corpus line.
@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # a check that refuses exactly what passed it; a deny-by-default answer turned to yes
        ("web/static.py", ["        if permitted:", "            deny()"], ["        if not permitted:", "            deny()"],
         "inverts a check (refuses what passed): if permitted: deny()"),
        ("src/guard.ts", ["  if (isTrusted()) { throw new ForbiddenError('host') }"], [], "inverts a check (refuses what passed)"),
        ("lib/hosts.js", ["    return true;"], ["    return false;"], "makes a check answer yes by default (fails open): return true; (was return false;)"),
        # a protection middleware taken out
        ("app/server.js", ["app.use(compression())"], ["app.use(csrfProtection())", "app.use(compression())"], "removes a protection middleware: app.use(csrfProtection())"),
        ("config/settings.py", [], ["    'django.middleware.clickjacking.XFrameOptionsMiddleware',"], "removes a protection middleware"),
        ("src/router.rs", [], ["        .layer(RequestBodyLimitLayer::new(4096))"], "removes a protection middleware"),
        # authentication, CORS, proxy trust, TLS, XML
        ("docs/routes.md", ["    config: { auth: false },"], [], "turns authentication off: config: { auth: false },"),
        ("app/controllers/reports_controller.rb", ["  skip_before_action :authenticate_admin!"], [], "turns authentication off"),
        ("pkg/cors.py", ["    supports_credentials = '*'"], ["    supports_credentials = ()"], "opens CORS to any origin"),
        ("src/cors.ts", ["  origin: (requestOrigin) => requestOrigin,"], ["  origin: allowList,"], "opens CORS to any origin"),
        ("ws/upgrade.go", ["	CheckOrigin: func(r *http.Request) bool { return true },"], [], "opens CORS to any origin"),
        ("src/net/peer.rs", ['    let header = "X-Real-IP";'], ["    let header = settings.client_ip_header.as_str();"], "trusts proxy headers"),
        ("src/main/java/Client.java", ["    .setSSLHostnameVerifier(NoopHostnameVerifier.INSTANCE)"], [], "turns TLS verification off"),
        ("src/tls.rs", ["        .dangerous().set_certificate_verifier(Arc::new(AcceptAll))"], [], "turns TLS verification off"),
        (".npmrc", ["strict-ssl=false"], [], "turns TLS verification off"),
        ("src/main/java/Xml.java", ['    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);'], [],
         "lets XML load external entities"),
        ("src/main/java/Sec.java", ["    http.csrf(c -> c.disable());"], [], "turns a cookie's or CSRF protection off"),
        ("lib/db/config.rs", ['        dsn: "mysql://svc:Tr0ub4dor33x@10.0.0.5/shop".into(),'], ["        dsn: env_dsn(),"], "hard-codes a secret"),
        # dangerous calls: SQL in a docs example, a raw query part, an open redirect, install hooks, downloads run
        ("docs/guide/query.md", ['    row := db.QueryRow("SELECT id FROM accounts WHERE email = \'" + email + "\'")'], [], "builds SQL from text"),
        ("src/repo.ts", ["  return db.whereRaw(`owner = ${owner}`)"], [], "builds SQL from text"),
        ("app/sessions.rb", ["      redirect_target = params[:continue_to] || params[:return_to] || root_path"], ["      redirect_target = root_path"],
         "redirects to a URL the request supplies"),
        ("package.json", ['    "postinstall": "node tools/fetch-binary.js",'], [], "adds a script that runs at install"),
        ("composer.json", ['        "post-install-cmd": ["php bin/setup.php"],'], [], "adds a script that runs at install"),
        ("scripts/bootstrap.sh", ['bash -c "$(curl -fsSL https://tools.example.dev/setup)"'], [], "pipes a download into a shell"),
        ("Makefile", ["	curl -sSL https://tools.example.dev/get.py | python3 -"], [], "pipes a download into a shell"),
        (".github/workflows/lint.yml", ['        run: ./ci/label.sh "${{ github.head_ref }}"'], [], "runs untrusted text in a CI step (script injection)"),
        # a check step made non-failing; packages from an index anyone on the path can answer
        (".github/workflows/security.yml", ["        continue-on-error: true"], [], "makes a failing check pass"),
        (".gitlab-ci.yml", ["    - pip-audit -r requirements.txt || true"], ["    - pip-audit -r requirements.txt"], "makes a failing check pass"),
        ("requirements-dev.txt", ["--extra-index-url http://pkgs.example.internal/simple"], [], "fetches packages from an untrusted index"),
        ("Gemfile", ["source 'http://gems.example.org'"], ["source 'https://rubygems.org'"], "fetches packages from an untrusted index"),
        # commands, files and secrets in more languages
        ("src/main/java/Tools.java", ["        Runtime.getRuntime().exec(\"convert \" + upload);"], [], "runs a shell command built from text"),
        ("app/controllers/files_controller.rb", ["    send_file(params[:name])"], [], "builds a file path from the request"),
        ("public/index.php", ["include($_GET['view'] . '.php');"], [], "builds a file path from the request"),
        ("src/accounts.py", ["    digest = hashlib.sha1(password.encode()).hexdigest()"], ["    digest = argon2.hash(password)"], "makes a secret guessable"),
        ("src/invite.js", ["  const inviteToken = Math.random().toString(36).slice(2)"], ["  const inviteToken = crypto.randomUUID()"], "makes a secret guessable"),
        # HTTPS forced, HSTS and framing policies turned off; CORS open by annotation
        ("config/environments/production.rb", ["  config.force_ssl = false"], ["  config.force_ssl = true"], "turns a protection off"),
        ("server/app.ts", ["app.use(helmet({ contentSecurityPolicy: false }))"], ["app.use(helmet())"], "turns a protection off"),
        ("src/main/java/Api.java", ['@CrossOrigin(origins = "*")'], [], "opens CORS to any origin"),
        # more of the same shapes in other frameworks' words
        ("src/handlers.ts", ["  return ctx.redirect(ctx.req.query('to'))"], [], "redirects to a URL the request supplies"),
        ("app/models/post.rb", ['    Post.where("slug = \'#{slug}\'").first'], [], "builds SQL from text"),
        ("cmd/serve.go", ["	gin.SetMode(gin.DebugMode)"], ["	gin.SetMode(gin.ReleaseMode)"], "turns debug mode on"),
        ("config/app.php", ["    'debug' => true,"], ["    'debug' => env('APP_DEBUG', false),"], "turns debug mode on"),
        ("src/main/resources/application.properties", ["server.error.include-stacktrace=always"], [], "turns debug mode on"),
        ("internal/auth/jwt.go", ["	tok, err := jwt.Parse(raw, keys, jwt.WithoutClaimsValidation())"], [], "turns signature or token checks off"),
        ("app.py", ["app.config['WTF_CSRF_ENABLED'] = False"], [], "turns a cookie's or CSRF protection off"),
        ("web.rb", ["  set :protection, false"], [], "turns a cookie's or CSRF protection off"),
        ("app/helpers/bio_helper.rb", ["    raw(profile.bio)"], ["    h(profile.bio)"], "turns autoescaping off"),
        ("server/index.js", ["app.use(express.json({ limit: '5gb' }))"], ["app.use(express.json({ limit: '1mb' }))"], "removes a size or rate limit"),
        ("cmd/files.go", ['	name := filepath.Join(baseDir, r.URL.Query().Get("f"))'], [], "builds a file path from the request"),
        ("src/serve.rs", ["    let full = base.join(requested);"], ["    let full = safe_join(&base, requested)?;"], "deletes a check: let full = safe_join("),
        (".github/workflows/build.yml", ["      - uses: actions/cache@main"], ["      - uses: actions/cache@0c45773b623bea8c8e75f6c82b208c3cf94ea4f9 # v4"],
         "unpins a CI action from its commit"),
        ("lib/http.rb", ["    default_options[:verify] = false"], [], "turns TLS verification off"),
        ("deploy/run.sh", ["exec gunicorn --forwarded-allow-ips='*' app:app"], [], "trusts proxy headers"),
        ("src/fetch.rs", ["        .max_redirects(u32::MAX)"], [".max_redirects(5)"], "removes a size or rate limit"),
        ("api/views.py", ["    throttle_classes = []"], ["    throttle_classes = [UserRateThrottle]"], "removes a size or rate limit"),
        ("app/jobs/dispatch.rb", ["    Object.const_get(params[:job]).perform_later"], [], "runs text as code"),
        ("src/main/java/Login.java", ['        ctx.redirect(ctx.queryParam("then"));'], [], "redirects to a URL the request supplies"),
        ("src/main/java/Dl.java", ['        return Files.readAllBytes(Paths.get(root, ctx.queryParam("doc")));'], [], "builds a file path from the request"),
        ("src/Repository/UserRepository.php", ['        $qb->andWhere("u.email = \'" . $email . "\'");'], [], "builds SQL from text"),
        ("api/authentication.py", ["        return (user, None)"], ["        self.enforce_csrf(request)", "        return (user, None)"], "deletes a check: self.enforce_csrf"),
        # refusals that carry their own condition, named errors; TLS dropped from a server
        ("app/controllers/reports_controller.rb", [], ["    raise Forbidden unless current_user.admin?"], "deletes a guard: raise Forbidden unless"),
        ("app/controllers/docs_controller.rb", [], ["    head :unauthorized unless current_user.owner?(doc)"], "deletes a guard"),
        ("src/session.rs", [], ["    ensure!(claims.role == Role::Admin, AuthError::Forbidden);"], "deletes a guard: ensure!("),
        ("internal/store/path.go", [], ["	if strings.HasPrefix(name, \"/\") || strings.Contains(name, \"..\") {", "		return nil, ErrUnsafePath", "	}"],
         "deletes a guard"),
        ("examples/tls/main.go", ["	log.Fatal(srv.ListenAndServe())"], ["	log.Fatal(srv.ListenAndServeTLS(certFile, keyFile))"], "drops TLS"),
        ("server/index.js", ["const server = http.createServer(app)"], ["const server = https.createServer(tlsOptions, app)"], "drops TLS"),
        # dependency files of every name; go.mod's replace
        ("requirements/dev", ["requessts"], ["requests"], "renames a dependency to a look-alike (a typo-squat?): requests → requessts"),
        ("go.mod", ["replace github.com/spf13/cobra => github.com/spf31/cobra v1.8.0"], [],
         "replaces module github.com/spf13/cobra with a look-alike (a typo-squat?): github.com/spf31/cobra"),
        (".github/workflows/release.yml", ["      - uses: actoins/setup-python@v5"], ["      - uses: actions/setup-python@v5"],
         "renames a CI action to a look-alike (a typo-squat?): actions/setup-python → actoins/setup-python"),
    ],
)
def test_round_three_shapes_make_their_file_high_and_name_the_line(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert out.risk == "high" and out.reasons[0].startswith(named), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("src/client.py", ["    r = session.get(url, verify=True)"], ["    r = session.get(url, verify=False)"]),  # turned the safe way
        ("tests/test_client.py", ["    r = session.get(url, verify=False)"], []),  # a test disables it to test it
        ("docs/ssl.md", ["Pass verify=False only when you test against a server with a self-signed certificate."], []),  # prose
        ("CHANGELOG.md", ["- ``jwt.decode(token, verify=False)`` now warns"], []),  # release notes tell of code
        ("src/client.py", ["    r = session.get(url, verify=False)  "], ["        r = session.get(url,  verify=False)"]),  # only moved
        ("app/cache.py", ["    return pickle.dumps(obj)"], []),  # writes, does not load
        ("app/db.py", ['    cur.execute("SELECT * FROM users WHERE name = %s", (name,))'], []),  # parameterised
        ("app/views.py", ["    if not request.user.has_perm('reports.read'):", "        raise PermissionDenied"],
         ["    if not request.user.has_perm('reports.view'):", "        raise PermissionDenied"]),  # a guard rewritten, not deleted
        ("app/views.py", ["    if not request.user.has_perm('reports.view'):", "        raise PermissionDenied", "    log(x)"],
         ["    if not request.user.has_perm('reports.view'):", "        raise PermissionDenied"]),  # kept
        ("pyproject.toml", ["    \"pytest-relaxed>=2\","], ["    \"pytest_relaxed>=2\","]),  # one package to pip
        ("go.mod", ["\tgolang.org/x/sync v0.8.0", "\tgolang.org/x/sys v0.25.0"], ["\tgolang.org/x/sys v0.24.0"]),  # added beside
        # Generated output that does not run (a snapshot); one line of hand's size under node_modules/ is read as code
        # (tests/test_generated_paths.py: the worker names its own files).
        ("src/__snapshots__/x.test.js.snap", ["eval(code)"], []),
        # round 3's near misses: a refusal when the check failed, a default kept, a middleware added, a fork replaced in
        ("web/static.py", ["        if not permitted:", "            deny()"], []),
        ("lib/hosts.js", ["    return false;"], ["    return true;"]),  # allow by default turned to deny
        ("app/server.js", ["app.use(csrfProtection({ cookie: true }))"], ["app.use(csrfProtection())"]),
        ("go.mod", ["replace github.com/spf13/cobra => github.com/acme/cobra v1.8.1"], []),  # a fork under another name, not a look-alike
        ("go.mod", ["replace github.com/spf13/cobra => ../cobra"], []),
        ("src/db.rs", ["    while let Some(row) = query.next() {"], []),  # an iterator, not a redirect
        ("settings.py", ["DATABASE_URL = 'postgres://postgres:postgres@localhost/app'"], []),  # a default local credential
        ("requirements-dev.txt", ["--extra-index-url https://download.example.org/whl/cpu"], []),
        (".github/workflows/ci.yml", ["    group: ${{ github.head_ref || github.run_id }}"], []),  # a key's value, not a script
        ("src/client.py", ["def get(url, auth=None):"], []),
        ("src/retry.py", ["    delay = random.random() * backoff"], []),  # randomness that guards nothing
        (".github/workflows/ci.yml", ["      - uses: actions/setup-node@v4"], ["      - uses: actions/setup-node@v3"]),  # a bump
        ("app/config.py", ["    self.force_ssl = force_ssl"], []),
        ("src/cache.py", ["    value = store.get(key)"], []),
        ("deploy/gunicorn.conf.py", ["forwarded_allow_ips = '127.0.0.1,10.0.0.2'"], []),  # named proxies only
        ("src/a.py", ["    allowed = settings.allow_ips"], []),
        ("app/models/upload.rb", [], ["    raise ArgumentError, 'empty upload' unless size.positive?"]),  # an input check in passing
        ("internal/conn.go", [], ["\tif err != nil {", "\t\treturn ErrClosed", "\t}"]),  # an error passed on, no check of access
        # shapes that only look like a sink: a method named raw, braces escaped in a format string, a double negation in
        # JSX, backticks quoted inside a message, a redirect target kept in a name for the check that follows
        ("src/models.py", ["    def raw(self) -> list[tuple[bytes, bytes]]:"], []),
        ("src/fmt.py", ["    spec = '|'.join('{{{}:{}}}'.format(*item) for item in items)"], []),
        ("src/view.tsx", ["      <Dialog isOpen={!!selected} />"], []),
        ("lib/runner.rb", ['      log "! WARNING: set `WORKERS=#{count}` in the config"'], []),
        ("app/middleware.py", ["        next_url = request.GET.get('next')"], []),
        ("Gemfile", ["gem 'builder'"], []),  # a popular gem itself, not a look-alike of another
        (".github/workflows/build.yml", ["      - uses: actions/cache@v5"], ["      - uses: actions/cache@v4"]),  # a tag bumped, never pinned
        ("src/cache.py", ["    key = hashlib.md5(data).hexdigest()"], []),  # a checksum, not a password
        # a lint rule named for escapes, switched off (blind 93's entities: read as escaping turned off)
        ("eslint.config.mjs", ['            "unicorn/no-hex-escape": 0,'], []),
        (".eslintrc.json", ['    "no-useless-escape": "off",'], []),
    ],
)
def test_near_misses_of_a_risky_line_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert not {"unsafe_value", "dangerous_call", "removes_guard", "lookalike_dependency", "skips_security_test"} & set(out.rules), out


@pytest.mark.parametrize("path", ["dev-requirements.txt", "requirements/test.in", "ci/test-requirements.txt", "constraints-dev.txt"])
def test_dependency_files_of_every_name_go_through_the_dependency_rules(path: str) -> None:
    out = assess(fc(path, ["fastjsonschema==2.20.0"]), NO_CTX)
    assert out.risk == "high" and out.reasons[0] == "adds a dependency: fastjsonschema", out.reasons
    # A new one a letter off a widely used package is called what it looks like.
    assert assess(fc(path, ["reqeusts==2.32.0"]), NO_CTX).reasons[0] == "adds a look-alike of requests (a typo-squat?): reqeusts"


@pytest.mark.parametrize(
    ("added", "removed", "seen"),
    [
        (["def escape(s: str, quote: bool = True) -> Markup:"], ["def escape(s, quote=True):"], "typing only"),
        (["_pattern: re.Pattern[str] = re.compile(r'\\s+')", "from typing import Any"], ["_pattern = re.compile(r'\\s+')"], "typing only"),
        (["def sanitize(tmpl: str, max_size: int = 1024) -> str:", "    return clean(tmpl)[:max_size]"],
         ["def sanitize(template, max_size=1024):", "    return clean(template)[:max_size]"], None),  # a name changed, a type added: still read
        (["    escaped = escape(template)", "    return escaped"], ["    escaped = escape(tmpl)", "    return escaped"], None),
        (["    safe_html = escape(source)", "    return safe_html + suffix(safe_html)"],
         ["    out = escape(source)", "    return out + suffix(out)"], "names changed only"),
    ],
)
def test_words_alone_in_an_edit_that_keeps_its_meaning_do_not_make_a_file_high(added: list[str], removed: list[str], seen: str | None) -> None:
    out = assess(fc("src/markup/escaping.py", added, removed), NO_CTX)
    if seen is None:
        assert out.risk == "high", out
    else:
        assert out.risk == "low" and out.reasons == [f"{seen} (+{len(added)}/-{len(removed)})"], out


def test_a_file_with_a_risky_line_ranks_above_bigger_files_high_for_words_and_the_change_is_not_low() -> None:
    # Eleven bigger edits high for their words (a new check, a path word), one small edit adding eval().
    wordy = [fc(f"src/pkg/mod_{i}.py", [f"    if len(data) > MAX_SIZE_{i}:", "        raise TooLarge()", *[f"    y_{k} = {k}" for k in range(40)]])
             for i in range(11)]
    risky = fc("src/pkg/loader.py", ["    return eval(expr)"], ["    return literal(expr)"])
    ranked = rank_changes(assess_all([*wordy, risky], NO_CTX))
    assert all(c.risk == "high" for c in ranked)
    assert ranked[0].path == "src/pkg/loader.py" and ranked[0].reasons[0] == "runs text as code: return eval(expr)"
    # Alone, in an example with a typing pass around it, the change is still high, never low.
    changes = assess_all([fc("examples/app/main.py", ["    yaml.load(open(p))"]), fc("src/a.py", ["def f(x: int) -> int:"], ["def f(x):"])], NO_CTX)
    assert max_risk(c.risk for c in changes) == "high"


def _lines(n: int, name: str) -> str:
    return "".join(f"{name}_{i} = compute({i})\n" for i in range(1, n + 1))


@pytest.mark.anyio
async def test_the_packet_names_the_risky_range_first_and_the_review_read_shows_its_hunk_first(tmp_path):
    # A feature: a big new function at the top of client.py, and far below it, in a small edit, TLS verification
    # turned off; a dozen other files grow too. The verdict names the line, its range comes first in "lines", and
    # the review read's first hunk under the file is the one holding it, inside the default budget.
    files = {"src/client.py": _lines(200, "setting"), **{f"src/feature_{i}.py": _lines(30, f"f{i}") for i in range(8)}}
    repo = make_repo(tmp_path / "project", files)
    edits = [{"op": "replace-lines", "path": "src/client.py", "start": 10, "end": 10,
              "content": "".join(f"    step_{i} = stage(step_{i - 1})\n" for i in range(1, 60))},
             {"op": "replace-lines", "path": "src/client.py", "start": 150, "end": 150,
              "content": "response = session.get(url, timeout=5, verify=False)\n"}]
    edits += [{"op": "replace-lines", "path": f"src/feature_{i}.py", "start": 5, "end": 6,
               "content": "".join(f"    part_{k} = build_{k}(part_{k - 1}, escape=escape, max_size=MAX)\n" for k in range(1, 40))}
              for i in range(8)]
    agy = install_fake_agy(tmp_path / "agy", success_scenario(edits))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "Add the staged pipeline", "workspace": str(repo)}))
        view = (await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "diff"})).content[0].text
    assert packet["changes"]["risk"] == "high"
    top = packet["changes"]["review"][0]
    assert top["file"] == "src/client.py" and top["risk"] == "high", packet["changes"]["review"]
    assert top["reason"].startswith("turns TLS verification off: response = session.get(url, timeout=5, verify=False)")
    risky = 1 + (repo / "src/client.py").read_text(encoding="utf-8").splitlines().index("response = session.get(url, timeout=5, verify=False)")
    assert top["lines"].split(",")[0] == str(risky) and "," in top["lines"]  # the risky range, named before the big one at the top
    assert len(view) <= 2_500
    label = f"## src/client.py lines {top['lines']}"
    after = view[view.index(label):]
    first_hunk = after[after.index("\n@@ "):].split("\n@@ ", 2)[1]
    assert "+response = session.get(url, timeout=5, verify=False)" in first_hunk, view


@pytest.mark.anyio
async def test_a_risky_line_deep_in_a_big_new_file_is_read_named_and_shown(tmp_path):
    # 900 new lines of ordinary code, the risky one at line 700: past the lines every rule reads (500 a side) and
    # past the rows a window's placement reads row by row (400). It is still read, named, and the window holds it.
    repo = make_repo(tmp_path / "project", {"README.md": "# project\n"})
    body = [f"value_{i} = compute({i}, options=DEFAULTS)\n" for i in range(900)]
    body[699] = "payload = pickle.loads(request_body)\n"
    agy = install_fake_agy(tmp_path / "agy", success_scenario([{"op": "write", "path": "src/pipeline.py", "content": "".join(body)}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "Add the pipeline", "workspace": str(repo)}))
        view = (await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "diff"})).content[0].text
    top = packet["changes"]["review"][0]
    assert top["file"] == "src/pipeline.py" and top["risk"] == "high"
    assert top["reason"].startswith("deserializes untrusted data: payload = pickle.loads(request_body)"), top
    assert "+payload = pickle.loads(request_body)\n" in view and len(view) <= 2_500, view


@pytest.mark.parametrize(
    ("path", "line", "named"),
    [
        ("composer.json", '        "monolog/monologg": "^3.5",', "adds a look-alike of monolog/monolog (a typo-squat?): monolog/monologg"),
        ("pom.xml", "      <artifactId>commons-lang33</artifactId>", "adds a look-alike of commons-lang3 (a typo-squat?): commons-lang33"),
        # (a short name's line quoted too, round 87: the name alone locates no line for the review read)
        ("Cargo.toml", 'rustsl = "0.23"', 'adds a look-alike of rustls (a typo-squat?): rustsl (rustsl = "0.23")'),
        ("Gemfile", "gem 'omniauht'", "adds a look-alike of omniauth (a typo-squat?): omniauht"),
    ],
)
def test_a_new_look_alike_of_a_popular_package_is_named_in_every_registry(path: str, line: str, named: str) -> None:
    # Packagist, Maven Central, crates.io and RubyGems names are read as PyPI's and npm's are.
    out = assess(fc(path, [line]), NO_CTX)
    assert out.risk == "high" and out.reasons[0] == named, out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # values written in other languages' ways: a Go field set by assignment, a Go struct's Debug field, a key named
        # for what it encrypts or signs, Ruby's JSON that builds objects, an arrow function that hands the origin back
        ("pkg/httpc/client.go", ["\tcfg.InsecureSkipVerify = true"], [], "turns TLS verification off: cfg.InsecureSkipVerify = true"),
        ("internal/client.go", ["\t\tDebug:        true,"], ["\t\tTimeout:      5 * time.Second,"], "turns debug mode on: Debug: true,"),
        ("src/Vault.php", ["    protected string $signingKey = 'q7Lm2Vx9Rt4Zp8Kd3Wn6Yb1Hc5Jf0Gs';"], ["    protected string $signingKey;"],
         "hard-codes a secret: protected string $signingKey"),
        ("lib/store.rb", ["    JSON.parse(payload, create_additions: true)"], ["    JSON.parse(payload)"], "deserializes untrusted data"),
        ("src/cors.ts", ["  allowOrigin = (requestOrigin: string) => requestOrigin ?? defaultOrigin"], ["  allowOrigin = () => defaultOrigin"],
         "opens CORS to any origin: allowOrigin = (requestOrigin: string) => requestOrigin"),
        # guards: an HTTPS-only refusal deleted, a returned answer inverted, escaping or a bound parameter dropped from a value
        ("src/fetch.rs", [], ["    if cfg.only_https && url.scheme() != \"https\" {", "        return Err(Error::PlainHttp);", "    }"],
         "deletes a guard: if cfg.only_https && url.scheme() != \"https\" {"),
        ("src/net/peer.py", ["        return (isinstance(self.remote, tuple)"], ["        return (not isinstance(self.remote, tuple)"],
         "inverts a check: return (isinstance(self.remote, tuple)"),
        ("lib/sql/compiler.js", ["    return `json_value(${col}, '${path}')`;"], ["    return `json_value(${col}, ${this.client.parameter(path)})`;"],
         "removes escaping or a bound parameter (this.client.parameter): return `json_value(${col}, '${path}')`;"),
        ("lib/pg/schema.js", ["  const list = names.map((name) => `\"${name}\"`)"], ["  const list = names.map((name) => `\"${name.replace(/\"/g, '\"\"')}\"`)"],
         "removes escaping or a bound parameter (name.replace)"),
        ("util/shell.go", ["\tcmd += \" --data '\" + string(body) + \"'\""], ["\tcmd += \" --data \" + shellwords.Escape(string(body))"],
         "removes escaping or a bound parameter (shellwords.Escape)"),
        # the roles a route inherits no longer gathered
        ("src/main/java/Routes.java", ["        all.addAll(local);"], ["        all.addAll(inheritedRoles());", "        all.addAll(local);"],
         "deletes a check: all.addAll(inheritedRoles());"),
        ("src/main/java/Routes.java", ["        all.addAll(local);", "    private static Role[] inheritedRoles() {", "        return stack.peek();", "    }"],
         ["        all.addAll(inheritedRoles());", "        all.addAll(local);"], "deletes a check: all.addAll(inheritedRoles());"),  # declared, no longer called
        # a security test skipped with a qualified annotation; dependencies: a module built from elsewhere, a guard package removed
        ("src/test/kotlin/SessionCookieTest.kt", ['    @org.junit.jupiter.api.Disabled("slow on CI")'], [], "skips a security test"),
        ("go.mod", ["replace golang.org/x/text => github.com/golang-text/text v0.14.0"], [],
         "replaces module golang.org/x/text with another source: github.com/golang-text/text"),
        ("composer.json", ['    "symfony/console": "^7.0",'], ['    "roave/security-advisories": "dev-latest",', '    "symfony/console": "^6.4",'],
         "removes a dependency that guards against vulnerable code: roave/security-advisories"),
    ],
)
def test_round_four_shapes_make_their_file_high_and_name_the_line(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert out.risk == "high" and out.reasons[0].startswith(named), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("src/ui.js", ["  handler = this.onClick"], ["  handler = this.onClick.bind(this)"]),  # a receiver bound, not a value escaped
        ("src/Http.java", ["    String v = name;"], ["    String v = request.getParameter(name);"]),  # a read, not a bound parameter
        ("src/checks.py", ["    return isinstance(x, (int, float))"], ["    return isinstance(x, int)"]),  # widened, not inverted
        ("src/cors.ts", ["  ok = (origin: string) => origin.endsWith('.example.com')"], []),  # a check of the origin, not the origin handed back
        ("go.mod", ["replace golang.org/x/text => ../text"], []),  # the project's own copy
        ("composer.json", [], ['    "monolog/monolog": "^3.0",']),  # an ordinary dependency removed
        ("src/cache.php", ["    protected string $cacheKey = 'user_profile_settings';"], []),  # a key that locks nothing
        ("src/users.js", ["  const all = user.grants;"], ["  const all = user.getPermissions();"]),  # a read of the roles, not a grant
    ],
)
def test_round_four_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert not {"unsafe_value", "dangerous_call", "removes_guard", "lookalike_dependency", "skips_security_test", "replaced_dependency",
                "removes_guard_dependency"} & set(out.rules), out


def test_a_file_high_for_a_security_word_quotes_the_changed_line_that_holds_it() -> None:
    out = assess(fc("pkg/transport.go", ["\tpool := x509.NewCertPool()", "\tpool.AppendCertsFromPEM(pem)"], []), NO_CTX)
    assert out.reasons[0] == "changes security-relevant code (keys/certificates: pool := x509.NewCertPool())", out.reasons


# ----- round five: a check edited in place, read by the structure of the pair (relay.review.condition_reading), and the
# shapes the word rules missed on unseen sets. Made-up code; each row fails on the rules before round five.
@pytest.mark.parametrize(
    ("path", "added", "removed", "risk", "named"),
    [
        # a condition whose branch refuses, edited in place to let more through
        ("src/upload.py", ["    if not digest:"], ["    if not nonce and not digest:"], "high",
         "drops a clause from a check: if not digest: (was if not nonce and not digest:)"),
        ("src/frame.rs", ["        if seen < declared {"], ["        if seen != declared {"], "medium",
         "narrows a differs/equals check to an ordering: if seen < declared {"),
        ("web/login.php", ["} elseif (isset($_POST['ticket']) && $_POST['ticket'] !== $_SESSION['ticket']) {"],
         ["} elseif (empty($_POST['ticket']) || $_POST['ticket'] !== $_SESSION['ticket']) {"], "high", "swaps empty() for isset()"),
        ("lib/gate.js", ["  return (this.members[name] !== null) ? true : false;"], ["  return (this.members[name]) ? true : false;"], "medium",
         "weakens a check to a not-null test: return (this.members[name] !== null) ? true : false;"),
        ("app/acl.rb", ["    return if group.admin? or group.owner?"], ["    return if group.admin? and group.owner?"], "high",
         "swaps and for or in a check"),
        # a setting's value turned permissive-ward, read by shape
        ("lib/defaults.rb", ["        :allowed_verbs => %i[put patch delete],"], ["        :allowed_verbs => %i[put patch],"], "high",
         "widens an allow-list: :allowed_verbs => %i[put patch delete],"),
        ("lib/defaults.rb", ["        :mock_mode => ENV['STAGE'] != 'live',"], ["        :mock_mode => false,"], "high",
         "makes an off flag conditional: :mock_mode => ENV['STAGE'] != 'live',"),
        ("examples/upload/main.rs", ["    let cap = body.size_hint().lower().checked_mul(2).unwrap_or(0);"],
         ["    let cap = body.size_hint().lower().checked_mul(2).unwrap_or(usize::MAX);"], "medium", "sets a bound to an extreme"),
        ("api/profile.py", ["        claims = self.guard.require_grant()"], ['        claims = self.guard.require_grant("profile:read")'], "high",
         'drops the argument "profile:read" of a check: claims = self.guard.require_grant()'),
        # a hash made weak, an exact match made a substring test, an anchor dropped, a work factor lowered, a path's normalisation removed
        ("src/tokens.py", ["    fp = hashlib.sha1(blob).hexdigest()"], ["    fp = hashlib.sha512(blob).hexdigest()"], "high",
         "replaces a strong hash or cipher with a weak one"),
        ("src/hosts.js", ["  if (referrer.includes(TRUSTED_SUFFIX)) {"], ["  if (referrer.endsWith(TRUSTED_SUFFIX)) {"], "high",
         "turns an exact match into a substring test"),
        ("src/links.py", ["    if not re.search(r'https://docs\\.example\\.org/', link):"], ["    if not re.search(r'^https://docs\\.example\\.org/', link):"],
         "high", "drops a pattern's anchor"),
        ("src/keys.py", ["    pair = make_keypair(bits=1024)"], ["    pair = make_keypair(bits=3072)"], "high", "lowers a security work factor"),
        ("src/files.py", ["    if not target.startswith(base):"], ["    if not os.path.abspath(target).startswith(base):"], "high",
         "removes path normalisation (os.path.abspath)"),
        # a hook that checks, deleted; a host taken from a forwarding header; a lambda that accepts every host
        ("lib/pipeline.rb", ["      Settings.before_phase.call(env)"], ["      Settings.verification_hook.call(env) if Settings.verification_hook",
                                                                          "      Settings.before_phase.call(env)"], "high",
         "deletes a check: Settings.verification_hook.call(env) if Settings.verification_hook"),
        ("lib/links.rb", ["      base.host = env['HTTP_X_FORWARDED_HOST'] || base.host"], [], "high", "trusts proxy headers"),
        ("samples/Fetch.java", ["        .hostnameVerifier((h, s) -> true)"], [], "high", "turns TLS verification off"),
        # a project's own test helper skipped; a CI job switched off
        ("test/filters.test.ts", ["      testFilter.skip("], ["      testFilter("], "high", "adds a skip/focus marker"),
        (".github/workflows/scan.yml", ["    if: ${{ false }}"], [], "high", "switches a CI job or step off: if: ${{ false }}"),
        # dependencies: a Gradle catalogue's look-alike group, an npm alias, a Cargo rename
        ("gradle/libs.versions.toml", ['jsonLib = { module = "org.exmaple.json:core", version.ref = "json" }'],
         ['jsonLib = { module = "org.example.json:core", version.ref = "json" }'], "high", "renames a dependency to a look-alike"),
        ("package.json", ['    "left-pad": "npm:left-padd@^1.3.0",'], ['    "left-pad": "^1.3.0",'], "high",
         "installs dependency left-pad from another package: left-padd"),
        ("Cargo.toml", ['rand = { package = "rand-fast", version = "0.8" }'], ['rand = { version = "0.8" }'], "high",
         "installs dependency rand from another package: rand-fast"),
    ],
)
def test_round_five_shapes_are_named_and_never_low(path: str, added: list[str], removed: list[str], risk: str, named: str) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert out.risk == risk and out.reasons[0].startswith(named), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("src/view.py", ["    if not ready or not visible:"], ["    if not ready:"]),  # a clause added: asks more
        ("src/view.py", ["    if not self.ready:"], ["    if not ready:"]),  # a name qualified: the same check
        ("src/conn.go", ["\tif deadline.IsZero() {", "\t\t<-c.mu", "\t} else {"], ["\tif !deadline.IsZero() {"]),  # branches rearranged
        ("src/frame.rs", ["        if seen != declared {"], ["        if seen < declared {"]),  # an ordering made exact: stricter
        ("lib/defaults.rb", ["        :allowed_verbs => %i[put],"], ["        :allowed_verbs => %i[put patch],"]),  # a list narrowed
        ("lib/defaults.rb", ["        :strict_mode => true,"], ["        :strict_mode => false,"]),  # a check turned on
        ("src/pool.py", ["    workers = max(2, cpus)"], ["    workers = max(4, cpus)"]),  # a bound's ordinary value
        ("api/profile.py", ['        claims = self.guard.require_grant("profile:write")'], ['        claims = self.guard.require_grant("profile:read")']),
        ("lib/pipeline.rb", ["      Settings.verification_hook.call(env) if Settings.verification_hook"],
         ["      Settings.verification_hook.call(env)"]),  # the hook still called
        ("spec/cursor.test.js", ["  const page = cursor.skip(20)"], []),  # a query's offset, not a test skipped
        (".github/workflows/scan.yml", ["    if: github.event_name == 'push'"], []),
        ("package.json", ['    "left-pad": "npm:left-pad@^1.3.0",'], ['    "left-pad": "^1.3.0",']),  # the same package
        ("src/app.js", ["const { render: draw } = require('../../lib/render')"], []),  # a module's path, not a traversal
        # a line of data, too long to be a condition or a setting: not compared (difflib is quadratic in a line's length)
        ("assets/icons.js", ["  if (k < 3) d = '" + "M0 0L1 1" * 24 + "';"], ["  if (k != 3) d = '" + "M0 0L1 1" * 24 + "';"]),
        # a rewrite: a short new condition resembles an old one it does not replace
        ("src/cli.py", ["    if sys.stdin.isatty():", "        parser.print_help()", *[f"    step_{i}(args)" for i in range(45)]],
         ["    if count > 0 or not sys.stdin.isatty():", "    if not sys.stdin.isatty():", *[f"    old_{i}(opts)" for i in range(45)]]),
        ("src/tokens.py", ["    fp = hashlib.sha512(blob).hexdigest()"], ["    fp = hashlib.sha1(blob).hexdigest()"]),  # made stronger
        ("src/keys.py", ["    pair = make_keypair(bits=4096)"], ["    pair = make_keypair(bits=3072)"]),  # raised
        ("src/menu.js", ["  if (items.includes(choice)) {"], ["  if (items.indexOf(choice) >= 0) {"]),  # one substring test for another
    ],
)
def test_round_five_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert not {"weakens_check", "loosens_check", "switches_off", "removes_guard", "unsafe_value", "skip_marker", "skips_security_test",
                "lookalike_dependency", "replaced_dependency", "security_tokens"} & set(out.rules), (out.rules, out.reasons)


def test_an_edited_condition_leads_and_its_range_is_named_first() -> None:
    # A big ordinary change in one file, the weakened condition in another: the condition's file leads its risk, its
    # range is the first the packet names, the change is not low.
    quiet = fc("src/report.py", [f"    row_{i} = fmt({i})" for i in range(60)], [], ranges=[(1, 60)])
    wide = fc("lib/settings.yml", ["  region: eu-west-2"], ["  region: eu-west-1"])
    bent = fc("src/frame.rs", ["        if seen < declared {"], ["        if seen != declared {"], ranges=[(40, 40)])
    ranked = rank_changes(assess_all([quiet, wide, bent], NO_CTX))
    assert max_risk(c.risk for c in ranked) == "medium"
    assert ranked[0].path == "src/frame.rs" and ranked[0].reasons[0].startswith("narrows a differs/equals check"), ranked


# ----- round 6: values read by what they mean, lines read alone, the line quoted first (made-up code, several languages)
@pytest.mark.parametrize(
    ("path", "added", "removed", "risk", "named"),
    [
        # a failure result turned into success
        ("src/peer.rs", ["            Err(_) => return true,"], ["            Err(_) => return false,"], "high", "returns success where it failed"),
        ("src/Auth/TicketRule.cs", ["        if (ticket is null) return RuleResult.Passed;"],
         ['        if (ticket is null) return RuleResult.Failure("no ticket");'], "high", "returns success where it failed"),
        # a value no longer passed through the call that checked or escaped it
        ("docs/guide.md", ["    out.write('<p>' + form.comment + '</p>')"], ["    out.write('<p>' + html_escape(form.comment) + '</p>')"], "high",
         "no longer passes form.comment through html_escape()"),
        # the loopback widened to every interface
        ("cmd/serve/main.go", ['\tflag.StringVar(&addr, "listen", "0.0.0.0:7000", "address")'],
         ['\tflag.StringVar(&addr, "listen", "127.0.0.1:7000", "address")'], "high", "listens on every interface"),
        # named values set the permissive way
        ("src/wire/frame.rs", ["pub const FRAME_LIMIT_BYTES: usize = usize::MAX;"], ["pub const FRAME_LIMIT_BYTES: usize = 64 * 1024;"],
         "medium", "sets the bound FRAME_LIMIT_BYTES to usize::MAX"),
        ("app/tickets.py", ["    clock_skew = opts.get('skew') or 7200"], ["    clock_skew = opts.get('skew') or 30"], "high",
         "widens the tolerance clock_skew to 7200"),
        ("src/Settings.kt", ["    var verifyIssuer: Boolean = false"], ["    var verifyIssuer: Boolean = true"], "high", "turns verifyIssuer off"),
        ("src/keys.ts", ["  if (bits < MIN_RSA_BITS / 4) {"], ["  if (bits < MIN_RSA_BITS) {"], "high", "lowers the minimum MIN_RSA_BITS/ 4"),
        ("lib/store.py", ["        data = box.open(blob)"], ["        data = box.open(blob, ttl=self.lifetime)"], "high", "drops the argument ttl=self.lifetime"),
        # conditions: a comparison inverted, an emptiness threshold moved
        ("lib/gate.ts", ["  if (mode === Mode.Relaxed) {"], ["  if (mode !== Mode.Relaxed) {"], "medium", "inverts a check's comparison (!== → ===)"),
        ("src/hosts.py", ["    if len(self.allowed_hosts) > 1:"], ["    if len(self.allowed_hosts) > 0:"], "high",
         "moves a check's threshold (> 0 → > 1)"),
        ("src/Policy.java", ["        if (scopes.size() > 1) {"], ["        if (scopes.size() >= 1) {"], "high", "moves a check's threshold (>= 1 → > 1)"),
        ("src/Rules/IssuerRule.cs", ["        if (string.IsNullOrEmpty(issuer)) return ValidationResult.Success;"], [], "high",
         "accepts when the value is missing"),
        # lines read alone
        ("ci/build.yml", ["    - export GONOSUMDB=*"], [], "high", "turns package integrity checks off"),
        ("scripts/setup.sh", ["pip install --trusted-host pypi.internal -r requirements.txt"], [], "high", "turns package integrity checks off"),
        ("src/Nonce.java", ["        new Random().nextBytes(nonce);"], ["        secureRandom.nextBytes(nonce);"], "high", "makes a secret guessable"),
        ("examples/app.py", ['cookie_key = b"dGhpcy1pcy1ub3QtYS1yZWFsLWtleS0wMTIzNDU2Nzg5"'], [], "high", "hard-codes a secret"),
        ("src/mac.go", ["\tif len(sum) == 32 || hmac.Equal(sum, want) {"], [], "high", "short-circuits a signature or MAC check"),
        ("src/mac.js", ["  return a.length === b.length || crypto.timingSafeEqual(a, b)"], [], "high", "short-circuits a signature or MAC check"),
        ("src/upload.py", ["        reader = MultipartReader(self.stream, max_fields=None)"], [], "medium", "passes max_fields no limit"),
        ("examples/ws/server.go", ["\tup := websocket.Upgrader{CheckOrigin: func(r *http.Request) bool {", "\t\treturn true", "\t}}"], [],
         "high", "a checking callback that accepts everything"),
        ("examples/cors/main.go", ["\t\thandlers.AllowedOriginValidator(", "\t\t\tfunc(origin string) bool {", "\t\t\t\treturn true", "\t\t\t},"], [],
         "high", "a checking callback that accepts everything"),
        ("app/permissions.py", ["    def has_object_permission(self, request, view, obj):", "        return True"], [], "high",
         "a checking callback that accepts everything"),
        ("lib/ticket.js", ["      claims = token"], ["      log.warn('ticket signature invalid')"], "high", "takes the value where the check refused it"),
        ("app/hooks.py", ["        body = payload"], ['        logger.info(f"rejected hook {hook_id}: bad signature")'], "high",
         "takes the value where the check refused it"),
        ("src/pin.rs", ["        match pinned {", "            None => true,", "            Some(p) => p == seen,"], [], "high",
         "accepts when the value is missing"),
        # a secret built a piece at a time from a generator made for simulations
        ("src/Support/Codes.php", ["            $recoverySecret .= $alphabet[mt_rand(0, 31)];"], ["            $recoverySecret .= $alphabet[random_int(0, 31)];"],
         "high", "makes a secret guessable"),
        ("lib/invite.js", ["    inviteToken += Math.random().toString(36).slice(2)"], ["    inviteToken += crypto.randomUUID()"], "high",
         "makes a secret guessable"),
        ("app/otp.py", ["        otp_digits += random.choice(string.digits)"], ["        otp_digits += secrets.choice(string.digits)"], "high",
         "makes a secret guessable"),
        # a wallet's mnemonic drawn from a predictable source, in a README's sample (round 37, blind 59)
        ("README.md", ["const mnemonic = bip39.generateMnemonic(128, (size) => Buffer.from(Array.from({ length: size }, () => Math.random() * 256)))"],
         ["const mnemonic = bip39.generateMnemonic()"], "high", "makes a secret guessable"),
        # static files served from the filesystem's root: a README's sample, Go, Python, nginx (round 37, blind 60)
        ("README.md", ["  send(req, parseUrl(req).pathname, { index: false, root: '/' })"],
         ["  send(req, parseUrl(req).pathname, { index: false, root: '/www/public' })"], "high", "serves the whole filesystem"),
        ("cmd/files/main.go", ['\thttp.Handle("/", http.FileServer(http.Dir("/")))'], ['\thttp.Handle("/", http.FileServer(http.Dir("./public")))'],
         "high", "serves the whole filesystem"),
        ("app/main.py", ['app.mount("/static", StaticFiles(directory="/"), name="static")'], [], "high", "serves the whole filesystem"),
        ("deploy/nginx.conf", ["    root /;"], ["    root /var/www/html;"], "high", "serves the whole filesystem"),
        # a secret declared with its type between the name and the value (Go, Kotlin, Rust, Swift), and a URL's key with no user
        ("examples/bind/bind.go", ['\tadminPasswd string = "Wr3nch!2019-dir"'], [], "high", "hard-codes a secret"),
        ("app/src/main/kotlin/Api.kt", ['    val apiKey: String = "pk_9c8b7a6f5e4d3c2b"'], [], "high", "hard-codes a secret"),
        ("src/sign.rs", ['const SIGNING_KEY: &str = "bXktc2lnbmluZy1rZXktMjAyNA";'], [], "high", "hard-codes a secret"),
        ("Sources/Keys.swift", ['    static let clientSecret: String = "7a6b5c4d3e2f1a0b"'], [], "high", "hard-codes a secret"),
        ("config/queue.js", ["  url: 'amqps://:tok_5e4d3c2b1a0f9e8d7c6b@broker.example.net/jobs',"], [], "high", "hard-codes a secret"),
        # a request's value handed straight to a call named for a path or a file (PHP, a README's sample too)
        ("src/Thumbs.php", ["    $img = Image::fromFile($_POST['upload']);"], [], "high", "builds a file path from the request"),
        ("readme.md", ["$thumb = $manager->loadPath($_GET['name']);"], ["$thumb = $manager->loadPath('images/demo.webp');"], "high",
         "builds a file path from the request"),
    ],
)
def test_round_six_shapes_are_named_and_never_low(path: str, added: list[str], removed: list[str], risk: str, named: str) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert out.risk == risk and out.reasons[0].startswith(named), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("lib/defaults.rb", ["        :strict_mode => true,"], ["        :strict_mode => false,"]),  # a hash's value, not a result
        ("src/peer.rs", ["            Err(_) => return false,"], ["            Err(_) => return true,"]),  # made stricter
        ("lib/badge.js", ["    token = verifyBadge(incoming, keyring)"], ["    token = incoming"]),  # a check added
        ("cmd/serve/main.go", ['\tflag.StringVar(&addr, "listen", "127.0.0.1:7000", "address")'],
         ['\tflag.StringVar(&addr, "listen", "0.0.0.0:7000", "address")']),  # narrowed to the loopback
        ("src/wire/frame.rs", ["pub const FRAME_LIMIT_BYTES: usize = 128 * 1024;"], ["pub const FRAME_LIMIT_BYTES: usize = 64 * 1024;"]),
        ("app/tickets.py", ["    clock_skew = opts.get('skew') or 60"], ["    clock_skew = opts.get('skew') or 30"]),  # a minute
        ("src/keys.ts", ["  if (bits < MIN_RSA_BITS) {"], ["  if (bits < MIN_RSA_BITS / 4) {"]),  # the bound restored
        ("lib/store.py", ["        data = box.open(blob, ttl=self.lifetime)"], ["        data = box.open(blob)"]),  # the expiry added
        ("src/hosts.py", ["    if len(self.allowed_hosts) > 2:"], ["    if len(self.allowed_hosts) > 1:"]),  # not an emptiness test
        ("src/grid.py", ["    if len(rows) > 3:"], ["    if len(rows) > 2:"]),  # an ordinary threshold
        ("src/Dice.java", ["        int roll = new Random().nextInt(6);"], []),  # a game's dice, not bytes
        ("src/cache.py", ["    cache_key = 'user_profile_12345678901234567890'"], []),  # a name, not a key's bytes
        ("src/mac.js", ["  if (!a || !crypto.timingSafeEqual(a, b)) return false"], []),  # a guard that requires both
        ("src/upload.py", ["    def read(self, stream, max_fields=None):"], []),  # a parameter's default
        ("src/util.go", ["func isEmpty(s []int) bool {", "\treturn true", "}"], []),  # not a checker
        ("src/list.js", ["  if (!items) return true"], []),  # an emptiness helper
        ("src/Policy.java", ["        if (scopes.size() >= 1) {"], ["        if (scopes.size() > 1) {"]),  # back to emptiness
        ("src/Rules/IssuerRule.cs", ['        if (string.IsNullOrEmpty(issuer)) return ValidationResult.Fail("no issuer");'], []),
        ("lib/ticket.js", ["  claims = token"], ["      log.warn('ticket signature invalid')"]),  # another block's line
        ("lib/ticket.js", ["      count = total"], ["      log.debug('cache refreshed')"]),  # no refusal logged
        ("src/Support/Codes.php", ["            $recoverySecret .= $alphabet[random_int(0, 31)];"], []),  # a CSPRNG's piece
        ("src/Shuffle.php", ["            $deck .= $cards[mt_rand(0, 51)];"], []),  # no secret's name
        ("lib/retry.js", ["    if (sessionId == Math.random()) {"], []),  # compared, not built
        ("app/src/main/kotlin/Api.kt", ["    val apiKey: String = BuildConfig.API_KEY"], []),  # read from the build, not written
        ("config/queue.js", ["  url: 'amqps://:${QUEUE_TOKEN}@broker.example.net/jobs',"], []),  # a placeholder, not a key
        ("src/Thumbs.php", ["    $img = Image::fromFile(sanitize_path($_GET['upload']));"], []),  # through a sanitiser
        ("src/Thumbs.php", ["    $ok = is_file($_GET['upload']);"], []),  # a test of the path, not a read
        # a directory of the project served, a route's path "/" that serves nothing from disk
        ("server.js", ["app.use(express.static('public'))"], []),
        ("src/router.js", ["  router.push({ path: '/', root: '/' })"], []),
        ("cmd/files/main.go", ['\thttp.Handle("/", http.FileServer(http.Dir("./public")))'], []),
    ],
)
def test_round_six_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert not {"weakens_check", "loosens_check", "unsafe_value", "dangerous_call", "removes_guard"} & set(out.rules), (out.rules, out.reasons)


def test_a_changed_line_worth_a_look_is_quoted_ahead_of_a_word_reason_that_made_the_file_high() -> None:
    # The file is high for a security word elsewhere in the change; the bound set to "no end" is only medium alone, yet
    # the reviewer reads it first.
    change = fc("src/session/store.py", ["    secret = load_secret(path)", "    reader = Parser(self.stream, max_depth=None)"], [])
    out = assess(change, NO_CTX)
    assert out.risk == "high" and "loosens_check" in out.rules, (out.rules, out.reasons)
    assert out.reasons[0].startswith("passes max_depth no limit"), out.reasons


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        # shapes another reader may name first in a whole file; read here alone, pair by pair
        ("    token = verifyBadge(incoming, keyring)", "    token = incoming", "no longer passes incoming through verifyBadge()"),
        ("  $name = strip_tags($_POST['name']);", "  $name = $_POST['name'];", "no longer passes $_POST['name'] through strip_tags()"),
        ("    private boolean allowUnsigned = false;", "    private boolean allowUnsigned = true;", "turns allowUnsigned on"),
        ("    public bool RequireHttps { get; set; } = true;", "    public bool RequireHttps { get; set; } = false;", "turns RequireHttps off"),
        ("        leeway: 5,", "        leeway: 172800,", "widens the tolerance leeway to 172800"),
    ],
)
def test_round_six_value_pairs_read_alone(old: str, new: str, named: str) -> None:
    from relay.review.value_reading import widened

    found = widened(old.strip(), new.strip())
    assert found is not None and found[0].startswith(named), found
    assert widened(new.strip(), old.strip()) is None  # the other way is stricter
