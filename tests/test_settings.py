"""Settings from the environment: every number has a range, and a value outside it stops `serve`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from relay.doors.doctor import run_doctor
from relay.core.settings import load_settings


def settings_with(tmp_path, **env: str):
    return load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), **env})


@pytest.mark.parametrize(
    "key,value,accepted",
    [
        # Regression (issue 13, item 2): inf raised OverflowError and nan ValueError inside load_settings.
        ("GRAVITY_RELAY_MAX_RUNS", "inf", "whole number from 1 to"),
        ("GRAVITY_RELAY_MAX_RUNS", "nan", "whole number from 1 to"),
        ("GRAVITY_RELAY_MAX_RUNS", "-3", "or 0 for no limit"),
        ("GRAVITY_RELAY_MAX_AGE_DAYS", "nan", "number from 0.01 to 36500"),
        ("GRAVITY_RELAY_MAX_AGE_DAYS", "-1", "number from 0.01 to 36500"),
        # Regression: 0 sent ~10,000 progress notifications in 3 s.
        ("GRAVITY_RELAY_PROGRESS_SECONDS", "0", "number from 0.05 to 3600"),
        ("GRAVITY_RELAY_PROGRESS_SECONDS", "inf", "number from 0.05 to 3600"),
        ("GRAVITY_RELAY_TIMEOUT_GRACE_SECONDS", "-5", "number from 1 to 3600"),
        ("GRAVITY_RELAY_KILL_GRACE_SECONDS", "0", "number from 0.1 to 600 (default 3)"),
        ("GRAVITY_RELAY_KILL_GRACE_SECONDS", "3s", "number from 0.1 to 600 (default 3)"),
        ("GRAVITY_RELAY_HTTP_MAX_RPS", "0", "number from 0.1 to 100000"),
        ("GRAVITY_RELAY_HTTP_SESSION_IDLE_MINUTES", "-1", "or 0 for sessions that never expire"),
        ("GRAVITY_RELAY_MAX_SIZE", "inf", "500MB"),
        ("GRAVITY_RELAY_MAX_SIZE", "lots", "500MB"),
    ],
)
def test_load_settings_out_of_range_value_is_a_problem_naming_variable_value_and_range(tmp_path, key, value, accepted):
    settings = settings_with(tmp_path, **{key: value})
    assert len(settings.problems) == 1, settings.problems
    problem = settings.problems[0]
    assert key in problem and repr(value) in problem and accepted in problem


@pytest.mark.parametrize("key,value,field,expected", [
    ("GRAVITY_RELAY_MAX_RUNS", "0", "max_runs", 0),
    ("GRAVITY_RELAY_MAX_RUNS", " 40 ", "max_runs", 40),
    ("GRAVITY_RELAY_MAX_AGE_DAYS", "0", "max_age_days", 0.0),
    ("GRAVITY_RELAY_PROGRESS_SECONDS", "0.5", "progress_interval", 0.5),
    ("GRAVITY_RELAY_KILL_GRACE_SECONDS", "0.5", "kill_grace_seconds", 0.5),
    ("GRAVITY_RELAY_KILL_GRACE_SECONDS", "", "kill_grace_seconds", 3.0),
    ("GRAVITY_RELAY_HTTP_MAX_RPS", "200", "http_max_rps", 200.0),
    ("GRAVITY_RELAY_HTTP_MAX_RPS", "", "http_max_rps", 50.0),
    ("GRAVITY_RELAY_HTTP_SESSION_IDLE_MINUTES", "", "http_session_idle_seconds", 8 * 3600.0),
    ("GRAVITY_RELAY_HTTP_SESSION_IDLE_MINUTES", "0", "http_session_idle_seconds", None),  # never expire
    ("GRAVITY_RELAY_MAX_SIZE", "2GB", "max_size_bytes", 2 * 1024**3),
    ("GRAVITY_RELAY_MAX_SIZE", "500", "max_size_bytes", 500 * 1024**2),
    ("GRAVITY_RELAY_MAX_SIZE", "", "max_size_bytes", 500 * 1024**2),
])
def test_load_settings_accepts_values_in_range(tmp_path, key, value, field, expected):
    settings = settings_with(tmp_path, **{key: value})
    assert settings.problems == [] and getattr(settings, field) == expected


def _relay(args: list[str], tmp_path, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    clean.update({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path), **env})
    return subprocess.run([sys.executable, "-m", "relay", *args], env=clean, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, encoding="utf-8")


def test_serve_with_an_out_of_range_setting_exits_non_zero_naming_it(tmp_path):
    # Regression: serve started anyway, flooding the client with progress notifications.
    got = _relay(["serve"], tmp_path, GRAVITY_RELAY_PROGRESS_SECONDS="0")
    assert got.returncode == 2
    assert "GRAVITY_RELAY_PROGRESS_SECONDS='0'" in got.stderr and "0.05 to 3600" in got.stderr
    assert got.stdout == ""  # stdout belongs to the protocol


def test_doctor_reports_an_out_of_range_setting_as_a_failure(tmp_path):
    settings = settings_with(tmp_path, GRAVITY_RELAY_MAX_RUNS="inf")
    checks = run_doctor(settings, environ={"PATH": ""}, home=tmp_path, probe_timeout=1)
    failures = [c for c in checks if c.name == "settings"]
    assert failures and failures[0].level == "failure" and "GRAVITY_RELAY_MAX_RUNS='inf'" in failures[0].message
    assert "refuses to start" in failures[0].fix
