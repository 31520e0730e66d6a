"""Aligner units; the jar-level behaviour (quirks included) is covered by tests/test_conformance_java.py."""

from hypothesis import given, settings, strategies as st

from meteor_metric.aligner import Match, align, count_chunks


def _reference_chunks(matches, n_ref):
    """getCountAndChunks as the spec words it: walk the reference, a gap or a hypothesis jump closes a chunk."""
    by_start = {m.ref_start: m for m in matches}
    chunks, idx, last = 0, 0, -1
    while idx < n_ref:
        m = by_start.get(idx)
        if m is None:
            if last != -1:
                chunks, last = chunks + 1, -1
            idx += 1
        else:
            if last != -1 and m.hyp_start != last:
                chunks += 1
            idx, last = m.ref_start + m.ref_len, m.hyp_start + m.hyp_len
    return chunks + (last != -1)


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(8)), st.lists(st.booleans(), min_size=8, max_size=8))
def test_count_chunks(perm, keep):
    matches = [Match(j, 1, perm[j], 1, 0) for j in range(8) if keep[j]]
    assert count_chunks(matches) == _reference_chunks(matches, 8)


def test_unambiguous_candidates_are_all_taken():
    cands = [[Match(0, 1, 1, 1, 0)], [], [Match(2, 1, 0, 1, 0)]]
    assert align(2, cands, [True], 40) == [Match(0, 1, 1, 1, 0), Match(2, 1, 0, 1, 0)]


def test_equal_matches_then_fewer_chunks():
    # ref "a a" vs hyp "a a": four exact candidates; both straight and crossed take 2 matches, straight has 1 chunk
    cands = [[Match(0, 1, 0, 1, 0), Match(0, 1, 1, 1, 0)], [Match(1, 1, 0, 1, 0), Match(1, 1, 1, 1, 0)]]
    assert [tuple(m) for m in align(2, cands, [True], 40)] == [(0, 1, 0, 1, 0), (1, 1, 1, 1, 0)]
    # with a crossed order only, the matches are kept in two chunks
    cands = [[Match(0, 1, 1, 1, 0)], [Match(1, 1, 0, 1, 0)]]
    assert count_chunks(align(2, cands, [True], 40)) == 2


def test_single_word_non_exact_match_has_no_aligner_credit():
    # a stem candidate competing with a synonym candidate for the same pair gains int(0.5) = 0 per side,
    # so the empty alignment ranks first (the jar scores "walks" vs "walk" as 0.0)
    cands = [[Match(0, 1, 0, 1, 1), Match(0, 1, 0, 1, 2)]]
    assert align(1, cands, [True, False, False], 40) == []
