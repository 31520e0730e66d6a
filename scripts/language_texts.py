#!/usr/bin/env python3
"""Real sentences per language for tests/data/java15/languages (see scripts/build_language_goldens.py).

Sources (Debian bookworm packages, fetched with ``apt-get download``, never installed):

* translated manual pages, ``manpages-{cs,da,de,es,fi,fr,hu,it,nb,nl,pl,pt-br,ro,ru,sv}`` (the
  manpages-l10n project, GPL-3+) and ``manpages-tr`` (GPL-2+): roff markup is stripped, paragraphs
  are split into sentences;
* Arabic: the ``msgstr`` texts of the system's ``/usr/share/locale/ar/LC_MESSAGES/*.mo`` catalogues
  (decoded with ``msgunfmt``; each package's own licence, mostly GPL/LGPL), transliterated to
  Buckwalter, the form the jar's ``arabic-buckwalter-reduced`` stemmer expects;
* German MT: ``shared/data/mt/wmt21-news/en-de.seg.jsonl.gz`` (handled by the golden builder).

  python scripts/language_texts.py --debs DIR --out texts.json.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# Jar language -> manpages-l10n directory (usr/share/man/<dir>) and package.
MANPAGES = {
    "cz": ("cs", "manpages-cs"), "da": ("da", "manpages-da"), "de": ("de", "manpages-de"),
    "es": ("es", "manpages-es"), "fi": ("fi", "manpages-fi"), "fr": ("fr", "manpages-fr"),
    "hu": ("hu", "manpages-hu"), "it": ("it", "manpages-it"), "no": ("nb", "manpages-nb"),
    "nl": ("nl", "manpages-nl"), "other": ("pl", "manpages-pl"), "pt": ("pt_BR", "manpages-pt-br"),
    "ro": ("ro", "manpages-ro"), "ru": ("ru", "manpages-ru"), "se": ("sv", "manpages-sv"),
    "tr": ("tr", "manpages-tr"),
}
PER_LANGUAGE = 1500  # sentences kept per language (the builder samples from these)

_ESCAPES = [
    (re.compile(r"\\f(?:\[[^\]]*\]|\(..|.)"), ""), (re.compile(r"\\s[+-]?\d"), ""),
    (re.compile(r"\\\*(?:\[[^\]]*\]|\(..|.)"), ""), (re.compile(r"\\[&%|^c]"), ""),
]
_GLYPHS = {r"\-": "-", r"\ ": "\u00a0", r"\~": "\u00a0", r"\(em": "\u2014", r"\(en": "\u2013",
           r"\(aq": "'", r"\(dq": '"', r"\(lq": "\u201c", r"\(rq": "\u201d", r"\(Fo": "\u00ab",
           r"\(Fc": "\u00bb", r"\(oq": "\u2018", r"\(cq": "\u2019", r"\(bu": "\u2022", r"\e": "\\"}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-ÖØ-ÞĀ-ſА-ЯЁ«\"“„])")


def roff_paragraphs(text: str) -> list[str]:
    """Plain-text paragraphs of a man page: macro lines end a paragraph, escapes become text."""
    paragraphs, current = [], []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        for pattern, repl in _ESCAPES:
            line = pattern.sub(repl, line)
        for escape, glyph in _GLYPHS.items():
            line = line.replace(escape, glyph)
        if "\\" in line:  # an escape not handled: drop the paragraph rather than keep markup
            current = []
            continue
        current.append(line.strip())
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


_ENGLISH = frozenset("the of and this which that with when are be if you it".split())


def good_sentence(s: str) -> bool:
    """5-40 words, mostly words, no markup-like characters, not an untranslated English sentence."""
    words = s.split()
    if not 5 <= len(words) <= 40 or "|||" in s or "\t" in s:
        return False
    if sum(1 for w in words if w.lower() in _ENGLISH) >= 2:
        return False
    alpha = sum(1 for w in words if any(c.isalpha() for c in w))
    return alpha >= 0.8 * len(words) and not any(c in s for c in "<>{}=@/")


def manpage_sentences(root: Path, mandir: str) -> list[tuple[str, str]]:
    """(sentence, source page) from every page of usr/share/man/<mandir>, in path order."""
    out = []
    for page in sorted((root / "usr/share/man" / mandir).glob("man*/*.gz")):
        text = gzip.decompress(page.read_bytes()).decode("utf-8", "replace")
        for para in roff_paragraphs(text):
            for s in _SENTENCE_END.split(para):
                s = " ".join(s.split(" ")).strip()
                if good_sentence(s):
                    out.append((s, f"{page.parent.name}/{page.name[:-3]}"))
    return out


# Buckwalter transliteration (Tim Buckwalter's table, as used by the jar's stem table).
BUCKWALTER = dict(zip(
    "\u0621\u0622\u0623\u0624\u0625\u0626\u0627\u0628\u0629\u062a\u062b\u062c\u062d\u062e\u062f"
    "\u0630\u0631\u0632\u0633\u0634\u0635\u0636\u0637\u0638\u0639\u063a\u0640\u0641\u0642\u0643"
    "\u0644\u0645\u0646\u0647\u0648\u0649\u064a\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652"
    "\u0670\u0671\u060c\u061b\u061f",
    "'|>&<}AbptvjHxd*rzs$SDTZEg_fqklmnhwYyFNKaui~o`{,;?"))


def buckwalter(text: str) -> str | None:
    """Arabic text in Buckwalter letters; None if it holds other non-ASCII characters."""
    out = "".join(BUCKWALTER.get(c, c) for c in text)
    return out if out.isascii() else None


def arabic_sentences() -> list[tuple[str, str]]:
    out = []
    for mo in sorted(Path("/usr/share/locale/ar/LC_MESSAGES").glob("*.mo")):
        res = subprocess.run(["msgunfmt", str(mo)], capture_output=True, text=True)
        for m in re.finditer(r'^msgstr(?:\[\d\])? "(.*)"$', res.stdout, re.M):
            text = m.group(1).replace("\\n", " ").replace('\\"', '"').replace("\\t", " ")
            bw = buckwalter(" ".join(text.split()))
            if bw and "\\" not in bw and "%" not in bw and good_sentence(bw.replace("_", "")):
                out.append((bw, f"locale/ar/{mo.name}"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--debs", type=Path, required=True, help="directory holding the manpages-*.deb files")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    texts: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lang, (mandir, package) in MANPAGES.items():
            debs = sorted(a.debs.glob(f"{package}_*.deb"))
            if not debs:
                raise SystemExit(f"missing {package}: apt-get download {package}")
            subprocess.run(["dpkg-deb", "-x", str(debs[0]), tmp], check=True)
            pairs = manpage_sentences(Path(tmp), mandir)
            seen: dict[str, str] = {}
            for s, src in pairs:
                seen.setdefault(s, src)
            chosen = list(seen.items())[:: max(1, len(seen) // PER_LANGUAGE)][:PER_LANGUAGE]
            texts[lang] = {"source": f"{debs[0].name} (usr/share/man/{mandir})",
                           "sentences": [s for s, _ in chosen], "pages": [p for _, p in chosen]}
            print(f"{lang}: {len(seen)} sentences, kept {len(chosen)}", file=sys.stderr)
    ar = list(dict(arabic_sentences()).items())
    texts["ar-bw-red"] = {"source": "/usr/share/locale/ar/LC_MESSAGES/*.mo (msgunfmt), Buckwalter",
                          "sentences": [s for s, _ in ar[:PER_LANGUAGE]], "pages": [p for _, p in ar[:PER_LANGUAGE]]}
    print(f"ar-bw-red: {len(ar)} sentences", file=sys.stderr)
    with gzip.open(a.out, "wt", encoding="utf-8") as f:
        json.dump(texts, f, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
