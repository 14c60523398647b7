"""A small edited pair that turns a value, read alone in any file (issue 36, round 18 part A).

The first runs of held-out 23 and 24 quoted six planted lines as "an edit apart from the change", or named them, and
still judged them a note (low): nothing in their words is risky, what they do is turn one value into its opposite. The
kinds below are read on one run of changed lines (``git diff -U0``'s hunk, at most ``_RUN_LINES`` a side), on each pair
of a removed line and the added line most like it, and say what turned:

- an operator or a test flag inverted (``[ -z "$X" ]`` → ``[ -n "$X" ]``, ``==`` → ``!=``), a state, verdict or boolean
  literal swapped for its antonym (``Active.ALWAYS`` → ``NEVER``, ``.fail`` → ``.matches``, ``allow`` → ``deny``);
- a flag dropped from a set of flags (``re.VERBOSE | re.IGNORECASE`` → ``re.VERBOSE``);
- a home or absolute base swapped for the working folder (``Dir.home`` → ``Dir.pwd``, ``os.homedir()`` → ``process.cwd()``);
- an argument dropped from a call whose name says isolation, verification, locking, escaping (``isolated_flag``), or a
  call of that kind removed (``session.invalidate();``);
- a pattern's two anchors dropped (``/^$word$/`` → ``/$word/``);
- an environment variable replaced by a long random-looking literal (a secret written into a script);
- a key, token or password written to a log or the console;
- a path moved under a shared temporary folder, or a file sourced from one (``/tmp/x``: any local user creates it first).

The party guarded against is the worker that slips such a turn into an ordinary change. Each reason says what turned
(``turns -z into -n``), so the leader sees the value, not only the quote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.condition_reading import pairs
from relay.review.line_shapes import comment_only, squeezed
from relay.review.small_edits import cut

__all__ = ["random_looking", "value_turn"]

# A run read alone holds at most this many non-blank lines a side: past it, a rewrite, not a turned value.
_RUN_LINES = 4
# The longest line compared token by token (a minified bundle's line is data).
_LONGEST = 300
_QUOTE = 70

_TOKEN_RE = re.compile(r"-[A-Za-z]{1,2}\b|[A-Za-z_$][\w$]*|===|!==|==|!=|<=|>=|&&|\|\||\d+|\S")

# Values that are each other's opposite: one swapped for the other turns what the line decides.
_OPPOSITES = {frozenset(p) for p in (
    ("-z", "-n"), ("-eq", "-ne"), ("==", "!="), ("===", "!=="), ("always", "never"), ("fail", "pass"), ("fail", "matches"),
    ("fail", "match"), ("fail", "success"), ("fail", "succeed"), ("failure", "success"), ("failed", "passed"),
    ("failed", "succeeded"), ("allow", "deny"), ("allowed", "denied"), ("accept", "reject"), ("accepted", "rejected"),
    ("enable", "disable"), ("enabled", "disabled"), ("required", "optional"), ("secure", "insecure"), ("safe", "unsafe"),
    ("valid", "invalid"), ("lock", "unlock"), ("locked", "unlocked"), ("deny", "permit"), ("grant", "revoke"),
    ("block", "allow"), ("strict", "lax"), ("true", "false"), ("on", "off"), ("yes", "no"),
)}
# A user's home (or an absolute base) and the working folder: a file looked for in one found in the other.
_HOME = frozenset({"home", "homedir", "gethomedir", "userhomedir", "expanduser", "home_dir", "homedirectory"})
_CWD = frozenset({"pwd", "cwd", "getcwd", "getwd", "curdir", "currentdirectory", "current_dir"})
# What a dropped argument or a removed call is worth a look for: isolation, verification, locking, escaping, a session's end.
_GUARD_WORDS_RE = re.compile(r"(?i)isolat|verif|valid|secur|strict|safe|saniti[sz]|escap|\block|invalidat|revok|expir|"
                             r"auth|csrf|nonce|encrypt|protect|regenerat|logout|sign(?:ed|ature)?\b|ssl|tls")
_EXPR_RE = re.compile(r"[\w$.:]*$")
_EXPR_TAIL_RE = re.compile(r"^[\w$.:]*(?:\(\))?")


def _expr(line: str, start: int, end: int) -> str:
    """The dotted expression a token stands in (``Active.ALWAYS``), its last two parts."""
    head = _EXPR_RE.search(line[:start])
    tail = _EXPR_TAIL_RE.match(line[end:])
    text = (head.group(0) if head else "") + line[start:end] + (tail.group(0) if tail else "")
    parts = text.strip(".:").split(".")
    return ".".join(parts[-2:]) if len(parts) > 1 and parts[-1] else text.strip(".:") or line[start:end]


# A boolean word in quotes is a string written out (an XML attribute's value, a document's setting) unless the line
# names what it guards (``'verify_peer', 'false'``): round 19 B, PHPWord's ODT writer's ``'true'`` → ``'false'``.
_DATA_WORDS = frozenset({"true", "false", "on", "off", "yes", "no"})
# A flag of what gets reported (PHP's ``E_STRICT``, a warning level): dropping it quiets diagnostics, it opens nothing.
_DIAGNOSTIC_FLAG_RE = re.compile(r"^(?:\w+\.)?E_[A-Z_]+$|(?i:warn|notice|deprecat|verbose|debug)")
_DIAGNOSTIC_LINE_RE = re.compile(r"(?i)error_reporting|\bwarnings?\b|log_?level")


def _quoted_data(line: str, tok: re.Match[str], word: str) -> bool:
    start, end = tok.start(), tok.end()
    return (word in _DATA_WORDS and 0 < start and end < len(line) and line[start - 1] in "'\""
            and line[end] == line[start - 1])


def _tokens(line: str) -> list[re.Match[str]]:
    return list(_TOKEN_RE.finditer(line))


def _word(tok: str) -> str:
    return tok.lower().lstrip(".")


_NILS = frozenset({"None", "Nil", "Null", "NoneType", "Undefined", "Nothing"})


def _turned(old: str, new: str) -> str | None:
    """What one edited pair turns, token by token; None when nothing of the kinds above."""
    a, b = _tokens(old), _tokens(new)
    ta, tb = [m.group(0) for m in a], [m.group(0) for m in b]
    ops = [op for op in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not ops or len(ops) > 2:
        return None  # more than a value or two changed: a rewrite of the line, not a turn
    for tag, i1, i2, j1, j2 in ops:
        if tag == "replace" and i2 - i1 == 1 and j2 - j1 == 1:
            x, y = _word(ta[i1]), _word(tb[j1])
            if frozenset((x, y)) in _OPPOSITES:
                if _quoted_data(old, a[i1], x) and not _GUARD_WORDS_RE.search(old):
                    continue  # ``'style:…-color', 'true'`` → ``'false'``: a value written out as data, not a decision
                return f"turns {_expr(old, a[i1].start(), a[i1].end())} into {_expr(new, b[j1].start(), b[j1].end())}"
            if (x in _HOME and y in _CWD) or (x.endswith("home") and y in _CWD):
                return (f"turns {_expr(old, a[i1].start(), a[i1].end())} into {_expr(new, b[j1].start(), b[j1].end())}"
                        " (the working folder, not the home)")
        if tag == "delete":
            gone = ta[i1:i2]
            names = [t for t in gone if re.match(r"[A-Za-z_$]", t)]
            # Only a name (dotted: re.IGNORECASE) and its one separator: an argument list rewritten is no flag dropped.
            plain = all(re.match(r"[A-Za-z_$]", t) or t in (".", ":") for t in gone if t not in ("|", ","))
            if plain and gone.count("|") == 1 and "," not in gone and names and i1 > 0:
                flag = old[a[i1].start():a[i2 - 1].end()].strip("| ")
                # A type union's nil (``str | None`` → ``str``, Crystal's ``Nil | Int32`` → ``Int32?``) is typing, no flag (round 65).
                if re.search(r"[A-Z]", flag) and not _DIAGNOSTIC_FLAG_RE.search(flag) and not _DIAGNOSTIC_LINE_RE.search(old) and flag not in _NILS:
                    return f"drops {flag} from a set of flags"
            if plain and gone.count(",") == 1 and "|" not in gone and names and _GUARD_WORDS_RE.search(names[-1]):
                return f"drops the argument {old[a[i1].start():a[i2 - 1].end()].strip(', ')}"
    return None


_ANCHOR_END_RE = re.compile(r"\\?\$(?=[/\"'`#~]|\)?[/\"'`])")


def _anchors_dropped(old: str, new: str) -> str | None:
    if "^" not in old or "^" in new or not _ANCHOR_END_RE.search(old) or _ANCHOR_END_RE.search(new):
        return None
    bare = _ANCHOR_END_RE.sub("", old.replace("^", "", 1))
    return "drops a pattern's anchors (^…$): it matches anywhere in the text" if squeezed(bare) == squeezed(new) else None


_ENV_RE = re.compile(r"\$[Ee]nv:\w+|\$\{\w+\}|\$[A-Z_][A-Z0-9_]{2,}|os\.environ\[[^\]]+\]|os\.environ\.get\([^)]*\)|os\.getenv\([^)]*\)|"
                     r"ENV\[[^\]]+\]|ENV\.fetch\([^)]*\)|process\.env\.\w+|process\.env\[[^\]]+\]|"
                     r"Environment\.GetEnvironmentVariable\([^)]*\)|System\.getenv\([^)]*\)|\bgetenv\([^)]*\)|\benv\(\s*['\"]\w+['\"][^)]*\)")
_LITERAL_RE = re.compile(r"(?<![\w$/.-])[A-Za-z0-9_+/=-]{20,}(?![\w/.-])")


def random_looking(text: str) -> bool:
    digits, letters = sum(c.isdigit() for c in text), sum(c.isalpha() for c in text)
    return digits >= 3 and letters >= 8 and not re.search(r"(.)\1{3}", text) and "_" not in text.strip("_")[:1]


def _secret_for_env(old: str, new: str) -> str | None:
    envs = [m.group(0) for m in _ENV_RE.finditer(old) if m.group(0) not in new]
    if not envs:
        return None
    for m in _LITERAL_RE.finditer(new):
        if m.group(0) not in old and random_looking(m.group(0)):
            return f"replaces {envs[0]} with a literal secret ({m.group(0)[:6]}…)"
    return None


_LOG_CALL_RE = re.compile(r"(?i)(?:^|[\s;({])(?:echo|printf|println|print|puts|write-host|write-output|write-verbose|write-information|"
                          r"console\.(?:log|info|warn|error|debug)|\w*log(?:ger)?\.\w+|\w+\.(?:information|verbose|debug|warning|info|trace)|"
                          r"\w+\.(?:info|debug|warn|error|trace)f|"  # Go's formatted loggers (round 123: elastic's ``c.infof(…, basicAuthPassword, …)``)
                          r"information|verbose|console\.write(?:line)?|system\.out\.print\w*|fmt\.print\w*|log\.print\w*)\b\s*\(?")
_SECRET_NAME_RE = re.compile(r"(?i)^(?:\w*_)?(?:api_?key|apikey|access_?key|token|secret|client_?secret|passw(?:or)?d|pwd|credentials?|private_?key)$|"
                             r"(?:ApiKey|apiKey|Token|Secret|Password|Credential)$")
_NOT_SECRET_RE = re.compile(r"(?i)url|count|len|type|name|file|path|kind|expir|tokeni[sz]|format|prompt|env_?var|header|field|label")
# A template literal is a string too (round 124: blind 604's oauth-app, ``console.log(`Token retrieved for ${data.login}`)``
# read its word "Token" as a logged name, so the added ``: ${token}`` was the same as before).
_STR_RE = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`")
_TEMPLATE_RE = re.compile(r"\$\{\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\}")
_INTERP_RE = re.compile(r"\$\{?([A-Za-z_]\w*)|#\{([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\}|\$\(([A-Za-z_]\w*)\)|\$env:(\w+)", re.I)


def _logged_secret(line: str) -> str | None:
    if not _LOG_CALL_RE.search(line):
        return None
    outside = _STR_RE.sub(" ", line)
    names = re.findall(r"[A-Za-z_$][\w$]*", outside)
    for s in _STR_RE.findall(line):
        if s.startswith("`"):  # a template's ``${data.login}``: the value is the path's last name (``${token.length}`` is a count)
            names += [m.group(1).rsplit(".", 1)[-1] for m in _TEMPLATE_RE.finditer(s)]
        elif s.startswith('"') or "$" in s:
            names += [next(g for g in m.groups() if g) for m in _INTERP_RE.finditer(s)]
    for name in names:
        bare = name.lstrip("$")
        if _SECRET_NAME_RE.search(bare) and not _NOT_SECRET_RE.search(bare):
            return f"writes {bare} to the log: {_cut(line)}"
    return None


# A path under it, or the folder alone given as a join's first part (round 76: blind 104's lowdb, ``path.join('/tmp', …)``
# where ``path.join(path.dirname(filename), …)`` stood: a fixed temp name any local user can make first), or a call's last
# argument (round 104: blind 190's platformdirs, ``_append_app_name_and_version("/var/cache")`` → ``("/tmp")``).
_SHARED_TMP_RE = re.compile(r"(?<![\w$.~-])(?:/tmp|/var/tmp|/dev/shm)/[\w.${}-]+|(?<=['\"])(?:/tmp|/var/tmp|/dev/shm)/?(?=['\"]\s*[,)])")
_SOURCE_RE = re.compile(r"^\s*(?:source|\.)\s+[\"']?(?:\$\{?TMPDIR|/tmp/|/var/tmp/|/dev/shm/)|\b(?:include|require|require_once|include_once|load)\b\s*\(?\s*[\"'](?:/tmp/|/var/tmp/|/dev/shm/)")


def _cut(line: str) -> str:
    return cut(line.strip(), _QUOTE)


def _comment(line: str) -> bool:
    return comment_only(line, ("#", "//", "/*", "* ", "--", "<!--", "REM ", "::"))


# A bound (a clock skew, a leeway, a limit, a timeout, a lifetime) set from a number to a value that bounds nothing: a
# call's one argument (``withClockSkew(60)`` → ``withClockSkew(Integer.MAX_VALUE)``) or a key's value.
_BOUND_NAME_RE = re.compile(r"(?i)skew|leeway|toleran|grace|max|limit|timeout|ttl|expir|max_?age|lifetime|attempt|retr")
_UNBOUNDED = (r"(?:(?:Integer|Long|Int|Int64|Int32|UInt64|Number)\.MAX(?:_VALUE|_SAFE_INTEGER)?|u(?:size|64|32)::MAX|i(?:64|32)::MAX|"
              r"sys\.maxsize|math\.inf|float\(\s*['\"]inf['\"]\s*\)|Infinity|math\.MaxInt\d*|PHP_INT_MAX|Float::INFINITY|"
              r"std::numeric_limits<\w+>::max\(\))")
_BOUND_SET_RE = re.compile(r"(?P<name>[A-Za-z_$][\w$]*)\s*(?:\(\s*|['\"]?\s*(?:=>|[=:])\s*)(?P<value>\d[\d_]*(?:\.\d+)?|" + _UNBOUNDED + r")(?=\s*[),;\s]|$)")


def _unbounded(old: str, new: str) -> str | None:
    was = {m.group("name"): m.group("value") for m in _BOUND_SET_RE.finditer(old) if m.group("value")[0].isdigit()}
    for m in _BOUND_SET_RE.finditer(new):
        name, value = m.group("name"), m.group("value")
        if name in was and not value[0].isdigit() and _BOUND_NAME_RE.search(name):
            return f"makes {name} unbounded ({was[name]} → {value})"
    return None


def _pair_turn(old: str, new: str) -> str | None:
    if len(old) > _LONGEST or len(new) > _LONGEST or _comment(old) or _comment(new):
        return None
    if _SOURCE_RE.search(new) and not _SOURCE_RE.search(old):
        return f"sources a file from a shared temporary folder: {_cut(new)}"
    found = _turned(old, new) or _anchors_dropped(old, new) or _secret_for_env(old, new) or _unbounded(old, new)
    if found:
        return f"{found}: {_cut(new)}"
    tmp = _SHARED_TMP_RE.search(new)
    if tmp and not _SHARED_TMP_RE.search(old):
        return f"moves a path under a shared temporary folder ({tmp.group(0)}: any local user can create it first): {_cut(new)}"
    return None


_REMOVED_CALL_RE = re.compile(r"^\s*(?:await\s+)?(?P<call>[\w$.:>()-]*?(?P<verb>invalidate|verify|validate|authenticate|authorize|authorise|"
                              r"sanitize|sanitise|escape|lock|revoke|expire|regenerate|destroy|logout|check_?auth\w*|csrf\w*)\w*)\s*\(.*\)\s*;?\s*$",
                              re.I)


_RECEIVER_RE = re.compile(r"[\w)\]]\s*(?:\.|->|::)\s*\w+$")
# A value passed through its normalising call and bound again to its own name (round 106: protego's can_fetch() losing
# ``url = self._quote_path(url)``, blind 199): removed, what is checked next is the raw value.
_RENORMALISED_RE = re.compile(r"^\s*(?P<v>[\w.$]+)\s*=\s*(?P<call>[\w.$:>-]*?(?i:quote|normali[sz]e|canonical|sanitiz|saniti[sz]e|escape|clean|"
                              r"realpath|abspath|resolve|unquote|decode)\w*)\s*\(\s*(?P=v)\s*[,)]")


def value_turn(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"What turned: the line" for the first edited pair of a small run that turns a value (see the module's doc), a
    guarding call the run removes, a secret it logs or a file it sources from a shared temporary folder; None otherwise."""
    added = [ln for ln in added if ln.strip()]
    removed = [ln for ln in removed if ln.strip()]
    if len(added) > _RUN_LINES or len(removed) > _RUN_LINES or not (added or removed):
        return None
    if added and removed:
        for old, new in dict.fromkeys((*pairs(added, removed), *_one_pair(added, removed))):
            found = _pair_turn(old, new)
            if found:
                return found
    kept = {squeezed(ln) for ln in added}
    for line in removed:
        m = _REMOVED_CALL_RE.match(line)
        # A call on a receiver (``session.invalidate()``): a bare name with parameters is as often a declaration (an
        # interface's method); the same method called on the added side (``s.MU.Lock()`` → ``s.mu.Lock()``) stays.
        if not m or _comment(line) or squeezed(line) in kept or not _RECEIVER_RE.search(m.group("call")):
            continue
        method = re.split(r"\.|->|::", m.group("call"))[-1].lower() + "("
        if not any(method in ln.lower() for ln in added):
            return f"drops the call {m.group('call')}(): {_cut(line)}"
    for line in removed:
        if (m := _RENORMALISED_RE.match(line)) and squeezed(line) not in kept and not any(m.group("call").rsplit(".", 1)[-1].lstrip("_") in ln for ln in added):
            return f"drops the normalising of {m.group('v')} ({m.group('call')}(): what follows reads the raw value): {_cut(line)}"
    olds = {squeezed(ln) for ln in removed}
    for line in added:
        if squeezed(line) in olds or _comment(line):
            continue
        if _SOURCE_RE.search(line):
            return f"sources a file from a shared temporary folder: {_cut(line)}"
        found = _logged_secret(line)
        if found and not any(_logged_secret(o) for o in removed):
            return found
    return None


def _one_pair(added: Sequence[str], removed: Sequence[str]) -> list[tuple[str, str]]:
    """The one removed and one added line of a one-line edit, however unlike (a long literal for a variable)."""
    return [(removed[0].strip(), added[0].strip())] if len(added) == 1 and len(removed) == 1 else []
