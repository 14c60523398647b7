"""The line a worker turned inside a file of many changed lines (relay.review.turned_lines, issue 36 round 29): each reader on
synthetic cases in several languages (none of them a planted set's line), quiet look-alikes (the same turn made the safe
way, a rename, a test file, a comment), and the reason choice: the turned line leads the file's reasons, ahead of word,
path and size reasons, and the file is never low."""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.facts import RiskContext
from relay.review.risk import assess
from relay.review.turned_checks import turned_check
from relay.review.turned_lines import turned_line


def _fc(path: str, removed: list[str], added: list[str]) -> FileChange:
    return FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


_FILLER = [f"    total_{i} = combine(total_{i - 1}, {i})" for i in range(1, 60)]  # an ordinary change around the turn

# (path, removed, added, what the high reader's reason must hold)
HIGH = [
    # a key size or a hash's work cut, in place
    ("pkg/certs/issue.go", ["\tkey, err := rsa.GenerateKey(rand.Reader, 3072)"], ["\tkey, err := rsa.GenerateKey(rand.Reader, 768)"], "3072 → 768"),
    ("app/keys.py", ["    k = rsa.generate_private_key(public_exponent=65537, key_size=4096)"],
     ["    k = rsa.generate_private_key(public_exponent=65537, key_size=2048 // 4)"], ""),  # not a plain number: left to others
    ("lib/hash.rb", ["  BCrypt::Password.create(pw, cost: 12)"], ["  BCrypt::Password.create(pw, cost: 5)"], "12 → 5"),
    # a weak key on a line of a new file
    ("src/Keys.java", [], ["        gen.initialize(2048); KeyPair kp = rsaKeys(RSA_new(512));"], "512 bits"),
    ("lib/tls/setup.rb", [], ["    key = OpenSSL::PKey::RSA.new(1024)"], "1024 bits"),
    ("src/keys.js", [], ["  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })"], "1024 bits"),
    # a strong hash's name mapped to a weak function, in place or on a new table line
    ("lib/digests.ex", ['    "sha384" => &:crypto.hash(:sha384, &1),'], ['    "sha384" => &:crypto.hash(:md5, &1),'], "weaker"),
    ("templates/funcs.go", [], ['\t"sha256hex": md5hex,'], "sha256hex to a weaker hash (md5hex)"),
    ("app/digest.py", [], ["    'sha512': hashlib.sha1,"], "sha512 to a weaker hash (sha1)"),
    # a failure on missing secure randomness replaced by a plain random
    ("src/rand.js", ["    throw new Error('no secure random source available');"], ["    return Math.random() * 0xffffffff;"], "non-crypto random"),
    ("lib/token.py", ["        raise RuntimeError('os.urandom unavailable')"], ["        return random.getrandbits(128)"], "non-crypto random"),
    ("pkg/id/id.go", ['\t\tpanic("crypto random failed: " + err.Error())'], ["\t\treturn uint64(rand.Int63())"], "non-crypto random"),
    # a check that failed unless true now fails only on null
    ("ext/verify.c", ["    if (ok != Qtrue) {"], ["    if (ok == Qnil) {"], "nil, not when it is false"),
    ("src/check.js", ["  if (valid !== true) {"], ["  if (valid === undefined) {"], "nil, not when it is false"),
    ("lib/peer.py", ["    if matched != True:"], ["    if matched == None:"], "nil, not when it is false"),
    # an early exit added to a constant-time loop
    ("src/Digest.kt", [], ["        if (diff != 0) return false"], "first difference"),
    ("lib/compare.rb", [], ["      return false if result != 0"], "first difference"),
    ("src/eq.java", [], ["            if (result != 0) { return false; }"], "first difference"),
    # a quoting call removed around a value the line still prints
    ("db/ddl.py", ["            dialect.quote_identifier(col.name),"], ["            col.name,"], "quote_identifier() removed"),
    ("views/list.php", ["    echo '<td>' . htmlspecialchars($row['title']) . '</td>';"], ["    echo '<td>' . $row['title'] . '</td>';"],
     "htmlspecialchars() removed"),
    ("lib/run.rb", ['    system("tar xf #{Shellwords.escape(archive)}")'], ['    system("tar xf #{archive}")'], "escape() removed"),
    # a redaction dropped where the value is shown (a copy of it, or itself)
    ("lib/client.rb", ["      shown[:headers] = Sanitize.redact(shown[:headers])"], ["      shown[:headers] = shown[:headers].dup"], "redaction"),
    ("src/log.ts", ["  logger.info(`login ${maskSecret(user.password)}`);"], ["  logger.info(`login ${user.password}`);"], "redaction"),
    # a check's failure branch made to report success
    ("scripts/fetch.sh", ['  [ "$(sha256 "$file")" = "$want" ] || return 1'], ['  [ "$(sha256 "$file")" = "$want" ] || return 0'], "failed check succeed"),
    ("tools/verify.pl", ["    verify_sig($file) or return false;"], ["    verify_sig($file) or return true;"], "failed check succeed"),
    ("bin/check", ['    test -s "$sig" || exit 2'], ['    test -s "$sig" || exit 0'], "failed check succeed"),
    # a clause that left a sensitive name out, dropped
    ("Sources/Log.swift", ['        for (name, value) in fields where name != "Authorization" {'], ["        for (name, value) in fields {"], '"Authorization"'),
    ("lib/dump.py", ["    shown = {k: v for k, v in headers.items() if k.lower() != 'cookie'}"], ["    shown = {k: v for k, v in headers.items()}"],
     "'cookie'"),
    ("src/log.js", ["  Object.keys(body).filter((k) => k !== 'password').forEach(print);"], ["  Object.keys(body).forEach(print);"], "'password'"),
    # a limit scaled a thousandfold or more in place
    ("conn/read.go", ["const maxFrame = 65536"], ["const maxFrame = 65536 << 16"], "65,536-fold"),
    ("lib/upload.rb", ["  MAX_BODY = 1024"], ["  MAX_BODY = 1024 * 1024 * 1024"], "1,048,576-fold"),
    ("src/limits.ts", ["export const messageSizeLimit = 4096;"], ["export const messageSizeLimit = 4096 * 10000;"], "10,000-fold"),
    # an argument turned into a shell string's interpolation
    ("Sources/Run.swift", ['    let p = Process("/usr/bin/unzip", arguments: ["-q", archive.path])'],
     ['    let p = Process("/bin/sh", arguments: ["-c", "unzip -q \\(archive.path)"])'], "archive.path"),
    ("tools/build.py", ["    subprocess.run(['git', 'clone', repo_url])"], ["    subprocess.run(f'git clone {repo_url}', shell=True)"], "repo_url"),
    ("scripts/pack.js", ["  execFile('tar', ['czf', outFile, dir])"], ["  exec(`tar czf ${outFile} ${dir}`)"], "outFile"),
]

