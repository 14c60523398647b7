"""A changed line read in any language by its tokens (relay.review.any_language, issue 36 round 30): each class on synthetic
cases in three or more languages, at least one of them a language no planted set holds (Nim, Zig, F#, Erlang, Elixir, R,
Julia, Perl, PowerShell, Tcl, Fortran), none of them a planted set's line; quiet look-alikes (the safe direction, a
rename, a comment, a call that checks nothing); and the file never low once such a line is there (data files included)."""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.any_language import any_turn_high, any_turn_look
from relay.review.any_screen import screen
from relay.review.facts import RiskContext
from relay.review.file_kinds import rule_lines
from relay.review.risk import assess


def _fc(path: str, removed: list[str], added: list[str]) -> FileChange:
    return FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


_FILLER = [f"  step_{i} = fold(step_{i - 1}, {i})" for i in range(1, 40)]  # an ordinary change around the turn

# (path, removed, added, what the high reason must hold)
HIGH = [
    # a verification setting turned off
    ("conf/nginx.conf", [], ["    proxy_ssl_verify off;"], "verification setting off"),
    ("config/client.yml", ["  verify_peer: true"], ["  verify_peer: false"], "verification setting off"),
    ("src/net.nim", ["  ctx.verifyMode = true"], ["  ctx.verifyMode = false"], "verification setting off"),
    ("Deploy.ps1", ["$StrictHostCheck = $true"], ["$StrictHostCheck = $false"], ""),  # PowerShell's $false: not a bare value
    # a protocol floor lowered, however spelled
    ("src/tls.zig", ["    .min_version = .tls_1_2,"], ["    .min_version = .tls_1_0,"], "TLS 1.2 → TLS 1.0"),
    ("lib/conn.ex", ["    versions: [:\"tlsv1.2\", :\"tlsv1.3\"],"], ["    versions: [:tlsv1, :\"tlsv1.3\"],"], "TLS 1.2 → TLS 1.0"),
    ("src/Server.fs", ["    opts.EnabledSslProtocols <- SslProtocols.Tls12"], ["    opts.EnabledSslProtocols <- SslProtocols.Tls11"], "TLS 1.2 → TLS 1.1"),
    ("etc/site.conf", ['ssl_min_protocol "1.2"'], ['ssl_min_protocol "1.0"'], "TLS 1.2 → TLS 1.0"),
    # a program run through a shell string where an argv stood
    ("lib/Run.hs", ["  out <- readProcess exe flags \"\""], ["  out <- readCreateProcess (shell (unwords (exe : flags))) \"\""], "shell string"),
    ("scripts/fetch.pl", ["    my @out = run_command($bin, @opts);"], ["    my @out = run_command(\"sh -c '\" . join(' ', $bin, @opts) . \"'\");"], "shell string"),
    ("R/render.R", ["  processx::run(cmd, args)"], ["  system(paste(cmd, paste(args, collapse = \" \")))"], ""),  # paste: no join word read
    ("src/exec.jl", ["    out = read(Cmd([cmd; args]), String)"], ["    out = read(`sh -c $(join([cmd; args], \" \"))`, String)"], "shell string"),
    # a check's result discarded where it was used
    ("src/session.ml", ["  let* () = verify_signature key msg sig in"], ["  let _ = verify_signature key msg sig in"], "discards the result"),
    ("src/auth.erl", ["    ok = check_token(Token),"], ["    _ = check_token(Token),"], "discards the result"),
    ("src/open.c", ["    return crypto_box_open(m, c, n, pk, sk);"], ["    (void) crypto_box_open(m, c, n, pk, sk);", "    return 0;"], "discards the result"),
    ("src/Login.fs", ["    let! ok = validateCredentials user pw"], ["    validateCredentials user pw |> ignore"], ""),  # a pipe to ignore: not read
    # a secure transport turned to its plain sibling
    ("src/conn.erl", ["    {ok, C} = gun:open(Host, Port, #{transport => tls}),"], ["    {ok, C} = gun:open(Host, Port, #{transport => tcp}),"], "tls → tcp"),
    ("src/feed.nim", ['  let ws = await newWebSocket("wss://" & host & "/feed")'], ['  let ws = await newWebSocket("ws://" & host & "/feed")'], "wss → ws"),
    ("lib/cache.ex", ['    {:ok, conn} = Redix.start_link("rediss://cache.internal:6380")'], ['    {:ok, conn} = Redix.start_link("redis://cache.internal:6380")'], "rediss → redis"),
    ("src/fetch.lua", ['  local ok, client = pcall(require, "net.https")'], ['  local ok, client = pcall(require, "net.http")'], "https → http"),
    # a raw path where the normalised one stood
    ("src/static.cr", ["    full = File.join(root, normalized_path)", "    normalized_path = Path.posix(raw_path).normalize"],
     ["    full = File.join(root, raw_path)", "    normalized_path = Path.posix(raw_path).normalize"], "raw value"),
    ("lib/serve.tcl", ["    set f [file join $root $clean_path]"], ["    set f [file join $root $req_path]", "    set clean_path [file normalize $req_path]"], "raw value"),
    ("src/files.nim", ["  let target = joinPath(root, safePath)", "  let safePath = normalizedPath(reqPath)"],
     ["  let target = joinPath(root, reqPath)", "  let safePath = normalizedPath(reqPath)"], "raw value"),
]

