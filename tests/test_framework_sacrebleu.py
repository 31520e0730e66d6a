"""``meteor_metric.integrations.sacrebleu.METEOR`` against the real sacreBLEU.

Oracles: the package's ``corpus_score`` / ``sentence_score`` on the same data, x 100 (the meteor-1.5
profile's segments are the jar's, tests/test_conformance_java.py); for ``PairedTest``, the package's own
paired tests (``meteor_metric.significance``) on the same systems.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sacrebleu", reason="the sacrebleu extra is not installed")

from sacrebleu.metrics.base import Metric  # noqa: E402
from sacrebleu.significance import PairedTest  # noqa: E402

from framework_data import corpus, systems  # noqa: E402
from meteor_metric import get_scorer  # noqa: E402
from meteor_metric.integrations.sacrebleu import METEOR  # noqa: E402
from meteor_metric.significance import paired_approximate_randomization, paired_bootstrap  # noqa: E402


def streams(refs: list[list[str]]) -> list[list[str]]:
    """Per-segment reference lists -> sacreBLEU's reference streams."""
    return [list(stream) for stream in zip(*refs)]


@pytest.mark.parametrize("profile", ["meteor-1.5", "nltk"])
def test_corpus_and_sentence_scores_are_100_times_ours(profile):
    hyps, refs = corpus()
    metric = METEOR(profile)
    assert isinstance(metric, Metric)
    want = get_scorer(profile).corpus_score(hyps, refs)
    assert metric.corpus_score(hyps, streams(refs)).score == 100 * want.score
    assert metric.sentence_score(hyps[3], refs[3]).score == 100 * want.segments[3].score
    signature = str(metric.get_signature())
    assert signature.startswith("nrefs:2|meteor:" + get_scorer(profile).signature.rsplit("|version:", 1)[0] + "|")


def test_missing_references_and_options():
    hyps, refs = corpus()
    hyps, refs = hyps[:30], [list(r) for r in refs[:30]]
    second = [r[1] if k % 3 else None for k, r in enumerate(refs)]  # sacreBLEU's None: no reference there
    metric = METEOR(language="en", normalization="lc_only", modules=["exact", "stem"])
    got = metric.corpus_score(hyps, [[r[0] for r in refs], second])
    ours = get_scorer("meteor-1.5", normalization="lc_only", modules=["exact", "stem"])
    assert got.score == 100 * ours.corpus_score(hyps, [[r[0]] + ([s] if s else []) for r, s in zip(refs, second)]).score
    assert "nrefs:var|meteor:meteor-1.5|lang:en|task:rank|norm:lc_only" in str(metric.get_signature())
    with pytest.raises(ValueError, match="unknown profile"):
        METEOR("bleu")


def test_a_bootstrap_resample_is_scored_like_that_corpus():
    """sacreBLEU sums a resample's statistics (as float32) and scores the sum: the jar's corpus score of
    the resampled segments."""
    hyps, refs = corpus()
    metric = METEOR()
    stats = metric._extract_corpus_statistics(hyps, streams(refs))
    idx = np.random.default_rng(7).choice(len(hyps), size=len(hyps), replace=True)
    got = metric._compute_score_from_stats(np.array(stats, dtype="float32")[idx].sum(0)).score
    assert got == 100 * get_scorer().corpus_score([hyps[i] for i in idx], [refs[i] for i in idx]).score
    ci = metric.corpus_score(hyps, streams(refs), n_bootstrap=200)
    assert ci.score == 100 * get_scorer().corpus_score(hyps, refs).score and 0 < ci._ci < 5


@pytest.mark.parametrize("test, ours, samples", [("bs", paired_bootstrap, 1000),
                                                  ("ar", paired_approximate_randomization, 2000)])
def test_paired_test_agrees_with_ours(test, ours, samples):
    hyps, refs = systems()
    _, results = PairedTest(list(hyps.items()), {"METEOR": METEOR()}, streams(refs), test_type=test,
                            n_samples=samples)()
    theirs = dict(zip(results["System"], results["METEOR"]))
    scorer = get_scorer()
    segments = {name: scorer.score_pairs(list(zip(h, refs))) for name, h in hyps.items()}
    mine = ours(segments, "DIDI-NLP", scorer, n_samples=samples).systems
    for name in hyps:
        assert theirs[name].score == 100 * scorer.corpus_score(hyps[name], refs).score == 100 * mine[name].score
    decisions = {name: (theirs[name].p_value < 0.05, mine[name].p_value < 0.05) for name in list(hyps)[1:]}
    assert all(a == b for a, b in decisions.values()), decisions
    assert sorted(decisions.values()) == [(False, False), (True, True), (True, True)]  # both kinds occur here
