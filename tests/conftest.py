"""Shared fixtures."""

from __future__ import annotations

import pytest

from meteor_metric import Meteor
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound


@pytest.fixture(scope="session")
def default_meteor() -> Meteor:
    """The default configuration (the jar's -l en -norm); skips where no English paraphrase table is installed."""
    try:
        return Meteor()
    except ParaphraseTableNotFound as exc:
        pytest.skip(f"no English paraphrase table installed: {exc}")
