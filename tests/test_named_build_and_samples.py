"""Issue 36, round 22 (part B): a build file's plugin, checksum and range lines and a docs sample's key size and token
payload, named by their line.

Held-out 27/28's first runs left five plants with a reason that named the file's kind and not the line: Composer's
``allow-plugins`` given ``"*": true`` and a pom's repository with ``<checksumPolicy>ignore</checksumPolicy>`` and a
dependency's ``<version>1.9.2</version>`` made ``[1.2,)`` ("build configuration"), a README's ``ssh-keygen -t rsa -b
4096`` made ``-b 1024`` and a README's ``jwt_payload`` sample merging ``'encrypted_password' => encrypted_password``
("docs edited", low). Each class is tried in several ecosystems; the look-alikes stay quiet.
"""

from __future__ import annotations

import pytest

from relay.review.docs_samples import hash_in_payload, is_sample
from relay.review.manifest_lines import manifest_line
from relay.review.subtle_turns import key_size_lowered

__all__: list[str] = []  # a test module exports nothing

# (path, removed, added, words the reason holds)
_BUILD_PLANTS = [
    ("composer.json", ['            "phpstan/extension-installer": true'],
     ['            "phpstan/extension-installer": true,', '            "*": true'], ["plugins", '"*": true']),
    ("packages/api/composer.json", ['        "allow-plugins": {', '            "php-http/discovery": true', "        },"],
     ['        "allow-plugins": true,'], ["plugins", '"allow-plugins": true']),
    ("pom.xml", [], ["  <repositories><repository><id>central</id><url>https://repo1.maven.org/maven2</url><releases>"
                     "<checksumPolicy>ignore</checksumPolicy></releases></repository></repositories>"], ["checksum", "<checksumPolicy>ignore"]),
    ("parent/pom.xml", ["        <checksumPolicy>fail</checksumPolicy>"], ["        <checksumPolicy>warn</checksumPolicy>"], ["checksum", "warn"]),
    ("gradle.properties", [], ["org.gradle.dependency.verification=off"], ["checksum", "verification=off"]),
    ("pom.xml", ["      <version>1.9.2</version>"], ["      <version>[1.2,)</version>"], ["open range", "[1.2,)"]),
    ("src/App/App.csproj", ['    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />'],
     ['    <PackageReference Include="Newtonsoft.Json" Version="[13.0.1,)" />'], ["open range", "[13.0.1,)"]),
    ("app/build.gradle", ["    implementation 'com.squareup.okhttp3:okhttp:4.12.0'"], ["    implementation 'com.squareup.okhttp3:okhttp:4.+'"],
     ["open range", "4.+"]),
    ("build.gradle.kts", ['    implementation("io.jsonwebtoken:jjwt-api:0.12.6")'], ['    implementation("io.jsonwebtoken:jjwt-api:(0.12,)")'],
     ["open range", "(0.12,)"]),
    ("package.json", ['    "jsonwebtoken": "^9.0.2",'], ['    "jsonwebtoken": ">=9.0.2",'], ["open range", ">=9.0.2"]),
    ("composer.json", ['        "firebase/php-jwt": "6.10.0",'], ['        "firebase/php-jwt": ">=6.10",'], ["open range", ">=6.10"]),
]
_BUILD_QUIET = [
    ("composer.json", [], ['            "*": false']),  # every other plugin refused
    ("composer.json", [], ['            "phpstan/extension-installer": true']),  # one plugin allowed by name
    ("pom.xml", [], ["        <checksumPolicy>fail</checksumPolicy>"]),
    ("pom.xml", ["<!-- <checksumPolicy>warn</checksumPolicy> -->"], ["<!-- <checksumPolicy>ignore</checksumPolicy> -->"]),
    ("gradle.properties", [], ["org.gradle.dependency.verification=strict"]),
    ("pom.xml", ["      <version>1.9.2</version>"], ["      <version>[1.9,2.0)</version>"]),  # a bounded range
    ("pom.xml", ["      <version>1.9.2</version>"], ["      <version>1.10.0</version>"]),  # a bump
    ("pom.xml", ["    <maven-resources-plugin.version>3.3.0</maven-resources-plugin.version>"],
     ["    <maven-resources-plugin.version>3.3.1</maven-resources-plugin.version>"]),
    ("package.json", ['    "node": "18.x"'], ['    "node": ">=18"']),  # the runtime an engine field accepts
    ("composer.json", ['        "php": "^8.1",'], ['        "php": ">=8.1",']),
    ("package.json", [], ['    "left-pad": ">=1.3.0",']),  # a new dependency: nothing was pinned
    ("package.json", ['    "jsonwebtoken": "^9.0.2",'], ['    "jsonwebtoken": ">=9.0.2 <10",']),  # bounded above
]


@pytest.mark.parametrize(("path", "removed", "added", "words"), _BUILD_PLANTS, ids=[f"{p[0]}-{i}" for i, p in enumerate(_BUILD_PLANTS)])
def test_a_build_files_plugin_checksum_or_range_line_is_named(path: str, removed: list[str], added: list[str], words: list[str]) -> None:
    found = manifest_line(path, added, removed)
    assert found and all(word in found for word in words), found


