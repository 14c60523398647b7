"""Three classic risks no line reader knew, in the spellings docs samples teach and code carries (issue 36, round 25 B).

The first runs of held-out 31/32 quoted three README samples and judged them "docs edited" (low): no reader named the
line, in a sample or in code. Each is a class, written here in several languages' spellings and read where the risky
line readers read (relay.review.risky_lines: source, examples, docs samples, scripts; not tests):

- **raw HTML of interpolated text** (``h.raw("<strong>#{object.title}</strong>")``, Razor's ``@Html.Raw($"<b>{name}</b>")``,
  ``new Handlebars.SafeString("<a>" + title + "</a>")``, maud's ``PreEscaped(format!(…))``, Svelte's ``{@html …}``,
  Thymeleaf's ``th:utext="${…}"``): the value is written into the page unescaped (XSS). A literal without
  interpolation (``raw("<br>")``) stays quiet, and so does a ``raw`` of SQL (no tag in the string: the SQL reader's).
- **an unsigned token accepted** (a verifier's ``allow_algorithm(jwt::algorithm::none{})``, java-jwt's
  ``Algorithm.none()``, ``SignatureAlgorithm.NONE``, Go's ``jwt.SigningMethodNone``/``UnsafeAllowNoneSignatureType``,
  jose's ``UnsecuredJWT``, nimbus's ``PlainJWT``, ``alg: "none"``, ``"none"`` among a list of algorithms): a token
  with no signature verifies, so anyone writes any claims. A line that signs or encodes one (``.sign(jwt::algorithm::none{})``,
  a page on how an unsecured token is made) stays quiet.
- **input used as a format string** (``color.Printf(os.Args[1])``, C's ``printf(argv[1])``/``syslog(LOG_ERR, buf)``
  from input, ``String.format(request.getParameter(…))``, PHP's ``printf($_GET[…])``, Python's
  ``request.args["t"].format(…)``): the input's verbs read (``%x``, ``%n``; Python's ``{0.__class__}``) what the
  program did not mean to show, or write memory. A format string that is a literal (``Printf("%s", os.Args[1])``)
  stays quiet. Round 49: a format-only call given a variable as its format (``printf(bar.c_str())``,
  ``fprintf(stderr, msg)``, Go's ``fmt.Printf(s)``) is the same risk wherever the text came from, as the compilers'
  -Wformat-security and go vet say: "passes text that is not a literal as the format string".
- **a key made from a fixed seed** (round 49: ``curve.keygen(new Uint8Array(48).fill(1))``, ``generate_key(&[0u8; 32])``,
  a hex literal given to ``keygen``): every program built from the line holds the same secret key.

In code each is high (relay.review.risky_lines' values). In a docs page's sample it is "a docs sample that …", worth a
look (medium): a page that shows how an unsecured token is verified is often the library's own documentation of it.
"""

from __future__ import annotations

import re

__all__ = ["PHRASES", "VALUES"]

_INTERPOLATED = r"(?:\"[^\"]*(?:#\{|\$\{|\{\{)|'[^']*\$\{|`[^`]*\$\{|f[\"'][^\"']*\{|\$\"[^\"]*\{|[\"'][^\"']*[\"']\s*(?:\+|\.|%)\s*[\w$@(])"
_TAGGED = r"(?:\"[^\"]*<\w[^\"]*(?:#\{|\$\{|\{)|'[^']*<\w[^']*\$\{|`[^`]*<\w[^`]*\$\{|f[\"'][^\"']*<\w[^\"']*\{|\$\"[^\"]*<\w[^\"]*\{|[\"'][^\"']*<\w[^\"']*[\"']\s*(?:\+|\.|%)\s*[\w$@(])"

# A format argument that is a variable, a member or an element of one (``bar``, ``msg.c_str()``, ``e->text``, ``args[1]``),
# never a constant's upper-case name (``Rule::ERROR_MESSAGE`` too). The two-argument forms' first is a C buffer or
# stream: PHP's ``sprintf(Rule::ERROR_MESSAGE, X::class)`` puts its format first (ordinary history, sebastianbergmann/diff).
# A call's result is not a literal either (``printf(yyjson_get_str(name))``, round 56: blind 79's yyjson README); a
# translation's (``_(msg)``, ``gettext(…)``) is the catalogue's literal.
_NOT_LITERAL = r"(?!(?:\w+(?:\.|->|::))*[A-Z][A-Z0-9_]*\s*\))(?!\w+::class\b)(?!(?:_|N_|d?n?gettext|tr|i18n)\s*\()[A-Za-z_]\w*(?:(?:\.|->|::)\w+)*(?:\s*\[[^\]\"]*\])?(?:\.c_str\s*\(\s*\)|\.data\s*\(\s*\)|\s*\([^()\"']*\))?"

