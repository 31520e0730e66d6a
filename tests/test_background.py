"""A call run in a thread (core.background), as Meteor() uses it to load the paraphrase table while the other
matchers load: the value, or the call's own exception, comes back to the caller."""

import threading

import pytest

from meteor_metric.core.background import Background


def test_the_value_comes_back_from_the_thread_it_was_computed_in():
    main = threading.get_ident()
    call = Background(lambda a, b: (a + b, threading.get_ident()), 2, 3)
    value, where = call.result()
    assert value == 5 and where != main


def test_the_calls_exception_is_raised_by_result():
    def fails():
        raise KeyError("missing table")

    call = Background(fails)
    call.join()
    for _ in range(2):
        with pytest.raises(KeyError, match="missing table"):
            call.result()
