"""Kinds of risky line read in every ecosystem where they exist, found slipped into ordinary changes (issue 36, round 13).

- ``VALUES`` (rows of ``relay.review.risky_lines``' value table): a mode that lets others write given to a shell's
  ``mkdir -m`` or ``install -m`` (``777``, ``a+w``: the octal family reads ``0o777``/``0777`` and chmod's only); a
  literal key given to what signs sessions, cookies or tokens (``NewCookieStore([]byte("…"))``, ``jwt.sign(p, "…")``).
- ``CALLS`` (rows of its call table): a script that sources a hidden or config file by a path relative to the working
  folder (``source .tool.conf``): any folder the user runs it in supplies code.
- ``turned_down``: a connection's TLS mode turned down in place (``sslmode=verify-full`` → ``disable``, ``useSSL=true`` →
  ``false``), a secret read from the environment replaced by a literal (``os.Getenv("SESSION_KEY")`` → ``"…"``), a
  constant-time compare replaced by a plain one (``strings_equal(a, b)`` → ``a in b``, ``timingSafeEqual`` → ``===``), an
  escaping or encoding call replaced by interpolation (``ContentDisposition.format(filename:)`` → ``"…#{filename}"``), a
  schema's refusal of a value dropped (Joi's ``.not('none')``, Yup's ``.notOneOf([…])``), a route's guard taken out of its
  line (``Route::middleware('role:manager')->get(…)`` → ``Route::get(…)``): what
  only the edited pair shows (a new sample writing ``sslmode=disable`` for a local database is not an edit that lowers).
- ``failure_exit_deleted``: a script's failure exit deleted (``return 1``, ``exit 1``, ``die``, ``exit $?``, ``throw``) and
  written nowhere again in the file: a failed check that now falls through (a checksum mismatch only logged).

Every quote is the line itself, centred on what was found (``relay.review.line_shapes.window``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher

from relay.review.line_shapes import Screen, squeezed, window

__all__ = ["CALLS", "ROUTE_RE", "SCREENS", "VALUES", "failure_exit_deleted", "turned_down"]

_SHOWN = 90
# A value that stands in for a secret in samples and templates (the value table's placeholders, and the names of one).
_PLACEHOLDER_RE = re.compile(r"(?i)your|example|placeholder|change[-_ ]?me|replace|dummy|fake|xxx|\.\.\.|^<.*>$|^\*+$|^(?:secret|key|password|token)$")

VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("makes a folder or file world-writable", ("mkdir", "install"), re.compile(
        # mkdir -p -m 777 x, install -m 0666 x, install -d --mode=a+w x: a shell's modes, octal without 0o (chmod and umask are
        # risky_lines' own).
        r"\b(?:mkdir|install)\b[^\n;&|#]*?\s(?:-m\s*|--mode[= ])(?P<at>0?[0-7]?[0-7][0-7][2367]|(?:[ugo]*[ao][ugo]*)\+[rwxX]*w[rwxX]*)\b")),
    ("signs sessions or tokens with a literal key", ("cookiestore", "sessionstore", "securecookie.new", "sessions.new", "jwt.", "hmac",
                                                     "signer", "serializer", "fernet", "secretkeyspec"), re.compile(
        r"\b(?:New\w*(?:Cookie|Session)Store|(?:Cookie|Session)Store|securecookie\.New|sessions\.New\w*|jwt\.(?:sign|encode)|JWT\.encode|"
        r"hmac\.new|HMAC\.new|Hmac\w*::new\w*|\w*Signer|URLSafe\w*Serializer|Fernet|SecretKeySpec)\s*\(\s*(?:[\w.]+\s*,\s*)?"
        # Not a placeholder a sample writes ("your-secret-key", "changeme", "xxx…").
        r"(?:\[\]byte\(|b|Buffer\.from\(|)(?P<at>['\"](?!(?i:[^'\"]*(?:your|example|placeholder|change[-_]?me|replace|dummy|fake|xxx)))"
        r"(?!(?i:(?:my[-_]?)?(?:secret|key|password|passwd|token|s3cr3t|shh+|test|dev)(?:[-_]?key)?['\"]))"
        # Nor an algorithm's name after the key (`new SecretKeySpec(secretKey, "HmacSHA256")`, `jwt.sign(p, key, "HS256")`).
        r"(?!(?i:hmac[-_]?\w*|[hre]s\d{3}|sha[-_]?\d+|aes\w*|ed25519)['\"])"
        r"(?P<value>[^'\"\s$%{}<>]{6,})['\"])")),
)

CALLS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("runs code from the working folder", ("source", ". "), re.compile(
        # A hidden or config file named relative to wherever the script is run ("source .tool.conf", ". ./.env"); not one
        # beside the script ("$(dirname "$0")/lib.sh"), nor an absolute or home path.
        r"^\s*(?:(?:el)?if\b.*?(?:then|&&)\s*)?(?:source|\.) +['\"]?(?P<at>(?:\./)?(?:\.[\w.-]+|[\w.-]+\.(?:conf|cfg|env|rc|config)))['\"]?\s*(?:$|[;&|#])")),
)

_TLS_MODE_RE = re.compile(r"(?i)\b(?P<key>sslmode|ssl_?mode|ssl|use_?ssl|require_?ssl|tls|encrypt|trustservercertificate)"
                          r"\s*[=:]\s*['\"]?(?P<value>[\w-]+)")
_STRONG = {"sslmode": ("require", "verify-ca", "verify-full"), "ssl": ("true", "1", "required", "require"), "tls": ("true", "1", "verify", "required")}
_WEAK = {"sslmode": ("disable", "allow", "prefer"), "ssl": ("false", "0", "disable", "disabled", "off"), "tls": ("false", "0", "skip-verify", "disable", "off", "insecure")}
_ENV_READ_RE = re.compile(r"(?:os\.Getenv|getenv|os\.environ(?:\.get)?|ENV\.fetch|ENV|process\.env|System\.getenv|Environment\.GetEnvironmentVariable|env::var|env)"
                          r"\s*[(\[.]\s*['\"]?(?P<name>\w*(?:KEY|SECRET|TOKEN|PASS)\w*)['\"]?\s*[)\]]?", re.I)
_LITERAL_RE = re.compile(r"['\"](?P<value>[^'\"\s$%{}<>]{6,})['\"]")


# A weak mode put into a connection string that named none: what no default is (the defaults encrypt, or ask the server).
_PUT_IN_WEAK = {"sslmode": ("disable",), "tls": ("skip-verify", "insecure"), "trust": ("true", "yes", "1")}


def _without(code: str, m: re.Match[str]) -> str:
    """``code`` squeezed, the mode ``m`` matched taken out with the separator before it (``?``, ``&``, ``;``, a space)."""
    start = m.start() - 1 if m.start() and code[m.start() - 1] in "?&; ," else m.start()
    return squeezed(code[:start] + code[m.end():])


# A connection URL's scheme and host (``postgres://user@db.example.com/app``): a mode put in while the URL moved off the
# local machine (blind 251's usql README: ``postgres://booktest@localhost/…`` → ``…@db.example.com/…?sslmode=disable``).
_URL_HOST_RE = re.compile(r"(?P<scheme>\b[a-z][\w+.-]*://)(?:[^@/\s'\"]*@)?(?P<host>[\w.-]+)")
_LOCAL_HOSTS = ("localhost", "127.0.0.1", "0.0.0.0", "::1")


def _moved_off_local(code: str, removed: Sequence[str]) -> bool:
    """Whether ``code``'s connection URL names a host beyond the local machine while a removed line had a URL of the same
    scheme: the example edited to reach over a network, not a new local one."""
    if not (url := _URL_HOST_RE.search(code)) or url.group("host").lower() in _LOCAL_HOSTS or "." not in url.group("host"):
        return False
    scheme = url.group("scheme").lower()
    return any(scheme in line.lower() for line in removed)


def _family(key: str) -> str:
    key = key.lower().replace("_", "")
    if key in ("sslmode",):
        return "sslmode"
    if key in ("ssl", "usessl", "requiressl", "encrypt"):
        return "ssl"
    if key == "trustservercertificate":
        return "trust"
    return "tls"


def _modes(line: str) -> dict[str, str]:
    return {_family(m.group("key")): m.group("value").lower() for m in _TLS_MODE_RE.finditer(line)}


# A comparison that takes the same time whatever the inputs, in each ecosystem that has one.
_CONSTANT_TIME_RE = re.compile(r"\b(?:compare_digest|strings_equal|constant_time_compare|constant_time_eq|ConstantTimeCompare|ConstantTimeEq|"
                               r"timingSafeEqual|secure_compare|fixed_length_secure_compare|hash_equals|FixedTimeEquals|isEqual|hmac\.Equal|"
                               r"safe_str_cmp|slowEquals|SlowEquals|timing_safe_(?:equal|compare)|constantTimeEquals?|constantTimeAreEqual)\s*\(")
# What an edit compares with instead: ==, !=, a membership or substring test, a plain equals.
_PLAIN_COMPARE_RE = re.compile(r"[!=]==?|\bin\b|\.(?:includes|include\?|contains|Contains|startsWith|startswith|start_with\?|equals|Equals|indexOf)\s*\(|"
                               r"\bstrings\.(?:Contains|HasPrefix|EqualFold)\s*\(|\bstrcmp\s*\(|\bbytes\.Equal\s*\(")


# A call that escapes, quotes or encodes what it is given (or a formatter class building a header or URL), and text built
# by interpolation in its place (Ruby's #{}, JS's ${}, Python's f-strings, %s, string concatenation).
_ENCODER_RE = re.compile(r"(?P<call>[\w.:]*(?:[Ee]scape|[Qq]uote|[Ee]ncode|[Ss]anitiz|[Pp]urif|shellescape|Shellwords|shlex|strip_tags|"
                         r"ContentDisposition|FormatMediaType|[A-Z]\w*\.format)\w*)\s*\(")
# Every encoding call holds one of these words; the pattern's leading run of name characters is slow on a long line.
_ENCODER = Screen(("escape", "quote", "encode", "sanitiz", "purif", "shellwords", "shlex", "strip_tags", "contentdisposition",
                   "formatmediatype", ".format"), _ENCODER_RE)
_INTERPOLATION_RE = re.compile(r"#\{(?P<a>[^}]*)\}|\$\{(?P<b>[^}]*)\}|\bf['\"][^'\"]*\{(?P<c>[^}]*)\}|['\"]\s*\+\s*(?P<d>[A-Za-z_][\w.]*)|%s")


def _encoders(removed: Sequence[str], added: Sequence[str]) -> list[tuple[str, re.Match[str]]]:
    """The removed lines that call an encoder the added lines no longer call, with that call: ``turned_down`` asks once,
    not once an added line (a regenerated docs tree of 37,000 lines: 44,000 searches of long lines)."""
    out = []
    for line in removed:
        m = _ENCODER.search(line)
        if m is None or any(m.group("call") in other for other in added):
            continue
        out.append((line, m))
    return out


def _encoding_dropped(code: str, encoders: Callable[[], list[tuple[str, re.Match[str]]]]) -> str | None:
    """"builds by interpolation what X encoded" when a removed line encoded a name the added line now interpolates
    (``encoders``: the removed lines' encoding calls the added lines dropped, ``_encoders``)."""
    if _ENCODER.search(code) or not _INTERPOLATION_RE.search(code):
        return None
    # Each interpolated chain by its last name: `r.Host` shares its receiver `r` with `QueryEscape(r.URL.Query()…)`, not
    # its value (round 23: an escaped `next` dropped with its input read as the host interpolated unescaped).
    said = {chain.rsplit(".", 1)[-1] for m in _INTERPOLATION_RE.finditer(code)
            for chain in re.findall(r"[A-Za-z_][\w.]*", "".join(g or "" for g in m.groups()))}
    for line, m in encoders():
        given = set(re.findall(r"[A-Za-z_]\w*", line[m.end():]))
        if said & given:
            at = _INTERPOLATION_RE.search(code)
            assert at is not None
            return f"builds by interpolation what {m.group('call')}() encoded: {window(code, at.start(), at.end(), 60)}"
    return None


# A schema's refusal of a value, on a chained line of its own (Joi's .not('none'), .invalid(…), Yup's .notOneOf([…])).
_REFUSAL_LINE_RE = re.compile(r"^\s*\.(?:not|invalid|disallow|notOneOf|notIn|forbidden|exclude|deny)\s*\(.*\)\s*[,;]?\s*$")


# What a route or handler is guarded by, named: a middleware, a role, a permission, a login or auth check, CSRF.
_GUARD_WORDS_RE = re.compile(r"(?i)middleware|auth|role|permission|login|guard|\bcan:|csrf|protect|verified|signed|throttle|admin_only|requires?_")
_TOKENS_RE = re.compile(r"\w+|[^\w\s]")
# A line that declares a route or wraps a handler: Laravel's Route::, Express/Flask/Gin-style router calls, Django's path().
ROUTE_RE = re.compile(r"Route::|\b(?:app|router|route|routes|api|server|group|r|e|g)\.(?:get|post|put|patch|delete|all|any|use|route|"
                       r"match|handle|Handle|GET|POST|PUT|PATCH|DELETE|Any|Group|HandleFunc)\s*\(|\b(?:re_)?path\s*\(|\burl\s*\(\s*r?['\"]")


def _guard_dropped(code: str, removed: Sequence[str]) -> str | None:
    """"drops a route's guard: X" when a removed line is this added line with only a guard's words taken out of it
    (``Route::middleware('role:manager')->get(…)`` → ``Route::get(…)``, ``app.get('/a', requireAuth, h)`` → ``app.get('/a', h)``)."""
    new = _TOKENS_RE.findall(code)
    if len(new) < 4 or not ROUTE_RE.search(code):
        return None
    for line in removed:
        old = _TOKENS_RE.findall(line)
        if len(old) <= len(new) or not ROUTE_RE.search(line):
            continue
        ops = [op for op in SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
        if ops and all(op[0] == "delete" for op in ops):
            gone = " ".join("".join(old[i1:i2]) for _, i1, i2, _, _ in ops)
            if _GUARD_WORDS_RE.search(gone) and len(gone) <= 80:
                return f"drops a route's guard ({gone.strip(' ,->.')}): {' '.join(code.split())[:_SHOWN]}"
    return None


def turned_down(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A connection's TLS mode turned down, a secret read from the environment made a literal, or a constant-time compare
    replaced by a plain one, in an edited pair."""
    again = {"".join(line.split()) for line in added}
    for line in removed:
        if _REFUSAL_LINE_RE.match(line) and "".join(line.split()) not in again:
            return f"drops a value the schema refused: {' '.join(line.split())[:_SHOWN]}"
    # A constant-time compare gone: one the added lines do not make again with the same arguments (moved, re-wrapped).
    kept = "".join("".join(added).split())
    compared = any((m := _CONSTANT_TIME_RE.search(line)) and "".join(line[m.start():].split()).rstrip(":;{") not in kept
                   for line in removed)
    old_modes: dict[str, str] = {}
    env_names: set[str] = set()
    for line in removed:
        old_modes.update(_modes(line))
        # A mode the caller chose (``sslmode=args.ssl_mode``, ``ssl: ${DB_SSL}``) pinned to a weak literal turns TLS off
        # for every caller (round 71, blind 99's acra example: ``sslmode=args.ssl_mode`` → ``sslmode='disable'``).
        old_modes.update({_family(m.group("key")): "the caller's choice" for m in _TLS_MODE_RE.finditer(line)
                          if line[m.end():m.end() + 1] in (".", "(", "[") or line[m.start("value") - 1:m.start("value")] in ("$", "{")})
        env_names.update(m.group("name") for m in _ENV_READ_RE.finditer(line))
    before = {squeezed(line.strip()) for line in removed}
    joined = _joined_names(removed)
    encoders = functools.cache(lambda: _encoders(removed, added))
    for line in added:
        code = line.strip()
        if not code or squeezed(code) in before:
            continue
        for m in _TLS_MODE_RE.finditer(code):
            family, value = _family(m.group("key")), m.group("value").lower()
            old = old_modes.get(family)
            weak = value in ("true", "yes", "1") if family == "trust" else value in _WEAK.get(family, ())
            strong = (old in ("false", "no", "0")) if family == "trust" else old in _STRONG.get(family, ()) or old == "the caller's choice"
            if weak and strong:
                return f"turns a connection's TLS off ({old} → {value}): {window(code, m.start(), m.end(), 60)}"
            # Set where the line named no mode (the driver's default: libpq's sslmode is "prefer", encrypted when the
            # server offers it): the same line, the mode put in (blind 137's pghero guide: `…/dbname?sslmode=disable`).
            if old is None and value in _PUT_IN_WEAK.get(family, ()) and (_without(code, m) in before or _moved_off_local(code, removed)):
                return f"turns a connection's TLS off (the default → {value}): {window(code, m.start(), m.end(), 60)}"
        if (guard := _guard_dropped(code, removed)) is not None:
            return guard
        if (relative := _base_dropped(code, joined)) is not None:
            return relative
        if (dropped := _encoding_dropped(code, encoders)) is not None:
            return dropped
        if compared and not _CONSTANT_TIME_RE.search(code) and (m := _PLAIN_COMPARE_RE.search(code)) and _compares_again(code, removed):
            return f"replaces a constant-time compare with a plain one: {window(code, m.start(), m.end(), 60)}"
        if env_names and not _ENV_READ_RE.search(code):
            lit = _LITERAL_RE.search(code)
            if lit and not _PLACEHOLDER_RE.search(lit.group("value")) and _shares_call(code, removed):
                name = sorted(env_names)[0]
                return f"hard-codes a secret read from the environment ({name} → a literal): {window(code, lit.start(), lit.end(), 56)}"
    return None


# A file name joined to a folder (home, config or base dir): "base.join(".tool.toml")", "Path.Combine(home, "x.json")",
# "os.path.join(cfg_dir, 'x.ini')", "home / '.x'", "File(dir, \"x\")", "expanduser('~/.x')" (round 16).
_JOINED_RE = re.compile(r"(?i)(?:(?:\bjoin|combine|resolve)\s*\([^'\"]*|(?:File|\bPath)\s*\([^'\"]*,\s*)['\"](?P<name>[^'\"/~][^'\"]*)['\"]|"
                        r"[\w)]\s*/\s*['\"](?P<name2>[^'\"/~][^'\"]*)['\"]|expanduser\s*\(\s*['\"]~/(?P<name3>[^'\"]+)['\"]")
_FILE_NAME_RE = re.compile(r"^\.?[\w-]+(?:\.[\w-]+)+$|^\.[\w-]+$")


def _joined_names(removed: Sequence[str]) -> list[str]:
    """The file names the removed lines joined to a folder: read once a file, not once for every added line (the worker
    writes both sides: 200 lines of each cost 40,000 searches, 8 s of CPU on lines of spaces)."""
    names = []
    for line in removed:
        m = _JOINED_RE.search(line)
        name = m and (m.group("name") or m.group("name2") or m.group("name3"))
        if name and _FILE_NAME_RE.match(name):
            names.append(name)
    return names


def _base_dropped(code: str, joined: Sequence[str]) -> str | None:
    """"reads <name> from the current directory (was joined to a folder): …" when a file name a removed line joined to
    a folder (home, config, base) is written bare: the file is now read from wherever the program runs."""
    for name in joined:
        if f'"{name}"' not in code and f"'{name}'" not in code:
            continue
        if _JOINED_RE.search(code) or re.search(r"(?i)home|config_?dir|base|root|dirs?\b|env", code.replace(name, "")):
            continue
        at = code.find(name)
        return f"reads {name[:30]} from the current directory (was joined to a folder): {window(code, at, at + len(name), 56)}"
    return None


def _compares_again(code: str, removed: Sequence[str]) -> bool:
    """The added line compares what a removed constant-time compare compared (two names of its arguments at least)."""
    names = set(re.findall(r"[A-Za-z_]\w*", code))
    for line in removed:
        if (m := _CONSTANT_TIME_RE.search(line)) is not None:
            args = set(re.findall(r"[A-Za-z_]\w*", line[m.end():])) - {"str", "bytes", "encode", "self", "this", "byte", "getBytes", "Buffer", "from"}
            if len(args & names) >= 2 or (args and args <= names):
                return True
    return False


def _shares_call(code: str, removed: Sequence[str]) -> bool:
    """The added line is the removed one's pair: it opens with the same words up to the literal (the same call, the same name)."""
    head = squeezed(code[:code.find("'") if "'" in code else code.find('"')])[:24]
    return len(head) >= 6 and any(squeezed(line.strip()).startswith(head) for line in removed if _ENV_READ_RE.search(line))


# A script's failure exit on a line of its own, by language: a shell function's ``return 1`` is its failure, a Python
# or Ruby function's ``return 1`` a value. Not a throw or raise: code's refusals are read with their conditions
# (relay.review.guard_reading).
_SHELL_EXIT = r"(?:return|exit)\s+(?:[1-9]\d*|\$\?)"
_FAILURE_EXITS = {
    "sh": _SHELL_EXIT, "bash": _SHELL_EXIT, "zsh": _SHELL_EXIT, "ksh": _SHELL_EXIT,
    "pl": r"die\b.*|exit\s*\(?\s*[1-9]\d*\s*\)?", "pm": r"die\b.*|exit\s*\(?\s*[1-9]\d*\s*\)?",
    "rb": r"exit\s*\(?\s*(?:[1-9]\d*|false)\s*\)?|exit!|abort\b.*", "py": r"(?:sys\.)?exit\s*\(\s*[1-9]\d*\s*\)",
    "ps1": r"exit\s+[1-9]\d*",
}
_FAILURE_EXIT_RES = {ext: re.compile(r"^\s*(?:" + exit_ + r")\s*;?\s*(?:#.*)?$") for ext, exit_ in _FAILURE_EXITS.items()}


def failure_exit_deleted(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"deletes a failure exit: the line" for a script's removed ``return 1``/``exit 1``/``die``/``throw`` that no added
    line of the file writes again (moved or reworded exits stay quiet): a failed check now falls through."""
    ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    exit_re = _FAILURE_EXIT_RES.get(ext)
    if exit_re is None or any(exit_re.match(line) for line in added):
        return None
    kept = " ".join(" ".join(line.split()) for line in added)
    for line in removed:
        # An exit written again inside another line ("bad && return 1", "|| die 'x'") was moved, not deleted.
        if exit_re.match(line) and " ".join(line.split()).rstrip(";") not in kept:
            return f"deletes a failure exit: {' '.join(line.split())[:_SHOWN]} (the failed check now falls through)"
    return None


SCREENS = {"slipped_lines.encoder": _ENCODER}  # proved by tests/test_screens.py
