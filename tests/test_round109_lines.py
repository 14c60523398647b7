"""Issue 36, round 109 onwards: lines a worker slips into an ordinary change that earlier rounds left unread.

The party guarded against is the worker (careless, or obeying a poisoned instruction) that slips one line into an
ordinary change. Each positive case is a shape a blind labeller planted; each near miss is the same shape doing the
project's own work, which must stay quiet.
"""

from __future__ import annotations

import pytest

from relay.review.apart_edits import Run
from relay.review.edit_scopes import Scopes
from relay.review.refusal_lists import dropped_refusals

__all__: list[str] = []  # a test module exports nothing


def _one_line(path: str, old: str, new: str) -> str | None:
    return dropped_refusals([Run(path, 4, 4, (new,), (old,))], Scopes(lambda _: None)).get(path)


# --------------------------------------------------------------------------- round 109: a list that hides secrets loses one

@pytest.mark.parametrize(("path", "old", "new", "said"), [
    # hanami (blind 197): the logger's parameter filters, a Ruby word list, lose the password
    ("lib/hanami/config/logger.rb", "      setting :filters, default: %w[_csrf password password_confirmation].freeze",
     "      setting :filters, default: %w[_csrf].freeze", "takes 'password', 'password_confirmation' off filters, a list that hides them"),
    # Rails' filter_parameters, a list of symbols added to
    ("config/initializers/filter_parameter_logging.rb", "Rails.application.config.filter_parameters += [:passw, :secret, :token]",
     "Rails.application.config.filter_parameters += [:secret, :token]", "takes 'passw' off Rails.application.config.filter_parameters"),
    # a serializer's excluded fields
    ("users/serializers.py", "        exclude = ['password', 'last_login']", "        exclude = ['last_login']", "takes 'password' off exclude"),
    # a refusal list written as Ruby words
    ("lib/sandbox.rb", "DENIED_METHODS = %w[eval instance_eval system]", "DENIED_METHODS = %w[instance_eval system]",
     "takes 'eval' off the refusal list DENIED_METHODS"),
    # the near misses: a filter list of no secret, an excluded field of no secret, an allow list of parameters
    ("lib/app/config.rb", "  setting :filters, default: %w[json xml].freeze", "  setting :filters, default: %w[json].freeze", None),
    ("users/serializers.py", "        exclude = ['password', 'last_login']", "        exclude = ['password']", None),
    ("app/controllers/users_controller.rb", "  PERMITTED = %i[name email password]", "  PERMITTED = %i[name email]", None),
    # an entry written in its place (the list's own maintenance)
    ("config/initializers/filter_parameter_logging.rb", "config.filter_parameters += [:passw, :secret]",
     "config.filter_parameters += [:password, :secret]", None),
])
def test_a_secret_taken_off_a_list_that_hides_it_is_named(path: str, old: str, new: str, said: str | None) -> None:
    found = _one_line(path, old, new)
    if said is None:
        assert found is None, found
    else:
        assert found is not None and said in found, found
