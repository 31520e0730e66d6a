"""The ``original`` profile (Banerjee & Lavie 2005): exact alignment, hand-checked scores, errors."""

from __future__ import annotations

import doctest
import itertools
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from nltk.stem.porter import PorterStemmer

import meteor_metric.profiles.original
from meteor_metric import __version__
from meteor_metric.profiles.original import OriginalMeteor, sum_stats
from meteor_metric.profiles.original_align import DEFAULT_SEARCH_BUDGET, SearchBudgetExceeded, align_stage
from meteor_metric.core.stats import MeteorStats
from meteor_metric.meteor15.synonyms import SynonymTable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from anagrams import anagram_groups, anagram_pair  # noqa: E402  (shared with the benchmarks)

# repeats, Porter pairs (cat/cats, sits/sitting) and a non-transitive synonym chain (large~big~bad)
VOCAB = ["the", "the", "a", ",", "cat", "cats", "car", "cars", "auto", "big", "large", "bad",
         "sat", "sits", "sitting", "good", "well"]
INF = math.inf


@pytest.fixture(scope="module")
def scorer() -> OriginalMeteor:
    return OriginalMeteor()


# -- a plain brute force over every 1:1 alignment of a stage ---------------------------------------

def plain_chunks(pairs: set[tuple[int, int]]) -> int:
    """A match starts a chunk unless the match one step back in both sentences is also aligned."""
    return sum(1 for i, j in pairs if (i - 1, j - 1) not in pairs)


def brute_stage(cands: set[tuple[int, int]], earlier: dict[int, int]) -> dict[int, int]:
    rows = sorted({i for i, _ in cands})
    options = {i: sorted(j for r, j in cands if r == i) for i in rows}
    fixed = set(earlier.items())
    best_key, best = None, None
    for picks in itertools.product(*[options[i] + [None] for i in rows]):
        cols = [j for j in picks if j is not None]
        if len(cols) != len(set(cols)):
            continue
        chosen = {i: j for i, j in zip(rows, picks) if j is not None}
        key = (-len(chosen), plain_chunks(fixed | set(chosen.items())),
               tuple(INF if j is None else j for j in picks))
        if best_key is None or key < best_key:
            best_key, best = key, chosen
    return best or {}


STEM = PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM).stem
SYN = SynonymTable.english().synsets
RELATIONS = [lambda a, b: a == b, lambda a, b: STEM(a) == STEM(b), lambda a, b: bool(SYN(a) & SYN(b))]


def brute_align(hyp: list[str], ref: list[str]) -> list[tuple[int, int, int]]:
    matched: dict[int, int] = {}
    out = []
    for module, related in enumerate(RELATIONS):
        taken = set(matched.values())
        cands = {(i, j) for i in range(len(ref)) for j in range(len(hyp))
                 if i not in matched and j not in taken and related(ref[i], hyp[j])}
        new = brute_stage(cands, matched)
        matched.update(new)
        out += [(i, j, module) for i, j in new.items()]
    return sorted(out)


sentences = st.lists(st.sampled_from(VOCAB), max_size=7)


@settings(max_examples=300, deadline=None)
@given(sentences, sentences)
def test_staged_alignment_equals_brute_force(scorer, hyp, ref):
    got = scorer.align(hyp, ref)
    assert [(a.ref_start, a.hyp_start, a.module) for a in got] == brute_align(hyp, ref)


@st.composite
def stage_problems(draw):
    n_ref, n_hyp = draw(st.integers(0, 6)), draw(st.integers(0, 6))
    hyp_order = draw(st.permutations(range(n_hyp)))
    n_earlier = draw(st.integers(0, min(n_ref, n_hyp)))
    earlier_rows = draw(st.lists(st.integers(0, max(n_ref - 1, 0)), unique=True,
                                 min_size=min(n_earlier, n_ref), max_size=min(n_earlier, n_ref)))
    earlier = dict(zip(sorted(earlier_rows), hyp_order))
    free = [(i, j) for i in range(n_ref) for j in range(n_hyp)
            if i not in earlier and j not in earlier.values()]
    cands = draw(st.sets(st.sampled_from(free))) if free else set()
    return cands, earlier


