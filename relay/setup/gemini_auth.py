"""Which sign-in Gemini CLI's user settings choose: ``gemini -p`` needs one besides the relay's entry."""

from __future__ import annotations

from pathlib import Path

from relay.setup.config_files import load_json, read_config
from relay.setup.toml_edit import SetupError

__all__ = ["GEMINI_SETTINGS_FILE", "GEMINI_AUTH_FIX", "gemini_auth_type"]

GEMINI_SETTINGS_FILE = ".gemini/settings.json"
# What `gemini -p` needs besides the entry: an auth type the user chose (else it exits 41, "Invalid auth
# method selected.", even with GEMINI_API_KEY set). Setup never picks one: it is the user's sign-in.
GEMINI_AUTH_FIX = ('Run `gemini` once and choose how to sign in, or add "security": {"auth": {"selectedType": '
                   '"gemini-api-key"}} (or "oauth-personal", "vertex-ai") to ~/.gemini/settings.json.')


def gemini_auth_type(home: Path) -> tuple[str | None, str | None]:
    """The auth type Gemini CLI's user settings select (``security.auth.selectedType``, or the older
    top-level ``selectedAuthType`` it migrates), and why not when the file cannot be read."""
    try:
        doc = load_json(read_config(home / GEMINI_SETTINGS_FILE))
    except SetupError as exc:
        return None, str(exc)
    security = doc.get("security")
    auth = security.get("auth") if isinstance(security, dict) else None
    chosen = auth.get("selectedType") if isinstance(auth, dict) else None
    if not chosen:
        chosen = doc.get("selectedAuthType")
    return (chosen if isinstance(chosen, str) and chosen.strip() else None), None
