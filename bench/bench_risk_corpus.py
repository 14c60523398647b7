"""Benchmark: does the risk ranking put the file that matters on top, on real upstream commits?

Not a test. Each commit of bench/corpora/risk_corpus.json is replayed through the relay's
own observation and review: the parent commit is checked out in a temp dir (the workspace),
a snapshot is taken, each changed file is written with its post-commit content (as the
worker would), then ``observe_changes`` + ``build_review`` + ``fit_packet`` run as in a
real call. The corpus holds only repository names, commit ids, file names and labels; the
code comes from local mirrors at run time.

Getting the mirrors (bare clones, a few MiB to ~60 MiB each, ~1.1 GiB in all):

    mkdir -p ~/risk-mirrors && cd ~/risk-mirrors
    for r in alexcrichton/tar-rs andialbrecht/sqlparse isaacs/node-tar jpadilla/pyjwt \\
             paramiko/paramiko yaml/pyyaml cthackers/adm-zip cyphar/filepath-securejoin \\
             jaraco/zipp mozilla/bleach json5/json5 mde/ejs minimistjs/minimist ulikunitz/xz \\
             pallets/jinja sybrenstuvel/python-rsa tlsfuzzer/python-ecdsa yargs/yargs-parser \\
             npm/hosted-git-info go-yaml/yaml chalk/ansi-regex gulpjs/glob-parent \\
             faisalman/ua-parser-js Qix-/color-string \\
             sindresorhus/trim-newlines sindresorhus/normalize-url sindresorhus/semver-regex \\
             isaacs/minimatch micromatch/braces markedjs/marked moment/moment npm/ini pypa/setuptools \\
             pypa/wheel python-babel/babel tqdm/tqdm joblib/joblib sqlalchemy/mako tidwall/gjson \\
             Masterminds/goutils servo/rust-smallvec rust-lang/regex \\
             nodeca/js-yaml handlebars-lang/handlebars.js xmldom/xmldom npm/node-semver \\
             cure53/DOMPurify jashkenas/underscore gitpython-developers/GitPython \\
             trentm/python-markdown2 lepture/mistune ruby/rexml rubyzip/rubyzip \\
             sporkmonger/addressable golang-jwt/jwt mholt/archiver rust-ammonia/ammonia \\
             madler/zlib libexpat/libexpat jqlang/jq \\
             lxml/lxml ultrajson/ultrajson jhy/jsoup apache/commons-compress apache/commons-text \\
             twigphp/Twig pear/Archive_Tar erusev/parsedown yaml/libyaml DaveGamble/cJSON \\
             json-c/json-c ruby/uri vmg/redcarpet microcosm-cc/bluemonday gomarkdown/markdown \\
             buger/jsonparser \\
             dom4j/dom4j x-stream/xstream codehaus-plexus/plexus-archiver phpseclib/phpseclib \\
             kkos/oniguruma py-pdf/pypdf miurahr/py7zr hashicorp/go-getter marshallpierce/rust-base64 \\
             zip-rs/zip2 NaturalIntelligence/fast-xml-parser mafintosh/tar-fs digitalbazaar/forge \\
             indutny/elliptic Leonidas-from-XIV/node-xml2js kevva/decompress apostrophecms/sanitize-html \\
             rgrove/sanitize flavorjones/loofah gettalong/kramdown \\
             libarchive/libarchive GNOME/libxml2 libgit2/libgit2 thephpleague/commonmark \\
             thephpleague/flysystem zeroturnaround/zt-zip apache/commons-io Stuk/jszip \\
             node-saml/xml-crypto unshiftio/url-parse jonschlinkert/set-value \\
             mariocasciaro/object-path eemeli/yaml ruby/date ruby/time golang/glog \\
             hashicorp/go-slug pygments/pygments \\
             c-ares/c-ares libssh2/libssh2 nih-at/libzip pnggroup/libpng snakeyaml/snakeyaml \\
             codehaus-plexus/plexus-utils sindresorhus/dot-prop ljharb/shell-quote yargs/y18n \\
             unclechu/node-deep-extend ZJONSSON/node-unzipper pyasn1/pyasn1 Legrandin/pycryptodome \\
             kurtmckee/feedparser go-git/go-git klauspost/compress mikel/mail ohler55/ox \\
             smarty-php/smarty dompdf/php-svg-lib libjpeg-turbo/libjpeg-turbo libexif/libexif \\
             akheron/jansson lloyd/yajl tukaani-project/xz html5lib/html5lib-python pyca/pyopenssl \\
             lodash/lodash hughsk/flat jonschlinkert/mixin-deep time-rs/time image-rs/image \\
             FasterXML/woodstox FasterXML/jackson-dataformats-text ruby/psych \\
             PCRE2Project/pcre2 lz4/lz4 webmproject/libwebp GNOME/libxslt file/file \\
             uclouvain/openjpeg composer/composer PHPMailer/PHPMailer sfackler/rust-openssl \\
             pypa/pip nltk/nltk gogo/protobuf russellhaering/goxmldsig immerjs/immer \\
             protobufjs/protobuf.js pugjs/pug ruby/rdoc FasterXML/jackson-databind \\
             libsndfile/libsndfile richgel999/miniz saitoha/libsixel google/brotli \\
             janl/node-jsonpointer mickhansen/dottie.js rubygems/rubygems go-jose/go-jose \\
             Masterminds/vcs nix-rust/nix Python-Markdown/markdown thephpleague/csv \\
             BurntSushi/toml symfony/yaml tafia/quick-xml \\
             mpdavis/python-jose firebase/php-jwt auth0/node-jsonwebtoken jquense/expr \\
             chyh1990/yaml-rust hunterhacker/jdom expr-lang/expr facebook/zstd CESNET/libyang \\
             isaacs/sax-js pelletier/go-toml russross/blackfriday \\
             patriksimek/vm2 zopefoundation/RestrictedPython newville/asteval josdejong/mathjs \\
             stleary/JSON-java junrar/junrar google/gson mity/md4c github/cmark-gfm ccxvii/mujs \\
             fitzgen/bumpalo dompdf/dompdf robrichards/xmlseclibs jsonpickle/jsonpickle \\
             ljharb/qs yahoo/serialize-javascript validatorjs/validator.js markdown-it/markdown-it \\
             mongodb/js-bson alibaba/fastjson apache/commons-configuration apache/commons-beanutils \\
             PHPOffice/PhpSpreadsheet Exiv2/exiv2 LibRaw/LibRaw sparklemotion/nokogiri \\
             dtolnay/serde-yaml nwaples/rardecode \\
             redis/hiredis mm2/Little-CMS libgd/libgd Tencent/rapidjson webpack/loader-utils \\
             postcss/postcss PrismJS/prism thejoshwolfe/yauzl highlightjs/highlight.js rustls/rustls \\
             ruby/stringio opencontainers/runc ipython/ipython jupyter/nbconvert \\
             ESAPI/esapi-java-legacy tecnickcom/TCPDF \\
             jquery/jquery janl/mustache.js ajv-validator/ajv moment/luxon mpdf/mpdf cloudflare/circl \\
             kivikakk/comrak OWASP/java-html-sanitizer harfbuzz/harfbuzz AOMediaCodec/libavif \\
             jasper-software/jasper python-pillow/Pillow strukturag/libheif \\
             fribidi/fribidi gdraheim/zziplib juliangruber/brace-expansion browserify/sha.js \\
             sindresorhus/file-type vercel/ms psf/black mruby/mruby OpenSC/OpenSC libvips/libvips \\
             Byron/gitoxide apache/xmlgraphics-batik chronotope/chrono pierrec/lz4 \\
             acornjs/acorn babel/babel zlib-ng/zlib-ng leethomason/tinyxml2 jbeder/yaml-cpp \\
             tokio-rs/bytes jekyll/jekyll Shopify/liquid libming/libming nothings/stb \\
             commonmark/commonmark.js ezyang/htmlpurifier PHPOffice/PHPWord hashicorp/hcl \\
             Textualize/rich \\
             xiph/vorbis xiph/flac xiph/ogg knik0/faad2 exiftool/exiftool xhtml2pdf/xhtml2pdf \\
             jazzband/tablib sleuthkit/sleuthkit SheetJS/sheetjs mvdan/sh toml-rs/toml \\
             pallets/markupsafe numpy/numpy mozilla/pdf.js; do
        git clone -q --bare "https://github.com/$r" "${r/\\//+}.git"; done

Run from the repository root:

    python bench/bench_risk_corpus.py --mirrors ~/risk-mirrors     # or RELAY_RISK_MIRRORS=...
    python bench/bench_risk_corpus.py --mirrors DIR -v              # one line per commit
    python bench/bench_risk_corpus.py --mirrors DIR --token-rate 200 [--rule input_check ...]
        # also: how often a rule (default: the security tokens) fires on the 200 latest commits of each repo
    python bench/bench_risk_corpus.py --mirrors DIR --rates-only --line-rate 60 --corpus A.json --corpus B.json ...
        # also: how many of the 60 latest commits of each repository of those sets get a line finding (issue 36's
        # rows that name one line: unsafe_value, dangerous_call, removes_guard, lookalike_dependency,
        # skips_security_test), each such commit listed; --rates-only skips the replay of the sets themselves
    python bench/bench_risk_corpus.py --mirrors DIR --task-rate 200
        # also: how often those commits' messages, read as a leader's task, name a security fix
    python bench/bench_risk_corpus.py --mirrors DIR --all
        # every set in bench/corpora/, each set's figures, then one summary line per set (~10 min)
    python bench/bench_risk_corpus.py --mirrors DIR --corpus bench/corpora/risk_corpus_heldoutN.json
        # one held-out set, N = '' (the first), 2 … 18: each built by someone who never ranked it, its
        # labels (advisory, CVE, changelog, commit message) committed before its one run; after that
        # run it is a development set like the main corpus (bench/LEDGER.md keeps each first run);
        # from 13 on, each entry also carries 'task' / 'task_from': the leader's instruction,
        # written only from the public report
    python bench/bench_risk_corpus.py --mirrors DIR --all --sealed
        # also the sealed sets ("sealed": true, or any file named risk_corpus_sealed*.json): never
        # tuned on, run only to report; their figures only, never a line per commit (without --sealed
        # they are skipped, and refused by name); a sealed set named in OPENED was opened as development
        # data after its one sealed run (bench/LEDGER.md says when) and runs like any other
    python bench/bench_risk_corpus.py --mirrors DIR -v --corpus bench/corpora/risk_corpus_planted_dev.json
        # a planted-risk set (issue 36; 'planted_heldout' and 'sealed_planted' too): ordinary commits, each with one
        # risky edit of 1-3 lines ('plant': file, find, replace, line, risk, words) written over the post-commit
        # tree before observation (also into a file the commit does not change). Printed beside the naive orders:
        # the planted line's file in the top 3 / top 8, the planted line in the default review read
        # (detail="diff", no max_chars; a credential shows masked there, as the leader reads it), named by the
        # planted file's reason (one of the plant's words, in the packet target's reason), the change not low
    python bench/bench_risk_corpus.py --mirrors DIR --check --corpus bench/corpora/risk_corpus_heldout3.json
        # only check a corpus: each mirror holds base and commit (and the new content a replay
        # writes), and every labelled riskiest/benign file is among the changed files
        # (git diff --name-only base commit); one line per problem, a summary, exit 1 on any
        # problem. Nothing is observed or ranked, so it is safe on a held-out set.

A mirror is looked up as DIR/owner+name.git, DIR/owner+name/repo(/.git), DIR/owner+name or
DIR/name.git; a repository that is absent is skipped with a message, as is a commit the
mirror does not hold. Printed: recall@3 and recall@8 of the labelled riskiest file (the
relay's packet targets against two naive orders computed on the same changes), how many
labelled-benign files were called ``high``, security commits whose overall risk is
``low``, the largest packet and the review time. An entry that carries a ``task`` (the
instruction a leader would have given, written from the public report before the fix; its
``task_from`` says where) is ranked a second time as a run given that task, and the same
figures are printed for it.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

# The checkout whose review runs: this one, or RELAY_BENCH_TREE (bench_planted_sets.py --tree: another checkout's rules
# on this checkout's corpora and bench).
sys.path.insert(0, os.environ.get("RELAY_BENCH_TREE") or str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from relay.observe.changes import observe_changes  # noqa: E402
from relay.core.contracts import (  # noqa: E402
    FileChange, Packet, RecordObservation, RecordOutcome, RecordPlan, RunRecord, Status, Tests, WorkerReport,
)
from relay.core.redact import redact  # noqa: E402
from relay.observe.run_patch import build_run_patch  # noqa: E402
from relay.review.diff_view import diff_view  # noqa: E402
from relay.review.packet import build_review, fit_packet  # noqa: E402
from relay.review.facts import FileFacts  # noqa: E402
from relay.review.content_kinds import reading  # noqa: E402
try:  # an older tree's rules (RELAY_BENCH_TREE) read the heads of files with no extension only
    from relay.review.content_kinds import head_tells  # noqa: E402
except ImportError:
    def head_tells(path: str, code_exts: frozenset[str]) -> bool:
        return "." not in path.rsplit("/", 1)[-1].lstrip(".")
from relay.review.file_kinds import CODE_EXTS, file_kind, line_filter, path_kind, rule_lines  # noqa: E402
from relay.review.risk import RULES, RiskContext  # noqa: E402
from relay.review.task_reading import task_security  # noqa: E402
from relay.review.apart_edits import looser_runs, runs_of_patch  # noqa: E402
from relay.review.odd_edits import apart_and_odd_edits  # noqa: E402
from relay.observe.snapshot import take_snapshot  # noqa: E402

__all__ = ["main"]

CORPUS = Path(__file__).resolve().parent / "corpora" / "risk_corpus.json"

# The naive "source first" order's idea of source, kept deliberately simple and separate
# from relay.review.risk so the comparison is not the relay against itself.
_CODE_EXT = (".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".rs", ".go", ".java", ".c", ".h", ".rb", ".pyx")
_NOT_SOURCE_PARTS = ("test", "tests", "doc", "docs", "example", "examples", "bench", "benchmarks", "tap-snapshots")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C")
    return env


def _git(cwd: Path | None, *args: str, git_dir: Path | None = None) -> bytes:
    argv = ["git", "-c", "gc.auto=0", "-c", "maintenance.auto=false"]
    if git_dir is not None:
        argv += ["--git-dir", str(git_dir)]
    return subprocess.run([*argv, *args], cwd=cwd, env=_env(), check=True, capture_output=True).stdout


def _find_mirror(base: Path, repo: str) -> Path | None:
    owner, name = repo.split("/")
    # ".../repo/.git": a snapshot that is a clone with a work tree.
    home = base / f"{owner}+{name}"
    for cand in (base / f"{owner}+{name}.git", home / "repo", home / "repo" / ".git", home, base / f"{name}.git"):
        if (cand / "HEAD").exists() or (cand / "objects").is_dir():
            return cand
    return None


def _naive_source_rank(c: FileChange) -> int:
    parts = c.path.lower().split("/")
    if c.path.lower().endswith(_CODE_EXT) and not any(p in _NOT_SOURCE_PARTS or "test" in p for p in parts):
        return 0
    if any("test" in p for p in parts):
        return 1
    return 2


def _size(c: FileChange) -> int:
    return c.additions + c.deletions


def _remove(target: Path) -> None:
    """Take away what stands at ``target``: a file, a link, or the empty folder a plain checkout keeps for a submodule."""
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    elif target.is_symlink() or target.exists():
        target.unlink()


def _apply(mirror: Path, work: Path, commit: str, parent: str) -> None:
    """Write every file of ``commit`` over the ``parent`` checkout (renames as delete + add)."""
    raw = _git(None, "diff", "--raw", "-z", "--no-renames", "--no-abbrev", parent, commit, git_dir=mirror).split(b"\0")
    i = 0
    while i + 1 < len(raw):
        meta, path = raw[i].decode(), os.fsdecode(raw[i + 1])
        i += 2
        _, mode_after, _, blob_after, status = meta.lstrip(":").split(" ")
        target = work / path
        if status == "D":
            _remove(target)
            continue
        if mode_after == "160000":
            continue  # a submodule pointer: nothing to write in a plain checkout
        target.parent.mkdir(parents=True, exist_ok=True)
        data = _git(None, "cat-file", "blob", blob_after, git_dir=mirror)
        _remove(target)
        if mode_after == "120000":
            os.symlink(os.fsdecode(data), target)
        else:
            target.write_bytes(data)
            if mode_after == "100755":
                target.chmod(0o755)


class PlantError(Exception):
    """A plant that cannot be applied: its ``find`` text is not in the file exactly once."""


def apply_plant(work: Path, entry: dict) -> None:
    """Write a planted entry's risky edit (``plant``: file, find, replace) over the post-commit tree: ``find``
    replaced by ``replace`` in ``file``, bytes kept as they are (line ends too). The file is the commit's new
    content when the commit changes it, the parent's (the same) when it does not. Nothing for other entries."""
    plant = entry.get("plant")
    if not plant:
        return
    target = work / plant["file"]
    try:
        data = target.read_bytes()
    except OSError as exc:
        raise PlantError(f"{plant['file']}: {exc.strerror}") from None
    find, replace = plant["find"].encode(), plant["replace"].encode()
    if b"\n" in find and b"\r\n" not in find and find not in data and b"\r\n" in data:
        # A file the commit does not change is as the parent's checkout wrote it: CRLF where the repository's
        # attributes say eol=crlf, while --check (and the label) read the LF blob. The same edit in CRLF.
        find, replace = find.replace(b"\n", b"\r\n"), replace.replace(b"\n", b"\r\n")
    if data.count(find) != 1:
        raise PlantError(f"{plant['file']}: the plant's text occurs {data.count(find)} times, not once")
    target.write_bytes(data.replace(find, replace))


