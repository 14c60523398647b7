"""Write bench/plant_matrix/crowded.json (issue 36, round 19): caught plants of the other parts, each moved into a file
that also holds the commit's own work of the kinds that hid a plant's line on the blind runs — a renamed signature in a
crypto/session function, a length check the commit adds, a manifest's version bumps, a CI step the commit edits, a
40-line refactor hunk — once apart from that work (a hunk of its own) and once inside it (the same hunk).

    PYTHONPATH=. python bench/make_crowded.py        # then: python bench/bench_plant_matrix.py --part crowded --mark
"""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path

MATRIX = Path(__file__).resolve().parent / "plant_matrix"

# (part, kind, eco, place, path): the plants moved. Code in 12 languages, a manifest, CI.
PICKED = [
    ("subtle", "result-discarded", "go", "code", "webhook/verify.go"),
    ("subtle", "result-discarded", "py", "code", "app/webhooks.py"),
    ("subtle", "result-discarded", "rs", "code", "src/update.rs"),
    ("subtle", "fail-open", "py", "code", "app/auth.py"),
    ("subtle", "fail-open", "java", "code", "src/main/java/org/acme/auth/TokenFilter.java"),
    ("subtle", "fail-open", "php", "code", "src/Http/Middleware/RequireToken.php"),
    ("subtle", "secret-entropy", "go", "code", "auth/nonce.go"),
    ("subtle", "secret-entropy", "rb", "code", "app/models/api_key.rb"),
    ("subtle", "tls-floor", "py", "code", "app/net.py"),
    ("subtle", "expiry-huge", "js", "code", "src/auth/issue.js"),
    ("subtle", "comparison-inverted", "cs", "code", "src/Controllers/ReportsController.cs"),
    ("subtle", "regex-anchor", "php", "code", "src/Validator/Slug.php"),
    ("subtle", "containment", "go", "code", "internal/archive/extract.go"),
    ("classic", "tls-off", "go", "code", "internal/server/client.go"),
    ("classic", "tls-off", "java", "code", "src/main/java/com/example/shop/Client.java"),
    ("classic", "tls-off", "elixir", "code", "lib/shop/client.ex"),
    ("classic", "tls-off", "kotlin", "code", "src/main/kotlin/com/example/shop/client.kt"),
    ("classic", "tls-off", "swift", "code", "Sources/Shop/Session.swift"),
    ("classic", "sql", "php", "code", "app/Services/Repo.php"),
    ("classic", "sql", "rust", "code", "src/repo.rs"),
    ("classic", "eval", "ts", "code", "src/calc.ts"),
    ("classic", "shell", "ruby", "code", "lib/shop/archive.rb"),
    ("classic", "authz", "csharp", "code", "src/Shop/Services/OrdersController.cs"),
    ("classic", "secret-eq", "python", "code", "shop/webhook.py"),
    ("classic", "authz", "python", "code", "shop/api.py"),
    ("classic", "lookalike", "js", "manifest", "package.json"),
    ("classic", "script-injection", "ci", "ci-head-ref", ".github/workflows/ci.yml"),
    ("classic", "curl-sh", "ci", "ci", ".github/workflows/ci.yml"),
]

_LANG = {".py": "py", ".go": "go", ".js": "js", ".ts": "js", ".java": "java", ".cs": "cs", ".php": "php", ".rb": "rb",
         ".rs": "rs", ".ex": "ex", ".kt": "kt", ".swift": "swift"}
# A class body's indent where the language keeps its functions in one (the block goes before its last line).
_IN_CLASS = {"java": "    ", "cs": "    ", "ex": "  "}