@settings(max_examples=400, deadline=None)
@given(stage_problems())
def test_stage_on_arbitrary_graphs_equals_brute_force(problem):
    cands, earlier = problem
    assert align_stage(cands, earlier) == brute_stage(cands, earlier)


# -- worked examples -------------------------------------------------------------------------------

def test_reordered_sentence_takes_fewest_chunks(scorer):
    # "the cat" | "sat" | "on the mat": 3 chunks of 6 matches; 0.5 * (1/2)^3 = 1/16
    res = scorer.sentence_score("on the mat sat the cat", "the cat sat on the mat")
    assert (res.chunks, res.fmean, res.score) == (3, 1.0, 0.9375)
    pairs = [(a.ref_start, a.hyp_start) for a in res.alignment]
    assert pairs == [(0, 4), (1, 5), (2, 3), (3, 0), (4, 1), (5, 2)]


def test_inserted_word(scorer):
    # m=6, P=6/7, R=1: Fmean = 60/61; 2 chunks: penalty 0.5 * (2/6)^3 = 1/54
    res = scorer.sentence_score("the cat was sat on the mat", "the cat sat on the mat")
    assert res.chunks == 2
    assert res.fmean == pytest.approx(60 / 61, abs=1e-15)
    assert res.score == pytest.approx(60 / 61 * (1 - 1 / 54), abs=1e-15)


def test_reading_group_exercise_with_stem_match(scorer):
    # ÚFAL's exercise on the 2005 paper, solved by hand: exact disappointed, the, room, "." and
    # stem bidders~bidder; "went"/"leaved" share no WordNet synset. m=5 of 9 words on both sides;
    # chunks: bidder | disappointed | the room . -> 3; penalty 0.5 * (3/5)^3 = 0.108
    res = scorer.sentence_score("Two disappointed bidders went out of the room.",
                                "A bidder who was disappointed leaved the room.")
    assert res.stats.test_content_matches == (4, 1, 0)
    assert res.chunks == 3
    assert res.score == pytest.approx(5 / 9 * (1 - 0.108), abs=1e-15)


def test_synonym_stage(scorer):
    res = scorer.sentence_score("a large car", "a big auto")
    assert res.stats.test_content_matches == (1, 0, 2)
    assert res.chunks == 1


@pytest.mark.parametrize("text", ["the cat sat on the mat", "a", "the , the , the , the ."])
def test_identical_sentence_keeps_the_penalty(scorer, text):
    res = scorer.sentence_score(text, [text])
    m = len(scorer.tokens(text))
    assert (res.precision, res.recall, res.fmean, res.chunks) == (1.0, 1.0, 1.0, 1)
    assert res.fragmentation_penalty == 0.5 * (1 / m) ** 3
    assert res.score == 1 - 0.5 * (1 / m) ** 3


def test_no_match_and_empty_sides_score_zero(scorer):
    for hyp, ref in [("alpha beta", "gamma"), ("", "gamma"), ("alpha", ""), ("", "")]:
        res = scorer.sentence_score(hyp, ref)
        assert (res.score, res.fmean, res.chunks, res.alignment) == (0.0, 0.0, 0, ())


@settings(max_examples=200, deadline=None)
@given(sentences, st.lists(sentences, min_size=1, max_size=3))
def test_scores_in_unit_interval_and_first_best_reference(scorer, hyp, refs):
    res = scorer.sentence_score(" ".join(hyp), [" ".join(r) for r in refs])
    singles = [scorer.sentence_score(" ".join(hyp), " ".join(r)).score for r in refs]
    assert 0.0 <= res.score <= 1.0
    assert res.score == max(singles)
    assert res.best_ref == singles.index(max(singles))


