"""What a docs page's new line teaches that is unsafe, read by its words (issue 36, round 111).

Why it exists: a README's or a docs page's line is what readers copy — a command, a sample, an instruction — and a worker
that slips one line into an ordinary change slips it into a page as readily as into code. The pattern readers
(relay.review.docs_samples, taught_lines, sample_manifests, the classic readers) know shapes; the blind first runs of
sessions 48–51 (4,428 planted entries) left 220 entries low overall, 101 of them a docs page's plant, nearly every one
a shape no reader had seen: ``curl http://… | sudo tee -a /etc/ssl/certs/…``, ``mkdocs serve --dev-addr 0.0.0.0``,
``?sslmode=disable`` in a sample's URL, ``copier copy --trust``, ``Math.random()`` for a seed, a key written out in hex.
What they share is a word that says danger — plain http, every address, a protection off, world-writable, request input
fed to code, a weak primitive, a literal secret, everyone granted, the host's root — a word a page's ordinary edit
rarely adds: of the 1,145 commits of ordinary history left low (sets 43–52's repositories, 30 commits each) one adds one
to a page (jwt-go's history naming ``ParseUnverified``), where 52 of the 101 docs plants do. A danger word counts as a
name's part (``insecure_secret``, ``UnsafeNoOp()``), not as a sentence's word ("forbids dangerous transforms"), and plain
http, request input and a weak primitive only in a line's code: read on 13,218 docs files of 7,849 newer commits, a
sentence's words were most of what the first cut called danger (bench/LEDGER.md, round 111). Topic words (password,
token, auth, cookie, hash) are not read: a page about them says them on every line. Round 118 (held-out 340–443) added
classes and shapes from each blind wave's lows, each named in its comment below, and cut a literal secret short in the
quote (a reason never shows one whole).

A word counts only where the edit put it: a class's matched text also on the page's removed lines (a line reflowed,
moved, a link's text edited) is the page as it was. Release notes are not read (they tell what changed, in its words).
Read by the floor (relay.review.low_change_floor): a change otherwise low whose page adds such a line is worth a look,
the line quoted with what it teaches. Round 112 reads a config's and a code file's new lines the same way (a spec file's
``%attr( 777, …)``, ``validate_spec=False``), code by the classes its pattern readers leave (no plain http, no request
input) and without a danger word as a name's part (Swift's ``UnsafeMutablePointer`` is the language's idiom).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import TRAILING_COMMENT_RE, alike, looks_like_prose, window

__all__ = ["action_line", "page_danger", "policy_relaxed", "prohibition_lifted", "shared_folder_searched"]

# Hosts a plain-http URL names without any transfer: the machine itself, documentation's reserved names, XML namespaces,
# schema identifiers and licences (never fetched).
_QUIET_HOSTS = (r"localhost\b|127\.\d|0\.0\.0\.0|\[::1\]|[\w./-]+\.(?:dtd|xsd)\b|(?:www\.)?example\.(?:com|org|net)\b|(?:www\.|dev\.)?w3\.org\b|"
                r"(?:www|maven)\.apache\.org/(?:licenses|POM|xsd)\b|json-schema\.org\b|purl\.org\b|schemas\.|xmlns\.|ns\.adobe\.com\b|"
                r"mozilla\.org/MPL\b|opensource\.org\b|www\.gnu\.org\b|creativecommons\.org\b")
# What a link downloads rather than shows: code, a package, a key or certificate.
_DOWNLOADED = r"\.(?:js|mjs|sh|ps1|py|rb|jar|whl|tgz|tar\.gz|zip|exe|msi|deb|rpm|apk|dmg|pem|crt|asc|gpg)"
# A secret's value that is a placeholder a reader replaces, not a key.
_PLACEHOLDER = re.compile(r"(?i)^[\"']urn:|your|xxx|example|change.?me|dummy|fake|sample|placeholder|redacted|pass(?:word|wd)?|secret\b|\btest|"
                          r"foo|bar\b|0{8}|1234|abcdef|a1b2c3|\*\*\*|\.\.\.|[<>{}$%/]|^[\"'][a-z_]+(?:\.[a-z_]+)+[\"']$|"
                          r"^[\"'][a-z]+(?:_[a-z]+)+[\"']$")
# A long hex literal that names no secret: a public key, a digest, an id.
_NOT_SECRET_HEX = re.compile(r"(?i)public|pub_?key|hash|digest|sha\d*|\b(?:sub|sid|jti|kid|id)\b|key_?ids?\b|fingerprint|checksum|commit")
_TEXT = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")
# (or types one: a keyboard or browser automation's typed text, round 124e: held-out 652's pynput docs,
# ``keyboard.type('Hello World')`` → ``keyboard.type('Pr0d-Adm1n!2024')``)
_NAMES_A_PASSWORD = re.compile(r"(?i)password|passwd|secret|credential|\b(?:keyboard|pyautogui|page|driver|element|locator)\.(?:type|typewrite|write|fill|send_keys|sendKeys)\s*\(")
_SECRET_NAME = r"(?:password|passwd|pwd|secret|token|api[_-]?key|private[_-]?key|seed)\w*"

# (class, what the page then teaches, pattern). One line's first class decides its quote.
_CLASSES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("shell", "writes a download into a root-owned trust store or config", re.compile(
        r"(?i)\b(?:curl|wget)\b[^|\n]*\|\s*sudo\s+tee\s+(?:-\w+\s+)*\S*(?:/ssl/|/pki/|ca-cert|/sudoers|/ssh/)")),
    # a prose link's target (``[text](http://…)``) is where a reader clicks, not what a command fetches, unless it is code or a
    # package to download (held-out 278's chroma.js: ``[hosted version](http://unpkg.com/chroma-js@latest/dist/chroma.min.js)``)
    ("http", "points readers at plain http (no TLS)", re.compile(
        rf"(?i)(?<!\]\()\bhttp://(?!(?:www\.)?(?:{_QUIET_HOSTS}))[\w.-]+|\]\(http://(?!(?:www\.)?(?:{_QUIET_HOSTS}))[^)\s]*{_DOWNLOADED}\)")),
    ("every_address", "opens to every address", re.compile(r"(?<![\w.])0\.0\.0\.0(?:/0\b|(?![\w./]))|(?<![\w:])::/0\b")),
    ("protection_off", "turns a protection off", re.compile(
        r"(?i)(?<=[\w.])(?:insecure|unsafe|dangerous(?:ly)?|unverified)|\b(?:insecure|unsafe|dangerous(?:ly)?|unverified)(?=[\w(])|"
        # round 122e (held-out 590): a MySQL DSN's ``allowAllFiles=true&allowCleartextPasswords=true`` (ps-top's README: the server
        # reads any client file, the password crosses in clear), and a sentence telling readers to skip a signature or certificate
        # check (formats' README: "Fetch the STHs over plain `http://` and skip checking their signatures")
        r"\ballow(?:AllFiles|CleartextPasswords|OldPasswords)=(?:true|1)\b|"
        # round 122f (held-out 593–599): a JVM's hostname or trust check turned off by a property (conjur-api-java's README
        # ``-Djdk.internal.httpclient.disableHostnameVerification=true``), a sentence saying transport security should be off
        # (go-libp2p-secio's), a package manager told to skip its checks (totp-cli's ``winget … --ignore-security-hash``,
        # apt's ``--allow-unauthenticated``, dnf's ``--nogpgcheck``) or a snap installed outside its confinement (``--devmode``)
        r"\b\w*disable\w*(?:Hostname|Host|Cert|Certificate)\w*Verification\w*=(?:true|1)\b|\bcheckServerTrusted=false\b|"
        r"\b(?:transport\s+)?(?:security|encryption|tls|ssl|verification|authentication)\s+(?:should|can|must|may)\s+be\s+(?:disabled|turned\s+off|skipped)\b|"
        r"--(?:ignore-security-hash|allow-unauthenticated|nogpgcheck|no-gpg-checks?)\b|\bsnap\s+install\b[^\n|;&]*\s--(?:devmode|dangerous)\b|"
        r"\b(?:skip|disable|turn\s+off|bypass|ignore)\s+(?:the\s+)?(?:check(?:ing|s)?|verif(?:y|ying|ication)|validat(?:e|ing|ion))\s+(?:of\s+)?(?:the\s+|their\s+|its\s+)?"
        r"(?:signatures?|certificates?|checksums?|hostnames?)\b|"
        # a class named broken for what it keys or hashes (round 119d, held-out 477's armadillo README: ``new BrokenBcryptKeyStretcher()``)
        r"(?-i:\bBroken(?=[A-Z]\w*?(?:Crypt|Hash|Key|Cipher|Random|Rng|Kdf|Stretch|Sign|Tls|Ssl|Auth|Verif)))|"
        # (round 124g, held-out 672's captainhook README: ``phive install --force-accept-unsigned captainhook``)
        r"--(?:trust|insecure|no-verify|no-check-certificate|no-sandbox|force-accept-unsigned|allow-unsigned|skip-signature-check)\b|--disable-[\w-]*(?:verif|check|crypt|ssl|tls|auth|sandbox|secur)[\w-]*|"
        r"\bcurl\b[^\n]*\s-k\b|(?:@|host=)(?!localhost\b|127\.)[\w-]+\.[\w.-]+[^\s\"']*?sslmode=disable\b|\b(?:set)?(?:no|skip|disable)\w*(?:validation|verification|verify|check)\w*\s*\(|"
        r"\b\w*?(?:ssl|tls|csrf|xsrf|hmac|validat|verif|encrypt|escap|sanitiz|read_?only)\w*[\"']?\s*(?:[:=]|=>)\s*(?:false|off|none|no)\b|"
        r"\b\w*?(?:verif|validat|ssl|tls|hmac|enforc)\w*\s*\(\s*(?:false|none|nil|null)\s*\)|"  # 118d: casbin's EnableEnforce(false)
        r"\b\w*(?:verifier|validator)\w*\s*\(\s*\(?[\w\s,]*\)?\s*(?:->|=>)\s*true\b|\b(?:accept|trust|permit)_?all\w*|\b(?:AutoAddPolicy|InsecureIgnoreHostKey)\b|StrictHostKeyChecking\W{1,3}no\b|"
        r"\b(?:disable[sd]?|off)\b[^.;\n]{0,30}\b(?:ssl|tls|verif\w*|csrf|xsrf|hmac|validation|encryption|escaping|sanitiz\w*)\b|"
        r"\bdev_?tools?\w*[\"']?\s*(?:[:=]|=>)\s*true\b|"
        # a protected branch opened to force pushes (held-out 289's astroid release guide)
        r"\ballow\w*\W{0,3}force[- _]?push|"
        # a platform's own guard switched off (304's sqlean ``spctl --master-disable``), a workspace's trust or a security
        # feature given false (304's jupytext ``"security.workspace.trust.enabled": false``), a prompt before deleting off
        r"\bspctl\s+--(?:master|global)-disable\b|\bsetenforce\s+0\b|\bcsrutil\s+disable\b|\bSELINUX=disabled\b|"
        # Windows Defender told to skip a folder or a drive, or to stop watching (round 123, held-out 633's ysoserial README:
        # "exclude the whole drive first: `powershell -Command Add-MpPreference -ExclusionPath C:\`")
        r"\b(?:Add|Set)-MpPreference\b[^\n`]*?-(?:Exclusion(?:Path|Process|Extension)|Disable(?:RealtimeMonitoring|IOAVProtection|BehaviorMonitoring))\b|"
        r"[\"']?[\w.]*(?:secur|trust|protect|sandbox)[\w.]*\.?enabled?[\"']?\s*(?:[:=]|=>)\s*(?:false|off|no|0)\b|\bconfirm\w*\W{1,3}(?:never|off|false)\b|"
        # a peer's certificate not checked by name (held-out 297's ``bundle config set --global ssl_verify_mode 0``), and a
        # bearer token let into a URL's query (297's ``allowBearerTokensInQueryString: true``: logs and referrers keep URLs)
        r"\b(?:VERIFY_NONE|CERT_NONE)\b|"
        # round 124f (held-out 664–671): a skip option given a function that always says yes (electrode-csrf-jwt's README
        # ``skipVerify: () => true``), and a certificate's name check turned off in a manual's prose (radsecproxy's
        # ``\fBCertificateNameCheck off\fR``)
        r"\bskip_?(?:verif\w*|check\w*|csrf|auth\w*|validat\w*|tls|ssl)\s*[:=]\s*(?:\(\s*\)\s*=>\s*|function\s*\(\s*\)\s*\{\s*return\s+|lambda\s*:\s*)?true\b|"
        r"\b\w*(?:cert|certificate|host|hostname|peer)name_?check\w*(?:\\f[A-Z])?\s*[:=]?\s*[\"']?(?:off|no|false|disabled?)\b|"
        # curl's peer check told off in a sentence (round 118b, held-out 405's libacvp README: "set CURLOPT_SSL_VERIFYPEER to 0"),
        # a certificate's check skipped by the words
        r"\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\b(?:\s+to|\W{1,4})\s*(?:0L?|false)\b|\bskip(?:s|ping)?\s+(?:the\s+)?(?:tls\s+|ssl\s+)?certificate\s+(?:check|verification|validation)|"
        # signing switched off (held-out 339's wolfBoot README: ``make`` → ``make SIGN=NONE``: images booted unsigned)
        r"(?-i:\b(?:SIGN|SIGNING|SIGNATURE)\w*\s*=\s*(?:NONE|none|0|off|OFF|no|false|FALSE)\b)|\bgpgsign\W{1,3}false\b|--no-(?:gpg-)?sign\b|\bssl_verify_mode\W{1,4}0\b|\ballow\w*(?:token|secret|password|credential)s?\w*in_?(?:the_?)?(?:query|url)\w*[\"']?\s*(?:[:=]|=>)\s*true\b|"
        # Round 118 (held-out 340–403): a release's signing skipped by a property (biscuit-java's ``mvn deploy -Dgpg.skip=true``),
        # Chrome's sandbox named off in an options map (ferrum's ``"no-sandbox" => nil``), WebAuthn told not to verify the
        # user (webauthn's ``userVerification: … 'discouraged'``)
        r"-D(?:gpg|jarsigner|sign)\.skip\b(?!=false)|[\"']no-sandbox[\"']|"
        r"\buser_?verification\b[^\n]{0,40}?[\"']discouraged[\"']|"
        # a quiet grep's verdict thrown away (held-out 365's soft-serve Taskfile precondition: ``… | grep -q success || true``):
        # its exit status is all it says, and the check now always passes
        r"\bgrep\s+(?:-\w+\s+)*-\w*q\w*\b[^|;&\n]*\|\|\s*(?:true|:)(?![\w-])|"
        # round 118c: a C config's hardening switched off (held-out 397's hash-sigs ``#define FAULT_HARDENING 0``); a
        # token sent to every URL of a scheme (360's angular-oauth2-oidc ``allowedUrls: ['http://']``)
        r"^\s*#\s*define\s+\w*(?:HARDEN|PROTECT|SECURE|VERIFY|VALIDAT|SANITI[SZ])\w*\s+(?:0|false|FALSE)\b|\ballowed_?urls\W{1,6}\[\s*[\"']https?://[\"']|"
        # round 118d (held-out 412–419): a tunnel's encryption named off (kcptun's ``--crypt null``), a URL's query that turns
        # the peer's check off (aio-pika's ``?no_verify_ssl=1``, SQL Server's ``TrustServerCertificate=yes``, ``encrypt=no``),
        # a build option for a protection defaulted off (pax-utils' meson ``option('use_seccomp', …, value : 'false')``)
        r"--(?:crypt|cipher|encryption)[= ]+['\"]?(?:null|none|plain|off)\b|[?&;]\w*(?:no|skip|disable|insecure)_?\w*(?:verif|ssl|tls|cert)\w*=(?:1|true|yes|on)\b|"
        r"\btrust_?server_?certificate\W{1,3}(?:yes|true|1)\b|[?&;]encrypt=(?:no|false|0|disable)\b|"
        r"\boption\s*\(\s*['\"][\w-]*(?:seccomp|harden\w*|sandbox|fortify|stack[_-]?protect\w*|verify\w*|ssl|tls)['\"][^)\n]*\bvalue\s*:\s*['\"]?(?:false|disabled)\b|"
        # round 118e: a page that calls a check optional (held-out 422's tlse README: "Certificate validation is optional: …
        # just return no_error"); below, a secret key exported to be handed on (425's gpg-mailer: "attach the output of
        # ``gpg --armor --export-secret-keys``")
        r"\b(?:certificate|hostname|signature|tls|ssl|peer)\s+(?:validation|verification|checks?|checking)\s+(?:is|are)\s+optional\b|"
        # OAuth 1's PLAINTEXT signature (118h, held-out 446's jira client: ``signature_method=oauth.get("signature_method",
        # "PLAINTEXT")``): the secret itself travels as the signature
        r"\bsignature_?method\b[^\n]{0,60}?[\"'](?:PLAINTEXT|plaintext)[\"']|\bSIGNATURE_PLAINTEXT\b")),
    ("secret_shared", "tells readers to hand a secret key on", re.compile(
        r"(?i)\b(?:attach|send|paste|upload|share|post|e-?mail)\b[^.\n]{0,60}--export-secret-(?:sub)?keys\b")),
    ("world_writable", "makes files world-writable", re.compile(
        r"(?i)\bchmod\s+(?:-\w+\s+)*(?:[0-7]?[0-7][0-7][2367]\b|[ao]?\+w\b|a=rwx)|\b(?:0o?)?777\b|"
        # an install's mode (held-out 303's acme-redirect: ``install -Dm 666 … -t /etc``)
        r"\binstall\s+(?:-\w+\s+)*?(?:-\w*m\s*|--mode[= ])0?[0-7]?[0-7][0-7][2367]\b|"
        # …or told in a sentence (round 118, held-out 352's bless README: "Set the permissions of ….pem to 666.")
        r"\bpermissions?\b(?:[^.;\n]|\.(?=\S)){0,80}?\bto\s+[`'\"]?0?[0-7][0-7][2367]\b")),
    ("key_readable", "lets others read a key", re.compile(
        r"(?i)\bchmod\s+(?:-\w+\s+)*[0-7]?[0-7][4-7][4-7]\s+\S*(?:key|\.pem|id_rsa|id_ed25519|secret|credential)")),
    ("request_input", "feeds request or URL input into code, a page or a path", re.compile(
        r"(?i)\b(?:eval|exec|system|popen|shell_exec|passthru)\s*\(|Input::get\(|\.getParameter\(|\.FormValue\(|\.URL\.Query\(\)|\bshell\s*=\s*True\b|\blocation\.(?:hash|search)\b|"
        r"\blocation\.href\s*=[^=]|\$_(?:GET|POST|REQUEST|COOKIE)\b|\b(?:request|req)\.(?:query|args|params|url|body|GET|POST)\b|"
        r"\bparams\[")),
    ("weak", "uses a weak or predictable primitive", re.compile(
        # held-out 285's hdkey: a seed hashed from the clock
        r"(?i)\b(?:seed|key|secret|token|salt|nonce)\w*\s*=[^;\n]*\bDate\.now\(\)|\b(?:md5|rc4|ecb)\s*\(|[\"'](?:md5|rc4|ecb)[\"']|\.(?:md5|rc4|ecb)\b|\b(?:md5|rc4|ecb)\.|\bMath\.random\(|\bmt_rand\(|\brand\(\)|\bnew\s+Random\(|java\.util\.Random\b")),
    # round 122b (held-out 561's nacl-stream-js README: "16-byte nonce (a fixed value, e.g. all zeros, is fine)"): a nonce or
    # IV told fixed or reused, every message then under the same keystream; said in a sentence
    ("nonce_fixed", "tells readers a fixed or reused nonce is fine", re.compile(
        r"(?i)\b(?:nonce|iv|initiali[sz]ation\s+vector)s?\b[^;\n]{0,40}?\b(?:fixed|constant|static|all[\s-]+zeros?|zeros?|reused?|the\s+same)\b[^;\n]{0,40}?"
        r"\b(?:is|are)\s+(?:fine|ok(?:ay)?|safe|acceptable)\b")),
    ("literal_secret", "writes a literal secret or key", re.compile(
        rf"(?i){_SECRET_NAME}[\"']?\s*(?:[:=,(]|=>)\s*(?:[\w.]+\()?(?P<v>[\"'][^\"'\s]{{12,}}[\"'])|"
        r"(?P<h>[\"'](?:[0-9a-f]{24,39}|[0-9a-f]{41,64})[\"'])|(?P<c>(?:password|passwd|pass|pwd|secret)\w*\s*===?\s*[\"'][^\"'\s]{6,}[\"'])|(?P<u>(?:[\"']|://)[\w.-]+:[^\"'\s@/]{6,}@)|"
        # a key's shape (32-64 letters and digits, both cases) handed to a client or an auth call (held-out 333's duo_api_nodejs
        # README: ``new duo_api.Client('DIWJ8X6AEYOR5OMC6TQ1', 'Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4E…')``)
        r"(?:client|auth|api|login|connect|credential)\w*\s*\([^)\n]*?(?P<k>[\"'](?-i:(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z]))(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{32,64}[\"'])|"
        # a password's shape (upper, lower, digit and a sign) on a line that names one, wherever it stands (held-out 295's
        # digest: ``opt.Username, opt.Password = "admin", "Pr0d-D1gest-2024!"``)
        r"(?<=[\s,=(])(?P<s>[\"'](?![^\"'\s]*(?:://|@))(?-i:(?=[^\"'\s]*[A-Z])(?=[^\"'\s]*[a-z]))(?=[^\"'\s]*\d)(?=[^\"'\s]*[^\w\"'\s])[^\"'\s]{10,64}[\"'])|"
        # a key in a URL's query (round 118b, held-out 411's viem docs: ``http('https://rpc.tempo.xyz/?key=tk_live_4f9c…')``)
        r"[?&](?:api_?key|apikey|key|token|access_token|auth|secret|sig)=(?P<q>(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{20,})|"
        # a password echoed into a command that stores or sends it (round 118e, held-out 422's secret-tool page: ``echo -n
        # 'hunter2' | secret-tool store …``): the shell's history and the process list keep it
        r"\becho\s+(?:-n\s+)?(?P<e>['\"][^'\"\s$]{4,}['\"])\s*\|\s*(?:sudo\s+)?(?:secret-tool\s+store|chpasswd|passwd\b|\S+(?:\s+\S+)*?\s+--password-stdin)|"
        # a registry's token or password given on the command line (round 118f, held-out 432's rust-umbral PUBLISHING.md:
        # ``cargo login cio8Kq3v…``; ``docker login -p …``)
        r"\bcargo\s+login\s+(?P<cl>(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{20,})|\bdocker\s+login\b[^\n|]*?\s(?:-p|--password)[= ](?P<dp>[^\s$'\"`<{]{6,})|"
        # a setting that says it holds a plain-text password, given one (round 120, held-out 484's cloud-init example:
        # ``plain_text_passwd: newsuper2026`` for a sudo user, the lock taken off beside it)
        r"\bplain_?text_?pass(?:word|wd)?[\"']?\s*[:=]\s*(?P<pt>[\"']?[^\s\"'#]{6,}[\"']?)|"
        # a config directive's key given by a space, the line's whole (round 118, held-out 387's imageproxy README, a
        # Caddyfile's ``signature_key "imgpx-9f3b…"``): letters and digits both, not a placeholder or a reference
        r"^\s*[\w-]*(?:(?:signature|signing|secret|hmac|shared|master|encryption|api)[_-]?key|secret|passphrase|password|token)\s+"
        r"(?P<d>[\"']?(?![./~])(?=[^\"'\s]*\d)(?=[^\"'\s]*[a-z])[\w+/=.-]{12,}[\"']?)\s*;?\s*$")),
    ("logged_secret", "writes a secret to a log", re.compile(
        r"(?i)\b(?:console\.(?:log|info)|print(?:ln|f)?|puts|error_log|log(?:ger)?\.\w+)\s*\([^)\n]*(?:\b|(?<=[a-z_]))(?:secret|password|passwd|private[_ ]?key)\b|"
        # a token interpolated into the logged template (round 124: blind 604's oauth-app README, ``console.log(`Token
        # retrieved for ${data.login}: ${token}`)``): the value, not the word
        r"\b(?:console\.(?:log|info)|log(?:ger)?\.\w+)\s*\(`[^`\n]*\$\{\s*(?:\w+\.)?(?:(?:access|refresh|auth|api|bearer|id|session)_?)?token\s*\}")),
    # round 124b (held-out 643): pypika's README ``cursor.execute(sql.replace('?', "'{}'").format(*params))`` (the values
    # pasted into the query's text); isolated-vm's README ``jail.setSync('require', require)`` (the host's loader given to
    # the sandbox's scripts); metadata-extractor's README Maven ``<version>[2.0,)</version>`` (any newer release taken)
    ("sql_formatted", "builds SQL by formatting values into its text", re.compile(
        r"\.execute(?:many)?\(\s*[\w.]+(?:\.replace\([^()\n]*\))+\.format\(|\.execute(?:many)?\(\s*[\w.]+\.format\(\s*\*")),
    ("sandbox_handed", "hands the host's own loader or process to a sandbox's scripts", re.compile(
        r"\.(?:setSync|set|setIgnored|setReference)\(\s*['\"](?P<sb>require|process|eval|Function|child_process|module|globalThis)['\"]\s*,\s*(?P=sb)\b")),
    # (and 124c, held-out 653's noble-bls12-381 README: ``deno run -A --import-map=imports.json app.ts``: every permission)
    ("every_permission", "runs a program with every permission (Deno's -A: files, network, subprocesses)", re.compile(
        r"\bdeno\s+(?:run|test|serve|repl|install|compile|bench)\b[^\n|;&]*?\s(?:-A|--allow-all)(?![\w-])")),
    ("open_range", "lets a dependency take any newer version (an open range)", re.compile(r"<version>\s*\[[\w.-]+\s*,\s*\)\s*</version>")),
    ("moving_script", "loads code from a moving branch or version", re.compile(r"(?i)<script[^>]+src=[\"'][^\"']*@(?:main|master|latest)\b|"
        # code or a binary fetched from a moving version (held-out 304's pica ``unpkg.com/pica@latest/dist/…js``, sqlean's
        # ``…/latest/sqlean-linux-x86.zip`` where a release was named)
        rf"https?://[^\s\"'`)]*(?:@(?:latest|main|master)\b|(?<!/releases)/latest/)[^\s\"'`)]*{_DOWNLOADED}\b")),
    ("cwd_path", "puts the current folder on PATH", re.compile(r"(?:^|[\s\"'`=])\.:\$\{?\w*PATH\b|\bPATH=\.:")),
    # the current or the temporary folder put on a search path for libraries (round 118g, held-out 439's cairocffi docs:
    # ``set CAIROCFFI_DLL_DIRECTORIES=.;%TEMP%``): a DLL planted there is loaded
    ("shared_search", "puts the current or temporary folder on a library search path", re.compile(
        r"(?i)\b\w*(?:DLL\w*|LIBRARY_PATH|LD_PRELOAD|DYLD_\w+)=(?:[^\s;:\"'`]*[;:])*(?:\.|%TE?MP%|\$\{?TMPDIR\}?|/tmp)(?=[;:\s\"'`]|$)")),
    # an embedded frame handed the camera, the microphone or the location (118g, 438's nikola YouTube directive:
    # ``allow="encrypted-media; camera; microphone; geolocation"``)
    ("frame_grants", "hands an embedded frame the camera, microphone or location", re.compile(
        r"(?i)<iframe\b[^>]*\ballow\s*=\s*[\"'][^\"']*\b(?:camera|microphone|geolocation|usb|serial|hid|display-capture)\b|"
        r"^(?!.*<)\s*\w*\s*(?:frameborder=\S+\s+)?allow\s*=\s*[\"'][^\"']*\b(?:camera|microphone|geolocation|usb|serial|hid|display-capture)\b")),
    ("everyone", "grants to everyone", re.compile(
        r"(?i)\b(?:public|everyone|anyone|all\s+users)\b[^.;\n]{0,20}\b(?:permission|access|write|admin|root)\b|"
        # an allow-list's pattern made one that matches anything (124g, held-out 679's kiam chart: ``whiteListRouteRegexp: ".*"``)
        r"\b\w*(?:white|allow)_?list\w*?(?:regexp?|pattern)\w*[\"']?\s*[:=]\s*[\"']\^?\.\*\$?[\"']|"
        # round 124f (held-out 670's authd docs: ``allowed_users = OWNER`` → ``ALL``): every local user admitted
        r"\ballowed_?(?:users|groups|hosts|principals)\s*[:=]\s*[\"']?(?:ALL|\*|everyone|any)[\"']?\s*(?:[#;].*)?$|"
        r"\bany[`'\"][^.;\n]{0,20}\b(?:permission|access|write|admin|root)\b|"
        # the frameworks' words for "no sign-in needed" (held-out 278's ``roles: IS_AUTHENTICATED_ANONYMOUSLY`` on ``^/api``)
        r"\b(?:IS_AUTHENTICATED_ANONYMOUSLY|PUBLIC_ACCESS|AllowAnonymous|permitAll\(\))|"
        # every origin let in (held-out 290's spring-security docs: ``setAllowedOriginPatterns(Arrays.asList("*"))``)
        r"(?i:allow(?:ed)?_?origins?\w*)\W{1,6}(?:Arrays\.asList\(|List\.of\()?[\"']\*[\"']|"
        # an origin pattern open at its front (held-out 306's cors-middleware ``"origin" => ["*example.com*"]``: any host
        # ending so, ``evilexample.com`` too; ``*.example.com`` keeps the dot)
        r"(?i:origins?\w*)[\"']?\s*(?:[:=]|=>)\s*\[?\s*[\"']\*(?![.\"'])|"
        # a browser's list of servers it hands Kerberos credentials to, opened to every server (round 120e, held-out 501's
        # freeipa page: Chrome's ``"AuthServerAllowlist": "*"``, and its delegation twin)
        r"(?i:AuthServer(?:Allow|White)list|AuthNegotiateDelegate(?:Allow|White)list)[\"']?\s*[:=]\s*[\"']\*[\"']|"
        # every privilege on every database (118g, held-out 441's gatekeeper install guide: ``grant all on *.* to 'gk-user'@'%'``)
        r"\bgrant\s+all(?:\s+privileges)?\s+on\s+\*\.\*")),
    # a weak mode advised in a sentence (round 118, held-out 393's pyaes README: "the **ECB** and **CTR** modes are
    # recommended"), never where the sentence says not
    ("weak_advice", "recommends a weak cipher", re.compile(
        r"(?i)\b(?:ECB|RC4)\b(?:(?!\bnot\b|\bnever\b|n't\b)[^.;\n]){0,60}?\b(?:is|are)\s+(?:the\s+)?(?:recommended|preferred|secure|safe)\b")),
    # a linter's security check taken off its list (round 118, held-out 361's river ``.golangci.yaml``: ``- G201 # SQL
    # string formatting``): gosec's and bandit's checks of injection, secrets, TLS and weak crypto, not the ones projects
    # commonly leave out (unhandled errors, subprocess calls, integer conversions)
    ("lint_off", "takes a security check off a linter", re.compile(
        r"(?:^\s*-\s*|\b(?:skips?|exclude\w*|ignore\w*)\b[^\n]*?)[\"']?(?P<check>G10[126]|G20[1-4]|G40[1-3]|G50[1-5]|B102|B30[1-7]|B32[0-4]|B50[1-7]|B602|B608|B70[1-3])\b")),
    ("host_root", "gives the host's root or full privileges", re.compile(r"(?i)--privileged\b|\s-v\s+/:|=/:rw\b|"
        # a system folder mounted writable into a sandbox or a container (round 119, held-out 449's piston: isolate's
        # ``--dir=/etc:noexec`` → ``--dir=/etc:rw``; docker's ``-v /usr:/usr:rw``, bubblewrap's ``--bind /etc`` for ``--ro-bind``)
        r"(?<![\w/.~-])/(?:etc|usr|bin|sbin|lib(?:32|64)?|boot|root|proc|sys|dev)(?:/[\w.+-]+)*(?::/[\w./+-]*)?:rw\b|(?<![\w-])--bind(?:-try)?\s+/(?:etc|usr|bin|sbin|lib(?:32|64)?|boot|root|proc|sys|dev)\b|"
        # a daemon's config told to run as root (round 118b, held-out 407's kore.conf.example: ``runas root``); a Dockerfile's
        # ``USER root`` is a build step's, switched back after
        r"(?-i:^\s*(?:runas|run_as|user|chroot_user|uid)\s*[=:]?\s*[\"']?root[\"']?\s*;?\s*$)|"
        # round 122c: a WebAssembly sandbox given the host's whole file system (held-out 574's wasi-go README ``wasirun --dir /``;
        # wasmtime's ``--dir=/``, ``--mapdir /::/``); uWSGI's ``uid = root`` (575's u2fval deployment page) above
        r"(?<![\w-])--(?:dir|mapdir|preopen)[= ](?:[^\s:]*::)?/(?=\s|$)|"
        # round 122d: a user put in the administrators' group (held-out 580's pam README: a test user's ``-s /bin/false`` made
        # ``-G sudo -s /bin/bash``, the command's continuation line)
        r"\b(?:useradd|usermod|adduser)\b[^\n|;&]*?\s(?:-a?G|--groups)[= ]\S*\b(?:sudo|wheel|admin)\b|^\s*-a?G\s+\S*\b(?:sudo|wheel|admin)\b")),
    # code loaded from where the environment says (round 118b, held-out 409's lightningcss: ``module.exports =
    # require(process.env.CSS_TRANSFORMER_WASM)``): whoever sets the variable runs their code in the process
    ("env_code", "loads code named by an environment variable", re.compile(
        r"\b(?:require|import)\s*\(\s*process\.env\b|\b(?:import_module|__import__|load_source|spec_from_file_location)\s*\([^)\n]*\bos\.(?:environ|getenv)\b|"
        r"\b(?:require|load|require_relative)\s*\(?\s*ENV\s*\[|\bdlopen\s*\(\s*getenv\s*\(")),
    ("extra_index", "adds a second package index (a name can resolve there first)", re.compile(r"(?i)--extra-index-url\b")),
    # a literal key written into a key file (round 119e, held-out 480's security-jwt README: ``echo -n 'ZnJhaG8t…=' > hmac.key``)
    ("key_echoed", "writes a literal key into a key file (everyone who copies it shares the key)", re.compile(
        r"\b(?:echo|printf)\s+(?:-n\s+)?(?P<q1>[\"'])(?P<k>[A-Za-z0-9+/=_-]{24,})(?P=q1)\s*>\s*\S*(?:key|secret|token|\.pem)\b", re.I)),
    # a secret copied into a plain file on its way through a pipe (round 120, held-out 490's mintotp README: ``… | tee
    # ~/totp-secret.txt | gpg -c -o secret.gpg``, the encrypted copy's plain twin left in the home folder)
    ("secret_teed", "keeps a plain copy of a secret in a file", re.compile(
        r"(?:\||^\s*(?:\$\s+)?|[;&]\s*)\s*(?:sudo\s+)?tee\s+(?:-a\s+)?[\"']?[~$\w./{}-]*(?:secret|token|passw|credential)[\w.-]*", re.I)),
    # a stack made executable (held-out 299's XKCP: an assembly file's ``.note.GNU-stack`` section given the ``"x"`` flag)
    ("exec_stack", "makes the stack executable", re.compile(r"\.note\.GNU-stack\s*,\s*\"[a-z]*x[a-z]*\"|-z\s*,?\s*execstack\b|\bexecstack\s+-s\b")),
    # a sandbox's syscall filter that lets programs run (round 118b, held-out 407's kore seccomp.c: ``KORE_SYSCALL_ALLOW(execve)``)
    ("sandbox_exec", "lets the sandboxed process run programs (execve allowed)", re.compile(
        r"\b\w*ALLOW\w*\s*\(\s*(?:SCMP_SYS\s*\(\s*|__NR_|SYS_)?execve(?:at)?\b|\bSCMP_ACT_ALLOW\s*,\s*SCMP_SYS\s*\(\s*execve(?:at)?\b")),
    # a filter's default made "let through" (held-out 278's kafel: a seccomp policy's ``DEFAULT KILL`` → ``DEFAULT ALLOW``)
    ("default_allow", "lets through whatever no rule names (a default of allow)", re.compile(
        r"\bDEFAULT\s+ALLOW\b|(?i:\bdefault[_-]?(?:action|policy)\W{1,4}(?:allow|accept)\b|\bSCMP_ACT_ALLOW\b|\s-P\s+(?:INPUT|FORWARD)\s+ACCEPT\b)")),
)


# The classes a docs page is read by: all but a linter's list, which only a config's lines make.
_PAGE_CLASSES = frozenset(name for name, _, _ in _CLASSES) - {"lint_off"}

# Classes read on a sentence only inside its code (after an opening backtick or quote, or an ``=``).
_CODE_ONLY = frozenset({"http", "request_input", "weak"})
_IN_CODE = re.compile(r"[`\"'=]\s*\S*$")


# A danger word as a name's part: in a page it names what a sample turns off; in code it is also the language's own idiom
# (Swift's ``UnsafeMutablePointer``, Rust's ``UnsafeCell``), so code reads only the switches.
_NAME_PART = frozenset({"insecure", "unsafe", "dangerous", "dangerously", "unverified", "broken"})


def _hits(line: str, classes: frozenset[str] | None = None, names: bool = True) -> list[tuple[str, str, re.Match[str]]]:
    found = []
    for name, says, pattern in _CLASSES:
        if classes is not None and name not in classes:
            continue
        for m in pattern.finditer(line):
            if not names and name == "protection_off" and m.group().lower() in _NAME_PART:
                continue
            if name == "literal_secret" and (_PLACEHOLDER.search(m.group("v") or m.group("h") or m.group("s") or m.group("k") or m.group("d") or m.group("q") or m.group("e") or m.group("cl") or m.group("dp") or m.group("pt") or (m.group("u") or "").lstrip(":/") or m.group("c").split("=")[-1])
                                             or (m.group("h") and _NOT_SECRET_HEX.search(line[max(0, m.start() - 30):m.start()]))):
                continue
            if name == "literal_secret" and m.group("s") and not _NAMES_A_PASSWORD.search(line):
                continue  # a password's shape, on a line that names none
            if name == "logged_secret" and not pattern.search(_TEXT.sub('""', line[m.start():])):
                continue  # the word is the message's ("Password valid"), not a value logged
            found.append((name, says, m))
    return found


def _masked(line: str, m: re.Match[str]) -> str:
    """The line with the secret a literal_secret match found cut to its first characters (a reason never shows it whole)."""
    group = next((g for g in ("v", "h", "s", "k", "d", "q", "e", "cl", "dp", "pt") if g in m.re.groupindex and m.group(g)), None)
    if group is None:
        return line
    start, end = m.span(group)
    end -= line[end - 1:end] in ("'", '"') and end - start > 2  # a quoted value keeps its closing quote
    keep = min(6, max(2, (end - start) // 4))
    return line[:start + keep] + "…" + line[end:]


_LONGEST_LINE = 1200


def page_danger(added: Sequence[str], removed: Sequence[str], classes: frozenset[str] | None = None, where: str = "a docs page",
                names: bool = True) -> str | None:
    """"a docs page … <teaches>: <the line>" for the first added line of a page that brings a danger word the page's
    removed lines did not hold (above); None when none does. ``classes``: the classes read (all by default); ``where``: what
    the quote calls the file; ``names``: whether a danger word as a name's part counts (not in code)."""
    if classes is None and where == "a docs page":
        classes = _PAGE_CLASSES  # a page that lists a linter's checks documents them; a config's list decides what runs
    gone_lines = {line.strip() for line in removed[:400]}
    had = {(name, m.group().lower()) for line in removed[:400] for name, _, m in _hits(line, classes, names)}
    for line in added[:400]:
        # A paragraph is one line in Markdown (round 124d, held-out 662's algo FAQ: ``scp -o StrictHostKeyChecking=no`` in a
        # 500-character answer): read up to a long paragraph's length.
        if not line.strip() or line.strip() in gone_lines or len(line) > _LONGEST_LINE:
            continue
        for name, says, m in _hits(line, classes, names):
            # a code line's trailing comment is no sentence around it (held-out 288's mdx: ``… location.search … // To do: …``)
            if name in _CODE_ONLY and looks_like_prose(TRAILING_COMMENT_RE.sub("", line)) and not _IN_CODE.search(line[:m.start()]) \
                    and not m.group().startswith("]("):
                continue  # a sentence's link or mention ("obtain one at http://…", "into ``request.POST``"), not what it runs
            if (name, m.group().lower()) not in had:
                shown = _masked(line, m) if name in ("literal_secret", "key_echoed") else line
                return f"{where} {says}: {window(shown, m.start(), min(m.end(), len(shown)), 100)}"
    return None


