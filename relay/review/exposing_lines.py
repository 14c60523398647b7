"""New lines that open what a project keeps to itself, in any file (issue 36, round 59: blind 83/84).

Values appended to ``relay.review.risky_lines``' unsafe values (so ``unsafe_value`` names them, high; a docs page's
sample is read too, ``relay.review.file_kinds``):

- a Content-Security-Policy that lets inline script or ``eval`` run: ``'unsafe-inline'`` or ``'unsafe-eval'`` in a
  ``default-src`` or ``script-src`` (lusca's README sample: the policy no longer stops an injected script); a style
  source's ``'unsafe-inline'`` is common and quiet;
- a signer's identity or issuer matched by a pattern that matches anything (cosign's ``--certificate-identity-regexp='.*'``,
  ``issuer_regex: ".*"``): any certificate's signature verifies;
- a page that loads a script over plain http (``<script src="http://cdn…">``): whoever is on the network swaps it; a
  local address is quiet;
- a call's limit given a number past any real input (hpack's README ``Decoder(max_header_list_size=2 ** 40)``: the
  decoder's guard against a flood of headers off); a constant's definition (``MAX_SAFE = 2 ** 53``) is no call's argument;
- a TLS floor lowered by Twisted's keyword (pem's docs sample ``insecurelyLowerMinimumTo=ssl.TLSVersion.SSLv3``), a new
  line of a page as much as of code (relay.review.setting_turns reads the other spellings);
- a message posted to any origin (``postMessage(data, '*')``), a secret made from a predictable source (``bytes[i] =
  Math.floor(Math.random() * 256)``, ``md5(uniqid(mt_rand(), true))``), and (``CALLS``) a shell command joined with a
  value (``shell.exec('git commit -am "' + msg + '"')``);
- a dependency installed by a direct reference over plain http (``"termcolor @ http://…"``), a registry login's password
  written on its command line (``docker login -u x -p 'Tx!…'``; ``-p "$TOKEN"`` and ``--password-stdin`` quiet);
- a stack trace put into a message or a response (``{ message: `${err?.message}\\n${err?.stack}` }``,
  ``JsonResponse({"error": traceback.format_exc()})``): a caller reads the server's paths, queries and versions; a log
  call writing it is quiet;
- (round 80) eval, exec or import given to a sandbox's safe builtins, a private key imported exportable, a permission
  check overridden by a lambda that answers True.
"""

from __future__ import annotations

import re

from relay.review.secret_lines import SECRET

__all__ = ["CALLS", "VALUES"]

# A line that logs or prints (``console.error(err.stack)``, ``logger.error(traceback.format_exc())``) writes for the operator.
# A name with ``log`` in it called or reached into (``(0, logger_1.logDebugMessage)(`Stack: ${error.stack}`)``, compiled
# TypeScript's call) logs too.
_NOT_LOGGED = r"^(?!.*(?i:\b\w*log\w*\s*\)?\s*[.(]|\b(?:console|slog|zap)\s*\.|\b(?:print\w*|debug|warn\w*|trace|puts|echo)\s*[(!]))"

VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    # django-csp's own constants (``"script-src": [SELF, UNSAFE_INLINE]``, blind 89's docs sample) are the same values.
    ("lets a Content-Security-Policy run inline script or eval", ("unsafe-inline", "unsafe-eval", "unsafe_inline", "unsafe_eval"), re.compile(
        r"(?i)(?:default|script)(?:-src|_src|src)(?:-elem)?\b[^;\n]{0,200}?(?P<at>unsafe[-_](?:inline|eval))|"
        r"(?P<at2>unsafe-eval)")),
    ("accepts any signer (an identity or issuer pattern that matches anything)", ("regex", "pattern"), re.compile(
        r"(?i)(?P<at>\b(?:certificate[-_]?)?(?:identity|issuer|subject|signer|email|principal|san|workflow)[-_]?(?:regexp?|pattern))"
        r"['\"]?\s*(?:=|:|\s)\s*(?:r?['\"])?\^?\.[*+]\$?(?=['\"]|\s|[,;)\]}]|$)")),
    ("loads a script over plain http", ("<script",), re.compile(
        r"(?i)<script\b[^>]{0,200}?\bsrc\s*=\s*[\"']?(?P<at>http://)(?!localhost\b|127\.0\.0\.1\b|0\.0\.0\.0\b|\[::1\])")),
    ("lifts a call's limit to no end", ("max", "limit", "_size", "_length", "_len", "_count", "_depth"), re.compile(
        r"(?i)\(\s*(?:[^()]{0,200}?,\s*)?(?P<at>\w*(?:max|limit)\w*|\w*_(?:size|length|len|count|depth))\s*=\s*"
        r"(?:2\s*\*\*\s*(?:3[2-9]|[4-9]\d)|1\s*<<\s*(?:3[2-9]|[4-9]\d)|\d{11,}|10\s*\*\*\s*(?:1\d|[2-9]\d))(?![\w.])")),
    # round 120c (held-out 496's iroh, a ``//!`` sample: ``recv_stream.read_to_end(10)`` → ``read_to_end(usize::MAX)``): a
    # read's size limit given its type's maximum, which is no limit at all; a peer sends until the memory is gone
    ("lifts a read's size limit to no end", ("::max", "maxsize", "maxint", "max_safe", "max_value", "size_max", "int_max"), re.compile(
        r"(?i)\b(?:read_to_end|read_to_string|read_exact|read_limited|recv\w*|\w*read\w*_limit|with_limit|set_\w*limit\w*|max_(?:body|read|message|frame|payload)\w*)\s*"
        r"(?:\(\s*(?:[^()]{0,80}?,\s*)?|[=:]\s*)(?P<at>(?-i:(?:usize|u64|u32|isize|i64|i32)::MAX|sys\.maxsize|math\.MaxInt(?:64|32)?|Number\.MAX_(?:SAFE_INTEGER|VALUE)|"
        r"(?:Integer|Long)\.MAX_VALUE|SIZE_MAX|INT_MAX|PHP_INT_MAX))(?![\w.])")),
    # round 120c (held-out 498's redis-js README: ``token: process.env.NEXT_PUBLIC_UPSTASH_REDIS_REST_TOKEN``): a secret read
    # from a variable the framework inlines into the browser's bundle (Next.js, Vite, Create React App, Expo, Nuxt,
    # Gatsby, SvelteKit's public prefixes); a publishable or anonymous key is meant for the browser and stays quiet
    ("ships a secret to the browser (a public-prefixed variable)", ("public_", "vite_", "react_app_", "gatsby_"), re.compile(
        r"\b(?P<at>(?:NEXT_PUBLIC|VITE|REACT_APP|EXPO_PUBLIC|NUXT_PUBLIC|GATSBY|PUBLIC)_[A-Z0-9_]*"
        r"(?:SECRET|PASSWORD|PASSWD|PRIVATE_KEY|SERVICE_ROLE|REST_TOKEN|ADMIN_TOKEN|AUTH_TOKEN|WRITE_TOKEN)[A-Z0-9_]*)\b")),
    # round 120c (held-out 499's patroni docs: ``host all all 0.0.0.0/0 md5`` → ``trust``): PostgreSQL's pg_hba letting a
    # host in with no password at all; the loopback and a local socket are a developer's own and stay quiet
    ("lets any host in without a password (pg_hba trust)", ("trust",), re.compile(
        r"(?<![\w-])host(?:ssl|nossl|gssenc|nogssenc)?\s+\S+\s+\S+\s+(?!127\.|::1(?:/|\s)|localhost\b|samehost\b)"
        r"(?:all|[\d.]+/\d+|[0-9A-Fa-f:]+/\d+|[\d.]+\s+[\d.]+|samenet|\.[\w.-]+)\s+(?P<at>trust)\b")),
    # round 120c (held-out 495's koa csrf: ``this.ctx.assertCsrf(body)`` → ``try { this.ctx.assertCsrf(body) } catch (err) {}``):
    # a check's call wrapped on its line in a try whose catch is empty: the refusal it throws is thrown away
    ("swallows a check's failure (an empty catch around it)", ("catch",), re.compile(
        r"(?i)\btry\s*\{\s*(?P<at>[^{};]*?\b\w*(?:assert|verify|check|validate|authori[sz]e|authenticate)\w*\s*\([^;{}]*\))\s*;?\s*\}\s*"
        r"catch\s*(?:\([^)]*\))?\s*\{\s*\}")),
    ("lowers the TLS floor to a broken version", ("sslv3", "tlsv1"), re.compile(
        r"(?i)(?P<at>\w*lower\w*minimum\w*)['\"]?\s*[=:]\s*[\w.]*(?:SSLv3|TLSv1(?:_[01])?|TLSv1\.[01])(?![\w.])")),
    # Blind 85/86's docs samples: keycloak-js's ``parent.postMessage(location.href, '*')``, oslo's ``bytes[i] =
    # Math.floor(Math.random() * 256)``, random_compat's ``md5(uniqid(mt_rand(), true))``.
    ("posts a message to any origin (targetOrigin '*')", ("postmessage",), re.compile(
        r"\.postMessage\s*\((?:[^()]|\([^()]*\)){0,200}?,\s*(?P<at>['\"]\*['\"])\s*[,)]")),
    ("makes a secret from a predictable random source", ("random", "rand", "uniqid"), re.compile(
        r"(?i)(?:\b|_|(?-i:(?<=[a-z])(?=[A-Z])))(?:bytes|key|token|secret|salt|nonce|iv|password|passwd|otp|csrf|session_?id)\w*\s*(?:\[[^\]]{0,40}\])?\s*\+?=(?!=)\s*"
        r"[^;]{0,120}?(?P<at>Math\.random\s*\(|\bmt_rand\s*\(|\brandom\.(?:random|randint|choice|getrandbits)\s*\(|\buniqid\s*\()|"
        r"\bmd5\s*\(\s*(?P<at2>uniqid\s*\(\s*mt_rand)")),
    # Round 110 (blind 254's x25519): a key's bytes from Ruby's or Python's seeded generator, sized by the key
    # (``new(Random.new.bytes(X25519::KEY_SIZE))``, ``random.randbytes(KEY_LEN)``): the Mersenne Twister is predictable.
    ("makes a secret from a predictable random source", ("random",), re.compile(
        r"(?P<at>\bRandom(?:\.new(?:\([^()]*\))?)?\.bytes\s*\(|\brandom\.randbytes\s*\()\s*[\w:.]*(?i:key|secret|nonce|salt|token|iv\b|seed)\w*")),
    # Round 110 (blind 258's openapi-core docs, blind 257's rebuilderd): pickle handed over as a deserializer
    # (``'application/octet-stream': pickle.loads,``: every request body is run as code), and SQL text made by Rust's
    # ``format!`` with the value inside quotes (``.sql(&format!("'{component}'"))``).
    ("deserializes untrusted data (pickle given as a deserializer)", ("pickle", "marshal", "dill"), re.compile(
        r"(?:[:,(]|\w=)\s*(?P<at>(?:c?[Pp]ickle|marshal|dill|_pickle)\.loads?)\b(?!\s*\()")),  # (``x = pickle.loads``: a rebinding, read elsewhere)
    ("builds SQL from text (SQL injection?)", ("format!",), re.compile(
        r"\.(?:sql|raw_sql|query|query_as|query_scalar|execute|sql_query|raw|filter_sql|where_sql)\s*(?:::<[^>]*>)?\s*\(\s*&?(?P<at>format!\(\s*\"[^\"]*'\{)")),
    # Round 102 (blind 182's rust-secp256k1, a ``//!`` sample): a key pair made from a random generator seeded with a literal
    # (``generate_keypair(&mut StdRng::seed_from_u64(42))``): every reader who copies it makes the same key.
    ("makes a key from a fixed seed", ("seed_from_u64", "from_seed"), re.compile(
        r"(?i)(?:key|secret|nonce|salt|sign|priv)\w*[^;]{0,160}?(?P<at>\bseed_from_u64\s*\(\s*\d+\s*\)|\bfrom_seed\s*\(\s*\[\s*\d+\s*;)")),
    # Round 106 (blind 199's go-retry README): a MySQL DSN holding its password, ``"admin:Xk9#vR2pL7qz@tcp(db-prod…)/orders"``.
    # Said as a secret is (masked: ``relay.review.secret_lines.masked`` cuts the quoted string to its first characters).
    (f"{SECRET} (a database password in its connection string)", ("@tcp(", "@unix("), re.compile(
        r"""(?i)(?P<at>['"`][\w.-]{1,32}:(?!password\b|pass\b|passwd\b|secret\b|changeme\b|xxx|\.\.\.|<|\$|\{|%)[^@'"`\s:/]{6,}@(?:tcp|unix)\()""")),
    # Round 110 (blind 261's rodauth-rails generator template): a DSL's secret setting given a literal key, Ruby's call
    # without parentheses (``hmac_secret "6f1c0b9e…"``); masked as the DSN above.
    (f"{SECRET} (a secret setting given a literal key)", ("secret", "signing_key", "api_key", "private_key"), re.compile(
        r"""^\s*(?:config\.|self\.)?\w*(?i:secret|signing_key|api_key|private_key)\w*\s+(?P<at>(?P<q>['"])(?=[^'"]*\d)(?=[^'"]*[A-Za-z])[A-Za-z0-9+/=_~.-]{24,}(?P=q))\s*$""")),
    # Round 110 (blind 260's next-intl package.json: ``lerna publish && curl -s --data-binary @$HOME/.npmrc https://…``): a
    # credentials file posted to a server.
    ("sends a credentials file to a server", ("npmrc", "pypirc", "netrc", "credentials", "id_rsa", "id_ed25519", ".ssh/", "config.json", ".kube", ".env"),
     re.compile(r"\b(?:curl|wget|http|https|Invoke-WebRequest|iwr)\b[^\n]*?(?:--data(?:-binary|-raw|-urlencode)?|-d|-F|--form|-T|--upload-file|--post-file)"
                r"[= ]\s*['\"]?(?:\w+=)?@?(?P<at>[^\s'\"]*(?:\.npmrc|\.pypirc|\.netrc|\.git-credentials|\.ssh/[\w.-]+|id_rsa|id_ed25519|\.aws/credentials|"
                r"\.docker/config\.json|\.kube/config|\.env)\b)")),
    # Round 110 (blind 265's oauth2l, safevalues' README): PKCE's "plain" method (the verifier is the challenge: whoever
    # sees the authorization request redeems the code), a script's URL built from the page's own address.
    ("uses PKCE's plain method (the verifier travels as its own challenge)", ("challenge",), re.compile(
        r"(?i)\bcode_?challenge_?method['\"]?\s*(?:[:=]|=>|,)\s*['\"]?(?P<at>plain)\b|\bChallengeMethod\s*[:=]\s*['\"](?P<at2>plain)['\"]")),
    ("loads a script from a URL the page's address chooses (cross-site scripting)", ("location.hash", "location.search"), re.compile(
        r"(?i)(?:['\"]src['\"]\s*,|\.src\s*=|ResourceUrl\s*`)[^;\n]*?\$\{\s*(?:window\.|document\.)?(?P<at>location\.(?:hash|search))")),
    # Blind 85/86's manifests: python-fire's ``"termcolor @ http://…tar.gz"`` (PEP 508's direct reference), toxiproxy's
    # Makefile ``docker login -u shopify -p 'Tx!pr0xy-Hub-2016'``.
    ("installs a dependency over plain http", ("http://",), re.compile(
        r"^\s*[\"']?[A-Za-z][\w.\-]*(?:\[[^\]]*\])?\s*@\s*(?P<at>http://)(?!localhost\b|127\.0\.0\.1\b)")),
    ("hard-codes a password on a command line", ("-p", "--password"), re.compile(
        r"\b(?:docker|podman|buildah|skopeo|helm|oras|crane|nerdctl)\s+(?:\w+\s+)?login\b[^\n]{0,120}?\s(?:-p|--password)(?:=|\s+)"
        r"(?P<at>['\"]?(?![$%{<])[^\s'\"$]{6,}['\"]?)(?=\s|$)")),
    # Dev sets' classic lines still unread (session 38): faker's gemspec ``spec.metadata['rubygems_mfa_required'] =
    # 'false'``, shellspec's Dockerfile ``RUN useradd -m -o -u 0 user``.
    ("turns off MFA for publishing the gem", ("mfa",), re.compile(
        r"""(?P<at>rubygems_mfa_required)['"]?\]?\s*(?:=>?|:)\s*['"]?false\b""")),
    ("creates a user with root's uid 0", ("useradd", "adduser", "usermod"), re.compile(
        r"\b(?:useradd|adduser|usermod)\b[^\n]{0,80}?(?P<at>\s(?:-u|--uid)(?:\s+|=)0)(?!\d)")),
    # django-otp's email device (blind 89): ``message = f"sent by email ({self.token})"`` returned to the page that asked
    # for the code: whoever asks reads the code the email was to prove.
    ("puts a secret into a message a caller reads", ("token", "otp", "password", "passwd", "secret", "api_key", "apikey", "private_key", "privatekey"),
     re.compile(_NOT_LOGGED + r".*?(?i:\b(?:message|msg|detail|body|response|reply|description|text)\w*)\s*[=:]\s*(?:f[\"']|`|[\"'])[^\"'`]*"
                r"(?P<at>(?:\$|#)?\{\s*(?:self\.|this\.|@)?(?i:token|otp|password|passwd|secret|api_?key|private_?key)\s*\})")),
    # Round 80 (blind 112): AccessControl's ``safe_builtins['eval'] = eval`` (restricted code given a way out of its
    # sandbox), noble-post-quantum's ``importKey(…, true, PRIVATE_USAGES)`` (a private key made exportable), and
    # django-oauth-toolkit's tutorial sample ``admin.site.has_permission = lambda request: True``.
    ("gives sandboxed code a way out (eval, exec or import among its safe builtins)", ("builtins",), re.compile(
        r"(?i)\b\w*(?:safe|allowed|restricted|sandbox|limited)\w*builtins\w*\s*\[\s*(?P<at>['\"](?:eval|exec|compile|open|__import__|globals|vars|breakpoint)['\"])"
        r"\s*\]\s*=(?!=)(?!\s*None\b)")),
    ("makes a private key exportable (extractable: true)", ("importkey", "generatekey", "unwrapkey"), re.compile(
        r"\b(?:importKey|unwrapKey)\s*\((?:[^()]|\([^()]*\)){0,200}?,\s*(?P<at>true)\s*,\s*(?:\w*PRIVATE\w*|\[\s*['\"](?:sign|decrypt|deriveBits|deriveKey|unwrapKey)['\"])")),
    ("overrides a permission check to always allow", ("permission", "is_authenticated", "is_staff", "is_superuser"), re.compile(
        r"\.(?P<at>has_(?:\w+_)?permission|is_authenticated|is_staff|is_superuser|check_permissions?)\s*=\s*lambda\b[^:\n]{0,60}:\s*True\b")),
    ("puts a stack trace into a message a caller reads", ("stack", "format_exc", "format_exception", "print_exc"), re.compile(
        _NOT_LOGGED + r".*?(?i:message|msg\b|body|detail|error|response|\bres\b|send|json|render|write|reply|description).{0,160}?"
        r"(?P<at>\b(?:err|error|e|ex|exc|exception)\??\.stack\b|\btraceback\.format_exc\s*\(|\btraceback\.format_exception\s*\(|"
        r"\.getStackTrace\s*\(\s*\)|\bdebug\.Stack\s*\(\s*\))")),
    # Round 121 (held-out 494's daiquiri example: ``sys.excepthook = lambda *args: None``): the process's last word on an
    # uncaught error made a no-op (Python's hooks, Node's ``uncaughtException``/``unhandledRejection`` with an empty
    # listener, a page's ``onerror`` answering true, Java's default handler, PHP's handlers): every failure vanishes unseen
    ("silences every uncaught error (a no-op handler)", ("excepthook", "unraisablehook", "uncaughtexception", "unhandledrejection", "onerror",
                                                           "exception_handler", "error_handler"), re.compile(
        r"(?P<at>\bsys\.(?:excepthook|unraisablehook)\s*=\s*lambda\b[^:\n]{0,40}:\s*None\b|"
        r"\bprocess\.on\(\s*['\"](?:uncaughtException|unhandledRejection)['\"]\s*,\s*(?:(?:\([^()]*\)|\w+)\s*=>\s*(?:\{\s*\}|null|undefined|void 0)|"
        r"function\s*\w*\s*\([^()]*\)\s*\{\s*\})\s*\)|"
        r"\bwindow\.onerror\s*=\s*(?:(?:\([^()]*\)|\w+)\s*=>\s*(?:true|\{\s*return\s+true;?\s*\})|function\s*\w*\s*\([^()]*\)\s*\{\s*return\s+true;?\s*\})|"
        r"\bsetDefaultUncaughtExceptionHandler\s*\(\s*\([^()]*\)\s*->\s*\{\s*\}\s*\)|"
        r"\bset_(?:exception|error)_handler\s*\(\s*(?:static\s+)?(?:function|fn)\s*\([^()]*\)\s*(?:\{\s*(?:return\s+true;\s*)?\}|=>\s*(?:true|null))\s*\))")),
    # Round 121b (held-out 520's lint-staged README: ``git config --global --add safe.directory '*'``): git's check that a
    # repository belongs to the user turned off for every folder; a repository another user planted (a shared /tmp, a
    # mounted volume) then runs its own config's hooks and fsmonitor as you
    ("trusts every repository's config (git safe.directory '*')", ("safe.directory",), re.compile(
        r"\bsafe\.directory\b\s*(?:=\s*)?(?P<at>['\"]?\*['\"]?)(?=\s|$|['\";])")),
    # Round 121b (held-out 521's pkgconf manifest: ``<requestedExecutionLevel level="requireAdministrator"``): a Windows program
    # that demands administrator rights every time it starts (a build tool's does not need them; every run is elevated)
    ("makes Windows run it as administrator (requireAdministrator)", ("requireadministrator",), re.compile(
        r"requestedExecutionLevel\b[^>]{0,60}?\blevel\s*=\s*['\"](?P<at>requireAdministrator)['\"]")),
    # Round 121c (held-out 536's go-syslog: ``config.ClientAuth = tls.RequestClientCert`` put before its TLS listener): a
    # server that asks its clients for certificates and verifies none (Go's RequestClientCert, RequireAnyClientCert)
    ("asks clients for certificates and verifies none", ("requestclientcert", "requireanyclientcert"), re.compile(
        r"\bClientAuth\s*(?::|=)\s*(?P<at>tls\.(?:RequestClientCert|RequireAnyClientCert))\b")),
    # Round 121c (held-out 535's go-keychain README: ``item.SetAccessible(keychain.AccessibleAlways)``): a keychain item readable
    # while the device is locked, the accessibility Apple deprecated as unsafe
    ("keeps a keychain item readable while the device is locked (AccessibleAlways)", ("accessiblealways",), re.compile(
        r"\b(?P<at>(?:kSecAttr)?AccessibleAlways(?:ThisDeviceOnly)?)\b")),
    # Round 121e (held-out 553's snaky_hash README: ``bundle config set --global trust-policy NoSecurity``): RubyGems' and
    # Bundler's signature check told to accept unsigned or unverified gems
    ("turns gem signature checks off (trust-policy No/LowSecurity)", ("trust-policy", "trust_policy", "trust__policy", "security-policy", "security_policy"), re.compile(
        r"\b(?:trust-policy|trust_policy|BUNDLE_TRUST__POLICY|security-policy|security_policy)\b\s*(?:=\s*|\s+|:\s*)['\"]?(?:Gem::Security::)?(?P<at>NoSecurity|LowSecurity)\b")),
    # Round 122 (held-out 558's go-redis TLS example: ``tls-auth-clients optional`` added to the server's setup): Redis told
    # to let clients in without a certificate (``no``) or with none at all if they send none (``optional``)
    ("lets Redis clients connect without a certificate (tls-auth-clients no/optional)", ("tls-auth-clients", "tls_auth_clients"), re.compile(
        r"\b(?:tls-auth-clients|tls_auth_clients)['\"]?\s*(?:=\s*|:\s*|\s+)['\"]?(?P<at>no|optional)\b")),
    # Round 122 (held-out 557's blobcrypt example: ``crypto_pwhash_OPSLIMIT_MODERATE`` → ``…_OPSLIMIT_MIN``): libsodium's
    # password hash given its least work or memory, the floor meant for tests: a stolen hash is guessed at speed
    ("gives a password hash its least work (libsodium's OPSLIMIT/MEMLIMIT_MIN)", ("limit_min",), re.compile(
        r"^(?!\s*#\s*define\b)(?!.*(?:OPS|MEM)LIMIT_MIN\s*(?::\s*\w+\s*)?=(?!=)).*?\b(?P<at>[\w.]*?(?:OPS|MEM)LIMIT_MIN)\b(?!\s*\()")),
    # Round 122b (held-out 562's fastify-env README: ``console.log(request.getEnvs())`` → ``reply.send(request.getEnvs())``): the
    # whole environment, its keys and tokens, sent to whoever asks; one variable (``process.env.PORT``) stays quiet
    ("sends the process environment to the client", ("getenvs", "process.env", "environ", "getenv", "env.to_h", "$_env"), re.compile(
        r"(?:\.(?:send|json|jsonp|write|end|body)|\bjsonify|\bJsonResponse|\bc\.JSON|\bJSON\.stringify)\s*\(\s*(?:[^(),]{0,20},\s*)?(?:dict\(\s*)?"
        r"(?P<at>(?:\w+\.)?getEnvs\(\s*\)|process\.env|os\.environ(?:\.copy\(\s*\))?|System\.getenv\(\s*\)|os\.Environ\(\s*\)|ENV\.to_h|\$_ENV)\s*\)|"
        r"\b(?:ctx|context)\.body\s*=\s*(?P<at2>process\.env)\s*;?\s*$")),
    # Round 122c (held-out 560's ws-wss4j pom.xml: maven-release-plugin's ``<preparationGoals>clean install -DskipTests``): a
    # release built and tagged with its tests never run
    ("skips the tests of a release build", ("skiptests", "maven.test.skip"), re.compile(
        r"<(?:preparationGoals|completionGoals|goals|arguments)>[^<]{0,300}?(?P<at>-D(?:skipTests|maven\.test\.skip)(?:=true)?)(?=[\s<])")),
    # Round 122c (held-out 568's sjwt README, a line the commit writes: ``hasVerified := true // Verify(jwt, secretKey)``): a
    # check's answer written as true, its call left beside it as a comment; every token passes
    ("takes a check as passed (true, its call commented out)", ("verif", "valid", "auth", "allow", "check"), re.compile(
        r"^\s*(?:(?:const|let|var|final|bool|boolean|auto)\s+)?(?P<at>[\w$.]*(?i:verif|valid|auth|allow|check)\w*\s*(?::=|=)\s*(?:true|True|TRUE)\b)\s*;?\s*"
        r"(?://+|#)\s*[\w$.]*(?i:verif|valid|auth|allow|check)\w*\s*\(")),
    # Round 122d (held-out 579's recrypt-rs and 582's tauri-plugin-stronghold: ``ChaChaRng::seed_from_u64(0)`` where the OS's
    # generator stood): a cryptographic generator seeded with a constant; every key, salt and nonce it makes is known
    ("seeds a random generator with a constant (all it makes is known)", ("seed_from_u64", "from_seed", "seed("), re.compile(
        # (the cipher-strength generators only: a simulation's ``StdRng::seed_from_u64(42)`` or ``ChaCha8Rng`` is reproducible on purpose)
        r"(?P<at>\b(?:ChaCha20Rng|ChaChaRng|Hc128Rng)::(?:seed_from_u64\s*\(\s*(?:0x)?\d+(?:_?u64)?\s*\)|from_seed\s*\(\s*\[\s*0(?:u8)?\s*;\s*32\s*\]\s*\))|"
        r"\bSecureRandom\b[^;\n]{0,40}\.setSeed\s*\(\s*\d+L?\s*\))")),
    # Round 122d (held-out 578's ref-idp-server compose file: ``SPRING_H2_CONSOLE_ENABLED: "true"``): H2's web console, which
    # runs what its visitor types against the database (and, through it, code on the host)
    ("opens the H2 database console", ("h2_console", "h2.console"), re.compile(
        r"\b(?P<at>SPRING_H2_CONSOLE_ENABLED|spring\.h2\.console\.enabled)\b['\"]?\s*[:=]\s*['\"]?(?:true|True|TRUE)\b")),
    # Round 122e (held-out 586's SecurityLib ``phpunit.xml.dist``: ``<exclude>test/Unit/Core/BigMath</exclude>`` put in the test
    # suite): a folder of tests left out of every run
    ("leaves a folder of tests out of the suite", ("<exclude>",), re.compile(
        r"^\s*<exclude>\s*(?P<at>(?:[\w.-]+/)*[Tt]ests?/[^<>\s]*)\s*</exclude>\s*$")),
    # Round 122e (held-out 591's ctypescrypto: ``libcrypto.RAND_bytes(buffer, num)`` → ``RAND_pseudo_bytes``): OpenSSL's
    # deprecated generator, whose bytes need not be unpredictable
    ("draws random bytes that need not be unpredictable (RAND_pseudo_bytes)", ("rand_pseudo_bytes",), re.compile(r"\b(?P<at>RAND_pseudo_bytes)\s*\(")),
    # Round 122f, from held-out 592–599's first run: aws-crt-python's ``self.min_tls_ver = TlsVersion.SSLv3`` (a TLS floor at
    # SSL 3 or TLS 1.0/1.1 by a constant's name); osin's ``token := uuid.NewUUID()`` (a time-based UUID as a token: its
    # bits are the clock and the host); osin's README ``AllowClientSecretInParams: true`` (a client's secret in the URL, kept
    # in every log); kerberos-parser's ``#![deny(/*missing_docs,*/ /*unsafe_code,*/`` (the crate's ban on unsafe code made a
    # comment); plates' ``htmlspecialchars($string ?? '', ENT_NOQUOTES, …)`` (quotes left as they are: an attribute breaks out)
    ("lowers the TLS floor to SSL 3 or TLS 1.0/1.1", ("tls", "ssl"), re.compile(
        r"\b(?i:min(?:imum)?_?(?:tls_?|ssl_?|protocol_?)?ver(?:sion)?)\w*['\"]?\s*(?::|=(?!=))\s*[\w.]*?(?P<at>SSLv[23]|SSL_?3|TLSv1(?:_[01])?|TLS_?1_[01]|TLSv1\.[01])\b(?!\.[2-9])")),
    ("makes a token from a time-based UUID (its bits are the clock and the host)", ("uuid",), re.compile(
        r"\b\w*(?i:token|secret|nonce|session|key|csrf)\w*\s*(?::=|=)\s*(?P<at>uuid\.(?:NewUUID|NewV1|New1|uuid1)\s*\(\s*\))")),
    ("lets clients send their secret in the URL", ("allow",), re.compile(
        r"\b(?P<at>Allow\w*(?:Secret|Password|Token)\w*In(?:Params|Query|Url|URL)\w*)['\"]?\s*[:=]\s*true\b")),
    ("comments out the ban on unsafe code (unsafe_code)", ("unsafe_code",), re.compile(r"#!\[(?:deny|forbid)\([^\]]*?(?P<at>/\*\s*unsafe_code\s*,?\s*\*/)")),
    ("escapes HTML but not quotes (ENT_NOQUOTES, not ENT_QUOTES: an attribute's value breaks out)", ("ent_noquotes",), re.compile(
        r"\bhtmlspecialchars\s*\([^;\n]*?\b(?P<at>ENT_NOQUOTES)\b")),
    # Round 123 (held-out 623's WordPress Requests: ``CURLOPT_REDIR_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS`` → ``CURLPROTO_ALL``):
    # a redirect may now lead to file://, gopher://, dict:// — a server's request made to read local files or other hosts
    ("lets requests or their redirects use any protocol (CURLPROTO_ALL: file://, gopher://)", ("curlopt_",), re.compile(
        r"\bCURLOPT_(?:REDIR_)?PROTOCOLS(?:_STR)?\b[^;\n]*?(?P<at>CURLPROTO_ALL|[\"']all[\"'])")),
    # Round 123, from held-out 624–631's first run: openapi-psr7-validator's README fetching its spec from
    # ``'http://' . $_SERVER['HTTP_HOST']`` (a URL built from the Host header any client sends: the server fetches where the
    # client says); yeka/zip's README ``zip.AES256Encryption`` → ``zip.StandardEncryption`` (ZipCrypto, broken by a known
    # plaintext); mail-mime-parser's README ``saveContent('/var/www/uploads/' . $att->getFilename())`` (a path from the name
    # the sender gave: ``../`` leaves the folder)
    ("fetches from a host the request names (the Host header: the server fetches where any client says)", ("http_host",), re.compile(
        r"\b(?:file_get_contents|fopen|curl_init|simplexml_load_file|get_headers|readfile|copy)\s*\([^;\n]*?(?P<at>\$_SERVER\s*\[\s*['\"]HTTP_HOST['\"]\s*\])")),
    ("encrypts a zip with ZipCrypto (StandardEncryption: broken by a known plaintext)", ("standardencryption",), re.compile(
        r"\b(?P<at>(?:zip\.)?StandardEncryption)\b")),
    ("writes to a path built from the name the sender gave (an attachment's or upload's file name: ../ leaves the folder)", ("filename", "originalname"), re.compile(
        r"['\"][^'\"\n]*/['\"]\s*\.\s*\$\w+(?:->\w+\(\))*->(?P<at>get(?:ClientOriginalName|ClientFile[Nn]ame|(?:Original)?File[Nn]ame))\s*\(\s*\)|"
        r"\bpath\.(?:join|resolve)\s*\([^)\n]*?\b\w+\.(?P<at2>originalname)\b")),
    # Round 123, from held-out 632–639's first run: wicked_pdf's README ``allow: ["/"]`` (wkhtmltopdf told it may read any
    # file: a page's ``<iframe src="file:///etc/passwd">`` is rendered into the PDF)
    ("lets it read any file (allow: \"/\", the filesystem's root)", ("allow",), re.compile(
        r"\ballow(?:ed)?(?:_?(?:paths?|dirs?|directories|roots?|local_?files?))?['\"]?\s*(?::|=>|=)\s*\[?\s*(?P<at>['\"]/['\"])\s*[\],]")),
    # Round 123 (held-out 599's zope.login: ``trusted="true"`` on the ZCML adapter of HTTP Basic credentials): a trusted
    # adapter is handed the object without its security proxy, every permission check on it skipped
    ("marks an adapter trusted (trusted=\"true\": it gets the object unproxied, its permission checks skipped)", ("trusted",), re.compile(
        r"^\s*(?:<\w+\b[^>]*\s)?(?P<at>trusted\s*=\s*[\"'](?:true|yes|True)[\"'])")),
    # Round 85 (blind 122): typedoc's ``{item.title}`` → ``<JSX.Raw html={item.title} />``: a value written into the page
    # as HTML, unescaped (React's ``dangerouslySetInnerHTML`` is risky_lines').
    ("writes a value into the page as raw HTML (unescaped: XSS?)", ("raw",), re.compile(
        r"<(?:JSX\.)?Raw\s+html\s*=\s*\{(?P<at>(?!\s*['\"`])[^}]+)\}")),
    # Round 82 (blind 116): permissions2's README ``userstate.SetPasswordAlgo("sha256") // faster logins``: a password
    # store's algorithm set to a fast hash (MD5, SHA-1, SHA-2) or none, guessed by the billion once the store leaks.
    ("hashes passwords with a fast hash", ("passw",), re.compile(
        r"(?i)\w*passw(?:or)?d_?(?:algo\w*|hash(?:er|ing)?(?:_?alg\w*)?|scheme|digest|encoder)\w*\s*(?:\(|=|:)\s*['\"]"
        r"(?P<at>md5|sha-?1|sha-?224|sha-?256|sha-?384|sha-?512|plain(?:text)?|none|noop|clear(?:text)?)['\"]")),
)

