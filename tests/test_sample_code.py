"""Issue 36, round 34 (docs29): the code a docs page, a README or an example carries goes through the classic line
readers, as source does (relay.review.sample_code, relay.review.constant_random): an install command of any ecosystem
naming a look-alike, a salt, IV, nonce or pepper given as a literal, a random key or nonce made a constant. Each class is
tried in several languages or ecosystems and in several kinds of file (a README, an rst page, an example, a script,
source); the look-alikes stay quiet: the same sample turned the safe way, prose naming the words, a placeholder, the
project's real name, a package replaced by its real successor. Every case is written for these tests.
"""

from __future__ import annotations

import pytest

from line_changes import fc, review
from relay.review.constant_random import made_constant
from relay.review.dependencies import installed_lookalike
from relay.review.sample_code import installed_names, literal_salt

__all__: list[str] = []  # a test module exports nothing

# ----- an install command naming a look-alike

_INSTALLS = [  # (path, removed, added, the name it is a look-alike of)
    ("README.md", ["    pip install itsdangerous"], ["    pip install itsdangerus"], "itsdangerous"),  # indented sample, pip
    ("docs/install.rst", ["   $ gem install kramdown"], ["   $ gem install krandown"], "kramdown"),  # a prompt, RubyGems
    ("README.md", ["cargo add tokio --features full"], ["cargo add tokoi --features full"], "tokio"),  # fenced, Cargo
    ("docs/setup.md", ["go get github.com/spf13/cobra@latest"], ["go get github.com/spf13/cobar@latest"], "github.com/spf13/cobra"),  # Go
    ("README.md", ["    composer require guzzlehttp/guzzle"], ["    composer require guzzlehttp/guzle"], "guzzlehttp/guzzle"),  # Composer
    ("docs/usage.md", ["dotnet add package Serilog.Sinks.Console"], ["dotnet add package Serilog.Sinks.Consle"], "Serilog.Sinks.Console"),  # .NET
    ("examples/setup.sh", ["yarn add @tanstack/query-core"], ["yarn add @tanstack/query-cor"], "@tanstack/query-core"),  # an example script, yarn
    ("README.md", [], ["    npm install --save expresss"], "express"),  # new: a widely used package's look-alike
    ("README.md", [], ["$ python -m pip install --upgrade reqeusts"], "requests"),
    ("scripts/bootstrap.sh", ["brew install jq ripgrep"], ["brew install jq ripgrip"], "ripgrep"),  # Homebrew, in a script
]


