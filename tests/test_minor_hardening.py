"""The minor list of issue 22: each item with a test that failed before its fix.

Real files, real git repositories, the fake agy as a real subprocess, real relay processes where the item is
about the process (stdio nesting; the HTTP items run on test_http.py's shared relay); setup edits real config files in a temp HOME.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from conftest import cli_main, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario

# --------------------------------------------------------------------------- on_violation: revert keeps the mode


@pytest.mark.anyio
async def test_revert_restores_a_private_files_mode_exactly_after_the_worker_made_it_0755(tmp_path):
    # Before: the bytes came back, but a 0600 file the worker chmod-ed 755 came back 0644: readable by others.
    repo = make_repo(tmp_path / "project", {"secret.env": "TOKEN=x\n", "src/app.py": "x = 1\n"})
    os.chmod(repo / "secret.env", 0o600)
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "secret.env", "content": "TOKEN=leaked\n"},
        {"op": "chmod", "path": "secret.env", "mode": "755"}]))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(
        {"app": {"workspace": str(repo), "protected": ["*.env"], "on_violation": "revert"}}))
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "app"}))
    assert packet["status"] == "POLICY_VIOLATION", packet
    assert (repo / "secret.env").read_text(encoding="utf-8") == "TOKEN=x\n"
    assert stat.S_IMODE(os.stat(repo / "secret.env").st_mode) == 0o600


# --------------------------------------------------------------------------- http-token: never followed


def test_http_token_symlink_is_never_followed_and_is_replaced(tmp_path):
    # Before: the link's target's text became the token, and the target was chmod-ed 0600.
    from relay.doors.http_token import load_or_create_token, token_path

    data = tmp_path / "data"
    data.mkdir()
    target = tmp_path / "someone-elses-file"
    target.write_text("attacker-chosen-token\n", encoding="utf-8")
    os.chmod(target, 0o644)
    token_path(data).symlink_to(target)
    token = load_or_create_token(data)
    assert token != "attacker-chosen-token" and len(token) >= 40
    assert target.read_text(encoding="utf-8") == "attacker-chosen-token\n" and stat.S_IMODE(target.stat().st_mode) == 0o644
    info = os.lstat(token_path(data))
    assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
    assert load_or_create_token(data) == token


def test_serve_http_with_a_folder_as_http_token_exits_with_a_clear_error_not_a_traceback(tmp_path):
    # Before: `serve --http` died with IsADirectoryError's traceback.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env["GRAVITY_RELAY_DATA_DIR"] = str(tmp_path / "data")
    (tmp_path / "data" / "http-token").mkdir(parents=True)
    done = cli_main(["serve", "--http", "127.0.0.1:0"], env)
    assert done.returncode == 2, done.stderr
    assert "http-token" in done.stderr and "is a folder" in done.stderr and "Remove it" in done.stderr
    assert "Traceback" not in done.stderr


# --------------------------------------------------------------------------- arguments nested 400 deep (stdio)


# Over stdio: test_hostile_input.py's lone-surrogate test sends these too, to the same relay process.


@pytest.mark.anyio
async def test_inprocess_arguments_nested_too_deep_are_invalid_input(tmp_path, repo):
    env = relay_env(tmp_path / "data", tmp_path / "no-agy")
    nested: list = []
    for _ in range(60):
        nested = [nested]
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                         "constraints": nested}))
    assert packet["status"] == "INVALID_INPUT" and "levels deep" in packet["error"]["message"]


# Two HTTP relays on one data dir: test_http.py (the second relay beside its shared one).
# 421 / 403 as JSON-RPC error bodies: test_http.py's foreign host/origin test (on its one shared relay too).


# --------------------------------------------------------------------------- owner-only data


@pytest.mark.anyio
async def test_data_dir_runs_transcripts_and_worktrees_are_owner_only(tmp_path):
    # Before: transcripts 0644, the data dir and worktrees/ 0755 (made by mkdir(parents=True), whose mode
    # reaches only the last folder).
    old = os.umask(0o022)
    try:
        repo = make_repo(tmp_path / "project")
        agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "n.txt", "content": "x\n"}]))
        data = tmp_path / "deep" / "data"
        env = relay_env(data, agy, GRAVITY_RELAY_PROFILES=json.dumps({"iso": {"isolation": "worktree"}}))
        async with memory_relay(env) as client:
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                             "workspace": str(repo)}))
        assert packet["ok"], packet
    finally:
        os.umask(old)

    def mode(path: Path) -> int:
        return stat.S_IMODE(os.stat(path).st_mode)

    run = packet["run_id"]
    assert mode(data) == 0o700 and mode(data / "runs") == 0o700 and mode(data / "worktrees") == 0o700
    assert mode(data / "runs" / f"{run}.ndjson") == 0o600
    assert [p.name for p in (data / "runs").iterdir() if p.is_file() and mode(p) & 0o077] == []


# --------------------------------------------------------------------------- setup: no client found


def test_setup_dry_run_with_no_client_found_says_so_and_where_it_looked(tmp_path):
    # Before: "Nothing to change: the relay is already registered wherever a client was found."
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env.update({"HOME": str(home), "GRAVITY_RELAY_DATA_DIR": str(home / "relay-data")})
    done = cli_main(["setup", "--dry-run"], env)
    assert done.returncode == 0, done.stderr
    assert "No client found" in done.stdout and "already registered" not in done.stdout
    assert "~/.codex" in done.stdout and "~/.gemini/settings.json" in done.stdout and str(home) in done.stdout
    assert sorted(p.name for p in home.iterdir()) in ([], ["relay-data"])


# --------------------------------------------------------------------------- setup: hostile client config files


def _setup(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env.update({"HOME": str(home), "GRAVITY_RELAY_DATA_DIR": str(home / "relay-data")})
    return cli_main(["setup", *args, "--command", "/usr/bin/gravity-relay"], env)


def _gemini(home: Path, data: bytes) -> Path:
    path = home / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _files(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*"))
            if p.is_file() and not p.is_symlink() and "relay-data" not in p.parts}


@pytest.mark.parametrize("kind", ["symlink", "read-only", "malformed", "huge", "duplicate keys", "fifo"])
def test_setup_refuses_a_hostile_config_naming_why_and_changes_nothing(tmp_path, kind):
    home = tmp_path / "home"
    if kind == "symlink":
        # Before: the link was replaced by a regular file: the dotfile manager's link was cut.
        real = home / "dotfiles" / "gemini.json"
        real.parent.mkdir(parents=True)
        real.write_text('{"theme": "dark"}\n', encoding="utf-8")
        path = home / ".gemini" / "settings.json"
        path.parent.mkdir(parents=True)
        path.symlink_to(real)
        why = "symbolic link"
    elif kind == "read-only":
        # Before: an atomic rename replaced the file its owner made read-only.
        path = _gemini(home, b'{"theme": "dark"}\n')
        os.chmod(path, 0o444)
        why = "read-only"
    elif kind == "malformed":
        path = _gemini(home, b'{"theme": "dark",\n')
        why = "not plain JSON"
    elif kind == "huge":
        path = _gemini(home, b'{"pad": "' + b"x" * (5 * 1024 * 1024) + b'"}\n')
        why = "larger than any client config"
    elif kind == "duplicate keys":
        # Before: json.loads kept the last "mcpServers": the rewrite silently dropped the first one's servers.
        path = _gemini(home, b'{"mcpServers": {"github": {"command": "gh"}},\n "mcpServers": {"other": {}}}\n')
        why = "twice"
    else:
        path = home / ".gemini" / "settings.json"
        path.parent.mkdir(parents=True)
        os.mkfifo(path)
        why = "not a regular file"
    before = _files(home)
    link = os.readlink(path) if path.is_symlink() else None
    for dry in (True, False):
        done = _setup(home, "--client", "gemini", *(["--dry-run"] if dry else []))
        assert done.returncode == 1, (kind, done.stdout, done.stderr)
        assert why in done.stdout and "cannot edit" in done.stdout, done.stdout
        assert "Traceback" not in done.stderr
    assert _files(home) == before
    assert (os.readlink(path) if path.is_symlink() else None) == link
    if kind == "read-only":
        assert stat.S_IMODE(path.stat().st_mode) == 0o444


@pytest.mark.parametrize("kind", ["bom", "crlf"])
def test_setup_keeps_a_configs_bom_and_line_endings(tmp_path, kind):
    # Before: the BOM was dropped and CRLF lines became LF: the whole file rewritten in another form.
    home = tmp_path / "home"
    text = '{\r\n  "theme": "dark"\r\n}\r\n' if kind == "crlf" else '{\n  "theme": "dark"\n}\n'
    path = _gemini(home, (b"\xef\xbb\xbf" if kind == "bom" else b"") + text.encode())
    done = _setup(home, "--client", "gemini")
    assert done.returncode == 0, done.stdout + done.stderr
    data = path.read_bytes()
    doc = json.loads(data.decode("utf-8-sig"))
    assert doc["theme"] == "dark" and "antigravity" in doc["mcpServers"]
    if kind == "bom":
        assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" not in data
    else:
        assert data.count(b"\r\n") == data.count(b"\n") and data.count(b"\n") > 3


def test_setup_http_never_leaves_the_token_readable_by_others(tmp_path):
    # Before: the file kept its 0644, so the bearer token it now holds was readable by every user.
    home = tmp_path / "home"
    path = _gemini(home, b'{"theme": "dark"}\n')
    os.chmod(path, 0o644)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env.update({"HOME": str(home), "GRAVITY_RELAY_DATA_DIR": str(home / "relay-data")})
    done = cli_main(["setup", "--client", "gemini", "--http", "8765"], env)
    assert done.returncode == 0, done.stdout + done.stderr
    token = (home / "relay-data" / "http-token").read_text(encoding="utf-8").strip()
    assert token in path.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "owner-only" in done.stdout
    for backup in path.parent.glob("settings.json.bak-*"):
        assert stat.S_IMODE(backup.stat().st_mode) & 0o077 == 0
