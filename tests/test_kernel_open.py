"""Ruby's Kernel#open (and IO.read) runs a command when the name starts with "|": a file opened through File, URI or
Pathname made a bare ``open(name)`` is a command injection wherever the name comes from outside (haml's CLI, held-out
51: ``File.read(file)`` → ``open(file, &:read)``, read as an ordinary edit). Paired by the name opened.
Quiet: a literal name, File kept, another language, a test, another name."""

from __future__ import annotations

import pytest

from line_changes import fc, review

_SAID = "through Kernel#open"


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("lib/tool/cli.rb", ["      open(file, &:read)"], ["      File.read(file)"]),
        ("lib/fetch.rb", ["    Kernel.open(path) { |f| f.read }"], ["    File.open(path) { |f| f.read }"]),
        ("lib/fetch.rb", ["    body = open(url).read"], ["    body = URI.open(url).read"]),
        ("Rakefile", ["  IO.read(name)"], ["  File.read(name)"]),
    ],
)
def test_a_file_open_made_kernel_open_is_named_high(path: str, added: list[str], removed: list[str]) -> None:
    change = review(fc(path, added, removed))
    assert change.risk == "high" and any(_SAID in r for r in change.reasons), change.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("lib/conf.rb", ['    open("config.yml")'], ['    File.open("config.yml")']),
        ("lib/conf.rb", ['    File.open(path, "w") { |f| f.write(x) }'], ["    File.open(path) { |f| f.write(x) }"]),
        ("lib/conf.py", ["    open(path)"], ["    Path(path).open()"]),
        ("test/cli_test.rb", ["      open(file, &:read)"], ["      File.read(file)"]),
        ("lib/conf.rb", ["    open(other)"], ["    File.read(file)"]),
    ],
)
def test_a_literal_name_file_kept_or_another_place_stays_quiet(path: str, added: list[str], removed: list[str]) -> None:
    change = review(fc(path, added, removed))
    assert not [r for r in change.reasons if _SAID in r], change.reasons
