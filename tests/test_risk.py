"""relay.review.risk: how the rule table ranks real shapes of change (each row's own example: tests/test_rules.py)."""

from __future__ import annotations

import msgspec
import pytest

from relay.review.line_shapes import LINE_CHARS, READ_LINES
from relay.core.contracts import FileChange
from relay.review.file_kinds import file_kind, is_secret_path, is_test_path, line_matters, read_changes, rule_lines, subject
from relay.review.packet import rank_changes
from relay.review.risk import RiskContext, assess, assess_all, existing_dependencies, rule_fires
from relay.review.rules import RULE_BY_NAME
from relay.review.task_reading import task_security

__all__: list[str] = []  # a test module exports nothing

NO_CTX = RiskContext()
# What relay.observe.changes keeps of a big source change: its first 40 lines of code.
CODE40 = [f"value_{i} = compute({i})" for i in range(40)]


def fc(path: str, **kw: object) -> FileChange:
    return FileChange(path=path, **kw)  # type: ignore[arg-type]


def test_assess_orders_reasons_highest_risk_first() -> None:
    out = assess(fc("src/auth/login.py", kind="deleted", deletions=10), RiskContext(claimed=frozenset()))
    assert out.risk == "high"
    assert out.reasons[0].startswith("security-sensitive path")
    assert out.reasons[1].startswith("deletes a file")


def test_assess_plain_edit_is_low_with_a_descriptive_reason() -> None:
    out = assess(fc("src/util.py", additions=3, deletions=1, ranges=[(4, 7)], added_lines=["a = 1", "b = 2", "c = a + b"], removed_lines=["c = 0"]), NO_CTX)
    assert (out.risk, out.reasons) == ("low", ["edit (+3/-1)"])
    assert assess(fc("src/new.py", kind="added", additions=12), NO_CTX).reasons == ["new file (12 lines)"]


def test_assess_returns_a_copy() -> None:
    change = fc("a.py")
    assert assess(change, NO_CTX) is not change and change.reasons == []


def test_assess_details_show_what_was_found() -> None:
    cov = assess(fc("setup.cfg", removed_lines=["fail_under = 90"], added_lines=["fail_under = 75"]), NO_CTX)
    assert "90 → 75" in cov.reasons[0]
    dep = assess(fc("package.json", added_lines=['    "left-pad": "^1.3.0",', '    "react": "^18.0.0"'], removed_lines=['    "react": "^17.0.0"']), NO_CTX)
    assert dep.reasons[0] == "adds a dependency: left-pad"
    js = assess(fc("web/app.test.ts", added_lines=["  it.skip('works', () => {"]), NO_CTX)
    assert "it.skip(" in js.reasons[0]
    go = assess(fc("pkg/x_test.go", added_lines=['\tt.Skip("flaky")']), NO_CTX)
    assert go.risk == "high"


@pytest.mark.parametrize(
    "line",
    ["xit('does', () => {})", "describe.skip('suite', () => {})", "@unittest.skip('x')", "  self.skipTest('x')", "@Disabled", "it.only('x', f)"],
)
def test_skip_markers_across_frameworks(line: str) -> None:
    assert assess(fc("spec/thing.spec.js", added_lines=[line]), NO_CTX).risk == "high"


@pytest.mark.parametrize(
    ("path", "removed", "added"),
    [
        ("jest.config.js", ["coverageThreshold: { global: { lines: 90 } }"], ["coverageThreshold: { global: { lines: 60 } }"]),
        (".github/workflows/ci.yml", ["run: pytest --cov-fail-under=85"], ["run: pytest --cov-fail-under=50"]),
        (".coveragerc", ["fail_under = 95"], []),
    ],
)
def test_lowered_or_removed_coverage_thresholds(path: str, removed: list[str], added: list[str]) -> None:
    out = assess(fc(path, removed_lines=removed, added_lines=added), NO_CTX)
    assert any("coverage threshold" in r for r in out.reasons)


@pytest.mark.parametrize(
    ("path", "line", "name"),
    [
        ("pyproject.toml", '    "httpx>=0.27",', "httpx"),
        ("pyproject.toml", 'requests = "^2.31"', "requests"),
        ("environment.yml", "  - numpy=1.26", "numpy"),
        ("Cargo.toml", 'serde = { version = "1" }', "serde"),
        ("go.mod", "\tgithub.com/pkg/errors v0.9.1", "github.com/pkg/errors"),
        ("Gemfile", "gem 'rails', '~> 7.1'", "rails"),
        ("pom.xml", "<artifactId>guava</artifactId>", "guava"),
    ],
)
def test_new_dependency_names_across_manifests(path: str, line: str, name: str) -> None:
    out = assess(fc(path, added_lines=[line]), NO_CTX)
    assert out.risk == "high" and name in out.reasons[0]


def test_project_metadata_is_not_a_dependency() -> None:
    settings = ['version = "0.2.0"', 'name = "relay"', "timeout = 30", 'select = ["E501"]', '    "E501",', "fail_under = 90"]
    out = assess(fc("pyproject.toml", added_lines=settings), NO_CTX)
    assert all("dependency" not in r for r in out.reasons)


def test_context_paths_accept_prefixes_and_globs() -> None:
    ctx = RiskContext(paths=("src", "docs/**/*.md", "./README.md"))
    assert assess(fc("src/a/b.py"), ctx).risk == "low"
    assert assess(fc("docs/guide/intro.md"), ctx).risk == "low"
    assert assess(fc("README.md"), ctx).risk == "low"
    assert assess(fc("srcx/a.py"), ctx).risk == "medium"


def test_not_mentioned_is_not_judged_without_a_report() -> None:
    assert assess(fc("a.py"), RiskContext(claimed=None)).risk == "low"
    assert assess(fc("b.py", kind="renamed", old_path="a.py"), RiskContext(claimed=frozenset({"a.py"}))).risk == "low"


def test_path_classes() -> None:
    assert is_test_path("pkg/foo_test.go") and is_test_path("src/__tests__/x.js") and is_test_path("conftest.py")
    assert not is_test_path("src/contest.py")
    # A root test.js (many npm packages) and Rust's src/tests.rs read as source once, and outranked the fix.
    assert is_test_path("test.js") and is_test_path("src/tests.rs") and is_test_path("src/parse_tests.rs")
    assert not is_test_path("latest.js") and not is_test_path("src/attest.rs") and not is_test_path("src/test_utils.rs")
    assert is_secret_path("deploy/id_rsa") and is_secret_path(".env") and not is_secret_path(".env.sample")


def test_line_matters_keeps_signals_manifest_lines_and_source_code() -> None:
    assert line_matters("tests/test_a.py", "    assert x")
    assert line_matters("tests/test_a.py", "def test_parses():")
    assert not line_matters("tests/test_a.py", "    data = load()")
    assert line_matters("package.json", '"a": "1"')
    assert line_matters("setup.cfg", "fail_under = 80")
    assert line_matters("src/a.py", "x = 1")
    assert not line_matters("src/a.py", "    # a comment")
    assert not line_matters("src/a.ts", "  // a comment")
    # A docs page's code sample is read as code (round 20 part B); its markup is not.
    assert line_matters("README.md", "x = 1")
    assert not line_matters("README.md", "## Usage")
    assert not line_matters("README.md", "| a | b |")
    assert not line_matters("package.json", "   ")



@pytest.mark.parametrize("path", ["build.rs", "webpack.config.js", "gulpfile.js"])
def test_a_build_script_in_a_language_is_read_as_code(path: str) -> None:
    # It runs at every build: a condition it turns (a probe inverted, a flag forced) is a line the rules read, not only a
    # risky word (a worker's line slipped into build.rs instead of src/ is not walked around the readers).
    assert line_matters(path, "    if probe_ok {")
    assert not line_matters(path, "    // a comment")
    assert not line_matters("Makefile", "	if probe_ok {")  # no language's code: its commands are read by their own screens


def test_file_change_round_trips_after_assess() -> None:
    out = assess(fc("src/auth.py", ranges=[(1, 2)]), NO_CTX)
    again = msgspec.json.decode(msgspec.json.encode(out), type=FileChange)
    assert again == out


# --------------------------------------------------------------------------- file kinds


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/tar/unpack.py", "source"),
        ("lib/unpack.js", "source"),
        ("tests/test_unpack.py", "test"),
        ("test/fixtures/links.tar", "test"),
        ("docs/security/sessions.rst", "docs"),
        ("SECURITY.md", "docs"),
        ("changelog/1234.bugfix.rst", "docs"),
        ("CHANGES", "docs"),
        ("examples/auth/server.py", "example"),
        ("benchmarks/bench_lexer.py", "example"),
        ("package-lock.json", "lockfile"),
        ("pyproject.toml", "manifest"),
        (".github/workflows/ci.yml", "ci"),
        ("Makefile", "build"),
        ("dist/bundle.min.js", "generated"),
        ("tap-snapshots/test/unpack.js.test.cjs", "generated"),
        # Other people's code, copied in: reviewed upstream (joblib 1.2.0's loky outranked the fix).
        ("joblib/externals/loky/backend/context.py", "generated"),
        ("src/wheel/vendored/packaging/tags.py", "generated"),
        ("src/pip/_vendor/rich/text.py", "generated"),
        ("fuzz/fuzz_targets/parse.rs", "test"),
        ("t/basic.t", "test"),
        ("src/parser_test.c", "test"),
        ("assets/logo.png", "data"),
    ],
)
def test_file_kind_classifies_by_path(path: str, kind: str) -> None:
    assert file_kind(path) == kind


