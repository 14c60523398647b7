"""The ranking page of the docs (English and Chinese), written from the rule table itself.

``render`` writes the page from ``relay.review.rules.RULES`` and ``relay.review.facts.FACTS``;
``tests/test_ranking_doc.py`` fails when ``docs/ranking.md`` or ``docs/zh/ranking.md`` differs from it
(and rewrites both with ``GRAVITY_RELAY_UPDATE_SNAPSHOTS=1``), so the page never describes rules the
code does not have. ``python -m relay.review.ranking_doc [en|zh]`` prints a page.
"""

from __future__ import annotations

import sys

from relay.core.shown import harmless
from relay.review.facts import FACTS
from relay.review.rules import RULES, Rule, Scope

__all__ = ["LANGUAGES", "render", "main"]

_TEXT = {
    "en": {
        "title": "# How the review packet ranks changed files",
        "generated": "Generated from the rule table (`relay/review/rules.py`); `tests/test_ranking_doc.py` fails when this "
                     "page and the table differ. Do not edit by hand: after changing the table, run "
                     "`GRAVITY_RELAY_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_ranking_doc.py`.",
        "how": """## How a file's risk is decided

1. **Facts, once.** Each changed file's facts are worked out once (`relay/review/facts.py`): its kind from
   its path (source, test, docs, CI, manifest, build, lockfile, data, example, generated), its size and
   hunks, and the facts below. What only the whole change shows (a security regression test or changelog
   note beside the file, dependencies moved between manifests) and what the call says (the leader's task,
   its paths, the worker's report, what was seen outside git's view) come with the change.
2. **Rules, as rows.** Each row of the table below applies only where its scope says; inside it, its check
   looks for one thing. A row that fires decides a risk (or, for a note, only a reason) and gives a reason.
3. **Precedence, in one place.** A row that fires silences the rows it outranks on the same file. The
   file's risk is the highest left (`low` when none); its reasons are theirs, notes first, then highest risk
   first, in table order, at most three; a reason that reads a changed line (a line row, an edit judged by its
   direction) comes before one from words, a path, a kind or a size, whatever their risks. A file no row flagged says
   what kind of edit it is.
4. **The review order** reads only those decisions: risk, then how strongly the file's own findings set it apart
   (`relay.review.lead_order`: a dangerous line named, or the change's purpose named, first; then a line read
   generically by its shape; then a changed line quoted (an edited check, the leading line, a line added apart; not
   on a low file); then words, a path or a kind; then size alone; a line reading the commit says alike of several
   files, word for word of two or by one generic finding's opening of three, is its own pattern and counts one step
   less, and such a file comes after the others of its step), then a file a *leading* row fired on,
   then the file's kind (source first, docs last), then size; past two files of one kind flagged by the same row,
   the rest of them come after the other files (their risk stays). A file a changed line read as risky sets apart
   (worth a look, or high for words beside it), or whose edited pair apart from the change `edit_apart` judged worth
   a look, ranks with the high files and before those of its kind high only for words, a path or size.
5. **One risky line decides.** The rows `unsafe_value`, `dangerous_call`, `removes_guard` read each changed line
   alone, wherever the file lives (examples, docs code, CI, build files; not tests, generated output, lockfiles or
   release notes): a security value turned the unsafe way, a call that runs text as code or commands, a guard
   deleted or inverted (a refusal under a check that passed, a deny-by-default answer turned to yes, a protection
   middleware taken out); `lookalike_dependency` reads go.mod's `replace` too, and an install command of any ecosystem (`npm install`, `pip install`, `cargo add`, `go get`, `dotnet add package`…) in a page's sample, a script or a CI step. A vendor's credential (`relay/core/redact.py`'s
   shapes: `npm_…`, `glpat-…`, `AKIA…`) is `unsafe_value`'s in docs prose and comments too, quoted masked. The reason quotes the line; the row leads; the packet names that line's range first in
   the file's `lines`, and the review read (`detail="diff"`) shows its hunk first.
6. **A manifest names its one line.** `downgrades_dependency` names, besides a version moved down (in the file, or below
   the version a dependency had where another manifest of the change removed it; a Maven `<version>` on its own line),
   the one line of a manifest, build or package-source file that changes where code comes from or how it is checked
   (`relay/review/manifest_lines.py`): another package index or registry (`extra-index-url`, `[[tool.uv.index]]`, an
   `.npmrc` registry, a Gradle `maven { url }`, a NuGet source, a Gemfile `source`), a source taken from a moving git
   branch (`:branch =>`, `branch =`, `.branch(...)`), a flag that turns compiler or runtime safety checks off
   (`-Ounchecked`, `unsafeFlags`, `-fno-stack-protector`, `overflow-checks = false`, `-gcflags=-B`), a dependency the
   removed side pinned now taking any version (`"*"`, `"latest"`, a Gradle `:+`), a debug agent listening on every host
   (`jdwp` on `*:5005`, `--inspect=0.0.0.0`), a version a build file keeps under a key moved down (a Gradle `ext` map's
   `log4j2Version`, a catalogue's `[versions]`, a Maven or MSBuild property, a `PackageReference` in any `.props`, a
   Dockerfile `ARG`, SwiftPM's `from:`; not the project's own version or a toolchain's level), packages taken from the
   machine's own repository (`mavenLocal()`, `RepositoriesMode.PREFER_PROJECT`, NuGet's `<clear />` dropped), and a docs
   page's new install line that turns package checks off (`GOINSECURE=`, `--trusted-host`: high only where it edits a
   line that stood without it). Its reason comes before "adds a dependency" and "dependency manifest"; it
   is medium and raises no file. A CI step or a program that sends the whole environment or every secret to a host
   (`env | curl`, `${{ toJSON(secrets) }}`, `JSON.stringify(process.env)` posted) is `unsafe_value`'s; a CI script line
   that pastes a `${{ … }}` expression where a shell variable passed the value is `dangerous_call`'s (script
   injection). Among a file's high line reasons a lifted size or rate limit comes after the others, and the review read
   shows first the hunk its first quoting reason quotes; the packet's `lines` names that hunk's range first.
7. **A change otherwise low names its turned line.** Asked after every file is read (`relay/review/low_change_floor.py`):
   when no file is above low for what one of its changed lines says (a file above low only for what it is — a manifest,
   a lockfile, a CI or build file — does not count), a low source or example file whose reasons quote a code line it
   turned, or an edit apart from the rest of the change, is medium (`low_change_quote`, `low_change_apart`), the quote its
   reason. A turned line is any pair turned in place that changes a value, an operator or a pattern's character, or
   that puts a literal into a list of literals or takes one out, however little the line tells alone; a version, a
   copyright year, a sentence, values turned all over one file, and a line whose name the leader's task names (the work
   it asked for) stay quiet. A docs page's code sample is what its readers copy: a sample's line turned in place — a
   value, a literal's text, an argument put in, taken out or made another — makes that page medium the same way; a
   rename the page follows, a comment for the reader, a sample or a page rewritten and release notes stay quiet.
   In such a change, a low source file (not a test, an example or docs; not a mechanical, typing-only or version edit)
   that adds more deciding lines than it removes — a condition, a comparison, `&&`/`||`, a ternary, strings aside — is
   medium too (`new_logic`, `relay/review/new_logic.py`), its most telling such line quoted: no reader can tell a slip
   written into the commit's own new code from the code, and new decisions in what ships are not a change to skip. It
   ranks with size alone, after a turned line the floor quoted and after a kind; Go's `if err != nil`, a bare `else` and a line
   the change also removes (moved) decide nothing new.""",
        "facts": "## Facts a scope can name",
        "fact_head": "| fact | meaning |\n| --- | --- |",
        "rules": "## The rules, in table order",
        "rule_head": "| rule | decides | reason | applies to | outranks | example (fires on → reason) |\n| --- | --- | --- | --- | --- | --- |",
        "note": "note", "any": "any file", "leads": "; leads",
        "kinds": "{} files", "not_kinds": "not {}", "changes": "{} only", "not_changes": "not {}",
        "needs": "{}", "unless": "not {}",
    },
    "zh": {
        "title": "# 审查包如何为变更文件排序",
        "generated": "本页由规则表（`relay/review/rules.py`）生成；本页与规则表不一致时 `tests/test_ranking_doc.py` 会失败。"
                     "请勿手工编辑：修改规则表后执行 `GRAVITY_RELAY_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_ranking_doc.py`。",
        "how": """## 文件的风险如何判定

1. **事实只算一次。** 每个变更文件的事实只计算一次（`relay/review/facts.py`）：由路径得出的类别（源码、测试、文档、
   CI、清单、构建、锁文件、数据、示例、生成物）、大小与变更块，以及下表中的各项事实。只有整个变更才能看出的信息
   （文件旁的安全回归测试或变更日志中的安全说明、在清单之间移动的依赖）以及调用本身提供的信息（领导者的任务、
   其路径、执行者的报告、在 git 视野之外看到的内容）随变更一并给出。
2. **规则即表中的行。** 下表每一行只在其适用范围内生效；在范围内，其检查只寻找一件事。命中的行决定一个风险等级
   （"说明"类行只给出理由，不决定风险），并给出一条理由。
3. **优先级集中在一处。** 命中的行会使它所压制（outranks）的行在同一文件上不再生效。文件的风险取剩余命中行中的
   最高者（无命中时为 `low`）；理由取这些行的理由，说明在前，其后按风险从高到低、按表中顺序，最多三条；读取某一改动行的理由
   （行规则、按方向判断的编辑）无论风险高低，都排在出自字眼、路径、文件种类或大小的理由之前。
   没有任何行命中的文件会说明它是哪种编辑。
4. **审查顺序**只读取这些判定：先按风险，再按文件自身发现的强弱（`relay.review.lead_order`：点名的危险行或点名的
   改动目的最先，其次是按形状泛化读取的一行，再次是被引用的变更行（改动的检查、领先行、与变更无关而加入的行；low 文件除外），
   再次是词语、路径或文件类别，最后是仅凭大小；本次提交对多个文件说得一样的行解读——两个文件逐字相同，或三个文件同一泛化发现的开头——
   是提交自身的模式，降一级计，且排在同级其他文件之后），再把"领先"（leads）行
   命中的文件排前，再按文件类别（源码在前，文档在后），再按大小；同一类别中被同一行标记的文件超过两个时，其余的排到其他文件之后（风险不变）。被读作有风险的变更行
   标出的文件（值得一看，或因词语而为 high），以及 `edit_apart` 判定值得一看的、与本次变更无关的成对编辑所在的文件，
   与 high 文件同列，并排在同类中仅因词语、路径或大小而为 high 的文件之前。
5. **一行有风险即可定论。** `unsafe_value`、`dangerous_call`、`removes_guard` 三行逐条读取每一条变更行，无论文件位于何处
   （示例、文档中的代码、CI、构建文件；测试、生成物、锁文件与发布说明除外）：把安全相关的取值改向不安全的一侧、
   把文本当作代码或命令运行的调用、删除或反转的防护检查（检查通过时反而拒绝、默认拒绝改为默认放行、移除防护中间件）；
   `lookalike_dependency` 也读取 go.mod 的 `replace`，以及页面示例、脚本或 CI 步骤中任何生态的安装命令（`npm install`、`pip install`、`cargo add`、`go get`、`dotnet add package`……）。厂商凭据（`relay/core/redact.py` 中的形状：`npm_…`、`glpat-…`、`AKIA…`）
   在文档正文与注释中同样由 `unsafe_value` 点名，引用时遮盖。理由会引用这一行；该行领先；审查包在文件的 `lines`
   中首先列出这一行所在的范围，审查阅读（`detail="diff"`）也首先显示它所在的变更块。
6. **清单只点名它的那一行。** `downgrades_dependency` 除了点名被调低的版本（在同一文件中，或低于本次改动从另一个清单中
   删除该依赖时它所用的版本；单独成行的 Maven `<version>`），也点名清单、构建或包源文件中改变代码来源或检查方式的那一行
   （`relay/review/manifest_lines.py`）：另一个包索引或仓库（`extra-index-url`、`[[tool.uv.index]]`、`.npmrc` 的 registry、
   Gradle 的 `maven { url }`、NuGet 源、Gemfile 的 `source`）、取自会移动的 git 分支的源（`:branch =>`、`branch =`、
   `.branch(...)`）、关闭编译器或运行时安全检查的开关（`-Ounchecked`、`unsafeFlags`、`-fno-stack-protector`、
   `overflow-checks = false`、`-gcflags=-B`）、删除一侧固定了版本、现在接受任意版本的依赖（`"*"`、`"latest"`、Gradle 的
   `:+`）、监听所有主机的调试代理（`*:5005` 上的 `jdwp`、`--inspect=0.0.0.0`）、构建文件按键保存的版本被调低（Gradle `ext`
   映射中的 `log4j2Version`、版本目录的 `[versions]`、Maven 或 MSBuild 属性、任意 `.props` 中的 `PackageReference`、
   Dockerfile 的 `ARG`、SwiftPM 的 `from:`；项目自身的版本和工具链级别不算）、从本机仓库取包（`mavenLocal()`、
   `RepositoriesMode.PREFER_PROJECT`、去掉 NuGet 的 `<clear />`），以及文档页中关闭包校验的新安装命令（`GOINSECURE=`、
   `--trusted-host`：只有改写了原本不带它的那一行时才是 high）。它的理由排在“adds a dependency”和
   “dependency manifest”之前；它是 medium，不会抬高任何文件的风险。把整个环境变量或全部密钥发往某个主机的 CI 步骤或程序
   （`env | curl`、`${{ toJSON(secrets) }}`、POST 出去的 `JSON.stringify(process.env)`）由 `unsafe_value` 点名；原先经
   shell 变量传值、现在直接粘贴 `${{ … }}` 表达式的 CI 脚本行由 `dangerous_call` 点名（脚本注入）。在一个文件的 high
   行理由中，解除大小或速率限制的理由排在其他理由之后；审查阅读首先显示第一个引用行的理由所引用的变更块，审查包的 `lines` 也最先列出该变更块的范围。
7. **其余都是低风险的改动，点名它转向的那一行。** 在读完所有文件之后判定（`relay/review/low_change_floor.py`）：当没有
   任何文件因其某一变更行所说的内容而高于低风险时（只因其本身是什么——清单、锁文件、CI 或构建文件——而高于低风险的
   文件不算），理由中引用了一行被转向的代码、或一处与其余改动无关的编辑的低风险源码或示例文件，判为 medium
   （`low_change_quote`、`low_change_apart`），以该引用为理由。被转向的行指原地改动、改变了一个值、一个运算符或模式中
   一个字符的一对行，或在字面量列表中加入或拿掉一个字面量的行，不论该行单独说明了多少；版本号、版权年份、句子、
   同一文件里到处都改了的数值，以及领导者任务中点名的名字所在的行（即它要求的工作）保持安静。文档页中的代码示例是读者
   照抄的内容：示例中的一行被原地转向——一个值、一个字面量的文字、一个参数被加入、拿掉或换成另一个——同样使该页
   判为 medium；文档随重命名而改名、给读者的注释、整段示例或整页重写，以及发布说明保持安静。
   在这样的变更中，新增的判断行多于删除的判断行（条件、比较、`&&`/`||`、三元表达式，字符串不计）的低风险源码文件（不含
   测试、示例、文档；不含机械改动、只改类型或只改版本的编辑）同样判为 medium（`new_logic`，`relay/review/new_logic.py`），
   引用其中最说明问题的一行：写进提交自身新代码里的失误，任何读取器都无法与代码本身区分，而所交付代码中的新判断不是可以
   跳过的改动。它与只凭大小的理由同级排序，排在地板规则所引用的被转向行和类别理由之后；Go 的 `if err != nil`、单独的 `else`
   以及变更同时删除的行（被移动）不算新的判断。""",
        "facts": "## 适用范围可引用的事实",
        "fact_head": "| 事实 | 含义 |\n| --- | --- |",
        "rules": "## 规则（按表中顺序）",
        "rule_head": "| 规则 | 判定 | 理由 | 适用于 | 压制 | 示例（命中 → 理由） |\n| --- | --- | --- | --- | --- | --- |",
        "note": "说明", "any": "任何文件", "leads": "；领先",
        "kinds": "{} 类文件", "not_kinds": "非 {}", "changes": "仅 {}", "not_changes": "非 {}",
        "needs": "{}", "unless": "非 {}",
    },
}

