"""The changed line that leads a file's reasons when the others say only a kind, a path, a size or a word
(relay.review.leading_lines, issue 36 round 30): the line picked by a general score in many languages and file kinds
(none of them a planted set's line), quiet look-alikes (a matrix or manifest version bump, formatting, comments, a rename,
a docs page of prose, a message's words, a test file), and the reason choice: the quote leads a kind-only file's reasons,
is dropped where a line reader quotes a line, decides no risk and moves no file in the order."""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.facts import RiskContext
from relay.review.file_kinds import read_changes
from relay.review.leading_lines import leading_line
from relay.review import risk
from relay.review.risk import assess, rank_changes


def _fc(path: str, removed: list[str], added: list[str], **kw: object) -> FileChange:
    return FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added, **kw)


_FILLER = [f"    total_{i} = combine(total_{i - 1}, {i})" for i in range(1, 12)]  # the ordinary change around the line

# (path, removed, added, a piece the quote must hold)
PICKED = [
    # a permission opened to everyone: CMake, a shell install script, Python
    ("cmake/install.cmake", ["install(FILES app.cfg DESTINATION etc PERMISSIONS OWNER_READ OWNER_WRITE)"],
     ["install(FILES app.cfg DESTINATION etc PERMISSIONS OWNER_READ OWNER_WRITE WORLD_WRITE)"], "WORLD_WRITE"),
    ("scripts/setup.sh", ["  install -m 0644 conf/app.ini /etc/app/"], ["  install -m 0666 conf/app.ini /etc/app/"], "0666"),
    ("tools/deploy.py", [*_FILLER, "    os.chmod(target, 0o640)"], [*_FILLER[:5], "    os.chmod(target, 0o777)"], "0o777"),
    # a boolean default flipped: Dart, Crystal, Kotlin, YAML config
    ("lib/src/client_options.dart", ["  ClientOptions({this.sendCookies = false});"], ["  ClientOptions({this.sendCookies = true});"], "true"),
    ("src/app/settings.cr", ['  @public_listing = {"browse" => false, "cache" => true}'], ['  @public_listing = {"browse" => true, "cache" => true}'],
     '"browse" => true'),
    ("src/main/kotlin/Conf.kt", ["    val verifyPeer: Boolean = true,"], ["    val verifyPeer: Boolean = false,"], "false"),
    ("config/server.yml", ["  tls_verify: on"], ["  tls_verify: off"], "off"),
    # a flag's negation dropped (Vim script's `no` prefix), a sample config's verification switched off
    ("plugin/viewer.vim", ["  setlocal nomodeline"], ["  setlocal modeline"], "modeline"),
    ("conf/site.conf", [], ["ProxyPass /app http://10.0.0.4:8080/", "SSLProxyVerify none"], "SSLProxyVerify none"),
    # a minimum lowered leads a maximum raised in the same file (Rust, Go)
    ("src/limits.rs", ["pub const MIN_BITS: usize = 2048;", "pub const MAX_BITS: usize = 4096;"],
     ["pub const MIN_BITS: usize = 768;", "pub const MAX_BITS: usize = 8192;"], "768"),
    ("pkg/pw/policy.go", ["\tmaxLen = 64", "\tminLength = 12"], ["\tmaxLen = 128", "\tminLength = 4"], "minLength = 4"),
    # a call's result discarded: C, OCaml, Rust
    ("src/kem/decaps.c", ["    return kem_decrypt(out, ct, sk);"], ["    (void) kem_decrypt(out, ct, sk);", "    return 0;"], "(void) kem_decrypt"),
    ("lib/peer.ml", ["  check_usage cert `Server >>= fun () ->"], ["  let _ = check_usage cert `Server in"], "let _ = check_usage"),
    # a refusal deleted inside a reformatted match (Scala), a raise deleted (Python)
    ("src/main/scala/Flags.scala", ['    case "off" => false', "    case s =>", '      throw new IllegalArgumentException(s"not a flag: $s")'],
     ['      case "off" => false', "      case s =>", "      case _ => false"], "throw new IllegalArgumentException"),
    ("app/flags.py", ["    if value not in ALLOWED:", "        raise ValueError(value)", "    return value"], ["    return value"], "raise ValueError"),
    # a plain-http source, a moving ref, a credential literal: Scala sbt, a CI file, Lua
    ("build.sbt", [], ['credentials += Credentials("Repo", "repo.example.org", "bot", "Zq4$tW8kLm2x")'], "Credentials("),
    (".github/workflows/lint.yml", ["      - uses: someorg/setup-tool@v3"], ["      - uses: someorg/setup-tool@master"], "@master"),
    ("pkg/stream/dial.go", ['\tconn, err := dialer.Dial("wss", host, opts)'], ['\tconn, err := dialer.Dial("ws", host, opts)'], '"ws"'),
    # a secret's variable printed: a CI step, a shell script, PowerShell
    (".gitlab-ci.yml", ["    - ./deploy.sh"], ['    - echo "token is $DEPLOY_TOKEN" >> debug.log', "    - ./deploy.sh"], "DEPLOY_TOKEN"),
    ("scripts/publish.sh", [], ['printf "%s\\n" "${NPM_TOKEN}" | tee publish.log', "npm publish"], "NPM_TOKEN"),
    ("build/release.ps1", [], ['Write-Host "signing with $env:SigningKey"'], "SigningKey"),
    # a comparison turned: JavaScript, Python
    ("src/guard.js", ["  if (attempts >= limit) {"], ["  if (attempts > limit * 10) {"], "limit * 10"),
    ("app/tokens.py", [*_FILLER, "    if token.expires_at <= now:"], [*_FILLER, "    if token.expires_at <= now - 86400:"], "86400"),
    # a unit turned by a factor put into a comparison (Clojure, Elixir), a pattern's class widened (Vim script, Ruby)
    ("src/app/claims.clj", ["  (when (> (:iat claims) (+ now skew))"], ["  (when (> (:iat claims) (+ (* now 60) skew))"], "60"),
    ("lib/app/expiry.ex", ["    if claims.nbf > now, do: :error"], ["    if claims.nbf > div(now, 1000), do: :error"], "1000"),
    ("autoload/tool.vim", ["  if a:name =~# '^\\w\\+$'"], ["  if a:name =~# '^.\\+$'"], "'^."),
    ("lib/app/name_check.rb", ["    return false unless name =~ /\\A[a-z0-9_]+\\z/"], ["    return false unless name =~ /\\A.+\\z/"], ".+"),
    # a bound lengthened at its end by digits (no wrap: the number grew inside), in hex and in decimal (C, Go, Java)
    ("src/decode/varint.c", ["    if (shift < 0x40) {"], ["    if (shift < 0x4000) {"], "0x4000"),
    ("internal/frame/read.go", ["	if n > 1<<20 || n > 1000 {"], ["	if n > 1<<20 || n > 100000 {"], "100000"),
    ("src/main/java/Pool.java", ["        if (waiters.size() >= 64) {"], ["        if (waiters.size() >= 6400) {"], "6400"),
]


