"""Text normalisation, lowercasing and tokenisation exactly as METEOR 1.5 (Java) does them.

A literal port of ``edu.cmu.meteor.util.Normalizer.normalizeLine`` (spec §2), plus the Java string
primitives the pipeline relies on: ``String.toLowerCase()`` as Java 17 does it (Unicode 13 tables and
its own final-sigma rule), ``String.trim()`` and ``java.util.StringTokenizer``.

All character classes are the jar's, written out explicitly: Java's ``\\p{Digit}``, ``\\p{Lower}`` and
``\\s`` are ASCII-only, so ``\\d``, ``\\s`` and ``\\w`` are never used here.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from typing import Dict, FrozenSet, List, Set

from ..core.javafmt import java_split_lines
from ..core.languages import LANGUAGE_NAMES, SUPPORTED_LANGUAGES, normalize_language
from ..resources import resource_path

__all__ = [
    "normalize_line",
    "java_lower",
    "java_trim",
    "tokenize",
    "load_function_words",
    "sub_around",
]

# ---------------------------------------------------------------------------------------------
# Java string primitives
# ---------------------------------------------------------------------------------------------

_JAVA_TRIM_CHARS = "".join(map(chr, range(0x21)))


def java_trim(text: str) -> str:
    """Java ``String.trim()``: strip every char <= U+0020 from both ends (not Unicode whitespace)."""
    return text.strip(_JAVA_TRIM_CHARS)


_TOKEN_DELIMITERS = re.compile("[ \t\n\r\f]+")
# Characters Python's str.split() also splits on, but StringTokenizer does not.
_EXTRA_PY_WHITESPACE = re.compile(
    "[\x0b\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def tokenize(text: str) -> List[str]:
    """``java.util.StringTokenizer(text)``: split on runs of ``" \\t\\n\\r\\f"`` only."""
    if _EXTRA_PY_WHITESPACE.search(text) is None:
        return text.split()
    return [tok for tok in _TOKEN_DELIMITERS.split(text) if tok]


# Code points that Java 17 (Unicode 13) leaves unchanged but Python 3.11-3.13 (Unicode 14-15.1)
# lowercase; measured by running Java's String.toLowerCase on every code point. Java's lowercase of
# every other code point equals Python's str.lower() (Python 3.9/3.10 use Unicode 13: no exceptions).
_JAVA_KEEPS_CASE = frozenset(
    [0x2C2F, 0xA7C0, 0xA7D0, 0xA7D6, 0xA7D8]
    + [cp for cp in range(0x10570, 0x10596) if cp not in (0x1057B, 0x1058B, 0x10593)])
_LOWER_SLOW_PATH = re.compile(
    "[\u03a3\u2c2f\ua7c0\ua7d0\ua7d6\ua7d8\U00010570-\U00010595]")


def java_lower(text: str) -> str:
    """Java 17 ``String.toLowerCase()`` in an English (any but a tr/az/lt) locale.

    Python's ``str.lower()`` except for the code points above and for capital sigma, which becomes
    final sigma by Java's rule (a cased letter before it and none after it within its word).
    """
    if text.isascii() or _LOWER_SLOW_PATH.search(text) is None:
        return text.lower()
    bounds = _word_boundaries(text) if "\u03a3" in text else set()
    out = []
    for i, ch in enumerate(text):
        if ch == "\u03a3":
            out.append("\u03c2" if _final_cased(text, i, bounds) else "\u03c3")
        elif ord(ch) in _JAVA_KEEPS_CASE:
            out.append(ch)
        else:
            out.append(ch.lower())
    return "".join(out)


# Java's ConditionalSpecialCasing.isCased: Lu/Ll/Lt plus these Other_Lowercase/Other_Uppercase ranges.
_JAVA_OTHER_CASED = ((0x02B0, 0x02B8), (0x02C0, 0x02C1), (0x02E0, 0x02E4), (0x0345, 0x0345),
                     (0x037A, 0x037A), (0x1D2C, 0x1D61), (0x2160, 0x217F), (0x24B6, 0x24E9))


def _java_is_cased(ch: str) -> bool:
    cp = ord(ch)
    if cp in _JAVA_KEEPS_CASE:  # unassigned in Unicode 13
        return False
    if unicodedata.category(ch) in ("Lu", "Ll", "Lt"):
        return True
    return any(lo <= cp <= hi for lo, hi in _JAVA_OTHER_CASED)


def _final_cased(text: str, index: int, bounds: Set[int]) -> bool:
    """``ConditionalSpecialCasing.isFinalCased``: a cased char before Σ and none after it, both
    looked for only inside Σ's word (``BreakIterator.getWordInstance``)."""
    i = index
    while i not in bounds:
        if _java_is_cased(text[i - 1]):
            j = index + 1
            while j < len(text) and j not in bounds:
                if _java_is_cased(text[j]):
                    return False
                j += 1
            return True
        i -= 1
    return False


