"""Inputs built to be slow for METEOR's aligner (tests and benchmarks of the Space's limits)."""

from __future__ import annotations

#: The word of the slowest segments the engine's limits let through: 1,997 characters of it (666 times)
#: against the same with one word changed give 442,890 candidate matches, under the 500,000 a segment may
#: have (a 1-letter word gives more and is refused). About 1 s on the Python engine, 0.15 s on the native one.
SLOW_WORD = "an"


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


def slow_segments(n: int, chars: int = 1_999, word: str = SLOW_WORD) -> tuple[list[str], list[str]]:
    """``n`` distinct slow segments of one reference each (hypotheses, references): :func:`repeated_word_pair`
    with the changed word at another position in each reference, so no segment is a cached repeat."""
    hyp, _ = repeated_word_pair(1, chars, word)
    words = hyp.split()
    refs = []
    for k in range(n):
        changed = list(words)
        changed[k % len(words)] = "cat"
        refs.append(" ".join(changed))
    return [hyp] * n, refs
