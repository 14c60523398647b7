"""What changed source lines say about security, read from the whole hunks ``relay.observe.changes`` keeps.

For ``relay.review.risk``'s rules: a narrow set of security-relevant tokens in changed lines (and
in comments that name an advisory or an attack), an edited regular expression, a length check
added or removed, an input check changed; and the words of a security test's name or a
changelog's security note, which ``relay.review.file_kinds`` reads. None of them knows a file's
kind: the rules decide which files each applies to. Each rule's rate on ordinary history is
measured by ``bench/bench_risk_corpus.py --token-rate``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from relay.review.line_shapes import FORMATTER_SHARE, IMPORT_RE, LINE_CHARS, Screen, comment_only, formatter_share, squeezed, window
from relay.review.platform_lines import silencing_comment

__all__ = [
    "ADVISORY_RE",
    "SCREENS",
    "SECURITY_TOKENS",
    "advisory_words",
    "attack_test_name",
    "security_note",
    "task_security_words",
    "is_advisory_comment",
    "security_token",
    "changed_security_token",
    "edited_pattern",
    "changed_length_guard",
    "added_input_check",
]

# A fix naming what it fixes: advisory ids, the attack, the complexity it removes. Read in code
# and in comments (relay.review.file_kinds keeps a comment line of source or tests only when
# it matches), so a comment-only change naming a CVE stays mechanical (see ``mechanical_verdict``).
_ADVISORY_IDS = r"\b(?i:CVE-\d{4}-\d{3,}|GHSA(?:-[0-9a-z]{4}){3}|CWE-\d{2,4}|RUSTSEC-\d{4}-\d{4}|PYSEC-\d{4}-\d+)\b"
_ADVISORY_ID_WORDS = ("cve", "ghsa", "cwe-", "rustsec-", "pysec-")
ADVISORY_RE = re.compile(
    _ADVISORY_IDS + r"|\b(?:Re)?DoS\b|"
    r"(?i:arbitrary code|code execution|execute (?:arbitrary )?code|use[- ]after[- ]free|double[- ]free|"
    r"(?:heap|stack|buffer)[- ](?:buffer[- ])?overflow|out[- ]of[- ]bounds|infinite loop|billion laughs|zip bomb)|"
    r"(?i:denial[- ]of[- ]service|\bquadratic|\bO\(\s*n\s*(?:\^|\*\*)\s*[2-9]\s*\)|\bO\(n²\)|exponential[- ](?:time|blow)|"
    r"catastrophic backtracking|\b(?:cpu|memory|resource|stack) exhaustion|\bvulnerab\w*|\bexploit\w*|\battacker\w*|"
    r"malicious|untrusted|\bxss\b|\binjection\b|path traversal|zip[- ]?slip|prototype pollution)"
)
_ADVISORY_WORDS = (
    "cve-", "ghsa", "cwe-", "dos", "denial", "quadratic", "o(", "exponential", "backtracking", "exhaustion", "vulnerab",
    "exploit", "attacker", "malicious", "untrusted", "xss", "injection", "traversal", "slip", "pollution", "rustsec-",
    "pysec-", "arbitrary code", "code execution", "execute", "after-free", "after free", "double", "overflow", "bounds",
    "infinite loop", "billion laughs", "zip bomb",
)
_COMMENT_STARTS = ("#", "//", "/*", "*", "--", "<!--", ";")


def _screened_search(line: str, screen: Screen) -> str | None:
    # The words first: most lines hold none of them, and the regex costs more.
    found = screen.search(line)
    return found.group(0) if found else None


_ADVISORY = Screen(_ADVISORY_WORDS, ADVISORY_RE)


def advisory_words(line: str) -> str | None:
    """The advisory id or attack word a changed line names, or None."""
    return _screened_search(line, _ADVISORY)


# A test case named for what a security fix guards against: the overflow, the bound, the
# hostile input ("fn test_insert_many_overflow", it("rejects too_deep nesting")). Only the
# name a case is declared with is read, never its body ("opts.maxSize" is everywhere).
_CASE_NAME_RE = re.compile(
    r"^\s*(?:pub\s+)?(?:async\s+)?(?:fn|def|func|function)\s+(\w+)|"
    r"^\s*(?:it|test|describe|specify|context)\s*\(\s*['\"`]([^'\"`]*)|\bt\.Run\s*\(\s*\"([^\"]*)"
)
_ATTACK_NAME_RE = re.compile(
    r"(?i)overflow|underflow|out_?of_?bounds|redos|traversal|injection|zip_?bomb|malicious|crafted|untrusted|hostile|pathological|"
    r"exhaust|too[_ ]?(?:large|long|deep|many|big)|max_?(?:depth|size|len)|deeply[_ ]?nested|\bdos\b|_dos\b"
)
_CASE_NAME = Screen(("fn ", "def ", "func ", "function ", "it(", "it (", "test(", "describe(", "specify(", "context(", "t.run("), _CASE_NAME_RE)


def attack_test_name(line: str) -> str | None:
    """The attack or bound a test case's name says it covers, or None."""
    declared = _CASE_NAME.search(line)
    if not declared:
        return None
    name = next(group for group in declared.groups() if group is not None)
    found = _ATTACK_NAME_RE.search(name)
    return found.group(0) if found else None