@pytest.mark.parametrize(("path", "removed", "added"), _BUILD_QUIET, ids=[f"{p[0]}-{i}" for i, p in enumerate(_BUILD_QUIET)])
def test_build_file_look_alikes_stay_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert manifest_line(path, added, removed) is None


# A docs page's key-generation sample (a command or a call), its size lowered: (removed, added, bits).
_KEY_PLANTS = [
    (["$ ssh-keygen -t rsa -b 4096 -m PEM -f privateKey.key"], ["$ ssh-keygen -t rsa -b 1024 -m PEM -f privateKey.key"], "1024"),
    (["openssl genrsa -out private.pem 2048"], ["openssl genrsa -out private.pem 1024"], "1024"),
    (["openssl req -x509 -newkey rsa:4096 -keyout key.pem -out cert.pem -days 365"],
     ["openssl req -x509 -newkey rsa:512 -keyout key.pem -out cert.pem -days 365"], "512"),
    (["key = rsa.generate_private_key(public_exponent=65537, key_size=3072)"],
     ["key = rsa.generate_private_key(public_exponent=65537, key_size=1024)"], "1024"),
    (["keytool -genkeypair -alias jwt -keyalg RSA -keysize 2048 -keystore jwt.jks"],
     ["keytool -genkeypair -alias jwt -keyalg RSA -keysize 1024 -keystore jwt.jks"], "1024"),
]
_KEY_QUIET = [
    (["$ ssh-keygen -t rsa -b 2048"], ["$ ssh-keygen -t rsa -b 4096"]),  # raised
    (["$ ssh-keygen -t rsa -b 4096"], ["$ ssh-keygen -t ed25519"]),  # another kind of key
    ([], ["openssl genrsa -out private.pem 2048"]),
    (["openssl rand -hex 4096"], ["openssl rand -hex 1024"]),  # random bytes, not a key
]


@pytest.mark.parametrize(("removed", "added", "bits"), _KEY_PLANTS, ids=[p[1][0].split()[0] + str(i) for i, p in enumerate(_KEY_PLANTS)])
def test_a_docs_samples_key_size_lowered_is_named(removed: list[str], added: list[str], bits: str) -> None:
    assert all(is_sample(line) for line in added)  # kept among a docs page's lines, read as a sample
    found = key_size_lowered("README.md", added, removed)
    assert found and f"{bits} bits" in found, found


@pytest.mark.parametrize(("removed", "added"), _KEY_QUIET, ids=[str(i) for i in range(len(_KEY_QUIET))])
def test_key_size_look_alikes_stay_quiet(removed: list[str], added: list[str]) -> None:
    assert key_size_lowered("docs/keys.md", added, removed) is None


# A sample that puts a password hash into a token's payload or a response: (removed, added, the entry quoted).
_HASH_PLANTS = [
    (["def jwt_payload", "  { 'foo' => 'bar' }"], ["def jwt_payload", "  super.merge({ 'foo' => 'bar', 'encrypted_password' => encrypted_password })"],
     "encrypted_password"),
    (["const token = jwt.sign({ sub: user.id }, secret);"], ["const token = jwt.sign({ sub: user.id, passwordHash: user.passwordHash }, secret);"],
     "passwordHash"),
    (['token = jwt.encode({"sub": user.id}, key, algorithm="HS256")'],
     ['token = jwt.encode({"sub": user.id, "password_hash": user.password_hash}, key, algorithm="HS256")'], "password_hash"),
    (["$jwt = JWT::encode(['sub' => $user->id], $key, 'HS256');"],
     ["$jwt = JWT::encode(['sub' => $user->id, 'password_digest' => $user->password_digest], $key, 'HS256');"], "password_digest"),
    (["    render json: { id: user.id, email: user.email }"], ["    render json: { id: user.id, email: user.email, password_digest: user.password_digest }"],
     "password_digest"),
]
_HASH_QUIET = [
    (["User.create(email: email)"], ["User.create(email: email, password_hash: BCrypt::Password.create(password))"]),  # stored
    (["const token = jwt.sign({ sub: user.id }, secret);"], ["const user = await User.findOne({ email }, { passwordHash: false });"]),
    (["resp = client.post('/login', json={'email': e})"], ["resp = client.post('/login', json={'email': e, 'password': p})"]),
    (["user.password_digest = digest"], ["user.password_digest = BCrypt::Password.create(password)"]),
]


@pytest.mark.parametrize(("removed", "added", "entry"), _HASH_PLANTS, ids=[p[2] + str(i) for i, p in enumerate(_HASH_PLANTS)])
def test_a_password_hash_put_in_a_token_is_named(removed: list[str], added: list[str], entry: str) -> None:
    found = hash_in_payload(added, removed)
    assert found and "password hash" in found and entry in found, found