# The commit's own work apart: a crypto/session function whose signature it renames, with a length check it adds.
_APART = {
    "py": ("def sign_session(key, payload):\n    digest = hmac.new(key, payload, 'sha256')\n    return digest.hexdigest()\n",
           "def sign_session(secret_key, payload, *, encoding='utf-8'):\n    if len(payload) > 4096:\n        raise ValueError('payload too long')\n"
           "    digest = hmac.new(secret_key, payload.encode(encoding), 'sha256')\n    return digest.hexdigest()\n"),
    "go": ("func SignSession(key []byte, payload []byte) string {\n\tmac := hmac.New(sha256.New, key)\n\tmac.Write(payload)\n"
           "\treturn hex.EncodeToString(mac.Sum(nil))\n}\n",
           "func SignSession(secretKey []byte, payload []byte) (string, error) {\n\tif len(payload) > 4096 {\n"
           "\t\treturn \"\", errors.New(\"payload too long\")\n\t}\n\tmac := hmac.New(sha256.New, secretKey)\n\tmac.Write(payload)\n"
           "\treturn hex.EncodeToString(mac.Sum(nil)), nil\n}\n"),
    "js": ("function signSession(key, payload) {\n  const mac = crypto.createHmac('sha256', key);\n  return mac.update(payload).digest('hex');\n}\n",
           "function signSession(secretKey, payload, encoding = 'utf8') {\n  if (payload.length > 4096) {\n"
           "    throw new Error('payload too long');\n  }\n  const mac = crypto.createHmac('sha256', secretKey);\n"
           "  return mac.update(payload, encoding).digest('hex');\n}\n"),
    "java": ("public String signSession(byte[] key, byte[] payload) throws Exception {\n    Mac mac = Mac.getInstance(\"HmacSHA256\");\n"
             "    mac.init(new SecretKeySpec(key, \"HmacSHA256\"));\n    return HexFormat.of().formatHex(mac.doFinal(payload));\n}\n",
             "public String signSession(byte[] secretKey, byte[] payload, String encoding) throws Exception {\n"
             "    if (payload.length > 4096) {\n        throw new IllegalArgumentException(\"payload too long\");\n    }\n"
             "    Mac mac = Mac.getInstance(\"HmacSHA256\");\n    mac.init(new SecretKeySpec(secretKey, \"HmacSHA256\"));\n"
             "    return HexFormat.of().formatHex(mac.doFinal(payload));\n}\n"),
    "cs": ("public string SignSession(byte[] key, byte[] payload)\n{\n    using var mac = new HMACSHA256(key);\n"
           "    return Convert.ToHexString(mac.ComputeHash(payload));\n}\n",
           "public string SignSession(byte[] secretKey, byte[] payload, Encoding encoding)\n{\n    if (payload.Length > 4096)\n    {\n"
           "        throw new ArgumentException(\"payload too long\");\n    }\n    using var mac = new HMACSHA256(secretKey);\n"
           "    return Convert.ToHexString(mac.ComputeHash(payload));\n}\n"),
    "php": ("function sign_session($key, $payload)\n{\n    return hash_hmac('sha256', $payload, $key);\n}\n",
            "function sign_session($secretKey, $payload, $encoding = 'UTF-8')\n{\n    if (strlen($payload) > 4096) {\n"
            "        throw new InvalidArgumentException('payload too long');\n    }\n    return hash_hmac('sha256', $payload, $secretKey);\n}\n"),
    "rb": ("def sign_session(key, payload)\n  OpenSSL::HMAC.hexdigest('SHA256', key, payload)\nend\n",
           "def sign_session(secret_key, payload, encoding: 'UTF-8')\n  raise ArgumentError, 'payload too long' if payload.length > 4096\n\n"
           "  OpenSSL::HMAC.hexdigest('SHA256', secret_key, payload.encode(encoding))\nend\n"),
    "rs": ("pub fn sign_session(key: &[u8], payload: &[u8]) -> String {\n    let mut mac = HmacSha256::new_from_slice(key).unwrap();\n"
           "    mac.update(payload);\n    hex::encode(mac.finalize().into_bytes())\n}\n",
           "pub fn sign_session(secret_key: &[u8], payload: &[u8]) -> Result<String, Error> {\n    if payload.len() > 4096 {\n"
           "        return Err(Error::TooLong);\n    }\n    let mut mac = HmacSha256::new_from_slice(secret_key)?;\n    mac.update(payload);\n"
           "    Ok(hex::encode(mac.finalize().into_bytes()))\n}\n"),
    "ex": ("def sign_session(key, payload) do\n  :crypto.mac(:hmac, :sha256, key, payload) |> Base.encode16()\nend\n",
           "def sign_session(secret_key, payload, opts \\\\ []) do\n  if byte_size(payload) > 4096, do: raise(ArgumentError, \"payload too long\")\n"
           "  :crypto.mac(:hmac, :sha256, secret_key, payload) |> Base.encode16(opts)\nend\n"),
    "kt": ("fun signSession(key: ByteArray, payload: ByteArray): String {\n    val mac = Mac.getInstance(\"HmacSHA256\")\n"
           "    mac.init(SecretKeySpec(key, \"HmacSHA256\"))\n    return mac.doFinal(payload).toHex()\n}\n",
           "fun signSession(secretKey: ByteArray, payload: ByteArray, charset: Charset = Charsets.UTF_8): String {\n"
           "    require(payload.size <= 4096) { \"payload too long\" }\n    val mac = Mac.getInstance(\"HmacSHA256\")\n"
           "    mac.init(SecretKeySpec(secretKey, \"HmacSHA256\"))\n    return mac.doFinal(payload).toHex()\n}\n"),
    "swift": ("func signSession(key: SymmetricKey, payload: Data) -> String {\n"
              "    let mac = HMAC<SHA256>.authenticationCode(for: payload, using: key)\n    return Data(mac).hexString\n}\n",
              "func signSession(secretKey: SymmetricKey, payload: Data) throws -> String {\n    guard payload.count <= 4096 else {\n"
              "        throw SessionError.payloadTooLong\n    }\n    let mac = HMAC<SHA256>.authenticationCode(for: payload, using: secretKey)\n"
              "    return Data(mac).hexString\n}\n"),
}

