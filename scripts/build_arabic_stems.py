#!/usr/bin/env python3
"""Build meteor_metric/resources/stem/arabic-buckwalter-reduced.tsv.gz from the METEOR 1.5 jar.

The jar's ``LookupTableStemmer`` reads ``stem/arabic-buckwalter-reduced.gz`` (590,042 lines
``word count stem [count stem ...]``, Buckwalter transliteration) into a ``Hashtable`` keyed by
``word.hashCode()``: the third field is the stem, a later line with the same hash replaces an
earlier one, and a word whose hash is not in the table stems to itself. The stem matcher then
compares ``hashCode(stem)`` only. So the table is reduced here, without changing any match decision,
to the final hash -> stem entries whose stem hashes differ from the key (142,753 lines
``word<TAB>stem``, word = the last word with that hash). The data keeps its licence (LGPL 2.1,
meteor_metric/resources/LICENSE-METEOR-RESOURCES.txt).

  python scripts/build_arabic_stems.py [--jar meteor-1.5.jar] [--out FILE]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from meteor_metric.core.javafmt import java_split_lines, java_string_hash  # noqa: E402
from meteor_metric.meteor15.normalize import tokenize  # noqa: E402

MEMBER = "stem/arabic-buckwalter-reduced.gz"
MEMBER_SHA256 = "1648706525c86efbdf66eef5343803acb6191ff67cd0da65091b602ee64dfd91"
OUT = ROOT / "meteor_metric" / "resources" / "stem" / "arabic-buckwalter-reduced.tsv.gz"


def reduce_table(text: str) -> list[tuple[str, str]]:
    """The jar's hash table, minus entries that cannot change ``hashCode(stem(word))``."""
    table: dict[int, tuple[str, str]] = {}
    for line in java_split_lines(text):
        fields = tokenize(line)
        table[java_string_hash(fields[0])] = (fields[0], fields[2])
    return [(w, s) for h, (w, s) in table.items() if java_string_hash(s) != h]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jar", help="meteor-1.5.jar (default: the one pycocoevalcap ships)")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args()
    if a.jar is None:
        from jar import find_jar

        a.jar = find_jar()
    with zipfile.ZipFile(a.jar) as z:
        raw = z.read(MEMBER)
    if hashlib.sha256(raw).hexdigest() != MEMBER_SHA256:
        raise SystemExit(f"{MEMBER} in {a.jar} is not the METEOR 1.5 file (sha256 differs)")
    with gzip.GzipFile(fileobj=io.BytesIO(raw)) as f:
        rows = reduce_table(f.read().decode("utf-8", "replace"))  # as Java's decoder
    if any("\t" in w or "\t" in s for w, s in rows):
        raise SystemExit("a tab inside a table field")
    data = "".join(f"{w}\t{s}\n" for w, s in rows).encode("utf-8")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    with open(a.out, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9, mtime=0) as g:
        g.write(data)
    print(f"wrote {a.out}: {len(rows)} entries, {a.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
