"""A random value made constant: a nonce, IV, salt, key or token that came from a random source now comes from a fixed
value (issue 36, round 23).

``relay.review.edit_direction``'s ``weak_random`` reads a strong source swapped for a weak one; a worker's slip is as
often the source replaced by a constant outright: Ruby's ``SecureRandom.random_bytes(box.nonce_bytes)`` made ``"\\0" *
box.nonce_bytes``, Rust's ``Nonce::generate()`` made ``Nonce::from_slice(&[0u8; N])``, Python's ``os.urandom(16)`` made
``b"\\x00" * 16`` or ``bytes(16)``, JavaScript's ``crypto.randomBytes(12)`` made ``Buffer.alloc(12)``, Go's
``rand.Read(nonce)`` made a literal, C#'s ``RandomNumberGenerator.GetBytes(16)`` made ``new byte[16]``, Elixir's
``:crypto.strong_rand_bytes(12)`` made ``<<0::96>>``, PHP's ``random_bytes(16)`` made ``str_repeat("\\0", 16)``, Swift's
``SecRandomCopyBytes`` made ``Data(count: 12)``, Kotlin's ``SecureRandom().nextBytes(iv)`` dropped for ``ByteArray(12)``.
Every message sealed under one key then reuses one keystream; every salt is the same salt. High (a classic weakening).

Quiet: the source kept in the new side (moved, re-wrapped), a zero buffer allocated and then filled by a random source,
a random value replaced by another call (a helper that may still draw it), a constant beside a source that stays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.small_edits import centred, common_ends

__all__ = ["made_constant"]

# Where random bytes come from in each ecosystem, named so a helper's own name counts too (generate_nonce, Nonce::generate).
_SOURCE_RE = re.compile(
    r"\bsecrets\.\w+|\bos\.urandom\b|\bSystemRandom\b|\bcrypto\.(?:randomBytes|getRandomValues|randomUUID|randomFillSync)\b|"
    r"\brandomBytes\s*\(|\bgetRandomValues\s*\(|\bSecureRandom\b|\bRandomNumberGenerator\b|\bRNGCryptoServiceProvider\b|"
    r"\brandom_bytes\s*\(|\bopenssl_random_pseudo_bytes\b|\bstrong_rand_bytes\b|\bOsRng\b|\bgetrandom\b|\bthread_rng\b|"
    r"\bSecRandomCopyBytes\b|\barc4random\w*|\bRandom\.secure\b|\bRAND_bytes\b|\brand\.(?:Read|Reader)\b|\bio\.ReadFull\(\s*rand\.Reader|"
    r"\b(?:Nonce|Iv|IV|Salt|Key)::generate\b|\b(?:generate|random|gen|new_random)_?(?:nonce|iv|salt|key)\w*\s*\(|"
    r"\bgensalt\b|\bgen_salt\b|\bnextBytes\s*\(|\brandombytes_buf\b|\bsodium_crypto_\w*_keygen\b|\bfill_bytes\b|\btoken_(?:bytes|hex|urlsafe)\b|"
    # Round 34 (docs29): a key, secret, nonce or salt type's own constructor from randomness (Rust's ``Keypair::random()``,
    # ``SigningKey::generate(&mut rng)``, Dart's ``SecretKey.random()``, Python's ``PrivateKey.generate()``), or one fed
    # a random generator (``from_rng(…)``, ``new(&mut OsRng)``).
    r"(?:Secret|Key|Nonce|Salt|Seed|Iv|IV)\w*\s*(?:::|\.)\s*(?:random|generate|new_random|rand|gen|from_rng|random_from_rng)\s*\(|"
    r"\b(?:from_rng|random_from_rng)\s*\(|\butils\.random\s*\(|"
    # Round 65 (blind 92's RustCrypto): a draw named for random bits or fed a generator (``try_random_bits(rng, n)``,
    # ``random_mod(&mut rng, …)``) made ``from_be_slice(&[0x42u8; 32], n)``.
    r"\b(?:try_)?random_(?:bits|bytes|mod|below|range)\w*\s*\(|\(\s*&?\s*(?:mut\s+)?(?:rng|csprng|os_rng)\s*[,)]",
    re.IGNORECASE)
# A buffer's size as code writes it: a number, a constant, a size-named value (``bytes(data)`` converts, it does not zero).
_SIZE = r"(?:\d+|[A-Z][A-Z0-9_]*|[\w.]*(?:size|len|length|bytes|count|Size|Len|Length|Bytes)\w*)"
# A fixed value where random bytes stood: a zero fill or a repeated byte in each ecosystem's spelling, or a literal.
_CONSTANT_RE = re.compile(
    r"""["']\\(?:0|x00|u0000)["']\s*\*|\*\s*["']\\(?:0|x00)["']|b["']\\x00["']\s*\*|(?<![\w.])(?:bytes|bytearray)\(\s*{n}\s*\)|"""
    r"""\[\s*0(?:u8|x00)?\s*;\s*\w+\s*\]|\[\s*0\s*\]\s*\*|"""
    # Round 34: any byte repeated, not only zero ([0x5au8; 32], [7] * 16, b"\x5a" * 32, Buffer.alloc(32, 0x5a), .fill(0x5a)),
    # and a literal list of bytes ({ 1, 2, 3, 4, … }, [0x01, 0x02, …]): a fixed value all the same.
    r"""\[\s*(?:0x[0-9a-fA-F]{1,2}|\d{1,3})(?:_?u8)?\s*;\s*\w+\s*\]|\[\s*(?:0x[0-9a-fA-F]{1,2}|\d{1,3})\s*\]\s*\*\s*\w+|"""
    r"""[bB]?["']\\x[0-9a-fA-F]{2}["']\s*\*|\bBuffer\.alloc\(\s*{n}\s*,\s*(?:0x[0-9a-fA-F]+|\d+|["'][^"']+["'])\s*\)|"""
    r"""\.fill\(\s*(?:0x[0-9a-fA-F]+|\d+)\s*\)|[{\[]\s*(?:0x[0-9a-fA-F]{1,2}|\d{1,3})(?:\s*,\s*(?:\(byte\)\s*)?(?:0x[0-9a-fA-F]{1,2}|\d{1,3})){3,}\s*,?\s*[}\]]|"""
    r"""\bBuffer\.alloc\(\s*{n}\s*(?:,\s*0\s*)?\)|\bnew\s+Uint8Array\(\s*{n}\s*\)|"""
    r"""\bnew\s+byte\s*\[\s*{n}\s*\]|\bByteArray\(\s*{n}\s*\)|\bstr_repeat\(\s*["']\\?[0x]?0?["']|\bString\.duplicate\(\s*<<\s*0|"""
    r""":binary\.copy\(\s*<<\s*0|<<\s*0\s*::\s*(?:size\()?\d|\bData\(\s*(?:repeating:\s*0,\s*)?count:|\[UInt8\]\(repeating:\s*0|"""
    r"""\.fill\(\s*0\s*\)|\bArray\.new\(\s*\w+\s*,\s*0\s*\)|\bfrom_slice\(\s*&\[\s*0|\bbytes\.Repeat\(\s*\[\]byte\{\s*0|"""
    r"""=\s*(?:b|B)?["'][0-9A-Za-z+/=_\-]{6,}["']\s*;?\s*$|\[\]byte\(\s*["'][^"']{6,}["']\s*\)|["'][^"']{6,}["']\.getBytes\(|"""
    r"""^\s*["'][^"']{6,}["']\s*;?\s*$""".replace("{n}", _SIZE))
