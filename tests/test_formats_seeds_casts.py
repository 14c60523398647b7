"""Round 49 (issue 36): six slips the first runs of held-out 69/70 read as nothing, each read as a class.

Whom each guards against: the worker whose slipped line reads as ordinary code — a format-only call given a variable
(-Wformat-security's rule), a key generated from a constant seed, a CI runner's package one letter off the one it ran,
an enum's refusal member turned into its success, a value narrowed by a cast, a decipher's tag check dropped with its
final(). Each near miss beside it stays quiet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess
from relay.review.sample_code import installed_names
from reviewed import review_edits

NO_CTX = RiskContext()


def _said(path: str, added: list[str], removed: list[str] | None = None):
    return assess(fc(path, added, removed or []), NO_CTX)


@pytest.mark.parametrize(("path", "line"), [
    ("src/main.c", "    printf(bar);"),
    ("src/main.cpp", "    std::printf(bar.c_str());"),
    ("src/log.c", "    fprintf(stderr, msg);"),
    ("src/log.c", "    syslog(LOG_ERR, entry->text);"),
    ("src/out.c", "    snprintf(out, sizeof(out), user);"),
    ("cmd/main.go", "\tfmt.Printf(s)"),
])
def test_a_format_only_call_given_a_variable_is_high(path: str, line: str) -> None:
    out = _said(path, [line])
    assert out.risk == "high" and "not a literal as the format string" in out.reasons[0], out.reasons


@pytest.mark.parametrize("line", [
    '    printf("%s", bar);', "    printf(USAGE);", '    printf(_("hello"));', "    vprintf(fmt, ap);", '    printf("\\n");',
    '    fprintf(stderr, "%s\\n", msg);', '\tfmt.Printf("%s", s)', "    printf(Messages::USAGE);",
    # PHP puts the format first: a class constant formatted with a class name (ordinary history, sebastianbergmann/diff).
    "        $errorMessage = sprintf(NarrowReturnObjectTypeRule::ERROR_MESSAGE, SpecificControl::class);",
])
def test_a_literal_format_a_constant_or_a_wrapper_stays_quiet(line: str) -> None:
    out = _said("src/main.c", [line])
    assert not any("format string" in r for r in out.reasons), out.reasons


def test_a_docs_sample_that_prints_a_variable_as_its_format_is_worth_a_look() -> None:
    out = _said("README.md", ["```cpp", "    printf(bar.c_str());", "```"])
    assert out.risk == "medium" and "a docs sample that passes text that is not a literal as the format string" in out.reasons[0]


@pytest.mark.parametrize(("path", "added", "removed", "risk"), [
    ("README.md", ["```ts", "  const { secretKey } = curve.keygen(new Uint8Array(48).fill(1));", "```"],
     ["```ts", "  const { secretKey } = curve.keygen();", "```"], "medium"),
    ("src/keys.rs", ["    let k = SigningKey::generate_key(&[7u8; 32]);"], [], "high"),
    ("src/keys.ts", ["  const k = keygen(Buffer.alloc(32));"], [], "high"),
])
def test_a_key_generated_from_a_constant_seed_is_named(path: str, added: list[str], removed: list[str], risk: str) -> None:
    out = _said(path, added, removed)
    assert out.risk == risk and "makes a key from a constant seed" in out.reasons[0], out.reasons


@pytest.mark.parametrize("line", ["  const { secretKey } = curve.keygen(seed);", "  const { secretKey } = curve.keygen();"])
def test_a_key_generated_from_a_seed_passed_in_stays_quiet(line: str) -> None:
    assert not any("constant seed" in r for r in _said("src/keys.ts", [line]).reasons)


@pytest.mark.parametrize(("line", "names"), [
    ("        run: npx conventional-changlog-cli -p conventionalcommits -i CHANGELOG.md -s", ["conventional-changlog-cli"]),
    ("npx -p @scope/pkg@1 cmd --x", ["@scope/pkg"]),  # a package named by -p; cmd is its program, not a package
    ("uvx --from ruff==0.1 ruff check", ["ruff"]),
    ("  - run: pnpm dlx create-vite my-app", ["create-vite"]),
    ("npm i x && npx y z", ["x", "y"]),  # each command's own names; a runner's arguments are not packages
])
def test_a_runner_names_the_one_package_it_fetches(line: str, names: list[str]) -> None:
    assert installed_names(line) == names


def test_a_ci_runner_s_package_one_letter_off_the_one_it_ran_is_a_look_alike() -> None:
    run = "        run: npx conventional-changelog-cli -p conventionalcommits -i CHANGELOG.md -s"
    out = _said(".github/workflows/release.yml", [run.replace("changelog-cli", "changlog-cli")], [run])
    assert out.risk == "high" and any("installs a look-alike of conventional-changelog-cli" in r for r in out.reasons), out.reasons
    bumped = _said(".github/workflows/release.yml", [run.replace("-cli", "-cli@5")], [run.replace("-cli", "-cli@4")])
    assert not any("look-alike" in r for r in bumped.reasons)


@pytest.mark.parametrize(("old", "new"), [
    ("                    CedarExitCode::AuthorizeDeny", "                    CedarExitCode::Success"),
    ("        return Outcome.AccessDenied;", "        return Outcome.Success;"),
])
def test_an_enum_s_refusal_member_made_its_success_is_named(old: str, new: str) -> None:
    out = _said("src/command/run.rs", [new], [old])
    assert any("turns a failure result into success" in r for r in out.reasons), out.reasons


@pytest.mark.parametrize(("old", "new"), [
    ("        return Kind::Success;", "        return Kind::AuthorizeDeny;"),  # the safe way round
    ("        return Kind::Success;", "        return Kind::Ok;"),  # success for success
])
def test_an_enum_turned_the_safe_way_or_alike_is_not_a_failure_made_success(old: str, new: str) -> None:
    assert not any("failure result into success" in r for r in _said("src/run.rs", [new], [old]).reasons)


_JAVA = "package x;\nclass Instants {\n    static long since(long t) {\n        return Math.subtractExact(now(), t);\n    }\n}\n"


@pytest.mark.parametrize("narrowed", ["return (int) Math", "return (short) Math"])
def test_a_value_narrowed_by_a_cast_keeps_an_otherwise_low_change_from_being_low(tmp_path: Path, narrowed: str) -> None:
    risk, files = review_edits(tmp_path, {"src/Instants.java": _JAVA.replace("return Math", narrowed)},
                               before={"src/Instants.java": _JAVA})
    said = files["src/Instants.java"].reasons
    assert risk == "medium" and narrowed.split(" ", 1)[1] in said[0], said


def test_a_declaration_or_a_widening_is_no_narrowing(tmp_path: Path) -> None:
    risk, _ = review_edits(tmp_path, {"src/Instants.java": _JAVA.replace("return Math.subtractExact(now(), t);",
                                                                           "long d = Math.subtractExact(now(), t);\n        return d;")},
                           before={"src/Instants.java": _JAVA})
    assert risk == "low"


@pytest.mark.parametrize(("path", "old", "new"), [
    ("src/index.ts", "    const decrypted = Buffer.concat([decipher.update(encrypted), decipher.final()]);",
     "    const decrypted = decipher.update(encrypted);"),
    ("src/Dec.java", "        byte[] out = cipher.doFinal(data);", "        byte[] out = cipher.update(data);"),
    ("src/dec.py", "    plain = decryptor.update(data) + decryptor.finalize()", "    plain = decryptor.update(data)"),
])
def test_a_decipher_s_final_dropped_while_it_still_decrypts_is_high(path: str, old: str, new: str) -> None:
    out = _said(path, [new], [old])
    assert out.risk == "high" and "that checks the tag" in out.reasons[0], out.reasons


@pytest.mark.parametrize("new", [
    "    const decrypted = Buffer.concat([decipher.update(body), decipher.final()]);",  # final kept, its input renamed
    "    return decipher;",  # the decipher no longer used here at all: nothing decrypts on this line
])
def test_a_decipher_still_closed_or_no_longer_fed_stays_quiet(new: str) -> None:
    old = "    const decrypted = Buffer.concat([decipher.update(encrypted), decipher.final()]);"
    assert not any("checks the tag" in r for r in _said("src/index.ts", [new], [old]).reasons)


# Round 50: a data file's bound loosened far, in a change otherwise low (blind 71's fail2ban jail.conf).
_JAIL = "[DEFAULT]\nbantime = 10m\nfindtime = 10m\nmaxretry = 5\n"


def test_a_data_file_s_maximum_raised_a_hundredfold_keeps_a_low_change_from_being_low(tmp_path: Path) -> None:
    risk, files = review_edits(tmp_path, {"config/jail.conf": _JAIL.replace("maxretry = 5", "maxretry = 500")},
                               before={"config/jail.conf": _JAIL})
    assert risk == "medium" and files["config/jail.conf"].reasons == ["turns: maxretry = 5 → maxretry = 500"]


@pytest.mark.parametrize(("old", "new"), [
    ("maxretry = 5", "maxretry = 8"),  # a maximum retuned, not tenfold
    ("bantime = 10m", "bantime = 20m"),  # no bound-named number turned
    ("maxretry = 5", "maxretry = 3"),  # tightened
])
def test_a_data_file_s_value_retuned_or_tightened_stays_low(tmp_path: Path, old: str, new: str) -> None:
    risk, _ = review_edits(tmp_path, {"config/jail.conf": _JAIL.replace(old, new)}, before={"config/jail.conf": _JAIL})
    assert risk == "low"


def test_values_retuned_all_over_a_data_file_are_the_work_not_a_slip(tmp_path: Path) -> None:
    before = "".join(f"max_{n} = {i + 1}\n" for i, n in enumerate("abcde"))
    after = "".join(f"max_{n} = {(i + 1) * 100}\n" for i, n in enumerate("abcde"))
    risk, _ = review_edits(tmp_path, {"limits.conf": after}, before={"limits.conf": before})
    assert risk == "low"


# Round 50: a clause put at a condition's end is a turn, not a line wrapped (blind 71's sqlx: `if !ok {` → `if !ok && val != nil {`).
_GO = "package named\n\nfunc bind(arg map[string]any, name string) error {\n\tval, ok := arg[name]\n\tif !ok {\n\t\treturn errMissing\n\t}\n\tuse(val)\n\treturn nil\n}\n"


def test_a_clause_put_at_a_condition_s_end_keeps_an_otherwise_low_change_from_being_low(tmp_path: Path) -> None:
    risk, files = review_edits(tmp_path, {"named.go": _GO.replace("if !ok {", "if !ok && val != nil {")}, before={"named.go": _GO})
    assert risk == "medium" and "if !ok && val != nil" in files["named.go"].reasons[0], files["named.go"].reasons


def test_a_condition_joined_from_two_lines_is_no_turn(tmp_path: Path) -> None:
    before = _GO.replace("\tif !ok {", "\tif !ok &&\n\t\tval == nil {")
    risk, _ = review_edits(tmp_path, {"named.go": _GO.replace("\tif !ok {", "\tif !ok && val == nil {")}, before={"named.go": before})
    assert risk == "low"
