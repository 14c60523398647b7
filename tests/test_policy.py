"""Policy: profiles, narrowing, conflicts and workspaces, refused before anything runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from relay.core.contracts import ExecutionMode, Status
from relay.core.errors import RelayError
from relay.call.policy import CallOptions, resolve_plan
from relay.core.settings import load_settings


def settings_for(tmp_path: Path, **env: str):
    # Beside tmp_path, which the tests use as a workspace: a workspace holding the data dir is refused.
    return load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path.parent / f"{tmp_path.name}.data"), **env})


def refused(call: CallOptions, settings) -> RelayError:
    with pytest.raises(RelayError) as info:
        resolve_plan(call, settings)
    return info.value


@pytest.mark.parametrize(
    "options",
    [
        dict(execution_mode=ExecutionMode.SAFE, skip_permissions=True),
        dict(execution_mode=ExecutionMode.TRUSTED, sandbox=True),
        dict(sandbox=True, skip_permissions=True),
    ],
)
def test_resolve_plan_conflicting_pairs_are_refused(tmp_path, options):
    err = refused(CallOptions(workspace=str(tmp_path), **options), settings_for(tmp_path))
    assert err.status is Status.CONFLICTING_OPTIONS
    assert err.hint


def test_resolve_plan_modes_map_to_sandbox_and_skip(tmp_path):
    s = settings_for(tmp_path, GRAVITY_RELAY_PROFILES='{"t": {"execution_mode": "trusted"}}')
    trusted = resolve_plan(CallOptions(profile="t", workspace=str(tmp_path), execution_mode=ExecutionMode.TRUSTED), s)
    assert (trusted.sandbox, trusted.skip_permissions) == (False, True)
    safe = resolve_plan(CallOptions(workspace=str(tmp_path), execution_mode=ExecutionMode.SAFE), s)
    assert (safe.sandbox, safe.skip_permissions) == (True, False)
    legacy = resolve_plan(CallOptions(workspace=str(tmp_path)), s)
    assert (legacy.sandbox, legacy.skip_permissions) == (False, False)


def test_resolve_plan_workspace_rules(tmp_path):
    s = settings_for(tmp_path)
    assert refused(CallOptions(workspace="rel/path"), s).status is Status.INVALID_WORKSPACE
    assert refused(CallOptions(workspace=str(tmp_path / "missing")), s).status is Status.INVALID_WORKSPACE
    assert refused(CallOptions(workspace="/"), s).status is Status.INVALID_WORKSPACE
    assert refused(CallOptions(), s).status is Status.INVALID_WORKSPACE


def test_resolve_plan_allowed_roots_compare_real_paths(tmp_path):
    allowed = tmp_path / "allowed"
    outside = tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    os.symlink(outside, allowed / "escape")
    s = settings_for(tmp_path, GRAVITY_RELAY_ALLOWED_ROOTS=f"{allowed};/nonexistent")
    (allowed / "proj").mkdir()
    assert resolve_plan(CallOptions(workspace=str(allowed / "proj")), s).workspace == str((allowed / "proj").resolve())
    err = refused(CallOptions(workspace=str(allowed / "escape")), s)
    assert err.status is Status.INVALID_WORKSPACE and "outside the allowed roots" in err.message


def test_resolve_plan_default_profile_supplies_everything_and_call_may_only_narrow(tmp_path):
    proj = tmp_path / "proj"
    (proj / "sub").mkdir(parents=True)
    profiles = ('{"app": {"workspace": "%s", "execution_mode": "safe", "timeout_minutes": 20, '
                '"constraints": ["no new deps"]}}' % proj)
    s = settings_for(tmp_path, GRAVITY_RELAY_PROFILES=profiles, GRAVITY_RELAY_DEFAULT_PROFILE="app",
                     GRAVITY_RELAY_FIXED_CONSTRAINTS='["never touch .env"]')
    plan = resolve_plan(CallOptions(), s)
    assert plan.workspace == str(proj.resolve()) and plan.sandbox and not plan.skip_permissions
    assert plan.constraints == ["never touch .env", "no new deps"]
    assert plan.timeout_seconds == 20 * 60
    narrowed = resolve_plan(CallOptions(workspace=str(proj / "sub"), timeout_minutes=60), s)
    assert narrowed.workspace.endswith("sub") and narrowed.timeout_seconds == 20 * 60 and narrowed.notes
    assert refused(CallOptions(execution_mode=ExecutionMode.TRUSTED), s).status is Status.CONFLICTING_OPTIONS
    assert refused(CallOptions(workspace=str(tmp_path)), s).status is Status.INVALID_WORKSPACE


def test_resolve_plan_unknown_profile_names_the_defined_ones(tmp_path):
    s = settings_for(tmp_path, GRAVITY_RELAY_PROFILES='{"a": {}, "b": {}}')
    err = refused(CallOptions(profile="c", workspace=str(tmp_path)), s)
    assert err.status is Status.INVALID_INPUT and "a, b" in err.hint


def test_load_settings_bad_profile_names_source_key_and_accepted_fields(tmp_path):
    path = tmp_path / "profiles.json"
    path.write_text('{"app": {"workspace": "/x", "mode": "fast"}}', encoding="utf-8")
    s = settings_for(tmp_path, GRAVITY_RELAY_PROFILE_FILE=str(path))
    assert str(path) in s.profile_error and "mode" in s.profile_error and "execution_mode" in s.profile_error
    err = refused(CallOptions(workspace=str(tmp_path)), s)
    assert err.status is Status.INVALID_INPUT and "doctor" in err.hint


def test_load_settings_bad_execution_mode_value_names_accepted_values(tmp_path):
    s = settings_for(tmp_path, GRAVITY_RELAY_PROFILES='{"app": {"execution_mode": "yolo"}}')
    assert "safe" in s.profile_error and "trusted" in s.profile_error


def test_load_settings_fixed_constraints_one_per_line(tmp_path):
    s = settings_for(tmp_path, GRAVITY_RELAY_FIXED_CONSTRAINTS="a\n\n b \n")
    assert s.fixed_constraints == ["a", "b"]


def test_resolve_plan_legacy_booleans_cannot_widen_a_profile(tmp_path):
    profiles = '{"boxed": {"workspace": "%s", "sandbox": true}, "asks": {"workspace": "%s", "skip_permissions": false}}' % (
        tmp_path, tmp_path)
    s = settings_for(tmp_path, GRAVITY_RELAY_PROFILES=profiles)
    assert refused(CallOptions(profile="boxed", sandbox=False), s).status is Status.CONFLICTING_OPTIONS
    assert refused(CallOptions(profile="asks", skip_permissions=True), s).status is Status.CONFLICTING_OPTIONS
    assert refused(CallOptions(profile="asks", execution_mode=ExecutionMode.TRUSTED), s).status is Status.CONFLICTING_OPTIONS
    assert resolve_plan(CallOptions(profile="boxed"), s).sandbox is True
    assert resolve_plan(CallOptions(profile="asks", execution_mode=ExecutionMode.SAFE), s).sandbox is True
