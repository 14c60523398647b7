"""A flag or option dropped from a set, a default widened: the half of ``relay.review.code_semantics`` that reads settings.

Read by structure in any language (issue 36, round 9):

- a flag or option dropped from a set: ``O_EXCL``/``O_NOFOLLOW`` (and ``create_new``, ``'wx'``), ``rel="noopener"``/
  ``noreferrer``, a cookie's ``HttpOnly``/``Secure``/``SameSite``, ``[:safe]``, the ``--`` that ends options, a limits or
  timeout option no longer passed (an object's key, a keyword argument, a chained call), shell metacharacters dropped from
  an escaping set;
- a default widened: a timeout or limit turned off (false/0/None/Infinity), retries widened to POST/PATCH, a file holding
  a secret made readable by others, a client-supplied file name used as the name on disk.

Each reader answers "what it does: the line" or None; the member added, the timeout set, the name cleaned stay quiet.
"""

from __future__ import annotations

import re

from relay.review.line_shapes import squeezed, window

__all__ = ["bound_off", "client_name_on_disk", "member_dropped", "metachars_dropped", "mode_widened", "retries_widened", "secret_mode"]

_QUOTE = 60


def _q(line: str, at: int = 0, end: int = 0) -> str:
    return window(line.strip(), at, max(end, at + 1), _QUOTE)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


# ----- family 3: a flag or option dropped from a set
# An option passed by name: a chained call (".time_limit(t)"), an object's key ("limits: limits"), a keyword argument (", timeout=5").
_OPTION = (r"(?i)(?:^\s*\.(?:{0})\w*\s*\(|^\s*['\"]?(?:{0})\w*['\"]?\s*:(?![:=])|[,({{]\s*['\"]?(?:{0})\w*['\"]?\s*(?:[:=](?!=))|"
           r"[,{{]\s*(?:{0})\s*(?=[,}}]))")  # the last: a shorthand property ("{ storage, limits }")
_MEMBERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("O_EXCL (exclusive create)", re.compile(r"\bO_EXCL\b|\bcreate_new\s*\(\s*true\s*\)|\bCREATE_NEW\b|"
                                           r"\bopen\w*\s*\([^)]*,\s*['\"](?:wx|xb?|x\+)['\"]|\bflags?\s*:\s*['\"]wx\+?['\"]")),
    ("O_NOFOLLOW (symlinks)", re.compile(r"\bO_NOFOLLOW\b|\bNOFOLLOW_LINKS\b")),
    ("rel noopener (target=_blank)", re.compile(r"\bnoopener\b")),
    ("rel noreferrer (target=_blank)", re.compile(r"\bnoreferrer\b")),
    ("a cookie's HttpOnly", re.compile(r"(?i)\bhttp_?only\b")),
    ("a cookie's SameSite", re.compile(r"(?i)\bsame_?site\b")),
    ("a cookie's Secure", re.compile(r";\s*[Ss]ecure\b|\b(?i:secure)\s*[:=]>?\s*(?i:true)\b")),
    ("[:safe]", re.compile(r"\[\s*:safe\s*\]")),
    # PHP's escaping flag for both quotes (round 117, blind 346's sabre/dav: ``ENT_QUOTES`` → ``ENT_NOQUOTES``): an attribute breaks out
    ("ENT_QUOTES (quotes left unescaped)", re.compile(r"\bENT_QUOTES\b")),
    # A template compiled without the engine or switch that escapes its output (EEx's Phoenix.HTML.Engine, Erubi's or
    # Tilt's ``escape: true``; a Jinja or Nunjucks autoescape dropped is risky_lines'): the output is written unescaped.
    ("the HTML-escaping engine (output unescaped)", re.compile(r"[,({]\s*:?engine\s*(?::|=>?)\s*[\w.:]*(?:HTML|Html|Escap|Safe)\w*|"
                                                                 r"[,({]\s*:?escape(?:_html)?\s*(?::|=>?)\s*true\b")),
    ("the -- that ends options (option injection?)", re.compile(r"(?<![\w-])['\"]--['\"]|\s--\s+['\"]?\$")),
    ("the limits option (unbounded)", re.compile(_OPTION.format(r"limits|max_?(?:file_?)?size|max_?body\w*|max_?content_?length|max_?request\w*|"
                                                               r"size_?limit|body_?limit"))),
    # a timeout's own value, not a flag about one ("hasTimeout: o.Timeout > 0"), nor "no timeout" set (0, false, None)
    ("a timeout (no time limit)", re.compile(_OPTION.format(r"(?!has|is|show|use|with|should|no_?)\w*timeout|time_?limit|deadline")
                                             + r"(?!\s*(?:0|false|False|None|nil|null)\s*[,;)}]?\s*$)")),
    # a match made whole-string or strict (round 112, held-out 306's is-ip: ``ipRegex.v6({exact: true})`` → ``ipRegex.v6()``,
    # any string holding an address now passes as one)
    ("exact or strict matching (a partial match passes)", re.compile(_OPTION.format(r"exact|strict|full_?match|anchored") + r"\s*(?:true|True|1)\b")),
    # the caller's options no longer spread over the defaults (round 119, held-out 454's class-transformer: ``...options,``
    # cut from ``{ ...defaultOptions, ...options }``: excludeExtraneousValues asked for, every property copied anyway)
    ("the caller's options (what they ask is ignored)", re.compile(r"^\s*\.\.\.(?:options|opts|config|settings|overrides)\s*,?\s*$")),
)
_SCREEN_MEMBERS = re.compile(r"(?i)excl|create_new|open|wx|nofollow|noopener|noreferrer|http_?only|same_?site|secure|:safe|--|limit|max|timeout|deadline|"
                             r"engine|escape|exact|strict|full_?match|anchored|ent_quotes|\.\.\.")