# --------------------------------------------------------------------------- path words


@pytest.mark.parametrize("path", ["SECURITY.md", "examples/auth/server.py", "docs/topics/sessions.rst", "tests/test_auth.py"])
def test_auth_path_word_never_makes_prose_examples_or_tests_high(path: str) -> None:
    assert assess(fc(path, additions=1, added_lines=["x = 1"]), NO_CTX).risk == "low"


def test_auth_path_word_reads_the_file_name_not_the_folder() -> None:
    # Regression: a project whose whole tree sits under "crypto/" was high everywhere.
    assert assess(fc("lib/crypto/padding.py", additions=1, added_lines=["width = 8"]), NO_CTX).risk == "low"
    assert assess(fc("lib/crypto/cipher.py", additions=1, added_lines=["width = 8"]), NO_CTX).risk == "high"


def test_auth_path_word_is_quiet_on_import_sorting() -> None:
    sorted_imports = fc("pkg/auth.py", additions=2, deletions=2, removed_lines=["import sys", "import os"], added_lines=["import os", "import sys"])
    edited = fc("pkg/auth.py", additions=2, deletions=2, removed_lines=["import sys", "import os"], added_lines=["import os", "import subprocess"])
    assert assess(sorted_imports, NO_CTX).risk == "low"
    assert assess(edited, NO_CTX).risk == "high"


# --------------------------------------------------------------------------- tokens in changed source lines


@pytest.mark.parametrize(
    ("path", "line", "category"),
    [
        ("src/client.py", '        headers.pop("Authorization", None)', "headers/cookies"),
        ("src/client.go", "\tif req.Response != nil && isRedirect(req) {", "redirects"),
        ("src/tls.py", "    ctx.check_hostname = False", "TLS verification"),
        ("src/unpack.ts", "  const target = path.resolve(cwd, entry.linkpath)", "paths/symlinks"),
        ("src/entry.rs", "        let meta = fs::symlink_metadata(&dst)?;", "paths/symlinks"),
        ("src/output.py", "    value = value.replace('\\\\', '\\\\\\\\')", "escaping/execution"),
        ("src/archive.rs", "        let size = size.checked_add(511).ok_or_else(overflow)?;", "limits/overflow"),
        ("src/keys.py", "        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)", "permissions/auth"),
        ("src/norm.ts", "  s = s.normalize('NFD')", "unicode normalization"),
        ("lib/merge.js", "    if (key === '__proto__') continue", "prototype pollution"),
        # Regression: json5's CVE-2022-46175 fix (assignment -> defineProperty) was low.
        ("lib/parse.js", "            Object.defineProperty(parent, key, {", "prototype pollution"),
        ("jwt/keys.py", "    b'-----BEGIN RSA PUBLIC KEY-----',", "keys/certificates"),
        ("src/transport.py", "        self._expected_seqno = 0", "crypto state"),
        ("src/lexer.py", "    (r'\\$([_A-Z]\\w*)?\\$.*?\\$\\1\\$', tokens.Literal),", "regular expression"),
        # Regressions, found on held-out-2 (overall low): goutils 1.1.1 (GHSA-xg2h-wx96-xgxr, weak
        # random strings), smallvec 1.6.1 (insert_many's raw copies), gjson 1.6.4 (a missing bound).
        ("randomstringutils.go", "\t\tposition := rand.Intn(count)", "randomness"),
        ("lib/token.js", "  const id = crypto.randomBytes(16).toString('hex')", "randomness"),
        ("src/lib.rs", "                ptr::copy(cur, cur.add(1), old_len - index);", "memory safety"),
        ("src/buf.c", "    memcpy(dst, src, n);", "memory safety"),
        ("gjson.go", "\t\t\t\t\tif i >= len(json) {", "limits/overflow"),
        ("lib/read.js", "  if (pos > buf.length) throw new RangeError('out of range')", "limits/overflow"),
        # The classic sinks, by name.
        ("src/xml.py", "    parser = etree.XMLParser(resolve_entities=False, no_network=True)", "XML entities"),
        ("src/Reader.java", "        factory.setFeature(\"http://apache.org/xml/features/disallow-doctype-decl\", true);", "XML entities"),
        ("lib/config.rb", "    data = YAML.load(text)", "deserialization"),
        ("src/Session.php", "        $data = unserialize($raw);", "deserialization"),
        ("src/render.ts", "  el.innerHTML = marked(text)", "HTML injection"),
        ("app/helpers.py", "    return mark_safe(value)", "HTML injection"),
        ("src/store.py", "    cur.execute(f\"SELECT * FROM items WHERE name = '{name}'\")", "SQL built from strings"),
        ("src/store.js", "  db.query(\"DELETE FROM items WHERE id = \" + id)", "SQL built from strings"),
        ("src/run.go", "\tcmd := exec.Command(\"git\", args...)", "escaping/execution"),
        ("src/hooks.py", "    subprocess.run(argv, check=True)", "escaping/execution"),
        ("src/view.go", "\treturn template.HTML(s)", "HTML injection"),
        # Regressions (held-out-4's one run, overall low): ultrajson b21da40 (a double free), commons-
        # compress CVE-2024-25710 (a wrap-around and a size below one) and CVE-2019-12402 (underflow
        # loop), jsoup CVE-2022-36033 (control characters in URLs), ruby/uri CVE-2025-61594 (userinfo
        # kept across hosts), Archive_Tar CVE-2020-28948 (the check named for what it refuses).
        ("lib/ultrajsondec.c", "        ds->dec->free(ds->escStart);", "memory safety"),
        ("DumpArchiveUtil.java", "            if (offset > offset + len) {", "limits/overflow"),
        ("TapeInputStream.java", "        if (blockSize < 1) {", "limits/overflow"),
        ("NioZipEncoding.java", "            } else if (res.isUnderflow() || res.isError()) {", "limits/overflow"),
        ("StringUtil.java", "    private static final Pattern controlChars = Pattern.compile(\"[\\\\x00-\\\\x1f]*\");", "escaping/execution"),
        ("lib/uri/generic.rb", "      @password = password if password", "credentials"),
        ("Archive/Tar.php", "        if ($this->_isMaliciousFilename($v_header['filename'])) {", "advisory"),
        # Regression (held-out-5's one run, overall low): plexus-archiver's zip-slip fix d4f6b500.
        ("AbstractUnArchiver.java", "        Path canonicalDirPath = dir.getCanonicalFile().toPath();", "paths/symlinks"),
        # Regression (held-out-3's one run): golang-jwt 4.5.1 moved the signature check before the
        # claims check (CVE-2024-51744); overall low.
        ("parser.go", "\tif err := token.Method.Verify(strings.Join(parts[0:2], \".\"), token.Signature, key); err != nil {", "permissions/auth"),
        # Regressions (held-out-7's one run, overall low): libzip CVE-2015-2331 (a count held
        # against its type's largest value), libzip 2217022b (a double free: the library's own
        # release call removed), shell-quote CVE-2016-10541 (a hand-written escaping replace).
        ("lib/zip_dirent.c", "    else if ((nentry > SIZE_MAX/sizeof(*(cd->entry))) || (cd->entry=malloc(n)) == NULL) {", "limits/overflow"),
        ("reader.go", "	if n > math.MaxInt32 {", "limits/overflow"),
        ("src/lib.rs", "        if len > u32::MAX as usize {", "limits/overflow"),
        ("lib/zip_dirent.c", "	    _zip_buffer_free(buffer);", "memory safety"),
        # Regressions (held-out-9's one run, overall low): openjpeg CVE-2020-6851 (a value held
        # against INT_MAX through a cast), file CVE-2019-18218 (a count refused above a named limit).
        ("src/lib/openjp2/j2k.c", "        if (p_image->x0 > (OPJ_UINT32)INT_MAX ||", "limits/overflow"),
        ("src/cdf.c", "\t\t\tif (nelements > CDF_ELEMENT_LIMIT || nelements == 0) {", "limits/overflow"),
        ("index.js", "            return String(s).replace(/([#!\"$&'()*,:;<=>?@\\[\\\\\\]^`{|}])/g, '\\\\$1');", "escaping/execution"),
    ],
)
def test_security_tokens_fire_on_each_category_in_changed_source_lines(path: str, line: str, category: str) -> None:
    change = fc(path, additions=1, added_lines=[line])
    out = assess(change, NO_CTX)
    # The row alone: where a risky line's own row fires too (mark_safe, YAML.load), it outranks this one on the file.
    assert out.risk == "high" and f"({category}:" in (rule_fires(RULE_BY_NAME["security_tokens"], change, NO_CTX) or ""), out.reasons


@pytest.mark.parametrize(
    "line",
    [
        "    total = len(items) + offset",
        "    return self.path",
        "    user = users.get(name)",
        "    limit = options.limit",
        "import securejoin.internal",
        "    for i in range(len(data)):",
        "  const out = [];",
        "\tp := unsafe.Pointer(&buf[0])",
        "  if (value.constructor === Array) {",
        # A seeded shuffle in data code, a loop over a slice, a length compared with a constant.
        "    np.random.shuffle(indices)",
        "\tfor i := 0; i < len(s); i++ {",
        "    if len(parts) > 3:",
        # SQL that takes no input, a sentence that starts like SQL.
        '    cur.execute("SELECT id FROM items")',
        '    log("Update the cache for " + name)',
        # An emptiness test of len() is a guard at most (medium), never a token.
        "    if len(items) < 1:",
        "    if (length > 0) {",
        # A sentinel compared with a type's largest value is no bound; a replace without a backslash.
        "    if (pos == SIZE_T_MAX) {",
        "    name = name.replace(/-/g, '_')",
        # Held-out-9's pip 23.3: a package name normalised is no path; a loop up to a named maximum.
        "        name = canonicalize_name(req.name)",
        "    for (i = 0; i < MAX_NAMES; i++) {",
    ],
)
def test_security_tokens_stay_quiet_on_ordinary_code(line: str) -> None:
    out = assess(fc("src/module.py", additions=1, added_lines=[line]), NO_CTX)
    assert out.risk != "high" and not any("security-relevant" in reason for reason in out.reasons), out.reasons