# What a changelog or news entry says when the change fixes a vulnerability: an advisory id, or
# the words themselves. Stricter than ``advisory_words`` (prose says "untrusted" and "injection"
# about features too).
_SECURITY_NOTE_RE = re.compile(
    r"\b(?i:CVE-\d{4}-\d{3,}|GHSA(?:-[0-9a-z]{4}){3}|RUSTSEC-\d{4}-\d{4}|PYSEC-\d{4}-\d+)\b|"
    r"(?i:\bsecurity (?:fix(?:es)?|issues?|vulnerabilit(?:y|ies)|release|advisory)\b|\bvulnerabilit(?:y|ies)\b|\bredos\b|denial[- ]of[- ]service)|"
    # Keep a Changelog's own section for fixed vulnerabilities ("### Security").
    r"^\s*#{2,4}\s*Security\s*$"
)
_SECURITY_NOTE = Screen(("cve-", "ghsa", "rustsec-", "pysec-", "security", "vulnerab", "redos", "denial"), _SECURITY_NOTE_RE)


def security_note(line: str) -> str | None:
    """The advisory id, or "security fix" in the change's own notes (a changelog line), or None."""
    return _screened_search(line, _SECURITY_NOTE)


# An advisory id, read first wherever it stands in a task: the most precise name a reason can carry.
_ADVISORY_ID_RE = re.compile(_ADVISORY_IDS)
# What a leader's task says when it asks for a security fix. Tasks are prose, so this is stricter
# than ``advisory_words`` where prose misleads ("dependency injection", "make the sort not quadratic",
# "fix the infinite loop in the retry") and wider where a task names the class of bug ("XXE", "SSRF",
# "sandbox escape", "integer overflow"). Its rate on commit messages read as tasks is measured by
# ``bench/bench_risk_corpus.py --task-rate``.
_TASK_SECURITY_RE = re.compile(
    r"\b(?:Re)?DoS\b|\b(?i:redos)\b|\bXXE\b|\bSSRF\b|\bRCE\b|\bStackOverflow(?:Error|Exception)\b|"
    r"(?i:\bsecurity (?:fix(?:es)?|issues?|bugs?|holes?|flaws?|problems?|patch(?:es)?|vulnerabilit(?:y|ies)|release|advisory)\b|"
    r"\bvulnerab\w*|\bexploit\w*|\battacker\w*|\bmalicious|\buntrusted|\bhostile input|"
    r"use[- ]after[- ]free|double[- ]free|\b(?:heap|stack|buffer|integer)[- ](?:buffer[- ])?(?:overflow|underflow|over-?read)|"
    r"out[- ]of[- ]bounds|denial[- ]of[- ]service|\b(?:path|directory) traversal|zip[- ]?slip|prototype pollution|\bxss\b|"
    r"cross[- ]site scripting|\b(?:sql|command|code|shell|template|header|xml|ldap|html|script|os|crlf|argument|expression|xpath) injection|"
    r"arbitrary (?:code|commands?|files?|methods?|method invocation|objects?|class(?:es)?)|(?:^|(?<=[:;,(]\s)|(?<=[:;,(]))security:\s|code execution|billion laughs|zip bomb|(?:cpu|memory|resource|stack) exhaustion|"
    r"catastrophic backtracking|sandbox (?:escape|bypass)|(?:auth(?:entication|orization)?|signature|validation) bypass|privilege escalation|"
    r"\bcrafted\b|uncontrolled (?:resource consumption|recursion|memory allocation)|unbounded recursion|"
    r"out[- ]of[- ]buffer|insecure (?:de)?serialization|memory (?:corruption|errors?|safety (?:bugs?|issues?))|"
    r"unsafe (?:urls?|uris?|links?|schemes?|html)\b|\bjavascript: (?:urls?|links?|schemes?|ones)|"
    r"invalid memory (?:access|reads?|writes?)|uninitiali[sz]ed memory|null[- ]pointer dereference|"
    r"inefficient regular expression complexity)|"
    # "a number of CVEs", "the CVE reported by …": the bare word, in capitals.
    r"\bCVEs?\b"
)
_TASK_SECURITY_WORDS = _ADVISORY_ID_WORDS + (
    "dos", "xxe", "ssrf", "security", "vulnerab", "exploit", "attacker",
    "malicious", "untrusted", "hostile", "after-free", "after free", "double", "flow", "over-read", "overread", "bounds",
    "denial", "traversal", "slip", "pollution", "xss", "scripting", "injection", "arbitrary", "execution",
    "billion laughs", "zip bomb", "exhaustion", "backtracking", "sandbox", "bypass", "escalation", "rce", "crafted",
    "uncontrolled", "unbounded", "of-buffer", "ofbuffer", "insecure", "memory", "unsafe", "javascript:",
    "pointer", "inefficient regular",
)
_ADVISORY_ID = Screen(_ADVISORY_ID_WORDS, _ADVISORY_ID_RE)
_TASK_SECURITY = Screen(_TASK_SECURITY_WORDS, _TASK_SECURITY_RE)


