"""Additive METEOR sufficient statistics (the jar's ``MeteorStats``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from itertools import chain
from operator import add, attrgetter
from typing import Iterable, Sequence

from .frozen import positional_constructor
from .javafmt import java_double_str

MAX_MODULES = 4
STATS_LINE_FIELDS = 23
#: Positions in a stats line (:meth:`MeteorStats.to_list`) of the chunks and the matched words of each side.
CHUNKS_FIELD, TEST_WORDS_FIELD, REF_WORDS_FIELD = 20, 21, 22


_INT_LINE = " ".join(["%d.0"] * STATS_LINE_FIELDS)  # a stats line of ints below 10**7, as Java prints them


def _perfect(total_test: int, total_ref: int, test_len: int, ref_len: int, chunks: int) -> bool:
    return total_test == test_len and total_ref == ref_len and chunks == 1


@dataclass(frozen=True)
class MeteorStats:
    """Counts for one segment, or the sum over many (``+`` or :meth:`sum`).

    Per-module tuples are indexed by the position of the module in the
    configuration. Lengths and match counts are words, or UTF-16 code units in
    character mode; ``chunks`` and the word-match counts are always words.
    Summing follows the jar's corpus rule: a perfect segment (everything
    matched in one chunk) contributes no chunks. ``crossings`` and ``match_pairs`` are filled only
    for the extension ``fragmentation="crossings"`` (0 otherwise, and not in the jar's stats line):
    the pairs of matches that cross and the pairs of matches, m*(m-1)/2 for m matches.
    """

    test_length: int
    ref_length: int
    test_function_words: int
    ref_function_words: int
    test_content_matches: tuple[int, ...]
    ref_content_matches: tuple[int, ...]
    test_function_matches: tuple[int, ...]
    ref_function_matches: tuple[int, ...]
    chunks: int
    test_word_matches: int
    ref_word_matches: int
    crossings: int = 0
    match_pairs: int = 0

    @property
    def test_total_matches(self) -> int:
        return sum(self.test_content_matches) + sum(self.test_function_matches)

    @property
    def ref_total_matches(self) -> int:
        return sum(self.ref_content_matches) + sum(self.ref_function_matches)

    @property
    def is_perfect(self) -> bool:
        """Everything matched in a single chunk (the fragmentation penalty is then 0)."""
        return _perfect(self.test_total_matches, self.ref_total_matches,
                        self.test_length, self.ref_length, self.chunks)

    def corpus_contribution(self) -> "MeteorStats":
        """What this segment adds to a corpus sum: itself, without chunks if it is perfect.

        Contributions add field by field in any order and grouping (``StatsTotal(False)``, or summed
        :meth:`to_list` vectors), which is what a map-reduce over many machines needs."""
        if not self.is_perfect:
            return self
        return MeteorStats(self.test_length, self.ref_length, self.test_function_words, self.ref_function_words,
                           self.test_content_matches, self.ref_content_matches, self.test_function_matches,
                           self.ref_function_matches, 0, self.test_word_matches, self.ref_word_matches,
                           self.crossings, self.match_pairs)

    def __add__(self, other: "MeteorStats") -> "MeteorStats":
        if not isinstance(other, MeteorStats):
            return NotImplemented
        return MeteorStats.sum((self, other))

    @staticmethod
    def sum(items: Iterable["MeteorStats"]) -> "MeteorStats":
        """Aggregate segment statistics exactly as the jar's ``addStats`` does."""
        running = StatsTotal()
        for s in items:
            running.add(s)
        return running.total

    def to_list(self) -> list[int]:
        """The 23 numbers of the jar's ``-ssOut`` line (unused module slots are 0).

        The line has no room for a fifth module, nor for the crossings of ``fragmentation="crossings"``."""
        if len(self.test_content_matches) > MAX_MODULES:
            raise ValueError(f"the jar's stats line has {MAX_MODULES} module slots, these statistics have "
                             f"{len(self.test_content_matches)}: use at most {MAX_MODULES} modules for stats lines")
        widths = {len(self.test_content_matches), len(self.ref_content_matches), len(self.test_function_matches),
                  len(self.ref_function_matches)}
        if len(widths) != 1:
            raise ValueError(f"per-module counts of different lengths: {self}")
        pad = (0,) * (MAX_MODULES - len(self.test_content_matches))
        return [self.test_length, self.ref_length, self.test_function_words, self.ref_function_words,
                *chain.from_iterable(zip(self.test_content_matches + pad, self.ref_content_matches + pad,
                                         self.test_function_matches + pad, self.ref_function_matches + pad)),
                self.chunks, self.test_word_matches, self.ref_word_matches]

    def to_line(self) -> str:
        """The jar's ``-ssOut`` line: 23 numbers formatted like Java doubles (``8.0 10.0 ...``)."""
        values = self.to_list()
        if set(map(type, values)) == {int} and -10_000_000 < min(values) and max(values) < 10_000_000:  # "8.0"
            return _INT_LINE % tuple(values)
        return " ".join(java_double_str(v) for v in values)

    @classmethod
    def from_list(cls, values: Sequence[float], n_modules: int = MAX_MODULES) -> "MeteorStats":
        """Parse the 23 numbers of a stats line; ``n_modules`` slots are kept."""
        if len(values) != STATS_LINE_FIELDS:
            raise ValueError(f"a METEOR stats line has {STATS_LINE_FIELDS} numbers, got {len(values)}")
        if not 1 <= n_modules <= MAX_MODULES:
            raise ValueError(f"n_modules must be 1..{MAX_MODULES}, got {n_modules}")
        ints = []
        for k, v in enumerate(values, 1):
            try:
                f = float(v)
            except (TypeError, ValueError):
                f = math.nan
            if not (math.isfinite(f) and f >= 0 and f == int(f)):
                raise ValueError(f"stats must be non-negative whole numbers, got {v!r} (number {k} of {STATS_LINE_FIELDS})")
            ints.append(int(f))
        _check_totals(ints)
        slots = [ints[4 + 4 * i: 8 + 4 * i] for i in range(n_modules)]
        return cls(ints[0], ints[1], ints[2], ints[3],
                   tuple(s[0] for s in slots), tuple(s[1] for s in slots),
                   tuple(s[2] for s in slots), tuple(s[3] for s in slots),
                   ints[20], ints[21], ints[22])

    @classmethod
    def from_line(cls, line: str, n_modules: int = MAX_MODULES) -> "MeteorStats":
        """Parse a jar ``-ssOut`` line (or :meth:`to_line` output)."""
        return cls.from_list(line.split(), n_modules)


def _check_totals(v: list[int]) -> None:
    """Raise ``ValueError`` for statistics no segment or sum of segments can have (more matches than words)."""
    limits = (("matched hypothesis words (content and function, all modules)", sum(v[4:20:4]) + sum(v[6:20:4]),
               "the hypothesis length", v[0]),
              ("matched reference words", sum(v[5:20:4]) + sum(v[7:20:4]), "the reference length", v[1]),
              ("hypothesis function words", v[2], "the hypothesis length", v[0]),
              ("reference function words", v[3], "the reference length", v[1]),
              ("matched hypothesis function words", sum(v[6:20:4]), "the hypothesis function words", v[2]),
              ("matched reference function words", sum(v[7:20:4]), "the reference function words", v[3]),
              ("chunks", v[CHUNKS_FIELD], "the matched words of either side", min(v[TEST_WORDS_FIELD], v[REF_WORDS_FIELD])))
    for what, n, limit_name, limit in limits:
        if n > limit:
            raise ValueError(f"impossible statistics: {n} {what} but {limit} {limit_name}; "
                             "is this a METEOR stats line (the jar's -ssOut order)?")


#: A MeteorStats' fields as a plain tuple, in declaration order (``MeteorStats(*stats_values(s)) == s``).
stats_values = attrgetter(*(f.name for f in fields(MeteorStats)))
#: ``MeteorStats(*values)`` of all 13 fields, in a third of the time (for each scored pair).
make_stats = positional_constructor(MeteorStats)


class StatsTotal:
    """A running corpus sum of segment statistics (the jar's ``addStats``), in constant memory.

    ``exclude_perfect_chunks=False`` sums the chunks of every segment (a plain field-by-field sum)."""

    def __init__(self, exclude_perfect_chunks: bool = True) -> None:
        self.exclude_perfect_chunks = exclude_perfect_chunks
        self.count = 0
        self._scalars = [0] * 9  # t_len r_len t_fw r_fw chunks t_wm r_wm crossings match_pairs
        self._slots: list[list[int]] = [[], [], [], []]  # tc rc tf rf

    def add(self, s: MeteorStats) -> None:
        """Add one segment; a perfect segment's chunks are not added (unless told otherwise)."""
        chunks = s.chunks
        if chunks == 1 and self.exclude_perfect_chunks and s.is_perfect:  # corpus_contribution()
            chunks = 0
        self.count += 1
        v = self._scalars
        v[0] += s.test_length
        v[1] += s.ref_length
        v[2] += s.test_function_words
        v[3] += s.ref_function_words
        v[4] += chunks
        v[5] += s.test_word_matches
        v[6] += s.ref_word_matches
        v[7] += s.crossings
        v[8] += s.match_pairs
        slots = self._slots
        for k, values in enumerate((s.test_content_matches, s.ref_content_matches, s.test_function_matches,
                                    s.ref_function_matches)):
            slots[k] = _add_slots(slots[k], values)

    def add_many(self, stats: Sequence[MeteorStats]) -> None:
        """:meth:`add` of each segment, summed column by column (the same totals in a third of the time)."""
        if not stats:
            return
        # each segment's fields read in a list comprehension (attribute reads the interpreter specializes), then
        # transposed: 13 attrgetter maps took 2.2 times as long on the 5,000 WMT21 segments the core makes
        (t_len, r_len, t_fw, r_fw, tc, rc, tf, rf, chunks, t_wm, r_wm, crossings, pairs) = zip(*[
            (s.test_length, s.ref_length, s.test_function_words, s.ref_function_words, s.test_content_matches,
             s.ref_content_matches, s.test_function_matches, s.ref_function_matches, s.chunks, s.test_word_matches,
             s.ref_word_matches, s.crossings, s.match_pairs) for s in stats])
        perfect = sum(1 for s in stats if s.chunks == 1 and s.is_perfect) if self.exclude_perfect_chunks else 0
        self.count += len(stats)
        sums = (sum(t_len), sum(r_len), sum(t_fw), sum(r_fw), sum(chunks) - perfect, sum(t_wm), sum(r_wm),
                sum(crossings), sum(pairs))
        self._scalars = list(map(add, self._scalars, sums))
        self._slots = [_sum_slots(slot, column) for slot, column in zip(self._slots, (tc, rc, tf, rf))]

    def merge(self, other: "StatsTotal") -> None:
        """Add another running sum (of other segments, under the same rule), as if its segments had been
        added here."""
        if other.exclude_perfect_chunks != self.exclude_perfect_chunks:
            raise ValueError("cannot merge sums that treat perfect segments' chunks differently")
        self.count += other.count
        self._scalars = list(map(add, self._scalars, other._scalars))
        self._slots = [_add_slots(mine, theirs) for mine, theirs in zip(self._slots, other._slots)]

    @property
    def total(self) -> MeteorStats:
        if self.count == 0:
            raise ValueError("cannot sum an empty collection of statistics")
        t_len, r_len, t_fw, r_fw, chunks, t_wm, r_wm, crossings, pairs = self._scalars
        tc, rc, tf, rf = (tuple(slot) for slot in self._slots)
        return MeteorStats(t_len, r_len, t_fw, r_fw, tc, rc, tf, rf, chunks, t_wm, r_wm, crossings, pairs)


def _sum_slots(total: list[int], column: Sequence[Sequence[int]]) -> list[int]:
    """``total`` with every per-module count of ``column`` added (:func:`_add_slots` of each)."""
    widths = set(map(len, column))
    if len(widths) == 1:  # each module's counts a slice of one flat list (a third of the time of zip(*column))
        (width,) = widths
        flat = list(chain.from_iterable(column))
        return _add_slots(total, [sum(flat[k::width]) for k in range(width)])
    for values in column:
        total = _add_slots(total, values)
    return total


def _add_slots(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Per-module counts added slot by slot; the shorter side's missing slots count 0."""
    if len(a) == len(b):  # (the usual case: one configuration's segments)
        return list(map(add, a, b))
    if len(a) < len(b):
        a, b = b, a
    return list(map(add, a, (*b, *[0] * (len(a) - len(b)))))
