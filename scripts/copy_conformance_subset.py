#!/usr/bin/env python3
"""Copy the conformance goldens the test suite needs from ../shared/conformance into tests/data.

Edge cases are copied whole; of the large real-data files every 10th row is kept.
Usage: python scripts/copy_conformance_subset.py [--src ../shared/conformance]
"""

import argparse
import gzip
import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WHOLE = ["java15/edge_cases.jsonl.gz", "java15/edge_cases.corpus.json"]
SAMPLED = ["java15/tedtalks_zh-en.jsonl.gz", "java15/tedtalks_en-de.jsonl.gz", "java15/flickr8k_cf.jsonl.gz"]
STEP = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--src", type=Path, default=ROOT.parent / "shared" / "conformance")
    args = parser.parse_args()
    out = ROOT / "tests" / "data" / "java15"
    out.mkdir(parents=True, exist_ok=True)
    for name in WHOLE:
        shutil.copyfile(args.src / name, out / Path(name).name)
    for name in SAMPLED:
        with gzip.open(args.src / name, "rt", encoding="utf-8", newline="\n") as f:
            rows = [line for k, line in enumerate(f) if k % STEP == 0]
        target = out / Path(name).name.replace(".jsonl.gz", ".sample.jsonl.gz")
        with gzip.GzipFile(target, "wb", mtime=0) as g:
            g.write("".join(rows).encode("utf-8"))
        print(f"{target.relative_to(ROOT)}: {len(rows)} rows")
    # the sidecar README names the oracle and its provenance
    meta = json.loads((args.src / "java15/edge_cases.corpus.json").read_text())["provenance"]
    (out / "PROVENANCE.json").write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    main()
