"""relay.review.deciding_tokens (round 32): the floor for an edited pair that turns a deciding token, read in several
languages, with the look-alikes that must stay quiet (the same pair turned the safe way, a rename, a typing or
formatting pass, a comment, a test file)."""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.deciding_tokens import deciding_turned, floor_said_elsewhere
from relay.review.facts import RiskContext
from relay.review.risk import assess


def _said(new: list[str], old: list[str]) -> str:
    return deciding_turned(new, old) or ""


@pytest.mark.parametrize(("new", "old", "kind"), [
    # a comparison or logical operator turned: C, Python, Go, PHP string operator, JS, Kotlin
    (["    if (used >= quota) {"], ["    if (used > quota) {"], "turns a comparison (> → >=)"),
    (["    return left.owner != right.owner"], ["    return left.owner == right.owner"], "turns a comparison (== → !=)"),
    (["\tif n <= len(buf) {"], ["\tif n < len(buf) {"], "turns a comparison (< → <=)"),
    (["        $rule = new Rule('<=', $ceiling);"], ["        $rule = new Rule('<', $ceiling);"], "turns a comparison (< → <=)"),
    (["  const mine = rows.filter((r) => r.team !== me.team);"], ["  const mine = rows.filter((r) => r.team === me.team);"], "turns a comparison (=== → !==)"),
    (["    if (isOpen || isOwner) {"], ["    if (isOpen && isOwner) {"], "turns a logical operator (&& → ||)"),
    # an accumulation made an assignment: JS, Rust, C#
    (["    seen = a[k] ^ b[k];"], ["    seen |= a[k] ^ b[k];"], "makes an accumulation overwrite (|= → =)"),
    (["        total = weights[i];"], ["        total += weights[i];"], "makes an accumulation overwrite (+= → =)"),
    (["            flags = mask.Bits;"], ["            flags &= mask.Bits;"], "makes an accumulation overwrite (&= → =)"),
    # a return value turned or made conditional: Java, C, Ruby
    (["        return true;"], ["        return false;"], "turns a return value (false → true)"),
    (["    return status < 0 ? status : 0;"], ["    return status;"], "makes a return value conditional"),
    (["      exit 0"], ["      exit 1"], "turns a return value (1 → 0)"),
    # a factor in a comparison: Go, Python, TypeScript
    (["\tif age*60 > limit {"], ["\tif age > limit {"], "scales a value in a comparison (*60 put in)"),
    (["    if elapsed < window / 1000:"], ["    if elapsed < window:"], "scales a value in a comparison (/1000 put in)"),
    # a constant swapped for its extreme sibling: Ruby, Python (with a typing pass), Java
    (["      @rounds || LOWEST_ROUNDS"], ["      @rounds || STANDARD_ROUNDS"], "swaps a constant for its LOWEST sibling"),
    (["    level: int = LEVEL_NONE,"], ["    level=LEVEL_STRICT,"], "swaps a constant for its NONE sibling"),
    (["        policy = Policy.ALLOW_ALL;"], ["        policy = Policy.ALLOW_LISTED;"], "swaps a constant for its ALL sibling"),
    (["        var level = Verify.None;"], ["        var level = Verify.Full;"], "swaps a constant for its NONE sibling"),
    # an escaping table's entry made raw: C#, PHP, Elixir
    (["                '>' => \">\","], ["                '>' => \"&gt;\","], "makes an escaping table's entry raw"),
    (["        \"'\" => \"'\","], ["        \"'\" => \"&#39;\","], "makes an escaping table's entry raw"),
    (["    {?<, \"<\"},"], ["    {?<, \"&lt;\"},"], "makes an escaping table's entry raw"),
    # a table value under its comment: PHP, C, Python
    (["        'caption' => 2, // BLOCK_TAG | TEXT_PLAIN"], ["        'caption' => 6, // BLOCK_TAG | TEXT_PLAIN"], "changes a value its comment explains"),
    (["    [TOK_QUOTE] = 0, /* MODE_STRING */"], ["    [TOK_QUOTE] = 4, /* MODE_STRING */"], "changes a value its comment explains"),
    # an append made an overwrite: Python, C, Rust
    (["    with open(journal, 'w') as out:"], ["    with open(journal, 'a') as out:"], "makes an append an overwrite"),
    (["  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);"], ["  fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);"], "makes an append an overwrite"),
    (["    opts.write(true).truncate(true);"], ["    opts.append(true);"], "makes an append an overwrite"),
    # a handler widened to a catch-all: Ruby, Python, Java
    (["    rescue ParseError, StandardError => e"], ["    rescue ParseError => e"], "widens a handler to catch every error (StandardError)"),
    (["    except (KeyError, Exception):"], ["    except KeyError:"], "widens a handler to catch every error (Exception)"),
    (["        } catch (IOException | Throwable e) {"], ["        } catch (IOException e) {"], "widens a handler to catch every error (Throwable)"),
])
def test_a_deciding_token_turned_is_worth_a_look(new: list[str], old: list[str], kind: str) -> None:
    said = _said(new, old)
    assert said.startswith(kind), said
    assert len(said) <= 120 or ": " in said  # the kind leads: the 120-character reason cut keeps it


