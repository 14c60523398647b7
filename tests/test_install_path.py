"""The install path leaders' users type (issue 27, item 3): `uvx gravity-relay-mcp`, the registry's
server.json, README's one-liners, setup from a uvx cache, doctor on entries that shadow setup's.

The wheel tests build a wheel from this checkout and install it into a fresh venv. By default the venv
borrows this venv's dependencies (a .pth line) so the test takes seconds; GRAVITY_RELAY_WHEEL_FULL=1
installs the dependencies from the package index too, as `uvx` would (about 15 s more).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from relay import __version__
from relay.setup.clients import (PACKAGE_NAME, ephemeral_runner, is_relay_entry, relay_launch, setup,
                                 shadowing_entries)
from relay.setup.registry import REGISTRY_NAME, USER_SETTINGS, render

ROOT = Path(__file__).resolve().parent.parent
READMES = (ROOT / "README.md", ROOT / "README.zh.md")
CONFIGURATION = (ROOT / "docs" / "configuration.md", ROOT / "docs" / "zh" / "configuration.md")  # the README's Configure table moved there


# --------------------------------------------------------------------------- server.json and README


def test_server_json_is_what_the_package_says_it_is():
    on_disk = (ROOT / "server.json").read_text(encoding="utf-8")
    assert on_disk == render(), "server.json drifted from the package: python -m relay.setup.registry > server.json"
    doc = json.loads(on_disk)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert doc["version"] == version == __version__
    (package,) = doc["packages"]
    assert package["identifier"] == PACKAGE_NAME == tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
    assert package["version"] == version and package["runtimeHint"] == "uvx"
    assert package["transport"] == {"type": "stdio"} and package["registryType"] == "pypi"
    assert doc["$schema"].endswith("/2025-12-11/server.schema.json")
    assert len(doc["description"]) <= 100  # the registry's limit
    names = [v["name"] for v in package["environmentVariables"]]
    for must in ("AGY_BIN", "GRAVITY_RELAY_DEFAULT_PROFILE", "GRAVITY_RELAY_PROFILE_FILE", "GRAVITY_RELAY_ALLOWED_ROOTS"):
        assert must in names


def test_server_json_names_only_settings_the_relay_reads_and_the_readme_explains():
    from relay.core.settings import load_settings

    # Each variable changes what load_settings reads (a renamed setting would leave the file naming a dead one).
    for name, _description, fmt in USER_SETTINGS:
        value = {"filepath": "/tmp/x", "number": "7"}.get(fmt, "a")
        if name == "GRAVITY_RELAY_PROFILES":
            value = '{"p": {"workspace": "/tmp"}}'
        base = load_settings({"GRAVITY_RELAY_DATA_DIR": "/tmp/d"} if name != "GRAVITY_RELAY_DATA_DIR" else {})
        changed = load_settings({"GRAVITY_RELAY_DATA_DIR": "/tmp/d", name: value} if name != "GRAVITY_RELAY_DATA_DIR"
                                else {name: value})
        assert base != changed, f"{name} changes nothing load_settings reads"
    for page in CONFIGURATION:
        text = page.read_text(encoding="utf-8")
        for name, _d, _f in USER_SETTINGS:
            assert f"| `{name}` |" in text, f"{page}: {name} is not in the table of variables"


def test_readme_carries_the_registry_marker_and_each_clients_one_liner():
    for readme in READMES:
        text = readme.read_text(encoding="utf-8")
        assert f"<!-- mcp-name: {REGISTRY_NAME} -->" in text, readme.name
        for line in ("claude mcp add -s user antigravity -- uvx gravity-relay-mcp",
                     "codex mcp add antigravity -- uvx gravity-relay-mcp",
                     "gemini mcp add -s user --trust antigravity uvx gravity-relay-mcp"):
            assert line in text, f"{readme.name}: {line}"


def test_pyproject_declares_the_gravity_relay_mcp_script_that_serves_by_default(monkeypatch):
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts[PACKAGE_NAME] == "relay.doors.cli:mcp_main"
    import relay.doors.cli as cli

    seen: list[list[str]] = []
    monkeypatch.setattr(cli, "main", lambda argv=None: seen.append(argv) or 0)
    cli.mcp_main([])
    cli.mcp_main(["doctor", "--json"])
    assert seen == [["serve"], ["doctor", "--json"]]


# --------------------------------------------------------------------------- setup from a runner's cache


def test_is_relay_entry_knows_the_runner_forms_and_the_package_script():
    for entry in ({"command": "uvx", "args": ["gravity-relay-mcp"]},
                  {"command": "/home/u/.local/bin/uvx", "args": ["gravity-relay-mcp@0.2.0"]},
                  {"command": "uvx", "args": ["--from", "gravity-relay-mcp==0.1.0", "gravity-relay", "serve"]},
                  {"command": "uv", "args": ["tool", "run", "gravity-relay-mcp"]},
                  {"command": "pipx", "args": ["run", "gravity-relay-mcp"]},
                  {"command": "C:\\Users\\u\\.local\\bin\\uvx.exe", "args": ["gravity-relay-mcp"]},
                  {"command": "/opt/venv/bin/gravity-relay-mcp"}):
        assert is_relay_entry(entry), entry
    for entry in ({"command": "uvx", "args": ["other-mcp"]}, {"command": "uvx", "args": ["gravity-relay-mcp-fork"]},
                  {"command": "npx", "args": ["gravity-relay-mcp"]}, {"command": "uvx"}):
        assert not is_relay_entry(entry), entry


def test_ephemeral_runner_tells_a_runner_cache_from_an_installation(tmp_path):
    home = tmp_path / "home"
    env = {"HOME": str(home)}
    assert ephemeral_runner(str(home / ".cache/uv/archive-v0/Xa1b2"), env) == "uvx"
    assert ephemeral_runner(str(tmp_path / "uvc/environments-v2/gravity-relay-mcp-1a2b"),
                            {**env, "UV_CACHE_DIR": str(tmp_path / "uvc")}) == "uvx"
    assert ephemeral_runner(str(home / ".cache/pipx/3f2e1d"), env) == "pipx"
    assert ephemeral_runner(str(home / ".local/pipx/.cache/3f2e1d"), env) == "pipx"
    # Installations that stay: a venv, `uv tool install`, `pipx install`.
    for stays in (tmp_path / "venv", home / ".local/share/uv/tools/gravity-relay-mcp",
                  home / ".local/share/pipx/venvs/gravity-relay-mcp", home / ".local/pipx/venvs/gravity-relay-mcp"):
        assert ephemeral_runner(str(stays), env) is None, stays


def test_relay_launch_from_a_uv_cache_is_uvx_and_the_package_name(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    uvx = bin_dir / "uvx"
    uvx.write_text("#!/bin/sh\n", encoding="utf-8")
    uvx.chmod(0o755)
    env = {"HOME": str(tmp_path), "PATH": str(bin_dir)}
    assert relay_launch(env, prefix=str(tmp_path / ".cache/uv/archive-v0/abc")) == (str(uvx), ["gravity-relay-mcp"])
    assert relay_launch({"HOME": str(tmp_path), "PATH": ""}, prefix=str(tmp_path / ".cache/uv/archive-v0/abc")) == (
        "uvx", ["gravity-relay-mcp"])
    assert relay_launch({**env, "HOME": str(tmp_path)}, prefix=str(tmp_path / ".cache/pipx/abc")) == (
        "pipx", ["run", "gravity-relay-mcp"])


def test_setup_command_option_takes_a_whole_command_line(tmp_path):
    from conftest import cli_main

    home = tmp_path / "home"
    (home / ".cursor").mkdir(parents=True)
    got = cli_main(["setup", "--client", "cursor", "--command", "uvx gravity-relay-mcp"],
                   {"HOME": str(home), "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "d")})
    assert got.returncode == 0, got.stderr
    entry = json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert entry["command"] == "uvx" and entry["args"] == ["gravity-relay-mcp"]
    assert "Registered command: uvx gravity-relay-mcp" in got.stdout
    # A second run with this installation's script replaces the uvx entry: both are the relay's own.
    got = cli_main(["setup", "--client", "cursor", "--command", "/opt/gr/bin/gravity-relay"],
                   {"HOME": str(home), "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "d")})
    entry = json.loads((home / ".cursor/mcp.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert entry["command"] == "/opt/gr/bin/gravity-relay" and entry["args"] == ["serve"]


# --------------------------------------------------------------------------- doctor: shadowing entries


def test_shadowing_entries_names_claude_local_and_project_and_gemini_project_scopes(tmp_path):
    home = tmp_path / "home"
    app, lib, other = tmp_path / "src/app", tmp_path / "src/lib", tmp_path / "src/other"
    for d in (home / ".gemini", app / ".gemini", lib, other):
        d.mkdir(parents=True)
    relay = {"type": "stdio", "command": "/old/venv/bin/gravity-relay", "args": ["serve"]}
    (home / ".claude.json").write_text(json.dumps({
        "mcpServers": {"antigravity": {"command": "uvx", "args": ["gravity-relay-mcp"]}},
        "projects": {str(lib): {"mcpServers": {"antigravity": relay}}, str(other): {"mcpServers": {"x": {}}}}}), encoding="utf-8")
    (home / ".gemini/settings.json").write_text(json.dumps({"mcpServers": {"antigravity": relay}}), encoding="utf-8")  # user scope
    (app / ".mcp.json").write_text(json.dumps({"mcpServers": {"antigravity": {"command": "npx", "args": ["agy-mcp"]}}}), encoding="utf-8")
    (app / ".gemini/settings.json").write_text(json.dumps({"mcpServers": {"antigravity": relay}}), encoding="utf-8")
    (other / ".mcp.json").write_text(json.dumps({"mcpServers": {"antigravity": relay}}), encoding="utf-8")  # a project Claude knows

    found = {(s.client, s.scope, s.project): s for s in shadowing_entries(home, app / "sub")}
    assert set(found) == {("claude", "local", str(lib)), ("claude", "project", str(app)),
                          ("gemini", "project", str(app)), ("claude", "project", str(other))}
    assert found["claude", "project", str(app)].ours is False
    assert found["claude", "project", str(app)].command == "npx"
    assert found["claude", "local", str(lib)].ours is True
    assert "claude mcp remove -s local antigravity" in found["claude", "local", str(lib)].fix
    assert "gemini mcp remove -s project antigravity" in found["gemini", "project", str(app)].fix
    assert shadowing_entries(home, tmp_path / "elsewhere")  # Claude's known projects are checked from anywhere
    (home / ".claude.json").write_text("{}", encoding="utf-8")
    assert shadowing_entries(home, tmp_path / "elsewhere") == []


def test_doctor_warns_about_each_entry_that_shadows_setups(tmp_path):
    from relay.core.settings import load_settings
    from relay.doors.doctor import run_doctor

    home, project = tmp_path / "home", tmp_path / "proj"
    (home / ".claude").mkdir(parents=True)
    project.mkdir()
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"antigravity": {"command": "uvx", "args": ["gravity-relay-mcp"]}}}), encoding="utf-8")
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "d"), "AGY_BIN": str(tmp_path / "no-agy")})
    env = {"PATH": "", "HOME": str(home)}
    quiet = [c for c in run_doctor(settings, environ=env, home=home, probe_timeout=1, cwd=project)
             if c.name.startswith("shadow")]
    assert quiet == []
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"antigravity": {"command": "/gone/gravity-relay"}}}), encoding="utf-8")
    (shadow,) = [c for c in run_doctor(settings, environ=env, home=home, probe_timeout=1, cwd=project)
                 if c.name.startswith("shadow")]
    assert shadow.level == "warning" and shadow.name == "shadow claude"
    assert f"project-scope 'antigravity' entry in {project / '.mcp.json'}" in shadow.message
    assert "another installation of the relay (/gone/gravity-relay)" in shadow.message
    assert f"in {project}: `claude mcp remove -s project antigravity`" in shadow.fix


# --------------------------------------------------------------------------- the wheel


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory) -> tuple[Path, Path]:
    """(HOME, a venv in that HOME's uv cache, as `uvx` makes one) with a wheel of this checkout installed."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    # The build backend pyproject names, called as a frontend calls it, on a copy of what git tracks (the
    # checkout gets no build/ dir). The test extra brings setuptools>=77; without it, pip's isolated build.
    source = base / "src"
    # What git tracks, and new files not yet committed (not what .gitignore names).
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout
    for name in listed.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    import setuptools

    if int(setuptools.__version__.split(".")[0]) >= 77:
        subprocess.run([sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_wheel({str(dist)!r})"],
                       cwd=source, check=True, capture_output=True, timeout=300)
    else:
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(source)],
                       check=True, capture_output=True, timeout=300)
    (wheel,) = dist.glob("gravity_relay_mcp-*.whl")
    home = base / "home"
    venv = home / ".cache/uv/archive-v0/Zq3xk"
    full = os.environ.get("GRAVITY_RELAY_WHEEL_FULL") == "1"
    subprocess.run([sys.executable, "-m", "venv", *([] if full else ["--without-pip"]), str(venv)], check=True,
                   timeout=120)
    python = venv / "bin/python"
    if full:
        subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True,
                       timeout=600)
    else:
        subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                        "--no-index", str(wheel)], check=True, capture_output=True, timeout=120)
        # The dependencies are this venv's (a plain path line: this venv's own .pth files, the editable
        # install among them, are not run, so `relay` comes from the wheel).
        site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              check=True, capture_output=True, text=True, encoding="utf-8").stdout.strip()
        Path(site, "borrowed_deps.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    return home, venv


@pytest.mark.slow
@pytest.mark.process
@pytest.mark.anyio
async def test_a_wheel_in_a_uvx_cache_serves_as_gravity_relay_mcp_and_its_setup_registers_uvx(wheel_venv, tmp_path):
    # One test for both (a wheel costs seconds to build and install; xdist would build it once per worker).
    from mcp import Client, StdioServerParameters

    home, venv = wheel_venv
    script = venv / "bin" / PACKAGE_NAME
    assert script.is_file()
    # Without the PYTHONPATH a developer may run the suite with (PYTHONPATH=$PWD puts this checkout first).
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = subprocess.run([str(venv / "bin/python"), "-c", "import relay; print(relay.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path, encoding="utf-8", env=clean).stdout
    assert where.startswith(str(venv)), where  # the wheel's copy, not this checkout
    # No arguments: it serves over stdio, as `uvx gravity-relay-mcp` is registered.
    params = StdioServerParameters(command=str(script), args=[], cwd=str(tmp_path),
                                   env={"HOME": str(home), "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"),
                                        "AGY_BIN": str(tmp_path / "no-agy")})
    async with Client(params, mode="legacy") as client:
        tools = {t.name for t in (await client.list_tools()).tools}
    assert tools == {"antigravity_execute", "antigravity_continue", "antigravity_get_result", "antigravity_cancel"}

    # `uvx gravity-relay-mcp setup`: the venv is in uv's cache, so the entry names uvx, never the cache path.
    (home / ".claude").mkdir(exist_ok=True)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "uvx").write_text("#!/bin/sh\n", encoding="utf-8")
    (bin_dir / "uvx").chmod(0o755)
    env = {"HOME": str(home), "PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin",
           "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")}
    got = subprocess.run([str(script), "setup", "--client", "claude", "--json"], env=env,
                         capture_output=True, text=True, timeout=60, cwd=tmp_path, encoding="utf-8")
    assert got.returncode == 0, got.stderr
    doc = json.loads(got.stdout)
    assert doc["command"] == str(bin_dir / "uvx") and doc["args"] == ["gravity-relay-mcp"]
    entry = json.loads((home / ".claude.json").read_text(encoding="utf-8"))["mcpServers"]["antigravity"]
    assert entry == {"type": "stdio", "command": str(bin_dir / "uvx"), "args": ["gravity-relay-mcp"]}
    assert not re.search(r"archive-v0", (home / ".claude.json").read_text(encoding="utf-8"))
    # The same entry, set up later by a plain installation, becomes its script (both are the relay's own).
    plans = setup(home, ["claude"], command="/opt/gr/bin/gravity-relay", args=["serve"], dry_run=True)
    assert plans[0].action == "update"
