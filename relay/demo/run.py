"""``gravity-relay demo``: one real task through the whole relay, without a real agy.

Everything is the real relay (policy, record, coordinator, auth preflight,
snapshot, worker spawn and stream, observation, verification, review, run
record) except the worker itself: ``relay/demo_worker.py``, a scripted stand-in
that speaks agy's protocol and edits the files of a throwaway git repository.
The repository and the worker's wrapper live in a temp dir that is removed at
the end; the run record stays in the data dir, like any other run.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec
from msgspec import Struct

from relay.core.contracts import Packet, Profile
from relay.core.settings import Settings

__all__ = ["DEMO_TASK", "DemoResult", "make_demo_repo", "install_demo_worker", "run_demo", "demo_settings"]

DEMO_TASK = (
    "Add a `shout` option to greet() in greet.py: when it is true, return the greeting in upper case. "
    "Keep the default behaviour. Add a unit test for it in tests/test_greet.py."
)

_FILES = {
    "README.md": "# greeter\n\nThe Gravity Relay demo's throwaway project.\n",
    ".gitignore": "__pycache__/\n",
    "greet.py": '"""A tiny greeter."""\n\n\ndef greet(name: str) -> str:\n    return f"Hello, {name}!"\n',
    "tests/test_greet.py": (
        "import unittest\n\nfrom greet import greet\n\n\n"
        "class GreetTest(unittest.TestCase):\n"
        "    def test_greets_by_name(self):\n"
        '        self.assertEqual(greet("Ada"), "Hello, Ada!")\n'
    ),
    "run_tests.py": (
        '"""Run the tests; print a pytest-style count line."""\n'
        "import sys\nimport unittest\n\n"
        'suite = unittest.defaultTestLoader.discover("tests")\n'
        "result = unittest.TextTestRunner(stream=sys.stderr, verbosity=0).run(suite)\n"
        "failed = len(result.failures) + len(result.errors)\n"
        "passed = result.testsRun - failed\n"
        'print(f"{failed} failed, {passed} passed" if failed else f"{passed} passed")\n'
        "sys.exit(1 if failed else 0)\n"
    ),
}


class DemoResult(Struct, kw_only=True):
    packet: Packet
    record_path: str
    run_files: list[str]
    transcript_bytes: int
    packet_bytes: int
    view_bytes: int  # its review read (detail="diff"), what a leader reads before it accepts the run
    workspace: str
    git: bool


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "user.name=Gravity Relay demo",
         "-c", "user.email=demo@gravity-relay.invalid", "-c", "commit.gpgsign=false", *args],
        cwd=repo, check=True, capture_output=True, stdin=subprocess.DEVNULL, env=env, timeout=60,
    )


def make_demo_repo(path: Path) -> bool:
    """A small Python project with one commit; False when git is missing (a plain folder then)."""
    for name, text in _FILES.items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    if shutil.which("git") is None:
        return False
    _git(path, "init", "-q")
    _git(path, "add", "-A")
    _git(path, "commit", "-q", "-m", "greeter: initial")
    return True


def install_demo_worker(bin_dir: Path, *, windows: bool | None = None) -> Path:
    """An executable ``agy`` that runs relay/demo/worker.py with this interpreter. On Windows the worker script
    itself: the relay runs a Python agy with its own interpreter (relay/agy/executable.py), never through a
    batch file, whose command line cmd.exe would read again."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    worker = Path(__file__).resolve().with_name("worker.py")
    if os.name == "nt" if windows is None else windows:
        return worker
    wrapper = bin_dir / "agy"
    wrapper.write_text(
        f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -I -S {shlex.quote(str(worker))} \"$@\"\n", encoding="utf-8"
    )
    wrapper.chmod(0o755)
    return wrapper


def demo_settings(base: Settings, *, agy: Path, workspace: Path) -> Settings:
    """The user's settings (data dir included) with the demo's worker and a profile that verifies."""
    verify = f"{shlex.quote(sys.executable)} run_tests.py" if os.name != "nt" else f'"{sys.executable}" run_tests.py'
    profile = Profile(workspace=str(workspace), verify=[verify], timeout_minutes=5.0,
                      description="gravity-relay demo: a throwaway repository and a scripted worker")
    return msgspec.structs.replace(
        base, agy_bin=str(agy), profiles={"demo": profile}, profile_source="gravity-relay demo", profile_error=None,
        default_profile="demo", fixed_constraints=[], allowed_roots=[],
    )