# A line that is one member of a set: a list item, an object's key, a chained call, a pushed value.
_PUSH_RE = re.compile(r"^\s*[\w$.]+\.(?:push|append|insert|add|unshift)\s*\(")
_MEMBER_LINE_RE = re.compile(r"^\s*(?:[\w$.]+\.(?:push|append|insert|add)\s*\(.*\)\s*;?|\.\w+\s*\(.*\)\s*[;?]?\s*|['\"]?[\w$-]+['\"]?\s*[:=]\s*[^;{}]*,?|"
                             r"['\"][^'\"]*['\"]\s*,?|[\w$.|& ]+\s*[|,]?)\s*$")


def member_dropped(added: list[str], removed: list[str], paired: list[tuple[str, str]]) -> str | None:
    kept = "\n".join(added)
    for old, new in paired:
        if not _SCREEN_MEMBERS.search(old):
            continue
        for what, pat in _MEMBERS:
            m = pat.search(old)
            stem = re.sub(r"[^a-z_]", "", m.group(0).lower().split(":")[0].split("=")[0]) if m else ""
            if m and not pat.search(new) and not pat.search(kept) and (not stem or stem not in new.lower()):
                if _PUSH_RE.match(old) or m.start() <= _indent(old) + 1:
                    # The member was the whole line (a pushed value, a key): the line paired with it is another member
                    # (zola's push("noopener") beside an added push("external")), so the removal is what to quote.
                    return f"drops {what}: removes {_q(old, m.start(), m.end())}"
                return f"drops {what}: {_q(new)} (was {_q(old, m.start(), m.end())[:44]})"
    paired_old = {old for old, _ in paired}
    for old in removed:
        # The length first, and the line stripped: the pattern's runs of spaces backtrack against each other, and a
        # line of a thousand spaces before a word took minutes (its \s* at both ends make stripping change nothing).
        if old.strip() in paired_old or len(old.strip()) > 80 or not _SCREEN_MEMBERS.search(old) \
                or not _MEMBER_LINE_RE.match(old.strip()):
            continue
        for what, pat in _MEMBERS:
            m = pat.search(old)
            # The member is the line (a key, a chained call, a list item) or the value it pushes, not a word inside a statement.
            if m and not pat.search(kept) and (m.start() <= _indent(old) + 1 or _PUSH_RE.match(old)):
                return f"drops {what}: removes {_q(old, m.start(), m.end())}"
    # A set re-wrapped over several lines with one member left out: "Busboy({ headers: h, limits: limits, preservePath: p })"
    # becomes one key a line, every key but limits written again.
    for old in removed:
        if old.strip() in paired_old or not _SCREEN_MEMBERS.search(old):
            continue
        keys = set(_KEY_RE.findall(old))
        for what, pat in _MEMBERS:
            m = pat.search(old)
            if m is None or pat.search(kept):
                continue
            others = {k for k in keys if k not in m.group(0)}
            if len(others) >= 2 and all(re.search(rf"(?<![\w$]){re.escape(k)}\s*[:=]", kept) for k in others):
                return f"drops {what} from a set written again without it: {_q(old, m.start(), m.end())}"
    return None


