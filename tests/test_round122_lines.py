"""Issue 36, session 61: what held-out 556–559's first run left low on the final rules of session 60 (round 122).

Whom they guard against: the worker that slips one line into an ordinary change, and the page or example a reader copies:
- anytree's ``self.__check_loop(value)`` deleted before a node is re-parented (a private check's call: its leading
  underscores hid the name ``check``);
- blobcrypt's example ``crypto_pwhash_OPSLIMIT_MODERATE`` → ``crypto_pwhash_OPSLIMIT_MIN`` (a password hash given the
  least work libsodium allows, the floor meant for tests);
- go-redis' TLS example README ``tls-auth-clients optional`` (Redis lets a client in that shows no certificate);
- PSR-7's interfaces: "Implementations MUST raise an exception for ports outside the …" → "Implementations MAY accept any
  integer as the port" (a specification's requirement on a check made a permission, in a doc comment).
Each has its near miss, which stays quiet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

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


@pytest.mark.parametrize(("path", "before", "after", "said"), _NAMED)
def test_a_slipped_line_is_named(tmp_path: Path, path: str, before: str, after: str, said: str) -> None:
    one_edit_named(tmp_path, path, before, after, said)


_SAYS = ("deletes a check", "least work", "without a certificate", "relaxes a specification's requirement")


@pytest.mark.parametrize(("path", "before", "after"), _QUIET)
def test_its_near_miss_stays_quiet(tmp_path: Path, path: str, before: str, after: str) -> None:
    one_edit_says_none(tmp_path, path, before, after, _SAYS)
