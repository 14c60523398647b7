"""The doors' rules (issue 38, §1), read from the source as tests/test_layout.py reads the import graph.

The core answers with one typed value (``Packet | Running | View | AwaitingPerson``, relay/doors/tools.py's
``ToolAnswer``) that becomes text once, at the edge. So no door decodes an answer's text back into a dict to
decide something, no door builds or edits a packet as a dict, and no door looks a profile up to decide who
may confirm (the gate decided it, and the answer carries it): relay/doors reads profiles only to describe
them (doctor, the instructions).
"""

from __future__ import annotations

import ast
from pathlib import Path

DOORS = Path(__file__).resolve().parent.parent / "relay" / "doors"

# Decoding JSON text: msgspec.json.decode / Decoder, json.loads / json.load.
_DECODERS = {("msgspec", "json", "decode"), ("msgspec", "json", "Decoder"), ("json", "loads"), ("json", "load"),
             ("msgspec", "msgpack", "decode")}

# What a door may decode, by (module, function), and why it is not an answer of the relay's own.
DECODES_ALLOWED = {
    ("cli.py", "_cmd_delegate"): "`--arg KEY=VALUE`: a value the user typed, read as JSON when it is JSON",
    ("cli_wait.py", "_child"): "the call the parent hands its child relay on stdin (a request, not an answer)",
    ("cli_wait.py", "_running_id"): "the child relay's answer, across a process boundary: there it is only text",
    ("mcp_server.py", "_reply_to_undecodable"): "a request line the SDK could not parse (a request, not an answer)",
    ("http_server.py", "_cancel_requests"): "an HTTP request body (a request, not an answer)",
}
# A decode straight into a Struct of the door's own (``type=HttpRelayState``: a state file) is a typed read;
# into these it would be an answer read back.
_ANSWER_TYPES = {"Packet", "Running", "View", "ErrorInfo", "Preview", "dict"}

# A packet's own keys: a dict holding "preview", or "ok" beside "status", is a packet built by hand (the doctor's
# JSON has an "ok" of its own, beside "counts"); writing or dropping one of these edits a packet as a dict.
_PACKET_KEYS = {"ok", "preview"}


# The doors that describe profiles (and may read them): the doctor and the instructions.
PROFILE_READERS = {"doctor.py", "doctor_check.py", "doctor_clients.py", "guide.py"}


def _dotted(node: ast.AST) -> tuple[str, ...]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return tuple(reversed(parts))


def _functions(tree: ast.Module):
    """(the innermost function's name or "<module>", node) for every node."""
    def walk(node: ast.AST, name: str):
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else name
            yield inner, child
            yield from walk(child, inner)
    yield from walk(tree, "<module>")


def _doors():
    for path in sorted(DOORS.glob("*.py")):
        yield path.name, ast.parse(path.read_text(encoding="utf-8"))


def _typed_read(call: ast.Call) -> bool:
    """A decode into a Struct of the door's own (``type=HttpRelayState``), not into an answer's type."""
    kinds = [k.value for k in call.keywords if k.arg == "type"]
    return bool(kinds) and all(isinstance(k, ast.Name) and k.id not in _ANSWER_TYPES for k in kinds)


def _decodes(name: str, tree: ast.Module) -> list[str]:
    return [f"{name}:{node.lineno} {func}() calls {'.'.join(_dotted(node.func))}"
            for func, node in _functions(tree)
            if isinstance(node, ast.Call) and _dotted(node.func) in _DECODERS and not _typed_read(node)
            and (name, func) not in DECODES_ALLOWED]


def _constant_keys(nodes) -> set:
    return {k.value for k in nodes if isinstance(k, ast.Constant)}


def _packet_dicts(name: str, tree: ast.Module) -> list[str]:
    found = []
    for func, node in _functions(tree):
        hit: set = set()
        if isinstance(node, ast.Dict):
            keys = _constant_keys(k for k in node.keys if k is not None)
            hit = keys & {"preview"} | (keys & {"ok"} if "status" in keys else set())
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            hit = _constant_keys([node.slice]) & _PACKET_KEYS
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "pop":
            hit = _constant_keys(node.args[:1]) & _PACKET_KEYS
        if hit:
            found.append(f"{name}:{node.lineno} {func}() writes a packet's {sorted(hit)[0]!r} by hand")
    return found


def _profile_reads(name: str, tree: ast.Module) -> list[str]:
    if name in PROFILE_READERS:
        return []
    return [f"{name}:{node.lineno} {func}() reads .{node.attr}" for func, node in _functions(tree)
            if isinstance(node, ast.Attribute) and node.attr in ("profiles", "confirm_trusted")]


def test_no_door_decodes_an_answers_text():
    found = [line for name, tree in _doors() for line in _decodes(name, tree)]
    assert found == [], "a door decodes text back into a dict (carry the typed answer instead):\n" + "\n".join(found)


def test_no_door_builds_or_edits_a_packet_as_a_dict():
    found = [line for name, tree in _doors() for line in _packet_dicts(name, tree)]
    assert found == [], "a door builds a packet by hand (finish() builds every packet):\n" + "\n".join(found)


def test_doors_read_profiles_only_to_describe_them():
    found = [line for name, tree in _doors() for line in _profile_reads(name, tree)]
    assert found == [], ("a door looks a profile up to decide something (the gate decided it at intake; the answer "
                         "carries who confirms):\n" + "\n".join(found))


def test_the_allowed_decodes_still_exist():
    # An allowance left behind after its decode went would let a new one in under its name.
    present = {(name, func) for name, tree in _doors() for func, node in _functions(tree)
               if isinstance(node, ast.Call) and _dotted(node.func) in _DECODERS}
    assert set(DECODES_ALLOWED) <= present, sorted(set(DECODES_ALLOWED) - present)


def test_the_rules_find_what_they_forbid(tmp_path):
    # The checks themselves, on a door written the old way (issue 38's quotes of person_confirm.py, mcp_server.py).
    old = ast.parse(
        "import msgspec\n"
        "def preview_for_person(answer, settings):\n"
        "    obj = msgspec.json.decode(answer.text)\n"
        "    profile = settings.profiles.get(obj['preview']['policy']['profile'])\n"
        "    return profile.confirm_trusted\n"
        "def _nothing_ran(obj):\n"
        "    obj.pop('preview', None)\n"
        "    obj['ok'] = False\n"
        "    return {'ok': False, 'status': 'X'}\n")
    assert len(_decodes("person_confirm.py", old)) == 1
    assert len(_profile_reads("person_confirm.py", old)) == 2
    assert len(_packet_dicts("person_confirm.py", old)) == 3
