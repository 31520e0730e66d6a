"""The exact one-stage aligner of the ``original`` profile (:mod:`meteor_metric.profiles.original`).

A stage receives candidate pairs ``(ref, hyp)`` between words that no earlier stage matched, and
the earlier matches. It returns the 1:1 subset of the candidates that has

1. the most pairs; then
2. the most *adjacencies* -- pairs ``(i, j)``, ``(i + 1, j + 1)`` that are both matched, earlier
   matches included -- which is the fewest chunks, since chunks = matches - adjacencies; then
3. the lexicographically smallest vector of the hypothesis positions taken by the stage's
   reference words in reference order, an unmatched word counting as +infinity ("earlier
   reference words take earlier hypothesis words").

The optimum is exact, never approximated:

* candidates whose row and column have no other candidate are in every maximum matching and are
  taken at once (*anchors*, with the earlier matches);
* the rest split into independent components, joined by a shared word or a possible adjacency;
  the lexicographic tie-break is per component too, since components own disjoint rows;
* each component is solved by a fail-soft branch-and-bound over its reference words in order
  (take a free candidate column, smallest first, or none), memoised on (word, used columns still
  reachable, previous column); a greedy pass seeds the incumbent;
* the bound: matches -- per class, min(rows left, maximum matching - columns used), exact for
  the complete bipartite classes of the exact and stem stages; adjacencies -- every adjacency
  needs its own pair of consecutive rows and of consecutive columns, so per class bigram
  min(row pairs left, free column pairs), plus the best free anchor cell of each row.

Cost: O(words + candidates) when nothing is ambiguous. Fewest chunks is NP-hard in general (for
two anagram sentences it is minimum common string partition), so the worst case is exponential
in the ambiguous words of one component. Measured on one shared core: WMT21 zh-en pairs median
0.4 ms for all three stages, slowest of 2,000 about 0.2-0.4 s; 60 or 100 copies of "the" on
both sides 0.04-0.3 s ("the" x 300: seconds, the search is cubic there); "the ," against
", the" x 50: 0.07-0.17 s; random anagrams over 2-5 distinct words grow exponentially
(length 24: up to 2 s, length 30 over 5 words: up to 4 s). A :class:`SearchBudget` bounds the
work of one segment: candidate pairs and the search's states are charged in steps of roughly equal
cost, and the search stops with :class:`SearchBudgetExceeded` when the segment's steps run out.
"""

from __future__ import annotations

import sys
from typing import Callable, Iterable, Mapping

Pair = tuple[int, int]

_popcount: Callable[[int], int] = getattr(int, "bit_count", None) or (lambda x: bin(x).count("1"))


#: Steps of exact alignment work one segment may take (see :class:`SearchBudget`): a step is about
#: 0.05-0.12 us on one core of the reference machine (CPython 3.11), so a refused segment stops after
#: 1-2.5 s (``benchmarks/bench_original_budget.py``).
DEFAULT_SEARCH_BUDGET = 20_000_000

#: Steps charged per candidate pair a stage receives (grouping, bounds, greedy seed: ~1 us a pair).
PAIR_STEPS = 8