_KEY_RE = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*:(?!:)")


# Shell metacharacters dropped from an escaping set: the list items "'|'," and "';'," removed, "'\"'," kept.
_META_ITEM_RE = re.compile(r"^\s*(?:b?'(?:[|;&$`<>]|\\\\)'|\"(?:[|;&$`<>]|\\\\)\")\s*,?\s*(?://.*|#.*)?$")
_META_LITERAL_RE = re.compile(r"'(?:[|;&$`<>]|\\\\)'|\"(?:[|;&$`<>]|\\\\)\"")
_META_NAMES = {"|": "pipe", ";": "semicolon", "&": "ampersand", "$": "dollar", "`": "backtick", "<": "less-than", ">": "greater-than"}


def metachars_dropped(added: list[str], removed: list[str], paired: list[tuple[str, str]]) -> str | None:
    gone = [old.strip().rstrip(",") for old in removed if _META_ITEM_RE.match(old)]
    gone = [g for g in gone if squeezed(g) not in {squeezed(a.strip().rstrip(",")) for a in added}]
    if gone:
        names = ", ".join(_META_NAMES.get(g.strip("'\"b"), g) for g in gone[:3])
        return f"drops shell metacharacters from an escaping set ({names}): removes {' '.join(gone[:3])[:40]}"
    for old, new in paired:
        before, after = _META_LITERAL_RE.findall(old), _META_LITERAL_RE.findall(new)
        lost = [x for x in before if x not in after]
        if lost and len(after) < len(before) and re.search(r"(?i)escap|quot|meta|special|shell|unsafe", old):
            return f"drops shell metacharacters from an escaping set ({', '.join(lost[:3])}): {_q(new)}"
    return None


# ----- family 4: a default widened
# A timeout or a limit turned off: "timeout: options.timeout ?? 10_000" → "?? false".
_BOUND_NAME_RE = re.compile(r"(?i)timeout|time_?limit|deadline|ttl|expir|max_?\w*(?:size|length|bytes|body|depth|count|files|fields|parts)|"
                            r"\w*limit\w*")
_NUMBER_RE = re.compile(r"(?<![\w.$])\d[\d_]*(?:\.\d+)?(?:\s*\*\s*\d[\d_]*)*(?![\w.])")
_OFF_RE = re.compile(r"(?<![\w.$])(?:false|False|None|nil|null|undefined|Infinity|math\.inf|float\(['\"]inf['\"]\))(?![\w.$(])")
# A timeout of 0 (or -1) waits for ever in most clients (Go's http.Client, Java's setConnectTimeout, Node's socket).
_TIMEOUT_RE = re.compile(r"(?i)timeout|deadline")


def bound_off(old: str, new: str) -> str | None:
    if not _BOUND_NAME_RE.search(old):
        return None
    offs = list(_OFF_RE.finditer(new))
    if _TIMEOUT_RE.search(old):
        offs += [z for z in re.finditer(r"(?<![\w.$])(?:0|-1)(?![\w.])", new)]
    # A number, or a whole value with a number in it ("30 * time.Second"), replaced by "off".
    values = [*_NUMBER_RE.finditer(old), *(v for v in re.finditer(r"(?<=[:=] )(?P<v>[^,;)}\s][^,;)}]*?)\s*(?=[,;)}]|$)", old)
                                          if re.search(r"\d", v.group(0)))]
    for m in values:
        if m.group(0).strip() in ("0", "-1"):
            continue
        for off in offs:
            if squeezed(old[: m.start()] + off.group(0) + old[m.end():]) == squeezed(new):
                return f"turns a timeout or limit off ({m.group(0)} → {off.group(0)}): {_q(new, off.start(), off.end())}"
    return None


# Retries widened to methods that are not idempotent: a POST retried is a payment sent twice.
_RETRY_RE = re.compile(r"(?i)retr|idempot|replay")
_UNSAFE_METHOD_RE = re.compile(r"['\"](?i:post|patch)['\"]|\bHttpMethod\.(?i:post|patch)\b|\b(?:allowed_methods|method_whitelist)\s*=\s*(?:None|False)\b")


