"""Differences between the jar's cached stems and another backend, as a check.py --diffs file.

Run it with the Python that has the backend, e.g. a scratch venv with snowballstemmer 3.x:
    /tmp/sb3/bin/python scripts/stemmer_oracle/alt_backends.py english snowballstemmer > en.sb3.diffs
    /work/venv/bin/python scripts/stemmer_oracle/alt_backends.py english nltk > en.nltk.diffs
The jar's stems come from check.py's cache (--cache, default /tmp/stem_cache).
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import importlib.metadata
import sys
from pathlib import Path


def backend(language: str, name: str):
    if name == "nltk":
        from nltk.stem.snowball import SnowballStemmer

        return f"nltk-{importlib.metadata.version('nltk')}", SnowballStemmer(language).stem
    module = importlib.import_module(f"snowballstemmer.{language}_stemmer")
    cls = getattr(module, language.capitalize() + "Stemmer")
    return f"snowballstemmer-{importlib.metadata.version('snowballstemmer')}", cls().stemWord


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("language")
    ap.add_argument("backend", choices=("snowballstemmer", "nltk"))
    ap.add_argument("--cache", type=Path, default=Path("/tmp/stem_cache"))
    ap.add_argument("--lowercase-only", action="store_true", help="only words that are lowercase")
    args = ap.parse_args()
    label, stem = backend(args.language, args.backend)
    n = bad = 0
    with gzip.open(args.cache / f"jar_{args.language}.tsv.gz", "rt", encoding="utf-8", newline="\n") as f:
        for line in f:
            word, jar = line.rstrip("\n").split("\t")
            if args.lowercase_only and word != word.lower():
                continue
            n += 1
            got = stem(word)
            if got != jar:
                bad += 1
                sys.stdout.write(f"{label}\t{word}\t{jar}\t{got}\n")
    print(f"{label}: {bad} of {n} words differ", file=sys.stderr)


if __name__ == "__main__":
    main()
