"""Pure-Python PTB tokenization as pycocoevalcap 1.2 runs it (no Java).

pycocoevalcap pipes captions through Stanford CoreNLP 3.4.1
``edu.stanford.nlp.process.PTBTokenizer -preserveLines -lowerCase`` and then drops the tokens of its
``PUNCTUATIONS`` list. :func:`ptb_tokenize` reimplements the rules of that pipeline that English captions
meet: whitespace and punctuation splitting, clitics (``'s``, ``n't``, ``'re`` ...), sentence-final periods
kept on abbreviations (``t.v.``, ``ave.``), quotes and brackets mapped to PTB tokens, lower-casing. As in
pycocoevalcap, brackets survive as ``-lrb-``/``-rrb-``: the Java tokenizer lower-cases them, and the
``PUNCTUATIONS`` list names only the upper-case forms.
Checked against the Java tokenizer on every caption line of the Flickr8k and THumB data
(``tests/test_coco.py``); text far from captions (URLs, emoticons, non-Latin scripts) is not covered.
"""

from __future__ import annotations

import re

#: pycocoevalcap's ``PUNCTUATIONS``: PTB tokens removed after tokenization.
PUNCTUATIONS = frozenset({"''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!", ",", ":",
                          "-", "--", "...", ";"})

# Abbreviations the Stanford lexer keeps with their period (a subset relevant to captions).
_ABBREVIATIONS = frozenset({"ave", "st", "mr", "mrs", "ms", "dr", "jr", "sr", "vs", "etc", "inc", "co",
                            "corp", "ltd", "mt", "ft", "no", "prof", "gen", "rd", "blvd"})
_ACRONYM = re.compile(r"^(?:[A-Za-z]\.){2,}$")
_CLITIC = re.compile(r"^(.+?)(n't|'s|'re|'ve|'ll|'d|'m)$", re.IGNORECASE)
_CLITICS = frozenset({"n't", "'s", "'re", "'ve", "'ll", "'d", "'m"})
_BRACKETS = {"(": "-LRB-", ")": "-RRB-", "{": "-LCB-", "}": "-RCB-", "[": "-LSB-", "]": "-RSB-"}
_PIECES = re.compile(r"\.\.\.|\.\.|--|[,;:!?\"(){}\[\]]|[^\s,;:!?\"(){}\[\]]+")


def _split_word(word: str) -> list[str]:
    """One chunk without separators: clitics and a final period split off."""
    if _ACRONYM.match(word) or word.lower() in _CLITICS:
        return [word]
    if word.lower() == "cannot":
        return [word[:3], word[3:]]
    if word.endswith(".") and len(word) > 1:
        stem = word[:-1]
        if stem.lower() in _ABBREVIATIONS:
            return [word]
        return _split_word(stem) + ["."]
    if word.startswith("'") and len(word) > 1 and not _CLITIC.match(word):
        return ["`"] + _split_word(word[1:])
    m = _CLITIC.match(word)
    if m and m.group(1) != "'":
        return _split_word(m.group(1)) + [m.group(2)]
    return [word]


def ptb_tokens(line: str) -> list[str]:
    """The Stanford PTB tokens of one line (``-preserveLines -lowerCase``), punctuation still in."""
    pieces = _PIECES.findall(line)
    out: list[str] = []
    quote_open = True
    for piece in pieces:
        if piece == '"':
            out.append("``" if quote_open else "''")
            quote_open = not quote_open
        elif piece in _BRACKETS:
            out.append(_BRACKETS[piece])
        elif piece in ("..", "..."):
            out.append("..." if piece == "..." else ".")
        else:
            out.extend(_split_word(piece) if piece not in ",;:!?--" else [piece])
    return [t.lower() for t in out]  # -lowerCase also gives -lrb-, which PUNCTUATIONS then keeps


def ptb_tokenize(line: str) -> str:
    """pycocoevalcap's token string for one caption: PTB tokens, lower-cased, ``PUNCTUATIONS`` dropped."""
    return " ".join(t for t in ptb_tokens(line.replace("\n", " ")) if t not in PUNCTUATIONS)
