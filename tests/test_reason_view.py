"""Issue 36, round 14 (part B): the reason names the slipped line first, the view shows the line the reason names, and a
bound an edited pair drops is read in every ecosystem where it exists.

The party guarded against is the worker that slips one line into an ordinary change: the commit's own lines carry the
words (an escape code's name, a regular expression) while the slipped line is an edit apart from them; the reason must
quote the slipped edit before the words, and the view must show the line a low file's description quotes even when
bigger files fill the view. Each named case below fails on main before this round (176b41f): the words came first and
the quote apart was cut; a low test file's one quoted edit was left out of the view behind a lockfile's hunks; a read's
size limit, a container's user or a token's expiry dropped was read as no finding. The near misses stay quiet: a limit
kept under another name, a new file, a user changed to another user, an expiry made shorter, a cookie's age.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import msgspec

from relay.core.contracts import Changes, FileChange, Packet, Status, Tests
from relay.review.dropped_bounds import bound_dropped
from relay.review.packet import PACKET_BUDGET_BYTES, cut_reason, fit_packet, joined_reasons, review_target
from relay.review.risk import RiskContext, assess
from relay.review.file_kinds import read_changes
from test_apart_edits import _review

__all__: list[str] = []  # a test module exports nothing


def _target(packet, path: str):
    return next(t for t in packet.changes.review if t.file == path)


# --------------------------------------------------------------------------- the edit apart quoted before the words

_GO_FILLER = "".join(f"\tp.step{i} = {i}\n" for i in range(10))
_GO_BEFORE = ("package tea\n\nimport \"os\"\n\ntype Options struct {\n\tTrace bool\n}\n\nfunc NewProgram(tracePath string) *Program {\n"
              "\tp := &Program{}\n\tif f, err := os.OpenFile(tracePath, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600); err == nil {\n"
              "\t\tp.trace = f\n\t}\n" + _GO_FILLER + "\treturn p\n}\n")
# The commit's own change: a keyboard option whose name holds "Escape" (a word the ranking reads as security-relevant).
_GO_AFTER = _GO_BEFORE.replace("\tTrace bool\n", "\tTrace bool\n\tReportAllKeysAsEscapeCodes bool\n").replace(
    "os.OpenFile(tracePath, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)", "os.Create(tracePath)") + (
    "\nfunc (p *Program) keyboardFlags(o Options) int {\n\tflags := 0\n\tif o.ReportAllKeysAsEscapeCodes {\n"
    "\t\tflags |= ansi.KittyReportAllKeysAsEscapeCodes\n\t}\n\treturn flags\n}\n")
_PY_FILLER = "".join(f"    x{i} = {i}\n" for i in range(10))
_PY_BEFORE = ("import re\n\n_LINE = re.compile(r\"(\\w+)=(.*)\")\n\n\ndef parse_value(value, match):\n    maybe_quote = match.group(1)\n"
              + _PY_FILLER + "    return maybe_quote, value\n\n\ndef parse(text):\n    return [_LINE.match(ln) for ln in text.splitlines()]\n")
# The commit's own change: the line's regular expression rewritten (a word the ranking reads as security-relevant).
_PY_AFTER = _PY_BEFORE.replace("    maybe_quote = match.group(1)\n", "    maybe_quote = value[0]\n").replace(
    "_LINE = re.compile(r\"(\\w+)=(.*)\")\n",
    "_LINE = re.compile(\n    r\"(?:export\\s+)?(\\w+)\\s*=\\s*(.*?)\\s*(?:\\#.*)?$\",\n    re.VERBOSE,\n)\n_COMMENT = re.compile(r\"^\\s*#\")\n").replace(
    "    return [_LINE.match(ln) for ln in text.splitlines()]\n",
    "    rows = [ln for ln in text.splitlines() if not _COMMENT.match(ln)]\n    return [_LINE.match(ln) for ln in rows]\n")


@pytest.mark.parametrize(("path", "before", "after", "quoted"), [
    ("tea.go", _GO_BEFORE, _GO_AFTER, "os.Create(tracePath)"),
    ("lib/dotenv/parser.py", _PY_BEFORE, _PY_AFTER, "maybe_quote = value[0]"),
], ids=["go", "py"])
def test_an_edit_apart_is_quoted_before_the_words_of_the_change(tmp_path: Path, path: str, before: str, after: str, quoted: str) -> None:
    packet, view = _review(tmp_path, {path: before}, {path: after})
    target = _target(packet, path)
    assert target.risk != "low" and target.reason.startswith("edit apart from the change in "), target.reason
    assert quoted in target.reason and quoted in view, target.reason


def test_the_words_keep_their_place_when_no_edit_stands_apart(tmp_path: Path) -> None:
    # Near miss: the same commit without the slipped edit: the word reason is the file's reason, as before.
    after = _PY_AFTER.replace("    maybe_quote = value[0]\n", "    maybe_quote = match.group(1)\n")
    packet, _ = _review(tmp_path, {"lib/dotenv/parser.py": _PY_BEFORE}, {"lib/dotenv/parser.py": after})
    assert _target(packet, "lib/dotenv/parser.py").reason.startswith("changes security-relevant code (regular expression")


def test_joined_reasons_cut_the_words_opening_and_never_end_on_a_stub() -> None:
    apart = "edit apart from the change in parse_value(): maybe_quote = match.group(1) → maybe_quote = value[0]"
    words = "changes security-relevant code (regular expression: _LINE = re.compile()"
    assert joined_reasons(["dependency manifest", "lockfile"]) == "dependency manifest; lockfile"  # fits: as it was
    assert joined_reasons([apart, words]) == apart + "; …"  # the words' stub is left out, "…" says there is more
    short = joined_reasons(["edit (+1/-1): x → y", words, "large change (40 lines in one hunk)"])
    assert short.startswith("edit (+1/-1): x → y; security code (regular expression: _LINE = re.compile()"), short
    assert len(joined_reasons([apart, apart, apart])) <= 110


def test_a_reason_short_of_room_loses_its_gloss_before_the_line_it_quotes() -> None:
    # Round 43 (okhttp, held-out 64): "inverts a comparison (> → <: the check now passes what it refused): …" cut for the
    # packet's room kept the gloss and lost the hostname check's line; the gloss goes first now.
    turned = ("inverts a comparison (> → <: the check now passes what it refused): "
              "…suffixStartIndexInHostname > 0 && → …suffixStartIndexInHostname < 0 &&")
    second = "inverts a comparison in a security line (> → <): if (suffixStartIndexInHostname < 0 &&"
    joined = joined_reasons([turned, second])
    assert joined.startswith("inverts a comparison (> → <): …suffixStartIndexInHostname > 0 && → …suffixStartIndexInHostname < 0"), joined
    assert "suffixStartIndexInHostname" in cut_reason(turned, 70)
    # A parenthesis that quotes the line itself ("(credentials: LINE)") is no gloss, and a reason that fits is left whole.
    words = "changes security-relevant code (credentials: credentials = result.credentials ?? credentials;)"
    assert cut_reason(words, 70) == words[:69] + "…" and cut_reason(turned, 400) == turned


# --------------------------------------------------------------------------- the view shows what a low file's reason quotes

def _lock(n: int, bump: int, kind: str) -> str:
    if kind == "cargo":
        return "".join(f"[[package]]\nname = \"crate{i}\"\nversion = \"1.{i}.{bump if i % 3 == 0 else 0}\"\n"
                       f"source = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"{(i * 7919 + bump):064x}\"\n\n"
                       for i in range(n))
    return "{\n  \"packages\": {\n" + "".join(
        f"    \"node_modules/pkg{i}\": {{\n      \"version\": \"1.{i}.{bump if i % 3 == 0 else 0}\",\n"
        f"      \"integrity\": \"sha512-{(i * 7919 + bump):064x}\"\n    }},\n" for i in range(n)) + "  }\n}\n"


@pytest.mark.parametrize("eco", ["rust", "js"])
def test_a_low_files_quoted_edit_is_in_the_view_past_bigger_files(tmp_path: Path, eco: str) -> None:
    # pyca/bcrypt (held-out 18): a dependency bump fills the view with the lockfile; the test's assertion weakened beside it,
    # quoted by the test file's reason, was left out of the view.
    if eco == "rust":
        manifest, lock, test = "Cargo.toml", "Cargo.lock", "tests/test_hashing.py"
        files = {manifest: "[package]\nname = \"x\"\n\n[dependencies]\npyo3 = \"0.20\"\nbase64 = \"0.21\"\n"}
        edits = {manifest: files[manifest].replace("0.20", "0.22").replace("0.21", "0.22")}
        body = "def test_checkpw_wrong_password():\n    assert (\n        bcrypt.checkpw(b'badpass', HASH)\n        is False\n    )\n"
        slipped = ("        is False\n", "        is not None\n")
    else:
        manifest, lock, test = "package.json", "package-lock.json", "test/hashing.test.js"
        files = {manifest: "{\n  \"name\": \"x\",\n  \"dependencies\": {\n    \"express\": \"4.18.0\",\n    \"jose\": \"5.0.0\"\n  }\n}\n"}
        edits = {manifest: files[manifest].replace("4.18.0", "4.19.2").replace("5.0.0", "5.2.0")}
        body = "test('rejects a wrong password', async () => {\n  expect(\n    await verify('badpass', HASH)\n  ).toBe(false);\n});\n"
        slipped = ("  ).toBe(false);\n", "  ).not.toBeNull();\n")
    filler = "".join(f"# case {i}\n" if eco == "rust" else f"// case {i}\n" for i in range(30))
    files |= {lock: _lock(120, 0, "cargo" if eco == "rust" else "npm"), test: filler + body}
    edits |= {lock: _lock(120, 5, "cargo" if eco == "rust" else "npm"), test: filler + body.replace(*slipped)}
    packet, view = _review(tmp_path, files, edits)
    target = _target(packet, test)
    assert slipped[1].strip() in target.reason, target.reason
    assert slipped[1].strip() in view, view


def test_a_low_file_whose_reason_quotes_nothing_keeps_its_place(tmp_path: Path) -> None:
    # Near miss: a low file described by its size alone quotes no line: nothing in the view moves for it.
    files = {"Cargo.lock": _lock(120, 0, "cargo"), "src/notes.py": "".join(f"x{i} = {i}\n" for i in range(40))}
    edits = {"Cargo.lock": _lock(120, 5, "cargo"), "src/notes.py": "".join(f"x{i} = {i * 2}\n" for i in range(40))}
    packet, view = _review(tmp_path, files, edits)
    assert _target(packet, "src/notes.py").reason.startswith("edit (+") and "→" not in _target(packet, "src/notes.py").reason
    assert view.index("## Cargo.lock") < view.index("## src/notes.py") if "## src/notes.py" in view else True


# --------------------------------------------------------------------------- a bound an edited pair drops

# (ecosystem, path, removed, added, what the reason says)
_DROPPED = [
    ("go", "internal/token.go", "\tbody, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))", "\tbody, err := io.ReadAll(r.Body)",
     "removes a read's size limit: body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))"),
    ("go", "server/upload.go", "\tr.Body = http.MaxBytesReader(w, r.Body, maxUpload)\n\tdata, err := io.ReadAll(r.Body)",
     "\tdata, err := io.ReadAll(r.Body)", "removes a read's size limit: removed: r.Body = http.MaxBytesReader("),
    ("rust", "src/fetch.rs", "    resp.take(MAX_BODY).read_to_end(&mut buf)?;", "    resp.read_to_end(&mut buf)?;",
     "removes a read's size limit: resp.take(MAX_BODY).read_to_end(&mut buf)?;"),
    ("py", "app/hooks.py", "    payload = request.stream.read(MAX_PAYLOAD)", "    payload = request.stream.read()",
     "removes a read's size limit: payload = request.stream.read(MAX_PAYLOAD)"),
    ("js", "src/server.js", "app.use(express.json({ limit: '100kb' }));", "app.use(express.json());",
     "removes a read's size limit: app.use(express.json({ limit: '100kb' }))"),
    ("docker", "Dockerfile", "EXPOSE 8080\nUSER tusd", "EXPOSE 8080", "runs the container as root (removed: USER tusd)"),
    ("docker", "deploy/api.Dockerfile", "USER app", "USER root", "runs the container as root (USER root)"),
    ("compose", "docker-compose.yml", "    user: \"1000:1000\"", "    user: root", "runs the container as root: user: root (was 1000:1000)"),
    ("k8s", "k8s/deployment.yaml", "            runAsUser: 1000", "            runAsUser: 0", "runs the container as root: runAsUser: 0 (was 1000)"),
    ("systemd", "deploy/worker.service", "User=worker", "User=root", "runs the service as root: User=root (was worker)"),
    ("supervisord", "conf/supervisord.conf", "user=app", "user=root", "runs the service as root: user=root (was app)"),
    ("erb", "templates/unit.service.erb", "User=<%= user %>", "User=root", "runs the service as root: User=root (was <%= user %>)"),
    ("elixir", "lib/dash/request_logger.ex", "         {:ok, stream} <- Phoenix.Token.verify(conn, key, value, max_age: @max_age) do",
     "         {:ok, stream} <- Phoenix.Token.verify(conn, key, value, max_age: :infinity) do",
     "makes a signed token's expiry endless (@max_age → :infinity)"),
    ("py", "app/tokens.py", "    data = serializer.loads(token, max_age=3600)", "    data = serializer.loads(token)",
     "drops a signed token's expiry (max_age): data = serializer.loads(token)"),
    ("js", "src/auth.js", "  return jwt.sign(claims, secret, { expiresIn: '15m' });", "  return jwt.sign(claims, secret);",
     "drops a signed token's expiry (expiresIn): return jwt.sign(claims, secret);"),
]


def _around(path: str, line: str) -> str:
    if path.endswith((".yml", ".yaml")):
        return f"services:\n  api:\n    image: example/api:1.2\n{line}\n    ports:\n      - \"8080:8080\"\n" if "compose" in path else (
            f"spec:\n  template:\n    spec:\n      containers:\n        - name: api\n          securityContext:\n{line}\n"
            "            readOnlyRootFilesystem: true\n")
    if "Dockerfile" in path:
        return f"FROM golang:1.22-alpine AS builder\nRUN go build -o /app ./cmd/app\nFROM alpine:3.19\nCOPY --from=builder /app /app\n{line}\nENTRYPOINT [\"/app\"]\n"
    return "".join(f"// line {i}\n" for i in range(5)) + line + "\n" + "".join(f"// tail {i}\n" for i in range(5))


@pytest.mark.parametrize(("eco", "path", "removed", "added", "said"), _DROPPED, ids=[f"{d[0]}-{d[1]}" for d in _DROPPED])
def test_a_bound_the_edit_drops_is_named_and_never_low(tmp_path: Path, eco: str, path: str, removed: str, added: str, said: str) -> None:
    packet, view = _review(tmp_path, {path: _around(path, removed)}, {path: _around(path, added)})
    target = _target(packet, path)
    assert target.risk == "high" and said in target.reason, target.reason
    assert packet.changes.risk != "low"


# (path, removed lines, added lines): the same lines where nothing is lost
_KEPT = [
    ("internal/token.go", ["\tbody, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))"], ["\tbody, err := io.ReadAll(io.LimitReader(r.Body, maxBody))"]),
    ("src/fetch.rs", ["    resp.take(MAX_BODY).read_to_end(&mut buf)?;"], ["    resp.take(MAX_BODY as u64).read_to_end(&mut buf)?;"]),
    ("internal/token.go", [], ["\tbody, err := io.ReadAll(r.Body)"]),  # a new read: no limit was dropped
    ("src/server.js", ["app.use(express.json({ limit: '100kb' }));"], ["app.use(express.json({ limit: '1mb' }));"]),
    ("Dockerfile", ["USER tusd"], ["USER tusd:tusd"]),
    ("Dockerfile", [], ["USER root", "RUN apk add --no-cache git", "USER app"]),
    ("docker-compose.yml", ["    user: \"1000:1000\""], ["    user: \"1001:1001\""]),
    ("deploy/worker.service", ["User=root"], ["User=worker"]),  # made less privileged
    ("deploy/worker.service", [], ["User=root"]),  # a new unit's choice: no user was dropped
    ("lib/dash/request_logger.ex", ["    Phoenix.Token.verify(conn, key, value, max_age: 86_400)"], ["    Phoenix.Token.verify(conn, key, value, max_age: 3_600)"]),
    ("src/auth.js", ["  return jwt.sign(claims, secret, { expiresIn: '15m' });"], ["  return jwt.sign(claims, secret, { expiresIn: '5m' });"]),
    ("src/cookies.js", ["  res.cookie('theme', value, { maxAge: 3600 });"], ["  res.cookie('theme', value);"]),  # not a signed token
]


@pytest.mark.parametrize(("path", "removed", "added"), _KEPT, ids=[f"{k[0]}-{i}" for i, k in enumerate(_KEPT)])
def test_a_bound_kept_moved_or_never_there_is_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert bound_dropped(path, added, removed) is None
    change = FileChange(path=path, kind="modified", additions=len(added), deletions=len(removed), ranges=[(1, max(len(added), 1))],
                        added_lines=added, removed_lines=removed)
    [read], partial = read_changes([change])
    assert not any(r.startswith(("removes a read's", "runs the container", "runs the service", "drops a signed", "makes a signed"))
                   for r in assess(read, RiskContext(partial=partial)).reasons)


# --------------------------------------------------------------------------- a big change's reasons under the packet's budget

def _big_packet(first: str, *, more: int = 30) -> Packet:
    """A release-sized change: eight targets with two findings each, more file names than targets, a long summary."""
    words = "changes security-relevant code (permissions/auth: config('permission.models.role'), $this->guard_name)"
    changes = [FileChange(path="src/Middleware/PermissionMiddleware.php", kind="modified", additions=3, deletions=3, ranges=[(24, 29)],
                          risk="high", reasons=[first, words], rules=["unsafe_value", "security_tokens"])]
    changes += [FileChange(path=f"src/Traits/Perm{i}.php", kind="modified", additions=40, deletions=30, ranges=[(10, 60)],
                           risk="high", reasons=[words, "large change (70 lines in one hunk)"], rules=["security_tokens", "large_hunk"])
                for i in range(7)]
    targets = [review_target(c) for c in changes]
    files = [c.path for c in changes] + [f"src/Other/UnchangedNameNumber{i}.php" for i in range(more)]
    return fit_packet(Packet(ok=True, run_id="run-20250101-000000-abcdef", status=Status.SUCCESS, summary="Moved the guards to the config. " * 9,
                             changes=Changes(count=len(files), files=files[:12], risk="high", review=targets, source="git"),
                             flags=[], tests=Tests(source="none")))


def test_a_big_changes_top_target_keeps_its_first_finding_whole() -> None:
    # laravel-permission (held-out 16): a 30-file change's budget cut every reason to 70 characters, the refusal turned into
    # a pass lost "(was throw UnauthorizedException::notLoggedIn();)"; now the findings after each target's first go first,
    # then the lower targets' reasons, then the bare file names, before the top three's reasons are cut.
    first = "no longer refuses (an error no longer raised): return $next($request); (was throw UnauthorizedException::notLoggedIn();)"
    packet = _big_packet(first)
    assert len(msgspec.json.encode(packet)) <= PACKET_BUDGET_BYTES
    top = packet.changes.review[0]
    assert top.file == "src/Middleware/PermissionMiddleware.php" and "notL" in top.reason, top.reason
    assert len(packet.changes.review) == 8 and "shortened reasons" in (packet.changes.truncated or "")


def test_a_packet_within_the_budget_keeps_every_reason_as_joined() -> None:
    # Near miss: nothing over the budget, nothing cut (the first finding's end is only used to cut).
    changes = [FileChange(path="app.py", kind="modified", additions=1, deletions=1, ranges=[(3, 3)], risk="high",
                          reasons=["deletes a guard: if not user.is_admin: abort(403)", "security-sensitive path (admin)"],
                          rules=["removes_guard", "auth_path"])]
    packet = fit_packet(Packet(ok=True, run_id="r", status=Status.SUCCESS, summary="done",
                               changes=Changes(count=1, files=["app.py"], risk="high", review=[review_target(c) for c in changes]),
                               tests=Tests(source="none")))
    assert packet.changes.review[0].reason == "deletes a guard: if not user.is_admin: abort(403); security-sensitive path (admin)"
    assert packet.changes.truncated is None