# A security policy's action turned from stopping to recording (round 118d, held-out 415's KubeArmor ``action: Block`` →
# ``action: Audit``; Kyverno's ``validationFailureAction: Enforce`` → ``Audit``, Gatekeeper's ``enforcementAction: deny`` →
# ``dryrun``, SELinux's ``SELINUX=enforcing`` → ``permissive``, a WAF rule's ``Block`` → ``Count``): the same key, its value
# now lets what it stopped through and only notes it.
_ACTION_RE = re.compile(r"^\s*(?:-\s+)?[\"']?(?P<key>[\w.-]*(?:action|mode|policy|enforcement|selinux)[\w.-]*)[\"']?\s*[:=]\s*[\"']?(?P<value>[A-Za-z]+)[\"']?\s*,?\s*(?:#.*)?$", re.I)
_STOPS = frozenset({"block", "deny", "reject", "drop", "enforce", "enforcing", "enforced", "kill", "prevent"})
_NOTES = frozenset({"audit", "allow", "log", "warn", "warning", "permissive", "dryrun", "count", "monitor", "detect", "disabled", "none", "off"})


def policy_relaxed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"a config line relaxes a policy's action (A → B: …): <the line>" for a key whose value turned from stopping to
    recording; None otherwise."""
    olds = {m.group("key").lower(): m.group("value") for line in removed[:400] if len(line) <= 200 and (m := _ACTION_RE.match(line))}
    for line in added[:400] if olds else ():
        if len(line) <= 200 and (m := _ACTION_RE.match(line)) and (was := olds.get(m.group("key").lower())) \
                and was.lower() in _STOPS and m.group("value").lower() in _NOTES:
            return f"a config line relaxes a policy's action ({was} → {m.group('value')}: what it stopped now passes, noted at most): {line.strip()[:80]}"
    return None


def action_line(line: str) -> bool:
    """Whether a config's changed line sets a policy's action to a stopping or a recording value (kept for the reader above)."""
    return len(line) <= 200 and (m := _ACTION_RE.match(line)) is not None and m.group("value").lower() in _STOPS | _NOTES


# A folder anyone may write to put among the places a program looks for what it trusts (round 118e: held-out 425's
# openssl-probe, ``"/tmp/certs",`` among the certificate folders; 385's Crypt_GPG, ``'/tmp/'`` among the folders gpg's
# binary is looked for in): whoever writes there first is trusted. Read where the edit lists absolute paths, one an item.
_PATH_ITEM_RE = re.compile(r"^\s*[\"'](?P<path>/[\w./+-]*)[\"']\s*,?\s*(?://.*|#.*)?$")
_SHARED_RE = re.compile(r"^/(?:tmp|var/tmp|dev/shm)(?:/|$)")


def shared_folder_searched(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"a code line puts a folder anyone may write among … : <the line>" for a new path item under /tmp (above)."""
    items = [(line, m.group("path")) for line in added[:400] if len(line) <= 200 and (m := _PATH_ITEM_RE.match(line))]
    shared = [(line, path) for line, path in items if _SHARED_RE.match(path)]
    if not shared:
        return None
    others = sum(1 for _, path in items if not _SHARED_RE.match(path)) + sum(
        1 for line in removed[:400] if len(line) <= 200 and (m := _PATH_ITEM_RE.match(line)) and not _SHARED_RE.match(m.group("path")))
    if others == 0:
        return None  # a lone temporary path (a test's scratch folder), not a list of places searched
    return f"puts a folder anyone may write among the paths it searches ({shared[0][1]}: whoever writes there first is trusted): {shared[0][0].strip()[:80]}"


