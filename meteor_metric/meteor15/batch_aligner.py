"""The jar's beam search (:func:`meteor_metric.meteor15.aligner.align`) for many segments at once.

Each segment's search is a fixed sequence of *events*, the same one :func:`aligner._search` walks:
a *branch* at each reference position with a choice, and a *settle* at the first position of each run
of positions without choice (a fixed match or no candidate; positions inside a fixed match are passed).
Every event ends with the jar's stable sort and cut to ``beam_size``. Here the segments run in
lock-step: step ``t`` applies every segment's ``t``-th event to flat arrays holding all paths of all
segments, so the Python work per step is shared by hundreds of segments. The preparation (coverage,
fixed matches, events) is done for all problems at once with the same arrays, following
:func:`aligner.align`, :func:`aligner._search` and :func:`aligner._settled_last`.

A path is a row: segment, key, ``last`` (hypothesis end of the open chunk, -1: none), used hypothesis
words (``K`` 64-bit words), ``ref_end`` (reference end of its last chosen match) and a pointer into the
history of chosen matches. A successor is its parent row plus a row of a move table: each branch event's
candidates followed by a pseudo-candidate for the skip, and one identity move for a path that passes the
position or settles. The key packs the jar's order like :func:`aligner._search` does (more aligner
matches, then fewer chunks, then less distance), with each segment's own radices. Rows are kept grouped
by segment in the jar's path order, and successors are generated in the jar's order (path by path, its
usable candidates in candidate order, then its skip), so a stable sort on (segment, key) ranks them
exactly like the jar's stable sort of each segment's successors.
"""

from __future__ import annotations

from itertools import chain
from typing import Sequence

import numpy as np

from ..core.alignment import Match
from .aligner import align

_WORD = 64
_ALL = 2**64 - 1
_MAX_KEY = 2**62  # packed keys (and one step's sums) stay below 2**63
_MAX_PROBLEMS = 1024  # problems prepared together: bounds the memory of the flat candidate arrays
_MAX_SEGMENTS = 512  # segments per lock-step run: bounds the memory of one step's successors
_SORT_RANGE = 2**63  # one int64 sort key for all segments while segments * key spread stays below this


def align_batch(problems: Sequence[tuple[int, Sequence[Sequence[Match]], Sequence[bool]]],
                beam_size: int) -> list[list[Match]]:
    """``[align(n_hyp, candidates, exact_type, beam_size) for ...]``, with the searches run together.

    ``candidates[j]`` holds the matches starting at reference word ``j`` (as
    :func:`aligner.find_candidates` builds them). Problems without a choice get their fixed matches,
    like :func:`aligner.align`. Problems whose packed keys could overflow 64 bits, or with a candidate
    spanning more than 64 hypothesis words at a position with a choice, run through
    :func:`aligner.align` itself.
    """
    if isinstance(beam_size, bool) or not isinstance(beam_size, (int, np.integer)):
        raise TypeError(f"beam_size must be an int, not {type(beam_size).__name__}")
    if beam_size < 1:
        raise ValueError(f"beam_size must be at least 1, got {beam_size}")
    for i, problem in enumerate(problems):
        if len(problem) != 3:
            raise ValueError(f"problem {i} must be (n_hyp, candidates, exact_type), got {len(problem)} items")
    results: list[list[Match]] = []
    for lo in range(0, len(problems), _MAX_PROBLEMS):
        results += _align_part(problems[lo:lo + _MAX_PROBLEMS], beam_size)
    return results