class SearchBudgetExceeded(ValueError):
    """The exact alignment search of one segment needed more steps than its budget allows."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"original profile: the exact alignment search of this segment (all its references, matching "
            f"stages and word groups together) exceeded its budget of {limit} steps (a very repetitive "
            "or very long segment, e.g. a long anagram of a few words); pass a larger search_budget to "
            "OriginalMeteor(search_budget=...) to wait longer, or shorten or drop the segment")
        self.limit = limit


class SearchBudget:
    """The work one segment's exact alignment may still do, shared by every search it needs (each
    reference, matching stage and ambiguous group), in *steps*: roughly one inner-loop iteration of
    the search or of the candidate pairing, so that a step costs about the same time on short and
    on very long segments."""

    def __init__(self, limit: int) -> None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"search_budget must be a positive int, got {limit!r}")
        self.limit = limit
        self.spent = 0

    @property
    def left(self) -> int:
        """Steps still allowed."""
        return self.limit - self.spent

    def charge(self, steps: int) -> None:
        """Spend ``steps``; raises :class:`SearchBudgetExceeded` once the total exceeds the limit."""
        self.spent += steps
        if self.spent > self.limit:
            raise SearchBudgetExceeded(self.limit)


def align_stage(candidates: Iterable[Pair], earlier: Mapping[int, int],
                search_budget: int | SearchBudget = DEFAULT_SEARCH_BUDGET) -> dict[int, int]:
    """The stage's best matches as ``{ref: hyp}`` (see the module docstring for "best").

    ``search_budget`` is a :class:`SearchBudget` shared with the segment's other searches, or a
    number of steps for this stage alone. Raises :class:`SearchBudgetExceeded` when it runs out
    (highly repetitive or very long segments, e.g. long anagrams of a few words)."""
    budget = search_budget if isinstance(search_budget, SearchBudget) else SearchBudget(search_budget)
    pairs = sorted(set(candidates))
    budget.charge(PAIR_STEPS * len(pairs))
    taken_cols = set(earlier.values())
    for i, j in pairs:
        if not (isinstance(i, int) and isinstance(j, int)) or i < 0 or j < 0:
            raise ValueError(f"candidate pairs must be non-negative int positions, got {(i, j)!r}")
        if i in earlier or j in taken_cols:
            raise ValueError(f"candidate {(i, j)} uses a word an earlier stage matched")
    row_cols: dict[int, list[int]] = {}
    col_rows: dict[int, list[int]] = {}
    for i, j in pairs:
        row_cols.setdefault(i, []).append(j)
        col_rows.setdefault(j, []).append(i)
    chosen = {i: js[0] for i, js in row_cols.items() if len(js) == 1 and len(col_rows[js[0]]) == 1}
    anchors = set(earlier.items()) | set(chosen.items())
    open_pairs = [p for p in pairs if p[0] not in chosen]  # a forced column has no other candidate
    for group in _components(open_pairs, linked=True):
        chosen.update(_Component(group, anchors).solve(budget))
    return chosen


def _components(pairs: list[Pair], linked: bool) -> list[list[Pair]]:
    """Pairs grouped by shared rows and columns, and (``linked``) by possible adjacency."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while x != root:
            parent[x], x = root, parent[x]
        return root

    def union(a: int, b: int) -> None:
        parent[find(a)] = find(b)

    pair_set = set(pairs)
    for i, j in pairs:  # node 2i is row i, node 2j + 1 is column j
        union(2 * i, 2 * j + 1)
        if linked and (i + 1, j + 1) in pair_set:
            union(2 * i, 2 * i + 2)
    groups: dict[int, list[Pair]] = {}
    for p in pairs:
        groups.setdefault(find(2 * p[0]), []).append(p)
    return list(groups.values())


def _max_matching(pairs: list[Pair]) -> int:
    """Maximum bipartite matching size (Kuhn's augmenting paths; closed form when complete)."""
    rows = sorted({i for i, _ in pairs})
    n_cols = len({j for _, j in pairs})
    if len(pairs) == len(rows) * n_cols:
        return min(len(rows), n_cols)
    adj: dict[int, list[int]] = {}
    for i, j in pairs:
        adj.setdefault(i, []).append(j)
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(augment(i, set()) for i in rows)


