#!/usr/bin/env python3
"""Stored outputs of aac-metrics' own Java METEOR for tests/test_aac_metrics_patch.py.

    python -O scripts/build_aac_meteor_goldens.py [--rows 600]

Runs ``aac_metrics.functional.meteor.meteor`` (aac-metrics' own code path: its command line, line protocol and
output parsing) on the first ``--rows`` THumB captions (hypotheses, 4 COCO references each), in two
configurations: the defaults, and ``params``/``weights`` given. aac-metrics normally downloads meteor-1.5.jar
(``aac-metrics-download``); nothing is downloaded here: ``cache_path`` is a temporary folder laid out as
aac-metrics expects (``aac-metrics/meteor/meteor-1.5.jar`` and ``data/``) whose files are links to pycocoevalcap
1.2's copy of the same jar and paraphrase table. aac-metrics 0.5.4 refuses Java 17 (it accepts major versions
8 to 13) in a check it makes only under ``__debug__``: ``python -O`` skips that check. Needs java, aac-metrics and pycocoevalcap. Prints the largest
difference to this package's :func:`meteor_metric.aac.meteor`, then writes tests/data/coco/aac_meteor.json.gz.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_coco_goldens  # noqa: E402

OUT = build_coco_goldens.OUT / "aac_meteor.json.gz"
CONFIGS = ({}, {"params": [0.9, 3.0, 0.5, 0.75], "weights": [1.0, 0.8, 0.6, 0.4]})


def captions(rows: int) -> tuple[list[str], list[list[str]]]:
    hyps, refs = build_coco_goldens.meteor_sets()["thumb-mscoco"]
    return hyps[:rows], refs[:rows]


def aac_cache(folder: Path) -> Path:
    """A cache_path for aac-metrics whose METEOR files link to pycocoevalcap's."""
    import pycocoevalcap

    source = Path(list(pycocoevalcap.__path__)[0]) / "meteor"
    target = folder / "aac-metrics" / "meteor"
    target.mkdir(parents=True)
    os.symlink(source / "meteor-1.5.jar", target / "meteor-1.5.jar")
    os.symlink(source / "data", target / "data")
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=600)
    args = ap.parse_args()
    if __debug__:
        ap.error("run with python -O (aac-metrics refuses Java 17 in a check under __debug__)")
    from aac_metrics.functional.meteor import meteor as java_meteor

    from meteor_metric.aac import meteor as our_meteor

    hyps, refs = captions(args.rows)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        cache = aac_cache(Path(tmp))
        for kwargs in CONFIGS:
            start = time.perf_counter()
            corpus, sents = java_meteor(hyps, refs, cache_path=str(cache), **kwargs)
            java_s = time.perf_counter() - start
            start = time.perf_counter()
            ours_corpus, ours_sents = our_meteor(hyps, refs, **kwargs)
            ours_s = time.perf_counter() - start
            diff = max(abs(a - b) for a, b in zip(sents["meteor"].tolist(), ours_sents["meteor"].tolist()))
            print(f"{kwargs or 'defaults'}: {len(hyps)} captions, corpus java {corpus['meteor'].item()!r} ours "
                  f"{ours_corpus['meteor'].item()!r}; max |diff| per caption {diff}; java {java_s:.1f} s, ours "
                  f"{ours_s:.1f} s")
            runs.append({"kwargs": kwargs, "corpus": corpus["meteor"].item(), "sents": sents["meteor"].tolist()})
    import aac_metrics

    with gzip.open(OUT, "wt", encoding="utf-8") as f:
        json.dump({"oracle": f"aac-metrics {aac_metrics.__version__} functional meteor (its Java path) with "
                             "pycocoevalcap 1.2's meteor-1.5.jar and paraphrase-en.gz",
                   "set": "thumb-mscoco", "rows": args.rows,
                   "sha256": build_coco_goldens.digest(hyps + [r for rs in refs for r in rs]), "runs": runs}, f)


if __name__ == "__main__":
    main()
