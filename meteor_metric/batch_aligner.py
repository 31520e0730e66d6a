"""The jar's beam search (:func:`meteor_metric.aligner.align`) for many segments at once.

Each segment's search is a fixed sequence of *events*, the same one :func:`aligner._search` walks:
a *branch* at each reference position with a choice, and a *settle* at the first position of each run
of positions without choice (a fixed match or no candidate). Every event ends with the jar's stable
sort and cut to ``beam_size``. Here the segments run in lock-step: step ``t`` applies every segment's
``t``-th event to the flat arrays holding all paths of all segments, so the Python work per step is
shared by thousands of segments.

A path is a row: segment, key, ``last`` (hypothesis end of the open chunk, -1: none), used hypothesis
words (``K`` 64-bit words), ``ref_end`` (reference end of its last chosen match) and a pointer into the
history of chosen matches. The key packs the jar's order like :func:`aligner._search` does (more
aligner matches, then fewer chunks, then less distance), with each segment's own radices. Rows are
kept grouped by segment in the jar's path order, and successors are generated in the jar's order
(path by path, its usable candidates in candidate order, then its skip), so a stable sort on
(segment, key) ranks them exactly like the jar's stable sort of each segment's successors.
"""

from __future__ import annotations

from itertools import chain
from typing import Optional, Sequence

import numpy as np

from .aligner import Match, align, fixed_matches, fixed_state, settled_last

_WORD = 64
_MAX_KEY = 1 << 62  # packed keys (and one step's sums) stay below 2**63
_MAX_SEGMENTS = 2048  # segments per lock-step run: bounds the memory of one step's successors