def _checkout_parent(mirror: Path, entry: dict, tmp: Path) -> tuple[Path, str, str] | None:
    """(workspace at the entry's parent, commit, parent) in a fresh shared clone; None when the mirror lacks them.
    A release (``base``..commit) is replayed as one change, as a worker's big run would be."""
    try:
        commit = _git(None, "rev-parse", "--verify", entry["commit"] + "^{commit}", git_dir=mirror).decode().strip()
        parent = _git(None, "rev-parse", "--verify", entry.get("base", commit + "^1") + "^{commit}", git_dir=mirror).decode().strip()
    except subprocess.CalledProcessError:
        return None
    work = tmp / "ws"
    if work.exists():
        shutil.rmtree(work)
    _git(None, "clone", "-q", "--shared", "--no-checkout", str(mirror), str(work))
    _git(work, "checkout", "-q", "--detach", parent)
    return work, commit, parent


def _replay(mirror: Path, entry: dict, tmp: Path) -> dict | None:
    checked_out = _checkout_parent(mirror, entry, tmp)
    if checked_out is None:
        return None
    work, commit, parent = checked_out
    _git(work, "config", "user.name", "Bench")
    _git(work, "config", "user.email", "bench@example.com")
    _git(work, "status", "--porcelain")
    snap = take_snapshot(work)
    _apply(mirror, work, commit, parent)
    apply_plant(work, entry)
    changeset = observe_changes(snap, work)
    if changeset.source == "report":
        # git could not diff (a snapshot lacking an object): nothing was observed, so nothing to judge.
        raise subprocess.CalledProcessError(128, ["observe_changes", changeset.note[:120]])
    files = [c.path for c in changeset.files]
    report = WorkerReport(summary="Applied the upstream commit.", files_changed=files, tests_run=False)
    started, cpu = time.perf_counter(), time.process_time()
    packet, assessed = _reviewed(changeset, report, work)
    review_ms = (time.perf_counter() - started) * 1000
    review_cpu_ms = (time.process_time() - cpu) * 1000  # this process's CPU alone: steadier than the wall clock on a shared machine
    relay_order = _full_paths([t.file for t in packet.changes.review], files)
    biggest = [c.path for c in sorted(changeset.files, key=lambda c: (-_size(c), c.path))]
    source_first = [c.path for c in sorted(changeset.files, key=lambda c: (_naive_source_rank(c), -_size(c), c.path))]
    risk = {c.path: c.risk for c in assessed}
    # The lines the rules read, as build_review keeps them (whole hunks, comment lines left out).
    sources = [rule_lines(c) for c in changeset.files if file_kind(c.path) == "source"]
    with_task = None
    if entry.get("task"):
        # The same change reviewed as the relay reviews a run: with the task the leader gave.
        packet_t, assessed_t = _reviewed(changeset, report, work, task=entry["task"])
        with_task = {
            "order": _full_paths([t.file for t in packet_t.changes.review], files),
            "overall": packet_t.changes.risk,
            "risk": {c.path: c.risk for c in assessed_t},
            "reasons": {c.path: c.reasons for c in assessed_t},
            "bytes": len(msgspec.json.encode(packet_t)),
            "security": bool(task_security(entry["task"])[0]),
        }
    planted = _planted(entry, snap, changeset, work, packet, assessed) if entry.get("plant") else None
    return {
        "planted": planted,
        "with_task": with_task,
        "orders": {"relay": relay_order, "biggest": biggest, "source_first": source_first},
        "risk": risk,
        "reasons": {c.path: c.reasons for c in assessed},
        "overall": packet.changes.risk,
        "bytes": len(msgspec.json.encode(packet)),
        "review_ms": review_ms,
        "review_cpu_ms": review_cpu_ms,
        "files": len(files),
        "token_fires": [c.path for c in sources if _TOKEN_RULE(c, RiskContext())],
        "sources": [c.path for c in sources],
    }


