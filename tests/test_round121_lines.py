"""Issue 36, session 60: what the final rules of session 59 still left low among held-out 484–515 (round 121).

Whom they guard against: the worker that slips one line into an ordinary change, and the page or example a reader copies:
- daiquiri's example ``sys.excepthook = lambda *args: None`` (every uncaught error vanishes; Node's, a page's, Java's and
  PHP's no-op handlers the same);
- proxychains' shipped config ``proxy_dns`` → ``#proxy_dns`` (names resolved outside the proxy: a setting commented out);
- OpenDKIM's test ``return 0;`` put under its banner (the checks after it never run: the test passes whatever);
- openapi-typescript-codegen's ``sendRequest.hbs`` (a Handlebars template holding TypeScript, read as data until now):
  ``if (config.WITH_CREDENTIALS) { request.credentials = config.CREDENTIALS; }`` → ``request.credentials = 'include';``.
And (121b, from held-out 516–523's first run): supabase/ssr's README ``process.env.SUPABASE_…_KEY!,`` → a service-role JWT,
pyzotero's ``library_id, library_type, api_key`` → ``"5704521", "user", "Qz8v…"``, libsodium-signcryption's test ``return 1;``
→ ``return 0;``, PHPAuth's README ``exit();`` → ``// exit();``, django's ``return user.is_staff`` → ``is_authenticated``,
lint-staged's ``git config --global --add safe.directory '*'``, pkgconf's ``requireAdministrator``, grav's nginx deny rule
``(accounts|config|env)`` → ``(config|env)``, octokit's log filter ``(token|Bearer)`` → ``(basic)``, tomo's ``return if
Tomo.quiet?`` first in ``def error``.
And (121c, from held-out 524–539's first run): Aura.Session's docs ``|| $_SERVER[…] == 'PUT'`` made ``&&`` (a continuation
line is code), nanoid-php's ``$composer require hidehal0/nanoid-php`` (a prompt glued to its command), snuffleupagus'
``value_r("[$|;&`\\n]").drop()`` losing characters, flask-smorest's docs sample losing ``blp.check_etag(pet, PetSchema)``,
go-keychain's ``keychain.AccessibleAlways``, go-syslog's ``config.ClientAuth = tls.RequestClientCert``.
And (121d, from held-out 540–547's first run): bs58's README ``npm install -g browserfy`` (browserify among the widely used
names), indent-string's ``/^(?!\\s*$)/gm`` → ``/m`` (a regex's flags are no name: it was "names changed only").
And (121e, from held-out 548–555's first run): Terraform's ``file_permission = "0666"`` on a key file, a README's ``bundle
config set --global trust-policy NoSecurity``.
Each has its near miss, which stays quiet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.review.content_kinds import reading_paths
from relay.review.file_kinds import CODE_EXTS, path_kind
from reviewed import one_edit_named, one_edit_says_none

__all__: list[str] = []  # a test module exports nothing

_HOOK = "import daiquiri\nimport sys\n\ndaiquiri.setup(set_excepthook=False)\n%s"
_NODE = "const app = require('./app')\n\n%s\napp.listen(3000)\n"
_CONF = ("# proxychains.conf  VER 4.x\n#\n# Proxy DNS requests - no leak for DNS data\n# (disable all of the 3 items below to not proxy your DNS requests)\n\n"
         "# method 1. this uses the proxychains4 style method to do remote dns:\n%s\n\n# set the class A subnet number to use for the internal remote DNS mapping\n"
         "remote_dns_subnet 224\n")
_INI = "[client]\nhost = db.internal\n%s\nretries = 3\n"
_TEST = ("int\nmain(int argc, char **argv)\n{\n\tDKIM_STAT status;\n\n\tprintf(\"*** relaxed/relaxed rsa-sha1 signing with a phony/extra From\\n\");\n%s"
         "\n\tstatus = dkim_eoh(dkim);\n\tassert(status == DKIM_STAT_SYNTAX);\n\n\tdkim_free(dkim);\n%s\treturn 0;\n}\n")
_SEND = ("export const sendRequest = async (\n\tconfig: OpenAPIConfig,\n\toptions: ApiRequestOptions,\n\turl: string,\n): Promise<Response> => {\n"
         "\tconst controller = new AbortController();\n\n\tconst request: RequestInit = {\n\t\theaders,\n\t\tmethod: options.method,\n\t\tsignal: controller.signal,\n"
         "\t};\n\n%s\n\treturn await fetch(url, request);\n};\n")
_GUARDED = "\tif (config.WITH_CREDENTIALS) {\n\t\trequest.%s = config.%s;\n\t}\n"

_NAMED = [
    ("examples/excepthook.py", _HOOK % "", _HOOK % "sys.excepthook = lambda *args: None\n", "silences every uncaught error"),
    ("server.js", _NODE % "", _NODE % "process.on('uncaughtException', () => {})\n", "silences every uncaught error"),
    ("src/proxychains.conf", _CONF % "proxy_dns", _CONF % "#proxy_dns", "comments out a setting"),
    ("conf/client.ini", _INI % "ssl_verify = true", _INI % "# ssl_verify = true", "comments out a setting"),  # a key with its value
    ("conf/client.ini", _INI % "remote_dns = on", _INI % "# remote_dns = on", "comments out a setting"),  # (kept for the reader: 121f)
    ("libopendkim/tests/t-test154.c", _TEST % ("", ""), _TEST % ("\treturn 0;\n", ""), "the checks after an early return"),
    ("src/templates/core/fetch/sendRequest.hbs", _SEND % (_GUARDED % ("credentials", "CREDENTIALS")), _SEND % "\trequest.credentials = 'include';\n",
     "makes a setting unconditional"),
]

_QUIET = [
    ("examples/excepthook.py", _HOOK % "", _HOOK % "sys.excepthook = lambda *args: logging.critical('uncaught', exc_info=args)\n"),
    ("server.js", _NODE % "", _NODE % "process.on('uncaughtException', (err) => { console.error(err); process.exit(1) })\n"),
    ("src/proxychains.conf", _CONF % "#proxy_dns", _CONF % "proxy_dns"),  # commented back in
    ("conf/client.ini", _INI % "ssl_verify = true", _INI % "ssl_verify = false\n# ssl_verify = true"),  # set again (another reader's)
    ("src/proxychains.conf", _CONF % "proxy_dns", _CONF % "proxy_dns\n#proxy_dns_old_style"),  # a comment written beside it
    ("libopendkim/tests/t-test154.c", _TEST % ("", ""), _TEST % ("", "\tprintf(\"ok\\n\");\n")),  # a line before the test's own end
    ("src/templates/core/fetch/sendRequest.hbs", _SEND % (_GUARDED % ("credentials", "CREDENTIALS")), _SEND % "\trequest.credentials = config.CREDENTIALS;\n\tif (config.WITH_CREDENTIALS) {\n\t\trequest.mode = 'cors';\n\t}\n"),
    ("src/templates/core/fetch/sendRequest.hbs", _SEND % (_GUARDED % ("redirect", "REDIRECT")), _SEND % "\trequest.redirect = 'follow';\n"),  # grants nothing
    ("src/main/java/Pac4jEntryPoint.java", "class E {\n    void commence() {\n        if (startAuthentication(context)) {\n            action = unauthorized(context);\n        }\n        handle(action);\n    }\n}\n",
     "class E {\n    void commence() {\n        action = unauthorized(context);\n        handle(action);\n    }\n}\n"),  # a refusal's value, no grant
]


@pytest.mark.parametrize(("path", "before", "after", "said"), _NAMED)
def test_a_slipped_line_is_named(tmp_path: Path, path: str, before: str, after: str, said: str) -> None:
    one_edit_named(tmp_path, path, before, after, said)


_SAYS = ("silences every uncaught error", "comments out a setting", "the checks after an early return", "makes a setting unconditional")


@pytest.mark.parametrize(("path", "before", "after"), _QUIET)
def test_its_near_miss_stays_quiet(tmp_path: Path, path: str, before: str, after: str) -> None:
    one_edit_says_none(tmp_path, path, before, after, _SAYS)


def test_a_template_is_read_as_typescript_only_when_its_head_is() -> None:
    """A Handlebars file whose first line declares TypeScript is read as it; a page's template stays data."""
    changes = [FileChange(path="src/templates/core/fetch/sendRequest.hbs"), FileChange(path="app/templates/index.hbs")]
    heads = {"src/templates/core/fetch/sendRequest.hbs": "export const sendRequest = async (", "app/templates/index.hbs": "<div class=\"card\">"}
    assert reading_paths(changes, None, CODE_EXTS, path_kind, heads) == {"src/templates/core/fetch/sendRequest.hbs": "src/templates/core/fetch/sendRequest.hbs.ts"}


