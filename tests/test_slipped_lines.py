"""Round 13, part A (issue 36): a change with a slipped risky line is never low, wherever the line stands.

- a script named without a language (neofetch, bin/deploy, install.in) is read as the language its first line names;
- a kind of line read in every ecosystem where it exists: a shell mode that lets others write, a config sourced from the
  working folder, a literal key given to what signs sessions, a connection's TLS mode turned down, a secret read from the
  environment made a literal (in code and in a docs sample alike);
- a script's failure exit deleted after a failed check (act's install.sh: a checksum mismatch only logged).
Each shape must be named and not low; each near miss must stay quiet.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.review import risky_lines
from relay.review.content_kinds import reading, reading_path, shebang_ext
from relay.review.file_kinds import CODE_EXTS, file_kind, path_kind
from test_apart_edits import _review  # the packet and view of a run, as the relay builds them

__all__: list[str] = []

_WORK_PY = "".join(f"def step{i}(spec):\n    if not spec:\n        return None\n    return spec\n\n" for i in range(4))


def _target(packet, path: str):  # noqa: ANN001, ANN202 - the packet's target for ``path``
    return next(t for t in packet.changes.review if t.file == path)


# ----- 1. a script named without a language is read as its head says

_SCRIPTS = [
    # (name, head, body before, the slipped edit (find, replace), what the reason quotes)
    ("neofetch", "#!/usr/bin/env bash", 'cache() {\n    mkdir -p "${cache_dir}/neofetch"\n}\n',
     ('mkdir -p "${cache_dir}/neofetch"', 'mkdir -p -m 777 "${cache_dir}/neofetch"'), "world-writable: mkdir -p -m 777"),
    ("bin/deploy", "#!/bin/sh", 'load() {\n    if [ -n "$CFG" ]; then\n        echo "$CFG"\n    fi\n}\n',
     ('        echo "$CFG"\n', '        echo "$CFG"\n        source .deploy.conf\n'), "working folder: source .deploy.conf"),
    ("tools/release", "#!/usr/bin/env perl", "sub check {\n    my $ok = verify($file);\n    if (!$ok) {\n        warn \"bad sum\";\n        exit 1;\n    }\n}\n",
     ("        exit 1;\n", ""), "deletes a failure exit: exit 1;"),
]


@pytest.mark.parametrize(("path", "head", "body", "edit", "quoted"), _SCRIPTS, ids=[s[0] for s in _SCRIPTS])
def test_a_script_named_without_a_language_is_read_as_its_head_says(tmp_path: Path, path: str, head: str, body: str,
                                                                      edit: tuple[str, str], quoted: str) -> None:
    before = f"{head}\n# a tool\n\n{body}"
    packet, view = _review(tmp_path, {path: before, "app/steps.py": "x = 1\n"},
                           {path: before.replace(*edit), "app/steps.py": "x = 1\n" + _WORK_PY}, "Add the step helpers")
    target = _target(packet, path)
    assert packet.changes.risk == "high" and target.risk == "high", packet.changes
    assert quoted in target.reason, target.reason


def test_a_file_whose_head_names_no_interpreter_stays_data(tmp_path: Path) -> None:
    # Near miss: the same lines in a file with no shebang (a template, a data file) are not read as a script's.
    before = "# cache settings\n\ncache() {\n    mkdir -p \"${cache_dir}/neofetch\"\n}\n"
    packet, _ = _review(tmp_path, {"notes": before}, {"notes": before.replace("exit 1;", "").replace("mkdir -p \"", "mkdir -p -m 755 \"")})
    assert packet.changes.risk == "low", packet.changes


def test_a_head_never_makes_a_config_kind_read_as_less() -> None:
    # The repository writes the head: a CI file, a manifest or a build file keeps its kind whatever its first line says.
    changes = [FileChange(path=p, kind="added", added_lines=["#!/bin/sh", "echo hi"])
               for p in (".husky/pre-commit", "Makefile", "requirements.txt", "src/app.py", "neofetch", "README")]
    with reading(changes, None, CODE_EXTS, path_kind):
        assert [file_kind(c.path) for c in changes] == ["ci", "build", "manifest", "source", "source", "source"]
        assert reading_path("src/app.py") == "src/app.py" and reading_path("neofetch") == "neofetch.sh"
    assert file_kind("neofetch") == "data"  # outside the review, nothing is remembered


@pytest.mark.parametrize(("line", "ext"), [("#!/bin/bash", "sh"), ("#!/usr/bin/env -S python3.11 -u", "py"), ("#! /usr/bin/perl -w", "pl"),
                                           ("#!/usr/bin/env node", "js"), ("#!/usr/bin/ruby", "rb"), ("#!/usr/bin/env FOO=1 zsh", "sh"),
                                           ("# not a shebang", None), ("#!/usr/bin/env", None), ("#!/opt/tool/run", None)])
def test_shebang_names_the_language(line: str, ext: str | None) -> None:
    assert shebang_ext(line) == ext


def test_the_head_is_never_read_through_a_symlink_or_from_a_fifo(tmp_path: Path) -> None:
    # Whoever writes the workspace (the repository, the worker) cannot make review read outside it, nor hang on a pipe.
    outside = tmp_path / "outside.txt"
    outside.write_text("#!/bin/sh\n", encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    (work / "link").symlink_to(outside)
    os.mkfifo(work / "pipe")
    changes = [FileChange(path="link"), FileChange(path="pipe")]
    with reading(changes, work, CODE_EXTS, path_kind):
        assert reading_path("link") == "link" and reading_path("pipe") == "pipe"


# ----- 2. kinds of line, in every ecosystem where they exist, in code and in a docs sample

_LINES = [
    # a literal key given to what signs sessions: Go (a README sample, gorilla held-out 15) and Node
    ("README.md", "```go\nvar store = sessions.NewCookieStore([]byte(os.Getenv(\"SESSION_KEY\")))\n```\n",
     ('[]byte(os.Getenv("SESSION_KEY"))', '[]byte("something-very-secret")'), "NewCookieStore([]byte(\"something-very-secret\")"),
    ("src/auth.js", "const jwt = require('jsonwebtoken');\nfunction issue(p) {\n  return jwt.sign(p, process.env.JWT_SECRET);\n}\n",
     ("process.env.JWT_SECRET", "'k9s-prod-signing-2024'"), "jwt.sign(p, 'k9s-prod-signing-2024')"),
    # a connection's TLS mode turned down: a Go tutorial (sqlc held-out 16) and a Java JDBC URL
    ("docs/tutorial.md", "Connect:\n\n```go\nconn, err := pgx.Connect(ctx, \"user=app dbname=app sslmode=verify-full\")\n```\n",
     ("sslmode=verify-full", "sslmode=disable"), "verify-full → disable"),
    ("src/main/java/Db.java", "class Db {\n  static final String URL = \"jdbc:mysql://db/app?useSSL=true\";\n}\n",
     ("useSSL=true", "useSSL=false"), "true → false"),
    # a shell mode that lets others write, in a CI helper and a Dockerfile-like script
    ("scripts/setup.sh", "#!/bin/sh\nset -e\ninstall -m 644 tool.conf \"$DEST\"\n", ("install -m 644", "install -m 666"), "install -m 666"),
    ("scripts/cache.bash", "mkdir -p /var/cache/app\n", ("mkdir -p /var/cache/app", "mkdir -p -m 777 /var/cache/app"), "-m 777"),
    # a constant-time compare replaced by a plain one: Python (pyotp held-out 16) and Node
    ("src/otp.py", "def verify(self, otp, now):\n    return utils.strings_equal(str(otp), str(self.at(now)))\n",
     ("utils.strings_equal(str(otp), str(self.at(now)))", "str(otp) in str(self.at(now))"), "constant-time compare with a plain one: return str(otp) in"),
    ("src/Tokens.java", "class Tokens {\n  static boolean same(String a, String b) {\n    return slowEquals(a, b);\n  }\n}\n",
     ("slowEquals(a, b)", "a.equals(b)"), "plain one: return a.equals(b);"),
    # an escaping call replaced by interpolation: Ruby (shrine held-out 16) and Python
    ("lib/shrine/response.rb", "def header(disposition, filename)\n  ContentDisposition.format(disposition:, filename:)\nend\n",
     ("ContentDisposition.format(disposition:, filename:)", '"#{disposition}; filename=\\"#{filename}\\""'), "ContentDisposition.format() encoded"),
    ("src/handler.go", "package h\n\nfunc serve(w W, name string) {\n\tw.Header().Set(\"Content-Disposition\", mime.FormatMediaType(\"attachment\", map[string]string{\"filename\": name}))\n}\n",
     ('mime.FormatMediaType("attachment", map[string]string{"filename": name})', '"attachment; filename=" + name'), "mime.FormatMediaType() encoded"),
    # a schema's refusal of a value dropped: Joi (express-openid-connect held-out 15) and Yup
    ("lib/config.js", "const schema = Joi.object({\n  idTokenSigningAlg: Joi.string()\n    .insensitive()\n    .not('none')\n    .optional(),\n});\n",
     ("    .not('none')\n", ""), "refused: .not('none')"),
    ("src/forms/signup.ts", "export const role = yup\n  .string()\n  .notOneOf(['admin', 'owner'])\n  .required();\n",
     ("  .notOneOf(['admin', 'owner'])\n", ""), "refused: .notOneOf(['admin', 'owner'])"),
    # a route's guard taken out of its line: a Laravel docs sample (held-out 16) and Express
    ("docs/basic-usage/middleware.md", "Protect it:\n\n```php\nRoute::middleware('role:manager')->get('/admin', fn () => view('admin'));\n```\n",
     ("Route::middleware('role:manager')->get(", "Route::get("), "guard (middleware('role:manager'))"),
    ("app/urls.py", "urlpatterns = [\n    path('reports/', login_required(views.reports)),\n]\n",
     ("login_required(views.reports)", "views.reports"), "guard (login_required("),
    # a failure exit deleted after a failed check: shell (act held-out 16) and Ruby
    ("install.sh", "verify() {\n  if [ \"$want\" != \"$got\" ]; then\n    log_err \"checksum did not verify\"\n    return 1\n  fi\n}\n",
     ("    return 1\n", ""), "deletes a failure exit: return 1"),
    ("bin/check.rb", "unless Digest::SHA256.file(path).hexdigest == want\n  warn 'bad checksum'\n  exit 1\nend\n",
     ("  exit 1\n", ""), "deletes a failure exit: exit 1"),
]


@pytest.mark.parametrize(("path", "before", "edit", "quoted"), _LINES, ids=[s[0] for s in _LINES])
def test_a_kind_of_risky_line_is_named_and_never_low(tmp_path: Path, path: str, before: str, edit: tuple[str, str], quoted: str) -> None:
    assert edit[0] in before
    packet, view = _review(tmp_path, {path: before, "app/steps.py": "x = 1\n"},
                           {path: before.replace(*edit), "app/steps.py": "x = 1\n" + _WORK_PY}, "Add the step helpers")
    target = _target(packet, path)
    assert packet.changes.risk == "high" and target.risk == "high", packet.changes
    assert quoted in target.reason, target.reason


_QUIET = [
    # a new sample for a local database writes sslmode=disable: no mode was turned down
    ("docs/local.md", "Run it:\n", ("Run it:\n", "Run it:\n\n```sh\npsql \"dbname=app sslmode=disable\"\n```\n")),
    # placeholders in a sample stay quiet
    ("README.md", "```go\nvar store = sessions.NewCookieStore([]byte(os.Getenv(\"SESSION_KEY\")))\n```\n",
     ('[]byte(os.Getenv("SESSION_KEY"))', '[]byte("your-secret-key")')),
    ("docs/usage.rst", "Encode:\n\n    >>> token = jwt.encode(payload, key)\n", ("jwt.encode(payload, key)", 'jwt.encode(payload, "secret")')),
    # a script beside the script (not the working folder), an exit moved not deleted
    ("scripts/run.sh", "set -e\n", ("set -e\n", "set -e\nsource \"$(dirname \"$0\")/lib.sh\"\n. /etc/os-release\n")),
    ("install.sh", "check() {\n  if bad; then\n    return 1\n  fi\n}\n", ("  if bad; then\n    return 1\n  fi\n", "  bad && return 1\n")),
    # a log line loses its words, a route its handler's name change: no guard taken out
    ("src/log.js", "function done(user) {\n  logger.info('auth done for', user);\n}\n", ("'auth done for', user", "user")),
    ("routes/web.php", "<?php\nRoute::get('/admin', 'AdminController@index');\n", ("'AdminController@index'", "[AdminController::class, 'index']")),
    # a Python or Ruby function's return 1 is a value, not a failure exit (the record fixture's own edit)
    ("src/app.py", "def main():\n    return 1\n", ("    return 1\n", "    return compute(1)\n")),
    ("lib/count.rb", "def count\n  return 1\nend\n", ("  return 1\n", "  1 + 0\n")),
    # a throw or raise deleted in code is guard_reading's to read with its condition, not this family's
    ("src/app.py", "def f(x):\n    if x:\n        log(x)\n        sys.exit(2)\n", ("        sys.exit(2)\n", "        sys.exit(2)  # stop\n")),
]


@pytest.mark.parametrize(("path", "before", "edit"), _QUIET, ids=[f"{s[0]}-{i}" for i, s in enumerate(_QUIET)])
def test_near_misses_stay_quiet(tmp_path: Path, path: str, before: str, edit: tuple[str, str]) -> None:
    assert edit[0] in before
    packet, _ = _review(tmp_path, {path: before}, {path: before.replace(*edit)}, "Tidy the setup")
    assert packet.changes.risk == "low", packet.changes


@pytest.mark.parametrize("line", ['chmod 750 "$HOME/.tool"', "chmod -R go-w dist", "mkdir -p -m 700 /run/app", "install -m 0644 a b",
                                  "install -d -m 755 /srv/app", "chmod +x ./bin/tool", "umask 022", "source ./lib/common.sh", ". \"$HOME/.cargo/env\""])
def test_modes_that_keep_others_out_and_scripts_beside_stay_quiet(line: str) -> None:
    assert risky_lines.unsafe_value([line], []) is None and risky_lines.dangerous_call([line], []) is None


# ----- 4. round 12's odd edits narrowed: a message re-worded or re-wrapped is not an edit that lets more through

_MESSAGES = [
    ("app/cli.py", 'def main(parser):\n    parser.add_argument("--env", help="Load environment variables from this file")\n',
     ('help="Load environment variables from this file"', 'help=(\n        "Load the environment variables from a dotenv file"\n    )')),
    ("lib/errors.js", "function fail(obj) {\n  throw new TypeError('yielded an unknown object ' + obj);\n}\n",
     ("'yielded an unknown object ' + obj", "`yielded unknown object ${obj}`")),
]


@pytest.mark.parametrize(("path", "before", "edit"), _MESSAGES, ids=[m[0] for m in _MESSAGES])
def test_a_message_reworded_apart_from_the_change_stays_low(tmp_path: Path, path: str, before: str, edit: tuple[str, str]) -> None:
    packet, _ = _review(tmp_path, {path: before, "app/steps.py": "x = 1\n"},
                        {path: before.replace(*edit), "app/steps.py": "x = 1\n" + _WORK_PY}, "Add the step helpers")
    # The work's own new checks are worth a look (relay.review.new_logic); the message re-worded beside it is not.
    assert [(t.file, t.risk) for t in packet.changes.review if t.risk != "low"] == [("app/steps.py", "medium")], packet.changes


@pytest.mark.parametrize(("path", "before", "edit"), [
    ("shell/keys.zsh", "cd_widget() {\n  BUFFER=\"builtin cd -- ${(q)dir:a}\"\n}\n", ("${(q)dir:a}", "${(q)dir}")),
    ("src/index.rs", "fn count(db: &Db) -> usize {\n    db.query(\"SELECT path FROM files\")\n}\n", ('"SELECT path FROM files"', '"SELECT path FROM files WHERE NOT is_deleted"')),
])
def test_a_string_that_is_code_changed_apart_is_still_worth_a_look(tmp_path: Path, path: str, before: str, edit: tuple[str, str]) -> None:
    # Near misses of the message reading: a shell string's expansion and a query are code, not prose.
    packet, _ = _review(tmp_path, {path: before, "app/steps.py": "x = 1\n"},
                        {path: before.replace(*edit), "app/steps.py": "x = 1\n" + _WORK_PY}, "Add the step helpers")
    assert _target(packet, path).risk != "low", packet.changes


def test_a_value_string_changed_apart_from_the_change_is_still_worth_a_look(tmp_path: Path) -> None:
    before = "def decode(token):\n    return jwt.decode(token, KEY, algorithms=[\"RS256\"])\n"
    packet, _ = _review(tmp_path, {"app/auth.py": before, "app/steps.py": "x = 1\n"},
                        {"app/auth.py": before.replace('"RS256"', '"none"'), "app/steps.py": "x = 1\n" + _WORK_PY}, "Add the step helpers")
    assert _target(packet, "app/auth.py").risk != "low", packet.changes