_RUN_ID = "run-20250101-000000-abcdef"


def _full_paths(targets: list[str], files: list[str]) -> list[str]:
    """The packet's targets as the changed paths they name: a long path is shown as "…" + its tail
    (relay.review.packet), which names one changed file when exactly one ends with that tail."""
    named = []
    for target in targets:
        if target.startswith("…") and target not in files:
            tail = target[1:]
            found = [f for f in files if f.endswith(tail)]
            target = found[0] if len(found) == 1 else target
        named.append(target)
    return named


def _planted(entry: dict, snap, changeset, work: Path, packet: Packet, assessed: list[FileChange]) -> dict:
    """What the leader sees of a planted line: whether the default review read (``detail="diff"``, no
    max_chars) shows the planted line, whether the planted file's reason names the risk (one of the
    plant's ``words``; the packet target's reason, or the file's reasons when it is not a target)."""
    plant = entry["plant"]
    record = RunRecord(run_id=_RUN_ID, created_at="2026-01-01T00:00:00Z", state="finished",
                       plan=RecordPlan(workspace=str(work)), observation=RecordObservation(changes=assessed),
                       outcome=RecordOutcome(status=Status.SUCCESS, packet=packet))
    built = build_run_patch(snap, changeset, work, run_id=_RUN_ID)
    _, view = diff_view(record, Status.SUCCESS, built[0] if built else None, f"/data/runs/{_RUN_ID}.patch")
    line = plant["line"].strip()
    # The view masks credential shapes (relay.core.redact): a planted secret shows masked, as the leader reads it.
    in_view = any(text and text in view for text in (line, redact(line)))
    target = next((t for t in packet.changes.review if t.file == plant["file"]), None)
    reason = target.reason if target is not None else "; ".join(next((c.reasons for c in assessed if c.path == plant["file"]), []))
    named = any(word.lower() in reason.lower() for word in plant["words"])
    return {"in_view": in_view, "named": named, "reason": reason, "view_chars": len(view)}