def task_security_words(text: str) -> str | None:
    """The advisory id, attack or "security fix" a leader's task names, or None."""
    return _screened_search(text, _ADVISORY_ID) or _screened_search(text, _TASK_SECURITY)


def is_advisory_comment(line: str) -> bool:
    """A comment line kept for the rules only because it names an advisory or attack."""
    text = line.lstrip()
    return (comment_only(text, _COMMENT_STARTS) and not text.startswith("#[") and advisory_words(text) is not None
            and not silencing_comment(text))  # a security finding silenced is code to read, not a note


# Narrow on purpose (measured by bench/bench_risk_corpus.py --token-rate): names of the
# checks themselves, not the nouns around them ("path", "size", "user" are everywhere).
SECURITY_TOKENS: tuple[tuple[str, re.Pattern[str] | None], ...] = (
    ("headers/cookies", re.compile(r"\b(?:authorization|proxy-authorization|set-cookie|cookies?|www-authenticate)\b", re.I)),
    # Credentials carried by a URL or an object: what a leak fix stops copying ("@password", userinfo).
    ("credentials", re.compile(r"userinfo|\bpassw(?:or)?d\b|@password\b|\bcredentials?\b", re.I)),
    ("redirects", re.compile(r"redirect", re.I)),
    ("TLS verification", re.compile(
        r"verify_mode|check_hostname|cert_none|cert_required|insecure_?skip_?verify|reject_?unauthorized|"
        r"verify_?(?:ssl|peer|host(?:name)?)\b|server_hostname|match_hostname|ssl_?context", re.I)),
    # Distinctive names match inside identifiers too (hasOpenat2, is_symlink, _canonicalize).
    ("paths/symlinks", re.compile(
        r"symlink|\b(?:filepath|path)\.Clean\s*\(|readlink|lstat\b|realpath|abspath|normpath|canonicali[sz]e(?!_(?:name|version))|\bgetCanonical(?:Path|File)\b|\btoRealPath\b|\bisabs\b|is_?absolute|linkpath|hardlink|"
        r"nofollow|openat2?\b|resolve_(?:beneath|in_root|no_symlinks)|parentdir|strip_?absolute|path_?reservation|zip_?slip|"
        r"\b(?:os\.path|posixpath|filepath|path(?:\.posix|\.win32)?)\.(?:join|resolve|normalize|relative|isAbsolute)\s*\(|"
        r"['\"]\.\.[/\\'\"]|['\"](?:Link|SymbolicLink)['\"]", re.I)),
    ("escaping/execution", re.compile(
        r"escape|sanitiz|\bshlex\b|quote_?plus|find_python_|__reduce\w*__|__setstate__|__import__|import_module|"
        # Not a bare "unsafe": Go's unsafe.Pointer and Rust's unsafe blocks fill syscall code.
        r"unsafe_?load|unsafe\w*\s*=|Unsafe(?:Loader|Constructor)|\bpickle\b|\bmarshal\b|os\.system|\bpopen\b|child_process|execSync|\bshell\s*=\s*True\b|\beval\s*\(|"
        r"\.replace\(\s*(?:r?['\"](?:\\\\|\\?['\"]|[<>&])['\"]|/\\\\)|"
        # A replacement that puts a backslash before what it matched: escaping by hand.
        r"\.(?:replace|replaceAll|g?sub)\b.*['\"]\\\\[$\\]?[1&0]['\"]|"
        # Starting another program: what a command-injection fix changes.
        r"\bsubprocess\.(?:run|call|check_output|check_call)\s*\(|\b(?:execFile|spawn)(?:Sync)?\s*\(|\bexec\.Command(?:Context)?\s*\(|"
        r"\bRuntime\.getRuntime\(\)\.exec\b|\bProcessBuilder\b|\bCommand::new\s*\(|"
        # Control characters stripped or refused (a URL or header a browser would read otherwise).
        r"control_?char|\\\\?x00-\\\\?x1f|\\\\?u0000-\\\\?u001f", re.I)),
    ("limits/overflow", re.compile(
        r"max_?(?:size|length|len|depth|bytes|entries|files|recursion)|recursion|overflow|underflow|"
        r"checked_(?:add|sub|mul|pow)|saturating_|too[ _](?:large|long|big|deep|many)\b|"
        # A bound on a size: a size-like name compared with a limit, or refused when negative.
        r"\b\w*(?:size|length|len|count|depth)\w*['\"]?(?:\([^()]*\))?\s*(?:>=?|<=?)\s*(?:\w*(?:max|limit)\w*|[A-Z][A-Z0-9_]*(?:MAX|LIMIT)\w*)|"
        r"\b\w*(?:size|length|len|offset)\b\W[^;]{0,40}?(?:[^<]<\s*0\b(?!\.)|>=\s*0\b(?!\.))|"
        # A declared size refused below one ("if (blockSize < 1) throw"), not an emptiness test of len().
        r"\b\w*(?:size|length)\s*(?:<\s*1|<=\s*0)\b(?!\.)|"
        # The wrap-around test an integer-overflow fix adds ("offset > offset + len", "a + b < a").
        r"\b(\w+)\s*>\s*\1\s*\+\s*\w|\b(\w+)\s*\+\s*\w+\s*<\s*\2\b|"
        # A value refused above a named limit ("nelements > CDF_ELEMENT_LIMIT"; not a loop's "i < MAX_N").
        r"\b\w+\s*>=?\s*(?-i:[A-Z][A-Z0-9_]*(?:MAX|LIMIT)[A-Z0-9_]*)\b|"
        # A value compared with its type's largest value: the overflow check itself
        # ("nentry > SIZE_MAX / sizeof(*e)", "n > math.MaxInt32", "len > u32::MAX").
        r"[<>]=?\s*(?:\(\s*\w+\s*\)\s*)?\(?\s*(?:(?:SIZE|SSIZE|SIZE_T|INT|UINT|LONG|ULONG|LLONG|ULLONG|SHRT|USHRT|U?INT(?:8|16|32|64))_MAX\b|"
        r"math\.Max(?:Int|Uint)\d*\b|(?:Integer|Long|Short)\.MAX_VALUE\b|\b[iu](?:8|16|32|64|size)::MAX\b)|"
        # A declared length checked against the buffer that holds it (a DER/ASN.1 or header parser).
        r"\b\w*(?:size|length)\s*>=?\s*len\s*\(|\blen\s*\([^()]*\)\s*[<>]=?\s*\w*(?:size|length)\b|"
        # An index checked against the end of what it indexes, in a branch (not a loop header):
        # the guard an out-of-bounds read is fixed with ("if i >= len(json)", "if (pos > buf.length)").
        r"^\s*(?:\}\s*)?(?:else\s+)?if\b[^;{]*?\b\w+\s*>=?\s*(?:len\s*\(\s*[\w.]+\s*\)|[\w.]+\.len\(\)|[\w.]+\.length\b)", re.I)),
    ("permissions/auth", re.compile(
        # Not a licence's "prior written permission" (a header line inside a block comment).
        r"chmod|\bchown|umask|setuid|setgid|(?<!written )\bpermissions?\b|authenticat|authoriz|privileg|compare_digest|"
        r"constant_?time|timing_?safe_?equal|\bhmac\b|min_?key_?length|is_?pem|is_?ssh_?key|verify_?signature|"
        # A signature checked (or its failure reported): what a token or package verifier's fix moves.
        r"signature_?invalid|invalid_?signature|bad_?signature|\.verify\s*\(|"
        r"\bO_(?:CREAT|EXCL|NOFOLLOW|TRUNC)\b|\bmode\s*=\s*0o?[0-7]{3}\b", re.I)),
    ("crypto state", re.compile(r"seq_?no\b|sequence_?number|\bnonce|strict_?kex", re.I)),
    # defineProperty / a null-prototype object: how a parser stops "__proto__" keys from polluting. A method defined on a
    # constructor's prototype (`Store.prototype.read = function (…)`) is how old-style classes are written (round 24).
    ("prototype pollution", re.compile(r"__proto__|\bprototype\b(?!\.[\w$]+\s*=\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*=>))|['\"]constructor['\"]|\bdefineProperty\s*\(|\bcreate\(\s*null\s*\)")),
    ("keys/certificates", re.compile(r"-----BEGIN|\bx509\b|private_?key|public_?key", re.I)),
    # The classic sinks of static analysers, by name: an XML parser's entity and DTD switches
    # (XXE), deserializers that build any object, HTML written unescaped, SQL built from strings.
    ("XML entities", re.compile(
        r"resolve_entities|load_dtd|\bno_network\b|huge_tree|external[-_ ]?(?:general[-_ ]|parameter[-_ ])?entities|"
        r"disallow-doctype-decl|FEATURE_SECURE_PROCESSING|SUPPORT_DTD|SUPPORTING_EXTERNAL_ENTITIES|setExpandEntityReferences|"
        r"ACCESS_EXTERNAL_(?:DTD|SCHEMA)|<!ENTITY|\bdefusedxml\b|\bLIBXML_NOENT\b|\b(?:expand|process)Entities\b", re.I)),
    ("deserialization", re.compile(
        r"\bObjectInputStream\b|\breadObject\s*\(|\bunserialize\s*\(|\bYAML\.(?:load|unsafe_load)\b|\byaml\.load\s*\(|"
        r"\bjsonpickle\b|__wakeup|\bBinaryFormatter\b|TypeNameHandling|(?:enable|activate)DefaultTyping|\bMarshal\.load\b")),
    ("HTML injection", re.compile(
        r"\b(?:inner|outer)HTML\b|dangerouslySetInnerHTML|insertAdjacentHTML|\bdocument\.write\s*\(|\bmark_safe\s*\(|"
        r"\bMarkup\s*\(|\bhtml_safe\b|\|\s*safe\b|\bv-html\b|\bautoescape\b|\btemplate\.(?:HTML|JS|URL)\s*\(")),
    ("SQL built from strings", re.compile(
        r"""(?i:f|\$)?(['"`])(?:SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s(?:(?!\1).)*(?:\{|\1\s*(?:\+|%\s*[\w(]|\.format\s*\())""")),
    # Where random values come from (weak randomness, CWE-330): the generators themselves, not
    # a seeded shuffle in data code ("np.random.shuffle" is left out by the look-behind).
    ("randomness", re.compile(
        r"\b(?:math|crypto)/rand\b|\brand\.(?:Intn|Int63n?|Int31n?|Read|Seed|Perm|Shuffle)\s*\(|\bMath\.random\s*\(|"
        r"(?<![\w.])random\.(?:random|randint|randrange|choice|choices|getrandbits|SystemRandom)\s*\(|\bsecrets\.\w+|"
        r"\burandom\b|\bgetrandom\b|\bSecureRandom\b|\brandomBytes\b|\bgetRandomValues\b|\b(?:thread_rng|OsRng)\b|"
        r"crypto_?random\w*|random_?(?:string|bytes|token)\w*", re.I)),
    # The operations that write or read memory unchecked (Rust's raw pointers, C's string and
    # block copies); not the word "unsafe", which syscall wrappers are full of.
    ("memory safety", re.compile(
        r"\bptr::(?:copy|copy_nonoverlapping|write|read|write_bytes)\b|\.set_len\s*\(|\bfrom_raw_parts(?:_mut)?\b|"
        r"\btransmute\b|\bget_unchecked(?:_mut)?\b|\bMaybeUninit\b|\bmem::(?:forget|uninitialized|zeroed)\b|"
        # free( and a library's own release function: relay.review.checks reads them where memory is freed by hand.
        r"\b(?:memcpy|memmove|strcpy|strncpy|strcat|strncat|sprintf|vsprintf|alloca)\s*\(")),
    ("unicode normalization", re.compile(r"\bnormalize\s*\(\s*['\"]NF|\bNF[KC]?[CD]\b|\bunicodedata\b")),
    # What a fix says about itself in its comments or strings (only such comment lines are
    # kept): an advisory id, the attack or the complexity it removes.
    ("advisory", None),
    ("regular expression", re.compile(
        r"\bre\.(?:compile|match|search|sub|fullmatch|finditer)\s*\(|\bnew\s+RegExp\s*\(|\bRegex::new\s*\(|"
        r"\bregexp\.(?:MustCompile|Compile)\s*\(|\br['\"][^'\"]*(?:\.\*|\.\+|\)[*+]|\][*+])")),
)


