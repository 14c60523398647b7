"""The plan is one Struct, its other shapes derived views (issue 38, §3).

Before, the plan was copied field by field into six Structs by three functions (resolve_plan, record_plan,
plan_argv; the limits twice more, the version-1 record once), so one profile option touched about eight
places. Now the record's plan, agy's invocation and the limits a profile or record sets are views
(``relay.core.views.view``): a field is taken by its name. The rule below fails on any new field-by-field
copy into those Structs.
"""

from __future__ import annotations

import ast

import msgspec

from relay_sources import RELAY, relay_files, walked
VIEWS = {"RunPlan", "RecordPlan", "Limits", "AgyInvocation"}


def _copies(node: ast.Call) -> list[str]:
    """The keywords of a call that copy a same-named attribute: ``model=plan.model``."""
    return [kw.arg for kw in node.keywords
            if kw.arg and isinstance(kw.value, ast.Attribute) and kw.value.attr == kw.arg]


def test_no_module_builds_a_plan_shape_by_copying_its_fields_one_by_one():
    found = []
    for path in relay_files():
        for node in walked(path):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in VIEWS and len(_copies(node)) >= 3:
                found.append(f"{path.relative_to(RELAY)}:{node.lineno} {name}({', '.join(_copies(node))}, …)")
    assert found == [], "derive it with relay.core.views.view instead: " + "; ".join(found)


def test_every_plan_field_the_record_and_agys_invocation_declare_is_carried_by_name(tmp_path):
    from relay.agy.command import AgyInvocation
    from relay.call.intake import record_plan
    from relay.call.limits import Limits
    from relay.call.policy import CallOptions, RunPlan, resolve_plan
    from relay.core.contracts import Profile
    from relay.core.records import RecordPlan
    from relay.core.settings import load_settings
    from relay.core.views import view

    profile = Profile(workspace=str(tmp_path), verify=["pytest -q"], env={"A": "1"}, protected=["*.lock"],
                      max_files=4, on_violation="revert", wait_seconds=7.0, confirm_trusted=True,
                      allow_workspace_agy_config=True, model="m1", effort="high", timeout_minutes=3)
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path.parent / f"{tmp_path.name}.data"),  # beside it
                              "GRAVITY_RELAY_PROFILES": msgspec.json.encode({"p": profile}).decode()})
    plan = resolve_plan(CallOptions(profile="p"), settings)
    assert view(Limits, plan) == Limits(protected=["*.lock"], max_files=4, on_violation="revert")
    # Every option the profile and the plan both name, that the policy does not resolve, reaches the plan as is.
    resolved = {"workspace", "execution_mode", "sandbox", "skip_permissions", "constraints", "model", "effort", "agent",
                "paths", "protected"}
    for name in set(Profile.__struct_fields__) & set(RunPlan.__struct_fields__) - resolved:
        assert getattr(plan, name) == getattr(profile, name), name
    recorded = record_plan(plan, "/bin/agy", (1, 2, 3))
    for name in set(RecordPlan.__struct_fields__) & set(RunPlan.__struct_fields__) - {"on_violation"}:
        assert getattr(recorded, name) == getattr(plan, name), name
    assert recorded.on_violation == "revert" and recorded.agy_version == "1.2.3" and recorded.verify is not plan.verify
    launched = view(AgyInvocation, plan, agy="agy", version=None, prompt="p")
    for name in set(AgyInvocation.__struct_fields__) & set(RunPlan.__struct_fields__):
        assert getattr(launched, name) == getattr(plan, name), name