def _reviewed(changeset, report: WorkerReport, work: Path, *, task: str = "") -> tuple[Packet, list[FileChange]]:
    """The packet the relay would answer with for this change (and ``task``), and every assessed file."""
    changes, flags, assessed = build_review(changeset, report=report, workspace=work, task=task)
    packet = Packet(ok=True, run_id=_RUN_ID, status=Status.SUCCESS, summary=report.summary,
                    changes=changes, flags=flags, tests=Tests(source="none"))
    return fit_packet(packet), assessed


def _benign(entry: dict, paths: list[str]) -> list[str]:
    globs = entry.get("benign_globs", [])
    return [
        p for p in paths
        if p not in entry["riskiest"]
        and (p in entry["benign"] or any(fnmatch.fnmatchcase(p, g) or fnmatch.fnmatchcase(p.rsplit("/", 1)[-1], g) for g in globs))
    ]


def _detail(rule_name: str, change: FileChange, ctx: RiskContext) -> bool | str | None:
    """What one row of the table finds on one change, alone (its scope, then its check; no precedence)."""
    rule = next(r for r in RULES if r.name == rule_name)
    facts = FileFacts(change)
    return rule.check(facts, ctx) if rule.scope.admits(facts) else None


def _TOKEN_RULE(change: FileChange, ctx: RiskContext) -> bool | str | None:
    return _detail("security_tokens", change, ctx)


def _rule_rates(base: Path, repos: list[str], commits: int, rules: list[str]) -> None:
    """How often each rule fires on ordinary history: the last ``commits`` non-merge commits of each
    mirror, every changed source file, its lines as build_review keeps them."""
    predicates = {rule.name: (lambda c, ctx, name=rule.name: _detail(name, c, ctx)) for rule in RULES if rule.name in rules}
    total = 0
    fired = dict.fromkeys(predicates, 0)
    by_category: dict[str, int] = {}
    for _, _, changes, _, _ in _recent_changes(base, repos, commits):
        for change in changes:
            if file_kind(change.path) != "source":
                continue
            total += 1
            for name, predicate in predicates.items():
                found = predicate(change, RiskContext())
                if found:
                    fired[name] += 1
                    if name == "security_tokens":
                        category = str(found).split(":")[0]
                        by_category[category] = by_category.get(category, 0) + 1
    if not total:
        return
    print(f"on ordinary history ({commits} latest commits of {len(repos)} repositories, {total:,} changed source files):")
    for name, count in fired.items():
        print(f"  rule {name}: fires on {count:,} ({count / total:.0%})")
    if by_category:
        print("  security_tokens by category: " + ", ".join(f"{k} {v}" for k, v in sorted(by_category.items(), key=lambda kv: -kv[1])))


# The rows that read one changed line and name it (issue 36): a commit any of them fires on gets a line finding.
LINE_RULES = ("unsafe_value", "dangerous_call", "removes_guard", "lookalike_dependency", "skips_security_test", "weakens_check", "loosens_check",
              "switches_off", "edits_security_line", "downgrades_dependency", "edit_apart", "loosens_run", "turns_down", "deletes_failure_exit",
              "weakens_edit", "weakens_more")


