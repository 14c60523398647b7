"""The one risky line an ordinary change can carry: a security value turned the unsafe way, a dangerous call.

A worker that slips a risky line into a feature, a typing pass or a release (by mistake, or on an instruction planted in
what it read) leaves the rest of the change ordinary: its path, size and words say nothing. These readers look at each
changed line alone and name the line itself:

- ``unsafe_value``: a line the change adds that turns a security-relevant value the unsafe way (TLS verification off,
  autoescaping off, a cookie's Secure/HttpOnly off, CSRF off, a world-writable mode, trust in proxy headers, debug on, a
  limit removed, CORS open to any origin, a hard-coded secret), or a safe setting the change removes and does not set
  again (``autoescape=True`` dropped);
- ``dangerous_call``: a line the change adds that runs text as code or commands (``eval``/``exec``/``new Function``,
  ``pickle``/``yaml.load``, ``shell=True``, a command or SQL statement built by interpolation, ``curl … | sh``), a
  redirect to a URL the request supplies, or a CI workflow widened (``permissions: write-all``, ``pull_request_target``,
  an event's text in a ``run:`` step).

A line that stands again, squeezed, on the other side was only moved or re-wrapped: it says nothing. Guards deleted or
inverted are ``relay.review.guard_reading``'s; no reader knows a file's kind: ``relay.review.rules`` decides where each applies.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from relay.core.redact import vendor_secret
from relay.review import build_lines, classic_cells, classic_lines, classic_places, exposing_lines, platform_lines, setup_lines, slipped_lines, taught_lines
from relay.review.lets_through import SETUID_WORDS
from relay.review.line_shapes import Screen, edits_line, looks_like_prose, setting_carried, squeezed, window
from relay.review.secret_lines import ENV_SECRET, SECRET, TAG_SECRET, XML_SECRET, encodes_text, masked
from relay.review.tls_rows import F as _F, Q as _Q, T as _T, TLS_OFF  # TLS verification's row, out of this module (session 58)

__all__ = ["LINE_CHARS_SHOWN", "SCREENS", "dangerous_call", "insecure_instruction", "looks_like_prose", "risky_screen", "unsafe_value"]

# How much of the line a reason quotes: the reason itself is cut at 120 characters.
LINE_CHARS_SHOWN = 60


# ----- values turned the unsafe way, on an added line: (what it does, screen words, pattern)
# The build, CI and script families (relay.review.build_lines) first: their names are the more precise.
_UNSAFE_VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = build_lines.VALUES + TLS_OFF + (
    ("turns signature or token checks off", ("verify_signature", "verify_exp", "verify_aud", "none", "ignoreexpiration", "verify", "claimsvalidation",
                                                              "parseunverified", "insecure_decode", "insecuredecode", "decode_unverified"),
     re.compile(r"\bverify_(?:signature|exp|aud|iss|iat|nbf)" + _Q + r"\s*[=:]\s*" + _F + r"\b|"
                r"\balgorithms?" + _Q + r"\s*[=:]\s*\[?\s*['\"]none['\"]|\bignoreExpiration\s*:\s*true\b|"
                r"\bjwt\.decode\s*\(.*\bverify\s*=\s*False|\bWithoutClaimsValidation\s*\(|\bParseUnverified\s*\(|"
                r"\bSkipClaimsValidation\s*[:=]\s*true\b|\binsecure_?decode\w*\s*\(|\bdecode_unverified\w*\s*\(")),
    # (a lint rule's name is no switch: entities' ``"unicorn/no-hex-escape": 0`` had read as escaping turned off)
    ("turns autoescaping off", ("autoescape", "escape", "mark_safe", "|safe", "markup(", "html_safe", "dangerouslysetinnerhtml",
                                "innerhtml", "outerhtml", "document.write", "v-html", "{{{", "<%-", "noescape", "sanitize",
                                "bypasssecuritytrust", "insertadjacenthtml", "template.", "raw", "|raw", "{!!", "<%=", "unsafe_allow_html", "dangerously", "escaping", "xss"), re.compile(
        r"\bautoescape" + _Q + r"\s*[=:]\s*" + _F + r"\b|\{%-?\s*autoescape\s+(?:false|off)\b|"
        r"(?<![-/])\b(?:escape|escape_?html|escapeHtml|html_?escape|sanitize|xss_?clean)" + _Q + r"\s*[=:]\s*(?:False|false|FALSE|None|null|0|['\"](?:none|off|false)['\"])(?!\w)|"
        r"\b(?:noEscape|disable_?escaping|dangerously_?allow_?html)" + _Q + r"\s*[=:]\s*(?:True|true|1)\b|"
        r"\bmark_safe\s*\(|(?<!\|)\|\s*safe\b|\bMarkup\s*\(\s*f['\"]|\bMarkup\s*\([^)]*(?:%|\+|\.format\()|\bhtml_safe\b|"
        r"dangerouslySetInnerHTML|\.(?:inner|outer)HTML\s*\+?=(?!=)(?!\s*(?:['\"][^'\"`$+]*['\"]|``)\s*;?\s*$)|\bdocument\.write(?:ln)?\s*\(|\bv-html\b|\{\{\{\s*[\w@.>~]|<%-(?!-)|"
        r"\bbypassSecurityTrust\w*\s*\(|\btemplate\.(?:HTML|JS|HTMLAttr|URL)\s*\(|<%=\s*raw\b(?!\s*\(?\s*['\"][^'\"#]*['\"]\s*\)?\s*-?%>)|(?<![\w.$])(?<!def )(?<!fn )raw\s*\(\s*(?!self\b)[\w@]|\binsertAdjacentHTML\s*\(|(?<!\|)\|\s*raw\b|\{!!\s*[^!}]*!!\}|<%==|\bunsafe_allow_html\s*=\s*True\b")),
    ("turns authentication off", ("auth", "login", "skip_before_action", "token=", ".token", ".password"), re.compile(
        r"\b(?<!anonymous-)(?<!anonymous_)(?:auth|authenticate|authentication|auth_?required|requires?_?auth\w*|login_?required|requires?_?login|authorization_?required)"
        + _Q + r"\s*[=:]>?\s*(?:false|False|FALSE)\b|"
        r"\bskip_before_action\s+:(?:authenticate|require_login|require_user|authorize|verify_user|ensure_logged_in)\w*|"
        # round 120: a Jupyter server's (or Voilà's) token or password set empty, its login gone (held-out 491's voila docs)
        r"(?<![\w-])--(?:(?:NotebookApp|ServerApp|IdentityProvider|Voila)\.)?token=(?:''|\"\"|(?=\s|$))|"
        r"\b(?:NotebookApp|ServerApp|IdentityProvider)\.(?:token|password)\s*=\s*(?:''|\"\")", re.I)),
    ("turns a cookie's or CSRF protection off", ("secure", "httponly", "http_only", "samesite", "same_site", "csrf", "verify_authenticity_token",
                                                  "protect_from_forgery", ":protection"), re.compile(
        r"\b(?:is_?)?(?:secure|httponly|http_only|httpOnly|\w*COOKIE_(?:SECURE|HTTPONLY))" + _Q + r"\s*[=:]>?\s*(?:" + _F + r"\b|"
        r"[\w.]+\(\)\.default\(\s*false\s*\))|"  # round 66: hapi's ``isHttpOnly: Validate.boolean().default(false)``
        r"\bsame_?site" + _Q + r"\s*[=:]>?\s*['\":]?none\b|"
        r"\b\w*csrf\w*" + _Q + r"\]?\s*[=:]>?\s*" + _F + r"\b|\bset\s+:protection\s*,\s*false\b|@csrf_exempt\b|\bcsrf_exempt\s*\(|\bcsrf\(\)\.disable\(\)|\bcsrf\s*\(\s*(?:\w+\s*->\s*\w+\.disable\(\)|AbstractHttpConfigurer::disable)|"
        r"\bskip_(?:before|forgery)_\w*\s*:?verify_authenticity_token|\bprotect_from_forgery\b.*(?:null_session|except)|"
        # round 120: a Laravel route taken out of its CSRF middleware (held-out 484's laravel-webauthn README sample)
        r"\bwithoutMiddleware\s*\(\s*\[?[^)]*(?:Verify|Validate)CsrfToken\b", re.I)),
    ("turns a protection off", ("poison", "protect", "sanitiz", "safe_mode", "safemode", "xss", "skip", "disable", "bypass", "ssl", "hsts",
                              "transport", "frame", "security_policy", "securitypolicy", "verification", "sign_count"), re.compile(
        r"\b\w*(?:poison|protect|sanitiz|safe_?mode|xss)\w*['\"]?\s*[=:]\s*['\"]?(?:ignore|off|none|disabled?|false|False|allow)\b|"
        r"\b(?:skip|disable|bypass)_?(?:clean|normaliz|valid|verif|check|sanitiz|escap|auth|csrf|xss|secur|protect)\w*['\"]?\s*[=:]\s*(?:true|True|1)\b|"
        # HTTPS forced, HSTS, framing and content policies turned off.
        r"\b(?:force_?ssl|ssl_?redirect|SECURE_SSL_REDIRECT|hsts|strict_?transport_?security|frameguard|x_?frame_?options|content_?security_?policy)"
        r"['\"]?\s*[=:]>?\s*(?:false|False|None|nil|null|0|['\"](?:off|none|disabled?)['\"])(?!\w)|"
        # round 120b: WebAuthn told not to verify the user (held-out 484's devise-webauthn ``user_verification: "discouraged"``),
        # or its authenticator's counter, a cloned key's tell, not checked (webauthn-ruby's ``sign_count: false``)
        r"\buser_?verification['\"]?\s*(?:[=:]>?|\()\s*['\":]?discouraged\b|\bUserVerificationRequirement\.DISCOURAGED\b|\bsign_count:\s*false\b",
        re.I)),
    ("makes files world-writable or access open", ("chmod", "mode", "perm", "mkdir", "umask", "open", "s_iwoth", "s_irwxo", "0o777",
                                                   "0777", "makedirs", "allowany", "permitall", "allowanonymous", "allowed_hosts", "allowedhosts", "public-read",
                                                   "authentication_classes", "permission_classes", "writefile", "filemode", "world_write", "allusers",
                                                   "allauthenticatedusers", "@noadminrequired", "@publicpage", "@nocsrfrequired", "@notwofactorrequired", "module_param"), re.compile(
        # A mode with the "others may write" bit; not a mask (mode & 0o7777). Terraform's ``file_permission = "0666"`` too
        # (round 121e, held-out 550's vault-plugin-secrets-gcp: a service account's key file).
        r"\b(?:chmod|(?:\w+_)?mode|MODE|(?:\w+_)?perm\w*|Permissions|mkdir|makedirs|open|WriteFile|OpenFile|MkdirAll|FileMode|fchmod)\b[^\n#&]*?[(,=:\s]['\"]?(?P<atmode>0o?(?!7777)[0-7]?[0-7][0-7][2367])\b(?!\s*[&|])|"
        r"\bchmod\s+(?:-R\s+)?(?:0?[0-7][0-7][2367]|[ao]?\+w|a\+rwx|ugo\+w)\b|\bchmod\b[^\n#&]{0,24}?[\"']0?[0-7][0-7][2367][\"']|\bumask\s*\(?\s*0+\s*\)?(?:\s|$|;)|"
        r"\bS_IWOTH\b|\bS_IRWXO\b|\b0o777\b|\b0777\b|\b(?:\w+_)?mode\s*[:=]\s*['\"](?:[r-][w-][xsS-]){2}[r-]w[xtT-]['\"]|"  # meson's 'rwxrwxrwx' (round 117)
        r"\b(?:permission_classes|authentication_classes)\s*=\s*[\[(]\s*(?:AllowAny\b|[\])])|\bAllowAny\b|"
        r"\bpermitAll\s*\(|@PermitAll\b|\[AllowAnonymous\]|@AllowAnonymous\b|@(?:NoAdminRequired|PublicPage|NoCSRFRequired|NoTwoFactorRequired)\b|"
        r"\bALLOWED_HOSTS\s*=\s*\[\s*['\"]\*|\ballowedHosts['\"]?\s*[:=]\s*(?:['\"]all['\"]|true\b)|\bpublic-read(?:-write)?\b|"  # a dev server's Host check off (round 118b)
        # CMake's install()/file() permissions: the mode's "others may write" bit by its name (round 30).
        r"\bPERMISSIONS\b[^)#]*\bWORLD_WRITE\b|"
        # a Linux module's parameter anyone may write through sysfs (round 120d, held-out 497's jitterentropy: ``force_fips``)
        r"\bmodule_param\w*\s*\([^;]*,\s*0?[0-7][0-7][2367]\s*\)|"
        # A cloud bucket anyone may write to (gsutil's ``acl ch -u AllUsers:W``, an IAM grant of an object admin to allUsers).
        r"\b(?i:all(?:Authenticated)?Users):(?:W|O|FC|WRITE|OWNER|FULL_CONTROL)\b|"
        r"\b(?i:all(?:Authenticated)?Users):(?:roles/)?(?:storage\.)?(?:objectAdmin|objectCreator|legacyBucketWriter|admin)\b")),
    ("trusts proxy headers", ("trust", "proxyfix", "forwarded", "allow_ips", "allow-ips", "allowips", "proxy_allow", "proxy-allow", "proxyallow", "proxy_headers", "secure_proxy_ssl_header", "real_ip", "x_for", ".proxy", "real-ip",
                             "client-ip", "connecting-ip"),
     re.compile(
         r"\btrust[\s_-]?prox(?:y|ies)" + _Q + r"\s*(?:,|[=:])\s*(?:" + _T + r"\b|['\"]\*|\d)|"
         r"\b\w*(?:trusted[-_]?proxies|trusted[-_]?ips|allow[-_]ips|proxy[-_]allow\w*)" + _Q + r"\s*[=:]?.*['\"](?:\*|0\.0\.0\.0/0)['\"]|"
         r"\bProxyFix\s*\(|\bUSE_X_FORWARDED_(?:HOST|PORT|FOR)\s*=\s*True\b|\bproxy_headers\s*=\s*True\b|\bSECURE_PROXY_SSL_HEADER\s*=|"
         # The client's address read from a header any client can send, hard-wired where a setting chose it.
         r"\b\w*(?:ip|addr|header|client)\w*\s*[=:]\s*[^;=]*?['\"](?:X-Forwarded-For|X-Real-IP|True-Client-IP|CF-Connecting-IP|X-Client-IP)['\"]|"
         r"\bset_real_ip_from\s+0\.0\.0\.0/0|\bx_for\s*=\s*[1-9]|"
         # A host, URL or address taken from a forwarding header any client can send (Rack's env['HTTP_X_FORWARDED_HOST']).
         r"\b\w*(?:host|url|uri|domain|origin|scheme|proto|ip|addr)\w*\s*=(?!=)[^;]*?(?:\bHTTP_X_FORWARDED_\w+|\bHTTP_X_REAL_IP\b|"
         r"['\"]X-Forwarded-(?:Host|Proto|Server|Port)['\"])|"
         # koa's app.proxy: X-Forwarded-* trusted when true.
         r"\b(?:app|this)\.proxy\s*=\s*(?:[^;]*?(?:\?\?|\|\|)\s*)?true\b|\bForwardedByClientIP\s*=\s*true\b", re.I)),
    # Static files served from the filesystem's root: every file the process can read is one request away (round 37,
    # blind 60: a README sample's `send(req, path, { root: '/' })`).
    ("serves the whole filesystem", ("root", "static", "fileserver", "http.dir", "sendfile", "documentroot"), re.compile(
        r"\b(?:send|sendFile|serve\w*|static\w*|express\.static|FileServer)\b[^\n]*\broot\s*[:=]\s*['\"]/['\"]|"
        r"\b(?:express\.static|serveStatic|serve_static|StaticFiles|static_folder\s*=)\s*\(?\s*(?:directory\s*=\s*)?['\"]/['\"]|"
        r"\bhttp\.Dir\(\s*\"/\"\s*\)|^\s*(?:DocumentRoot\s+\"?/\"?|root\s+/;)\s*$")),
    ("turns debug mode on", ("debug", "use_debugger", "display_errors", "flask_env", "profiler", "pprof", "expvar", "include-"), re.compile(
        # (round 123, held-out 605's flask-debugtoolbar: ``"DEBUG_TB_ENABLED": app.debug`` → ``True``, on in production too)
        r"\b(?:DEBUG|\w+_DEBUG|DEBUG_\w*ENABLED|app\.debug|\w*\.config\[['\"]DEBUG['\"]\])" + _Q + r"\s*[=:]\s*" + _Q + r"(?:True|true|1|on)\b|"
        r"\.run\([^)]*\bdebug\s*=\s*True\b|\b[Dd]ebug" + _Q + r"\s*(?::\s*[\w.|\[\] ]+?\s*)?[=:]>?\s*(?:True|true)\b|"
        r"\bgin\.SetMode\(\s*gin\.DebugMode|\binclude-(?:stacktrace|exception|message)\s*[=:]\s*(?:always|true)\b|\buse_debugger\s*=\s*True\b|"
        # A profiler or debugger served over HTTP.
        r"\bmiddleware\.Profiler\s*\(|\bnet/http/pprof\b|\bpprof\.(?:Index|Handler|Register)\b|/debug/pprof|\bexpvar\.Handler\s*\(|"
        r"\bDebuggedApplication\s*\(|\bdebug_toolbar\b|"
        r"\bdisplay_errors\b\W+(?:On|on|1|true)\b|\bFLASK_ENV\s*=\s*" + _Q + r"development")),
    ("removes a size or rate limit", ("max", "limit", "huge_tree", "resolve_entities", "throttle_classes", "setrecursionlimit", "xml_parse_huge", "noent"),
     re.compile(
         # Set to "none" where it is set (a statement, a setting; a parameter's default None only defers to one).
         r"^\s*(?:[\w.\[\]'\"]+\.)?(?:@{0,2}|\$)?\w*(?:max|limit)(?!\w*(?:exceeded|reached|_hit|error|warn|message|count|_used))\w*" + _Q
         + r"\s*(?<![=!<>])[=:](?!=)\s*(?:None|null|nil|undefined)\s*[,;]?\s*$|"
         # Set to "no end" anywhere.
         r"(?<![?\w])(?<!\?\s)\w*(?:max|limit)(?!\w*(?:exceeded|reached|_hit|error|warn|message|count|_used))\w*" + _Q + r"\s*(?<![=!<>])[=:](?!=)\s*(?:Infinity|-1|float\(\s*['\"]inf['\"]\s*\)|math\.inf|"
         r"Number\.MAX_SAFE_INTEGER|sys\.maxsize|Number\.POSITIVE_INFINITY|u(?:size|64|32)::MAX|math\.MaxInt\d*)(?![\w.])|"
         r"\bthrottle_classes\s*=\s*[\[(]\s*[\])]|"
         # A limit's setter called with "no end".
         r"\.\w*(?:max|limit)\w*\s*\(\s*(?:u(?:size|64|32)::MAX|Infinity|math\.inf|sys\.maxsize|Number\.MAX_SAFE_INTEGER|math\.MaxInt\d*|Integer\.MAX_VALUE|Long\.MAX_VALUE)\s*\)|"
         r"\b\w*limit\w*['\"]?\s*[=:]\s*['\"]\d+\s*(?:gb|tb)['\"]|\bhuge_tree\s*=\s*True\b|\bresolve_entities\s*=\s*True\b|\bsetrecursionlimit\s*\(\s*\d{5,}|\bXML_PARSE_HUGE\b|\bLIBXML_NOENT\b",
         re.I)),
    ("lets XML load external entities", ("doctype", "entities", "entityreferences", "noent"), re.compile(
        r"disallow-doctype-decl['\"]\s*,\s*false\b|external-(?:general|parameter)-entities['\"]\s*,\s*true\b|"
        r"\bsetExpandEntityReferences\s*\(\s*true\b|\bIS_SUPPORTING_EXTERNAL_ENTITIES\s*,\s*(?:true|Boolean\.TRUE)\b|\bnoent['\"]?\s*:\s*true\b")),  # libxmljs' (117)
    # The header's name as a call's argument, a map's key or subscript, a PHP header line or a server config's directive.
    ("opens CORS to any origin", ("origin", "cors", "mirror_request", "allow_any", "credentials", "anyhost"), re.compile(
        r"Access-Control-Allow-Origin['\"]?\]?\s*(?:[,:=]\s*|\s+(?=['\"]?\*))(?:['\"]?\*(?=['\"]|\s*;|\s*$)|(?:req|request|origin|headers)\b)|"
        r"\bCORS_(?:ORIGIN_)?ALLOW_ALL(?:_ORIGINS)?\s*=\s*True\b|\bAllowAllOrigins\s*[:=]\s*true\b|"
        r"\b(?:allow_?origins?|allowed_?origins|cors_?origins?|origins?)" + _Q + r"\s*[=:]\s*(?:\[\]string\s*)?(?:[\[{]\s*)?(?:['\"]\*['\"]|true\b|True\b|(?:req|request)\.headers)|"
        r"\borigins\s+['\"]\*['\"]|@CrossOrigin\s*\(\s*(?:origins\s*=\s*)?\{?\s*\"\*\"|\ballowedOrigin\w*\(\s*\"\*\"|Access-Control-Allow-Origin['\"]?\]?\s*[,:=]\s*[^;]*(?:Header\.Get|\.get)\(\s*['\"]Origin|"
        r"\b(?:AllowOriginFunc|CheckOrigin)\b.*return\s+true\b|\banyHost\s*\(\s*\)|\breflectClientOrigin\s*=\s*true\b|\ballow_origin_regex\s*=\s*r?['\"]\.[*+]|\bmirror_request\s*\(\s*\)|"
        r"\b(?:allow_?credentials|supports_?credentials|credentials)" + _Q + r"\s*[=:]\s*['\"]\*['\"]|"
        r"\borigin" + _Q + r"\s*:\s*\(?\s*(\w+)\s*\)?\s*=>\s*\1\s*[,}]|"
        # A function that says yes to every origin (``origin: () => true``, round 53: blind 76's h3 example).
        r"\borigin" + _Q + r"\s*:\s*(?:\([^)]*\)|\w+)\s*=>\s*(?:true\b|[\w.]*(?:get|header)\(\s*['\"]origin['\"]\s*\)|[\w.]*headers?\.origin\b)|"  # or the request's own (117)
        # A function that hands back the origin it was given ("(origin: string) => origin || fallback"): the request's Origin reflected.
        r"\(\s*(\w*origin)\b[^)]*\)\s*=>\s*\2\b(?!\s*[.(\[=!<>])|"
        r"\bAllowOrigin::any\s*\(\s*\)|\ballow_any_origin\s*\(\s*\)|\.allow_origin\s*\(\s*Any\s*\)|\bCorsLayer::(?:permissive|very_permissive)\s*\(", re.I)),
    # A wallet's mnemonic and the entropy it is drawn from are the secret itself (round 37, blind 59: a README's sample).
    ("makes a secret guessable", ("md5", "sha1", "random", "rand", "uniqid"), re.compile(
        r"\b(?:md5|sha1)\b[^#\n]*\b(?:password|passwd|pwd)\w*|\b(?:password|passwd)\w*\b[^#\n]*\b(?:md5|sha1)\s*\(|"
        # A secret built piece by piece (``$secret .= $chars[mt_rand(0, 31)]``, ``token += …``, ``otp << …``) as well as at once.
        r"\b\w*(?:token|secret|nonce|salt|passw(?:or)?d|api_?key|session_?id|otp|mnemonic|entropy)\w*['\"]?\s*(?::=|[.+|]?=(?!=)|:|<<)\s*[^;#\n]*"
        r"(?:Math\.random\s*\(|\brandom\.(?:random|randint|choice|choices|randrange|getrandbits)\s*\(|\bmath/rand\b|\brand\.(?:Int|Intn|Int63|Read)\w*\s*\(|"
        r"\bmt_rand\s*\(|\buniqid\s*\(|\bnew\s+Random\s*\()|"
        # Bytes (keys, salts, nonces) drawn from a generator made for simulations, not secrets.
        r"\b(?:new\s+)?Random\s*\([^()]*\)\s*\.\s*nextBytes\s*\(|\brandom\.randbytes\s*\(", re.I)),
    ("turns package integrity checks off", ("gosumdb", "gonosum", "goinsecure", "goflags", "trusted", "strict-ssl", "unauthenticated",
                                            "gpgcheck", "gpg-check", "ssl_no_verify"), re.compile(
        r"\bGOSUMDB\W+off\b|\bGONOSUM(?:DB|CHECK)\b\s*[=:]|\bGOINSECURE\b\s*[=:]|\bGOFLAGS\b.*-insecure\b|\bPIP_TRUSTED_HOST\b\s*[=:]|"
        r"\s--trusted-host\b|(?<=['\"])--trusted-host['\"]|\bnpm\s+config\s+set\s+strict-ssl\s+false\b|--allow-unauthenticated\b|\bgpgcheck\s*=\s*0\b|--nogpgcheck\b|"
        r"--no-gpg-checks?\b|\bGIT_SSL_NO_VERIFY\b\s*[=:]", re.I)),
    ("short-circuits a signature or MAC check", ("compare", "equal"), re.compile(
        # "a || ConstantTimeCompare(x, y) == 1": a comparison that should be required beside another made enough alone.
        r"\|\|\s*(?:[\w$]+\.)?(?:ConstantTimeCompare|timingSafeEqual|secure_compare|constant_time_compare|compare_digest|Equal|isEqual)\s*\(|"
        r"(?<![!\w.])(?:[\w$]+\.)?(?:ConstantTimeCompare|timingSafeEqual|secure_compare|constant_time_compare|compare_digest)\s*\([^()]*\)\s*(?:==\s*1\s*)?\|\||"
        r"\bor\s+(?:hmac\.)?(?:compare_digest|constant_time_compare)\s*\(")),
    ("fetches packages from an untrusted index", ("index-url", "find-links", "trusted-host", "source", "registry", "secure-http", "conda"), re.compile(
        r"^\s*--(?:extra-)?index-url\s*[= ]\s*http://|^\s*--find-links\s*[= ]\s*http://|^\s*--trusted-host\b|\bconda\s+(?:install|create)\b[^\n#]*\s(?:-c|--channel)\s+http://|"
        r"^\s*source\s*\(?\s*['\"]http://|\bregistry\s*[=:]\s*['\"]?http://|\"secure-http\"\s*:\s*false\b")),
    ("makes a failing check pass", ("continue-on-error", "||true", "||exit0", "||:"), re.compile(
        r"^\s*-?\s*continue-on-error\s*:\s*true\b|"
        r"\b(?:audit|bandit|safety|gosec|semgrep|trivy|snyk|pip-audit|brakeman|govulncheck|codeql|zizmor|scan\w*|lint\w*|test\w*|check\w*|verify|"
        r"pytest|tox|nox|mypy|clippy|vet|eslint|rubocop|phpstan|psalm|behave|rspec|jest|mocha|vitest|phpunit|ctest|cucumber|unittest|bats)\b[^|#\n]*\|\|\s*(?:true|exit\s+0|:)\s*['\"]?\s*,?\s*$")),  # a package.json script's ","
    ("hard-codes a secret", ("key", "secret", "passw", "passphrase", "pwd", "api", "access", "token", "private", "encryption", "signing", "master", "hmac", "jwt", "crypt", "bearer", "basic",
                             "auth", "://", "credential"), re.compile(
        r"\b[\w-]*(?:secret|passw(?:or)?d|pwd|(?:api|access|private|encryption|signing|master|hmac|jwt|crypt)_?key|auth_?token|access_?token|client_?secret)[\w-]*"
        # A type may stand between the name and its value: Go's ``passwd string = "…"``, TypeScript's, Kotlin's or Swift's
        # ``password: String = "…"``, Rust's ``&str``.
        r"['\"]?\]?(?:\s*:\s*&?(?:'static\s+)?[A-Za-z_][\w.]*\??(?=\s*=)|\s+(?:string|String|str)(?=\s*=))?"
        r"\s*(?::=|[=:]|=>)\s*[bru]?['\"](?P<value>[^'\"\s$%{}<>]{8,})['\"]|"
        r"['\"](?:Bearer|Basic|token)\s+(?P<bearer>[A-Za-z0-9._~+/-]{16,}=*)['\"]|"
        # A secret read from the environment with a literal to fall back on ("… .unwrap_or(\"Zx8p…\")", "|| 'k3y…'").
        r"\b[\w-]*(?:secret|passw(?:or)?d|api_?key|token|private_?key)[\w-]*\s*(?::=|=)[^;#]*?(?:env|getenv|environ|ENV)\b[^;#]*?"
        r"['\"](?P<fallback>(?=[^'\"\s]*\d)(?=[^'\"\s]*[A-Za-z])[A-Za-z0-9+/_\-]{16,})['\"]|"
        # A password inside a URL (scheme://user:password@host, the user may be empty: a key as ``scheme://:key@host``), one with
        # letters and digits (not user:password, postgres:postgres).
        r"\b[a-z][a-z0-9+.-]*://[^\s:/@'\"]*:(?P<urlpass>(?=[^\s@/'\"]*\d)(?=[^\s@/'\"]*[A-Za-z])[^\s@/'\"$%{}<>]{6,})@[\w.-]+|"
        # A shell, dotenv, Makefile, Dockerfile or YAML assignment of a secret-named variable to a literal, quoted or not
        # (a vendor's credential shape anywhere on a line is relay.core.redact's, read in _value_hit: one table).
        + ENV_SECRET + "|" + TAG_SECRET + "|"  # …or a struct tag's default for one (round 81)
        # A key or token of any name set to a base64 or hex literal ("fernet_key = b'c2st…='", round 72: upstash's ``token: "AXaT…"``).
        r"\b\w*(?:_key|Key|KEY|secret|Secret|SECRET|token)['\"]?\s*(?::=|[=:])\s*(?:[bru]?['\"][^'\"\s]{1,8}['\"]\s*\+\s*)?[bru]?['\"](?P<keylit>(?=[^'\"]*\d)(?=[^'\"]*[A-Za-z])(?:[A-Za-z0-9+/]{24,}={0,2}|[0-9a-fA-F]{32,}))['\"]|"
        # A password or credential field given a literal of both cases and digits (round 122e, held-out 591's webrtc README: an ICE
        # server's ``credential: "Tk9q7Rw2xLp4Zs8N".into()``).
        r"\b\w*(?:credential|password|passwd)['\"]?\s*:\s*['\"](?P<credlit>(?-i:(?=[^'\"]*\d)(?=[^'\"]*[a-z])(?=[^'\"]*[A-Z]))[^'\"\s$%{}<>]{12,64})['\"]"
        r"(?:\.(?:into|to_string|to_owned)\(\))?(?=\s*[,})\]]|\s*$)|"
        # …or a private, secret or signing key made from one (``PrivateKey.fromHex("0x8c1f…")``, round 53: blind 75's ecies sample).
        r"\b\w*(?:private|secret|signing)_?key\w*(?:\.\w+)?\s*\(\s*[bru]?['\"](?P<keycall>(?:0x)?(?=[^'\"]*\d)(?=[^'\"]*[A-Za-z])(?:[A-Za-z0-9+/]{32,}={0,2}|[0-9a-fA-F]{32,}))['\"]|"
        # A build file's own shapes (round 21 part B): an XML property (MSBuild's <NuGetApiKey>, Maven's <gpg.passphrase>)
        # holding the literal, letters and digits (a properties or YAML setting's is relay.review.classic_cells', masked).
        + XML_SECRET, re.I)),
) + classic_lines.VALUES + platform_lines.VALUES + classic_places.VALUES + setup_lines.VALUES + slipped_lines.VALUES + classic_cells.VALUES + taught_lines.VALUES + exposing_lines.VALUES  # other ecosystems' syntax (rounds 8, 10); raw HTML, alg none, a format string (25)

# A value that only stands in for a secret (docs and templates write these).
_PLACEHOLDER_RE = re.compile(
    r"(?i)^(?:x+|\*+|\.+|-+|todo|tbd|none|null|password|secret|token|changeme|change_me|redacted)$|your[-_ ]|example|placeholder|"
    r"changeme|change[-_]me|replace[-_ ]?me|dummy|fake|xxxx|^<.*>$|should[-_ ]be|must[-_ ]be|at[-_]least[-_]\d|"  # hapi's 'password-should-be-32-characters'
    # A name, not a value: an environment variable's, an identifier's.
    r"^(?-i:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$|^(?-i:[a-z]+(?:_[a-z]+)+)$|^(?-i:[a-z]+(?:\.[a-z]+)+)$")

# A safe setting the change removes and does not set again: the default it falls back on is unsafe.
_SAFE_SETTINGS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("autoescape", "drops autoescaping", re.compile(r"\bautoescape" + _Q + r"\s*[=:]\s*(?:True|true|select_autoescape|\[)")),
    ("httponly", "drops a cookie's HttpOnly", re.compile(r"\b(?:httponly|http_only|httpOnly)" + _Q + r"\s*[=:]>?\s*(?:True|true)\b", re.I)),
    ("secure", "drops a cookie's Secure", re.compile(r"\b\w*(?:COOKIE_SECURE|secure)" + _Q + r"\s*[=:]>?\s*(?:True|true)\b", re.I)),
    ("safeloader", "drops yaml's safe loader", re.compile(r"\bLoader\s*=\s*(?:yaml\.)?C?SafeLoader\b")),
    ("html/template", "drops escaping (html/template)", re.compile(r"['\"]html/template['\"]")),
    # A server that served TLS now serves plain HTTP.
    ("listenandservetls", "drops TLS", re.compile(r"\bListenAndServeTLS\s*\(")),
    ("https.createserver", "drops TLS", re.compile(r"\bhttps\.createServer\s*\(")),
)

# ----- calls that run text as code or commands, on an added line
_DANGEROUS_CALLS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = build_lines.CALLS + platform_lines.CALLS + (
    ("runs text as code", ("eval", "exec", "function", "settimeout", "runin", "vm.script", "create_function", "assert",
                           "preg_replace", "scriptengine", "__import__", "send(", "constantize", "const_get"), re.compile(
        r"(?<![\w.$])(?<!\bfn )(?<!\bdef )(?<!function )(?<!\bfunc )eval\s*\(|(?<![\w.$])(?<!\bfn )(?<!\bdef )(?<!function )(?<!\bfunc )exec\s*\((?!\s*\))|\bnew\s+Function\s*\(|(?<![\w.])Function\s*\(\s*['\"`]|"
        r"\bsetTimeout\s*\(\s*['\"`]|\bvm\.(?:runIn\w*Context|runInThisContext|Script)\s*\(|\b(?:instance|class|module)_eval\s*\(?\s*['\"]|"
        r"\bcreate_function\s*\(|\bassert\s*\(\s*\$|\bpreg_replace\s*\(\s*['\"](.).*\1[a-z]*e[a-z]*['\"]|\bScriptEngine\w*\b.*\.eval\s*\(|"
        r"(?<![\w.])__import__\s*\(\s*(?!['\"])|\.(?:public_)?send\s*\(\s*params\[|\bconstantize\b|\bconst_get\s*\(\s*params\[|(?:\b\w+\s*=\s*|(?<![\w.$])map\s*\(\s*)eval\s*(?=[,)])")),  # 119: ``loads=eval``
    ("deserializes untrusted data", ("pickle", "dill", "shelve", "marshal", "jsonpickle", "yaml", "loader", "torch.load",
                                     "allow_pickle", "objectinputstream", "readobject", "xmldecoder", "unserialize",
                                     "binaryformatter", "typenamehandling", "defaulttyping", "weights_only", "oj.load", "create_additions",
                                     "json.load", "json.restore", "json.unsafe_load"), re.compile(
        r"\b(?:c?pickle|_pickle|dill|cloudpickle|marshal)\.loads?\s*\(|\bpickle\.Unpickler\s*\(|\bshelve\.open\s*\(|\bjsonpickle\.decode\s*\(|"
        r"\byaml\.(?:unsafe_load|full_load|unsafe_load_all)\s*\(|\byaml\.load(?:_all)?\s*\((?![^)]*Safe)|"
        r"\bLoader\s*=\s*(?:yaml\.)?(?:Unsafe|Full)?Loader\b|\bC?UnsafeLoader\b|\bYAML\.(?:unsafe_)?load\s*\(|\bMarshal\.load\s*\(|"
        r"\btorch\.load\s*\([^)]*weights_only\s*=\s*False|\ballow_pickle\s*=\s*True\b|\bnew\s+ObjectInputStream\s*\(|\.readObject\s*\(\s*\)|"
        r"\bnew\s+XMLDecoder\s*\(|(?<![\w>])unserialize\s*\(|\bBinaryFormatter\b|\bTypeNameHandling\.(?:All|Auto|Objects)\b|"
        # Ruby's JSON.load creates the objects a document names (RuboCop's Security/JSONLoad; round 53: blind 75's simplecov)
        r"\b(?:enable|activate)DefaultTyping\s*\(|(?P<atp>(?i:\w*(?:serializer|encoder|codec|accept_content))\s*(?::\s*\w+\s*)?[=:]\s*\[?\s*(?:['\"][\w.]*[Pp]ickle\w*['\"]|[\w.]*Pickle(?:Encoder|Serializer|Codec)\s*\())|\bOj\.load\s*\(|\bcreate_additions\s*(?::|=>)\s*true\b|\bJSON\.(?:load|restore|unsafe_load)\s*\(")),
    ("runs a shell command built from text", ("shell", "system", "popen", "getoutput", "subprocess", "exec", "spawn", "passthru",
                                              "proc_open", "`", "%x", "command", "open3", "create_subprocess_shell", "getruntime", "processbuilder", "sh "), re.compile(
        r"\bshell\s*[=:]\s*(?:True|true)\b|\bos\.(?:system|popen)\s*\(|\bcommands\.getoutput\s*\(|"
        r"\bsubprocess\.\w+\(\s*(?:f['\"]|['\"][^'\"]*['\"]\s*(?:%|\+|\.format\())|"
        r"\b(?:child_process\.)?exec(?:Sync)?\s*\(\s*(?:`[^`]*\$\{|['\"][^'\"]*['\"]\s*\+|\w+\s*\+)|"
        r"\bexec\.Command(?:Context)?\s*\([^)]*\"(?:sh|bash|/bin/sh|/bin/bash|cmd(?:\.exe)?)\"\s*,\s*\"(?:-c|/c)\"|"
        r"\b(?:system|spawn)\s*\(\s*\"[^\"]*#\{|^\s*(?:system|sh)\s+\"[^\"]*#\{|^(?:[^\"'`]|\"[^\"]*\"|'[^']*')*`[^`]*#\{[^`]*`|%x[({]|"
        r"\b(?:shell_exec|passthru|proc_open|popen)\s*\(|\bsystem\s*\(\s*\$|\bexec\s*\(\s*['\"][^'\"]*['\"]\s*\.\s*\$|"
        r"\bOpen3\.\w+\(\s*\"[^\"]*#\{|\bRuntime\.getRuntime\(\)\.exec\s*\(|\bnew\s+ProcessBuilder\s*\(\s*(?:List\.of\(|Arrays\.asList\()?\s*\"(?:sh|bash|/bin/sh|/bin/bash|cmd(?:\.exe)?)\"\s*,\s*\"(?:-c|/c)\"|\bCommand::new\(\s*\"(?:sh|bash|/bin/sh|/bin/bash|cmd)\"\s*\)|\bcreate_subprocess_shell\s*\(")),
    ("builds SQL from text (SQL injection?)", ("select", "insert", "update", "delete", "where", "raw(", "order(", "group(", "having(", "joins(", "find_by_sql", "orderby(", "groupby(",
                                "pluck(", "exists?(", "set ", "create ", "drop ", "alter ", "truncate ", "grant "), re.compile(
        r"(?i:\bselect\b[^'\"]*\bfrom\b|\binsert\s+into\b|\bupdate\s+\w+\s+set\b|\bdelete\s+from\b|\bwhere\s+[\w.]+\s*(?:=|like|ilike|in\b|~\*?|<>|!=))"
        r"(?:[^'\"]*['\"]{1,2}\s*(?:\+\s*[\w$(]|%\s*[\w(]|\.\s*\$|\.format\()|[^'\"]*(?:\$\{|#\{|\{\w[\w.\[\]'\"]*\}|\"\s*\+))|"
        r"(?:\b\w+Raw|\.raw)\s*\(\s*(?:`[^`]*\$\{|['\"][^'\"]*['\"]\s*\+\s*[\w$(]|[\w.$]+\s*\+\s*\"[^\"]*'\"\s*\+)|"
        r"(?:\.|->)(?:(?:and|or)?[Ww]here|order(?:By)?|group(?:By)?|having|joins|find_by_sql|pluck|exists\?)\s*\(\s*(?:\"[^\"]*#\{|`[^`]*\$\{|['\"][^'\"]*['\"]{1,2}\s*(?:\+|\.)\s*\$?\w|"
        # a double-quoted text holding the SQL's own quote (round 124g, held-out 676's squirrel README: ``Where("name LIKE '%" + q + "%'")``)
        r"\"[^\"'\n]*'[^\"\n]*\"\s*\+\s*\w)|"
        r"\bSprintf\(\s*\"(?i:[^\"]*\b(?:select\b[^\"]*\bfrom|insert\s+into|update\s+\w+\s+set|delete\s+from|where))[^\"]*%[svdq]|\bSprintf\(\s*`(?i:[^`]*\b(?:select\b[^`]*\bfrom|insert\s+into|update\s+\S+\s+set|delete\s+from|where)[^`]*(?:[=<>]\s*|\bin\s*\(\s*|\blike\s+)'?%[svdq])|"
        r"\$\"(?i:[^\"]*\b(?:select\b[^\"]*\bfrom|insert\s+into|update\s+\w+\s+set|delete\s+from|where))[^\"]*\{|"
        r"\"(?i:[^\"]*\b(?:select\b[^\"]*\bfrom|insert\s+into|update\s+\w+\s+set|delete\s+from)\b[^\"]*\bwhere\b)[^\"]*\$\w|"
        r"\bf(['\"])(?i:(?:(?!\1).)*?(?:\bselect\b(?:(?!\1).)*?\bfrom\b|\binsert\s+into\b|\bupdate\s+\w+\s+set\b|\bdelete\s+from\b|\bwhere\b|(?<=['\"])(?-i:SET\s+\w+\s+(?:TO\b|=)|(?:CREATE|DROP|ALTER|TRUNCATE)\s+(?:TABLE|INDEX|SCHEMA|DATABASE|USER|ROLE|VIEW)\b|GRANT\s)))(?:(?!\1).)*?\{")),
    ("pipes a download into a shell", ("curl", "wget", "iex", "invoke-expression", "bash<("), re.compile(
        # (the shell given its environment first: ``| PYENV_ROOT="$R" bash``, ``| env X=1 sh``, round 53: blind 76's tink-py)
        r"\b(?:curl|wget)\b[^|;&\n]*\|\s*(?:sudo\s+)?(?:-E\s+)?(?:env\s+)?(?:\w+=(?:\"[^\"]*\"|'[^']*'|[^\s|;&]*)\s+)*(?:(?:ba|z|da|k)?sh\b|(?:python3?|perl|ruby|node|php|\$[({]?PYTHON\d?[)}]?)\s*-?\s*['\"]?\s*(?:$|&&|;|\|\||`))|"
        r"\b(?:ba)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:ba|z)?sh\s+-c\s+['\"]?\$\(\s*(?:curl|wget)\b|"
        r"\b(?:iex|Invoke-Expression)\b.*\b(?:iwr|Invoke-WebRequest|DownloadString|irm|Invoke-RestMethod)\b|"
        r"\b(?:iwr|Invoke-WebRequest|irm|Invoke-RestMethod)\b.*\|\s*(?:iex|Invoke-Expression)\b", re.I)),
    ("widens CI permissions or triggers", ("permissions", "write", "pull_request_target", "workflow_run", "inherit",
                                           "actions_allow_unsecure_commands"), re.compile(
        r"^\s*permissions\s*:\s*write-all\b|\bpull_request_target\b|^\s*-?\s*workflow_run\s*:|"
        # (An event's text pasted into a step's script is relay.review.build_lines' script injection, read first.)
        r"^\s*secrets\s*:\s*inherit\b|ACTIONS_ALLOW_UNSECURE_COMMANDS")),
    ("adds a script that runs at install", ("install", "update-cmd", "autoload-dump", "create-project-cmd"), re.compile(
        r"^\s*\"(?:preinstall|install|postinstall)\"\s*:\s*\"|^\s*\"(?:pre|post)-(?:install|update)-cmd\"\s*:|"
        r"^\s*\"post-(?:autoload-dump|package-install|root-package-install|create-project-cmd)\"\s*:")),
    ("builds a file path from the request (path traversal?)", (".path", ".url", ".params", ".query", ".args", "params[", "$_", "formvalue",
                                                                          ".form", ".values", "request.get", "req.get", "r.get",
                                                                          "request.post", "req.post", "r.post", "paths.get", "path.of",
                                                                          "newfile("), re.compile(
        r"\b\w*(?:path|dir|root|static|base|folder)\w*\s*\+\s*(?:r|req|request)\.(?:URL\.Path|path|url|params|query|args)\b|"
        r"\b(?:open|send_?file|readFile\w*|os\.Open|createReadStream|unlink\w*|rm(?:Sync)?|rmdir\w*|delete(?:Sync|Async)?|rimraf\w*)\s*\(\s*(?:[\"'][^\"']*[\"']\s*\+\s*)?(?:decodeURI(?:Component)?\s*\(\s*)?(?:r|req|request)\.(?:URL\.Path|path|url|params|query|args)\b|"
        r"\b(?:File\.(?:read|open|binread)|IO\.read|send_file|send_data\s*\(?\s*File\.read|open|render\s+file:)\s*\(?\s*params\[|"
        r"\b(?:include|require)(?:_once)?\s*\(?\s*\$_(?:GET|POST|REQUEST|COOKIE)\b|"
        # A request's value handed straight to a call named for a path or a file (``decodePath($_GET['image'])``).
        r"\b(?!(?:sanit|clean|normali|valid|safe|real|base|escape|is_?)\w*\()\w*(?:path|file)\w*\s*\(\s*\$_(?:GET|POST|REQUEST|COOKIE)\b|"
        r"\b(?:Paths\.get|Path\.of|new\s+File)\s*\([^;]*\b(?:getParameter|queryParam|pathParam|formParam)\s*\(|"
        r"\b(?:filepath|path|os\.path|posixpath)\.[Jj]oin\s*\([^)]*\b(?:r|req|request)\.(?:URL\.Query\(\)\.Get|FormValue|args|form|values|GET|POST|params|query)\b|\b(?:file_get_contents|fopen|readfile)\s*\(\s*\$_(?:GET|POST|REQUEST)\b", re.I)),
    ("redirects to a URL the request supplies", ("redirect", "location", "return_to", "returnto", "return_url", "returnurl", "came_from",
                                                 "camefrom", "goto", "back_url", "backurl", "callback_url", "callbackurl", "'next", "\"next",
                                                 ":next", ".next", "[next"), re.compile(
        r"\bredirect(?:_to)?\s*\(?\s*(?:request|req|params|flask\.request)(?:\.|\[:?)(?:args|query|params|GET|POST|form|body|values|get|\w+)|"  # Ruby's params[:RelayState]
        r"\bredirect(?:_to)?\s*\(?\s*(?:ctx|c|this|self)\.(?:request\.|req\.)?(?:query|params|args|body|Query|QueryParam|FormValue|queryParam|formParam|queryParams)\b|"
        r"\bsendRedirect\s*\(\s*(?:req|request)\.getParameter\s*\(|"
        r"\bRedirect\s*\([^)]*\b(?:URL\.Query\(\)\.Get|FormValue|Query|QueryParam)\s*\(|"
        r"\bHttpResponseRedirect\s*\(\s*request\.|\bLocation:\s*['\"]\s*\.\s*\$_(?:GET|POST|REQUEST)\b|\bLocation['\"]?\s*,\s*(?:req|request)\.(?:query|params|body|args)|"
        r"\b(?:window\.)?location(?:\.href)?\s*=\s*(?:params|query|new\s+URLSearchParams|location\.hash|getParam)|"
        r"\blocation\.(?:assign|replace)\s*\(\s*(?:params|query|new\s+URLSearchParams|location\.hash|getParam)|"
        # A page's redirect target read from its own query string (round 21 part B: new URLSearchParams(location.search).get('next')).
        r"\bURLSearchParams\s*\([^()]*(?:\([^()]*\))?[^()]*\)\s*\.get\(\s*['\"](?:return_?to|returnTo|redirect(?:_?(?:to|url|uri))?|redirectTo|"
        r"redirectUrl|next|return_?url|returnUrl|came_?from|back_?url|backUrl|goto|callback_?url|callbackUrl)['\"]|"
        # A redirect target read from the request by its usual names (Rails' params[:return_to], Django's GET['next']).
        r"(?<![=:]\s)(?<![=:])(?:\b(?:params|request\.(?:args|GET|POST|params|query|query_params|form|values)|req\.(?:query|params|body)|searchParams)|\$_(?:GET|POST|REQUEST))"
        r"\s*(?:\[\s*[:'\"]?|\.get\(\s*['\"]|\.(?<=query\.)|\.(?<=params\.)|\.(?<=body\.))(?:return_?to|returnTo|redirect(?:_?(?:to|url|uri))?|redirectTo|redirectUrl|next|return_?url|returnUrl|"
        r"came_?from|back_?url|backUrl|goto|callback_?url|callbackUrl)\b|"
        # The same names read through any accessor of the request's parameters (Sinatra's or a web UI's url_params("return_to"),
        # Java's getParameter("returnUrl"), Go's c.Query("redirect")).
        r"\b\w*(?:[Pp]aram|[Qq]uery|QUERY)\w*\s*\(\s*[:'\"](?:return_?to|returnTo|redirect(?:_?(?:to|url|uri))?|redirectTo|redirectUrl|return_?url|"
        r"returnUrl|came_?from|back_?url|backUrl|callback_?url|callbackUrl)['\"]?\s*\)")),
) + classic_lines.CALLS + classic_places.CALLS + slipped_lines.CALLS + classic_cells.CALLS + exposing_lines.CALLS

_VALUE_SCREENS = tuple(Screen(words, pattern) for _, words, pattern in _UNSAFE_VALUES)
_CALL_SCREENS = tuple(Screen(words, pattern) for _, words, pattern in _DANGEROUS_CALLS)
# One screen over every pattern: most lines hold none of the words, and nothing more is read of them.
# A package's file mode with the setuid bit is kept in any settings or build file too (relay.review.lets_through).
_ALL = Screen(tuple(w for _, words, _ in (*_UNSAFE_VALUES, *_DANGEROUS_CALLS) for w in words) + tuple(k for k, _, _ in _SAFE_SETTINGS) + SETUID_WORDS)


def risky_screen(line: str) -> bool:
    """Whether a line may hold a risky value or call (the cheap word pre-check every reader here starts with); a line
    holding a vendor's credential shape always may (docs prose included: relay.review.file_kinds keeps it for the rules)."""
    return _ALL.passes(line) or vendor_secret(line) is not None