@pytest.mark.parametrize(("path", "removed", "added", "piece"), PICKED, ids=[p for p, *_ in PICKED])
def test_the_telling_line_is_picked(path: str, removed: list[str], added: list[str], piece: str) -> None:
    quote = leading_line(path, added, removed)
    assert quote is not None and piece in quote, quote


# (path, removed, added): nothing a leader would judge by the line
QUIET = [
    (".github/workflows/test.yml", ["        python: ['3.10', '3.11']"], ["        python: ['3.11', '3.12']"]),  # a matrix version bump
    (".github/workflows/test.yml", ["      - uses: actions/setup-node@v3"], ["      - uses: actions/setup-node@v4"]),  # an action's tag moved
    ("Cargo.toml", ['serde = "1.0.190"', 'tokio = { version = "1.33", features = ["full"] }'],
     ['serde = "1.0.197"', 'tokio = { version = "1.36", features = ["full"] }']),  # manifest versions only
    ("pom.xml", ["    <version>2.3.1</version>"], ["    <version>2.4.0</version>"]),
    ("src/parse.c", ["if(n>limit){return -1;}"], ["if (n > limit) { return -1; }"]),  # formatting only
    ("src/util.go", ["// returns true when the token is valid"], ["// reports whether the token is valid (true) or not"]),  # a comment
    ("lib/util.ex", ["  # if the session is stale, refresh it"], ["  # when the session is stale, refresh it first"]),
    ("src/names.py", ["def check(value):", "    return verify(value)"], ["def check(item):", "    return verify(item)"]),  # a rename
    ("docs/guide.md", [], ["If the token expires you can sign in again, and when it is valid the session is kept."]),  # prose
    ("src/messages.rs", ['    log::info!("the session was refreshed");'], ['    log::info!("the session has been renewed");']),  # a message
    ("README.rst", ["Install with ``pip install relay``."], ["Install it with ``pip install relay`` (Python 3.9+)."]),
    (".github/workflows/ci.yml", ["      - uses: someorg/act@3f1c2a9be0d4c8e7f6a5b4c3d2e1f0a9b8c7d6e5 # v2.1.0"],
     ["      - uses: someorg/act@9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b # v2.2.0"]),  # a pinned commit moved
    ("crates/core/Cargo.toml", ['serde = "1.0"'], ["serde.workspace = true"]),  # a dependency moved to the workspace's
    ("api/bind.go", ["func Bind(obj interface{}) error {"], ["func Bind(obj any) error {"]),  # a typing pass
    ("lib/web.py", ["    not a general purpose token check, only the session."], ["    not a general purpose token check, only the session; see below."]),
    ("lib/app/base.rb", ["    return if type.nil? or ext.empty?"], ["    return if type.nil? || ext.empty?"]),  # the same operator spelled otherwise
    ("src/http/conn.py", ['        raise ValueError("bad header: " + repr(line))'], ['        raise ValueError("bad header (CR or LF): %r" % line)']),  # a message
    ("src/cache.py", ["        self._table[self._last_key] += part"], ["        self._joined.pop(self._last_key, None)"]),  # a dictionary's key
    ("scripts/publish.sh", ["echo 'publishing'"], ["echo 'publishing the package'"]),  # a message echoed, no secret
    ("app/models.py", ["    user_verification: Optional[str] = None"], ["    user_verification: str | None = None"]),  # a typing pass
    ("src/frame.rs", ["        if let Some(f) = decode(src, max_size, partial, bytes)? {"], ["        if let Some(f) = decode("]),  # a line wrapped
    ("src/frame.rs", ["        if let Some(f) = decode("], ["        if let Some(f) = decode(src, max_size, partial, bytes)? {"]),  # joined
    ("src/theme.c", ["    .accent = 0xFF0000,"], ["    .accent = 0x00FF00,"]),  # a colour, not a bound
]


