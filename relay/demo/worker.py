"""A scripted stand-in for ``agy``, used by ``gravity-relay demo`` (stdlib only; runs as a script).

It behaves like agy's headless surface as described in agy-protocol.md, enough to
carry one real task through the relay: ``--version`` (1.2.17), ``--help`` (usage on
stderr), ``models`` (``slug<TAB>label`` on stdout), Go-style flags (an unknown one
exits 2 with ``flags provided but not defined: -name``), and print mode with
``--output-format stream-json``: an ``init`` event, ``step_update`` events (tool steps
for each edit), a real edit of the demo project under the first ``--add-dir``, and a
``result`` whose ``structured_output`` is the relay's WorkerReport. No model is
called: the edit is scripted, so usage is reported as zero.

With ``--dangerously-skip-permissions`` it also runs the project's tests (a tool
step); in ``--mode accept-edits`` it only edits, as a headless agy would be denied
the command.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

__all__ = ["VERSION", "main", "parse_args", "print_mode"]

VERSION = "1.2.17"

VALUE_FLAGS = {
    "output-format", "json-schema", "add-dir", "conversation", "mode", "model", "effort", "agent",
    "print-timeout", "log-file", "input-format", "p", "print", "prompt",
}
BOOL_FLAGS = {
    "dangerously-skip-permissions", "sandbox", "disable-slash-commands", "c", "continue", "version", "v",
    "help", "h",
}

MODELS = [
    ("demo-scripted", "Gravity Relay demo worker (scripted, calls no model)"),
]

TOOLS = [
    "ask_permission", "codebase_search", "find_by_name", "grep_search", "list_dir", "read_url_content",
    "replace_file_content", "run_command", "search_web", "view_file", "view_file_outline", "write_to_file",
]

USAGE = """Usage: agy [flags] [command]

Gravity Relay's scripted demo worker (stands in for the Antigravity CLI).

Commands:
  models    List available models

Flags:
  -p, --print string            Run a prompt headlessly and print the result
      --output-format string    text | json | stream-json (default "text")
      --json-schema string      JSON schema for structured output
      --add-dir string          Add a directory the agent may work in (repeatable)
      --conversation string     Continue the conversation with this id
      --dangerously-skip-permissions
      --mode string             accept-edits | plan
      --sandbox
      --print-timeout duration  (default 5m0s)
      --log-file string
  -v, --version                 Print the version
