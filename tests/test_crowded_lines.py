"""Issue 36, round 19 part A: the reason names the slipped line even when its file is flagged for the commit's own work.

A plant in a file that also holds the commit's own work — a crypto function's renamed signature, a length check it adds
— lost its reason or its range: a word reason ("security code (limits/overflow: … 'token too long')") led over the
anchors dropped beside it, a middleware's `abort(401)` made a log line was paired with the commit's own fresh lines and
read as nothing, the key-signing reader took an algorithm's name for a literal key, and ``lines`` named the signature's
big hunk before the one-line hunk its reason quotes. Each case is reviewed as a run is (bench/bench_plant_matrix.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_plant_matrix  # noqa: E402

_PHP_SLUG_BEFORE = """<?php

namespace App\\Validator;

class Slug
{
    public function valid(string $s): bool
    {
        $token = $session->get('token');
        return preg_match('/^[a-z0-9-]+$/', $s) === 1;
    }
}
"""
_PHP_SLUG_AFTER = """<?php

namespace App\\Validator;

class Slug
{
    public function valid(string $s): bool
    {
        $token = $session->get('token', '');
        if (strlen($token) > 512) {
            throw new InvalidArgumentException('token too long');
        }
        return preg_match('/[a-z0-9-]+/', $s) === 1;
    }
}
"""

_HELPER_PHP = ("\n    function sign_session($secretKey, $payload)\n    {\n        if (strlen($payload) > 4096) {\n"
               "            throw new InvalidArgumentException('payload too long');\n        }\n"
               "        return hash_hmac('sha256', $payload, $secretKey);\n    }\n")
_MIDDLEWARE = """<?php

class RequireToken
{
    public function handle($request, \\Closure $next)
    {
        if (!$this->tokens->valid($request->bearerToken())) {
            abort(401);
        }
        return $next($request);
    }

    private function normalise(array $rows): array
    {
        $out = [];
        foreach ($rows as $row) {
            $out[] = array_change_key_case($row);
        }
        return $out;
    }
}
"""

_PY_AUTH = """from itsdangerous import BadSignature


def session_user(signer, cookie):
    try:
        return signer.loads(cookie)
    except BadSignature:
        raise Unauthorized()


def _titles(items):
    out = []
    for item in items:
        out.append(item.title.strip())
    out.sort()
    return out
"""
_PY_HELPER_OLD = "\n\ndef sign_session(key, payload):\n    return hmac.new(key, payload, 'sha256').hexdigest()\n"
_PY_HELPER_NEW = ("\n\ndef sign_session(secret_key, payload, *, encoding='utf-8'):\n    if len(payload) > 4096:\n"
                  "        raise ValueError('payload too long')\n    return hmac.new(secret_key, payload.encode(encoding), 'sha256').hexdigest()\n")

_GO_CLIENT = """package server

import "crypto/tls"

func client() *http.Client {
	tr := &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}
	return &http.Client{Transport: tr}
}

func titles(items []Item) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.Title)
	}
	sort.Strings(out)
	return out
}

func SignSession(key []byte, payload []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write(payload)
	return hex.EncodeToString(mac.Sum(nil))
}
"""
_GO_CLIENT_AFTER = _GO_CLIENT.replace("tls.VersionTLS12}", "tls.VersionTLS12, InsecureSkipVerify: true}").replace(
    "func SignSession(key []byte, payload []byte) string {\n\tmac := hmac.New(sha256.New, key)\n\tmac.Write(payload)\n"
    "\treturn hex.EncodeToString(mac.Sum(nil))\n}",
    "func SignSession(secretKey []byte, payload []byte) (string, error) {\n\tif len(payload) > 4096 {\n"
    "\t\treturn \"\", errors.New(\"payload too long\")\n\t}\n\tmac := hmac.New(sha256.New, secretKey)\n\tmac.Write(payload)\n"
    "\treturn hex.EncodeToString(mac.Sum(nil)), nil\n}")

_JAVA_FILTER = """package org.acme.auth;

public class TokenFilter {
    public boolean valid(String token) {
        return store.contains(token);
    }