HIGH_QUIET = [
    # the safe direction
    ("conf/nginx.conf", ["    proxy_ssl_verify off;"], ["    proxy_ssl_verify on;"]),
    # strictness that is no verification: a linter's, a parser's, a zip's
    (".php-cs-fixer.php", [], ["    'declare_strict_types' => false,"]),
    ("lib/cli/args.js", ["    strict: true,"], ["    strict: false,"]),
    ("src/attr/make.py", [], ["    for a, b in zip(names, values, strict=False):"]),
    # a JavaScript template literal is no shell
    ("index.js", ["  spawnSync('git', ['config', 'core.hooksPath', dir()])"], ["  spawnSync('git', ['config', 'core.hooksPath', `${d}/_`])"]),
    # a path's variable renamed to another normalised or unrelated one
    ("src/static.cr", ["    redirect_to ctx, expanded_path", "    expanded_path = expand(p)"], ["    redirect_to ctx, redirect_path", "    expanded_path = expand(p)"]),
    ("src/tls.zig", ["    .min_version = .tls_1_0,"], ["    .min_version = .tls_1_2,"]),
    ("lib/conn.ex", [], ["    versions: [:\"tlsv1.2\", :\"tlsv1.3\"],"]),
    ("src/session.ml", ["  let _ = verify_signature key msg sig in"], ["  let* () = verify_signature key msg sig in"]),
    ("lib/Run.hs", ["  out <- readCreateProcess (shell (unwords (exe : flags))) \"\""], ["  out <- readProcess exe flags \"\""]),
    ("src/conn.erl", ["    {ok, C} = gun:open(Host, Port, #{transport => tcp}),"], ["    {ok, C} = gun:open(Host, Port, #{transport => tls}),"]),
    ("src/dev.nim", ['  let base = "https://localhost:8443"'], ['  let base = "http://localhost:8080"']),  # loopback
    ("src/names.jl", ["    client = https_client(cfg)"], ["    client = http_client(cfg)"]),  # a name, not the transport
    # a ceiling lowered is not a floor; a state, not a setting
    ("src/tls.zig", ["    .max_version = .tls_1_3,"], ["    .max_version = .tls_1_2,"]),
    ("src/form.nim", [], ["  var validated = false"]),
    # a call that checks nothing, its result discarded
    ("src/log.ml", ["  let () = Printf.printf \"%s\\n\" msg in"], ["  let _ = Printf.printf \"%s\\n\" msg in"]),
    ("src/mem.c", [], ["    (void) sodium_memzero(buf, sizeof buf);", "    return 0;"]),
    # a rename: the normalised name gone everywhere
    ("src/static.cr", ["    full = File.join(root, expanded)", "    expanded = expand(root)"], ["    full = File.join(root, resolved_dir)", "    resolved_dir = expand(root)"]),
    # comments
    ("conf/nginx.conf", [], ["#    proxy_ssl_verify off;"]),
    ("src/session.ml", [], ["  (* let _ = verify_signature key msg sig in *)"]),
    ("autoload/x.vim", [], ['" set verify off for the demo']),
]


