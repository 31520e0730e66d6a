"""Inputs built to be slow for METEOR's aligner (tests and benchmarks of the Space's limits)."""

from __future__ import annotations


def repeated_word_pair(n_refs: int = 3, chars: int = 1_999, word: str = "the") -> tuple[str, list[str]]:
    """A hypothesis of one word repeated to ``chars`` characters (at most), and ``n_refs`` references of the
    same words with one word changed each (a different position each): every word matches every other,
    so the candidate alignments explode."""
    n_words = (chars + 1) // (len(word) + 1)
    words = [word] * n_words
    refs = []
    for k in range(n_refs):
        changed = list(words)
        changed[(k + 1) * n_words // (n_refs + 1)] = "cat"
        refs.append(" ".join(changed))
    return " ".join(words), refs
