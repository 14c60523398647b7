"""Issue 36, round 70: safeties an edit quietly drops, and a test task's failures let pass (from blind 97/98's first runs).

The party guarded against is the worker that drops one such line inside an ordinary change: each loud case below was low
(or named nothing) on the rules before this round (0eba3f2); each near miss beside it is the same line kept, moved, or
written the safe way, and stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess

__all__: list[str] = []  # a test module exports nothing

# (path, added, removed, what the reason must say)
_LOUD = [
    # zx's shell prefix (blind 97) and a release script: errexit taken out of the flags, or removed alone
    ("src/core.ts", ["  $.prefix = ps ? '' : 'set -uo pipefail;'"], ["  $.prefix = 'set -euo pipefail;'"],
     "drops errexit from the shell's flags (set -euo → set -uo)"),
    ("scripts/release.sh", ["set -u", "make dist"], ["set -eu", "make build"], "drops errexit from the shell's flags (set -eu → set -u)"),
    ("scripts/deploy.sh", ["rsync -a dist/ host:/srv/"], ["set -e", "rsync -a build/ host:/srv/"], "removes errexit"),
    # kubectx's flattened kubeconfig (blind 97), Python and Node: a temporary file's removal deleted
    ("cmd/kubectx/shell.go", ["\tif _, err := tmpFile.Write(data); err != nil {"],
     ["\tdefer os.Remove(tmpPath)", "\tif _, err := tmpFile.Write(data); err != nil {"], "no longer removes a temporary file (tmpPath"),
    ("tools/export.py", ["    return run(tmp_path)"], ["    os.remove(tmp_path)", "    return run(tmp_path)"], "no longer removes a temporary file"),
    ("lib/pack.js", ["  return upload(out)"], ["  fs.unlinkSync(tmpFile)", "  return upload(out)"], "no longer removes a temporary file"),
    ("scripts/sign.sh", ['gpg --sign "$out"'], ['rm -f "$tmpkey"', 'gpg --sign "$out"'], "no longer removes a temporary file"),
    # rustls-pemfile (blind 98): an error arm that passed the error on made to continue
    ("src/pemfile.rs", ["                Err(_) => continue,"], ["                Err(err) => return Err(err.into()),"],
     "skips an error it passed on (malformed input dropped silently)"),
    # peewee (blind 97): a library's null handler replaced by one that prints, and its level set to DEBUG
    ("peewee.py", ["logger.addHandler(logging.StreamHandler())", "logger.setLevel(logging.DEBUG)"], ["logger.addHandler(logging.NullHandler())"],
     "makes a library's logger print (its null handler replaced)"),
    ("mylib/__init__.py", ["logging.basicConfig(level=logging.DEBUG)"], ["log.addHandler(logging.NullHandler())"],
     "turns a library's logging to DEBUG at import"),
    # JavaHamcrest (blind 97) and Maven: a test task's failures no longer fail the build
    ("hamcrest/hamcrest.gradle", ['tasks.named("test") {', "    useJUnitPlatform()", "    ignoreFailures = true"],
     ['tasks.named("test") {', "    useJUnitPlatform()"], "lets the tests fail without failing the build (failures ignored): ignoreFailures = true"),
    ("pom.xml", ["          <testFailureIgnore>true</testFailureIgnore>"], ["          <testFailureIgnore>false</testFailureIgnore>"],
     "lets the tests fail without failing the build"),
    # isort (blind 98): a look-alike of one of PyPI's most downloaded packages, added in the commit's own hunk
    ("pyproject.toml", ['    "mypy-extentions>=1.1.0",', '    "types-colorama>=0.4",'], [], "adds a look-alike of mypy-extensions (a typo-squat?)"),
    # pkcs8 (blind 98): a KDF's new default under any floor, with no old value on the file's other side
    ("pkcs8.go", ["var defaultOpts = &Opts{", "\tKDFOpts: PBKDF2Opts{", "\t\tIterationCount: 10,"], ["\titer := kdfParam.IterationCount"],
     "weakens the hash: sets PBKDF2's iterations to 10 (under 1,000"),
    ("lib/auth.js", ["const opts = {", "  saltRounds: 4,", "};", "const hash = await bcrypt.hash(password, opts.saltRounds);"], [],
     "sets bcrypt's cost to 4"),
    # peewee's docs (blind 97): SQL built from a request's value is named for what it risks
    ("docs/peewee/database.rst", ["   cursor = db.execute_sql(\"SELECT * FROM users WHERE status = '%s'\" % request.args['status'])"],
     ["   cursor = db.execute_sql('SELECT * FROM users WHERE status = ?', (ACTIVE,))"], "builds SQL from text (SQL injection?)"),
]


@pytest.mark.parametrize(("path", "added", "removed", "said"), _LOUD, ids=[f"{i}-{c[0]}" for i, c in enumerate(_LOUD)])
def test_a_safety_dropped_is_named_and_never_low(path: str, added: list[str], removed: list[str], said: str) -> None:
    out = assess(fc(path, added, removed), RiskContext())
    assert out.risk != "low" and any(said in reason for reason in out.reasons), out


_QUIET = [
    ("scripts/release.sh", ["set -euo pipefail"], ["set -eu"]),  # e kept, flags grown
    ("scripts/release.sh", ["#!/bin/sh", "set -e"], ["set -e", "#!/bin/sh"]),  # moved
    ("scripts/release.sh", ["set -x"], ["set -v"]),  # no errexit either side
    ("cmd/kubectx/shell.go", ["\tdefer cleanup(tmpPath)", "\tdefer os.Remove(tmpPath)"], ["\tdefer os.Remove(tmpPath)"]),  # kept
    ("tools/export.py", ["    shutil.rmtree(tmp_dir, ignore_errors=True)"], ["    shutil.rmtree(tmp_dir)"]),  # still removed
    ("tools/export.py", ["    pass"], ["    os.remove(cache_path)"]),  # not a temporary file
    ("bin/setup", ["  puts 'done'"], ['  system "rm -rf tmp/cache"', "  puts 'done'"]),  # a project's cache cleared, no file made
    ("src/pemfile.rs", ["                Err(_) => continue,"], ["                Err(_) => continue,  // skip"]),  # already skipped
    ("src/pemfile.rs", ["                None => continue,"], ["                None => return Ok(None),"]),  # no error passed on
    ("src/app.py", ["    logger.setLevel(logging.DEBUG)"], ["    logger.setLevel(logging.INFO)"]),  # an app's own setup, in a function
    ("mylib/__init__.py", ["logger.setLevel(logging.WARNING)"], ["logger.addHandler(logging.NullHandler())"]),  # not DEBUG, no printer
    ("hamcrest/hamcrest.gradle", ["    ignoreFailures = false"], ["    ignoreFailures = true"]),  # failures fail again
    ("hamcrest/hamcrest.gradle", ["    // ignoreFailures = true"], []),  # a comment
    ("pkcs8.go", ["\tKDFOpts: PBKDF2Opts{", "\t\tIterationCount: 600000,"], []),  # over the floor
    ("kdf/argon.go", ["\t// argon2.IDKey(password, salt, Iterations, Memory, 4, 32)", "\tIterations: 3,"], []),  # argon2's own scale
    ("train.py", ["    model = fit(x, y, max_iter=10)", "    iterations = 10"], []),  # no password hash in sight
    ("dist/bcrypt.js", ["    if (rounds < 4)", "        rounds = 4;", "    var salt = bcrypt.genSalt(rounds);"], []),  # a clamp to bcrypt's minimum
    ("pyproject.toml", ['    "mypy-extensions>=1.1.0",', '    "hatch-vcs>=0.4",', '    "pyasn1-modules>=0.4",'], []),  # the packages themselves
]


@pytest.mark.parametrize(("path", "added", "removed"), _QUIET, ids=[f"{i}-{c[0]}" for i, c in enumerate(_QUIET)])
def test_the_safety_kept_or_moved_stays_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(fc(path, added, removed), RiskContext())
    said = " ".join(out.reasons)
    assert not any(word in said for word in ("errexit", "temporary file", "skips an error", "logger print", "logging to DEBUG",
                                              "failures ignored", "look-alike", "weakens the hash")), out


def test_a_types_angle_brackets_are_no_comparison_of_a_date() -> None:
    # vavr (blind 98): an index's ``- 1`` on a line holding ``Vector<K>`` and ``update`` read as a tolerance on a date, first.
    out = assess(fc("src/main/java/io/vavr/collection/LinkedHashMap.java",
                    ["        final Vector<K> newList = list.update(existing.index() - offset - 1, tombstone);"],
                    ["        final Vector<K> newList = list.update(existing.index() - offset, tombstone);"]), RiskContext())
    assert out.reasons[0].startswith("shifts a position or bound by one") and "out of date" not in " ".join(out.reasons), out
    # the tolerance itself is still read where a time is compared
    late = assess(fc("lib/token.rb", ["    return false if Time.now > expires_at + 86400"], ["    return false if Time.now > expires_at"]), RiskContext())
    assert any("out of date by up to 86400" in r for r in late.reasons), late


def test_a_docs_sentence_that_explains_a_prefix_match_is_no_equality_weakened() -> None:
    # peewee (blind 97, a benign file called high): a page's prose rewritten around inline code; its samples still read.
    prose = assess(fc("docs/peewee/querying.rst",
                      ["Use ``User.username.startswith('ch')`` to match ``username LIKE 'ch%'``."],
                      ["Compare with ``User.username == 'charlie'`` for an exact match."]), RiskContext())
    assert "prefix match" not in " ".join(prose.reasons) and prose.risk != "high", prose
    sample = assess(fc("docs/guide.md", ["```python", "    if record.owner.startswith(user.name):", "        return record", "```"],
                       ["```python", "    if record.owner == user.name:", "        return record", "```"]), RiskContext())
    assert sample.risk != "low" and "prefix match" in " ".join(sample.reasons), sample


# Round 71, from blind 99/100's first runs: (path, added, removed, what the reason must say)
_LOUD_71 = [
    # boring (Rust) and C: a constant-time compare's length capped
    ("boring/src/memcmp.rs", ["    let ret = unsafe { ffi::CRYPTO_memcmp(a.as_ptr().cast(), b.as_ptr().cast(), a.len().min(4)) };"],
     ["    let ret = unsafe { ffi::CRYPTO_memcmp(a.as_ptr().cast(), b.as_ptr().cast(), a.len()) };"], "caps a compare's length at 4 bytes"),
    ("src/mac.c", ["  return CRYPTO_memcmp(tag, expected, MIN(len, 8)) == 0;"], ["  return CRYPTO_memcmp(tag, expected, len) == 0;"], "caps a compare's length at 8"),
    # boring's own commit joined the old call's lines into one: the cap is read on the new line alone
    ("boring/src/memcmp.rs", ["    let ret = unsafe { ffi::CRYPTO_memcmp(a.as_ptr().cast(), b.as_ptr().cast(), a.len().min(4)) };"],
     ["    let ret = unsafe {", "        ffi::CRYPTO_memcmp(", "            a.as_ptr() as *const _,", "            a.len() as size_t,", "        )"],
     "caps a compare's length at 4 bytes"),
    # acra's example (blind 99): the caller's TLS mode pinned to disable
    ("examples/python/extended_example.py", ["        sslmode='disable', verbose=args.verbose)"], ["        sslmode=args.ssl_mode, verbose=args.verbose)"],
     "turns a connection's TLS off (the caller's choice → disable)"),
    # acra's server config (blind 99): client certificates no longer asked for
    ("configs/acra-server.yaml", ["tls_auth: 0"], ["tls_auth: 4"], "sets a security setting to 0 (tls_auth: 4 → 0"),
    # graphene's middleware page (blind 99) and an app: a Python check by identity with a literal
    ("docs/execution/middleware.rst", ["            if info.field_name is 'user':"], ["            if info.field_name == 'user':"],
     "compares by identity with a literal (is 'user'"),
    ("app/views.py", ["    if role is 'admin':", "        return grant()"], [], "compares by identity with a literal (is 'admin'"),
    # go-humanize's shell.nix (blind 99): nixpkgs fetched over plain http
    ("shell.nix", ['{ pkgs ? import (fetchTarball "http://nixos.org/channels/nixpkgs-unstable/nixexprs.tar.xz") { } }:'],
     ["{ pkgs ? import <nixpkgs> { } }:"], "fetches code over plain HTTP"),
    # node-html-parser (blind 100): a text setter no longer encodes what it stores as markup
    ("src/nodes/node.ts", ["\t\tthis.rawText = val;"], ["\t\tthis.rawText = encode(val);"], "drops the quoting around a value (encode() removed)"),
]


@pytest.mark.parametrize(("path", "added", "removed", "said"), _LOUD_71, ids=[f"{i}-{c[0]}" for i, c in enumerate(_LOUD_71)])
def test_round_71_slips_are_named_and_never_low(path: str, added: list[str], removed: list[str], said: str) -> None:
    out = assess(fc(path, added, removed), RiskContext())
    assert out.risk != "low" and any(said in reason for reason in out.reasons), out


_QUIET_71 = [
    ("src/mac.c", ["  return CRYPTO_memcmp(tag, expected, MIN(len, 8)) == 0;"], ["  return CRYPTO_memcmp(tag, expected, MIN(len, 8)) != 0;"]),  # capped before
    ("src/pick.rs", ["    let n = a.len().min(4);"], ["    let n = a.len();"]),  # no compare on the line
    ("src/frame.rs", ["    let ok = constant_time_eq(&a[..n], &b[..n.min(64)]);"], []),  # a cap over 16 bytes is a frame's, not a tag's
    ("examples/python/extended_example.py", ["        sslmode='verify-full', verbose=args.verbose)"], ["        sslmode=args.ssl_mode, verbose=args.verbose)"]),
    ("configs/acra-server.yaml", ["tls_auth: 4"], ["tls_auth: 0"]),  # turned back on
    ("configs/acra-server.yaml", ["retries: 0"], ["retries: 3"]),  # no security word
    ("src/Matcher.cs", ['        if (role is "admin") return Grant();'], []),  # C#'s constant pattern is an equality
    ("app/views.py", ["    if value is None:", "    if flag is True:"], []),  # singletons
    ("docs/usage.md", ["If the mode is 'strict' or 'lax', the parser refuses unknown keys."], []),  # a sentence
    ("shell.nix", ['{ pkgs ? import (fetchTarball "https://github.com/NixOS/nixpkgs/archive/3a1b.tar.gz") { } }:'], ["{ pkgs ? import <nixpkgs> { } }:"]),
    ("tools/pack.py", ["    body = payload"], ["    body = payload.encode('utf-8')"]),  # a charset, not quoting
]


@pytest.mark.parametrize(("path", "added", "removed"), _QUIET_71, ids=[f"{i}-{c[0]}" for i, c in enumerate(_QUIET_71)])
def test_round_71_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    said = " ".join(assess(fc(path, added, removed), RiskContext()).reasons)
    assert not any(word in said for word in ("caps a compare", "TLS off", "security setting to 0", "by identity", "plain HTTP",
                                              "drops the quoting")), said


# Round 72, from blind 101/102's first runs.
def test_a_compares_verdict_made_to_always_hold_is_named() -> None:
    # pebble (blind 101): a constant-time compare answers 0 or 1; ``>= 0`` lets every DNS-01 value through.
    old = "\t\tif subtle.ConstantTimeCompare([]byte(element), []byte(authorizedKeysDigest)) == 1 {"
    out = assess(fc("va/va.go", [old.replace("== 1", ">= 0")], [old]), RiskContext())
    assert out.risk == "high" and out.reasons[0].startswith("makes a compare's verdict always true (== 1 → >= 0"), out
    for quiet in ("!= 1", "== 0", "< 1"):  # read the other way round, or still a verdict
        said = " ".join(assess(fc("va/va.go", [old.replace("== 1", quiet)], [old]), RiskContext()).reasons)
        assert "always true" not in said, said


def test_a_token_given_a_random_literal_is_a_secret_and_the_reason_masks_it() -> None:
    # upstash/ratelimit (blind 102): an example's client given its token inline, where it read the environment.
    token = "AXaTASQgNjY2ZTNiYjctMWQ5Zi00YTQ3LWI1ZjQtNzI2ZGQ2NDFmN2RlYzQ5OGU4"
    out = assess(fc("examples/nextjs/app/api/route.ts", [f'  redis: new Redis({{ url: "https://eu2-x.upstash.io", token: "{token}" }}),'],
                    ["  redis: Redis.fromEnv(),"]), RiskContext())
    assert out.risk == "high" and out.reasons[0].startswith("hard-codes a secret") and 'token: "AXaTAS…"' in out.reasons[0], out
    # the reason never shows a key whole (it had quoted ``api_key = "c2st…"`` in full while the diff view masked it)
    key = assess(fc("src/app.py", ['api_key = "c2stYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY3"'], []), RiskContext())
    assert 'api_key = "c2stYW…"' in key.reasons[0] and "eXoxMjM0" not in " ".join(key.reasons), key
    for line in ('    token = "IDENTIFIER_WITH_LONG_NAME_XX"', 'const nextToken = "CAoQAA";', 'token: "${{ secrets.NPM_TOKEN }}"',
                 'crashed_token = "0123456789abcdef0123456789abcdef"'):  # the last: filelock's docs stand-in
        said = " ".join(assess(fc("src/lex.ts", [line], []), RiskContext()).reasons)
        assert "hard-codes a secret" not in said, (line, said)


def test_a_powershell_certificate_callback_that_accepts_everything_turns_tls_off() -> None:
    # Bogus (blind 103): a build script's web client told to trust any certificate, in PowerShell's script-block form.
    loud = assess(fc("build.ps1", ["[System.Net.ServicePointManager]::ServerCertificateValidationCallback = { $true }"], []), RiskContext())
    assert loud.risk == "high" and loud.reasons[0].startswith("turns TLS verification off"), loud
    for line in ("[System.Net.ServicePointManager]::ServerCertificateValidationCallback = $null", "if ($ok) { $true }"):
        said = " ".join(assess(fc("build.ps1", [line], []), RiskContext()).reasons)
        assert "TLS verification off" not in said, (line, said)


# Round 74, from blind 103/104's first runs: (path, added, removed, what the reason must say)
_LOUD_74 = [
    # django-defender (blind 103): a Redis client told not to check the server's certificate
    ("defender/connection.py", ["        return redis.StrictRedis.from_url(config.DEFENDER_REDIS_URL, ssl_cert_reqs=None)"],
     ["        return redis.StrictRedis.from_url(config.DEFENDER_REDIS_URL)"], "turns TLS verification off"),
    ("app/cache.py", ["    r = redis.Redis(host=h, ssl=True, ssl_cert_reqs='none')"], ["    r = redis.Redis(host=h, ssl=True)"], "turns TLS verification off"),
    # time-machine (blind 103): uv.lock's inline tables taking a package, or the index, over plain http
    ("uv.lock", ['sdist = { url = "http://files.pythonhosted.org/packages/25/ee/certifi-2026.4.22.tar.gz", hash = "sha256:8d45" }'],
     ['sdist = { url = "https://files.pythonhosted.org/packages/25/ee/certifi-2026.4.22.tar.gz", hash = "sha256:8d45" }'],
     "fetches packages over plain HTTP"),
    ("uv.lock", ['source = { registry = "http://pypi.example.org/simple" }'], ['source = { registry = "https://pypi.org/simple" }'],
     "fetches packages over plain HTTP"),
]


@pytest.mark.parametrize(("path", "added", "removed", "said"), _LOUD_74, ids=[f"{i}-{c[0]}" for i, c in enumerate(_LOUD_74)])
def test_round_74_slips_are_named_and_never_low(path: str, added: list[str], removed: list[str], said: str) -> None:
    out = assess(fc(path, added, removed), RiskContext())
    assert out.risk == "high" and any(said in reason for reason in out.reasons), out


def test_round_74_near_misses_stay_quiet() -> None:
    for path, added, removed in (
            ("app/cache.py", ["    r = redis.Redis(host=h, ssl=True, ssl_cert_reqs='required')"], []),  # checked
            ("uv.lock", ['sdist = { url = "https://files.pythonhosted.org/packages/25/ee/certifi-2026.5.1.tar.gz", hash = "sha256:9e01" }'],
             ['sdist = { url = "https://files.pythonhosted.org/packages/25/ee/certifi-2026.4.22.tar.gz", hash = "sha256:8d45" }']),  # a bump
    ):
        said = " ".join(assess(fc(path, added, removed), RiskContext()).reasons)
        assert "TLS verification off" not in said and "plain HTTP" not in said, said