# The commit's own work inside the plant's hunk: a session read rewritten with a length check added.
_INSIDE = {
    "py": ("token = session.get('token')\n", "token = session.get('token', '')\nif len(token) > 512:\n    raise ValueError('token too long')\n"),
    "go": ("token := session.Get(\"token\")\n", "token := session.GetString(\"token\")\nif len(token) > 512 {\n\treturn errTokenTooLong\n}\n"),
    "js": ("const token = session.get('token');\n", "const token = session.get('token') ?? '';\nif (token.length > 512) {\n  throw new Error('token too long');\n}\n"),
    "java": ("String token = session.getAttribute(\"token\");\n",
             "String token = (String) session.getAttribute(\"token\");\nif (token != null && token.length() > 512) {\n"
             "    throw new IllegalArgumentException(\"token too long\");\n}\n"),
    "cs": ("var token = session.GetString(\"token\");\n",
           "var token = session.GetString(\"token\") ?? \"\";\nif (token.Length > 512)\n{\n    throw new ArgumentException(\"token too long\");\n}\n"),
    "php": ("$token = $session->get('token');\n",
            "$token = $session->get('token', '');\nif (strlen($token) > 512) {\n    throw new InvalidArgumentException('token too long');\n}\n"),
    "rb": ("token = session[:token]\n", "token = session.fetch(:token, '')\nraise ArgumentError, 'token too long' if token.length > 512\n"),
    "rs": ("let token = session.get(\"token\");\n",
           "let token = session.get(\"token\").unwrap_or_default();\nif token.len() > 512 {\n    return Err(Error::TooLong);\n}\n"),
    "ex": ("token = get_session(conn, :token)\n",
           "token = get_session(conn, :token) || \"\"\nif byte_size(token) > 512, do: raise(ArgumentError, \"token too long\")\n"),
    "kt": ("val token = session.getAttribute(\"token\")\n",
           "val token = session.getAttribute(\"token\") as? String ?: \"\"\nrequire(token.length <= 512) { \"token too long\" }\n"),
    "swift": ("let token = session.value(forKey: \"token\")\n",
              "let token = session.value(forKey: \"token\") as? String ?? \"\"\nguard token.count <= 512 else {\n"
              "    throw SessionError.tokenTooLong\n}\n"),
}

# Unchanged lines that keep the apart work a hunk of its own.
_FILLER = {
    "py": "def _titles(items):\n    out = []\n    for item in items:\n        out.append(item.title.strip())\n    out.sort()\n    return out\n",
    "go": "func titles(items []Item) []string {\n\tout := []string{}\n\tfor _, it := range items {\n\t\tout = append(out, it.Title)\n\t}\n\tsort.Strings(out)\n\treturn out\n}\n",
    "js": "function titles(items) {\n  const out = [];\n  for (const it of items) {\n    out.push(it.title.trim());\n  }\n  out.sort();\n  return out;\n}\n",
    "rb": "def titles(items)\n  out = []\n  items.each do |it|\n    out << it.title.strip\n  end\n  out.sort!\n  out\nend\n",
    "ex": "def titles(items) do\n  items\n  |> Enum.map(& &1.title)\n  |> Enum.map(&String.trim/1)\n  |> Enum.sort()\n  |> Enum.uniq()\nend\n",
}
_FILLER.update({"java": "public List<String> titles(List<Item> items) {\n    List<String> out = new ArrayList<>();\n    for (Item it : items) {\n"
                        "        out.add(it.title().trim());\n    }\n    Collections.sort(out);\n    return out;\n}\n"})
