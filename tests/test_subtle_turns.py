"""Round 17 part A (issue 36): subtle weakenings with no security word on the line, in several ecosystems' spelling, and
the ordinary look-alikes that stay quiet (relay.review.subtle_turns, read through edit_direction.judged)."""

from __future__ import annotations

import pytest

from relay.review.edit_direction import judged
from relay.review.subtle_turns import subtle_turned


@pytest.mark.parametrize("path, removed, added", [
    ("wallet/wallet.go", ["\tw.mu.Lock()", "\tdefer w.mu.Unlock()"], []),
    ("app/quota.py", ["        with self._lock:", "            if self.used + n > self.limit:"], ["        if self.used + n > self.limit:"]),
    ("src/Account.java", ["    public synchronized void withdraw(long amount) {"], ["    public void withdraw(long amount) {"]),
    ("src/pool.rs", ["        let _guard = self.lock.lock().unwrap();"], []),
    ("src/Stock.cs", ["            lock (_sync)", "            {"], []),
    ("lib/limiter.rb", ["    @mutex.synchronize do", "    end"], []),
])
def test_a_lock_dropped_around_a_check_is_named(path, removed, added):
    found = judged(path, added, removed)
    assert found is not None and not found[1] and found[0].startswith("removes a lock")


@pytest.mark.parametrize("path, removed, added", [
    ("cache/cache.go", ["\tdefer c.mu.RUnlock()"], ["\tv, ok := c.items[k]", "\tc.mu.RUnlock()"]),  # unlocked earlier, still locked
    ("app/counter.py", ["        with self._lock:"], ["        with self._locked():"]),  # the lock behind a helper
    ("src/Account.java", ["    public synchronized void withdraw(long amount) {"], ["    public synchronized void withdraw(long cents) {"]),
])
def test_a_lock_kept_moved_or_renamed_stays_quiet(path, removed, added):
    assert subtle_turned(path, added, removed) is None


@pytest.mark.parametrize("path, removed, added", [
    ("app/auth.py", ["        raise Unauthorized()"], ["        return {}"]),
    ("app/controllers/api_controller.rb", ["    head :unauthorized"], ["    nil"]),
    ("src/Auth/Handler.cs", ["                return Task.FromResult(AuthenticateResult.Fail(ex));"],
     ["                return Task.FromResult(AuthenticateResult.NoResult());"]),
    ("src/auth.rs", ["    let claims = decode(token, key).map_err(|_| AuthError::Invalid)?;"], ["    let claims = decode(token, key).unwrap_or_default();"]),
    ("src/Middleware/RequireToken.php", ["            abort(401);"], ["            $this->logger->warning('bad token');"]),
    ("src/origin.js", ["    return false;"], ["    return true;"]),  # a predicate's no made yes
])
def test_an_error_path_that_stops_rejecting_fails_open(path, removed, added):
    found = subtle_turned(path, added, removed)
    assert found is not None and found[0].startswith("fails open (the error swallowed")


@pytest.mark.parametrize("path, removed, added", [
    ("app/errors.py", ["        raise PermissionError('login required')"], ["        raise PermissionError('you must log in first')"]),
    ("src/guard.js", ["  if (!req.user) return res.status(401).send('login required');"], ["  if (!req.user) return res.sendStatus(401);"]),
    ("app/log.py", ["    logger.error('bad row %s', row)"], ["    logger.warning('bad row %s', row)"]),
    ("store/load.go", ["\t\treturn nil, err"], ["\t\treturn nil, fmt.Errorf(\"load %s: %w\", path, err)"]),
    # Round 41: a predicate's no rewritten as a computed answer, or made a condition (ordinary history's false findings).
    ("src/bcrypt.js", ["    return false;"], ["    return diff === 0;"]),
    ("lib/url-state-machine.js", ["    return false;"], ['    if (last !== "" && last.length > 0) {']),
    ("claims.go", ["\treturn false"], ["\tresult := false"]),
])
def test_a_rejection_reworded_stays_quiet(path, removed, added):
    assert subtle_turned(path, added, removed) is None


