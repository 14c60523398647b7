"""Round 24, part B (issue 36): lines the blind pair 29/30 quoted without naming, taken as classes in several
languages, each with look-alikes that stay quiet. ``named`` is a piece of a reason the file must carry; None: none of
the round's reasons may appear."""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

_QUIET = ("fetches packages from an untrusted index", "turns package integrity checks off", "downgrades a dependency", "makes an error success",
          "anchors a line-break check", "narrows a line-break check", "replaces a check with a presence test", "flips an option's default", "removes escaping",
          "changes security-relevant code (prototype pollution")

_CASES = [
    # a package index over plain HTTP, or --trusted-host, as items of an argument list (nox, subprocess, JSON, CI)
    ("noxfile.py", ['        "--trusted-host", "pypi.org", "--index-url", "http://pypi.org/simple",'], [], "fetches packages from an untrusted index"),
    ("noxfile.py", ['    session.install("--trusted-host", "pypi.org", "pytest")'], [], "turns package integrity checks off"),
    ("scripts/bootstrap.py", ["    subprocess.run(['pip', 'install', '-i', 'http://mirror.example/simple', 'x'])"], [], "fetches packages from an untrusted index"),
    (".gitlab-ci.yml", ["  - pip config set global.index-url http://mirror.example/simple"], [], "fetches packages from an untrusted index"),
    ("Makefile", ['\tpython -m pip install --index-url "http://mirror.example/simple" -e .'], [], "fetches packages from an untrusted index"),
    ("noxfile.py", ['    session.install("--index-url", "https://pypi.org/simple", "pytest")'], [], None),
    ("noxfile.py", ['    session.install("--index-url", "http://localhost:8080/simple")'], [], None),
    ("noxfile.py", ['    session.error("--trusted-host is refused here")'], [], None),
    ("scripts/run.py", ['    cmd = ["tool", "-i", "input.txt", "http://example.com"]'], [], None),
    # a dependency moved down in Gradle's map notation (Groovy, Kotlin DSL)
    ("build.gradle", ["    implementation group: 'com.fasterxml.jackson.core', name: 'jackson-databind', version:'2.9.8'"],
     ["    implementation group: 'com.fasterxml.jackson.core', name: 'jackson-databind', version:'2.21.2'"], "downgrades a dependency: jackson-databind 2.21.2 → 2.9.8"),
    ("build.gradle.kts", ['    implementation(group = "org.yaml", name = "snakeyaml", version = "1.33")'],
     ['    implementation(group = "org.yaml", name = "snakeyaml", version = "2.2")'], "downgrades a dependency: snakeyaml 2.2 → 1.33"),
    ("build.gradle", ["    testImplementation group: 'junit', name: 'junit', version: '4.13.2'"],
     ["    testImplementation group: 'junit', name: 'junit', version: '4.12'"], None),
    # an error arm made success (Rust, Scala, Elixir, a promise, Python)
    ("src/verify_cert.rs", ["                    Err(_) => Ok(trust_anchor),"], ["                    Err(err) => Err(ControlFlow::Continue(err)),"], "makes an error success"),
    ("src/Chain.scala", ["      case Failure(_) => Success(chain)"], ["      case Failure(e) => Failure(e)"], "makes an error success"),
    ("lib/verify.ex", ["      {:error, _} -> {:ok, cert}"], ["      {:error, reason} -> {:error, reason}"], "makes an error success"),
    ("src/verify.js", ["    .catch(() => resolve(token))"], ["    .catch(err => reject(err))"], "makes an error success"),
    ("Sources/Pin.swift", ["        case .failure: completion(.success(trust))"], ["        case .failure(let error): completion(.failure(error))"], "makes an error success"),
    ("src/io.rs", ["        Err(e) => Err(Error::Io(e)),"], ["        Err(e) => Err(e.into()),"], None),
    ("src/cache.rs", ["        Err(_) => Ok(None),"], ["        Err(_) => Ok(Vec::new()),"], None),
    # a line-break check anchored or narrowed to the start (JavaScript, Python, Go, TypeScript)
    ("lib/command-file.js", ["const lineBreakRegExp = /^[\\n\\r]/;"], ["const lineBreakRegExp = /[\\n\\r]/;"], "anchors a line-break check"),
    ("app/headers.py", ['_BAD = re.compile(r"^[\\r\\n]")'], ['_BAD = re.compile(r"[\\r\\n]")'], "anchors a line-break check"),
    ("hdr/check.go", ['\tif strings.HasPrefix(v, "\\r\\n") {'], ['\tif strings.ContainsAny(v, "\\r\\n") {'], "narrows a line-break check"),
    ("src/arg.ts", ['  if (value.startsWith("\\n")) throw new Error("bad")'], ['  if (value.includes("\\n")) throw new Error("bad")'], "narrows a line-break check"),
    ("lib/split.js", ["const lineRe = /[\\n\\r]+/g;"], ["const lineRe = /[\\n\\r]/g;"], None),
    # a predicate check replaced by a presence test (Swift, Python)
    ("Sources/RedirectState.swift", ["        guard url.scheme != nil else {"], ["        guard originalScheme.supportsRedirects(to: url.scheme) else {"], "any scheme now passes"),
    ("app/redirects.py", ["    if parsed.hostname is not None:"], ["    if is_allowed_host(parsed.hostname):"], "any host now passes"),
    ("Sources/Load.swift", ["        guard let url = url else {"], ["        guard let url = url, url.isFileURL else {"], None),
    # an option tested against false made a truthiness test, its branches swapped
    ("index.js", ["  const storeMethod = callOptions?.increment ? 'incr' : 'read'"], ["  const storeMethod = callOptions?.increment === false ? 'read' : 'incr'"],
     "flips an option's default"),
    ("lib/opts.js", ["  const m = opts.dryRun ? 'a' : 'b'"], ["  const m = opts.dryRun === true ? 'a' : 'b'"], None),
    # a name renamed inside an escaping call's arguments is not escaping removed; the escaping call itself replaced is
    ("lib/command-file.js", ["  const escaped = args.map(argument => escapeArgument(argument, isDoubleEscape));"],
     ["  const escaped = args.map(argument => escapeArgument(argument, doubleEscape));"], None),
    ("app/render.py", ["    out = html(value)"], ["    out = escapeHtml(value)"], "removes escaping"),
    # a method defined on a constructor's prototype is not prototype pollution; a key written on one is
    ("store/RedisStore.js", ["RedisStore.prototype.read = function (ip, cb, timeWindow) {"], [], None),
    ("lib/merge.js", ["  target.prototype[key] = value"], [], "prototype pollution"),
]


@pytest.mark.parametrize(("path", "added", "removed", "named"), _CASES)
def test_round24_lines_are_named_and_look_alikes_stay_quiet(path: str, added: list[str], removed: list[str], named: str | None) -> None:
    out = review(fc(path, added, removed))
    if named is None:
        assert not any(r.startswith(_QUIET) for r in out.reasons), out.reasons
    else:
        assert any(named in r for r in out.reasons), (out.risk, out.reasons)
        assert out.risk != "low", (out.risk, out.reasons)