class _Component:
    """One independent group of ambiguous candidates, solved exactly.

    Values are ``matches * big + adjacencies``. An adjacency between two of the component's
    pairs is credited to the later row; one with an anchor (earlier or forced match) is a fixed
    gain of the pair.
    """

    def __init__(self, pairs: list[Pair], anchors: set[Pair]):
        pair_set = set(pairs)
        self.rows = rows = sorted({i for i, _ in pairs})
        cols = sorted({j for _, j in pairs})
        bit = {j: 1 << k for k, j in enumerate(cols)}
        by_row: dict[int, list[int]] = {}
        for i, j in sorted(pairs):
            by_row.setdefault(i, []).append(j)
        # options[t]: (column bit, column, fixed gain, column the previous row needs for a link)
        self.options = [[(bit[j], j, ((i - 1, j - 1) in anchors) + ((i + 1, j + 1) in anchors),
                          j - 1 if (i - 1, j - 1) in pair_set else -2) for j in by_row[i]] for i in rows]
        n = len(rows)
        self.consec = [t > 0 and rows[t - 1] == rows[t] - 1 for t in range(n)]
        self.reach = [0] * (n + 1)  # columns some row >= t can still take
        for t in range(n - 1, -1, -1):
            self.reach[t] = self.reach[t + 1] | sum(b for b, _, _, _ in self.options[t])
        # rows with anchor gains, as (gain, column bit) best first (at most two cells a row), and
        # for each t the index of the first such row >= t
        self.anchor_cells: list[list[tuple[int, int]]] = []
        self.anchor_from = [0] * (n + 1)
        for t, opts in enumerate(self.options):
            self.anchor_from[t] = len(self.anchor_cells)
            cells = sorted(((g, b) for b, _, g, _ in opts if g), reverse=True)
            if cells:
                self.anchor_cells.append(cells)
        self.anchor_from[n] = len(self.anchor_cells)
        self.big = sum(cells[0][0] for cells in self.anchor_cells) + n + 1  # > any adjacency count
        self.active: list[list[tuple[int, int, int]]] = [[] for _ in range(n + 1)]
        self.target = 0
        row_index = {i: t for t, i in enumerate(rows)}
        parts = _components(pairs, linked=False)
        for part in parts:
            kstar = _max_matching(part)
            self.target += kstar
            mask = sum(bit[j] for j in {j for _, j in part})
            part_rows = sorted({row_index[i] for i, _ in part})
            t = 0
            for k, r in enumerate(part_rows):  # rows >= t of the part: len(part_rows) - k
                while t <= r:
                    self.active[t].append((mask, kstar, len(part_rows) - k))
                    t += 1
        self._init_link_bound(parts, bit)
        self.steps = self._state_steps()

    def _state_steps(self) -> list[int]:
        """Steps charged for a bound at each row: the iterations of :meth:`bound` (classes, column
        pairs, anchor rows ahead, options). Expanding a state costs one step per option more."""
        n = len(self.rows)
        return [1 + len(self.options[t]) + len(self.active[t]) + (self.anchor_from[n] - self.anchor_from[t])
                + sum(len(masks) for _, masks in self.link_types[t]) for t in range(n)]

    def _greedy_steps(self) -> int:
        """Steps charged for :meth:`_greedy`: one bound of the classes per option."""
        return sum(len(opts) * (1 + len(self.active[t + 1])) for t, opts in enumerate(self.options))

    def _init_link_bound(self, parts: list[list[Pair]], bit: dict[int, int]) -> None:
        """Each adjacency inside the component takes its own pair of consecutive rows and its own
        pair of consecutive columns. When every class is complete bipartite (exact and stem
        stages) a row pair and a column pair can host one exactly when their class bigrams agree,
        so rows ``> t`` gain at most the sum over class bigrams of min(row pairs, free column
        pairs). Otherwise, the number of rows ``> t`` that have any link is the bound."""
        n = len(self.rows)
        self.link_types: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(n + 1)]
        self.link_rows = [0] * (n + 1)
        if all(len(p) == len({i for i, _ in p}) * len({j for _, j in p}) for p in parts):
            cls: dict[tuple[str, int], int] = {}
            for k, part in enumerate(parts):
                for i, j in part:
                    cls["r", i] = cls["c", j] = k
            pair_lists: dict[tuple[int, int], list[int]] = {}
            for (side, j), k in cls.items():
                if side == "c" and ("c", j - 1) in cls:
                    pair_lists.setdefault((cls["c", j - 1], k), []).append(bit[j - 1] | bit[j])
            col_pairs = {ty: tuple(masks) for ty, masks in pair_lists.items()}
            counts: dict[tuple[int, int], int] = {}
            for t in range(n - 1, -1, -1):
                self.link_types[t] = [(c, col_pairs[ty]) for ty, c in counts.items() if ty in col_pairs]
                if self.consec[t]:
                    ty = (cls["r", self.rows[t - 1]], cls["r", self.rows[t]])
                    counts[ty] = counts.get(ty, 0) + 1
        else:
            for t in range(n - 1, -1, -1):
                has_link = t + 1 < n and any(link != -2 for _, _, _, link in self.options[t + 1])
                self.link_rows[t] = self.link_rows[t + 1] + has_link

    def card_bound(self, t: int, used: int) -> int:
        """An upper bound on the matches rows ``t..`` can add (exact for complete bipartite classes)."""
        return sum(min(left, kstar - _popcount(used & mask)) for mask, kstar, left in self.active[t])

    def bound(self, t: int, used: int, prev: int) -> int:
        """An upper bound on the value rows ``t..`` can add: matches, then adjacencies through
        class bigrams, the link to the previous row's column, and anchor gains of free cells."""
        links = self.link_rows[t]
        for rows_left, masks in self.link_types[t]:
            free = 0
            for m in masks:
                if not used & m:
                    free += 1
                    if free == rows_left:
                        break
            links += free
        first = prev >= 0 and any(link == prev and not used & b for b, _, _, link in self.options[t])
        for cells in self.anchor_cells[self.anchor_from[t]:]:
            for g, b in cells:
                if not used & b:
                    links += g
                    break
        return self.card_bound(t, used) * self.big + links + first

    def solve(self, budget: SearchBudget) -> dict[int, int]:
        """The component's best pairs ``{row: column}``; the work is charged to ``budget``."""
        budget.charge(self._greedy_steps())
        need = max(self._greedy(), self.target * self.big) - 1
        exact: dict[tuple, int] = {}
        choice: dict[tuple, int] = {}
        upper: dict[tuple, int] = {}
        n, big, options, consec, reach = len(self.rows), self.big, self.options, self.consec, self.reach
        bound_of, steps = self.bound, self.steps
        allowed, spent = budget.left, [0]

        def search(t: int, used: int, prev: int, need: int) -> int:
            """The best suffix value if it exceeds ``need``, else an upper bound <= ``need``."""
            if t == n:
                return 0
            spent[0] += 1
            if spent[0] > allowed:
                raise SearchBudgetExceeded(budget.limit)
            key = (t, used & reach[t], prev if consec[t] else -1)
            value = exact.get(key)
            if value is not None:
                return value
            bound = upper.get(key)
            if bound is None:
                spent[0] += steps[t]
                bound = bound_of(t, used, prev)
            if bound <= need:
                return bound
            spent[0] += len(options[t])
            best, best_col, failed = need, -1, -1
            for b, col, gain, link in options[t]:
                if used & b:
                    continue
                g = big + gain + (prev == link)
                v = search(t + 1, used | b, col, best - g) + g
                if v > best:
                    best, best_col = v, col
                elif v > failed:
                    failed = v
            v = search(t + 1, used, -1, best)  # the row stays unmatched
            if v > best:
                best, best_col = v, -1
            elif v > failed:
                failed = v
            if best > need:
                exact[key] = best
                choice[key] = best_col
                return best
            upper[key] = failed
            return failed

        if sys.getrecursionlimit() < n + 100:  # one frame per row
            sys.setrecursionlimit(n + 100)
        try:
            value = search(0, 0, -1, need)
        finally:
            budget.spent += spent[0]
        if value <= need:
            raise AssertionError("original aligner: no alignment reaches the maximum matching")
        found: dict[int, int] = {}
        used, prev = 0, -1
        for t in range(n):
            col = choice[(t, used & reach[t], prev if consec[t] else -1)]
            if col >= 0:
                found[self.rows[t]] = col
                used |= next(b for b, j, _, _ in options[t] if j == col)
            prev = col
        return found

    def _greedy(self) -> int:
        """Value of one greedy pass (best immediate gain, keeping the maximum matching reachable)."""
        used, prev, value, matched = 0, -1, 0, 0
        for t, opts in enumerate(self.options):
            best = None
            for b, col, gain, link in opts:
                g = gain + (prev == link)
                if not used & b and (best is None or g > best[0]) \
                        and matched + 1 + self.card_bound(t + 1, used | b) >= self.target:
                    best = (g, b, col)
            if best is None:
                prev = -1
                continue
            value += self.big + best[0]
            used |= best[1]
            prev = best[2]
            matched += 1
        return value
