#!/usr/bin/env python3
"""Build meteor_metric/resources/paraphrase/paraphrase-en.idx, the shipped index of METEOR's English table.

The table is METEOR 1.5's ``paraphrase-en.gz`` as pycocoevalcap 1.2 ships it
(``pycocoevalcap/meteor/data/paraphrase-en.gz``, 61,813,011 bytes, sha256 below). The index is what
meteor-metric would compile into its cache from that table, with the table's mtime recorded as 0 and
a fixed label as its source, so the file depends only on the table's bytes. At run time the package
maps it as it is for English when no table is given (no pycocoevalcap needed), and for a given table
with the same size and sha256, so the first score needs no compiling.

  pip install pycocoevalcap==1.2 && python scripts/build_shipped_paraphrase_index.py [--table FILE] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from meteor_metric.meteor15.paraphrase import build_index, find_paraphrase_table
from meteor_metric.meteor15.paraphrase_index import file_sha256

SHA256 = "c147ac7d2c91f2fbb3ad31e4b352235061eb83145e0434daf217ee9ca5975f48"
LABEL = "pycocoevalcap 1.2: pycocoevalcap/meteor/data/paraphrase-en.gz"
OUT = Path(__file__).resolve().parents[1] / "meteor_metric" / "resources" / "paraphrase" / "paraphrase-en.idx"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", type=Path, help="the table (default: the installed pycocoevalcap's)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    table = args.table or find_paraphrase_table("en")
    digest = file_sha256(table).hex()
    if digest != SHA256:
        raise SystemExit(f"{table} has sha256 {digest}, not pycocoevalcap 1.2's {SHA256}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    build_index(table, args.out, mtime_ns=0, label=LABEL)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