# A substring screen before the regexes, as for the test signals: every alternative above
# contains one of these (lowercased), and most lines of code contain none of them.
_TOKEN_WORDS = (
    "author", "cookie", "authenticat", "redirect", "verify", "hostname", "cert_", "insecure", "ssl", "symlink", "readlink",
    "lstat", "realpath", "abspath", "normpath", "canonicali", "isabs", "absolute", "linkpath", "hardlink", "nofollow", "openat",
    "resolve", "getcanonical", "torealpath", "parentdir", "reservation", "slip", "join", "normalize", "relative", "..", "link", "escape", "sanitiz", "shlex",
    "quote", "python_", "__", "import_module", "unsafe", "pickle", "marshal", "system", "popen", "child_process", "execsync",
    "shell", "eval", "replace", "max", "recursion", "overflow", "checked_", "saturating", "too", "size", "len", "chmod", "chown",
    "umask", "setuid", "setgid", "permission", "privileg", "compare_digest", "constant", "timing", "hmac", "key", "pem", "ssh",
    "signature", "o_", "mode", "seq", "nonce", "kex", "nf", "unicodedata", "re.", "regexp", "regex", "r'", 'r"',
    "-----begin", "x509", "private", "public", "prototype", "constructor", "clean", "count", "depth", "limit", "offset",
    "length", "defineproperty", "create(", "rand", "secrets.", "securerandom", "randombytes", "getrandomvalues", "rng",
    "ptr::", "set_len", "from_raw_parts", "transmute", "unchecked", "maybeuninit", "mem::", "memcpy", "memmove", "strcpy",
    "strncpy", "strcat", "strncat", "sprintf", "alloca", "entit", "dtd", "access_external", "no_network", "huge_tree", "doctype",
    "secure_processing", "defusedxml", "noent", "objectinputstream", "readobject", "unserialize", "yaml", "jsonpickle",
    "binaryformatter", "typenamehandling", "defaulttyping", "html", "document.write", "mark_safe", "markup", "safe",
    "autoescape", "select ", "insert ", "update ", "delete ", "subprocess", "execfile", "spawn", "command", "runtime",
    "processbuilder", "template.", "underflow", "free(", "gsub", ".sub", "control", "x00", "u0000", "userinfo", "passw", "credential",
    # a bound written as a wraparound check ("n > n + len", "off + len < off"): no word, only the sum
    "+",
    *_ADVISORY_WORDS,
)
# One alternation of plain words runs ~3x faster than ``any(word in line ...)`` over 80 words.
_TOKENS = Screen(_TOKEN_WORDS, *(pattern for _, pattern in SECURITY_TOKENS if pattern is not None), ADVISORY_RE)


