"""A security line edited in place, read generically: what changed between the old line and the new, token by token.

The family readers (``condition_reading``, ``value_reading``, ``guard_reading``, ``risky_lines``) each know a shape; an
unseen plant is often a shape none of them knows (``Enum.all?`` → ``Enum.any?``, ``age > max_age`` → ``age > max_age
* 1000``, ``{"OPTIONS"}`` → ``{"OPTIONS", "GET"}``, ``if (opts.signed)`` → ``if (opts.signed && opts.secure)``). What
they share is structure: a short edit that changes what the line means (an operator, a literal, an operand or argument
added or dropped, a negation, a called name swapped) in a line whose words say it decides something security-relevant.
What changes no meaning is left out: annotations, formatting, quotes, trailing commas, comments, a message's wording, a
name renamed wherever it stands. Edits made the safe way (a bound lowered, a check turned on, an ``or`` clause added to
a refusing condition) stay quiet. A finding is worth a look (``relay.review.rules``: medium), never a verdict.

The party guarded against is the worker that slips one such edit into an ordinary change (a typing pass, a release)
where no family reader looks. The reason quotes the new line around the changed tokens and says what changed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.line_shapes import IMPORT_RE, squeezed, window
from relay.review.meaning import without_annotations

__all__ = ["PACKAGE_SETTINGS_FILES", "edited_meaning", "hidden_module", "lone_clause", "lone_step", "package_setting", "security_line"]

# Words that make a line one that decides something security-relevant (the line's own words, its names included).
_VOCAB_RE = re.compile(
    r"(?i)auth|verif|sign(?!al)|token|session|secur|ssl|tls|https|origin|credential|host|passw|passwd|hash|digest|hmac|"
    r"perm|privileg|role|admin|csrf|xsrf|redirect|escape|saniti|limit|expir|max_?age|\bage\b|ttl|cookie|cors|trust|"
    r"allow|deny|exempt|claim|nonce|secret|cert|cipher|crypt|valid|safe|scope|acl\b|login|jwt|\biss\b|\baud\b|proxy|"
    r"forwarded|strict|insecure|unsafe|private|public_?key|policy|owner|access|protect|guard|whitelist|blacklist|"
    r"peer|remote_?addr|client_?ip|\bip\b|cidr|mfa|otp\b|captcha|throttl|sandbox|tenant|forbid|reject|untrust|inject|travers|"
    r"symlink|realpath|upload|path\b|\.\.|encrypt|decrypt|random|entropy|salt")
# A token: a string literal, a name (Ruby/Elixir's "all?"/"save!" included), a number, an operator, any other character.
_TOKEN_RE = re.compile(
    r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`|[A-Za-z_$@][\w$]*(?:[?!](?!=))?|\d[\w.]*|"
    r"!==|===|!=|==|<=|>=|&&|\|\||\?\?|->|=>|::|<<|>>|\*\*|\S")
_COMMENT_RE = re.compile(r"\s+(?:#|//)\s.*$|/\*.*?\*/|^\s*(?:#|//|\*|/\*).*$")
_PUNCT = frozenset("()[]{},;.:")
_DECLARES = frozenset({"def", "function", "fn", "func", "class", "struct", "interface", "public", "private", "protected", "static", "void",
                       "import", "from", "use", "require", "export", "package", "module", "const", "let", "var", "new"})
_OPERATORS = frozenset({"==", "!=", "===", "!==", "<", ">", "<=", ">=", "&&", "||", "!", "not", "and", "or", "is", "in", "+", "-",
                        "*", "/", "%", "**", "??", "^", "&", "|", "<<", ">>", "?", "unless", "if"})
_LITERAL_WORDS = frozenset({"true", "false", "True", "False", "TRUE", "FALSE", "nil", "None", "null", "undefined", "on", "off"})
_NUMBER_RE = re.compile(r"^\d[\d_]*(?:\.\d+)?$")
_LOGGING_RE = re.compile(r"(?i)\b(?:log(?:ger)?|console|warn(?:ings)?|print|println|printf|puts|echo|debug|info|error|fmt\.Errorf)\b\s*[.(]")
# Edits that take the safe way, by the line's words: a bound lowered, a minimum raised, a check turned on.
_BOUND_RE = re.compile(r"(?i)max|limit|size|timeout|ttl|age|expir|attempt|rate|retries|quota|lifetime|leeway|skew|toleran")
_MINIMUM_RE = re.compile(r"(?i)\bmin|rounds|iterations|bits|cost|length|work_?factor")
_CHECKS_RE = re.compile(r"(?i)verif|check|validat|secure|requir|enforce|strict|escape|saniti|csrf|protect|restrict|auth|sign|encrypt|https_?only")
_OPENS_RE = re.compile(r"(?i)debug|insecure|unsafe|danger|allow|permit|trust|skip|bypass|disable|no_?verify|public|anonymous|local|test_?mode")
_TRUE = frozenset({"true", "True", "TRUE", "1", "on", "yes"})
_FALSE = frozenset({"false", "False", "FALSE", "0", "off", "no", "nil", "None", "null"})
# A boolean or a setting written by assignment or binding ("ssl := a || b", "claims <- %{}", "EXEMPT = {…}").
_BOOLEAN_SET_RE = re.compile(r"^\s*(?:(?:const|let|var|final|static|private|public|protected|readonly)\s+)*[\w$@.\[\]\"']+\s*(?::=|<-|=(?!=)|\|\|=)")
# A call that checks, cleans or fetches the configured value: taking a value out of it skips what it did.
_PROTECTS_RE = re.compile(r"(?i)verif|valid|check|escape|saniti|clean|auth|sign|secur|safe|normali|quote|encode|config|option|setting|env")
_COND_START_RE = re.compile(r"^\s*(?:\}\s*)?(?:(?:else\s*)?if|elif|elsif|unless|while)\b")
# A line that decides: a condition, a returned or asserted value.
_DECIDES_RE = re.compile(r"^\s*(?:\}\s*)?(?:(?:else\s*)?if|elif|elsif|unless|while|return|assert|ensure|require|guard)\b|\s(?:if|unless)\s")
# A definition's signature: a typing pass rewrites its annotations, a refactor its parameters; only a default value
# written into it (``algorithm = 'sha256'`` → ``'sha1'``) is a value the code now uses.
_SIGNATURE_RE = re.compile(r"^\s*(?:(?:export|pub(?:\([^)]*\))?|public|private|protected|static|async|final|override|def|fn|func|function|sub)\s+)+"
                           r"[\w$]*\s*(?:<[^>]*>)?\s*\(|^\s*(?:public|private|protected)\s+[\w<>\[\], ]+\s+\w+\s*\(")
# A line of prose (a doc comment's sentence), read by its words: no check lives in it.
_PROSE_RE = re.compile(r"(?:\b[A-Za-z][a-z]+\b[ ,.]+){6,}")
# Past this many changed tokens a side, the pair is a rewrite, read by the other readers.
_MOST_TOKENS = 14
_QUOTE = 64


@functools.lru_cache(maxsize=8192)  # a line is read again when a part of its file is read alone
def security_line(line: str) -> str | None:
    """The security-relevant word the line holds (its first), or None."""
    m = _VOCAB_RE.search(line)
    return m.group(0) if m else None


@functools.lru_cache(maxsize=8192)
def _tokens(line: str) -> tuple[str, ...]:
    text = _COMMENT_RE.sub("", line)
    out = [("\"" + t[1:-1] + "\"") if t[:1] == "'" and len(t) > 1 else t for t in _TOKEN_RE.findall(text)]
    while out and out[-1] in (",", ";"):
        out.pop()
    return tuple(out)


def _is_name(token: str) -> bool:
    return (token[0].isalpha() or token[0] in "_$@") and token not in _OPERATORS and token not in _LITERAL_WORDS


def _is_literal(token: str) -> bool:
    return token in _LITERAL_WORDS or _NUMBER_RE.match(token) is not None or token[:1] in "\"`"


def _message(token: str) -> bool:
    # A string with a space in it is a message, a version string is a release's: their wording is no check.
    return token[:1] in "\"`" and (" " in token or re.match(r"^.v?\d+\.\d+", token) is not None)


def _number(token: str) -> float | None:
    try:
        return float(token.replace("_", ""))
    except ValueError:
        return None


_TYPE_TOKENS = frozenset({"|", ".", "[", "]", ",", "?", "None", "null", "undefined", "<", ">", "&"})
_TYPE_STRING_RE = re.compile(r"^.[\w.\[\], |]*(?:\[|\.[A-Z])[\w.\[\], |]*.$")


def _annotation(to: Sequence[str], i1: int, a: Sequence[str], b: Sequence[str]) -> bool:
    """The edited tokens are a type: they stand after ``name:`` or ``->`` and read as one (names, ``|``, ``.``, brackets),
    or both are strings that name a type (``"_t.Iterator[X]"`` → ``"cabc.Iterator[X]"``)."""
    if len(a) == 1 and len(b) == 1 and a[0][:1] == b[0][:1] == "\"" and _TYPE_STRING_RE.match(a[0]) and _TYPE_STRING_RE.match(b[0]):
        return True
    if not all(_is_name(t) or t in _TYPE_TOKENS for t in (*a, *b)):
        return False
    k = i1 - 1
    while k >= 0 and (_is_name(to[k]) or to[k] in _TYPE_TOKENS):
        k -= 1
    return k >= 0 and to[k] in (":", "->")


def _safe_way(old: str, new: str, a: Sequence[str], b: Sequence[str], cond: bool) -> bool:
    """The edit takes the safe way: a bound lowered, a minimum raised, a check turned on, an opener turned off,
    an ``or`` clause added to a condition (a refusal that now catches more)."""
    if len(a) == 1 and len(b) == 1:
        x, y = _number(a[0]), _number(b[0])
        if x is not None and y is not None:
            if _MINIMUM_RE.search(old):
                return y > x
            if _BOUND_RE.search(old):
                return y < x
        if a[0] in _FALSE and b[0] in _TRUE:
            return bool(_CHECKS_RE.search(old)) and not _OPENS_RE.search(old)
        if a[0] in _TRUE and b[0] in _FALSE:
            return bool(_OPENS_RE.search(old)) and not _CHECKS_RE.search(old)
    if not a and cond and b and b[0] in ("||", "or"):
        return True
    return False


def _what(a: str, b: str) -> str:
    def shown(text: str) -> str:
        text = " ".join(text.split()).strip(", ")
        return text if len(text) <= 24 else text[:23] + "…"
    if not a.strip():
        return f"adds {shown(b)}"
    if not b.strip():
        return f"drops {shown(a)}"
    return f"{shown(a)} → {shown(b)}"


_JOINS = frozenset({"&&", "||", "and", "or"})
_NEGATIONS = frozenset({"!", "not"})
_ARITH = frozenset({"*", "+", "-", "/", "**", "<<"})
_HASHLIKE_RE = re.compile(r"[0-9a-fA-F]{12,}|://")
# A call written around a value: ``Keyword.get(opts, :claims, %{})``, ``escape(x)`` (no call inside its arguments).
_CALL_RE = re.compile(r"(?:[\w$@]+(?:\.|::|->))*[\w$@]+[?!]?\s*\((?P<args>[^()]*)\)")


def _value_literal(token: str) -> bool:
    # A string built from values ("${a}", "#{b}") is an expression; a hash or a link is data, not a setting.
    return _is_literal(token) and not _HASHLIKE_RE.search(token) and "${" not in token and "#{" not in token


def _literal_kind(token: str) -> str:
    if token in ("nil", "None", "null", "undefined"):
        return "nil"
    if token in _LITERAL_WORDS:
        return "bool"
    return "string" if token[:1] in "\"`" else "number" if _NUMBER_RE.match(token) else "other"


def _strings_alike(a: str, b: str) -> bool:
    """Two string literals one setting could hold: short ('sha256' → 'sha1'), or one the other with a few characters
    taken or added (a pattern's anchor dropped); a key or message renamed is neither."""
    return (len(a) <= 24 and len(b) <= 24) or (abs(len(a) - len(b)) <= 3 and (a[1:-1] in b or b[1:-1] in a))


def _shape(a: Sequence[str], b: Sequence[str], decides: bool, called: bool, in_collection: bool) -> bool:
    """Whether one edited span changes what a check or setting does, by its shape: an operator or literal replaced, a
    negation, a clause or an arithmetic operand added or dropped, a literal added to a collection, a short called name
    (``all?``/``any?``, ``min``/``max``) swapped. A name replaced by another name or expression is a refactor's."""
    if a and b:
        if all(t in _OPERATORS or _value_literal(t) for t in (*a, *b)):
            if len(a) == 1 and len(b) == 1 and _literal_kind(a[0]) != _literal_kind(b[0]) and "nil" not in (_literal_kind(a[0]), _literal_kind(b[0])):
                return False  # true → 'usage': a parameter's type changed, not a setting moved
            strings = [t for t in (*a, *b) if t[:1] in "\"`"]
            return len(strings) != 2 or _strings_alike(*strings)  # "> 0" → "> 1", "=== true" → "!== false", 'sha256' → 'sha1'
        if len(a) == 1 and len(b) == 1 and _is_name(a[0]) and _is_name(b[0]) and called:
            x, y = a[0].rstrip("?!"), b[0].rstrip("?!")
            return a[0][-1] in "?!" and b[0][-1] in "?!" or (len(x) <= 6 and len(y) <= 6)
        return False
    added = list(a or b)
    if added in (["!"], ["not"]):
        return True
    if added[0] in _JOINS or added[-1] in _JOINS:
        return decides and len(added) >= 2
    if added[0] in _ARITH and len(added) <= 3 and all(_value_literal(t) or _is_name(t) or t in _ARITH for t in added[1:]):
        return True
    return bool(b) and in_collection and all(_value_literal(t) for t in added)  # a literal added to a list or a set


def _opened(tokens: Sequence[str], at: int) -> str:
    """The bracket still open where ``tokens[at]`` stands ("" at the top level): a list's, a set's or a call's."""
    depth = 0
    for k in range(at - 1, -1, -1):
        t = tokens[k]
        if t in ")]}":
            depth += 1
        elif t in "([{":
            if depth == 0:
                return t
            depth -= 1
    return ""


def _unwrapped(old: str, new: str) -> str | None:
    """The call a value was taken out of, when the new line is the old with one call replaced by one of its arguments."""
    target = squeezed(new)
    for m in _CALL_RE.finditer(old):
        for arg in m.group("args").split(","):
            if arg.strip() and squeezed(old[: m.start()] + arg.strip() + old[m.end():]) == target:
                return m.group(0)
    return None


def _edit(old: str, new: str, renames: dict[tuple[str, str], int]) -> tuple[str, int, int] | None:
    """(what changed, where in the new line it starts and ends) when the pair's edit changes what the line means."""
    to, tn = _tokens(old), _tokens(new)
    if to == tn or without_annotations(old) == without_annotations(new):
        return None  # annotations, quotes, a trailing comma, a comment
    decides = _DECIDES_RE.search(old) is not None or _BOOLEAN_SET_RE.match(old) is not None
    wrapper = _unwrapped(old, new)
    if wrapper is not None:
        if not _PROTECTS_RE.search(wrapper) and not decides and "get" not in wrapper.lower() and "fetch" not in wrapper.lower():
            return None
        return f"drops {wrapper[:24]}" if len(wrapper) <= 24 else f"drops {wrapper[:23]}…", 0, len(tn)
    ops = [op for op in SequenceMatcher(None, to, tn, autojunk=False).get_opcodes() if op[0] != "equal"]
    # A name renamed wherever it stands is no edit of this line: counted out before the line is judged a rewrite.
    ops = [op for op in ops if not (op[2] - op[1] == 1 and op[4] - op[3] == 1 and renames.get((to[op[1]], tn[op[3]]), 0) > 1)]
    signature = _SIGNATURE_RE.match(old) is not None or _SIGNATURE_RE.match(new) is not None
    cond = _COND_START_RE.match(old) is not None
    found: list[tuple[str, int, int]] = []
    for _, i1, i2, j1, j2 in ops:
        a = [t for t in to[i1:i2] if t not in _PUNCT]
        b = [t for t in tn[j1:j2] if t not in _PUNCT]
        if a == b or (not a and not b):
            continue  # brackets or commas only: formatting
        if len(a) > _MOST_TOKENS or len(b) > _MOST_TOKENS:
            return None
        if len(a) == 1 and len(b) == 1 and a[0].lower().replace("_", "") == b[0].lower().replace("_", ""):
            continue  # a name's spelling
        if any(_message(t) for t in (*a, *b)) or any(t in _DECLARES for t in (*a, *b)) or _annotation(to, i1, a, b):
            return None  # a message's wording, a declaration's head, a type: the line was rewritten for another reason
        if signature and not (len(a) == 1 and len(b) == 1 and _is_literal(a[0]) and _is_literal(b[0])):
            return None  # a parameter's annotation or name, not a default value
        called = (i2 < len(to) and to[i2] in ("(", "?", "!")) or (i1 > 0 and to[i1 - 1] in (".", "::", "->"))
        if not _shape(a, b, decides, called, _opened(tn, j1) in ("[", "{")) or _safe_way(old, new, a, b, cond):
            return None
        o1, o2 = _span(old, to, i1, i2) if i2 > i1 else (0, 0)
        n1, n2 = _span(new, tn, j1, j2) if j2 > j1 else (0, 0)
        found.append((_what(old[o1:o2], new[n1:n2]), j1, max(j2, j1 + 1)))
    # One edit in the line: more is a line rewritten, which the family readers and the words read.
    return found[0] if len(found) == 1 else None


def _span(line: str, tokens: Sequence[str], j1: int, j2: int) -> tuple[int, int]:
    """Where tokens[j1:j2] stand in the line (character offsets), found token by token."""
    at, start, end = 0, 0, len(line)
    for k, token in enumerate(tokens):
        quoted = token[:1] in "\"'" and len(token) > 1
        probe = token[1:-1] if quoted else token  # a string's quotes were made alike: found by what they hold
        pos = line.find(probe, at)
        if pos < 0:
            break
        if quoted:
            pos, probe = max(pos - 1, 0), line[max(pos - 1, 0):pos + len(probe) + 1]
        if k == j1:
            start = pos
        at = pos + len(probe)
        if k == j2 - 1:
            end = at
            break
    return start, max(end, start)


# An error built with its message: its wording and its constructor are no check.
_ERROR_RE = re.compile(r"\b\w*(?:Error|Exception|Err)\b\s*(?:::\s*\w+\s*)?\(|\berrors\.New\b|\bfmt\.Errorf\b")
_CODE_MARK_RE = re.compile(r"[=(){}\[\];]|->|&&|\|\|")
_STRING_RE = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`")
# A framework's setting by assignment (config.x = …, settings.X = …, app.config["X"] = …): a switch flipped there changes
# how the whole application runs (config.consider_all_requests_local = true shows every error's backtrace).
_SETTING_RE = re.compile(r"^\s*(?:(?:Rails\.application|app|self|this)\.)?(?:config|configuration|settings|options)(?:\.\w+|\[[^\]]+\])+\s*(?:=|:)(?!=)")
_FLIP_RE = re.compile(r"^(?i:false → true|true → false|off → on|on → off)$")
# An operator (or a time's order) turned to its opposite: the check now passes what it refused (round 17).
_INVERSES = frozenset(f"{a} → {b}" for x, y in (("<", ">"), ("<=", ">="), ("<", ">="), (">", "<="), ("==", "!="), ("===", "!=="),
                                                   ("After", "Before"), ("is", "is not"), ("in", "not in")) for a, b in ((x, y), (y, x)))
# The word and symbol spellings of one operator (Ruby, Python, PHP and Perl write both).
_SPELLED = {"and": "&&", "or": "||", "not": "!"}
_USES_RE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:use|using|import|export\s+\{|export\s+\*|from\s+\S+\s+import|#\s*include|require(?:_relative)?\b)")
_LINK_RE = re.compile(r"\]\(|://")


def edited_meaning(pairs: Sequence[tuple[str, str]], removed: Sequence[str], *, code_only: bool = False) -> str | None:
    """"edits a security line (what changed): the new line" for the first edited pair whose edit changes what a
    security-relevant line means; None when there is none. ``pairs`` are ``condition_reading.pairs``' (old, new);
    ``code_only``: only lines that hold code (a docs file's list items and headings are left out)."""
    if not pairs:
        return None
    renames: dict[tuple[str, str], int] = {}
    for old, new in pairs:
        to, tn = _tokens(old), _tokens(new)
        if len(to) == len(tn):
            for x, y in {(x, y) for x, y in zip(to, tn) if x != y}:
                renames[(x, y)] = renames.get((x, y), 0) + 1
    best: tuple[tuple[int, int], str] | None = None
    for k, (old, new) in enumerate(pairs):
        if (_LOGGING_RE.search(new) and _LOGGING_RE.search(old)) or _PROSE_RE.search(new) or IMPORT_RE.match(new) or _USES_RE.match(new) \
                or "://" in old or "://" in new \
                or (_ERROR_RE.search(new) and _ERROR_RE.search(old)) or (code_only and (not _CODE_MARK_RE.search(new) or _LINK_RE.search(new))):
            continue  # a message's wording, a doc comment's sentence, an import, a link, an error built; a docs line with no code
        if [_SPELLED.get(x, x) for x in _tokens(old)] == [_SPELLED.get(y, y) for y in _tokens(new)]:
            continue  # `and` written `&&` (a style cop's edit): the same test, spelt otherwise (round 23)
        word = security_line(_STRING_RE.sub('""', old)) or security_line(_STRING_RE.sub('""', new))
        setting = word is None and _SETTING_RE.match(old) is not None
        if word is None and not setting:
            continue  # the words that make a line security-relevant are its names, not the data it holds
        edit = _edit(old, new, renames)
        if edit is None:
            continue
        what, j1, j2 = edit
        if setting and not _FLIP_RE.match(what):
            continue  # a framework setting is read for a switch flipped, whatever its name says
        start, end = _span(new, _tokens(new), j1, j2)
        # The pair that reads most like a check: a line that decides, then an operator, literal or negation edited.
        rank = (int(_DECIDES_RE.search(new) is not None) * 2 + int(not what.startswith("adds ") or "&&" in what or " and " in what), -k)
        if best is None or rank > best[0]:
            said = "flips a setting" if setting else "inverts a comparison in a security line" if what in _INVERSES else "edits a security line"
            best = rank, f"{said} ({what}): {window(new, start, max(end, start + 1), _QUOTE)}"
    return best[1] if best else None


# A clause added to (or dropped from) a condition written over several lines: a line that is one operand.
_CLAUSE_RE = re.compile(r"^\s*(?:&&|\|\||and\b|or\b)\s*\S|\s(?:&&|\|\||and|or)\s*$")


def lone_clause(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"adds a clause to a check: …" / "drops a clause from a check: …" for a condition's operand line added or
    removed alone (no line in its place) in a security-relevant condition; None when there is none. Only where it is the
    one condition line the change edits: a condition rewritten over several lines is read by the other readers."""
    new = [line.strip() for line in added if _CLAUSE_RE.search(line) or _COND_START_RE.match(line)]
    gone = [line.strip() for line in removed if _CLAUSE_RE.search(line) or _COND_START_RE.match(line)]
    if len(new) + len(gone) != 1:
        return None
    code = (new or gone)[0]
    if code.startswith(("//", "/*", "* ")):
        return None  # a doc comment's sentence that ends in "and" (round 122: PSR-7's kept "MAY" line), no condition
    if not _CLAUSE_RE.search(code) or _PROSE_RE.search(code) or not _CODE_MARK_RE.search(code) and not re.search(r"[!.]\w", code) \
            or not security_line(_STRING_RE.sub('""', code)) or _alike(code, removed if new else added):
        return None
    if new and code.startswith(("||", "or ")):
        return None  # a refusal's condition that now catches more
    return f"{'adds a clause to a check' if new else 'drops a clause from a check'}: {window(code, 0, len(code), _QUOTE)}"


# A value passed through a step that checks or cleans it, written back to itself: ``path = clean_path_info(path)``.
_SELF_STEP_RE = re.compile(r"^\s*(?:[\w$@]+\.)*(?P<name>[\w$@]+)\s*=(?!=)\s*(?P<call>[\w$.:@>-]*(?i:clean|saniti|escape|normali|valid|verif|"
                           r"canonical|realpath|abspath|normpath|strip_?tags|purif|unsign|check)[\w$]*)\s*\((?P<args>.*)\)")
# A call named for turning a protection off (``validation.insecure_disable_signature_validation()``).
_SWITCH_OFF_CALL_RE = re.compile(
    r"(?<![\w$])(?=[a-z_$])(?:[\w$]*?(?i:insecure|unsafe|dangerous)\w*?(?i:disable|skip|allow|accept|trust|ignore|bypass|off|no_?verif)\w*|"
    r"[\w$]*?(?i:disable|skip|bypass|ignore)_?\w*?(?i:verif|valid|check|auth|csrf|ssl|tls|secur|escap|sign)\w*|"
    r"[\w$]*?(?i:insecure|dangerously)\w*)\s*\(")


_SWITCH_WORDS = ("insecure", "unsafe", "dangerous", "disable", "skip", "bypass", "ignore")


def lone_step(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops a step on a value: …" for a line that passed a value through a check or cleaning step, removed with no line
    in its place; "calls a switch that turns a protection off: …" for such a call added; None when there is none."""
    kept = "\n".join(added)
    for line in removed:
        m = _SELF_STEP_RE.match(line)
        if m and m.group("name") in m.group("args") and squeezed(line.strip()) not in {squeezed(a.strip()) for a in added} \
                and m.group("call") not in kept:
            return f"drops a step on a value ({m.group('call')[-28:]}): {window(line.strip(), 0, len(line.strip()), _QUOTE)}"
    before = "\n".join(removed)
    for line in added:
        lower = line.lower()
        if not any(word in lower for word in _SWITCH_WORDS):
            continue  # the cheap word pre-check: most lines hold none of them
        m = _SWITCH_OFF_CALL_RE.search(line)
        if m and m.group(0) not in before and not _PROSE_RE.search(line) \
                and not re.match(r"^\s*(?:def|fn|func|function|pub\s+fn|raise|throw|class)\b", line):
            return f"calls a switch that turns a protection off: {window(line.strip(), 0, len(line.strip()), _QUOTE)}"
    return None


def _alike(line: str, other: Sequence[str]) -> bool:
    # A clause re-wrapped or edited in place stands, nearly the same, on the other side: that is no clause added.
    return any(SequenceMatcher(None, line, o.strip(), autojunk=False).ratio() >= 0.6 for o in other[:40] if o.strip())


# ----- a dangerous module under a harmless name: ``import pickle as json``, ``const cp = require('child_process')``
_DANGEROUS_MODULES = r"pickle|cPickle|_pickle|dill|marshal|shelve|jsonpickle|subprocess|os|commands|pty|child_process|vm|shelljs|execa|node-serialize"
_ALIAS_RE = re.compile(rf"^\s*import\s+(?P<module>{_DANGEROUS_MODULES})\s+as\s+(?P<alias>\w+)|"
                       rf"^\s*from\s+(?P<pkg>{_DANGEROUS_MODULES})\s+import\s+\w+\s+as\s+(?P<alias2>\w+)|"
                       rf"^\s*(?:const|let|var)\s+(?P<alias3>[\w$]+)\s*=\s*require\(\s*['\"](?P<module3>{_DANGEROUS_MODULES})['\"]\s*\)")


_HARMLESS_NAMES = frozenset({"json", "simplejson", "ujson", "orjson", "yaml", "toml", "csv", "xml", "pathlib", "path", "fs", "util", "utils",
                             "helpers", "config", "logger", "logging", "log", "crypto", "hashlib", "http", "url", "urllib", "querystring",
                             "string", "math", "random", "time", "datetime", "re", "sys", "io", "base64", "copy", "types", "events", "os",
                             "serializer", "codec", "format", "parser", "template", "lodash", "_"})


def hidden_module(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"imports a dangerous module under another name: …" when an added import gives a module that runs code or
    commands (pickle, subprocess, child_process…) a name that is not its own; None when there is none."""
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        m = _ALIAS_RE.match(line)
        if m is None or squeezed(line.strip()) in before:
            continue
        module = m.group("module") or m.group("pkg") or m.group("module3")
        alias = m.group("alias") or m.group("alias2") or m.group("alias3")
        # An abbreviation (sp, cp, pkl) is a habit; the name of a harmless module is a disguise.
        if alias.lower() in _HARMLESS_NAMES and alias.lower() != module.lower():
            return f"imports a dangerous module under another name ({module} as {alias}): {window(line.strip(), 0, 1, _QUOTE)}"
    return None


# ----- a package manager's settings file read as settings: scripts run at install, TLS off, a registry over plain http
PACKAGE_SETTINGS_FILES = frozenset({".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", ".pypirc", ".gemrc", ".bunfig.toml", "bunfig.toml"})
_PACKAGE_SETTING_RE = re.compile(
    r"(?i)^\s*(?:ignore-scripts|ignoreScripts|enableScripts)\s*[=:]\s*(?P<scripts>\S+)|"
    r"^\s*(?:strict-ssl|strictSsl|enableStrictSsl|sslVerify|ssl_verify|verify_ssl)\s*[=:]\s*['\"]?(?P<ssl>false|0|no)\b|"
    r"^\s*(?:@[\w-]+:)?(?:registry|npmRegistryServer|index-url|extra-index-url|index|source)\s*[=:]\s*['\"]?(?P<http>http://(?!localhost|127\.0\.0\.1)\S+)|"
    r"^\s*(?P<trusted>trusted-host)\s*[=:]|^\s*(?P<unsafe>unsafe-perm)\s*[=:]\s*true")


def package_setting(name: str, added: Sequence[str]) -> str | None:
    """"turns a package manager's protection off: …" for an added line of a package manager's settings file that
    lets install scripts run, turns TLS checks off, fetches over plain http or trusts a host; None when there is none."""
    if name.lower() not in PACKAGE_SETTINGS_FILES:
        return None
    for line in added:
        m = _PACKAGE_SETTING_RE.match(line)
        if m is None:
            continue
        scripts = m.group("scripts")
        if scripts is not None and not (
                (scripts.lower() in ("false", "0", "no") and "ignore" in line.lower())
                or (scripts.lower() in ("true", "1", "yes") and "enable" in line.lower())):
            continue
        return f"turns a package manager's protection off: {window(line.strip(), 0, 1, _QUOTE)} ({name})"
    return None
