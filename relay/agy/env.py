"""Every agy launch's environment: an allowlist, never the relay's whole environment.

One function for every launch, whatever its purpose: the worker, the auth probe
(`agy models`), the version reads (`agy --version` at serve start-up, per run and
in the guide), doctor's probes and its write probe.

agy inherits what it needs to authenticate (HOME, PATH, the D-Bus/XDG session
that reaches the keyring, locale, proxies, and the non-OAuth credentials agy's
own auth reads: an API key, Application Default Credentials) and nothing meant
for other tools: no other cloud, VCS or model providers' credentials, and none
of agy's own session variables (a child would otherwise join its parent's
conversation).
"""

from __future__ import annotations

from collections.abc import Mapping

from relay.core.settings import WORKER_MARKER_ENV

__all__ = ["build_worker_env", "AGY_AUTH_KEYS", "KEEP", "KEEP_PREFIXES"]

# What agy's own auth reads besides its OAuth token (documented in docs/configuration.md, "agy's own credentials").
AGY_AUTH_KEYS = ("GEMINI_API_KEY", "USE_ADC", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT",
                 "AGY_ADC_AUTH", "GOOGLE_CLOUD_QUOTA_PROJECT", "GOOGLE_CLOUD_LOCATION")

KEEP = frozenset(
    {
        "HOME", "PATH", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TZ",
        "TMPDIR", "TEMP", "TMP",
        "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
        "XDG_CACHE_HOME", "XDG_STATE_HOME", "DISPLAY", "WAYLAND_DISPLAY",
        "SSL_CERT_FILE", "SSL_CERT_DIR",
        "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
        # agy's own non-OAuth auth (agy-protocol.md §6.5): GEMINI_API_KEY when settings name
        # modelProvider gemini; ADC with USE_ADC=1 (1.0.11+), which reads these Google Cloud variables.
        "GEMINI_API_KEY", "USE_ADC", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT",
        # Enterprise ADC (agy-protocol.md §7.4): AGY_ADC_AUTH=true (an AGY_* variable, kept by its prefix) with
        # the quota project and location it reads.
        "GOOGLE_CLOUD_QUOTA_PROJECT", "GOOGLE_CLOUD_LOCATION",
        # Windows needs these to start anything at all.
        "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "APPDATA", "LOCALAPPDATA", "USERPROFILE", "PROGRAMDATA",
        "COMSPEC", "PATHEXT", "HOMEDRIVE", "HOMEPATH",
    }
)
# agy's own settings travel as AGY_*; ANTIGRAVITY_* are its per-session variables and are dropped.
KEEP_PREFIXES = ("LC_", "AGY_")


def build_worker_env(base: Mapping[str, str], *, run_id: str, passthrough: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {key: value for key, value in base.items() if key in KEEP or key.startswith(KEEP_PREFIXES)}
    env.update(passthrough or {})
    # One measurement on 1.2.11: "1" did nothing, "true" worked (agy-protocol.md §5).
    env["AGY_CLI_DISABLE_AUTO_UPDATE"] = "true"
    env["NO_COLOR"] = "1"
    # A relay started inside this worker (agy loads the same MCP config) sees this and refuses to delegate.
    env[WORKER_MARKER_ENV] = run_id
    return env