def _line_rate(base: Path, repos: list[str], commits: int) -> None:
    """How many ordinary commits get a line finding: the last ``commits`` non-merge commits of each mirror,
    every changed file, each line rule under its own scope. Every such commit is a false alarm unless it
    is itself a risky change, so the rate bounds what line reading costs a leader on ordinary work. The edits apart
    from the change (relay.review.apart_edits) are read from each commit's whole patch, without a task; a quote alone
    (``note_apart``, no risk) is counted on its own line."""
    total = fired = quoted = 0
    by_rule: Counter[str] = Counter()
    shown: list[str] = []
    for repo, sha, changes, patch, heads in _recent_changes(base, repos, commits):
        total += 1
        runs = runs_of_patch(patch.encode("utf-8", "surrogateescape"))
        note, worth = apart_and_odd_edits(runs)
        ctx = RiskContext(apart={p: a.quote for p, a in note.items()}, apart_worth={p: a.quote for p, a in worth.items()},
                          looser_runs=looser_runs(runs))
        with reading(changes, None, CODE_EXTS, path_kind, heads):  # a script named without a language, as review reads it
            hits = [(name, c.path, found) for c in changes for name in LINE_RULES if (found := _detail(name, c, ctx))]
            quoted += any(_detail("note_apart", c, ctx) for c in changes)
        if hits:
            fired += 1
            by_rule.update({name for name, _, _ in hits})
            shown.append(f"  {repo}@{sha[:10]} {hits[0][1]}: {str(hits[0][2])[:110]}")
    if total:
        print(f"line findings on ordinary history ({commits} latest commits of {len(repos)} repositories): {fired:,} of {total:,} commits ({fired / total:.1%})")
        print("  by rule: " + ", ".join(f"{k} {v}" for k, v in by_rule.most_common()))
        print(f"  an edit apart quoted (note_apart, no risk): {quoted:,} of {total:,} commits ({quoted / total:.1%})")
        print("\n".join(shown))


def _recent_changes(base: Path, repos: list[str], commits: int) -> Iterator[tuple[str, str, list[FileChange], str, dict[str, str]]]:
    """(repository, commit, its changed files, its -U0 patch, the first line of each changed file named without an
    extension) for the last ``commits`` non-merge commits of each mirror found: ordinary history, what the rate measures
    read (a script named without a language is read as its first line says: relay.review.content_kinds)."""
    for repo in repos:
        mirror = _find_mirror(base, repo)
        if mirror is None:
            continue
        shas = _git(None, "rev-list", "--no-merges", f"--max-count={commits}", "HEAD", git_dir=mirror).decode().split()
        for sha in shas:
            try:
                patch = _git(None, "show", "--format=", "-U0", "--no-renames", "--no-ext-diff", sha, git_dir=mirror)
            except subprocess.CalledProcessError:
                continue
            text = patch.decode("utf-8", "surrogateescape")
            heads = _heads(mirror, sha, text)
            with reading([FileChange(path=p) for p in heads], None, CODE_EXTS, path_kind, heads):
                changes = _changes_from_patch(patch.decode("utf-8", "replace"))
            yield repo, sha, changes, text, heads


def _heads(mirror: Path, sha: str, patch: str) -> dict[str, str]:
    """The first line, at ``sha``, of each file the patch changes whose name names no language (as review reads it)."""
    heads: dict[str, str] = {}
    for line in patch.split("\n"):
        if line.startswith("diff --git ") and head_tells(path := line.split(" b/", 1)[-1], CODE_EXTS):
            try:
                heads[path] = _git(None, "show", f"{sha}:{path}", git_dir=mirror)[:256].split(b"\n", 1)[0].decode("utf-8", "replace")
            except subprocess.CalledProcessError:
                continue  # deleted at sha
    return heads


def _changes_from_patch(patch: str) -> list[FileChange]:
    out: list[FileChange] = []
    cur: FileChange | None = None
    keep = None
    for line in patch.split("\n"):
        if line.startswith("diff --git "):
            path = line.split(" b/", 1)[-1]
            cur = FileChange(path=path)
            keep = line_filter(path)
            out.append(cur)
        elif cur is None or line.startswith(("+++", "---")):
            continue
        elif line.startswith("+"):
            cur.additions += 1
            if keep(line[1:]):  # type: ignore[misc]
                cur.added_lines.append(line[1:])
        elif line.startswith("-"):
            cur.deletions += 1
            if keep(line[1:]):  # type: ignore[misc]
                cur.removed_lines.append(line[1:])
        elif line.startswith("new file"):
            cur.kind = "added"
        elif line.startswith("deleted file"):
            cur.kind = "deleted"
    return out


def _check(base: Path, corpus: list[dict]) -> int:
    """Verify a corpus without observing or ranking anything: every entry's mirror holds its
    base and commit (and the objects a replay would write), and every labelled riskiest or
    benign file is among the files the commit changes (for a planted entry, the planted file counts: the
    replay writes it), and a plant's find text is in the commit's file exactly once. One line per problem,
    then a summary."""
    problems: list[str] = []
    repos: set[str] = set()
    for entry in corpus:
        where = f"{entry.get('repo', '?')}@{entry.get('base', '') + '..' if 'base' in entry else ''}{entry.get('commit', '?')}"
        missing = [k for k in ("repo", "commit", "kind", "riskiest", "benign", "label_from") if k not in entry]
        if missing:
            problems.append(f"{where}: missing field(s) {', '.join(missing)}")
            continue
        mirror = _find_mirror(base, entry["repo"])
        if mirror is None:
            problems.append(f"{where}: no mirror of {entry['repo']} under {base}")
            continue
        repos.add(entry["repo"])
        revs = {}
        for name, rev in (("commit", entry["commit"]), ("base", entry.get("base", entry["commit"] + "^1"))):
            try:
                revs[name] = _git(None, "rev-parse", "--verify", "--quiet", rev + "^{commit}", git_dir=mirror).decode().strip()
            except subprocess.CalledProcessError:
                problems.append(f"{where}: the mirror does not hold {name} {rev}")
        if len(revs) < 2:
            continue
        try:
            raw = _git(None, "diff", "--raw", "-z", "--no-renames", "--no-abbrev", revs["base"], revs["commit"], git_dir=mirror).split(b"\0")
        except subprocess.CalledProcessError as exc:
            problems.append(f"{where}: git diff failed ({exc.stderr.decode(errors='replace').strip()[:120]})")
            continue
        changed: set[str] = set()
        blobs: list[tuple[str, str]] = []
        for meta, path in zip(raw[0:-1:2], raw[1::2]):
            fields = meta.decode().lstrip(":").split(" ")
            changed.add(os.fsdecode(path))
            if fields[4] != "D" and fields[1] != "160000":
                blobs.append((fields[3], os.fsdecode(path)))
        if blobs:
            # A snapshot may list its largest files without holding them: the replay would fail.
            out = subprocess.run(["git", "--git-dir", str(mirror), "cat-file", "--batch-check"], input="\n".join(b for b, _ in blobs).encode(), capture_output=True, env=_env()).stdout.decode()
            absent = [p for (b, p), line in zip(blobs, out.splitlines()) if line.endswith(" missing")]
            if absent:
                problems.append(f"{where}: the mirror lacks the new content of {len(absent)} file(s), e.g. {absent[0]}")
        plant = entry.get("plant")
        if plant:
            # The replay writes the planted file over the post-commit tree (apply_plant), so the reviewed
            # change holds it even when the commit does not change it; its find must be there exactly once.
            try:
                data = _git(None, "cat-file", "blob", f"{revs['commit']}:{plant['file']}", git_dir=mirror)
            except subprocess.CalledProcessError:
                data = None
            if data is None:
                problems.append(f"{where}: the plant's file {plant['file']} is not in the commit's tree")
            elif data.count(plant["find"].encode()) != 1:
                problems.append(f"{where}: the plant's text occurs {data.count(plant['find'].encode())} times in {plant['file']}, not once")
            changed.add(plant["file"])
        for label in ("riskiest", "benign"):
            for path in entry[label]:
                if path not in changed:
                    problems.append(f"{where}: {label} file {path} is not among the {len(changed)} changed files")
        if entry["kind"] == "control" and entry["riskiest"]:
            problems.append(f"{where}: a control names a riskiest file")
    for line in problems:
        print(line)
    print(f"checked {len(corpus)} entries from {len(repos)} mirrored projects: {len(problems)} problem(s)")
    return 1 if problems else 0


