#!/usr/bin/env python3
"""Stored outputs of the real pycocoevalcap 1.2 (Java) for tests/test_coco.py.

    python scripts/build_coco_goldens.py [--data ../shared/data]

Needs java and pycocoevalcap installed (the ``test`` extra). Writes, under tests/data/coco/:

- ``ptb_tokens.jsonl.gz``: every distinct caption line of ``captions/`` (Flickr8k Expert and CrowdFlower
  candidates and references, THumB hypotheses and references), in first-seen order, with the tokens of
  ``pycocoevalcap.tokenizer.ptbtokenizer.PTBTokenizer().tokenize`` (Stanford CoreNLP 3.4.1
  ``PTBTokenizer -preserveLines -lowerCase``, then its punctuation list removed). First line: a header.
- ``meteor_scores.jsonl.gz``: ``pycocoevalcap.meteor.meteor.Meteor().compute_score(gts, res)`` (meteor-1.5.jar
  ``-stdio -l en -norm``) on Flickr8k-Expert (all 5822 rows) and THumB (all 2500 rows, refs = its 4 COCO refs),
  once on the raw captions and once on the PTB tokens above: the corpus score and every image score.

The line lists are rebuilt by tests/test_coco.py with :func:`caption_lines` and :func:`meteor_sets` (importing this
file), so the stored files hold only the tokens and the scores.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("METEOR_METRIC_SHARED_DATA", ROOT.parent / "shared" / "data"))  # beside the checkout
OUT = ROOT / "tests" / "data" / "coco"


def _jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def meteor_sets(data: Path = DATA) -> dict[str, tuple[list[str], list[list[str]]]]:
    """name -> (hypotheses, references): Flickr8k-Expert (every row) and THumB (every row, 4 COCO refs)."""
    expert = _jsonl(data / "captions/flickr8k/expert.jsonl.gz")
    thumb = _jsonl(data / "captions/thumb-mscoco/thumb.jsonl")
    return {"flickr8k/expert": ([r["candidate"] for r in expert], [list(r["refs"]) for r in expert]),
            "thumb-mscoco": ([r["hyp"] for r in thumb], [list(r["refs"]) for r in thumb])}


def caption_lines(data: Path = DATA) -> list[str]:
    """Every distinct caption (candidate or reference) of every file in ``captions/``, first-seen order."""
    seen: dict[str, None] = {}
    for name in ("flickr8k/expert.jsonl.gz", "flickr8k/crowdflower.jsonl.gz"):
        for r in _jsonl(data / "captions" / name):
            for text in [r["candidate"], *r["refs"]]:
                seen.setdefault(text)
    for r in _jsonl(data / "captions/thumb-mscoco/thumb.jsonl"):
        for text in [r["hyp"], *r["refs"]]:
            seen.setdefault(text)
    return list(seen)


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def java_ptb(lines: list[str]) -> list[str]:
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    out = PTBTokenizer().tokenize({i: [{"caption": t}] for i, t in enumerate(lines)})
    return [out[i][0] for i in range(len(lines))]


def java_meteor(hyps: list[str], refs: list[list[str]]) -> tuple[float, list[float]]:
    from pycocoevalcap.meteor.meteor import Meteor

    gts = {i: list(r) for i, r in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    return Meteor().compute_score(gts, res)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    lines = caption_lines(args.data)
    tokens = java_ptb(lines)
    with gzip.open(OUT / "ptb_tokens.jsonl.gz", "wt", encoding="utf-8") as f:
        f.write(json.dumps({"oracle": "pycocoevalcap 1.2 PTBTokenizer (stanford-corenlp-3.4.1.jar)",
                            "lines": len(lines), "sha256": digest(lines)}) + "\n")
        for t in tokens:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    ptb = dict(zip(lines, tokens))
    with gzip.open(OUT / "meteor_scores.jsonl.gz", "wt", encoding="utf-8") as f:
        for name, (hyps, refs) in meteor_sets(args.data).items():
            for tok in ("none", "ptb"):
                if tok == "ptb":
                    hyps, refs = [ptb[h] for h in hyps], [[ptb[r] for r in rs] for rs in refs]
                score, scores = java_meteor(hyps, refs)
                f.write(json.dumps({"set": name, "tokenize": tok, "oracle": "pycocoevalcap 1.2 Meteor (meteor-1.5.jar)",
                                    "sha256": digest(hyps + [r for rs in refs for r in rs]),
                                    "corpus": score, "images": scores}) + "\n")
                print(name, tok, score, len(scores), flush=True)


if __name__ == "__main__":
    main()