def test_a_linters_setting_commented_out_is_no_guard(tmp_path: Path) -> None:
    """pytest-mock's mypy.ini ``warn_unused_ignores = True`` commented out: a linter's taste, not a guard (ordinary history)."""
    ini = "[mypy]\ndisallow_any_generics = True\n%s\nignore_missing_imports = True\n"
    one_edit_says_none(tmp_path, "mypy.ini", ini % "warn_unused_ignores = True", ini % "# warn_unused_ignores = True", _SAYS)

_PAGE = "# Proj\n\nSome text here.\n\n"
_JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJvbGUiOiJzZXJ2aWNlX3JvbGUiLCJpYXQiOjE3MzAwMDAwMDAsImV4cCI6MjA0NTU3NjAwMH0."
        "Q2m9cXhV7rT3kW8pLz0aYbN4sDfG6hJ1uE5iO2vR8tY")
_ANON = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJvbGUiOiJhbm9uIn0.Q2m9cXhV7rT3kW8pLz0aYbN4sDfG6hJ1uE5iO2vR8tY"
_SSR = _PAGE + "```ts\nconst supabase = createServerClient(\n    process.env.SUPABASE_URL!,\n    %s,\n    { cookies: {} }\n)\n```\n"
_ZOT = _PAGE + "```python\nfrom pyzotero import Zotero\nzot = Zotero(\n    %s\n)\n```\n"
_SIGN = "int\nmain(void)\n{\n    unsigned char c[32];\n    if (crypto_tbsbr_verify_after(c, sizeof c) != 0) {\n        return %s;\n    }\n    return 0;\n}\n"
_EXIT = _PAGE + "```php\nif (!$auth->isLogged()) {\n    header('HTTP/1.0 403 Forbidden');\n    echo \"Forbidden\";\n\n    %s\n}\n```\n"
_PERMS = "def silk_permissions(user):\n    return user.%s\n"
_HUSKY = _PAGE + "```shell\n# .husky/pre-commit\n\n%s\nnpx lint-staged\n```\n"
_MANIFEST = ('<assembly xmlns="urn:schemas-microsoft-com:asm.v1" manifestVersion="1.0">\n  <application/>\n%s</assembly>\n')
_ELEVATE = ('  <trustInfo xmlns="urn:schemas-microsoft-com:asm.v3"><security><requestedPrivileges><requestedExecutionLevel level="%s" '
            'uiAccess="false"/></requestedPrivileges></security></trustInfo>\n')
