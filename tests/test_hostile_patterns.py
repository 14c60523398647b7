"""The leader's model hands the relay a path pattern built to make matching take forever.

The party: the leader's model (docs/security.md, its first table). A call may always add ``protected`` patterns (a
narrowing), and with no profile name its own ``paths``. The relay matched each changed file against each pattern with
a regular expression made from the glob; repeated ``**/`` or ``*`` made Python's backtracking take exponential time on
a path that does not match (14 of them against a path 25 folders deep: hours), so the run's enforcement never ended
and the call never answered. Real parts: the relay behind the SDK's client in memory, the fake agy as a real
subprocess writing a deep file, a real git repository.
"""

from __future__ import annotations

import anyio
import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario

pytestmark = pytest.mark.anyio

_DEEP = "src/" + "a/" * 25 + "y.py"
_CASES = [
    ("protected", "src/" + "**/" * 14 + "z.py", _DEEP),  # folders: (?:.*/)? fourteen times over
    ("paths", "*a" * 30 + "b", "src/" + "a" * 60 + ".py"),  # a name glob: [^/]*a thirty times over
]


@pytest.mark.parametrize(("field", "pattern", "written"), _CASES, ids=["protected_folders", "paths_name_glob"])
async def test_a_pattern_built_to_backtrack_never_stalls_the_run(tmp_path, repo, field, pattern, written):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": written, "content": "x\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        with anyio.fail_after(60):  # before: hours in the enforcement's match, the call never answered
            packet = payload(await client.call_tool("antigravity_execute", {
                "task": "t", "workspace": str(repo), field: [pattern]}))
    if field == "protected":  # z.py is protected, y.py was written: within the policy
        assert packet["status"] == "SUCCESS", packet
    else:  # the file written is outside the only paths allowed
        assert packet["status"] == "POLICY_VIOLATION", packet
        assert written in packet["error"]["message"], packet


@pytest.mark.parametrize(("field", "patterns", "said"), [
    ("protected", [f"gen{i}/**/*.txt" for i in range(5_000)], "at most 200"),
    ("paths", ["src/" + "x" * 2_000], "at most 1,000 characters"),
], ids=["thousands_of_protected_patterns", "a_pattern_of_two_thousand_characters"])
async def test_a_call_with_thousands_of_patterns_or_a_huge_one_is_refused_naming_the_bound(tmp_path, repo, field,
                                                                                         patterns, said):
    # Before: every pattern was taken; the matcher keeps 4,096 compiled patterns, so 5,000 of them were compiled
    # afresh for each file at each check (100,000 patterns against 50 files: 571 s per pass, measured), and the run's
    # end stalled for as long as the model liked. Now a call names at most 200 patterns a list, each at most 1,000
    # characters: past either, INVALID_INPUT naming the field and the bound, and nothing runs.
    from fake_agy_harness import launches

    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/y.py", "content": "x\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        with anyio.fail_after(60):
            packet = payload(await client.call_tool("antigravity_execute", {
                "task": "t", "workspace": str(repo), field: patterns}))
    assert packet["status"] == "INVALID_INPUT", packet
    assert field in packet["error"]["message"] and said in packet["error"]["message"], packet
    assert launches(agy) == []


def test_the_glob_matcher_and_the_regex_read_every_pattern_alike():
    """A pattern past two runs of ``*`` goes to the matcher that cannot backtrack; below it, to a regex. Both read
    the pattern's one token list, so a pattern means the same on either side of the bound, malformed classes
    (``[!]``, ``[]``) included, and none raises."""
    import random

    from relay.core.path_globs import _Glob, _compiled, _tokens

    rnd = random.Random(36)
    for _ in range(4000):
        pattern = "".join(rnd.choice("ab/.?[]!*") for _ in range(rnd.randint(1, 8)))
        path = "".join(rnd.choice("ab/.[]!") for _ in range(rnd.randint(0, 8)))
        for folders in (True, False):
            glob = _Glob(_tokens(pattern), folders)
            regex = _compiled(pattern, folders)
            assert bool(regex.match(path)) == glob.match(path), (pattern, path, folders)
