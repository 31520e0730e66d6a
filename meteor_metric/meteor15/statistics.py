"""The statistics stage: an alignment's counts (the jar's ``MeteorStats`` of one segment pair).

Each matched word counts for its module as a content or a function word, on each side; lengths are
words, or UTF-16 code units in character mode (``-ch``); chunks and the word-match counts are words.
"""

from __future__ import annotations

from bisect import bisect_right, insort
from itertools import compress
from typing import AbstractSet, Sequence

from ..core.alignment import Match
from ..core.javafmt import utf16_len
from ..core.stats import MeteorStats
from .aligner import count_chunks
from .matcher import cached_map
from .normalize import java_lower


class StatsCounter:
    """Counts a segment pair's statistics for one configuration (its function words, unit and modules).

    Safe to share between threads (the function-word cache only ever gains equal entries)."""

    def __init__(self, function_words: AbstractSet[str], n_modules: int, char_based: bool = False,
                 crossings: bool = False):
        self._function_words = function_words
        self._function_cache: dict[str, bool] = {}
        self._n_modules = n_modules
        self._char_based = char_based
        self._crossings = crossings

    @property
    def crossings(self) -> bool:
        """Whether crossing pairs are counted (``fragmentation="crossings"``)."""
        return self._crossings

    def function_flags(self, tokens: Sequence[str]) -> list[bool]:
        """Whether each token is a function word (the jar lowercases the token for this test)."""
        return cached_map(tokens, self._function_cache, self.is_function_word)

    def is_function_word(self, token: str) -> bool:
        """Whether one token is a function word (uncached)."""
        return java_lower(token) in self._function_words

    def function_flags_uncached(self, tokens: Sequence[str]) -> list[bool]:
        """:meth:`function_flags` without filling the cache. A batch of ASCII tokens without capitals (the
        normalizers' usual output), which ``java_lower`` leaves as they are, takes one set lookup a token."""
        joined = "".join(tokens)
        if joined.isascii() and joined.lower() == joined:
            return list(map(self._function_words.__contains__, tokens))
        return list(map(self.is_function_word, tokens))

    def count(self, hyp: Sequence[str], ref: Sequence[str], matches: Sequence[Match]) -> MeteorStats:
        """The statistics of ``hyp`` aligned to ``ref`` by ``matches``."""
        n = self._n_modules
        hyp_fw = self.function_flags(hyp)
        ref_fw = self.function_flags(ref)
        if self._char_based:
            hyp_size, ref_size = list(map(utf16_len, hyp)), list(map(utf16_len, ref))
        else:
            hyp_size, ref_size = [1] * len(hyp), [1] * len(ref)
        tc, rc, tf, rf = [0] * n, [0] * n, [0] * n, [0] * n
        hyp_words = ref_words = 0
        for ref_start, ref_len, hyp_start, hyp_len, module in matches:
            for k in range(hyp_start, hyp_start + hyp_len):
                if hyp_fw[k]:
                    tf[module] += hyp_size[k]
                else:
                    tc[module] += hyp_size[k]
            for k in range(ref_start, ref_start + ref_len):
                if ref_fw[k]:
                    rf[module] += ref_size[k]
                else:
                    rc[module] += ref_size[k]
            hyp_words += hyp_len
            ref_words += ref_len
        crossings = count_crossings(matches) if self._crossings else (0, 0)
        return MeteorStats(
            sum(hyp_size), sum(ref_size), sum(compress(hyp_size, hyp_fw)), sum(compress(ref_size, ref_fw)),
            tuple(tc), tuple(rc), tuple(tf), tuple(rf),
            count_chunks(matches), hyp_words, ref_words, *crossings)


def count_crossings(spans: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Crossing pairs and pairs of matches ``(ref_start, ref_len, hyp_start, hyp_len, ...)``.

    A match is one alignment unit (a paraphrase phrase counts once). Ordered by hypothesis position,
    two matches cross when the later one starts earlier in the reference."""
    seen: list[int] = []  # reference starts of the matches before, in the hypothesis, sorted
    crossings = 0
    for span in sorted(spans, key=lambda s: s[2]):
        crossings += len(seen) - bisect_right(seen, span[0])
        insort(seen, span[0])
    m = len(spans)
    return crossings, m * (m - 1) // 2