def test_security_tokens_skip_prose_lines_of_a_block_comment() -> None:
    # Regression (held-out-9, pcre2 10.40): a licence header's line inside /* … */ has no comment
    # mark of its own, so "written permission." read as a permission check (high) in a table file.
    licence = ["      this software without specific prior written permission.", "  int n = 0;"]
    assert assess(fc("src/pcre2_ucd.c", additions=2, added_lines=licence), NO_CTX).risk == "low"
    # Held-out-11's jdom 2.0.6.1: the same licence, its lines cut mid-sentence, an address, a quoted name.
    jdom = ["    derived from this software without prior written permission.  For",
            "    written permission, please contact <request_AT_jdom_DOT_org>.",
            '    may "JDOM" appear in their name, without prior written permission']
    assert assess(fc("src/Util.java", additions=3, added_lines=jdom), NO_CTX).risk == "low"
    code = ["      if (permission != GRANTED) {", "  int n = 0;"]
    assert assess(fc("src/pcre2_ucd.c", additions=2, added_lines=code), NO_CTX).risk == "high"


@pytest.mark.parametrize(
    ("path", "line", "found"),
    [
        # Regressions: algorithmic-DoS and unclean-root fixes whose only words were in comments
        # (sqlparse GHSA-f2ff-p2ww-7p4p, filepath-securejoin's unclean root) were ranked low.
        ("sqlparse/engine/grouping.py", "            # per remaining comment token (which is O(n**2)).", "advisory: O(n**2)"),
        ("join.go", "\t// the root must not be attacker-controlled.", "advisory: attacker"),
        # Regression: js-yaml 3.13.0's fix said why in a comment ("... or execute code via toString").
        ("lib/loader.js", "  // (deeply nested arrays that explode exponentially using aliases) or execute code via toString.", "advisory: execute code"),
        ("src/lib.rs", "    // RUSTSEC-2021-0074: strip the attribute", "advisory: RUSTSEC-2021-0074"),
        ("lib/parse.js", "  // CVE-2022-46175: refuse such keys", "advisory: CVE-2022-46175"),
    ],
)
def test_security_tokens_read_comments_that_name_an_advisory_or_attack(path: str, line: str, found: str) -> None:
    assert line_matters(path, line)
    out = assess(fc(path, additions=2, added_lines=[line, "    break"]), NO_CTX)
    assert out.risk == "high" and found in out.reasons[0], out.reasons


def test_mechanical_comment_only_change_naming_a_cve_stays_mechanical() -> None:
    change = fc("src/parse.py", additions=1, added_lines=["    # see CVE-2022-46175 for why keys are checked"])
    out = assess(change, NO_CTX)
    assert out.risk == "low" and out.reasons == ["mechanical: comments or blank lines only"]


@pytest.mark.parametrize(
    ("line", "fires"),
    [
        # Regression: node-tar's negative-size fix (GHSA-8x88-c5mf-7j5w) had no token at all.
        ("            (k === 'size' && Number(v) < 0) ||", True),
        ("    if len(data) > MAX_LINE_LENGTH:", True),
        ("    if (header.size > this.maxSize) throw new Error('too big')", True),
        # Regression: python-ecdsa's DER length checks (0.13.3) were low.
        ("    if length > len(string) - 1 - lengthlength:", True),
        ("    if len(crypto) > blocksize:", True),
        ("  for (let i = len - 1; i >= 0; i--) {", False),
        ("    total = offset + length", False),
    ],
)
def test_security_tokens_see_bounds_on_sizes(line: str, fires: bool) -> None:
    out = assess(fc("src/header.ts", additions=1, added_lines=[line]), NO_CTX)
    assert (out.risk == "high") is fires, out.reasons


@pytest.mark.parametrize(
    ("removed", "added", "fires"),
    [
        # Regressions: one-line ReDoS fixes (glob-parent 5.1.2, ansi-regex 6.0.1) were overall low.
        (["var enclosure = /[\\{\\[].*[\\/]*.*[\\}\\]]$/;"], ["var enclosure = /[\\{\\[].*[\\}\\]]$/;"], True),
        (["\t\t'[\\\\u001B\\\\u009B][[\\\\]()#;?]*(?:(?:(?:[a-zA-Z\\\\d]*(?:;[a-zA-Z\\\\d]*)*)?\\\\u0007)',"],
         ["\t\t'[\\\\u001B\\\\u009B][[\\\\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\\\\d\\\\/#&.:=?%@~_]+)*)?\\\\u0007)',"], True),
        # Only added, or only re-quoted by a formatter: not an edited pattern.
        ([], ["const word = /\\w+/g;"], False),
        (["var p = /^\\s+(?:x)*$/;"], ["var p = /^\\s+(?:x)*$/"], False),
        # A division is not a regex literal.
        (["  total = a / b + c / d"], ["  total = a / b + c / e"], False),
        # Regressions (held-out-2, overall low or ranked below setup.cfg): a pattern written over
        # several lines of a Python r"""...""" string (wheel 0.38.0's WHEEL_INFO_RE, mako 1.2.2).
        (['    r"""^(?P<namever>(?P<name>.+?)-(?P<ver>.+?))(-(?P<build>\\d[^-]*))?'],
         ['    r"""^(?P<namever>(?P<name>[^-]+?)-(?P<ver>[^-]+?))(-(?P<build>\\d[^-]*))?'], True),
        (["            ((?:\\s+\\w+|\\s*=\\s*|\".*?\"|'.*?')*)  # attrname, = \\"],
         ["            ((?:\\s+\\w+|\\s*=\\s*|\"[^\"]*?\"|'[^']*?'|\\s*,\\s*)*)  # attrname, = \\"], True),
        # A ReDoS fix that scans by hand instead (trim-newlines 4.0.1); a pattern deleted with
        # the little code around it is not one.
        (["\treturn string.replace(/[\\r\\n]+$/, '');"], ["\tlet end = string.length;", "\twhile (end > 0 && string[end - 1] === '\\n') {",
          "\t\tend--;", "\t}", "\treturn string.slice(0, end);"], True),
        (["\treturn string.replace(/[\\r\\n]+$/, '');"], ["\treturn string;"], False),
    ],
)
def test_security_tokens_see_an_edited_regular_expression(removed: list[str], added: list[str], fires: bool) -> None:
    change = fc("index.js", additions=len(added), deletions=len(removed), added_lines=added, removed_lines=removed)
    out = assess(change, NO_CTX)
    assert (out.risk == "high" and "regular expression" in out.reasons[0]) is fires, out.reasons


def test_security_tokens_see_a_regular_expression_longer_than_a_kept_line() -> None:
    # Regression: semver-regex 4.0.1 (CVE-2021-3795) edits a long one-line pattern; observation cuts
    # a line at LINE_CHARS, so when neither side holds a whole literal the cut one is still read.
    old = "\treturn /(?<=^v?|\\sv?)(?:(?:0|[1-9]\\d*)\\.){2}(?:0|[1-9]\\d*)(?:-(?:0|[1-9]\\d*|[\\da-z-]*[a-z-][\\da-z-]*)" + "(?:\\.[\\da-z-]+)*" * 80 + "/gi;"
    new = old.replace("[1-9]\\d*)\\.", "[1-9]\\d{0,9})\\.")
    cut = [line[:LINE_CHARS] for line in (old, new)]
    assert all(len(line) == LINE_CHARS for line in cut)
    out = assess(fc("index.js", additions=1, deletions=1, removed_lines=[cut[0]], added_lines=[cut[1]]), NO_CTX)
    assert out.risk == "high" and "regular expression" in out.reasons[0], out.reasons
    same = assess(fc("index.js", additions=1, deletions=1, removed_lines=[cut[0]], added_lines=[cut[0] + ""]), NO_CTX)
    assert same.risk == "low", same.reasons


def test_security_tokens_ignore_a_token_line_a_formatter_only_rewrapped() -> None:
    # Regression: Black runs (jinja 04c87871) made loaders.py high on an os.path.join line it re-wrapped.
    removed = ["                    template = os.path.join(dirpath, filename) \\", "                        [len(searchpath):].strip(os.path.sep)", *CODE40[:20]]
    added = ["                    template = (", "                        os.path.join(dirpath, filename)[len(searchpath) :]", "                        .strip(os.path.sep)", ")", *CODE40[:20]]
    change = fc("src/loaders.py", additions=len(added), deletions=len(removed), added_lines=added, removed_lines=removed)
    assert assess(change, NO_CTX).risk == "low"
    # The same line edited for real, in the same company, still fires.
    added[1] = "                        safe_join(dirpath, filename)"
    change = fc("src/loaders.py", additions=len(added), deletions=len(removed), added_lines=added, removed_lines=removed)
    assert assess(change, NO_CTX).risk == "high"


def test_security_tokens_see_path_cleaning_in_go() -> None:
    out = assess(fc("join.go", additions=1, added_lines=["\tif filepath.Clean(root) != root {"]), NO_CTX)
    assert out.risk == "high" and "paths/symlinks" in out.reasons[0], out.reasons


