"""Candidate matchers (exact, stem, synonym, paraphrase; lemma, wn_similarity) with the jar's candidate order.

Every matcher returns ``(ref_start, ref_len, hyp_start, hyp_len)`` tuples in the
order the jar appends them; the order breaks ties in the aligner. Token
equality is Java ``String.hashCode`` equality, as in the jar (hash collisions
count as exact matches).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, NamedTuple, Optional, Protocol, Sequence

from ..core.javafmt import java_string_hash
from .stemmers import stem_uncached

Span = tuple[int, int, int, int]

_HASH_CACHE: dict[str, int] = {}
_CACHE_LIMIT = 200_000
_REF_INDEX_CACHE = 256  # references whose synonym index is kept (each is scored against many hypotheses)


class _RefIndex(NamedTuple):
    """A reference's synonym index: positions (bitmasks) per synset id and per token hash, and the
    positions found so far for hypothesis tokens (a token's answer depends only on the token)."""

    by_synset: dict[int, int]
    by_key: dict[int, int]
    memo: dict[str, int]


def cached_map(tokens: Sequence[str], cache: dict, compute: Callable, limit: int = _CACHE_LIMIT):
    """``[compute(t) for t in tokens]`` through a per-token cache of at most ``limit`` entries."""
    values = []
    for t in tokens:
        v = cache.get(t)
        if v is None:
            if len(cache) >= limit:
                cache.clear()
            v = cache[t] = compute(t)
        values.append(v)
    return values


def token_keys(tokens: Sequence[str]) -> list[int]:
    """Java hash codes of tokens (cached)."""
    return cached_map(tokens, _HASH_CACHE, java_string_hash)


class Matcher(Protocol):
    kind: str

    def find(self, hyp: Sequence[str], ref: Sequence[str],
             hyp_keys: Sequence[int], ref_keys: Sequence[int], limit: Optional[int] = None) -> list[Span]:
        """The spans in the jar's order; with ``limit``, the search may stop once more than ``limit`` are
        found (then only the length of the list counts)."""


def _pairs_by_key(hyp_match: Sequence[int], ref_match: Sequence[int],
                  hyp_identity: Sequence[int] | None = None,
                  ref_identity: Sequence[int] | None = None, limit: Optional[int] = None) -> list[Span]:
    """All (j, i) with equal match keys, j-major and i ascending.

    With identity keys given, pairs whose tokens are identical are skipped. Stops after the first
    reference position that takes the list past ``limit``.
    """
    positions: dict[int, list[int]] = {}
    for i, k in enumerate(hyp_match):
        positions.setdefault(k, []).append(i)
    out = []
    for j, k in enumerate(ref_match):
        found = positions.get(k)
        if not found:
            continue
        if hyp_identity is None:
            out.extend((j, 1, i, 1) for i in found)
        else:
            rk = ref_identity[j]
            out.extend((j, 1, i, 1) for i in found if hyp_identity[i] != rk)
        if limit is not None and len(out) > limit:
            break
    return out


def _masked_spans(hyp: Sequence[str], hyp_keys: Sequence[int], by_key: dict[int, int], memo: dict[str, int],
                  positions: Callable[[str], int], limit: Optional[int] = None) -> list[Span]:
    """Spans (j-major, i ascending) from ``positions(word)``, a bitmask of reference positions, less
    the positions of identical tokens; each word's mask is computed once per reference (``memo``).
    Stops (unsorted) after the first hypothesis word that takes the list past ``limit``."""
    out = []
    for i, word in enumerate(hyp):
        if limit is not None and len(out) > limit:
            return out
        mask = memo.get(word)
        if mask is None:
            mask = memo[word] = positions(word) & ~by_key.get(hyp_keys[i], 0)
        while mask:
            low = mask & -mask
            out.append((low.bit_length() - 1, 1, i, 1))
            mask ^= low
    out.sort()
    return out


class ExactMatcher:
    """Tokens with equal Java hash codes."""

    kind = "exact"

    def find(self, hyp, ref, hyp_keys, ref_keys, limit=None) -> list[Span]:
        return _pairs_by_key(hyp_keys, ref_keys, limit=limit)


class StemMatcher:
    """Tokens with equal stems (Java hash of the stem) that are not already identical."""

    kind = "stem"

    def __init__(self, stem: Callable[[str], str]):
        self._stem = stem
        self._cache: dict[str, int] = {}

    def _stem_keys(self, tokens: Sequence[str]) -> list[int]:
        return cached_map(tokens, self._cache, self.stem_key)

    def stem(self, token: str) -> str:
        """A token's stem (the jar's stemmer)."""
        return self._stem(token)

    def uncached_stems(self, tokens: Sequence[str]) -> list[str]:
        """:meth:`stem` of each token, for a caller that keeps them: in one call where the stemmer can, an
        all-ASCII batch not cached (:func:`~.stemmers.stem_uncached`)."""
        return stem_uncached(self._stem, tokens)

    def stem_key(self, token: str) -> int:
        """The Java hash of a token's stem (what this matcher compares)."""
        return java_string_hash(self._stem(token))

    def find(self, hyp, ref, hyp_keys, ref_keys, limit=None) -> list[Span]:
        return _pairs_by_key(self._stem_keys(hyp), self._stem_keys(ref), hyp_keys, ref_keys, limit)


class SynonymMatcher:
    """Tokens sharing a WordNet synset (with the jar's morphology) that are not identical."""

    kind = "synonym"

    def __init__(self, synsets: Callable[[str], frozenset], lookup: Optional[Callable[[str], frozenset]] = None):
        """``synsets``: a word's synset ids; ``lookup``: the same, not cached (:attr:`lookup`; default
        ``synsets``)."""
        self._synsets = synsets
        #: a word's synset ids computed afresh, for callers that keep them (the compiled core's token table)
        self.lookup = synsets if lookup is None else lookup
        self._ref_index = lru_cache(maxsize=_REF_INDEX_CACHE)(self._index)

    def synsets(self, word: str) -> frozenset:
        """The synset ids of a word (two tokens match when theirs meet)."""
        return self._synsets(word)

    def _index(self, ref: tuple[str, ...]) -> _RefIndex:
        by_synset: dict[int, int] = {}
        by_key: dict[int, int] = {}
        for j, (word, key) in enumerate(zip(ref, token_keys(ref))):
            bit = 1 << j
            by_key[key] = by_key.get(key, 0) | bit
            for s in self._synsets(word):
                by_synset[s] = by_synset.get(s, 0) | bit
        return _RefIndex(by_synset, by_key, {})

    def find(self, hyp, ref, hyp_keys, ref_keys, limit=None) -> list[Span]:
        """The jar's j-major, i-ascending loop, answered from a per-reference index: each hypothesis
        token's reference positions (sharing a synset, not identical) are found once per reference."""
        by_synset, by_key, memo = self._ref_index(ref if type(ref) is tuple else tuple(ref))
        if not by_synset:
            return []
        synsets = self._synsets

        def positions(word: str) -> int:
            mask = 0
            for s in synsets(word):
                mask |= by_synset.get(s, 0)
            return mask

        return _masked_spans(hyp, hyp_keys, by_key, memo, positions, limit)


class LemmaMatcher(SynonymMatcher):
    """Extension: tokens sharing a WordNet lemma (``morphy`` per part of speech) that are not identical."""

    kind = "lemma"


class SimilarityMatcher:
    """Extension: tokens whose WordNet path similarity is at least ``threshold``, not identical.

    ``index`` gives each word's hypernym ancestors with their distances (``SimilarityIndex``)."""

    kind = "wn_similarity"

    def __init__(self, index, threshold: float):
        from .wn_similarity import max_distance

        self._ancestors = index.word_ancestors
        self._max = max_distance(threshold)
        self._ref_index = lru_cache(maxsize=_REF_INDEX_CACHE)(self._index)

    def _index(self, ref: tuple[str, ...]) -> _RefIndex:
        """Per ancestor within reach: (distance, reference position bit) pairs; hash -> positions."""
        by_ancestor: dict[int, list[tuple[int, int]]] = {}
        by_key: dict[int, int] = {}
        for j, (word, key) in enumerate(zip(ref, token_keys(ref))):
            by_key[key] = by_key.get(key, 0) | 1 << j
            for a, d in self._ancestors(word).items():
                if d <= self._max:
                    by_ancestor.setdefault(a, []).append((d, 1 << j))
        return _RefIndex(by_ancestor, by_key, {})

    def find(self, hyp, ref, hyp_keys, ref_keys, limit=None) -> list[Span]:
        """Pairs (j-major, i ascending) meeting at a common ancestor within the distance the threshold allows."""
        by_ancestor, by_key, memo = self._ref_index(ref if type(ref) is tuple else tuple(ref))
        if not by_ancestor:
            return []
        reach = self._max

        def positions(word: str) -> int:
            mask = 0
            for a, d in self._ancestors(word).items():
                if d <= reach:
                    for d_ref, bit in by_ancestor.get(a, ()):
                        if d + d_ref <= reach:
                            mask |= bit
            return mask

        return _masked_spans(hyp, hyp_keys, by_key, memo, positions, limit)


class ParaphraseMatcher:
    """Phrase pairs from a paraphrase table (exact token equality, duplicates kept)."""

    kind = "paraphrase"

    def __init__(self, table):
        self.table = table

    def find(self, hyp, ref, hyp_keys, ref_keys, limit=None) -> list[Span]:
        return self.table.matches(hyp, ref, limit)