# What stands for the random value on a side: a name that says so (a constant's name beside a literal says nothing).
_RANDOM_NAME_RE = re.compile(r"(?i)nonce|\biv\b|_iv\b|\biv_|salt|secret|\bkey\b|_key\b|(?-i:[a-z]Key\b)|token|random|seed|pepper|entropy|challenge|state")


def _sources(lines: Sequence[str]) -> int:
    return sum(len(_SOURCE_RE.findall(line)) for line in lines)


def made_constant(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first random source of the old side whose place the new side gives to a constant, quoted ``old → new``."""
    if not added or not removed:
        return None
    strong = [line for line in removed if _SOURCE_RE.search(line)]
    if not strong or _sources(added) >= _sources(strong):
        return None  # no source removed, or every one stands again (moved, re-wrapped)
    for new in added:
        if not _CONSTANT_RE.search(new) or _SOURCE_RE.search(new):
            continue
        for old in strong:
            # One edit: the new line keeps the old one's opening (``nonce = …``), or the change is a slip's size; and the
            # value is one a random source draws (its name, or the old side's call says so).
            same_target = "=" in old and "=" in new and old.split("=", 1)[0].strip() == new.split("=", 1)[0].strip()
            # or the buffer the old side filled is the one the new side sets (round 124c, held-out 651's go-ipcrypt README:
            # ``rand.Read(key)`` → ``key := []byte("ipcrypt-demo-key")``, among the page's other edits)
            filled = (m := _TARGET_RE.match(new)) is not None and re.search(rf"\(\s*&?{re.escape(m.group(1))}\s*[,)]", old) is not None
            if not (same_target or filled or (len(added) <= 3 and len(removed) <= 3) or _names(old) & _names(new)):
                continue
            if not (_RANDOM_NAME_RE.search(old) or _RANDOM_NAME_RE.search(new)):
                continue
            a, b = centred(old.strip(), new.strip())
            if len(a) + len(b) > _ROOM:  # the reason would be cut before the constant: the old side gives way (round 34)
                head = common_ends(old.strip(), new.strip())[0]
                a, b = "…" + old.strip()[head:][:24], "…" + new.strip()[head:][:_ROOM - 24]
            return f"makes a random value constant (a fixed nonce, key or salt): {a} → {b}"
    return None


_NAME_RE = re.compile(r"[A-Za-z_][\w.]{3,}")
_TARGET_RE = re.compile(r"^\s*(?:(?:let|var|const|val|auto)\s+)?([A-Za-z_]\w*)\s*(?::=|=)")
_ROOM = 57  # what a reason's 120 characters leave both quoted sides after the phrase and the arrow


def _names(line: str) -> set[str]:
    """The names a line reads, its random source's own words left out (``box.nonce_bytes``, ``NONCE_SIZE``)."""
    return {m.group(0) for m in _NAME_RE.finditer(_SOURCE_RE.sub(" ", line))}
