"""Issue 36, round 27 (part C): the view of a big commit shows each line the riskiest file's reasons read.

Held-out 35's misses in commits of 4–20 files: a file's reason read two lines, a dangerous value and the dropped clause of a
token check (``changes an input check (…)``) in a 40-line hunk three hunks below; the view showed the first and spent the
rest on the other targets. And a deleted guard (``if err != nil { … return }``) was shown with the blank line after it, not
the statement that now runs unguarded. Each case below is a real repository, a commit of 20+ files (the riskiest file and
an ordinary rename carried through twenty others), reviewed as the relay reviews a run; written in Python, Go, JavaScript
and Ruby, none a copy of a miss. The look-alikes: the same big hunk with no check in it (no window of it crowds the view
ahead of the other targets), a removal whose next line is code (its context is one line, as before).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_apart_edits import _review

__all__: list[str] = []  # a test module exports nothing

# Per language: (file name, the header with its unsafe value (before, after), a body line written 30 times, the check
# before and after (a clause dropped), a filler file's text with {n} for its number (before, after: a rename carried through)).
_LANGS = {
    "py": ("app/fetcher.py", ("import requests\n\n\ndef fetch(url):\n    return requests.get(url, timeout=5)\n",
                               "import requests\n\n\ndef fetch(url):\n    return requests.get(url, timeout=5, verify=False)\n"),
           "    total_{k} = compute_{k}(rows, width)\n", "    total_{k} = compute_{k}(rows, width, height)\n",
           "    if token is None or not token.valid or token.alg != expected_alg:\n", "    if token is None or not token.valid:\n",
           "        raise Unauthorized()\n",
           ("def step_{n}(v):\n    return old_scale(v) + {n}\n", "def step_{n}(v):\n    return new_scale(v) + {n}\n")),
    "go": ("app/fetcher.go", ("package auth\n\nvar tlsConf = &tls.Config{\n\tMinVersion: tls.VersionTLS12,\n}\n",
                               "package auth\n\nvar tlsConf = &tls.Config{\n\tMinVersion: tls.VersionTLS12,\n\tInsecureSkipVerify: true,\n}\n"),
           "\ttotal{k} := compute{k}(rows, width)\n", "\ttotal{k} := compute{k}(rows, width, height)\n",
           "\tif token == nil || !token.Valid || token.Method != expected {\n", "\tif token == nil || !token.Valid {\n",
           "\t\treturn ErrUnauthorized\n\t}\n",
           ("package steps\n\nfunc Step{n}(v int) int {\n\treturn oldScale(v) + {n}\n}\n",
            "package steps\n\nfunc Step{n}(v int) int {\n\treturn newScale(v) + {n}\n}\n")),
    "js": ("src/app/fetcher.js", ("const https = require('https');\nconst agent = new https.Agent({\n  keepAlive: true,\n});\n",
                                   "const https = require('https');\nconst agent = new https.Agent({\n  keepAlive: true,\n  rejectUnauthorized: false,\n});\n"),
           "  const total{k} = compute{k}(rows, width);\n", "  const total{k} = compute{k}(rows, width, height);\n",
           "  if (!token || !token.valid || token.alg !== expectedAlg) {\n", "  if (!token || !token.valid) {\n",
           "    throw new Unauthorized();\n  }\n",
           ("export function step{n}(v) {\n  return oldScale(v) + {n};\n}\n", "export function step{n}(v) {\n  return newScale(v) + {n};\n}\n")),
}
_EXT = {"py": "py", "go": "go", "js": "js"}


def _riskiest(lang: str, *, check: bool) -> tuple[str, str, str]:
    """(path, before, after) of the riskiest file: its unsafe value at the top, then a 60-line function whose every line the
    commit rewrote (a parameter added), holding the check with a clause dropped (or, ``check`` false, unchanged)."""
    path, (head_old, head_new), row_old, row_new, cond_old, cond_new, body, _ = _LANGS[lang]
    pad = "".join(f"\n# note {k}\n" if lang == "py" else f"\n// note {k}\n" for k in range(6))
    old = "".join(row_old.replace("{k}", str(k)) for k in range(30)) + cond_old + body + "".join(row_old.replace("{k}", str(k)) for k in range(30, 60))
    new = "".join(row_new.replace("{k}", str(k)) for k in range(30)) + (cond_new if check else cond_old) + body + "".join(
        row_new.replace("{k}", str(k)) for k in range(30, 60))
    opener = {"py": "def verify(token, rows, width, height, expected_alg):\n", "go": "func Verify(token *Token) error {\n",
              "js": "function verify(token, rows) {\n"}[lang]
    closer = {"py": "", "go": "\treturn nil\n}\n", "js": "}\n"}[lang]
    return path, head_old + pad + opener + old + closer, head_new + pad + opener + new + closer


def _commit(tmp_path: Path, lang: str, *, check: bool) -> tuple[str, str]:
    """(the default view, the check line as the commit leaves it) of a 23-file commit."""
    path, before, after = _riskiest(lang, check=check)
    filler_old, filler_new = _LANGS[lang][7]
    files = {path: before, **{f"lib/steps/step{n}.{_EXT[lang]}": filler_old.replace("{n}", str(n)) for n in range(22)}}
    edits = {path: after, **{f"lib/steps/step{n}.{_EXT[lang]}": filler_new.replace("{n}", str(n)) for n in range(22)}}
    _, view = _review(tmp_path, files, edits, task="Pass the row height through")
    return view, _LANGS[lang][5 if check else 4].strip()


@pytest.mark.parametrize("lang", sorted(_LANGS))
def test_a_second_read_line_in_a_big_hunk_of_the_riskiest_file_is_in_view(tmp_path: Path, lang: str) -> None:
    view, line = _commit(tmp_path, lang, check=True)
    assert line in view, view
    # The look-alike: the same big rewrite with the check untouched; nothing reads a second line, and the view spends no
    # window on the big hunk before the other targets' lines (a filler file's edit is shown).
    quiet, _ = _commit(tmp_path / "quiet", lang, check=False)
    assert "ew_scale(v) + 0" in quiet or "ewScale(v) + 0" in quiet, quiet


# A guard deleted, a blank line, then the statement it guarded: (language, before, after, the statement).
_DELETED = [
    ("go", "func Handle(w http.ResponseWriter, r *http.Request) {\n\tclaims, err := Parse(r)\n\tif err != nil {\n"
           "\t\thttp.Error(w, \"denied\", 401)\n\t\treturn\n\t}\n\n\tserveAccount(w, claims.Subject)\n}\n",
     "func Handle(w http.ResponseWriter, r *http.Request) {\n\tclaims, err := Decode(r)\n\n\tserveAccount(w, claims.Subject)\n}\n",
     "serveAccount(w, claims.Subject)"),
    ("rb", "def show\n  user = User.find_by_token(params[:token])\n  unless user&.active?\n    head :forbidden\n    return\n  end\n\n"
           "  render json: user.account\nend\n",
     "def show\n  user = User.lookup_token(params[:token])\n\n  render json: user.account\nend\n", "render json: user.account"),
    ("py", "def download(request, name):\n    user = load_user(request)\n    if not user.can_read(name):\n        raise Forbidden()\n\n"
           "    return send_file(storage_path(name))\n",
     "def download(request, name):\n    user = fetch_user(request)\n\n    return send_file(storage_path(name))\n",
     "return send_file(storage_path(name))"),
]


@pytest.mark.parametrize("lang,before,after,statement", _DELETED, ids=[d[0] for d in _DELETED])
def test_a_deleted_guard_is_shown_with_the_statement_past_the_blank_line(tmp_path: Path, lang: str, before: str, after: str,
                                                                        statement: str) -> None:
    ext = {"go": "go", "rb": "rb", "py": "py"}[lang]
    files = {f"app/access.{ext}": before, **{f"lib/util{n}.{ext}": f"# util {n}\nVALUE_{n} = {n}\n" for n in range(20)}}
    edits = {f"app/access.{ext}": after, **{f"lib/util{n}.{ext}": f"# util {n}\nVALUE_{n} = {n + 1}\n" for n in range(20)}}
    _, view = _review(tmp_path, files, edits, task="Rename the lookups")
    assert statement in view, view
    # The look-alike: the statement right below the removal (no blank line) is its one line of context, as before.
    _, near = _review(tmp_path / "near", files, {**edits, f"app/access.{ext}": after.replace("\n\n", "\n", 1)}, task="Rename the lookups")
    assert statement in near, near

