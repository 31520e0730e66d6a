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
from typing import NamedTuple, Optional, Sequence

from .matcher import Matcher


class Match(NamedTuple):
    """An aligned unit: ``ref_len`` reference words at ``ref_start`` matched to
    ``hyp_len`` hypothesis words at ``hyp_start`` by module number ``module``."""

    ref_start: int
    ref_len: int
    hyp_start: int
    hyp_len: int
    module: int

    def as_list(self) -> list[int]:
        return list(self)


_sort_key = itemgetter(0)


def find_candidates(hyp: Sequence[str], ref: Sequence[str], hyp_keys: Sequence[int],
                    ref_keys: Sequence[int], matchers: Sequence[Matcher]) -> list[list[Match]]:
    """Candidates per reference position, in the order the jar appends them."""
    candidates: list[list[Match]] = [[] for _ in ref]
    n_modules = 1 if hyp_keys == ref_keys else len(matchers)
    for module in range(n_modules):
        for ref_start, ref_len, hyp_start, hyp_len in matchers[module].find(hyp, ref, hyp_keys, ref_keys):
            candidates[ref_start].append(Match(ref_start, ref_len, hyp_start, hyp_len, module))
    return candidates


def align(n_hyp: int, candidates: Sequence[Sequence[Match]], exact_type: Sequence[bool],
          beam_size: int) -> list[Match]:
    """The jar's best alignment: chosen matches in reference order."""
    n_ref = len(candidates)
    hyp_cover = [0] * n_hyp
    ref_cover = [0] * n_ref
    for cands in candidates:
        for m in cands:
            for k in range(m.hyp_start, m.hyp_start + m.hyp_len):
                hyp_cover[k] += 1
            for k in range(m.ref_start, m.ref_start + m.ref_len):
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
    node = _search(candidates, exact_type, fixed, ref_cover, beam_size)
    while node is not None:
        m, node = node
        chosen[m.ref_start] = m
    return [m for m in chosen if m is not None]


def _span_mask(start: int, length: int) -> int:
    return ((1 << length) - 1) << start


def _gain(m: Match, exact_type: bool) -> int:
    """The jar's aligner credit: weight 1 for exact-type modules, else 0.5 added to an int (truncated)."""
    if exact_type:
        return m.hyp_len + m.ref_len
    return m.hyp_len // 2 + m.ref_len // 2


def _search(candidates: Sequence[Sequence[Match]], exact_type: Sequence[bool], fixed: list[Optional[Match]],
            ref_cover: list[int], beam_size: int):
    """Run the jar's beam search; returns the best path's non-fixed matches as a linked list.

    A path is ``(key, last, idx, used_hyp, used_ref, chosen)``: ``key`` packs the
    jar's ordering (more aligner matches, then fewer chunks, then less distance)
    into one integer, so a stable sort on it ranks paths exactly like the jar's
    comparator; ``last`` is the hypothesis end of the open chunk (-1: none);
    ``idx`` the next reference position to fill; ``chosen`` a linked list of
    the matches picked so far. The jar's drop branch ("used position without a
    fixed match") cannot occur with beam >= 1: a used position at ``idx`` always
    starts the fixed match covering it.
    """
    n_ref = len(candidates)
    dist_radix = 1 + sum(abs(m.ref_start - m.hyp_start) for at in candidates for m in at)  # > any distance
    chunk_radix = (n_ref + 2) * dist_radix  # chunks stay below n_ref + 2
    steps = [[(_span_mask(m.hyp_start, m.hyp_len), _span_mask(m.ref_start, m.ref_len),
               -_gain(m, exact_type[m.module]) * chunk_radix, m.hyp_start, m.ref_start + m.ref_len,
               m.hyp_start + m.hyp_len, abs(m.ref_start - m.hyp_start), m) for m in at] for at in candidates]
    fixed_steps = [None if m is None else (
        -_gain(m, exact_type[m.module]) * chunk_radix + abs(m.ref_start - m.hyp_start),
        m.hyp_start, m.hyp_start + m.hyp_len, m.ref_start + m.ref_len) for m in fixed]
    used_hyp = used_ref = 0
    for m in fixed:
        if m is not None:
            used_hyp |= _span_mask(m.hyp_start, m.hyp_len)
            used_ref |= _span_mask(m.ref_start, m.ref_len)
    paths = [(0, -1, 0, used_hyp, used_ref, None)]
    for cur in range(n_ref):
        paths.sort(key=_sort_key)
        if len(paths) > beam_size:
            del paths[beam_size:]
        bit = 1 << cur
        if not ref_cover[cur]:  # nothing can match here: every path skips the position
            paths = [p if p[1] == -1 else (p[0] + dist_radix, -1, cur + 1, p[3], p[4], p[5]) for p in paths]
            continue
        f = fixed_steps[cur]
        if f is not None:  # every path holds this fixed match: add it where the path has reached it
            fixed_key, hyp_start, hyp_end, ref_end = f
            paths = [p if cur < p[2] else
                     (p[0] + fixed_key + (dist_radix if p[1] != -1 and p[1] != hyp_start else 0),
                      hyp_end, ref_end, p[3], p[4], p[5])
                     for p in paths]
            continue
        step = steps[cur]
        next_paths = []
        append = next_paths.append
        for path in paths:
            key, last, idx, uh, ur, chosen = path
            if ur & bit:  # inside a multi-word match this path chose earlier
                append(path)
                continue
            parent_distance = 0  # the jar adds each branch's distance to the parent path
            for hm, rm, gain_key, hs, ref_end, hyp_end, distance, m in step:
                if uh & hm or ur & rm:
                    continue
                k = key + gain_key + parent_distance
                if last != -1 and hs != last:
                    k += dist_radix
                append((k, hyp_end, ref_end, uh | hm, ur | rm, (m, chosen)))
                parent_distance += distance
            append((key + parent_distance + (dist_radix if last != -1 else 0), -1, cur + 1, uh, ur, chosen))
        paths = next_paths
    paths.sort(key=_sort_key)
    del paths[beam_size:]
    # closing the last chunk: +1 on every path with an open chunk, then the final ranking
    best = min(((p[0] + (dist_radix if p[1] != -1 else 0), rank) for rank, p in enumerate(paths)))
    return paths[best[1]][5]


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