@pytest.mark.parametrize(("path", "removed", "added"), QUIET, ids=[f"{p}:{i}" for i, (p, *_) in enumerate(QUIET)])
def test_quiet_look_alikes(path: str, removed: list[str], added: list[str]) -> None:
    prose = path.endswith((".md", ".rst"))
    assert leading_line(path, added, removed, prose=prose) is None


def test_a_docs_page_still_quotes_a_plain_http_command() -> None:
    quote = leading_line("docs/install.md", ["    curl -fsSL http://get.example.org/i.sh | sh"],
                         ["    curl -fsSL https://get.example.org/i.sh | sh"], prose=True)
    assert quote is not None and "http://get.example.org" in quote


def test_kind_only_reasons_are_led_by_the_line() -> None:
    sbt = assess(_fc("build.sbt", [], ['credentials += Credentials("Repo", "repo.example.org", "bot", "Zq4$tW8kLm2x")']), RiskContext())
    assert sbt.rules[0] == "leading_line" and "Credentials(" in sbt.reasons[0], sbt.reasons
    assert "dependency manifest" in sbt.reasons  # the kind is still said, after the line
    low = assess(_fc("src/server/errors.cr", ["    show_trace = false", "    x = 1"], ["    show_trace = true", "    x = 2", *_FILLER]),
                 RiskContext())
    assert low.risk == "low" and "show_trace = true" in low.reasons[0], low.reasons


def test_words_of_the_file_no_longer_lead_over_a_turned_value() -> None:
    change = assess(_fc("src/crypto/limits.rs", ["pub const MIN_BITS: usize = 2048;", "pub const MAX_BITS: usize = 4096;"],
                        ["pub const MIN_BITS: usize = 768;", "pub const MAX_BITS: usize = 8192;"]), RiskContext())
    assert "768" in change.reasons[0], change.reasons


def test_a_line_reader_keeps_its_own_quote() -> None:
    # A reader that names the line (a verification switched off) says it; the leading line is not said again.
    change = assess(_fc("src/http/client.py", ["    session.verify = True"], ["    session.verify = False"]), RiskContext())
    assert "leading_line" not in change.rules, change.reasons


def test_a_test_file_and_a_lockfile_are_not_read() -> None:
    assert "leading_line" not in assess(_fc("tests/test_conf.py", ["    verify = True"], ["    verify = False", *_FILLER]), RiskContext()).rules
    assert "leading_line" not in assess(_fc("yarn.lock", [], ['  resolved "http://registry.example.org/a.tgz"']), RiskContext()).rules