# (path, removed, added): the same shapes turned the safe way, renames, comments
HIGH_QUIET = [
    ("pkg/certs/issue.go", ["\tkey, err := rsa.GenerateKey(rand.Reader, 1024)"], ["\tkey, err := rsa.GenerateKey(rand.Reader, 4096)"]),
    ("lib/hash.rb", ["  BCrypt::Password.create(pw, cost: 5)"], ["  BCrypt::Password.create(pw, cost: 12)"]),
    ("src/buf.go", [], ["\tbuf := make([]byte, 1024)"]),
    ("src/rsa_buffer.c", [], ["    unsigned char rsa_out[1024]; /* aes block bytes */"]),
    ("lib/digests.ex", ['    "md5" => &:crypto.hash(:md5, &1),'], ['    "md5" => &:crypto.hash(:sha256, &1),']),
    ("templates/funcs.go", [], ['\t"sha1sum": sha1sum,', '\t"sha256sum": sha256sum,']),
    ("src/jitter.js", ["  const delay = base;"], ["  const delay = base + Math.random() * 100;"]),
    ("src/rand.js", ["    throw new Error('missing configuration file');"], ["    return Math.random() * 0xffffffff;"]),
    ("ext/verify.c", ["    if (ok == Qnil) {"], ["    if (ok != Qtrue) {"]),
    ("src/list.kt", [], ["        if (count != 0) return false"]),
    ("src/cmp.kt", [], ["        if (result != 0) return result"]),
    ("db/ddl.py", ["            col.name,"], ["            dialect.quote_identifier(col.name),"]),
    ("db/ddl.py", ["            dialect.quote_identifier(col.name),"], ["            dialect.quote_ident(col.name),"]),
    ("tools/build.py", ["    subprocess.run(['git', 'clone', repo_url])"], ["    subprocess.run(['git', 'clone', '--depth', '1', repo_url])"]),
    ("scripts/fetch.sh", ['  [ "$(sha256 "$file")" = "$want" ] || return 0'], ['  [ "$(sha256 "$file")" = "$want" ] || return 1']),
    ("bin/check", ["    exit 1"], ["    exit 0"]),
    ("Sources/Log.swift", ["        for (name, value) in fields {"], ['        for (name, value) in fields where name != "Authorization" {']),
    ("Sources/Log.swift", ['        for (name, value) in fields where name != "Authorization" {'],
     ['        for (name, value) in fields where name != "Authorization" && !value.isEmpty {']),
    ("conn/read.go", ["const maxFrame = 65536"], ["const maxFrame = 65536 * 2"]),
    ("conn/read.go", ["const readTimeout = 30"], ["const readTimeout = 30 * 1000"]),
    ("src/timed.py", ["            if age > max_size:"], ["            if age > max_size * 1000:"]),
    ("lib/upload.rb", ["  MAX_BODY = 1024 * 1024 * 1024"], ["  MAX_BODY = 1024"]),
    ("lib/client.rb", ["      shown[:headers] = shown[:headers].dup"], ["      shown[:headers] = Sanitize.redact(shown[:headers])"]),
    ("src/img.py", ["    out = apply_mask(img)"], ["    out = apply_mask(img, inverted=True)"]),
    ("tools/build.py", [], ["    # subprocess.run(f'git clone {repo_url}', shell=True) was unsafe"]),
]