def _align_part(problems: Sequence[tuple[int, Sequence[Sequence[Match]], Sequence[bool]]],
                beam_size: int) -> list[list[Match]]:
    """:func:`align_batch` for problems prepared together."""
    b = _Batch(problems)
    searched = np.flatnonzero(b.ambiguous & ~b.fallback)
    # similar numbers of events share a lock-step run; runs share a mask width
    words = np.maximum(1, -(-b.n_hyp // _WORD))
    searched = searched[np.lexsort((b.n_events[searched], words[searched]))]
    n_words = words[searched]
    picked = [np.flatnonzero(b.fixed & ~b.fallback[b.cand_prob])]
    for k in np.unique(n_words).tolist():
        group = searched[n_words == k]
        for lo in range(0, len(group), _MAX_SEGMENTS):
            picked.append(_search(b, group[lo:lo + _MAX_SEGMENTS], k, beam_size))
    # candidates are in reference order within each problem, so the sorted picks are each alignment
    ids = np.sort(np.concatenate(picked))
    counts = np.bincount(b.cand_prob[ids], minlength=len(problems)).tolist()
    matches = b.matches
    chosen = [matches[i] for i in ids.tolist()]
    results = []
    at = 0
    for n in counts:
        results.append(chosen[at:at + n])
        at += n
    for i in np.flatnonzero(b.fallback).tolist():
        results[i] = align(*problems[i], beam_size)
    return results


def _spans(start: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The indices ``start[i] .. start[i] + length[i] - 1`` for every ``i``, and the ``i`` of each."""
    owner = np.repeat(np.arange(len(start)), length)
    first = np.cumsum(length) - length
    return np.repeat(start - first, length) + np.arange(len(owner)), owner


class _Batch:
    """All problems' candidates, fixed matches and search events as flat arrays.

    Candidates are numbered in problem order, then reference position, then list order; positions
    (``pos``) in problem order, then reference order. Events are numbered in problem order, then in the
    order :func:`aligner._search` meets them: ``ev_branch`` (else a settle), ``ev_a`` (a branch's
    reference position ``cur``; a settle's fixed match hypothesis start, -1: none), ``ev_last`` (every
    path's ``last`` after a settled run), and the event's first row in the move table ``ev_first``.
    """

    def __init__(self, problems: Sequence[tuple[int, Sequence[Sequence[Match]], Sequence[bool]]]) -> None:
        n_prob = len(problems)
        self.n_hyp = n_hyp = np.fromiter((p[0] for p in problems), dtype=np.int64, count=n_prob)
        positions = list(chain.from_iterable(p[1] for p in problems))
        n_ref = np.fromiter((len(p[1]) for p in problems), dtype=np.int64, count=n_prob)
        pos_count = np.fromiter(map(len, positions), dtype=np.int64, count=len(positions))
        self.matches = matches = list(chain.from_iterable(positions))
        n_cand = len(matches)
        fields = np.fromiter(chain.from_iterable(matches), dtype=np.int64, count=5 * n_cand).reshape(-1, 5)
        ref_start, ref_len, hyp_start, hyp_len, module = (np.ascontiguousarray(f) for f in fields.T)
        pos_prob = np.repeat(np.arange(n_prob), n_ref)
        ref_off = np.cumsum(n_ref) - n_ref
        hyp_off = np.cumsum(n_hyp) - n_hyp
        cand_pos = np.repeat(np.arange(len(positions)), pos_count)
        self.cand_prob = cand_prob = pos_prob[cand_pos]
        if n_cand and (np.any(ref_start != cand_pos - ref_off[cand_prob]) or np.any(ref_len < 1)
                       or np.any(hyp_len < 1) or np.any(hyp_start < 0)
                       or np.any(ref_start + ref_len > n_ref[cand_prob])
                       or np.any(hyp_start + hyp_len > n_hyp[cand_prob])):
            raise ValueError("candidates[j] must hold matches starting at reference word j, inside both sentences")

        # as aligner.align: a fixed match is the only candidate at its position, covering words no other covers
        hyp_words, hyp_owner = _spans(hyp_off[cand_prob] + hyp_start, hyp_len)
        ref_words, ref_owner = _spans(cand_pos, ref_len)
        hyp_cover = np.bincount(hyp_words, minlength=int(n_hyp.sum()))
        ref_cover = np.bincount(ref_words, minlength=len(positions))
        shared = (np.bincount(hyp_owner, weights=hyp_cover[hyp_words] != 1, minlength=n_cand)
                  + np.bincount(ref_owner, weights=ref_cover[ref_words] != 1, minlength=n_cand))
        self.fixed = fixed = (pos_count[cand_pos] == 1) & (shared == 0)
        pos_fixed = np.full(len(positions), -1, dtype=np.int64)
        pos_fixed[cand_pos[fixed]] = np.flatnonzero(fixed)
        choice = (pos_count > 0) & (pos_fixed < 0)
        self.ambiguous = ambiguous = np.bincount(pos_prob, weights=choice, minlength=n_prob) > 0
        # as aligner._search: positions after the first of a fixed match are passed by every path
        long_fixed = np.flatnonzero(fixed & (ref_len > 1))
        inside = np.zeros(len(positions), dtype=bool)
        inside[_spans(cand_pos[long_fixed] + 1, ref_len[long_fixed] - 1)[0]] = True

        # the walk of aligner._search over the positions of problems with a choice
        q = np.flatnonzero(ambiguous[pos_prob] & ~inside)
        settle = (pos_fixed[q] >= 0) | (ref_cover[q] == 0)
        q_prob = pos_prob[q]
        same_next = np.zeros(len(q), dtype=bool)
        same_next[:-1] = q_prob[1:] == q_prob[:-1]
        run_on = np.zeros(len(q), dtype=bool)  # this and the next walked position are without choice
        run_on[:-1] = same_next[:-1] & settle[1:] & settle[:-1]
        run_start = settle.copy()
        run_start[1:] &= ~run_on[:-1]
        run_end = np.flatnonzero(settle & ~run_on)
        run_end = run_end[np.searchsorted(run_end, np.flatnonzero(run_start))]
        # aligner._settled_last: a run followed by a branch leaves the hypothesis end of its last fixed
        # match (-1: none); a run that reaches the end of the sentence leaves -1
        end_fixed = pos_fixed[q[run_end]]
        hyp_end = hyp_start + hyp_len
        run_last = np.where(same_next[run_end] & (end_fixed >= 0), hyp_end[end_fixed], -1)
        ev = np.flatnonzero(~settle | run_start)
        ev_pos = q[ev]
        self.ev_branch = ev_branch = ~settle[ev]
        ev_prob = q_prob[ev]
        start_fixed = pos_fixed[ev_pos]
        self.ev_a = np.where(ev_branch, ev_pos - ref_off[ev_prob],
                             np.where(start_fixed >= 0, hyp_start[start_fixed], -1))
        self.ev_last = np.zeros(len(ev), dtype=np.int64)
        self.ev_last[~ev_branch] = run_last
        self.n_events = np.bincount(ev_prob, minlength=n_prob)
        self.ev_off = np.cumsum(self.n_events) - self.n_events
        self.ev_count = ev_count = np.where(ev_branch, pos_count[ev_pos], 0)

        # the move table: per branch event its candidates, then the skip; the identity move last
        table_count = np.where(ev_branch, ev_count + 1, 0)
        self.ev_first = ev_first = np.cumsum(table_count) - table_count
        n_table = int(table_count.sum()) + 1
        self.identity = n_table - 1
        pos_first = np.cumsum(pos_count) - pos_count
        at = _spans(ev_first, ev_count)[0]
        c = np.repeat(pos_first[ev_pos], ev_count) + (at - np.repeat(ev_first, ev_count))
        self.t_match = t_match = np.full(n_table, -1, dtype=np.int64)
        t_match[at] = c
        self.real = t_match >= 0
        c_prob = cand_prob[c]
        dist = np.abs(ref_start[c] - hyp_start[c])
        # radices as in aligner._search, from the branch candidates' distances (they bound every path's)
        total = np.concatenate(([0], np.cumsum(dist)))
        ends = np.cumsum(np.bincount(c_prob, minlength=n_prob))
        dist_radix = 1 + total[ends] - total[ends - np.bincount(c_prob, minlength=n_prob)]
        # a path's aligner matches never exceed n_hyp + n_ref (its matches are disjoint on both sides);
        # the bound is taken in floating point, with a margin for its rounding
        self.fallback = ((n_hyp + n_ref + 1) * (n_ref + 2)).astype(np.float64) * dist_radix >= _MAX_KEY / 2
        self.fallback |= np.bincount(c_prob, weights=hyp_len[c] > _WORD, minlength=n_prob) > 0
        self.fallback &= ambiguous
        self.dist_radix = dist_radix = np.where(self.fallback, 0, dist_radix)
        chunk_radix = (n_ref + 2) * dist_radix
        tables: dict[tuple[bool, ...], int] = {}
        table_of = np.fromiter((tables.setdefault(tuple(map(bool, p[2])), len(tables)) for p in problems),
                               dtype=np.int64, count=n_prob)
        width = max(len(t) for t in tables)
        exact = np.zeros((len(tables), max(1, width)), dtype=bool)
        n_modules = np.zeros(len(tables), dtype=np.int64)
        for t, i in tables.items():
            exact[i, :len(t)] = t
            n_modules[i] = len(t)
        if n_cand and (np.any(module < 0) or np.any(module >= n_modules[table_of[cand_prob]])):
            raise ValueError("every candidate's module must have an entry in its problem's exact_type")
        # the jar's aligner credit: weight 1 for exact-type modules, else 0.5 added to an int (truncated)
        gain = np.where(exact[table_of[c_prob], module[c]], hyp_len[c] + ref_len[c],
                        hyp_len[c] // 2 + ref_len[c] // 2)
        self.t_gain = np.zeros(n_table, dtype=np.int64)
        self.t_gain[at] = -gain * chunk_radix[c_prob]
        self.t_dist = np.zeros(n_table, dtype=np.int64)
        self.t_dist[at] = dist
        self.t_hyp_start = np.full(n_table, -2, dtype=np.int64)  # the skip closes any open chunk
        self.t_hyp_start[at] = hyp_start[c]
        self.t_hyp_end = np.full(n_table, -1, dtype=np.int64)
        self.t_hyp_end[at] = hyp_end[c]
        self.t_ref_end = np.zeros(n_table, dtype=np.int64)
        self.t_ref_end[at] = ref_start[c] + ref_len[c]
        self.t_word = np.zeros(n_table, dtype=np.int64)
        self.t_word[at] = hyp_start[c] >> 6
        bit = (hyp_start[c] & 63).astype(np.uint64)
        length = np.minimum(hyp_len[c], _WORD).astype(np.uint64)  # longer spans fall back
        span = np.where(length == _WORD, np.uint64(_ALL), (np.uint64(1) << (length & np.uint64(63))) - np.uint64(1))
        self.t_lo = np.zeros(n_table, dtype=np.uint64)
        self.t_lo[at] = span << bit
        self.t_hi = np.zeros(n_table, dtype=np.uint64)
        self.t_hi[at] = np.where(bit + length > _WORD, span >> np.minimum(np.uint64(_WORD) - bit, np.uint64(63)),
                                 np.uint64(0))
        # the hypothesis words of the fixed matches, used by every path from the start
        of_fixed = fixed[hyp_owner]
        self.fixed_word_prob = cand_prob[hyp_owner[of_fixed]]
        self.fixed_words = hyp_words[of_fixed] - hyp_off[self.fixed_word_prob]


def _search(b: _Batch, members: np.ndarray, n_words: int, beam_size: int) -> np.ndarray:
    """The candidates chosen by the beam searches of problems ``members`` (hypotheses of at most
    ``n_words`` * 64 words), in lock-step."""
    n_seg = len(members)
    order = np.argsort(-b.n_events[members], kind="stable")
    members = members[order]  # most events first: the active segments are always a prefix
    n_events = b.n_events[members]
    ev_off = b.ev_off[members]
    dist_radix = b.dist_radix[members]
    ev_branch, ev_a, ev_last, ev_count, ev_first = b.ev_branch, b.ev_a, b.ev_last, b.ev_count, b.ev_first
    identity, real = b.identity, b.real
    t_gain, t_dist, t_hyp_start, t_hyp_end, t_ref_end = b.t_gain, b.t_dist, b.t_hyp_start, b.t_hyp_end, b.t_ref_end
    t_word, t_lo, t_hi = b.t_word, b.t_lo, b.t_hi

    # one path per segment: nothing chosen, the fixed matches' words used
    width = n_words + (n_words > 1)  # a spare word for spans ending in the last one (none with one word)
    seg = np.arange(n_seg, dtype=np.int64)
    key = np.zeros(n_seg, dtype=np.int64)
    last = np.full(n_seg, -1, dtype=np.int64)
    ref_end = np.zeros(n_seg, dtype=np.int64)
    hist = np.full(n_seg, -1, dtype=np.int64)
    local = np.full(len(b.n_events), -1, dtype=np.int64)
    local[members] = np.arange(n_seg)
    mine = local[b.fixed_word_prob]
    words = b.fixed_words[mine >= 0]
    used = np.zeros(n_seg * width, dtype=np.uint64)
    np.bitwise_or.at(used, mine[mine >= 0] * width + (words >> 6), np.uint64(1) << (words & 63).astype(np.uint64))
    hist_parent: list[np.ndarray] = []
    hist_move: list[np.ndarray] = []
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
        if spread * n_active < _SORT_RANGE:
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
        hist_move.append(m)
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
    h_move = np.concatenate(hist_move)
    picked = []
    h = best[best >= 0]
    while len(h):
        picked.append(b.t_match[h_move[h]])
        h = h_parent[h]
        h = h[h >= 0]
    return np.concatenate(picked) if picked else np.zeros(0, dtype=np.int64)