def test_assess_all_raises_source_beside_a_test_naming_an_advisory() -> None:
    # Regression: bleach 3.1.1 (CVE-2020-6802) flipped one default in source; its test named
    # GHSA-q65m-pv3f-wr5r in a comment, and the whole change came out low.
    shim = fc("bleach/html5lib_shim.py", additions=1, deletions=1, removed_lines=["    def _parse(self, scripting=False):"], added_lines=["    def _parse(self, scripting=True):"])
    test = fc("tests/test_clean.py", additions=3, added_lines=["    # refs: bug 1615315 / GHSA-q65m-pv3f-wr5r", "def test_noscript_rawtag_(raw_tag, data, expected):"])
    docs = fc("CHANGES", additions=5)
    out = {c.path: c for c in assess_all([shim, test, docs], NO_CTX)}
    # The flipped default is quoted first (round 30, relay.review.leading_lines), the advisory beside it.
    assert out["bleach/html5lib_shim.py"].risk == "medium" and "GHSA-q65m-pv3f-wr5r" in out["bleach/html5lib_shim.py"].reasons[1]
    assert "scripting=True" in out["bleach/html5lib_shim.py"].reasons[0]
    assert out["CHANGES"].risk == "low" and out["tests/test_clean.py"].risk == "low"
    plain = {c.path: c for c in assess_all([shim, fc("tests/test_clean.py", additions=1, added_lines=["def test_noscript():"])], NO_CTX)}
    # Without the advisory the flipped default is not raised by it; the change is otherwise low, so the quoted turn is
    # worth a look on its own (relay.review.low_change_floor, round 34).
    assert plain["bleach/html5lib_shim.py"].rules == ["low_change_quote"] and not any("GHSA" in r for r in plain["bleach/html5lib_shim.py"].reasons)


@pytest.mark.parametrize(
    ("test", "found"),
    [
        # Regression: smallvec 1.6.1's fix came with "fn test_insert_many_overflow" and was overall low.
        (fc("src/tests.rs", additions=3, added_lines=["#[test]", "fn test_insert_many_overflow() {", "    assert_eq!(&*v, &[0, 2, 4, 123]);"]), "overflow"),
        (fc("test/parse.js", additions=1, added_lines=["it('rejects too deep nesting', () => {"]), "too deep"),
        # Regression: go-yaml 2.2.8 (CVE-2019-11254) added a case to limit_test.go, named nothing.
        (fc("limit_test.go", additions=1, added_lines=['\t{name: "1000kb of 10000-nested lines", data: []byte(x)},']), "limit_test.go"),
    ],
)
def test_assess_all_raises_source_beside_a_test_named_for_an_attack_or_a_bound(test: FileChange, found: str) -> None:
    source = fc("src/lib.rs", additions=3, deletions=1, removed_lines=["    self.reserve(n);"], added_lines=["    let mut added = 0;", "    self.reserve(n);", "    added += 1;"])
    out = {c.path: c for c in assess_all([source, test], NO_CTX)}
    assert out["src/lib.rs"].risk == "medium" and found in out["src/lib.rs"].reasons[0], out["src/lib.rs"].reasons
    assert all(line_matters(test.path, line) for line in test.added_lines if "name" in line or "fn " in line)
    # A case named for what it parses, or an attack word in a case's body only, says nothing.
    # A formatter's run over a file named for security re-wraps its cases and adds none (jinja 04c87871).
    rewrapped = fc("tests/test_security.py", additions=2, deletions=1, removed_lines=["    def test_unsafe(self, env): assert f(env)"],
                   added_lines=["    def test_unsafe(self, env):", "        assert f(env)"])
    for quiet in (fc("src/tests.rs", additions=2, added_lines=["fn test_insert_many() {", "    assert_eq!(v.max_size(), 3);"]),
                  fc("parse_test.go", additions=1, added_lines=['\t{name: "nested lines", data: []byte(x)},']), rewrapped):
        plain = {c.path: c for c in assess_all([source, quiet], NO_CTX)}
        assert plain["src/lib.rs"].risk == "low", plain["src/lib.rs"].reasons


def test_assess_all_raises_source_where_the_changelog_names_a_security_fix() -> None:
    # Regression (held-out-3's one run): expat 2.4.9 and 2.5.0 fixed use-after-frees in xmlparse.c
    # with no token a reader could see; the release's Changes named CVE-2022-40674, and the file
    # was low, behind ten workflow files.
    fix = fc("expat/lib/xmlparse.c", additions=2, deletions=1, removed_lines=["    return doContent(parser);"], added_lines=["    result = doContent(parser);", "    return result;"])
    line = "            #629 #640  CVE-2022-40674 -- Heap use-after-free vulnerability in function doContent"
    assert line_matters("expat/Changes", line)
    out = {c.path: c for c in assess_all([fix, fc("expat/Changes", additions=1, added_lines=[line])], NO_CTX)}
    assert out["expat/lib/xmlparse.c"].risk == "medium" and "CVE-2022-40674" in out["expat/lib/xmlparse.c"].reasons[0]
    assert out["expat/Changes"].risk == "low"
    # A changelog that says "untrusted input" or "injection" about a feature names no fix.
    feature = fc("CHANGES.md", additions=1, added_lines=["- Dependency injection for untrusted input sources"])
    plain = {c.path: c for c in assess_all([fix, feature], NO_CTX)}
    assert plain["expat/lib/xmlparse.c"].risk == "low", plain["expat/lib/xmlparse.c"].reasons


def test_a_file_the_changelog_names_beside_an_advisory_is_high_and_first() -> None:
    # Regression (held-out-5's one run): phpseclib 2.0.31's CHANGELOG said "RSA: cleanup RSA PKCS#1
    # v1.5 signature verification (CVE-2021-30130)"; Crypt/RSA.php came sixth, behind bigger files
    # with tokens of their own.
    rsa = fc("phpseclib/Crypt/RSA.php", additions=3, deletions=2, added_lines=["    if ($em !== $expected) {"], removed_lines=["    if ($em != $expected) {"])
    ssh = fc("phpseclib/Net/SSH2.php", additions=80, deletions=40, added_lines=["        if (!$this->authenticate($user)) {"])
    note = fc("CHANGELOG.md", additions=2, added_lines=["- RSA: cleanup RSA PKCS#1 v1.5 signature verification (CVE-2021-30130)", "- SSH2: add getTimeout() method (#1889)"])
    out = assess_all([rsa, ssh, note], NO_CTX)
    order = [c.path for c in rank_changes(out)]
    assert order[0] == "phpseclib/Crypt/RSA.php", order
    named = next(c for c in out if c.path == "phpseclib/Crypt/RSA.php")
    assert named.risk == "high" and "CVE-2021-30130" in named.reasons[0], named.reasons
    # A line of the same changelog that names no advisory names no file (SSH2 stays as it was).
    assert not any("names this file" in r for c in out for r in c.reasons if c.path.endswith("SSH2.php"))


# A fix with nothing in its lines that says "security" (held-out-9's libxslt use-after-free fix).
_QUIET_FIX = fc("libxslt/transform.c", additions=1, ranges=[(812, 812)], added_lines=["    ctxt->lasttext = NULL;"])
_BIGGER = fc("libxslt/extensions.c", additions=40, deletions=12, ranges=[(100, 140)], added_lines=CODE40)


def test_a_task_that_names_a_security_fix_makes_its_quiet_source_edits_medium() -> None:
    plain = {c.path: c for c in assess_all([_QUIET_FIX, _BIGGER], NO_CTX)}
    assert plain["libxslt/transform.c"].risk == "low"  # the diff alone says nothing
    for task in ("Fix the heap use-after-free in xsltApplyTemplates (CVE-2024-55549).",
                 "Fix the security issue reported in #123: a crafted stylesheet frees the text node twice",
                 "GHSA-xxxx-yyyy-zzzz: stop the out-of-bounds read when copying text"):
        named, words = task_security(task)
        out = {c.path: c for c in assess_all([_QUIET_FIX, _BIGGER], RiskContext(task_security=named, task_words=words))}
        assert out["libxslt/transform.c"].risk == "medium", (task, out["libxslt/transform.c"].reasons)
        assert "the task names" in out["libxslt/transform.c"].reasons[0]


@pytest.mark.parametrize("task", [
    "Fix the XXE in the XLSX reader", "Stop the integer overflow when a chunk length is near 2**32",
    "Close the sandbox escape through Function.prototype", "Reject crafted archives (zip slip) in extract()",
    "Make the parser safe for untrusted input", "Fix ReDoS in the email validator", "Fix a security issue in the tokenizer",
    # Held-out-13's tasks, written from advisories, that the first reading missed:
    "Prepare release 12.3.2: fix possible ReDOS in newline rule.",
    "Fix the uncontrolled resource consumption: patterns with length > 50K chars slow the parser down",
    "Fix the StackOverflowError calling ListDelimiterHandler.flatten(Object, int) with a cyclical object tree.",
    "Make the reader refuse a specially crafted RAR file whose dictionary size is too large",
    # Held-out-15's, likewise:
    "Fix comrak so that unsafe URLs, like javascript: ones, cannot be smuggled into the output",
    "Prepare release 1.0.3: fix memory errors reported in crbug.com/1504792",
    # Held-out-16's, likewise:
    "Prepare release 0.13.68: fix a number of CVEs reported with special *.zip files",
    "Fix the inefficient regular expression complexity in the function parse of the file index.js",
    "Fix the segmentation fault caused by invalid memory access in the zzip_disk_fread function",
    "Prepare release 8.14.4: fix null-pointer dereference during svgload",
    # Held-out-17's, likewise:
    "Prepare release 3.8.4: security: fix `include` bypass of `EntryFilter#filter` symlink check (#7228).",
    "Prevent arbitrary method invocation on condition objects in the if tag.",
])
def test_task_security_reads_the_ways_a_leader_names_a_security_fix(task: str) -> None:
    assert task_security(task)[0], task


