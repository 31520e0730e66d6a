"""Small helpers for the words of messages."""

from __future__ import annotations

from collections.abc import Iterable


def plural(n: int, noun: str, nouns: str = "") -> str:
    """``1 line``, ``2 lines``: ``n`` and the noun in the number it takes (``nouns``: an irregular plural)."""
    return f"{n:,} {noun if n == 1 else nouns or noun + 's'}"


def once_each(names: Iterable[str]) -> list[str]:
    """``names`` in order, each once (a file given twice is named once)."""
    return list(dict.fromkeys(names))
