"""Time the paired significance tests: 2 systems × N segments (default 2,000), 1,000 samples each.

The segments are the 100 example segments (examples/hyp.txt against examples/ref.txt) and a degraded
copy, tiled to N; only the statistics matter for the timing. Scoring is not timed.

    python benchmarks/bench_significance.py [--segments 2000] [--samples 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from meteor_metric import get_scorer
from meteor_metric.analysis.significance import paired_approximate_randomization, paired_bootstrap

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    scorer = get_scorer("meteor-1.5")
    hyps = (EXAMPLES / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = (EXAMPLES / "ref.txt").read_text(encoding="utf-8").splitlines()
    rng = random.Random(0)
    degraded = [" ".join(rng.sample(h.split(), k=max(1, len(h.split()) * 2 // 3))) for h in hyps]
    base = [scorer.sentence_score(h, r) for h, r in zip(hyps, refs)]
    worse = [scorer.sentence_score(h, r) for h, r in zip(degraded, refs)]
    systems = {name: (segs * (args.segments // len(segs) + 1))[:args.segments]
               for name, segs in (("mt", base), ("degraded", worse))}
    print(f"2 systems × {args.segments} segments, {args.samples} samples, best and median of {args.repeat} runs")
    for label, test in (("paired bootstrap", paired_bootstrap), ("approximate randomization",
                                                                  paired_approximate_randomization)):
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = test(systems, "mt", scorer, args.samples)
            times.append(time.perf_counter() - start)
        p = result.systems["degraded"].p_value
        print(f"{label:<26} best {min(times):.3f} s  median {statistics.median(times):.3f} s  (p = {p:.4f})")


if __name__ == "__main__":
    main()
