"""The contracts clients and operators see: generated schemas, examples that parse, a stable surface."""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path

import msgspec
import pytest

import relay
from relay.core.contracts import Changes, ErrorInfo, Packet, Profile, Status
from relay.core.schemas import struct_schema
from relay.core.settings import parse_profiles

PROFILES = Path(__file__).resolve().parent.parent / "profiles"


def test_profile_schema_file_matches_the_profile_struct():
    published = json.loads((PROFILES / "profile.schema.json").read_text(encoding="utf-8"))
    assert published["additionalProperties"] == struct_schema(Profile)


def test_schema_descriptions_point_to_docs_pages_and_headings_that_exist():
    # Broke: ExecutionMode said "see README: execution modes" after that section moved to docs/profiles.md.
    import re

    root = PROFILES.parent
    said: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("description"), str):
                said.append(node["description"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads((PROFILES / "profile.schema.json").read_text(encoding="utf-8")))
    pointers = [m for text in said for m in re.findall(r"see ([^()]*?)(?:\)|$)", text, re.IGNORECASE)]
    assert pointers, "no description points anywhere: the check would prove nothing"
    for pointer in pointers:
        page, _, heading = pointer.partition(": ")
        assert (root / page).is_file(), f"{pointer!r} names no file in the repository"
        headings = [ln.lstrip("#").strip().lower() for ln in (root / page).read_text(encoding="utf-8").splitlines() if ln.startswith("#")]
        assert heading.lower() in headings, f"{pointer!r}: {page} has no heading {heading!r}"


def test_example_profiles_parse_with_the_relays_own_decoder():
    profiles = parse_profiles((PROFILES / "example.profiles.json").read_text(encoding="utf-8"), "example")
    assert {"app", "sandbox-repo", "docs"} <= set(profiles)
    assert profiles["app"].verify == ["python -m pytest -q"]


def test_packet_encodes_without_nulls_or_empty_defaults():
    packet = Packet(ok=False, run_id="r20260101T000000-00000000", status=Status.LOGIN_REQUIRED,
                    changes=Changes(), error=ErrorInfo(code=Status.LOGIN_REQUIRED, message="m", hint="h"))
    text = msgspec.json.encode(packet).decode()
    assert "null" not in text and "[]" not in text
    assert json.loads(text)["error"] == {"code": "LOGIN_REQUIRED", "message": "m", "hint": "h"}


def test_every_relay_module_declares_all_and_exports_exist():
    for info in pkgutil.walk_packages(relay.__path__, "relay."):
        if info.name.endswith(("__main__", "demo.worker")):  # scripts, not modules to import
            continue
        module = importlib.import_module(info.name)
        assert hasattr(module, "__all__"), f"{info.name} has no __all__"
        for name in module.__all__:
            assert hasattr(module, name), f"{info.name}.__all__ names missing {name}"


# What a fresh interpreter does at start-up (a real process each): the process tier (tests/conftest.py).
@pytest.mark.process
def test_importing_the_package_prints_nothing(capfd):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import relay.doors.mcp_server, relay.doors.cli"], capture_output=True, text=True, encoding="utf-8")
    assert out.returncode == 0 and out.stdout == ""


# What a fresh interpreter does at start-up (a real process each): the process tier (tests/conftest.py).
@pytest.mark.process
def test_shell_commands_never_import_the_mcp_sdk(tmp_path):
    # Importing the SDK is ~0.7 s of CPU; `runs list|show` answered in 0.9 s for it before tools.py stopped
    # building the SDK's result type. Only `serve` needs it: every other command, run here one after the other
    # in one process (an execute and a continue that are refused, a doctor, a cleanup, the demo), imports none.
    import os
    import subprocess
    import sys

    commands = [["runs", "list"], ["runs", "show"], ["execute", "t", "--workspace", str(tmp_path)],
                ["continue", "r20260101T000000-00000000", "more"], ["doctor"], ["cleanup", "--dry-run"], ["demo"],
                ["setup", "--help"]]
    code = ("import contextlib, io, sys\nfrom relay.doors.cli import main\n"
            f"for args in {commands!r}:\n"
            "    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            "        try:\n            main(args)\n        except SystemExit:\n            pass\n"
            "    print(args[0], sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')))\n")
    env = {**os.environ, "GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path / "home"),
           "AGY_BIN": str(tmp_path / "no-agy")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env,
                         encoding="utf-8", stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"{args[0]} []" for args in commands], out.stdout


def test_serve_loads_the_sdk_with_the_collector_paused_then_frozen(monkeypatch):
    # A serve that starts and stops at once spent ~1.2-1.5 s of CPU, ~0.7-0.9 s with the SDK's ~100,000 objects
    # frozen: the collections the import triggered and the full one at exit walked them all.
    import gc

    from relay.doors import cli

    calls = []
    for name in ("disable", "freeze", "enable"):
        real = getattr(gc, name)
        monkeypatch.setattr(gc, name, lambda real=real, name=name: (calls.append(name), real())[1])
    serve = cli._load_server()
    assert calls == ["disable", "freeze", "enable"] and gc.isenabled()
    from relay.doors.mcp_server import serve as the_server

    assert serve is the_server