SEALED_NAMES = "risk_corpus_sealed*.json"  # any file so named is sealed, whatever its "sealed" flag says
# Sealed sets opened as development data after their one sealed run (bench/LEDGER.md records each run):
# named exactly, so a newer sealed set of a like name stays sealed.
OPENED = {"risk_corpus_sealed_planted.json": "2026-12-02, after its one sealed run (issue 36)"}


def _hit(order: list[str], wanted: list[str], k: int) -> bool:
    return any(path in order[:k] for path in wanted)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", default=os.environ.get("RELAY_RISK_MIRRORS"), help="folder of bare mirrors (or env RELAY_RISK_MIRRORS)")
    parser.add_argument("--corpus", action="append", help="a corpus file (repeatable; default bench/corpora/risk_corpus.json)")
    parser.add_argument("--all", action="store_true", help="every bench/corpora/risk_corpus*.json, then one summary line per set")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per commit")
    parser.add_argument("--check", action="store_true", help="only verify the corpus against the mirrors (commits present, labelled files changed); no observation, no ranking")
    parser.add_argument("--token-rate", type=int, default=0, metavar="N", help="also measure how often the rules fire on the N latest commits of each repository")
    parser.add_argument("--task-rate", type=int, default=0, metavar="N", help="also measure how often a task would name a security fix, on the messages of the N latest commits of each repository")
    parser.add_argument("--rule", action="append", metavar="NAME", help="a rule whose rate --token-rate measures (repeatable; default security_tokens)")
    parser.add_argument("--line-rate", type=int, default=0, metavar="N", help="also measure how many of the N latest commits of each repository get a line finding (issue 36's false alarms)")
    parser.add_argument("--rates-only", action="store_true", help="with --token-rate/--task-rate/--line-rate: only the rates, no replay of the corpus")
    parser.add_argument("--sealed", action="store_true", help="also run the sealed sets (bench/LEDGER.md): their figures only, never a line per commit")
    parser.add_argument("--entries", metavar="FILE", help="also append one JSON line per replayed entry to FILE (bench_planted_sets.py pools and compares them)")
    args = parser.parse_args(argv)
    if not args.mirrors:
        print("no mirrors folder: pass --mirrors DIR or set RELAY_RISK_MIRRORS (see this script's docstring for how to get them)", file=sys.stderr)
        return 2
    known = {rule.name for rule in RULES}
    unknown = [name for name in args.rule or [] if name not in known]
    if unknown:
        print(f"unknown rule {', '.join(unknown)}; one of: {', '.join(sorted(known))}", file=sys.stderr)
        return 2
    base = Path(args.mirrors).expanduser()
    files = [Path(f) for f in args.corpus or []]
    if args.all:
        files += sorted(CORPUS.parent.glob("risk_corpus*.json"), key=lambda f: (len(f.name), f.name))
    files = files or [CORPUS]
    summary: list[str] = []
    status = 0
    repos: set[str] = set()
    for file in files:
        doc = json.loads(file.read_text(encoding="utf-8"))
        corpus = doc["commits"]
        # Sealed by its flag or by its name: a new risk_corpus_sealedN.json whose flag was forgotten
        # must still never be read entry by entry.
        sealed = (bool(doc.get("sealed")) or fnmatch.fnmatch(file.name, SEALED_NAMES)) and file.name not in OPENED
        if sealed and not (args.sealed or args.check):
            # A sealed set is never tuned on: it runs only to report, and only when asked by name of the flag.
            print(f"{file.name} is sealed (bench/LEDGER.md): not run; --sealed runs it to report its figures only", file=sys.stderr)
            if not args.all:
                return 2
            continue
        repos.update(e["repo"] for e in corpus)
        if len(files) > 1:
            print(f"\n== {file.name}" + (" (sealed: figures only)" if sealed else ""))
        if args.check:
            status = max(status, _check(base, corpus))
            continue
        if args.rates_only:
            continue
        record = None
        if args.entries and not sealed:
            record = _entry_writer(Path(args.entries), file.stem.removeprefix("risk_corpus_"))
        line = _bench(base, corpus, verbose=args.verbose and not sealed, record=record)
        if line is None:
            status = 1
        else:
            summary.append(f"{file.stem.removeprefix('risk_corpus_') if file.stem != 'risk_corpus' else 'main':<12} {line}")
    if len(summary) > 1:
        print(f"\n{'set':<12} {'top-3':>13} {'top-8':>13} {'benign high':>13} {'sec. low':>9}")
        print("\n".join(summary))
    if args.token_rate and not args.check:
        _rule_rates(base, sorted(repos), args.token_rate, args.rule or ["security_tokens"])
    if args.task_rate and not args.check:
        _task_rate(base, sorted(repos), args.task_rate)
    if args.line_rate and not args.check:
        _line_rate(base, sorted(repos), args.line_rate)
    return status