@pytest.mark.parametrize(("removed", "added"), _HASH_QUIET, ids=[str(i) for i in range(len(_HASH_QUIET))])
def test_password_hash_look_alikes_stay_quiet(removed: list[str], added: list[str]) -> None:
    assert hash_in_payload(added, removed) is None


# Code: a file written world-writable through a mode call the reader did not know (Rust's from_mode), and an exact match
# made a prefix match by cutting the value to the other's length (startsWith/HasPrefix: relay.review.looser_checks'); each named by its line (held-out 27/28: sd's 0o666, go-jose's audience `a[:len(v)] == v`).
_CODE_PLANTS = [
    ("src/lib.rs", ["        temp.as_file().set_permissions(metadata.permissions()).ok();"],
     ["        temp.as_file().set_permissions(fs::Permissions::from_mode(0o666)).ok();"], "world-writable"),
    ("src/store.rs", ["    let perms = fs::Permissions::from_mode(0o600);"], ["    let perms = fs::Permissions::from_mode(0o777);"], "world-writable"),
    ("jwt/claims.go", ["\t\tif a == v {"], ["\t\tif len(a) >= len(v) && a[:len(v)] == v {"], "prefix"),
    ("src/verify.ts", ["    if (aud === expected) {"], ["    if (aud.slice(0, expected.length) === expected) {"], "prefix"),
    ("app/tokens.py", ["        if audience == self.audience:"], ["        if audience[:len(self.audience)] == self.audience:"], "prefix"),
    ("src/Origin.php", ["if ($origin === $expected) {"], ["if (substr($origin, 0, strlen($expected)) === $expected) {"], "prefix"),
    ("src/Hosts.cs", ["        if (host == allowed) {"], ["        if (host.Substring(0, allowed.Length) == allowed) {"], "prefix"),
    ("src/aud.rs", ["    if a == v {"], ["    if a.len() >= v.len() && a[..v.len()] == v {"], "prefix"),
]
_CODE_QUIET = [
    ("src/store.rs", ["    let perms = fs::Permissions::from_mode(0o600);"], ["    let perms = fs::Permissions::from_mode(0o644);"]),
    ("src/store.rs", [], ["    let file_mode = meta.mode() & 0o7777;"]),
    ("cmd/route.go", ["  if key == \"foo\" {"], ["  if strings.HasPrefix(key, \"foo\") {"]),  # a literal's family, not a value matched
    ("cmd/route.go", ["  if name == other {"], ["  if strings.HasPrefix(path, prefix) {"]),  # other operands
    ("jwt/claims.go", ["  if a == v {"], ["  if a == v || a[:len(v)] == v {"]),  # the exact match kept
    ("src/parse.go", ["  if tok == want {"], ["  if line[:len(prefix)] == prefix {"]),  # other operands
]


def _code_reason(path: str, added: list[str], removed: list[str]) -> str | None:
    from relay.review import risky_lines
    from relay.review.subtle_turns import subtle_turned
    turned = subtle_turned(path, added, removed)
    return risky_lines.unsafe_value(added, removed) or (turned[0] if turned else None)


@pytest.mark.parametrize(("path", "removed", "added", "word"), _CODE_PLANTS, ids=[p[0] for p in _CODE_PLANTS])
def test_a_code_lines_mode_or_partial_match_is_named(path: str, removed: list[str], added: list[str], word: str) -> None:
    found = _code_reason(path, added, removed)
    assert found and word in found, found


@pytest.mark.parametrize(("path", "removed", "added"), _CODE_QUIET, ids=[f"{p[0]}-{i}" for i, p in enumerate(_CODE_QUIET)])
def test_code_look_alikes_stay_quiet(path: str, removed: list[str], added: list[str]) -> None:
    found = _code_reason(path, added, removed)
    assert found is None or ("world-writable" not in found and "prefix" not in found), found


# An error returned, now skipped: go-jose's x5c certificate that fails to parse `continue`d (the key used without it).
_SWALLOWED = [
    (["\t\tif err != nil {", "\t\t\treturn err"], ["\t\tif err != nil {", "\t\t\tcontinue"]),
    (["    if err != nil {", "        return nil, err"], ["    if err != nil {", "        break"]),
]
_NOT_SWALLOWED = [
    (["\t\t\treturn err"], ["\t\t\treturn fmt.Errorf(\"parse x5c: %w\", err)"]),  # wrapped, still returned
    (["\t\t\treturn err"], ["\t\t\treturn errors.Join(err, errX5C)"]),
]


@pytest.mark.parametrize(("removed", "added"), _SWALLOWED, ids=["continue", "break"])
def test_an_error_return_made_a_skip_is_named(removed: list[str], added: list[str]) -> None:
    found = _code_reason("jwk.go", added, removed)
    assert found and "fails open" in found, found


@pytest.mark.parametrize(("removed", "added"), _NOT_SWALLOWED, ids=["wrapped", "joined"])
def test_an_error_still_returned_stays_quiet(removed: list[str], added: list[str]) -> None:
    found = _code_reason("jwk.go", added, removed)
    assert found is None or "fails open" not in found, found