# A line of prose only: words and commas, five or more, as a licence header or a docstring
# continues inside a block comment whose start is outside the hunk ("…prior written permission.").
_PROSE_LINE_RE = re.compile(r"^[A-Za-z][\w'’-]*[.,:;]?(?:\s+[\"(]?[A-Za-z][\w'’-]*[\")]?[.,:;]?){4,}$")


_QUOTED = 52  # "changes security-relevant code (" and the category before it: the reason is cut at 110 characters

# A line is read again when a part of its file is read alone (relay.review.telling): remember it.
@functools.lru_cache(maxsize=16384)
def _line_token(code: str) -> str | None:
    if not _TOKENS.passes(code) or IMPORT_RE.match(code) or _PROSE_LINE_RE.match(code):
        return None  # an import names a module (often the project itself), not a check; prose checks nothing
    for category, pattern in SECURITY_TOKENS:
        found = advisory_words(code) if pattern is None else pattern.search(code)
        if found:
            if isinstance(found, str):
                return f"{category}: {found.strip()[:30]}"
            # The changed line itself, around what was found: what it does reads there, not in the one word.
            return f"{category}: {window(code, found.start(), found.end(), _QUOTED)}"
    return None


def security_token(lines: Iterable[str]) -> str | None:
    for line in lines:
        found = _line_token(line.strip())
        if found:
            return found
    return None


