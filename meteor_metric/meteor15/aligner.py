"""The jar's beam-search aligner (``Aligner.align``/``resolve``), quirks included.

Reproduced on purpose, because they change scores:

* aligner weights are 1.0 for exact-type modules and 0.5 for the others, added
  to Java ``int`` counters, so a one-word non-exact match gains 0 and an L-word
  paraphrase gains ``L // 2`` per side;
* when a path branches, the distance of the new match is added to the parent
  path, not to the branch;
* a skipped position mutates the parent path in place;
* "fixed" matches (the only candidate at a reference position, covering words
  no other candidate covers) are placed before the search;
* identical token sequences run only the first module.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Optional, Sequence

from ..core.alignment import Match
from .limits import check_candidates
from .matcher import Matcher

_sort_key = itemgetter(0)


def find_candidates(hyp: Sequence[str], ref: Sequence[str], hyp_keys: Sequence[int],
                    ref_keys: Sequence[int], matchers: Sequence[Matcher],
                    limit: Optional[int] = None, where: str = "the hypothesis and reference",
                    used: int = 0) -> list[list[Match]]:
    """Candidates per reference position, in the order the jar appends them.

    With ``limit``, the search stops once ``used`` (the segment's candidates against its earlier references)
    and the candidates found pass ``limit``, and raises :func:`.limits.check_candidates`'s ``ValueError``,
    naming the pair as ``where``."""
    candidates: list[list[Match]] = [[] for _ in ref]
    n_modules = 1 if hyp_keys == ref_keys else len(matchers)
    new = tuple.__new__  # Match(*span, module) without the Python-level __new__
    found = used
    for module in range(n_modules):
        tail = (module,)
        spans = matchers[module].find(hyp, ref, hyp_keys, ref_keys, None if limit is None else limit - found)
        found += len(spans)
        check_candidates(found, limit, where)
        for span in spans:
            candidates[span[0]].append(new(Match, span + tail))
    return candidates


def align(n_hyp: int, candidates: Sequence[Sequence[Match]], exact_type: Sequence[bool],
          beam_size: int) -> list[Match]:
    """The jar's best alignment: chosen matches in reference order."""
    n_ref = len(candidates)
    hyp_cover = [0] * n_hyp
    ref_cover = [0] * n_ref
    for cands in candidates:
        for ref_start, ref_len, hyp_start, hyp_len, _ in cands:
            if hyp_len == 1:  # the common case, without a range
                hyp_cover[hyp_start] += 1
            else:
                for k in range(hyp_start, hyp_start + hyp_len):
                    hyp_cover[k] += 1
            if ref_len == 1:
                ref_cover[ref_start] += 1
            else:
                for k in range(ref_start, ref_start + ref_len):
                    ref_cover[k] += 1

    fixed: list[Optional[Match]] = [None] * n_ref
    ambiguous = False
    for j, cands in enumerate(candidates):
        if len(cands) == 1:
            m = cands[0]
            if (all(ref_cover[k] == 1 for k in range(j, j + m.ref_len))
                    and all(hyp_cover[k] == 1 for k in range(m.hyp_start, m.hyp_start + m.hyp_len))):
                fixed[j] = m
                continue
        if cands:
            ambiguous = True
    if not ambiguous:  # a single path that takes every fixed match
        return [m for m in fixed if m is not None]
    chosen = list(fixed)
    path = _search(candidates, exact_type, fixed, ref_cover, beam_size)
    while path[4] is not None:  # the path's last chosen match, then the path it was chosen on
        chosen[path[4].ref_start] = path[4]
        path = path[5]
    return [m for m in chosen if m is not None]


def _span_mask(start: int, length: int) -> int:
    return ((1 << length) - 1) << start


def _steps(cands: Sequence[Match], exact_type: Sequence[bool], chunk_radix: int) -> list[tuple]:
    """Per candidate: hypothesis mask, reference end, key of its gain, hypothesis start and end,
    distance, the match. The jar's aligner credit is weight 1 for exact-type modules, else 0.5
    added to an int (truncated)."""
    out = []
    for m in cands:
        ref_start, ref_len, hyp_start, hyp_len, module = m
        gain = hyp_len + ref_len if exact_type[module] else hyp_len // 2 + ref_len // 2
        out.append((((1 << hyp_len) - 1) << hyp_start, ref_start + ref_len, -gain * chunk_radix,
                    hyp_start, hyp_start + hyp_len, abs(ref_start - hyp_start), m))
    return out


def _search(candidates: Sequence[Sequence[Match]], exact_type: Sequence[bool], fixed: list[Optional[Match]],
            ref_cover: list[int], beam_size: int):
    """Run the jar's beam search; returns the best path.

    A path is ``(key, last, used_hyp, ref_end, match, parent)``: ``key`` packs the
    jar's ordering (more aligner matches, then fewer chunks, then less distance)
    into one integer, so a stable sort on it ranks paths exactly like the jar's
    comparator; ``last`` is the hypothesis end of the open chunk (-1: none);
    ``used_hyp`` a bitmask of used hypothesis words; ``ref_end`` the reference end
    of the path's last chosen match (the path passes positions before it);
    ``match`` the last match the path chose (``None``: none yet) and ``parent`` the path it
    chose it on (which holds the earlier choices the same way). Keys may omit a term
    that every path of the beam gets at the same step: only their order matters.

    The jar's used reference words are not kept: a candidate's reference words can
    only be used by a match that covers its start (then the path passes it) or by a
    fixed match (which covers no other candidate's words). Positions inside a fixed
    match are passed by every path, so nothing happens there. A path never reaches a
    fixed position inside a multi-word match (that match would raise the fixed
    words' coverage above 1), so the jar's drop branch never occurs either.
    """
    n_ref = len(candidates)
    dist_radix = 1 + sum(abs(m[0] - m[2]) for at in candidates for m in at)  # > any distance
    chunk_radix = (n_ref + 2) * dist_radix  # chunks stay below n_ref + 2
    used_hyp = 0
    inside = [False] * n_ref  # positions after the first of a fixed match: every path is inside it
    for m in fixed:
        if m is not None:
            used_hyp |= _span_mask(m.hyp_start, m.hyp_len)
            inside[m.ref_start + 1:m.ref_start + m.ref_len] = [True] * (m.ref_len - 1)
    last_after = _settled_last(fixed, ref_cover, inside)
    paths = [(0, -1, used_hyp, 0, None, None)]
    settled = False
    for cur in range(n_ref):
        if inside[cur]:
            continue
        f = fixed[cur]
        if f is not None or not ref_cover[cur]:
            if not settled:
                paths.sort(key=_sort_key)
                del paths[beam_size:]
                paths = _settle(paths, -1 if f is None else f.hyp_start, last_after[cur], dist_radix)
                settled = True
            continue
        settled = False
        paths.sort(key=_sort_key)
        del paths[beam_size:]
        paths = _branch(paths, _steps(candidates[cur], exact_type, chunk_radix), cur, dist_radix,
                        chunk_radix, beam_size)
    paths.sort(key=_sort_key)
    del paths[beam_size:]
    # closing the last chunk: +1 on every path with an open chunk, then the final ranking
    best = min(((p[0] + (dist_radix if p[1] != -1 else 0), rank) for rank, p in enumerate(paths)))
    return paths[best[1]]


def _settled_last(fixed: Sequence[Optional[Match]], ref_cover: Sequence[int],
                  inside: Sequence[bool]) -> list[int]:
    """For each position without choice (a fixed match, or no candidate), every path's ``last`` at the
    end of the run of such positions it belongs to: the hypothesis end of a final fixed match, else -1.
    Positions ``inside`` a fixed match change nothing and do not end a run."""
    out = [-1] * len(fixed)
    after = -1
    for cur in range(len(fixed) - 1, -1, -1):
        if inside[cur]:
            continue
        m = fixed[cur]
        if m is None and ref_cover[cur]:
            after = None  # a position with choice ends the run before it
            continue
        if after is None:
            after = -1 if m is None else m.hyp_start + m.hyp_len
        out[cur] = after
    return out


def _settle(paths: list[tuple], hyp_start: int, last: int, dist_radix: int) -> list[tuple]:
    """Paths after a run of positions without choice: a fixed match (at ``hyp_start``) or none (-1).

    The first position closes each path's open chunk unless the fixed match continues it, and leaves
    every path with the same ``last``; each further position of the run then adds the same amount to
    every key (dropped: it leaves the order unchanged) and only moves ``last``, to ``last`` in the end.
    """
    return [(key + dist_radix if end != -1 and end != hyp_start else key, last, uh, ref_end, match, parent)
            for key, end, uh, ref_end, match, parent in paths]


def _branch(paths: list[tuple], step: list[tuple], cur: int, dist_radix: int, bound: int,
            beam_size: int) -> list[tuple]:
    """Successors of the sorted ``paths`` at the reference position ``cur``, minus those that cannot
    make the beam.

    What a path that does not pass ``cur`` can do here depends only on its used hypothesis words
    among the candidates' and its open chunk end ``last`` (see :func:`_search` for why reference
    words need no check). The moves are computed once per such signature (:func:`_moves`).

    ``bound`` starts above every key. Once ``beam_size`` successors with keys <= ``bound`` exist, a
    successor generated later with key >= ``bound`` ranks after all of them in the next (stable) sort,
    so it is never kept and is not built. Every successor of a path is >= its key + ``floor`` (the best
    gain here; distances and chunk closings only add), and paths come in ascending key order, so once
    that reaches ``bound`` no later path contributes. The list is cut to its first ``beam_size``
    (stable) whenever it doubles: that tightens ``bound`` and keeps exactly the successors the full
    sort would keep, in the same order of ties.
    """
    hyp_union = 0
    for s in step:
        hyp_union |= s[0]
    floor = min([0] + [s[2] for s in step])
    next_paths = []
    append = next_paths.append
    cut = beam_size
    by_signature: dict[tuple[int, int], tuple[list[tuple], int]] = {}
    for path in paths:
        key, last, uh, ref_end, match, parent = path
        limit = bound - key
        if floor >= limit:
            break
        if ref_end > cur:  # inside a multi-word match this path chose earlier
            append(path)
            continue
        signature = (uh & hyp_union, last)
        moves = by_signature.get(signature)
        if moves is None:
            moves = by_signature[signature] = _moves(step, uh, last, dist_radix)
        branches, skip = moves
        for delta, hyp_end, hm, m_ref_end, m in branches:
            if delta < limit:
                append((key + delta, hyp_end, uh | hm, m_ref_end, m, path))
        if skip < limit:
            append((key + skip, -1, uh, ref_end, match, parent))
        if len(next_paths) >= cut:
            next_paths.sort(key=_sort_key)
            del next_paths[beam_size:]
            bound = next_paths[-1][0]
            cut = 2 * beam_size
    return next_paths


def _moves(step: list[tuple], uh: int, last: int, dist_radix: int) -> tuple[list[tuple], int]:
    """A path's branches at a position (key delta and new state per usable candidate) and its skip delta.

    The jar adds each branch's distance to the parent path, so later branches and the skip carry the
    distances of the earlier usable candidates.
    """
    branches = []
    parent_distance = 0
    for hm, ref_end, gain_key, hyp_start, hyp_end, distance, m in step:
        if uh & hm:
            continue
        delta = gain_key + parent_distance + (dist_radix if last != -1 and hyp_start != last else 0)
        branches.append((delta, hyp_end, hm, ref_end, m))
        parent_distance += distance
    return branches, parent_distance + (dist_radix if last != -1 else 0)


def count_chunks(matches: Sequence[Match]) -> int:
    """Chunks of an alignment (``getCountAndChunks``): runs adjacent in both sentences."""
    chunks = 0
    last = -1
    idx = 0
    for m in matches:  # sorted by ref_start, non-overlapping
        if m.ref_start != idx and last != -1:
            chunks += 1  # a gap in the reference closes the chunk
            last = -1
        if last != -1 and m.hyp_start != last:
            chunks += 1
        idx = m.ref_start + m.ref_len
        last = m.hyp_start + m.hyp_len
    if last != -1:
        chunks += 1
    return chunks