LANGUAGES = tuple(_TEXT)

# The facts' meanings in Chinese (the English ones are relay.review.facts.FACTS).
_FACTS_ZH = {
    "is_code": "文件扩展名属于某种编程语言",
    "content_changed": "有行被增删（不只是改名或权限位）",
    "mechanical": "读过的每一条变更行都显示无需审查：仅注释、文档字符串、重排、重新格式化、纯改名",
    "reformatted": "每一条变更行（压缩空白后）都在另一侧再次出现；或变更过大无法保留每一行时，保留下来的行两侧读起来相同（格式化工具的结果）",
    "formatter_run": "几乎每一条变更行（压缩空白后）都在另一侧再次出现",
    "only_version": "每条变更行都是发布版本号字符串",
    "version_bump": "清单文件中唯一的修改是项目自身的版本号",
    "oversized": "变更行数达到 2,000 行或以上，且不是格式化工具的结果",
    "skips_added": "新增了此前没有的跳过或聚焦标记",
    "adds_case": "新文件，或测试用例比之前多",
    "release_notes": "变更日志、新闻条目或发布说明：只讲述改了什么，不运行任何东西",
    "generated_output": "生成或压缩的输出（第三方源码除外：其代码行会被逐行阅读）",
    "test_body": "测试自身的代码与夹具（放在测试目录中的脚本或 CI 辅助程序除外：它们会被运行，其代码行会被逐行阅读）",
    "same_meaning": "读到的每一条变更行都不改变代码的行为：只增删类型注解，或名字一一对应地替换",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    # A backtick span that may itself hold backticks.
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{_cell(text)}{pad}{fence}"


def _scope(scope: Scope, words: dict[str, str]) -> str:
    parts: list[str] = []
    for field in ("kinds", "not_kinds", "changes", "not_changes", "needs", "unless"):
        values = getattr(scope, field)
        if values:
            parts.append(words[field].format(", ".join(f"`{v}`" for v in values)))
    return "; ".join(parts) or words["any"]


def _example(rule: Rule) -> str:
    change = rule.example.fires
    shown = harmless(next(iter(change.added_lines or change.removed_lines), ""))  # a page holds no bidi control
    what = f"{_code(change.path)} ({change.kind})" + (f": {_code(shown[:60])}" if shown else "")
    return f"{what} → {_code(rule.example.reason)}"


def render(lang: str) -> str:
    words = _TEXT[lang]
    facts = FACTS if lang == "en" else _FACTS_ZH
    out = [words["title"], "", words["generated"], "", words["how"], "", words["facts"], "", words["fact_head"]]
    out += [f"| `{name}` | {_cell(facts[name])} |" for name in FACTS]
    out += ["", words["rules"], "", words["rule_head"]]
    for rule in RULES:
        decides = (rule.risk or words["note"]) + (words["leads"] if rule.leads else "")
        outranks = ", ".join(f"`{name}`" for name in rule.outranks)
        out.append(f"| `{rule.name}` | {decides} | {_code(rule.reason)} | {_scope(rule.scope, words)} | {outranks} | {_example(rule)} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the page in the language asked for (English by default)."""
    args = argv if argv is not None else sys.argv[1:]
    lang = args[0] if args else "en"
    if lang not in _TEXT:
        print(f"unknown language {lang!r}: use one of {', '.join(_TEXT)}", file=sys.stderr)
        return 2
    sys.stdout.write(render(lang))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
