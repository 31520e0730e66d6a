"""The examples in the package's docstrings run and give the values they show (the jar's values)."""

import doctest

import pytest

import meteor_metric
import meteor_metric.integrations.evaluate_metric
import meteor_metric.meteor15.meteor


@pytest.mark.parametrize("module", [meteor_metric, meteor_metric.meteor15.meteor, meteor_metric.integrations.evaluate_metric],
                         ids=lambda m: m.__name__)
def test_docstring_examples(module):
    try:
        result = doctest.testmod(module, raise_on_error=False)
    except FileNotFoundError as exc:  # the default configuration needs the English paraphrase table
        pytest.skip(str(exc))
    assert result.attempted > 0 and result.failed == 0