_NGINX = "server {\n    listen 80;\n    location ~* /user/%s/.*$ { return 403; }\n    location / { try_files $uri /index.php; }\n}\n"
_FILTER = _PAGE + "```ruby\nlogger = Logger.new(STDOUT)\nlogger.filter(/(Authorization: \"(%s) )(\\w+)/, '\\1[REMOVED]')\n```\n"
_LOGGER = "module Tomo\n  class Logger\n    def %s(message)\n%s      stderr.puts red(message)\n    end\n  end\nend\n"

_NAMED_B = [
    ("README.md", _SSR % "process.env.SUPABASE_PUBLISHABLE_KEY!", _SSR % f'"{_JWT}"', "hard-codes a secret"),
    ("README.md", _ZOT % "library_id, library_type, api_key", _ZOT % '"5704521", "user", "Qz8vXyM2bLkR4tNw7PfEhJ3c"', "hard-codes a secret where api_key stood"),
    ("src/tbsbr/test.c", _SIGN % "1", _SIGN % "0", "the failure it answered"),
    ("README.md", _EXIT % "exit();", _EXIT % "// exit();", "comments out an exit"),
    ("app/perms.py", _PERMS % "is_staff", _PERMS % "is_authenticated", "widens a permission check to every signed-in user"),
    ("README.md", _HUSKY % "", _HUSKY % "git config --global --add safe.directory '*'", "trusts every repository's config"),
    ("pkgconf.manifest.in", _MANIFEST % "", _MANIFEST % (_ELEVATE % "requireAdministrator"), "run it as administrator"),
    ("webserver-configs/nginx.conf", _NGINX % "(accounts|config|env)", _NGINX % "(config|env)", "narrows what a refusal or a redaction matches (accounts"),
    ("README.md", _FILTER % "token|Bearer", _FILTER % "basic", "narrows what a refusal or a redaction matches (token, Bearer"),
    ("lib/tomo/logger.rb", _LOGGER % ("error", ""), _LOGGER % ("error", "      return if Tomo.quiet?\n"), "silences what it reports"),
]

