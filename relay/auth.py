"""Auth preflight: a cheap probe before a worker run, shared, cached, retried once when transient.

The probe is ``agy models``: it needs a signed-in account (signed out it says
"Please sign in" and exits 1) but spends no model quota. One probe is in flight
at a time and every concurrent caller awaits its answer; a healthy answer is
cached for ``cache_seconds`` and refreshed by every successful run. A timeout is
transient and retried once with backoff (tenacity); a login prompt is final.
"""

from __future__ import annotations

import logging
import time

import anyio
from tenacity import AsyncRetrying, retry_if_result, stop_after_attempt, wait_exponential

from .classify import TRANSIENT, Verdict, parse_reset
from .contracts import Status
from .process import run_capture

__all__ = ["AuthPreflight", "judge_probe", "PROBE_TIMEOUT"]

log = logging.getLogger("relay.auth")

PROBE_TIMEOUT = 25.0

_LOGIN_HINT = (
    "agy is signed out. Run `agy` once in a terminal on this machine and finish the Google login, then call again."
)


def judge_probe(exit_code: int | None, stdout: str, stderr: str, timed_out: bool) -> Verdict | None:
    """None when healthy (or when the probe says nothing about auth: the worker run will tell)."""
    text = stdout + "\n" + stderr
    if timed_out:
        if "keyringAuth: timed out" in text:
            return Verdict(status=Status.KEYRING_TIMEOUT, message="agy's keyring access timed out during the auth probe",
                           hint="Start the relay from a desktop session with D-Bus, or unlock the keyring.")
        return Verdict(status=Status.AUTH_TIMEOUT, message=f"agy's auth probe (`agy models`) did not answer within {PROBE_TIMEOUT:g}s",
                       hint="Usually transient (retried once). If it persists, run `agy models` in a terminal.")
    if "Please sign in" in text or "Authentication required" in text or "Waiting for authentication" in text:
        return Verdict(status=Status.LOGIN_REQUIRED, message="agy is not signed in (`agy models` asked for a sign-in)",
                       hint=_LOGIN_HINT)
    if "keyringAuth: timed out" in text:
        return Verdict(status=Status.KEYRING_TIMEOUT, message="agy's keyring access timed out during the auth probe",
                       hint="Start the relay from a desktop session with D-Bus, or unlock the keyring.")
    if "quota reached" in text.lower() or "RESOURCE_EXHAUSTED" in text:
        return Verdict(status=Status.QUOTA_EXHAUSTED, message="agy's quota is used up", hint="Wait for the reset.",
                       resets_in_seconds=parse_reset(text))
    if exit_code not in (0, None):
        log.warning("auth probe exited %s (not an auth answer); going on: %s", exit_code, stderr.strip()[:200])
    return None


class AuthPreflight:
    def __init__(self, cache_seconds: float = 60.0) -> None:
        self.cache_seconds = cache_seconds
        self._healthy_until = 0.0
        self._inflight: anyio.Event | None = None
        self._last: Verdict | None = None
        self.probes = 0

    def mark_healthy(self) -> None:
        """A successful worker run proves the login works: refresh the cache."""
        self._healthy_until = time.monotonic() + self.cache_seconds

    def forget(self) -> None:
        self._healthy_until = 0.0

    async def check(self, agy: str, env: dict[str, str]) -> Verdict | None:
        if time.monotonic() < self._healthy_until:
            return None
        if self._inflight is not None:
            event = self._inflight
            await event.wait()
            return self._last
        self._inflight = anyio.Event()
        self._last = None
        try:
            self._last = await self._probe_with_retry(agy, env)
            if self._last is None:
                self.mark_healthy()
            return self._last
        finally:
            event, self._inflight = self._inflight, None
            event.set()

    async def _probe_with_retry(self, agy: str, env: dict[str, str]) -> Verdict | None:
        retrying = AsyncRetrying(
            stop=stop_after_attempt(2),
            wait=wait_exponential(multiplier=0.5, max=2),
            retry=retry_if_result(lambda v: v is not None and v.status in TRANSIENT),
            retry_error_callback=lambda state: state.outcome.result(),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                verdict = await self._probe(agy, env)
            if not attempt.retry_state.outcome.failed:
                attempt.retry_state.set_result(verdict)
        return verdict

    async def _probe(self, agy: str, env: dict[str, str]) -> Verdict | None:
        self.probes += 1
        try:
            got = await run_capture([agy, "models"], timeout=PROBE_TIMEOUT, env=env)
        except OSError as exc:
            log.warning("auth probe could not start %s: %s", agy, exc)
            return None  # the worker spawn will report SPAWN_ERROR with the path
        return judge_probe(got.exit_code, got.stdout, got.stderr, got.timed_out)
