"""Issue 36, round 15 (part B): an edit that lets through what the code used to stop is named first, whatever else the
file's change carries, in every ecosystem where the kind of line exists.

The party guarded against is the worker that slips one such edit into an ordinary change: a ``return`` dropped before a
rejection (the handler sends the error and goes on), the call that verifies a signature cut out of a line, text expanded
as PowerShell code, a program installed setuid, a listener widened from the loopback to every interface under a
language's named address, a TLS challenge answered with the server's own trust written the other way round, a template
compiled without its escaping engine, Ruby's ``fail`` softened to a return, a redirect target read through a params
accessor. Each named case fails on main before this round (0c4133d): it was high for words only, or low, and the reason
did not name it (the cases marked as another reader's pass there too). The near misses stay quiet: the return kept (or
put on the next line), a signed read kept, a verify renamed to another verify, a literal expanded, ``eval "$(tool
init)"``, a 0755 mode, a setgid directory, a loopback kept, a text engine dropped, a page cursor read from the query.

An edited pair apart from the change that ``edit_apart`` judged worth a look ranks above files high only for their path
(Go, Python; both fail on main); a statement only removed apart does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.review.file_kinds import read_changes
from relay.review.lets_through import lets_through
from relay.review.risk import RiskContext, assess
from test_apart_edits import _MORE, _WORK, _review

__all__: list[str] = []  # a test module exports nothing


def _around(path: str, line: str) -> str:
    if path.endswith((".toml", ".spec", ".yml", ".yaml")):
        return "".join(f"key{i} = \"v{i}\"\n" for i in range(5)) + line + "\n" + "".join(f"tail{i} = {i}\n" for i in range(5))
    mark = "#" if path.endswith((".py", ".rb", ".sh", ".ps1")) else "//"
    return "".join(f"{mark} line {i}\n" for i in range(5)) + line + "\n" + "".join(f"{mark} tail {i}\n" for i in range(5))


# (ecosystem, path, the line before, the line after, what the reason says first)
_NAMED = [
    ("js-fastify", "index.js", "      return reply.send(new InvalidCSRFTokenError())", "      reply.send(new InvalidCSRFTokenError())",
     "goes on after a rejection (return dropped): reply.send(new InvalidCSRFTokenError())"),
    ("js-express", "src/auth.js", "    return res.status(403).json({ error: 'forbidden' });", "    res.status(403).json({ error: 'forbidden' });",
     "goes on after a rejection (return dropped): res.status(403)"),
    ("js-next", "lib/middleware.js", "  if (err) return next(err)", "  if (err) next(err)", None),  # same line: read by the guard readers
    ("go", "internal/api/auth.go", "\t\treturn c.AbortWithError(http.StatusUnauthorized, err)", "\t\tc.AbortWithError(http.StatusUnauthorized, err)",
     "goes on after a rejection (return dropped): c.AbortWithError(http.StatusUnauthorized, err)"),
    ("py", "app/views.py", "        raise PermissionDenied(\"not an admin\")", "        PermissionDenied(\"not an admin\")",
     "no longer refuses"),  # read already as a refusal dropped (round 13)
    ("rust-cookie", "src/service.rs", "        cookies.signed(&self.key).get(name).map(Cookie::into_owned)", "        cookies.get(name).map(Cookie::into_owned)",
     "reads it without verifying its signature (drops signed()): cookies.get(name).map(Cookie::into_owned)"),
    ("ruby-cookie", "app/controllers/session_controller.rb", "    user_id = cookies.encrypted[:user_id]", "    user_id = cookies[:user_id]", None),
    ("js-jwt", "src/session.js", "  const claims = jwt.verify(token, secret);", "  const claims = jwt.decode(token, secret);",
     "deletes a check: const claims = jwt.verify"),  # read already as a check deleted
    ("py-wrap", "app/webhook.py", "    payload = verify_signature(request.body, secret)", "    payload = request.body, secret", None),
    ("ps1-expand", "completions/pwsh/_tool.ps1", "        $c.Where{ $_.Text -like \"$word*\" } |",
     "        $c.Where{ $_.Text -like \"$($ExecutionContext.InvokeCommand.ExpandString($word))*\" } |",
     "expands or runs text as PowerShell code: "),
    ("ps1-iex", "build.ps1", "    & $command @args", "    Invoke-Expression \"$command $args\"", "expands or runs text as PowerShell code: Invoke-Expression"),
    ("sh-eval", "bin/run.sh", "  \"$cmd\" \"$@\"", "  eval \"$cmd\" \"$@\"", "runs text as code (eval of interpolated text)"),  # dangerous_call's
    ("cargo-deb", "crates/cli/Cargo.toml", "\t[\"../../target/release/tool\", \"usr/bin/tool\", \"755\"],",
     "\t[\"../../target/release/tool\", \"usr/bin/tool\", \"4755\"],", "installs a program setuid (it runs as its owner, root): "),
    ("rpm", "packaging/tool.spec", "%attr(0755, root, root) %{_bindir}/tool", "%attr(4755, root, root) %{_bindir}/tool",
     "installs a program setuid (it runs as its owner, root): %attr(4755"),
    ("makefile-install", "scripts/install.sh", "  install -m 0755 build/tool /usr/local/bin/tool", "  install -m 4755 build/tool /usr/local/bin/tool",
     "installs a program setuid (it runs as its owner, root): install -m 4755"),
    ("chmod", "scripts/postinst.sh", "chmod 0755 /usr/bin/tool", "chmod u+s /usr/bin/tool", "installs a program setuid (it runs as its owner, root): chmod u+s"),
    ("makefile-var", "Makefile", "\t$(INSTALL) -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin", "\t$(INSTALL) -m 4755 $(BIN) $(DESTDIR)$(PREFIX)/bin",
     "installs a program setuid (it runs as its owner, root): $(INSTALL) -m 4755"),  # make's install variable, upper case
    ("rust-bind", "crates/cli/src/socket/parser.rs", "\t\tOk(port) => SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port.get()),",
     "\t\tOk(port) => SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port.get()),", "listens on every interface (was the loopback)"),
    ("cs-bind", "src/Server/Listener.cs", "        var listener = new TcpListener(IPAddress.Loopback, port);",
     "        var listener = new TcpListener(IPAddress.Any, port);", "listens on every interface (was the loopback)"),
    ("elixir-eex", "lib/app/mailer/template.ex", "    quoted_html = EEx.compile_string(html, engine: Phoenix.HTML.Engine, line: 1, trim: true)",
     "    quoted_html = EEx.compile_string(html, line: 1, trim: true)", "drops the HTML-escaping engine (output unescaped)"),
    ("ruby-erubi", "lib/app/render.rb", "    src = Erubi::Engine.new(template, escape: true, freeze: true).src",
     "    src = Erubi::Engine.new(template, freeze: true).src", "drops the HTML-escaping engine (output unescaped)"),
    # round 14's two regressions, as classes: Ruby's fail is its raise; a redirect target read through a params accessor
    ("ruby-fail", "lib/app/plugins/endpoint.rb", "        fail InvalidSignature, \"missing \\\"signature\\\" param\"", "        return",
     "no longer refuses (an error no longer raised): return"),
    ("ruby-redirect", "lib/app/web/action.rb", "        location = request.referer.gsub(request.base_url, \"\")",
     "        location = url_params(\"return_to\") || request.referer.gsub(request.base_url, \"\")", "redirects to a URL the request supplies"),
    ("java-redirect", "src/main/java/app/Login.java", "        String target = \"/home\";", "        String target = request.getParameter(\"returnUrl\");",
     "redirects to a URL the request supplies"),
    ("swift-trust", "Sources/Kit/Loading/DataLoader.swift", "        completionHandler(.performDefaultHandling, nil)",
     "        completionHandler(.useCredential, challenge.protectionSpace.serverTrust.map { URLCredential(trust: $0) })",
     "turns TLS verification off (any server's trust accepted)"),
]


@pytest.mark.parametrize(("eco", "path", "removed", "added", "said"), _NAMED, ids=[n[0] for n in _NAMED])
def test_an_edit_that_lets_through_is_named_first_and_high(tmp_path: Path, eco: str, path: str, removed: str, added: str, said: str | None) -> None:
    packet, _ = _review(tmp_path, {path: _around(path, removed)}, {path: _around(path, added)})
    target = next(t for t in packet.changes.review if t.file == path)
    assert target.risk == "high", target.reason
    if said is not None:
        assert target.reason.startswith(said), target.reason
    assert packet.changes.risk != "low"


# (path, the lines before, the lines after): the same kinds of line where nothing is let through
_QUIET = [
    ("index.js", ["      return reply.send(new InvalidCSRFTokenError())"], ["      return reply.code(403).send(new InvalidCSRFTokenError())"]),
    ("lib/middleware.js", ["    return next(err)"], ["    next(err)", "    return"]),  # the return on a line of its own
    ("src/list.js", ["  return items.map(render)"], ["  items.map(render)"]),  # no rejection in it
    ("src/msgs/deframer.rs", ["            return Err(InvalidMessage::PayloadTooLarge);"], ["            Err(InvalidMessage::PayloadTooLarge)"]),  # a tail returns it
    ("app/controllers/admin_controller.rb", ["    return head :forbidden"], ["    head :forbidden"]),  # Ruby's last expression too
    ("src/service.rs", ["        cookies.signed(&self.key).get(name)"], ["        cookies.signed(&self.signing_key).get(name)"]),
    ("src/session.js", ["  const claims = jwt.verify(token, secret);"], ["  const claims = jwt.verifyAsync(token, secret);"]),
    ("completions/tool.ps1", [], ["    $expanded = $ExecutionContext.SessionState.Path.GetUnresolvedProviderPathFromPSPath($p)"]),
    ("build.ps1", [], ["    Invoke-Expression 'dotnet --info'"]),  # a literal, not a variable
    ("bin/setup.sh", [], ["eval \"$(pyenv init -)\"", "eval \"$(ssh-agent -s)\""]),
    ("bin/run.sh", [], ["  eval \"$cmd\""]),  # eval of a variable, nothing it replaced
    ("crates/cli/Cargo.toml", ["\t[\"target/release/tool\", \"usr/bin/tool\", \"755\"],"], ["\t[\"target/release/tool\", \"usr/bin/tool2\", \"755\"],"]),
    ("Dockerfile", [], ["RUN chmod 2775 /var/www && chmod g+s /srv/shared && chmod +x /entrypoint.sh"]),
    ("roles/web/tasks/main.yml", [], ["    mode: '0644'", "    mode: 0755"]),
    ("src/server/listen.rs", ["    let addr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port);"],
     ["    let addr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port + 1);"]),
    ("src/api/limits.go", [], ["\tport := 4755"]),
    ("src/fsmagic.c", [], ["\t{ S_ISUID, \"setuid\" },"]),  # a table of mode names
    ("src/main/java/app/FramedInputStream.java", ["            verifyLastChecksumAndReset();", "        }"], ["        }"]),  # a statement removed
    ("src/api/list.go", ["\tpage := 1"], ["\tpage := c.Query(\"page\")", "\tcursor := c.Query(\"next\")"]),
    ("lib/app/mailer/template.ex", ["    q = EEx.compile_string(html, engine: MyApp.TextEngine, line: 1)"], ["    q = EEx.compile_string(html, line: 1)"]),
    ("lib/app/render.rb", ["    src = Erubi::Engine.new(template, escape: true)"], ["    src = Erubi::Engine.new(template, escape: true, freeze: true)"]),
]


@pytest.mark.parametrize(("path", "removed", "added"), _QUIET, ids=[f"{q[0]}-{i}" for i, q in enumerate(_QUIET)])
def test_the_same_kinds_of_line_letting_nothing_through_are_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert lets_through(path, added, removed) is None
    change = FileChange(path=path, kind="modified", additions=len(added), deletions=len(removed), ranges=[(1, max(len(added), 1))],
                        added_lines=added, removed_lines=removed)
    [read], partial = read_changes([change])
    said = assess(read, RiskContext(partial=partial)).reasons
    assert not any(r.startswith(("goes on after a rejection", "reads it without verifying", "expands or runs text", "runs a command's words",
                                 "installs a program setuid", "listens on every interface",
                                 "drops the HTML-escaping", "redirects to a URL")) for r in said), said


# --------------------------------------------------------------------------- an edited pair apart ranks above path words

_GO_STATE = ("package gothic\n\nfunc validateState(req *http.Request, sess Session) error {\n\toriginalState := authURL.Query().Get(\"state\")\n"
             "\treqState := req.URL.Query().Get(\"state\")\n\tif originalState != \"\" && (originalState != reqState) {\n"
             "\t\treturn errors.New(\"state token mismatch\")\n\t}\n\treturn nil\n}\n")
_PY_WINDOW = ("def update_locked(user, now, window):\n    last = user.last_attempt\n    if now - last <= window:\n        user.attempts += 1\n"
              "    else:\n        user.attempts = 1\n    return user\n")
# (ecosystem, the slipped file, its text, the edit, the work's files beside it)
_APART = [
    ("go", "gothic/gothic.go", _GO_STATE, ("if originalState != \"\" && (", "if originalState != \"\" && reqState != \"\" && ("),
     {f"providers/p{i}/session.go": (f"package p{i}\n\nfunc Marshal() string {{\n\treturn \"\"\n}}\n",
                                    f"package p{i}\n\nfunc Marshal(w Writer) string {{\n\treturn helperStep{i}(w.Len())\n}}\n") for i in range(3)}),
    ("py", "pkg/lockout.py", _PY_WINDOW, ("if now - last <= window:", "if now - last >= window:"),
     {f"pkg/auth/step{i}.py": ("def marshal():\n    return ''\n", f"def marshal(w):\n    return helper_step{i}(w.size)\n") for i in range(3)}),
]


@pytest.mark.parametrize(("eco", "path", "text", "edit", "beside"), _APART, ids=[a[0] for a in _APART])
def test_an_edited_pair_apart_ranks_above_files_high_for_their_path(tmp_path: Path, eco: str, path: str, text: str, edit: tuple[str, str],
                                                                     beside: dict[str, tuple[str, str]]) -> None:
    work, old_work, new_work = _WORK[eco]
    files = {work: old_work, path: text, **{p: old for p, (old, _) in beside.items()}}
    edits = {work: new_work + _MORE[eco], path: text.replace(*edit), **{p: new for p, (_, new) in beside.items()}}
    packet, _ = _review(tmp_path, files, edits, "Add the table export")
    order = [t.file for t in packet.changes.review]
    worded = [t.file for t in packet.changes.review if t.file in beside and t.risk == "high"]
    assert worded, order  # the files beside are high for their path alone
    assert path in order and all(order.index(path) < order.index(w) for w in worded), order


def test_a_statement_removed_apart_stays_below_files_high_for_their_path(tmp_path: Path) -> None:
    eco, path, text = "py", "pkg/lockout.py", _PY_WINDOW
    beside = _APART[1][4]
    files = {_WORK[eco][0]: _WORK[eco][1], path: text, **{p: old for p, (old, _) in beside.items()}}
    edits = {_WORK[eco][0]: _WORK[eco][2] + _MORE[eco], path: text.replace("    else:\n        user.attempts = 1\n", ""),
             **{p: new for p, (_, new) in beside.items()}}
    packet, _ = _review(tmp_path, files, edits, "Add the table export")
    order = [t.file for t in packet.changes.review]
    worded = [t.file for t in packet.changes.review if t.file in beside and t.risk == "high"]
    assert worded and (path not in order or all(order.index(path) > order.index(w) for w in worded)), order


def test_rubys_fail_reworded_or_a_name_that_starts_with_fail_is_not_a_refusal_softened() -> None:
    removed, added = ["    fail_count = 0", "    fail InvalidToken, \"token expired\""], ["    fail_count = 1", "    fail InvalidToken, \"token expired at #{at}\""]
    change = FileChange(path="lib/app/retry.rb", kind="modified", additions=2, deletions=2, ranges=[(1, 2)], added_lines=added, removed_lines=removed)
    [read], partial = read_changes([change])
    assert not any(r.startswith("no longer refuses") for r in assess(read, RiskContext(partial=partial)).reasons)
