"""Issue 36, round 23: a random value made constant (relay.review.constant_random), read as the whole review reads a file:
high, its reason leading with the pair, in every ecosystem; look-alikes stay quiet."""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

_LEAD = "makes a random value constant"


@pytest.mark.parametrize(
    ("path", "removed", "added"),
    [
        ("lib/vault/box.rb", ["      SecureRandom.random_bytes(box.nonce_bytes)"], ['      "\\0" * box.nonce_bytes']),
        ("src/high_level/aead.rs", ["    let nonce = Nonce::generate();"], ["    let nonce = Nonce::from_slice(&[0u8; XCHACHA_NONCESIZE])?;"]),
        ("app/crypto.py", ["    iv = os.urandom(16)"], ['    iv = b"\\x00" * 16']),
        ("app/tokens.py", ["    salt = secrets.token_bytes(SALT_SIZE)"], ["    salt = bytes(SALT_SIZE)"]),
        ("src/seal.ts", ["  const iv = crypto.randomBytes(12);"], ["  const iv = Buffer.alloc(12);"]),
        ("src/Sealer.cs", ["        var salt = RandomNumberGenerator.GetBytes(16);"], ["        var salt = new byte[16];"]),
        ("lib/app/cipher.ex", ["    nonce = :crypto.strong_rand_bytes(12)"], ["    nonce = <<0::96>>"]),
        ("src/Crypto/Box.php", ["        $iv = random_bytes(16);"], ['        $iv = str_repeat("\\0", 16);']),
        ("app/src/main/kotlin/Sealer.kt", ["        val iv = SecureRandom().generateSeed(12)"], ["        val iv = ByteArray(12)"]),
        ("Sources/Vault/Sealer.swift", ["        let status = SecRandomCopyBytes(kSecRandomDefault, 12, &nonce)"],
         ["        let nonce = [UInt8](repeating: 0, count: 12)"]),
        ("internal/seal/seal.go", ["\tif _, err := io.ReadFull(rand.Reader, nonce); err != nil {"], ['\tnonce = []byte("0123456789ab")']),
        ("src/main/java/com/acme/Tokens.java", ["        String state = new BigInteger(130, new SecureRandom()).toString(32);"],
         ['        String state = "a1b2c3d4e5f6";']),
    ],
)
def test_a_random_value_made_constant_is_high_and_leads_the_reason(path: str, removed: list[str], added: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert out.risk == "high" and out.reasons[0].startswith(_LEAD), out


@pytest.mark.parametrize(
    ("path", "removed", "added"),
    [
        ("app/crypto.py", ["    iv = os.urandom(16)"], ["    iv = os.urandom(16)  # fresh per message"]),  # the source stands
        ("src/seal.ts", ["  const iv = crypto.randomBytes(12);"], ["  const iv = Buffer.alloc(12);", "  crypto.randomFillSync(iv);"]),
        ("app/crypto.py", ["    iv = os.urandom(16)"], ["    iv = self._fresh_iv()"]),  # a helper that may still draw it
        ("app/codec.py", ["    nonce = os.urandom(16)"], ["    data = bytes(payload)"]),  # a conversion, not a zero fill
        ("lib/app/cache.ex", ["    id = :crypto.strong_rand_bytes(8)"], ["    id = :crypto.strong_rand_bytes(16)"]),  # a size changed
        ("src/Sealer.cs", ["        var buffer = new byte[16];"], ["        var buffer = new byte[32];"]),  # no source on either side
    ],
)
def test_look_alikes_of_a_constant_random_value_stay_quiet(path: str, removed: list[str], added: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(r.startswith(_LEAD) for r in out.reasons), out
