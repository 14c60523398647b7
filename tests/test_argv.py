"""The exact argv the relay hands agy, rule by rule (agy-protocol.md §1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relay.agy.command import (MIN_VERSION, AgyInvocation, agy_fact, build_agy_argv, go_duration, parse_version,
                                report_schema, supports)
from relay.core.contracts import ExecutionMode
from relay.core.settings import Settings

BASE = dict(agy="/bin/agy", version=(1, 2, 17), workspace="/work/p", prompt="do it", execution_mode=None,
            sandbox=False, skip_permissions=False, timeout_seconds=600)


def argv(**kw) -> list[str]:
    fields = {**BASE, **kw}
    fields["extra_dirs"] = tuple(fields.get("extra_dirs") or ())
    return build_agy_argv(AgyInvocation(**fields))


# The whole argv per execution mode. Regression: build_agy_argv ignored execution_mode (only the legacy
# skip_permissions flag chose the flags), and no test asserted a whole argv, so nothing could notice.
_HEAD = ["/bin/agy", "--output-format", "stream-json", "--add-dir", "/work/p"]
_TAIL = ["--disable-slash-commands", "--print-timeout", "600s", "--print=do it"]


def test_build_argv_whole_list_when_the_mode_is_trusted():
    assert argv(execution_mode=ExecutionMode.TRUSTED) == [*_HEAD, "--dangerously-skip-permissions", *_TAIL]


def test_build_argv_whole_list_when_the_mode_is_safe_with_a_sandbox():
    assert argv(execution_mode=ExecutionMode.SAFE, sandbox=True) == [*_HEAD, "--mode", "accept-edits", "--sandbox",
                                                                      *_TAIL]


def test_build_argv_whole_list_when_the_mode_is_safe_without_a_sandbox():
    assert argv(execution_mode=ExecutionMode.SAFE) == [*_HEAD, "--mode", "accept-edits", *_TAIL]


def test_build_argv_whole_list_when_no_mode_is_set():
    assert argv() == [*_HEAD, "--mode", "accept-edits", *_TAIL]
    assert argv(skip_permissions=True) == [*_HEAD, "--dangerously-skip-permissions", *_TAIL]  # the legacy flag


def test_build_argv_whole_list_with_every_option_in_its_place():
    got = argv(execution_mode=ExecutionMode.SAFE, sandbox=True, conversation_id="c-1", model="m", effort="high",
               agent="a", extra_dirs=("/data/prompt",), log_file="/tmp/x.log", schema="{}")
    assert got == ["/bin/agy", "--output-format", "stream-json", "--json-schema", "{}", "--add-dir", "/work/p",
                   "--add-dir", "/data/prompt", "--conversation", "c-1", "--mode", "accept-edits", "--sandbox",
                   "--model", "m", "--effort", "high", "--agent", "a", "--disable-slash-commands",
                   "--print-timeout", "600s", "--log-file", "/tmp/x.log", "--print=do it"]


def test_build_argv_mode_wins_over_the_legacy_flag():
    assert argv(execution_mode=ExecutionMode.SAFE, skip_permissions=True) == [*_HEAD, "--mode", "accept-edits", *_TAIL]


def test_build_argv_prompt_is_last_and_bound_to_its_flag():
    got = argv(prompt="-p --output-format json")
    assert got[-1] == "--print=-p --output-format json"
    assert sum(a.startswith("--print=") or a == "-p" for a in got) == 1


def test_build_argv_default_mode_is_accept_edits_without_sandbox_or_skip():
    got = argv()
    assert got[:3] == ["/bin/agy", "--output-format", "stream-json"]
    assert ["--mode", "accept-edits"] == got[got.index("--mode"):got.index("--mode") + 2]
    assert "--sandbox" not in got and "--dangerously-skip-permissions" not in got


def test_build_argv_trusted_skips_permissions_and_safe_sandboxes():
    trusted = argv(execution_mode=ExecutionMode.TRUSTED, skip_permissions=True)
    assert "--dangerously-skip-permissions" in trusted and "--mode" not in trusted and "--sandbox" not in trusted
    safe = argv(execution_mode=ExecutionMode.SAFE, sandbox=True)
    assert "--sandbox" in safe and "--dangerously-skip-permissions" not in safe
    assert safe[safe.index("--mode") + 1] == "accept-edits"


def test_build_argv_add_dir_is_absolute_and_repeated_per_dir():
    got = argv(extra_dirs=["/data/prompt"])
    pairs = [got[i + 1] for i, a in enumerate(got) if a == "--add-dir"]
    assert pairs == ["/work/p", "/data/prompt"]
    with pytest.raises(ValueError):
        argv(workspace="relative/path")


def test_build_argv_print_timeout_is_a_go_duration():
    got = argv(timeout_seconds=1800)
    assert got[got.index("--print-timeout") + 1] == "1800s"
    assert go_duration(0.2) == "1s"


def test_build_argv_conversation_model_effort_and_schema():
    got = argv(conversation_id="390dbd9d-ac3e-4fc9-9383-8f11318029e0", model="gemini-3.1-pro-low", effort="high",
               schema='{"type":"object"}', log_file="/tmp/x.log")
    assert got[got.index("--conversation") + 1] == "390dbd9d-ac3e-4fc9-9383-8f11318029e0"
    assert got[got.index("--model") + 1] == "gemini-3.1-pro-low"
    assert got[got.index("--effort") + 1] == "high"
    assert got[got.index("--json-schema") + 1] == '{"type":"object"}'
    assert got[got.index("--log-file") + 1] == "/tmp/x.log"


def test_build_argv_gates_flags_on_the_detected_version():
    old = argv(version=(1, 1, 4), effort="high", schema='{"type":"object"}')
    assert "--effort" not in old and "--disable-slash-commands" not in old and "--json-schema" not in old
    new = argv(version=(1, 1, 9), effort="high")
    assert "--effort" in new and "--disable-slash-commands" in new
    unknown = argv(version=None, effort="high")
    assert "--effort" in unknown
    assert not supports((1, 1, 7), "--output-format") and MIN_VERSION == (1, 1, 8)


def test_report_schema_root_is_a_plain_object_without_refs():
    schema = json.loads(report_schema())
    assert schema["type"] == "object" and "$ref" not in json.dumps(schema)
    assert {"summary", "files_changed"} <= set(schema["required"])


def test_parse_version_reads_agy_version_output():
    assert parse_version("1.1.12\n") == (1, 1, 12)
    assert parse_version("agy version 1.2.17 (abc)") == (1, 2, 17)
    assert parse_version("garbage") is None


def test_agy_fact_reads_version_once_from_agy(fp, tmp_path: Path):
    agy = tmp_path / "agy"
    agy.write_text("#!/bin/sh\n")
    agy.chmod(0o755)
    fp.register([str(agy), "--version"], stdout="1.1.12\n")
    assert agy_fact(Settings(data_dir=tmp_path, agy_bin=str(agy))) == (str(agy), "1.1.12")
    assert fp.call_count([str(agy), "--version"]) == 1


def test_agy_fact_when_version_command_fails(fp, tmp_path: Path):
    agy = tmp_path / "agy"
    agy.write_text("#!/bin/sh\n")
    agy.chmod(0o755)
    fp.register([str(agy), "--version"], returncode=2, stderr="flags provided but not defined: -version\n")
    assert agy_fact(Settings(data_dir=tmp_path, agy_bin=str(agy))) == (str(agy), None)


def test_read_version_asks_agy_once_per_binary_and_again_after_an_update(tmp_path: Path):
    # Broke: `agy --version` was probed three ways (serve start-up, every run's own cache, doctor).
    import os

    from fake_agy_harness import install_fake_agy, launches, success_scenario
    from relay.agy.command import read_version

    agy = install_fake_agy(tmp_path / "bin", success_scenario([]))
    first = read_version(str(agy))
    assert first.version == (1, 2, 17) and read_version(str(agy)) == first
    assert [r["mode"] for r in launches(agy, print_mode_only=False)] == ["version"]
    stat = agy.stat()
    os.utime(agy, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # what `agy update` does to the file
    assert read_version(str(agy)).version == (1, 2, 17)
    assert [r["mode"] for r in launches(agy, print_mode_only=False)] == ["version", "version"]
