"""Issue 36, session 59: what held-out 484–491 (labelled blind) left low or unnamed on their first run (round 120).

Whom they guard against: the worker that slips one line into an ordinary change, and the page a reader copies from:
- a TTL's multiplier raised sixtyfold in CoffeeScript (node-cache): the language was read as data, no line reader looked;
- Go's ``"github.com/cli/safeexec"`` made ``safeexec "os/exec"`` (git-sizer: every ``safeexec.LookPath`` now the lookup
  that can find a program in the working folder, under the safe package's name);
- a README's Laravel route taken out of its CSRF middleware (``->withoutMiddleware(…VerifyCsrfToken::class)``);
- Voilà's or Jupyter's token set empty on the command line (``voila --token= notebook.ipynb``): its login gone;
- a cloud-init example's ``plain_text_passwd: newsuper2026`` (a literal password for a sudo user, published);
- a README's ``tee ~/totp-secret.txt | gpg -c …``: the encrypted secret's plain copy left in the home folder;
and (120b, the same wave's misses of the top 8) WebAuthn's ``user_verification: "required"`` → ``"discouraged"`` and
webauthn-ruby's ``sign_count: stored_credential.sign_count`` → ``sign_count: false`` (a cloned key's counter unchecked);
and (120c, from held-out 492–499's first run) a Go test's ``range goldenKeyed`` → ``range goldenKeyed[:1]``, a ``//!`` sample's
``read_to_end(10)`` → ``read_to_end(usize::MAX)``, a README's ``make_auth_info(PASSWORD, iteration_count=1)``,
``token: process.env.NEXT_PUBLIC_UPSTASH_REDIS_REST_TOKEN`` (a secret bundled into the browser), pg_hba's ``host all all
0.0.0.0/0 md5`` → ``trust``, ``try { this.ctx.assertCsrf(body) } catch (err) {}``; and (120d, the same wave's unnamed) a
kernel module's ``module_param(force_fips, bool, 0444)`` → ``0666``; and (120e, from held-out 500–507's first run)
plotnine's ``x / (2.54 * 10)`` → ``x / 2.54 * 10`` (read "typing only": the parentheses that grouped were dropped as a
formatter's), Chrome's ``"AuthServerAllowlist": "*"`` on a page, ``assert f(…) == Path(result)`` → ``… or Path(result)``; and
(120g, from held-out 508–515's first run) ``return True`` put into ``__exit__`` (every exception of the with block
swallowed), a config read's response given the stored secret (vault's ``"keytab": config.Keytab,``), a page's "should not
be stored in plaintext" turned "can be stored in plaintext", django-taggit's ``.filter(…)`` → ``.exclude(…)``.
Each has its near miss, which stays quiet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewed import one_edit_named, one_edit_says_none, review_edits

__all__: list[str] = []  # a test module exports nothing

_PAGE = "# Proj\n\nSome text here.\n\n"


def _edit(old: str, new: str) -> tuple[str, str]:
    return _PAGE + old, _PAGE + new


_CACHE = ("class NodeCache\n  constructor: ( @options = {} )->\n    @data = {}\n\n  _wrap: ( value, ttl )=>\n"
          "    now = Date.now()\n    livetime = 0\n    ttlMultiplicator = %s\n    if ttl is 0\n      livetime = 0\n"
          "    else if ttl\n      livetime = now + ( ttl * ttlMultiplicator )\n    t: livetime\n    v: value\n")
_GITBIN = ("package git\n\nimport (\n\t\"path/filepath\"\n\n\t%s\n)\n\n// findGitBin finds git without looking in the current directory.\n"
           "func findGitBin() (string, error) {\n\tp, err := safeexec.LookPath(\"git\")\n\tif err != nil {\n\t\treturn \"\", err\n\t}\n"
           "\treturn filepath.Abs(p)\n}\n")
_ROUTE = ("```php\nRoute::middleware(WebauthnMiddleware::class)->group(function () {\n    Route::get('/home', HomeController::class);\n"
          "})->middleware(WebauthnMiddleware::class)%s;\n```\n")
_VOILA = "To serve the dashboard:\n\n```bash\nvoila --Voila.ip=%s notebook.ipynb\n```\n"
_USERS = "#cloud-config\nusers:\n  - name: newsuper\n    gecos: Big Stuff\n    groups: users, admin\n    sudo: ALL=(ALL) NOPASSWD:ALL\n    shell: /bin/bash\n%s"
_PASSKEY = ("class PasskeyRegistrationOptionsController < ApplicationController\n  def create\n"
            "    options = WebAuthn::Credential.options_for_create(\n      user: { id: user.webauthn_id, name: user.email },\n"
            "      authenticator_selection: {\n        resident_key: \"required\",\n        user_verification: \"%s\"\n      }\n    )\n"
            "    render json: options\n  end\nend\n")
_COUNTER = ("class WebauthnTwoFactor < Devise::Strategies::Base\n  def authenticate!\n    credential.verify(\n"
            "      session[:challenge],\n      public_key: stored_credential.public_key,\n      sign_count: %s\n    )\n  end\nend\n")
_GOLDEN = "package blake2s\n\nfunc TestKeyed(t *testing.T) {\n\tfor i, v := range goldenKeyed%s {\n\t\tcheck(t, i, v)\n\t}\n}\n"
_IROH = ("//! Accept a connection:\n//!\n//! ```no_run\n//!     let (mut send, mut recv_stream) = conn.accept_bi().await?;\n"
         "//!     let _msg = recv_stream.read_to_end(%s).await.std_context(\"read\")?;\n//! ```\npub mod endpoint;\n")
_SCRAM = "```python\n>>> salt, stored_key, server_key, iteration_count = m.make_auth_info(PASSWORD%s)\n```\n"
_REDIS = "```ts\nconst redis = new Redis({\n  url: process.env.UPSTASH_REDIS_REST_URL,\n  token: process.env.%s,\n})\n```\n"
_HBA = "pg_hba:\n  -  **- host replication replicator 127.0.0.1/32 md5**\n  -  **- host all all 0.0.0.0/0 %s**\n"
_CSRF = "  async middleware(ctx, next) {\n    const body = ctx.request.body\n    %s\n    return next()\n  }\n"
_MODPARAM = "static bool force_fips;\nmodule_param(force_fips, bool, %s);\nMODULE_PARM_DESC(force_fips, \"Force FIPS mode\");\n"
_UNITS = "UNITS = {\n    \"cm\": lambda x: x / 2.54,\n    \"mm\": lambda x: x / %s,\n}\n"
_CHROME = "<pre>\n[root@server]# echo '{ \"AuthServerAllowlist\": \"%s\" }' > /etc/opt/chrome/policies/managed/mydomain.json\n</pre>\n"
_NEXT_FREE = "def test_next_free_name(wanted, result, tmp):\n    assert next_free_name(dst=Path(wanted), template=tmp) %s Path(result)\n"
_EXIT = ("class Halo:\n    def __enter__(self):\n        self.start()\n        return self\n\n"
         "    def __exit__(self, type, value, traceback):\n        self.stop()\n%s")
_READ = ("package kerberos\n\nfunc (b *backend) pathConfigRead(ctx context.Context, req *logical.Request) (*logical.Response, error) {\n"
         "\tconfig, err := b.config(ctx, req.Storage)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn &logical.Response{\n"
         "\t\tData: map[string]interface{}{\n\t\t\t\"service_account\": config.ServiceAccount,\n%s\t\t},\n\t}, nil\n}\n")
_WRITE = _READ.replace("pathConfigRead", "pathConfigWrite")
_PUK = "## Storing the PUK\n\nThe Recovery PUK %s in the database.\n"
_ORPHANS = ("class TagQuerySet(models.QuerySet):\n    def orphaned(self):\n        return self.%s(taggit_taggeditem_items=None)\n\n"
            "    def used(self):\n        return self.exclude(taggit_taggeditem_items=None)\n")
_GPG = " 1. Encrypt the secret key using GPG. First enter this command:\n\n    ```shell\n    %s\n    ```\n"

_NAMED = [
    # (path, before, after, the words the reason says)
    ("_src/lib/node_cache.coffee", _CACHE % "1000", _CACHE % "60000", "1000 → 60000"),
    ("git/git_bin.go", _GITBIN % '"github.com/cli/safeexec"', _GITBIN % 'safeexec "os/exec"', "safer-sounding alias (os/exec as safeexec)"),
    ("README.md", *_edit(_ROUTE % "", _ROUTE % "->withoutMiddleware(\\Illuminate\\Foundation\\Http\\Middleware\\VerifyCsrfToken::class)"),
     "CSRF protection off"),
    ("docs/customize.md", _VOILA % "127.0.0.1", _VOILA % "0.0.0.0 --token=", "turns authentication off"),
    ("doc/module-docs/cc_users_groups/example3.yaml", _USERS % "    lock_passwd: true\n",
     _USERS % "    lock_passwd: true\n    plain_text_passwd: newsuper2026\n", "literal secret"),
    ("README.md", *_edit(_GPG % "gpg -c -o secret.gpg", _GPG % "tee ~/totp-secret.txt | gpg -c -o secret.gpg"), "plain copy of a secret"),
    # round 120b
    ("app/controllers/passkey_registration_options_controller.rb", _PASSKEY % "required", _PASSKEY % "discouraged", "protection off"),
    ("lib/devise/strategies/webauthn_two_factor.rb", _COUNTER % "stored_credential.sign_count", _COUNTER % "false", "protection off"),
    # round 120c
    ("blake2s_test.go", _GOLDEN % "", _GOLDEN % "[:1]", "the cases after the first 1"),
    ("iroh/src/lib.rs", _IROH % "10", _IROH % "usize::MAX", "size limit to no end"),
    ("README.md", *_edit(_SCRAM % "", _SCRAM % ", iteration_count=1"), "iteration_count=1"),
    ("README.md", *_edit(_REDIS % "UPSTASH_REDIS_REST_TOKEN", _REDIS % "NEXT_PUBLIC_UPSTASH_REDIS_REST_TOKEN"), "secret to the browser"),
    ("docs/yaml_configuration.rst", _HBA % "md5", _HBA % "trust", "without a password"),
    ("index.js", _CSRF % "ctx.assertCsrf(body)", _CSRF % "try { ctx.assertCsrf(body) } catch (err) {}", "empty catch"),
    # round 120d
    ("linux_kernel/jitterentropy_mod.c", _MODPARAM % "0444", _MODPARAM % "0666", "world-writable"),
    # round 120e
    ("plotnine/_utils/__init__.py", _UNITS % "(2.54 * 10)", _UNITS % "2.54 * 10", "regroups an expression"),
    # read first, since round 122b, as a host pattern made "*" (high), not by the page's words (worth a look)
    ("install/html/ssbrowser.html", _CHROME % "*.example.com", _CHROME % "*", "widens a host pattern to any host"),
    ("tests/actions/test_conflict_resolution.py", _NEXT_FREE % "==", _NEXT_FREE % "or", "always passes"),
    # round 120g
    ("halo/halo.py", _EXIT % "", _EXIT % "        return True\n", "swallows every exception"),
    ("path_config.go", _READ % "", _READ % "\t\t\t\"keytab\":          config.Keytab,\n", "hands a secret back"),
    ("docs/Activation-Recovery.md", _PUK % "should not be stored in plaintext", _PUK % "can be stored in plaintext to simplify support lookups", "lifts a prohibition"),
]

_QUIET = [
    ("_src/lib/node_cache.coffee", _CACHE % "1000", _CACHE.replace("    livetime = 0\n    ttlMultiplicator", "    livetime = 0 # none\n    ttlMultiplicator") % "1000"),
    ("git/git_bin.go", _GITBIN % '"github.com/cli/safeexec"', _GITBIN % 'safeexec "github.com/cli/safeexec"'),  # the same package, named
    ("git/git_bin.go", _GITBIN.replace("safeexec.", "exec.") % '"github.com/cli/safeexec"', _GITBIN.replace("safeexec.", "exec.") % '"os/exec"'),  # said plainly
    ("README.md", *_edit(_ROUTE % "", _ROUTE % "->withoutMiddleware(\\Illuminate\\Routing\\Middleware\\ThrottleRequests::class)")),
    ("docs/customize.md", _VOILA % "127.0.0.1", _VOILA % "127.0.0.1 --token=$VOILA_TOKEN"),
    ("doc/module-docs/cc_users_groups/example3.yaml", _USERS % "    lock_passwd: true\n", _USERS % "    lock_passwd: true\n    plain_text_passwd: password\n"),  # a placeholder
    ("README.md", *_edit(_GPG % "gpg -c -o secret.gpg", _GPG % "oathtool --totp -b - | tee totp.log")),  # a code's log, no secret's file
    ("README.md", *_edit(_GPG % "gpg -c -o secret.gpg", _GPG % "curl -fsSL https://example.org/key.gpg | sudo tee /usr/share/keyrings/example.gpg")),
    ("app/controllers/passkey_registration_options_controller.rb", _PASSKEY % "discouraged", _PASSKEY % "preferred"),
    ("lib/devise/strategies/webauthn_two_factor.rb", _COUNTER % "stored_credential.sign_count", _COUNTER % "stored_credential.counter"),
    ("blake2s_test.go", _GOLDEN % "", _GOLDEN % "[1:]"),  # the first left out, the rest run
    ("iroh/src/lib.rs", _IROH % "10", _IROH % "64 * 1024"),
    ("README.md", *_edit(_SCRAM % "", _SCRAM % ", iteration_count=8192")),
    ("README.md", *_edit(_REDIS % "UPSTASH_REDIS_REST_TOKEN", _REDIS % "NEXT_PUBLIC_UPSTASH_REDIS_REST_URL")),  # a URL is no secret
    ("docs/yaml_configuration.rst", _HBA % "md5", _HBA % "scram-sha-256"),
    ("docs/yaml_configuration.rst", _HBA.replace("0.0.0.0/0", "127.0.0.1/32") % "md5", _HBA.replace("0.0.0.0/0", "127.0.0.1/32") % "trust"),  # loopback
    ("index.js", _CSRF % "ctx.assertCsrf(body)", _CSRF % "try { ctx.assertCsrf(body) } catch (err) { ctx.throw(403, err) }"),
    ("linux_kernel/jitterentropy_mod.c", _MODPARAM % "0444", _MODPARAM % "0644"),  # its owner may write
    ("plotnine/_utils/__init__.py", _UNITS % "(2.54 * 10)", _UNITS % "(25.4)"),  # a group of one: nothing regroups
    ("install/html/ssbrowser.html", _CHROME % "*.example.com", _CHROME % "*.corp.example.com"),
    ("tests/actions/test_conflict_resolution.py", _NEXT_FREE % "==", _NEXT_FREE % "!="),
    ("halo/halo.py", _EXIT % "", _EXIT % "        return False\n"),
    ("path_config.go", _READ % "", _READ % "\t\t\t\"keytab_set\":      config.Keytab != \"\",\n"),  # whether it is set, not the secret
    ("path_config.go", _WRITE % "", _WRITE % "\t\t\t\"keytab\":          config.Keytab,\n"),  # no read answers it
    ("docs/Activation-Recovery.md", _PUK % "should not be stored in plaintext", _PUK % "must never be stored in plaintext"),
    ("docs/Activation-Recovery.md", _PUK % "does not support rotation", _PUK % "supports rotation and should be stored in plaintext nowhere"),
]


@pytest.mark.parametrize(("path", "before", "after", "said"), _NAMED)
def test_a_slipped_line_is_named(tmp_path: Path, path: str, before: str, after: str, said: str) -> None:
    one_edit_named(tmp_path, path, before, after, said)


# What this round's readers say: none of it in a near miss's reasons.
_SAYS = ("60000", "safer-sounding alias", "CSRF protection off", "turns authentication off", "literal secret", "plain copy of a secret", "protection off",
         "cases after the first", "to no end", "weakens the hash", "secret to the browser", "without a password", "empty catch", "world-writable",
         "regroups", "grants to everyone", "always passes", "swallows every exception", "hands a secret back", "lifts a prohibition")


@pytest.mark.parametrize(("path", "before", "after"), _QUIET)
def test_its_near_miss_stays_quiet(tmp_path: Path, path: str, before: str, after: str) -> None:
    one_edit_says_none(tmp_path, path, before, after, _SAYS)


@pytest.mark.parametrize("path", ["lib/cache.coffee", "contracts/Vault.sol", "src/server.cr", "functions/fisher.fish", "src/Main.hx"])
def test_code_in_less_common_languages_is_source_not_data(path: str) -> None:
    """The rules read a data file's lines only through their screens: a language read as data hides its risky lines."""
    from relay.review.file_kinds import file_kind
    assert file_kind(path) == "source"