@pytest.mark.parametrize(("path", "removed", "added", "said"), HIGH)
def test_high_turns_are_named(path: str, removed: list[str], added: list[str], said: str) -> None:
    found = turned_line(path, [*_FILLER, *added], [*_FILLER[:30], *removed])
    if not said:
        assert found is None
        return
    assert found is not None and said in found, found


@pytest.mark.parametrize(("path", "removed", "added"), HIGH_QUIET)
def test_high_look_alikes_stay_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert turned_line(path, added, removed) is None


CHECK = [
    # a limit counted in characters where it counted bytes, in place or beside the file's own byte count
    ("lib/frame.rb", ["      raise TooLong if name.bytesize > MAX_NAME"], ["      raise TooLong if name.length > MAX_NAME"], "not bytes"),
    ("src/header.js", ["  if (Buffer.byteLength(value) > LIMIT) {"], ["  if (value.length > LIMIT) {"], "not bytes"),
    ("proto/field.py", ["    if len(label.encode('utf-8')) > 63:"], ["    if len(label) > 63:"], "not bytes"),
    ("lib/proto.rb", [], ["    if user.length > 255", "    packet = [user.bytesize, user].pack('CA*')"], "user is measured in bytes"),
    # a failure check given a conjunct, or gated on a value's absence
    ("auth/session.go", ["\tif sess.Expired() {"], ["\tif sess.Expired() && !sess.Remember {"], "fails only when an added conjunct"),
    ("app/tokens.py", ["    if token.is_revoked():"], ["    if token.is_revoked() and settings.STRICT:"], "fails only when an added conjunct"),
    ("lib/store.go", [], ["\tif entry.HasExpired() && entry.Issued.IsZero() {"], "entry.Issued is also zero or absent"),
    ("lib/cache.rb", [], ["      if ticket.expired? && ticket.issued_at.nil?"], "ticket.issued_at is also zero or absent"),
    ("src/Callback.java", ["        if (expected.getNonce() != null && !expected.getNonce().equals(reply.getNonce())) {"],
     ["        if (reply.getNonce() != null && !expected.getNonce().equals(reply.getNonce())) {"], "gates the check on reply.getNonce()"),
    ("src/oauth.ts", [], ["  if (params.state != null && params.state !== saved.state) {"], "skips the mismatch check when params.state is absent"),
    ("lib/csrf.py", [], ["    if form_token is not None and form_token != session_token:"], "form_token is absent"),
    # an identifier printed bare into SQL where the file quotes the others
    ("db/schema.py", [], ["    left = quote_name(src.name)", '    sql = "ALTER TABLE %s ADD COLUMN %s" % (', "        left,",
                          "        col.name,", "    )"], "col.name into SQL unquoted"),
    # an escaping call told to escape fewer characters (relay.review.turn_consequences' reading, made worth a look)
    ("lib/html.ex", ['    ["\\\\<" | escape(rest, :html)]'], ['    ["<" | escape(rest, :html)]'], "escapes fewer characters"),
    # a refusal turned into a skip in a decoder
    ("src/hex.kt", ["      else -> return null"], ["      else -> continue"], ""),  # one line, not the refusal's own: left
    ("lib/decode.go", ["\t\t\treturn nil"], ["\t\t\tcontinue"], "skips what it refused"),
    ("lib/base32.py", ["            return None"], ["            continue"], "skips what it refused"),
]

