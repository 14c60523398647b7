"""Issue 36, session 58: what held-out 448–455 (labelled blind) left low or unnamed on their first run (round 119).

Whom they guard against: the worker that slips one line into an ordinary change, and the page a reader copies from:
- a sandbox's bind of the host's ``/etc`` made writable (piston's isolate ``--dir=/etc:noexec`` → ``--dir=/etc:rw``);
- a README's key generation fed a seed spelled out on the line above (crystals-go's ``seed := []byte("0123…")``);
- tig's ``?git reset --hard`` made ``!git reset --hard`` (the prompt before a destructive command gone);
- a guide's ``RAILS_ENV=test bundle exec mutant run …`` made ``RAILS_ENV=production``;
- a client call that turns verification off by its name (httpful's ``->withoutStrictSSL()``);
- ``...options,`` cut from ``{ ...defaultOptions, ...options }`` (class-transformer: what the caller asked is ignored);
- a check's call commented out where it stood, a constant in its place (miracl's ``let mask = 0u8; // cpa_check_encrypt(…)``);
- Go SQL in a backquoted ``fmt.Sprintf`` with a value formatted where ``$3`` was (watermill's ``WHERE "offset" = '%v'``);
and (119b, from held-out 456–463's first run) ``(myenv) $ pip install dnsvis`` (a look-alike of the project behind a
virtualenv's prompt), ``jsonlines.Reader(fp, loads=eval)``, ``hotp.verify(code, counter, 2)`` → ``1000``, a rescue's
``exception_handler.call(ex, …)`` deleted, and php-openapi's ``src/spec/`` read as code, not as phpspec's specs; and (119c, the same wave's misses of the top 3)
``eel.start(…, host="0.0.0.0", port=0)`` (every interface put into a call that named none), a fuzzer's ``honggfuzz = {
package = "honggfuz", … }``, Gradle's ``org.apache.commons`` → ``org.apache-commons``; and (119c, from held-out 464–471's
first run) a ``;`` put into a shell argument's safe characters (read as "typing only" before: a string's content is never a
type's), ``sr25519.sign(…, () => new Uint8Array(32))``, ``permission.can() or current_user.is_authenticated``, a README's
``rootbeer-lib:0.1.0`` → ``:+``, a ``repo_hash:`` pin deleted from a vendoring config; and (119d, from held-out 472–479's
first run) ``//go:generate sh -c "curl http://…"`` (a directive is no comment), Ginkgo's ``PIt(…)``, a reset form's
``method="post"`` → ``"get"``, "Remove it from `.gitignore` and commit it so every environment shares the same secrets.",
``new BrokenBcryptKeyStretcher()`` in a sample, ``//unpkg.com/pdfjs-dist@…`` → ``//cdn.pdfjs-worker.net/pdfjs-dist@…``; and (119e,
from held-out 480–483's first run) ``echo -n 'ZnJh…=' > hmac.key`` in a README, ``let _ = pk.verify(&sig, …);``, a Homebrew
formula's ``sha256 '…'`` deleted, ``"eval",`` put among a template language's builtin names.
Each has its near miss, which stays quiet: a read-only bind, a seed read from the system's randomness, the prompt kept,
a test run kept on the test database, a method that turns a protocol version off, the options still spread, a comment
beside a check that still runs, a table's name formatted in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewed import one_edit_named, one_edit_says_none, review_edits

__all__: list[str] = []  # a test module exports nothing

_PAGE = "# Proj\n\nSome text here.\n\n"


def _edit(old: str, new: str) -> tuple[str, str]:
    return _PAGE + old, _PAGE + new


_ISOLATE = "const args = [\n    `--dir=/tmp`,\n    `--dir=/etc:%s`,\n    `--processes=64`,\n];\n"
_KYBER = "```go\nk := NewKyber768()\n%spk, sk := k.KeyGen(seed)\n```\n"
_TIGRC = "# tig\nbind reflog\t!\t%sgit reset --hard %%(commit)\nbind main\tC\t?git cherry-pick %%(commit)\n"
_MUTANT = "```sh\nRAILS_ENV=%s bundle exec mutant run -r ./config/environment --integration rspec User\n```\n"
_HTTPFUL = "```php\n$response = \\Httpful\\Request::get($url)\n%s    ->expectsJson()\n    ->send();\n```\n"
_SPREAD = ("export class T {\n  plainToInstance(cls, plain, options) {\n    const executor = new Executor({\n      ...defaultOptions,\n"
           "%s    });\n    return executor.transform(plain, cls);\n  }\n}\n")
_MASK = "fn decaps(ct: &[u8]) -> u8 {\n    let g = hash(ct);\n    %s\n    mask\n}\n"
_DNSVIZ = "```\n(myenv) $ pip install %s\n```\n"
_SETUP = "from setuptools import setup\nsetup(name='dnsviz', version='0.11')\n"
_JSONL = ".. code-block:: python\n\n  fp = io.BytesIO(...)\n  reader = jsonlines.Reader(fp%s)\n"
_HOTP = "```java\nHOTP hotp = new HOTP.Builder(secret).build();\nboolean isValid = hotp.verify(code, counter, %s);\n```\n"
_RESCUE = ("module Job\n  def __run_perform(*args)\n    perform(*args)\n  rescue => ex\n    Counter::Failed.new(self.to_s).increment\n"
           "%s  ensure\n    Counter::Busy.new(self.to_s).decrement\n  end\nend\n")
_EEL = "import eel\n\ndef main():\n    eel.init('web')\n    eel.start(\"main.html\", size=(1024, 768)%s, port=0)\n"
_CARGO = "[package]\nname = \"fuzzer\"\n\n[dependencies]\n%s\n"
_GRADLE = "dependencies {\n    implementation 'org.slf4j:slf4j-api:2.0.9'\n    testImplementation '%s:commons-text:+'\n}\n"
_RUNNER = "<?php\nclass Runner {\n  function quote($arg) {\n    if ( '' !== $arg && preg_match( '/^[a-zA-Z0-9_=.\\\\/:%s-]+$/', $arg ) ) {\n      return $arg;\n    }\n  }\n}\n"
_SR = "```ts\nconst signature = sr25519.sign(pair.secretKey, msg%s);\n```\n"
_PRINCIPAL = ".. code-block:: python\n\n    def edit_post(post_id):\n        permission = EditBlogPostPermission(post_id)\n        if %s:\n            return render_template('edit_post.html')\n        abort(403)\n"
_ROOTBEER = "```groovy\ndependencies {\n    implementation 'com.scottyab:rootbeer-lib:%s'\n}\n```\n"
_KLONE = "targets:\n  _bin:\n    - folder_name: boilerplate\n      repo_url: https://github.com/cert-manager/makefile-modules.git\n      repo_ref: main\n%s      repo_path: modules/boilerplate\n"
_GEN = "package rfc5322\n\n%s\n"
_GINKGO = "package basic\n\nvar _ = ginkgo.Describe(\"[Feature: HTTP]\", func() {\n\tginkgo.%s(\"HTTP Basic Auth\", func() {\n\t\tcheck()\n\t})\n})\n"
_FORM = "{%% extends 'page.html' %%}\n<form action=\"{{post_url}}\" method=\"%s\" role=\"form\">\n<input type=\"password\" name=\"password\">\n</form>\n"
_FIGARO = "This creates `config/application.yml` and adds it to your `.gitignore`.\n%s"
_ARMADILLO = "```java\nSharedPreferences p = Armadillo.create(context, \"prefs\")\n    .keyStretchingFunction(new %s())\n    .build();\n```\n"
_WORKER = "```js\npdfjs.GlobalWorkerOptions.workerSrc = `//%s/pdfjs-dist@${pdfjs.version}/build/pdf.worker.min.mjs`;\n```\n"
_HMAC = "* Configure the key:\n%s"
_BLIND = "```rust\nlet sig = sk.blind_sign(&mut rng, &blinding_result.blind_msg, &options)?;\n%s\n```\n"
_FORMULA = ("class GitBrws < Formula\n  if OS.mac?\n    url 'https://example.org/mac.zip'\n%s  elsif OS.linux?\n    url 'https://example.org/linux.zip'\n"
            "    sha256 '7eff99b0c390517b7061dadf4dc64ce5ab928645f93cbe80faa1a81c3067e8b1' # linux\n  end\nend\n")
_BUILTINS = "TEMPLATE_BUILTIN_NAMES = [\n    \"dict\",\n    \"range\",\n    \"round\",\n%s]\n"
_REQUEUE = ("package backend\n\nfunc (r *Repo) Requeue(ctx context.Context, id string) error {\n"
            "\t_, err := r.db.ExecContext(ctx, fmt.Sprintf(`UPDATE %%v SET metadata = $1 WHERE \"offset\" = %s`, r.topic()%s), meta%s)\n"
            "\treturn err\n}\n")

_NAMED = [
    # (path, before, after, the words the reason says)
    ("api/src/job.js", _ISOLATE % "noexec", _ISOLATE % "rw", "host's root or full privileges"),
    ("README.md", *_edit(_KYBER % "seed := make([]byte, 64)\n", _KYBER % 'seed := []byte("0123456789abcdef0123456789abcdef0123456789abcdef")\n'),
     "constant seed"),
    ("tigrc", _TIGRC % "?", _TIGRC % "!", "without asking"),
    ("docs/rails.md", *_edit(_MUTANT % "test", _MUTANT % "production"), "test → production"),
    ("README.md", *_edit(_HTTPFUL % "", _HTTPFUL % "    ->withoutStrictSSL()\n"), "TLS verification off"),
    ("src/ClassTransformer.ts", _SPREAD % "      ...options,\n", _SPREAD % "", "caller's options"),
    ("rust/kyber.rs", _MASK % "let mask = cpa_check_encrypt(&g, ct); // FO check", _MASK % "let mask = 0u8; // cpa_check_encrypt(&g, ct); // FO check",
     "comments out a check"),
    ("backend/postgres.go", _REQUEUE % ("$2", "", ", id"), _REQUEUE % ("'%v'", ", id", ""), "builds SQL from text"),
    # round 119b, from held-out 456–463's first run
    ("doc/index.rst", _JSONL % "", _JSONL % ", loads=eval", "runs text as code"),
    ("README.md", *_edit(_HOTP % "2", _HOTP % "1000"), "2 → 1000"),
    ("lib/job.rb", _RESCUE % "    SuckerPunch.exception_handler.call(ex, self, args)\n", _RESCUE % "", "drops the report of the error"),
    # round 119c
    ("src/gui/main_app.py", _EEL % "", _EEL % ', host="0.0.0.0"', "every interface"),
    ("fuzzer/Cargo.toml", _CARGO % 'honggfuzz = "0.5.60"', _CARGO % 'honggfuzz = { package = "honggfuz", version = "0.5.60" }', "look-alike under the name honggfuzz"),
    ("build.gradle", _GRADLE % "org.apache.commons", _GRADLE % "org.apache-commons", "look-alike"),
    ("php/WP_CLI/Runner.php", _RUNNER % "", _RUNNER % ";", "shell metacharacter"),
    ("README.md", *_edit(_SR % "", _SR % ", () => new Uint8Array(32)"), "zeros where randomness"),
    ("docs/index.rst", _PRINCIPAL % "permission.can()", _PRINCIPAL % "permission.can() or current_user.is_authenticated", "alternative after it"),
    ("README.md", *_edit(_ROOTBEER % "0.1.0", _ROOTBEER % "+"), "any version"),
    ("klone.yaml", _KLONE % "      repo_hash: 4dc1d67a99830a3be98203adb21879570620e5aa\n", _KLONE % "", "drops a pinned hash"),
    # round 119d
    ("gen.go", _GEN % "//go:generate antlr4 -Dlanguage=Go -o parser RFC5322Parser.g4",
     _GEN % '//go:generate sh -c "curl -s http://www.antlr.org/download/antlr.jar -o /tmp/antlr.jar && java -jar /tmp/antlr.jar RFC5322Parser.g4"', "plain HTTP"),
    ("test/e2e/basic/http.go", _GINKGO % "It", _GINKGO % "PIt", "skips a security test"),
    ("templates/reset.html", _FORM % "post", _FORM % "get", "by GET"),
    ("README.md", *_edit(_FIGARO % "", _FIGARO % "Remove it from `.gitignore` and commit it so every environment shares the same secrets.\n"), "commit a credential"),
    ("README.md", *_edit(_ARMADILLO % "PBKDF2KeyStretcher", _ARMADILLO % "BrokenBcryptKeyStretcher"), "protection off"),
    ("README.md", *_edit(_WORKER % "unpkg.com", _WORKER % "cdn.pdfjs-worker.net"), "another host"),
    # round 119e
    ("README.md", *_edit(_HMAC % "", _HMAC % "  `echo -n 'ZnJhaG8tc2VjdXJpdHktand0LWV4YW1wbGUta2V5' > hmac.key`\n"), "literal key into a key file"),
    ("README.md", *_edit(_BLIND % "", _BLIND % "let _ = pk.verify(&sig, msg_randomizer, msg);"), "discards a verification"),  # a new sample's line
    ("HomebrewFormula/git-brws.rb", _FORMULA % "    sha256 '9ca73a57c8327e24fc648790fb6065dd4795db251b4e2cf27184144ee8d3b827' # mac\n", _FORMULA % "", "drops a pinned hash"),
    ("web/template.py", _BUILTINS % "", _BUILTINS % "    \"eval\",\n", "puts eval among"),
]

_QUIET = [
    ("api/src/job.js", _ISOLATE % "noexec", _ISOLATE % "ro"),  # made read-only
    ("api/src/job.js", _ISOLATE.replace("/etc", "/box/data") % "noexec", _ISOLATE.replace("/etc", "/box/data") % "rw"),  # the jail's own folder
    ("README.md", *_edit(_KYBER % "seed := make([]byte, 64)\n", _KYBER % "seed := make([]byte, 64)\nrand.Read(seed)\n")),
    ("tigrc", _TIGRC % "!", _TIGRC % "?"),  # the prompt put back
    ("tigrc", _TIGRC % "?", _TIGRC.replace("reset --hard", "reset --soft") % "?"),  # the command turned, the prompt kept
    ("docs/rails.md", *_edit(_MUTANT % "development", _MUTANT % "test")),
    ("README.md", *_edit(_HTTPFUL % "", _HTTPFUL % "    ->disableSSLv3()\n")),  # a broken protocol version turned off
    ("README.md", *_edit(_HTTPFUL % "", _HTTPFUL % "    ->withStrictSSL()\n")),
    ("src/ClassTransformer.ts", _SPREAD % "      ...options,\n", _SPREAD % "      ...options,\n      enableCircularCheck: true,\n"),
    ("rust/kyber.rs", _MASK % "let mask = cpa_check_encrypt(&g, ct);", _MASK % "let mask = cpa_check_encrypt(&g, ct); // FO check, constant time"),
    ("backend/postgres.go", _REQUEUE % ("$2", "", ", id"), _REQUEUE % ("$3", "", ", id")),  # still a bound parameter
    ("doc/index.rst", _JSONL % "", _JSONL % ", loads=orjson.loads"),
    ("doc/index.rst", _JSONL % "", _JSONL % ", loads=safe_eval"),
    ("README.md", *_edit(_HOTP % "2", _HOTP % "3")),  # widened by one
    ("README.md", *_edit(_HOTP % "20", _HOTP % "2")),  # narrowed
    ("lib/job.rb", _RESCUE % "    SuckerPunch.exception_handler.call(ex, self, args)\n",
     _RESCUE % "    SuckerPunch.exception_handler.call(ex, self, [*args, **kwargs])\n"),  # the call rewritten, still made
    ("src/gui/main_app.py", _EEL % "", _EEL % ', host="127.0.0.1"'),
    ("fuzzer/Cargo.toml", _CARGO % 'honggfuzz = "0.5.60"', _CARGO % 'honggfuzz = { package = "honggfuzz", version = "0.5.61" }'),
    ("fuzzer/Cargo.toml", _CARGO % 'rand = "0.8"', _CARGO % 'rand = { package = "rand_core", version = "0.6" }'),  # another crate, not a look-alike
    ("build.gradle", _GRADLE % "org.apache.commons", (_GRADLE % "org.apache.commons").replace(":+'", ":1.11.0'")),  # pinned
    ("php/WP_CLI/Runner.php", _RUNNER % "", _RUNNER % "@"),  # a character no shell reads
    ("README.md", *_edit(_SR % "", _SR % ", () => randomBytes(32)")),
    ("docs/index.rst", _PRINCIPAL % "permission.can()", _PRINCIPAL % "permission.can() or abort(403)"),  # the alternative refuses
    ("README.md", *_edit(_ROOTBEER % "0.1.0", _ROOTBEER % "0.1.1")),
    ("klone.yaml", _KLONE % "      repo_hash: 4dc1d67a99830a3be98203adb21879570620e5aa\n", _KLONE % "      repo_hash: 5ec2e8b08b9a3d4f6c71b0e2d9a8f1c3b4e5d6a7\n"),  # moved
    ("gen.go", _GEN % "// Package rfc5322 parses addresses.", _GEN % "// Package rfc5322 parses mail addresses (see go generate)."),
    ("test/e2e/basic/http.go", _GINKGO % "It", _GINKGO % "FIt"),  # focused, not pending: the other reader's
    ("templates/reset.html", _FORM % "get", _FORM % "post"),
    ("README.md", *_edit(_FIGARO % "", _FIGARO % "Keep it in `.gitignore`: never commit your secrets.\n")),
    ("README.md", *_edit(_ARMADILLO % "PBKDF2KeyStretcher", _ARMADILLO % "ArgonKeyStretcher")),
    ("README.md", *_edit(_WORKER % "unpkg.com", _WORKER % "cdn.jsdelivr.net")),
    ("README.md", *_edit(_HMAC % "", _HMAC % "  `openssl rand -base64 32 > hmac.key`\n")),
    ("README.md", *_edit(_BLIND % "", _BLIND % "pk.verify(&sig, msg_randomizer, msg)?;")),
    ("HomebrewFormula/git-brws.rb", _FORMULA % "    sha256 '9ca73a57c8327e24fc648790fb6065dd4795db251b4e2cf27184144ee8d3b827' # mac\n",
     _FORMULA % "    sha256 '1ca73a57c8327e24fc648790fb6065dd4795db251b4e2cf27184144ee8d3b827' # mac\n"),  # a new release's
    ("web/template.py", _BUILTINS % "", _BUILTINS % "    \"sorted\",\n"),
]


@pytest.mark.parametrize(("path", "before", "after", "said"), _NAMED)
def test_a_slipped_line_is_named(tmp_path: Path, path: str, before: str, after: str, said: str) -> None:
    one_edit_named(tmp_path, path, before, after, said)


# What this round's readers say: none of it in a near miss's reasons.
_SAYS = ("host's root", "constant seed", "without asking", "test → production", "TLS verification off", "caller's options",
         "comments out a check", "builds SQL from text", "runs text as code", "widens what a check", "report of the error", "every interface",
         "look-alike", "shell metacharacter", "zeros where randomness", "alternative after it", "any version", "plain HTTP",
         "skips a security test", "by GET", "commit a credential", "protection off", "another host", "key into a key file", "discards a verification",
         "pinned hash", "among a list of names")


@pytest.mark.parametrize(("path", "before", "after"), _QUIET)
def test_its_near_miss_stays_quiet(tmp_path: Path, path: str, before: str, after: str) -> None:
    one_edit_says_none(tmp_path, path, before, after, _SAYS)


def test_a_check_commented_out_is_high(tmp_path: Path) -> None:
    """A check that never runs is a guard deleted: the file is high, not only worth a look."""
    path = "rust/kyber.rs"
    risk, files = review_edits(tmp_path, {path: _MASK % "let mask = 0u8; // cpa_check_encrypt(&g, ct);"},
                               before={path: _MASK % "let mask = cpa_check_encrypt(&g, ct);"})
    assert risk == "high" and files[path].risk == "high", files[path]


def test_a_look_alike_installed_behind_a_virtualenvs_prompt_is_named(tmp_path: Path) -> None:
    """``(myenv) $ pip install dnsvis`` is a command, its prompt a virtualenv's: the project's own name respelled is named."""
    before = {"README.md": _PAGE + _DNSVIZ % "dnsviz", "setup.py": _SETUP}
    risk, files = review_edits(tmp_path, {"README.md": _PAGE + _DNSVIZ % "dnsvis"}, before=before)
    assert risk == "high" and "look-alike of dnsviz" in files["README.md"].reasons[0], files["README.md"]
    _, files = review_edits(tmp_path / "kept", {"README.md": _PAGE + _DNSVIZ % "'dnsviz[full]'"}, before=before)
    assert "look-alike" not in " ".join(files["README.md"].reasons), files["README.md"]


@pytest.mark.parametrize(("path", "test"), [("src/spec/SecurityScheme.php", False), ("spec/Reader/JsonSpec.php", True),
                                            ("src/test/java/org/acme/FixtureTest.java", True),
                                            ("spec/models/user_spec.rb", True)])
def test_a_php_class_under_a_folder_named_spec_is_code(path: str, test: bool) -> None:
    from relay.review.path_kinds import is_test_path
    assert is_test_path(path) is test


def test_a_strings_content_changed_is_never_typing_or_formatting(tmp_path: Path) -> None:
    """A ``;`` put into a quoted pattern: the formatting test drops semicolons, the typing test read the colon before it as a
    type's; neither may call the edit mechanical."""
    path = "php/WP_CLI/Runner.php"
    _, files = review_edits(tmp_path, {path: _RUNNER % ";"}, before={path: _RUNNER % ""})
    said = " ".join(files[path].reasons)
    assert "typing only" not in said and "reformatted only" not in said and "mechanical" not in said, files[path]


def test_a_key_echoed_into_a_key_file_is_named_but_never_shown_whole(tmp_path: Path) -> None:
    """The page's key reaches the leader's packet cut short: the reason names what it teaches, not the secret."""
    key = "ZnJhaG8tc2VjdXJpdHktand0LWV4YW1wbGUta2V5"
    changed = one_edit_named(tmp_path, "README.md", *_edit(_HMAC % "", _HMAC % f"  `echo -n '{key}' > hmac.key`\n"), "literal key into a key file")
    assert key not in " ".join(changed.reasons), changed.reasons
    # the reader's own sentence, before the packet cuts reasons to length: the key is cut there, not only by the cap
    from relay.review.page_dangers import page_danger
    said = page_danger([f"  `echo -n '{key}' > hmac.key`"], [])
    assert said is not None and key[:6] in said and key not in said, said