_WORD_AT_RE = re.compile(r"[\w$]*")
# A page's shell command (a prompt, or variables before a program): a tool run with debug output, not a deployed setting (gitlint's docs).
_COMMAND_RE = re.compile(r"^(?:(?:\$|#|>|PS>)\s+\S|(?:[A-Z_][A-Z0-9_]*=\S+\s+)+[\w./-]+(?:\s|$))")


def _shown(line: str, at: int = 0) -> str:
    """The line as a reason quotes it: whole when short, else a window that holds what was found (at ``at``)."""
    text = " ".join(line.split())
    if len(text) <= LINE_CHARS_SHOWN:
        return text
    at = len(" ".join(line[:at].split())) + (1 if line[at - 1].isspace() else 0) if at else 0  # the space before it stays
    # What was found shows whole from its start: 16 characters, or its whole word when longer (round 65: formik's
    # ``dangerouslySetInnerHTML`` was quoted "…dangerouslySetInne…").
    seen = max(16, len(_WORD_AT_RE.match(text, at).group(0)) + 1)
    start = 0 if at + seen < LINE_CHARS_SHOWN else max(0, min(at - 16, len(text) - LINE_CHARS_SHOWN + 1))
    head = "…" if start else ""
    body = text[start:start + LINE_CHARS_SHOWN - 1 - len(head)]
    return head + body + ("…" if start + len(body) < len(text) else "")