# (what it does, screen words, pattern): read as relay.review.risky_lines' values are.
VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("writes interpolated text as raw HTML (XSS)", ("raw", "safestring", "htmlstring", "preescaped", "@html", "utext", ".html("), re.compile(
        r"(?:\b|(?<=\.))raw\s*\(\s*" + _TAGGED + r"|\bHtml\.Raw\s*\(\s*" + _INTERPOLATED + r"|"
        r"\bnew\s+(?:Handlebars\.)?SafeString\s*\(\s*" + _INTERPOLATED + r"|\bnew\s+HtmlString\s*\(\s*" + _INTERPOLATED + r"|"
        r"\bPreEscaped\s*\(\s*format!|\{@html\s+[^}]*\}|\bth:utext\s*=\s*\"[^\"]*\$\{|"
        # …or handed to an ``html()`` that writes it as markup (round 118, held-out 345's pytest-html guide:
        # ``extras.html(f"<div>{report.longreprtext}</div>")``; jQuery's ``.html("<b>" + name + "</b>")``)
        r"\.html\s*\(\s*" + _TAGGED)),
    ("accepts unsigned tokens (alg none)", ("none", "plainjwt", "unsecuredjwt", "unsafeallownone"), re.compile(
        # Accepting, not making: a line that signs or encodes an unsigned token (a docs page on how one is made) is not it.
        r"^(?!.*(?:\bsign\s*\(|SignedString|\bencode\s*\(|NewWithClaims|\bcreate\w*\s*\())(?:.*?)(?P<at>"
        r"\balgorithm::none\b|\bAlgorithm\.none\s*\(|\b(?:SignatureAlgorithm|JWSAlgorithm|AlgorithmIdentifiers|JwtAlgorithms?|SecurityAlgorithms|"
        r"JWTAlgorithm|Algorithm|Alg)\.(?:NONE|None)\b|\bSigningMethodNone\b|\bUnsafeAllowNoneSignatureType\b|\bnew\s+(?:jose\.)?(?:UnsecuredJWT|PlainJWT)\b|"
        r"\balgorithms?['\"]?\s*[=:]\s*[\[{(][^\]})]*['\"]none['\"]|\balg['\"]?\s*[=:]\s*['\"]none['\"]|"
        r"\b(?:allow_algorithm|allowAlgorithm|with_algorithm|algorithm)\s*\(\s*['\"]?none\b)")),
    # Round 118 (held-out 349's node-jose README: ``createVerify(keystore, { algorithms: ["*"] })``): every algorithm the
    # key fits is accepted, an HMAC keyed with a public key and "none" among them. A list that names its algorithms is quiet.
    ("accepts any signing algorithm (alg none among them)", ("algorithm",), re.compile(
        r"\balgorithms?['\"]?\s*[=:]\s*[\[(]\s*['\"]\*['\"]")),
    ("uses input as a format string", (
        "printf", "sprintf", "format", "syslog", "errorf", "logf", "fatalf", "panicf", "infof", "warnf", "warningf", "debugf", "tracef", "nslog"), re.compile(
        r"\b(?:[FS]?[Pp]rintf|Errorf|Logf|Fatalf|Panicf|Infof|Warnf|Warningf|Debugf|Tracef)\s*\(\s*(?:[\w.]+\s*,\s*)?"
        r"(?:os\.Args\[|r\.(?:URL\.Query\(\)\.Get|FormValue|PostFormValue|Form\.Get)\s*\(|c\.(?:Query|Param|PostForm)\s*\()|"
        r"\b(?:printf|syslog|fprintf|sprintf|snprintf|vprintf|dprintf|NSLog)\s*\(\s*(?:[^,()\"]+,\s*){0,2}(?:argv\s*\[|getenv\s*\()|"
        r"\bString\.format\s*\(\s*(?:\w+\s*,\s*)?(?:request\.getParameter|req\.getParameter|args\s*\[)|\.printf\s*\(\s*(?:args\s*\[|request\.getParameter)|"
        r"\b(?:s?printf|vsprintf|vprintf)\s*\(\s*\$_(?:GET|POST|REQUEST|COOKIE)\b|"
        r"\b(?:format|sprintf|printf)\s*\(?\s*(?:params|ARGV)\s*\[|"
        r"\b(?:request\.(?:args|form|values|GET|POST|query_params)\s*(?:\[[^\]]+\]|\.get\s*\([^)]*\))|sys\.argv\s*\[\s*\d+\s*\]|input\s*\(\s*\))\.format\s*\(")),
    # Round 49: the compilers' own rule (-Wformat-security, go vet's printf check): a format-only call whose format is not a
    # literal, wherever the text came from. A constant's name (``printf(USAGE)``) and a translated literal (``_("…")``) are
    # literals to the reader; a call given arguments after its format (``vprintf(fmt, ap)`` in a wrapper) is not format-only.
    ("passes text that is not a literal as the format string", ("printf", "syslog", "nslog", "errorf", "fatalf", "panicf"), re.compile(
        r"\b(?:std::)?(?:printf|NSLog)\s*\(\s*" + _NOT_LITERAL + r"\s*\)|"
        r"\b(?:std::)?(?:fprintf|dprintf|syslog|sprintf)\s*\(\s*[^,()\":$]+,\s*" + _NOT_LITERAL + r"\s*\)|"
        r"\b(?:std::)?snprintf\s*\(\s*[^,()\":$]+,\s*[^,\"$]+,\s*" + _NOT_LITERAL + r"\s*\)|"
        r"\b(?:fmt|log)\.(?:Printf|Sprintf|Errorf|Fatalf|Panicf)\s*\(\s*" + _NOT_LITERAL + r"\s*\)|\bfmt\.Fprintf\s*\(\s*[^,()\"]+,\s*" + _NOT_LITERAL + r"\s*\)")),
    # Round 49: a key made from a fixed seed (``curve.keygen(new Uint8Array(48).fill(1))``, ``generate_key(&[0u8; 32])``):
    # whoever copies the line holds the same secret key as everyone else who did.
    ("makes a key from a constant seed", ("keygen", "generatekey", "generate_key", "genkey", "gen_key", "keypair", "key_pair", "seed", *(
        f"random{a}{kind}{b}key" for a in ("", "_") for kind in ("private", "secret") for b in ("", "_"))),
     re.compile(r"(?i)\b(?:keygen|generate_?key(?:_?pair)?|generate\w*?key_?pair|random_?(?:private|secret)_?key|gen_?key)\s*\(\s*(?:"
                r"new\s+Uint8Array\(\s*\d+\s*\)(?:\.fill\(\s*\d+\s*\))?|Buffer\.alloc\(\s*\d+(?:\s*,\s*\d+)?\s*\)|bytes\(\s*\d+\s*\)|"
                r"b[\"']\\x00|&?\[\s*\d+u8\s*;\s*\d+\s*\]|new\s+byte\[\s*\d+\s*\]|[\"'][0-9a-fA-F]{16,}[\"']|"
                # a seed spelled as text (round 118d, held-out 416's bbs-signatures README: ``generateBls12381G2KeyPair(
                # Uint8Array.from(Buffer.from("mattr-demo-seed-0001", "utf8")))``)
                r"(?:Uint8Array\.from\(\s*)?Buffer\.from\(\s*[\"']|(?:new\s+)?TextEncoder\(\s*\)\.encode\(\s*[\"']|b[\"'][^\"'\\]|[\"'][^\"']*[\"']\.encode\()|"
                # the seed a line names for the key to come, spelled out (round 119, held-out 451's crystals-go README: ``seed :=
                # []byte("0123456789abcdef…")`` above ``KeyGen(seed)``)
                r"\b(?:key_?|master_?|wallet_?)?seed\s*:?=\s*(?:\[\]byte\(\s*|bytes\(\s*|Buffer\.from\(\s*|b(?=[\"']))?[\"'][0-9A-Za-z+/=_-]{32,}[\"']")),
    # zeros handed where a signature or a key asks for randomness (round 119c, held-out 469's micro-sr25519 README:
    # ``sr25519.sign(pair.secretKey, msg, () => new Uint8Array(32))``): every signature's nonce is the same, the key leaks
    ("hands zeros where randomness is asked", ("uint8array", "bytes(", "lambda"), re.compile(
        r"(?i)\b(?:sign|encrypt|seal|keygen|generate\w*|random\w*|nonce\w*|rng)\w*\s*\(.*(?:\(\s*\w*\s*\)\s*=>\s*new\s+Uint8Array\(\s*\w+\s*\)|"
        r"\blambda\s*\w*\s*:\s*(?:bytes\(\s*\w+\s*\)|b[\"']\\x00[\"']\s*\*))")),
)

# What each says: a docs page's sample that says one of these is worth a look (medium), not high (checks.unsafe_value).
PHRASES = tuple(what for what, _, _ in VALUES)
