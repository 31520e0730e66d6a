"""The bounds on one segment's work, one policy for every engine (docs/limits.md).

A segment's alignment time and memory grow with its *candidate matches*: the (hypothesis span,
reference span, module) triples the matchers find for a hypothesis and each of its references, the total
length of the lists :func:`~meteor_metric.meteor15.aligner.find_candidates` returns for them. A word
repeated ``n`` times on both sides alone gives ``n * n`` of them per reference. Normalisation's time grows with the
characters of a text. Both are checked before the expensive work starts: characters before a text is
normalised, candidates while they are found (an engine that counts them another way passes its count
to :func:`check_candidates`). Past a limit the segment is refused with a ``ValueError`` that names it.
"""

from __future__ import annotations

from typing import Optional

#: Most candidate matches of one segment: its hypothesis against all its references. The real data has at
#: most 5,692 (wmt22 zh-en, 2 references); a 2,400-token news document against its reference about 105,000.
#: At this limit the worst case (one word repeated on both sides) takes about 1-6 s on one core
#: (benchmarks/bench_hostile.py).
MAX_SEGMENT_CANDIDATES = 500_000
#: Most characters of one hypothesis or reference, counted before normalisation. The real data has at
#: most 1,674 (wmt22 zh-en); 2,400 tokens of news text about 13,500.
MAX_SEGMENT_CHARS = 100_000

_WHY_CANDIDATES = ("the alignment's time and memory grow with the candidate matches (a word repeated n times "
                   "on both sides gives n*n of them)")


def check_limit(value: Optional[int], name: str) -> Optional[int]:
    """``value`` if it is a positive integer or ``None`` (no limit), else a ``ValueError`` naming ``name``."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"{name} must be a positive integer or None (no limit), got {value!r}")
    return value


def check_chars(text: str, limit: Optional[int], where: str) -> str:
    """``text`` if it has at most ``limit`` characters (``None``: any number), else a ``ValueError``
    naming ``where`` (e.g. ``the hypothesis``)."""
    if limit is not None and len(text) > limit:
        raise ValueError(
            f"{where} has {len(text):,} characters, more than max_segment_chars={limit:,}: normalising a text "
            "takes time in proportion to its length. Split long documents into sentences, or raise "
            "max_segment_chars")
    return text


def check_candidates(count: int, limit: Optional[int], where: str) -> None:
    """A ``ValueError`` naming ``where`` (e.g. ``the hypothesis and reference 0``) if ``count`` candidate
    matches exceed ``limit`` (``None``: no limit). ``count`` may be a partial count already past the
    limit: an engine may stop finding candidates there."""
    if limit is not None and count > limit:
        raise ValueError(
            f"{where} have more than max_segment_candidates={limit:,} candidate matches: {_WHY_CANDIDATES}. "
            "Split the segment into sentences, drop it, or raise max_segment_candidates")
