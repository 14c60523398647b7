#!/usr/bin/env python3
"""A test double of the Antigravity CLI (``agy``), run as a real subprocess.

It behaves like the real Go binary described in ``agy-protocol.md`` and its captures
(flag parsing, output shapes, exit codes, failure texts), driven by a JSON scenario.
Standard library only, and quick to start. Tests use it through ``tests/fake_agy_harness.py``,
which writes the scenario and a wrapper script named ``agy``.

Environment (set by the wrapper): ``FAKE_AGY_SCENARIO`` (path of the scenario JSON, required),
``FAKE_AGY_STATE`` (state directory; default ``<scenario dir>/agy-state``).

Scenario (every key optional)::

    {"version": "1.2.17",               # what --version prints; gates flags and behaviours
     "version_daemon": {"path": ...},   # `--version` starts a daemon as the launch key "daemon" does (an absolute path)
     "models": "ok" | "signed_out" | "signed_out_current" | "signed_out_blocking" | "verification" |
               "eligibility_401" | "hang",
     "models_sleep": 3600,              # seconds `agy models` sleeps in the "hang" variant
     "model_list": [["slug", "Label"], ...],   # replaces the captured `agy models` output
     "known_models": ["slug", ...],     # if set (1.1.2+), another --model fails: invalid model selection
     "base_models": {"gemini-3.8-flash": ["low", "medium", "high"]},  # 1.3.0+: these ids need --effort
                                        # (`--model X requires --effort (available: …)`, agy-protocol.md §8.1);
                                        # 1.2.17+: --effort with an id `agy models` does not list fails
                                        # `--effort is not supported for model X`; both a lone ERROR result echoed
                                        # on stderr, exit 1 (stream and exit unconfirmed; exit_code overrides)
     "permissions": "lenient" | "strict" | "policy",
     "accept_edits": "writes" | "denied",  # strict + "denied": --mode accept-edits soft-denies edits too (1.1.3)
     "tool_permission": "request-review",  # agy's settings.json toolPermission (policy: request-review | strict |
                                        # proceed-in-sandbox | always-proceed); init.permission_mode reports it
     "deny_rules": ["write_to_file:out.txt", ...],  # "tool" or "tool:file name" a permissions.deny rule refuses
     "hook_denies": ["run_command", ...],   # the same, refused by a pre-tool hook (agy-protocol.md §7.1)
     "stdin_hang": false,               # read stdin to EOF first (an open pipe hangs, like old builds)
     "tools": [...],                    # init.tools
     "launches": [{...}, ...]}          # one per print-mode launch, in order; the last one repeats

Launch keys (every key optional)::

    behaviour       success (default) | login_required | keyring_timeout | quota_1_2_2 |
                    quota_1_2_11 | quota_text | api_error | permission_denied |
                    print_timeout_old | print_timeout_new | hang | empty_output | garbage |
                    no_result | stale_error | invalid_model | banner | no_report | slow | crash |
                    signed_out | please_sign_in_result | auth_timeout_network | verification |
                    quota_print_timeout | upstream | print_timeout_text   (agy-protocol.md §6.4)
                    interrupted | keyring_locked | agy_error_short | background_cut | region   (agy-protocol.md §7)
                    auth_expired | subagent_stall | denied_no_list | soft_deny_log   (agy-protocol.md §8)
    where           invalid_model: "result" (default: a lone ERROR result) | "stderr" (1.2.1's verbatim line on
                    stderr, nothing on stdout, exit 1: agy-protocol.md §8.1)
                    auth_expired: "stderr" (default: the line alone) | "result" (a lone ERROR result carrying it) |
                    "both" (the result, then agy's `error: …` echo on stderr); exit 1 (agy-protocol.md §8.3)
    subagent        subagent_stall: "tool" (an invoke_subagent tool step, default) | "step" (1.3.1's subagent step);
                    subagent_name ("independent reviewer"); returned: the subagent came back with output and the
                    worker answered (default false: the turn ends on the worker's narration, 22,282 output tokens)
    denied          denied_no_list: "write" (write_to_file, `permission check failed for write_file`, default) |
                    "command" (`… for unsandboxed command`); the §8.3 capture: init with only the id, SUCCESS,
                    empty response, no denied_actions, no usage, exit 0
    deny_style      "hard": 1.1.13-1.1.19, a tool the permissions refuse is a hard error (agy-protocol.md §7.1): the
                    step ends ERROR `permission check failed for write_file: user denied permission for write_file`
                    (a command: `… for unsandboxed command: user denied permission to run command`), then an ERROR
                    result carrying it, exit 1, no denied_actions and no jetski line
    denied_action   the denied_actions[].action of a soft deny (1.2.7-1.3.x added "unsandboxed", "execute_url",
                    "mcp", "read_file": agy-protocol.md §7.1); also the permission the jetski line names. Its
                    display_name stays the denied tool's (RunCommand, EditFile) [I]
    output          soft_deny_log: "stream" (init, the blocked tool step, an empty SUCCESS result, default) |
                    "none" (nothing on stdout); either way agy's log says `Print mode: soft-denying tool
                    confirmation "RunCommand" at step 4` and stderr says nothing (agy-protocol.md §8.3)
    fold            "bytes" | "lines": an answer over ~4 KB has its middle replaced by an own-line
                    `<truncated N bytes>` / `<truncated N lines>` marker (fold_crlf: the marker line ends CRLF; §8.2)
    keyring         keyring_locked: "docs" (the vendor's `secret keyring is locked` line, default) |
                    "terminated" (1.1.10: `Agent execution terminated…` ERROR result with zero usage and
                    `You are not logged into Antigravity.` in the log, no auth success after it)
    short_error     agy_error_short: the AGY_ERROR's short_error (no status key, 1.2.9/1.3.1); retryable (false);
                    streamed: the part of an answer agy streamed before the error (1.2.10+, §8.3)
    background      background_cut: number of background tasks cut at exit (1); background_wait (5 s)
    result_status   the result's status instead of SUCCESS (CANCELED, WAITING: agy-protocol.md §7.3)
    extra_steps     step types to emit before the answer, e.g. ["subagent", "finish"] (1.3.1), "error_message"
                    (1.3.3: exactly `{"step_index":N,"state":"DONE","step_type":"error_message","duration_seconds":0}`)
    on_signal       "interrupted": SIGTERM/SIGINT end the run with agy's interrupted result (1.1.27+),
                    exit 1, instead of dying by the signal
    think_seconds   pause after init, before the first step (the model's first call; real turns take seconds)
    not_found_warning  false: no `not found` line at all (the relay's id comparison is then the only test)
    not_found_lead  seconds between `warning: conversation … not found` and init (1.7, agy-protocol.md §7.2)
    wording         signed_out: "current" (`…to log in, then retry.`, default) | "early" (`…to log in.`);
                    where: "stderr" (default) | "stdout" | "log" (the line goes only there);
                    with_result: also a lone ERROR result "authentication failed or timed out";
                    block: seconds agy then waits for a pasted code (1.2.14; add ignore_sigterm)
    eligibility     verification: "403" (VALIDATION_REQUIRED + validation_url in the log, default) | "401"
    upstream        upstream: "agy_error_503" (AGY_ERROR retryable:true, exit 3, default) | "network" |
                    "terminated_capacity" | "terminated" (a broken settings.json) | "result_503"
                    (1.2.1+: retried in-process until the print timeout, ERROR result, exit 0)
    log_lines       messages written to agy's --log-file at start (glog format)
    edits           [{"op": "write", "path": "a.txt", "content": "..." | "content_b64": "...", "mode": "755"},
                     {"op": "append", "path", "content"},
                     {"op": "replace-lines", "path", "start": 1, "end": 2, "content" | "lines": [...]},
                     {"op": "delete", "path"}, {"op": "chmod", "path", "mode": "755"},
                     {"op": "mkdir", "path"}, {"op": "symlink", "path", "target"},
                     {"op": "rename", "path", "to"}, {"op": "mkfifo", "path"}, {"op": "utime", "path", "mtime"},
                     {"op": "write-deep", "path": top folder, "depth", "file", "content"}: a file under ``depth``
                     folders of 200-letter names below ``path`` (past PATH_MAX: what a shell's `cd` loop can make)]
                    performed under the first --add-dir (else a scratch dir), whatever the behaviour,
                    before it fails; each one is a tool step in stream-json.
    commands        ["pytest -q" | {"command", "output", "exit_code"}]: run_command tool steps
                    (not executed); they need the "command" permission.
    needs_command_permission   the turn runs a command (default: true iff `commands` is non-empty)
    response        the final text (default: the report as JSON when --json-schema, else "done\\n")
    partial_response           print_timeout_new's partial text (default: first half of response)
    report          structured_output when --json-schema is given (default: derived from edits)
    sleep           seconds before the result (hang: 3600, slow: 1); honours --print-timeout
                    except for "hang"
    release_file    a path: the sleep before the result ends as soon as it exists (tests use it
                    as an event instead of guessing how long a wait must be)
    step_delay      seconds between stream events
    wait_seconds    login_required (60; 30 on 1.0.x) / keyring_timeout (40) real wait
    keyring_seconds delay before the keyring marker (5, capped by wait_seconds)
    grandchild      spawn a sleeping grandchild in the same process group that inherits
                    stdout/stderr (its pid goes to the launch log); grandchild_sleep (3600)
    ignore_sigterm  the fake (and its grandchild) ignore SIGTERM
    daemon          {"path": "leak.log", "every": 0.05, "life": 120}: start a daemon the way one escapes every
                    tie to its starter (POSIX): fork, setsid, fork again, the middle process exits, the
                    daemon closes stdio and re-execs with an empty environment (`env -i`); it appends
                    "<pid> <time>" to <workspace>/path every `every` seconds for `life` seconds
    flood           {"bytes": N, "line_bytes": L, "stream": "stdout" | "stderr", "kind": "text" | "json"}:
                    print N bytes of chatter before the result, in lines of L bytes (L = 0: one line
                    with no newline until the end); "json" lines are agent_response step events
    resets_in       quota reset text; error: override the error text; error_id: AGY_ERROR id
    usage           {"input_tokens", "output_tokens", "thinking_tokens", "cache_read_tokens"} of the turn
                    (top level: default_model, what init.model says without --model from 1.3.2)
    conversation_id force the id of a new conversation; forget_conversation: treat
                    --conversation as unknown; result_without_conversation_id: the result
                    envelope lacks the key (reported by users, agy-protocol.md §6.2)
    stderr          extra lines written to stderr at start; banner / garbage_lines: the texts
                    of those behaviours; checkpoint: force/suppress the checkpoint step;
                    exit_code: override the exit code

State (launch counter, known conversations) lives in the state directory, under an flock.
Every invocation appends JSON lines to ``<state>/launches.jsonl``: a ``start`` record, an
optional ``grandchild`` / ``signal`` record, and an ``end`` record.
"""

from __future__ import annotations

# Start-up is paid on every launch (~1,100 a suite run): nothing here imports ``re`` or ``enum`` (``json``,
# ``signal`` and ``base64`` would, ~10 ms of CPU a launch): JSON through fake_agy_json (the same C codec),
# signals through _signal (the same calls and numbers), base64 imported where content_b64 is read.
import _signal as signal
import os
import stat
import sys
import time

import fake_agy_json as json

try:
    import fcntl  # POSIX; on Windows the state lock is msvcrt's (``lock_file``)
except ImportError:
    fcntl = None

T0 = time.monotonic()
# What Windows lacks: no process groups or sessions (None in the launch log), no SIGHUP, no SIGPIPE.
_getpgid = getattr(os, "getpgid", None)
_getsid = getattr(os, "getsid", None)
SIGPIPE = getattr(signal, "SIGPIPE", 13)
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP", "SIGBREAK")
                     if hasattr(signal, name))
# The polite stop: SIGTERM, or on Windows the Ctrl-Break the relay sends a worker's console group (agy, a Go
# program, reads it as an interrupt); ignore_sigterm ignores either.
POLITE = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGBREAK") if hasattr(signal, name))


