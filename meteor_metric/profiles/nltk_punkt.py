"""``nltk.word_tokenize(text)`` as NLTK runs it by default, without nltk_data.

By default ``word_tokenize`` first splits the text into sentences with the Punkt model
``punkt_tab/english`` from nltk_data, then tokenizes each sentence with NLTK's Treebank word
tokenizer. Punkt splits single sentences too, after a period it does not take for an abbreviation's:
``"a t.v. and a bunch of chairs"`` becomes the sentences ``"a t.v."`` and ``"and a bunch of chairs"``,
so ``t.v.`` becomes ``t.v`` and ``.``.

The English model ships with this package (``resources/punkt_tab``: the four punkt_tab files,
gzip-compressed, byte for byte; origin and licence in its LICENSE-PUNKT.txt). NLTK's own classes read
and apply it (``PunktDecoder``, ``PunktParameters``, ``PunktSentenceTokenizer``), as NLTK's
``load_punkt_params`` does, so the algorithm is NLTK's code.
"""

from __future__ import annotations

import gzip
import threading
from typing import Optional

from nltk.tabdata import PunktDecoder
from nltk.tokenize import word_tokenize
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

from ..resources import resource_path

__all__ = ["punkt_parameters", "sentence_tokenize", "word_tokenize_punkt"]

MODEL = ("punkt_tab", "english")
_lock = threading.Lock()
_tokenizer: Optional[PunktSentenceTokenizer] = None


def punkt_parameters() -> PunktParameters:
    """The shipped English ``punkt_tab`` model, decoded as NLTK's ``load_punkt_params`` decodes it."""
    decoder = PunktDecoder()
    params = PunktParameters()
    with _open("collocations.tab") as f:
        params.collocations = set(decoder.tab2tups(f))
    with _open("sent_starters.txt") as f:
        params.sent_starters = decoder.txt2set(f)
    with _open("abbrev_types.txt") as f:
        params.abbrev_types = decoder.txt2set(f)
    with _open("ortho_context.tab") as f:
        params.ortho_context = decoder.tab2intdict(f)
    return params


def sentence_tokenize(text: str) -> list[str]:
    """``nltk.sent_tokenize(text)`` (language english): Punkt sentences of ``text``."""
    global _tokenizer
    tokenizer = _tokenizer
    if tokenizer is None:
        with _lock:
            if _tokenizer is None:
                _tokenizer = PunktSentenceTokenizer(punkt_parameters())
            tokenizer = _tokenizer
    return tokenizer.tokenize(text)


def word_tokenize_punkt(text: str) -> list[str]:
    """``nltk.word_tokenize(text)`` with its defaults (Punkt sentences, then Treebank words)."""
    return [token for sentence in sentence_tokenize(text) for token in word_tokenize(sentence, preserve_line=True)]


def _open(name: str):
    path = resource_path(*MODEL, name + ".gz")
    if not path.is_file():
        raise FileNotFoundError(f"the packaged Punkt model file {path} is missing; reinstall meteor-metric")
    return gzip.open(path, "rt", encoding="utf-8", newline="\n")
