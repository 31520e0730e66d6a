"""Normalisation extensions beyond METEOR 1.5 (never used by a jar configuration).

* ``norm_ext`` / ``norm_ext_nopunct``: the jar's ``-norm`` steps (spec §2) for the languages whose
  ``-norm`` the jar refuses (da fi hu it nl no pt ro se tr other; not Buckwalter text). Differences
  from the jar's normaliser: letters, combining marks and digits are those of Unicode (so Romanian
  ``ș``, Greek or Devanagari stay inside words), every apostrophe is split off (the jar's cz/es/de/ru
  rule), there are no nonbreaking prefixes, and a period is kept before a next token that starts
  with any lower-case letter. Then lowercased like ``norm``.
* ``cjk_char``: every Chinese, Japanese or Korean character (Han, kana, Hangul, CJK punctuation,
  full-width forms) is a token of its own, as sacrebleu's zh/char tokenizers do for BLEU; other text
  is split on whitespace; everything is lowercased.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable

from .normalize import java_lower, java_trim, sub_around, tokenize


def _is_alpha(c: str) -> bool:
    return c.isalpha() or unicodedata.category(c)[0] == "M"


def _is_alnum(c: str) -> bool:
    return c.isalnum() or unicodedata.category(c)[0] == "M"


class _Chars:
    """A character class for ``normalize.sub_around``: ``c in _Chars(test, extra)``."""

    def __init__(self, test: Callable[[str], bool], extra: str = ""):
        self._test, self._extra = test, extra

    def __contains__(self, c: str) -> bool:
        return c in self._extra or self._test(c)


_KEEP = frozenset(" \t\n\x0b\f\r.'`,-\u2018\u2019")
_ALNUM = _Chars(_is_alnum)
_ALNUM_DOT = _Chars(_is_alnum, ".")


def normalize_ext(line: str, keep_punct: bool = True) -> str:
    """The ``norm_ext`` tokenisation of a line (not lowercased), tokens joined by single spaces."""
    w = "".join(c if c in _KEEP or _is_alnum(c) else f" {c} " for c in " " + line + " ")
    w = re.sub(r"\.(\.+)", r" DOTMULTI\1", w)
    while "DOTMULTI." in w:
        w = re.sub(r"DOTMULTI\.([^.])", r"DOTDOTMULTI \1", w).replace("DOTMULTI.", "DOTDOTMULTI")
    for rule in (r"(\D),(\D)", r"(\d),(\D)", r"(\D),(\d)"):
        w = re.sub(rule, r"\1 , \2", w)
    w = re.sub("[`\u2018\u2019]", "'", w)
    w = re.sub("[\u201c\u201d]|''", ' " ', w)
    w = sub_around(w.replace("\u2013", "-").replace("--", "-"), "-", _ALNUM_DOT, True, _ALNUM, True, " ")
    words = tokenize(w.replace("'", " ' "))
    out = []
    for i, word in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if len(word) > 1 and word.endswith("."):
            pre = word[:-1]
            if "." in pre and any(map(_is_alpha, pre)):
                word = word.replace(".", "")
            elif not nxt[:1].islower():
                word = pre + " ."
        out.append(word)
    w = " ".join(out)
    while "DOTDOTMULTI" in w:
        w = w.replace("DOTDOTMULTI", "DOTMULTI.")
    w = w.replace("DOTMULTI", ".")
    if not keep_punct:
        w = "".join(c if _is_alnum(c) else " " for c in w)
    return " ".join(java_trim(w).split())


_CJK = re.compile("([\u1100-\u11ff\u2e80-\u2fdf\u2ff0-\u303f\u3040-\u30ff\u3100-\u312f\u3130-\u318f"
                  "\u31a0-\u31ef\u31f0-\u31ff\u3200-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f"
                  "\uac00-\ud7af\ud7b0-\ud7ff\uf900-\ufaff\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef"
                  "\U00020000-\U0002fa1f])")


def cjk_char_tokens(line: str) -> list[str]:
    """Lowercased tokens with every CJK character on its own."""
    return tokenize(_CJK.sub(r" \1 ", java_lower(line)))


def ext_tokens(line: str, mode: str) -> list[str]:
    """Tokens of a line under an extension normalisation mode."""
    if mode == "cjk_char":
        return cjk_char_tokens(line)
    if mode in ("norm_ext", "norm_ext_nopunct"):
        return tokenize(java_lower(normalize_ext(line, keep_punct=mode == "norm_ext")))
    raise ValueError(f"not an extension normalization: {mode!r}")