# Word boundaries of the JDK's rule-based word BreakIterator (sun.text.resources.BreakIteratorRules,
# "WordBreakRules"), modelled as a longest match over one class letter per character:
#   L letter, D digit, E enclosing mark (Mn/Me), e enclosing mark that is also a CJK diacritic,
#   N danda, K kanji, T katakana, H hiragana, J CJK diacritic, d '.', q quote, c other mid-number,
#   m other mid-word, M soft hyphen (mid-word, but not a base char), p number prefix,
#   o number suffix, W space, R CR, S line separator, C other control, X anything else;
#   format chars (Cf) are ignored (I): they stay with the token before them.
# Checked against Java 17 on random strings. Not modelled: the JDK answers some isBoundary() queries
# right after a supplementary character differently (its backward pass sees lone surrogates), and
# characters assigned after Unicode 13 get their Python category.
_WB_FIXED = {
    ".": "d", '"': "q", "'": "q", ",": "c", "\u066b": "c", "#": "p", "\r": "R", "\t": "W",
    "\n": "S", "\f": "S", "\u2028": "S", "\u2029": "S", "\u0964": "N", "\u0965": "N",
    "%": "o", "&": "o", "\u00a2": "o", "\u066a": "o", "\u2030": "o", "\u2031": "o",
    "\u00ad": "M", "\u2027": "m", "\u3005": "K", "\u30fd": "T", "\u30fe": "T", "\u309d": "H",
    "\u309e": "H",
    "\u3099": "e", "\u309a": "e", "\u309b": "J", "\u309c": "J", "\u30fb": "J", "\u30fc": "J",
}
_WB_CATEGORY = {"Cf": "I", "Mn": "E", "Me": "E", "Mc": "L", "Pd": "m", "Pc": "m", "Sc": "p",
                "Zs": "W", "Cc": "C", "Zl": "C", "Zp": "C"}


def _wb_class(ch: str) -> str:
    fixed = _WB_FIXED.get(ch)
    if fixed is not None:
        return fixed
    cp = ord(ch)
    if cp in _JAVA_KEEPS_CASE:  # unassigned in Unicode 13
        return "X"
    if 0x4E00 <= cp <= 0x9FA5 or 0xF900 <= cp <= 0xFA2D:
        return "K"
    if 0x30A1 <= cp <= 0x30FA:
        return "T"
    if 0x3041 <= cp <= 0x3094:
        return "H"
    cat = unicodedata.category(ch)
    if cat[0] == "L":
        return "L"
    if cat[0] == "N":
        return "D"
    return _WB_CATEGORY.get(cat, "X")


_WB_WORD = "(?:L[Ee]*)+(?:[mMdq](?:L[Ee]*)+)*N?"
_WB_NUMBER = "(?:D[Ee]*)+(?:[cdq](?:D[Ee]*)+)*"
_WB_RULES = tuple(re.compile(rule) for rule in (
    f"(?:{_WB_WORD})?(?:{_WB_NUMBER}{_WB_WORD})*(?:{_WB_NUMBER}o?)?",
    f"[pd](?:{_WB_NUMBER}{_WB_WORD})*(?:{_WB_NUMBER}o?)?",
    "(?:W[Ee]*)*R?S?",
    "[TJe]*",
    "[HJe]*",
    "K*",
    "[^EeCSRM][Ee]+",
))


