#!/usr/bin/env python3
"""Make tests/data/frameworks/mbr_jar.json: the jar's METEOR 1.5 score of every candidate against every
candidate (each as the single reference) of MBR candidate pools, the matrices the mbrs adapter's
``pairwise_scores`` must give (tests/test_framework_mbrs.py).

Each pool is one segment of tests/data/frameworks/tedtalks_zh-en.systems.jsonl.gz: its 4 system outputs and
its 2 references (6 candidates). Scores: the jar's ``-stdio -l en -norm`` SCORE line of each pair, then its
EVAL of that line (the defaults of ``Meteor()``).

  python scripts/build_mbr_goldens.py [--pools 8]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import jar as jarlib  # noqa: E402

SYSTEMS = ROOT / "tests" / "data" / "frameworks" / "tedtalks_zh-en.systems.jsonl.gz"
OUT = ROOT / "tests" / "data" / "frameworks" / "mbr_jar.json"


def pools(n: int) -> list[dict]:
    with gzip.open(SYSTEMS, "rt", encoding="utf-8") as f:
        header, *rows = (json.loads(line) for line in f)
    return [{"seg_id": row["seg_id"], "candidates": [row["hyps"][s] for s in header["systems"]] + row["refs"]}
            for row in rows[:n]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pools", type=int, default=8)
    args = parser.parse_args()
    out = pools(args.pools)
    with jarlib.JarStdio() as jar:
        for pool in out:
            texts = pool["candidates"]
            lines = jar.score_many([a for a in texts for _ in texts], [b for _ in texts for b in texts])
            scores, _ = jar.eval(lines)
            pool["scores"] = [scores[i * len(texts):(i + 1) * len(texts)] for i in range(len(texts))]
    jar_path = jarlib.find_jar()
    document = {
        "what": "MBR candidate pools (4 system outputs and 2 references of a WMT21 TED talks zh-en segment) and the "
                "jar's score of each candidate (row) against each candidate (column) as its single reference",
        "jar": "meteor-1.5.jar from pycocoevalcap==1.2", "jar_sha256": jarlib.sha256(jar_path),
        "java_options": list(jarlib.JAVA_OPTS),
        "command": "java <java_options> -jar meteor-1.5.jar - - -stdio -l en -norm: SCORE ||| ref ||| hyp, then "
                   "EVAL of its stats line",
        "generator": f"scripts/build_mbr_goldens.py --pools {args.pools}",
        "text_source": "tests/data/frameworks/tedtalks_zh-en.systems.jsonl.gz (its first line says where from)",
        "pools": out,
    }
    OUT.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(out)} pools of {len(out[0]['candidates'])} candidates to {OUT}")


if __name__ == "__main__":
    main()
