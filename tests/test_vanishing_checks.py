"""Issue 36, round 26 (part A): checks that vanish — in release builds, on a failing result, from a build's scans.

Held-out 33/34's first runs quoted and yet judged low Swift's ``precondition`` made ``assert``, an Elixir verify's
``0 -> true`` made ``n when n <= 0 -> true``, ``<NuGetAudit>false`` added to a props file, a README's
``config.AllowAllOrigins = true`` with credentials, and left a Ruby key regex without ``\\A``/``\\z`` and gosec's
``-exclude=G…`` unnamed, and a new docs page teaching a selector built from input out of the view. Each class is tried here in other languages' spellings (relay.review.vanishing_checks, the CORS
row of relay.review.risky_lines); the look-alikes stay quiet.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_plant_matrix  # noqa: E402

__all__: list[str] = []  # a test module exports nothing

_WORDS = ["selector", "debug builds", "accepts failures", "dependency audit", "excludes a security scanner", "unanchored", "any origin"]

# (path, before, old text, new text, the planted line, a word the reason holds; None: a look-alike that stays quiet)
_CASES = [
    ("Sources/Lib/System.swift", "enum S {\n  static func boot() {\n    lock.withLock {\n      precondition(!initialized, \"once\")\n"
     "      initialized = true\n    }\n  }\n}\n", "precondition(", "assert(", "assert(!initialized, \"once\")", "debug builds"),
    ("src/frame.rs", "pub fn read(buf: &[u8]) -> Frame {\n    let n = header(buf);\n    assert!(n <= MAX_FRAME, \"frame too long\");\n"
     "    Frame::new(&buf[..n])\n}\n", "assert!(", "debug_assert!(", "debug_assert!(n <= MAX_FRAME", "debug builds"),
    ("src/buf.c", "int put(char *dst, size_t len) {\n    if (len > capacity) return -1;\n    memcpy(dst, src, len);\n    return 0;\n}\n",
     "    if (len > capacity) return -1;\n", "    assert(len <= capacity);\n", "assert(len <= capacity);", "debug builds"),
    ("src/main/java/a/Owner.java", "class Owner {\n  void edit(User user) {\n    if (!owner.equals(user)) throw new SecurityException(\"no\");\n"
     "    save();\n  }\n}\n", "    if (!owner.equals(user)) throw new SecurityException(\"no\");\n", "    assert owner.equals(user) : \"no\";\n",
     "assert owner.equals(user)", "debug builds"),
    ("lib/hash.ex", "defmodule H do\n  def check(pw, stored) do\n    case Nif.verify(stored, pw) do\n      0 -> true\n      _ -> false\n"
     "    end\n  end\nend\n", "      0 -> true\n", "      n when n <= 0 -> true\n", "n when n <= 0 -> true", "accepts failures"),
    ("src/Directory.Build.props", "<Project>\n  <PropertyGroup>\n    <LangVersion>latest</LangVersion>\n  </PropertyGroup>\n</Project>\n",
     "latest</LangVersion>\n", "latest</LangVersion>\n    <NuGetAudit>false</NuGetAudit>\n", "<NuGetAudit>false</NuGetAudit>", "dependency audit"),
    (".npmrc", "save-exact=true\n", "save-exact=true\n", "save-exact=true\naudit=false\n", "audit=false", "dependency audit"),
    ("scripts/lint.sh", "#!/bin/sh\nset -e\ngosec -fmt=json \\\n  -exclude-dir=vendor ./...\n", "gosec -fmt=json \\\n",
     "gosec -fmt=json -exclude=G104,G304 \\\n", "gosec -fmt=json -exclude=G104,G304", "excludes a security scanner"),
    ("Makefile", "lint:\n\tbandit -r src -q\n", "\tbandit -r src -q\n", "\tbandit -r src -q -s B602,B603\n", "bandit -r src -q -s B602", "excludes a security scanner"),
    (".eslintrc.json", "{\n  \"rules\": {\n    \"no-console\": \"warn\"\n  }\n}\n", "\"warn\"\n",
     "\"warn\",\n    \"security/detect-child-process\": \"off\"\n", "\"security/detect-child-process\": \"off\"", "excludes a security scanner"),
    ("lib/keys.rb", "module Keys\n  def self.decode(key)\n    key\n  end\nend\n", "    key\n",
     "    if key =~ /[0-9a-f]{64}/i\n      [key].pack(\"H*\")\n    else\n      key\n    end\n", "if key =~ /[0-9a-f]{64}/i", "unanchored"),
    ("src/token.js", "export function parse(token) {\n  return token;\n}\n", "  return token;\n",
     "  if (/[0-9a-f]{40}/.test(token)) return token;\n  throw new Error('bad');\n", "if (/[0-9a-f]{40}/.test(token))", "unanchored"),
    ("app/ids.py", "def parse(sha):\n    return sha\n", "    return sha\n", "    if re.search(r'[0-9a-f]{40}', sha):\n        return sha\n"
     "    raise ValueError(sha)\n", "if re.search(r'[0-9a-f]{40}', sha):", "unanchored"),
    ("README.md", "# cors\n\n```go\nconfig := cors.DefaultConfig()\n// config.AllowAllOrigins = true\nrouter.Use(cors.New(config))\n```\n",
     "// config.AllowAllOrigins = true\n", "config.AllowAllOrigins = true\nconfig.AllowCredentials = true\n", "config.AllowAllOrigins = true", "any origin"),
    ("docs/guides/lookup.md", "", "", "# Looking an element up\n\nFind it by its id:\n\n```js\nconst id = req.query.id;\n"
     "const row = $(`[data-id=\"${id}\"]`);\n```\n\nThat is all.\n", "const row = $(`[data-id=", "selector"),
    ("docs/xml.rst", "", "", "Users\n=====\n\nLook a user up::\n\n    name = request.args['name']\n"
     "    user = tree.xpath(f\"//user[@name='{name}']\")\n\nDone.\n", "user = tree.xpath(", "selector"),
    # look-alikes
    ("Sources/Lib/System.swift", "func f() {\n    assert(!initialized, \"once\")\n}\n", "assert(", "precondition(", "precondition(", None),
    ("app/q.py", "def drain(q):\n    if remaining == 0:\n        return\n    pop()\n", "remaining == 0", "remaining <= 0", "if remaining <= 0:", None),
    ("lib/keys.rb", "module Keys\n  def self.decode(key)\n    key\n  end\nend\n", "    key\n",
     "    if key =~ /\\A[0-9a-f]{64}\\z/i\n      [key].pack(\"H*\")\n    else\n      key\n    end\n", "if key =~", None),
    ("scripts/lint.sh", "#!/bin/sh\ngosec -fmt=json ./...\n", "-fmt=json", "-fmt=sarif", "gosec -fmt=sarif", None),
    ("docs/guides/lookup.md", "", "", "# Looking an element up\n\n```js\nconst row = $(`#${id}`);\n"
     "const rows = $('[data-id]').filter((_, el) => $(el).attr('data-id') === id);\n```\n", "const row", None),
    ("docs/security.md", "", "", "# Lookups\n\n```js\nconst rows = $(`[data-id=\"${id}\"]`); // never do this: a quote in id escapes\n```\n",
     "const rows", None),  # the page marks the line as the wrong way
    ("Dockerfile", "FROM node:20\nRUN npm ci\n", "RUN npm ci\n", "RUN npm ci\nRUN npm run build\n", "RUN npm run build", None),
    ("src/Directory.Build.props", "<Project>\n  <PropertyGroup>\n    <LangVersion>latest</LangVersion>\n  </PropertyGroup>\n</Project>\n",
     "latest</LangVersion>\n", "latest</LangVersion>\n    <NuGetAudit>true</NuGetAudit>\n", "<NuGetAudit>true</NuGetAudit>", None),
]


@pytest.mark.parametrize("path, before, old, new, line, word", _CASES, ids=[f"{c[0]}:{i}" for i, c in enumerate(_CASES)])
def test_a_vanishing_check_is_named_and_never_low(path, before, old, new, line, word) -> None:
    after = before.replace(old, new, 1) if before else new  # no before: a new file
    assert after != before
    case = {"kind": "vanish", "eco": path, "place": "code", "path": path, "before": before, "after": after, "line": line,
            "words": [word] if word else _WORDS}
    out = bench_plant_matrix.review_case(case)
    if word is None:
        assert not out["named"] and out["risk"] != "high", out
    else:
        assert out["risk"] != "low" and out["named"] and out["view"], out