def _word_boundaries(text: str) -> Set[int]:
    """Boundary offsets (in code points) of the JDK word BreakIterator over ``text``."""
    positions = []
    classes = []
    for i, ch in enumerate(text):
        cls = _wb_class(ch)
        if cls != "I":
            positions.append(i)
            classes.append(cls)
    bounds = {0, len(text)}
    seq = "".join(classes)
    k = 0
    while k < len(seq):
        end = k + 1
        for rule in _WB_RULES:
            m = rule.match(seq, k)
            if m is not None and m.end() > end:
                end = m.end()
        if end < len(seq):
            bounds.add(positions[end])
        k = end
    return bounds


# ---------------------------------------------------------------------------------------------
# Resources
# ---------------------------------------------------------------------------------------------

_CACHE_LOCK = threading.Lock()
_PREFIXES: Dict[str, Dict[str, bool]] = {}
_FUNCTION_WORDS: Dict[str, FrozenSet[str]] = {}


def _read_resource(*parts: str) -> str:
    with open(resource_path(*parts), encoding="utf-8", newline="") as f:
        return f.read()


def nonbreaking_prefixes(short: str) -> Dict[str, bool]:
    """``Normalizer.nbpList``: prefix -> True if ``#NUMERIC_ONLY#``, False if nonbreaking always."""
    table = _PREFIXES.get(short)
    if table is None:
        table = {}
        for line in java_split_lines(_read_resource("nonbreaking", LANGUAGE_NAMES[short] + ".prefixes")):
            fields = tokenize(line)
            if not fields or fields[0].startswith("#"):
                continue
            table[fields[0]] = len(fields) > 1 and fields[1] == "#NUMERIC_ONLY#"
        with _CACHE_LOCK:
            table = _PREFIXES.setdefault(short, table)
    return table


def load_function_words(language: str = "en") -> FrozenSet[str]:
    """The jar's ``function/<language>.words`` list: every line verbatim (Java ``readLine``)."""
    short = normalize_language(language)
    words = _FUNCTION_WORDS.get(short)
    if words is None:
        words = frozenset(java_split_lines(_read_resource("function", LANGUAGE_NAMES[short] + ".words")))
        with _CACHE_LOCK:
            words = _FUNCTION_WORDS.setdefault(short, words)
    return words


# ---------------------------------------------------------------------------------------------
# Normalizer.normalizeLine
# ---------------------------------------------------------------------------------------------

# The jar's alpha class: ASCII, Latin-1 and Latin Extended-A letters, Cyrillic, phonetic extensions.
_ALPHA_RANGES = ((0x41, 0x5A), (0x61, 0x7A), (0x160, 0x160), (0x17D, 0x17D), (0x161, 0x161),
                 (0x17E, 0x17E), (0x178, 0x178), (0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0x17E),
                 (0x400, 0x4FF), (0x500, 0x527), (0xA640, 0xA66E), (0xA67E, 0xA697), (0x1D00, 0x1D7F))
_ALPHA = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _ALPHA_RANGES)
_ALNUM = "0-9" + _ALPHA
_ALPHA_SET = frozenset(chr(cp) for lo, hi in _ALPHA_RANGES for cp in range(lo, hi + 1))
_DIGIT_SET = frozenset("0123456789")
_ALNUM_SET = _ALPHA_SET | _DIGIT_SET
_ALNUM_DOT_SET = _ALNUM_SET | {"."}