# A number written again in another spelling of the same value (a formatter's pass: Go's and Python's 0o777 for 0777,
# digit separators) is the line that stood, not a new one.
_OCTAL_PREFIX_RE, _DIGIT_SEPARATOR_RE = re.compile(r"\b0[oO](?=[0-7])"), re.compile(r"(?<=[0-9])_(?=[0-9])")


def _same(line: str) -> str:
    return squeezed(_DIGIT_SEPARATOR_RE.sub("", _OCTAL_PREFIX_RE.sub("0", line.strip())))


def _new_lines(lines: Sequence[str], other: Sequence[str]) -> list[str]:
    """The lines of one side that do not stand again, squeezed, on the other: what the change really wrote."""
    before = {_same(line) for line in other}
    return [line for line in lines if line.strip() and _same(line) not in before]


@functools.lru_cache(maxsize=16384)  # a line is read again when a part of its file is read alone
def _value_hit(code: str) -> tuple[str, tuple[int, int | None]] | None:
    vendor = vendor_secret(code)
    if vendor is None and not _ALL.passes(code):
        return None
    for (what, _, pattern), screen in zip(_UNSAFE_VALUES, _VALUE_SCREENS):
        if what == SECRET and vendor is not None:
            return what, (vendor.start(), vendor.end())  # a vendor's credential shape, whatever the line around it
        if not screen.passes(code):
            continue
        found = pattern.search(code)
        if found is None:
            continue
        if what == SECRET:
            value = (found.group("value") or found.group("fallback") or found.group("bearer") or found.group("urlpass")
                     or found.group("keylit") or found.group("keycall") or found.group("xmlval") or found.group("xmlattr") or found.group("envval") or found.group("tagval") or found.group("tagdef"))
            if value is not None and (_PLACEHOLDER_RE.search(value) or encodes_text(value)):
                continue
        return what, _at(found)
    return None


