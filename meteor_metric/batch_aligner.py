"""The jar's beam search (:func:`meteor_metric.aligner.align`) for many segments at once.

Each segment's search is a fixed sequence of *events*, the same one :func:`aligner._search` walks:
a *branch* at each reference position with a choice, and a *settle* at the first position of each run
of positions without choice (a fixed match or no candidate). Every event ends with the jar's stable
sort and cut to ``beam_size``. Here the segments run in lock-step: step ``t`` applies every segment's
``t``-th event to the flat arrays holding all paths of all segments, so the Python work per step is
shared by thousands of segments.

A path is a row: segment, key, ``last`` (hypothesis end of the open chunk, -1: none), used hypothesis
words (``K`` 64-bit words), ``ref_end`` (reference end of its last chosen match) and a pointer into the
history of chosen matches. A successor is its parent row plus a row of a move table: each branch event's
candidates followed by a pseudo-candidate for the skip, and one identity move for a path that passes the
position or settles. The key packs the jar's order like :func:`aligner._search` does (more
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
_ALL = 2**64 - 1
_MAX_KEY = 2**62  # packed keys (and one step's sums) stay below 2**63
_MAX_SEGMENTS = 512  # segments per lock-step run: bounds the memory of one step's successors


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
        by_words.setdefault(max(1, -(-n_hyp // _WORD)), []).append(
            (i, _Segment(n_hyp, len(candidates), exact_type, candidates, fixed, ref_cover)))
    for n_words, group in by_words.items():
        group.sort(key=lambda item: len(item[1].events))  # similar lengths share a lock-step run
        for lo in range(0, len(group), _MAX_SEGMENTS):
            part = group[lo:lo + _MAX_SEGMENTS]
            for (i, segment), chosen in zip(part, _search_batch([s for _, s in part], n_words, beam_size)):
                results[i] = align(segment.n_hyp, problems[i][1], segment.exact_type, beam_size) \
                    if chosen is None else chosen
    return results  # type: ignore[return-value]


class _Segment:
    """One problem's search as :func:`aligner._search` walks it.

    ``events`` in order: ``(True, cur, candidates)`` is a branch at reference position ``cur``;
    ``(False, hyp_start, last)`` a settle (:func:`aligner._settle`) at the first position of a run
    without choice: the hypothesis start of the fixed match there (-1: none) and every path's ``last``
    after the run.
    """

    __slots__ = ("n_hyp", "n_ref", "exact_type", "fixed", "used_hyp", "events")

    def __init__(self, n_hyp: int, n_ref: int, exact_type: Sequence[bool], candidates: Sequence[Sequence[Match]],
                 fixed: list[Optional[Match]], ref_cover: list[int]) -> None:
        self.n_hyp = n_hyp
        self.n_ref = n_ref
        self.exact_type = exact_type
        self.fixed = fixed
        self.used_hyp, inside = fixed_state(fixed)
        last_after = settled_last(fixed, ref_cover, inside)
        self.events = events = []
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
            events.append((True, cur, candidates[cur]))


def _search_batch(segments: list[_Segment], n_words: int, beam_size: int) -> list[Optional[list[Match]]]:
    """The best alignment of each segment (hypotheses of at most ``n_words`` * 64 words); None for a
    segment whose packed keys could overflow or with a candidate spanning more than 64 words."""
    n_seg = len(segments)
    by_length = sorted(range(n_seg), key=lambda s: -len(segments[s].events))
    segs = [segments[s] for s in by_length]  # longest first: the active segments are always a prefix
    n_events = np.array([len(s.events) for s in segs], dtype=np.int64)
    ev_off = np.cumsum(n_events) - n_events
    events = list(chain.from_iterable(s.events for s in segs))
    n_ev = len(events)
    ev_branch = np.fromiter((e[0] for e in events), dtype=bool, count=n_ev)
    ev_a = np.fromiter((e[1] for e in events), dtype=np.int64, count=n_ev)  # cur, or the fixed hyp_start
    ev_last = np.fromiter((0 if e[0] else e[2] for e in events), dtype=np.int64, count=n_ev)
    ev_count = np.fromiter((len(e[2]) if e[0] else 0 for e in events), dtype=np.int64, count=n_ev)
    ev_seg = np.repeat(np.arange(n_seg), n_events)

    matches = list(chain.from_iterable(e[2] for e in events if e[0]))
    n_match = len(matches)
    fields = np.fromiter(chain.from_iterable(matches), dtype=np.int64, count=5 * n_match).reshape(-1, 5)
    ref_start, ref_len, hyp_start, hyp_len, module = fields.T
    match_seg = np.repeat(ev_seg, ev_count)
    dist = np.abs(ref_start - hyp_start)
    # radices as in aligner._search; the distances of branch candidates bound every path's distance
    dist_radix = 1 + np.bincount(match_seg, weights=dist, minlength=n_seg)
    n_ref = np.array([s.n_ref for s in segs], dtype=np.float64)
    n_hyp = np.array([s.n_hyp for s in segs], dtype=np.float64)
    bad = ((n_hyp + n_ref + 1) * (n_ref + 2) * dist_radix >= _MAX_KEY / 2)  # float: a margin for rounding
    bad |= np.bincount(match_seg, weights=hyp_len > _WORD, minlength=n_seg) > 0
    if bad.any():
        good = np.flatnonzero(~bad)
        sub = _search_batch([segs[s] for s in good], n_words, beam_size) if len(good) else []
        out: list[Optional[list[Match]]] = [None] * n_seg
        for s, chosen in zip(good.tolist(), sub):
            out[by_length[s]] = chosen
        return out
    dist_radix = dist_radix.astype(np.int64)
    chunk_radix = (n_ref.astype(np.int64) + 2) * dist_radix

    # the move table: per branch event its candidates, then the skip; the identity move last
    n_table = n_match + int(ev_branch.sum()) + 1
    identity = n_table - 1
    ev_table_count = np.where(ev_branch, ev_count + 1, 0)
    ev_first = np.cumsum(ev_table_count) - ev_table_count
    real = np.zeros(n_table, dtype=bool)
    at = np.arange(n_match) + np.repeat(ev_first - (np.cumsum(ev_count) - ev_count), ev_count)
    real[at] = True
    t_match = np.full(n_table, -1, dtype=np.int64)
    t_match[at] = np.arange(n_match)
    tables: dict[tuple[bool, ...], int] = {}
    table_of = np.array([tables.setdefault(tuple(map(bool, s.exact_type)), len(tables)) for s in segs])
    exact = np.zeros((len(tables), 1 + max(len(t) for t in tables)), dtype=bool)
    for t, i in tables.items():
        exact[i, :len(t)] = t
    # the jar's aligner credit: weight 1 for exact-type modules, else 0.5 added to an int (truncated)
    gain = np.where(exact[table_of[match_seg], module], hyp_len + ref_len, hyp_len // 2 + ref_len // 2)
    t_gain = np.zeros(n_table, dtype=np.int64)
    t_gain[at] = -gain * chunk_radix[match_seg]
    t_dist = np.zeros(n_table, dtype=np.int64)
    t_dist[at] = dist
    t_hyp_start = np.full(n_table, -2, dtype=np.int64)  # the skip closes any open chunk
    t_hyp_start[at] = hyp_start
    t_hyp_end = np.full(n_table, -1, dtype=np.int64)
    t_hyp_end[at] = hyp_start + hyp_len
    t_ref_end = np.zeros(n_table, dtype=np.int64)
    t_ref_end[at] = ref_start + ref_len
    t_word = np.zeros(n_table, dtype=np.int64)
    t_word[at] = hyp_start >> 6
    bit = (hyp_start & 63).astype(np.uint64)
    span = np.where(hyp_len >= _WORD, np.uint64(_ALL),
                    (np.uint64(1) << np.minimum(hyp_len, 63).astype(np.uint64)) - np.uint64(1))
    t_lo = np.zeros(n_table, dtype=np.uint64)
    t_lo[at] = span << bit
    t_hi = np.zeros(n_table, dtype=np.uint64)
    t_hi[at] = np.where(bit + hyp_len.astype(np.uint64) > _WORD,
                        span >> np.minimum(np.uint64(_WORD) - bit, np.uint64(63)), np.uint64(0))

    # one path per segment: nothing chosen, the fixed matches' words used
    width = n_words + (n_words > 1)  # a spare word for spans ending in the last one (none with one word)
    seg = np.arange(n_seg, dtype=np.int64)
    key = np.zeros(n_seg, dtype=np.int64)
    last = np.full(n_seg, -1, dtype=np.int64)
    ref_end = np.zeros(n_seg, dtype=np.int64)
    hist = np.full(n_seg, -1, dtype=np.int64)
    used = np.zeros((n_seg, width), dtype=np.uint64)
    for s, segment in enumerate(segs):
        u = segment.used_hyp
        for k in range(n_words):
            used[s, k] = (u >> (_WORD * k)) & _ALL
    used = used.ravel()
    hist_parent: list[np.ndarray] = []
    hist_match: list[np.ndarray] = []
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
        n_slot = np.where(expand, ev_count[row_ev] + 1, 1)
        slot_first = np.cumsum(n_slot) - n_slot
        n_rows = len(key)
        parent = np.repeat(np.arange(n_rows), n_slot)
        move = np.arange(len(parent)) + np.repeat(np.where(expand, ev_first[row_ev], identity) - slot_first, n_slot)
        if n_words == 1:  # one word per path: every move's mask is in word 0
            usable = (used[parent] & t_lo[move]) == 0
        else:
            cell = parent * width + t_word[move]
            usable = ((used[cell] & t_lo[move]) | (used[cell + 1] & t_hi[move])) == 0
        if not usable.all():
            parent = parent[usable]
            move = move[usable]
        n_kept = np.bincount(parent, minlength=n_rows)  # >= 1: the skip or identity move is always usable
        # the parent-distance quirk: each usable branch adds its distance to the parent path, so a move
        # carries the distances of its parent's earlier usable candidates (exclusive sum per parent)
        d = t_dist[move]
        carried = np.cumsum(d)
        carried -= d
        carried -= np.repeat(carried[np.cumsum(n_kept) - n_kept], n_kept)
        chunk_cost = np.where(expand & (last != -1), dist_radix[seg], 0)  # an open chunk the move may close
        new_key = (np.repeat(key, n_kept) + t_gain[move] + carried
                   + np.repeat(chunk_cost, n_kept) * (t_hyp_start[move] != np.repeat(last, n_kept)))

        # the jar's stable sort of each segment's successors, cut to beam_size; rows stay grouped by
        # segment, so one stable sort of key + segment * span (keys shifted to start at 0) does it
        seg_rows = np.bincount(seg, minlength=n_active)
        seg_slots = np.add.reduceat(n_kept, np.cumsum(seg_rows) - seg_rows)
        seg_first = np.cumsum(seg_slots) - seg_slots
        low = np.minimum.reduceat(new_key, seg_first)
        spread = int((np.maximum.reduceat(new_key, seg_first) - low).max()) + 1
        if spread * n_active < 2**63:
            order = np.argsort(new_key - np.repeat(low - np.arange(n_active) * spread, seg_slots), kind="stable")
        else:
            order = np.lexsort((new_key, np.repeat(np.arange(n_active), seg_slots)))
        rank = np.arange(len(order)) - np.repeat(seg_first, seg_slots)
        sel = order[rank < beam_size]

        p = parent[sel]
        move = move[sel]
        branch = real[move]
        seg = np.repeat(np.arange(n_active), np.minimum(seg_slots, beam_size))
        key = new_key[sel]
        last = np.where(move == identity, last[p], t_hyp_end[move])
        ref_end = np.where(branch, t_ref_end[move], ref_end[p])
        used = used.reshape(-1, width)[p].ravel()
        m = move[branch]
        cell = np.flatnonzero(branch) * width
        if n_words == 1:
            used[cell] |= t_lo[m]
        else:
            cell += t_word[m]
            used[cell] |= t_lo[m]
            used[cell + 1] |= t_hi[m]
        hist = hist[p]
        hist_parent.append(hist[branch])
        hist_match.append(t_match[m])
        hist[branch] = np.arange(n_hist, n_hist + len(m))
        n_hist += len(m)

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
            seg, key, last, ref_end, hist = (a[:tail] for a in (seg, key, last, ref_end, hist))
            used = used[:tail * width]

    # walk all segments' histories back at once: one gather per chosen match
    h_parent = np.concatenate(hist_parent)
    h_match = np.concatenate(hist_match)
    chosen = [list(segment.fixed) for segment in segs]
    at = np.flatnonzero(best >= 0)
    h = best[at]
    while len(at):
        for s, c in zip(at.tolist(), h_match[h].tolist()):
            m = matches[c]
            chosen[s][m.ref_start] = m
        h = h_parent[h]
        more = h >= 0
        at, h = at[more], h[more]
    out = [None] * n_seg
    for s, ch in enumerate(chosen):
        out[by_length[s]] = [m for m in ch if m is not None]
    return out