def lock_file(fd: int) -> None:
    """An exclusive lock on the state's lock file, held until ``unlock_file``: flock on POSIX, msvcrt's
    byte-range lock on its first byte on Windows (LK_LOCK gives up after 10 s: try again)."""
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    import msvcrt

    os.lseek(fd, 0, os.SEEK_SET)
    while True:
        try:
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
            return
        except OSError:
            continue


def unlock_file(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return
    import msvcrt

    os.lseek(fd, 0, os.SEEK_SET)
    msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

# --------------------------------------------------------------------------- captured texts

HELP_HEADER = "Usage of agy:\n"
# (flag name, usage line) exactly as in help-1.1.12.real.txt, plus flags that appeared later.
HELP_FLAG_LINES = [
    ("add-dir", "  --add-dir                       Add a directory to the workspace (repeatable) (default [])\n"),
    ("agent", "  --agent                         Agent for the current CLI session\n"),
    ("c", "  -c                              Short alias for --continue\n"),
    ("continue", "  --continue                      Continue the most recent conversation\n"),
    ("conversation", "  --conversation                  Resume a previous conversation by ID\n"),
    ("dangerously-skip-permissions", "  --dangerously-skip-permissions  Auto-approve all tool permission requests without prompting\n"),
    ("disable-slash-commands", "  --disable-slash-commands        Disable slash command and skill expansion in print mode\n"),
    ("effort", "  --effort                        Reasoning effort for the current CLI session (low|medium|high)\n"),
    ("i", "  -i                              Short alias for --prompt-interactive\n"),
    ("input-format", "  --input-format                  Input format for print mode (text, stream-json) (default text)\n"),
    ("json-schema", "  --json-schema                   Optional JSON schema string or path to a schema file to enforce structured output (for stream-json, only applicable to the final result)\n"),
    ("log-file", "  --log-file                      Override CLI log file path\n"),
    ("mode", "  --mode                          Set the agent execution mode for this session (accept-edits, plan)\n"),
    ("model", "  --model                         Model for the current CLI session\n"),
    ("new-project", "  --new-project                   Create a new project for this session\n"),
    ("output-format", "  --output-format                 Output format for print mode (text, json, stream-json) (default text)\n"),
    ("p", "  -p                              Short alias for --print\n"),
    ("print", "  --print                         Run a single prompt non-interactively and print the response\n"),
    ("print-timeout", "  --print-timeout                 Timeout for print mode wait (default 5m0s)\n"),
    ("project", "  --project                       Project ID for the current CLI session\n"),
    ("prompt", "  --prompt                        Alias for --print\n"),
    ("prompt-interactive", "  --prompt-interactive            Run an initial prompt interactively and continue the session\n"),
    ("sandbox", "  --sandbox                       Run in a sandbox with terminal restrictions enabled\n"),
]
HELP_SUBCOMMANDS = (
    "\n"
    "Available subcommands:\n"
    "  agent           List available agents\n"
    "  agents          List available agents\n"
    "  changelog       Show changelog and release notes\n"
    "  help            Show help for subcommands\n"
    "  install         Configure environment paths and shell settings\n"
    "  models          List available models\n"
    "  plugin          Manage plugins (install, uninstall, list, enable, disable)\n"
    "  plugins         Alias for plugin\n"
    "  update          Update CLI\n"
)
MODELS_USAGE = (
    "Usage: agy models [flags]\n"
    "\n"
    "List available models\n"
    "\n"
    "Flags:\n"
    "  -h      Show help\n"
    "  --help  Show help\n"
)
MODELS_STDOUT = (
    "gemini-3.6-flash-high\tGemini 3.6 Flash (High)\n"
    "gemini-3.6-flash-medium\tGemini 3.6 Flash (Medium)\n"
    "gemini-3.6-flash-low\tGemini 3.6 Flash (Low)\n"
    "gemini-3.5-flash-high\tGemini 3.5 Flash (High)\n"
    "gemini-3.5-flash-medium\tGemini 3.5 Flash (Medium)\n"
    "gemini-3.5-flash-low\tGemini 3.5 Flash (Low)\n"
    "gemini-3.1-pro-high\tGemini 3.1 Pro (High)\n"
    "gemini-3.1-pro-low\tGemini 3.1 Pro (Low)\n"
    "claude-sonnet-4-6\tClaude Sonnet 4.6 (Thinking)\n"
    "claude-opus-4-6-thinking\tClaude Opus 4.6 (Thinking)\n"
    "gpt-oss-120b-medium\tGPT-OSS 120B (Medium)\n"
)
MODELS_STDERR = "Fetching available models...\n"
SIGNED_OUT = "Error: Please sign in to view available models. Run `agy` in a terminal to sign in.\n"
# agy-protocol.md §6.4: today's signed-out line (≥1.0.11, stdin not a terminal) and its earlier ending.
SIGNED_OUT_CURRENT = "Error: authentication required. Run 'agy' to log in, then retry.\n"
SIGNED_OUT_EARLY = "Error: authentication required. Run 'agy' to log in.\n"
PLEASE_SIGN_IN = "Please sign in to use Antigravity. Run `agy` in a terminal to sign in."
VALIDATION_URL = "https://accounts.google.com/signin/continue?sarp=1&scc=1&continue=https://antigravity.google/verify&plt=AKgnsbfake"
ELIGIBILITY_403 = ("Error: Eligibility check failed: Your current account is not eligible for Antigravity. "
                   "Verify your account to continue.\n")
ELIGIBILITY_403_LOG = ('Eligibility check failed: PERMISSION_DENIED (code 403): {"error":{"code":403,"status":'
                       '"PERMISSION_DENIED","details":[{"reason":"VALIDATION_REQUIRED","metadata":{"validation_url":"'
                       + VALIDATION_URL + '"}}]}}')
ELIGIBILITY_401 = "Error: Eligibility check failed: UNAUTHENTICATED (code 401)\n"
NETWORK_ISSUE = "There was a network issue connecting to the server, please try again.\n"
AGENT_TERMINATED = "Agent execution terminated due to error.\nError ID: {error_id}\n"
CAPACITY_503 = "UNAVAILABLE (code 503): No capacity available for model {model} on the server"
SETTINGS_BROKEN = "failed to load settings.json: invalid character '}' looking for beginning of object key string"
PRINT_TIMEOUT_TEXT = "Error: timed out waiting for response\n"
UPSTREAM_ERROR_ID = "9f1c2e77-5b0a-4a8e-9d43-1c6f0e2ab7d1-1"
# agy-protocol.md §7 (1.2.x-1.3.x)
KEYRING_LOCKED = "Error: failed to retrieve token: secret keyring is locked\n"
NOT_LOGGED_IN = "You are not logged into Antigravity."
REGION = "Antigravity is not currently available in your location."
INTERRUPTED = "interrupted"
DENY_RULE = 'permission check failed for {tool} "{target}": Permission denied: Matches user-configured deny rule'
HOOK_DENY = "tool call denied by pre-tool hook: {tool} blocked by hook pre_tool_use (exit status 2)"
BACKGROUND_IDLE = "root agent idle; waiting up to 5s for {n} background task(s)\n"
BACKGROUND_CUT = "terminating {n} background task(s) on exit\n"
BACKGROUND_NARRATION = ("I have started the test suite in the background and will wait for it to finish, "
                        "then report the results.\n")
# agy-protocol.md §8 (1.3.x, up to 1.3.3)
AUTH_EXPIRED = "Authentication expired. Please log back in."
EFFORT_NEEDED = "--model {model} requires --effort (available: {levels})"
EFFORT_UNSUPPORTED = "--effort is not supported for model {model}"
STALL_NARRATION = "I am waiting for the {name} subagent to complete its analysis."
SUBAGENT_REPORT = "The {name} found no problem in the change."
PERMISSION_CHECK_WRITE = "permission check failed for write_file: user denied permission for write_file"
PERMISSION_CHECK_COMMAND = "permission check failed for unsandboxed command: user denied permission to run command"
# agy-protocol.md §8.1, verbatim (1.2.1, stderr, exit 1)
INVALID_MODEL_1_2_1 = ('error: invalid model selection (--model "{model}" --effort "{effort}"): model {model} is not '
                       "recognized as a known model or custom model in settings")
SOFT_DENY_LOG = 'Print mode: soft-denying tool confirmation "{name}" at step {step}'
BUBBLETEA = "CLI error: bubbletea: error opening TTY: bubbletea: could not open TTY: open /dev/tty: device not configured\n"

OAUTH_URL = (
    "https://accounts.google.com/o/oauth2/auth?access_type=offline"
    "&client_id=681255809395-fakeagy.apps.googleusercontent.com"
    "&redirect_uri=http%3A%2F%2Flocalhost%3A41771%2Foauth2callback&response_type=code"
    "&scope=openid+email+https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fcloud-platform&state="
)
AUTH_FAILED = "authentication failed or timed out"
QUOTA_TEXT = "Individual quota reached. Please upgrade your subscription to increase your limits. Resets in {resets}."
QUOTA_1_2_2 = "API error (attempt 5): RESOURCE_EXHAUSTED (code 429): " + QUOTA_TEXT
QUOTA_ERROR_ID = "6baa4ce9-c373-4086-bb0d-fbb8421bacf3-1"
API_ERROR_SHORT = (
    "agent executor error: generating and executing: Error 400, Message: API key not valid. "
    "Please pass a valid API key., Status: INVALID_ARGUMENT, Details: [...]"
)
API_ERROR_ID = "3e7a7335-21d5-4f55-8c98-aa97201e0f10-1"
JETSKI = (
    "jetski: no output produced \u2014 a tool required the \"{action}\" permission that headless mode "
    "cannot prompt for, so it was auto-denied. Add an allow-rule under permissions.allow in settings.json "
    "(e.g. {action}(<target>)). Alternatively, re-run with --dangerously-skip-permissions to auto-approve all tools.\n"
)
STALE_ERROR = "API error (attempt 1): UNAVAILABLE (code 503): The model is overloaded. Please try again later."
PANIC = (
    "panic: runtime error: invalid memory address or nil pointer dereference\n"
    "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1026c4f5c]\n"
    "\n"
    "goroutine 1 [running]:\n"
    "main.(*printRunner).run(0x0)\n"
    "\t/build/agy/cmd/agy/printmode.go:311 +0x1c\n"
    "main.main()\n"
    "\t/build/agy/cmd/agy/main.go:88 +0x2a4\n"
)
GARBAGE = [
    "Loading Antigravity\u2026",
    "\x1b[2K\x1b[1Gthinking...",
    '{"event":"step_update","step_update":{"conversation_id":',
    "<html><body>502 Bad Gateway</body></html>",
]
BANNER = "A new version of agy is available: {next} (you have {version}). Run `agy update` to upgrade."

TOOLS = [
    "ask_permission", "ask_question", "browser_click_element", "browser_drag_pixel_to_pixel",
    "browser_get_dom", "browser_get_network_request", "browser_input", "browser_list_network_requests",
    "browser_mouse_down", "browser_mouse_up", "browser_move_mouse", "browser_press_key",
    "browser_refresh_page", "browser_resize_window", "browser_scroll", "browser_scroll_dom",
    "browser_select_option", "browser_subagent", "call_mcp_tool", "capture_browser_console_logs",
    "capture_browser_screenshot", "click_browser_pixel", "command_status", "define_subagent",
    "delete_knowledge", "execute_browser_javascript", "find_by_name", "finish", "generate_image",
    "grep_search", "invoke_subagent", "list_browser_pages", "list_dir", "list_permissions",
    "list_resources", "manage_inbox", "manage_subagents", "manage_task", "multi_replace_file_content",
    "notebook_edit", "notebook_execution", "open_browser_url", "read_browser_page", "read_resource",
    "read_url_content", "replace_file_content", "run_command", "schedule", "search_web", "sed_file",
    "send_command_input", "send_message", "view_file", "wait", "wait_5_seconds", "write_to_file",
]

BEHAVIOURS = (
    "success", "login_required", "keyring_timeout", "quota_1_2_2", "quota_1_2_11", "quota_text",
    "api_error", "permission_denied", "print_timeout_old", "print_timeout_new", "hang",
    "empty_output", "garbage", "no_result", "stale_error", "invalid_model", "banner", "no_report",
    "slow", "crash", "signed_out", "please_sign_in_result", "auth_timeout_network", "verification",
    "quota_print_timeout", "upstream", "print_timeout_text",
    "interrupted", "keyring_locked", "agy_error_short", "background_cut", "region",
    "auth_expired", "subagent_stall", "denied_no_list", "soft_deny_log",
)

# name -> (kind, since, canonical name)
FLAGS = {
    "add-dir": ("list", None, "add-dir"),
    "agent": ("string", None, "agent"),
    "c": ("bool", None, "continue"),
    "continue": ("bool", None, "continue"),
    "conversation": ("string", None, "conversation"),
    "dangerously-skip-permissions": ("bool", None, "dangerously-skip-permissions"),
    "disable-slash-commands": ("bool", (1, 1, 9), "disable-slash-commands"),
    "effort": ("string", (1, 1, 5), "effort"),
    "i": ("string", None, "prompt-interactive"),
    "input-format": ("string", (1, 2, 0), "input-format"),
    "json-schema": ("string", (1, 1, 8), "json-schema"),
    "log-file": ("string", None, "log-file"),
    "mode": ("string", (1, 1, 0), "mode"),
    "model": ("string", (1, 0, 5), "model"),
    "new-project": ("bool", None, "new-project"),
    "output-format": ("string", (1, 1, 8), "output-format"),
    "p": ("string", None, "print"),
    "print": ("string", None, "print"),
    "print-timeout": ("duration", None, "print-timeout"),
    "project": ("string", None, "project"),
    "prompt": ("string", None, "print"),
    "prompt-interactive": ("string", None, "prompt-interactive"),
    "sandbox": ("bool", None, "sandbox"),
    "version": ("bool", None, "version"),
}

ENV_PRESENCE = (
    "OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN",
    "ANTIGRAVITY_CONVERSATION_ID", "ANTIGRAVITY_AGENT", "ANTIGRAVITY_TRAJECTORY_ID",
    "ANTIGRAVITY_SOURCE_METADATA", "HOME", "PATH", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
)
ENV_VALUES = ("AGY_CLI_DISABLE_AUTO_UPDATE", "GRAVITY_RELAY_WORKER_RUN")
ZERO_USAGE = {"input_tokens": 0, "output_tokens": 0, "thinking_tokens": 0, "cache_read_tokens": 0}
USAGE_KEYS = ("input_tokens", "output_tokens", "thinking_tokens", "cache_read_tokens")


class FlagError(Exception):
    pass


# --------------------------------------------------------------------------- small pieces


def _digit_runs(text: str) -> list[str]:
    """The runs of decimal digits in ``text`` (what ``re.findall(r"\\d+", text)`` finds)."""
    runs, run = [], ""
    for ch in text:
        if ch.isdecimal():
            run += ch
        elif run:
            runs.append(run)
            run = ""
    return runs + [run] if run else runs


def parse_version(text: str) -> tuple[int, ...]:
    nums = _digit_runs(str(text))[:3]
    return tuple(int(n) for n in nums) + (0,) * (3 - len(nums))


def new_uuid() -> str:
    b = bytearray(os.urandom(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


_UNITS = {"ns": 1, "us": 1_000, "\u00b5s": 1_000, "\u03bcs": 1_000, "ms": 1_000_000,
          "s": 1_000_000_000, "m": 60_000_000_000, "h": 3_600_000_000_000}


def _leading(s: str, wanted) -> tuple[str, str]:
    """``s`` split after its longest prefix of characters ``wanted`` accepts."""
    end = 0
    while end < len(s) and wanted(s[end]):
        end += 1
    return s[:end], s[end:]


def parse_duration(text: str) -> int:
    """Go's time.ParseDuration, in nanoseconds."""
    s = text
    neg = False
    if s[:1] in ("+", "-"):
        neg = s[0] == "-"
        s = s[1:]
    if s == "0":
        return 0
    if not s:
        raise ValueError(text)
    total = 0
    while s:
        whole, s = _leading(s, str.isdecimal)
        frac = None
        if s[:1] == ".":
            frac, s = _leading(s[1:], str.isdecimal)
        if not whole and not frac:
            raise ValueError(text)
        name, s = _leading(s, lambda ch: not ch.isdecimal() and ch != ".")
        if name not in _UNITS:
            raise ValueError(text)
        unit = _UNITS[name]
        total += int(whole or 0) * unit
        if frac:
            total += int(frac) * unit // (10 ** len(frac))
    return -total if neg else total


def _frac(value: int, unit: int) -> str:
    q, r = divmod(value, unit)
    if not r:
        return str(q)
    digits = str(r).rjust(len(str(unit)) - 1, "0").rstrip("0")
    return f"{q}.{digits}"


def format_duration(ns: int) -> str:
    """Go's Duration.String."""
    neg, ns = ns < 0, abs(ns)
    if ns == 0:
        return "0s"
    if ns < 1_000:
        out = f"{ns}ns"
    elif ns < 1_000_000:
        out = _frac(ns, 1_000) + "\u00b5s"
    elif ns < 1_000_000_000:
        out = _frac(ns, 1_000_000) + "ms"
    else:
        h, rem = divmod(ns, 3_600_000_000_000)
        m, rem = divmod(rem, 60_000_000_000)
        out = (f"{h}h" if h else "") + (f"{m}m" if h or m else "") + _frac(rem, 1_000_000_000) + "s"
    return "-" + out if neg else out


def go_float(x: float) -> str:
    if x != x or x in (float("inf"), float("-inf")):
        return "0"
    if x == int(x) and abs(x) < 1e21:
        return str(int(x))
    r = repr(x)
    if "e" in r and 1e-6 <= abs(x) < 1e21:
        from decimal import Decimal

        r = format(Decimal(r), "f")
    return r


def enc(value) -> str:
    """Compact JSON the way Go's encoding/json writes it (HTML-safe escapes, raw UTF-8)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        s = json.dumps(value, ensure_ascii=False)
        return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    if isinstance(value, dict):
        return "{" + ",".join(enc(str(k)) + ":" + enc(v) for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(enc(v) for v in value) + "]"
    return enc(str(value))


def sort_keys(value):
    """Go marshals a map with sorted keys: structured_output is such a map."""
    if isinstance(value, dict):
        return {k: sort_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sort_keys(v) for v in value]
    return value


def usage_total(u: dict) -> dict:
    out = {k: int(u.get(k, 0)) for k in USAGE_KEYS}
    out["total_tokens"] = out["input_tokens"] + out["output_tokens"]
    return out


def usage_add(a: dict, b: dict) -> dict:
    return usage_total({k: int(a.get(k, 0)) + int(b.get(k, 0)) for k in USAGE_KEYS})


def _b64decode(text: str) -> bytes:
    import base64

    return base64.b64decode(text)


def shell_quote(s: str) -> str:
    if s and all(ch.isalnum() or ch in "_@%+=:,./-" for ch in s):  # re's [\w@%+=:,./-]+
        return s
    return "'" + s.replace("'", "'\"'\"'") + "'"


def stdin_facts() -> dict:
    try:
        st = os.fstat(0)
    except OSError:
        return {"kind": "closed", "closed": True, "devnull": False}
    kind = "other"
    devnull = False
    try:
        dn = os.stat(os.devnull)
        if stat.S_ISCHR(st.st_mode) and st.st_rdev == dn.st_rdev:
            devnull = True
            kind = "devnull"
    except OSError:
        pass
    if not devnull:
        if stat.S_ISFIFO(st.st_mode):
            kind = "pipe"
        elif os.isatty(0):
            kind = "tty"
        elif stat.S_ISREG(st.st_mode):
            kind = "file"
        elif stat.S_ISSOCK(st.st_mode):
            kind = "socket"
    return {"kind": kind, "closed": False, "devnull": devnull}


# --------------------------------------------------------------------------- flags


def known_flags(version: tuple[int, ...]) -> dict:
    return {name: spec for name, spec in FLAGS.items() if spec[1] is None or version >= spec[1]}


def usage_text(version: tuple[int, ...]) -> str:
    known = known_flags(version)
    return HELP_HEADER + "".join(line for name, line in HELP_FLAG_LINES if name in known) + HELP_SUBCOMMANDS


def parse_bool(text: str) -> bool:
    if text in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if text in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    raise ValueError(text)


def parse_flags(args: list[str], known: dict) -> tuple[dict, list[str], bool]:
    """Go's flag package: returns (values by canonical name, positionals, help requested)."""
    values: dict = {"add-dir": []}
    i = 0
    while i < len(args):
        a = args[i]
        if len(a) < 2 or a[0] != "-":
            break
        minus = 1
        if a[1] == "-":
            minus = 2
            if len(a) == 2:
                i += 1
                break
        name = a[minus:]
        if not name or name[0] in "-=":
            raise FlagError(f"bad flag syntax: {a}")
        i += 1
        has_value, value = False, ""
        if "=" in name:
            name, value = name.split("=", 1)
            has_value = True
        if name not in known:
            if name in ("help", "h"):
                return values, [], True
            raise FlagError(f"flags provided but not defined: -{name}")
        kind, _since, canon = known[name]
        if kind == "bool":
            if has_value:
                try:
                    values[canon] = parse_bool(value)
                except ValueError:
                    raise FlagError(f'invalid boolean value "{value}" for -{name}: parse error') from None
            else:
                values[canon] = True
            continue
        if not has_value:
            if i >= len(args):
                raise FlagError(f"flag needs an argument: -{name}")
            value = args[i]
            i += 1
        if kind == "list":
            values[canon].append(value)
        elif kind == "duration":
            try:
                values[canon] = parse_duration(value)
            except (ValueError, AttributeError):
                raise FlagError(f'invalid value "{value}" for flag -{name}: parse error') from None
        else:
            values[canon] = value
    return values, args[i:], False


# --------------------------------------------------------------------------- the fake


class Fake:
    def __init__(self, argv: list[str]) -> None:
        self.stdin = stdin_facts()  # first: before any open() could take fd 0
        self.argv = argv
        self.invocation = f"{os.getpid()}-{time.time_ns()}"
        self.ended = False
        self.ignore_sigterm = False
        self.conversation_id: str | None = None
        self.extra_end: dict = {}
        scen_path = os.environ.get("FAKE_AGY_SCENARIO")
        if not scen_path:
            sys.stderr.write("fake agy: FAKE_AGY_SCENARIO is not set\n")
            raise SystemExit(99)
        try:
            with open(scen_path, encoding="utf-8") as f:
                self.scenario = json.loads(f.read())
        except (OSError, ValueError) as exc:
            sys.stderr.write(f"fake agy: cannot read scenario {scen_path}: {exc}\n")
            raise SystemExit(98) from None
        self.state_dir = os.environ.get("FAKE_AGY_STATE") or os.path.join(
            os.path.dirname(os.path.abspath(scen_path)), "agy-state")
        os.makedirs(self.state_dir, exist_ok=True)
        self.version_text = str(self.scenario.get("version", "1.2.17"))
        self.version = parse_version(self.version_text)
        self.log_path = os.path.join(self.state_dir, "launches.jsonl")
        self.launch: dict = {}
        self.flags: dict = {"add-dir": []}

    # ---- output
    def out(self, text: str) -> None:
        self._write(sys.stdout, text)

    def err(self, text: str) -> None:
        self._write(sys.stderr, text)

    def _write(self, stream, text: str) -> None:
        try:
            stream.buffer.write(text.encode("utf-8", "replace"))
            stream.buffer.flush()
        except BrokenPipeError:
            self.die(SIGPIPE)

    def event(self, obj: dict) -> None:
        if self.fmt == "stream-json":
            self.out(enc(obj) + "\n")
            delay = float(self.launch.get("step_delay", 0) or 0)
            if delay:
                time.sleep(delay)

    # ---- launch log
    def record(self, obj: dict) -> None:
        obj = {"event": obj.pop("event"), "invocation": self.invocation, "pid": os.getpid(), **obj}
        line = (json.dumps(obj, ensure_ascii=True) + "\n").encode()
        fd = os.open(self.log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)

    def record_start(self, mode: str, **extra) -> None:
        env = os.environ
        facts = {k: k in env for k in ENV_PRESENCE}
        facts.update({k: env.get(k) for k in ENV_VALUES})
        self.record({
            "event": "start", "ppid": os.getppid(), "pgid": _getpgid(0) if _getpgid else None,
            "sid": _getsid(0) if _getsid else None,
            "argv": self.argv, "cwd": os.getcwd(), "start": time.time(), "mode": mode,
            "version": self.version_text, "env": facts, "env_keys": sorted(env), "stdin": self.stdin,
            "cwd_agents": self.agents_config(os.getcwd()), **extra,
        })

    def record_end(self, code: int | None, **extra) -> None:
        if self.ended:
            return
        self.ended = True
        self.record({"event": "end", "end": time.time(), "exit_code": code,
                     "conversation_id": self.conversation_id, **self.extra_end, **extra})

    def die(self, signum: int) -> None:
        self.record_end(-signum, signal=signum)
        try:
            signal.signal(signum, signal.SIG_DFL)
        except (ValueError, OSError):  # Windows: not a signal it can handle (SIGPIPE)
            pass
        os.kill(os.getpid(), signum)  # on Windows: TerminateProcess with this exit code
        time.sleep(5)
        os._exit(128 + signum)

    def on_signal(self, signum, _frame) -> None:
        if signum in POLITE and self.ignore_sigterm:
            self.record({"event": "signal", "signal": signum, "ignored": True})
            return
        if self.launch.get("on_signal") == "interrupted" and signum in (*POLITE, signal.SIGINT) \
                and self.conversation_id and not self.ended:
            # 1.1.27+ (1.3.1 replays): the turn ends with agy's own ERROR result, then `error: interrupted`, exit 1
            self.record({"event": "signal", "signal": signum, "ignored": False})
            self.interrupted_result(self.conversation_id)
            self.record_end(1, signal=signum, interrupted=True)
            os._exit(1)
        self.die(signum)

    def interrupted_result(self, conv: str) -> None:
        """agy-protocol.md §7.2: the id kept, usage non-zero, `error: interrupted` echoed on stderr after it."""
        st = self.locked_state(lambda st: dict(st["conversations"].get(conv) or {}))
        usage = usage_add(st.get("usage") or ZERO_USAGE, {"input_tokens": 12000 + len(getattr(self, "prompt", "")) // 4,
                                                           "output_tokens": 60})
        self.emit_result({"conversation_id": conv, "status": "ERROR", "response": "", "error": INTERRUPTED,
                          "duration_seconds": round(time.monotonic() - T0, 6), "num_turns": int(st.get("turns", 0)) + 1,
                          "usage": usage})
        if self.fmt != "text":
            self.err(f"error: {INTERRUPTED}\n")

    # ---- state
    def locked_state(self, update):
        path = os.path.join(self.state_dir, "state.json")
        fd = os.open(os.path.join(self.state_dir, "lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            lock_file(fd)
            try:
                with open(path, encoding="utf-8") as f:
                    st = json.loads(f.read())
            except (OSError, ValueError):
                st = {}
            st.setdefault("launch_counter", 0)
            st.setdefault("conversations", {})
            st.setdefault("last_by_cwd", {})
            result = update(st)
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(json.dumps(st))
            os.replace(tmp, path)
            return result
        finally:
            unlock_file(fd)
            os.close(fd)

    # ---- agy's own log (--log-file)
    def log(self, level: str, where: str, msg: str, sep: str = " ") -> None:
        path = self.flags.get("log-file")
        if not path:
            return
        t = time.time()
        lt = time.localtime(t)
        micro = int((t % 1) * 1_000_000)
        line = f"{level}{lt.tm_mon:02d}{lt.tm_mday:02d} {time.strftime('%H:%M:%S', lt)}.{micro:06d} {os.getpid():>7} {where}]{sep}{msg}\n"
        try:
            parent = os.path.dirname(os.path.abspath(path))
            os.makedirs(parent, exist_ok=True)
            with open(path, "a", encoding="utf-8") as f:
                f.write(line)
        except OSError:
            pass

    # ---- entry
    def run(self) -> int:
        for sig in STOP_SIGNALS:
            signal.signal(sig, self.on_signal)
        code = 70
        try:
            code = self.dispatch()
        except Exception:  # a bug in the fake or a bad scenario: say so loudly
            import traceback

            traceback.print_exc()
            self.extra_end["fake_error"] = True
        finally:
            self.record_end(code)
        return code

    def dispatch(self) -> int:
        known = known_flags(self.version)
        try:
            flags, positionals, want_help = parse_flags(self.argv, known)
        except FlagError as exc:
            self.record_start("flag_error", error=str(exc))
            self.err(f"{exc}\n{usage_text(self.version)}")
            return 2
        self.flags = flags
        if want_help:
            self.record_start("help")
            self.err(usage_text(self.version))
            return 0
        if flags.get("version"):
            self.record_start("version")
            if self.scenario.get("version_daemon"):  # a helper the version probe starts and leaves behind
                self.spawn_daemon(self.scenario["version_daemon"])
            self.out(self.version_text + "\n")
            return 0
        if "print" in flags:
            return self.print_mode(positionals)
        if positionals:
            return self.subcommand(positionals[0], positionals[1:])
        self.record_start("tui")
        self.out(BUBBLETEA)
        return 0

    # ---- subcommands
    def subcommand(self, name: str, rest: list[str]) -> int:
        if name == "models":
            return self.models(rest)
        if name == "help":
            self.record_start("help", subcommand=name)
            self.err(usage_text(self.version))
            return 0
        self.record_start("subcommand", subcommand=name)
        if name in ("agent", "agents"):
            self.out("default\tDefault agent\n")
        elif name == "changelog":
            self.out(f"agy {self.version_text}\n")
        elif name == "update":
            self.out(f"agy {self.version_text} is up to date.\n")
        elif name in ("install", "plugin", "plugins"):
            pass
        else:
            self.out(BUBBLETEA)
        return 0

    def models(self, rest: list[str]) -> int:
        variant = self.scenario.get("models", "ok")
        self.record_start("models", variant=variant)
        for a in rest:
            if a in ("-h", "--help", "-help", "--h"):
                self.err(MODELS_USAGE)
                return 0
            if a.startswith("-") and a not in ("-", "--"):
                name = a.lstrip("-").split("=", 1)[0]
                self.err(MODELS_USAGE + f"Error: flags provided but not defined: -{name}\n")
                return 1
        if self.scenario.get("stdin_hang"):
            self.drain_stdin()
        self.err(MODELS_STDERR)
        if variant == "hang":
            time.sleep(float(self.scenario.get("models_sleep", 3600)))
        if variant == "signed_out":
            self.err(SIGNED_OUT)
            return 1
        if variant == "signed_out_current":
            self.err(SIGNED_OUT_CURRENT)
            return 1
        if variant == "signed_out_blocking":
            # 1.2.14: the sign-out line, then a wait for a pasted code that ignores SIGTERM
            self.ignore_sigterm = True
            self.err(SIGNED_OUT_CURRENT)
            self.err("Or, paste the authorization code here and press Enter:\n")
            time.sleep(float(self.scenario.get("models_sleep", 3600)))
            return 1
        if variant == "verification":
            self.err(ELIGIBILITY_403.rstrip("\n") + f" validation_url: {VALIDATION_URL}\n")
            return 1
        if variant == "eligibility_401":
            self.err(ELIGIBILITY_401)
            return 1
        if variant == "keyring_locked":
            self.err(KEYRING_LOCKED)
            return 1
        custom = self.scenario.get("model_list")
        if custom:
            self.out("".join(f"{slug}\t{label}\n" for slug, label in custom))
        else:
            self.out(MODELS_STDOUT)
        return 0

    def drain_stdin(self) -> None:
        if self.stdin["closed"]:
            return
        try:
            while os.read(0, 65536):
                pass
        except OSError:
            pass

    # ---- print mode
    def print_mode(self, positionals: list[str]) -> int:
        f = self.flags
        self.fmt = f.get("output-format", "text")
        self.prompt = f["print"]
        launches = self.scenario.get("launches") or [{}]

        def claim(st):
            n = st["launch_counter"]
            st["launch_counter"] = n + 1
            return n

        index = self.locked_state(claim)
        self.launch = launch = dict(launches[min(index, len(launches) - 1)])
        beh = launch.get("behaviour") or launch.get("behavior") or "success"
        self.behaviour = beh
        self.ignore_sigterm = bool(launch.get("ignore_sigterm"))
        self.workspace = os.path.abspath(f["add-dir"][0]) if f["add-dir"] else None
        self.record_start(
            "print", launch_index=index, behaviour=beh, prompt=self.prompt, positionals=positionals,
            flags={k: v for k, v in f.items() if k != "print"}, workspace=self.workspace,
            workspace_agents=self.workspace_agents(),
        )
        if beh not in BEHAVIOURS:
            self.err(f"fake agy: unknown behaviour {beh!r}; known: {', '.join(BEHAVIOURS)}\n")
            return 97
        if self.fmt not in ("text", "json", "stream-json"):
            self.err(f'invalid value "{self.fmt}" for flag -output-format: must be one of text, json, stream-json\n'
                     + usage_text(self.version))
            return 2
        for line in launch.get("stderr") or []:
            self.err(line.rstrip("\n") + "\n")
        if launch.get("grandchild"):
            self.spawn_grandchild()
        if launch.get("daemon"):
            self.spawn_daemon(launch["daemon"])
        if self.scenario.get("stdin_hang"):
            self.drain_stdin()
        self.log("I", "main.go:61", f"agy {self.version_text} starting in print mode")
        for message in launch.get("log_lines") or []:
            self.log("I", "printmode.go:118", str(message))
        code = self.print_turn(beh)
        if "exit_code" in launch:
            code = int(launch["exit_code"])
        return code

    def workspace_agents(self) -> list[str]:
        """agy ≥1.3 loads the workspace's own MCP servers and hooks in print mode too, with no trust gate
        (agy-protocol.md §8.4): what this launch would have loaded, for the launch log."""
        return self.agents_config(self.workspace) if self.workspace else []

    def agents_config(self, folder: str) -> list[str]:
        """The MCP servers and hooks an agy ≥1.3 would load from ``folder`` (§8.4). Every start record carries
        those of its cwd (``cwd_agents``): which folder a subcommand (`models`, `--version`) reads them from is not
        reported, so the launch log says what it would have found where it was started."""
        if self.version < (1, 3, 0) or not os.path.isdir(os.path.join(folder, ".agents")):
            return []
        import glob

        root = os.path.join(folder, ".agents")
        found = [os.path.join(root, "mcp_config.json"), os.path.join(root, "hooks.json"),
                 *sorted(glob.glob(os.path.join(root, "plugins", "*", "mcp_config.json")))]
        return [os.path.relpath(p, folder) for p in found if os.path.isfile(p)]

    def spawn_grandchild(self) -> None:
        import subprocess

        secs = float(self.launch.get("grandchild_sleep", 3600))
        code = "import signal, time\n"
        if self.ignore_sigterm:
            code += "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        code += f"time.sleep({secs!r})\n"
        p = subprocess.Popen([sys.executable, "-S", "-c", code], stdin=subprocess.DEVNULL)
        self.extra_end["grandchild_pid"] = p.pid
        self.record({"event": "grandchild", "grandchild_pid": p.pid})

    def spawn_daemon(self, spec: dict) -> None:
        """A daemon with no group, no parent and no token of the relay's (issue 34 §2)."""
        target = os.path.join(getattr(self, "workspace", None) or os.getcwd(), spec.get("path", "leak.log"))
        code = ("import os, time\n"
                f"end = time.monotonic() + {float(spec.get('life', 120))!r}\n"
                "while time.monotonic() < end:\n"
                f"    with open({target!r}, 'a') as fh:\n"
                "        fh.write(f'{os.getpid()} {time.time()}\\n')\n"
                f"    time.sleep({float(spec.get('every', 0.05))!r})\n")
        middle = os.fork()
        if middle == 0:
            try:
                os.setsid()
                if os.fork() == 0:
                    null = os.open(os.devnull, os.O_RDWR)
                    for fd in (0, 1, 2):
                        os.dup2(null, fd)
                    os.closerange(3, 256)
                    os.execve(sys.executable, [sys.executable, "-I", "-S", "-c", code], {})
            finally:
                os._exit(0)
        os.waitpid(middle, 0)
        deadline = time.monotonic() + 30
        while not os.path.exists(target) and time.monotonic() < deadline:  # it runs: its first line is written
            time.sleep(0.01)
        self.record({"event": "daemon", "daemon_file": target})

    # lone results, before a turn starts
    def lone_result(self, error: str, code: int) -> int:
        result = {"conversation_id": "", "status": "ERROR", "response": "", "error": error,
                  "duration_seconds": 0, "num_turns": 0, "usage": usage_total(ZERO_USAGE)}
        self.emit_result(result)
        return code

    def emit_result(self, result: dict) -> None:
        if self.launch.get("result_without_conversation_id"):
            result = {k: v for k, v in result.items() if k != "conversation_id"}  # agy-protocol.md §6.2 (#1018)
        if self.fmt == "stream-json":
            self.out(enc({"event": "result", "result": result}) + "\n")
        elif self.fmt == "json":
            self.out(enc(result) + "\n")
        elif result["status"] == "ERROR" and result.get("error"):
            self.err(f"Error: {result['error']}\n")
        elif result["response"]:
            text = result["response"]
            self.out(text if text.endswith("\n") else text + "\n")

    def load_schema(self):
        raw = self.flags.get("json-schema")
        if raw is None:
            return None, None
        text = raw
        if not raw.lstrip().startswith(("{", "[")) and os.path.isfile(raw):
            try:
                with open(raw, encoding="utf-8") as fh:
                    text = fh.read()
            except OSError as exc:
                return None, f"invalid --json-schema: {exc}"
        try:
            schema = json.loads(text)
        except ValueError as exc:
            return None, f"invalid --json-schema: not valid JSON and not a readable file: {exc}"
        return schema, None

    def check_model(self) -> str | None:
        model = self.flags.get("model")
        effort = self.flags.get("effort")
        if effort is not None:
            allowed = ["low", "medium", "high"] + (["max"] if self.version >= (1, 2, 0) else [])
            if self.version >= (1, 3, 0):  # 1.3.x: `low, medium, high, xhigh, max` (agy-protocol.md §7.4)
                allowed = ["low", "medium", "high", "xhigh", "max"]
            if effort not in allowed:
                return f'invalid model selection: unknown effort "{effort}" (want {"|".join(allowed)})'
            if model and model.removesuffix("\n").endswith(("-low", "-medium", "-high", "-xhigh", "-max")):  # re's -(…)$
                return (f'invalid model selection: --effort "{effort}" conflicts with the effort '
                        f'of model "{model}"')
        base = self.scenario.get("base_models") or {}
        if model and model in base and effort is None and self.version >= (1, 3, 0):
            return EFFORT_NEEDED.format(model=model, levels=", ".join(base[model]))
        if model and effort is not None and self.version >= (1, 2, 17) and model not in base \
                and model not in self.listed_models():
            return EFFORT_UNSUPPORTED.format(model=model)
        known = self.scenario.get("known_models")
        if model and known is not None and self.version >= (1, 1, 2) and model not in known:
            return self.unknown_model(model, known)
        return None

    def listed_models(self) -> list[str]:
        """What `agy models` lists: model_list, else the known models, else the captured listing."""
        custom = self.scenario.get("model_list")
        if custom:
            return [slug for slug, _label in custom]
        known = self.scenario.get("known_models")
        return list(known) if known is not None else [ln.split("\t")[0] for ln in MODELS_STDOUT.splitlines()]

    def unknown_model(self, model: str, known: list) -> str:
        """1.1.2+: a bad --model fails and lists the models; the log names the flag (agy-protocol.md §6.4)."""
        self.log("E", "models.go:57", f"Failed to resolve model flag {model}: model {model} is not recognized")
        return (f'invalid model selection: model "{model}" is not recognized\nAvailable models:\n'
                + "".join(f"  {slug}\n" for slug in known))

    def print_turn(self, beh: str) -> int:
        L = self.launch
        schema, schema_error = self.load_schema()
        if schema_error:
            return self.lone_result(schema_error, 1)
        if schema is not None and self.version >= (1, 2, 14) and not (
                isinstance(schema, dict) and schema.get("type") == "object"):
            return self.lone_result('invalid --json-schema: the root schema must be "type": "object"', 1)
        model_error = self.check_model()
        if model_error and model_error.startswith("--"):
            # §8.1's model/effort texts: a lone ERROR result, echoed on stderr like 1.3.x's ERROR results (§7.3)
            self.lone_result(model_error, 1)
            self.err(f"error: {model_error}\n")
            return 1
        if model_error:
            return self.lone_result(model_error, 1)

        # failures before the turn starts (edits listed in the launch still happen first)
        if beh in ("invalid_model", "login_required", "keyring_timeout", "quota_text", "empty_output", "garbage",
                   "signed_out", "please_sign_in_result", "auth_timeout_network", "verification", "keyring_locked",
                   "region", "auth_expired"):
            self.silent_edits()
        if beh == "invalid_model":
            model = self.flags.get("model") or "default"
            if L.get("where") == "stderr":
                self.err(INVALID_MODEL_1_2_1.format(model=model, effort=self.flags.get("effort") or "") + "\n")
                return 1
            if L.get("error"):
                return self.lone_result(L["error"], 1)
            if self.version >= (1, 1, 2):
                known = self.scenario.get("known_models") or [ln.split("\t")[0] for ln in MODELS_STDOUT.splitlines()]
                return self.lone_result(self.unknown_model(model, known), 1)
            return self.lone_result(f'invalid model selection: model "{model}" is not available', 1)
        if beh in ("signed_out", "please_sign_in_result", "auth_timeout_network", "verification"):
            return self.auth_failure(beh)
        if beh == "upstream" and L.get("upstream") in ("network", "terminated_capacity", "terminated"):
            self.silent_edits()
            return self.upstream_before_turn(L["upstream"])
        if beh == "login_required":
            return self.login_required()
        if beh == "keyring_timeout":
            return self.keyring_timeout()
        if beh == "keyring_locked":
            return self.keyring_locked()
        if beh == "auth_expired":
            return self.auth_expired()
        if beh == "denied_no_list":
            return self.denied_without_list()
        if beh == "soft_deny_log":
            return self.soft_deny_log()
        if beh == "region":
            # 1.2.14 region eligibility: a lone ERROR result, exit 1, no init (agy-protocol.md §7.3)
            self.lone_result(L.get("error") or REGION, 1)
            self.err("error: " + (L.get("error") or REGION) + "\n")
            return 1
        if beh == "quota_text":
            resets = L.get("resets_in", "2m38s")
            self.err("Error: " + (L.get("error") or QUOTA_TEXT.format(resets=resets)) + "\n")
            return 1
        if beh == "empty_output":
            self.pre_result_sleep(0)
            return 0
        if beh == "garbage":
            for line in L.get("garbage_lines") or GARBAGE:
                self.out(line + "\n")
            return 0
        if beh == "banner":
            nxt = self.version[:2] + (self.version[2] + 1,)
            self.out((L.get("banner") or BANNER.format(next=".".join(map(str, nxt)), version=self.version_text)) + "\n")

        self.log("I", "keyring.go:71", "keyringAuth: loaded credentials from keyring")
        if self.prompt.startswith("/") and not self.flags.get("disable-slash-commands"):
            return self.slash_command()
        return self.turn(beh, schema)

    def silent_edits(self) -> None:
        root = self.edit_root(new_uuid())
        for e in self.launch.get("edits") or []:
            try:
                self.apply_edit(root, e)
            except (OSError, ValueError, KeyError):
                pass

    def login_required(self) -> int:
        L = self.launch
        timeout = 30 if self.version < (1, 1, 0) else 60
        wait = float(L.get("wait_seconds", timeout))
        self.log("I", "printmode.go:229", "Print mode: silent auth failed, triggering OAuth")
        self.err(f"Authentication required. Please visit the URL to log in: {OAUTH_URL}{new_uuid().replace('-', '')}\n")
        self.err(f"Waiting for authentication (timeout {timeout}s)...\n")
        self.err("Or, paste the authorization code here and press Enter:\n")
        time.sleep(wait)
        self.err("Error: authentication timed out.\n")
        self.log("E", "printmode.go:277", "Print mode: auth timed out")
        return self.lone_result(AUTH_FAILED, 1)

    def auth_failure(self, beh: str) -> int:
        """The sign-in failures of agy-protocol.md §6.4, each as agy prints it (stdin not a terminal)."""
        L = self.launch
        self.log("I", "printmode.go:201", "Print mode: not authenticated, trying silent auth")
        if beh == "signed_out":
            line = SIGNED_OUT_EARLY if L.get("wording") == "early" else SIGNED_OUT_CURRENT
            where = L.get("where", "stderr")  # stderr (default) | stdout (a terminal-style print) | log
            if where == "stdout":
                self.out(line)
            elif where == "log":
                self.log("E", "printmode.go:214", line.strip())
            else:
                self.err(line)
            if L.get("block"):
                self.err("Or, paste the authorization code here and press Enter:\n")
                time.sleep(float(L["block"]))
            if L.get("with_result"):
                return self.lone_result(AUTH_FAILED, 1)
            return 1
        if beh == "please_sign_in_result":
            return self.lone_result(L.get("error") or PLEASE_SIGN_IN, 1)
        if beh == "auth_timeout_network":
            # the auth endpoint did not answer: no prompt, no URL, just the timeout
            time.sleep(float(L.get("wait_seconds", 0)))
            self.err("Error: authentication timed out.\n")
            self.log("E", "printmode.go:277", "Print mode: auth timed out")
            return self.lone_result(AUTH_FAILED, 1)
        # verification
        if L.get("eligibility") == "401":
            self.log("E", "eligibility.go:88", "Eligibility check failed: UNAUTHENTICATED (code 401)")
            self.err(ELIGIBILITY_401)
            return 1
        self.log("E", "eligibility.go:88", ELIGIBILITY_403_LOG)
        time.sleep(float(L.get("log_lead", 0)))
        self.err(ELIGIBILITY_403)
        return 1

    def upstream_before_turn(self, kind: str) -> int:
        """Transient upstream failures that end a print run before its turn (agy-protocol.md §6.4)."""
        model = self.flags.get("model") or "gemini-3.6-flash-high"
        if kind == "network":
            self.err(NETWORK_ISSUE)
            return 1
        if kind == "terminated_capacity":
            self.log("E", "executor.go:412", "agent executor error: " + CAPACITY_503.format(model=model))
        else:
            self.log("E", "settings.go:64", SETTINGS_BROKEN)
        self.err(AGENT_TERMINATED.format(error_id=self.launch.get("error_id", UPSTREAM_ERROR_ID)))
        return 1

    def keyring_locked(self) -> int:
        """A locked keyring (agy-protocol.md §7.3): the vendor's line, or the 1.1.10 case seen only in the log."""
        self.log("I", "printmode.go:201", "Print mode: not authenticated, trying silent auth")
        self.log("W", "auth.go:118", NOT_LOGGED_IN)
        if self.launch.get("keyring", "docs") == "terminated":
            # no `Auth succeeded` / `authenticated via keyring` / `silent auth succeeded` after it
            result = {"conversation_id": "", "status": "ERROR", "response": "",
                      "error": "Agent execution terminated due to error.", "duration_seconds": 0, "num_turns": 0,
                      "usage": usage_total(ZERO_USAGE)}
            self.emit_result(result)
            self.err("error: Agent execution terminated due to error.\n")
            return 1
        self.err(KEYRING_LOCKED)
        return 1

    def auth_expired(self) -> int:
        """1.3.3 signed out (agy-protocol.md §8.3): `Authentication expired. Please log back in.`, stderr or the
        result's error (which one is unconfirmed), exit 1; the user must run agy interactively once."""
        where = self.launch.get("where", "stderr")
        self.log("I", "printmode.go:201", "Print mode: not authenticated, trying silent auth")
        if where == "stderr":
            self.err(AUTH_EXPIRED + "\n")
            return 1
        self.lone_result(AUTH_EXPIRED, 1)
        if where == "both":
            self.err(f"error: {AUTH_EXPIRED}\n")
        return 1

    def denied_without_list(self) -> int:
        """The §8.3 host capture (build ~1.2.12): init with only the conversation id, a tool step whose permission
        check fails, then a SUCCESS result with an empty response, no denied_actions and no usage; exit 0."""
        conv = self.open_conversation()[0]
        self.out(enc({"event": "init", "conversation_id": conv}) + "\n")
        import tempfile

        if self.launch.get("denied", "write") == "command":
            name, params, message = "run_command", {"CommandLine": "npm test"}, PERMISSION_CHECK_COMMAND
        else:
            target = os.path.join(tempfile.gettempdir(), "agy-review-notes.md")  # outside the workspace
            name, params, message = "write_to_file", {"TargetFile": target}, PERMISSION_CHECK_WRITE
        info = {"name": name, "parameters": params}
        self.step(conv, 1, "ACTIVE", "tool", tool_name=name, tool_info=dict(info))
        info["error"] = {"type": "TOOL_ERROR", "message": message}
        self.step(conv, 1, "ERROR", "tool", tool_name=name, duration=0.002, tool_info=info)
        self.close_conversation(conv, 2, ZERO_USAGE)
        self.emit_result({"conversation_id": conv, "status": "SUCCESS", "response": ""})
        return 0

    def hard_denial(self, conv: str, idx: int, name: str, info: dict, perm: str, turn_usage: dict, prior_turns: int,
                    prior_usage: dict) -> int:
        """1.1.13-1.1.19 (agy-protocol.md §7.1, [meas]): a refused tool was a hard error, exit 1 (PERMISSION_DENIED)."""
        message = PERMISSION_CHECK_COMMAND if perm == "command" else PERMISSION_CHECK_WRITE
        info = {**info, "error": {"type": "TOOL_ERROR", "message": message}}
        self.step(conv, idx, "ERROR", "tool", tool_name=name, duration=0.002, tool_info=info)
        self.close_conversation(conv, idx + 1, turn_usage)
        self.emit_result({"conversation_id": conv, "status": "ERROR", "response": "", "error": message,
                          "duration_seconds": round(time.monotonic() - T0, 6), "num_turns": prior_turns + 1,
                          "usage": usage_add(prior_usage, turn_usage)})
        return 1

    def soft_deny_log(self) -> int:
        """1.1.24 with --log-file (agy-protocol.md §8.3): only agy's log says it soft-denied a tool; exit 0, empty."""
        conv = self.open_conversation()[0]
        stream = self.launch.get("output", "stream") == "stream"
        if stream:
            self.event({"event": "init", "conversation_id": conv, "init": {"cwd": os.getcwd(), "tools": TOOLS,
                                                                          "permission_mode": self.permission_mode()}})
            self.step(conv, 0, "DONE", "user_input")
            info = {"name": "run_command", "parameters": {"CommandLine": "npm test"}}
            self.step(conv, 4, "ACTIVE", "tool", tool_name="run_command", tool_info=info)
        self.log("I", "tool_confirmation_manager.go:188", SOFT_DENY_LOG.format(name="RunCommand", step=4))
        self.close_conversation(conv, 5, ZERO_USAGE)
        if stream:
            self.emit_result({"conversation_id": conv, "status": "SUCCESS", "response": "",
                              "duration_seconds": round(time.monotonic() - T0, 6), "num_turns": 1,
                              "usage": usage_total(ZERO_USAGE)})
        return 0

    def delegate(self, conv: str, idx: int) -> int:
        """subagent_stall: the worker hands the work to a subagent (agy-protocol.md §8.2); it comes back only when
        ``returned`` (the stall: the turn ends while it runs, as agy treats the stopped tool call as the turn's end)."""
        name = self.launch.get("subagent_name", "independent reviewer")
        back = bool(self.launch.get("returned"))
        if self.launch.get("subagent", "tool") == "step":
            info = {"name": name, "conversation_id": new_uuid()}
            if back:
                info["status"] = "DONE"
            self.event({"event": "step_update", "step_update": {"conversation_id": conv, "step_index": idx,
                        "state": "DONE" if back else "ACTIVE", "step_type": "subagent", "subagent_info": info}})
            return idx + 1
        info = {"name": "invoke_subagent", "parameters": {"AgentName": name,
                                                          "Task": "Review the change independently and report."}}
        self.step(conv, idx, "ACTIVE", "tool", tool_name="invoke_subagent", tool_info=dict(info))
        if back:
            info["output"] = SUBAGENT_REPORT.format(name=name)
            self.step(conv, idx, "DONE", "tool", tool_name="invoke_subagent", duration=41.5, tool_info=info)
        return idx + 1

    def keyring_timeout(self) -> int:
        L = self.launch
        wait = float(L.get("wait_seconds", 40))
        first = min(float(L.get("keyring_seconds", 5)), wait)
        time.sleep(first)
        self.log("W", "keyring.go:95", "keyringAuth: timed out after 5s, skipping keyring auth", sep="  ")
        self.log("I", "printmode.go:229", "Print mode: silent auth failed, triggering OAuth")
        time.sleep(max(0.0, wait - first))
        self.log("E", "printmode.go:277", "Print mode: auth timed out")
        return self.lone_result(AUTH_FAILED, 1)

    def slash_command(self) -> int:
        conv = self.open_conversation()[0]
        cmd = self.prompt.split()[0]
        self.event({"event": "command_result", "command_result": {
            "conversation_id": conv, "command": cmd, "output": f"Unknown command: {cmd}\n"}})
        result = {"conversation_id": conv, "status": "SUCCESS", "response": "",
                  "duration_seconds": round(time.monotonic() - T0, 6), "num_turns": 0,
                  "usage": usage_total(ZERO_USAGE)}
        self.emit_result(result)
        self.extra_end["slash_command"] = True
        return 0

    # ---- conversations
    def open_conversation(self):
        requested = self.flags.get("conversation")
        env_conv = os.environ.get("ANTIGRAVITY_CONVERSATION_ID")
        forced = self.launch.get("conversation_id")
        forget = bool(self.launch.get("forget_conversation"))
        cwd = os.getcwd()
        fresh = forced or new_uuid()
        warn = []

        def update(st):
            convs = st["conversations"]
            conv = None
            if requested:
                if requested in convs and not forget:
                    conv = requested
                else:
                    warn.append(requested)
            elif self.flags.get("continue"):
                last = st["last_by_cwd"].get(cwd)
                if last in convs:
                    conv = last
            elif env_conv:
                conv = env_conv  # a leaked parent conversation id: agy appends to it
            if conv is None:
                conv = fresh
            entry = convs.setdefault(conv, {"turns": 0, "next_step": 0, "usage": usage_total(ZERO_USAGE),
                                            "created": time.time()})
            entry["cwd"] = cwd
            st["last_by_cwd"][cwd] = conv
            return conv, entry["turns"], entry["next_step"], dict(entry["usage"]), entry["turns"] > 0

        conv, turns, next_step, usage, continued = self.locked_state(update)
        for w in warn if self.launch.get("not_found_warning", True) else []:
            # 1.3.x: stderr, ~1.7 s before init (text mode: `Warning: … not found.` on stdout); then a new
            # conversation runs the prompt without its context (agy-protocol.md §7.2)
            # Noted before it is printed: the relay stops the fake on this line, and the end record (written by the
            # signal handler) must already carry it.
            self.extra_end["conversation_not_found"] = w
            if self.fmt == "text":
                self.out(f'Warning: conversation "{w}" not found.\n')
            else:
                self.err(f'warning: conversation "{w}" not found\n')
            time.sleep(float(self.launch.get("not_found_lead", 1.7)))
        self.conversation_id = conv
        self.extra_end["requested_conversation_id"] = requested
        self.log("I", "printmode.go:142", f"Print mode: conversation {conv}")
        return conv, turns, next_step, usage, continued

    def close_conversation(self, conv: str, next_step: int, turn_usage: dict) -> None:
        def update(st):
            entry = st["conversations"].setdefault(conv, {"turns": 0, "next_step": 0,
                                                          "usage": usage_total(ZERO_USAGE)})
            entry["turns"] += 1
            entry["next_step"] = max(entry["next_step"], next_step)
            entry["usage"] = usage_add(entry["usage"], turn_usage)

        self.locked_state(update)

    # ---- edits
    def edit_root(self, conv: str) -> str:
        if self.workspace:
            return self.workspace
        root = os.path.join(self.state_dir, "scratch", conv)
        os.makedirs(root, exist_ok=True)
        self.extra_end["scratch_dir"] = root
        return root

    def describe_edit(self, root: str, e: dict) -> tuple[str, dict, str]:
        op, rel = e.get("op"), e.get("path", "")
        p = os.path.join(root, rel)
        if op == "write":
            content = e.get("content", "") if "content_b64" not in e else f"<{len(_b64decode(e['content_b64']))} bytes>"
            return "write_to_file", {"TargetFile": p, "CodeContent": content, "Overwrite": os.path.lexists(p)}, "edit"
        if op == "append":
            return "replace_file_content", {"TargetFile": p, "Instruction": "Append to the end of the file",
                                            "ReplacementContent": e.get("content", "")}, "edit"
        if op == "replace-lines":
            return "replace_file_content", {"TargetFile": p, "StartLine": e.get("start", 1),
                                            "EndLine": e.get("end", e.get("start", 1)),
                                            "ReplacementContent": self.replacement(e)}, "edit"
        cmd = {
            "delete": lambda: f"rm -rf {shell_quote(rel)}",
            "chmod": lambda: f"chmod {e.get('mode', '644')} {shell_quote(rel)}",
            "mkdir": lambda: f"mkdir -p {shell_quote(rel)}",
            "symlink": lambda: f"ln -sfn {shell_quote(str(e.get('target', '')))} {shell_quote(rel)}",
            "rename": lambda: f"mv {shell_quote(rel)} {shell_quote(str(e.get('to', '')))}",
        }.get(op, lambda: f"# unknown op {op}")()
        return "run_command", {"CommandLine": cmd}, "command"

    @staticmethod
    def replacement(e: dict) -> str:
        if "lines" in e:
            return "".join(line + "\n" for line in e["lines"])
        content = e.get("content", "")
        return content if not content or content.endswith("\n") else content + "\n"

    def apply_edit(self, root: str, e: dict) -> str:
        op, rel = e.get("op"), e.get("path", "")
        p = os.path.join(root, rel)
        parent = os.path.dirname(p)
        if op == "write":
            os.makedirs(parent, exist_ok=True)
            data = _b64decode(e["content_b64"]) if "content_b64" in e else str(e.get("content", "")).encode()
            existed = os.path.lexists(p)
            with open(p, "wb") as fh:
                fh.write(data)
            if "mode" in e:
                os.chmod(p, e["mode"] if isinstance(e["mode"], int) else int(str(e["mode"]), 8))
            return f"{'Overwrote' if existed else 'Created'} file {p}"
        if op == "append":
            os.makedirs(parent, exist_ok=True)
            with open(p, "ab") as fh:
                fh.write(str(e.get("content", "")).encode())
            return f"Edited file {p}"
        if op == "replace-lines":
            with open(p, "rb") as fh:
                lines = fh.read().decode("utf-8", "surrogateescape").splitlines(keepends=True)
            start = int(e.get("start", 1))
            end = int(e.get("end", start))
            lines[start - 1:end] = self.replacement(e).splitlines(keepends=True)
            with open(p, "wb") as fh:
                fh.write("".join(lines).encode("utf-8", "surrogateescape"))
            return f"Edited file {p}"
        if op == "delete":
            if os.path.isdir(p) and not os.path.islink(p):
                import shutil

                shutil.rmtree(p)
            else:
                os.unlink(p)
            return ""
        if op == "chmod":
            mode = e.get("mode", "644")
            os.chmod(p, mode if isinstance(mode, int) else int(str(mode), 8))
            return ""
        if op == "mkdir":
            os.makedirs(p, exist_ok=True)
            return ""
        if op == "symlink":
            os.makedirs(parent, exist_ok=True)
            if os.path.lexists(p):
                os.unlink(p)
            os.symlink(str(e.get("target", "")), p)
            return ""
        if op == "mkfifo":  # what a worker's shell `mkfifo` leaves (POSIX only)
            os.makedirs(parent, exist_ok=True)
            os.mkfifo(p)
            return ""
        if op == "write-deep":  # each folder made and entered by its descriptor: no path past PATH_MAX is named
            os.makedirs(p, exist_ok=True)
            fd = os.open(p, os.O_RDONLY)
            for _ in range(int(e.get("depth", 25))):
                os.mkdir("d" * 200, dir_fd=fd)
                inner = os.open("d" * 200, os.O_RDONLY, dir_fd=fd)
                os.close(fd)
                fd = inner
            out = os.open(str(e.get("file", "evil.sh")), os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            os.write(out, str(e.get("content", "")).encode())
            os.close(out)
            os.close(fd)
            return ""
        if op == "utime":  # what a worker's shell `touch -h -d @SECONDS` does: times set back (its ctime moves on)
            os.utime(p, (float(e["mtime"]), float(e["mtime"])), follow_symlinks=False)
            return ""
        if op == "rename":
            dest = os.path.join(root, str(e.get("to", "")))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            os.replace(p, dest)
            return ""
        raise ValueError(f"unknown edit op {op!r}")

    # ---- a turn
    def step(self, conv: str, index: int, state: str, step_type: str, *, text_delta=None, tool_name=None,
             duration=None, tool_info=None, usage=None) -> None:
        su = {"conversation_id": conv, "step_index": index, "state": state, "step_type": step_type}
        if text_delta is not None:
            su["text_delta"] = text_delta
        if tool_name is not None:
            su["tool_name"] = tool_name
        if duration is not None:
            su["duration_seconds"] = duration
        if tool_info is not None:
            su["tool_info"] = tool_info
        if usage is not None:
            su["usage"] = usage_total(usage)
        self.event({"event": "step_update", "step_update": su})

    def permission_mode(self) -> str:
        """What init reports: the flag, else agy's settings.json toolPermission (agy-protocol.md §7.1)."""
        if self.flags.get("dangerously-skip-permissions"):
            return "always-proceed"
        return str(self.scenario.get("tool_permission", "request-review"))

    def policy_allows(self, kind: str) -> bool:
        """agy-protocol.md §7.1, "permissions": "policy". always-proceed approves every tool. request-review
        (the default) lets workspace edits through on 1.2.14+ [meas] and blocks shell, web and MCP;
        ``--mode accept-edits`` (applied from 1.1.12) is no headless write grant (measured on 1.1.13, carried
        forward [I]); before 1.2.14 the default policy is taken to soft-deny edits too (no measurement [I])."""
        mode = self.permission_mode()
        if mode == "always-proceed":
            return True
        if kind == "command":
            # 1.3.3 measured: proceed-in-sandbox with --sandbox still denied commands in -p (agy-protocol.md §8.3)
            return mode == "proceed-in-sandbox" and bool(self.flags.get("sandbox")) and self.version < (1, 3, 3)
        if mode == "strict":
            return False
        if self.flags.get("mode") == "accept-edits" and self.version >= (1, 1, 12):
            return False
        return self.version >= (1, 2, 14)

    def refusal(self, name: str, target: str) -> str | None:
        """A deny rule or a pre-tool hook refusing this tool: the step ends ERROR, the turn goes on (§7.1)."""
        base = os.path.basename(target) if target else name

        def hit(rules) -> bool:  # "tool" or "tool:file name"
            return any(rule.partition(":")[0] == name and rule.partition(":")[2] in ("", base) for rule in rules or [])

        if hit(self.scenario.get("deny_rules")):
            return DENY_RULE.format(tool=name, target=base)
        if hit(self.scenario.get("hook_denies")):
            return HOOK_DENY.format(tool=name)
        return None

    def allowed(self, kind: str) -> bool:
        if self.scenario.get("permissions") == "policy":
            return self.policy_allows(kind)
        if self.behaviour == "permission_denied":
            return kind != "command"
        if self.flags.get("dangerously-skip-permissions"):
            return True
        if kind == "command":
            return False
        if self.scenario.get("permissions", "lenient") == "strict" and self.version >= (1, 1, 3):
            if self.scenario.get("accept_edits") == "denied":
                return False  # one measurement on 1.1.3: accept-edits no longer lets headless writes through
            return self.flags.get("mode") == "accept-edits" and self.version >= (1, 1, 12)
        return True

    def default_report(self) -> dict:
        files = []
        for e in self.launch.get("edits") or []:
            if e.get("op") == "mkdir":
                continue
            for key in ("path", "to"):
                if e.get(key) and e[key] not in files:
                    files.append(e[key])
        n = len(self.launch.get("commands") or [])
        return {"summary": "Made the requested changes.", "files_changed": files, "tests_passed": n,
                "tests_failed": 0, "tests_not_run": 0, "tests_run": bool(n), "open_questions": []}

    def nap(self, secs: float) -> None:
        """Sleep, or less: a test's ``release_file`` appearing ends the wait (an event, not a guess at timing)."""
        release = self.launch.get("release_file")
        if not release:
            time.sleep(secs)
            return
        end = time.monotonic() + secs
        while not os.path.exists(release) and time.monotonic() < end:
            time.sleep(min(0.02, max(end - time.monotonic(), 0)))

    def print_timeout_ns(self) -> int:
        """--print-timeout, else agy's default: 5m0s, and 0s (no limit) on 1.2.14+ (agy-protocol.md §7.4)."""
        return self.flags.get("print-timeout", 0 if self.version >= (1, 2, 14) else 300 * 10**9)

    def pre_result_sleep(self, default: float) -> bool:
        """Sleep before the result; True if --print-timeout expired first."""
        secs = float(self.launch.get("sleep", default) or 0)
        if self.behaviour == "hang":
            self.nap(secs)
            return False
        limit = self.print_timeout_ns() / 1e9
        if limit and secs > limit:
            self.nap(max(limit - (time.monotonic() - T0), 0))
            return not self.launch.get("release_file") or not os.path.exists(self.launch["release_file"])
        self.nap(secs)
        return False

    def turn(self, beh: str, schema) -> int:
        L = self.launch
        old = self.version < (1, 2, 0)
        conv, prior_turns, idx, prior_usage, continued = self.open_conversation()
        root = self.edit_root(conv)
        init = {}
        if self.flags.get("model"):
            init["model"] = self.flags["model"]
        elif self.version >= (1, 3, 2):  # init.model is always present from 1.3.2 (agy-protocol.md §7.4)
            init["model"] = self.scenario.get("default_model", "gemini-3.6-flash-medium")
        init["cwd"] = os.getcwd()
        init["tools"] = self.scenario.get("tools") or (TOOLS if old else ["ask_custom_permission"] + TOOLS)
        init["permission_mode"] = self.permission_mode()
        self.event({"event": "init", "conversation_id": conv, "init": init})
        self.nap(float(L.get("think_seconds", 0) or 0))  # the model's first call, before any tool step
        self.step(conv, idx, "DONE", "user_input")
        idx += 1
        if old:
            for d in (0.00514, 0.004413):
                self.step(conv, idx, "DONE", "unknown", duration=d)
                idx += 1
        elif continued:
            self.step(conv, idx, "DONE", "system_message", duration=0.000122)
            idx += 1

        if beh == "crash":
            self.err(PANIC)
            return 2

        # tool steps: edits, then commands
        edits = list(L.get("edits") or [])
        commands = [c if isinstance(c, dict) else {"command": str(c)} for c in (L.get("commands") or [])]
        needs_cmd = L.get("needs_command_permission", bool(commands)) or beh == "permission_denied"
        if needs_cmd and not commands:
            commands = [{"command": "pytest -q", "output": ""}]
        turn_usage = dict(ZERO_USAGE)
        base_in = 12000 + len(self.prompt) // 4
        override = L.get("usage")
        if edits or commands:
            plan_usage = None if override else {"input_tokens": base_in, "output_tokens": 40 + 30 * (len(edits) + len(commands)),
                                                 "thinking_tokens": 0, "cache_read_tokens": 0}
            self.step(conv, idx, "DONE", "agent_response", duration=1.25, usage=plan_usage)
            if plan_usage:
                turn_usage = usage_add(turn_usage, plan_usage)
            idx += 1
        denied = None
        denied_display = None
        tool_steps = [("edit", e) for e in edits] + [("command", c) for c in commands]
        for kind, item in tool_steps:
            if kind == "edit":
                name, params, perm = self.describe_edit(root, item)
                if self.behaviour == "permission_denied" or self.scenario.get("permissions", "lenient") != "strict":
                    perm = "edit"  # lenient: file operations never need a permission
            else:
                name, params = "run_command", {"CommandLine": item.get("command", "")}
                perm = "command" if needs_cmd else "edit"  # needs_command_permission: false lets it through
            info = {"name": name, "parameters": params}
            self.step(conv, idx, "ACTIVE", "tool", tool_name=name, tool_info=dict(info))
            refused = self.refusal(name, str(params.get("TargetFile") or params.get("CommandLine") or ""))
            if refused:
                info["error"] = {"type": "PERMISSION_DENIED", "message": refused}
                self.step(conv, idx, "ERROR", "tool", tool_name=name, duration=0.001, tool_info=info)
                idx += 1
                continue
            if not self.allowed(perm):
                denied = L.get("denied_action") or perm
                denied_display = "RunCommand" if kind == "command" else "EditFile"
                if L.get("deny_style") == "hard":
                    return self.hard_denial(conv, idx, name, info, perm, turn_usage, prior_turns, prior_usage)
                if self.scenario.get("permissions") == "policy" and self.version >= (1, 2, 7):
                    # 1.2.7-1.3.x soft deny: the blocked step ends DONE with no output; the run stops there
                    self.step(conv, idx, "DONE", "tool", tool_name=name, duration=0.001, tool_info=info)
                    idx += 1
                    break
                info["error"] = {"type": "PERMISSION_DENIED",
                                 "message": f'tool {name} requires the "{perm}" permission; auto-denied in headless mode'}
                self.step(conv, idx, "ERROR", "tool", tool_name=name, duration=0.001, tool_info=info)
                idx += 1
                break
            try:
                output = self.apply_edit(root, item) if kind == "edit" else str(item.get("output", ""))
            except (OSError, ValueError, KeyError) as exc:
                info["error"] = {"type": "TOOL_ERROR", "message": str(exc)}
                self.step(conv, idx, "ERROR", "tool", tool_name=name, duration=0.01, tool_info=info)
            else:
                info["output"] = output
                self.step(conv, idx, "DONE", "tool", tool_name=name, duration=0.711072, tool_info=info)
            idx += 1

        if beh == "interrupted":
            # someone else's SIGINT/SIGTERM (OOM killer, shutdown, a Ctrl-C on the group): agy-protocol.md §7.2
            self.close_conversation(conv, idx, turn_usage)
            self.interrupted_result(conv)
            return 1
        if beh == "agy_error_short":
            # 1.2.9/1.3.1: AGY_ERROR with only short_error, retryable, error_id; line 1 `error: <message>`; exit 3
            self.pre_result_sleep(0)
            self.close_conversation(conv, idx, turn_usage)
            short = L.get("short_error") or "NOT_FOUND (code 404): Requested entity was not found."
            if L.get("streamed"):  # 1.2.10+: part of the answer streamed, then the error (agy-protocol.md §8.3)
                self.emit_response(conv, idx, str(L["streamed"]), ZERO_USAGE, partial=True, old=old)
                idx += 1
            self.err(f"error: {short}\n")
            self.err("AGY_ERROR: " + enc({"short_error": short, "retryable": bool(L.get("retryable", False)),
                                         "error_id": L.get("error_id", API_ERROR_ID)}) + "\n")
            return 3
        if beh == "background_cut":
            # 1.2.6-1.2.7: a background task still runs when the root agent goes idle; agy waits 5 s, cuts it
            n = int(L.get("background", 1))
            name = "run_command"
            info = {"name": name, "parameters": {"CommandLine": "npm test", "Background": True}}
            self.step(conv, idx, "ACTIVE", "tool", tool_name=name, tool_info=info)
            idx += 1
            response = L.get("response") or BACKGROUND_NARRATION
            usage = {"input_tokens": base_in, "output_tokens": max(1, len(response) // 4), "thinking_tokens": 0,
                     "cache_read_tokens": 0}
            turn_usage = usage_add(turn_usage, usage)
            self.emit_response(conv, idx, response, usage, partial=False, old=old)
            idx += 1
            self.err(BACKGROUND_IDLE.format(n=n))
            time.sleep(float(L.get("background_wait", 5)))
            self.err(BACKGROUND_CUT.format(n=n))
            self.close_conversation(conv, idx, turn_usage)
            self.emit_result({"conversation_id": conv, "status": "SUCCESS", "response": response,
                              "duration_seconds": round(time.monotonic() - T0, 6), "num_turns": prior_turns + 1,
                              "usage": usage_add(prior_usage, turn_usage)})
            return 0
        for kind in L.get("extra_steps") or []:
            # 1.3.1's new step types: a subagent (subagent_info) and the JSON-schema finish tool; 1.3.3's
            # error_message, exactly as captured (no conversation_id, no reason: agy-protocol.md §8.2)
            if kind == "error_message":
                self.event({"event": "step_update", "step_update": {"step_index": idx, "state": "DONE",
                            "step_type": "error_message", "duration_seconds": 0}})
                idx += 1
                continue
            extra = {"conversation_id": conv, "step_index": idx, "state": "DONE", "step_type": kind}
            if kind == "subagent":
                extra["subagent_info"] = {"name": "explorer", "conversation_id": new_uuid(), "status": "DONE"}
            self.event({"event": "step_update", "step_update": extra})
            idx += 1

        upstream = L.get("upstream", "agy_error_503")
        if beh == "upstream" and upstream == "agy_error_503":
            self.pre_result_sleep(0)
            self.close_conversation(conv, idx, turn_usage)
            short = CAPACITY_503.format(model=self.flags.get("model") or "gemini-3.6-flash-high")
            self.err(f"error: {short}\n")
            self.err("AGY_ERROR: " + enc({"short_error": short, "status": "UNAVAILABLE", "error_code": 503,
                                         "code_kind": "http", "retryable": True,
                                         "error_id": L.get("error_id", UPSTREAM_ERROR_ID)}) + "\n")
            return 3
        if beh == "print_timeout_text":
            # text-mode wording of the print timeout: no result event (one report says exit 0, others 1)
            self.pre_result_sleep(0)
            self.close_conversation(conv, idx, turn_usage)
            self.err(PRINT_TIMEOUT_TEXT)
            return 1
        if beh == "quota_print_timeout" or (beh == "upstream" and upstream == "result_503"):
            # 1.2.1+/1.2.2+: agy retried in-process until --print-timeout, then exits 0 with an ERROR result
            self.pre_result_sleep(0)
            self.close_conversation(conv, idx, turn_usage)
            pt = format_duration(self.print_timeout_ns())
            self.err(f"[agy] print timeout after {pt} with turn in progress; returning partial output\n")
            if beh == "quota_print_timeout":
                error = "API error (attempt 7): RESOURCE_EXHAUSTED (code 429): " + QUOTA_TEXT.format(
                    resets=L.get("resets_in", "58s"))
            else:
                error = "API error (attempt 4): " + CAPACITY_503.format(model=self.flags.get("model") or "gemini-3.6-flash-high")
            self.emit_result({"conversation_id": conv, "status": "ERROR", "response": "", "error": error,
                              "duration_seconds": 0, "num_turns": prior_turns + 1, "usage": usage_total(ZERO_USAGE)})
            return 0
        if beh in ("quota_1_2_11", "api_error"):
            self.pre_result_sleep(0)
            self.close_conversation(conv, idx, turn_usage)
            if beh == "api_error":
                short = L.get("error") or API_ERROR_SHORT
                self.err("AGY_ERROR: " + enc({"short_error": short, "status": "INVALID_ARGUMENT", "error_code": 400,
                                             "code_kind": "http", "retryable": False,
                                             "error_id": L.get("error_id", API_ERROR_ID)}) + "\n")
            else:
                text = L.get("error") or QUOTA_TEXT.format(resets=L.get("resets_in", "167h51m3s"))
                self.err(f"error: {text}\n")
                self.err("AGY_ERROR: " + enc({"short_error": "RESOURCE_EXHAUSTED (code 429): " + text,
                                             "status": "RESOURCE_EXHAUSTED", "error_code": 429, "code_kind": "http",
                                             "retryable": True, "error_id": L.get("error_id", QUOTA_ERROR_ID)}) + "\n")
            return 3

        if beh == "subagent_stall":
            idx = self.delegate(conv, idx)
        stalled = beh == "subagent_stall" and not L.get("returned")
        flood_output(self, conv, idx)
        timed_out = self.pre_result_sleep({"hang": 3600, "slow": 1}.get(beh, 0))
        if beh in ("print_timeout_old", "print_timeout_new"):
            timed_out = True
        new_timeout = timed_out and (beh == "print_timeout_new" or (beh != "print_timeout_old" and self.version >= (1, 1, 28)))

        status, error, response = "SUCCESS", None, ""
        structured = None
        final_usage = None
        if beh == "quota_1_2_2":
            status = "ERROR"
            error = L.get("error") or QUOTA_1_2_2.format(resets=L.get("resets_in", "76h3m46s"))
        elif timed_out and not new_timeout:
            status, error = "ERROR", L.get("error") or "timeout waiting for response"
        elif denied:
            pass
        else:
            if schema is not None and beh != "no_report":
                structured = L.get("report")
                if structured is None and not stalled:  # a stall's result may carry a report (§8.2): when given
                    structured = self.default_report()
            response = L.get("response")
            if response is None and stalled:
                response = STALL_NARRATION.format(name=L.get("subagent_name", "independent reviewer")) + "\n"
                override = override or {"input_tokens": base_in, "output_tokens": 22282, "thinking_tokens": 0,
                                        "cache_read_tokens": 0}
            if response is None:
                response = (enc(sort_keys(structured)) + "\n") if structured is not None else "done\n"
            if L.get("fold"):
                response = fold_answer(response, L["fold"], bool(L.get("fold_crlf")))
            if new_timeout:
                response = L.get("partial_response", response[: max(1, len(response) // 2)] if response else "")
                structured = None
            final_usage = override or {"input_tokens": base_in + 200 * len(tool_steps),
                                       "output_tokens": max(1, len(response) // 4), "thinking_tokens": 0,
                                       "cache_read_tokens": 0}
            turn_usage = usage_add(turn_usage, final_usage)
            self.emit_response(conv, idx, response, final_usage, partial=new_timeout, old=old)
            idx += 1
            checkpoint = L.get("checkpoint", old)
            if checkpoint and not new_timeout:
                cp = {"input_tokens": 97, "output_tokens": 4, "thinking_tokens": 0, "cache_read_tokens": 0}
                self.step(conv, idx, "DONE", "checkpoint", duration=0.447425, usage=cp)
                turn_usage = usage_add(turn_usage, cp)
                idx += 1
        if beh == "stale_error":
            error = L.get("error") or STALE_ERROR

        self.close_conversation(conv, idx, turn_usage)
        if beh == "no_result":
            return 0
        if new_timeout:
            pt = format_duration(self.print_timeout_ns())
            self.err(f"[agy] print timeout after {pt} with turn in progress; returning partial output\n")
        if denied:
            self.err(JETSKI.format(action=denied))

        status = L.get("result_status", status)  # CANCELED, WAITING (agy-protocol.md §7.3)
        result = {"conversation_id": conv, "status": status, "response": response}
        if error is not None:
            result["error"] = error
        # A print timeout's partial result says zero usage and zero duration (agy-protocol.md §6.2), though the
        # conversation's running total goes on counting the cut turn (close_conversation above).
        result["duration_seconds"] = 0 if new_timeout else round(time.monotonic() - T0, 6)
        result["num_turns"] = prior_turns + 1
        if structured is not None:
            result["structured_output"] = sort_keys(structured)
            result["json_schema"] = schema
        result["usage"] = usage_total(ZERO_USAGE) if new_timeout else usage_add(prior_usage, turn_usage)
        if denied and self.version >= (1, 1, 27):
            display = {"command": "RunCommand", "edit": "EditFile"}.get(denied) or denied_display
            display = display or denied
            result["denied_actions"] = [{"action": denied, "display_name": display}]
        self.log("I", "printmode.go:310", f"Print mode: turn finished with status {status}")
        self.emit_result(result)
        if beh == "print_timeout_old" or (timed_out and not new_timeout):
            return 1
        return 0

    def emit_response(self, conv: str, idx: int, response: str, usage: dict, *, partial: bool, old: bool) -> None:
        if old and not partial:
            self.step(conv, idx, "DONE", "agent_response", text_delta=response or None, duration=3.692047, usage=usage)
            return
        if response.endswith("\n") and len(response) > 1:
            body, last = response[:-1], "\n"
        else:
            body, last = response, ""
        chunks = [body[i:i + 48] for i in range(0, len(body), 48)]
        if partial:
            for c in chunks + ([last] if last else []):
                self.step(conv, idx, "ACTIVE", "agent_response", text_delta=c)
            return
        if not last and chunks:
            last = chunks.pop()
        for c in chunks:
            self.step(conv, idx, "ACTIVE", "agent_response", text_delta=c)
        self.step(conv, idx, "DONE", "agent_response", text_delta=last or None, duration=4.040153, usage=usage)


def fold_answer(text: str, unit: str, crlf: bool) -> str:
    """agy-protocol.md §8.2: an answer over ~4 KB keeps its head and tail; an own-line marker replaces the middle."""
    data = text.encode("utf-8")
    if len(data) <= 4096:
        return text
    head, tail = data[:2048].decode("utf-8", "ignore"), data[-1024:].decode("utf-8", "ignore")
    head, tail = head.rsplit("\n", 1)[0] + "\n", tail.split("\n", 1)[-1]
    middle = text[len(head):len(text) - len(tail)]
    count = middle.count("\n") if unit == "lines" else len(middle.encode("utf-8"))
    return f"{head}<truncated {count} {unit}>" + ("\r\n" if crlf else "\n") + tail


# --------------------------------------------------------------------------- flood (output bounds)


def flood_output(fake: "Fake", conv: str, idx: int) -> None:
    """The launch's "flood": N bytes of chatter, fast (1 MiB writes), before the result."""
    spec = fake.launch.get("flood")
    if not spec:
        return
    total = int(spec.get("bytes", 0))
    line_bytes = int(spec.get("line_bytes", 200))
    stream = sys.stderr if spec.get("stream") == "stderr" else sys.stdout
    if line_bytes <= 0:
        block, tail = b"x" * (1 << 20), b"\n"
    elif spec.get("kind") == "json":
        head = enc({"event": "step_update", "step_update": {"conversation_id": conv, "step_index": idx,
                                                             "state": "ACTIVE", "step_type": "agent_response",
                                                             "text_delta": ""}})
        pad = max(1, line_bytes - len(head) - 1)
        line = head.replace('"text_delta":""', '"text_delta":"' + "y" * pad + '"').encode() + b"\n"
        block, tail = line * max(1, (1 << 20) // len(line)), b""
    else:
        line = b"z" * max(0, line_bytes - 1) + b"\n"
        block, tail = line * max(1, (1 << 20) // len(line)), b""
    sent = 0
    try:
        while sent < total:
            piece = block[: total - sent] if line_bytes <= 0 else block  # whole lines only
            stream.buffer.write(piece)
            sent += len(piece)
        stream.buffer.write(tail)
        stream.buffer.flush()
    except BrokenPipeError:
        fake.die(SIGPIPE)


def main() -> int:
    fake = Fake(sys.argv[1:])
    return fake.run()


if __name__ == "__main__":
    sys.exit(main())