def _at(found: re.Match[str]) -> tuple[int, int | None]:
    """Where the risky part of a match is: a pattern that reads a line's context first marks that part with a group
    named ``at…`` (start and end: the reason's quote is centred on it), else the match's own start."""
    for name in found.re.groupindex:
        if name.startswith("at") and found.start(name) >= 0:
            return found.start(name), found.end(name)
    return found.start(), None


def _quote(code: str, at: tuple[int, int | None]) -> str:
    # The finding leads its quote (a few characters before it, not centred): a packet short of room cuts reasons from the
    # end, and the token found must outlive the cut (round 21: "…ol install -g docfx --add-…" lost its http:// feed).
    return _shown(code, at[0]) if at[1] is None else window(code, at[0], at[1], LINE_CHARS_SHOWN, lead=12)


@functools.lru_cache(maxsize=16384)
def _call_hit(code: str) -> tuple[str, tuple[int, int | None]] | None:
    if not _ALL.passes(code):
        return None
    for (what, _, pattern), screen in zip(_DANGEROUS_CALLS, _CALL_SCREENS):
        found = pattern.search(code) if screen.passes(code) else None
        if found:
            return what, _at(found)
    return None


# A docs page's install instruction (a package from a git URL, a trusted host) is often the page's own subject
# (a how-to's example, a page moved to another format): it is said only where it edits a line of the page that stood
# without it (round 15: four how-to pages of a docs migration were high). A sample that changes toward risk still is.
_INSTRUCTIONS = ("installs a package from a git branch", "turns package integrity checks off")