def align_batch(problems: Sequence[tuple[int, Sequence[Sequence[Match]], Sequence[bool]]],
                beam_size: int) -> list[list[Match]]:
    """``[align(n_hyp, candidates, exact_type, beam_size) for ...]``, with the searches run together.

    Problems without a choice are answered like :func:`aligner.align` does (the fixed matches).
    Problems whose packed keys could overflow 64 bits, or with a candidate spanning more than 64
    hypothesis words, run through :func:`aligner.align` itself.
    """
    if isinstance(beam_size, bool) or not isinstance(beam_size, (int, np.integer)):
        raise TypeError(f"beam_size must be an int, not {type(beam_size).__name__}")
    if beam_size < 1:
        raise ValueError(f"beam_size must be at least 1, got {beam_size}")
    results: list[Optional[list[Match]]] = [None] * len(problems)
    by_words: dict[int, list[tuple[int, _Segment]]] = {}
    for i, problem in enumerate(problems):
        if len(problem) != 3:
            raise ValueError(f"problem {i} must be (n_hyp, candidates, exact_type), got {len(problem)} items")
        n_hyp, candidates, exact_type = problem
        fixed, ref_cover, ambiguous = fixed_matches(n_hyp, candidates)
        if not ambiguous:
            results[i] = [m for m in fixed if m is not None]
            continue
        segment = _Segment.build(n_hyp, candidates, exact_type, fixed, ref_cover)
        if segment is None:
            results[i] = align(n_hyp, candidates, exact_type, beam_size)
        else:
            by_words.setdefault(max(1, -(-n_hyp // _WORD)), []).append((i, segment))
    for n_words, group in by_words.items():
        for lo in range(0, len(group), _MAX_SEGMENTS):
            part = group[lo:lo + _MAX_SEGMENTS]
            for (i, _), chosen in zip(part, _search_batch([s for _, s in part], n_words, beam_size)):
                results[i] = chosen
    return results  # type: ignore[return-value]


class _Segment:
    """One problem's search as :func:`aligner._search` walks it.

    ``events`` in order: ``(True, cur, candidates)`` is a branch at reference position ``cur``;
    ``(False, hyp_start, last)`` a settle (:func:`aligner._settle`) at the first position of a run
    without choice: the hypothesis start of the fixed match there (-1: none) and every path's ``last``
    after the run.
    """

    __slots__ = ("exact_type", "fixed", "used_hyp", "events", "dist_radix", "chunk_radix")

    def __init__(self, exact_type: Sequence[bool], fixed: list[Optional[Match]], used_hyp: int,
                 events: list[tuple], dist_radix: int, chunk_radix: int) -> None:
        self.exact_type = exact_type
        self.fixed = fixed
        self.used_hyp = used_hyp
        self.events = events
        self.dist_radix = dist_radix
        self.chunk_radix = chunk_radix

    @classmethod
    def build(cls, n_hyp: int, candidates: Sequence[Sequence[Match]], exact_type: Sequence[bool],
              fixed: list[Optional[Match]], ref_cover: list[int]) -> Optional["_Segment"]:
        """The segment's search, or None if its keys could overflow or a candidate spans more than a word."""
        n_ref = len(candidates)
        dist_radix = 1 + sum(abs(m[0] - m[2]) for at in candidates for m in at)  # > any path's distance
        chunk_radix = (n_ref + 2) * dist_radix  # > any path's chunks * dist_radix + distance
        # a path's aligner matches never exceed n_hyp + n_ref (its matches are disjoint on both sides)
        if (n_hyp + n_ref + 1) * chunk_radix >= _MAX_KEY:
            return None
        used_hyp, inside = fixed_state(fixed)
        last_after = settled_last(fixed, ref_cover, inside)
        events: list[tuple] = []
        settled = False
        for cur in range(n_ref):  # the walk of aligner._search
            if inside[cur]:
                continue
            f = fixed[cur]
            if f is not None or not ref_cover[cur]:
                if not settled:
                    events.append((False, -1 if f is None else f.hyp_start, last_after[cur]))
                    settled = True
                continue
            settled = False
            cands = candidates[cur]
            if any(m.hyp_len > _WORD for m in cands):
                return None
            events.append((True, cur, cands))
        return cls(exact_type, fixed, used_hyp, events, dist_radix, chunk_radix)


def _search_batch(segments: list[_Segment], n_words: int, beam_size: int) -> list[list[Match]]:
    """The best alignment of each segment (hypotheses of at most ``n_words`` * 64 words)."""
    n_seg = len(segments)
    by_length = sorted(range(n_seg), key=lambda s: -len(segments[s].events))
    segs = [segments[s] for s in by_length]  # longest first: the active segments are always a prefix
    n_events = np.array([len(s.events) for s in segs], dtype=np.int64)
    ev_off = np.cumsum(n_events) - n_events

    events = list(chain.from_iterable(s.events for s in segs))
    ev_branch = np.fromiter((e[0] for e in events), dtype=bool, count=len(events))
    ev_a = np.fromiter((e[1] for e in events), dtype=np.int64, count=len(events))  # cur, or hyp_start
    ev_last = np.fromiter((0 if e[0] else e[2] for e in events), dtype=np.int64, count=len(events))
    ev_count = np.fromiter((len(e[2]) if e[0] else 0 for e in events), dtype=np.int64, count=len(events))
    ev_first = np.cumsum(ev_count) - ev_count
    ev_seg = np.repeat(np.arange(n_seg), n_events)

    matches = list(chain.from_iterable(e[2] for e in events if e[0]))
    fields = np.fromiter(chain.from_iterable(matches), dtype=np.int64, count=5 * len(matches)).reshape(-1, 5)
    ref_start, ref_len, hyp_start, hyp_len, module = fields.T
    cand_seg = np.repeat(ev_seg, ev_count)
    dist_radix = np.array([s.dist_radix for s in segs], dtype=np.int64)
    chunk_radix = np.array([s.chunk_radix for s in segs], dtype=np.int64)
    # the jar's aligner credit: weight 1 for exact-type modules, else 0.5 added to an int (truncated)
    tables = {}
    table_of = np.array([tables.setdefault(tuple(map(bool, s.exact_type)), len(tables)) for s in segs])
    exact = np.zeros((len(tables), 1 + max(len(t) for t in tables)), dtype=bool)
    for t, i in tables.items():
        exact[i, :len(t)] = t
    is_exact = exact[table_of[cand_seg], module]
    c_gain = -np.where(is_exact, hyp_len + ref_len, hyp_len // 2 + ref_len // 2) * chunk_radix[cand_seg]
    c_dist = np.abs(ref_start - hyp_start)
    c_hyp_start = hyp_start
    c_hyp_end = hyp_start + hyp_len
    c_ref_end = ref_start + ref_len
    c_word = hyp_start >> 6
    bit = (hyp_start & 63).astype(np.uint64)
    span = np.where(hyp_len >= _WORD, np.uint64(2**64 - 1),
                    (np.uint64(1) << np.minimum(hyp_len, 63).astype(np.uint64)) - np.uint64(1))
    c_lo = span << bit
    c_hi = np.where(bit + hyp_len.astype(np.uint64) > _WORD, span >> np.minimum(np.uint64(64) - bit, np.uint64(63)),
                    np.uint64(0))

    # one path per segment: nothing chosen, the fixed matches' words used
    seg = np.arange(n_seg, dtype=np.int64)
    key = np.zeros(n_seg, dtype=np.int64)
    last = np.full(n_seg, -1, dtype=np.int64)
    ref_end = np.zeros(n_seg, dtype=np.int64)
    hist = np.full(n_seg, -1, dtype=np.int64)
    used = np.zeros((n_seg, n_words + 1), dtype=np.uint64)  # a spare word for spans ending in the last
    for s, segment in enumerate(segs):
        u = segment.used_hyp
        for k in range(n_words):
            used[s, k] = (u >> (_WORD * k)) & (2**64 - 1)
    hist_parent: list[np.ndarray] = []
    hist_cand: list[np.ndarray] = []
    n_hist = 0
    best = np.full(n_seg, -1, dtype=np.int64)

    n_steps = int(n_events[0])
    active = np.searchsorted(-n_events, -np.arange(n_steps + 1), side="left")  # segments with > t events
    for t in range(n_steps):
        n_active = int(active[t])
        row_ev = (ev_off[:n_active] + t)[seg]
        row_branch = ev_branch[row_ev]
        if not row_branch.all():  # settle rows: aligner._settle
            st = ~row_branch
            se = row_ev[st]
            sl = last[st]
            key[st] += dist_radix[seg[st]] * ((sl != -1) & (sl != ev_a[se]))
            last[st] = ev_last[se]
        expand = row_branch & (ref_end <= ev_a[row_ev])  # else a settle, or a path passing `cur`
        n_cand = np.where(expand, ev_count[row_ev], 0)
        n_slot = n_cand + 1  # candidates, then the skip (or the path itself)
        parent = np.repeat(np.arange(len(key)), n_slot)
        slot_first = np.cumsum(n_slot) - n_slot
        j = np.arange(len(parent)) - slot_first[parent]
        is_cand = j < n_cand[parent]
        cp = parent[is_cand]
        ci = ev_first[row_ev[cp]] + j[is_cand]
        cw = c_word[ci]
        ok = ((used[cp, cw] & c_lo[ci]) | (used[cp, cw + 1] & c_hi[ci])) == 0
        keep = ~is_cand
        keep[is_cand] = ok
        cand = np.full(len(parent), -1, dtype=np.int64)
        cand[is_cand] = ci
        parent = parent[keep]
        cand = cand[keep]
        branch = cand >= 0
        c = cand[branch]
        # the parent-distance quirk: each usable branch adds its distance to the parent path, so a slot
        # carries the distances of its parent's earlier usable candidates (exclusive sum per parent)
        d = np.zeros(len(parent), dtype=np.int64)
        d[branch] = c_dist[c]
        inc = np.cumsum(d)
        first = np.cumsum(np.bincount(parent, minlength=len(key)))
        start_inc = np.concatenate(([0], inc[first[:-1] - 1])) if len(key) else inc[:0]
        pl = last[parent]
        open_chunk = pl != -1
        pseg = seg[parent]
        is_skip = expand[parent] & ~branch
        chunk = np.where(branch, open_chunk & (c_hyp_start[cand] != pl), open_chunk & is_skip)
        new_key = key[parent] + (inc - d - start_inc[parent]) + dist_radix[pseg] * chunk
        new_key[branch] += c_gain[c]

        # the jar's stable sort of each segment's successors, cut to beam_size
        order = np.lexsort((new_key, pseg))
        counts = np.bincount(pseg, minlength=n_active)
        rank = np.arange(len(order)) - np.repeat(np.cumsum(counts) - counts, counts)
        sel = order[rank < beam_size]

        p = parent[sel]
        cand = cand[sel]
        branch = cand >= 0
        c = cand[branch]
        seg = pseg[sel]
        key = new_key[sel]
        last = np.where(branch, c_hyp_end[cand], np.where(is_skip[sel], -1, last[p]))
        ref_end = np.where(branch, c_ref_end[cand], ref_end[p])
        used = used[p]
        rows = np.flatnonzero(branch)
        used[rows, c_word[c]] |= c_lo[c]
        used[rows, c_word[c] + 1] |= c_hi[c]
        hist = hist[p]
        hist_parent.append(hist[branch])
        hist_cand.append(c)
        hist[branch] = np.arange(n_hist, n_hist + len(c))
        n_hist += len(c)

        done = int(active[t + 1])
        if done < n_active:  # segments at their end: close open chunks, take the first best path
            tail = int(np.searchsorted(seg, done))
            tseg = seg[tail:]
            final = key[tail:] + dist_radix[tseg] * (last[tail:] != -1)
            order = np.lexsort((final, tseg))
            ts = tseg[order]
            first_of = np.ones(len(ts), dtype=bool)
            first_of[1:] = ts[1:] != ts[:-1]
            best[ts[first_of]] = hist[tail:][order[first_of]]
            seg, key, last, ref_end, hist, used = (a[:tail] for a in (seg, key, last, ref_end, hist, used))

    h_parent = np.concatenate(hist_parent).tolist() if hist_parent else []
    h_cand = np.concatenate(hist_cand).tolist() if hist_cand else []
    out: list[list[Match]] = [[] for _ in range(n_seg)]
    for s, segment in enumerate(segs):
        chosen = list(segment.fixed)
        h = int(best[s])
        while h >= 0:
            m = matches[h_cand[h]]
            chosen[m.ref_start] = m
            h = h_parent[h]
        out[by_length[s]] = [m for m in chosen if m is not None]
    return out