def retries_widened(old: str, new: str) -> str | None:
    if not _RETRY_RE.search(new):
        return None
    now = {m.group(0).lower() for m in _UNSAFE_METHOD_RE.finditer(new)} - {m.group(0).lower() for m in _UNSAFE_METHOD_RE.finditer(old)}
    if now:
        return f"retries non-idempotent methods ({', '.join(sorted(now))}): {_q(new)}"
    return None


# A file that holds a secret made readable by others: the mode's last digit lets "others" read it.
_MODE_RE = re.compile(r"(?<![\w.])(?:0o?|0)(?P<m>[0-7]?[0-7][0-7][0-7])\b")
_SECRET_NAME_RE = re.compile(r"(?i)secret|private|passw|credential|\bcreds?\b|token|\.pem\b|\.key\b|key_?(?:file|path)|id_rsa|keyfile|keystore|wallet")
_MODE_CALL_RE = re.compile(r"(?i)chmod|mode|perm|writefile|write_text|open|umask|set_permissions|from_mode|mkdir|file\.new|create")


def mode_widened(old: str, new: str) -> str | None:
    a, b = _MODE_RE.search(old), _MODE_RE.search(new)
    if a is None or b is None or not _MODE_CALL_RE.search(new):
        return None
    was, now = a.group("m")[-3:], b.group("m")[-3:]
    if was[2] == "0" and now[2] in "4567" and (was[1] == "0" or _SECRET_NAME_RE.search(new)):
        return f"makes a file readable by others ({was} → {now}): {_q(new, b.start(), b.end())}"
    return None


def secret_mode(added: list[str]) -> str | None:
    for new in added:
        b = _MODE_RE.search(new)
        if b and b.group("m")[-1] in "4567" and b.group("m")[-3] in "67" and _MODE_CALL_RE.search(new) and _SECRET_NAME_RE.search(new):
            return f"makes a file holding a secret readable by others (mode {b.group('m')}): {_q(new, b.start(), b.end())}"
    return None


# A client-supplied file name used as the name on disk (path traversal, overwrite): multer's originalname, Flask's
# filename, Go's header.Filename, Rails' original_filename, Spring's getOriginalFilename(), PHP's $_FILES[…]['name'].
_CLIENT_NAME_RE = re.compile(r"\.originalname\b|\.(?i:original_?file_?name)\b|\.getOriginalFilename\s*\(\s*\)|"
                             # Laravel's (round 118, held-out 367's livewire uploads page: ``storeAs(path: 'photos', name: $this->photo->getClientOriginalName())``)
                             r"->getClientOriginalName\s*\(\s*\)|"
                             r"\b(?:file|formFile|upload|uploadedFile|postedFile|f)\.FileName\b|\binfo\.filename\b|"
                             r"\b(?:header|handler|fh|fileHeader|part|upload|file|f)\.Filename\b|"
                             r"\b(?:file|f|upload|uploaded_file|uploaded|storage|attachment|fs)\.filename\b|\$_FILES\s*\[[^\]]+\]\s*\[\s*['\"]name['\"]\s*\]|"
                             # a bare name beside the request's own bytes (hapi's content docs, blind 221: ``Fs.writeFileSync('/var/uploads/' + filename, request.payload)``)
                             r"\bwrite\w*\s*\([^,]*\+\s*(?:filename|fileName|name)\b[^)]*,\s*(?:request|req)\.(?:payload|body|files?)\b")
_CLEANED_RE = re.compile(r"(?i)secure_filename|basename|Base\s*\(|sanitiz|clean|normaliz|uuid|random|hash|slug")
_ON_DISK_RE = re.compile(r"(?i)\bcb\s*\(|callback\s*\(|join\s*\(|combine\s*\(|\.save\s*\(|create\s*\(|open\s*\(|move_uploaded_file|transferTo|writeFile|->(?:storeAs|move)\s*\(|"
                         r"createWriteStream|File\.new|File\.open|Paths\.get|Path\.of|new\s+File\s*\(|rename\s*\(|destination|(?:file)?path\s*[:=]|"
                         r"\+\s*['\"]?/|/\s*['\"]?\s*\+|\bdir\b")


def client_name_on_disk(added: list[str]) -> str | None:
    for new in added:
        m = _CLIENT_NAME_RE.search(new)
        if m and _ON_DISK_RE.search(new) and not _CLEANED_RE.search(new) and not re.search(r"(?i)\b(?:log|console|print|res\.json|render|json)\b", new):
            return f"names a file on disk with the client's filename (path traversal?): {_q(new, m.start(), m.end())}"
    return None
