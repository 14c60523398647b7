"""A guard the change deletes or inverts: the check in front of auth, permission, path or input handling.

Read from a file's changed lines alone (whole hunks, in order), for ``relay.review.rules``'s
``removes_guard``:

- a refusal deleted with the condition that guards it (``if not user.is_admin:`` / ``abort(403)``, ``if
  '..' in path: raise``), when the change writes no refusal of its own in its place;
- a call to a check deleted and called nowhere in what the change writes (``@login_required``,
  ``validate_path(p)``, ``hmac.compare_digest`` replaced by ``==``, ``bleach.clean``, ``is_safe_url``);
- a check inverted (``if not ok`` → ``if ok``, ``!=`` → ``==``), made to pass always (``if True or …``,
  ``return True`` where a check's answer was returned).

A line that stands again, squeezed, on the other side was only moved: it is no deletion; a clause that stands again in
another condition the change writes was split into a branch of its own (round 25 part C): it is no clause dropped.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from collections.abc import Sequence

from relay.review.line_shapes import IMPORT_RE, Screen, clipped, squeezed
from relay.review.answer_slips import made_true

__all__ = ["SCREENS", "refuses", "removed_guard"]

_SHOWN = 72

# What a guard is about, in the names and words of its lines: access and the checks that keep input in bounds
# (a guard, wherever it stands), then the words of ordinary input checks (a guard only where it refuses loudly).
_GUARD_WORDS = (
    "auth", "login", "logged", "perm", "admin", "staff", "superuser", "owner", "role", "access", "csrf", "xsrf", "token",
    "signature", "verif", "valid", "safe", "allow", "forbid", "deny", "denied", "trusted", "secure", "host", "origin",
    "..", "travers", "symlink", "realpath", "abspath", "normpath", "commonpath", "is_relative_to", "startswith", "sanitiz",
    "escape", "scope", "privileg", "unauthori", "401", "403", "session", "password", "hmac", "digest", "whitelist", "blacklist",
    "allowlist", "denylist", "redirect", "https", "scheme", "tls", "ssl",
)
_INPUT_WORDS = ("path", "user", "isinstance", "typeof", "len(", "length", "size", "max", "limit", "match", "re.", "regex", "filename")
_GUARD = Screen(_GUARD_WORDS)
# What a clause of a check asks that, dropped, lets more through: access, a secret, a path kept inside.
_ACCESS = Screen(("auth", "admin", "perm", "role", "owner", "csrf", "xsrf", "signature", "login", "privileg", "scope", "verif",
                  "valid", "trusted", "allow", "secure", "..", "travers", "sanitiz", "escape", "staff", "superuser", "password"))
_INPUT = Screen(_INPUT_WORDS)
# A loud refusal (an error raised, a status refused) guards whatever it checks; a quiet one (return False, None,
# continue) only a check of access or bounds.
_QUIET_RE = re.compile(r"^\s*(?:return\s+(?:False|false|None|nil|null|undefined|-1|0)?\s*;?|continue\s*;?|next\s*;?)\s*$")

# A refusal: raise, throw, abort, an error status or value returned.
_REFUSAL_RE = re.compile(
    r"^\s*(?:raise|throw)\b|\babort\s*\(|\bpanic!?\s*\(|\bbail!?\s*\(|\breturn\s+Err\s*\(|"
    r"\breturn\b.*\b(?:40[0-9]|Forbidden|Unauthorized|BadRequest|HttpResponseForbidden|HttpResponseBadRequest|PermissionDenied|"
    r"AccessDenied|http\.Status(?:Forbidden|Unauthorized|BadRequest|NotFound)|errors?\.New|fmt\.Errorf|Error\s*\()|"
    r"\b(?:res|response|ctx|c|w)\.(?:status|sendStatus|AbortWithStatus\w*|JSON)\s*\(\s*(?:40[0-9]|http\.Status(?:Forbidden|Unauthorized|BadRequest))|"
    r"\bhttp\.Error\s*\(|^\s*return\s+(?:False|false|None|nil|null|undefined|-1|0)?\s*;?\s*$|^\s*(?:deny|reject|fail)\w*\s*\(|"
    # Go's named errors (return nil, ErrInvalidPath), Rust's ensure!, Rails' head :forbidden.
    r"\breturn\b.*\bErr[A-Z]\w*|^\s*ensure!\s*\(|^\s*head\s+:(?:forbidden|unauthorized)\b|"
    # A loop that skips what fails the check.
    r"^\s*(?:continue|next)\s*;?\s*$"
)
_CONDITION_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s*)?(?:if|elif|elsif|unless|guard)\b")
# A refusal that carries its own condition: Ruby's "raise X unless ok?", Rust's ensure!(ok, Err).
_SELF_CONDITIONED_RE = re.compile(r"^\s*(?:raise|fail|throw|return|head|render|redirect_to|abort)\b.*\s(?:if|unless)\s+\S|^\s*ensure!\s*\(")

# A check called by name: a decorator, a call, a middleware in a route's list.
_NOUNS = (r"(?i:perm|auth|access|csrf|xsrf|token|sig|path|origin|host|owner|role|scope|admin|login|password|passwd|hmac|cert|tls|ssl|"
          r"user|session|request|url|redirect|input|name|upload|file|safe|secure|header|content|body|length|size|type|format|"
          r"referer|referrer|nonce|key|credential|account|identity)")
_CHECK_NAME_RE = re.compile(
    r"(?:@|\b)((?:[A-Za-z_]\w*\.)?(?i:login_required|permission_required|\w*requires?_?(?:auth|login|admin|role|perm|user|scope)\w*|"
    r"\w*authenticat\w*|\w*authoriz\w*|is_?(?:admin|authenticated|staff|superuser|owner|allowed|safe\w*|trusted)\w*|"
    r"has_?(?:perm\w*|role\w*|access\w*|scope\w*)|can_?(?:access|edit|view|delete|manage)\w*|"
    # A check named for what it checks: access, a secret, a path or input that comes from outside.
    r"_{0,2}(?:check|verify|validate|is_?valid|ensure)_?(?:" + _NOUNS + r")?\w*(?<![Uu]pdate)(?<![Vv]ersion)(?<![Dd]ate)|"
    r"(?!un)\w*sanitiz\w*|(?!un)(?<!re\.)\w*escape(?!_?reg)\w*|(?<!un)(?:url_?)?quote(?:_plus)?|encodeURI(?:Component)?|htmlspecialchars|htmlentities|strip_tags|secure_filename|url_has_allowed_host_and_scheme|compare_digest|constant_time\w*|safe_?join\w*|SecureJoin\w*|secure_?join\w*|enforce_?(?:csrf|auth|https|ssl|perm|policy|limit|scope|login|token)\w*|"
    r"timingSafeEqual|ConstantTimeCompare|secure_compare|safe_str_cmp|hash_equals|ct_eq|hmac\.Equal|MessageDigest\.isEqual|"
    r"bleach\.clean|clean_html|\w*[Pp]urify\w*|remove_sensitive\w*|strip_?(?:auth|credential|sensitive|cookie)\w*|redact\w*|mask_?(?:secret|token|password|auth|header)\w*|ensure\w*(?:auth|login|logged|admin|perm)\w*|"
    # A check named for what it does on failure (round 102: pydash's ``_raise_if_restricted_key``, i18n's ``enforce_…!``).
    r"_?(?:raise|throw|fail|abort)_?if_?\w+|(?:raise|throw|fail|abort)If[A-Z]\w*|enforce_\w+|"
    # The roles or permissions a route or user is granted, gathered by a call: dropped, the grant is narrowed or lost.
    r"csrf_?protect\w*|\w*(?:Guard|guard)|(?![Gg]et)\w*(?:[Rr]oles|[Pp]ermissions|[Aa]uthorities)))\b"
)
_CHECK = Screen(("login_required", "permission_required", "requir", "auth", "is", "has", "can", "check", "verif", "valid", "saniti",
                 "escape", "quote", "encodeuri", "htmlspecialchars", "htmlentities", "strip_tags", "secure_filename", "url_has_allowed", "compare_digest", "constant_time", "timingsafeequal",
                 "constanttimecompare", "secure_compare", "safe_str_cmp", "hash_equals", "ct_eq", "hmac.equal", "isequal", "bleach", "clean_html",
                 "purif", "sensitive", "strip", "redact", "mask", "ensure", "csrf", "guard", "roles", "permissions", "authorities", "safe_join", "safejoin", "securejoin", "enforce",
                 "secure_join", "raise", "throw", "fail", "abort"), _CHECK_NAME_RE)
_CONSTANT_TIME_RE = re.compile(r"(?i)compare_digest|constant_?time|timingsafeequal|secure_compare|safe_str_cmp|hash_equals|ct_eq|ct_ne|ctequal|fixedtimeequals|fixed_time_eq|verify_slices_are_equal|hmac\.equal|isequal")
_CALL2_RE = re.compile(r"\b(\w+)\s*\(\s*([^,()]+(?:\([^()]*\))?[^,()]*?)\s*,\s*([^,()]+(?:\([^()]*\))?[^,()]*?)\s*\)")
_SECRETISH_RE = re.compile(r"(?i)sig|hash|hmac|digest|token|mac\b|password|passwd|secret|key|nonce|csrf")


def _bare(text: str) -> str:
    """Bytes as a comparison names them, whatever the view taken of them (Rust's ``&expected`` and ``expected.as_slice()``)."""
    return re.sub(r"(?:^|(?<=[=!(]))[&*]+|\.(?:as_slice|as_bytes|as_ref|to_vec)\(\)", "", text)


def _compare_replaced(gone: list[tuple[int, str]], written: list[tuple[int, str]]) -> str | None:
    """A two-argument comparison call of secrets (``_lscmp(sig, expected)``, ``compare_digest(a, b)``) whose
    arguments the change now compares with ``==``: a constant-time comparison replaced by one that leaks timing."""
    # Only a written line that compares can be the replacement: most changes write none, and nothing more is read.
    flats = [_bare(squeezed(new)) for _, new in written if "==" in new or "!=" in new]
    if not flats:
        return None
    for _, line in gone:
        for m in _CALL2_RE.finditer(line):
            if not (_SECRETISH_RE.search(m.group(0)) or _CONSTANT_TIME_RE.search(m.group(1))):
                continue
            a, b = _bare(squeezed(m.group(2))), _bare(squeezed(m.group(3)))
            if any(f"{x}{op}{y}" in flat for flat in flats for x, y in ((a, b), (b, a)) for op in ("==", "!=", "===", "!==")):
                return line
    return None


_ESCAPING_RE = re.compile(r"(?i)escape|quote|encodeuri|htmlspecialchars|htmlentities|strip_tags|sanitiz|bleach|clean_html|purif")
_DECLARATION_RE = re.compile(r"^\s*(?:export\s+|pub\s+|async\s+|public\s+|private\s+|protected\s+|static\s+)*(?:def|function|fn|func|class|sub)\b|"
                             # A method's signature in a declaration (TypeScript's .d.ts, an interface): no call.
                             r"^\s*(?:readonly\s+)?\w+\??\s*(?:<[^>]*>)?\([^()]*\)\s*:\s*[\w<>\[\]|., ]+;?\s*$")

# A condition made to pass always, or a check's answer replaced by "yes".
_ALWAYS_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s*)?(?:if|elif)\s*\(?\s*(?:(?:True|true|1)\s*(?:or\b|\|\|)|(?:False|false|0)\s*(?:and\b|&&)|(?:True|true)\s*\)?\s*[:{]?\s*$)")
_RETURN_YES_RE = re.compile(r"^\s*return\s+(?:True|true)\s*;?\s*$")
_RETURN_NIL_RE = re.compile(r"^\s*return\s+(?:nil|null|None)\s*;?\s*$")
# A check's answer returned: a comparison, a negation, a boolean join, or a check called by name.
_ANSWER_RE = re.compile(r"==|!=|[<>]|\bnot\b|!\w|&&|\|\||\band\b|\bor\b|(?i:\b(?:is|has|can)_?[A-Za-z]|check|verif|valid|compare|match|equal|allow|auth|perm)")
_RETURN_EXPR_RE = re.compile(r"^\s*return\s+\S")

_TOKEN_RE = re.compile(r"[A-Za-z_]\w*|\d+|!==|===|!=|==|<=|>=|&&|\|\||\S")
_WORD_RE = re.compile(r"\w+")
_FLIP = {"not": "", "!": "", "!==": "==", "===": "==", "!=": "==", "<": "<>", ">=": "<>", ">": "><", "<=": "><",
         "True": "B", "False": "B", "true": "B", "false": "B", "unless": "if", "is": "", "isnt": ""}


# A `!` or `!!` after a name or a bracket asserts a value is present (C#'s `x!`, TypeScript's, Kotlin's `x!!`, Swift's
# force unwrap), a Rust macro's `!` calls it: neither says "not" (round 23: `= originalCulture!;` read as inverted).
_POSTFIX_BANG_RE = re.compile(r"(?<=[\w)\]])!+(?!=)")


def _unbanged(line: str) -> str:
    return _POSTFIX_BANG_RE.sub("", line) if "!" in line else line


def _shown(line: str, limit: int = _SHOWN) -> str:
    return clipped(line, limit)


def _canonical(line: str) -> str:
    """A line with every way of saying "not" taken out: an inverted condition reads the same."""
    return " ".join(_FLIP.get(t, t) for t in _TOKEN_RE.findall(line) if _FLIP.get(t, t))


def _new(lines: Sequence[str], other: Sequence[str]) -> list[tuple[int, str]]:
    before = {squeezed(line.strip()) for line in other}
    return [(i, line.strip()) for i, line in enumerate(lines) if line.strip() and squeezed(line.strip()) not in before]


def refuses(line: str) -> bool:
    """A refusal: raise, throw, abort, an error status or value returned (what a guard does when its check fails)."""
    return _REFUSAL_RE.search(line) is not None or _SELF_CONDITIONED_RE.match(line) is not None


def _guarded(text: str) -> bool:
    return _GUARD.passes(text)


def _deleted_refusal(removed: Sequence[str], gone: list[tuple[int, str]], written: list[tuple[int, str]]) -> str | None:
    """A refusal deleted with its condition, more of them than the change writes anew."""
    refusals_written = sum(1 for _, line in written if _REFUSAL_RE.search(line))
    found: list[str] = []
    gone_at = dict(gone)
    for i, line in gone:
        if not _REFUSAL_RE.search(line):
            continue
        self_conditioned = _CONDITION_RE.match(line) is None and _SELF_CONDITIONED_RE.match(line) is not None
        if self_conditioned and not _ACCESS.passes(line):
            continue  # "raise ArgumentError unless size.positive?": an input check in passing, read only when it guards access
        inline = _CONDITION_RE.match(line) is not None or self_conditioned
        if inline:
            cond: str | None = line
        else:
            # The condition just above it (a line between: a log call, a message built).
            cond = next((c for c in (gone_at.get(i - 1), gone_at.get(i - 2)) if c and _CONDITION_RE.match(c)), None)
        if cond is None:
            continue
        quiet = _QUIET_RE.match(line) is not None or (inline and _QUIET_RE.match(line.split(":", 1)[-1]) is not None)
        if _guarded(cond) or _guarded(line) or (not quiet and (_INPUT.passes(cond) or _INPUT.passes(line))):
            found.append(cond if inline else f"{cond} {line}")
    if len(found) > refusals_written:
        return found[0]
    return None


# A method declared in Java's, Kotlin's or C#'s way ("private static RouteRole[] scopedRouteRoles() {"): names it, calls nothing.
_METHOD_HEAD_RE = re.compile(r"^\s*(?:(?:public|private|protected|internal|static|final|abstract|override|open|suspend|synchronized)\s+)+"
                             r"(?:fun\s+)?[\w<>\[\],.? ]*?\b\w+\s*\([^()]*\)\s*(?::\s*[\w<>\[\]?., ]+)?(?:throws\s+[\w., ]+)?\s*\{?\s*$")


# A check kept as a value and invoked (a hook, a phase, a callback): "config.request_validation_phase.call(env) if …".
# A constructor or method declared with its access ("public PushedAuthorizationRequest(string clientId)"): it names, calls nothing.
_CTOR_HEAD_RE = re.compile(r"^\s*(?:(?:public|private|protected|internal)\s+)+(?:static\s+|async\s+|override\s+|virtual\s+)*"
                           r"(?:[\w<>\[\],.?]+\s+)?[A-Z]\w*\s*\([^()]*\)?\s*[{;]?\s*$")
_HOOK_CALL_RE = re.compile(r"\b(?P<name>\w*(?i:valid|verif|authori|authenti|csrf|xsrf|forgery|protect|saniti|guard)\w*)\s*\.\s*(?:call|invoke|run|apply)\s*\(")


def _deleted_check(gone: list[tuple[int, str]], written_text: str) -> str | None:
    # A check's name still written, but only where it is declared, is no longer called: its call is what was deleted.
    written_names = set(_WORD_RE.findall("\n".join(line for line in written_text.splitlines()
                                                    if not (_DECLARATION_RE.match(line) or _METHOD_HEAD_RE.match(line)))))
    for _, line in gone:
        hook = _HOOK_CALL_RE.search(line)
        if hook and len(hook.group("name")) >= 5 and hook.group("name") not in written_names and not IMPORT_RE.match(line):
            return line
        if _DECLARATION_RE.match(line) or _CTOR_HEAD_RE.match(line) or IMPORT_RE.match(line) or not _CHECK.passes(line):
            continue
        for match in _CHECK_NAME_RE.finditer(line):
            name = match.group(1)
            if line[:match.start()].rstrip().endswith("new"):
                continue  # an object built (new AuthorizeRedirectParameters(…)): a constructor, no check
            short = name.rsplit(".", 1)[-1]
            # A call, a decorator or a middleware named in a list: not a word inside a string.
            after = "(" if line[match.end():match.end() + 2] in ("!(", "! ", "!") else line[match.end():match.end() + 1]  # Ruby's ``check!(x)``
            before = line[match.start() - 1:match.start()] if match.start() else ""
            if not (after == "(" or line[match.start():match.start() + 1] == "@" or before in (",", "(", "[", " ") and after in (",", ")", "]")):
                continue
            if len(short) < 5 or (short in written_names if "." not in name or short.lower() not in {"equal", "isequal", "clean"} else name in written_text):
                continue
            if _ESCAPING_RE.search(short) and after == "(" and _value_gone(line, match.end(), written_text):
                continue  # the value escaped is gone with its call (a redirect's `next` no longer read): nothing left unescaped
            if after != "(" and _renamed(line, match.start(), match.end(), written_text):
                continue  # the same line written with the name renamed (`doubleEscape` → `isDoubleEscape`): nothing deleted
            return line
    return None


def _renamed(line: str, start: int, end: int, written_text: str) -> bool:
    """Whether the change writes ``line`` again with the name at ``start:end`` renamed (round 24: execa's
    `escapeArgument(argument, doubleEscape)` → `…, isDoubleEscape)` read as escaping removed)."""
    text = line.strip()
    at = line.index(text) if text else 0
    if not text or len(text) > 300:
        return False
    shape = re.escape(text[:start - at]) + r"(?P<n>[A-Za-z_$][\w$.]*)" + re.escape(text[end - at:])
    found = re.search(rf"(?m)^\s*{shape}\s*$", written_text)
    name, new = line[start:end].lower(), found.group("n").lower() if found else ""
    return bool(new) and (name in new or new in name)  # `doubleEscape` → `isDoubleEscape`, not another value in its place


def _value_gone(line: str, opened: int, written_text: str) -> bool:
    """Whether the value a call on ``line`` is given (its bracket opened at ``opened``) is read there, by a call of its
    own (``escape(self.get_argument("next"))``), and nothing the change writes reads it again: a variable (``escape(url)``)
    may still be used by the lines the change keeps, an input read inline is gone with its line."""
    closed = _closing(line, opened)
    value = re.sub(r"\"[^\"]*\"|'[^']*'", "", line[opened + 1:closed]) if closed > opened + 1 else ""
    names = _CHAIN_RE.findall(value)[:8]
    return "(" in value and bool(names) and not any(re.search(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", written_text) for name in names)


_CHAIN_RE = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|->|::)[A-Za-z_$][\w$]*)*")


def _answers_input(line: str) -> bool:
    """A returned answer about input (``return not isinstance(peer, tuple) or …``): a "not" dropped or added inverts it."""
    return _RETURN_EXPR_RE.match(line) is not None and _INPUT.passes(line) and _ANSWER_RE.search(line.split("return", 1)[1]) is not None


def _inverted(gone: list[tuple[int, str]], written: list[tuple[int, str]]) -> str | None:
    olds = {}
    for _, line in gone:
        if _guarded(line) or _answers_input(line):
            olds.setdefault(_canonical(line), line)
    answers = [line for _, line in gone if _RETURN_EXPR_RE.match(line) and not _RETURN_YES_RE.match(line) and _ACCESS.passes(line)
               and _ANSWER_RE.search(line.split("return", 1)[1])]
    refused = [line for _, line in gone if _RETURN_EXPR_RE.match(line) and _REFUSAL_RE.search(line) and not _QUIET_RE.match(line) and _guarded(line)]
    for _, line in written:
        if _ALWAYS_RE.match(line):
            return line
        if _RETURN_YES_RE.match(line) and answers:
            return f"{line} (was {answers[0]})"
        if _RETURN_NIL_RE.match(line) and refused:
            return f"{line} (was {refused[0]})"
        if not (_guarded(line) or _answers_input(line)):
            continue
        old = olds.get(_canonical(line))
        if old is not None and squeezed(_unbanged(old)) != squeezed(_unbanged(line)) and _unsafe_way(_unbanged(old), _unbanged(line)):
            return line
    return None


# A value put through escaping or a bound parameter: "escape(x)", "shellescape.Quote(string(buf))", "client.parameter(path, …)",
# "name.replace(/"/g, '""')" (a quote doubled). Not "bind(this)" (a function's receiver) nor "getParameter(x)" (a read).
_WRAPPED_RE = re.compile(
    r"(?<![\w$.])((?:[A-Za-z_$][\w$]*\.)*(?!get)(?i:\w*(?:escape|quote|saniti[sz]e|purif|parameter|bind_?param)\w*|htmlspecialchars|htmlentities|"
    r"encodeURI(?:Component)?|strip_tags|realpath|abspath|normpath|canonicali[sz]e\w*|secure_filename|basename))\s*\(\s*(?P<arg>[A-Za-z_$][\w$.]*(?:\([\w$.]*\))?)|"
    r"(?P<replaced>[A-Za-z_$][\w$.]*)\.(?P<how>replace(?:All)?)\s*\(\s*(?:/\\?[\"'`\\]|['\"]\\?[\"'`\\])")
_WRAPPED = Screen(("escape", "quote", "saniti", "purif", "parameter", "bind", "htmlspecialchars", "htmlentities", "encodeuri",
                   "strip_tags", "replace", "realpath", "abspath", "normpath", "canonicali", "secure_filename", "basename"))


def _unwrapped(gone: list[tuple[int, str]], written: list[tuple[int, str]]) -> str | None:
    """The value a removed line put through escaping or a bound parameter, put in as it is by the line written in its
    place: every name of the new line stood in the old one, the value among them, the escaping call gone."""
    for _, old in gone:
        if not _WRAPPED.passes(old):
            continue
        names_before = set(_WORD_RE.findall(old))
        for m in _WRAPPED_RE.finditer(old):
            call = m.group(1) or f"{m.group('replaced')}.{m.group('how')}"
            value = m.group("arg") or m.group("replaced")
            short = call.rsplit(".", 1)[-1]
            closed = _closing(old, old.index("(", m.end(1) if m.group(1) else m.end("how")))
            if closed < 0:
                continue  # the call goes on past the line: what stood around the value cannot be read
            unwrapped = squeezed(old[:m.start()] + value + old[closed + 1:])
            for _, new in written:
                names = set(_WORD_RE.findall(new))
                # The line written in its place: the old one with the call taken off, near enough (quotes put around it).
                if (value in new and short not in new and names and names <= names_before
                        and SequenceMatcher(None, unwrapped, squeezed(new)).ratio() >= 0.8):
                    return f"({call}): {new}"
    return None


def _closing(line: str, opened: int) -> int:
    """Where the bracket opened at ``opened`` closes; -1 when it does not close on the line."""
    depth = 1
    for i in range(opened + 1, len(line)):
        depth += {"(": 1, ")": -1}.get(line[i], 0)
        if depth == 0:
            return i
    return -1


_FLAG_RE = re.compile(r"(\w+)['\"]?\s*(?:[=:]|==|!=)\s*(True|true|False|false)\b")
# A name that says "let it through" when true (is_valid_host, allowed) and one that says "check" (verify, strict).
_PASS_NAME_RE = re.compile(r"(?i)valid|allow|ok$|^ok|authori[sz]ed|authenticated|trusted|safe|admin|permit|grant|skip|bypass|insecure|disable|ignore")
_CHECK_FLAG_RE = re.compile(r"(?i)verif|check|validat|secure|requir|enforce|strict|escape|saniti|csrf|auth|protect|restrict")


def _unsafe_way(old: str, new: str) -> bool:
    """A flip of a true/false literal counts only when it turns the unsafe way: a "let it through" name set to
    true, a "check" name set to false (``verify=False`` → ``verify=True`` is a fix, not a guard removed)."""
    flips = [(a, b) for a, b in zip(_FLAG_RE.findall(old), _FLAG_RE.findall(new)) if a[0] == b[0] and a[1].lower() != b[1].lower()]
    if not flips or _canonical(re.sub(r"\b(?:True|true|False|false)\b", "B", old).replace("!", "")) != _canonical(
            re.sub(r"\b(?:True|true|False|false)\b", "B", new).replace("!", "")) or re.search(r"\bnot\b|!(?!=)", old + new):
        return True  # not a literal flip alone: a condition inverted
    for (name, _), (_, value) in flips:
        if value.lower() == "true" and _PASS_NAME_RE.search(name):
            return True
        if value.lower() == "false" and _CHECK_FLAG_RE.search(name) and not _PASS_NAME_RE.search(name):
            return True
    return False


# A condition that is one "it passed" name alone (allowed, is_valid, authorized, isTrusted()): refusing when it holds
# refuses what passed, and lets through what failed.
_PASSED_RE = re.compile(
    r"^\s*(?:\}\s*)?(?:else\s*)?(?:if|elif|elsif)\s*\(?\s*(?:[\w$]+\.)*(?:is_?|has_?)?(?i:allowed|valid|verified|authori[sz]ed|authenticated|"
    r"trusted|permitted|granted|safe)(?:\(\s*\))?\s*\)?\s*(?::|\{|\bthen\b)?\s*(?P<rest>.*)$")


def _refuses_passed(added: Sequence[str], written: list[tuple[int, str]]) -> str | None:
    """A written condition that refuses exactly when its check passed ("if allowed: reject()"): inverted. The
    refusal under it may be an unchanged line the change kept."""
    for i, line in written:
        m = _PASSED_RE.match(line)
        if m is None:
            continue
        body = m.group("rest").strip() or (added[i + 1].strip() if i + 1 < len(added) else "")
        if body and _REFUSAL_RE.search(body) and not _QUIET_RE.match(body):
            return line if m.group("rest").strip() else f"{line} {body}"
    return None


# A protection installed for every request: a middleware, a layer, a filter (app.use(csrf()), .layer(CorsLayer…),
# Django's MIDDLEWARE entries), named for what it protects.
_MIDDLEWARE_RE = re.compile(
    r"(?:\.(?:use|layer|wrap|add_middleware|addFilter\w*|before|middleware)\s*\(\s*(?:new\s+)?|^['\"][\w.]*\.(?=\w*Middleware))"
    r"(?P<name>[\w.:]*(?i:csrf|xsrf|helmet|secure_?headers|security|auth\w*|jwt|rate_?limit|limiter|throttl|sanitiz|xss|"
    r"clickjack|xframe|hsts|body_?limit|request_?body_?limit|content_?security)[\w.:]*)")
_MIDDLEWARE = Screen(("use", "layer", "wrap", "middleware", "filter", "before"), _MIDDLEWARE_RE)


def _deleted_middleware(gone: list[tuple[int, str]], written_text: str) -> str | None:
    """A protection middleware the change takes out and installs nowhere in what it writes."""
    for _, line in gone:
        m = _MIDDLEWARE.search(line)
        if m and m.group("name").rsplit(".", 1)[-1].split("::")[0] not in written_text:
            return line
    return None


_RETURN_NO_RE = re.compile(r"^\s*return\s+(?:False|false)\s*;?\s*$")


def _default_flipped(gone: list[tuple[int, str]], written: list[tuple[int, str]]) -> str | None:
    """A small edit that turns a ``return false`` into ``return true`` (a check's answer when nothing matched:
    deny by default becomes allow by default); a rewrite that deletes more is read by the other readers."""
    if len(gone) > 3:
        return None
    no = next((line for _, line in gone if _RETURN_NO_RE.match(line)), None)
    yes = next((line for _, line in written if _RETURN_YES_RE.match(line)), None)
    if no and yes and not any(_RETURN_NO_RE.match(line) for _, line in written):
        return f"{yes} (was {no})"
    return None


_JOINS = ("or", "and", "&&", "||")


def _dropped_clause(gone: list[tuple[int, str]], written: list[tuple[int, str]]) -> str | None:
    """A guarded condition that lost a clause ("if not user.is_authenticated or not user.is_admin:" became
    "if not user.is_authenticated:"): the check asks less than it did."""
    conditions = [line for _, line in gone if _CONDITION_RE.match(line) and _guarded(line)]
    if not conditions:
        return None
    for _, line in written:
        if not _CONDITION_RE.match(line):
            continue
        core = _END_RE.sub("", line.strip()).replace("(", "").replace(")", "")
        for old in conditions:
            before = _END_RE.sub("", old.strip()).replace("(", "").replace(")", "")
            if len(before) > len(core) + 3 and before.startswith(core) and before[len(core):].lstrip().startswith(_JOINS):
                if _ACCESS.passes(before[len(core):]):
                    return _clause_named(old, before[len(core):])
                continue
            keyword = re.match(r"(?:\}\s*)?(?:else\s*)?(?:if|elif|elsif|unless)\s*\(?\s*", core)
            if keyword:
                rest = core[keyword.end():]
                head = before[:keyword.end()]
                tail = before[keyword.end():]
                if head == core[:keyword.end()] and len(rest) >= 4 and tail.endswith(rest) and tail[: -len(rest)].rstrip().endswith(_JOINS):
                    if _ACCESS.passes(tail[: -len(rest)]) and not _split(tail[: -len(rest)], line, written):
                        return _clause_named(old, tail[: -len(rest)])
    return None


def _split(clause: str, line: str, written: list[tuple[int, str]]) -> bool:
    """Whether the clause a condition lost stands in another condition the change writes (round 25 part C: ``if a || b,
    c`` split into ``if a, c`` and ``else if b, c``, two branches that ask what the one asked)."""
    bare = "".join(clause.split())
    for join in _JOINS:
        bare = bare.removeprefix("".join(join.split())).removesuffix("".join(join.split()))
    return len(bare) >= 4 and any(other is not line and _CONDITION_RE.match(other) and bare in "".join(other.split()) for _, other in written)


def _clause_named(old: str, clause: str) -> str:
    # The clause the check lost, named before the old line (round 16: a long condition's quote was cut before the clause
    # that compared a signed element with the signature's parent, so the reason never said what the check stopped asking).
    bare = " ".join(clause.split()).strip()
    for join in _JOINS:
        bare = bare.removeprefix(join).removesuffix(join).strip()
    return f"{_shown(bare, 48)} (was {old.strip()})" if bare else old


_END_RE = re.compile(r"\s*(?:\{|:|\bthen|\bdo)\s*$")


def removed_guard(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"deletes a guard: …" / "deletes a check: …" / "inverts a check: …" naming the line, or None."""
    written = _new(added, removed)
    found = _refuses_passed(added, written)
    if found:
        return f"inverts a check (refuses what passed): {_shown(found)}"
    gone = _new(removed, added)
    if not gone:
        return None
    found = _deleted_refusal(removed, gone, written)
    if found:
        return f"deletes a guard: {_shown(found)}"
    found = _compare_replaced(gone, written)
    if found:
        return f"replaces a constant-time comparison with ==: {_shown(found)}"
    found = _deleted_middleware(gone, "\n".join(added))
    if found:
        return f"removes a protection middleware: {_shown(found)}"
    found = _unwrapped(gone, written)
    if found:
        what = "removes path normalisation" if re.search(r"(?i)realpath|abspath|normpath|canonicali|secure_filename|basename", found.split(")", 1)[0]) else \
            "removes escaping or a bound parameter"
        return f"{what} {_shown(found)}"
    found = _deleted_check(gone, "\n".join(added))
    if found:
        what = ("replaces a constant-time comparison" if _CONSTANT_TIME_RE.search(found) else
                "removes escaping" if _ESCAPING_RE.search(found) else "deletes a check")
        if what.startswith("replaces") and (truth := made_true(found, [line for _, line in written])):  # round 77: `ct_eq(&rhs)` → `Choice::from(1)`
            what = f"makes a check always pass (its constant-time comparison now {truth})"
        return f"{what}: {_shown(found)}"
    found = _inverted(gone, written)
    if found:
        return f"inverts a check: {_shown(found)}"
    found = _dropped_clause(gone, written)
    if found:
        return f"drops a clause from a check: {_shown(found)}"
    found = _default_flipped(gone, written)
    if found:
        return f"makes a check answer yes by default (fails open): {_shown(found)}"
    return None


SCREENS: dict[str, Screen] = {"check names": _CHECK, "middleware": _MIDDLEWARE}