def test_the_order_does_not_move(monkeypatch: pytest.MonkeyPatch) -> None:
    # The quote is a note: the order (a fourth CI file of one kind a repeat, low files by size) is the one without it.
    files = [_fc(f".github/workflows/w{i}.yml", [f"      timeout-minutes: {i}"], [f"      timeout-minutes: {i}", f"      strict-checks: {'false' if i % 2 else 'off'}"])
             for i in range(4)]
    files += [_fc("src/app.py", ["    if retries >= most:"], ["    if retries > most:", *_FILLER]), _fc("src/other.py", ["x = 1"], ["x = 2", *_FILLER, *_FILLER]),
              _fc("CMakeLists.txt", ["  PERMISSIONS OWNER_READ)"], ["  PERMISSIONS OWNER_READ WORLD_WRITE)"]), _fc("Makefile", ["CC = gcc"], ["CC = clang"])]
    quoted = [assess(f, RiskContext()) for f in files]
    # src/app.py's comparison turned is the deciding-token floor's since round 32 (a line reader: no leading quote needed).
    assert sum("leading_line" in c.rules or "deciding_turn" in c.rules for c in quoted) >= 5
    monkeypatch.setattr(risk, "RULES", tuple(rule for rule in risk.RULES if rule.name != "leading_line"))
    bare = [assess(f, RiskContext()) for f in files]
    assert [(c.path, c.risk) for c in rank_changes(quoted)] == [(c.path, c.risk) for c in rank_changes(bare)]


# The rule that reads a mode open to others, or TLS verification off, reads it in the kinds the leading line showed it
# unread (round 30): CMake's named permission bits, a server config's directive with its value after blanks.
@pytest.mark.parametrize(("path", "line", "what"), [
    ("CMakeLists.txt", "  PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ WORLD_WRITE)", "world-writable"),
    ("cmake/install.cmake", "install(FILES a.cfg DESTINATION etc PERMISSIONS OWNER_READ WORLD_WRITE)", "world-writable"),
    ("conf/proxy.conf", "    proxy_ssl_verify off;", "TLS verification off"),
    ("conf/site.conf", "SSLProxyVerify none", "TLS verification off"),
    ("examples/backend.conf", "backend_tls_validate no", "TLS verification off"),
])
def test_known_rules_read_other_spellings(path: str, line: str, what: str) -> None:
    change = assess(_fc(path, [], [line]), RiskContext())
    assert change.risk == "high" and what in change.reasons[0], change.reasons


@pytest.mark.parametrize(("path", "line"), [
    ("CMakeLists.txt", "  PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)"),  # others may read, not write
    ("conf/proxy.conf", "    proxy_ssl_verify on;"),
    ("conf/proxy.conf", "    proxy_ssl_verify_depth 0;"),  # a chain's depth, not the check
    ("conf/site.conf", "# SSLProxyVerify none"),  # a comment
    ("docs/proxy.md", "Set SSLProxyVerify none only while testing."),  # a sentence
])
def test_other_spellings_quiet_look_alikes(path: str, line: str) -> None:
    assert "unsafe_value" not in assess(_fc(path, [], [line]), RiskContext()).rules


_TIE = """
from relay.review.leading_lines import _pairs
# One new line and two old ones equally alike to it: one shares its opening, the other its ending.
print(list(_pairs(["xabcdefghijklmnopy"], ["xabcdefghijklmnopz", "wabcdefghijklmnopy"])))
"""


@pytest.mark.process
def test_a_tie_between_two_old_lines_is_broken_the_same_way_in_every_process():
    # The candidates were gathered by iterating a set of keys, whose order follows the string hash: the same change
    # quoted one line under one PYTHONHASHSEED and another under the next (two packets of one commit 32 B apart).
    import os
    import subprocess
    import sys

    runs = [subprocess.Popen([sys.executable, "-c", _TIE], stdout=subprocess.PIPE, text=True, encoding="utf-8",
                             env={**os.environ, "PYTHONHASHSEED": str(seed)}) for seed in range(8)]
    picked = {run.communicate(timeout=60)[0] for run in runs}
    assert len(picked) == 1, picked


def test_among_equal_turns_the_condition_is_quoted_before_the_assignment() -> None:
    # Both lines score alike (an operator and a value turned); the condition decides a branch, the assignment sets a value
    # the next lines may read or not. The assignment comes first in the file: the first found no longer wins the tie.
    removed = ["\tentry.reused = false", "\tif pool.depth == 1 || forceRelease {"]
    added = ["\tentry.reused = fresh || old", "\tif pool.depth <= 2 || forceRelease {"]
    quote = leading_line("pool/pool.go", added, removed)
    assert quote is not None and "depth <= 2" in quote, quote
    # Alone, the assignment is still quoted: the order between them is a tie's, not a rule against assignments.
    assert "fresh || old" in (leading_line("pool/pool.go", added[:1], removed[:1]) or "")