def test_a_go_alias_is_read_only_in_go(tmp_path: Path) -> None:
    """Ruby's ``system "bin/setup"`` has Go's alias shape; only a Go file's import names its alias first."""
    path = "Rakefile.rb"
    before = "task :setup do\n  puts 'setting up'\nend\n"
    one_edit_says_none(tmp_path, path, before, before.replace("  puts 'setting up'\n", "  puts 'setting up'\n  system \"bin/setup\"\n"), ("alias",))


def test_a_dependency_groups_name_is_no_package(tmp_path: Path) -> None:
    """PEP 735's ``test = [`` renamed ``tests = [`` is a group's name, never a dependency renamed to a look-alike (rasterio)."""
    before = "[dependency-groups]\ntest = [\n    \"aiohttp\",\n    \"hypothesis\",\n]\n"
    one_edit_says_none(tmp_path, "pyproject.toml", before, before.replace("test = [", "tests = ["), ("look-alike",))


@pytest.mark.parametrize(("before", "after", "same"), [
    ("        return (options.accept) || isNamed(arg);", "        return options.accept || isNamed(arg);", True),  # one operand
    ("    if (a and b) or c:", "    if a and b or c:", True),  # ``and`` binds tighter: the formatter's clarity
    ("    total = (\n        a + b\n    )", "    total = a + b", True),  # a wrapping parenthesis
    ("    if (a or b) and c:", "    if a or b and c:", False),
    ("    y = (a - b) * c", "    y = a - b * c", False),
    ("    mm = x / (2.54 * 10)", "    mm = x / 2.54 * 10", False),
])
def test_a_grouping_parenthesis_dropped_is_never_formatting(before: str, after: str, same: bool) -> None:
    """What a formatter adds or drops (a wrapping parenthesis, one around an operand, one that only restates precedence)
    keeps the reading mechanical; a parenthesis that decided what is computed first, dropped, is never typing or formatting."""
    from relay.core.contracts import FileChange
    from relay.review.code_reading import mechanical_verdict
    from relay.review.meaning import same_meaning
    old, new = before.split("\n"), after.split("\n")
    change = FileChange(path="app/calc.py", kind="modified", additions=len(new), deletions=len(old), removed_lines=old, added_lines=new)
    said = (same_meaning(new, old, "app/calc.py"), mechanical_verdict(change))
    assert (said != (None, None)) is same, said


