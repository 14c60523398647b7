"""``gravity-relay setup``: real config files in a temp HOME, edited by the real command."""

from __future__ import annotations

import itertools
import json
import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import cli_main
from relay.setup.clients import (
    CLIENTS,
    SetupError,
    desired_entry,
    is_relay_entry,
    plan_install,
    relay_command,
    toml_remove_table,
    toml_set_table,
    toml_value,
)

KEY = ("mcp_servers", "antigravity")


def run_cli(*args: str, home: Path, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env.update({"HOME": str(home), "GRAVITY_RELAY_DATA_DIR": str(home / "relay-data")})
    env.update(extra or {})
    # cli.main in process (conftest.cli_main): these tests are about what setup writes and prints.
    return cli_main(list(args), env)


CODEX_TOML = """\
# My Codex settings (this comment must survive)
model = "gpt-5"  # trailing comment
approval_policy = "on-request"

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
env = { GITHUB_TOKEN = "ghp_xxx" }

# the filesystem server, kept on purpose
[mcp_servers.fs]
command = "mcp-fs"
args = [
  "--root",
  "/home/me",  # an inline comment inside an array
]

[profiles.fast]
model = "o4-mini"
"""

CLAUDE_JSON = {
    "numStartups": 42,
    "theme": "dark",
    "projects": {"/home/me/app": {"allowedTools": [], "mcpServers": {}}},
    "mcpServers": {"github": {"type": "stdio", "command": "npx", "args": ["-y", "server-github"], "env": {}}},
    "oauthAccount": {"emailAddress": "me@example.com"},
}


def make_home(tmp_path: Path, *clients: str) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    for name in clients:
        if name == "codex":
            (home / ".codex").mkdir()
            (home / ".codex" / "config.toml").write_text(CODEX_TOML, encoding="utf-8")
        elif name == "claude":
            (home / ".claude").mkdir()
            (home / ".claude.json").write_text(json.dumps(CLAUDE_JSON, indent=2) + "\n", encoding="utf-8")
            (home / ".claude.json").chmod(0o600)
        elif name == "cursor":
            (home / ".cursor").mkdir()
            (home / ".cursor" / "mcp.json").write_text(
                json.dumps({"mcpServers": {"linear": {"url": "https://mcp.linear.app/sse"}}}, indent=4) + "\n", encoding="utf-8")
        elif name == "gemini":
            (home / ".gemini").mkdir()
            (home / ".gemini" / "settings.json").write_text(json.dumps({"theme": "GitHub"}, indent=2) + "\n", encoding="utf-8")
        elif name == "antigravity":
            (home / ".gemini" / "config").mkdir(parents=True)
        elif name == "windsurf":
            (home / ".codeium" / "windsurf").mkdir(parents=True)
    return home


def actions(stdout: str, file: str = "") -> dict[str, str]:
    """client -> the verb setup printed for its server entry (first two words of its first line),
    or for the line about ``file`` when given (Claude Code has a second file: its allow rules)."""
    rows: dict[str, str] = {}
    for line in stdout.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in CLIENTS and (file in line if file else words[0] not in rows):
            rows[words[0]] = words[1] if words[1] != "would" else f"would {words[2]}"
    return rows


def snapshot(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


# --------------------------------------------------------------------------- the TOML table editor


def test_toml_set_table_appends_the_table_and_keeps_every_other_byte():
    entry = desired_entry("codex", "/opt/gr/bin/gravity-relay")
    new = toml_set_table(CODEX_TOML, KEY, entry)
    assert new.startswith(CODEX_TOML)
    assert tomllib.loads(new)["mcp_servers"]["antigravity"] == entry
    assert new[len(CODEX_TOML):] == (  # one blank line, then the table
        "\n[mcp_servers.antigravity]\n"
        'command = "/opt/gr/bin/gravity-relay"\n'
        'args = ["serve"]\n'
        "required = true\n"
        "startup_timeout_sec = 60\n"
        "tool_timeout_sec = 7200\n"
        'default_tools_approval_mode = "approve"\n'
    )


def test_toml_set_table_replaces_only_the_relay_table_keeping_the_comments_around_it():
    text = (
        "# top\n"
        "[mcp_servers.antigravity]  # ours\n"
        'command = "/old/gravity-relay"\n'
        'args = ["serve"]\n'
        "\n"
        "# describes the next server: must stay\n"
        "[mcp_servers.other]\n"
        'command = "x"\n'
    )
    new = toml_set_table(text, KEY, desired_entry("codex", "/new/gravity-relay"))
    assert new == (
        "# top\n"
        "[mcp_servers.antigravity]  # ours\n"
        'command = "/new/gravity-relay"\n'
        'args = ["serve"]\n'
        "required = true\n"
        "startup_timeout_sec = 60\n"
        "tool_timeout_sec = 7200\n"
        'default_tools_approval_mode = "approve"\n'
        "\n"
        "# describes the next server: must stay\n"
        "[mcp_servers.other]\n"
        'command = "x"\n'
    )


def test_toml_set_table_is_not_fooled_by_header_lookalikes_in_strings_and_arrays():
    text = (
        'banner = """\n'
        "[mcp_servers.antigravity]\n"
        'command = "inside a string"\n'
        '"""\n'
        "literal = '''\n"
        "[mcp_servers.antigravity]\n"
        "'''\n"
        "matrix = [\n"
        "[1, 2],\n"
        "[mcp_servers],\n"  # not valid as a value, but it never gets that far: see below
        "]\n"
    ).replace("[mcp_servers],\n", '["a"],\n')
    new = toml_set_table(text, KEY, desired_entry("codex", "/x/gravity-relay"))
    doc = tomllib.loads(new)
    assert doc["banner"] == "[mcp_servers.antigravity]\ncommand = \"inside a string\"\n"
    assert doc["matrix"] == [[1, 2], ["a"]]
    assert doc["mcp_servers"]["antigravity"]["command"] == "/x/gravity-relay"


def test_toml_set_table_understands_quoted_and_spaced_header_keys():
    text = '[ mcp_servers . "antigravity" ]\ncommand = "/old/gravity-relay"\n\n[ "mcp_servers".keep ]\ncommand = "k"\n'
    new = toml_set_table(text, KEY, desired_entry("codex", "/new/gravity-relay"))
    doc = tomllib.loads(new)
    assert doc["mcp_servers"]["antigravity"]["command"] == "/new/gravity-relay"
    assert doc["mcp_servers"]["keep"] == {"command": "k"}
    assert new.count("antigravity") == 1


def test_toml_set_table_folds_a_separate_env_subtable_into_the_new_table():
    text = (
        "[mcp_servers.antigravity]\n"
        'command = "/old/gravity-relay"\n'
        "\n"
        "[mcp_servers.other]\n"
        'command = "o"\n'
        "\n"
        "[mcp_servers.antigravity.env]\n"
        'OLD = "1"\n'
    )
    entry = desired_entry("codex", "/new/gravity-relay", {"NEW": "2"})
    new = toml_set_table(text, KEY, entry)
    doc = tomllib.loads(new)
    assert doc["mcp_servers"]["antigravity"] == entry
    assert doc["mcp_servers"]["other"] == {"command": "o"}
    assert "[mcp_servers.antigravity.env]" not in new


def test_toml_set_table_edits_an_inline_definition_in_place():
    # tomlkit edits what the old table-level editor refused: the entry stays where and how it was written.
    text = '[mcp_servers]\nantigravity = { command = "/x/gravity-relay", args = ["serve"] }  # mine\nother = 1\n'
    entry = desired_entry("codex", "/y/gravity-relay", {"A": "1"})
    new = toml_set_table(text, KEY, entry)
    assert tomllib.loads(new)["mcp_servers"] == {"antigravity": entry, "other": 1}
    assert new.startswith("[mcp_servers]\nantigravity = {") and "# mine\nother = 1\n" in new
    assert toml_remove_table(new, KEY) == "[mcp_servers]\nother = 1\n"


def test_toml_set_table_places_the_table_inside_an_inline_parent():
    text = 'mcp_servers = { other = { command = "o" } }\n'
    entry = desired_entry("codex", "/y/gravity-relay")
    new = toml_set_table(text, KEY, entry)
    assert tomllib.loads(new)["mcp_servers"] == {"other": {"command": "o"}, "antigravity": entry}
    assert toml_remove_table(new, KEY) == text


def test_toml_set_table_refuses_an_array_of_tables_rather_than_guess():
    text = '[[mcp_servers.antigravity]]\ncommand = "/x/gravity-relay"\n'
    with pytest.raises(SetupError, match="edit it by hand"):
        toml_set_table(text, KEY, desired_entry("codex", "/y/gravity-relay"))
    with pytest.raises(SetupError, match="edit it by hand"):
        toml_remove_table(text, KEY)


def test_toml_set_table_refuses_invalid_toml_and_changes_nothing():
    with pytest.raises(SetupError, match="not valid TOML"):
        toml_set_table("model = \n", KEY, desired_entry("codex", "/y/gravity-relay"))


def test_toml_remove_table_leaves_other_servers_and_comments_untouched():
    added = toml_set_table(CODEX_TOML, KEY, desired_entry("codex", "/x/gravity-relay", {"A": "1"}))
    assert toml_remove_table(added, KEY) == CODEX_TOML


def test_toml_remove_table_in_the_middle_keeps_the_following_comment():
    text = (
        "a = 1\n"
        "\n"
        "[mcp_servers.antigravity]\n"
        'command = "/x/gravity-relay"\n'
        "\n"
        "# other server\n"
        "[mcp_servers.other]\n"
        'command = "o"\n'
    )
    assert toml_remove_table(text, KEY) == 'a = 1\n\n# other server\n[mcp_servers.other]\ncommand = "o"\n'


def test_toml_set_table_keeps_crlf_line_endings():
    text = CODEX_TOML.replace("\n", "\r\n")
    new = toml_set_table(text, KEY, desired_entry("codex", "/x/gravity-relay"))
    assert new.startswith(text)
    assert "\n" not in new.replace("\r\n", "")
    assert toml_remove_table(new, KEY) == text


def test_toml_set_table_updates_a_crlf_table_in_place_with_crlf_lines():
    text = '# mine\r\n[mcp_servers.antigravity]  # ours\r\ncommand = "/old/gravity-relay"\r\nenabled = true\r\n\r\n[x]\r\ny = 1\r\n'
    new = toml_set_table(text, KEY, {"command": "/new/gravity-relay", "enabled": True, "required": True})
    assert "\n" not in new.replace("\r\n", "")
    assert new == ('# mine\r\n[mcp_servers.antigravity]  # ours\r\ncommand = "/new/gravity-relay"\r\nenabled = true\r\n'
                   'required = true\r\n\r\n[x]\r\ny = 1\r\n')


def test_toml_set_table_handles_a_file_without_a_final_newline_and_an_empty_file():
    new = toml_set_table('model = "o3"', KEY, desired_entry("codex", "/x/gravity-relay"))
    assert tomllib.loads(new)["model"] == "o3"
    assert new.startswith('model = "o3"\n\n[mcp_servers.antigravity]\n')
    empty = toml_set_table("", KEY, desired_entry("codex", "/x/gravity-relay"))
    assert empty.startswith("[mcp_servers.antigravity]\n")
    assert toml_remove_table(empty, KEY) == ""


_FRAGMENTS = [
    "# a comment\n",
    'title = "x"\n',
    "\n",
    '[mcp_servers.a]\ncommand = "a"  # c\n',
    "[mcp_servers.antigravity]\ncommand = '/old/gravity-relay'\nargs = [\n  \"serve\",\n]\n",
    '[[plugins]]\nname = "p1"\n',
    'text = """\n[not.a.header]\n\\"""\n"""\n',
    "[profiles.x]\nmodel = 'y'\n",
    "[mcp_servers.antigravity.env]\nK = \"v\"\n",
    'weird = "a # not a comment [x]"\n',
    "arr = [\n  [1],\n  { a = 1 },\n]\n",
]


def _valid_docs():
    # Every fragment alone and every ordered pair (what precedes and follows the table is what an
    # editor gets wrong), then every third ordered triple: about 450 documents. All 1,111 took
    # ~2.5 s of the suite; tomlkit does the edit now, so the sample checks our use of it, not a
    # hand-written parser, and still puts each fragment before, between and after the others.
    for size in (1, 2, 3):
        for n, combo in enumerate(itertools.permutations(range(len(_FRAGMENTS)), size)):
            if size == 3 and n % 3:
                continue
            text = "".join(_FRAGMENTS[i] for i in combo)
            try:
                tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                continue
            yield text


def test_toml_table_editor_round_trips_hundreds_of_generated_documents():
    entry = desired_entry("codex", "/new path/with \"quotes\"/gravity-relay", {"K": "v"})
    checked = 0
    for text in _valid_docs():
        before = tomllib.loads(text)
        new = toml_set_table(text, KEY, entry)  # raises if the reparse proof fails
        after = tomllib.loads(new)
        assert after["mcp_servers"]["antigravity"] == entry
        rest_after = {k: v for k, v in after.items() if k != "mcp_servers"}
        assert rest_after == {k: v for k, v in before.items() if k != "mcp_servers"}
        removed = toml_remove_table(new, KEY)
        assert "antigravity" not in tomllib.loads(removed).get("mcp_servers", {})
        if "antigravity" not in text:
            assert removed == text  # add then remove gives back the very same bytes
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("value", [
    "plain", 'with "quotes"', "back\\slash", "C:\\Program Files\\gr\\gravity-relay.exe", "tab\there",
    "new\nline", "ünïcødé ✓", "\x00\x1f\x7f", "", "#not a comment", "[brackets]",
])
def test_toml_value_writes_strings_that_read_back_identically(value):
    assert tomllib.loads(f"k = {toml_value(value)}\n")["k"] == value
    assert tomllib.loads(f"t = {toml_value({'a b': value, 'n': 1, 'f': 1.5, 'b': True, 'l': [value]})}\n")["t"] == {
        "a b": value, "n": 1, "f": 1.5, "b": True, "l": [value]}


# --------------------------------------------------------------------------- ownership and command


def test_is_relay_entry_knows_the_console_script_and_python_dash_m_relay():
    assert is_relay_entry({"command": "/home/u/.local/bin/gravity-relay", "args": ["serve"]})
    assert is_relay_entry({"command": "C:\\Users\\u\\gravity-relay.exe"})
    assert is_relay_entry({"command": "/usr/bin/python3", "args": ["-m", "relay", "serve"]})
    assert not is_relay_entry({"command": "npx", "args": ["antigravity-mcp"]})
    assert not is_relay_entry("not a table")


def test_relay_command_is_the_console_script_never_an_interpreter():
    script = Path(sys.executable).parent / "gravity-relay"
    if not script.exists():
        pytest.skip("the package is not installed with its console script in this interpreter")
    command = relay_command()
    assert os.path.isabs(command)
    assert Path(command).name == "gravity-relay"
    assert os.path.realpath(command) == os.path.realpath(script)
    assert "python" not in Path(command).name


# --------------------------------------------------------------------------- the real command


def test_setup_registers_each_found_client_in_its_own_format(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude", "cursor", "gemini", "windsurf")
    got = run_cli("setup", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    codex = tomllib.loads((home / ".codex/config.toml").read_text(encoding="utf-8"))["mcp_servers"]["antigravity"]
    # The data dir run_cli exports is a relay setting: carried into Codex's env, which Codex needs.
    assert codex == {"command": str(fake_script), "args": ["serve"], "required": True, "startup_timeout_sec": 60,
                     "tool_timeout_sec": 7200, "default_tools_approval_mode": "approve",
                     "env": {"GRAVITY_RELAY_DATA_DIR": str(home / "relay-data")}}
    claude = json.loads((home / ".claude.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert claude == {"type": "stdio", "command": str(fake_script), "args": ["serve"]}
    allow = json.loads((home / ".claude/settings.json").read_text(encoding="utf-8"))["permissions"]["allow"]
    assert allow == ["mcp__antigravity__antigravity_execute", "mcp__antigravity__antigravity_continue",
                     "mcp__antigravity__antigravity_get_result", "mcp__antigravity__antigravity_cancel"]
    cursor = json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    # Cursor and Windsurf cut a tool call at about 60 s: their relay answers RUNNING at 45 s (issue 9).
    assert cursor == {"command": str(fake_script), "args": ["serve"], "env": {"GRAVITY_RELAY_WAIT_SECONDS": "45"}}
    gemini = json.loads((home / ".gemini/settings.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert gemini == {"command": str(fake_script), "args": ["serve"], "timeout": 7_200_000, "trust": True}
    windsurf = json.loads((home / ".codeium/windsurf/mcp_config.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert windsurf == {"command": str(fake_script), "args": ["serve"], "env": {"GRAVITY_RELAY_WAIT_SECONDS": "45"}}
    assert not (home / ".gemini/config/mcp_config.json").exists()
    assert actions(got.stdout) == {"codex": "added", "claude": "added", "cursor": "added", "gemini": "added",
                                   "antigravity": "skipped", "windsurf": "added", "claude-desktop": "skipped"}


def test_setup_keeps_other_servers_comments_and_keys_in_every_file(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude", "cursor")
    got = run_cli("setup", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    codex_text = (home / ".codex/config.toml").read_text(encoding="utf-8")
    assert codex_text.startswith(CODEX_TOML)  # every byte of the original, comments included
    codex = tomllib.loads(codex_text)
    assert codex["mcp_servers"]["github"]["env"] == {"GITHUB_TOKEN": "ghp_xxx"}
    assert codex["profiles"]["fast"]["model"] == "o4-mini"
    claude = json.loads((home / ".claude.json").read_text(encoding="utf-8"))
    assert {k: v for k, v in claude.items() if k != "mcpServers"} == {
        k: v for k, v in CLAUDE_JSON.items() if k != "mcpServers"}
    assert claude["mcpServers"]["github"] == CLAUDE_JSON["mcpServers"]["github"]
    assert list(claude) == list(CLAUDE_JSON)  # key order kept
    cursor = json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8"))
    assert cursor["mcpServers"]["linear"] == {"url": "https://mcp.linear.app/sse"}


def test_setup_keeps_json_indentation_and_file_mode(tmp_path, fake_script):
    home = make_home(tmp_path, "claude", "cursor")
    run_cli("setup", "--command", str(fake_script), home=home)
    assert stat.S_IMODE((home / ".claude.json").stat().st_mode) == 0o600
    cursor = (home / ".cursor/mcp.json").read_text(encoding="utf-8")
    assert cursor.splitlines()[1].startswith('    "mcpServers"')  # the file's own 4-space indent
    assert cursor.endswith("}\n")


def test_setup_second_run_changes_nothing_and_says_so(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude", "cursor", "gemini")
    first = run_cli("setup", "--command", str(fake_script), "--env", "GRAVITY_RELAY_DEFAULT_PROFILE=web", home=home)
    assert first.returncode == 0, first.stderr
    before = snapshot(home)
    second = run_cli("setup", "--command", str(fake_script), "--env", "GRAVITY_RELAY_DEFAULT_PROFILE=web", home=home)
    assert second.returncode == 0, second.stderr
    assert snapshot(home) == before  # no rewrite, no new backup
    assert "Nothing to change" in second.stdout
    assert [v for v in actions(second.stdout).values() if v != "skipped"] == ["unchanged"] * 4


def test_setup_backs_up_each_file_it_changes_with_a_timestamp(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude")
    original = (home / ".codex/config.toml").read_bytes()
    run_cli("setup", "--command", str(fake_script), home=home)
    backups = sorted((home / ".codex").glob("config.toml.bak-*"))
    assert len(backups) == 1
    assert backups[0].read_bytes() == original
    assert len(list(home.glob(".claude.json.bak-*"))) == 1


def test_setup_dry_run_prints_the_diff_and_writes_nothing(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "cursor")
    before = snapshot(home)
    got = run_cli("setup", "--dry-run", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    assert snapshot(home) == before
    assert actions(got.stdout)["codex"] == "would add" and actions(got.stdout)["cursor"] == "would add"
    assert "+[mcp_servers.antigravity]" in got.stdout
    assert f'+command = "{fake_script}"' in got.stdout
    assert "nothing was written" in got.stdout


def test_setup_uninstall_removes_only_the_relay_entry(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude", "cursor")
    run_cli("setup", "--command", str(fake_script), home=home)
    got = run_cli("setup", "--uninstall", home=home)
    assert got.returncode == 0, got.stderr
    assert (home / ".codex/config.toml").read_text(encoding="utf-8") == CODEX_TOML
    claude = json.loads((home / ".claude.json").read_text(encoding="utf-8"))
    assert claude["mcpServers"] == CLAUDE_JSON["mcpServers"]
    cursor = json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8"))
    assert cursor["mcpServers"] == {"linear": {"url": "https://mcp.linear.app/sse"}}
    assert actions(got.stdout) == {"codex": "removed", "claude": "removed", "cursor": "removed",
                                   "gemini": "absent", "antigravity": "absent", "windsurf": "absent", "claude-desktop": "absent"}
    again = run_cli("setup", "--uninstall", home=home)
    assert "Nothing to change" in again.stdout


def test_setup_leaves_a_foreign_antigravity_entry_alone_unless_forced(tmp_path, fake_script):
    home = make_home(tmp_path, "cursor")
    foreign = {"mcpServers": {"antigravity": {"command": "npx", "args": ["-y", "antigravity-cli-mcp-slim"]}}}
    (home / ".cursor/mcp.json").write_text(json.dumps(foreign), encoding="utf-8")
    got = run_cli("setup", "--command", str(fake_script), home=home)
    assert got.returncode == 1
    assert "not Gravity Relay" in got.stdout and "--force" in got.stdout
    assert json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8")) == foreign
    removed = run_cli("setup", "--uninstall", home=home)
    assert json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8")) == foreign
    assert removed.returncode == 1
    forced = run_cli("setup", "--force", "--command", str(fake_script), home=home)
    assert forced.returncode == 0, forced.stdout
    entry = json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert entry == {"command": str(fake_script), "args": ["serve"], "env": {"GRAVITY_RELAY_WAIT_SECONDS": "45"}}


def test_setup_skips_antigravity_unless_named_and_warns_when_named(tmp_path, fake_script):
    home = make_home(tmp_path, "antigravity")
    got = run_cli("setup", "--command", str(fake_script), home=home)
    assert not (home / ".gemini/config/mcp_config.json").exists()
    assert "--client antigravity" in got.stdout
    named = run_cli("setup", "--client", "antigravity", "--command", str(fake_script), home=home)
    assert named.returncode == 0, named.stderr
    entry = json.loads((home / ".gemini/config/mcp_config.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert entry["command"] == str(fake_script)
    assert "headless runs load this same file" in named.stdout


def test_setup_client_option_limits_the_edit_to_the_named_clients(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude", "cursor")
    got = run_cli("setup", "--client", "cursor", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    assert "antigravity" in (home / ".cursor/mcp.json").read_text(encoding="utf-8")
    assert (home / ".codex/config.toml").read_text(encoding="utf-8") == CODEX_TOML
    assert "antigravity" not in (home / ".claude.json").read_text(encoding="utf-8")
    assert set(actions(got.stdout)) == {"cursor"}


def test_setup_registers_env_values_and_keeps_them_on_a_later_run_without_env(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude")
    run_cli("setup", "--command", str(fake_script), "--env", "GRAVITY_RELAY_DEFAULT_PROFILE=web",
            "--env", "GRAVITY_RELAY_DATA_DIR=/data/with space", home=home)
    codex = tomllib.loads((home / ".codex/config.toml").read_text(encoding="utf-8"))["mcp_servers"]["antigravity"]
    assert codex["env"] == {"GRAVITY_RELAY_DEFAULT_PROFILE": "web", "GRAVITY_RELAY_DATA_DIR": "/data/with space"}
    claude = json.loads((home / ".claude.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert claude["env"]["GRAVITY_RELAY_DEFAULT_PROFILE"] == "web"
    # Same shell settings as before (run_cli exports a data dir of its own): nothing to change.
    again = run_cli("setup", "--command", str(fake_script), home=home,
                    extra={"GRAVITY_RELAY_DATA_DIR": "/data/with space"})
    assert "Nothing to change" in again.stdout, again.stdout


def test_setup_updates_a_stale_relay_command_and_keeps_keys_the_user_added(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "cursor")
    old = {"command": "/old/venv/bin/gravity-relay", "args": ["serve"], "disabled": False}
    (home / ".cursor/mcp.json").write_text(json.dumps({"mcpServers": {"antigravity": old}}, indent=2) + "\n", encoding="utf-8")
    codex_old = CODEX_TOML + '\n[mcp_servers.antigravity]\ncommand = "/old/venv/bin/gravity-relay"\nenabled = true\n'
    (home / ".codex/config.toml").write_text(codex_old, encoding="utf-8")
    got = run_cli("setup", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    assert actions(got.stdout)["codex"] == "updated" and actions(got.stdout)["cursor"] == "updated"
    cursor = json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert cursor == {"command": str(fake_script), "args": ["serve"], "disabled": False, "env": {"GRAVITY_RELAY_WAIT_SECONDS": "45"}}
    text = (home / ".codex/config.toml").read_text(encoding="utf-8")
    assert text.startswith(CODEX_TOML)
    codex = tomllib.loads(text)["mcp_servers"]["antigravity"]
    assert codex["command"] == str(fake_script) and codex["enabled"] is True


def test_setup_refuses_json_with_comments_and_leaves_the_file_untouched(tmp_path, fake_script):
    home = make_home(tmp_path, "gemini")
    jsonc = '{\n  // my settings\n  "theme": "GitHub"\n}\n'
    (home / ".gemini/settings.json").write_text(jsonc, encoding="utf-8")
    got = run_cli("setup", "--command", str(fake_script), home=home)
    assert got.returncode == 1
    assert "comments are not supported" in got.stdout
    assert (home / ".gemini/settings.json").read_text(encoding="utf-8") == jsonc
    assert not list((home / ".gemini").glob("settings.json.bak-*"))


def test_setup_names_a_client_with_no_config_dir_by_creating_its_file(tmp_path, fake_script):
    home = make_home(tmp_path)
    got = run_cli("setup", "--client", "windsurf", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    doc = json.loads((home / ".codeium/windsurf/mcp_config.json").read_text(encoding="utf-8"))
    assert doc == {"mcpServers": {"antigravity": {"command": str(fake_script), "args": ["serve"], "env": {"GRAVITY_RELAY_WAIT_SECONDS": "45"}}}}


def test_setup_json_output_describes_each_client(tmp_path, fake_script):
    home = make_home(tmp_path, "codex")
    got = run_cli("setup", "--json", "--dry-run", "--command", str(fake_script), home=home)
    doc = json.loads(got.stdout)
    assert doc["dry_run"] is True and doc["command"] == str(fake_script)
    rows = {row["client"]: row for row in doc["clients"]}
    assert set(rows) == set(CLIENTS)
    assert rows["codex"]["action"] == "add" and rows["codex"]["changed"] is True
    assert "+[mcp_servers.antigravity]" in rows["codex"]["diff"]
    assert rows["cursor"]["action"] == "skip"


def test_setup_without_a_command_registers_this_installations_script(tmp_path):
    script = Path(sys.executable).parent / "gravity-relay"
    if not script.exists():
        pytest.skip("the package is not installed with its console script in this interpreter")
    home = make_home(tmp_path, "cursor")
    got = run_cli("setup", home=home)
    assert got.returncode == 0, got.stderr
    entry = json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert os.path.realpath(entry["command"]) == os.path.realpath(script)


def test_setup_plan_reports_unreadable_toml_instead_of_overwriting(tmp_path, fake_script):
    home = make_home(tmp_path, "codex")
    (home / ".codex/config.toml").write_text("model = \n", encoding="utf-8")
    plan = plan_install("codex", home, str(fake_script))
    assert plan.action == "refuse" and "not valid TOML" in plan.message
    assert not plan.writes


# --------------------------------------------------------------------------- headless entries


RULES = ["mcp__antigravity__antigravity_execute", "mcp__antigravity__antigravity_continue",
         "mcp__antigravity__antigravity_get_result", "mcp__antigravity__antigravity_cancel"]


def test_setup_tool_names_are_the_servers_own():
    from relay.doors.mcp_server import tool_definitions
    from relay.setup.clients import CLAUDE_ALLOW_RULES, TOOL_NAMES

    assert list(TOOL_NAMES) == [t.name for t in tool_definitions()]
    assert list(CLAUDE_ALLOW_RULES) == RULES


def test_setup_carries_exported_relay_settings_into_codex_only_and_says_so(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "gemini")
    got = run_cli("setup", "--command", str(fake_script), home=home,
                  extra={"AGY_BIN": "/opt/agy/bin/agy", "GRAVITY_RELAY_DEFAULT_PROFILE": "web",
                         "GRAVITY_RELAY_WORKER_RUN": "r-1", "UNRELATED": "x"})
    assert got.returncode == 0, got.stderr
    codex = tomllib.loads((home / ".codex/config.toml").read_text(encoding="utf-8"))["mcp_servers"]["antigravity"]
    assert codex["env"] == {"AGY_BIN": "/opt/agy/bin/agy", "GRAVITY_RELAY_DATA_DIR": str(home / "relay-data"),
                            "GRAVITY_RELAY_DEFAULT_PROFILE": "web"}
    gemini = json.loads((home / ".gemini/settings.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert "env" not in gemini  # Gemini CLI passes the shell's environment on
    assert "AGY_BIN, GRAVITY_RELAY_DATA_DIR, GRAVITY_RELAY_DEFAULT_PROFILE copied from this shell" in got.stdout
    assert "minimal environment" in got.stdout


def test_setup_env_option_wins_over_the_exported_value(tmp_path, fake_script):
    home = make_home(tmp_path, "codex")
    run_cli("setup", "--command", str(fake_script), "--env", "AGY_BIN=/chosen/agy", home=home,
            extra={"AGY_BIN": "/exported/agy"})
    codex = tomllib.loads((home / ".codex/config.toml").read_text(encoding="utf-8"))["mcp_servers"]["antigravity"]
    assert codex["env"]["AGY_BIN"] == "/chosen/agy"


def test_setup_writes_headless_approvals_for_each_client_and_announces_them(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude", "gemini")
    settings = home / ".claude" / "settings.json"
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(.env)"]},
                                    "model": "opus"}, indent=2) + "\n", encoding="utf-8")
    got = run_cli("setup", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    codex = tomllib.loads((home / ".codex/config.toml").read_text(encoding="utf-8"))["mcp_servers"]["antigravity"]
    assert codex["required"] is True and codex["default_tools_approval_mode"] == "approve"
    doc = json.loads(settings.read_text(encoding="utf-8"))
    assert doc == {"permissions": {"allow": ["Bash(npm test)", *RULES], "deny": ["Read(.env)"]}, "model": "opus"}
    assert json.loads((home / ".gemini/settings.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]["trust"] is True
    assert actions(got.stdout, "settings.json")["claude"] == "updated"
    for said in ("required = true", 'default_tools_approval_mode = "approve"', "permissions.allow + mcp__antigravity",
                 '"trust": true', "untrusted folders"):
        assert said in got.stdout, said
    assert len(list((home / ".claude").glob("settings.json.bak-*"))) == 1


def test_setup_dry_run_shows_the_approvals_and_writes_nothing(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude")
    before = snapshot(home)
    got = run_cli("setup", "--dry-run", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    assert snapshot(home) == before
    assert '+default_tools_approval_mode = "approve"' in got.stdout
    assert "+required = true" in got.stdout
    assert '"mcp__antigravity__antigravity_execute",' in got.stdout
    assert actions(got.stdout, "settings.json")["claude"] == "would add"


def test_setup_keeps_a_whole_server_allow_rule_and_adds_nothing(tmp_path, fake_script):
    home = make_home(tmp_path, "claude")
    settings = home / ".claude" / "settings.json"
    settings.write_text('{"permissions": {"allow": ["mcp__antigravity"]}}\n', encoding="utf-8")
    got = run_cli("setup", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    assert settings.read_text(encoding="utf-8") == '{"permissions": {"allow": ["mcp__antigravity"]}}\n'
    assert actions(got.stdout, "settings.json")["claude"] == "unchanged"


def test_setup_client_approvals_leaves_prompts_to_the_clients_and_takes_back_earlier_approvals(tmp_path, fake_script):
    home = make_home(tmp_path, "codex", "claude", "gemini")
    run_cli("setup", "--command", str(fake_script), home=home)
    got = run_cli("setup", "--client-approvals", "--command", str(fake_script), home=home)
    assert got.returncode == 0, got.stderr
    codex = tomllib.loads((home / ".codex/config.toml").read_text(encoding="utf-8"))["mcp_servers"]["antigravity"]
    assert "default_tools_approval_mode" not in codex and codex["required"] is True
    gemini = json.loads((home / ".gemini/settings.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert "trust" not in gemini
    assert "permissions" not in json.loads((home / ".claude/settings.json").read_text(encoding="utf-8"))
    assert "approvals left to Codex" in got.stdout and "approvals left to Gemini CLI" in got.stdout
    (tmp_path / "fresh").mkdir()
    fresh = make_home(tmp_path / "fresh", "claude")
    run_cli("setup", "--client-approvals", "--command", str(fake_script), home=fresh)
    assert not (fresh / ".claude/settings.json").exists()


def test_setup_uninstall_removes_only_the_relays_allow_rules(tmp_path, fake_script):
    home = make_home(tmp_path, "claude")
    settings = home / ".claude" / "settings.json"
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(ls)"]}}, indent=2) + "\n", encoding="utf-8")
    run_cli("setup", "--command", str(fake_script), home=home)
    assert json.loads(settings.read_text(encoding="utf-8"))["permissions"]["allow"] == ["Bash(ls)", *RULES]
    got = run_cli("setup", "--uninstall", home=home)
    assert got.returncode == 0, got.stderr
    assert json.loads(settings.read_text(encoding="utf-8")) == {"permissions": {"allow": ["Bash(ls)"]}}
    assert actions(got.stdout, "settings.json")["claude"] == "removed"


def test_setup_and_the_cli_know_the_same_clients_named_in_one_place():
    # Regression (issue 24): the CLI's --client choices were a second, hand-kept list of setup's clients.
    import argparse

    from relay.doors.cli import build_parser
    from relay.setup.client_names import CLIENT_NAMES
    from relay.setup.clients import CLIENTS

    assert tuple(CLIENTS) == CLIENT_NAMES
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    client = next(a for a in sub.choices["setup"]._actions if a.dest == "client")  # noqa: SLF001
    assert tuple(client.choices) == CLIENT_NAMES