@pytest.mark.parametrize(("path", "removed", "added", "said"), HIGH)
def test_high_turns_are_named(path: str, removed: list[str], added: list[str], said: str) -> None:
    found = any_turn_high(path, [*_FILLER, *added], [*_FILLER[:20], *removed])
    if not said:
        assert found is None, found
        return
    assert found is not None and said in found, found


@pytest.mark.parametrize(("path", "removed", "added"), HIGH_QUIET)
def test_high_look_alikes_stay_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert any_turn_high(path, added, removed) is None


LOOK = [
    # an option that loosens turned on
    ("plugin/local.vim", [], ["set exrc"], "turns exrc on"),
    ("ftplugin/notes.vim", ["  setlocal nomodeline"], ["  setlocal modeline"], "modeline on (it was off)"),
    ("src/server.nim", ['  settings = {"listing": false, "gzip": true}'], ['  settings = {"listing": true, "gzip": true}'], "listing on"),
    ("lib/app.ex", ["    debug_errors: Mix.env() == :dev,"], ["    debug_errors: true,"], "debug_errors on"),
    ("src/page.jl", ['    verbose_errors = ENV["MODE"] == "prod" ? false : true'], ["    verbose_errors = true"], "verbose_errors on"),
    # a loop or length bound shrunk by one
    ("src/mac.zig", ["    while (i < tag.len) : (i += 1) {"], ["    while (i + 1 < tag.len) : (i += 1) {"], "shrunk by one"),
    ("src/cmp.f90", ["  do while (i < n)"], ["  do while (i < n - 1)"], "shrunk by one"),
    ("lib/eq.pl", ["    for (my $i = 0; $i <= $#a; $i++) {"], ["    for (my $i = 0; $i < $#a; $i++) {"], "shrunk by one"),
    # a character dropped from an escape set, a validation class widened
    ("lib/Quote.pm", ["    $s =~ s/([;&|<>])/\\\\$1/g;  # escape"], ["    $s =~ s/([;&<>])/\\\\$1/g;  # escape"], "drops |"),
    ("src/esc.nim", ["  result = s.replace(re\"[<>&']\", escapeEntity)"], ["  result = s.replace(re\"[<>']\", escapeEntity)"], "drops &"),
    ("src/safe.tcl", ['    if {[regexp {^[A-Za-z0-9_.-]+$} $arg]} {'], ['    if {[regexp {^[^;]+$} $arg]} {'], ""),  # Tcl braces: not a string
    ("lib/args.ps1", ["    if ($arg -match '^[A-Za-z0-9_-]+$') {"], ["    if ($arg -match '^[^ ]+$') {"], "class widened"),
    ("src/id.erl", ["    case re:run(Id, \"^[a-z0-9]+$\") of"], ["    case re:run(Id, \"^[^/]+$\") of"], "class widened"),
    # an error branch turned into a default, a granting arm widened
    ("src/Parse.fs", ["    | s -> failwithf \"bad flag %s\" s"], ["    | _ -> false"], "error into a default"),
    ("lib/conf.ex", ["      other -> raise ArgumentError, \"bad mode #{other}\""], ["      _ -> :ok"], ""),  # an atom is no default read
    ("src/Opts.scala", ["      case v => throw new IllegalStateException(v)"], ["      case _ => None"], "error into a default"),
    ("src/auth.ml", ["  | Some \"anon\" when allow_anon -> Ok anonymous_user"], ["  | _ when allow_anon -> Ok anonymous_user"], "every value"),
    ("src/auth.fs", ["    | Some \"guest\" -> grantGuest ()"], ["    | _ -> grantGuest ()"], "every value"),
    # a unit conversion added to a time compared for expiry
    ("src/token.nim", ["  if claims.exp < now:"], ["  if claims.exp < now div 1000:"], "unit conversion"),
    ("lib/jwt.ex", ["    expired = claims.exp < now"], ["    expired = claims.exp < System.convert_time_unit(now, :millisecond, :second)"], ""),
    ("src/sess.jl", ["    expires = t.exp"], ["    expires = from_seconds(t.exp)"], "unit conversion"),
]

