"""The extensions of issue 16: crossing-based fragmentation, the lemma and wn_similarity modules.

Oracle: NLTK 3.10.4's ``wordnet.morphy`` and ``Synset.path_similarity`` over WordNet 3.0, stored in
tests/data/wordnet_ext_golden.json by scripts/build_wordnet_ext_goldens.py; the NLTK-run test
re-asks NLTK itself and skips when no nltk_data with WordNet is found.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor_metric import Meteor
from meteor_metric.meteor15.nltk_wordnet import POS_ORDER, NltkWordNet
from meteor_metric.meteor15.statistics import count_crossings
from meteor_metric.meteor15.stemmers import get_stemmer
from meteor_metric.meteor15.wn_similarity import SimilarityIndex, max_distance
from nltk_oracle import nltk_wordnet

GOLDEN = json.loads((Path(__file__).parent / "data" / "wordnet_ext_golden.json").read_text())


# -- fragmentation="crossings" ------------------------------------------------------------------

def test_reversed_order_crosses_every_pair():
    m = Meteor(modules=["exact"], fragmentation="crossings")
    r = m.sentence_score("a b c d", "d c b a")
    assert (r.stats.crossings, r.stats.match_pairs) == (6, 6)
    assert r.fmean == 1.0
    assert r.score == 1.0 - m.params.gamma


def test_identical_pair_scores_its_fmean():
    m = Meteor(modules=["exact"], fragmentation="crossings")
    r = m.sentence_score("the cat sat on the mat", "the cat sat on the mat today")
    assert r.stats.crossings == 0 and r.fragmentation_penalty == 0.0
    assert r.score == r.fmean < 1.0


def test_crossings_count_matches_not_words():
    # a 2-word paraphrase-like span counts as one match: ((ref 0-1, hyp 2-3), (ref 2, hyp 0))
    assert count_crossings([(0, 2, 2, 2, 0), (2, 1, 0, 1, 0)]) == (1, 1)
    assert count_crossings([(0, 1, 0, 1, 0)]) == (0, 0)


def test_corpus_crossings_are_summed_statistics():
    m = Meteor(modules=["exact"], fragmentation="crossings")
    hyps, refs = ["a b c d", "x y z", "p q"], ["d c b a", "x z y", "p q"]
    corpus = m.corpus_score(hyps, refs)
    crossings = sum(m.sentence_score(h, r).stats.crossings for h, r in zip(hyps, refs))
    pairs = sum(m.sentence_score(h, r).stats.match_pairs for h, r in zip(hyps, refs))
    assert (corpus.stats.crossings, corpus.stats.match_pairs) == (crossings, pairs) == (7, 10)
    assert corpus.fragmentation_penalty == m.params.gamma * (7 / 10) ** m.params.beta


def test_chunks_default_unchanged_and_named():
    hyp, ref = "the quick brown fox jumped", "the brown quick fox jumps"
    default, crossing = Meteor(), Meteor(fragmentation="crossings")
    assert default.sentence_score(hyp, ref).stats.crossings == 0
    assert "ext:" not in default.signature and "ext:crossings" in crossing.signature
    assert crossing.sentence_score(hyp, ref).score != default.sentence_score(hyp, ref).score


def test_bad_options_raise():
    with pytest.raises(ValueError, match="fragmentation"):
        Meteor(fragmentation="crossing")
    with pytest.raises(ValueError, match="similarity_threshold"):
        Meteor(modules=["exact", "wn_similarity"], similarity_threshold=0)
    with pytest.raises(ValueError, match="English WordNet"):
        Meteor("fr", modules=["exact", "lemma"])


# -- lemma --------------------------------------------------------------------------------------

@pytest.mark.parametrize("hyp,ref", [("mice", "mouse"), ("ran", "run")])
def test_lemma_matches_where_stems_do_not(hyp, ref):
    stem = get_stemmer("english")
    assert stem(hyp) != stem(ref)
    assert not Meteor(modules=["exact", "stem"]).sentence_score(hyp, ref).alignment
    m = Meteor(modules=["exact", "stem", "lemma"], weights=[1.0, 0.6, 0.7])
    (match,) = m.sentence_score(hyp, ref).alignment
    assert m.modules[match.module] == "lemma"
    assert "ext:lemma" in m.signature


def test_lemmas_are_nltk_morphy_stored():
    wordnet = NltkWordNet.shipped()
    for word, by_pos in GOLDEN["morphy"].items():
        for pos in POS_ORDER:
            forms = wordnet.morphy(word, pos)
            assert (forms[0] if forms else None) == by_pos[pos], (word, pos)
        assert wordnet.lemmas(word) == {v for v in by_pos.values() if v is not None}, word


# -- wn_similarity ------------------------------------------------------------------------------

def test_similarity_is_nltk_path_similarity_stored():
    index = SimilarityIndex.shipped()
    for a, b, want in GOLDEN["similarity"]:
        assert index.similarity(a, b) == want, (a, b)


@pytest.mark.parametrize("threshold,distance", [(0.85, 0), (0.5, 1), (0.34, 1), (1 / 3, 2), (0.2, 4)])
def test_threshold_to_distance(threshold, distance):
    assert max_distance(threshold) == distance


def test_wn_similarity_matches_above_threshold_only():
    pairs = {(a, b): s for a, b, s in GOLDEN["similarity"]}
    assert pairs["dog", "canine"] == 0.5 and pairs["dog", "cat"] == 0.2  # NLTK's values, stored
    m = Meteor(modules=["exact", "wn_similarity"], weights=[1.0, 0.5], similarity_threshold=0.5)
    (match,) = m.sentence_score("dog", "canine").alignment
    assert m.modules[match.module] == "wn_similarity"
    assert not m.sentence_score("dog", "cat").alignment
    default = Meteor(modules=["exact", "wn_similarity"], weights=[1.0, 0.5])  # 0.85: one synset
    assert default.params.similarity_threshold == 0.85
    assert not default.sentence_score("dog", "canine").alignment
    assert default.sentence_score("car", "automobile").alignment
    assert "sim>=0.5" in m.signature


def test_against_nltk_itself():
    wordnet = nltk_wordnet()
    shipped, index = NltkWordNet.shipped(), SimilarityIndex.shipped()
    for word in GOLDEN["morphy"]:
        assert shipped.lemmas(word) == {f for f in (wordnet.morphy(word, p) for p in "nvar") if f}, word
    for a, b, _ in GOLDEN["similarity"]:
        scores = [s.path_similarity(t) for s in wordnet.synsets(a) for t in wordnet.synsets(b)]
        known = [x for x in scores if x is not None]
        assert index.similarity(a, b) == (max(known) if known else None), (a, b)


# -- the CLI and the evaluate wrapper -----------------------------------------------------------

def test_cli_fragmentation_and_modules(tmp_path, capsys):
    from meteor_metric.cli.main import main

    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b c d\nthe mice ran\n")
    ref.write_text("d c b a\nthe mouse run\n")
    args = ["score", "--hyp", str(hyp), "--ref", str(ref), "--json", "--modules", "exact,lemma",
            "--weights", "1,0.6", "--fragmentation", "crossings"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    want = Meteor(modules=["exact", "lemma"], weights=[1, 0.6], fragmentation="crossings").corpus_score(
        ["a b c d", "the mice ran"], ["d c b a", "the mouse run"])
    assert out["score"] == want.score and out["signature"] == want.signature
    assert main(args + ["--profile", "nltk"]) == 2


def test_get_scorer_passes_extensions():
    from meteor_metric.profiles.registry import get_scorer

    scorer = get_scorer("meteor-1.5", modules=["exact"], fragmentation="crossings")
    assert scorer.sentence_score("a b c d", "d c b a").score == 1.0 - scorer.params.gamma
    with pytest.raises(ValueError, match="fragmentation"):
        get_scorer("nltk", fragmentation="crossings")