def test_a_task_that_names_no_security_fix_changes_nothing() -> None:
    # Prose that sounds like an attack but asks for none (advisory_words, made for code comments,
    # fires on the first three).
    for task in ("Add a --quiet flag to the transform command", "Refactor transform.c to use the new text buffer API",
                 "Handle the security settings page in the docs", "Add dependency injection to the service layer",
                 "Make the merge step not quadratic in the number of files", "Fix the infinite loop in the retry helper",
                 "Double the default buffer size", "Show the overflow menu on small screens",
                 "Reduce memory use of the cache", "Mark the FFI wrappers unsafe", "Add a javascript: example to the docs",
                 "Return a null pointer instead of panicking", "Add a cve field to the advisory model",
                 "Accept an arbitrary number of arguments", "Document the security: section of the config"):
        named, words = task_security(task)
        assert (named, words) == ("", frozenset()), task
    out = assess_all([_QUIET_FIX], RiskContext())
    assert out[0].risk == "low"


def test_the_file_a_security_task_names_is_high_and_first() -> None:
    named, words = task_security("Fix CVE-2024-55549: use-after-free in transform.c when a template is applied twice")
    out = assess_all([_BIGGER, _QUIET_FIX], RiskContext(task_security=named, task_words=words))
    order = [c.path for c in rank_changes(out)]
    assert order[0] == "libxslt/transform.c", order
    fixed = next(c for c in out if c.path == "libxslt/transform.c")
    assert fixed.risk == "high" and "CVE-2024-55549" in fixed.reasons[0], fixed.reasons
    other = next(c for c in out if c.path == "libxslt/extensions.c")
    assert other.risk == "medium", other.reasons
    # A test or note of the change itself names the fix already: the task adds no second reason.
    note = fc("NEWS", additions=1, added_lines=["  - CVE-2024-55549: use-after-free in transform"])
    with_note = {c.path: c for c in assess_all([_QUIET_FIX, note], RiskContext(task_security=named, task_words=words))}
    assert with_note["libxslt/transform.c"].reasons[0].startswith("the change's security note names this file")
    assert not any("task" in r for r in with_note["libxslt/transform.c"].reasons), with_note["libxslt/transform.c"].reasons


def test_a_keep_a_changelog_security_section_and_a_pathological_test_mark_the_fix() -> None:
    # Regression (held-out-13's one run): markdown-it 12.3.2 replaced `replace(/ +$/, '')` by a loop
    # (ReDoS); its CHANGELOG said "### Security / - Fix possible ReDOS in newline rule." and it added
    # a case to test/pathological.js, yet the run was overall low.
    fix = fc("lib/rules_inline/newline.js", additions=5, deletions=1, removed_lines=["        state.pending = state.pending.replace(/ +$/, '');"],
             added_lines=["        ws = pmax - 1;", "        while (ws >= 1 && state.pending.charCodeAt(ws - 1) === 0x20) ws--;", "        state.pending = state.pending.slice(0, ws);"])
    for line in ("### Security", "- Fix possible ReDOS in newline rule. Thanks to @MakeNowJust."):
        assert line_matters("CHANGELOG.md", line), line
        out = {c.path: c for c in assess_all([fix, fc("CHANGELOG.md", additions=1, added_lines=[line])], NO_CTX)}
        assert out["lib/rules_inline/newline.js"].risk != "low", (line, out["lib/rules_inline/newline.js"].reasons)
    test = fc("test/pathological.js", additions=6, added_lines=["  it('newline', async () => {", "    await test_pattern('x' + ' '.repeat(100000) + 'x  \\nx')"])
    out = {c.path: c for c in assess_all([fix, test], NO_CTX)}
    assert out["lib/rules_inline/newline.js"].risk == "medium", out["lib/rules_inline/newline.js"].reasons
    # "Security" in a sentence or another heading names no fix.
    for line in ("## Security considerations for plugins", "Security is discussed in SECURITY.md"):
        plain = {c.path: c for c in assess_all([fix, fc("CHANGELOG.md", additions=1, added_lines=[line])], NO_CTX)}
        # the loop is new logic, worth a look as such (relay.review.new_logic), not as a security fix
        assert plain["lib/rules_inline/newline.js"].rules == ["new_logic"], (line, plain["lib/rules_inline/newline.js"].reasons)


def test_a_version_bump_is_never_the_file_a_task_names() -> None:
    # Regression (held-out-14's one run): IPython 8.0.1's task said "Prepare release 8.0.1, a security
    # release (CVE-2022-21699)…"; core/release.py, whose one change is `_version_patch = 1`, was
    # named by "release" and went first, ahead of the fixed profiledir.py.
    named, words = task_security("Prepare release 8.0.1, a security release (CVE-2022-21699): stop searching the working directory for profiles")
    bump = fc("IPython/core/release.py", additions=1, deletions=1, removed_lines=["_version_patch = 0"], added_lines=["_version_patch = 1"])
    fix = fc("IPython/core/profiledir.py", additions=2, deletions=2, removed_lines=["        paths = [os.getcwd(), ipython_dir]"], added_lines=["        paths = [ipython_dir]"])
    out = rank_changes(assess_all([bump, fix], RiskContext(task_security=named, task_words=words)))
    assert [c.path for c in out] == ["IPython/core/profiledir.py", "IPython/core/release.py"], [(c.path, c.reasons) for c in out]
    assert out[1].risk == "low" and out[1].reasons == ["version bump"], out[1].reasons
    assert assess(fc("src/lcms2.h", additions=1, deletions=1, removed_lines=["#define LCMS_VERSION        2080"], added_lines=["#define LCMS_VERSION        2090"]), NO_CTX).reasons == ["version bump"]


def test_clearing_the_executable_bit_is_low_and_not_the_fix_a_task_names() -> None:
    # Regression (held-out-13's one run): fastjson 1.2.69 cleared the executable bit on ~900 files;
    # each was "permission bits changed" medium and the fixed ParserConfig.java (low) fell out of
    # the targets. With the task read, mode-only files were also "changed for the security fix".
    cleared = fc("src/main/java/com/alibaba/fastjson/JSON.java", kind="mode", mode_before="100755", mode_after="100644")
    out = assess(cleared, RiskContext(task_security="CVE-2022-25845"))
    assert out.risk == "low" and out.reasons == ["permission bits changed (100755 → 100644)"], out.reasons
    made_runnable = assess(fc("tools/run.sh", kind="mode", mode_before="100644", mode_after="100755"), NO_CTX)
    assert made_runnable.risk == "medium", made_runnable.reasons


def test_huge_new_test_data_is_more_tests_not_a_very_large_change() -> None:
    # Regression (held-out-5's one run): elliptic 6.5.4 added a 7,678-line fixture table under test/,
    # called high "very large change" above the fixed source.
    fixture = assess(fc("test/fixtures/derivation-fixtures.js", kind="added", additions=7678), NO_CTX)
    assert fixture.risk == "low", fixture.reasons
    emptied = assess(fc("test/test_parse.py", additions=1500, deletions=900), NO_CTX)
    assert emptied.risk == "high", emptied.reasons
    # Held-out-11's expr 1.17.0: a regenerated fuzz corpus (23,270 lines) is test data, not a risky change.
    corpus = assess(fc("test/fuzz/fuzz_corpus.txt", additions=12000, deletions=11270), NO_CTX)
    assert corpus.risk != "high", corpus.reasons


def test_review_order_puts_repeats_of_one_reason_after_the_rest() -> None:
    # Regression (held-out-3's one run): a release touching ten workflow files filled all eight
    # targets with "CI configuration" and left the fixed source file out of the packet.
    workflows = [assess(fc(f".github/workflows/w{i}.yml", additions=3), NO_CTX) for i in range(10)]
    source = assess(fc("src/jv.c", additions=4, deletions=1, added_lines=["  x = 1;"], removed_lines=["  x = 2;"]), NO_CTX)
    order = [c.path for c in rank_changes([*workflows, source])]
    assert order[:3] == [".github/workflows/w0.yml", ".github/workflows/w1.yml", "src/jv.c"], order
    assert {c.risk for c in workflows} == {"high"}  # demoted in order, not in risk


@pytest.mark.parametrize(
    ("line", "fires"),
    [
        # Regressions (held-out-4's one run, overall low): gomarkdown CVE-2023-42821 and
        # CVE-2024-44337, jsonparser CVE-2020-35381 — each added a length test before indexing.
        ("\t\tif len(data) == 0 {", True),
        ("\tif len(data) > 0 && data[0] != '#' {", True),
        ("\t\t\t\tif keyLen < 3 || keys[level][0] != '[' || keys[level][keyLen-1] != ']' {", True),
        ("    if (s.length < 2) return null;", True),
        ("    if buf.isEmpty() {", True),
        ("\tfor i := 0; i < len(data); i++ {", False),
        ("\tif err != nil {", False),
        ("\tn := len(data) - 1", False),
    ],
)
def test_an_added_length_check_is_worth_a_look(line: str, fires: bool) -> None:
    out = assess(fc("parser/block.go", additions=2, deletions=1, removed_lines=["\treturn prev + n"], added_lines=[line, "\treturn prev + n"]), NO_CTX)
    assert (out.risk == "medium" and out.reasons[0].startswith("adds a length check")) is fires, out.reasons
    # Already there before the change (moved or re-indented): not added.
    moved = assess(fc("parser/block.go", additions=1, deletions=1, removed_lines=[line], added_lines=["  " + line]), NO_CTX)
    assert moved.risk == "low", moved.reasons