def _read(change: FileChange) -> FileChange:
    # Through the path's line filter, as the review reads a change: an ignore file's every line is an entry.
    [read], partial = read_changes([change])
    return assess(read, RiskContext(partial=partial))


@pytest.mark.parametrize(("path", "removed", "added", "named"), [
    (".gitignore", ["bin", "out", "certs"], ["bin", "certs", "# editors", ".idea/"], "no longer ignores: out"),  # where a tool writes its keys
    (".dockerignore", [".env", "node_modules"], ["node_modules"], "no longer ignores: .env"),  # copied into the image
    ("pkg/.npmignore", ["test/", "*.pem", "docs/"], ["test/"], "no longer ignores: *.pem"),  # the key named first
])
def test_an_ignore_file_entry_dropped_is_named(path: str, removed: list[str], added: list[str], named: str) -> None:
    # "build configuration" said nothing of which entry went: what the file no longer keeps out of a commit, an image or a
    # published package is the line.
    out = _read(_fc(path, removed, added))
    # (an entry that keeps secrets out is said by round 84's reader, high: "no longer ignores .env (files that hold secrets …)")
    entry = named.split(": ", 1)[1]
    assert named in out.reasons or any(reason.startswith(f"no longer ignores {entry} (files that hold secrets") for reason in out.reasons), out.reasons


@pytest.mark.parametrize(("removed", "added"), [
    (["dist"], ["dist/", "coverage/"]),  # written again with its slash, one more added
    (["# build output", "dist/"], ["dist/"]),  # a comment dropped
    (["!keep.env"], []),  # an exception dropped: less gets in, not more
])
def test_an_ignore_file_that_keeps_or_adds_entries_names_nothing_dropped(removed: list[str], added: list[str]) -> None:
    out = _read(_fc(".gitignore", removed, added))
    assert not any(r.startswith("no longer ignores") for r in out.reasons), out.reasons


def test_a_bound_a_check_compares_with_leads_a_condition_the_change_removes() -> None:
    # Round 37 (blind 59, whatwg-url): the commit moved `if (beStrict) {` to another file; the slipped line raised the
    # port's ceiling. A condition removed holds a word ("strict"); the bound turned is what the check now lets through.
    removed = ["  if (beStrict) {", "      if (port > 2 ** 16 - 1) {"]
    added = ["      if (port > 2 ** 32 - 1) {"]
    quote = leading_line("lib/url-state-machine.js", added, removed)
    assert quote is not None and "2 ** 32" in quote, quote
    # The same number moved in an assignment is no bound a check compares with: the removed condition still leads.
    assert "beStrict" in (leading_line("lib/url-state-machine.js", ["  const width = 2 ** 32 - 1;"],
                                       ["  if (beStrict) {", "  const width = 2 ** 16 - 1;"]) or "")


def test_a_line_with_backslashes_is_no_credential() -> None:
    # The view escapes a backslash for its reader (relay.core.redact.redact); the score read that escape as a credential
    # masked, and a removed regex of `\u0000|\u0009|…` led every other line of its file by 4 (round 37).
    regex = "  return string.search(/\\u0000|\\u0009|\\u000A|\\u000D|\\u0020|#|\\/|:|<|>|\\?|@|\\[|\\\\|\\]|\\^|\\|/u) !== -1;"
    quote = leading_line("lib/url.js", ["    if (size > limit) {"], [regex, "    if (size >= limit) {"])
    assert quote is not None and "size > limit" in quote, quote
    # A real credential on a line still tells by itself.
    assert "REDACTED" in (leading_line("lib/url.js", ['  const token = "ghp_' + "a1B2" * 9 + '";'], [regex]) or "")


