"""The Python API: results, multiple references, properties, and bad input."""

import pytest
from hypothesis import given, settings, strategies as st

from meteor_metric import Meteor, MeteorStats

EXACT_STEM = dict(modules="exact,stem", weights="1.0,0.6")  # no resources beyond the stemmer


@pytest.fixture(scope="module")
def meteor():
    return Meteor(**EXACT_STEM)


def test_result_fields(meteor):
    r = meteor.sentence_score("The cat sat on the mat.", ["a cat sat on a mat", "The cat sat on the mat ."])
    assert r.best_ref == 1 and r.score == 1.0 and r.chunks == 1
    assert r.hyp_tokens == r.ref_tokens == ("the", "cat", "sat", "on", "the", "mat", ".")
    assert [m.as_list() for m in r.alignment] == [[k, 1, k, 1, 0] for k in range(7)]
    assert r.stats.to_line().split()[:2] == ["7.0", "7.0"]
    assert r.signature.startswith("meteor-1.5|lang:en|task:rank|norm:norm|unit:word|mods:ex_st|w:1.0,0.6|")
    assert "version:" in r.signature


def test_first_best_reference_wins_ties(meteor):
    r = meteor.sentence_score("a b c", ["a b x", "a b y", "a b c"])
    assert r.best_ref == 2
    r = meteor.sentence_score("a b c", ["a b x", "a b y"])
    assert r.best_ref == 0


def test_corpus_is_scored_from_summed_stats(meteor):
    hyps = ["the cat sat", "a dog ran away quickly", "nothing in common"]
    refs = ["the cat sat down", ["dogs run away", "a dog ran away quick"], "zzz"]
    c = meteor.corpus_score(hyps, refs)
    segs = [meteor.sentence_score(h, r) for h, r in zip(hyps, refs)]
    assert c.stats == MeteorStats.sum(s.stats for s in segs)
    assert c.score == meteor.score_stats(c.stats).score
    assert c.segment_scores == [s.score for s in segs]
    assert c.score != sum(c.segment_scores) / 3
    assert "|nrefs:var|" in c.signature
    # one signature string for all segments (a corpus of a million held a million copies, 224 bytes each)
    assert len({id(s.signature) for s in c.segments + tuple(segs)}) == 1


def test_identical_and_empty(meteor):
    assert meteor.sentence_score("x y z", "x y z").score == 1.0
    assert meteor.sentence_score("", "x y z").score == 0.0
    assert meteor.sentence_score("x", "").score == 0.0
    assert meteor.sentence_score("", "").score == 0.0


@pytest.mark.parametrize("hyp, refs, error, message", [
    (None, "a", TypeError, "hypothesis must be a string, got None"),
    (3, "a", TypeError, "got int"),
    (b"a", "a", TypeError, "got bytes"),
    ("a", None, TypeError, "references must be a string or a list"),
    ("a", [], ValueError, "at least one reference"),
    ("a", ["b", None], TypeError, r"references\[1\] must be a string"),
    ("a", [["b"]], TypeError, r"references\[0\] must be a string, got list"),
])
def test_sentence_bad_input(meteor, hyp, refs, error, message):
    with pytest.raises(error, match=message):
        meteor.sentence_score(hyp, refs)


@pytest.mark.parametrize("hyps, refs, error, message", [
    (["a", "b"], ["a"], ValueError, "2 hypotheses but 1 references"),
    ("a b", ["a b"], TypeError, "hypotheses must be a list"),
    (None, [], TypeError, "got None"),
    (["a", None], ["a", "b"], TypeError, r"hypotheses\[1\] must be a string"),
    (["a", "b"], ["a", []], ValueError, r"references\[1\] is empty"),
    ([], [], ValueError, "empty corpus"),
])
def test_corpus_bad_input(meteor, hyps, refs, error, message):
    with pytest.raises(error, match=message):
        meteor.corpus_score(hyps, refs)


words = st.sampled_from("the a cat cats sat sitting on mat mats dog dogs ran run . , 's".split())
sentences = st.lists(words, max_size=12).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(hyp=sentences, refs=st.lists(sentences, min_size=1, max_size=3))
def test_properties(meteor, hyp, refs):
    r = meteor.sentence_score(hyp, refs)
    assert 0.0 <= r.score <= 1.0
    again = meteor.sentence_score(hyp, refs)  # deterministic (fields may be NaN, so compare what is not)
    assert (again.score, again.stats, again.alignment, again.best_ref) == (r.score, r.stats, r.alignment, r.best_ref)
    assert meteor.sentence_score(hyp, [hyp] + refs).score == (1.0 if meteor.tokens(hyp) else 0.0)
    s = r.stats
    assert s.test_word_matches <= s.test_length and s.ref_word_matches <= s.ref_length
    assert s.chunks <= min(s.test_word_matches, s.ref_word_matches)
