"""A backslash in a ``paths`` or ``protected`` pattern (relay.core.path_globs).

The party: the worker, using what the person's pattern was read to mean. The relay turned every backslash into a
folder separator on every platform. git reads one as an escape (``.gitignore`` everywhere, pathspecs on POSIX), so a
person protecting ``docs/[draft].md`` the git way, ``docs/\\[draft\\].md``, got a pattern that matched nothing, and
the worker rewrote the file with no violation; read as an escape instead, a Windows habit (``config\\*.json``)
would protect nothing. Outside Windows (where a name may hold a backslash) the pattern is refused naming the way to
write it; on Windows a backslash stays a separator. The fake agy is a real subprocess; the relay is reached through
the SDK client.
"""

from __future__ import annotations

import json
import sys

import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, launches, success_scenario

pytestmark = pytest.mark.anyio


@pytest.mark.skipif(sys.platform == "win32", reason="on Windows a backslash is a folder separator (below)")
async def test_a_protected_pattern_with_a_gits_escape_never_leaves_the_file_it_meant_unprotected(tmp_path):
    # Broke on main: the profile loaded, the run read POLICY_VIOLATION for config/app.json only and docs/[draft].md,
    # which `docs/\[draft\].md` meant, was rewritten without a word.
    repo = make_repo(tmp_path / "project", {"docs/[draft].md": "d\n", "config/app.json": "{}\n"})
    edits = [{"op": "write", "path": "docs/[draft].md", "content": "rewritten\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    profiles = {"lim": {"protected": ["docs/\\[draft\\].md", "config\\*.json"]}}
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))) as client:
        refused = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                          "profile": "lim"}))
    assert refused["status"] == "INVALID_INPUT" and "contains a backslash" in refused["error"]["message"], refused
    assert "[[]" in refused["error"]["message"] and launches(agy) == []  # the way to write it; nothing ran
    assert (repo / "docs/[draft].md").read_text(encoding="utf-8") == "d\n"
    # The call's own pattern is refused the same way, and the form the message names protects the file.
    async with memory_relay(relay_env(tmp_path / "data2", agy)) as client:
        asked = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                        "protected": ["docs\\secret"]}))
        kept = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                       "protected": ["docs/[[]draft].md"]}))
    assert asked["status"] == "INVALID_INPUT" and "contains a backslash" in asked["error"]["message"], asked
    assert kept["status"] == "POLICY_VIOLATION" and "docs/[draft].md" in kept["error"]["message"], kept


def test_on_windows_a_backslash_in_a_pattern_is_a_folder_separator(monkeypatch):
    from relay.core.path_globs import path_matches, pattern_problem

    monkeypatch.setattr(sys, "platform", "win32")
    assert pattern_problem("config\\*.json") is None
    assert path_matches("config/app.json", "config\\*.json") and path_matches("src/a/b.py", ".\\src\\")