@pytest.mark.parametrize(("path", "removed", "added", "like"), _INSTALLS, ids=[str(i) for i in range(len(_INSTALLS))])
def test_an_install_of_a_look_alike_is_high_and_named(path: str, removed: list[str], added: list[str], like: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk == "high" and out.reasons[0].startswith(f"installs a look-alike of {like}"), out


_INSTALLS_QUIET = [  # (path, removed, added)
    ("README.md", ["    pip install flask==2.3"], ["    pip install flask==3.0"]),  # a version moved
    ("README.md", ["    npm install gulp-util"], ["    npm install fancy-log"]),  # replaced by its real successor
    ("README.md", ["    pip install pycrypto"], ["    pip install pycryptodome"]),
    ("README.md", ["    npm install babel-preset-env"], ["    npm install @babel/preset-env"]),  # moved under its owner's scope
    ("docs/install.rst", ["   $ pip install PyYAML"], ["   $ pip install pyyaml"]),  # the same name respelled
    ("README.md", ["    pip install boto"], ["    pip install boto3"]),  # a real pair
    ("README.md", [], ["Run npm install expresss to fetch the server, then start it."]),  # prose naming the words
    ("README.md", [], ["npm install expresss gives you the server you need."]),
    ("README.md", [], ["    npm install <package-name>"]),  # a placeholder
    ("README.md", [], ["    pip install -r requirements.txt", "    pip install -e ."]),  # files, not names
    ("README.md", ["    npm install acme-widgets"], ["    npm install acme-widgets@2"]),  # the project's real name, a version added
    ("README.md", [], ["    gem install rails"]),  # a widely used package itself
]


@pytest.mark.parametrize(("path", "removed", "added"), _INSTALLS_QUIET, ids=[str(i) for i in range(len(_INSTALLS_QUIET))])
def test_install_look_alikes_stay_quiet(path: str, removed: list[str], added: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(r.startswith("installs a look-alike") for r in out.reasons), out


def test_an_install_lookalike_of_the_projects_own_name() -> None:
    assert installed_lookalike(["    npm install acme-widgts"], [], own=("acme-widgets",))
    assert installed_lookalike(["    npm install acme-widgets"], [], own=("acme-widgets",)) is None


@pytest.mark.parametrize(("line", "names"), [
    ("$ npm i -D @scope/pkg@^2.1 other", ["@scope/pkg", "other"]),
    ("pip install 'uvicorn[standard]>=0.30' -i https://pypi.org/simple httpx", ["uvicorn", "httpx"]),
    ("RUN apt-get update && pip3 install --no-cache-dir gunicorn==22.0", ["gunicorn"]),
    ("composer require vendor/pkg:^1.2", ["vendor/pkg"]),
    ("dotnet add src/App.csproj package Newtonsoft.Json --version 13.0.3", ["Newtonsoft.Json"]),
    ("go install golang.org/x/tools/gopls@v0.16.0", ["golang.org/x/tools/gopls"]),
    ("Then install it with npm install thing.", []),  # a sentence: the command is not at the line's start
])
def test_the_names_an_install_command_installs(line: str, names: list[str]) -> None:
    assert installed_names(line) == names


# ----- a salt, IV, nonce or pepper given as a literal

_SALTS = [  # (path, line, what)
    ("README.md", '    $digest = password_hash($pw, PASSWORD_DEFAULT, ["cost" => 12, "salt" => "pLq7Rw2xZc9v"]);', "salt"),  # PHP sample
    ("docs/hashing.rst", '   digest = hashlib.scrypt(password, salt=b"k8Jq2wMv", n=2**14, r=8, p=1)', "salt"),  # Python in rst
    ("examples/seal.js", 'const iv = Buffer.from("a1b2c3d4e5f6a7b8");', "IV"),  # an example, JavaScript
    ("src/main/java/com/acme/Sealer.java", '        Cipher.getInstance("AES/CBC/PKCS5Padding").init(ENCRYPT_MODE, key, new IvParameterSpec("q9w8e7r6t5y4u3i2".getBytes()));', "IV"),
    ("docs/crypto.md", '\tnonce := []byte("n0nc3v4lu3xy")', "nonce"),  # Go sample
    ("README.md", '    let hash = argon2.hash_password(pw.as_bytes(), &SaltString::from_b64("c2FsdHNhbHQ").unwrap())?;', None),
    ("lib/auth.rb", '  PEPPER = "x7Gk2pQz9Lw4"', "pepper"),  # Ruby source
]


@pytest.mark.parametrize(("path", "line", "what"), _SALTS, ids=[str(i) for i in range(len(_SALTS))])
def test_a_literal_salt_iv_or_nonce_is_high_and_named(path: str, line: str, what: str | None) -> None:
    out = review(fc(path, [line], []))
    if what is None:  # a constructor this reader does not know by name: read by no other shape either, and said so
        assert not any(r.startswith("hard-codes a salt") for r in out.reasons), out
        return
    assert out.risk == "high" and any(r.startswith(f"hard-codes {'an' if what == 'IV' else 'a'} {what} (") for r in out.reasons), out


_SALTS_QUIET = [  # (path, line)
    ("README.md", '    s = URLSafeTimedSerializer(app.secret_key, salt="email-confirm")'),  # a signer's namespace, public by design
    ("docs/signing.rst", '   value = signing.dumps(data, salt="orders.unsubscribe")'),
    ("README.md", '    $digest = password_hash($pw, PASSWORD_DEFAULT, ["salt" => "your-salt-here"]);'),  # placeholders
    ("README.md", '    iv = "<iv>"'),
    ("examples/seal.js", "const iv = crypto.randomBytes(16);"),  # the safe way
    ("README.md", '    digest = hashlib.scrypt(password, salt=os.urandom(16), n=2**14, r=8, p=1)'),
    ("README.md", 'Never pass a fixed salt like "pLq7Rw2xZc9v" to password_hash: the function makes one for you.'),  # prose
    ("src/seal.py", '    nonce = "${NONCE}"'),  # a template's variable
    ("Sources/Seal.swift.gyb", '    ["recommendedNonceSize": "AES.GCM.defaultNonceByteCount"],'),  # a size, naming a constant
    ("docs/crypto.md", '    const saltLength = "sixteen";'),
]


@pytest.mark.parametrize(("path", "line"), _SALTS_QUIET, ids=[str(i) for i in range(len(_SALTS_QUIET))])
def test_literal_salt_look_alikes_stay_quiet(path: str, line: str) -> None:
    out = review(fc(path, [line], []))
    assert not any(r.startswith(("hard-codes a salt", "hard-codes an IV", "hard-codes a nonce")) for r in out.reasons), out


def test_a_salt_line_already_on_the_page_is_not_new() -> None:
    line = '    digest = hashlib.scrypt(password, salt=b"k8Jq2wMv", n=2**14, r=8, p=1)'
    assert literal_salt([line], [line]) is None


# ----- a random key, nonce or salt made a constant, read in a page's sample as in source

_CONSTANTS = [  # (path, removed, added)
    ("README.md", ["let signing = SigningKey::generate(&mut OsRng);"], ["let signing = SigningKey::from_bytes(&[7u8; 32]);"]),  # Rust sample
    ("docs/guide.md", ["final key = await SecretKey.random(32);"], ["final key = SecretKey([9, 9, 9, 9, 9, 9, 9, 9]);"]),  # Dart
    ("examples/box.py", ["nonce = nacl.utils.random(Box.NONCE_SIZE)"], ["nonce = bytes([1] * Box.NONCE_SIZE)"]),  # Python example
    ("README.md", ["    const salt = crypto.randomBytes(16);"], ["    const salt = Buffer.alloc(16, 0x2a);"]),  # Node sample
    ("src/Seal.java", ["        new SecureRandom().nextBytes(iv);"], ["        iv = new byte[] { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };"]),  # Java source
]


@pytest.mark.parametrize(("path", "removed", "added"), _CONSTANTS, ids=[str(i) for i in range(len(_CONSTANTS))])
def test_a_random_value_made_constant_in_a_sample_is_high(path: str, removed: list[str], added: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert out.risk == "high" and out.reasons[0].startswith("makes a random value constant"), out


@pytest.mark.parametrize(("removed", "added"), [
    (["let signing = SigningKey::generate(&mut OsRng);"], ["let signing = SigningKey::generate(&mut rng);"]),  # still drawn
    (["let secret = EphemeralKey::random();"], ["let secret = EphemeralKey::random_from_rng(OsRng);"]),  # a generator passed
    (["let table = vec![0u8; 256];"], ["let table = [7u8; 256];"]),  # no source on either side
    (["nonce = nacl.utils.random(24)"], ["nonce = nacl.utils.random(Box.NONCE_SIZE)"]),
])
def test_constant_look_alikes_stay_quiet(removed: list[str], added: list[str]) -> None:
    assert made_constant(added, removed) is None


def test_the_projects_own_names_are_read_from_its_root_manifests_only_for_an_install(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from relay.review.sample_code import own_names

    (tmp_path / "package.json").write_text('{\n  "name": "@acme/widgets",\n  "version": "1.0.0"\n}\n', encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "acme-tools"\nversion = "0.1"\n', encoding="utf-8")
    (tmp_path / "acme.gemspec").write_text('Gem::Specification.new do |s|\n  s.name = "acme-rb"\nend\n', encoding="utf-8")
    install = [fc("README.md", ["    npm install @acme/widgetz"])]
    assert own_names(tmp_path, install) == {"@acme/widgets", "acme-tools", "acme-rb"}
    assert own_names(tmp_path, [fc("README.md", ["The widgets render fast."])]) == frozenset()  # no install: nothing read
    assert installed_lookalike(["    npm install @acme/widgetz"], [], own_names(tmp_path, install))


def test_a_manifest_made_a_pipe_or_a_link_by_the_repository_is_not_waited_on_nor_followed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The repository, as an adversary: package.json is a FIFO nobody writes (a read would wait for ever) and Cargo.toml a
    # link to a file outside the project. Neither is read; the review goes on at once.
    import os
    import threading

    from relay.review.sample_code import own_names

    os.mkfifo(tmp_path / "package.json")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.toml"
    outside.write_text('[package]\nname = "secret-name"\n', encoding="utf-8")
    (tmp_path / "Cargo.toml").symlink_to(outside)
    install = [fc("README.md", ["    npm install widgets"])]
    result: list[frozenset[str]] = []
    reader = threading.Thread(target=lambda: result.append(own_names(tmp_path, install)), daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # unblock the thread before failing, so the test run does not hang on it
        with open(tmp_path / "package.json", "w", encoding="utf-8"):
            pass
        pytest.fail("own_names waited on a FIFO")
    assert result == [frozenset()]
