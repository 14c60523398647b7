"""`gravity-relay setup --http`: clients registered by URL with the bearer token, the token masked in dry runs.

Real config files in a temp HOME, edited by the real command (in process, for speed).
"""

from __future__ import annotations

import json
import tomllib

import pytest

from relay.doors.cli import main


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    for marker in (".codex", ".claude", ".cursor", ".codeium/windsurf"):
        (home / marker).mkdir(parents=True)
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text("{}\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GRAVITY_RELAY_DATA_DIR", str(tmp_path / "data"))
    return home


def _token(tmp_path) -> str:
    return (tmp_path / "data" / "http-token").read_text(encoding="utf-8").strip()


def test_setup_http_registers_each_client_by_url_with_the_token_in_its_own_keys(home, tmp_path, capsys):
    assert main(["setup", "--http", "9001"]) == 0
    url, bearer = "http://127.0.0.1:9001/mcp", f"Bearer {_token(tmp_path)}"
    codex = tomllib.loads((home / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"]["antigravity"]
    # Key names from codex-rs/core/src/config/types.rs: url + http_headers (no command, args or env with a url).
    assert codex["url"] == url and codex["http_headers"] == {"Authorization": bearer}
    assert not {"command", "args", "env"} & set(codex) and codex["tool_timeout_sec"] == 7200
    claude = json.loads((home / ".claude.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert claude == {"type": "http", "url": url, "headers": {"Authorization": bearer}}
    gemini = json.loads((home / ".gemini" / "settings.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert gemini["httpUrl"] == url and gemini["headers"] == {"Authorization": bearer} and "url" not in gemini
    cursor = json.loads((home / ".cursor" / "mcp.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert cursor == {"url": url, "headers": {"Authorization": bearer}}
    out = capsys.readouterr().out
    assert "windsurf" in out and "not supported" in out and not (home / ".codeium/windsurf/mcp_config.json").exists()
    assert _token(tmp_path) not in out


def test_setup_http_dry_run_shows_the_entries_with_the_token_masked_and_writes_nothing(home, tmp_path, capsys):
    assert main(["setup", "--http", "--dry-run", "--client", "codex", "--client", "claude"]) == 0
    out = capsys.readouterr().out
    token = _token(tmp_path)
    assert "http://127.0.0.1:8765/mcp" in out and f"Bearer {token[:4]}…" in out
    assert token not in out
    assert not (home / ".codex" / "config.toml").exists() and not (home / ".claude.json").exists()
    assert main(["setup", "--http", "--dry-run", "--json", "--client", "codex"]) == 0
    assert token not in capsys.readouterr().out


def test_setup_http_and_stdio_replace_each_other_without_leftover_keys(home, tmp_path, fake_script):
    assert main(["setup", "--client", "codex", "--client", "claude", "--command", str(fake_script)]) == 0
    assert main(["setup", "--http", "9002", "--client", "codex", "--client", "claude"]) == 0
    codex = tomllib.loads((home / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"]["antigravity"]
    assert "command" not in codex and "args" not in codex and "env" not in codex and codex["url"].endswith(":9002/mcp")
    assert main(["setup", "--client", "codex", "--client", "claude", "--command", str(fake_script)]) == 0
    codex = tomllib.loads((home / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"]["antigravity"]
    claude = json.loads((home / ".claude.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert codex["command"] == str(fake_script) and "url" not in codex and "http_headers" not in codex
    assert claude["type"] == "stdio" and "url" not in claude and "headers" not in claude


def test_setup_http_leaves_a_foreign_url_entry_alone(home, tmp_path, capsys):
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"antigravity": {
        "type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer theirs"}}}}), encoding="utf-8")
    assert main(["setup", "--http", "--client", "claude"]) == 1
    assert "not Gravity Relay" in capsys.readouterr().out
    assert "theirs" in (home / ".claude.json").read_text(encoding="utf-8")


def test_setup_http_refuses_a_url_without_a_port(home, capsys):
    assert main(["setup", "--http", "http://127.0.0.1/mcp", "--client", "codex"]) == 2
    assert "e.g. http://127.0.0.1:8765/mcp" in capsys.readouterr().err


def test_doctor_reports_a_url_registration_as_registered_not_as_a_missing_command(home):
    from relay.doors.doctor import check_clients

    assert main(["setup", "--http", "9003", "--client", "claude"]) == 0
    (claude,) = [c for c in check_clients(home) if c.name == "client claude"]
    assert claude.level == "ok" and "http://127.0.0.1:9003/mcp" in claude.message