def _task_rate(base: Path, repos: list[str], commits: int) -> None:
    """How often ``task_security`` fires on ordinary commit messages, the nearest stand-in for the
    tasks leaders write: each fire makes a run's source edits at least medium."""
    total = fired = 0
    words: dict[str, int] = {}
    for repo in repos:
        mirror = _find_mirror(base, repo)
        if mirror is None:
            continue
        log = _git(None, "log", "--no-merges", f"--max-count={commits}", "--format=%B%x00", "HEAD", git_dir=mirror)
        for message in log.decode("utf-8", "replace").split("\0"):
            if not message.strip():
                continue
            total += 1
            found = task_security(message)[0]
            if found:
                fired += 1
                words[found.lower()] = words.get(found.lower(), 0) + 1
    if total:
        common = sorted(words.items(), key=lambda kv: -kv[1])[:12]
        print(f"task signal on ordinary commit messages ({commits} latest of {len(repos)} repositories): fires on {fired:,} of {total:,} ({fired / total:.1%})")
        print("  most common: " + ", ".join(f"{k} {v}" for k, v in common))


def _entry_writer(path: Path, set_name: str):
    """A function that appends one entry's outcome to ``path`` as a JSON line, tagged with its set."""
    def write(entry: dict, out: dict, benign_high: list[str]) -> None:
        wanted = entry["riskiest"]
        order = out["orders"]["relay"]
        pos = next((i + 1 for i, p in enumerate(order) if p in wanted), None)
        row = {"set": set_name, "repo": entry["repo"], "commit": entry["commit"], "kind": entry["kind"],
               "riskiest": wanted, "pos": pos, "overall": out["overall"], "bytes": out["bytes"],
               "benign_high": benign_high, "top": [[p, out["risk"][p], "; ".join(out["reasons"][p])] for p in order[:3]]}
        if out["planted"] is not None:
            plant = entry["plant"]
            row["plant"] = {"file": plant["file"], "line": plant["line"], "risk": out["risk"].get(plant["file"]),
                            "in_view": out["planted"]["in_view"], "named": out["planted"]["named"],
                            "reason": out["planted"]["reason"], "view_chars": out["planted"]["view_chars"]}
        with path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
    return write