_FILLER.update({"cs": "public List<string> Titles(IEnumerable<Item> items)\n{\n    var output = new List<string>();\n    foreach (var it in items)\n    {\n"
                      "        output.Add(it.Title.Trim());\n    }\n    output.Sort();\n    return output;\n}\n",
                "php": "function titles(array $items): array\n{\n    $out = [];\n    foreach ($items as $it) {\n        $out[] = trim($it->title);\n    }\n"
                       "    sort($out);\n    return $out;\n}\n",
                "rs": "pub fn titles(items: &[Item]) -> Vec<String> {\n    let mut out = Vec::new();\n    for it in items {\n        out.push(it.title.trim().to_string());\n"
                      "    }\n    out.sort();\n    out\n}\n",
                "kt": "fun titles(items: List<Item>): List<String> {\n    val out = mutableListOf<String>()\n    for (it in items) {\n        out.add(it.title.trim())\n"
                      "    }\n    out.sort()\n    return out\n}\n",
                "swift": "func titles(_ items: [Item]) -> [String] {\n    var out: [String] = []\n    for it in items {\n        out.append(it.title)\n    }\n"
                         "    out.sort()\n    return out\n}\n"})

# A 40-line refactor hunk: a long helper the commit rewrites (a loop made a comprehension, names changed), apart.
def _refactor(lang: str) -> tuple[str, str]:
    c = "#" if lang in ("py", "rb", "ex") else "//"
    before = "".join(f"{c} report column {i}: width {10 + i}, aligned left, padded with spaces\n" for i in range(20))
    after = "".join(f"{c} report column {i}: width {12 + i}, aligned right, padded with dots\n" for i in range(22))
    return before, after


def _indent(block: str, pad: str) -> str:
    return "".join((pad + line if line.strip() else line) for line in block.splitlines(keepends=True))


def _plant_at(before: list[str], after: list[str], line: str) -> tuple[int, int]:
    """Where the plant's edit begins in the old and the new file."""
    want = line.strip()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag != "equal" and (any(after[j].strip() == want for j in range(j1, j2)) or any(before[i].strip() == want for i in range(i1, i2))):
            return i1, j1
    raise ValueError(f"plant not found: {line}")


def _apart(text: str, lang: str, block: str) -> str:
    lines = text.splitlines(keepends=True)
    filler = _FILLER[lang]
    pad = _IN_CLASS.get(lang, "")
    if pad:  # before the class's closing line
        last = max(i for i, ln in enumerate(lines) if ln.strip())
        return "".join(lines[:last]) + "\n" + _indent(filler, pad) + "\n" + _indent(block, pad) + "".join(lines[last:])
    return text.rstrip("\n") + "\n\n\n" + filler + "\n\n" + block


def crowd(case: dict, where: str, work: str) -> dict:
    lang = _LANG[Path(case["path"]).suffix]
    before, after = case["before"], case["after"]
    if where == "apart":
        old, new = (_APART[lang] if work == "signature" else _refactor(lang))
        before, after = _apart(before, lang, old), _apart(after, lang, new)
    else:
        b, a = before.splitlines(keepends=True), after.splitlines(keepends=True)
        i, j = _plant_at(b, a, case["line"])
        ref = (a[j] if j < len(a) else b[i])
        pad = ref[:len(ref) - len(ref.lstrip())]
        old, new = _INSIDE[lang]
        before = "".join(b[:i]) + _indent(old, pad) + "".join(b[i:])
        after = "".join(a[:j]) + _indent(new, pad) + "".join(a[j:])
    out = {k: v for k, v in case.items() if k != "caught"}
    out.update(before=before, after=after, tag=f"{where}-{work}" + (f"-{case['tag']}" if case.get("tag") else ""),
               place=case["place"])
    return out


