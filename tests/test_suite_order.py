"""conftest.START_FIRST hands the longest tests out first; a renamed one would silently fall back to file order."""

from __future__ import annotations

import importlib

from conftest import START_FIRST


def test_every_test_named_to_start_first_exists():
    missing = []
    for name in START_FIRST:
        file_name, function = name.split("::")
        if not callable(getattr(importlib.import_module(file_name.removesuffix(".py")), function, None)):
            missing.append(name)
    assert missing == []


def test_what_collection_leaves_alive_is_frozen_for_the_collector():
    # conftest.pytest_collection_finish: the SDK, the relay and pytest's items outlive every test; unfrozen, each
    # full pass of the cyclic collector walked them again (~0.1 s a pass in a worker, a pass every few dozen tests).
    import gc

    assert gc.get_freeze_count() > 10_000  # ~40,000 when only this file is collected, ~300,000 for the suite


def test_a_plugin_module_pytest_rewrote_before_bytecode_could_be_written_gets_its_rewritten_pyc_ahead(
        tmp_path, monkeypatch, request):
    # compiled_ahead: pytest rewrites the plugins' modules as it loads them, before conftest.py lets byte code be
    # written (PYTHONDONTWRITEBYTECODE=1 exported); nothing wrote their .pyc, so every process rewrote them again.
    import sys

    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, assertstate_key, get_cache_dir

    from compiled_ahead import compile_ahead

    package = tmp_path / "site" / "suite_plugin_probe"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("def check(x):\n    assert x == 1\n", encoding="utf-8")
    source = package / "__init__.py"
    pyc = get_cache_dir(source) / ("__init__" + PYC_TAIL)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # as when pytest loads its plugins, on this machine
    request.config.stash[assertstate_key].hook.mark_rewrite("suite_plugin_probe")
    monkeypatch.delitem(sys.modules, "suite_plugin_probe", raising=False)
    import suite_plugin_probe  # noqa: F401  (loaded through the rewriter, as a plugin's module is)

    monkeypatch.setitem(sys.modules, "suite_plugin_probe", sys.modules["suite_plugin_probe"])  # gone after the test
    assert type(sys.modules["suite_plugin_probe"].__loader__).__name__ == "AssertionRewritingHook"
    assert not pyc.exists()
    compile_ahead(request.config)
    assert _read_pyc(source, pyc) is not None