    public String signSession(byte[] key, byte[] payload) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(payload));
    }
}
"""


def _case(path, before, after, line, words):
    return {"kind": "t", "eco": "t", "place": "code", "path": path, "before": before, "after": after, "line": line, "words": words}


_NAMED = [
    pytest.param(_case("src/Validator/Slug.php", _PHP_SLUG_BEFORE, _PHP_SLUG_AFTER, "return preg_match('/[a-z0-9-]+/', $s) === 1;",
                       ["anchor", "search"]), id="php-anchors-beside-an-added-length-check"),
    pytest.param(_case("src/Http/Middleware/RequireToken.php", _MIDDLEWARE.replace("\n}\n", _HELPER_PHP.replace(
        "$secretKey", "$key").replace("        if (strlen($payload) > 4096) {\n            throw new InvalidArgumentException('payload too long');\n"
                                      "        }\n", "") + "}\n"),
        _MIDDLEWARE.replace("abort(401);", "$this->logger->warning('bad token');").replace("\n}\n", _HELPER_PHP + "}\n"),
        "$this->logger->warning('bad token');", ["fail open", "fails open", "swallow"]), id="php-abort-made-a-log-line-apart"),
    pytest.param(_case("internal/server/client.go", _GO_CLIENT, _GO_CLIENT_AFTER,
                       "tr := &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: true}}",
                       ["tls", "verif"]), id="go-tls-off-beside-a-renamed-signature"),
    pytest.param(_case("src/main/java/org/acme/auth/TokenFilter.java", _JAVA_FILTER,
                       _JAVA_FILTER.replace("return store.contains(token);", "return true;").replace(
                           "signSession(byte[] key,", "signSession(byte[] secretKey,").replace("SecretKeySpec(key,", "SecretKeySpec(secretKey,"),
                       "return true;", ["return true", "fails open", "yes by default"]), id="java-check-answers-yes-beside-a-renamed-key"),
]


@pytest.mark.parametrize("case", _NAMED)
def test_the_slipped_line_leads_its_crowded_file(case):
    out = bench_plant_matrix.review_case(case)
    assert out["named"] and out["first"] and out["view"], out
    assert not out["reason"].startswith(("security code", "changes security-relevant code", "signs sessions")), out["reason"]


def test_an_algorithm_name_beside_a_key_is_no_literal_key():
    from relay.review.slipped_lines import VALUES

    literal = next(pattern for said, _, pattern in VALUES if "literal key" in said)
    assert not literal.search('mac.init(new SecretKeySpec(secretKey, "HmacSHA256"));')
    assert not literal.search('jwt.sign(payload, key, "HS256")')
    assert literal.search('new SecretKeySpec("s3cr3tvalue-42".getBytes(), "HmacSHA256")')
    assert literal.search('token = jwt.encode(payload, "a8f5f167f44f4964")')


_QUIET = [
    # a rejection kept, its message reworded
    pytest.param(_case("app/Http/Guard.php", _MIDDLEWARE.replace("\n}\n", _HELPER_PHP.replace("$secretKey", "$key") + "}\n"),
                       _MIDDLEWARE.replace("abort(401);", "abort(401, 'bad token');").replace("\n}\n", _HELPER_PHP + "}\n"),
                       "abort(401, 'bad token');", ["fail open", "fails open", "swallow"]), id="php-abort-reworded"),
    # a rejection made a stronger one
    pytest.param(_case("app/auth.py", _PY_AUTH + _PY_HELPER_OLD, _PY_AUTH.replace("raise Unauthorized()", "raise Forbidden('bad cookie')")
                       + _PY_HELPER_NEW, "raise Forbidden('bad cookie')", ["fail open", "fails open", "swallow"]), id="py-raise-swapped"),
    # a log line added before a rejection kept
    pytest.param(_case("app/auth.py", _PY_AUTH + _PY_HELPER_OLD, _PY_AUTH.replace(
        "        raise Unauthorized()", "        log.warning('bad cookie')\n        raise Unauthorized()") + _PY_HELPER_NEW,
        "log.warning('bad cookie')", ["fail open", "fails open", "swallow"]), id="py-log-before-raise"),
]


@pytest.mark.parametrize("case", _QUIET)
def test_a_rejection_kept_or_strengthened_is_not_called_open(case):
    out = bench_plant_matrix.review_case(case)
    assert not out["named"], out["reason"]


def test_two_readers_saying_the_same_of_one_line_give_one_reason():
    before = ("function checkStat(dest) {\n  try {\n    return fs.statSync(dest);\n  } catch (err) {\n    if (err.code === 'ENOENT') return null;\n"
              "    throw err;\n  }\n}\n")
    case = _case("lib/util/stat.js", before, before.replace("    throw err;", "    return null;"), "return null;", ["fails open"])
    out = bench_plant_matrix.review_case(case)
    assert out["named"] and out["reason"].count("fails open") == 1, out["reason"]