def test_a_sibling_in_the_projects_own_npm_scope_is_no_look_alike(tmp_path: Path) -> None:
    """``npx @bull-board/cli`` in @bull-board/api's README: only the scope's owner publishes under ``@bull-board/``, so a name
    two letters from another of its scope is a sibling (120f: three of held-out 501's pages were called high for it); a
    look-alike scope stays named."""
    pkg = '{\n  "name": "@bull-board/api",\n  "version": "5.0.0",\n  "dependencies": {\n    "redis-info": "^3.0.8"\n  }\n}\n'
    page = "# bull-board\n\nSome text.\n\n"
    before = {"README.md": page, "package.json": pkg}
    risk, files = review_edits(tmp_path, {"README.md": page + "```sh\nnpx @bull-board/cli -r redis://localhost:6379\n```\n"}, before=before)
    assert risk == "low" and "look-alike" not in " ".join(files["README.md"].reasons), files["README.md"]
    _, files = review_edits(tmp_path / "squat", {"README.md": page + "```sh\nnpm i @bull-baord/api\n```\n"}, before=before)
    assert "look-alike" in " ".join(files["README.md"].reasons), files["README.md"]


def test_a_query_made_its_opposite_apart_from_the_change_is_worth_a_look(tmp_path: Path) -> None:
    """django-taggit's ``orphaned()`` turned from ``.filter(…=None)`` to ``.exclude(…=None)`` beside the commit's own work: one
    name put for its opposite is no rename (120g), a name put for another that keeps what it does may be."""
    views = "def tag_list(request):\n    return render(request, 'tags.html')\n"
    work = views + "\n\ndef tag_detail(request, slug):\n    return render(request, 'tag.html', {'slug': slug})\n"
    before = {"taggit/managers.py": _ORPHANS % "filter", "taggit/views.py": views}
    risk, files = review_edits(tmp_path, {"taggit/managers.py": _ORPHANS % "exclude", "taggit/views.py": work}, before=before)
    assert risk != "low" and "orphaned()" in files["taggit/managers.py"].reasons[0], files["taggit/managers.py"]
    from relay.review.odd_edits import opposite_names
    assert opposite_names("filter", "exclude") and not opposite_names("filter", "filter_by")
