"""Windows (and macOS) paths and places, checked on this Linux machine with a Windows- or macOS-shaped
environment: ``sys.platform`` / ``os.name`` and the variables those systems set, paths compared as
``PureWindowsPath`` (case-insensitive, either slash). What each rule decides is what is asserted.

pytest-subprocess stands in for the launches that go through ``subprocess.Popen`` (``agy --version`` at
serve start-up, per run and in doctor; the detached child relay of ``execute --wait``), to see the
keywords Windows would get; the spawns that go through anyio are proven with real processes on the
Windows path in test_platform.py and the process-fault tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path, PureWindowsPath

import pytest

from relay.core import places
from relay.core.settings import agy_candidates, load_settings

WIN_ENV = {"USERPROFILE": r"C:\Users\me", "LOCALAPPDATA": r"C:\Users\me\AppData\Local",
           "APPDATA": r"C:\Users\me\AppData\Roaming", "SYSTEMROOT": r"C:\Windows", "PATH": ""}


# What only a POSIX host can check: how its own path rules read these entries (on Windows the twin tests above and
# below, with the `windows` fixture, are the real thing).
posix_host = pytest.mark.skipif(os.name == "nt", reason="this host's own (POSIX) path rules; Windows: the twin test")


def win(path: str | Path) -> PureWindowsPath:
    return PureWindowsPath(str(path))


@pytest.fixture
def windows(monkeypatch):
    """sys.platform, os.name and the environment as on Windows (pathlib keeps its POSIX flavour here)."""
    monkeypatch.setattr(sys, "platform", "win32")
    for key, value in WIN_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("HOME", raising=False)
    return WIN_ENV


# --------------------------------------------------------------------------- allowed roots and workspaces


def test_allowed_roots_split_on_semicolons_and_keep_drive_letters(windows, tmp_path):
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path), "GRAVITY_RELAY_ALLOWED_ROOTS": r"E:\projects;D:\workspace"})
    assert s.allowed_roots == [r"E:\projects", r"D:\workspace"] and s.problems == []
    # A comma is an ordinary character in a Windows folder name: not a separator there.
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path), "GRAVITY_RELAY_ALLOWED_ROOTS": r"E:\a,b;D:\c"})
    assert s.allowed_roots == [r"E:\a,b", r"D:\c"]


@pytest.mark.parametrize("entry, problem", [
    ("C:\\", "drive root"), ("D:/", "drive root"), (r"\\server\share" + "\\", "drive root"),
    (r"\projects", "not an absolute path"),  # the current drive's \projects: depends on where the relay started
    ("E:projects", "not an absolute path"),  # relative to E:'s current folder
    ("projects", "not an absolute path"),
])
def test_a_drive_root_or_a_drive_relative_entry_is_refused_on_windows(windows, tmp_path, entry, problem):
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path), "GRAVITY_RELAY_ALLOWED_ROOTS": f"{entry};E:\\work"})
    (said,) = s.problems
    assert repr(entry) in said and problem in said and r"E:\projects;D:\workspace" in said


@posix_host
def test_the_same_entries_read_as_this_platforms_paths(tmp_path):
    # On POSIX `E:\projects` is a relative name, and `/` the drive root.
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path), "GRAVITY_RELAY_ALLOWED_ROOTS": r"E:\projects;/;/srv"})
    assert [p.split(" ", 4)[2] for p in s.problems] == [repr(r"E:\projects"), "'/'"]


def test_a_drive_root_among_the_allowed_roots_refuses_every_workspace(tmp_path, repo):
    # Broke: GRAVITY_RELAY_ALLOWED_ROOTS=/ (C:\ on Windows) allowed every folder, so the list bounded nothing.
    from relay.call.policy import validate_workspace
    from relay.core.errors import RelayError

    drive_root = repo.anchor  # `/` here, `C:\\` on Windows
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"),
                       "GRAVITY_RELAY_ALLOWED_ROOTS": f"{drive_root};{repo.parent}"})
    with pytest.raises(RelayError) as info:
        validate_workspace(str(repo), s)
    assert info.value.status.value == "INVALID_WORKSPACE" and "drive root" in info.value.message
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "GRAVITY_RELAY_ALLOWED_ROOTS": str(repo.parent)})
    assert validate_workspace(str(repo), s) == str(repo.resolve())


def test_a_profile_workspace_with_a_drive_letter_is_absolute_on_windows_only(windows, tmp_path):
    profiles = json.dumps({"app": {"workspace": "E:\\projects\\app"}})  # in JSON: "E:\\\\projects\\\\app"
    assert "E:\\\\projects" in profiles
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path), "GRAVITY_RELAY_PROFILES": profiles})
    assert s.profile_error is None and s.profiles["app"].workspace == r"E:\projects\app"
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path),
                       "GRAVITY_RELAY_PROFILES": json.dumps({"app": {"workspace": r"projects\app"}})})
    assert "not an absolute path" in s.profile_error and r"e.g. E:\projects\app" in s.profile_error


@posix_host
def test_a_profile_workspace_with_a_drive_letter_is_refused_on_posix(tmp_path):
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path),
                       "GRAVITY_RELAY_PROFILES": json.dumps({"app": {"workspace": r"E:\projects\app"}})})
    assert "not an absolute path" in s.profile_error and "/home/me/src/app" in s.profile_error


def test_tilde_is_the_user_profile_on_windows(windows):
    assert win(places.expand_user(r"~\projects")) == PureWindowsPath(r"C:\Users\me\projects")
    assert places.is_absolute(r"~\projects") and places.is_absolute("~/projects")


# --------------------------------------------------------------------------- agy and the data dir


def test_agy_is_looked_for_in_localappdata_on_windows(windows):
    from relay.core.settings import Settings

    found = agy_candidates(Settings(data_dir=Path("x")), dict(windows))
    assert found == [r"C:\Users\me\AppData\Local\agy\bin\agy.exe"]  # no ~/.local/bin, no Homebrew


def test_agy_is_looked_for_in_local_bin_and_homebrew_on_macos(monkeypatch):
    from relay.core.settings import Settings

    monkeypatch.setattr(sys, "platform", "darwin")
    found = agy_candidates(Settings(data_dir=Path("x")), {"HOME": "/Users/me", "PATH": ""})
    assert found == ["/Users/me/.local/bin/agy", "/opt/homebrew/bin/agy", "/usr/local/bin/agy"]


def test_the_data_dir_is_where_each_os_keeps_app_data(monkeypatch, windows):
    # platformdirs asks Windows itself (SHGetKnownFolderPath) for the local app-data folder; off Windows its
    # documented override stands in for that answer. What is checked is the relay's choice: local, not
    # roaming (run records are this machine's), and no author folder.
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", windows["LOCALAPPDATA"])
    monkeypatch.setenv("WIN_PD_OVERRIDE_APPDATA", windows["APPDATA"])
    assert win(places.default_data_dir()) == PureWindowsPath(r"C:\Users\me\AppData\Local\gravity-relay")


@posix_host
def test_the_data_dir_on_macos_and_linux(monkeypatch):
    # platformdirs builds these with the host's own path rules (on Windows, ~ is %USERPROFILE%, whatever HOME says).
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setenv("HOME", "/Users/me")
    assert places.default_data_dir() == Path("/Users/me/Library/Application Support/gravity-relay")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", "/home/me/.local/share")
    assert places.default_data_dir() == Path("/home/me/.local/share/gravity-relay")
    assert load_settings({}).data_dir == Path("/home/me/.local/share/gravity-relay")


# --------------------------------------------------------------------------- each client's config, and setup


def test_client_configs_live_in_the_user_profile_on_windows(windows, monkeypatch):
    from relay.setup.clients import CLIENTS, home_dir

    home = home_dir()
    assert win(home) == PureWindowsPath(r"C:\Users\me")
    assert win(CLIENTS["codex"].path(home)) == PureWindowsPath(r"C:\Users\me\.codex\config.toml")
    assert win(CLIENTS["gemini"].path(home)) == PureWindowsPath(r"C:\Users\me\.gemini\settings.json")
    assert win(CLIENTS["claude"].path(home)) == PureWindowsPath(r"C:\Users\me\.claude.json")
    assert win(CLIENTS["claude-desktop"].path(home)) == PureWindowsPath(windows["APPDATA"]) / "Claude" / \
        "claude_desktop_config.json"


def test_setup_finds_the_client_configs_in_the_user_profile_even_when_a_shell_sets_home_on_windows(windows,
                                                                                                   monkeypatch):
    # Broke: setup read HOME first, so from Git Bash or MSYS (HOME=/c/Users/me or an MSYS home) it wrote configs
    # the clients never read: Codex, Claude Code and Gemini CLI look in the profile, %USERPROFILE%.
    from relay.core.places import expand_user
    from relay.setup.clients import CLIENTS, home_dir

    monkeypatch.setenv("HOME", r"C:\msys64\home\me")
    assert win(home_dir()) == PureWindowsPath(r"C:\Users\me")
    assert win(CLIENTS["codex"].path(home_dir())) == PureWindowsPath(r"C:\Users\me\.codex\config.toml")
    assert win(expand_user("~\\src")) == PureWindowsPath(r"C:\Users\me\src")


@pytest.mark.parametrize("key", ["directory", "wrong size"])
def test_doctor_confirm_key_hints_use_windows_commands_on_windows(windows, tmp_path, key):
    # Broke: doctor told a Windows user to `rm` the key and `chmod` it, commands cmd and PowerShell do not have.
    from relay.core.settings import Settings
    from relay.doors.doctor import check_confirm_key

    from relay.call.confirm import KEY_FILE

    path = tmp_path / KEY_FILE
    if key == "directory":
        path.mkdir()
    else:
        path.write_bytes(b"short")
        path.chmod(0o600)
    check = check_confirm_key(Settings(data_dir=tmp_path))
    assert check.fix and check.level != "ok", check
    assert "chmod" not in check.fix and "rm " not in check.fix, check.fix
    assert f'del "{path}"' in check.fix, check.fix


def test_setup_registers_claude_desktop_where_macos_keeps_it(monkeypatch, tmp_path, fake_script):
    from relay.setup.clients import setup

    monkeypatch.setattr(sys, "platform", "darwin")
    home = tmp_path / "home"
    folder = home / "Library" / "Application Support" / "Claude"
    plans = setup(home, command=str(fake_script), exported={"AGY_BIN": "/opt/homebrew/bin/agy"})
    assert {p.client: p.action for p in plans}["claude-desktop"] == "skip"  # not installed here
    folder.mkdir(parents=True)
    plans = setup(home, command=str(fake_script), exported={"AGY_BIN": "/opt/homebrew/bin/agy"})
    assert {p.client: p.action for p in plans}["claude-desktop"] == "add"
    doc = json.loads((folder / "claude_desktop_config.json").read_text(encoding="utf-8"))
    # Claude Desktop is started from the Dock, without the shell's variables: they travel in the entry.
    assert doc["mcpServers"]["antigravity"] == {"command": str(fake_script), "args": ["serve"],
                                                "env": {"AGY_BIN": "/opt/homebrew/bin/agy"}}


def test_setup_registers_gravity_relay_exe_on_windows(windows, monkeypatch, tmp_path):
    import sysconfig

    from relay.setup.clients import is_relay_entry, relay_command

    scripts = tmp_path / "venv" / "Scripts"
    scripts.mkdir(parents=True)
    (scripts / "gravity-relay").write_text("", encoding="utf-8")  # a POSIX-style script beside it is not what Windows runs
    (scripts / "gravity-relay.exe").write_bytes(b"MZ")
    monkeypatch.setattr(sys, "executable", str(scripts / "python.exe"))
    monkeypatch.setattr(sysconfig, "get_path", lambda name, scheme=None: str(scripts))
    assert relay_command({"PATH": ""}) == str(scripts / "gravity-relay.exe")
    assert is_relay_entry({"command": r"C:\Users\me\pipx\venvs\gravity-relay-mcp\Scripts\gravity-relay.exe",
                           "args": ["serve"]})


# --------------------------------------------------------------------------- launches as Windows sees them


@pytest.fixture
def windows_launches(monkeypatch):
    """The Windows path of the platform layer: no POSIX group calls, sys.platform win32."""
    for name in ("killpg", "getpgid", "getpgrp", "setsid"):
        monkeypatch.delattr(os, name, raising=False)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200, raising=False)


def test_agy_version_launch_gets_its_own_console_group_on_windows(fake_process, windows_launches, tmp_path,
                                                                  monkeypatch):
    # Its own console group, and (as every spawn) started suspended until it is in its own Job Object.
    from relay.agy import command as agy_cli
    from relay.core import winjob

    agy = str(tmp_path / "agy.exe")
    seen, held = {}, []
    monkeypatch.setattr(winjob, "hold", lambda pid: held.append(pid))  # no job to make on this OS
    fake_process.register([agy, "--version"], stdout="agy 1.2.14\n",
                          callback=lambda proc: seen.update(proc.kwargs))
    answer = agy_cli.read_version(agy, {"SYSTEMROOT": r"C:\Windows", "PATH": r"C:\Windows\system32",
                                        "OPENAI_API_KEY": "sk-x"})
    assert answer.shown == "1.2.14"
    assert seen["creationflags"] == 0x200 | winjob.CREATE_SUSPENDED and "start_new_session" not in seen
    assert len(held) == 1
    assert seen["env"]["SYSTEMROOT"] == r"C:\Windows" and "OPENAI_API_KEY" not in seen["env"]


def test_the_detached_child_relay_leaves_the_callers_console_and_job_on_windows(fake_process, windows_launches):
    # Issue 37 W12: its own console group, a console of its own with no window (CREATE_NO_WINDOW), and out of the
    # caller's job (CREATE_BREAKAWAY_FROM_JOB); a job that forbids breakaway refuses the creation (access
    # denied), and the child then starts in it rather than not at all.
    from relay.doors.cli_wait import delegate_detachable

    argv = [sys.executable, "-m", "relay.doors.cli_wait"]
    seen = []
    # (The fake fills its stdout only once waited on: the answer it prints is not what is checked here.)
    fake_process.register(argv, returncode=0, callback=lambda proc: seen.append(proc.kwargs))
    assert delegate_detachable("antigravity_execute", {"task": "t"}) == 0
    assert seen[-1]["creationflags"] == 0x200 | 0x08000000 | 0x01000000 and "start_new_session" not in seen[-1]


def test_a_caller_job_that_forbids_breakaway_still_gets_the_detached_relay_started_in_it(windows_launches, monkeypatch):
    # (Not with fake_process: its Popen must not be what monkeypatch puts back at the end.)
    from relay.core import platform

    argv = [sys.executable, "-m", "relay.doors.cli_wait"]
    tried = []

    def refusing_popen(args, **kwargs):
        tried.append(kwargs["creationflags"])
        if kwargs["creationflags"] & 0x01000000:
            raise PermissionError(13, "Access is denied")
        return "started"

    monkeypatch.setattr(subprocess, "Popen", refusing_popen)
    assert platform.detached_popen(argv, stdin=subprocess.PIPE) == "started"
    assert tried == [0x200 | 0x08000000 | 0x01000000, 0x200 | 0x08000000]