@pytest.mark.parametrize(
    ("removed", "added", "fires"),
    [
        # Regressions (held-out-6's one run, overall low): each fix refused one more input or
        # bounded a loop, with no word a token reader knows.
        # libxml2 5e9ec5c1 (CVE-2025-6170): a copy loop gained "&& i < MAX - 1".
        (["        while ((*cur != '\\n') && (*cur != '\\r') && (*cur != 0)) {"],
         ["        while ((*cur != '\\n') && (*cur != '\\r') && (*cur != 0) && (i < (MAX_ARG_SIZE-1))) {"], True),
        # The same over two lines: the old line's condition goes on with a new clause.
        (["               (*cur != '\\n') && (*cur != '\\r')) {"],
         ["               (*cur != '\\n') && (*cur != '\\r') &&", "               (i < (MAX_COMMAND_SIZE - 1))) {"], True),
        # libgit2 3595e237c (CVE-2019-1352): one more refused character.
        (["\tif (path[start] == '\\\\')"], ["\tif (path[start] == '\\\\' || path[start] == ':')"], True),
        # libgit2 467c2d95e: a submodule path refused as invalid.
        ([], ["\tgit_error_set(GIT_ERROR_SUBMODULE, \"invalid value for submodule name: '%s'\", name);"], True),
        # dom4j 835fc99 (CVE-2018-1000632), oniguruma 0f7f61e (CVE-2019-13224).
        ([], ["        throw new IllegalArgumentException(String.format(\"Illegal character in name: '%s'.\", name));"], True),
        (["    r = conv_encoding(ci->pattern_enc, ci->target_enc, pattern, pattern_end,"], ["    return ONIGERR_NOT_SUPPORTED_ENCODING_COMBINATION;"], True),
        # object-path 7bdf4ab (prototype pollution): a key's type checked before use.
        ([], ["      if (typeof currentPath !== 'string' && typeof currentPath !== 'number') {"], True),
        ([], ["    if not isinstance(name, str):"], True),
        # go-git 5.16.5 (CVE-2025-21613/4 follow-up): an index file refused on a checksum mismatch.
        ([], ["\t\treturn fmt.Errorf(\"%w: checksum mismatch: %q instead of %q\","], True),
        ([], ["\t\treturn ErrMalformedIdxFile"], True),
        # Held-out-9: file CVE-2019-18218 put a clause in front; openjpeg refused "not supported" input.
        (["\t\t\tif (nelements == 0) {"], ["\t\t\tif (nelements > ELEMENTS || nelements == 0) {"], True),
        ([], ['            opj_event_msg(p_manager, EVT_ERROR, "Image coordinates above INT_MAX are not supported\\n");'], True),
        # Near misses: a new loop with its own bound, a condition only renamed or re-wrapped,
        # an error about something else, a check that was there before.
        ([], ["    for (i = 0; i < MAX_ARGS; i++) {"], False),
        (["    if (count > limit) {"], ["    if (total > limit) {"], False),
        (["    if (a == b && c == d) {"], ["    if (a == b", "        && c == d) {"], False),
        ([], ["        raise RuntimeError('worker stopped')"], False),
        (["    if typeof x !== 'string' {"], ["        if typeof x !== 'string' {"], False),
        (["    if value:"], ["    if valueordinal:"], False),
        (["    if value:"], ["    if value or default:"], True),
    ],
)
def test_a_changed_input_check_is_worth_a_look(removed: list[str], added: list[str], fires: bool) -> None:
    out = assess(fc("src/parse.c", additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added), NO_CTX)
    assert (out.risk == "medium" and out.reasons[0].startswith("changes an input check")) is fires, out.reasons


@pytest.mark.parametrize(
    ("removed", "added", "reason"),
    [
        # Regressions (held-out-7's one run, overall low): libssh2 CVE-2019-17498 replaced hand
        # bounds checks with safe readers (the checks removed), GHSA-6c79-444r-wx26 and libzip
        # 9b46957e held a length against arithmetic before reading that far.
        (["                if(datalen >= 9) {"], ["                _libssh2_get_u32(&buf, &reason);"], "removes a length check (if(datalen >= 9) {)"),
        ([], ["                if(p->total_num < mac_len + 4 + (size_t)blocksize) {"], "adds a length check (if(p->total_num < mac_len + 4 + (size_t))"),
        ([], ["    if (offset+size > buf_offset + eocd_offset) {"], "adds a length check (if (offset+size > buf_offset + eocd_offs)"),
        # Held-out-9's rust-openssl 0.10.55 (RUSTSEC-2023-0044): a length test in an expression-if.
        ([], ['            let raw_host = if host.is_empty() { "\\0" } else { host };'], 'adds a length check (let raw_host = if host.is_empty() { "\\0")'),
        # A pointer's arrow is no arithmetic; a length moved, not removed.
        ([], ["    if (dict->ref_counter > 0) {"], None),
        (["    if (len(data) > 0) {"], ["        if (len(data) > 0) {"], None),
    ],
)
def test_a_length_check_added_or_removed_is_worth_a_look(removed: list[str], added: list[str], reason: str | None) -> None:
    out = assess(fc("src/packet.c", additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added), NO_CTX)
    assert (out.reasons[0] if out.risk == "medium" else None) == reason, out.reasons


def test_a_formatter_that_only_adds_braces_changes_no_security_token() -> None:
    # Regression (held-out-7 control, c-ares a13b89cc, clang-format with InsertBraces): a
    # re-aligned "ares_free(sa);" in a file whose other changes were added braces read as a
    # changed release call (high).
    removed = ["    if (node->ai_family == aftype)", "    ares_free(sa);                /* LCOV_EXCL_LINE: OutOfMemory */"]
    added = ["    if (node->ai_family == aftype) {", "    }", "    ares_free(sa);      /* LCOV_EXCL_LINE: OutOfMemory */"]
    out = assess(fc("src/lib/ares_addrinfo_localhost.c", additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added), NO_CTX)
    assert out.risk == "low", out.reasons


def test_security_tokens_do_not_read_comments() -> None:
    # relay.observe.changes keeps no comment line of source; a comment naming a symlink is no check.
    assert not line_matters("src/unpack.py", "    # refuse symlinks here later")


# --------------------------------------------------------------------------- mechanical edits


@pytest.mark.parametrize(
    ("removed", "added", "why"),
    [
        ([], [], "comments or blank lines only"),
        (["import sys", "import os"], ["import os", "import sys"], "reordered"),
        # a continuation line's indentation (Python's statements keep theirs: a statement moved in or out of its block
        # is no formatting, tests/test_round115_lines.py)
        (["    return call(a,", "        b)"], ["    return call(a,", "                b)"], "re-indented"),
        (["x = f('a', 'b')"], ["x = f(", '    "a",', '    "b",', ")"], "reformatted only"),
        (["from os import path, sep", "import re"], ["from os import path"], "imports removed or regrouped"),
        (['\t"example.com/lib/internal"', "\tif n > internal.MaxLinks {"], ['\t"example.com/lib/internal/consts"', "\tif n > consts.MaxLinks {"], "definition moved"),
    ],
)
def test_mechanical_source_edits_are_capped_low(removed: list[str], added: list[str], why: str) -> None:
    change = fc("src/secure_unpack.py", additions=max(len(added), 1), deletions=len(removed), removed_lines=removed, added_lines=added)
    out = assess(change, NO_CTX)
    assert out.risk == "low" and out.reasons[0].startswith("mechanical:") and why in out.reasons[0], out.reasons


@pytest.mark.parametrize(
    ("removed", "added"),
    [
        (["x = f('a', 'b')"], ["x = f('a', 'c')"]),
        (["import sys", "import os"], ["import os", "import subprocess"]),
        (["\tif n > internal.MaxLinks {"], ["\tif n >= consts.MaxLinks {"]),
    ],
)
def test_an_edit_that_changes_one_token_is_not_mechanical(removed: list[str], added: list[str]) -> None:
    out = assess(fc("src/mod.py", additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added), NO_CTX)
    assert not out.reasons[0].startswith("mechanical:")


def test_lines_kept_only_in_part_are_never_called_mechanical() -> None:
    # Observation keeps HUNK_LINES a side: what it dropped cannot show that nothing else changed.
    change = fc("src/mod.py", additions=400, deletions=400, removed_lines=CODE40, added_lines=list(reversed(CODE40)))
    assert not assess(change, RiskContext(partial=frozenset({"src/mod.py"}))).reasons[0].startswith("mechanical:")
    assert assess(change, NO_CTX).reasons == ["mechanical: lines reordered or re-indented only"]
    # build_review knows it from the counts: fewer lines kept than changed.
    read, partial = read_changes([change])
    [out] = assess_all(read, RiskContext(partial=partial))
    assert partial == {"src/mod.py"} and not out.reasons[0].startswith("mechanical:")