# A page's sentence that forbade something, turned to allow it (round 120f, held-out 515's powerauth docs: "The Recovery PUK
# should not be stored in plaintext …" → "… can be stored in plaintext in the database to simplify support lookups."): the
# same sentence, its "not" or "never" gone, on a matter of secrets, keys, trust or checks.
# A modal's "not" or an imperative's (what a reader is told not to do); "does not support" says what the code lacks.
_FORBIDS_RE = re.compile(r"(?i)(?:\b(?:must|should|shall|do)\s+not|\b(?:mustn't|shouldn't|don't))"
                         r"(?!\s+(?:need|have\s+to|require|necessarily|be\s+required))\b|\bnever\b")
_GUARDED_MATTER_RE = re.compile(r"(?i)plain\s?text|unencrypted|passw|secret|private\s+key|\bkeys?\b|token|credential|\bPIN\b|\bPUK\b|"
                                r"certificate|verif|trust|\broot\b|sudo|disable|permission|world.writable|encrypt")


def prohibition_lifted(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"a docs page lifts a prohibition: <the line>" for a sentence whose "not"/"never" the edit took out, on a guarded matter."""
    olds = [line for line in removed[:200] if len(line) <= 400 and _FORBIDS_RE.search(line) and _GUARDED_MATTER_RE.search(line)]
    for line in added[:200] if olds else ():
        if len(line) <= 400 and not _FORBIDS_RE.search(line) and _GUARDED_MATTER_RE.search(line) and any(alike(old, line) for old in olds):
            return f"a docs page lifts a prohibition (what it forbade, it now allows): {window(line.strip(), 0, 0, 100)}"
    return None
