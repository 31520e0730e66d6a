#!/usr/bin/env python3
"""Copy the NLTK conformance goldens the test suite needs from ../shared/conformance/nltk into tests/data/nltk.

edge_cases is copied whole; of the large real-data files every STEP-th row is kept (about 1,000 rows each),
without the fields derivable from others (hyp_tokens and refs_tokens are hyp.split() and the refs split;
score_17g is the score), to keep the files small.
Usage: python scripts/copy_nltk_conformance.py [--src ../shared/conformance/nltk]
"""

import argparse
import gzip
import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLED = {"tedtalks_zh-en.jsonl.gz": 14, "flickr8k_cf.jsonl.gz": 5}  # file -> STEP


def _slim(line: str) -> str:
    row = json.loads(line)
    if row.pop("hyp_tokens") != row["hyp"].split() or row.pop("refs_tokens") != [r.split() for r in row["refs"]]:
        raise SystemExit(f"{row['id']}: tokens are not str.split() of the texts")
    for result in (row["expected"], *row["expected"]["per_ref"]):
        del result["score_17g"]
    return json.dumps(row, ensure_ascii=False) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--src", type=Path, default=ROOT.parent / "shared" / "conformance" / "nltk")
    args = parser.parse_args()
    out = ROOT / "tests" / "data" / "nltk"
    out.mkdir(parents=True, exist_ok=True)
    for name in ("edge_cases.jsonl.gz", "provenance.json"):  # provenance names the oracle: NLTK 3.10.4, WordNet 3.0
        shutil.copyfile(args.src / name, out / name)
    for name, step in SAMPLED.items():
        with gzip.open(args.src / name, "rt", encoding="utf-8", newline="\n") as f:
            rows = [_slim(line) for k, line in enumerate(f) if k % step == 0]
        target = out / name.replace(".jsonl.gz", ".sample.jsonl.gz")
        with gzip.GzipFile(target, "wb", compresslevel=9, mtime=0) as g:
            g.write("".join(rows).encode("utf-8"))
        print(f"{target.relative_to(ROOT)}: {len(rows)} rows, {target.stat().st_size} bytes")


if __name__ == "__main__":
    main()
