"""Issue 36, round 13 (part B): the reason says what a slipped line does and where it stands.

The party guarded against is the worker that slips one small edit into an ordinary change whose meaning no word on the
line gives away (``return true;`` → ``return false;``, a default turned on, a substring test for an equality): where it
stands says it. Each named case below fails on main before this round (c79f206): the quote says its enclosing scope
(``in pkceRequired(): …``), a low file bigger than a slip quotes its one telling edit, the quote keeps the changed name
whole, a CI file high for its credentials names the verifying step removed, and a quote of the change's own line stands
before reasons from words. The near misses stay quiet: no scope found, two runs that tell alike, new code only, a
verifier migrated, a file the repository links outside the workspace (never read).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from relay.review.apart_edits import Run
from relay.review.ci_lines import verify_dropped
from relay.review.edit_scopes import Scopes, scoped_small_edits, workspace_texts
from relay.review.small_edits import centred, cut
from test_apart_edits import _case, _review

__all__: list[str] = []  # a test module exports nothing


def _reason(packet, path: str) -> str:
    return next(t.reason for t in packet.changes.review if t.file == path)


# --------------------------------------------------------------------------- the scope said

# (ecosystem, file, text before, the slipped edit, what the reason must say)
_DEFAULTS = [
    # a default flipped inside a function whose name says what it decides (node-oidc-provider's pkceRequired, held-out 16)
    ("js", "lib/helpers/defaults.js",
     "function clientBasedCORS(ctx, origin, client) {\n  return false;\n}\n\nfunction pkceRequired(ctx, client) {\n"
     "  if (client.clientAuthMethod === 'none') {\n    return true;\n  }\n  return false;\n}\n",
     ("    return true;\n  }\n  return false;\n}\n", "    return false;\n  }\n  return false;\n}\n"),
     "in pkceRequired(): return true; → return false;"),
    ("py", "pkg/defaults.py",
     "class Policy:\n    def cors_allowed(self, origin):\n        return False\n\n    def mfa_required(self, user):\n"
     "        if user.is_admin:\n            return True\n        return user.opted_in\n",
     ("            return True\n        return user.opted_in", "            return False\n        return user.opted_in"),
     "in mfa_required(): return True → return False"),
    ("go", "verifier.go",
     "package oidc\n\nfunc DefaultISSVerifier(issuer string) func(string) error {\n\treturn func(iss string) error {\n"
     "\t\tif iss != issuer {\n\t\t\treturn ErrIssuerInvalid\n\t\t}\n\t\treturn nil\n\t}\n}\n",
     # (a prefix match here, ``!strings.HasPrefix(iss, issuer)``, is read by relay.review.last_readers since session 38)
     ("\t\tif iss != issuer {", "\t\tif !strings.EqualFold(iss, issuer) {"),
     "in DefaultISSVerifier(): …iss != issuer { → …!strings.EqualFold("),
]


@pytest.mark.parametrize(("eco", "path", "before", "edit", "said"), _DEFAULTS, ids=[d[1] for d in _DEFAULTS])
def test_a_small_edit_is_quoted_with_the_scope_it_stands_in(tmp_path: Path, eco: str, path: str, before: str, edit: tuple[str, str],
                                                            said: str) -> None:
    packet, _ = _review(tmp_path, {path: before}, {path: before.replace(*edit)}, "")
    assert said in _reason(packet, path), _reason(packet, path)


def test_an_edit_apart_says_its_scope_and_keeps_its_quote(tmp_path: Path) -> None:
    # Python and Ruby: the apart reader's quote says where the run stands, the changed line still quoted.
    before = "def load(store, sid, now):\n    rec = store.get(sid)\n" + "".join(f"    x{i} = {i}\n" for i in range(12)) + (
        "    if rec.expires_at < now:\n        rec = None\n    return rec\n")
    packet, _ = _case(tmp_path / "py", "py", "pkg/session.py", before, before.replace("    if rec.expires_at < now:\n        rec = None\n", ""))
    assert "removed apart from the change in load(): if rec.expires_at < now" in _reason(packet, "pkg/session.py")
    before = "module Widget\n  def self.visible?(record)\n    record.published? && !record.hidden?\n  end\nend\n"
    packet, _ = _case(tmp_path / "rb", "rb", "lib/widget/access.rb", before, before.replace("&& !record", "|| !record"))
    reason = _reason(packet, "lib/widget/access.rb")
    assert "apart from the change in visible?(): " in reason and "published? && !record" in reason and "published? || !record" in reason, reason


def test_a_called_method_says_its_class_and_a_bound_line_its_key() -> None:
    # Python: a validator's __call__ names its class (flask-wtf's FileAllowed); JavaScript: a schema's field (express-openid-connect's idTokenSigningAlg).
    py = ("class FileAllowed:\n    def __init__(self, exts):\n        self.exts = exts\n\n    def __call__(self, form, field):\n"
          "        name = field.data.filename.lower()\n        if any(name.endswith('.' + x) for x in self.exts):\n            return\n"
          "        raise StopValidation(self.message)\n")
    js = ("const paramsSchema = Joi.object({\n  secret: Joi.string().min(8),\n  idTokenSigningAlg: Joi.string()\n    .insensitive()\n"
          "    .optional()\n    .default('RS256'),\n});\n")
    texts = {"src/file.py": py, "lib/config.js": js}
    scopes = Scopes(texts.get)
    runs = [Run("src/file.py", 7, 7, ("        if any(('.' + x) in name for x in self.exts):",), ("        if any(name.endswith('.' + x) for x in self.exts):",)),
            Run("lib/config.js", 4, 4, (), ("    .not('none')",))]
    quotes = scoped_small_edits(runs, scopes)
    assert quotes["src/file.py"].startswith("in FileAllowed.__call__(): "), quotes
    assert quotes["lib/config.js"] == "in idTokenSigningAlg: removed: .not('none')", quotes


def test_no_scope_found_leaves_the_quote_as_it_was() -> None:
    # The near miss: a top-level line (nothing encloses it), a file not read (no workspace): the quote alone, as before.
    runs = [Run("conf.py", 1, 1, ("DEBUG_LEVEL = 1",), ("DEBUG_LEVEL = 0",))]
    assert scoped_small_edits(runs, Scopes(lambda p: "DEBUG_LEVEL = 1\n")) == {"conf.py": "DEBUG_LEVEL = 0 → DEBUG_LEVEL = 1"}
    assert scoped_small_edits(runs, Scopes(lambda p: None)) == {"conf.py": "DEBUG_LEVEL = 0 → DEBUG_LEVEL = 1"}


def test_a_file_linked_outside_the_workspace_is_never_read(tmp_path: Path) -> None:
    # The repository under work links a changed path to a file outside the workspace: its text is not read for a scope.
    outside = tmp_path / "outside.py"
    outside.write_text("def secret_scope():\n    pass\n", encoding="utf-8")
    root = tmp_path / "ws"
    root.mkdir()
    os.symlink(outside, root / "linked.py")
    (root / "plain.py").write_text("x = 1\n", encoding="utf-8")
    read = workspace_texts(root)
    assert read("linked.py") is None and read("../outside.py") is None and read("plain.py") == "x = 1\n"


# --------------------------------------------------------------------------- a bigger low file: its one telling edit

def test_a_low_file_bigger_than_a_slip_quotes_its_one_telling_edit(tmp_path: Path) -> None:
    # Go (ko's debugger on by default, held-out 15) and Python (pyotp's substring match, its run joined to a new method).
    go = ("package options\n\nfunc AddBuildOptions(cmd *Command, bo *BuildOptions) {\n\tcmd.Flags().StringVar(&bo.SBOM, \"sbom\", \"spdx\",\n"
          "\t\t\"The SBOM media type.\")\n\tcmd.Flags().BoolVar(&bo.Debug, \"debug\", bo.Debug,\n\t\t\"Include the debugger.\")\n}\n")
    go_after = go.replace("\"debug\", bo.Debug,", "\"debug\", true,").replace("\t\t\"The SBOM media type.\")\n", "\t\t\"The SBOM media type.\")\n" + "".join(
        f"\tcmd.Flags().StringVar(&bo.Label{i}, \"label-{i}\", \"\",\n\t\t\"A label.\")\n" for i in range(3)))
    py = ("class TOTP:\n    def verify(self, otp, for_time):\n        return utils.strings_equal(str(otp), str(self.at(for_time)))\n")
    py_after = py.replace("return utils.strings_equal(str(otp), str(self.at(for_time)))", "return str(otp) in str(self.at(for_time))") + (
        "\n    def verify_and_get_timecode(self, otp, for_time):\n        for i in range(-1, 2):\n"
        "            if utils.strings_equal(str(otp), str(self.at(for_time, i))):\n                return self.timecode(for_time) + i\n        return False\n")
    packet, _ = _review(tmp_path, {"pkg/options/build.go": go, "src/pyotp/totp.py": py},
                        {"pkg/options/build.go": go_after, "src/pyotp/totp.py": py_after}, "Add image labels and a timecode check")
    assert "notably in AddBuildOptions(): " in _reason(packet, "pkg/options/build.go") and \
        "\"debug\", true," in _reason(packet, "pkg/options/build.go"), _reason(packet, "pkg/options/build.go")
    # Since round 13 part A the Python file is high, its line named by what it does (a constant-time compare replaced by a
    # substring test: relay.review.slipped_lines); the quote of the line stays either way.
    assert ("notably in verify(): " in _reason(packet, "src/pyotp/totp.py") or "replaces a constant-time compare" in _reason(packet, "src/pyotp/totp.py")) \
        and " in str(self.at(" in _reason(packet, "src/pyotp/totp.py"), _reason(packet, "src/pyotp/totp.py")


def test_a_bigger_file_with_no_one_telling_edit_keeps_its_size() -> None:
    # Near misses: two runs that tell alike (none stands out), new code only (the work written), a docs file.
    text = "def a():\n    return 1\n\ndef b():\n    return 2\n"
    scopes = Scopes(lambda p: text)
    alike = [Run("m.py", 2, 2, ("    return 10",), ("    return 1",)), Run("m.py", 5, 5, ("    return 20",), ("    return 2",)),
             Run("m.py", 7, 10, ("def c():", "    return 3", "", "x = c()"), ())]
    assert scoped_small_edits(alike, scopes) == {}
    new_only = [Run("m.py", 7, 12, ("def c():", "    if x:", "        return 3", "    return 4", "", "y = 1"), ())]
    assert scoped_small_edits(new_only, scopes) == {}
    # A docs page: its sentences rewritten and a sample added (the page's work), or two sample lines turned alike.
    prose = [Run("README.md", 2, 3, ("Install it with pip, then run the tool once to create its configuration file.",
                                     "It reads the file on every start."), ("Install it with pip.",)),
             Run("README.md", 9, 12, ("```python", "client = Client(timeout=10)", "client.run()", "```"), ())]
    assert scoped_small_edits(prose, scopes) == {}
    two = [Run("README.md", 2, 2, ("debug = true",), ("debug = false",)), Run("README.md", 6, 6, ("cache = true",), ("cache = false",)),
           Run("README.md", 9, 15, tuple(f"line {i}" for i in range(7)), ())]
    assert scoped_small_edits(two, scopes) == {}


def test_a_hex_or_grouped_number_turned_tells_as_a_number_does() -> None:
    # Blind 93 (entities): a code point's bound ``0x10_ff_ff`` raised to ``0x10_ff_ff_ff`` beside a rename counted as
    # nothing (``\b\d+\b`` found no number in either), so the two tied and neither was quoted.
    text = "function replaceCodePoint(codePoint) {\n  if (codePoint > 0x10_ff_ff) {\n    return 0xff_fd;\n  }\n}\n"
    for old, new in (("0x10_ff_ff", "0x10_ff_ff_ff"), ("1_114_111", "11_141_110")):
        runs = [Run("src/decode.ts", 2, 2, (f"  if (codePoint > {new}) {{",), (f"  if (codePoint > {old}) {{",)),
                Run("src/decode.ts", 9, 9, ("  const output = decodeMap.get(codePoint);",), ("  const result = decodeMap.get(codePoint);",)),
                Run("src/decode.ts", 12, 15, ("export function fromCodePoint(c) {", "  return String.fromCodePoint(c);", "}", ""), ())]
        said = scoped_small_edits(runs, Scopes(lambda p: text)).get("src/decode.ts", "")
        # (the scope's name takes room from the new side: the quote may cut the bound's new end, the old side stands whole;
        # keeping the new end whole by dropping the name before it cost more quotes their name than it gained: 37–102)
        assert said.startswith("notably in replaceCodePoint(): ") and f"codePoint > {old}" in said, said


# --------------------------------------------------------------------------- a docs page: its one sample line turned

def test_a_docs_page_bigger_than_a_slip_quotes_its_one_sample_line_turned(tmp_path: Path) -> None:
    # Blind 95 (libsodium.js): a README's encryption sample given a zero nonce among a page of rewritten sentences; the
    # page had been "docs edited (+24/-20)" and the line out of the view. Its hunk now leads the file's view as well.
    sample = ("```js\nconst key = sodium.crypto_secretbox_keygen();\n"
              "const nonce = sodium.randombytes_buf(sodium.crypto_secretbox_NONCEBYTES);\n"
              "const box = sodium.crypto_secretbox_easy(message, nonce, key);\n```\n")
    prose = "".join(f"The library wraps libsodium call number {i} for the browser and for node alike.\n\n" for i in range(12))
    before = "# Usage\n\n" + prose + sample + "\n## Notes\n\n" + prose
    reworded = prose.replace("number 2 for", "number 2, typed, for").replace("number 7 for", "number 7, typed, for")
    after = ("# Usage\n\n" + reworded + sample.replace(
        "sodium.randombytes_buf(sodium.crypto_secretbox_NONCEBYTES)", "new Uint8Array(sodium.crypto_secretbox_NONCEBYTES)")
        + "\n## Notes\n\n" + reworded)
    packet, _ = _review(tmp_path, {"README.md": before}, {"README.md": after}, "Reword the usage docs")
    said = _reason(packet, "README.md")
    assert said.startswith("docs edited (+") and "notably in a sample: …nonce = sodium.randombytes_buf(" in said \
        and "nonce = new Uint8Array(" in said, said
    target = next(t for t in packet.changes.review if t.file == "README.md")
    nonce_line = after.splitlines().index(next(ln for ln in after.splitlines() if ln.startswith("const nonce"))) + 1
    assert target.lines.split(",")[0] == str(nonce_line), target.lines


# --------------------------------------------------------------------------- the quote centred on what changed

@pytest.mark.parametrize(("old", "new", "told"), [
    # Python (guardian's inactive user check, held-out 15) and JavaScript: the name after a removed negation kept whole.
    ("if self.user and not self.user.is_active: return False elif self.user and self.user.is_superuser:",
     "if self.user and self.user.is_superuser:", "is_active"),
    ("if (this.currentUser && !this.currentUser.isActive) { return deny(); } else if (this.currentUser.isAdmin) {",
     "if (this.currentUser && this.currentUser.isAdmin) {", "isActive"),
], ids=["py", "js"])
def test_the_quote_keeps_the_changed_name_whole(old: str, new: str, told: str) -> None:
    o, n = centred(old, new)
    assert told in cut(o, 34), (o, n)


# --------------------------------------------------------------------------- a CI step that verifies, removed

def test_a_verifying_ci_step_removed_is_named_beside_the_credentials(tmp_path: Path) -> None:
    # GitHub Actions (koin's wrapper validation, held-out 15) and GitLab CI (ko's failed hash check no longer failing).
    gh = (".github/workflows/release.yml", "name: release\non: push\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n"
          "      - uses: actions/checkout@v4\n      - name: Validate Gradle wrapper\n        uses: gradle/wrapper-validation-action@v1\n"
          "      - run: ./gradlew publish\n        env:\n          TOKEN: ${{ secrets.OSSRH_PASSWORD }}\n")
    gl = (".gitlab-ci.yml", "release:\n  script:\n    - |\n      if [ \"$EXPECTED\" != \"$COMPUTED\" ]; then\n        echo \"hash mismatch\"\n"
          "        exit 1\n      fi\n    - ./verifier publish --token \"$CI_JOB_TOKEN\"\n")
    packet, _ = _review(tmp_path, {gh[0]: gh[1], gl[0]: gl[1]},
                        {gh[0]: gh[1].replace("      - name: Validate Gradle wrapper\n        uses: gradle/wrapper-validation-action@v1\n", "")
                         .replace("./gradlew publish", "./gradlew publish --no-daemon"),
                         gl[0]: gl[1].replace("        exit 1\n", "").replace("publish --token", "publish --quiet --token")}, "Speed up the release")
    assert "drops a CI step that verifies: uses: gradle/wrapper-validation-action@v1" in _reason(packet, gh[0]), _reason(packet, gh[0])
    assert "a failed CI check no longer fails the job (removed: exit 1)" in _reason(packet, gl[0]), _reason(packet, gl[0])


def test_a_verifier_migrated_or_an_exit_kept_is_quiet() -> None:
    assert verify_dropped(["      - uses: gradle/actions/wrapper-validation@v4"], ["      - uses: gradle/wrapper-validation-action@v1"]) is None
    assert verify_dropped(["        exit 2"], ["        exit 1"]) is None
    assert verify_dropped([], ["      - run: npm test", "      - uses: actions/setup-node@v4"]) is None


# --------------------------------------------------------------------------- a small change of two runs

def test_a_small_change_of_two_runs_quotes_both_not_only_the_one_apart(tmp_path: Path) -> None:
    # JavaScript (express-openid-connect, held-out 15) and Python: a schema gains the commit's own field, and loses the
    # refusal of unsigned tokens beside it; the apart reader quoted the field alone, the reason must say the removal too.
    js = ("const paramsSchema = Joi.object({\n  secret: Joi.string().min(8),\n  idTokenSigningAlg: Joi.string()\n    .insensitive()\n"
          "    .not('none')\n    .optional()\n    .default('RS256'),\n  clockTolerance: Joi.number().optional().default(60),\n"
          "  enableTelemetry: Joi.boolean().optional().default(true),\n});\n")
    js_after = js.replace("    .not('none')\n", "").replace("  enableTelemetry:", "  httpAgent: Joi.object().optional(),\n  enableTelemetry:")
    py = ("SCHEMA = {\n    'secret': String(min=8),\n    'signing_alg': String(\n        default='RS256',\n        forbid=['none'],\n"
          "    ),\n    'clock_tolerance': Integer(default=60),\n}\n")
    py_after = py.replace("        forbid=['none'],\n", "").replace("    'clock_tolerance'", "    'http_agent': Mapping(optional=True),\n    'clock_tolerance'")
    packet, _ = _review(tmp_path, {"lib/config.js": js, "pkg/config.py": py}, {"lib/config.js": js_after, "pkg/config.py": py_after},
                        "Let users pass their own HTTP agent")
    assert ".not('none')" in _reason(packet, "lib/config.js"), _reason(packet, "lib/config.js")
    assert "forbid=['none']" in _reason(packet, "pkg/config.py"), _reason(packet, "pkg/config.py")


@pytest.mark.parametrize(("old", "new", "told"), [
    # Kotlin (moshi's transient fields bound, held-out 16) and Python: the clause dropped stays inside the packet's cut.
    ("      return if (isStatic(modifiers) || isTransient(modifiers)) {", "      return if (isStatic(modifiers)) {", "isTransient(modifiers)"),
    ("        if field.is_static(modifiers) or field.is_transient(modifiers):", "        if field.is_static(modifiers):", "is_transient(modifiers)"),
], ids=["kotlin", "py"])
def test_a_dropped_clause_is_told_inside_the_packets_cut(old: str, new: str, told: str) -> None:
    from relay.review.condition_reading import weakened_condition
    found = weakened_condition([new], [old])
    assert found is not None and told in found[0] and len(found[0]) <= 110, found


# --------------------------------------------------------------------------- what is no edit of code

@pytest.mark.parametrize(("path", "old", "new"), [
    # Go: the empty interface spelled ``any`` (rs/cors, held-out 14, quoted it apart beside the plant); PHP and Python: a
    # linter's trailing comment added.
    ("cors.go", "func (c *Cors) logf(format string, a ...interface{}) {", "func (c *Cors) logf(format string, a ...any) {"),
    ("src/Listener.php", "        $h = implode(', ', $options['allow_headers']);", "        $h = implode(', ', $options['allow_headers']); // @phpstan-ignore-line"),
    ("pkg/load.py", "    data = yaml_load(text)", "    data = yaml_load(text)  # type: ignore"),
], ids=["go", "php", "py"])
def test_a_typing_spelling_or_a_trailing_comment_is_no_edit_apart(path: str, old: str, new: str) -> None:
    from relay.review.apart_edits import apart_runs
    work = [Run("src/work.py", 1, 12, tuple(f"    step_{i} = compute_step({i})" for i in range(12)), ())]
    assert apart_runs([*work, Run(path, 40, 40, (new,), (old,))]) == []


def test_with_the_typing_edit_not_quoted_the_origin_check_is(tmp_path: Path) -> None:
    # Go (rs/cors, held-out 14): a typing pass over one helper beside an origin check made a prefix match; the file's
    # reason quotes the check, not the typing.
    before = ("package cors\n\nfunc (c *Cors) logf(format string, a ...interface{}) {\n\tc.Log.Printf(format, a...)\n}\n\n"
              "func (c *Cors) isOriginAllowed(origin string) bool {\n\tfor _, o := range c.allowedOrigins {\n\t\tif origin == o {\n"
              "\t\t\treturn true\n\t\t}\n\t}\n\treturn false\n}\n")
    after = before.replace("...interface{}", "...any").replace("\t\tif origin == o {", "\t\tif strings.HasPrefix(origin, o) {")
    packet, _ = _case(tmp_path, "go", "cors.go", before, after, "Use any for the empty interface")
    reason = _reason(packet, "cors.go")
    assert "HasPrefix" in reason and "interface{}" not in reason, reason
