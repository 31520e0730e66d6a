"""Shuffled sentences that make the ``original`` profile's exact search exponential (tests and benchmarks)."""

from __future__ import annotations

import random
import string


def anagram_pair(n_words: int = 60, seed: int = 0) -> tuple[str, str]:
    """A shuffled sentence of ``n_words`` over 5 distinct words, and another shuffle of the same words."""
    rng = random.Random(seed)
    words = [w for w in ("the", "cat", "sat", "on", "mat") for _ in range(n_words // 5)]
    rng.shuffle(words)
    hyp = " ".join(words)
    rng.shuffle(words)
    return hyp, " ".join(words)


def group_words(group: int) -> list[str]:
    """Five two-letter words of their own for each group number below 135 (``aa ab ac ad ae``, ``af`` ...)."""
    letters = string.ascii_lowercase
    return [letters[k // 26] + letters[k % 26] for k in range(5 * group, 5 * group + 5)]


def anagram_groups(seeds: list[int], words_per_group: int = 30, n_refs: int = 1) -> tuple[str, list[str]]:
    """A hypothesis of one shuffled group per seed, each over its own 5 words, and ``n_refs``
    references that shuffle every group again: the groups are separate exact searches (a
    reference never ends a group with the hypothesis' word, so no adjacency joins two groups)."""
    hyp: list[str] = []
    refs: list[list[str]] = [[] for _ in range(n_refs)]
    for group, seed in enumerate(seeds):
        rng = random.Random(seed)
        words = [group_words(group)[k % 5] for k in range(words_per_group)]
        rng.shuffle(words)
        hyp += words
        for ref in refs:
            shuffled = words[:]
            while shuffled[-1] == words[-1]:
                rng.shuffle(shuffled)
            ref += shuffled
    return " ".join(hyp), [" ".join(ref) for ref in refs]
