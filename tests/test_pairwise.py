"""``pairwise``: the matrix of segment scores for MBR decoding.

Oracles: the Java METEOR 1.5 jar (the stored golden scores of real WMT21 TED zh-en sentences, tests/data/java15),
and ``sentence_score`` itself (entry by entry, on those sentences and on WMT21 news zh-en sentences from the
shared data where present) for every profile.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from meteor_metric import get_scorer
from tests.conformance import JAVA15, read_jsonl

SHARED_WMT = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt" / "wmt21-news" / "zh-en.seg.jsonl.gz"
TOLERANCE = 1e-12  # the jar's golden scores (exact with it elsewhere in the suite)


def _ted_rows(n: int) -> list[dict]:
    rows = [r for r in read_jsonl(JAVA15 / "tedtalks_zh-en.sample.jsonl.gz")
            if r["variant"] == "1ref" and r["config"]["name"] == "en_norm"]
    return rows[:n]


def _wmt_news(n: int) -> list[str]:
    if not SHARED_WMT.exists():
        pytest.skip(f"the shared WMT data is absent ({SHARED_WMT})")
    with gzip.open(SHARED_WMT, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    seg = rows[0]["seg_id"]  # one source segment: its systems' outputs are an MBR candidate list
    return [r["hyp"] for r in rows if r["seg_id"] == seg][:n]


def test_pairwise_diagonal_equals_the_jar(default_meteor):
    rows = _ted_rows(24)
    matrix = default_meteor.pairwise([r["hyp"] for r in rows], [r["refs"][0] for r in rows])
    assert matrix.shape == (24, 24) and matrix.dtype == np.float64
    for i, row in enumerate(rows):
        assert abs(matrix[i, i] - row["expected"]["score"]) <= TOLERANCE, row["id"]


def test_pairwise_equals_sentence_score_entry_by_entry(default_meteor):
    rows = _ted_rows(16)
    hyps, refs = [r["hyp"] for r in rows], [r["refs"][0] for r in rows]
    matrix = default_meteor.pairwise(hyps, refs)
    expected = [[default_meteor.sentence_score(h, r).score for r in refs] for h in hyps]
    assert matrix.tolist() == expected
    assert (matrix > 0).sum() > len(rows)  # off-diagonal overlaps are scored too, not only the diagonal


def test_pairwise_candidates_against_each_other_wmt_news(default_meteor):
    candidates = _wmt_news(20)
    matrix = default_meteor.pairwise(candidates)
    assert matrix.shape == (len(candidates), len(candidates))
    assert matrix.tolist() == [[default_meteor.sentence_score(a, b).score for b in candidates] for a in candidates]
    assert matrix.tolist() == default_meteor.pairwise(candidates, list(candidates)).tolist()


@pytest.mark.parametrize("profile", ["nltk", "original"])
def test_pairwise_other_profiles(profile, default_meteor):
    scorer = get_scorer(profile)
    rows = _ted_rows(6)
    hyps, refs = [r["hyp"] for r in rows], [r["refs"][0] for r in rows][:4]
    matrix = scorer.pairwise(hyps, refs)
    assert matrix.shape == (6, 4)
    assert matrix.tolist() == [[scorer.sentence_score(h, r).score for r in refs] for h in hyps]


def test_pairwise_empty_and_tuples(default_meteor):
    assert default_meteor.pairwise([], ["a reference"]).shape == (0, 1)
    assert default_meteor.pairwise(("a b",), ()).shape == (1, 0)


@pytest.mark.parametrize("profile", ["meteor-1.5", "nltk"])
def test_pairwise_input_errors_name_the_item(profile, default_meteor):
    scorer = get_scorer(profile)
    with pytest.raises(TypeError, match=r"candidates must be a list of strings .* got str"):
        scorer.pairwise("one candidate")
    with pytest.raises(TypeError, match=r"candidates\[1\] must be a string, got int"):
        scorer.pairwise(["a", 3])
    with pytest.raises(TypeError, match=r"references\[0\] must be a string, got None"):
        scorer.pairwise(["a"], [None])


def test_pairwise_too_long_names_the_item(default_meteor):
    from meteor_metric import Meteor

    scorer = Meteor(max_segment_tokens=3)
    with pytest.raises(ValueError, match=r"references\[1\]: the text has 4 tokens"):
        scorer.pairwise(["a b"], ["a", "a b c d"])
