"""Per client: how to point it at the fake model (its own business, not the relay's) and how to run it headless.

Nothing here configures the relay: that is `gravity-relay setup --client X` alone (see home.py).
Each client's non-essential traffic (update checks, telemetry) is switched off where the client
has a setting for it, so the only server a run talks to is the loopback fake.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .anthropic_api import MessagesAdapter
from .dialogue import Delegation
from .gemini_api import GeminiAdapter
from .home import ClientHome
from .openai_api import ResponsesAdapter

__all__ = ["Driver", "DRIVERS", "PROMPT"]

PROMPT = "Delegate this task to the Antigravity worker: add hello.txt."
FAKE_KEY = "fake-key-for-the-loopback-model"


class Driver:
    def __init__(self, name: str, adapter: Callable[[Delegation], Any],
                 prepare: Callable[[ClientHome, str, Path], dict[str, str]], headless: Callable[[Path], list[str]],
                 needs: str) -> None:
        self.name = name
        self.adapter = adapter
        self.prepare = prepare  # (home, fake model URL, workspace) -> the client's own env; runs BEFORE setup
        self.headless = headless  # client binary -> argv of one headless run
        self.needs = needs  # what headless mode needed, for the report

    def __repr__(self) -> str:
        return self.name


def _codex(home: ClientHome, url: str, workspace: Path) -> dict[str, str]:
    # A custom model provider on the Responses wire; setup must keep these keys when it edits the file.
    config = home.home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        'model = "fake-model"\n'
        'model_provider = "fake"\n'
        "check_for_update_on_startup = false\n\n"
        "[model_providers.fake]\n"
        'name = "Loopback fake model"\n'
        f'base_url = "{url}/v1"\n'
        'env_key = "FAKE_OPENAI_API_KEY"\n'
        'wire_api = "responses"\n', encoding="utf-8")
    return {"FAKE_OPENAI_API_KEY": FAKE_KEY}


def _claude(home: ClientHome, url: str, workspace: Path) -> dict[str, str]:
    return {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": FAKE_KEY,
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}


def _gemini(home: ClientHome, url: str, workspace: Path) -> dict[str, str]:
    gemini = home.home / ".gemini"
    gemini.mkdir(parents=True, exist_ok=True)
    # The API-key auth (else -p stops with "Invalid auth method selected"), no usage statistics.
    (gemini / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    }, indent=2) + "\n", encoding="utf-8")
    # The user trusts the project folder (Gemini connects no MCP server in an untrusted one).
    (gemini / "trustedFolders.json").write_text(json.dumps({str(workspace): "TRUST_FOLDER"}, indent=2) + "\n", encoding="utf-8")
    return {"GEMINI_API_KEY": FAKE_KEY, "GOOGLE_GEMINI_BASE_URL": url}


DRIVERS: dict[str, Driver] = {
    d.name: d for d in (
        Driver("codex", ResponsesAdapter, _codex, lambda exe: [str(exe), "exec", PROMPT],
               "`codex exec PROMPT` in a git repo; model provider in config.toml"),
        Driver("claude", MessagesAdapter, _claude, lambda exe: [str(exe), "-p", PROMPT],
               "`claude -p PROMPT`; ANTHROPIC_BASE_URL + ANTHROPIC_API_KEY"),
        Driver("gemini", GeminiAdapter, _gemini, lambda exe: [str(exe), "-p", PROMPT],
               "`gemini -p PROMPT` in a folder listed in ~/.gemini/trustedFolders.json; "
               "security.auth.selectedType = gemini-api-key; GEMINI_API_KEY + GOOGLE_GEMINI_BASE_URL"),
    )
}
