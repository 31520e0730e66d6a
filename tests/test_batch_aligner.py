"""align_batch runs many segments' beam searches in lock-step; each result must equal aligner.align's."""

import pytest
from hypothesis import given, settings, strategies as st

from meteor_metric.meteor15.aligner import Match, align
from meteor_metric.meteor15.batch_aligner import align_batch
from tests.test_aligner import _candidate_sets

EXACT = [True, False, False, False]


@settings(max_examples=600, deadline=None)
@given(st.lists(_candidate_sets(), min_size=1, max_size=8), st.integers(1, 6))
def test_batch_equals_align(cases, beam):
    # several problems share each step; small beams make the cut to beam_size decide often
    problems = [(n_hyp, candidates, EXACT) for n_hyp, candidates in cases]
    assert align_batch(problems, beam) == [align(*p, beam) for p in problems]


@st.composite
def _shifted(draw):
    """A random problem whose hypothesis words start at an offset, so spans cross 64-bit words."""
    n_hyp, candidates = draw(_candidate_sets())
    shift = draw(st.integers(0, 130))
    return n_hyp + shift, [[m._replace(hyp_start=m.hyp_start + shift) for m in at] for at in candidates]


@settings(max_examples=300, deadline=None)
@given(st.lists(_shifted(), min_size=1, max_size=8), st.integers(1, 6))
def test_batch_equals_align_on_long_hypotheses(cases, beam):
    problems = [(n_hyp, candidates, EXACT) for n_hyp, candidates in cases]
    assert align_batch(problems, beam) == [align(*p, beam) for p in problems]


def test_empty_batch_and_empty_candidates():
    assert align_batch([], 40) == []
    assert align_batch([(3, [], EXACT), (2, [[], []], EXACT)], 40) == [[], []]


def test_single_problem():
    cands = [[Match(0, 1, 0, 1, 0), Match(0, 1, 1, 1, 0)], [Match(1, 1, 0, 1, 0), Match(1, 1, 1, 1, 0)]]
    assert align_batch([(2, cands, EXACT)], 40) == [[Match(0, 1, 0, 1, 0), Match(1, 1, 1, 1, 0)]]


def test_problems_without_choice_next_to_searched_ones():
    fixed_only = [[Match(0, 1, 1, 1, 0)], [], [Match(2, 1, 0, 1, 0)]]
    searched = [[Match(0, 1, 0, 1, 0), Match(0, 1, 1, 1, 0)], [Match(1, 1, 0, 1, 0)]]
    problems = [(2, fixed_only, EXACT), (2, searched, EXACT), (2, fixed_only, EXACT)]
    assert align_batch(problems, 3) == [align(*p, 3) for p in problems]


@pytest.mark.parametrize("beam", [1, 2, 40])
def test_spans_across_64_bit_words(beam):
    # paraphrase-like spans starting at hypothesis words 60..66 end in the next 64-bit word
    n_hyp = 140
    problems = []
    for offset in range(6):
        cands = [[] for _ in range(12)]
        for j in range(12):
            hyp = 58 + offset + j
            cands[j].append(Match(j, 1, hyp, 1, 0))
            if j + 2 <= 12:
                cands[j].append(Match(j, 2, hyp, 3, 3))
                cands[j].append(Match(j, 1, 127 - j, 4, 3))
            cands[j].append(Match(j, 1, 64 + j % 3, 1, 0))
        problems.append((n_hyp, cands, EXACT))
    problems.append((70, [[Match(0, 1, 0, 1, 0), Match(0, 1, 63, 2, 3)], [Match(1, 1, 64, 1, 0)]], EXACT))
    assert align_batch(problems, beam) == [align(*p, beam) for p in problems]


def test_bad_beam_size():
    with pytest.raises(ValueError):
        align_batch([], 0)
    with pytest.raises(TypeError):
        align_batch([], 2.0)


def test_problems_outside_the_packed_search_fall_back_to_align(monkeypatch):
    # a candidate spanning 65 hypothesis words does not fit a 64-bit mask word
    wide = [[Match(0, 1, 0, 65, 3), Match(0, 1, 0, 1, 0)], [Match(1, 1, 1, 1, 0), Match(1, 1, 70, 1, 0)]]
    small = [[Match(0, 1, 0, 1, 0), Match(0, 1, 1, 1, 0)], [Match(1, 1, 0, 1, 0), Match(1, 1, 1, 1, 0)]]
    problems = [(130, wide, EXACT), (130, small, EXACT)]
    assert align_batch(problems, 2) == [align(*p, 2) for p in problems]
    # keys that could overflow 64 bits (here: any key, with the limit lowered)
    monkeypatch.setattr("meteor_metric.meteor15.batch_aligner._MAX_KEY", 1)
    problems = [(2, small, EXACT), (2, small, EXACT)]
    assert align_batch(problems, 1) == [align(*p, 1) for p in problems]


def test_one_lexsort_per_step_when_keys_do_not_fit_one_sort(monkeypatch):
    monkeypatch.setattr("meteor_metric.meteor15.batch_aligner._SORT_RANGE", 1)
    cands = [[Match(0, 1, 0, 1, 0), Match(0, 1, 1, 1, 0)], [Match(1, 1, 0, 1, 0), Match(1, 1, 1, 1, 0)],
             [Match(2, 1, 2, 1, 0), Match(2, 1, 0, 1, 1)]]
    problems = [(3, cands, EXACT), (3, [*cands[:2], []], EXACT)]
    for beam in (1, 2, 40):
        assert align_batch(problems, beam) == [align(*p, beam) for p in problems]


def test_malformed_candidates():
    with pytest.raises(ValueError):  # a match listed at the wrong reference position
        align_batch([(2, [[], [Match(0, 1, 0, 1, 0)]], EXACT)], 40)
    with pytest.raises(ValueError):  # a hypothesis span beyond the sentence
        align_batch([(2, [[Match(0, 1, 1, 2, 0)]], EXACT)], 40)
    with pytest.raises(ValueError):  # a module without an exact_type entry
        align_batch([(2, [[Match(0, 1, 0, 1, 4)]], EXACT)], 40)
    with pytest.raises(ValueError):
        align_batch([(2, [])], 40)
