"""Auth preflight: a cheap probe before a worker run, shared, cached, retried once when transient.

Never beside a worker (agy-protocol.md §7.2: `agy models` starting with a run ended one in three in
`Agent execution terminated due to error.`): the run path probes only while it holds the worker lock
(``Coordinator.idle`` before queueing, or inside its slot), and while another worker runs it relies on
the last answer instead — healthy (cached) or a sign-out (``known_bad``, so a signed-out call behind a
long queue still answers at once).

The probe is ``agy models``: it needs a signed-in account (signed out it says
"Please sign in", or "authentication required. Run 'agy' to log in", and exits
1 — or, on 1.2.14, blocks for a pasted code) but spends no model quota. It is
stopped at the first line that settles it. One probe is in flight
at a time and every concurrent caller awaits its answer; a healthy answer is
cached for ``cache_seconds`` and refreshed by every successful run. A timeout is
transient and retried once with backoff (tenacity); a login prompt is final.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import anyio
import msgspec
from tenacity import AsyncRetrying, retry_if_result, stop_after_attempt, wait_exponential

from relay.agy.classify import LOGIN_CLASS, TRANSIENT, Outcome, Verdict, classify, says
from relay.agy.executable import agy_command, probe_folder
from relay.agy.models import listed_models
from relay.core.contracts import Status
from relay.core.process import ByteTail, Captured, settle, spawned, start_drains, stop_spawned

__all__ = ["AuthPreflight", "judge_probe", "probe_models", "PROBE_TIMEOUT"]

log = logging.getLogger("relay.agy.auth")

PROBE_TIMEOUT = 25.0

def _settles(text: str) -> bool:
    """A line that answers the probe on its own: agy stops to wait for a login or a verification."""
    return (says("signed_out", text) or says("verification", text) or says("oauth_prompt", text)
            or says("keyring_locked", text))


# What a probe can settle; anything else `agy models` says is left for the worker run to tell.
_PROBE_ANSWERS = frozenset({Status.ACCOUNT_VERIFICATION_REQUIRED, Status.LOGIN_REQUIRED, Status.KEYRING_TIMEOUT,
                            Status.QUOTA_EXHAUSTED})


def judge_probe(exit_code: int | None, stdout: str, stderr: str, timed_out: bool,
                timeout: float = PROBE_TIMEOUT) -> Verdict | None:
    """None when healthy (or when the probe says nothing about auth: the worker run will tell). ``timeout``: the
    bound the probe had (doctor --probe-timeout), which a timeout's message names.

    What `agy models` said is read by the classifier's RULES as a failed run's stderr, so a wording, a
    status and a hint are taught once. The sign-in texts are read before the timeout: agy 1.2.14 prints
    "authentication required" and then blocks for a pasted code, so a probe cut short there is a sign-out.
    """
    verdict = classify(Outcome(exit_code=exit_code or 1, stderr=stdout + "\n" + stderr, schema_requested=False))
    if verdict.status in _PROBE_ANSWERS:
        return msgspec.structs.replace(verdict, message=f"auth probe (`agy models`): {verdict.message}")
    if timed_out:
        return Verdict(status=Status.AUTH_TIMEOUT, message=f"agy's auth probe (`agy models`) did not answer within {timeout:g}s",
                       hint="Usually transient (retried once). If it persists, run `agy models` in a terminal.")
    if exit_code not in (0, None):
        log.warning("auth probe exited %s (not an auth answer); going on: %s", exit_code, stderr.strip()[:200])
    return None


async def probe_models(agy: str, env: dict[str, str], timeout: float, *, data_dir: Path | None = None) -> Captured:
    """`agy models`, stopped at the first line that settles it (its group killed, SIGKILL soon after).

    Like ``process.run_capture`` otherwise: own group, stdin closed, tails kept, a hard timeout.
    Raises OSError when agy cannot be started.
    """
    # In an empty folder of its own, never the relay's cwd (usually the project under work): agy ≥ 1.3 may load the
    # `.agents/` configuration of the folder it starts in (executable.probe_folder).
    with probe_folder(data_dir) as folder:
        return await _probe_models_in(folder, agy, env, timeout)


async def _probe_models_in(folder: str, agy: str, env: dict[str, str], timeout: float) -> Captured:
    started = time.monotonic()
    log.info("spawn %s models (auth probe)", agy)
    out, err = ByteTail(64_000), ByteTail(64_000)
    settled = anyio.Event()

    def watching(sink: ByteTail):
        def take(chunk: bytes) -> None:
            sink.feed(chunk)
            if _settles(bytes(sink.data[-4096:]).decode("utf-8", "replace")):  # a line may span chunks
                settled.set()
        return take

    async def exited() -> None:
        await proc.wait()
        settled.set()

    async with spawned([*agy_command(agy), "models"], cwd=folder, env=env, grace=0.5) as proc:
        with anyio.move_on_after(timeout) as scope:
            async with anyio.create_task_group() as tg:
                drained = await start_drains(tg, [(proc.stdout, watching(out)), (proc.stderr, watching(err))])
                tg.start_soon(exited)
                await settled.wait()
                if proc.returncode is None:
                    await stop_spawned(proc, grace=0.5)
                await settle(tg, drained, grace=1.0)
    timed_out = scope.cancelled_caught
    return Captured(exit_code=None if timed_out else proc.returncode, stdout=out.data.decode("utf-8", "replace"),
                    stderr=err.data.decode("utf-8", "replace"), timed_out=timed_out,
                    duration_ms=int((time.monotonic() - started) * 1000))


class AuthPreflight:
    def __init__(self, cache_seconds: float = 60.0, data_dir: Path | None = None) -> None:
        self.cache_seconds = cache_seconds
        self.data_dir = data_dir  # where the probe's folder is made (executable.probe_folder)
        self._healthy_until = 0.0
        self._healthy_at: float | None = None
        self._inflight: anyio.Event | None = None
        self._last: Verdict | None = None
        self._bad: tuple[Verdict, float] | None = None  # the last login-class answer, and when
        self.probes = 0
        # What the last healthy probe's `agy models` listed (None: no listing yet): a model the listing settles
        # agy would refuse is refused before a launch (relay.agy.models).
        self.models: list[str] | None = None

    def mark_healthy(self) -> None:
        """A successful worker run proves the login works: refresh the cache."""
        self._bad = None
        self._healthy_at = time.monotonic()
        self._healthy_until = self._healthy_at + self.cache_seconds

    def forget(self, bad: Verdict | None = None) -> None:
        """The login is no longer known to work; ``bad`` is the login-class answer that said so (a run's)."""
        self._healthy_until = 0.0
        self._healthy_at = None
        if bad is not None and bad.status in LOGIN_CLASS:
            self._bad = (bad, time.monotonic())

    def known_bad(self) -> Verdict | None:
        """The last login-class answer of this relay, within the cache window and with no healthy run since:
        what a call behind a busy worker slot is told at once (agy is not asked beside a running worker)."""
        if self._bad is None or self._healthy_at is not None:
            return None
        verdict, at = self._bad
        ago = time.monotonic() - at
        if ago >= self.cache_seconds:
            return None
        return msgspec.structs.replace(
            verdict, message=f"{verdict.message} (this relay's last check, {ago:.0f}s ago: agy is not asked again "
                             "while another worker runs)",
            hint=f"{verdict.hint} If you have just fixed it, call again once the running worker is done.")

    def healthy_seconds_ago(self) -> float | None:
        """Seconds since the login was last confirmed healthy, None if not within the cache window."""
        now = time.monotonic()
        if self._healthy_at is None or now >= self._healthy_until:
            return None
        return now - self._healthy_at

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
            else:
                self.forget(self._last)
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
            got = await probe_models(agy, env, PROBE_TIMEOUT, data_dir=self.data_dir)
        except OSError as exc:
            log.warning("auth probe could not start %s: %s", agy, exc)
            return None  # the worker spawn will report SPAWN_ERROR with the path
        verdict = judge_probe(got.exit_code, got.stdout, got.stderr, got.timed_out)
        if verdict is None and got.exit_code == 0:
            self.models = listed_models(got.stdout) or None
        return verdict
