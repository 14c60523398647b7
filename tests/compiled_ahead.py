"""Byte code written once, before xdist's workers start (called by conftest.py in the controller only).

On a fresh checkout (CI's clone) nothing is compiled yet, and every xdist worker, started at the same moment,
compiled the relay's modules and assertion-rewrote every test module itself while it collected: ~6.5 s of CPU
a worker (collection 9.5-11 s cold against 3.0-3.3 s warm, `pytest --collect-only -n 0`), so four workers
paid ~20 s of CPU for the same files. Here the controller writes them once: the relay's and the suite's
helper modules as ordinary .pyc (``compileall``: only the stale ones), the test modules and conftest files as
pytest's own rewritten .pyc, which every worker then reads (pytest checks a source hash before it trusts
one). Written whatever PYTHONDONTWRITEBYTECODE says: it is a cache the workers would write themselves
(conftest sets ``sys.dont_write_bytecode = False``). A failure here costs only the time it would have saved.

The pytest plugins' own modules too (anyio's, pytest-subprocess', xdist's: ~54 modules pytest rewrites as it loads
them, before any conftest runs): where PYTHONDONTWRITEBYTECODE=1 is exported, as on this machine, no process ever
wrote their rewritten .pyc, so the controller and every worker rewrote all of them again at each start (~0.3 s of
CPU a process). The controller has loaded them by now; their .pyc goes beside the plugin's own, where pytest keeps it.
"""

from __future__ import annotations

import compileall
import contextlib
import logging
import os
import re
import sys
from pathlib import Path

__all__ = ["compile_ahead"]

log = logging.getLogger(__name__)

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


# Files pytest rewrites itself (their ordinary .pyc would never be read).
_REWRITTEN = re.compile(r"(^|/)(test_[^/]*|conftest)\.py$")


def _test_modules(where: Path) -> list[Path]:
    """What pytest rewrites here: its test files (``test_*.py``, pytest's default ``python_files``) and conftest files,
    in tests/ and its packages one level down (realclients); deeper folders hold data."""
    return sorted(path for pattern in ("test_*.py", "conftest.py") for level in ("", "*/")
                  for path in where.glob(level + pattern) if level == "" or (path.parent / "__init__.py").is_file())


def _rewritten_plugins() -> list[Path]:
    """The modules this process loaded through pytest's assertion rewriter that are no test module of ours: the
    plugins' (pytest rewrites every module of a plugin package it loads)."""
    from _pytest.assertion.rewrite import AssertionRewritingHook

    found = set()
    for module in list(sys.modules.values()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None)
        if isinstance(getattr(module, "__loader__", None), AssertionRewritingHook) and origin:
            found.add(Path(origin))
    return sorted(path for path in found if not path.is_relative_to(TESTS))


def compile_ahead(config) -> None:
    """Compile the relay, bench and the suite's helpers; rewrite the test modules and the plugins' (stale or missing
    ones only)."""
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, get_cache_dir
        from _pytest.assertion.rewrite import assertstate_key
    except ImportError:  # another pytest: its workers compile as before
        return
    compileall.compile_dir(ROOT / "relay", quiet=2)
    # bench/ and tests/ down to where data starts (bench/corpora, tests/fixtures: projects the tests copy).
    compileall.compile_dir(ROOT / "bench", maxlevels=0, quiet=2)
    compileall.compile_dir(TESTS, maxlevels=1, quiet=2, rx=_REWRITTEN)
    try:
        state = config.stash[assertstate_key]
    except KeyError:  # assertion rewriting is off (--assert=plain): nothing to rewrite
        return
    stale = []
    for source in [*_test_modules(TESTS), *_rewritten_plugins()]:
        pyc = get_cache_dir(source) / (source.name[:-3] + PYC_TAIL)
        if _read_pyc(source, pyc) is None:
            stale.append((source, pyc))
    if not stale:
        return

    def rewrite(share: list[tuple[Path, Path]]) -> None:
        for source, pyc in share:
            try:
                pyc.parent.mkdir(exist_ok=True)
                source_hash, code = _rewrite_test(source, config)
                _write_pyc(state, code, source_hash, pyc)
            except (OSError, SyntaxError, ValueError) as exc:  # the worker meets it (and reports it) when it collects
                log.debug("not compiled ahead: %s (%s)", source, exc)

    _shared_out(stale, rewrite)


def _shared_out(stale: list, rewrite) -> None:
    """``rewrite`` the stale modules, shared out among forked copies of this process, one a core (a fresh checkout's
    ~140 modules are ~4 s of CPU: on two cores the workers start ~2 s sooner). Where there is no fork, or one
    module, or one core, this process does them all; a copy that fails leaves its share to the workers."""
    cores = min(os.cpu_count() or 1, 4)
    if cores < 2 or len(stale) < 2 or not hasattr(os, "fork"):
        rewrite(stale)
        return
    shares = [stale[i::cores] for i in range(cores)]
    children = []
    for share in shares[1:]:
        try:
            pid = os.fork()
        except OSError:
            rewrite(share)
            continue
        if pid == 0:  # the copy: its share, then out at once (no atexit, no pytest teardown of the parent's)
            code = 1
            try:
                rewrite(share)
                code = 0
            finally:
                os._exit(code)
        children.append(pid)
    rewrite(shares[0])
    for pid in children:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