CHECK_QUIET = [
    ("lib/frame.rb", ["      raise TooLong if name.length > MAX_NAME"], ["      raise TooLong if name.bytesize > MAX_NAME"]),
    ("src/header.js", ["  if (value.length > LIMIT) {"], ["  if (Buffer.byteLength(value) > LIMIT) {"]),
    ("lib/proto.rb", [], ["    if user.length > 255", "    packet = [user.length, user].pack('CA*')"]),
    ("app/sign.py", [], ["    if len(payload) > 4096:", "    digest = hmac.new(key, payload.encode(encoding), 'sha256')"]),
    ("lib/box.ex", ["    with true <- byte_size(tag) == 16 do"], ["    with true <- true do"]),
    ("auth/session.go", ["\tif sess.Expired() && !sess.Remember {"], ["\tif sess.Expired() {"]),
    ("auth/session.go", ["\tif sess.Valid() {"], ["\tif sess.Valid() && sess.Fresh() {"]),
    ("auth/session.go", [], ["\tif err != nil && resp == nil {"]),
    ("src/Callback.java", ["        if (expected.getNonce() != null && !expected.getNonce().equals(reply.getNonce())) {"],
     ["        if (wanted.getNonce() != null && !wanted.getNonce().equals(reply.getNonce())) {"]),
    ("db/schema.py", [], ['    sql = "ALTER TABLE %s ADD COLUMN %s" % (', "        quote_name(src.name),", "        quote_name(col.name),", "    )"]),
    ("lib/render.go", ["\t\t\treturn nil"], ["\t\t\tcontinue"]),
]


@pytest.mark.parametrize(("path", "removed", "added", "said"), CHECK)
def test_check_turns_are_named(path: str, removed: list[str], added: list[str], said: str) -> None:
    found = turned_check(path, added, removed)
    if not said:
        assert found is None or "skips" in found
        return
    assert found is not None and said in found, found


@pytest.mark.parametrize(("path", "removed", "added"), CHECK_QUIET)
def test_check_look_alikes_stay_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert turned_check(path, added, removed) is None


def test_turned_line_leads_word_and_size_reasons() -> None:
    # A big new security file: high for its words and size, the weak key inside it quoted first.
    added = [*(f"    password_{i} = derive(secret, salt_{i})" for i in range(320)), "    key = OpenSSL::PKey::RSA.new(1024)"]
    change = assess(FileChange(path="lib/auth/keys.rb", kind="added", additions=len(added), ranges=[(1, len(added))],
                               added_lines=added), RiskContext())
    assert change.risk == "high"
    assert change.reasons[0].startswith("generates a weak key (1024 bits)"), change.reasons


def test_turned_check_makes_a_file_worth_a_look_and_leads() -> None:
    change = assess(_fc("lib/decode.go", ["\t\t\treturn nil"], ["\t\t\tcontinue"]), RiskContext())
    assert change.risk == "medium" and change.reasons[0].startswith("skips what it refused"), change.reasons


def test_tests_are_left_to_their_own_rows() -> None:
    change = assess(_fc("tests/test_keys.py", [], ["    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)"]), RiskContext())
    assert "turned_line" not in change.rules