def test_multi_reference_reports_first_maximum(scorer):
    refs = ["completely different words", "the cat sat", "the cat sat"]
    res = scorer.sentence_score("the cat sat", refs)
    assert res.best_ref == 1
    assert res.ref_tokens == ("the", "cat", "sat")


# -- corpus ----------------------------------------------------------------------------------------

def test_corpus_is_computed_from_summed_statistics(scorer):
    hyps = ["the cat sat on the mat", "on the mat sat the cat", "a big auto", "nothing here"]
    refs = ["the cat sat on the mat", ["a dog", "the cat sat on the mat"], "a large car", "zzz"]
    res = scorer.corpus_score(hyps, refs)
    segs = [scorer.sentence_score(h, r) for h, r in zip(hyps, refs)]
    m = sum(len(s.alignment) for s in segs)
    h_len = sum(len(s.hyp_tokens) for s in segs)
    r_len = sum(len(s.ref_tokens) for s in segs)
    chunks = sum(s.chunks for s in segs)  # the perfect first segment's chunk counts too
    assert (m, h_len, r_len, chunks) == (15, 17, 16, 5)
    p, r = Fraction(m, h_len), Fraction(m, r_len)
    expected = 10 * p * r / (r + 9 * p) * (1 - Fraction(1, 2) * Fraction(chunks, m) ** 3)
    assert res.score == pytest.approx(float(expected), abs=1e-15)
    assert res.score != pytest.approx(sum(s.score for s in segs) / len(segs))
    assert res.segment_scores == [s.score for s in segs]
    assert res.stats == sum_stats(s.stats for s in segs)
    assert res.signature == scorer.signature.replace(f"|version:{__version__}",
                                                     f"|corpus:summed|nrefs:var|version:{__version__}")


def test_sum_stats_keeps_perfect_segments_chunks():
    perfect = MeteorStats(3, 3, 0, 0, (3, 0, 0), (3, 0, 0), (0, 0, 0), (0, 0, 0), 1, 3, 3)
    assert sum_stats([perfect, perfect]).chunks == 2
    assert MeteorStats.sum([perfect, perfect]).chunks == 0  # the jar's rule, which this profile drops


# -- worst cases (exponential only in principle: these must finish at once) ---------------------

@pytest.mark.parametrize("hyp, ref, chunks", [
    (["the"] * 60, ["the"] * 60, 1),
    (["the", ","] * 50, [",", "the"] * 50, 2),
    (["the"] * 60, ["the"] * 40, 1),
    (["the", "cat"] * 30, ["the"] * 30 + ["cat"] * 30, 59),
])
def test_repeated_words_terminate_with_the_optimum(scorer, hyp, ref, chunks):
    assert len(scorer.align(hyp, ref)) == min(len(hyp), len(ref))
    matches = scorer.align(hyp, ref)
    assert plain_chunks({(a.ref_start, a.hyp_start) for a in matches}) == chunks


# -- signature and errors --------------------------------------------------------------------------

def test_docstring_example():
    result = doctest.testmod(meteor_metric.profiles.original)
    assert result.attempted > 0 and result.failed == 0


def test_signature_names_every_setting(scorer):
    sig = scorer.signature
    for part in ("banerjee-lavie-2005", "porter-original", "wn30", "10PR/(R+9P)", "0.5*frac^3",
                 "norm:norm", "min-chunks", f"version:{__version__}"):
        assert part in sig
    assert scorer.corpus_score(["a"], [["a", "b"]]).signature.endswith(f"nrefs:2|version:{__version__}")