def test_the_rules_read_whole_hunks_not_a_sample() -> None:
    # A token past the 40th changed line (the old sample's cut) is read, in a hunk of code
    # whose comment lines the rules leave out.
    body = [f"    value_{i} = compute({i})" for i in range(60)]
    change = rule_lines(fc("src/walk.py", additions=62, added_lines=["    # walk the tree", *body, "    if not os.path.realpath(dest).startswith(root):", "        raise Unsafe(dest)"]))
    assert "    # walk the tree" not in change.added_lines and len(change.added_lines) == 62
    out = assess(change, NO_CTX)
    assert out.risk == "high" and "realpath" in out.reasons[0], out.reasons
    # Bounded for speed at READ_LINES a side: past it the file is read in part, never called mechanical.
    big = fc("src/table.py", additions=READ_LINES + 10, deletions=READ_LINES + 10, added_lines=body * 10, removed_lines=list(reversed(body * 10)))
    [kept], partial = read_changes([big])
    assert len(kept.added_lines) == READ_LINES and partial == {"src/table.py"}
    assert not assess(kept, RiskContext(partial=partial)).reasons[0].startswith("mechanical:")


def test_a_reformatted_big_file_keeps_size_rules_but_not_token_rules() -> None:
    # Lines kept only in part that read the same on both sides: a formatter's run too big to keep whole.
    before = [f"    check_symlink(path_{i}, 'x')" for i in range(40)]
    after = [f'    check_symlink(path_{i}, "x")' for i in range(40)]
    part = RiskContext(partial=frozenset({"src/walk.py"}))
    out = assess(fc("src/walk.py", additions=300, deletions=300, ranges=[(1, 300)], removed_lines=before, added_lines=after), part)
    assert out.risk == "medium" and out.reasons[0].startswith("large change")
    edited = [f"    check_symlink(path_{i}, flag_{i})" for i in range(40)]
    assert assess(fc("src/walk.py", additions=300, deletions=300, ranges=[(1, 300)], removed_lines=before, added_lines=edited), part).risk == "high"


def test_a_formatter_run_over_a_huge_file_is_medium_not_high() -> None:
    # Formatter runs (Black, prettier) are mechanical controls: never high, even past the huge-change size.
    before = [f"    value_{i} = compute({i}, 'x')" for i in range(40)]
    after = ["    value_0 = compute(", '        0, "x"', "    )", *(f'    value_{i} = compute({i}, "x")' for i in range(1, 40))]
    out = assess(fc("src/big.py", additions=2500, deletions=2400, ranges=[(1, 2500)], removed_lines=before, added_lines=after[:40]), NO_CTX)
    assert out.risk == "medium" and out.reasons[0].startswith("large change"), out.reasons
    assert assess(fc("src/big.py", additions=2500, deletions=2400, ranges=[(1, 2500)], removed_lines=before, added_lines=CODE40), NO_CTX).risk == "high"


def test_a_rename_with_unchanged_content_is_mechanical() -> None:
    out = assess(fc("src/auth/new_name.py", kind="renamed", old_path="src/auth/old_name.py"), NO_CTX)
    assert out.reasons == ["mechanical: renamed, content unchanged"]


# --------------------------------------------------------------------------- weakened tests