"""

ORIGINAL = 'def greet(name: str) -> str:\n    return f"Hello, {name}!"\n'
EDITED = (
    "def greet(name: str, shout: bool = False) -> str:\n"
    '    text = f"Hello, {name}!"\n'
    "    return text.upper() if shout else text\n"
)
NEW_TEST = (
    "\n"
    "    def test_shouts_when_asked(self):\n"
    '        self.assertEqual(greet("Ada", shout=True), "HELLO, ADA!")\n'
)


class FlagError(Exception):
    pass


def parse_args(argv: list[str]) -> tuple[dict, list[str]]:
    """Go-style: -x v, -x=v, --x v, --x=v; repeated --add-dir accumulates."""
    flags: dict = {"add-dir": []}
    positionals: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token.startswith("-") and token not in ("-", "--"):
            name, eq, value = token.lstrip("-").partition("=")
            if name in VALUE_FLAGS:
                if not eq:
                    i += 1
                    if i >= len(argv):
                        raise FlagError(f"flag needs an argument: -{name}")
                    value = argv[i]
                if name == "add-dir":
                    flags["add-dir"].append(value)
                else:
                    flags[name] = value
            elif name in BOOL_FLAGS:
                flags[name] = value.lower() != "false" if eq else True
            else:
                raise FlagError(f"flags provided but not defined: -{name}")
        elif token != "--":
            positionals.append(token)
        i += 1
    return flags, positionals


class Stream:
    """Writes stream-json events, one per line, flushed."""

    def __init__(self, conversation_id: str, first_step: int = 0) -> None:
        self.conversation_id = conversation_id
        self.step = first_step

    def emit(self, event: dict) -> None:
        sys.stdout.write(json.dumps(event, separators=(",", ":"), ensure_ascii=False) + "\n")
        sys.stdout.flush()

    def step_update(self, state: str, step_type: str, index: int | None = None, **fields) -> None:
        update = {"conversation_id": self.conversation_id, "step_index": self.step if index is None else index,
                  "state": state, "step_type": step_type, **fields}
        self.emit({"event": "step_update", "step_update": update})

    def say(self, text: str) -> None:
        index = self.step
        for piece in _chunks(text):
            self.step_update("ACTIVE", "agent_response", index, text_delta=piece)
        self.step_update("DONE", "agent_response", index, text_delta="\n", usage=_usage())
        self.step += 1

    def tool(self, name: str, parameters: dict, run) -> object:
        index = self.step
        info = {"name": name, "parameters": parameters}
        self.step_update("ACTIVE", "tool", index, tool_name=name, tool_info=info)
        started = time.monotonic()
        try:
            output = run()
        except Exception as exc:  # a failed tool step is not a failed turn
            done = {**info, "error": {"type": type(exc).__name__, "message": str(exc)}}
            self.step_update("ERROR", "tool", index, tool_name=name, tool_info=done,
                             duration_seconds=round(time.monotonic() - started, 6))
            self.step += 1
            return None
        self.step_update("DONE", "tool", index, tool_name=name, tool_info={**info, "output": str(output)},
                         duration_seconds=round(time.monotonic() - started, 6))
        self.step += 1
        return output


def _chunks(text: str, size: int = 48) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def _usage() -> dict:
    # The scripted worker calls no model: an honest zero.
    return {"input_tokens": 0, "output_tokens": 0, "thinking_tokens": 0, "cache_read_tokens": 0, "total_tokens": 0}


def _log(path: str | None, line: str) -> None:
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(time.strftime("%Y-%m-%dT%H:%M:%S") + " demo-worker: " + line + "\n")
    except OSError:
        pass


def _edit_greet(workspace: Path) -> str:
    target = workspace / "greet.py"
    text = target.read_text(encoding="utf-8")
    if ORIGINAL not in text:
        raise RuntimeError("greet.py does not have the expected greet(); nothing replaced")
    target.write_text(text.replace(ORIGINAL, EDITED), encoding="utf-8")
    return "replaced 2 lines with 3 in greet.py"


def _add_test(workspace: Path) -> str:
    target = workspace / "tests" / "test_greet.py"
    text = target.read_text(encoding="utf-8")
    target.write_text(text.rstrip("\n") + "\n" + NEW_TEST, encoding="utf-8")
    return "appended test_shouts_when_asked to tests/test_greet.py"


def _note(workspace: Path, prompt: str) -> str:
    target = workspace / "NOTES.md"
    first = next((line.strip() for line in prompt.splitlines() if line.strip() and not line.startswith("#")), "")
    with target.open("a", encoding="utf-8") as fh:
        fh.write(f"- follow-up: {first[:200]}\n")
    return "appended a line to NOTES.md"


def _run_tests(workspace: Path) -> tuple[int, int, str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    got = subprocess.run([sys.executable, "run_tests.py"], cwd=workspace, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60, env=env, encoding="utf-8")
    out = (got.stdout + got.stderr).strip()
    passed = failed = 0
    for line in out.splitlines():
        words = line.replace(",", " ").split()
        for n, word in enumerate(words[1:], 1):
            if word == "passed" and words[n - 1].isdigit():
                passed = int(words[n - 1])
            if word == "failed" and words[n - 1].isdigit():
                failed = int(words[n - 1])
    if got.returncode != 0 and failed == 0:
        failed = 1
    return passed, failed, out


def print_mode(flags: dict) -> int:
    prompt = flags.get("p") or flags.get("print") or flags.get("prompt") or ""
    log_file = flags.get("log-file")
    fmt = flags.get("output-format", "text")
    asked = flags.get("conversation")
    conversation_id = asked or str(uuid.uuid4())
    _log(log_file, f"print mode; output-format={fmt}; add-dir={flags['add-dir']}")
    started = time.monotonic()
    trusted = bool(flags.get("dangerously-skip-permissions"))
    stream = Stream(conversation_id, first_step=10 if asked else 0)
    streaming = fmt == "stream-json"
    if not streaming:
        stream.emit = lambda event: None  # type: ignore[method-assign]
    stream.emit({"event": "init", "conversation_id": conversation_id,
                 "init": {"cwd": os.getcwd(), "tools": TOOLS,
                          "permission_mode": "always-proceed" if trusted else "request-review",
                          **({"model": flags["model"]} if flags.get("model") else {})}})
    stream.step_update("DONE", "user_input")
    stream.step += 1

    files: list[str] = []
    passed = failed = 0
    tests_run = False
    workspace = Path(flags["add-dir"][0]) if flags["add-dir"] else None
    if workspace is None or not workspace.is_dir():
        stream.say("No workspace was added with --add-dir; nothing to edit.")
        summary = "No workspace was given (--add-dir), so nothing was changed."
    elif asked:
        stream.say("Applying the reviewer's follow-up.")
        if stream.tool("write_to_file", {"TargetFile": str(workspace / "NOTES.md")}, lambda: _note(workspace, prompt)):
            files.append("NOTES.md")
        summary = "Recorded the reviewer's follow-up in NOTES.md."
    else:
        stream.say("I'll read greet.py, add the shout option, and cover it with a test.")
        stream.tool("view_file", {"AbsolutePath": str(workspace / "greet.py")},
                    lambda: (workspace / "greet.py").read_text(encoding="utf-8"))
        if stream.tool("replace_file_content", {"TargetFile": str(workspace / "greet.py"),
                                                "Instruction": "add a shout option to greet()"},
                       lambda: _edit_greet(workspace)):
            files.append("greet.py")
        if stream.tool("replace_file_content", {"TargetFile": str(workspace / "tests" / "test_greet.py"),
                                                "Instruction": "add a test for shout=True"},
                       lambda: _add_test(workspace)):
            files.append("tests/test_greet.py")
        if trusted:
            got = stream.tool("run_command", {"CommandLine": "python run_tests.py", "Cwd": str(workspace)},
                              lambda: _run_tests(workspace))
            if got:
                passed, failed, _ = got
                tests_run = True
        summary = ("Added a shout option to greet() in greet.py (upper-cases the greeting) and a test for it."
                   + ("" if tests_run else " Tests were not run: commands need permission in this mode."))

    report = {"summary": summary, "files_changed": files, "tests_passed": passed, "tests_failed": failed,
              "tests_not_run": 0, "tests_run": tests_run, "open_questions": []}
    schema = flags.get("json-schema")
    response = (json.dumps(report, separators=(",", ":")) if schema else summary) + "\n"
    stream.say(response.rstrip("\n"))
    result: dict = {"conversation_id": conversation_id, "status": "SUCCESS", "response": response,
                    "duration_seconds": round(time.monotonic() - started, 6), "num_turns": 2 if asked else 1}
    if schema:
        try:
            parsed_schema = json.loads(schema)
        except ValueError:
            try:
                parsed_schema = json.loads(Path(schema).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                parsed_schema = None
        result["structured_output"] = report
        if parsed_schema is not None:
            result["json_schema"] = parsed_schema
    result["usage"] = _usage()
    _log(log_file, f"turn done in {result['duration_seconds']}s; {len(files)} file(s) edited")
    if streaming:
        Stream.emit(stream, {"event": "result", "result": result})
    elif fmt == "json":
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(response)
    sys.stdout.flush()
    return 0


def main(argv: list[str]) -> int:
    try:
        flags, positionals = parse_args(argv)
    except FlagError as exc:
        sys.stderr.write(f"{exc}\n{USAGE}")
        return 2
    if flags.get("version") or flags.get("v"):
        sys.stdout.write(VERSION + "\n")
        return 0
    if flags.get("help") or flags.get("h"):
        sys.stderr.write(USAGE)
        return 0
    if any(flags.get(k) for k in ("p", "print", "prompt")):
        return print_mode(flags)
    if positionals[:1] == ["models"]:
        sys.stderr.write("Fetching available models...\n")
        for slug, label in MODELS:
            sys.stdout.write(f"{slug}\t{label}\n")
        return 0
    sys.stdout.write("demo worker: only print mode (-p), models and --version are scripted\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
