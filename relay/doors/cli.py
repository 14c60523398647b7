"""``gravity-relay``: serve the MCP server, and the operator's commands.

The CLI calls the same functions as the MCP tools (``render_result`` for
``runs show``), so both doors answer with the same bytes. Logs go to stderr;
stdout is for the command's answer (and, under ``serve``, the protocol).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from relay import __version__
from relay.doors.cli_settings import quiet, refuse_bad_settings, settings_or_none
from relay.doors.cli_setup import DEFAULT_HTTP_PORT, setup_command
from relay.setup.client_names import CLIENT_NAMES

__all__ = ["main", "mcp_main", "build_parser"]


def _setup_logging() -> None:
    level = os.environ.get("GRAVITY_RELAY_LOG_LEVEL", "INFO").upper()
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        stream=sys.stderr,
        format="%(asctime)s gravity-relay %(levelname)s %(name)s: %(message)s",
    )


def _load_server():
    """``mcp_server.serve``, the MCP SDK imported with it: ~100,000 objects that live as long as the server. The
    cyclic collector is paused while they load and they are frozen after (gc.freeze), so neither the collections
    the import would trigger nor every later full one, nor the last one at exit, walks them (a third of the CPU
    of a serve that starts and stops at once). What the import left as garbage, once, stays."""
    import gc

    gc.disable()
    try:
        from relay.doors.mcp_server import serve
    finally:
        gc.freeze()
        gc.enable()
    return serve


def _cmd_serve(args: argparse.Namespace) -> int:
    import threading

    from relay.agy.command import agy_fact
    from relay.core.settings import load_settings

    if args.http is not None:
        from relay.doors.http_server import AddressError, parse_address

        try:
            address = parse_address(args.http, allow_remote=args.allow_remote)
        except AddressError as exc:
            print(f"gravity-relay serve: {exc}", file=sys.stderr)
            return 2
    settings = load_settings()
    if refuse_bad_settings(settings.problems):
        return 2
    # `agy --version` runs while Python imports the MCP SDK (the slowest part of start-up); 3 s at most.
    found: list[tuple[str | None, str | None]] = []
    probe = threading.Thread(target=lambda: found.append(agy_fact(settings)), daemon=True)
    probe.start()
    serve = _load_server()
    import anyio

    probe.join()
    agy = found[0] if found else (None, None)
    if args.http is not None:
        from relay.doors.http_server import serve_http
        from relay.doors.http_token import TokenFileError

        try:
            anyio.run(serve_http, settings, agy, *address)
        except (AddressError, TokenFileError) as exc:
            print(f"gravity-relay serve: {exc}", file=sys.stderr)
            return 2
        return 0
    try:
        anyio.run(serve, settings, agy)
    except (BrokenPipeError, BaseExceptionGroup) as exc:
        if not _only_broken_pipes(exc):
            raise
        # The client stopped reading stdout: it is gone. Calls in flight were cancelled on the way out (their
        # workers stopped, records CANCELLED); say so in one line, not the SDK writer's traceback.
        print("gravity-relay serve: the client stopped reading (broken pipe); calls in flight were stopped and "
              "recorded; exiting", file=sys.stderr)
        # Python flushes stdout once more at exit: point it somewhere that cannot break.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _only_broken_pipes(exc: BaseException) -> bool:
    if isinstance(exc, BaseExceptionGroup):
        return all(_only_broken_pipes(inner) for inner in exc.exceptions)
    return isinstance(exc, BrokenPipeError)


def _cmd_runs(args: argparse.Namespace) -> int:
    from relay.doors.cli_runs import runs_apply, runs_cancel, runs_diff, runs_list, runs_revert, runs_show
    from relay.core.settings import load_settings

    settings = load_settings()
    if args.runs_command == "show":
        return runs_show(settings, args.run_id, detail=args.detail, max_chars=args.max_chars)
    if args.runs_command == "apply":
        return runs_apply(settings, args.run_id)
    if args.runs_command == "cancel":
        return runs_cancel(settings, args.run_id)
    if args.runs_command == "diff":
        return runs_diff(settings, args.run_id, max_chars=args.max_chars)
    if args.runs_command == "revert":
        return runs_revert(settings, args.run_id, dry_run=args.dry_run, as_json=args.json)
    if args.runs_command == "wait":
        from relay.doors.cli_wait import runs_wait

        return runs_wait(settings, args.run_id, args.wait)
    return runs_list(settings, status=args.status, limit=args.limit, as_json=args.json)


def _cmd_doctor(args: argparse.Namespace) -> int:
    from relay.doors.doctor import Check, render_checks, run_doctor
    from relay.core.settings import load_settings

    quiet()
    try:
        checks = run_doctor(load_settings(), probe_timeout=args.probe_timeout, write_probe=args.write_probe)
    except ValueError as exc:  # the environment itself does not parse: that is the finding
        checks = [Check(name="settings", level="failure", message=str(exc),
                        fix="Fix that variable in the relay's environment (the MCP client's server env); the "
                        "server cannot start until then.")]
    if args.json:
        import msgspec

        counts = {level: sum(1 for c in checks if c.level == level) for level in ("ok", "warning", "failure")}
        doc = {"ok": counts["warning"] == 0 and counts["failure"] == 0, "counts": counts, "checks": checks}
        sys.stdout.write(msgspec.json.encode(doc).decode() + "\n")
    else:
        sys.stdout.write(render_checks(checks))
    if args.strict and any(c.level != "ok" for c in checks):
        return 1
    return 0


def _cmd_cleanup(args: argparse.Namespace) -> int:
    from relay.runs.retention import apply_retention, human_bytes, parse_size

    quiet()
    try:
        max_size = parse_size(args.max_size) if args.max_size is not None else None
    except ValueError as exc:
        print(f"gravity-relay cleanup: --max-size: {exc}", file=sys.stderr)
        return 2
    settings = settings_or_none()
    if settings is None:
        return 2
    if not args.dry_run:
        # Runs of dead relays (identity checked: a reused pid does not count) are finished first, so
        # cleanup can remove them instead of keeping them as "running" forever.
        from relay.call.recovery import recover_interrupted
        from relay.runs.store import RunStore

        try:
            recover_interrupted(RunStore(settings.runs_dir))
        except OSError as exc:
            print(f"gravity-relay cleanup: could not check for interrupted runs: {exc}", file=sys.stderr)
    summary = apply_retention(settings, max_runs=args.max_runs, max_age_days=args.max_age_days,
                              max_size_bytes=max_size, dry_run=args.dry_run)
    if args.json:
        import msgspec

        sys.stdout.write(msgspec.json.encode(summary).decode() + "\n")
        return 1 if summary.errors else 0
    verb = "would remove" if args.dry_run else "removed"
    for run in summary.removed:
        print(f"{verb} {run.run_id}  {run.reason}  ({len(run.files)} file(s), {human_bytes(run.bytes)})")
        for path in run.files:
            print(f"    {path}")
    for item in summary.worktrees:
        print(f"{verb} {item}")
    for error in summary.errors:
        print(f"could not remove {error}", file=sys.stderr)
    limits = ", ".join(part for part in (
        f"max {summary.max_runs} runs" if summary.max_runs else "",
        f"max age {summary.max_age_days:g} days" if summary.max_age_days else "",
        f"max size {human_bytes(summary.max_size_bytes)}" if summary.max_size_bytes else "",
    ) if part) or "no limits"
    freed = "would free" if args.dry_run else "freed"
    print(f"{freed} {human_bytes(summary.freed_bytes)} ({len(summary.removed)} run(s)); kept {summary.kept_runs} "
          f"run(s), {human_bytes(summary.kept_bytes)} in {summary.runs_dir} ({limits})")
    if summary.running:
        print(f"left alone, still running: {', '.join(summary.running)}")
    for item in summary.left:
        print(f"left alone: {item}")
    return 1 if summary.errors else 0


def _cmd_delegate(args: argparse.Namespace) -> int:
    """`execute` / `continue` from a shell: the MCP tool's own code path, its text block on stdout."""
    import json

    import anyio

    from relay.call.orchestrate import Relay
    from relay.doors.tools import CONTINUE, EXECUTE, call_tool

    settings = settings_or_none()
    if settings is None:
        return 2
    if args.command == "execute":
        name = EXECUTE
        arguments = {"task": args.task, "profile": args.profile, "workspace": args.workspace,
                     "execution_mode": args.execution_mode, "idempotency_key": args.idempotency_key}
    else:
        name = CONTINUE
        arguments = {"run_id": args.run_id, "feedback": args.feedback}
    arguments = {k: v for k, v in arguments.items() if v is not None}
    for item in args.arg or []:
        key, sep, value = item.partition("=")
        if not sep:
            print(f"gravity-relay: --arg wants KEY=VALUE (JSON values allowed), got {item!r}", file=sys.stderr)
            return 2
        try:
            arguments[key] = json.loads(value)
        except ValueError:
            arguments[key] = value
    if args.wait is not None:
        # The run may outlive this command: a child relay keeps it going after a RUNNING answer.
        from relay.doors.cli_wait import delegate_detachable

        return delegate_detachable(name, {**arguments, "wait_seconds": args.wait})

    async def progress(elapsed: float, message: str) -> None:
        print(f"[{elapsed:6.1f}s] {message}", file=sys.stderr, flush=True)

    # The shell cannot show a person a form: a "human" profile's trusted call is refused by the gate itself.
    result = anyio.run(call_tool, Relay(settings), name, arguments, progress)
    sys.stdout.write(result.text + "\n")
    return 1 if result.is_error else 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from relay.demo.run import demo_main

    quiet()
    settings = settings_or_none()
    return 2 if settings is None else demo_main(settings, as_json=args.json)