# Step 2, ([^ALNUM\s.'`,\-‘’]) -> " $1 ": splitting on the captured symbol and joining with spaces
# puts one space on each side of every symbol.
_SEPARATE = re.compile(f"([^{_ALNUM} \t\n\x0b\f\r.'`,\\-\u2018\u2019])")
_MULTI_DOT = re.compile(r"\.(\.+)")
_MULTI_DOT2 = re.compile(r"DOTMULTI\.([^.])")
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
_ALNUM_RUN = re.compile(f"[{_ALNUM}]+")
# The jar's whitespace class [ \u2000-\u200a\u202f\u205f\u3000\u00a0]+ without the ASCII space.
_UNICODE_SPACES = frozenset("\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
                            "\u202f\u205f\u3000\u00a0")
_UNICODE_SPACE = re.compile("[\u2000-\u200a\u202f\u205f\u3000\u00a0]")


def sub_around(w: str, sep: str, left: FrozenSet[str], left_in: bool,
               right: FrozenSet[str], right_in: bool, repl: str) -> str:
    """``re.sub(f"([L]){sep}([R])", rf"\\1{repl}\\2", w)`` for single-char classes L and R given as
    sets (``*_in`` False means the negated class): a left-to-right, non-overlapping scan."""
    i = w.find(sep, 1)
    if i < 0:
        return w
    out = []
    pos = 0
    last = len(w) - 1
    while 0 < i < last:
        if (w[i - 1] in left) is left_in and (w[i + 1] in right) is right_in:
            out.append(w[pos:i])
            out.append(repl)
            pos = i + 1
            i = w.find(sep, i + 3)  # the match used w[i + 1]; the next one starts after it
        else:
            i = w.find(sep, i + 1)
    if not out:
        return w
    out.append(w[pos:])
    return "".join(out)


def _split_apostrophes(w: str, english: bool) -> str:
    """Step 8 for en and fr: the jar's four (en: five) apostrophe rules in one scan.

    en, in order: ([^A])'([^A]) -> "$1 ' $2", ([^A0-9])'([A]) -> "$1 ' $2", ([A])'([^A]) -> "$1 ' $2",
    ([A])'([A]) -> "$1 '$2", ([0-9])'([s]) -> "$1 '$2". fr: the same first and third rules,
    ([^A])'([A]) -> "$1 ' $2" and ([A])'([A]) -> "$1' $2" (A = the jar's alpha class).
    Each apostrophe has at most one applicable rule, fixed by its two neighbours, and a rewrite only
    adds spaces next to its own apostrophe. Apostrophes are never adjacent here (step 5 turned ''
    into "), so sequential replaceAll passes differ from one scan only in one way: within a pass, an
    apostrophe two chars after one just rewritten by the same rule is skipped, since its left
    neighbour was consumed by that match.
    """
    out = []
    pos = 0
    last = len(w) - 1
    prev_i = prev_rule = -9
    i = w.find("'", 1)
    while 0 < i < last:
        left, right = w[i - 1], w[i + 1]
        if left in _ALPHA_SET:
            rule = 4 if right in _ALPHA_SET else 3
        elif right not in _ALPHA_SET:
            rule = 1
        elif not english or left not in _DIGIT_SET:
            rule = 2
        else:
            rule = 5 if right == "s" else 0
        if rule and not (i - prev_i == 2 and rule == prev_rule):
            out.append(w[pos:i])
            out.append(" ' " if rule < 4 else " '" if english else "' ")
            pos = i + 1
            prev_i, prev_rule = i, rule
        i = w.find("'", i + 1)
    if not out:
        return w
    out.append(w[pos:])
    return "".join(out)


def _split_dots(w: str, nbp: Dict[str, bool]) -> str:
    """Step 9 over tokens joined by single spaces: each token of two or more chars that ends with
    '.' is rewritten by the nonbreaking-prefix rules, looking at the original next token."""
    ends = []
    i = w.find(". ")
    while i >= 0:
        ends.append(i + 1)
        i = w.find(". ", i + 2)
    if w.endswith("."):
        ends.append(len(w))
    out = []
    pos = 0
    for end in ends:
        start = w.rfind(" ", 0, end) + 1
        if end - start < 2:
            continue
        word = w[start:end]
        pre = word[:-1]
        nxt = w[end + 1:end + 2]  # first char of the next token
        if "." in pre and _HAS_ALPHA.search(pre):
            word = word.replace(".", "")  # U.S. -> US
        else:
            numeric_only = nbp.get(pre)
            if numeric_only is False or "a" <= nxt <= "z" or (numeric_only and "0" <= nxt <= "9"):
                continue
            word = pre + " ."
        out.append(w[pos:start])
        out.append(word)
        pos = end
    if not out:
        return w
    out.append(w[pos:])
    return "".join(out)