def test_any_comparison_turn_is_said_either_way() -> None:
    # A comparison turned either way decides again what passes: the floor does not guess the direction.
    assert _said(["    if (used > quota) {"], ["    if (used >= quota) {"]).startswith("turns a comparison (>= → >)")


@pytest.mark.parametrize(("new", "old"), [
    (["    if (a === b) {"], ["    if (a == b) {"]),  # a strictness spelling (a linter's pass)
    (["    if x != y and ready:"], ["    if x <> y and ready:"]),  # the same operator spelled anew
    (["    if (isOpen and isOwner) {"], ["    if (isOpen && isOwner) {"]),  # && spelled `and`
    (["    seen |= a[k] ^ b[k];"], ["    seen = a[k] ^ b[k];"]),  # an accumulation put back
    (["    total += weights[j];"], ["    total += weights[i];"]),  # an operand renamed
    (["        return ok;"], ["        return okay;"]),  # a returned name renamed
    (["    return status;"], ["    return status < 0 ? status : 0;"]),  # the result passed up whole again
    (["\tif age > limitSeconds {"], ["\tif age > limit {"]),  # a rename, no factor
    (["      @rounds || DEFAULT_ROUNDS"], ["      @rounds || MIN_ROUNDS"]),  # the extreme sibling put back
    (["LOWEST_ROUNDS = 4", "      @rounds || LOWEST_ROUNDS"], ["      @rounds || STANDARD_ROUNDS"]),  # a constant the change defines
    (["                '>' => \"&gt;\","], ["                '>' => \">\","]),  # an entity written for the raw character
    (["        'caption' => 2, // BLOCK_TAG | TEXT_PLAIN"], ["        'caption' => 2, // BLOCK_TAG | TEXT_RAW"]),  # the comment edited
    (["        timeout = 30  # seconds"], ["        timeout = 20  # seconds"]),  # a number its comment does not encode
    (["    with open(journal, 'a') as out:"], ["    with open(journal, 'w') as out:"]),  # an overwrite made an append
    (["    rescue ParseError, EncodingError => e"], ["    rescue ParseError => e"]),  # a narrow class added
    (["        } catch (Exception t) {"], ["        } catch (Throwable t) {"]),  # a catch-all narrowed
    (["class LoaderSpec extends AnyFunSpec with Matchers {"], ["class LoaderSpec extends FunSpec with Matchers {"]),  # a class renamed
    (["    level = MinLevel(cfg)"], ["    level = DefaultLevel(cfg)"]),  # a bare PascalCase name is a type, not a constant
    (['\tkey := strings.ReplaceAll(p, "/", "_")'], ['\tkey := strings.Replace(p, "/", "_", -1)']),  # a function for its sibling: a refactor
    (["        return nil"], ["        return false"]),  # a result of another family: a signature changed
    (["    # if (used >= quota) {"], ["    # if (used > quota) {"]),  # a comment
    (["    opslimit: int = OPSLIMIT_INTERACTIVE,"], ["    opslimit=OPSLIMIT_INTERACTIVE,"]),  # a typing pass
    (["    if (used > quota)", "    {"], ["    if (used > quota) {"]),  # a formatter's brace
])
def test_look_alikes_stay_quiet(new: list[str], old: list[str]) -> None:
    assert deciding_turned(new, old) is None


def test_an_error_return_dropped_after_its_log_line_in_a_moved_block() -> None:
    # Go, Python, Java: the block moved, its log line kept, the return after it left behind.
    go_old = ["\tif err := s.open(); err != nil {", '\t\tlog.Errorf("unable to open store: %v", err)', "\t\treturn nil, err", "\t}"]
    go_new = ["\tif err := s.open(); err != nil {", '\t\tlog.Errorf("unable to open store: %v", err)', "\t}"]
    assert _said(go_new, go_old).startswith("drops the error return after its log line")
    py_old = ["    except OSError as err:", '        logger.error("cannot load keys: %s", err)', "        raise"]
    py_new = ["    except OSError as err:", '        logger.error("cannot load keys: %s", err)', "    keys = {}"]
    assert _said(py_new, py_old).startswith("drops the error return after its log line")
    java_old = ["        } catch (IOException e) {", '            LOG.error("could not read " + p, e);', "            throw e;", "        }"]
    java_new = ["        } catch (IOException e) {", '            LOG.error("could not read " + p, e);', "        }"]
    assert _said(java_new, java_old).startswith("drops the error return after its log line")
    # Quiet: the return kept after the moved log line, or a log line that is no failure's.
    assert deciding_turned(go_old[:3] + ["\t}", "\tdone()"], go_old) is None
    assert deciding_turned(['\tlog.Printf("served %d", n)', "\tdone()"], ['\tlog.Printf("served %d", n)', "\treturn nil, err"]) is None