async def run_demo(base: Settings, *, progress=None, environ: dict[str, str] | None = None) -> DemoResult:
    from relay.core.contracts import Detail, ExecuteInput, GetResultInput
    from relay.call.orchestrate import Relay
    from relay.call.progress import no_progress
    from relay.runs.results import encode, packet_object
    from relay.runs.store import RunStore

    with tempfile.TemporaryDirectory(prefix="gravity-relay-demo-") as tmp:
        root = Path(tmp).resolve()
        repo = root / "greeter"
        repo.mkdir()
        has_git = make_demo_repo(repo)
        agy = install_demo_worker(root / "bin")
        exec_dir = None
        if not os.access(agy, os.X_OK):
            # A temp dir mounted noexec: put the wrapper beside the data dir instead, removed below too.
            base.data_dir.mkdir(parents=True, exist_ok=True)
            exec_dir = Path(tempfile.mkdtemp(prefix=".demo-bin-", dir=base.data_dir))
            agy = install_demo_worker(exec_dir)
        try:
            settings = demo_settings(base, agy=agy, workspace=repo)
            relay = Relay(settings, environ=environ)
            packet = await relay.execute(ExecuteInput(task=DEMO_TASK, workspace=str(repo)), progress or no_progress)
        finally:
            if exec_dir is not None:
                shutil.rmtree(exec_dir, ignore_errors=True)

    store = RunStore(settings.runs_dir)
    record = store.read(packet.run_id)
    record.tool = "demo"  # set after the fact: the run went through the ordinary execute path
    store.write(record)
    transcript = Path(record.process.transcript) if record.process.transcript else None
    transcript_bytes = transcript.stat().st_size if transcript and transcript.exists() else 0
    _, view = relay.get_result(GetResultInput(run_id=packet.run_id, detail=Detail.DIFF))
    return DemoResult(
        packet=packet,
        record_path=str(store.record_path(packet.run_id)),
        run_files=[str(p) for p in store.run_files(packet.run_id)],
        transcript_bytes=transcript_bytes,
        packet_bytes=len(encode(packet_object(packet))),
        view_bytes=len(view.encode()),
        workspace=str(repo),
        git=has_git,
    )


def demo_main(settings: Settings, *, as_json: bool = False) -> int:
    """The ``gravity-relay demo`` command: run, print the packet, say what it saved and where the record is."""
    import anyio

    from relay.runs.results import encode, packet_object

    out = sys.stdout
    err = sys.stderr
    started = time.monotonic()

    async def progress(elapsed: float, message: str) -> None:
        err.write(f"  … {elapsed:4.1f}s {message}\n")
        err.flush()

    if not as_json:
        out.write("Gravity Relay demo: one real task through the whole relay; a scripted worker stands in for agy\n"
                  "(it edits files like agy would, calls no model). Nothing else is simulated.\n\n"
                  f"task: {DEMO_TASK}\n\n")
        out.flush()
    from relay.core.errors import RelayError

    try:
        result = anyio.run(lambda: run_demo(settings, progress=None if as_json else progress))
    except (OSError, subprocess.SubprocessError, RelayError) as exc:
        err.write(f"gravity-relay demo: could not run: {getattr(exc, 'message', None) or exc}\n"
                  "  `gravity-relay doctor` checks the data dir and the rest of the set-up.\n")
        return 1
    obj = packet_object(result.packet)
    if as_json:
        out.write(encode(obj).decode() + "\n")
        return 0 if result.packet.ok else 1

    saved = result.transcript_bytes - result.packet_bytes
    share = f" ({saved / result.transcript_bytes:.0%} less)" if result.transcript_bytes and saved > 0 else ""
    out.write(f"workspace: {result.workspace} (a throwaway {'git repository' if result.git else 'folder: git not found'},"
              " now removed)\n\n")
    out.write("review packet (what the leader reads):\n")
    out.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n\n")
    out.write(f"The worker streamed {result.transcript_bytes:,} bytes of NDJSON; the leader read a "
              f"{result.packet_bytes:,}-byte packet instead: {max(saved, 0):,} bytes it did not have to read{share}.\n"
              "A real agy transcript is larger still (every step, tool output and usage report).\n\n")
    out.write(f"Run record: {result.record_path}\n")
    others = [f for f in result.run_files if f != result.record_path]
    if others:
        out.write("  with: " + ", ".join(Path(f).name for f in others) + "\n")
    out.write(f"  read it with: gravity-relay runs show {result.packet.run_id} --detail full\n")
    out.write(f"  its review read, the targets' changed lines ({result.view_bytes:,} bytes; detail=\"diff\"): "
              f"gravity-relay runs diff {result.packet.run_id}\n")
    out.write(f"The temporary repository and the demo worker were removed; {time.monotonic() - started:.1f}s in all.\n")
    return 0 if result.packet.ok else 1