def test_an_edit_apart_is_quoted_before_the_leading_line_of_the_work() -> None:
    # Round 37 (blind 59, go-chi/cors): the commit's own turn (a character allowed in a name) led as the leading line, the
    # `&&` → `||` slipped apart from it came second and the packet's cut of the reason dropped it.
    removed = ["\t\tif b == '-' || b == '_' || (b >= '0' && b <= '9') {",
               "\treturn len(s) >= len(w.prefix+w.suffix) && strings.HasPrefix(s, w.prefix) && strings.HasSuffix(s, w.suffix)"]
    added = ["\t\tif b == '-' || b == '_' || b == '.' || (b >= '0' && b <= '9') {",
             "\treturn strings.HasPrefix(s, w.prefix) || strings.HasSuffix(s, w.suffix)"]
    apart = "edit apart from the change: …len(s) >= len(w.prefix+w.suffix)… → …strings.HasPrefix(s, w.prefix) || strings…"
    change = _fc("utils.go", removed, added)
    alone = assess(change, RiskContext())
    assert alone.reasons[0].startswith("turns: "), alone.reasons  # the leading line, with no edit apart to say
    out = assess(change, RiskContext(apart={"utils.go": apart}))
    assert out.reasons[0] == apart and any(r.startswith("turns: ") for r in out.reasons[1:]), out.reasons


def test_a_leading_line_that_tells_more_than_the_edit_apart_stays_first() -> None:
    # A minimum lowered (the leading line) tells more than a maximum raised apart from the change: the slipped line's
    # place wins only a tie (round 37's first try put every edit apart first and lost RustCrypto/RSA's plant).
    removed = ["const MIN_SIZE: u32 = 1024;", "pub const MAX_SIZE: usize = 4096;"]
    added = ["const MIN_SIZE: u32 = 512;", "pub const MAX_SIZE: usize = 8192;"]
    apart = "edit apart from the change: pub const MAX_SIZE: usize = 4096; → pub const MAX_SIZE: usize = 8192;"
    out = assess(_fc("src/key.rs", removed, added), RiskContext(apart={"src/key.rs": apart}))
    assert out.reasons[0].startswith("turns: const MIN_SIZE") and apart in out.reasons, out.reasons


@pytest.mark.parametrize(("path", "removed", "added", "named"), [
    ("query/encode.go", ["\treturn !v.Bool()"], ["\treturn v.Bool()"], "turns: return !v.Bool() → return v.Bool()"),
    ("src/guard.ts", ["  if (user.isAdmin()) {"], ["  if (!user.isAdmin()) {"], "turns: if (user.isAdmin()) { → if (!user.isAdmin()) {"),
    # a `!` after a name or a bracket negates nothing: C#'s null-forgiving operator, a Rust macro's call (ordinary history)
    ("src/Context.cs", ["    return context.Parent ?? context;"], ["    return context.Parent!;"], None),
    ("src/macros.rs", ['    format_args!("{}", x)'], ['    format_args!("{} {}", x, y)'], None),
])
def test_a_negation_put_in_or_taken_out_is_a_turn_a_postfix_bang_is_not(path: str, removed: list[str], added: list[str], named: str | None) -> None:
    # Round 37 (blind 59's go-querystring): a `!` dropped from a returned boolean scored one short of a quote.
    assert leading_line(path, added, removed) == named


def test_a_number_with_digit_separators_is_read_whole() -> None:
    # Round 38 (blind 61, jackson-core): `150` → `150_000` read as "150" with "_000" put at its end, a wrapped line; it is a
    # bound raised a thousandfold. The same value spelt with separators is no turn.
    was, now = ["    static final int MAX_COLL_CHAIN_LENGTH = 150;"], ["    static final int MAX_COLL_CHAIN_LENGTH = 150_000;"]
    assert leading_line("sym/Canonicalizer.java", now, was) == "turns: …MAX_COLL_CHAIN_LENGTH = 150; → …MAX_COLL_CHAIN_LENGTH = 150_000;"
    assert leading_line("sym/Canonicalizer.java", now, ["    static final int MAX_COLL_CHAIN_LENGTH = 150000;"]) is None


@pytest.mark.parametrize(("removed", "added", "named"), [
    # Round 39 (blind 64, libfido2): a check's bound moved past the error code; the sign was a token of its own
    (["\tif (ok < 0)"], ["\tif (ok < -1)"], "turns: if (ok < 0) → if (ok < -1)"),
    (["  if (n > -5) {"], ["  if (n > 5) {"], "turns: if (n > -5) { → if (n > 5) {"),
    # a subtraction dropped is no sign, and the same negative number is no turn
    (["  let width = total - 1;"], ["  let width = total;"], None),
    (["  if (ok < -1)"], ["  if ( ok < -1 )"], None),
])
def test_a_numbers_sign_is_read_with_it(removed: list[str], added: list[str], named: str | None) -> None:
    assert leading_line("src/assert.c", added, removed) == named
