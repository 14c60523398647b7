"""Issue 36, round 25 (part A): a check that code the change itself adds writes so it cannot decide, read from the
added lines alone (relay.review.alone_lines).

Held-out 29-32 left six plants inside lines their commit adds, where no old line pairs with the new one: an
``OrCompose`` hook that collects every failure and then returns the raw input with a nil error, an ``ErrorAs``
whose ``errors.As`` result sits in an ``if``'s init with ``; false``, a ``!isError && panicErr.Error() != …``
joined the wrong way, a score band ``< 1e7`` written after ``< 1e8``, and two ``dispatch`` clauses alike whose
``from`` is never read. Each class is tried here in languages the misses are not written in; the look-alikes
(``_ = fmt.Fprintf``, an ``or`` default, an ordered chain, errors collected and returned) stay quiet.
"""

from __future__ import annotations

import pytest

from relay.review.alone_lines import read_alone
from relay.review.edit_direction import judged

__all__: list[str] = []  # a test module exports nothing

_PY_COLLECT = ["def validate_all(items):", "    problems = []", "    for item in items:", "        try:", "            check(item)",
               "        except ValueError as exc:", "            problems.append(exc)"]
_JS_COLLECT = ["function verifyAll(tokens) {", "  const failures = [];", "  for (const t of tokens) {", "    try { verify(t); }",
               "    catch (err) { failures.push(err); }", "  }"]