@pytest.mark.parametrize("path, removed, added", [
    ("app/validators.py", ["NAME = re.compile(r'^[a-z0-9-]{1,63}$')"], ["NAME = re.compile(r'[a-z0-9-]{1,63}')"]),
    ("internal/validate/name.go", ["var repoName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)"], ["var repoName = regexp.MustCompile(`[A-Za-z0-9_.-]+`)"]),
    ("app/models/user.rb", ["  validates :username, format: { with: /\\A[a-z0-9_]+\\z/ }"], ["  validates :username, format: { with: /^[a-z0-9_]+$/ }"]),
    ("src/Redirects.java", ["        return SAFE.matcher(target).matches();"], ["        return SAFE.matcher(target).find();"]),
    ("src/Hosts.kt", ["fun allowed(host: String): Boolean = HOST.matches(host)"], ["fun allowed(host: String): Boolean = HOST.containsMatchIn(host)"]),
])
def test_anchors_dropped_together_loosen_a_match(path, removed, added):
    found = judged(path, added, removed)
    assert found is not None and "loosens an anchored match" in found[0]


def test_a_pattern_widened_inside_its_anchors_stays_quiet():
    assert subtle_turned("app/slugs.py", ["SLUG = re.compile(r'^[a-z0-9]+$')"], ["SLUG = re.compile(r'^[a-z]+$')"]) is None  # (added, removed)


@pytest.mark.parametrize("path, removed, added", [
    ("config/runtime.exs", ["  http: [ip: {127, 0, 0, 1}, port: 4000],"], ["  http: [ip: {0, 0, 0, 0}, port: 4000],"]),
    ("docker-compose.yml", ['      - "127.0.0.1:5432:5432"'], ['      - "5432:5432"']),
    ("compose.yaml", ["      - 127.0.0.1:6379:6379"], ["      - 6379:6379"]),
])
def test_a_loopback_listener_made_every_interface_is_high(path, removed, added):
    found = subtle_turned(path, added, removed)
    assert found is not None and found[1] and "every interface" in found[0]


def test_a_port_changed_on_the_loopback_stays_quiet():
    assert subtle_turned("docker-compose.yml", ['      - "127.0.0.1:5432:5432"'], ['      - "127.0.0.1:5433:5432"']) is None
    assert subtle_turned("config/runtime.exs", ["  http: [ip: {127, 0, 0, 1}, port: 4000],"], ["  http: [ip: {127, 0, 0, 1}, port: 4001],"]) is None


@pytest.mark.parametrize("path, removed, added", [
    ("src/Keys.java", ["        gen.initialize(3072);"], ["        gen.initialize(512);"]),
    ("pki/keys.go", ["\treturn rsa.GenerateKey(rand.Reader, 4096)"], ["\treturn rsa.GenerateKey(rand.Reader, 1024)"]),
])
def test_a_key_size_lowered_below_2048_bits_is_high(path, removed, added):
    found = subtle_turned(path, added, removed)
    assert found is not None and found[1] and found[0].startswith("lowers a key size")


def test_a_key_size_raised_or_an_unrelated_number_stays_quiet():
    assert subtle_turned("src/Keys.java", ["        gen.initialize(4096);"], ["        gen.initialize(2048);"]) is None
    assert subtle_turned("app/page.py", ["    bits = 1024"], ["    bits = 4096"]) is None


@pytest.mark.parametrize("path, removed, added", [
    ("session/cookie.go", ["\t\tSameSite: http.SameSiteStrictMode,"], ["\t\tSameSite: http.SameSiteNoneMode,"]),
    ("src/session.js", ["  cookie: { httpOnly: true, sameSite: 'strict' },"], ["  cookie: { httpOnly: true, sameSite: 'none' },"]),
    ("config/initializers/cookies.rb", ["config.action_dispatch.cookies_same_site_protection = :lax"],
     ["config.action_dispatch.cookies_same_site_protection = :none"]),
    ("Startup.cs", ["    options.Cookie.SameSite = SameSiteMode.Strict;"], ["    options.Cookie.SameSite = SameSiteMode.None;"]),
])
def test_a_cookies_same_site_weakened_is_named(path, removed, added):
    found = subtle_turned(path, added, removed)
    assert found is not None and "SameSite" in found[0]


