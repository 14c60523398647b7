"""Auth preflight: one probe in flight for everyone, a healthy answer cached, one retry when transient."""

from __future__ import annotations

import anyio
import pytest

import relay.agy.auth as auth
from fake_agy_harness import install_fake_agy, launches, success_scenario
from relay.agy.auth import AuthPreflight, judge_probe
from relay.core.contracts import Status

pytestmark = pytest.mark.anyio


def probes(agy) -> list[dict]:
    return [r for r in launches(agy, print_mode_only=False) if r["mode"] == "models"]


async def test_concurrent_callers_share_one_probe_and_its_healthy_answer_is_cached(tmp_path):
    agy = install_fake_agy(tmp_path, success_scenario([]))
    pre = AuthPreflight(cache_seconds=60)
    answers = []

    async def check() -> None:
        answers.append(await pre.check(str(agy), {"PATH": "/usr/bin:/bin"}))

    async with anyio.create_task_group() as tg:
        for _ in range(4):
            tg.start_soon(check)
    assert answers == [None] * 4
    assert len(probes(agy)) == 1
    assert await pre.check(str(agy), {}) is None
    assert len(probes(agy)) == 1  # cached
    pre.forget()
    await pre.check(str(agy), {})
    assert len(probes(agy)) == 2


async def test_signed_out_probe_is_login_required_and_not_retried(tmp_path):
    scen = success_scenario([])
    scen["models"] = "signed_out"
    agy = install_fake_agy(tmp_path, scen)
    verdict = await AuthPreflight().check(str(agy), {})
    assert verdict.status is Status.LOGIN_REQUIRED and "agy" in verdict.hint
    assert len(probes(agy)) == 1


async def test_probe_timeout_is_retried_once_then_auth_timeout(tmp_path, monkeypatch):
    # Any bound: the probe hangs. Long enough for the fake agy (a Python process) to start and write down its launch on a
    # loaded machine: at 0.2 s a probe was sometimes stopped before it had, and one launch of two went uncounted.
    monkeypatch.setattr(auth, "PROBE_TIMEOUT", 1.0)
    scen = success_scenario([])
    scen["models"] = "hang"
    agy = install_fake_agy(tmp_path, scen)
    verdict = await AuthPreflight().check(str(agy), {})
    assert verdict.status is Status.AUTH_TIMEOUT
    assert len(probes(agy)) == 2


def test_judge_probe_reads_quota_and_unrelated_failures():
    quota = judge_probe(1, "", "error: Individual quota reached. Resets in 2m38s.", False)
    assert quota.status is Status.QUOTA_EXHAUSTED and quota.resets_in_seconds == 158
    assert judge_probe(2, "", "flags provided but not defined: -x", False) is None
    assert judge_probe(0, "gemini-3.1-pro-low\tGemini", "Fetching available models...", False) is None


@pytest.mark.parametrize(("stderr", "status"), [
    ("Error: authentication required. Run 'agy' to log in, then retry.", Status.LOGIN_REQUIRED),
    ("error: AUTHENTICATION REQUIRED. run 'agy' to log in.", Status.LOGIN_REQUIRED),
    ("Error: Please sign in to view available models.", Status.LOGIN_REQUIRED),
    ("Error: Eligibility check failed: Your current account is not eligible for Antigravity. Verify your account "
     "to continue. validation_url: https://accounts.google.com/signin/continue?x=1", Status.ACCOUNT_VERIFICATION_REQUIRED),
    ("Error: Eligibility check failed: UNAUTHENTICATED (code 401)", Status.ACCOUNT_VERIFICATION_REQUIRED),
])
def test_judge_probe_reads_every_sign_in_wording_case_insensitively(stderr, status):
    verdict = judge_probe(1, "", "Fetching available models...\n" + stderr, False)
    assert verdict is not None and verdict.status is status
    if "validation_url" in stderr:
        assert "https://accounts.google.com/signin/continue?x=1" in verdict.hint


def test_judge_probe_cut_short_after_a_sign_out_line_is_login_not_timeout():
    verdict = judge_probe(None, "", "Error: authentication required. Run 'agy' to log in, then retry.\n", True)
    assert verdict.status is Status.LOGIN_REQUIRED


async def test_probe_that_blocks_for_a_paste_ignoring_sigterm_is_stopped_at_its_first_line(tmp_path):
    # agy 1.2.14 prints the sign-out line and then waits for a pasted code, ignoring SIGTERM: the probe
    # used to wait out its whole timeout (twice, as a "transient" AUTH_TIMEOUT) before saying anything.
    scen = success_scenario([])
    scen["models"] = "signed_out_blocking"
    agy = install_fake_agy(tmp_path, scen)
    verdict = await AuthPreflight().check(str(agy), {"PATH": "/usr/bin:/bin"})
    assert verdict.status is Status.LOGIN_REQUIRED
    (probe,) = probes(agy)
    assert probe["signals_ignored"] == [15]  # SIGTERM was ignored, so the group kill went on to SIGKILL
    from fake_agy_harness import pid_alive

    assert not pid_alive(probe["pid"])
