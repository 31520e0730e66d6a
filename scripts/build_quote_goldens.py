#!/usr/bin/env python3
"""Make tests/data/java15/quotes/en.tokens.jsonl.gz (and its PROVENANCE.json): the jar's -norm and -norm -noPunct tokens of
English sentences with curly quotes (‘ ’ “ ”), the commonest characters outside ASCII in MT output.

The texts are the first 300 distinct WMT21 news zh-en system outputs and references (../shared/data) that
hold a curly quote; the tokens come from the jar's -writeAlignments output (file mode, -l en -m exact), as
for the other languages' token files (scripts/build_language_goldens.py).

  python scripts/build_quote_goldens.py [--n 300]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import jar as jarlib  # noqa: E402
from build_language_goldens import jar_tokens  # noqa: E402

OUT = ROOT / "tests" / "data" / "java15" / "quotes"

DATA = ROOT.parent / "shared" / "data" / "mt" / "wmt21-news" / "zh-en.seg.jsonl.gz"
QUOTES = "\u2018\u2019\u201c\u201d"


def quoted_texts(n: int) -> list[str]:
    texts: dict[str, None] = {}
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            for text in (row["hyp"], row["ref"]):
                if any(q in text for q in QUOTES) and "\n" not in text and "\r" not in text:
                    texts[text] = None
            if len(texts) >= n:
                return list(texts)[:n]
    return list(texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=300)
    args = parser.parse_args()
    texts = quoted_texts(args.n)
    rows = []
    for mode, extra in (("norm", []), ("norm_nopunct", ["-noPunct"])):
        tokens = jar_tokens(["-l", "en", "-norm", "-m", "exact", *extra], texts)
        rows += [{"language": "en", "normalization": mode, "text": t, "tokens": k} for t, k in zip(texts, tokens)]
    OUT.mkdir(parents=True, exist_ok=True)
    out = OUT / "en.tokens.jsonl.gz"
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    jar = jarlib.find_jar()
    provenance = {"jar": "meteor-1.5.jar from pycocoevalcap==1.2", "jar_sha256": jarlib.sha256(jar),
                  "java_options": list(jarlib.JAVA_OPTS),
                  "command": "java <java_options> -jar meteor-1.5.jar TEXTS TEXTS -l en -norm [-noPunct] -m exact "
                             "-writeAlignments -f out (the hypothesis tokens of each alignment)",
                  "generator": f"scripts/build_quote_goldens.py --n {args.n}",
                  "text_licence": "WMT21 news zh-en system outputs and references (../shared/data/mt/wmt21-news)"}
    (OUT / "PROVENANCE.json").write_text(json.dumps(provenance, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(rows)} rows ({len(texts)} texts) to {out}")


if __name__ == "__main__":
    main()