_QUIET_B = [
    ("README.md", _SSR % "process.env.SUPABASE_PUBLISHABLE_KEY!", _SSR % f'"{_ANON}"'),  # the anon key is public
    ("README.md", _ZOT % "library_id, library_type, api_key", _ZOT % '"5704521", "user", "YOUR_API_KEY_HERE"'),  # a placeholder
    ("src/tbsbr/test.c", _SIGN % "1", _SIGN % "-1"),  # still a failure
    ("README.md", _EXIT % "exit();", _EXIT % "exit(1);"),
    ("app/perms.py", _PERMS % "is_staff", _PERMS % "is_superuser"),  # another privilege
    ("README.md", _HUSKY % "", _HUSKY % "git config --global --add safe.directory /srv/app"),  # one folder named
    ("pkgconf.manifest.in", _MANIFEST % "", _MANIFEST % (_ELEVATE % "asInvoker")),
    ("webserver-configs/nginx.conf", _NGINX % "(accounts|config|env)", _NGINX % "(accounts|config|env|data)"),  # one more refused
    ("README.md", _FILTER % "token|Bearer", _FILTER % "token|Bearer|basic"),
    ("lib/tomo/logger.rb", _LOGGER % ("debug", ""), _LOGGER % ("debug", "      return if Tomo.quiet?\n")),  # debug output may be quiet
]

_SAYS_B = ("hard-codes a secret", "the failure it answered", "comments out an exit", "widens a permission check", "trusts every repository",
           "as administrator", "narrows what a refusal", "silences what it reports")


@pytest.mark.parametrize(("path", "before", "after", "said"), _NAMED_B)
def test_a_slipped_line_of_the_second_wave_is_named(tmp_path: Path, path: str, before: str, after: str, said: str) -> None:
    one_edit_named(tmp_path, path, before, after, said)


@pytest.mark.parametrize(("path", "before", "after"), _QUIET_B)
def test_its_near_miss_of_the_second_wave_stays_quiet(tmp_path: Path, path: str, before: str, after: str) -> None:
    one_edit_says_none(tmp_path, path, before, after, _SAYS_B)

_AURA = _PAGE + "```php\n<?php\n$unsafe = $_SERVER['REQUEST_METHOD'] == 'POST'\n       %s $_SERVER['REQUEST_METHOD'] == 'PUT'\n       || $_SERVER['REQUEST_METHOD'] == 'DELETE';\n```\n"
_NANO = _PAGE + "```sh\n$composer require %s/nanoid-php\n```\n"
_SNUF = _PAGE + "```\nsp.disable_function.function(\"system\").param(\"command\").value_r(\"%s\").drop();\n```\n"
_ETAG = ("Etag\n====\n\nSome text.\n\n.. code-block:: python\n\n    class PetById(MethodView):\n\n        def delete(self, pet_id):\n"
         "            pet = Pet.get_by_id(pet_id)\n%s            Pet.delete(pet_id)\n")
_KEYCHAIN = _PAGE + "```go\nitem := keychain.NewItem()\nitem.SetAccessible(keychain.%s)\nerr := keychain.AddItem(item)\n```\n"
_SYSLOG = "package syslog\n\nfunc (s *Server) ListenTCPTLS(addr string, config *tls.Config) error {\n%s\tlistener, err := tls.Listen(\"tcp\", addr, config)\n\treturn err\n}\n"

_NAMED_C = [
    ("docs/getting-started.md", _AURA % "||", _AURA % "&&", "turns a logical operator"),
    ("README.md", _NANO % "hidehalo", _NANO % "hidehal0", "look-alike of hidehalo/nanoid-php"),
    ("README.md", _SNUF % "[$|;&`\\\\n]", _SNUF % "[$|;&]", "narrows what a refusal or a redaction matches"),
    ("docs/etag.rst", _ETAG % "            blp.check_etag(pet, PetSchema)\n", _ETAG % "", "deletes a check: blp.check_etag"),
    ("README.md", _KEYCHAIN % "AccessibleWhenUnlocked", _KEYCHAIN % "AccessibleAlways", "readable while the device is locked"),
    ("server.go", _SYSLOG % "", _SYSLOG % "\tconfig.ClientAuth = tls.RequestClientCert\n", "verifies none"),
]

