"""NLTK itself as an oracle (NLTK 3.10.4, WordNet 3.0): its WordNet reader over an nltk_data folder, or a skip
saying how to make one (``python scripts/make_nltk_data.py DIR``, then ``NLTK_DATA=DIR``; CI makes one)."""

from __future__ import annotations

import pytest


def nltk_wordnet(punkt: bool = False):
    """NLTK's ``wordnet`` corpus reader, loaded (and, with ``punkt``, ``word_tokenize`` able to run), or a skip."""
    nltk = pytest.importorskip("nltk")
    try:
        from nltk.corpus import wordnet
        wordnet.ensure_loaded()
        if punkt:
            nltk.word_tokenize("a test.")
    except LookupError:
        pytest.skip(f"no nltk_data with WordNet{' and punkt_tab' if punkt else ''}: "
                    "python scripts/make_nltk_data.py DIR, then NLTK_DATA=DIR")
    if wordnet.get_version() != "3.0" or nltk.__version__ != "3.10.4":
        pytest.skip(f"oracle is NLTK 3.10.4 with WordNet 3.0, found {nltk.__version__} / {wordnet.get_version()}")
    return wordnet