def test_a_same_site_made_stricter_stays_quiet():
    assert subtle_turned("src/session.js", ["  cookie: { sameSite: 'strict' },"], ["  cookie: { sameSite: 'lax' },"]) is None


@pytest.mark.parametrize("path, removed, added", [
    ("app/controllers/sessions_controller.rb", ['    Rails.logger.info("login #{params[:email]}")'], ['    Rails.logger.info("login #{params.inspect}")']),
    ("src/routes/login.js", ["  logger.info('login attempt');"], ["  logger.info('login attempt', req.body);"]),
    ("src/LoginController.php", ["        $this->logger->info('login attempt');"], ["        $this->logger->info('login attempt', $_POST);"]),
])
def test_a_requests_whole_parameters_written_to_a_log_are_named(path, removed, added):
    found = subtle_turned(path, added, removed)
    assert found is not None and "to a log" in found[0]


def test_a_log_line_without_the_request_stays_quiet():
    assert subtle_turned("app/export.py", ["    log.info('exporting %d rows', len(rows))", "    return write_csv(rows)"], ["    return write_csv(rows)"]) is None
    assert subtle_turned("src/app.js", ["  logger.info('params parsed');"], []) is None


@pytest.mark.parametrize("path, removed, added", [
    ("Sources/App/RateLimiter.swift", ["        return attempts < maxAttempts"], ["        return attempts > maxAttempts"]),
    ("app/policies/post_policy.rb", ["    return false unless record.user_id == user.id"], ["    return false unless record.user_id != user.id"]),
    ("src/Lockout.java", ["        return failures >= MAX_FAILURES;"], ["        return failures <= MAX_FAILURES;"]),
])
def test_a_comparison_turned_to_its_opposite_is_named(path, removed, added):
    found = judged(path, added, removed)
    assert found is not None and "inverts a comparison" in found[0]


def test_a_comparison_rewritten_the_same_way_round_stays_quiet():
    assert subtle_turned("app/sizes.py", ["    if b > a:"], ["    if a < b:"]) is None
    assert subtle_turned("app/sizes.py", ["    if a <= b:"], ["    if a < b:"]) is None


@pytest.mark.parametrize("path, removed, added", [
    ("auth/token.go", ["\t\tExpiresAt: time.Now().Add(15 * time.Minute),"], ["\t\tExpiresAt: time.Now().Add(87600 * time.Hour),"]),
    ("src/TokenService.cs", ["            Expires = DateTime.UtcNow.Add(TimeSpan.FromMinutes(15)),"],
     ["            Expires = DateTime.UtcNow.Add(TimeSpan.FromDays(3650)),"]),
    ("src/Jwt.kt", ["val ACCESS_TOKEN_VALIDITY: Duration = Duration.ofMinutes(15)"], ["val ACCESS_TOKEN_VALIDITY: Duration = Duration.ofDays(3650)"]),
])
def test_a_lifetime_written_as_a_duration_made_far_longer_is_named(path, removed, added):
    found = judged(path, added, removed)
    assert found is not None and "far longer" in found[0]


def test_a_lifetime_shortened_or_a_plain_wait_lengthened_stays_quiet():
    assert subtle_turned("auth/refresh.go", ["const refreshTTL = 12 * time.Hour"], ["const refreshTTL = 24 * time.Hour"]) is None
    assert subtle_turned("jobs/poll.go", ["\ttime.Sleep(500 * time.Hour)"], ["\ttime.Sleep(5 * time.Second)"]) is None


def test_a_docs_sample_is_left_to_the_other_readers():
    assert subtle_turned("README.md", [], ["\tw.mu.Lock()"], sample=True) is None


def test_a_judged_edit_worth_a_look_ranks_with_files_high_for_their_path_words_alone():
    # authboss 3a5c333 (held-out 20): the lock window's comparison, named by weakens_more (which silences the edit-apart
    # quote), fell from 1st to 5th behind files high for "auth" in their path; a risky line read sets its file apart.
    from relay.core.records import FileChange
    from relay.review.risk import rank_changes

    words = [FileChange(path=f"{name}/{name}.go", risk="high", reasons=[f"security-sensitive path ({name})"], rules=["auth_path"],
                        additions=40, deletions=10) for name in ("auth", "logout", "oauth2")]
    judged_edit = FileChange(path="lock/lock.go", risk="medium", additions=1, deletions=1, rules=["weakens_more"],
                             reasons=["inverts a comparison (<= → >=: the check now passes what it refused): …"])
    assert rank_changes([*words, judged_edit])[0].path == "lock/lock.go"


