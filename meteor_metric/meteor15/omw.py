"""Synonyms for languages other than English from Open Multilingual Wordnet 1.4 (an extension).

METEOR 1.5 has synonyms for English only. With ``synonyms="omw"`` (or ``"omw:<iso-639-3>"``) the
synonym module matches two different tokens that are lemmas of a common OMW synset. The data is
NLTK's ``omw-1.4`` package as it lies in an ``nltk_data`` directory (``corpora/omw-1.4/<lang>/
wn-data-<lang>.tab``, unzipped or inside ``corpora/omw-1.4.zip``); it is never downloaded here.
Lemmas are looked up as the token is (lower-cased in the table, so use a lowercasing
normalization); there is no morphology, and multi-word lemmas never match one token.
"""

from __future__ import annotations

import io
import os
import sys
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

# The jar's language -> OMW 1.4 language code (languages that OMW 1.4 has a wordnet for).
OMW_LANGUAGES = {"fr": "fra", "es": "spa", "pt": "por", "da": "dan", "fi": "fin", "it": "ita",
                 "nl": "nld", "no": "nob", "se": "swe", "ro": "ron"}
_HOW_TO_GET = ("install NLTK's omw-1.4 data once, e.g. python -m nltk.downloader -d ~/nltk_data omw-1.4 "
               "(or set $NLTK_DATA to a directory holding corpora/omw-1.4)")


class OmwDataNotFound(FileNotFoundError):
    """No Open Multilingual Wordnet data for the language in any nltk_data directory."""


def omw_language(language: str, synonyms: str) -> str:
    """The OMW code for ``synonyms`` (``"omw"`` or ``"omw:<code>"``) and a jar language."""
    if synonyms.startswith("omw:"):
        return synonyms[4:]
    if language not in OMW_LANGUAGES:
        raise ValueError(f"Open Multilingual Wordnet has no wordnet for {language!r}; choose one with "
                         f"synonyms='omw:<iso-639-3 code>' (codes: {', '.join(sorted(OMW_LANGUAGES.values()))}, ...)")
    return OMW_LANGUAGES[language]


def _nltk_data_dirs() -> list[Path]:
    """nltk.data.path's directories, computed as NLTK does (without importing it)."""
    dirs = [d for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    dirs += [os.path.expanduser("~/nltk_data")]
    dirs += [os.path.join(sys.prefix, d) for d in ("nltk_data", "share/nltk_data", "lib/nltk_data")]
    dirs += ["/usr/share/nltk_data", "/usr/local/share/nltk_data", "/usr/lib/nltk_data", "/usr/local/lib/nltk_data"]
    return [Path(d) for d in dirs]


def _read_tab(code: str) -> Optional[str]:
    member = f"omw-1.4/{code}/wn-data-{code}.tab"
    for d in _nltk_data_dirs():
        path = d / "corpora" / member
        if path.is_file():
            return path.read_text(encoding="utf-8")
        archive = d / "corpora" / "omw-1.4.zip"
        if archive.is_file():
            with zipfile.ZipFile(archive) as z:
                if member in z.namelist():
                    return io.TextIOWrapper(z.open(member), encoding="utf-8").read()
    return None


@lru_cache(maxsize=None)
def omw_synsets(code: str) -> Callable[[str], frozenset]:
    """word -> the OMW synset ids (``offset-pos``) it is a lemma of, for one OMW language."""
    text = _read_tab(code)
    if text is None:
        searched = ", ".join(str(d) for d in _nltk_data_dirs())
        raise OmwDataNotFound(f"no Open Multilingual Wordnet data for {code!r} (corpora/omw-1.4/{code}/"
                              f"wn-data-{code}.tab) in: {searched}. To fix: {_HOW_TO_GET}")
    table: dict[str, set] = {}
    for line in text.split("\n"):
        fields = line.split("\t")
        if len(fields) == 3 and fields[1].split(":")[-1] == "lemma":
            table.setdefault(fields[2].strip().lower(), set()).add(fields[0])
    frozen = {word: frozenset(ids) for word, ids in table.items()}
    empty: frozenset = frozenset()
    return lambda word: frozen.get(word, empty)