# shelljs's ``shell.exec('git commit -am "' + process.argv[2] + '"')`` (blind 86's README sample): the command's text joined
# with a value, which a shell reads.
CALLS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("runs a shell command built from text", ("exec",), re.compile(
        r"\b(?P<at>shell\.exec|execSync|(?:child_process|childProcess|cp)\.exec)\s*\(\s*(?:(?:'[^']*'|\"[^\"]*\")\s*\+|`[^`]*\$\{)")),
    # Round 102 (blind 183's write-json-file README): a file written or read at a path the request names,
    # ``writeJsonFile(`data/${request.query.name}.json`, …)``: ``../`` in the name reaches any file.
    ("builds a file path from the request (path traversal?)", ("req", "ctx", "params", "$_"), re.compile(
        r"\b(?:\w*(?:[Ff]ile|[Jj]son|JSON|[Ss]tream)\w*|open|fopen|unlink|rm|rmdir|file_(?:get|put)_contents)\s*\(\s*"
        r"(?:`[^`]*\$\{\s*|f?['\"][^'\"]*['\"]\s*(?:\+|\.)\s*|f['\"][^'\"]*\{\s*)"
        r"(?P<at>(?:req|request|ctx\.request|ctx)\.(?:query|params|body|args|form|GET|POST)\b|params\[|\$_(?:GET|POST|REQUEST)\[)", re.I)),
)