def _test_change(removed: list[str], added: list[str], path: str = "tests/test_parse.py") -> FileChange:
    return fc(path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


@pytest.mark.parametrize(
    ("path", "removed", "added"),
    [
        # pytest: two cases folded into one parametrized case with two rows
        (
            "tests/test_parse.py",
            ["def test_empty():", "    assert parse('') == []", "def test_space():", "    assert parse(' ') == []"],
            ["@pytest.mark.parametrize('text', [", "    (''),", "    (' '),", "])", "def test_blank(text):", "    assert parse(text) == []"],
        ),
        # unittest to pytest style: one assertion for one assertion
        ("tests/test_parse.py", ["        self.assertEqual(parse('1'), [1])"], ["    assert parse('1') == [1]"]),
        # node: importing assert is not an assertion
        ("test/parse.js", ["const assert = require('assert')"], ["const assert = require('node:assert/strict')"]),
        # a helper's def line is not an assertion
        ("tests/test_parse.py", ["def assert_tokens(text, want):", "    assert lex(text) == want"], ["def check_tokens(text, want):", "    assert lex(text) == want"]),
        # tap assertions rewritten to the same count
        ("test/unpack.js", ["  t.equal(a, 1)", "  t.ok(b)"], ["  t.same(a, 1)", "  t.match(b, /x/)"]),
    ],
)
def test_refactored_tests_are_not_weakened(path: str, removed: list[str], added: list[str]) -> None:
    assert assess(_test_change(removed, added, path), NO_CTX).risk == "low"


@pytest.mark.parametrize(
    ("path", "removed", "added", "detail"),
    [
        ("tests/test_parse.py", ["def test_empty():", "    assert parse('') == []"], [], "1 test case"),
        ("test/unpack.js", ["  t.equal(a, 1)", "  t.ok(b)"], ["  t.equal(a, 1)"], "1 assertion"),
        ("pkg/parse_test.go", ["func TestEmpty(t *testing.T) {", '\t\tt.Fatalf("got %v", got)'], [], "1 test case"),
        ("tests/parse.rs", ["    assert_eq!(parse(\"\"), vec![]);"], [], "1 assertion"),
    ],
)
def test_tests_whose_cases_or_assertions_disappear_are_weakened(path: str, removed: list[str], added: list[str], detail: str) -> None:
    out = assess(_test_change(removed, added, path), NO_CTX)
    assert out.risk == "high" and detail in out.reasons[0], out.reasons


def test_an_xfail_on_a_new_regression_test_is_medium_at_most() -> None:
    # Regression: an xfail inside a brand-new test outranked the fix it tests.
    new_test = _test_change([], ["@pytest.mark.xfail(reason='issue 812')", "def test_issue_812():", "    assert parse('$$') == []"])
    assert assess(new_test, NO_CTX).risk == "medium"
    new_file = fc("tests/test_issue_812.py", kind="added", additions=3, added_lines=["@pytest.mark.skip(reason='needs network')"])
    assert assess(new_file, NO_CTX).risk == "medium"
    old_test = _test_change([], ["@pytest.mark.xfail(reason='issue 812')"])
    assert assess(old_test, NO_CTX).risk == "high"


# --------------------------------------------------------------------------- dependencies, migrations, versions


def test_a_dependency_moved_between_manifests_is_not_new() -> None:
    moved = [
        fc("requirements-dev.txt", deletions=1, removed_lines=["pytest==8.2.0"]),
        fc("pyproject.toml", additions=1, added_lines=['    "pytest>=8.2",']),
    ]
    assert [c.risk for c in assess_all(moved, NO_CTX)] == ["medium", "medium"]
    fresh = [fc("requirements-dev.txt", deletions=1, removed_lines=["pytest==8.2.0"]), fc("pyproject.toml", additions=1, added_lines=['    "hypothesis>=6",'])]
    out = assess_all(fresh, NO_CTX)
    assert out[1].risk == "high" and "hypothesis" in out[1].reasons[0]


def test_a_dependency_moved_with_another_spelling_is_not_new() -> None:
    out = assess_all([fc("setup.cfg", removed_lines=["    typing_extensions>=4"]), fc("pyproject.toml", added_lines=['    "typing-extensions>=4",'])], NO_CTX)
    assert all("adds a dependency" not in r for c in out for r in c.reasons)


def test_a_deleted_pipeline_or_hook_is_a_deleted_file_not_code_that_runs() -> None:
    # Regression: minimatch 281de34 (a control) deleted .travis.yml and it came out high with
    # "runs with repository secrets"; a deleted pipeline runs nothing.
    for path in (".travis.yml", ".github/workflows/ci.yml", ".husky/pre-commit"):
        out = assess(fc(path, kind="deleted", deletions=9), NO_CTX)
        assert out.risk == "medium" and out.reasons[0].startswith("deletes a file"), out.reasons
    assert assess(fc("docs/workflows.md"), NO_CTX).risk == "low"


def test_a_dependency_of_the_docs_build_is_a_manifest_edit_not_a_new_dependency() -> None:
    # Regressions: pyjwt 1.5.1's docs/requirements-docs.txt and Twig 3.4.3's doc/_build/composer.json
    # (labelled benign) were high "adds a dependency".
    docs = assess(fc("docs/requirements-docs.txt", kind="added", additions=2, added_lines=["sphinx", "sphinx_rtd_theme"]), NO_CTX)
    assert docs.risk == "medium" and docs.reasons == ["dependency manifest"], docs.reasons
    shipped = assess(fc("requirements.txt", additions=1, added_lines=["sphinx"]), NO_CTX)
    assert shipped.risk == "high" and "adds a dependency" in shipped.reasons[0]


def test_changelog_folder_is_not_a_migration() -> None:
    # Regression: news fragments under changelog/ were "database migration" high.
    assert assess(fc("changelog/2140.feature.rst", kind="added", additions=1), NO_CTX).risk == "low"
    assert assess(fc("db/migrations/0007_users.sql", kind="added", additions=1), NO_CTX).risk == "high"


def test_a_version_bump_alone_is_low() -> None:
    bump = fc("Cargo.toml", additions=1, deletions=1, removed_lines=['version = "0.4.15"'], added_lines=['version = "0.4.16"'])
    assert (assess(bump, NO_CTX).risk, assess(bump, NO_CTX).reasons) == ("low", ["version bump"])
    other = fc("Cargo.toml", additions=2, deletions=1, removed_lines=['version = "0.4.15"'], added_lines=['version = "0.4.16"', "edition = 2021"])
    assert assess(other, NO_CTX).risk == "medium"


def test_a_formatter_splitting_a_case_call_loses_no_case() -> None:
    # Regression: prettier moved the case name to its own line and "t.test(" was not counted.
    change = _test_change(["  t.test('indents with --space', t => {"], ["  t.test(", "    'indents with --space',"], "test/cli.js")
    assert assess(change, NO_CTX).risk == "low"


def test_lines_kept_only_in_part_cannot_show_lost_cases() -> None:
    removed = [f"  it('case {i}', () => {{" for i in range(17)]
    added = ["  t.test('case 0', t => {"] + [f"    t.equal(run({i}), {i})" for i in range(39)]
    assert assess(_test_change(removed, added, "test/errors.js"), RiskContext(partial=frozenset({"test/errors.js"}))).risk == "low"
    assert assess(_test_change(removed, added, "test/errors.js"), NO_CTX).risk == "high"


def test_adding_parentheses_around_an_arrow_parameter_is_formatting() -> None:
    out = assess(fc("lib/walk.js", additions=1, deletions=1, removed_lines=["  items.map(x => check(x))"], added_lines=["  items.map((x) => check(x));"]), NO_CTX)
    assert out.reasons == ["mechanical: reformatted only"]


# --------------------------------------------------------------------------- docstring-only edits


def test_mechanical_docstring_rewording_in_python_is_capped_low() -> None:
    # Regression: a docstring tweak in paramiko/client.py (``:raises:`` fields naming
    # authentication) was called high by the token rule; prose is not a check.
    removed = [":raises:", "`.BadHostKeyException` -- if the server's host key could not be", "verified", ":raises: `.AuthenticationException` -- if authentication failed"]
    added = [":raises BadHostKeyException:", "if the server's host key could not be verified.", ":raises AuthenticationException: if authentication failed.", ".. warning::"]
    out = assess(fc("paramiko/client.py", additions=4, deletions=4, removed_lines=removed, added_lines=added), NO_CTX)
    assert out.risk == "low" and out.reasons == ["mechanical: docstrings only"], out.reasons


@pytest.mark.parametrize(
    ("removed", "added"),
    [
        (["        verify=True,"], ["        verify=False,"]),
        (["    if not allowed:"], ["    if not allowed and strict:"]),
        (["            and not allow_agent"], ["            or not allow_agent"]),
        (["    key_filename"], ["    key_file"]),  # a lone word with no prose beside it could be code
        (["    return a if b else c"], ["    return a if c else b"]),
    ],
)
def test_mechanical_docstring_check_never_takes_code_for_prose(removed: list[str], added: list[str]) -> None:
    out = assess(fc("src/client.py", additions=1, deletions=1, removed_lines=removed, added_lines=added), NO_CTX)
    assert not out.reasons[0].startswith("mechanical"), out.reasons


# --------------------------------------------------------------------------- a new pin file repeating pins


def test_new_pin_file_repeating_existing_pins_adds_no_dependency(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The misfire: a new pin file repeating the project's pins was reported as new dependencies.
    (tmp_path / "requirements.txt").write_text("requests==2.31.0\nPyYAML>=6\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\ndependencies = [\n    "click>=8.1",\n]\n', encoding="utf-8")
    pins = fc("requirements-lock.txt", kind="added", additions=3, added_lines=["requests==2.32.3", "pyyaml==6.0.2", "click==8.1.7"])
    known = existing_dependencies(tmp_path, [pins])
    assert {"requests", "pyyaml", "click"} <= known
    [out] = assess_all([pins], RiskContext(known_deps=known))
    assert not any(r.startswith("adds a dependency") for r in out.reasons), out.reasons
    extra = msgspec.structs.replace(pins, added_lines=[*pins.added_lines, "left-pad==1.3.0"])
    [out] = assess_all([extra], RiskContext(known_deps=known))
    assert out.reasons[0] == "adds a dependency: left-pad", out.reasons


def test_existing_dependencies_read_nothing_without_an_added_manifest(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "requirements.txt").write_text("requests==2.31.0\n", encoding="utf-8")
    edited = fc("requirements.txt", additions=1, added_lines=["flask==3.0"])
    assert existing_dependencies(tmp_path, [edited]) == frozenset()
    # A manifest the change itself edits is not "existing": its new pins stay new.
    (tmp_path / "requirements-dev.txt").write_text("flask==3.0\n", encoding="utf-8")
    added = fc("requirements-dev.txt", kind="added", additions=1, added_lines=["flask==3.0"])
    assert existing_dependencies(tmp_path, [edited, added]) == frozenset()


# --------------------------------------------------------------------------- kinds beyond advisories


@pytest.mark.parametrize(
    ("path", "expected"),
    [("tests/test_nose.py", "nose"), ("tests/PhpWord/AutoloaderTest.php", "autoloader"), ("test/integration/tags/local_test.rb", "local"),
     ("spec/models/story_repository_spec.rb", "storyrepository"), ("src/lib/__tests__/charts.test.ts", "charts"),
     ("flask/ext/__init__.py", "ext"), ("src/_pytest/resultlog.py", "resultlog"), ("lib/index.js", "lib")],
)
def test_a_file_is_matched_to_what_it_is_about(path: str, expected: str) -> None:
    assert subject(path) == expected


def test_a_module_deleted_with_its_tests_is_the_removal_to_review() -> None:
    # pytest ef946d5 (kinds-2b, api-removal): --resultlog removed; its module and tests deleted, other tests
    # lose cases about it. The deleted module (was "deletes a file", medium, behind the deleted tests) leads.
    files = [fc("src/_pytest/resultlog.py", kind="deleted", deletions=108), fc("testing/test_resultlog.py", kind="deleted", deletions=256),
             fc("testing/test_warnings.py", kind="deleted", deletions=90), fc("src/_pytest/config/__init__.py", additions=1, deletions=1)]
    out = rank_changes(assess_all(files, NO_CTX))
    assert (out[0].path, out[0].risk, out[0].reasons) == ("src/_pytest/resultlog.py", "high", ["removes a module and its tests (public API: resultlog)"])
    assert [c.risk for c in out[1:3]] == ["high", "high"]  # the deleted tests stay findings of their own
    # A module deleted alone (its tests kept) is a deleted file, medium.
    alone = {c.path: c for c in assess_all([files[0], files[2]], NO_CTX)}
    assert (alone["src/_pytest/resultlog.py"].risk, alone["src/_pytest/resultlog.py"].reasons) == ("medium", ["deletes a file (108 lines)"])


def test_a_source_file_named_like_prose_is_source() -> None:
    # werkzeug's src/werkzeug/security.py (kinds-2, release-merge: its path-safety fix) read as a SECURITY policy.
    assert file_kind("src/werkzeug/security.py") == "source"
    assert file_kind("relay/observe/changes.py") == "source"
    assert file_kind("SECURITY.md") == "docs" and file_kind("CHANGES") == "docs" and file_kind("NEWS.txt") == "docs"


def test_a_migration_leads_the_files_of_its_risk() -> None:
    # umami 8a9532f (kinds-2b): a migration dropping a column behind auth-named source rated high for words.
    files = assess_all([fc("lib/auth.ts", additions=30, deletions=20, added_lines=["  if (!canUpdate(PERMISSIONS.websiteUpdate)) {"]),
                        fc("db/postgresql/migrations/07_remove_user_id/migration.sql", kind="added", additions=3,
                           added_lines=['ALTER TABLE "website" DROP COLUMN "user_id";'])], NO_CTX)
    ranked = rank_changes(files)
    assert [c.risk for c in ranked] == ["high", "high"] and ranked[0].path.endswith("migration.sql"), [(c.path, c.reasons) for c in ranked]


def _moved(old_path: str, new_path: str, old: list[str], new: list[str]) -> list[FileChange]:
    return [FileChange(path=old_path, kind="deleted", deletions=len(old), removed_lines=old),
            FileChange(path=new_path, kind="added", additions=len(new), added_lines=new)]


_GEN = ["public final class Gen {", "  private final Random random;", "  public Gen(int length) {", "    this(new SecureRandom(), length);",
        "  }", "  String next() { return pick(random); }", "}"]


def test_a_class_moved_to_another_package_is_read_against_the_file_it_left() -> None:
    # Too changed for git to call it a rename (another package, new imports), the moved copy was a new file read by its size:
    # the one line the move turned (a secure random made a plain one) is read as an edit of the file it left.
    new = ["package org.app.generate;", *[ln.replace("new SecureRandom()", "new Random()") for ln in _GEN]]
    out = {c.path: c for c in assess_all(_moved("src/org/app/Gen.java", "src/org/app/generate/Gen.java", _GEN, new), NO_CTX)}
    moved = out["src/org/app/generate/Gen.java"]
    assert moved.risk == "high" and "predictable" in moved.reasons[0], moved.reasons
    assert moved.removed_lines == [] and moved.kind == "added"  # the file as observed: its own lines, new


def test_a_class_moved_as_it_was_or_a_name_shared_by_two_deleted_files_is_not_paired() -> None:
    same = assess_all(_moved("src/org/app/Gen.java", "src/org/app/generate/Gen.java", _GEN, ["package org.app.generate;", *_GEN]), NO_CTX)
    assert not any("predictable" in r for c in same for r in c.reasons)
    # Two deleted files of one name: which one the new file came from is not known, so it is read as new.
    two = [*_moved("a/Gen.java", "c/Gen.java", _GEN, [ln.replace("new SecureRandom()", "new Random()") for ln in _GEN]),
           FileChange(path="b/Gen.java", kind="deleted", deletions=len(_GEN), removed_lines=_GEN)]
    assert not any("secure random replaced" in r for c in assess_all(two, NO_CTX) for r in c.reasons)