def normalize_line(line: str, language: str = "en", keep_punct: bool = True) -> str:
    """Java ``Normalizer.normalizeLine(line, langID, keepPunct)``; the result is not lowercased.

    Raises ValueError for a language the jar has no normaliser for (it would die with
    "No normalizer for language").
    """
    short = normalize_language(language)
    if short not in SUPPORTED_LANGUAGES:
        raise ValueError(f"no normalizer for language {language!r} ({LANGUAGE_NAMES[short]}); "
                         f"-norm supports {', '.join(sorted(SUPPORTED_LANGUAGES))}")
    ascii_only = line.isascii()

    # 1-2. Wrap in spaces; separate symbols.
    w = " " + " ".join(_SEPARATE.split(line)) + " "
    # 3. Escape runs of dots.
    if ".." in w:
        w = _MULTI_DOT.sub(lambda m: " DOTMULTI" + m.group(1), w)
    while "DOTMULTI." in w:
        w = _MULTI_DOT2.sub(lambda m: "DOTDOTMULTI " + m.group(1), w)
        w = w.replace("DOTMULTI.", "DOTDOTMULTI")
    # 4. Separate commas except inside numbers: ([^0-9]),([^0-9]), ([0-9]),([^0-9]), ([^0-9]),([0-9]).
    if "," in w:
        w = sub_around(w, ",", _DIGIT_SET, False, _DIGIT_SET, False, " , ")
        w = sub_around(w, ",", _DIGIT_SET, True, _DIGIT_SET, False, " , ")
        w = sub_around(w, ",", _DIGIT_SET, False, _DIGIT_SET, True, " , ")
    # 5. Quotes: [`‘’] -> ', then ([“”]|'') -> " (disjoint, so plain replaces in any order).
    w = w.replace("`", "'")
    if not ascii_only:
        w = w.replace("\u2018", "'").replace("\u2019", "'")
        w = w.replace("\u201c", ' " ').replace("\u201d", ' " ')
    w = w.replace("''", ' " ')
    # 6-7. Dashes; hyphens between words: ([ALNUM.])-([ALNUM]).
    if not ascii_only:
        w = w.replace("\u2013", "-")
    if "-" in w:
        w = w.replace("--", "-")
        w = sub_around(w, "-", _ALNUM_DOT_SET, True, _ALNUM_SET, True, " ")
    # 8. Apostrophes.
    if "'" in w:
        if short == "en" or short == "fr":
            w = _split_apostrophes(w, short == "en")
        else:
            w = w.replace("'", " ' ")

    # 9. Split dots off words unless nonbreaking; tokens are joined with single spaces.
    w = " ".join(tokenize(w))
    if "." in w:
        w = _split_dots(w, nonbreaking_prefixes(short))
    # 10. Unescape runs of dots.
    if "DOTMULTI" in w:
        while "DOTDOTMULTI" in w:
            w = w.replace("DOTDOTMULTI", "DOTMULTI.")
        w = w.replace("DOTMULTI", ".")
    # 11. Optional punctuation removal; what is left is runs of ALNUM between spaces.
    if not keep_punct:
        return " ".join(_ALNUM_RUN.findall(w))
    # 12. Collapse whitespace (only Unicode-space tokens remain to drop); Java trim().
    if not ascii_only and _UNICODE_SPACE.search(w):
        w = " ".join(tok for tok in w.split(" ") if tok not in _UNICODE_SPACES)
    return java_trim(w)
