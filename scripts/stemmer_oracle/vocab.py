"""Vocabularies of real words per language, for checking stemmers against the jar.

Sources (each used when present):
  * WordNet index.* lemma names (/usr/share/wordnet), the jar's paraphrase-en.gz (English);
  * the MT and caption texts in shared/data (English, German);
  * gettext catalogues of the installed system (/usr/share/locale/<ll>/LC_MESSAGES/*.mo), and
    of iso-codes and libreoffice-l10n-{fi,hu,ro,tr} unpacked under ``--debs``;
  * Debian word lists, hunspell dictionaries and translated man pages unpacked under ``--debs``:
      apt-get download wngerman wfrench wspanish witalian wportuguese wbrazilian wdanish \\
        wdutch wswedish wnorwegian wamerican-insane wbritish-insane hunspell-ru hunspell-tr \\
        hunspell-hu hunspell-ro hunspell-de-de hunspell-fr-comprehensive hunspell-es \\
        hunspell-pt-pt hunspell-it hunspell-da hunspell-nl hunspell-sv hunspell-no \\
        manpages-{de,fr,es,ru,da,fi,hu,it,nl,ro,sv,tr,pt-br} iso-codes libreoffice-l10n-{fi,hu,ro,tr}
      for f in *.deb; do dpkg-deb -x "$f" x; done
    and ``unmunch_<dict>.txt`` files (hunspell-tools' unmunch output) in the same folder.
"""

from __future__ import annotations

import gettext
import glob
import gzip
import json
import re
from pathlib import Path
from typing import Iterable, Iterator

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
PARAPHRASE_EN = ROOT.parent / "pcoco" / "whl" / "pycocoevalcap" / "meteor" / "data" / "paraphrase-en.gz"
WORDNET = Path("/usr/share/wordnet")

WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
ROFF = re.compile(r"\\f[BIRPC]|\\\(..|\\[-&e|^ ]|\\\*\(..|\\\*.|^\.\S+", re.M)

# language -> (locale dirs, word lists, hunspell dictionaries, man page dirs, unmunch files)
SOURCES: dict[str, tuple[tuple[str, ...], ...]] = {
    "english": (("en", "en_GB"), ("american-english-insane", "british-english-insane"), (), (), ()),
    "german": (("de",), ("ngerman",), ("de_DE",), ("de",), ()),
    "french": (("fr",), ("french",), ("fr",), ("fr",), ()),
    "spanish": (("es",), ("spanish",), ("es_ES",), ("es",), ("es_ES",)),
    "russian": (("ru",), (), ("ru_RU",), ("ru",), ("ru_RU",)),
    "portuguese": (("pt", "pt_BR"), ("portuguese", "brazilian"), ("pt_PT",), ("pt_BR",), ()),
    "danish": (("da",), ("danish",), ("da_DK",), ("da",), ()),
    "dutch": (("nl",), ("dutch",), ("nl",), ("nl",), ()),
    "finnish": (("fi",), (), (), ("fi",), ()),
    "hungarian": (("hu",), (), ("hu_HU",), ("hu",), ()),
    "italian": (("it",), ("italian",), ("it_IT",), ("it",), ()),
    "norwegian": (("nb", "nn", "no"), ("bokmaal", "nynorsk"), ("nb_NO", "nn_NO"), (), ()),
    "romanian": (("ro",), (), ("ro_RO",), ("ro",), ("ro_RO",)),
    "swedish": (("sv",), ("swedish",), ("sv_SE",), ("sv",), ()),
    "turkish": (("tr",), (), ("tr_TR",), ("tr",), ()),
}


def words_in(text: str) -> Iterator[str]:
    """Alphabetic words of a text, plus its whitespace tokens as they stand."""
    yield from WORD.findall(text)
    yield from text.split()


def _lines(path: Path, encoding: str = "utf-8") -> Iterator[str]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding=encoding, errors="replace") as f:
        yield from f