def changed_security_token(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first security token on a changed line that the change really changed.

    In a file whose changed lines nearly all stand on the other side once squeezed
    (whitespace, quote style, separators: a Black or prettier run), a token line that stands
    on the other side too was only re-wrapped or re-quoted: it says nothing about this change.
    Then an edited regular expression (see ``edited_pattern``), the shape of a ReDoS fix."""
    joined: list[str] = []
    for side, lines in enumerate((added, removed)):
        for line in lines:
            code = line.strip()
            found = _line_token(code)
            if not found:
                continue
            if not joined:
                # Read once, at the first token: most files are no formatter's run and end here.
                joined = ["".join(squeezed(o) for o in removed), "".join(squeezed(o) for o in added)]  # the other side's
                if formatter_share(added, removed, joined) < FORMATTER_SHARE:
                    return found
            shape = squeezed(code)
            if not shape or shape not in joined[side]:
                return found
    return edited_pattern(added, removed)


# A regular expression written in the code: a JavaScript literal (after an operator, never a
# division), or a string that only a regex would contain (a group, a class escape) with a
# quantifier. Narrow on purpose: a ReDoS fix edits one of these in place.
_JS_REGEX_RE = re.compile(r"(?:^|[=(,:!&|?{};\[]|\breturn)\s*(/(?![/*])(?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\n\[])+/[dgimsuy]*)")
_STRING_LIT_RE = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`[^`]*`')
_REGEX_SYNTAX_RE = re.compile(r"\(\?(?:[:=!]|<[=!]|P?<\w+>)|\\{1,2}[dDsSwWbB]|\[\^?\\{1,2}[\w]|\\{1,2}u[0-9A-Fa-f]{4}")
# A JavaScript literal that runs past the cut of a kept line (a long one-line pattern, minified code).
_JS_REGEX_CUT_RE = re.compile(r"(?:^|[=(,:!&|?{};\[]|\breturn)\s*(/(?![/*])(?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\n\[])+)$")
_QUANTIFIER_RE = re.compile(r"[)\]}\w.][*+]|\{\d+,\d*\}")


def _patterns(lines: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for line in lines:
        before = len(found)
        if "/" in line:
            for m in _JS_REGEX_RE.finditer(line):
                if _QUANTIFIER_RE.search(m.group(1)):
                    found.add(m.group(1))
            if len(found) == before and len(line) >= LINE_CHARS:
                cut = _JS_REGEX_CUT_RE.search(line)
                if cut and _QUANTIFIER_RE.search(cut.group(1)):
                    found.add(cut.group(1))
        if "\\" in line or "(?" in line:
            for m in _STRING_LIT_RE.finditer(line):
                text = m.group(0)[1:-1]
                if _REGEX_SYNTAX_RE.search(text) and _QUANTIFIER_RE.search(text):
                    found.add(text)
            if len(found) == before:
                # A line of a pattern written over several lines (Python's r"""...""" with
                # re.VERBOSE): regex syntax outside any string literal of the line, which code
                # itself never has ("\d", "(?:", "(?P<name>").
                rest = _STRING_LIT_RE.sub("", line).strip()
                if _REGEX_SYNTAX_RE.search(rest) and _QUANTIFIER_RE.search(rest):
                    found.add(rest)
    return found


def edited_pattern(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"regular expression: …" when the change rewrites a regular expression: patterns on
    both sides, not the same ones (a pattern only added or only moved is not an edit), or a
    pattern replaced by more code than it took (a ReDoS fix that scans by hand instead)."""
    new, old = _patterns(added), _patterns(removed)
    if new and old and new != old:
        return f"regular expression: {sorted(new - old or new)[0][:24]}"
    if old and not new and len(added) > 2 * len(removed):
        return f"regular expression replaced by code: {sorted(old)[0][:24]}"
    return None


# A guard added in front of an index or a read: the input's length or emptiness tested in a
# branch ("if len(data) == 0 {", "if (s.length < 2) return", "if keyLen < 3 ||", "isEmpty()").
# Common in ordinary code too, so it makes a file worth a look (medium), never high.
_LENGTH_GUARD_RE = re.compile(
    # A branch, also one that is an expression ("let raw = if host.is_empty() {", "x = if s.empty?").
    r"^\s*(?:\}\s*)?(?:else\s*)?(?:(?:(?:let|val|var|const)\s+(?:mut\s+)?)?\w+\s*(?::[^=]+)?=\s*)?(?:if|elif|elsif|unless|guard)\b.*?(?:"
    r"\blen\s*\([^()]*\)\s*(?:[<>]=?|==|!=)\s*\d|\d\s*(?:[<>]=?|==|!=)\s*len\s*\(|"
    r"\b[\w.]*(?:length|size|len|count)(?:\(\))?\s*(?:[<>]=?|==|!=)\s*\d|"
    # A length held against arithmetic on others ("total_num < mac_len + 4", "size > base + off"):
    # the bound a parser checks before it reads that far. "->" is a pointer, not a minus.
    r"\b[\w.>-]*(?:len|length|size|num|count|total|offset)\w*\s*[<>]=?\s*\(?\s*[\w.>-]+\s*[-+](?!>)\s*\w|"
    r"[-+](?!>)\s*[\w.>-]*(?:len|length|size|num|count)\w*\s*[<>]=?|"
    r"\.(?:isEmpty|is_empty|empty\?)(?:\s*\(\s*\))?)",
    re.I,
)


_LENGTH_GUARD = Screen(("len", "size", "count", "empty", "num", "total", "offset"), _LENGTH_GUARD_RE)  # every alternative holds one


def changed_length_guard(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first branch testing a length or emptiness that the change added, or else removed
    (a bound taken away is as worth a look as one put in), as "adds/removes a length check (…)"."""
    for verb, lines, other in (("adds", added, removed), ("removes", removed, added)):
        before = {squeezed(line.strip()) for line in other}
        for line in lines:
            code = line.strip()
            if _LENGTH_GUARD.passes(code) and _LENGTH_GUARD_RE.match(code) and squeezed(code) not in before:
                return f"{verb} a length check ({code[:40]})"
    return None


# An input refused: an error thrown, raised or returned whose class, constant or message says
# the input was wrong ("throw new IllegalArgumentException", "return GIT_EINVALID",
# 'errors.New("invalid path")'). Ordinary code refuses input too, so medium at most.
_REFUSAL_RE = re.compile(
    r"\b(?:throw|raise)\s+(?:new\s+)?\w*(?:Illegal|Invalid|Security|Malformed|Unsafe|Forbidden|Suspicious)\w*|"
    r"\breturn\s*\(?-?\s*[A-Z][A-Z0-9_]*(?:INVAL|ILLEGAL|NOT_?SUPPORTED|UNSUPPORTED|ERANGE|OVERFLOW|TOO_?(?:LONG|BIG|LARGE|MANY)|MALFORMED|CORRUPT)\w*|"
    r"\b(?:throw|raise|panic!?|bail!?|Err|\w*errors?\.New|\w*Errorf|\w*error_set|\w*(?i:error))\b.*['\"`](?i:[^'\"`]*\b(?:invalid|illegal|not allowed|disallowed|forbidden|refus\w*|reject\w*|unsafe|malformed|mismatch|not supported))|"
    # Go's error values named for the refusal ('return ErrMalformedIdx', 'fmt.Errorf("%w: …", ErrInvalidPath)').
    r"\b(?:return|Errorf)\b.*\bErr(?:Invalid|Malformed|Illegal|Unsafe|Forbidden|Corrupt)\w*"
)
_REFUSAL = Screen(("throw", "raise", "return", "panic", "bail", "err"), _REFUSAL_RE)

# A type checked in a branch before a value is used as a key or path (JavaScript's typeof,
# Python's isinstance): how a type-confusion or prototype-pollution fix starts.
_TYPE_GUARD_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s*)?(?:if|elif|unless)\b.*?(?:\btypeof\s+[\w.\[\]'\"]+\s*!==?|\bnot\s+isinstance\s*\(|!\s*\(?\s*[\w.]+\s+instanceof\b)")
_TYPE_GUARD = Screen(("type", "instance"), _TYPE_GUARD_RE)

# A branch or loop condition that gained (or lost) a clause: "if (c == '\\')" became
# "if (c == '\\' || c == ':')", "while (*cur != '\n')" became "… && i < MAX - 1". The shape of
# a fix that adds one more refused case or a bound to an existing check.
_CONDITION_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s*)?(?:if|elif|elsif|while|unless|until|guard)\b|&&|\|\||\band\b|\bor\b")
_CLAUSE_JOINS = ("&&", "||", "and", "or")
_WORD_JOIN_RE = re.compile(r"\b(?:and|or)\b")
_CONDITION_END_RE = re.compile(r"(?:\{|:|\bthen|\bdo)$")
_KEYWORD_RE = re.compile(r"^(?:\}?else)?(?:if|elif|elsif|while|unless|until|guard)")  # on a squeezed line


def added_input_check(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first added line that refuses input, checks its type in a branch, or a condition
    that gained or lost a clause (medium evidence: ordinary code checks input too)."""
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        code = line.strip()
        if squeezed(code) in before or IMPORT_RE.match(code):
            continue
        if _REFUSAL.search(code) or (_TYPE_GUARD.passes(code) and _TYPE_GUARD_RE.match(code)):
            return code[:40]
    return _changed_condition(added, removed)


def _condition_core(line: str) -> str:
    shape = squeezed(line.strip())
    return _CONDITION_END_RE.sub("", shape) if shape else ""


def _changed_condition(added: Sequence[str], removed: Sequence[str]) -> str | None:
    conditions = [core for line in removed if _CONDITION_RE.search(line) and len(core := _condition_core(line)) >= 6]
    if not conditions:
        return None
    for line in added:
        if not _CONDITION_RE.search(line):
            continue
        core = _condition_core(line)
        # Squeezed, "if valueordinal" would read as "if value or dinal": words count only when written as words.
        joins = _CLAUSE_JOINS if _WORD_JOIN_RE.search(line) else _CLAUSE_JOINS[:2]
        for old in conditions:
            longer, shorter = (core, old) if len(core) > len(old) else (old, core)
            if longer.startswith(shorter) and longer[len(shorter):].startswith(joins):
                return line.strip()[:40]
            # The clause put in front: "if (n == 0)" became "if (n > LIMIT || n == 0)".
            keyword = _KEYWORD_RE.match(shorter)
            rest = shorter[keyword.end():] if keyword else ""
            if keyword and len(rest) >= 4 and longer.startswith(keyword.group(0)) and longer.endswith(rest) and longer[:-len(rest)].endswith(joins):
                return line.strip()[:40]
    return None


# Every pre-check of this module with the patterns it guards, for tests/test_screens.py.
SCREENS: dict[str, Screen] = {
    "advisory": _ADVISORY, "case name": _CASE_NAME, "security note": _SECURITY_NOTE, "advisory id": _ADVISORY_ID,
    "task security": _TASK_SECURITY, "security tokens": _TOKENS, "length guard": _LENGTH_GUARD, "refusal": _REFUSAL,
    "type guard": _TYPE_GUARD,
}