LOOK_QUIET = [
    ("plugin/local.vim", [], ["set noexrc"]),
    ("ftplugin/notes.vim", ["  setlocal modeline"], ["  setlocal nomodeline"]),
    ("src/server.nim", ['  settings = {"listing": true}'], ['  settings = {"listing": false}']),
    ("src/mac.zig", ["    while (i + 1 < tag.len) : (i += 1) {"], ["    while (i < tag.len) : (i += 1) {"]),
    ("lib/Quote.pm", ["    $s =~ s/([;&<>])/\\\\$1/g;  # escape"], ["    $s =~ s/([;&|<>])/\\\\$1/g;  # escape"]),
    ("lib/args.ps1", ["    if ($arg -match '^[^ ]+$') {"], ["    if ($arg -match '^[A-Za-z0-9_-]+$') {"]),
    ("src/types.py", ["    names: Sequence[str] | None = None"], ["    names: list[str] | None = None"]),  # a type, not a class
    ("install.lua", ['  if not v:match("^5%.[1234]$") then'], ['  if not v:match("^5%.[12345]$") then']),  # a digit allowed: no metacharacter
    ("src/toc.js", ["  while (stack.length >= 1 && top(stack) > level) {"], ["  while (stack.length > 1 && top(stack) > level) {"]),  # a lower bound
    ("lib/engine.ml", ["  | `Foo -> None"], ["  | _ -> None"]),  # an arm widened to a refusal
    ("src/Opts.scala", ["      case _ => None"], ["      case v => throw new IllegalStateException(v)"]),
    ("src/token.nim", ["  if claims.exp < now div 1000:"], ["  if claims.exp < now:"]),  # dropped: reported, see below
    ("autoload/x.vim", [], ['" setlocal modeline is off here']),
]


@pytest.mark.parametrize(("path", "removed", "added", "said"), LOOK)
def test_look_turns_are_named(path: str, removed: list[str], added: list[str], said: str) -> None:
    found = any_turn_look(path, [*_FILLER, *added], [*_FILLER[:20], *removed])
    if not said:
        assert found is None, found
        return
    assert found is not None and said in found, found


@pytest.mark.parametrize(("path", "removed", "added"), LOOK_QUIET[:-2])
def test_look_alikes_stay_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert any_turn_look(path, added, removed) is None


def test_a_conversion_dropped_is_said_too() -> None:
    # Either way a time's unit turns is worth a look: the reviewer judges which unit the other side is in.
    found = any_turn_look("src/token.nim", ["  if claims.exp < now:"], ["  if claims.exp < now div 1000:"])
    assert found is not None and found.startswith("drops a unit conversion"), found


def test_comment_in_a_vim_script_is_not_read() -> None:
    assert any_turn_look("autoload/x.vim", ['" setlocal modeline is off here'], []) is None
    assert any_turn_look("autoload/x.vim", [], ['" setlocal modeline']) is None


def test_a_data_file_keeps_the_setting_line_and_is_never_low() -> None:
    # A Vim plugin and an Apache .conf are data to the kinds: the screen keeps the setting for the rules.
    assert screen("set exrc") and screen("SSLProxyVerifyPeer Off") and not screen("let g:loaded_local = 1")
    kept = rule_lines(_fc("plugin/local.vim", [], ["let g:loaded_local = 1", "set exrc"]))
    assert "set exrc" in kept.added_lines
    change = assess(_fc("plugin/local.vim", [], ["let g:loaded_local = 1", "set exrc"]), RiskContext())
    assert change.risk == "medium" and change.reasons[0].startswith("turns exrc on"), change.reasons
    change = assess(_fc("conf/site.conf", ["#SSLProxyVerifyPeer On|Off"], ["#SSLProxyVerifyPeer On|Off", "SSLProxyVerifyPeer Off"]), RiskContext())
    # said once: by the TLS row where it reads the directive (round 30 part A), else by any_turn's setting reader
    assert change.risk == "high" and "verification" in change.reasons[0] and "off" in change.reasons[0], change.reasons


def test_tests_and_docs_are_left_to_their_own_rows() -> None:
    for path in ("tests/test_conn.nim", "docs/setup.md", "spec/conf_spec.cr"):
        change = assess(_fc(path, ["  verify_peer: true"], ["  verify_peer: false"]), RiskContext())
        assert "any_turn" not in change.rules and "any_turn_look" not in change.rules, (path, change.rules)
