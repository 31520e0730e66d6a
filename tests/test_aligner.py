"""Aligner units; the jar-level behaviour (quirks included) is covered by tests/test_conformance_java.py."""

from hypothesis import given, settings, strategies as st

from meteor_metric.meteor15.aligner import Match, count_chunks


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


def test_unambiguous_candidates_are_all_taken(align_fn):
    cands = [[Match(0, 1, 1, 1, 0)], [], [Match(2, 1, 0, 1, 0)]]
    assert align_fn(2, cands, [True], 40) == [Match(0, 1, 1, 1, 0), Match(2, 1, 0, 1, 0)]


def test_equal_matches_then_fewer_chunks(align_fn):
    # ref "a a" vs hyp "a a": four exact candidates; both straight and crossed take 2 matches, straight has 1 chunk
    cands = [[Match(0, 1, 0, 1, 0), Match(0, 1, 1, 1, 0)], [Match(1, 1, 0, 1, 0), Match(1, 1, 1, 1, 0)]]
    assert [tuple(m) for m in align_fn(2, cands, [True], 40)] == [(0, 1, 0, 1, 0), (1, 1, 1, 1, 0)]
    # with a crossed order only, the matches are kept in two chunks
    cands = [[Match(0, 1, 1, 1, 0)], [Match(1, 1, 0, 1, 0)]]
    assert count_chunks(align_fn(2, cands, [True], 40)) == 2


def test_single_word_non_exact_match_has_no_aligner_credit(align_fn):
    # a stem candidate competing with a synonym candidate for the same pair gains int(0.5) = 0 per side,
    # so the empty alignment ranks first (the jar scores "walks" vs "walk" as 0.0)
    cands = [[Match(0, 1, 0, 1, 1), Match(0, 1, 0, 1, 2)]]
    assert align_fn(1, cands, [True, False, False], 40) == []


def _jar_align(n_hyp, candidates, exact_type, beam):
    """A literal transcription of the jar's Aligner.align/resolve (spec §4), quirks included."""
    n_ref = len(candidates)
    cov1, cov2 = [0] * n_hyp, [0] * n_ref
    for cands in candidates:
        for m in cands:
            for k in range(m.hyp_start, m.hyp_start + m.hyp_len):
                cov1[k] += 1
            for k in range(m.ref_start, m.ref_start + m.ref_len):
                cov2[k] += 1
    init = {"matches": [None] * n_ref, "m": 0, "chunks": 0, "idx": 0, "last": -1, "dist": 0,
            "u1": [False] * n_hyp, "u2": [False] * n_ref}
    for j, cands in enumerate(candidates):
        if len(cands) == 1:
            m = cands[0]
            if (all(cov2[k] == 1 for k in range(j, j + m.ref_len))
                    and all(cov1[k] == 1 for k in range(m.hyp_start, m.hyp_start + m.hyp_len))):
                init["matches"][j] = m
                for k in range(m.hyp_start, m.hyp_start + m.hyp_len):
                    init["u1"][k] = True
                for k in range(m.ref_start, m.ref_start + m.ref_len):
                    init["u2"][k] = True

    def add(p, m):
        w = 1.0 if exact_type[m.module] else 0.5
        p["m"] = int(p["m"] + m.hyp_len * w)
        p["m"] = int(p["m"] + m.ref_len * w)
        if p["last"] != -1 and m.hyp_start != p["last"]:
            p["chunks"] += 1
        p["idx"], p["last"] = m.ref_start + m.ref_len, m.hyp_start + m.hyp_len

    def copy(p):
        return {**p, "matches": list(p["matches"]), "u1": list(p["u1"]), "u2": list(p["u2"])}

    nxt = [init]
    for cur in range(n_ref + 1):
        paths = sorted(nxt, key=lambda p: (-p["m"], p["chunks"], p["dist"]))
        nxt = []
        for path in paths[:beam]:
            if cur == n_ref:
                if path["last"] != -1:
                    path["chunks"] += 1
                nxt.append(path)
                continue
            if path["u2"][cur]:
                if cur < path["idx"]:
                    nxt.append(path)
                elif path["matches"][path["idx"]] is not None:
                    m = path["matches"][path["idx"]]
                    add(path, m)
                    path["dist"] += abs(m.ref_start - m.hyp_start)
                    nxt.append(path)
                continue
            for m in candidates[cur]:
                if (any(path["u2"][k] for k in range(m.ref_start, m.ref_start + m.ref_len))
                        or any(path["u1"][k] for k in range(m.hyp_start, m.hyp_start + m.hyp_len))):
                    continue
                new = copy(path)
                for k in range(m.hyp_start, m.hyp_start + m.hyp_len):
                    new["u1"][k] = True
                for k in range(m.ref_start, m.ref_start + m.ref_len):
                    new["u2"][k] = True
                new["matches"][cur] = m
                add(new, m)
                path["dist"] += abs(m.ref_start - m.hyp_start)  # the jar's parent-distance bug
                nxt.append(new)
            if path["last"] != -1:
                path["chunks"] += 1
                path["last"] = -1
            path["idx"] += 1
            nxt.append(path)
        if not nxt:
            nxt.append(paths[0])
    best = sorted(nxt, key=lambda p: (-p["m"], p["chunks"], p["dist"]))[0]
    return [m for m in best["matches"] if m is not None]


@st.composite
def _candidate_sets(draw):
    n_hyp, n_ref = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    spans = draw(st.lists(st.tuples(st.integers(0, n_ref - 1), st.integers(1, 3), st.integers(0, n_hyp - 1),
                                    st.integers(1, 3), st.integers(0, 3)), max_size=24))
    candidates = [[] for _ in range(n_ref)]
    for ref_start, ref_len, hyp_start, hyp_len, module in spans:
        if module < 3:  # exact, stem and synonym matches are one word to one word
            ref_len = hyp_len = 1
        if ref_start + ref_len <= n_ref and hyp_start + hyp_len <= n_hyp:
            candidates[ref_start].append(Match(ref_start, ref_len, hyp_start, hyp_len, module))
    return n_hyp, candidates


@settings(max_examples=1500, deadline=None)
@given(_candidate_sets(), st.integers(1, 6))
def test_align_equals_jar_transcription(align_fn, case, beam):
    # small beams make the pruning of successors and the shared moves decide often
    n_hyp, candidates = case
    exact_type = [True, False, False, False]
    assert align_fn(n_hyp, candidates, exact_type, beam) == _jar_align(n_hyp, candidates, exact_type, beam)
