"""What a one-line turn now lets through, said in words of its consequence (relay.review.let_through, round 26 part B):
a limiter's take allowed when spent, an error path that fails open, a mask dropped, a place moved to the shared temp
root, a test runner told to skip tests, a shell run on a command joined into text, a compare made to exit early, a tolerance added to a time comparison, a
checking call replaced by its success value, a redirect target read from the request, a package let float; each in several languages, through
the whole review, with look-alikes (a test's own lines, a fresh private temp dir, a literal shell command) quiet. Every
case is synthetic; none names a project."""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

_EXHAUSTED, _OPEN, _MASK, _TMP, _SKIPS, _SHELL = ("when the limit is exhausted", "fails open", "it used to mask", "shared temp dir",
                                                  "skips tests under", "runs a shell on text joined")

CASES = [
    # a limiter's take allowed when nothing is left
    ("ratelimit/bucket.go", ["\t\treturn limit, 0, reset, true, nil"], ["\t\treturn limit, 0, reset, false, nil"], _EXHAUSTED),
    ("src/quota.rs", ["        return (0, true);"], ["        return (0, false);"], _EXHAUSTED),
    ("lib/throttle.ts", ["    allowed = true;"], ["    allowed = remaining > 0;"], _EXHAUSTED),
    ("app/limits.py", ["        allowed = True"], ["        allowed = self.tokens >= cost"], _EXHAUSTED),
    # an error path that fails open
    ("store/redis.go", ["\t\treturn s.limit, s.limit, 0, true"], ["\t\treturn 0, 0, 0, false"], _OPEN),
    ("src/lease.rs", ["            return Ok((self.ttl, true));"], ["            return Ok((0, false));"], _OPEN),
    # a mask dropped
    ("lib/prompt/style.js", ["  secret: { render: input => `${input}` },"], ["  secret: { render: input => '*'.repeat(input.length) },"], _MASK),
    ("cli/show.py", ["    shown = value"], ["    shown = \"*\" * len(value)"], _MASK),
    ("pkg/term/echo.go", ["\tout := string(buf)"], ["\tout := strings.Repeat(\"*\", len(buf))"], _MASK),
    ("src/Form.tsx", ["      type: 'text',"], ["      type: 'password',"], "password field as plain text"),
    # a place moved to the shared temp root
    ("src/commands/shell.rs", ["    let base_dir = std::env::temp_dir();"], ["    let base_dir = dirs::runtime_dir().join(\"app\");"], _TMP),
    ("lib/socket.js", ["const sockDir = os.tmpdir();"], ["const sockDir = path.join(os.homedir(), '.app', 'run');"], _TMP),
    ("app/state.py", ["    state_dir = tempfile.gettempdir()"], ["    state_dir = user_state_dir('app')"], _TMP),
    ("internal/link.go", ["\tdir := os.TempDir()"], ["\tdir := filepath.Join(home, \".app\")"], _TMP),
    # a test runner told to skip tests
    ("pyproject.toml", ['norecursedirs = ["build", "dist", "signing"]'], ['norecursedirs = ["build", "dist"]'], _SKIPS + " signing"),
    ("setup.cfg", ["addopts = -q --ignore=tests/security"], ["addopts = -q"], _SKIPS + " tests/security"),
    ("jest.config.js", ["  testPathIgnorePatterns: ['/node_modules/', 'auth'],"], ["  testPathIgnorePatterns: ['/node_modules/'],"], _SKIPS + " auth"),
    # a shell run on a command joined into text
    ("pkg/lang_base.py", ["    run('sh', '-c', ' '.join(cmd), cwd=root)"], ["    run(*cmd, cwd=root)"], _SHELL),
    ("tools/build.py", ["    os.system(\" \".join(args))"], ["    subprocess.run(args, check=True)"], _SHELL),
    ("cmd/run.go", ["\tout, err := exec.Command(\"sh\", \"-c\", strings.Join(args, \" \")).Output()"], ["\tout, err := exec.Command(args[0], args[1:]...).Output()"], _SHELL),
    ("tools/setup.py", ["    subprocess.run(f\"make {target}\", shell=True)"], ["    subprocess.run([\"make\", target])"], _SHELL),
    # a compare made to exit at the first difference
    ("src/digest.c", ["    if (a[i] != b[i]) {", "      return 0;"], ["    if (a[i] != b[i]) {", "      diff = 0;"], "early exit at the first difference"),
    ("pkg/auth/mac.go", ["func equalMAC(x, y []byte) bool {", "		if x[i] != y[i] {", "			return false"], ["		v |= x[i] ^ y[i]"], "early exit"),
    # a tolerance added to a time comparison
    ("src/cache.rs", ["        if src_mtime > cached_mtime + 7 * 24 * 3600 {"], ["        if src_mtime > cached_mtime {"], "out of date by up to 7 * 24 * 3600"),
    ("lib/token.py", ["    if now > expires_at + 300:"], ["    if now > expires_at:"], "out of date by up to 300"),
    # a checking call replaced by its success value
    ("lib/shop/params.ex", ["    case {:ok, raw} do"], ["    case Ecto.Type.cast(type, raw) do"], "skips cast"),
    ("src/input.rs", ["    match Ok(text) {"], ["    match validate_name(text) {"], "skips validate_name"),
    # a redirect target read from the request
    ("src/routes/logout.ts", ['  const back = url.searchParams.get("returnTo") ?? "/";'], ['  const back = "/";'], "open redirect"),
    ("web/views.py", ["    return_url = request.args.get('next') or '/'"], ["    return_url = '/'"], "open redirect"),
    # a package let float to any version
    ("src/App/App.csproj", ['    <PackageReference Include="Some.Lib" Version="*" />'], ['    <PackageReference Include="Other.Lib" Version="2.1.0" />'], "float to any version"),
]