def _number(flag: str, example: str, *, whole: bool = False, above: float | None = None, least: float | None = None):
    """An argparse type for a count or a length of time: refused, naming the flag, the range and an example, when it
    is not a finite number in range (a negative limit or probe time used to pass as if it meant something)."""
    import math

    wanted = ("a whole number" if whole else "a number") + (f" above {above:g}" if above is not None else
                                                           f" of {least:g} or more" if least is not None else "")

    def convert(text: str):
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or (above is not None and value <= above) or \
                (least is not None and value < least):
            raise argparse.ArgumentTypeError(f"{flag}: {text!r} is not {wanted}; e.g. {flag} {example}")
        return value

    return convert


_WAIT_HELP = ("answer RUNNING (run_id, stage) after this long and exit; a background relay keeps the run going "
              "(`gravity-relay runs wait RUN_ID` gets its packet)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gravity-relay",
        description="Delegate implementation work to the Antigravity CLI (agy) and get back a compact review packet.",
    )
    parser.add_argument("--version", action="version", version=f"gravity-relay {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    serve = sub.add_parser("serve", help="run the MCP server over stdio (what MCP clients start), or over HTTP")
    serve.add_argument("--http", metavar="[HOST:]PORT", nargs="?", const=DEFAULT_HTTP_PORT, default=None,
                       help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio, one relay for every "
                       "leader on the machine (default 127.0.0.1:8765; port 0 picks a free one); every request "
                       "needs the bearer token in the data dir's http-token file")
    serve.add_argument("--allow-remote", action="store_true",
                       help="with --http: allow a non-loopback host (other machines can then reach the relay; name a "
                       "specific address: the Host header must be that address or a loopback name)")
    serve.set_defaults(func=_cmd_serve)

    execute = sub.add_parser("execute", help="delegate one task from the shell (the same code and answer as the MCP tool)")
    execute.add_argument("task", help="what the worker must do")
    execute.add_argument("--workspace", help="absolute path of the workspace (default: the profile's)")
    execute.add_argument("--profile", help="server-side profile name (default: GRAVITY_RELAY_DEFAULT_PROFILE)")
    execute.add_argument("--execution-mode", choices=["safe", "trusted"])
    execute.add_argument("--arg", action="append", metavar="KEY=VALUE",
                         help="any other tool argument, e.g. --arg timeout_minutes=10 (repeatable)")
    execute.add_argument("--wait", type=float, metavar="SECONDS", help=_WAIT_HELP)
    execute.add_argument("--idempotency-key", metavar="KEY",
                         help="repeat it on a retry: the same run's answer (within 24 h), never a second run")
    execute.set_defaults(func=_cmd_delegate)
    cont = sub.add_parser("continue", help="send follow-up feedback on a run (the same code and answer as the MCP tool)")
    cont.add_argument("run_id")
    cont.add_argument("feedback")
    cont.add_argument("--arg", action="append", metavar="KEY=VALUE", help="any other tool argument (repeatable)")
    cont.add_argument("--wait", type=float, metavar="SECONDS", help=_WAIT_HELP)
    cont.set_defaults(func=_cmd_delegate)

    runs = sub.add_parser("runs", help="list runs, show one run's record or patch, revert, apply or cancel a run")
    runs_sub = runs.add_subparsers(dest="runs_command", metavar="list|show|diff|revert|apply|wait|cancel")
    lst = runs_sub.add_parser("list", help="recent runs, newest first")
    lst.add_argument("--status", help="only runs with this status (e.g. SUCCESS, LOGIN_REQUIRED)")
    lst.add_argument("--limit", type=_number("--limit", "20", whole=True, least=1), default=20, help="at most this many (default 20)")
    lst.add_argument("--json", action="store_true", help="one JSON object per line")
    show = runs_sub.add_parser("show", help="one run, exactly as antigravity_get_result answers")
    show.add_argument("run_id", nargs="?", help="omit it to list the recent runs, as the tool does")
    show.add_argument("--detail", choices=["summary", "errors", "full", "diff"], default="summary")
    show.add_argument("--max-chars", type=int, default=None,
                      help="cut the answer to this many characters (default 12,000; --detail diff: 2,500)")
    diff = runs_sub.add_parser("diff", help="the review read: a run's review targets at the lines the packet names, "
                               "riskiest first, exactly as antigravity_get_result with detail=\"diff\" answers (the "
                               "whole patch: <data dir>/runs/RUN_ID.patch)")
    diff.add_argument("run_id")
    diff.add_argument("--max-chars", type=int, default=None,
                      help="cut it to this many characters (default 2,500; a larger one shows more of the change)")
    revert = runs_sub.add_parser("revert", help="undo a run: reverse-apply its patch to its workspace, all or nothing "
                                 "(refused, naming the files, when they changed since)")
    revert.add_argument("run_id")
    revert.add_argument("--dry-run", action="store_true", help="say what it would do and check that it applies; change nothing")
    revert.add_argument("--json", action="store_true", help="the result (or the refusal) as one JSON object")
    wait = runs_sub.add_parser("wait", help="wait for a run's packet, exactly as antigravity_get_result with "
                               "wait_seconds answers (RUNNING when the wait ends first)")
    wait.add_argument("run_id")
    wait.add_argument("--wait", type=float, metavar="SECONDS", help="give up after this long (default: to the end)")
    apply = runs_sub.add_parser("apply", help="bring a worktree run's change into its workspace (three-way, all or "
                                "nothing; exactly as antigravity_continue with apply=true answers)")
    apply.add_argument("run_id")
    cancel = runs_sub.add_parser("cancel", help="stop a RUNNING run (one `execute --wait` left going, or any "
                                 "relay's): its CANCELLED packet, exactly as antigravity_cancel answers")
    cancel.add_argument("run_id")
    runs.set_defaults(func=_cmd_runs, runs_command="list", status=None, limit=20, json=False)

    demo = sub.add_parser(
        "demo", help="run one task through the whole relay with a scripted worker (no agy needed)",
        description="Create a throwaway git repository, let a scripted stand-in for agy edit it through the real "
        "relay, and print the review packet. Leaves only the run record (in the data dir).")
    demo.add_argument("--json", action="store_true", help="print only the packet (compact JSON)")
    demo.set_defaults(func=_cmd_demo)

    doctor = sub.add_parser(
        "doctor", help="check Python, agy (version, features, login), the data dir, profiles and MCP clients",
        description="Each line: ok / warning / failure, and what to do. Exits 0 once the checks ran, whatever they "
        "found (use --strict to fail on anything not ok).")
    doctor.add_argument("--json", action="store_true", help="one JSON object: ok, counts, checks")
    doctor.add_argument("--strict", action="store_true", help="exit 1 when any check is not ok")
    doctor.add_argument("--probe-timeout", type=_number("--probe-timeout", "60", above=0), default=None, metavar="SECONDS",
                        help="how long `agy models` may take (default: the relay's auth probe timeout)")
    doctor.add_argument("--write-probe", action="store_true",
                        help="also run one tiny safe-mode write task in a temp dir (spends one agy turn) and report "
                             "whether safe mode can write files with this agy")
    doctor.set_defaults(func=_cmd_doctor)

    setup = sub.add_parser(
        "setup", help="register the relay with the MCP clients found here (Codex, Claude Code, Cursor, ...)",
        description="Register `gravity-relay serve` with each MCP client whose config dir exists, in its own file "
        "and format, keeping everything else in those files. Idempotent; backs up each file it changes. "
        "Antigravity is registered only when named (--client antigravity): agy's own runs load that file.")
    setup.add_argument("--client", action="append", metavar="NAME", choices=CLIENT_NAMES,
                       help=f"only this client (repeatable): {', '.join(CLIENT_NAMES)}")
    setup.add_argument("--dry-run", action="store_true", help="print the diff of each file instead of writing")
    setup.add_argument("--uninstall", action="store_true", help="remove the relay's entry (only the relay's)")
    setup.add_argument("--env", action="append", metavar="KEY=VALUE",
                       help="environment for the server entry, e.g. GRAVITY_RELAY_DEFAULT_PROFILE=web (repeatable)")
    setup.add_argument("--command", metavar="COMMAND",
                       help="the command to register: a path (run with `serve`) or a whole command line such as "
                       "\"uvx gravity-relay-mcp\" (default: this installation's gravity-relay script, or `uvx "
                       "gravity-relay-mcp` when run from uvx's cache)")
    setup.add_argument("--force", action="store_true",
                       help="replace or remove an 'antigravity' entry that is not Gravity Relay")
    setup.add_argument("--client-approvals", action="store_true",
                       help="leave tool approval to each client: no Codex pre-approval, no Claude Code allow rules, "
                       "no Gemini trust (headless calls then need the client's own flags)")
    setup.add_argument("--http", nargs="?", const="", default=None, metavar="URL",
                       help="register the clients by URL with a `serve --http` relay (default: the running one's "
                       "URL, else http://127.0.0.1:8765/mcp; a bare PORT works too) and its bearer token "
                       "(Codex, Claude Code, Gemini CLI, Cursor); --dry-run shows the token masked")
    setup.add_argument("--json", action="store_true", help="one JSON object describing each client")
    setup.set_defaults(func=setup_command)

    cleanup = sub.add_parser(
        "cleanup", help="remove old run records by count, age and total size",
        description="Apply retention to the runs folder (the server also does this at start-up with the "
        "GRAVITY_RELAY_MAX_RUNS / _MAX_AGE_DAYS / _MAX_SIZE limits). Runs still running are never removed. "
        "A limit of 0 turns that rule off.")
    cleanup.add_argument("--max-runs", type=_number("--max-runs", "500", whole=True, least=0), default=None, metavar="N",
                         help="keep at most the N newest runs (default: GRAVITY_RELAY_MAX_RUNS or 500)")
    cleanup.add_argument("--max-age-days", type=_number("--max-age-days", "30", least=0), default=None, metavar="DAYS",
                         help="remove runs older than this (default: GRAVITY_RELAY_MAX_AGE_DAYS or 30)")
    cleanup.add_argument("--max-size", default=None, metavar="SIZE",
                         help="keep the total under this, e.g. 500MB or 2GB; a bare number is MB (default: GRAVITY_RELAY_MAX_SIZE or 500MB)")
    cleanup.add_argument("--dry-run", action="store_true", help="say what would be removed; remove nothing")
    cleanup.add_argument("--json", action="store_true", help="the summary as one JSON object")
    cleanup.set_defaults(func=_cmd_cleanup)
    return parser


def _utf8_output(serving: bool) -> None:
    """What the commands print, in UTF-8 whatever the console's code page. A Windows pipe is cp1252 by default:
    a Chinese summary, `→` or a non-Latin file name raised UnicodeEncodeError after the run had finished, and
    `execute` exited 1 with nothing printed. `serve` keeps its stdout: the SDK writes the protocol there in UTF-8."""
    for stream in (sys.stderr,) if serving else (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure") and (stream.encoding or "").lower().replace("-", "") != "utf8":
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    _utf8_output(serving=args.command == "serve")
    _setup_logging()
    return args.func(args)


def mcp_main(argv: list[str] | None = None) -> int:
    """``gravity-relay-mcp``: the package's own name as a command (what ``uvx gravity-relay-mcp`` runs).

    Without arguments it serves over stdio, as an MCP client starts it; with arguments it is
    ``gravity-relay`` (``uvx gravity-relay-mcp setup`` works too)."""
    args = sys.argv[1:] if argv is None else argv
    return main(args or ["serve"])
