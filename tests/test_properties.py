"""Property-based fuzzing (hypothesis) of the normalizer, matchers, aligner and scorers.

Arbitrary Unicode never raises, scores stay in [0, 1], statistics add up, and the guarantees METEOR
gives hold: the best of several references is the first maximal one, a duplicated reference changes
nothing, and a corpus score does not depend on the order of its segments. Example counts are small
so the suite stays fast.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from meteor_metric import MeteorStats
from meteor_metric.profiles.nltk_profile import NltkMeteor
from meteor_metric.meteor15.normalize import normalize_line, tokenize

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# any code point (surrogates excluded by st.text), plus the characters the normalizer treats specially
unicode_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60) | st.text(
    alphabet=st.sampled_from(list(" \t\n\r\x0b\x0c\x00.,'`’‘“”-–—…$%!?DOTMULTIaé U.S.'s ß İ Σ 中 😀")), max_size=60)
words = st.sampled_from("the a cat cats sat sitting on mat mats dog dogs ran run big large . , 's".split())
sentences = st.lists(words, max_size=10).map(" ".join)


@pytest.fixture(scope="module")
def meteor(engine_meteor):
    """The default configuration, once per engine."""
    return engine_meteor


@FUZZ
@given(text=unicode_text, language=st.sampled_from(["en", "fr", "de", "es", "ru", "cz"]),
       keep_punct=st.booleans())
def test_normalizer_never_raises_and_trims(text, language, keep_punct):
    out = normalize_line(text, language, keep_punct)
    assert out == out.strip(" \t\n\r\x0b\x0c") or not out
    assert all(t and not any(c in " \t\n\r\x0c" for c in t) for t in tokenize(out))


@FUZZ
@given(hyp=unicode_text, refs=st.lists(unicode_text, min_size=1, max_size=3))
def test_arbitrary_unicode_scores_in_unit_interval(meteor, hyp, refs):
    for scorer in (meteor, NltkMeteor()):
        r = scorer.sentence_score(hyp, refs)
        assert 0.0 <= r.score <= 1.0 and not math.isnan(r.score)
        assert 0 <= r.best_ref < len(refs)
        assert r.stats.test_word_matches <= len(r.hyp_tokens) and r.stats.ref_word_matches <= len(r.ref_tokens)


@FUZZ
@given(hyp=sentences, ref=sentences)
def test_alignment_is_one_to_one_and_in_reference_order(meteor, hyp, ref):
    r = meteor.sentence_score(hyp, ref)
    hyp_used, ref_used = set(), set()
    for m in r.alignment:
        hyp_span = set(range(m.hyp_start, m.hyp_start + m.hyp_len))
        ref_span = set(range(m.ref_start, m.ref_start + m.ref_len))
        assert not hyp_span & hyp_used and not ref_span & ref_used
        assert hyp_span <= set(range(len(r.hyp_tokens))) and ref_span <= set(range(len(r.ref_tokens)))
        hyp_used |= hyp_span
        ref_used |= ref_span
    assert [m.ref_start for m in r.alignment] == sorted(m.ref_start for m in r.alignment)
    assert len(hyp_used) == r.stats.test_word_matches and len(ref_used) == r.stats.ref_word_matches


@FUZZ
@given(hyp=sentences, refs=st.lists(sentences, min_size=1, max_size=4))
def test_best_reference_is_the_first_maximum_and_duplicates_change_nothing(meteor, hyp, refs):
    singles = [meteor.sentence_score(hyp, r).score for r in refs]
    r = meteor.sentence_score(hyp, refs)
    assert r.score == max(singles) and r.best_ref == singles.index(max(singles))
    doubled = meteor.sentence_score(hyp, refs + refs)
    assert (doubled.score, doubled.best_ref, doubled.stats) == (r.score, r.best_ref, r.stats)


@FUZZ
@given(pairs=st.lists(st.tuples(sentences, sentences), min_size=1, max_size=8), data=st.data())
def test_corpus_statistics_add_up_in_any_order(meteor, pairs, data):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    corpus = meteor.corpus_score(hyps, refs)
    assert corpus.stats == MeteorStats.sum(meteor.sentence_score(h, r).stats for h, r in pairs)
    order = data.draw(st.permutations(range(len(pairs))))
    shuffled = meteor.corpus_score([hyps[k] for k in order], [refs[k] for k in order])
    assert shuffled.stats == corpus.stats and shuffled.score == corpus.score
    assert 0.0 <= corpus.score <= 1.0