def test_bad_input(scorer):
    with pytest.raises(TypeError, match="hypothesis"):
        scorer.sentence_score(None, "a")
    with pytest.raises(TypeError, match=r"references\[1\]"):
        scorer.sentence_score("a", ["a", 3])
    with pytest.raises(ValueError, match="at least one reference"):
        scorer.sentence_score("a", [])
    with pytest.raises(ValueError, match="2 hypotheses but 1 references"):
        scorer.corpus_score(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="empty corpus"):
        scorer.corpus_score([], [])
    with pytest.raises(TypeError, match="MeteorStats"):
        scorer.score_stats([1, 2])
    with pytest.raises(ValueError, match="3 module slots"):
        scorer.score_stats(MeteorStats(1, 1, 0, 0, (1,), (1,), (0,), (0,), 1, 1, 1))
    with pytest.raises(ValueError, match="inconsistent"):
        scorer.score_stats(MeteorStats(1, 1, 0, 0, (1, 0, 0), (1, 0, 0), (0,) * 3, (0,) * 3, 2, 1, 1))
    with pytest.raises(TypeError, match="token strings"):
        scorer.align("the cat", ["the", "cat"])
    with pytest.raises(ValueError, match="earlier stage"):
        align_stage([(0, 0)], {0: 1})
    with pytest.raises(ValueError, match="non-negative"):
        align_stage([(-1, 0)], {})


def test_search_budget_raises_a_clear_error():
    """A long anagram of 5 words makes the exact search exponential; the budget stops it."""
    rng = random.Random(0)
    ref = [rng.choice("the cat sat on mat".split()) for _ in range(60)]
    hyp = ref[:]
    rng.shuffle(hyp)
    with pytest.raises(SearchBudgetExceeded, match=r"budget of 500 steps.*search_budget"):
        OriginalMeteor(search_budget=500).sentence_score(" ".join(hyp), [" ".join(ref)])
    with pytest.raises(ValueError, match="search_budget must be a positive int"):
        OriginalMeteor(search_budget=0)


BUDGET_MESSAGE = (r"original profile: the exact alignment search of this segment \(all its references, matching "
                  r"stages and word groups together\) exceeded its budget of {} steps .*pass a larger search_budget "
                  r"to OriginalMeteor\(search_budget=\.\.\.\) to wait longer, or shorten or drop the segment")


def test_default_budget_refuses_a_random_60_word_anagram_of_5_words():
    """The issue's case at default settings: refused (deterministically: steps are counted, not timed)."""
    hyp, ref = anagram_pair(60)
    with pytest.raises(SearchBudgetExceeded, match=BUDGET_MESSAGE.format(DEFAULT_SEARCH_BUDGET)):
        OriginalMeteor().sentence_score(hyp, [ref])


def test_budget_is_shared_by_the_groups_and_references_of_a_segment():
    """Each group and each reference alone fits 1,000,000 steps (they need about 465,000 and 749,000);
    one segment with both groups, or with one group twice as reference, does not."""
    scorer = OriginalMeteor(search_budget=1_000_000)
    for seeds in ([4], [5]):
        assert scorer.sentence_score(*anagram_groups(seeds)).score > 0
    with pytest.raises(SearchBudgetExceeded, match=BUDGET_MESSAGE.format(1000000)):
        scorer.sentence_score(*anagram_groups([4, 5]))
    hyp, refs = anagram_groups([5])
    with pytest.raises(SearchBudgetExceeded, match=BUDGET_MESSAGE.format(1000000)):
        scorer.sentence_score(hyp, refs * 2)
    both = OriginalMeteor(search_budget=4_000_000).sentence_score(*anagram_groups([4, 5]))
    assert both.stats.chunks > 2 and both.stats.test_total_matches == 60


def test_default_budget_bounds_a_long_segment_of_many_small_groups():
    """1,800 words in 60 shuffled groups of 30: one group scores at the default budget, the whole
    segment is refused (each group used to get a budget of its own: 60 times the work)."""
    scorer = OriginalMeteor()
    assert scorer.sentence_score(*anagram_groups([3])).stats.test_total_matches == 30
    hyp, refs = anagram_groups([3] * 60)
    assert len(hyp.split()) == 1800
    with pytest.raises(SearchBudgetExceeded, match=BUDGET_MESSAGE.format(DEFAULT_SEARCH_BUDGET)):
        scorer.sentence_score(hyp, refs)