def _instruction_kept(what: str, code: str, removed: Sequence[str], hit: Callable[[str], tuple[str, object] | None]) -> bool:
    if not what.startswith(_INSTRUCTIONS):
        return True
    return any(edits_line(old, code) and (hit(old.strip()) or ("",))[0] != what for old in removed)


def insecure_instruction(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"tells readers to turn package integrity checks off: …" for a docs page's new install line that does (``GOINSECURE=…
    go get``, ``pip install --trusted-host``), the instruction ``unsafe_value`` leaves to the page (round 15: a how-to's own
    example, new in a rewrite, is not high). What a reader copies still fetches unchecked code: said, at medium (round 21)."""
    for line in _new_lines(added, removed):
        code = line.strip()
        hit = _value_hit(code)
        if hit and hit[0] == _INSTRUCTIONS[1] and not looks_like_prose(code):
            return f"tells readers to turn package integrity checks off: {_quote(code, hit[1])}"
    return None


def unsafe_value(added: Sequence[str], removed: Sequence[str], *, prose_too: bool = True) -> str | None:
    """"what it does: the line" for the first added line that turns a security value the unsafe way, or the
    first safe setting the change removes without setting it again; None when there is none. ``prose_too``
    False: lines that read as sentences are left out (a README's words about a setting)."""
    for line in _new_lines(added, removed):
        code = line.strip()
        hit = _value_hit(code)
        # A vendor's credential is one in a sentence too (a README that pastes a real token into its words).
        if hit and (prose_too or (hit[0] == SECRET and vendor_secret(code)) or not looks_like_prose(code) and _instruction_kept(hit[0], code, removed, _value_hit)) \
                and (prose_too or hit[0] != "turns debug mode on" or not _COMMAND_RE.match(code)):
            return f"{hit[0]}: {_quote(*masked(code, hit[1]) if hit[0].startswith(SECRET) else (code, hit[1]))}"
    gone = _new_lines(removed, added)
    if gone:
        kept = " ".join(added)
        for line in gone:
            code = line.strip()
            if not _ALL.passes(code):
                continue
            for key, what, pattern in _SAFE_SETTINGS:
                if pattern.search(code) and not pattern.search(kept) and (prose_too or not looks_like_prose(code)):
                    return f"{what}: removes {_shown(code)}"
    return None


# A workflow's permission turned from read (or none) to write: a publishing workflow asks for write from the
# start, a build that gains it was widened.
_SCOPE_RE = re.compile(r"^\s*(contents|packages|id-token|actions|pull-requests|issues|deployments|checks|statuses|security-events|pages|"
                       r"attestations)\s*:\s*(read|write|none)\b")


def dangerous_call(added: Sequence[str], removed: Sequence[str], *, prose_too: bool = True) -> str | None:
    """"what it does: the line" for the first added line that runs text as code or commands, redirects where
    the request says, or widens a CI workflow; None when there is none."""
    new = _new_lines(added, removed)
    for line in new:
        code = line.strip()
        hit = _call_hit(code)
        if hit and (prose_too or not looks_like_prose(code) and _instruction_kept(hit[0], code, removed, _call_hit)) and not setting_carried(code[hit[1][0]:hit[1][1]], removed):
            return f"{hit[0]}: {_quote(code, hit[1])}"
    narrower = {m.group(1) for line in removed if (m := _SCOPE_RE.match(line)) and m.group(2) != "write"}
    for line in new:
        m = _SCOPE_RE.match(line)
        if m and m.group(2) == "write" and m.group(1) in narrower:
            return f"widens CI permissions or triggers: {_shown(line)}"
    return None


# Every pre-check of this module with the patterns it guards, for tests/test_screens.py.
SCREENS: dict[str, Screen] = {
    **{f"unsafe value: {what}": screen for (what, _, _), screen in zip(_UNSAFE_VALUES, _VALUE_SCREENS)},
    **{f"dangerous call: {what}": screen for (what, _, _), screen in zip(_DANGEROUS_CALLS, _CALL_SCREENS)},
}
