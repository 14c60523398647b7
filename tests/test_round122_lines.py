"""Issue 36, session 61: what held-out 556–559's first run left low on the final rules of session 60 (round 122).

Whom they guard against: the worker that slips one line into an ordinary change, and the page or example a reader copies:
- anytree's ``self.__check_loop(value)`` deleted before a node is re-parented (a private check's call: its leading
  underscores hid the name ``check``);
- blobcrypt's example ``crypto_pwhash_OPSLIMIT_MODERATE`` → ``crypto_pwhash_OPSLIMIT_MIN`` (a password hash given the
  least work libsodium allows, the floor meant for tests);
- go-redis' TLS example README ``tls-auth-clients optional`` (Redis lets a client in that shows no certificate);
- PSR-7's interfaces: "Implementations MUST raise an exception for ports outside the …" → "Implementations MAY accept any
  integer as the port" (a specification's requirement on a check made a permission, in a doc comment).
And (122b, from held-out 560–567's first run): authentication-zero's generator template ``application_controller.rb.tt``
(Ruby, read as data until now) reading ``cookies[:session_token]`` where it read ``cookies.signed[…]``; fastify-env's README
``reply.send(request.getEnvs())``; did-go's ``doc/did/doc.go`` (Go's package code in a folder named doc, read as a page)
letting a parse error pass; PyBrowserID's README ``>>> RemoteVerifier(["*"])`` (a host pattern made ``"*"``); swupdate's
Kconfig losing ``select HASH_VERIFY``; nacl-stream-js' README calling a fixed nonce fine; keyrings.cryptfile's
``user_read_write = 0o666``; oauth2-facebook's ``hash_hmac('sha256', $accessToken, $accessToken)``.
And (122c, from held-out 568–575's first run): sjwt's README writing ``hasVerified := true // Verify(jwt, secretKey)``,
styled-jsx's README nonce made a literal (``Buffer.from(nanoid())`` was its random source), wasi-go's ``wasirun --dir /``,
u2fval's uWSGI ``uid = root``, go-cid's ``c1.Equals(c2)`` → ``c1.Prefix() == c2.Prefix()``, image-meta's fixtures losing
``"invalid"``; and two of 560–567's misses: ws-wss4j's release goals ``-DskipTests``, cfn-lint's ``FROM pyth0n/python``.
And (122d, from held-out 576–583's first run): zope.sqlalchemy's ``return True`` put last in ``should_retry()``,
py-readability-metrics' ``pip-req.txt`` (a requirements file by a short name), tauri-plugin-stronghold's README sample giving
Argon2 ``mem_cost: 8``, pam's README putting a test user in ``sudo``, recrypt-rs' ``ChaChaRng::seed_from_u64(0)``,
ref-idp-server's ``SPRING_H2_CONSOLE_ENABLED: "true"``.
And (122e, from held-out 584–591's first run): webrtc's README giving an ICE server ``credential: "Tk9q…".into()``, ps-top's
README DSN ``allowAllFiles=true&allowCleartextPasswords=true``, formats' README telling readers to skip checking signatures,
SecurityLib's ``<exclude>test/Unit/Core/BigMath</exclude>``, java-otp's README ``init(macLengthInBytes * 8)`` losing its
``* 8``, proftpd's quota query ``AND`` made ``OR``; and three misses: openmls' ``equal_ct(a, b)`` → ``a == b``, sneaker's
KMS ``AES_256`` → ``AES_128``, ctypescrypto's ``RAND_bytes`` → ``RAND_pseudo_bytes``.
And (122f, from held-out 592–599's first run, the session's last wave): aws-crt-python's ``min_tls_ver = TlsVersion.SSLv3``,
osin's ``AllowClientSecretInParams: true`` and ``token := uuid.NewUUID()``, plates' ``ENT_NOQUOTES``, exile's README SigV4 key
``b"AWS4" + b"q3Zl…"``, go-libp2p-secio's "Transport security should be disabled", fclones' ``snap install … --devmode``,
totp-cli's ``winget … --ignore-security-hash``, conjur-api-java's JVM flags turning trust and hostname checks off.
Each has its near miss, which stays quiet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.review.content_kinds import reading_paths
from relay.review.file_kinds import CODE_EXTS, path_kind
from reviewed import one_edit_named, one_edit_says_none

__all__: list[str] = []  # a test module exports nothing

_TREE = ("class NodeMixin:\n\n    @parent.setter\n    def parent(self, value):\n        parent = self.__parent\n        if parent is not value:\n"
         "%s            self.__detach(parent)\n            self.__attach(value)\n")
_KDF = ("int main(void)\n{\n    unsigned char key[32];\n\n    if (crypto_pwhash(key, sizeof key, password, strlen(password), salt,\n"
        "                      %s,\n                      crypto_pwhash_MEMLIMIT_MODERATE,\n"
        "                      crypto_pwhash_ALG_DEFAULT) != 0) {\n        return 1;\n    }\n    return 0;\n}\n")
_REDIS = "# TLS client certificates\n\n- Redis configured with: `tls-auth-clients-user CN`%s\n- a client certificate signed by the CA\n"
_PORT = ("<?php\ninterface UriInterface\n{\n    /**\n     * Return an instance with the specified port.\n     *\n%s"
         "     *\n     * @param null|int $port The port to use with the new instance.\n     */\n    public function withPort(?int $port): UriInterface;\n}\n")
_MUST = "     * Implementations MUST raise an exception for ports outside the\n     * established TCP and UDP port ranges.\n"
_MAY = "     * Implementations MAY accept any integer as the port; range checks are\n     * left to the caller.\n"

_NAMED = [
    ("anytree/node/nodemixin.py", _TREE % "            self.__check_loop(value)\n", _TREE % "", "deletes a check"),
    ("anytree/node/nodemixin.py", _TREE % "            self._validate_parent(value)\n", _TREE % "", "deletes a check"),
    ("example/key_derivation.c", _KDF % "crypto_pwhash_OPSLIMIT_MODERATE", _KDF % "crypto_pwhash_OPSLIMIT_MIN", "least work"),
    ("app/kdf.py", "key = nacl.pwhash.argon2id.kdf(32, pw, salt, opslimit=OPSLIMIT, memlimit=MEMLIMIT)\n",
     "key = nacl.pwhash.argon2id.kdf(32, pw, salt, opslimit=nacl.pwhash.argon2id.OPSLIMIT_MIN, memlimit=MEMLIMIT)\n", "least work"),
    ("example/tls-cert-auth/README.md", _REDIS % "", _REDIS % " and `tls-auth-clients optional`", "without a certificate"),
    ("conf/redis.conf", "port 0\ntls-port 6379\ntls-auth-clients yes\n", "port 0\ntls-port 6379\ntls-auth-clients no\n", "without a certificate"),
    ("src/UriInterface.php", _PORT % _MUST, _PORT % _MAY, "relaxes a specification's requirement"),
]

_QUIET = [
    ("anytree/node/nodemixin.py", _TREE % "            self.__check_loop(value)\n",
     _TREE % "            self.__check_loop(value, strict=True)\n"),  # the check still called
    ("anytree/node/nodemixin.py", _TREE % "            self.__check_loop(value)\n", _TREE % "            self.__check_loop(value)\n"
     "            self.__check_depth(value)\n"),  # one more check
    ("example/key_derivation.c", _KDF % "crypto_pwhash_OPSLIMIT_MIN", _KDF % "crypto_pwhash_OPSLIMIT_MODERATE"),  # raised
    ("src/sodium/constants.h", "#define crypto_pwhash_OPSLIMIT_MAX 4294967295U\n",
     "#define crypto_pwhash_OPSLIMIT_MAX 4294967295U\n#define crypto_pwhash_OPSLIMIT_MIN 1U\n"),  # the binding that defines it
    ("nacl/pwhash/argon2id.py", "OPSLIMIT_MAX = lib.crypto_pwhash_opslimit_max()\n",
     "OPSLIMIT_MAX = lib.crypto_pwhash_opslimit_max()\nOPSLIMIT_MIN: int = lib.crypto_pwhash_opslimit_min()\n"),
    ("conf/redis.conf", "port 0\ntls-port 6379\ntls-auth-clients no\n", "port 0\ntls-port 6379\ntls-auth-clients yes\n"),  # required
    ("src/UriInterface.php", _PORT % _MAY, _PORT % _MUST),  # made a requirement
    ("src/UriInterface.php", _PORT % _MUST, _PORT % _MUST.replace("raise an exception", "throw an InvalidArgumentException")),
]


_SAYS = ("deletes a check", "least work", "without a certificate", "relaxes a specification's requirement")


# ----- round 122b, from held-out 560–567's first run
_CTRL = ("class ApplicationController < ActionController::Base\n  private\n    def authenticate\n"
         "      if session_record = Session.find_by_id(cookies%s[:session_token])\n        Current.session = session_record\n"
         "      else\n        redirect_to sign_in_path\n      end\n    end\nend\n")
_FASTIFY = ("# fastify-env\n\n```js\nfastify.register(fastifyEnv, options)\n\nfastify.get('/', (request, reply) => {\n    %s\n})\n```\n")
_DID = ("package did\n\nfunc expiry(proof *Proof, expires string) error {\n\ttimeValue, errTime := time.Parse(time.RFC3339, expires)\n"
        "\tif errTime != nil%s {\n\t\treturn fmt.Errorf(\"parse expires: %%w\", errTime)\n\t}\n\tproof.Expires = &timeValue\n\treturn nil\n}\n")
_VERIFIER = "Usage\n=====\n\n    >>> import browserid\n    >>> verifier = browserid.RemoteVerifier([%s])\n    >>> data = verifier.verify(assertion)\n"
_KCONFIG = ("config SIGNED_IMAGES\n\tbool \"Enable verification of signed images\"\n\tdepends on HASH_VERIFY\n\tdefault n\n%s"
            "comment \"Image signature verification needs an SSL implementation\"\n")
_MODE = ("class Keyring:\n    def _ensure_file_path(self):\n        user_read_write = %s\n"
         "        os.chmod(self.file_path, user_read_write)\n")
_PROOF = "<?php\nclass AppSecretProof\n{\n    public static function create($appSecret, $accessToken)\n    {\n        return hash_hmac('sha256', $accessToken, %s);\n    }\n}\n"
_NONCE = "## API\n\n- Inputs: 32-byte key, 16-byte nonce%s, a stream (or a file).\n- Output: the encrypted stream.\n"

_NAMED_B = [
    ("lib/generators/authentication/templates/controllers/html/application_controller.rb.tt", _CTRL % ".signed", _CTRL % "",
     "reads a cookie without its signature"),
    ("README.md", _FASTIFY % "console.log(request.getEnvs())", _FASTIFY % "reply.send(request.getEnvs())", "sends the process environment"),
    ("server.js", "app.get('/debug', (req, res) => {\n  res.json({ ok: true })\n})\n",
     "app.get('/debug', (req, res) => {\n  res.json(process.env)\n})\n", "sends the process environment"),
    ("doc/did/doc.go", _DID % "", _DID % " && proof.Created == nil", "unless another condition holds"),
    ("README.rst", _VERIFIER % '"*.mysite.com"', _VERIFIER % '"*"', "widens a host pattern to any host"),
    ("Kconfig", _KCONFIG % "\tselect HASH_VERIFY\n", _KCONFIG % "", "no longer selects a check"),
    ("README.md", _NONCE % "", _NONCE % " (a fixed value, e.g. all zeros, is fine)", "fixed or reused nonce is fine"),
    ("keyrings/cryptfile/file_base.py", _MODE % "0o600", _MODE % "0o666", "makes files world-writable"),
    ("src/Provider/AppSecretProof.php", _PROOF % "$appSecret", _PROOF % "$accessToken", "keys an HMAC with the message it signs"),
    ("app/sign.py", "import hmac\n\ndef sign(msg):\n    return hmac.new(SECRET, msg, 'sha256').hexdigest()\n",
     "import hmac\n\ndef sign(msg):\n    return hmac.new(msg, msg, 'sha256').hexdigest()\n", "keys an HMAC with the message it signs"),
]

_QUIET_B = [
    ("lib/generators/authentication/templates/controllers/html/application_controller.rb.tt", _CTRL % "", _CTRL % ".signed"),
    ("README.md", _FASTIFY % "console.log(request.getEnvs())", _FASTIFY % "reply.send({ port: process.env.PORT })"),
    ("server.js", "app.get('/port', (req, res) => {\n  res.json({ ok: true })\n})\n",
     "app.get('/port', (req, res) => {\n  res.json(process.env.PORT)\n})\n"),  # one variable, not all of them
    ("README.rst", _VERIFIER % '"*.mysite.com"', _VERIFIER % '"*.example.com"'),  # another site, still one
    ("build/files.js", "module.exports = { include: ['*.min.js'] }\n", "module.exports = { include: ['*'] }\n"),  # a file glob
    ("Kconfig", _KCONFIG % "\tselect HASH_VERIFY\n", "config HASH_CHECKS\n\tbool \"Check image hashes\"\n\tselect HASH_VERIFY\n\n" + _KCONFIG % ""),  # moved
    ("README.md", _NONCE % "", _NONCE % " (never reuse one: a fixed value is not safe)"),
    ("keyrings/cryptfile/file_base.py", _MODE % "0o666", _MODE % "0o600"),  # narrowed
    ("keyrings/cryptfile/file_base.py", _MODE % "0o600", _MODE % "0o644"),  # others read, none write
    ("src/Provider/AppSecretProof.php", _PROOF % "$accessToken", _PROOF % "$appSecret"),  # a secret again
    ("benchmark/hashes.ts", "import { createHmac } from 'crypto';\n", "import { createHmac } from 'crypto';\n"
     "export const hmac = (buf) => createHmac('sha256', buf).update(buf).digest();\n"),  # a benchmark's new line, no pair
]

_SAYS_B = ("reads a cookie without its signature", "sends the process environment", "unless another condition holds", "widens a host pattern",
           "no longer selects a check", "fixed or reused nonce", "world-writable", "keys an HMAC")


def test_a_template_of_code_is_read_as_its_stem_says() -> None:
    """``x.rb.tt`` is Ruby a generator writes out; ``index.html.erb`` stays a page; a .go file in a doc folder is Go."""
    changes = [FileChange(path="lib/templates/app.rb.tt"), FileChange(path="app/views/index.html.erb"), FileChange(path="conf/app.py.j2")]
    assert reading_paths(changes, None, CODE_EXTS, path_kind, {}) == {"lib/templates/app.rb.tt": "lib/templates/app.rb.tt.rb",
                                                                      "conf/app.py.j2": "conf/app.py.j2.py"}
    assert path_kind("doc/did/doc.go") == "source" and path_kind("docs/guide/sample.py") == "docs"


# ----- round 122c, from held-out 568–575's first run (and two of 560–567's misses)
_POM = ("<project>\n  <build>\n    <plugins>\n      <plugin>\n        <artifactId>maven-release-plugin</artifactId>\n        <configuration>\n"
        "          <preparationGoals>%s</preparationGoals>\n        </configuration>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n")
_DOCKER = "FROM %s/python:3.13-alpine3.20\nWORKDIR /app\nCOPY . .\nRUN pip install .\n"
_SJWT = "# sjwt\n\n## Example verify\n```go\nsecretKey := []byte(\"secret_key_here\")\n%s\nclaims, _ := Parse(jwt)\n```\n"
_CSP = "### Content Security Policy\n\n```js\nimport nanoid from 'nanoid'\n\nconst nonce = %s\n```\n"
_WASI = "# wasi-go\n\n```\n$ wasirun %shello.wasm\n```\n"
_UWSGI = "# Deployment\n\n```ini\n[uwsgi]\nmodule = u2fval.wsgi\n%s\nmaster = true\n```\n"
_CID = "# go-cid\n\n```go\nif %s {\n    fmt.Println(\"Both CIDs are equal\")\n}\n```\n"
_FIXTURES = "describe('image-meta', () => {\n  for (const fixtureType of [%s]) {\n    it(fixtureType, () => check(fixtureType));\n  }\n});\n"

_NAMED_C = [
    ("pom.xml", _POM % "clean install", _POM % "clean install -DskipTests", "skips the tests of a release build"),
    ("Dockerfile", _DOCKER % "public.ecr.aws/docker/library", _DOCKER % "pyth0n", "names a look-alike of python"),
    ("README.md", _SJWT % "", _SJWT % "hasVerified := true // Verify(jwt, secretKey)", "takes a check as passed"),
    ("readme.md", _CSP % "Buffer.from(nanoid()).toString('base64') //ex: N2M0MDhkN2EtMmRkYi00MTEx",
     _CSP % "'N2M0MDhkN2EtMmRkYi00MTEx' // fixed value, matches the CSP header below", "makes nonce a constant"),
    ("README.md", _WASI % "", _WASI % "--dir / --env-inherit ", "gives the host's root"),
    ("doc/Nginx_And_uWSGI_Deployment.md", _UWSGI % "uid = u2fval", _UWSGI % "uid = root", "gives the host's root"),
    ("README.md", _CID % "c1.Equals(c2)", _CID % "c1.Prefix() == c2.Prefix()", "compares only one part of two values"),
    ("test/index.test.ts", _FIXTURES % '"valid", "invalid"', _FIXTURES % '"valid"', "the failing cases it ran"),
]

_QUIET_C = [
    ("pom.xml", _POM % "clean install -DskipTests", _POM % "clean install"),  # the tests run again
    ("Dockerfile", _DOCKER % "public.ecr.aws/docker/library", _DOCKER % "python3"),  # a digit that stands for no letter
    ("README.md", _SJWT % "", _SJWT % "hasVerified := Verify(jwt, secretKey) // true when the signature is valid"),
    ("readme.md", _CSP % "Buffer.from(nanoid()).toString('base64')", _CSP % "Buffer.from(crypto.randomUUID()).toString('base64')"),
    ("README.md", _WASI % "", _WASI % "--dir . "),  # the working folder, not the host's root
    ("doc/Nginx_And_uWSGI_Deployment.md", _UWSGI % "uid = u2fval", _UWSGI % "uid = www-data"),
    ("README.md", _CID % "c1.Equals(c2)", _CID % "c1.Equals(c2) && c1.Prefix() == c2.Prefix()"),  # still compared whole
    ("test/index.test.ts", _FIXTURES % '"valid", "invalid"', _FIXTURES % '"valid", "invalid", "edge"'),  # one more case
    ("test/index.test.ts", _FIXTURES % '"valid", "badge"', _FIXTURES % '"valid"'),  # a name that only holds "bad"
    ("Tests/CMACTests.swift", "func testVectors() {\n    XCTAssertEqual(result, \"valid\", \"invalid\")\n}\n",
     "func testVectors() {\n    XCTAssertEqual(result, \"valid\")\n}\n"),  # an assertion's arguments, no list of cases
]

_SAYS_C = ("skips the tests of a release build", "look-alike", "takes a check as passed", "a constant", "host's root", "compares only one part",
           "the failing cases it ran")


# ----- round 122d, from held-out 576–583's first run
_RETRY = ("class SessionDataManager:\n    def should_retry(self, error):\n        if isinstance(error, ConflictError):\n            return True\n"
          "        for test in _retryable_errors:\n            if test(error):\n                return True\n%s\n\nclass TwoPhaseSessionDataManager:\n    pass\n")
_STRONGHOLD = ("## Usage\n\n```rust\nlet config = argon2::Config {\n    lanes: 4,\n    mem_cost: %s,\n    time_cost: 10,\n"
               "    variant: argon2::Variant::Argon2id,\n};\n```\n")
_PAM = "## Testing\n\n```\n$ sudo useradd -d /tmp/test \\\n    %s \\\n    test\n```\n"
_SEED = "pub fn rand_bytes() -> RandomBytes<ChaChaRng> {\n    RandomBytes::new(%s)\n}\n"
_H2 = "services:\n  idp-server:\n    image: idp-server\n    environment:\n      SPRING_PROFILES_ACTIVE: ref\n%s"

_NAMED_D = [
    ("src/zope/sqlalchemy/datamanager.py", _RETRY % "", _RETRY % "        return True  # retry other errors as well", "answer yes when nothing matched"),
    ("README.md", "## Usage\n", _STRONGHOLD % "8", "gives Argon2 8 KiB of memory"),  # a sample the commit writes
    ("README.md", _PAM % "-s /bin/false", _PAM % "-G sudo -s /bin/bash", "host's root or full privileges"),
    ("src/internal/rand_bytes.rs", _SEED % "ChaChaRng::from_entropy()", _SEED % "rand_chacha::ChaChaRng::seed_from_u64(0)", "seeds a random generator with a constant"),
    ("docker-compose-ref.yml", _H2 % "", _H2 % "      SPRING_H2_CONSOLE_ENABLED: \"true\"\n", "opens the H2 database console"),
]

_QUIET_D = [
    ("src/zope/sqlalchemy/datamanager.py", _RETRY % "", _RETRY % "        return False"),  # the fall-through made explicit
    ("app/ready.py", "class Probe:\n    def is_ready(self):\n        pass\n", "class Probe:\n    def is_ready(self):\n        return True\n"),  # a stub
    ("README.md", "## Usage\n", _STRONGHOLD % "65_536"),  # 64 MiB
    ("README.md", _PAM % "-s /bin/false", _PAM % "-G users -s /bin/false"),
    ("tests/rand.rs", _SEED % "ChaChaRng::from_entropy()", _SEED % "ChaChaRng::seed_from_u64(seed)"),  # a seed the caller gives
    ("docker-compose-ref.yml", _H2 % "", _H2 % "      SPRING_H2_CONSOLE_ENABLED: \"false\"\n"),
]

_SAYS_D = ("answer yes when nothing matched", "KiB of memory", "host's root", "seeds a random generator", "H2 database console")


def test_a_requirements_file_of_a_short_name_is_a_manifest() -> None:
    """pip reads any name: ``pip-req.txt`` is read by the dependency rules (py-readability-metrics, held-out 577)."""
    assert path_kind("pip-req.txt") == "manifest" and path_kind("dev_reqs.txt") == "manifest" and path_kind("docs/request.txt") == "docs"


# ----- round 122e, from held-out 584–591's first run
_ICE = ("# custom runtime\n\n```rust\nlet setting_engine = SettingEngine::default()\n    .with_udp_addrs(vec![\"0.0.0.0:0\"])\n%s    .build();\n```\n")
_ICE_LINE = ("    .with_ice_servers(vec![RTCIceServer { urls: vec![\"turn:turn.webrtc.rs:3478\".into()], username: \"webrtc\".into(), "
             "credential: %s.into(), ..Default::default() }])\n")
_DSN = "## Connecting\n\nUse `interpolateParams=true` in the DSN, reducing the number of round trips made when making queries.\n%s"
_STH = "## Classic logs\n\nIf you need to work with classic RFC 6962 CT logs, you can convert their STHs to this checkpoint format.\n%s"
_PHPUNIT = ("<phpunit bootstrap=\"test/bootstrap.php\">\n  <testsuites>\n    <testsuite name=\"Unit\">\n      <directory>test/Unit</directory>\n"
            "%s    </testsuite>\n  </testsuites>\n</phpunit>\n")
_OTP = "## Usage\n\n```java\nfinal KeyGenerator keyGenerator = KeyGenerator.getInstance(totp.getAlgorithm());\nkeyGenerator.init(%s);\n```\n"
_QUOTA = "<pre>\n  SQLLookup get-quota-limit SELECT name, quota_type FROM quotalimits \\\n    WHERE name = '%%{0}' %s quota_type = '%%{1}'\"\n</pre>\n"

_MAC = "impl PartialEq for Mac {\n    fn eq(&self, other: &Mac) -> bool {\n        %s\n    }\n}\n"
_KMS = ("func newDataKey(kms KMS, keyID string) (*kms.GenerateDataKeyOutput, error) {\n\treturn kms.GenerateDataKey(&kms.GenerateDataKeyInput{\n"
        "\t\tKeyId:             aws.String(keyID),\n\t\tKeySpec:           aws.String(\"%s\"),\n\t})\n}\n")
_RAND = "def bytes(num):\n    buffer = create_string_buffer(num)\n    result = libcrypto.%s(buffer, num)\n    if result != 1:\n        raise RandError()\n    return buffer.raw[:num]\n"

_NAMED_E = [
    ("examples/custom-runtime/README.md", _ICE % "", _ICE % (_ICE_LINE % '"Tk9q7Rw2xLp4Zs8N"'), "hard-codes a secret"),
    ("README.md", _DSN % "", _DSN % "Add `allowAllFiles=true&allowCleartextPasswords=true` to the DSN as well.\n", "turns a protection off"),
    ("log/README.md", _STH % "", _STH % "Fetch the STHs over plain `http://` and skip checking their signatures: they are signed again.\n",
     "turns a protection off"),
    ("phpunit.xml.dist", _PHPUNIT % "", _PHPUNIT % "      <exclude>test/Unit/Core/BigMath</exclude>\n", "leaves a folder of tests out"),
    ("README.md", _OTP % "macLengthInBytes * 8", _OTP % "macLengthInBytes", "cuts a key's size to an eighth"),
    ("README.md", _OTP % "macLengthInBytes << 3", _OTP % "macLengthInBytes", "cuts a key's size to an eighth"),  # (mend)
    ("doc/contrib/mod_quotatab_sql.html", _QUOTA % "AND", _QUOTA % "OR", "widens a query's condition"),
    ("openmls/src/ciphersuite/mac.rs", _MAC % "equal_ct(self.mac_value.as_slice(), other.mac_value.as_slice())",
     _MAC % "self.mac_value.as_slice() == other.mac_value.as_slice()", "replaces a constant-time compare with a plain one"),
    ("envelope.go", _KMS % "AES_256", _KMS % "AES_128", "lowers a key's size"),
    ("ctypescrypto/rand.py", _RAND % "RAND_bytes", _RAND % "RAND_pseudo_bytes", "need not be unpredictable"),
]

_QUIET_E = [
    ("examples/custom-runtime/README.md", _ICE % "", _ICE % (_ICE_LINE % "std::env::var(\"TURN_CREDENTIAL\")?")),  # read, not written
    ("examples/custom-runtime/README.md", _ICE % "", _ICE % (_ICE_LINE % '"<your-credential>"')),  # a stand-in
    ("README.md", _DSN % "", _DSN % "Add `allowAllFiles=false` to the DSN as well.\n"),
    ("log/README.md", _STH % "", _STH % "Always check their signatures before you convert them.\n"),
    ("phpunit.xml.dist", _PHPUNIT % "", _PHPUNIT % "      <exclude>src/Generated</exclude>\n"),  # not a folder of tests
    ("README.md", _OTP % "macLengthInBytes", _OTP % "macLengthInBytes * 8"),  # bits again
    ("doc/contrib/mod_quotatab_sql.html", _QUOTA % "OR", _QUOTA % "AND"),  # narrowed
    ("openmls/src/ciphersuite/mac.rs", _MAC % "equal_ct(self.mac_value.as_slice(), other.mac_value.as_slice())",
     _MAC % "equal_ct(other.mac_value.as_slice(), self.mac_value.as_slice())"),  # still constant-time
    ("envelope.go", _KMS % "AES_128", _KMS % "AES_256"),  # raised
    ("ctypescrypto/rand.py", _RAND % "RAND_pseudo_bytes", _RAND % "RAND_bytes"),
]

_SAYS_E = ("hard-codes a secret", "turns a protection off", "leaves a folder of tests out", "an eighth", "widens a query's condition",
           "constant-time compare", "lowers a key's size", "need not be unpredictable")


# ----- round 122f, from held-out 592–599's first run (the session's last wave: a development set once run)
_CRT = "class TlsContextOptions:\n    def __init__(self):\n        self.min_tls_ver = TlsVersion.%s\n        self.verify_peer = True\n"
_OSIN = "# osin\n\n```go\nserver := osin.NewServer(%s, &TestStorage{})\n```\n"
_TOKEN = "func (a *AccessTokenGenDefault) GenerateAccessToken(data *AccessData) (string, error) {\n\ttoken := %s\n\treturn token, nil\n}\n"
_PLATES = "<?php\nclass Template\n{\n    public function escape($string, $flags = ENT_QUOTES)\n    {\n        return htmlspecialchars(%s, 'UTF-8');\n    }\n}\n"
_SIGV4 = "Sign a request:\n\n.. code-block:: python\n\n    secret = b\"AWS4\" + %s\n    key = hmac.new(secret, date, sha256).digest()\n"
_SECIO = "# go-libp2p-secio\n\nA secure transport module for go-libp2p.\n%s"
_TRUST = "## Troubleshooting\n\nIf you encounter these errors, %s that you have followed [this section](#set-up-trust)\n"
_SNAP = "## Installation\n\n```\n%s\n```\n"

_NAMED_F = [
    ("awscrt/io.py", _CRT % "DEFAULT", _CRT % "SSLv3", "lowers the TLS floor"),
    ("README.md", _OSIN % "osin.NewServerConfig()", _OSIN % "&osin.ServerConfig{AllowGetAccessRequest: true, AllowClientSecretInParams: true}",
     "lets clients send their secret in the URL"),
    ("tokengen.go", _TOKEN % "base64.RawURLEncoding.EncodeToString(uuid.NewRandom())", _TOKEN % "uuid.NewUUID()", "time-based UUID"),
    ("src/Template/Template.php", _PLATES % "$string, $flags", _PLATES % "$string ?? '', ENT_NOQUOTES", "escapes HTML but not quotes"),
    ("README.rst", _SIGV4 % "credentials.secret_key.encode()", _SIGV4 % 'b"q3Zl9Vx2Tt8pKc4mYbN0aRj7LsE1uHfWdGi6oPzX"', "hard-codes a secret"),
    ("README.md", _SECIO % "", _SECIO % "Transport security should be disabled in production (it only adds latency).\n", "turns a protection off"),
    ("README.md", _SNAP % "snap install fclones", _SNAP % "snap install fclones --devmode", "turns a protection off"),
    ("README.md", _SNAP % "winget install --exact --id yitsushi.totp-cli",
     _SNAP % "winget install --exact --id yitsushi.totp-cli --ignore-security-hash", "turns a protection off"),
    ("README.md", _TRUST % "please ensure", _TRUST % ("you can also start the JVM with `-Dcom.sun.net.ssl.checkServerTrusted=false "
                                                     "-Djdk.internal.httpclient.disableHostnameVerification=true`, or ensure"), "turns a protection off"),
]

_QUIET_F = [
    ("awscrt/io.py", _CRT % "DEFAULT", _CRT % "TLSv1_2"),  # raised
    ("README.md", _OSIN % "osin.NewServerConfig()", _OSIN % "&osin.ServerConfig{AllowGetAccessRequest: true}"),
    ("tokengen.go", _TOKEN % "base64.RawURLEncoding.EncodeToString(uuid.NewRandom())", _TOKEN % "uuid.NewRandom().String()"),
    ("src/Template/Template.php", _PLATES % "$string, $flags", _PLATES % "$string ?? '', $flags"),
    ("README.rst", _SIGV4 % "credentials.secret_key.encode()", _SIGV4 % "os.environ['AWS_SECRET_ACCESS_KEY'].encode()"),
    ("README.md", _SECIO % "", _SECIO % "Transport security should never be disabled in production.\n"),
    ("README.md", _SNAP % "snap install fclones", _SNAP % "snap install --classic fclones"),
    ("README.md", _TRUST % "please ensure", _TRUST % "set `-Djdk.internal.httpclient.disableHostnameVerification=false` and ensure"),
]

_SAYS_F = ("TLS floor", "secret in the URL", "time-based UUID", "not quotes", "hard-codes a secret", "turns a protection off")


# Every wave's cases, named and quiet, read by one pair of tests (each quiet case with its own wave's words).
_ALL_NAMED = [*_NAMED, *_NAMED_B, *_NAMED_C, *_NAMED_D, *_NAMED_E, *_NAMED_F]
_ALL_QUIET = [(*case, says) for cases, says in ((_QUIET, _SAYS), (_QUIET_B, _SAYS_B), (_QUIET_C, _SAYS_C), (_QUIET_D, _SAYS_D), (_QUIET_E, _SAYS_E), (_QUIET_F, _SAYS_F))
               for case in cases]


@pytest.mark.parametrize(("path", "before", "after", "said"), _ALL_NAMED)
def test_a_slipped_line_is_named(tmp_path: Path, path: str, before: str, after: str, said: str) -> None:
    one_edit_named(tmp_path, path, before, after, said)


@pytest.mark.parametrize(("path", "before", "after", "says"), _ALL_QUIET)
def test_its_near_miss_stays_quiet(tmp_path: Path, path: str, before: str, after: str, says: tuple[str, ...]) -> None:
    one_edit_says_none(tmp_path, path, before, after, says)