def _bench(base: Path, corpus: list[dict], *, verbose: bool, record=None) -> str | None:
    """Replay one corpus and print its figures; return them as one summary line (None: nothing replayed)."""
    names = ("relay", "biggest", "source_first")
    at3 = dict.fromkeys(names, 0)
    at8 = dict.fromkeys(names, 0)
    labelled = benign_total = benign_high = low_security = replayed = 0
    repos: set[str] = set()
    skipped: list[str] = []
    max_bytes = 0
    token_fires = token_on_riskiest = riskiest_sources = source_files = 0
    benign_sources = token_on_benign = 0
    review_ms: list[float] = []
    review_cpu: list[float] = []
    # The same figures with the task each entry carries (sets from held-out-13 on), and how often the
    # task itself names a security fix: on security entries (wanted) and on the others (false alarms).
    tasked = tasked_labelled = task_at3 = task_at8 = task_low_security = task_benign_high = 0
    task_fired = {"security": [0, 0], "other": [0, 0]}
    # Planted entries (issue 36): the planted line in the default view, named by the reason, the change not low.
    plants = Counter()
    # The same figures per kind of entry (security, control, ci-publish, test-deletion…).
    by_kind: dict[str, Counter[str]] = {}
    tmp = Path(tempfile.mkdtemp(prefix="relay-risk-corpus-"))
    try:
        for entry in corpus:
            mirror = _find_mirror(base, entry["repo"])
            if mirror is None:
                skipped.append(f"{entry['repo']} (no mirror under {base})")
                continue
            try:
                out = _replay(mirror, entry, tmp)
            except subprocess.CalledProcessError as exc:
                # A snapshot may list its largest files without holding them: the commit cannot be replayed whole.
                skipped.append(f"{entry['repo']}@{entry['commit']} (the mirror lacks an object: {' '.join(map(str, exc.cmd[-2:]))})")
                continue
            except PlantError as exc:
                skipped.append(f"{entry['repo']}@{entry['commit']} (the plant cannot be applied: {exc})")
                continue
            if out is None:
                skipped.append(f"{entry['repo']}@{entry['commit']} (commit not in the mirror)")
                continue
            replayed += 1
            repos.add(entry["repo"])
            max_bytes = max(max_bytes, out["bytes"])
            review_ms.append(out["review_ms"])
            review_cpu.append(out["review_cpu_ms"])
            wanted = entry["riskiest"]
            kind = by_kind.setdefault(entry["kind"], Counter())
            kind["entries"] += 1
            source_files += len(out["sources"])
            token_fires += len(out["token_fires"])
            token_on_riskiest += sum(1 for p in out["token_fires"] if p in wanted)
            riskiest_sources += sum(1 for p in out["sources"] if p in wanted)
            marks = []
            if wanted:
                labelled += 1
                kind["labelled"] += 1
                for name in names:
                    h3, h8 = _hit(out["orders"][name], wanted, 3), _hit(out["orders"][name], wanted, 8)
                    at3[name] += h3
                    at8[name] += h8
                    kind[f"{name}@3"] += h3
                    kind[f"{name}@8"] += h8
                    if name == "relay":
                        pos = next((i + 1 for i, p in enumerate(out["orders"]["relay"]) if p in wanted), None)
                        marks.append(f"riskiest at {pos or '-'}")
            if out["planted"] is not None:
                plants["entries"] += 1
                plants["in_view"] += out["planted"]["in_view"]
                plants["named"] += out["planted"]["named"]
                plants["not_low"] += out["overall"] != "low"
                plants["view_max"] = max(plants["view_max"], out["planted"]["view_chars"])
                marks.append("plant: " + ", ".join(
                    [("in view" if out["planted"]["in_view"] else "NOT IN VIEW"), ("named" if out["planted"]["named"] else "NOT NAMED")]
                    + ([] if out["overall"] != "low" else ["overall LOW"])))
            if entry["kind"] == "security" and out["overall"] == "low":
                low_security += 1
                kind["low"] += 1
                marks.append("overall LOW")
            benign = _benign(entry, list(out["risk"]))
            benign_sources += sum(1 for p in benign if p in out["sources"])
            token_on_benign += sum(1 for p in benign if p in out["token_fires"])
            bad = [p for p in benign if out["risk"][p] == "high"]
            benign_total += len(benign)
            benign_high += len(bad)
            kind["benign"] += len(benign)
            kind["benign high"] += len(bad)
            if bad:
                marks.append("benign high: " + ", ".join(f"{p} ({'; '.join(out['reasons'][p])})" for p in bad))
            task = out["with_task"]
            if task is not None:
                tasked += 1
                pool = task_fired["security" if entry["kind"] == "security" else "other"]
                pool[0] += task["security"]
                pool[1] += 1
                if wanted:
                    tasked_labelled += 1
                    task_at3 += _hit(task["order"], wanted, 3)
                    task_at8 += _hit(task["order"], wanted, 8)
                    kind["tasked"] += 1
                    kind["task@3"] += _hit(task["order"], wanted, 3)
                    kind["task@8"] += _hit(task["order"], wanted, 8)
                    pos = next((i + 1 for i, p in enumerate(task["order"]) if p in wanted), None)
                    marks.append(f"with task: at {pos or '-'}")
                max_bytes = max(max_bytes, task["bytes"])
                if entry["kind"] == "security" and task["overall"] == "low":
                    task_low_security += 1
                    kind["task low"] += 1
                    marks.append("with task: overall LOW")
                task_bad = [p for p in benign if task["risk"][p] == "high"]
                task_benign_high += len(task_bad)
                if task_bad:
                    marks.append("with task: benign high: " + ", ".join(f"{p} ({'; '.join(task['reasons'][p])})" for p in task_bad))
            if record is not None:
                record(entry, out, bad)
            if verbose:
                print(f"{entry['repo']}@{entry.get('base', '') + '..' if 'base' in entry else ''}{entry['commit']} [{entry['kind']}] {out['files']} files, {out['overall']}, {out['bytes']} B: " + "; ".join(marks), flush=True)
                for p in out["orders"]["relay"][:3]:
                    print(f"      {out['risk'][p]:6} {p}: {'; '.join(out['reasons'][p])}")
                if out["planted"] is not None:
                    plant = entry["plant"]
                    print(f"      plant [{plant['risk']}] {plant['file']} ({out['risk'].get(plant['file'], '?')}): {out['planted']['reason']}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for line in dict.fromkeys(skipped):  # once per missing repository
        print(f"skipped: {line}", file=sys.stderr)
    if not replayed:
        print("nothing replayed", file=sys.stderr)
        return None
    print(f"\n{replayed} commits from {len(repos)} projects replayed; {labelled} with a labelled riskiest file")
    print(f"{'order':<34} {'recall@3':>10} {'recall@8':>10}")
    share = max(labelled, 1)  # a set of controls alone labels no riskiest file
    titles = {"relay": "relay (packet targets)", "biggest": "naive: biggest change first", "source_first": "naive: source before tests/docs"}
    for name in names:
        print(f"{titles[name]:<34} {at3[name]:>4}/{labelled:<3} {at3[name] / share:>4.0%} {at8[name]:>4}/{labelled:<3} {at8[name] / share:>4.0%}")
    print(f"benign files called high: {benign_high} of {benign_total}")
    print(f"security commits with overall risk low: {low_security}")
    planted = ""
    if plants["entries"]:
        n = plants["entries"]
        print(f"\nplanted lines ({n} entries; the planted file is the labelled riskiest):")
        print(f"  planted line in top 3: relay {at3['relay']}/{labelled}, naive biggest {at3['biggest']}/{labelled}, naive source-first {at3['source_first']}/{labelled}")
        print(f"  planted line in top 8: relay {at8['relay']}/{labelled}, naive biggest {at8['biggest']}/{labelled}, naive source-first {at8['source_first']}/{labelled}")
        print(f"  planted line in the default diff view: {plants['in_view']}/{n} ({plants['in_view'] / n:.0%}); the view at most {plants['view_max']:,} characters")
        print(f"  named by the planted file's reason: {plants['named']}/{n} ({plants['named'] / n:.0%})")
        print(f"  overall risk not low: {plants['not_low']}/{n} (low: {n - plants['not_low']})")
        planted = f"   plants: view {plants['in_view']}/{n} named {plants['named']}/{n} low {n - plants['not_low']}"
    if token_fires:
        print(
            f"token rule: fires on {token_fires} of {source_files} changed source files; {token_on_riskiest} of them are a labelled riskiest file"
            f" (precision {token_on_riskiest / token_fires:.0%}); it fires on {token_on_riskiest} of {riskiest_sources} labelled riskiest source files"
        )
    if benign_sources or token_fires:
        print(f"token rule on labelled-benign source files (mechanical controls): fires on {token_on_benign} of {benign_sources}")
    with_task = ""
    if tasked:
        print(f"\nwith the leader's task ({tasked} entries carry one; see 'task_from' for where each came from):")
        share_t = max(tasked_labelled, 1)
        print(f"{'relay (packet targets), with task':<34} {task_at3:>4}/{tasked_labelled:<3} {task_at3 / share_t:>4.0%} {task_at8:>4}/{tasked_labelled:<3} {task_at8 / share_t:>4.0%}")
        print(f"benign files called high: {task_benign_high}; security commits with overall risk low: {task_low_security}")
        sec, other = task_fired["security"], task_fired["other"]
        print(f"the task names a security fix: {sec[0]} of {sec[1]} security entries, {other[0]} of {other[1]} others")
        with_task = (f"   with task: {task_at3:>3}/{tasked_labelled:<3} {task_at8:>3}/{tasked_labelled:<3}"
                     f" {task_benign_high:>3} high {task_low_security:>3} low")
    if len(by_kind) > 1 or any(k not in ("security", "control") for k in by_kind):
        _print_kinds(by_kind)
    review_ms.sort()
    review_cpu.sort()
    print(f"packet: at most {max_bytes:,} B; build_review median {review_ms[len(review_ms) // 2]:.1f} ms, max {review_ms[-1]:.1f} ms;"
          f" CPU median {review_cpu[len(review_cpu) // 2]:.1f} ms, total {sum(review_cpu):,.0f} ms")
    return (f"{at3['relay']:>4}/{labelled:<3} {at3['relay'] / share:>4.0%} {at8['relay']:>4}/{labelled:<3} {at8['relay'] / share:>4.0%}"
            f" {benign_high:>6}/{benign_total:<6} {low_security:>9}{with_task}{planted}")



def _print_kinds(by_kind: dict[str, Counter[str]]) -> None:
    """One line per kind of entry: the set's figures for the entries of that kind alone."""
    print(f"\nby kind: {'kind':<16} {'n':>3} {'top-3':>9} {'top-8':>9} {'benign high':>12} {'sec. low':>8} {'naive top-3 (biggest / source-first)':>38} {'with task top-3 / top-8':>24}")
    for name, k in sorted(by_kind.items()):
        n = k["labelled"]
        task = f"{k['task@3']}/{k['tasked']} / {k['task@8']}/{k['tasked']}" if k["tasked"] else "-"
        low = f"{k['low']}" + (f" / {k['task low']}" if k["tasked"] else "") if name == "security" else "-"
        print(f"         {name:<16} {k['entries']:>3} {k['relay@3']:>4}/{n:<4} {k['relay@8']:>4}/{n:<4} {k['benign high']:>5}/{k['benign']:<6}"
              f" {low:>8} {k['biggest@3']:>17}/{n:<3} / {k['source_first@3']:>3}/{n:<10} {task:>24}")


if __name__ == "__main__":
    raise SystemExit(main())