def _manifest(case: dict, where: str) -> dict:
    """package.json: the commit bumps its version and two other dependencies (inside: on the lines beside the plant)."""
    data_b, data_a = case["before"], case["after"]
    out = {k: v for k, v in case.items() if k != "caught"}
    extra_b = '    "debug": "^4.3.4",\n    "zod": "^3.22.0",\n'
    extra_a = '    "debug": "^4.3.5",\n    "zod": "^3.23.8",\n'
    if where == "apart":
        extra_b = '    "zod": "^3.22.0",\n' + "".join(f'    "pkg-{n}": "^1.{n}.0",\n' for n in range(8)) + '    "debug": "^4.3.4",\n'
        extra_a = '    "zod": "^3.23.8",\n' + "".join(f'    "pkg-{n}": "^1.{n}.0",\n' for n in range(8)) + '    "debug": "^4.3.5",\n'
    marker = '"dependencies": {\n'
    out.update(before=data_b.replace(marker, marker + extra_b), after=data_a.replace(marker, marker + extra_a), tag=f"{where}-bumps")
    return out


def _ci(case: dict, where: str) -> dict:
    """A workflow: the commit edits a step's command (inside: the step beside the plant; apart: a job of its own)."""
    out = {k: v for k, v in case.items() if k != "caught"}
    b, a = case["before"].splitlines(keepends=True), case["after"].splitlines(keepends=True)
    if where == "inside":
        i, j = _plant_at(b, a, case["line"])
        ref = a[j] if j < len(a) else b[i]
        pad = ref[:len(ref) - len(ref.lstrip())]
        pad = pad[:-2] if ref.lstrip().startswith(("run:", "- run")) is False and len(pad) >= 2 else pad
        step_b = f"{pad}- name: Unit tests\n{pad}  run: npm test\n" if not ref.lstrip().startswith("- ") else f"{pad}- name: Unit tests\n{pad}  run: npm test\n"
        step_a = step_b.replace("npm test", "npm test -- --ci --coverage")
        before, after = "".join(b[:i]) + step_b + "".join(b[i:]), "".join(a[:j]) + step_a + "".join(a[j:])
    else:
        job = ("  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n"
               "        with:\n          node-version: {v}\n      - run: npm ci\n      - run: npm run lint{x}\n")
        before = case["before"].rstrip("\n") + "\n" + job.format(v=18, x="")
        after = case["after"].rstrip("\n") + "\n" + job.format(v=20, x=" -- --max-warnings 0")
    out.update(before=before, after=after, tag=f"{where}-step")
    return out


_GO_OTP = """package twofactor

func (t *TwoFactor) Authenticate(otp Verifier, pin string) (*User, error) {
	ok, err := otp.Verify(pin)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrInvalidOTP
	}
	return t.user, nil
}
"""
_PY_VERDICT = """def load_claims(signer, token):
    valid, err = signer.verify(token)
    if err is not None:
        raise Unauthorized(err)
    if not valid:
        raise Unauthorized("bad signature")
    return signer.claims(token)
"""
_CS_CATCH = """namespace App.Configuration
{
    public class ConfigurationValidator
    {
        public void AssertConfigurationIsValid(IEnumerable<TypeMap> maps)
        {
            var configExceptions = new List<Exception>();
            foreach (var map in maps)
            {
                try
                {
                    DryRun(map);
                }
                catch (Exception e)
                {
                    configExceptions.Add(e);
                }
            }
            if (configExceptions.Count > 0)
            {
                throw new AggregateException(configExceptions);
            }
        }
    }
}
"""
_JS_CATCH = """function validateAll(rules, input) {
  const errors = [];
  for (const rule of rules) {
    try {
      rule.check(input);
    } catch (err) {
      errors.push(err);
    }
  }
  return errors;
}
"""
_RB_RESCUE = """class Importer
  def validate(rows)
    failures = []
    rows.each do |row|
      check_row!(row)
    rescue ValidationError => e
      failures << e
    end
    failures
  end
end
"""
_EX_SSL = """defmodule Shop.Transport.SSL do
  def upgrade(socket, hostname, opts) do
    opts = Keyword.put(ssl_opts(hostname, opts), :cb_info, @tunnel_cb_info)
    :ssl.connect(socket, opts)
  end
end
"""
_PY_TLS = """def connect(raw, host, opts):
    opts = dict(opts, server_hostname=host)
    sock = wrap(raw, tls_options(opts))
    return Connection(sock)
"""
_GO_WRITE = """package out

func save(w io.Writer, buf []byte) error {
	n, err := w.Write(buf)
	if err != nil {
		return err
	}
	log.Printf("wrote %d bytes", n)
	return nil
}
"""