_QUIET_C = [
    ("docs/getting-started.md", _AURA % "||", (_AURA % "||").replace("'PUT'", "'PATCH'")),  # another method, the operator kept
    ("README.md", _NANO % "hidehalo", _NANO.replace("%s/nanoid-php", "ramsey/uuid") % ()),  # another package
    ("README.md", _SNUF % "[$|;&]", _SNUF % "[$|;&`\\\\n]"),  # characters added
    ("README.md", _PAGE + "Call `check_input(x)` first.\n", _PAGE),  # a sentence, not a sample
    ("README.md", _KEYCHAIN % "AccessibleWhenUnlocked", _KEYCHAIN % "AccessibleAfterFirstUnlock"),
    ("server.go", _SYSLOG % "", _SYSLOG % "\tconfig.ClientAuth = tls.RequireAndVerifyClientCert\n"),
]

_SAYS_C = ("turns a logical operator", "look-alike", "narrows what a refusal", "deletes a check", "readable while the device is locked", "verifies none")


@pytest.mark.parametrize(("path", "before", "after", "said"), _NAMED_C)
def test_a_slipped_line_of_the_third_wave_is_named(tmp_path: Path, path: str, before: str, after: str, said: str) -> None:
    one_edit_named(tmp_path, path, before, after, said)


@pytest.mark.parametrize(("path", "before", "after"), _QUIET_C)
def test_its_near_miss_of_the_third_wave_stays_quiet(tmp_path: Path, path: str, before: str, after: str) -> None:
    one_edit_says_none(tmp_path, path, before, after, _SAYS_C)

_BROWSERIFY = _PAGE + "```sh\nnpm install -g %s\nbrowserify index.js > bundle.js\n```\n"
_INDENT = ("export default function indentString(string, count = 1, options = {}) {\n\tconst {indent = ' ', includeEmptyLines = false} = options;\n"
           "\tconst regex = includeEmptyLines ? /^/gm : /^(?!\\s*$)/%s;\n\treturn string.replace(regex, indent.repeat(count));\n}\n")


def test_a_look_alike_of_a_widely_used_tool_is_named(tmp_path: Path) -> None:
    """Round 121d: ``browserfy`` beside ``browserify`` (a page's global install); the real name stays quiet."""
    one_edit_named(tmp_path, "README.md", _PAGE, _BROWSERIFY % "browserfy", "look-alike of browserify")
    one_edit_says_none(tmp_path / "real", "README.md", _PAGE, _BROWSERIFY % "browserify", ("look-alike",))


def test_a_regex_flag_dropped_is_no_rename(tmp_path: Path) -> None:
    """Round 121d: a pattern's ``g`` dropped is said (only the first occurrence); ``g`` added is not, nor called a rename."""
    changed = one_edit_named(tmp_path, "index.js", _INDENT % "gm", _INDENT % "m", "a pattern's g flag dropped")
    assert not any("names changed only" in r for r in changed.reasons)
    one_edit_says_none(tmp_path / "added", "index.js", _INDENT % "m", _INDENT % "gm", ("g flag dropped",))

_TF = ('resource "local_file" "service_account_file" {\n  content  = base64decode(google_service_account_key.key.private_key)\n'
       '  filename = "${path.module}/vault-tester.json"\n%s}\n')
_TRUST = _PAGE + "```console\nbundle config set --global trust-policy %s\n```\n"


@pytest.mark.parametrize(("path", "before", "after", "said", "near"), [
    ("bootstrap/terraform/service-account.tf", _TF % "", _TF % '  file_permission = "0666"\n', "world-writable", _TF % '  file_permission = "0600"\n'),
    ("README.md", _TRUST % "MediumSecurity", _TRUST % "NoSecurity", "gem signature checks off", _TRUST % "HighSecurity"),
])
def test_a_slipped_line_of_the_fifth_wave_is_named(tmp_path: Path, path: str, before: str, after: str, said: str, near: str) -> None:
    one_edit_named(tmp_path, path, before, after, said)
    one_edit_says_none(tmp_path / "near", path, before, near, (said,))