@pytest.mark.parametrize("path, removed, added", [
    ("src/Storage/LocalDisk.php", ["        if ($full === false || strpos($full, $this->root . DIRECTORY_SEPARATOR) !== 0) {"],
     ["        if ($full === false || strpos($full, $this->root) !== 0) {"]),
    ("lib/static.js", ["  if (!resolved.startsWith(root + path.sep)) {"], ["  if (!resolved.startsWith(root)) {"]),
    ("internal/archive/extract.go", ["\tif !strings.HasPrefix(target, filepath.Clean(dest)+string(os.PathSeparator)) {"],
     ["\tif !strings.HasPrefix(target, filepath.Clean(dest)) {"]),
    ("app/files.py", ["    if not path.startswith(ROOT + os.sep):"], ["    if not path.startswith(ROOT):"]),
    ("src/Paths.java", ["        if (!target.getCanonicalPath().startsWith(root.getCanonicalPath() + File.separator)) {"],
     ["        if (!target.getCanonicalPath().startsWith(root.getCanonicalPath())) {"]),
])
def test_the_separator_dropped_from_a_containment_check_is_named(path, removed, added):
    found = subtle_turned(path, added, removed)
    assert found is not None and found[0].startswith("drops the separator from a path containment check")


def test_a_separator_added_or_a_prefix_check_reworded_stays_quiet():
    assert subtle_turned("lib/static.js", ["  if (!resolved.startsWith(root + path.sep)) {"], ["  if (!resolved.startsWith(root)) {"]) is None
    assert subtle_turned("lib/static.js", ["  if (!full.startsWith(base + path.sep)) {"], ["  if (!resolved.startsWith(root + path.sep)) {"]) is None


def test_a_lifetime_key_raised_in_a_settings_file_is_named_and_a_small_raise_is_not():
    found = subtle_turned("config/app.yml", ["  ttl: 31536000"], ["  ttl: 900"])
    assert found is not None and "far longer" in found[0]
    assert subtle_turned("config/app.yml", ["  ttl: 1800"], ["  ttl: 900"]) is None
    assert subtle_turned("src/cache.py", ["  ttl = 31536000"], ["  ttl = 900"]) is None  # code: edit_direction's lifetime reader


def test_a_tls_floor_lowered_in_a_docs_sample_is_high_and_a_new_sample_is_not():
    from relay.review.setting_turns import setting_turned

    found = setting_turned("docs/client.md", ["ctx.minimum_version = ssl.TLSVersion.TLSv1"], ["ctx.minimum_version = ssl.TLSVersion.TLSv1_2"], sample=True)
    assert found is not None and found[1] and found[0].startswith("lowers the TLS floor")
    assert setting_turned("docs/client.md", ["ctx.minimum_version = ssl.TLSVersion.TLSv1"], [], sample=True) is None


def test_a_settings_files_lifetime_and_published_port_lines_are_read_by_the_rules():
    # A settings or build file keeps only the lines a screen passes: without these two, ``ttl: 31536000`` and a compose
    # port that lost its 127.0.0.1 never reached the readers ("edit (+1/-1)", "build configuration").
    from relay.core.records import FileChange
    from relay.review.file_kinds import read_changes

    changes = [FileChange(path="config/app.yml", additions=1, deletions=1, removed_lines=["  ttl: 900"], added_lines=["  ttl: 31536000"]),
               FileChange(path="docker-compose.yml", additions=1, deletions=1, removed_lines=['      - "127.0.0.1:5432:5432"'],
                          added_lines=['      - "5432:5432"']),
               FileChange(path="config/app.yml", additions=1, removed_lines=[], added_lines=["  title: Accounts"])]
    read, _ = read_changes(changes)
    assert [r.added_lines for r in read] == [["  ttl: 31536000"], ['      - "5432:5432"'], []]
