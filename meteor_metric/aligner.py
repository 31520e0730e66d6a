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

from dataclasses import dataclass
from operator import itemgetter
from typing import Optional, Sequence

from .matcher import Matcher


@dataclass(frozen=True)
class Match:
    """An aligned unit: ``ref_len`` reference words at ``ref_start`` matched to
    ``hyp_len`` hypothesis words at ``hyp_start`` by module number ``module``."""

    ref_start: int
    ref_len: int
    hyp_start: int
    hyp_len: int
    module: int

    def as_list(self) -> list[int]:
        return [self.ref_start, self.ref_len, self.hyp_start, self.hyp_len, self.module]


class _Cand:
    """A candidate match with what the search needs precomputed."""

    __slots__ = ("match", "hyp_mask", "ref_mask", "gain", "distance", "ref_end", "hyp_start", "hyp_end")

    def __init__(self, match: Match, exact_type: bool):
        self.match = match
        self.hyp_mask = ((1 << match.hyp_len) - 1) << match.hyp_start
        self.ref_mask = ((1 << match.ref_len) - 1) << match.ref_start
        if exact_type:
            self.gain = match.hyp_len + match.ref_len
        else:  # int(m + len * 0.5) on each side
            self.gain = match.hyp_len // 2 + match.ref_len // 2
        self.distance = abs(match.ref_start - match.hyp_start)
        self.ref_end = match.ref_start + match.ref_len
        self.hyp_start = match.hyp_start
        self.hyp_end = match.hyp_start + match.hyp_len


_sort_key = itemgetter(0)


def find_candidates(hyp: Sequence[str], ref: Sequence[str], hyp_keys: Sequence[int],
                    ref_keys: Sequence[int], matchers: Sequence[Matcher]) -> list[list[Match]]:
    """Candidates per reference position, in the order the jar appends them."""
    candidates: list[list[Match]] = [[] for _ in ref]
    n_modules = 1 if list(hyp_keys) == list(ref_keys) else len(matchers)
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

    fixed: list[Optional[_Cand]] = [None] * n_ref
    used_hyp = used_ref = 0
    ambiguous = False
    for j, cands in enumerate(candidates):
        if len(cands) == 1:
            m = cands[0]
            if (all(ref_cover[k] == 1 for k in range(j, j + m.ref_len))
                    and all(hyp_cover[k] == 1 for k in range(m.hyp_start, m.hyp_start + m.hyp_len))):
                c = fixed[j] = _Cand(m, exact_type[m.module])
                used_hyp |= c.hyp_mask
                used_ref |= c.ref_mask
                continue
        if cands:
            ambiguous = True
    if not ambiguous:  # a single path that takes every fixed match
        return [c.match for c in fixed if c is not None]

    chosen: list[Optional[Match]] = [c.match if c is not None else None for c in fixed]
    node = _search(candidates, exact_type, fixed, ref_cover, used_hyp, used_ref, beam_size)
    while node is not None:
        m, node = node
        chosen[m.ref_start] = m
    return [m for m in chosen if m is not None]


def _search(candidates: Sequence[Sequence[Match]], exact_type: Sequence[bool], fixed: list[Optional[_Cand]],
            ref_cover: list[int], used_hyp: int, used_ref: int, beam_size: int):
    """Run the jar's beam search; returns the best path's non-fixed matches as a linked list.

    A path is ``(key, last, idx, used_hyp, used_ref, chosen)``: ``key`` packs the
    jar's ordering (more aligner matches, then fewer chunks, then less distance)
    into one integer, so a stable sort on it ranks paths exactly like the jar's
    comparator; ``last`` is the hypothesis end of the open chunk (-1: none);
    ``idx`` the next reference position to fill. The jar's drop branch ("used
    position without a fixed match") cannot occur with beam >= 1: a used position
    at ``idx`` always starts the fixed match covering it.
    """
    n_ref = len(candidates)
    cands = [[_Cand(m, exact_type[m.module]) for m in at] for at in candidates]
    dist_radix = sum(c.distance for at in cands for c in at) + 1  # exceeds any path's distance
    chunk_radix = (n_ref + 2) * dist_radix                          # chunks stay below n_ref + 2
    steps = [[(c.hyp_mask, c.ref_mask, -c.gain * chunk_radix, c.hyp_start, c.ref_end, c.hyp_end,
               c.distance, c.match) for c in at] for at in cands]
    paths = [(0, -1, 0, used_hyp, used_ref, None)]
    for cur in range(n_ref):
        paths.sort(key=_sort_key)
        if len(paths) > beam_size:
            del paths[beam_size:]
        bit = 1 << cur
        if not ref_cover[cur]:  # nothing can match here: every path skips the position
            paths = [p if p[1] == -1 else (p[0] + dist_radix, -1, cur + 1, p[3], p[4], p[5]) for p in paths]
            continue
        f = fixed[cur]
        if f is not None:  # every path holds this fixed match: add it where the path has reached it
            fixed_key = -f.gain * chunk_radix + f.distance
            paths = [p if cur < p[2] else
                     (p[0] + fixed_key + (dist_radix if p[1] != -1 and p[1] != f.hyp_start else 0),
                      f.hyp_end, f.ref_end, p[3], p[4], p[5])
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
