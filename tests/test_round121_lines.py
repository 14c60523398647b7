"""Issue 36, session 60: what the final rules of session 59 still left low among held-out 484–515 (round 121).

Whom they guard against: the worker that slips one line into an ordinary change, and the page or example a reader copies:
- daiquiri's example ``sys.excepthook = lambda *args: None`` (every uncaught error vanishes; Node's, a page's, Java's and
  PHP's no-op handlers the same);
- proxychains' shipped config ``proxy_dns`` → ``#proxy_dns`` (names resolved outside the proxy: a setting commented out);
- OpenDKIM's test ``return 0;`` put under its banner (the checks after it never run: the test passes whatever);
- openapi-typescript-codegen's ``sendRequest.hbs`` (a Handlebars template holding TypeScript, read as data until now):
  ``if (config.WITH_CREDENTIALS) { request.credentials = config.CREDENTIALS; }`` → ``request.credentials = 'include';``.
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
    ("libopendkim/tests/t-test154.c", _TEST % ("", ""), _TEST % ("\treturn 0;\n", ""), "the checks after an early return"),
    ("src/templates/core/fetch/sendRequest.hbs", _SEND % (_GUARDED % ("credentials", "CREDENTIALS")), _SEND % "\trequest.credentials = 'include';\n",
     "makes a setting unconditional"),
]

_QUIET = [
    ("examples/excepthook.py", _HOOK % "", _HOOK % "sys.excepthook = lambda *args: logging.critical('uncaught', exc_info=args)\n"),
    ("server.js", _NODE % "", _NODE % "process.on('uncaughtException', (err) => { console.error(err); process.exit(1) })\n"),
    ("src/proxychains.conf", _CONF % "#proxy_dns", _CONF % "proxy_dns"),  # commented back in
    ("src/proxychains.conf", _CONF % "proxy_dns", _CONF % "proxy_dns\n#proxy_dns_old_style"),  # a comment written beside it
    ("libopendkim/tests/t-test154.c", _TEST % ("", ""), _TEST % ("", "\tprintf(\"ok\\n\");\n")),  # a line before the test's own end
    ("src/templates/core/fetch/sendRequest.hbs", _SEND % (_GUARDED % ("credentials", "CREDENTIALS")), _SEND % "\trequest.credentials = config.CREDENTIALS;\n\tif (config.WITH_CREDENTIALS) {\n\t\trequest.mode = 'cors';\n\t}\n"),
    ("src/templates/core/fetch/sendRequest.hbs", _SEND % (_GUARDED % ("redirect", "REDIRECT")), _SEND % "\trequest.redirect = 'follow';\n"),  # grants nothing
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
