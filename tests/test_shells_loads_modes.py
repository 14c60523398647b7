"""Rounds 53–54 (issue 36): slips the first runs of held-out 75/76 read as nothing, each read as a class.

Whom each guards against: the worker whose risky line is a classic in a spelling the readers did not know — a download
piped into a shell given its environment first, Ruby's ``JSON.load``, ``eval`` bound to a safe-sounding name, a CORS
origin function that says yes to all, an owner-only mode given others' bit, node:test's ``{skip: true}``, a private key
made from a literal, a setting's strict constant swapped for a lax sibling. Each near miss beside it stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.file_kinds import SKIP_RE
from relay.review.risk import RiskContext, assess


def _said(path: str, added: list[str], removed: list[str] | None = None):
    return assess(fc(path, added, removed or []), RiskContext())


@pytest.mark.parametrize("line", [
    '  curl -fsSL http://pyenv.run | PYENV_ROOT="${PYENV_ROOT}" bash',
    "curl -sSL https://get.example.dev | env CHANNEL=stable sh",
])
def test_a_download_piped_into_a_shell_given_its_environment_is_high(line: str) -> None:
    out = _said("ci/run_tests.sh", [line])
    assert out.risk == "high" and out.reasons[0].startswith("pipes a download into a shell"), out.reasons


@pytest.mark.parametrize("line", ["curl -fsSL -o pyenv.sh https://pyenv.run | tee log.txt", "curl -s https://x.dev/v.json | jq .version"])
def test_a_download_piped_elsewhere_stays_quiet(line: str) -> None:
    assert not any("into a shell" in r for r in _said("ci/run_tests.sh", [line]).reasons)


def test_ruby_s_json_load_is_unsafe_deserialization() -> None:
    out = _said("lib/merger.rb", ["      JSON.load(data) || {}"], ["      JSON.parse(data) || {}"])
    assert out.risk == "high" and out.reasons[0].startswith("deserializes untrusted data"), out.reasons


@pytest.mark.parametrize(("path", "line"), [("lib/merger.rb", "      JSON.parse(data) || {}"), ("app/read.py", "    data = json.load(f)")])
def test_json_parse_and_python_s_json_load_stay_quiet(path: str, line: str) -> None:
    assert not any("deserializes" in r for r in _said(path, [line]).reasons)


@pytest.mark.parametrize("line", ["    literal_eval = eval", "const run = eval;", "loads = pickle.loads  # fast path"])
def test_a_code_running_call_bound_to_another_name_is_named(line: str) -> None:
    out = _said("examples/parse_value.py", [line])
    assert out.risk == "high" and "to another name" in out.reasons[0], out.reasons


@pytest.mark.parametrize("line", ["    from ast import literal_eval", "    evaluate = evaluator", "    result = eval_expr(text)"])
def test_a_safe_call_or_a_name_like_eval_stays_quiet(line: str) -> None:
    assert not any("another name" in r for r in _said("examples/parse_value.py", [line]).reasons)


def test_a_cors_origin_that_says_yes_to_all_is_high() -> None:
    out = _said("examples/cors.ts", ["  if (handleCors(event, { origin: () => true, credentials: true })) {"],
                ['  if (handleCors(event, { origin: "*" })) {'])
    assert out.risk == "high" and out.reasons[0].startswith("opens CORS to any origin"), out.reasons


@pytest.mark.parametrize("line", ["  origin: (o) => o.endsWith('.example.com'),", "  origin: (o) => trusted.has(o),"])
def test_a_cors_origin_that_checks_stays_quiet(line: str) -> None:
    assert not any("CORS" in r for r in _said("src/cors.ts", [line]).reasons)


def test_an_owner_only_mode_given_others_bit_is_high() -> None:
    out = _said("pkg/storage.py", ["                    stat.S_IRUSR | stat.S_IWUSR | stat.S_IROTH,"],
                ["                    stat.S_IRUSR | stat.S_IWUSR,"])
    assert out.risk == "high" and "owner's alone to other users (S_IROTH put in)" in out.reasons[0], out.reasons


@pytest.mark.parametrize(("old", "new"), [
    ("    mode = S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH", "    mode = S_IRUSR | S_IWUSR | S_IROTH"),  # narrowed
    ("    flags = S_IRUSR | S_IWUSR", "    flags = S_IRUSR | S_IWUSR | S_IROTH | extra"),  # more than the bit changed
])
def test_a_mode_narrowed_or_rewritten_is_not_an_owner_mode_shared(old: str, new: str) -> None:
    assert not any("owner's alone" in r for r in _said("pkg/storage.py", [new], [old]).reasons)


@pytest.mark.parametrize(("line", "skipped"), [
    ("  await t.test('should support `href`', {skip: true}, async function () {", True),
    ("test('reads the file', { skip: 'flaky on CI' }, () => {", True),
    ("test('reads the file', {skip: false}, () => {", False),
    ("it('works', {timeout: 5000}, () => {", False),
])
def test_node_test_s_skip_option_is_a_skip_marker(line: str, skipped: bool) -> None:
    assert bool(SKIP_RE.search(line)) is skipped


def test_a_private_key_made_from_a_literal_is_a_hard_coded_secret() -> None:
    key = "0x8c1f5d29b4e07a63d1c95b7f2e4a086c3d9b51e7f02a4c68b93d7e1f5a2c4086"
    out = _said("src/sign.ts", [f'const sk = PrivateKey.fromHex("{key}");'], ["const sk = new PrivateKey();"])
    assert out.risk == "high" and out.reasons[0].startswith("hard-codes a secret"), out.reasons


@pytest.mark.parametrize("line", ["const sk = PrivateKey.fromHex(process.env.SK);", "const pk = PublicKey.fromHex(\"02ab34cd56ef7890ab12cd34ef5678\");",
                                  "const sk = PrivateKey.fromHex(\"your-private-key-hex-goes-here\");"])
def test_a_key_read_or_a_public_key_literal_stays_quiet(line: str) -> None:
    assert not any("hard-codes" in r for r in _said("src/sign.ts", [line]).reasons)


# Round 54: a setting's strict constant swapped for a lax sibling (blind 76's go-cose: duplicate map keys let through).
@pytest.mark.parametrize(("old", "new"), [
    ("\t\tDupMapKey:   cbor.DupMapKeyEnforcedAPF, // duplicated key not allowed", "\t\tDupMapKey:   cbor.DupMapKeyQuiet, // duplicated key not allowed"),
    ("    parser = Parser(mode=Mode.STRICT)", "    parser = Parser(mode=Mode.LENIENT)"),
    ("  opts.onUnknown = Unknown::Reject;", "  opts.onUnknown = Unknown::Ignore;"),
])
def test_a_strict_setting_swapped_for_a_lax_sibling_is_worth_a_look(old: str, new: str) -> None:
    out = _said("src/decode.go", [new], [old])
    assert out.risk == "medium" and out.reasons[0].startswith("swaps a setting's strict value for a lax one"), out.reasons


@pytest.mark.parametrize(("old", "new"), [
    ("    logger.setLevel(Level.Error)", "    logger.setLevel(Level.Warn)"),  # what is said, not what is let through
    ("    policy = Policy.Allow", "    policy = Policy.Deny"),  # the strict way round
    ("    policy = Policy.Deny", "    policy = Other.Allow"),  # another family
    ("    mode = Mode.STRICT", "    mode = Mode.STRICT_V2"),  # still strict
])
def test_a_log_level_a_tightening_or_another_family_is_no_lax_swap(old: str, new: str) -> None:
    assert not any("lax one" in r for r in _said("src/decode.go", [new], [old]).reasons)


# Round 54: a check over many turned between "each" and "one" (blind 76's nox: the run's summary passing when one session did).
@pytest.mark.parametrize(("path", "old", "new"), [
    ("src/tasks.py", "    if not all(results):", "    if not any(results):"),
    ("src/tasks.js", "  return items.every((x) => x.ok);", "  return items.some((x) => x.ok);"),
    ("lib/tasks.rb", "  if users.all? { |u| u.admin? }", "  if users.any? { |u| u.admin? }"),
    ("src/Tasks.java", "        return checks.stream().allMatch(Check::passed);", "        return checks.stream().anyMatch(Check::passed);"),
])
def test_a_check_over_many_turned_from_each_to_one_is_worth_a_look(path: str, old: str, new: str) -> None:
    out = _said(path, [new], [old])
    assert out.risk == "medium" and out.reasons[0].startswith("turns "), out.reasons
    assert "in a check" in out.reasons[0], out.reasons


@pytest.mark.parametrize(("old", "new"), [
    ("    ok = all(results)", "    ok = all(outcomes)"),  # a rename beside it
    ("    ok = all(results)", "    ok = any(others)"),  # more than the word turned
    ("    return any(x)", "    return any(x) or fallback"),
])
def test_a_rename_or_a_rewrite_is_no_quantifier_turned(old: str, new: str) -> None:
    assert not any("in a check (it now" in r for r in _said("src/tasks.py", [new], [old]).reasons)


# Round 54: a widely used package's name one letter off in tox.ini's deps (blind 76's pyparsing: ``unit: pytset``), read
# as the review reads the file (its lines observed from a real repository, not handed in).
_TOX = "[tox]\nenvlist = py\n\n[testenv]\ndeps =\n    unit: pytest\n    unit: matplotlib\ncommands = pytest {posargs}\n"


def test_a_tox_dependency_renamed_to_a_look_alike_is_high(tmp_path) -> None:
    from reviewed import review_edits
    risk, files = review_edits(tmp_path, {"tox.ini": _TOX.replace("unit: pytest", "unit: pytset")}, before={"tox.ini": _TOX})
    assert risk == "high" and files["tox.ini"].reasons[0] == "renames a dependency to a look-alike (a typo-squat?): pytest → pytset"


@pytest.mark.parametrize(("old", "new"), [
    ("commands = pytest {posargs}", "commands = pytest -x {posargs}"),  # a flag added
    ("envlist = py", "envlist = py,pypy"),
    ("    unit: matplotlib", "    unit: matplotlib-inline"),  # another real package
])
def test_a_tox_file_s_ordinary_edit_is_no_look_alike(tmp_path, old: str, new: str) -> None:
    from reviewed import review_edits
    risk, files = review_edits(tmp_path, {"tox.ini": _TOX.replace(old, new)}, before={"tox.ini": _TOX})
    assert not any("look-alike" in r for r in files["tox.ini"].reasons), files["tox.ini"].reasons


# Round 54: a full read made one read (blind 78's ulid), a write lock made a read lock (blind 77's golang-lru).
@pytest.mark.parametrize(("old", "new", "said"), [
    ("\t_, err = io.ReadFull(m.Reader, entropy)", "\t_, err = m.Reader.Read(entropy)", "reads less than it asks for"),
    ("\tn, err := io.ReadFull(r, buf[:4])", "\tn, err := r.Read(buf[:4])", "reads less than it asks for"),
    ("\tc.lock.Lock()", "\tc.lock.RLock()", "takes a read lock where a write lock stood"),
    ("\tdefer c.lock.Unlock()", "\tdefer c.lock.RUnlock()", "takes a read lock where a write lock stood"),
])
def test_a_full_read_or_a_write_lock_weakened_is_worth_a_look(old: str, new: str, said: str) -> None:
    out = _said("cache/lru.go", [new], [old])
    assert out.risk == "medium" and out.reasons[0].startswith(said), out.reasons


@pytest.mark.parametrize(("old", "new"), [
    ("\tc.lock.RLock()", "\tc.lock.Lock()"),  # the strict way round
    ("\tio.ReadFull(r, b)", "\tio.ReadFull(src, b)"),  # still a full read
    ("\tmu.Lock()", "\tother.RLock()"),  # another lock
])
def test_a_lock_made_stricter_or_a_read_still_full_stays_quiet(old: str, new: str) -> None:
    out = _said("cache/lru.go", [new], [old])
    assert not any(r.startswith(("reads less", "takes a read lock")) for r in out.reasons), out.reasons


# Round 55: Go's example test files are the package's documented usage (blind 77's go-ntlmssp: TLS verification turned
# off in ``examples_test.go``, read as a test's own code and left low).
_EXAMPLE = ('package ntlmssp_test\n\nimport "crypto/tls"\n\nfunc ExampleNegotiator() {\n'
            '\tcfg := &tls.Config{\n\t\tInsecureSkipVerify: true,\n\t}\n\t_ = cfg\n}\n')


@pytest.mark.parametrize("name", ["examples_test.go", "example_test.go", "example_client_test.go", "client_example_test.go"])
def test_tls_turned_off_in_a_go_example_file_is_high(tmp_path, name: str) -> None:
    from reviewed import review_edits
    risk, files = review_edits(tmp_path, {name: _EXAMPLE})
    assert risk == "high" and files[name].reasons[0].startswith("turns TLS verification off"), files[name].reasons


def test_tls_turned_off_in_a_go_test_file_stays_a_test_s_own() -> None:
    from relay.review.path_kinds import path_kind
    assert path_kind("client_test.go") == "test" and path_kind("example/client_test.go") == "test"
