"""Issue 36, round 19 part A: what a check found, thrown away (relay/review/lost_results.py) — a verdict bound to the
blank, a catch that no longer keeps what it caught, TLS defaults unwrapped from the options — in several languages, and
the look-alikes that stay quiet (a byte count blanked, a rethrow, a catch still using its error, defaults that are not
TLS's, an argument changed inside the defaults call). Each shape was left unnamed on a blind run (go-guardian's
`_, err := otp.Verify`, AutoMapper's emptied catch, mint's `ssl_opts` bypassed)."""

from __future__ import annotations

import pytest

from relay.review.edit_direction import judged
from relay.review.lost_results import lost_result
from relay.review.subtle_turns import rejection_in_run

_FOUND = [
    ("go", ["\tif _, err := otp.Verify(pin); err != nil {", "\t\treturn nil, err", "\t}"],
     ["\tok, err := otp.Verify(pin)", "\tif err != nil {", "\tif !ok {", "\t\treturn nil, ErrInvalidOTP"], "verdict"),
    ("py", ["    _, err = signer.verify(token)"], ["    valid, err = signer.verify(token)"], "verdict"),
    ("cs", ["            catch (Exception)"], ["            catch (Exception e)", "                configExceptions.Add(e);"], "swallows"),
    ("js", ["  } catch {"], ["  } catch (err) {", "    errors.push(err);"], "swallows"),
    ("py", ["    except ValidationError:", "        pass"], ["    except ValidationError as exc:", "        problems.append(exc)"], "swallows"),
    ("rb", ["  rescue StandardError"], ["  rescue StandardError => e", "    failures << e"], "swallows"),
    ("php", ["} catch (\\Exception) {"], ["} catch (\\Exception $e) {", "    $this->errors[] = $e;"], "swallows"),
    ("ex", ["      opts = Keyword.put(opts, :cb_info, @tunnel_cb_info)"],
     ["      opts = Keyword.put(ssl_opts(hostname, opts), :cb_info, @tunnel_cb_info)"], "ssl_opts"),
    ("py", ["    sock = wrap(raw, opts)"], ["    sock = wrap(raw, tls_options(opts))"], "tls_options"),
    ("go", ["\tconn, err := tls.Dial(\"tcp\", addr, cfg)"], ["\tconn, err := tls.Dial(\"tcp\", addr, secureTLSConfig(cfg))"], "secureTLSConfig"),
]


@pytest.mark.parametrize("lang, added, removed, word", _FOUND, ids=[f"{c[0]}-{c[3]}-{i}" for i, c in enumerate(_FOUND)])
def test_a_lost_result_is_named_with_its_line(lang, added, removed, word):
    found = lost_result(added, removed)
    assert found is not None and word in found, found
    judged_as = judged("src/x." + lang, added, removed)
    assert judged_as is not None and word in judged_as[0] and judged_as[1] is False  # worth a look, not classic


_QUIET = [
    (["\t_, err := w.Write(buf)"], ["\tn, err := w.Write(buf)"]),  # a byte count, not a verdict
    (["\tok, err := otp.Verify(pin)"], ["\tvalid, err := otp.Verify(pin)"]),  # a verdict renamed
    (["            catch (Exception)", "                throw;"], ["            catch (Exception e)", "                log.Error(e);"]),  # rethrown
    (["  } catch (error) {", "    errors.push(error);"], ["  } catch (err) {", "    errors.push(err);"]),  # still kept
    (["    except ValueError:", "        pass"], ["    except ValueError:", "        log.warning('bad')"]),  # bound nothing before
    (["    opts = merge(opts)"], ["    opts = merge(default_options(opts))"]),  # defaults, not TLS's
    (["    opts = ssl_opts(host, opts)"], ["    opts = ssl_opts(hostname, opts)"]),  # the defaults still applied
]


@pytest.mark.parametrize("added, removed", _QUIET)
def test_look_alikes_stay_quiet(added, removed):
    assert lost_result(added, removed) is None


def test_a_run_whose_rejection_became_a_log_line_fails_open_and_a_refactor_does_not():
    run_removed = ["        $token = $session->get('token');", "            abort(401);"]
    opened = rejection_in_run(["        $token = $session->get('token', '');", "        if (strlen($token) > 512) {",
                               "            throw new InvalidArgumentException('token too long');", "        }",
                               "            $this->logger->warning('bad token');"], run_removed)
    assert opened is not None and "fails open" in opened and "warning" in opened
    # Carbon's refactor: the throw's place taken by an assignment is no answer that lets the caller on
    assert rejection_in_run(["        [$start, $end] = self::range($a, $b);", "        $this->start = $start;"],
                            ["        throw new InvalidArgumentException(", "            'Invalid period.'"]) is None
    # jwt-dotnet's refactor: a `return false` made a value computed, no plain answer
    assert rejection_in_run(["            return _jsonSerializerFactory is not null;"], ["            return false;"]) is None
    # the rejection kept beside a log line the run adds
    assert rejection_in_run(["        log.warning('bad cookie')", "        raise Unauthorized()"], ["        raise Unauthorized()"]) is None