def wordnet_lemmas() -> Iterator[str]:
    for path in sorted(WORDNET.glob("index.*")):
        if path.name in ("index.sense",):
            continue
        for line in _lines(path):
            if not line.startswith(" "):
                lemma = line.split(" ", 1)[0]
                yield lemma
                yield from lemma.split("_")


def paraphrase_words() -> Iterator[str]:
    for i, line in enumerate(_lines(PARAPHRASE_EN)):
        if i % 3:
            yield from line.split()


def shared_texts(language: str) -> Iterator[str]:
    """Texts of ``language`` (english or german) in shared/data."""
    side = {"english": "en", "german": "de"}[language]
    for path in sorted(SHARED.glob("mt/*/*.seg.jsonl.gz")):
        src, tgt = path.name.split(".")[0].split("-")
        for line in _lines(path):
            row = json.loads(line)
            if src == side:
                yield row["src"]
            if tgt == side:
                yield row["hyp"]
                yield row["ref"]
                yield from row["refs"].values()
    if side == "en":
        for path in sorted(SHARED.glob("captions/*/*.jsonl*")):
            for line in _lines(path):
                yield from _strings(json.loads(line))


def _strings(obj) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def locale_texts(locales: Iterable[str], debs: Path) -> Iterator[str]:
    roots = ("/usr/share/locale", f"{debs}/usr/share/locale", f"{debs}/usr/lib/libreoffice/program/resource")
    for loc in locales:
        for mo in sorted(p for r in roots for p in glob.glob(f"{r}/{loc}/LC_MESSAGES/*.mo")):
            try:
                with open(mo, "rb") as f:
                    catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
            except Exception:  # a malformed or non-UTF-8 catalogue is skipped
                continue
            for value in catalog.values():
                if isinstance(value, str):
                    yield value


def man_texts(debs: Path, dirs: Iterable[str]) -> Iterator[str]:
    for d in dirs:
        for path in sorted((debs / "usr/share/man" / d).rglob("*.gz")):
            if path.is_file():
                yield ROFF.sub(" ", "".join(_lines(path)))


def word_list(debs: Path, name: str) -> Iterator[str]:
    path = debs / "usr/share/dict" / name
    if path.is_file():
        for line in _lines(path):
            yield line.strip()


def hunspell_words(debs: Path, name: str) -> Iterator[str]:
    dic = debs / "usr/share/hunspell" / f"{name}.dic"
    if not dic.is_file():
        return
    aff = dic.with_suffix(".aff")
    enc = "utf-8"
    for line in _lines(aff, "latin-1"):
        if line.startswith("SET "):
            enc = line.split()[1].strip()
    for i, line in enumerate(_lines(dic, enc)):
        if i:
            yield line.split("/", 1)[0].split("\t", 1)[0].strip()


def unmunch_words(debs: Path, name: str) -> Iterator[str]:
    path = debs / f"unmunch_{name}.txt"
    if path.is_file():
        for line in _lines(path):
            yield line.strip().split("/", 1)[0]


def vocabulary(language: str, debs: Path) -> dict[str, set[str]]:
    """source name -> words (as found; case variants are added by the caller)."""
    locales, lists, dicts, mans, unmunched = SOURCES[language]
    out: dict[str, set[str]] = {}

    def add(name: str, texts: Iterable[str], split: bool) -> None:
        words: set[str] = set()
        for t in texts:
            if split:
                words.update(words_in(t))
            elif t:
                words.add(t)
        if words:
            out[name] = words

    if language == "english":
        add("wordnet", wordnet_lemmas(), False)
        add("paraphrase-en", paraphrase_words(), False)
    if language in ("english", "german"):
        add("shared-data", shared_texts(language), True)
    add("locale", locale_texts(locales, debs), True)
    add("manpages", man_texts(debs, mans), True)
    add("wordlist", (w for n in lists for w in word_list(debs, n)), False)
    add("hunspell", (w for n in dicts for w in hunspell_words(debs, n)), False)
    add("unmunch", (w for n in unmunched for w in unmunch_words(debs, n)), False)
    return out
