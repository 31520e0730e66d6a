"""metric_card.md: every example runs and prints what the card shows; the Space front matter is valid.

The card's numbers come from the oracles named beside them: the pycocoevalcap 1.2 jar (meteor-1.5)
and NLTK 3.10.4 with WordNet 3.0 (nltk).
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from meteor_metric import Meteor
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound

REPO = Path(__file__).resolve().parents[1]
CARD = REPO / "metric_card.md"


def test_card_examples_run():
    try:
        Meteor()
    except ParaphraseTableNotFound as exc:
        pytest.skip(f"the card's examples need the English paraphrase table: {exc}")
    result = doctest.testfile(str(CARD), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 10 and result.failed == 0


def test_card_front_matter_is_a_space_card():
    huggingface_hub = pytest.importorskip("huggingface_hub")
    card = huggingface_hub.SpaceCard(CARD.read_text(encoding="utf-8"))
    assert card.data.sdk == "gradio"
    assert (REPO / card.data.app_file).is_file()
    assert {"evaluate", "metric"} <= set(card.data.tags)
    for section in ("## Metric Description", "## How to Use", "### Inputs", "### Output Values", "## Examples",
                    "## Limitations and Bias", "## Citation", "## Further References"):
        assert section in card.text
