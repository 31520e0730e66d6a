"""``meteor_metric.integrations.mbrs`` against the real mbrs (MBR decoding; CPU torch).

mbrs 0.1.8 needs numpy<2 (through unbabel-comet), which the main test environment's datasets/pyarrow do not
accept: .ci/run installs the ``mbrs`` extra in a venv of its own and runs this file there; elsewhere it skips.
Oracle: the jar's score of every candidate against every candidate of 8 MBR pools of real WMT21 TED talks
zh-en sentences (tests/data/frameworks/mbr_jar.json, made by scripts/build_mbr_goldens.py), and
``sentence_score`` itself for the other profiles.
"""

from __future__ import annotations

import doctest
import json

import pytest

torch = pytest.importorskip("torch", reason="the mbrs extra is not installed")
pytest.importorskip("mbrs.metrics", reason="the mbrs extra is not installed (it needs a venv of its own)")

from mbrs.decoders import DecoderMBR  # noqa: E402
from mbrs.metrics import Metric, get_metric  # noqa: E402

from conformance import DATA  # noqa: E402
from framework_data import corpus  # noqa: E402
from meteor_metric import get_scorer  # noqa: E402
from meteor_metric.integrations import mbrs as adapter  # noqa: E402
from meteor_metric.integrations.mbrs import MetricMETEOR  # noqa: E402

TOLERANCE = 1e-12  # the jar's scores (exact with it elsewhere in the suite)


def _pools() -> list[dict]:
    return json.loads((DATA / "frameworks" / "mbr_jar.json").read_text(encoding="utf-8"))["pools"]


def test_registered_in_mbrs():
    assert get_metric("meteor") is MetricMETEOR and issubclass(MetricMETEOR, Metric)
    assert MetricMETEOR.HIGHER_IS_BETTER


def test_pairwise_scores_are_the_jars():
    metric = MetricMETEOR(MetricMETEOR.Config())
    for pool in _pools():
        matrix = metric.pairwise_scores(pool["candidates"], pool["candidates"])
        assert matrix.dtype == torch.float64 and tuple(matrix.shape) == (6, 6)
        assert (matrix - torch.tensor(pool["scores"], dtype=torch.float64)).abs().max().item() <= TOLERANCE
        hyps, refs = pool["candidates"][:4], pool["candidates"][4:]  # the systems against the two references
        assert matrix[:4, 4:].tolist() == metric.pairwise_scores(hyps, refs).tolist()


def test_scores_and_score_are_the_jars():
    metric = MetricMETEOR(MetricMETEOR.Config())
    pool = _pools()[0]
    texts, want = pool["candidates"], pool["scores"]
    hyps = [a for a in texts for _ in texts]
    refs = [b for _ in texts for b in texts]
    got = metric.scores(hyps, refs, sources=["ignored"] * len(hyps))
    assert got.dtype == torch.float64
    assert max(abs(g - w) for g, w in zip(got.tolist(), sum(want, []))) <= TOLERANCE
    assert abs(metric.score(texts[1], texts[4]) - want[1][4]) <= TOLERANCE


def test_mbr_decoding_picks_the_candidate_of_highest_expected_jar_score():
    metric = MetricMETEOR(MetricMETEOR.Config())
    decoder = DecoderMBR(DecoderMBR.Config(), metric)
    for pool in _pools():
        texts = pool["candidates"][:4]  # the system outputs, as samples of the model
        expected = [sum(row[:4]) / 4 for row in pool["scores"][:4]]
        out = decoder.decode(texts, texts, nbest=2)
        first, second = out.idx  # (candidates of equal expected score may come in either order)
        assert abs(expected[first] - max(expected)) <= 1e-12 and out.sentence[0] == texts[first]
        assert abs(out.score[0] - max(expected)) <= 1e-12
        assert abs(expected[second] - sorted(expected)[-2]) <= 1e-12 and second != first


def test_reference_log_probabilities_weight_the_expectation():
    metric = MetricMETEOR(MetricMETEOR.Config())
    pool = _pools()[1]
    texts = pool["candidates"][:4]
    lprobs = torch.tensor([0.0, -1.0, -2.0, -3.0])
    got = metric.expected_scores(texts, texts, reference_lprobs=lprobs)
    weights = lprobs.softmax(dim=-1).tolist()
    want = [sum(w * s for w, s in zip(weights, row[:4])) for row in pool["scores"][:4]]
    assert got.dtype == torch.float64 and max(abs(g - w) for g, w in zip(got.tolist(), want)) < 1e-6  # (float32)


@pytest.mark.parametrize("profile", ["nltk", "original"])
def test_other_profiles_give_their_sentence_scores(profile):
    hyps, refs = corpus()
    hyps, refs = hyps[:6], [r[0] for r in refs[:6]]
    metric = MetricMETEOR(MetricMETEOR.Config(profile=profile))
    scorer = get_scorer(profile)
    assert metric.pairwise_scores(hyps, refs).tolist() == [[scorer.sentence_score(h, r).score for r in refs]
                                                           for h in hyps]
    assert metric.scores(hyps, refs).tolist() == [scorer.sentence_score(h, r).score for h, r in zip(hyps, refs)]


def test_config_reaches_the_scorer():
    metric = MetricMETEOR(MetricMETEOR.Config(modules=["exact"], options={"max_segment_tokens": 500}))
    assert metric.scorer is get_scorer(modules=["exact"], max_segment_tokens=500)
    pool = _pools()[0]
    a, b = pool["candidates"][0], pool["candidates"][4]
    assert metric.score(a, b) == get_scorer(modules=["exact"]).sentence_score(a, b).score != pool["scores"][0][4]


def test_bad_input_and_settings_say_what_is_wrong():
    with pytest.raises(ValueError, match="profile"):
        MetricMETEOR(MetricMETEOR.Config(profile="meteor-9"))
    with pytest.raises(ValueError, match="unknown option 'no_such_option'"):
        MetricMETEOR(MetricMETEOR.Config(options={"no_such_option": 1}))
    metric = MetricMETEOR(MetricMETEOR.Config())
    with pytest.raises(ValueError, match="3 hypotheses but 2 references"):
        metric.scores(["a", "b", "c"], ["a", "b"])
    with pytest.raises(TypeError, match=r"references\[1\] must be a string"):
        metric.pairwise_scores(["a cat"], ["a cat", None])


def test_module_example_runs():
    result = doctest.testmod(adapter, raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0


def test_a_meteor_of_mbrs_own_is_left_as_it_is(monkeypatch):
    import importlib

    from mbrs import registry

    metrics = next(r for r in registry.REGISTRIES.values() if r.get("meteor") is MetricMETEOR)

    class OtherMeteor(Metric):
        def score(self, hypothesis, reference, source=None):
            return 0.0

    monkeypatch.setitem(metrics, "meteor", OtherMeteor)
    with pytest.warns(RuntimeWarning, match="mbrs has a metric named 'meteor' already"):
        importlib.reload(adapter)
    assert get_metric("meteor") is OtherMeteor
