"""``gravity-relay doctor`` against the fake agy and real config files.

The ready-machine test runs the real command in a subprocess; the others run the same command
through cli.main in process (`conftest.cli_main`), since they are about what it prints."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import cli_main
from fake_agy_harness import install_fake_agy, scenario

from relay.demo.run import install_demo_worker


def doctor(*args: str, home: Path, agy: Path | str | None = None, extra: dict[str, str] | None = None,
           timeout: float = 120, process: bool = False) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env.update({"HOME": str(home), "GRAVITY_RELAY_DATA_DIR": str(home / "relay-data"),
                "PATH": "/usr/bin:/bin"})  # no real agy on PATH, whatever this machine has
    if agy is not None:
        env["AGY_BIN"] = str(agy)
    env.update(extra or {})
    if not process:
        return cli_main(["doctor", *args], env)
    return subprocess.run([sys.executable, "-m", "relay", "doctor", *args], env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL, encoding="utf-8")


def checks_of(got: subprocess.CompletedProcess) -> dict[str, dict]:
    doc = json.loads(got.stdout)
    return {c["name"]: c for c in doc["checks"]}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


@pytest.fixture
def script(fake_script: Path) -> Path:
    return fake_script


def register(home: Path, client_file: str, entry: dict) -> None:
    path = home / client_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": {"antigravity": entry}}, indent=2), encoding="utf-8")


def test_doctor_reports_every_check_ok_on_a_ready_machine(tmp_path, home, script):
    agy = install_fake_agy(tmp_path / "agy", scenario(version="1.2.17"))
    workspace = tmp_path / "project"
    workspace.mkdir()
    profiles = json.dumps({"web": {"workspace": str(workspace), "execution_mode": "safe"}})
    register(home, ".cursor/mcp.json", {"command": str(script), "args": ["serve"]})
    got = doctor("--json", home=home, agy=agy, process=True,  # the real command, once
                 extra={"GRAVITY_RELAY_PROFILES": profiles, "GRAVITY_RELAY_DEFAULT_PROFILE": "web"})
    assert got.returncode == 0, got.stderr
    doc = json.loads(got.stdout)
    checks = {c["name"]: c for c in doc["checks"]}
    assert doc["ok"] is True, [c for c in doc["checks"] if c["level"] != "ok"]
    assert checks["agy"]["message"].startswith(f"agy 1.2.17 at {agy}")
    assert "--json-schema" in checks["features"]["message"]
    assert checks["auth"]["message"].startswith("signed in (`agy models` lists")
    assert "will be created on the first run" in checks["data dir"]["message"]
    assert checks["default profile"]["message"] == f"'web': workspace {workspace.resolve()} exists"
    assert checks["client cursor"]["message"].endswith(f"→ {script}")


def test_doctor_names_a_missing_agy_with_the_fix_and_still_exits_zero(home):
    got = doctor(home=home)
    assert got.returncode == 0, got.stderr
    line = next(line for line in got.stdout.splitlines() if line.startswith("failure  agy"))
    assert "agy was not found" in line and str(home / ".local/bin/agy") in line
    fix = got.stdout.splitlines()[got.stdout.splitlines().index(line) + 1]
    assert "→" in fix and "AGY_BIN" in fix
    assert "1 failure" in got.stdout


def test_doctor_strict_exits_one_when_anything_is_not_ok(home):
    assert doctor("--strict", home=home).returncode == 1


def test_doctor_strict_exits_zero_when_everything_is_ok(tmp_path, home, script):
    agy = install_fake_agy(tmp_path / "agy", scenario())
    register(home, ".cursor/mcp.json", {"command": str(script), "args": ["serve"]})
    got = doctor("--strict", home=home, agy=agy)
    assert got.returncode == 0, got.stdout


def test_doctor_reports_login_required_from_the_relays_auth_probe(tmp_path, home):
    agy = install_fake_agy(tmp_path / "agy", scenario(models="signed_out"))
    checks = checks_of(doctor("--json", home=home, agy=agy))
    assert checks["auth"]["level"] == "failure"
    assert checks["auth"]["message"].startswith("LOGIN_REQUIRED")
    assert "Run `agy` once in a terminal" in checks["auth"]["fix"]
    assert checks["agy"]["level"] == "ok"


def test_doctor_stops_an_auth_probe_that_hangs_at_its_timeout(tmp_path, home):
    agy = install_fake_agy(tmp_path / "agy", scenario(models="hang", models_sleep=60))
    started = time.monotonic()
    checks = checks_of(doctor("--json", "--probe-timeout", "0.5", home=home, agy=agy))  # any bound: the probe hangs 60 s
    assert time.monotonic() - started < 20
    assert checks["auth"]["level"] == "failure"
    assert checks["auth"]["message"].startswith("AUTH_TIMEOUT")


def test_doctor_fails_an_agy_too_old_for_the_relay_and_lists_missing_features(tmp_path, home):
    agy = install_fake_agy(tmp_path / "agy", scenario(version="1.1.2"))
    checks = checks_of(doctor("--json", home=home, agy=agy))
    assert checks["agy"]["level"] == "failure"
    assert "agy 1.1.2" in checks["agy"]["message"] and "1.1.8 or newer" in checks["agy"]["message"]
    assert checks["agy"]["fix"] == "Run `agy update`."
    assert checks["features"]["level"] == "warning"
    assert "missing: --effort, --output-format, --json-schema" in checks["features"]["message"]


def test_doctor_reports_an_agy_bin_that_is_not_executable(tmp_path, home):
    fake = tmp_path / "agy"
    fake.write_text("not a program", encoding="utf-8")
    checks = checks_of(doctor("--json", home=home, agy=fake))
    assert checks["agy"]["level"] == "failure"
    assert "is not executable" in checks["agy"]["message"]


def test_doctor_reports_a_profile_error_naming_the_file_the_key_and_the_accepted_values(tmp_path, home):
    profile_file = tmp_path / "profiles.json"
    profile_file.write_text(json.dumps({"web": {"workspace": "/srv/web", "execution_mode": "yolo"}}), encoding="utf-8")
    checks = checks_of(doctor("--json", home=home, extra={"GRAVITY_RELAY_PROFILE_FILE": str(profile_file)}))
    profiles = checks["profiles"]
    assert profiles["level"] == "failure"
    assert str(profile_file) in profiles["message"]
    assert "execution_mode" in profiles["message"] and "'safe'" in profiles["message"]
    assert "GRAVITY_RELAY_PROFILE_FILE" in profiles["fix"]


def test_doctor_fails_a_default_profile_whose_workspace_is_missing(tmp_path, home):
    profiles = json.dumps({"web": {"workspace": str(tmp_path / "gone")}})
    checks = checks_of(doctor("--json", home=home, extra={"GRAVITY_RELAY_PROFILES": profiles,
                                                         "GRAVITY_RELAY_DEFAULT_PROFILE": "web"}))
    assert checks["default profile"]["level"] == "failure"
    assert "does not exist" in checks["default profile"]["message"]


def test_doctor_flags_a_registered_command_that_no_longer_exists(home):
    register(home, ".cursor/mcp.json", {"command": "/old/venv/bin/gravity-relay", "args": ["serve"]})
    checks = checks_of(doctor("--json", home=home))
    cursor = checks["client cursor"]
    assert cursor["level"] == "failure"
    assert "/old/venv/bin/gravity-relay no longer exists" in cursor["message"]
    assert "gravity-relay setup --client cursor" in cursor["fix"]


def test_doctor_reads_the_codex_toml_registration(home, script):
    (home / ".codex").mkdir()
    (home / ".codex/config.toml").write_text(
        f'# mine\n[mcp_servers.antigravity]\ncommand = "{script}"\nargs = ["serve"]\n', encoding="utf-8")
    checks = checks_of(doctor("--json", home=home))
    assert checks["client codex"]["level"] == "ok"
    assert "clients" not in checks  # something is registered


def test_doctor_warns_when_the_relay_is_registered_where_agys_own_runs_see_it(home, script):
    register(home, ".gemini/config/mcp_config.json", {"command": str(script), "args": ["serve"]})
    checks = checks_of(doctor("--json", home=home))
    assert checks["client antigravity"]["level"] == "warning"
    assert "headless runs load this same file" in checks["client antigravity"]["message"]


def test_doctor_warns_about_a_foreign_antigravity_entry_and_found_but_unregistered_clients(home):
    register(home, ".cursor/mcp.json", {"command": "npx", "args": ["antigravity-mcp"]})
    (home / ".codex").mkdir()
    checks = checks_of(doctor("--json", home=home))
    assert "not Gravity Relay" in checks["client cursor"]["message"]
    assert checks["client codex"]["fix"] == "Run `gravity-relay setup --client codex`."
    assert checks["clients"]["level"] == "warning"


def test_doctor_reports_a_data_dir_that_is_a_file(home):
    target = home / "not-a-dir"
    target.write_text("x", encoding="utf-8")
    checks = checks_of(doctor("--json", home=home, extra={"GRAVITY_RELAY_DATA_DIR": str(target)}))
    assert checks["data dir"]["level"] == "failure"
    assert "is not a directory" in checks["data dir"]["message"]


def test_doctor_measures_the_data_dir_and_warns_past_the_retention_size(home):
    runs = home / "relay-data" / "runs"
    runs.mkdir(parents=True)
    (runs / "r20260101T000000-00000001.json").write_text("{}", encoding="utf-8")
    (runs / "r20260101T000000-00000001.ndjson").write_bytes(b"x" * 4000)
    checks = checks_of(doctor("--json", home=home, extra={"GRAVITY_RELAY_MAX_SIZE": "1KB"}))
    assert checks["data dir"]["level"] == "warning"
    assert "in 1 run" in checks["data dir"]["message"] and "size over 1.0 KiB" in checks["data dir"]["message"]
    assert "gravity-relay cleanup" in checks["data dir"]["fix"]


def test_doctor_with_the_demo_worker_as_agy_reports_its_version(tmp_path, home):
    agy = install_demo_worker(tmp_path / "bin")
    checks = checks_of(doctor("--json", home=home, agy=agy))
    assert checks["agy"]["message"].startswith("agy 1.2.17")
    assert checks["auth"]["message"] == "signed in (`agy models` lists 1 model)"


def test_doctor_human_output_gives_each_check_a_level_and_each_problem_a_fix(home):
    got = doctor(home=home)
    body = [line for line in got.stdout.splitlines() if line.strip()][:-1]
    for line in body:
        assert line.split()[0] in ("ok", "warning", "failure", "→")
    levels = [line.split()[0] for line in body]
    for index, level in enumerate(levels):
        if level in ("warning", "failure") and "not checked" not in body[index]:
            assert levels[index + 1] == "→", body[index]


def test_doctor_reports_an_environment_that_does_not_parse_instead_of_crashing(home):
    got = doctor("--json", home=home, extra={"GRAVITY_RELAY_MAX_SIZE": "lots"})
    assert got.returncode == 0, got.stderr
    checks = checks_of(got)
    assert checks["settings"]["level"] == "failure"
    assert "'lots'" in checks["settings"]["message"] and "500MB" in checks["settings"]["message"]


# --------------------------------------------------------------------------- headless readiness (in process)


def headless(home: Path, environ: dict[str, str] | None = None) -> dict[str, object]:
    from relay.doors.doctor import check_client_headless

    return {c.name: c for c in check_client_headless(home, environ or {})}


def test_doctor_headless_warns_about_a_codex_entry_without_approval_or_required_with_the_fix(home, script):
    (home / ".codex").mkdir()
    (home / ".codex/config.toml").write_text(f'[mcp_servers.antigravity]\ncommand = "{script}"\nargs = ["serve"]\n', encoding="utf-8")
    codex = headless(home)["headless codex"]
    assert codex.level == "warning"
    assert "no `required = true`" in codex.message and "no tool approval" in codex.message
    assert "gravity-relay setup --client codex" in codex.fix
    assert 'required = true and default_tools_approval_mode = "approve"' in codex.fix


def test_doctor_headless_names_relay_settings_the_codex_entry_will_not_pass(home, script):
    (home / ".codex").mkdir()
    (home / ".codex/config.toml").write_text(
        f'[mcp_servers.antigravity]\ncommand = "{script}"\nargs = ["serve"]\nrequired = true\n'
        'default_tools_approval_mode = "approve"\nenv = { GRAVITY_RELAY_DEFAULT_PROFILE = "old" }\n', encoding="utf-8")
    checks = headless(home, {"AGY_BIN": "/opt/agy", "GRAVITY_RELAY_DEFAULT_PROFILE": "web", "PATH": "/bin"})
    assert checks["headless codex"].level == "ok"
    env = checks["headless codex env"]
    assert env.level == "warning" and "minimal environment" in env.message
    assert "AGY_BIN set in this shell but not in the entry's env" in env.message
    assert "GRAVITY_RELAY_DEFAULT_PROFILE different" in env.message
    assert "setup --client codex" in env.fix
    assert "headless codex env" not in headless(home, {"GRAVITY_RELAY_DEFAULT_PROFILE": "old"})


def test_doctor_headless_accepts_codex_per_tool_approval(home, script):
    tools = "".join(f'[mcp_servers.antigravity.tools.{t}]\napproval_mode = "approve"\n'
                    for t in ("antigravity_execute", "antigravity_continue", "antigravity_get_result",
                                  "antigravity_cancel"))
    (home / ".codex").mkdir()
    (home / ".codex/config.toml").write_text(
        f'[mcp_servers.antigravity]\ncommand = "{script}"\nargs = ["serve"]\nrequired = true\n\n{tools}', encoding="utf-8")
    assert headless(home)["headless codex"].level == "ok"


def test_doctor_headless_wants_a_claude_allow_rule_and_takes_the_whole_server_form(home, script):
    register(home, ".claude.json", {"type": "stdio", "command": str(script), "args": ["serve"]})
    claude = headless(home)["headless claude"]
    assert claude.level == "warning" and "claude -p denies" in claude.message
    assert "mcp__antigravity" in claude.fix and "setup --client claude" in claude.fix
    (home / ".claude").mkdir()
    (home / ".claude/settings.json").write_text('{"permissions": {"allow": ["mcp__antigravity"]}}', encoding="utf-8")
    assert headless(home)["headless claude"].level == "ok"


def test_doctor_headless_wants_gemini_trust_and_mentions_trusted_folders(home, script):
    register(home, ".gemini/settings.json", {"command": str(script), "args": ["serve"]})
    gemini = headless(home)["headless gemini"]
    assert gemini.level == "warning" and '"trust": true' in gemini.fix and "untrusted folders" in gemini.fix
    register(home, ".gemini/settings.json", {"command": str(script), "args": ["serve"], "trust": True})
    assert headless(home)["headless gemini"].level == "ok"


def test_doctor_headless_warns_when_gemini_has_no_auth_type_chosen(home, script):
    # Broke: doctor said a trusted Gemini entry was ready, yet gemini -p exited 41 ("Invalid auth
    # method selected.") because the user had never chosen an auth type.
    register(home, ".gemini/settings.json", {"command": str(script), "args": ["serve"], "trust": True})
    auth = headless(home)["headless gemini auth"]
    assert auth.level == "warning" and "exits 41" in auth.message
    assert '"selectedType": "gemini-api-key"' in auth.fix and "\n" not in auth.fix  # the fix in one line
    settings = json.loads((home / ".gemini/settings.json").read_text(encoding="utf-8"))
    settings["security"] = {"auth": {"selectedType": "oauth-personal"}}
    (home / ".gemini/settings.json").write_text(json.dumps(settings), encoding="utf-8")
    auth = headless(home)["headless gemini auth"]
    assert auth.level == "ok" and "oauth-personal" in auth.message


def test_doctor_headless_is_quiet_after_setup_wrote_the_entries(tmp_path, home, script):
    from relay.setup.clients import setup

    for marker in (".codex", ".claude", ".gemini"):
        (home / marker).mkdir()
    (home / ".gemini/settings.json").write_text('{"security": {"auth": {"selectedType": "gemini-api-key"}}}', encoding="utf-8")
    shell = {"AGY_BIN": "/opt/agy/bin/agy"}
    setup(home, ["codex", "claude", "gemini"], command=str(script), exported=shell)
    checks = headless(home, shell)
    assert {name: c.level for name, c in checks.items()} == {
        "headless codex": "ok", "headless claude": "ok", "headless gemini": "ok", "headless gemini auth": "ok"}


def test_doctor_reports_the_confirm_key_absent_good_readable_by_others_and_unusable(home):
    # doctor did not look at the confirm gate's key: a key others could read (maybe leaked) went unsaid.
    key = home / "relay-data" / "confirm-key"
    key.parent.mkdir(parents=True)
    absent = checks_of(doctor("--json", home=home))["confirm key"]
    assert absent["level"] == "ok" and "not created yet" in absent["message"] and not key.exists()

    key.write_bytes(os.urandom(32))
    key.chmod(0o600)
    assert checks_of(doctor("--json", home=home))["confirm key"]["level"] == "ok"

    key.chmod(0o644)
    shared = checks_of(doctor("--json", home=home))["confirm key"]
    assert shared["level"] == "warning", shared
    assert "mode 0644" in shared["message"] and "may have leaked" in shared["message"]
    assert f"rm {key}" in shared["fix"] and "chmod 600" in shared["fix"]
    assert key.stat().st_mode & 0o777 == 0o644  # doctor reports, never replaces

    key.unlink()
    key.mkdir()  # a key the gate cannot read at all: a gated call would be refused
    profiles = json.dumps({"ops": {"execution_mode": "trusted", "confirm_trusted": True}})
    broken = checks_of(doctor("--json", home=home, extra={"GRAVITY_RELAY_PROFILES": profiles}))["confirm key"]
    assert broken["level"] == "failure" and "is a directory" in broken["message"], broken


def test_doctor_warns_a_confirm_trusted_profile_that_grants_no_trusted_mode(home):
    # A profile with confirm_trusted but no trusted mode can never trigger the gate: a configuration mistake.
    profiles = json.dumps({"web": {"confirm_trusted": True},
                           "ops": {"execution_mode": "trusted", "confirm_trusted": True}})
    checks = checks_of(doctor("--json", home=home, extra={"GRAVITY_RELAY_PROFILES": profiles}))
    assert checks["profile web confirm"]["level"] == "warning"
    assert "'web': confirm_trusted is set" in checks["profile web confirm"]["message"]
    assert "execution_mode" in checks["profile web confirm"]["fix"]
    assert "profile ops confirm" not in checks