def _change(path: str, new: list[str], old: list[str]) -> FileChange:
    return FileChange(path=path, additions=len(new), deletions=len(old), added_lines=new, removed_lines=old)


def test_the_floor_makes_a_source_file_worth_a_look_and_leaves_tests_and_prose_alone() -> None:
    new, old = ["    if (used >= quota) {"], ["    if (used > quota) {"]
    source = assess(_change("src/quota.c", new, old), RiskContext())
    assert source.risk == "medium" and "deciding_turn" in source.rules
    assert source.reasons[0].startswith("turns a comparison (> → >=): ")
    test = assess(_change("tests/test_quota.c", new, old), RiskContext())
    assert "deciding_turn" not in test.rules
    prose = assess(_change("docs/limits.md", ["Use at least 3 >= 2 workers."], ["Use at least 3 > 2 workers."]), RiskContext())
    assert "deciding_turn" not in prose.rules


def test_a_docs_sample_is_read_as_code() -> None:
    new = ["    for (const part of parts) digest = part.hash;"]
    old = ["    for (const part of parts) digest ^= part.hash;"]
    page = assess(_change("docs/guide.md", new, old), RiskContext())
    assert page.risk == "medium" and page.reasons[0].startswith("makes an accumulation overwrite (^= → =)")


def test_the_floor_is_said_once_when_another_reason_quotes_the_line() -> None:
    floor = "turns a comparison (!= → <=): if ('0' != $parts[1] || '' ==… → if ('0' <= $parts[1] || '' ==…"
    assert floor_said_elsewhere(floor, ["narrows a differs/equals check to an ordering: if ('0' <= $parts[1] || '' === $parts[2]"])
    assert not floor_said_elsewhere(floor, ["changes security-relevant code (credentials: password)"])


def test_a_block_moved_to_another_file_is_read_against_the_lines_it_left() -> None:
    from relay.review.risk import assess_all

    body = [f"    step_{i} = run({i})" for i in range(30)]
    old = [*body[:15], "    if (owner.id === request.user) {", *body[15:]]
    new = [*body[:15], "    if (owner.id !== request.user) {", *body[15:]]
    # Markdown: a README's section made a page of its own, one sample line turned on the way.
    readme = FileChange(path="README.md", deletions=len(old), removed_lines=old)
    page = FileChange(path="docs/usage.md", kind="added", additions=len(new), added_lines=new)
    said = {c.path: c for c in assess_all([readme, page], RiskContext())}
    assert said["docs/usage.md"].risk == "medium" and said["docs/usage.md"].reasons[0].startswith("turns a comparison (=== → !==)")
    # Python: a module split, a default turned to its extreme sibling on the way; the move alone stays quiet.
    src = [f"    x_{i} = load({i})" for i in range(30)]
    left = FileChange(path="pkg/core.py", additions=1, deletions=31, added_lines=["from pkg.keys import derive"],
                      removed_lines=[*src, "    cost = COST_STANDARD"])
    moved = FileChange(path="pkg/keys.py", kind="added", additions=31, added_lines=[*src, "    cost = COST_MIN"])
    assert {c.path: c.risk for c in assess_all([left, moved], RiskContext())}["pkg/keys.py"] == "medium"
    same = FileChange(path="pkg/keys.py", kind="added", additions=31, added_lines=[*src, "    cost = COST_STANDARD"])
    assert "deciding_turn" not in {c.path: c for c in assess_all([left, same], RiskContext())}["pkg/keys.py"].rules


@pytest.mark.parametrize(("path", "line", "fires"), [
    ("docs/release.md", "Put your registry token in `ci/publish.env` and commit it so the release job finds it.", True),
    ("doc/setup.rst", "Write the deploy password into ``settings.ini`` and check it in with the rest of the project.", True),
    ("docs/keys.adoc", "Generate a signing key, save it as `keys/release.asc`, and add it to git so the build can sign.", True),
    ("docs/release.md", "Never commit your registry token; keep it in `~/.npmrc`.", False),
    ("docs/release.md", "Add the token as a repository secret named REGISTRY_TOKEN.", False),
    ("docs/release.md", "Commit the lockfile; the token is read from the environment variable REGISTRY_TOKEN.", False),
    ("docs/release.md", "Each commit is checked by the CI job before the release.", False),
])
def test_a_docs_sentence_telling_to_commit_a_credential(path: str, line: str, fires: bool) -> None:
    from relay.review.file_kinds import rule_lines

    change = rule_lines(_change(path, [line], ["Keep the publishing settings in your home folder."]))
    out = assess(change, RiskContext())
    said = any(r.startswith("tells the reader to commit a credential") for r in out.reasons)
    assert said is fires, out.reasons
    if fires:
        assert out.risk != "low"
