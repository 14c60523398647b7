"""Issue 36, round 82 (blind 115/116's first runs): a verdict read from the wrong thing or not at all, a sign or a status
bound turned, an expiry given a grace period, a publish job no environment gates, a password store's fast hash, PyPI's
unsafe loader.

Whom each guards against: the worker that writes ``!ok && jti != id`` for ``!ok || …`` (ssh3), compares golden data by
length (goldie), removes a listener by a function made on the spot (floating-ui), matches ``Ok(_)`` for ``Ok(true)``
(vapid), reads ``""`` as yes (goldie), swallows a revocation's HTTP error (httpx-oauth), drops ``.endsWith(hash)`` from
a cache check (jiti), turns ``- overflow.bottom`` into ``+`` (floating-ui), refuses statuses from 500 only (pywebpush),
adds 30 days to ``not_after`` (sigstore-rs), leaves ``environment: release`` out of a publish job (yq), sets a password
algorithm to sha256 (permissions2) or PyYAML's loader to ``UnsafeLoader`` (yq). Each loud case was low, named nothing or
left its line out of the view on round 81's rules (8b8fd34); each near miss beside it stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.bound_slips import grace_added, sign_flipped, status_widened
from relay.review.ci_lines import environment_dropped, ungated_publish
from relay.review.file_kinds import rule_lines
from relay.review.risk import RiskContext, assess
from relay.review.verdict_slips import (check_made_presence, empty_made_true, handler_swallows, lengths_only, listener_kept,
                                        missing_and_wrong, verdict_ignored)

__all__: list[str] = []  # a test module exports nothing


def _assessed(path: str, added: list[str], removed: list[str], kind: str = "modified"):
    change = fc(path, added, removed)
    change.kind = kind  # type: ignore[misc]
    return assess(rule_lines(change), RiskContext())


@pytest.mark.parametrize(("path", "added", "removed", "said", "risk"), [
    ("server/server_plugin.go", ['\t\tif jti, ok := claims["jti"]; !ok && jti != base64ConversationID {', "\t\t\treturn false", "\t\t}"], [],
     "refuses only a missing jti that is also wrong (!ok && …", "high"),
    ("assertions.go", ["\tif len(actualData) != len(expectedData) {", '\t\treturn newErrFixtureMismatch("no match")', "\t}"], [],
     "compares only the lengths of actualData and expectedData", "medium"),
    ("src/autoUpdate.ts", ["      ancestor.removeEventListener('scroll', () => update());"], ["      ancestor.removeEventListener('scroll', update);"],
     "removes a listener it never added", "medium"),
    ("rust/vapid/src/lib.rs", ["        Ok(_) => {"], ["        Ok(true) => {"], "accepts any answer of a check (Ok(true) → Ok(_)", "medium"),
    ("v2/goldie.go", ["func truthy(s string) bool {", "\tswitch strings.ToLower(s) {", '\tcase "1", "true", "t", "":', "\t\treturn true"], [],
     "reads an empty (unset) value as yes", "medium"),
    ("config.py", ['    return value.lower() in ("1", "true", "yes", "")'], ['    return value.lower() in ("1", "true", "yes")'],
     "reads an empty (unset) value as yes", "medium"),
    ("httpx_oauth/client.py", ["            except httpx.HTTPStatusError as e:", "                return None  # already revoked",
                               "            except httpx.HTTPError as e:", "                raise RevokeTokenError(str(e)) from e"], [],
     "swallows an error the handler beside it raises (return None)", "medium"),
    ("src/jiti.ts", ["      if (cacheSource) {"], ["      if (cacheSource.endsWith(sourceHash)) {"],
     "checks only that a value is present (its .endsWith(sourceHash) dropped)", "medium"),
    ("src/size.ts", ["    const maximumHeight = height - padding.top + padding.bottom;"],
     ["    const maximumHeight = height - padding.top - padding.bottom;"], "turns a subtraction into an addition (- padding.bottom → + padding.bottom", "medium"),
    ("pywebpush/__init__.py", ["    if not curl and response.status_code >= 500:"], ["    if not curl and response.status_code > 202:"],
     "treats failed responses as success (status_code > 202 → status_code >= 500", "medium"),
    ("src/crypto/certificate.rs", ["    if it > not_after + chrono::Duration::days(30) {"], ["    if it > not_after {"],
     "lets what expired pass for longer (+ chrono::Duration::days(30) past its expiry)", "high"),
    ("app/tokens.py", ["    if now > token.expires_at + timedelta(days=7):"], ["    if now > token.expires_at:"], "lets what expired pass for longer", "high"),
    (".github/workflows/release.yml", ["    runs-on: ubuntu-latest", "    permissions:"], ["    runs-on: ubuntu-latest", "    environment: release", "    permissions:"],
     "drops the job's deployment environment (release: its reviewers and protection rules no longer gate the job)", "high"),
    ("README.md", ["```go", '    userstate.SetPasswordAlgo("sha256") // faster logins', "```"], ["```go", "```"], "hashes passwords with a fast hash", "high"),
    ("app/settings.py", ['PASSWORD_HASHER = "md5"'], ['PASSWORD_HASHER = "argon2"'], "hashes passwords with a fast hash", "high"),
    ("yq/loader.py", ['default_loader: Any = getattr(yaml, "CUnsafeLoader", yaml.UnsafeLoader)'],
     ['default_loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)'], "deserializes untrusted data", "high"),
    ("pywebpush/__init__.py", ['            vapid_claims["exp"] = int(time.time()) + (12 * 60 * 60 * 1000)'],
     ["            vapid_claims['exp'] = int(time.time()) + (12 * 60 * 60)"], "adds a unit conversion on a time compared for expiry (* 1000", "medium"),
])
def test_each_slip_is_named(path: str, added: list[str], removed: list[str], said: str, risk: str) -> None:
    out = _assessed(path, added, removed)
    assert out.risk == risk and any(said in reason for reason in out.reasons), (out.risk, out.reasons)


def test_a_new_publish_job_no_environment_gates_says_so() -> None:
    workflow = ["on:", "  push:", "jobs:", "  publish:", "    runs-on: ubuntu-latest", "    permissions:", "      id-token: write", "    steps:",
                "      - uses: pypa/gh-action-pypi-publish@release/v1"]
    out = _assessed(".github/workflows/release.yml", workflow, [], kind="added")
    assert out.risk == "high" and any("no deployment environment gates the publish" in reason for reason in out.reasons), out.reasons
    gated = workflow[:5] + ["    environment: pypi"] + workflow[5:]
    assert ungated_publish("added", gated) == ""  # an environment named
    assert ungated_publish("modified", workflow) == ""  # an old workflow: environment_dropped reads its edits
    assert ungated_publish("added", [line for line in workflow if "id-token" not in line]) == ""  # no OIDC token to hold


@pytest.mark.parametrize("line", [
    '\t\tif jti, ok := claims["jti"]; !ok || jti != base64ConversationID {',  # the right way
    "\t\tif v, ok := cache[key]; !ok && fallback {",  # the value is not read
])
def test_missing_values_refused_rightly_stay_quiet(line: str) -> None:
    assert missing_and_wrong([line]) is None


@pytest.mark.parametrize("added", [
    ["\tif len(actualData) != len(expectedData) {", "\t\treturn errMismatch", "\t}", "\tif !bytes.Equal(actualData, expectedData) {"],  # compared too
    ["\tif len(a) != len(a) {"],  # one value
    ["    if (list.length !== 0) {"],  # no second value
])
def test_lengths_compared_beside_their_contents_stay_quiet(added: list[str]) -> None:
    assert lengths_only(added) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["      ancestor.removeEventListener('scroll', update);"], []),  # the same function
    (["      const off = () => ancestor.removeEventListener('scroll', update);"], []),  # an arrow around it
])
def test_listeners_removed_rightly_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert listener_kept(added) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["        Ok(true) => {"], ["        Ok(_) => {"]),  # narrowed
    (["        Ok(_) => {"], ["        Ok(false) => {"]),  # false's arm widened: no verdict let through
    (["        Some(_) => handle(x),"], ["        Some(true) => handle(y),"]),  # the arm's body changed too
])
def test_verdict_arms_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert verdict_ignored(added, removed) is None


@pytest.mark.parametrize(("added", "removed"), [
    (['\tcase "1", "true", "t":'], ['\tcase "1", "true", "t", "":']),  # the empty value taken out
    (['    label = choose("yes", "true", "")'], []),  # a call's arguments, no list of yes values
    (['    x = ["true", "false", ""]'], []),  # a list of choices
])
def test_lists_without_a_new_empty_yes_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert empty_made_true(added, removed) is None


@pytest.mark.parametrize("added", [
    ["    except KeyError as e:", "        return None", "    except ValueError as e:", "        log(e)"],  # no sibling raises
    ["    except KeyError as e:", "        raise LookupError(str(e)) from e", "    except ValueError as e:", "        raise"],  # both raise
    ["    except KeyError:", "        return None", "    except ValueError as e:", "        raise Bad(e)"],  # no name bound: a lookup's miss
])
def test_handlers_that_stay_quiet(added: list[str]) -> None:
    assert handler_swallows(added) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["      if (ok) {"], ["      if (cacheSource.endsWith(sourceHash) && ok) {"]),  # the receiver went too
    (["      if (cacheSource && ok) {"], ["      if (cacheSource.endsWith(sourceHash)) {"]),  # a rewrite
    (["      const x = cacheSource;"], ["      const x = cacheSource.endsWith(sourceHash);"]),  # no condition
    (["      if (name) {"], ["      if (name.toLowerCase()) {"]),  # a normaliser, no predicate, and no argument
])
def test_predicates_kept_or_rewritten_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert check_made_presence(added, removed) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["    total = base + offset - 1;"], ["    total = base + offset + 1;"]),  # a number's sign: bound_slips' by-one readers
    (["    width = right - left;"], ["    width = left - right;"]),  # operands swapped, no sign turned
    (["    x = a + b"], ["    x = a - c"]),  # another term
])
def test_signs_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert sign_flipped(added, removed) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["    if response.status_code >= 400:"], ["    if response.status_code >= 500:"]),  # stricter
    (["    if response.status_code > 204:"], ["    if response.status_code > 202:"]),  # within the 2xx
    (["    if response.status_code >= 500:"], ["    if other.status_code > 202:"]),  # another value
])
def test_statuses_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert status_widened(added, removed) is None


@pytest.mark.parametrize(("added", "removed"), [
    (["    if it > not_after {"], ["    if it > not_after + chrono::Duration::days(30) {"]),  # the grace taken out
    (["    if now > started_at + timedelta(days=7):"], ["    if now > started_at:"]),  # no expiry
    (["    deadline = not_after + Duration::days(30);"], ["    deadline = not_after;"]),  # no comparison
])
def test_expiries_that_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert grace_added(added, removed) is None


def test_an_environment_moved_within_the_change_is_no_drop() -> None:
    assert environment_dropped(["    environment:", "      name: release"], ["    environment: release"]) is None


@pytest.mark.parametrize("line", [
    'PASSWORD_HASHER = "argon2"',  # a slow hash
    'checksum_algo = "sha256"',  # no password
    '    hash = hashlib.sha256(password_salt).hexdigest()',  # no setting of an algorithm's name
])
def test_password_settings_that_stay_quiet(line: str) -> None:
    out = _assessed("app/settings.py", [line], [])
    assert not any("fast hash" in reason for reason in out.reasons), out.reasons


@pytest.mark.parametrize(("added", "removed", "said"), [
    (["    errors: result.errors || []"], ["    errors: [error, ...(result.errors || [])]"], "leaves the error out of what it hands on (error dropped"),
    (["    return callback(user)"], ["    return callback(err, user)"], "leaves the error out of what it hands on (err dropped"),
])
def test_an_error_left_out_of_what_a_line_hands_on_is_named(added: list[str], removed: list[str], said: str) -> None:
    from relay.review.verdict_slips import error_left_out
    found = error_left_out(added, removed)
    assert found is not None and found.startswith(said), found


@pytest.mark.parametrize(("added", "removed"), [
    (["    errors: [error, ...(result.errors || [])]"], ["    errors: result.errors || []"]),  # put back
    (["    errors: result.warnings"], ["    errors: [error, ...result.errors]"]),  # another value too
])
def test_lines_that_keep_their_error_stay_quiet(added: list[str], removed: list[str]) -> None:
    from relay.review.verdict_slips import error_left_out
    assert error_left_out(added, removed) is None


def test_a_new_function_given_an_error_it_never_reads_is_named() -> None:
    from relay.review.verdict_slips import error_unread
    fallback = ["function failedKeyAccessFallback (result, error) {", "  return {", "    ...result,", "    errors: result.errors || []", "  }", "}"]
    found = error_unread(fallback)
    assert found is not None and found.startswith("takes an error it never reads (error in failedKeyAccessFallback"), found
    reads = fallback[:3] + ["    errors: [error, ...(result.errors || [])]"] + fallback[4:]
    assert error_unread(reads) is None  # the error read
    assert error_unread(["def handle(request, exc):"] + ["    x = 1"] * 20 + ["    return x"]) is None  # too long to read whole


def test_a_caught_error_renamed_is_no_error_swallowed() -> None:
    # Who: the reader itself: jiti's `catch (_err) { err = _err` → `catch (error) { err = error;` had read as swallowed.
    renamed = _assessed("src/jiti.ts", ["      } catch (error) {", "        err = error;", "    } catch {}"],
                        ["      } catch (_err) {", "        err = _err", "    try { return nativeRequire.resolve(id, options) } catch (e) {}"])
    assert not any("swallows the error it caught" in reason for reason in renamed.reasons), renamed.reasons
    swallowed = _assessed("src/jiti.ts", ["      } catch {}"], ["      } catch (_err) {", "        err = _err"])
    assert any("swallows the error it caught" in reason for reason in swallowed.reasons), swallowed.reasons


# ----- the development run's false readings of rounds 81-82 (37-116 on b3b27da), each kept quiet since
def test_a_go_function_whose_last_parameter_is_typed_error_but_named_otherwise_is_no_unread_error() -> None:
    # uber-go/multierr's `func Every(err error, target error) bool`, smallstep's wrappers: the type was read as the name
    from relay.review.verdict_slips import error_unread
    assert error_unread(["func Every(err error, target error) bool {", "\treturn errors.Is(err, target)", "}"]) is None
    assert error_unread(["func wrapX509svidErr(err error) error {", "\treturn x509svidErr.Wrap(err)", "}"]) is None
    assert error_unread(["func handle(err error) {", '\tlog.Println("done")', "}"]) is not None  # named err, never read


def test_an_empty_default_beside_a_list_of_yes_values_is_no_empty_yes() -> None:
    # pydantic-settings' `os.environ.get(VAR, '').strip().lower() in ('1', 'true', 'yes', 'on')`: the '' is the lookup's
    line = "    return os.environ.get(_DEBUG_ENV_VAR, '').strip().lower() in ('1', 'true', 'yes', 'on')"
    assert empty_made_true([line], []) is None
    assert empty_made_true(["    return value.lower() in ('1', 'true', 'yes', '')"], []) is not None


def test_a_circleci_environment_map_is_no_deployment_environment() -> None:
    # cossacklabs/acra's .circleci/config.yml: `environment:` holds variables there
    assert environment_dropped(["    docker:"], ["    environment:", "      GOPATH: /go"]) is None
    assert environment_dropped(["    runs-on: x"], ["    environment:", "      name: release"]) is not None


def test_a_comment_that_says_a_default_in_words_stays_out_of_the_rules() -> None:
    # ruby/json's "#   defaults to the empty \String" and class-validator's "* … Defaults to true" had been read as code
    kept = rule_lines(fc("lib/json.rb", ["#   defaults to the empty \\String, <tt>''</tt>;", "x = 1"], []))
    assert kept.added_lines == ["x = 1"]