QUIET = [
    ("ratelimit/bucket_test.go", ["\t\treturn limit, 0, reset, true, nil"], ["\t\treturn limit, 0, reset, false, nil"]),  # a limiter's test
    ("src/parse.rs", ["        return (0, true);"], ["        return (0, false);"]),  # no limit in sight
    ("tests/test_prompt.py", ["    shown = value"], ["    shown = \"*\" * len(value)"]),  # a test's own mask
    ("src/cache.rs", ["    let dir = tempfile::tempdir()?;"], ["    let dir = cache_dir();"]),  # a fresh private temp dir
    ("tests/helpers.js", ["const sockDir = os.tmpdir();"], ["const sockDir = path.join(os.homedir(), '.app');"]),  # a tmp dir in tests
    ("pyproject.toml", ['norecursedirs = [".git", "node_modules", "build"]'], ['norecursedirs = [".git", "build"]']),  # build output
    ("tools/run.py", ["    subprocess.run(['sh', '-c', 'make all'])"], ["    subprocess.run(['make', 'all'])"]),  # a literal command
    ("store/redis.go", ["\t\treturn 0, 0, 0, false"], ["\t\treturn s.limit, s.limit, 0, true"]),  # fails closed
    ("src/diff.c", ["    if (a[i] != b[i]) {", "      return i;"], []),  # where two buffers first differ: no secret, no flag dropped
    ("src/page.rs", ["        if offset > start + 60 {"], ["        if offset > start {"]),  # no time in the names
    ("web/views.py", ["    target = request.args.get('next')", "    if not url_has_allowed_host(target): target = '/'"], []),  # checked on the next line
    ("api/list.go", ["\tcursor := c.Query(\"next\")"], []),  # a pagination cursor
    ("src/App/App.csproj", ['    <PackageReference Include="Some.Lib" Version="2.*-beta" Condition="x" />'], []),
]

_SAID = (_EXHAUSTED, _OPEN, _MASK, "plain text", _TMP, _SKIPS, _SHELL, "early exit", "out of date by", "skips ", "open redirect", "float to any")


@pytest.mark.parametrize(("path", "added", "removed", "said"), CASES)
def test_what_the_line_lets_through_is_said(path: str, added: list[str], removed: list[str], said: str) -> None:
    out = review(fc(path, added, removed))
    assert any(said in r for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(("path", "added", "removed"), QUIET)
def test_look_alike_is_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(s in r for r in out.reasons for s in _SAID), out.reasons
