"""profiles.ScorerSpec: a picklable scorer description that worker processes build from.

The golden value is the Java jar's corpus score of examples/ (examples/jar-scores.json, written by the
jar itself); the spec built in another process must give it exactly.
"""

from __future__ import annotations

import json
import multiprocessing
import pickle
import re
from pathlib import Path

import pytest

from meteor_metric import Meteor, get_scorer
from meteor_metric.profiles import ScorerSpec, scorer_spec
from meteor_metric.profiles.nltk_profile import NltkMeteor
from meteor_metric.profiles.original import OriginalMeteor

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))


def _lines(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


def _corpus_score(spec: ScorerSpec) -> float:
    return spec.build().corpus_score(_lines("hyp.txt"), _lines("ref.txt")).score


def test_a_spec_built_in_a_spawned_worker_scores_like_the_jar():
    spec = scorer_spec("meteor-1.5")
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        score = pool.apply(_corpus_score, (spec,))
    assert score == JAR["one_ref"]["final_score"]
    assert _corpus_score(spec) == score


def test_equal_specs_share_one_scorer_and_get_scorer_is_spec_build():
    spec = scorer_spec("meteor-1.5", task="rank", max_segment_tokens=None)
    copy = pickle.loads(pickle.dumps(spec))
    assert copy == spec and copy.build() is spec.build()
    assert spec.build().max_segment_tokens is None
    assert get_scorer() is scorer_spec().build()
    assert get_scorer("nltk", normalization="split") is scorer_spec("nltk", normalization="split").build()
    assert scorer_spec(task="hter") != scorer_spec()


def test_a_spec_resolves_the_same_configuration_as_meteor():
    spec = scorer_spec("meteor-1.5", "de", modules=["exact", "stem"], weights=[1.0, 0.5], beam_size=20)
    direct = Meteor("de", modules=["exact", "stem"], weights=[1.0, 0.5], beam_size=20)
    assert spec.params == direct.params
    assert spec.build().signature == direct.signature


def test_profile_options_reach_the_scorer_class():
    nltk = scorer_spec("nltk", alpha=0.8, beta=2.0, gamma=0.4).build()
    assert isinstance(nltk, NltkMeteor) and (nltk.alpha, nltk.beta, nltk.gamma) == (0.8, 2.0, 0.4)
    hyp, ref = "the cat sat on a mat today", "the cat sat on the mat"
    assert nltk.sentence_score(hyp, ref).score == NltkMeteor(0.8, 2.0, 0.4).sentence_score(hyp, ref).score
    original = scorer_spec("original", search_budget=5000).build()
    assert isinstance(original, OriginalMeteor) and original is not get_scorer("original")


@pytest.mark.parametrize("kwargs, message", [
    (dict(profile="nltk", weights=[1.0]),
     "weights=[1.0] is an option of the meteor-1.5 profile; it does not apply to the nltk profile"),
    (dict(profile="original", task="rank", beam_size=3),
     "beam_size=3 is an option of the meteor-1.5 profile; it does not apply to the original profile"),
    (dict(profile="original", alpha=0.5),
     "alpha=0.5 is an option of the nltk profile; it does not apply to the original profile"),
    (dict(profile="meteor-1.5", search_budget=3), "search_budget=3 is an option of the original profile"),
    (dict(profile="original", max_segment_tokens=5),
     "max_segment_tokens=5 is an option of the meteor-1.5 profile; it does not apply to the original profile"),
    (dict(profile="nltk", max_segment_tokens=5), "max_segment_tokens=5 is an option of the meteor-1.5 profile"),
    (dict(profile="nltk", colour="red"), "unknown option 'colour' for the nltk profile; it takes: alpha, beta, gamma"),
    (dict(profile="nltk", normalization="norm"), "normalization 'norm' does not apply to the nltk profile"),
    (dict(profile="nltk", language="de"), "the nltk profile is English only"),
    (dict(profile="bleu"), "unknown profile 'bleu'"),
    (dict(profile="meteor-1.5", language="klingon"), "unknown language 'klingon'"),
])
def test_bad_options_fail_before_anything_is_built(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        scorer_spec(**kwargs)