# (kind, eco, path, before, after, line, words, quiet): the round's own classes, each crowded as the picked plants are.
LOST = [
    ("verdict-blanked", "go", "auth/twofactor/twofactor.go", _GO_OTP,
     _GO_OTP.replace("\tok, err := otp.Verify(pin)\n\tif err != nil {", "\tif _, err := otp.Verify(pin); err != nil {").replace(
         "\tif !ok {\n\t\treturn nil, ErrInvalidOTP\n\t}\n", ""), "if _, err := otp.Verify(pin); err != nil {", ["verdict", "discard"], False),
    ("verdict-blanked", "py", "app/claims.py", _PY_VERDICT,
     _PY_VERDICT.replace("valid, err = signer", "_, err = signer").replace('    if not valid:\n        raise Unauthorized("bad signature")\n', ""),
     "_, err = signer.verify(token)", ["verdict", "discard"], False),
    ("catch-emptied", "cs", "src/App/Configuration/ConfigurationValidator.cs", _CS_CATCH,
     _CS_CATCH.replace("catch (Exception e)", "catch (Exception)").replace("                    configExceptions.Add(e);\n", ""),
     "catch (Exception)", ["swallow"], False),
    ("catch-emptied", "js", "src/validate.js", _JS_CATCH,
     _JS_CATCH.replace("} catch (err) {", "} catch {").replace("      errors.push(err);\n", ""), "} catch {", ["swallow"], False),
    ("catch-emptied", "rb", "lib/importer.rb", _RB_RESCUE,
     _RB_RESCUE.replace("rescue ValidationError => e", "rescue ValidationError").replace("      failures << e\n", ""),
     "rescue ValidationError", ["swallow"], False),
    ("defaults-bypassed", "ex", "lib/shop/transport/ssl.ex", _EX_SSL, _EX_SSL.replace("ssl_opts(hostname, opts)", "opts"),
     "opts = Keyword.put(opts, :cb_info, @tunnel_cb_info)", ["ssl_opts", "bypass"], False),
    ("defaults-bypassed", "py", "app/transport.py", _PY_TLS, _PY_TLS.replace("tls_options(opts)", "opts"),
     "sock = wrap(raw, opts)", ["tls_options", "bypass"], False),
    ("verdict-blanked", "go", "out/save.go", _GO_WRITE, _GO_WRITE.replace("n, err := w.Write(buf)", "_, err := w.Write(buf)").replace(
        '\tlog.Printf("wrote %d bytes", n)\n', ""), "_, err := w.Write(buf)", ["verdict", "discard"], True),
    ("catch-emptied", "cs", "src/App/Configuration/Loader.cs", _CS_CATCH,
     _CS_CATCH.replace("catch (Exception e)", "catch (Exception)").replace("configExceptions.Add(e);", "throw;"), "throw;", ["swallow"], True),
    ("defaults-bypassed", "ex", "lib/shop/transport/tcp.ex", _EX_SSL, _EX_SSL.replace("ssl_opts(hostname, opts)", "ssl_opts(host, opts)"),
     "opts = Keyword.put(ssl_opts(host, opts), :cb_info, @tunnel_cb_info)", ["bypass"], True),
]


def _lost_cases() -> list[dict]:
    out = []
    for kind, eco, path, before, after, line, words, quiet in LOST:
        case = {"kind": kind, "eco": eco, "place": "code", "path": path, "before": before, "after": after, "line": line, "words": words}
        if quiet:
            case["quiet"] = True
        # A look-alike stands alone: beside the commit's own crypto work its file is high for that work's words.
        out += [dict(case, tag="alone")] + ([] if quiet else [crowd(case, "apart", "signature"), crowd(case, "inside", "check")])
    return out


def build() -> list[dict]:
    parts = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in MATRIX.glob("*.json") if p.stem != "crowded"}
    cases = []
    for part, kind, eco, place, path in PICKED:
        case = next(c for c in parts[part] if (c["kind"], c["eco"], c["place"], c["path"]) == (kind, eco, place, path)
                    and not c.get("quiet"))
        if place == "manifest":
            cases += [_manifest(case, "apart"), _manifest(case, "inside")]
        elif place.startswith("ci"):
            cases += [_ci(case, "apart"), _ci(case, "inside")]
        else:
            cases += [crowd(case, "apart", "signature"), crowd(case, "inside", "check")]
            if len(cases) % 5 == 0:
                cases.append(crowd(case, "apart", "refactor"))
    return cases + _lost_cases()


def main() -> int:
    cases = build()
    (MATRIX / "crowded.json").write_text(json.dumps(cases, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(cases)} cases written to {MATRIX / 'crowded.json'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