# (added lines, a word the reason holds, or None for a look-alike that stays quiet)
_CASES = [
    # a check's result in an init statement with a literal condition
    (["\tif ok := verifier.Verify(sig); false {", "\t\treturn ErrBadSignature", "\t}"], "discards a check's result"),
    (["\tif bytes.Equal(mac, want); true {", "\t\treturn nil", "\t}"], "discards a check's result"),
    (["\t_ = hmac.Verify(key, msg, tag)"], "discards a check's result"),
    (["    let _ = verify_signature(&cert, &chain);"], "discards a check's result"),
    (["        token.validate(&keys).ok();"], "discards a check's result"),
    (["    try:", "        validate_token(token)", "    except InvalidToken:", "        pass"], "swallows a check's failure"),
    (["  try {", "    verifySignature(payload, sig);", "  } catch (e) {}"], "swallows a check's failure"),
    # a condition a literal decides
    (["    if user.is_admin or True:", "        return render(request)"], "always passes"),
    (["  if (token && token.valid || true) {", "    next();", "  }"], "always passes"),
    (["  if (len > max && false) {", "    return -EINVAL;", "  }"], "never runs"),
    (["  if (user.isAdmin || !user.isAdmin) {", "    return next();", "  }"], "always passes"),
    (["    if token.valid and not token.valid:", "        raise Expired()"], "never runs"),
    (["def accept(req):", "    ok = verify_signature(req.body, req.headers['sig'])", "    process(req)", "    return 200"], "never reads it"),
    (["  const valid = await validateToken(token);", "  res.json(load(token));"], "never reads it"),
    # a value tested absent, then read
    (["\tv, ok := limits[key]", "\tif !ok && v.Enabled {", "\t\treturn deny()", "\t}"], "then reads"),
    (["    if user is None and user.is_active:", "        raise Forbidden()"], "then reads"),
    (["  if (session == null && session.user) {", "    throw new Unauthorized();", "  }"], "then reads"),
    (["\tif cfg != nil || cfg.Strict {", "\t\treturn check(cfg)", "\t}"], "then reads"),
    # failures collected, never read
    ([*_PY_COLLECT, "    return True"], "never reads"),
    ([*_JS_COLLECT, "  return true;", "}"], "never reads"),
    (["def check_all(rows)", "  problems = []", "  rows.each do |r|", "    problems << r.error unless r.valid?", "  end", "  true", "end"], "never reads"),
    # the input handed back on failure
    (["func Normalize(data []byte) ([]byte, error) {", "\tout, err := verifyAndDecode(data)", "\tif err != nil {", "\t\treturn data, nil", "\t}",
      "\treturn out, nil", "}"], "hands back its input"),
    (["def sanitize(html)", "  Loofah.fragment(html).scrub!(:strip).to_s", "rescue StandardError", "  html", "end"], "hands back its input"),
    (["function clean(input) {", "  try {", "    return purify(input);", "  } catch (e) {", "    return input;", "  }", "}"], "hands back its input"),
    # an else-if band that cannot be reached
    (["    if score < 10:", "        return 'weak'", "    elif score < 50:", "        return 'fair'", "    elif score < 40:",
      "        return 'good'", "    return 'strong'"], "never be reached"),
    (["  if (age > 65) {", "    tier = 'senior';", "  } else if (age > 18) {", "    tier = 'adult';", "  } else if (age > 30) {",
      "    tier = 'mid';", "  }"], "never be reached"),
    (["\tswitch {", "\tcase n < 100:", "\t\treturn 1", "\tcase n < 1000:", "\t\treturn 2", "\tcase n < 500:", "\t\treturn 3", "\t}"], "never be reached"),
    # clauses or branches alike
    (["  def authorize(:admin, user) do", "    allow(user)", "  end", "", "  def authorize(role, user) do", "    allow(user)", "  end"], "do the same"),
    (["  if (user.isAdmin()) {", "    grant(req);", "  } else {", "    grant(req);", "  }"], "do the same"),
    # look-alikes
    (["\t_ = fmt.Fprintf(w, \"ok\\n\")", "\tdefer f.Close()"], None),
    (["\tif err := f(); err != nil {", "\t\treturn err", "\t}"], None),
    (["  if (a || !b) {", "    run();", "  }", "    if x and not y:", "        run()"], None),
    (["def accept(req):", "    ok = verify_signature(req.body, req.headers['sig'])", "    if not ok:", "        return 401"], None),
    (["    out = subprocess.check_output(cmd)", "    print('done')"], None),
    (["\t_ = w.Flush()", "    let _ = tx.send(msg);", "    try:", "        os.remove(path)", "    except OSError:", "        pass"], None),
    (["    try:", "        validate_token(token)", "    except InvalidToken:", "        return deny()"], None),
    (["    try {", "      return verifyResult(await verifySignature(c, key));", "    }", "    catch {", "    }"], None),  # returned: used
    (["\t_ = verifyString(a[0], a[0])  // a constant time"], None),
    (["  if verbose > 2 {", "  } else if verbose > 3 {"], None),  # another if's else, its head unseen
    (["    debug = opts.debug or False", "    if flag == True:", "        run()"], None),
    (["        if ($nodeset !== false && $nodeset->length > 1) {", "    if value is True or str(value).lower() == 'true':"], None),
    (["        if let a = Double(lhs), let b = Double(rhs) {", "            return .bool(a < b)", "        } else {",
      "            return .bool(a < b)", "        }"], None),
    (["  if (!opts.quiet && opts.verbose) {", "    log(msg);", "  }"], None),
    (["  if (user == null || user.id !== id) {", "    throw new Unauthorized();", "  }"], None),
    (["\tv, ok := limits[key]", "\tif !ok || v.Enabled {", "\t\treturn deny()", "\t}"], None),
    ([*_PY_COLLECT, "    if problems:", "        raise ValidationError(problems)"], None),
    (["func All(items []Item) error {", "\tvar errs []error", "\tfor _, it := range items {", "\t\tif err := it.Check(); err != nil {",
      "\t\t\terrs = append(errs, err)", "\t\t}", "\t}", "\treturn errors.Join(errs...)", "}"], None),
    (["\tif err := os.Remove(path); err != nil {", "\t\terrs = append(errs, err)", "\t}"], None),  # declared where the change does not write
    (["func Load(path string) (*Config, error) {", "\tdata, err := os.ReadFile(path)", "\tif err != nil {", "\t\treturn nil, err", "\t}"], None),
    (["function decode(str) {", "  try {", "    return decodeURIComponent(str);", "  } catch (e) {", "    return str;", "  }", "}"], None),
    (["def to_int(value, default=0):", "    try:", "        return int(value)", "    except ValueError:", "        return default"], None),
    (["    if size < 1024:", "        unit = 'B'", "    elif size < 1024 * 1024:", "        unit = 'KB'", "    elif size < 1e9:", "        unit = 'MB'"], None),
    (["    if x < 10:", "        a()", "    if x < 5:", "        b()"], None),
    (["    } else if (len >= 3) {", "    } else if (len >= 3) {"], None),  # two chains' same line, their context unseen
    (["  def render(:json, data) do", "    Jason.encode!(data)", "  end", "", "  def render(format, data) do", "    Formats.encode!(format, data)", "  end"], None),
    (["  if (user.isAdmin()) {", "    grant(req);", "  } else {", "    deny(req);", "  }"], None),
    (["  if (pattern.exec) {", "    return { pattern };", "  } else {", "    return pattern;", "  }"], None),  # brackets differ
]


@pytest.mark.parametrize(("added", "word"), _CASES, ids=[str(i) for i in range(len(_CASES))])
def test_a_check_new_code_cannot_decide_is_named_and_look_alikes_stay_quiet(added: list[str], word: str | None) -> None:
    found = read_alone(added, [])
    if word is None:
        assert found is None, found
        return
    assert found is not None and word in found, found
    # The edit judge says it, worth a look (not classic): a new file's lines reach it as an edit's do.
    assert judged("src/x", added, []) == (found, False)
