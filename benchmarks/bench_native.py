#!/usr/bin/env python3
"""Pairs per CPU-second of the jar, the pure-Python engine and the compiled core, side by side in one run.

    python benchmarks/bench_native.py [--data ../shared/data] [--warmup 20000] [--n 5000] [--skip-jar]

Timed sets: WMT21 news zh-en pairs ``warmup .. warmup + n`` of ``mt/wmt21-news/zh-en.seg.jsonl.gz`` (the
file of bench_vs_jar.py; references repeat about 23 times, pairs 20 %), and "unique": the first pair of
each distinct reference of WMT21 TED zh-en, WMT22 zh-en and de-en and WMT23 zh-en (up to n pairs, no
reference shared with the warm-up). Every tool first scores the ``warmup`` pairs (the jar's JIT needs about
20,000 to reach its steady speed); each measurement uses its own warmed scorer, so no result is cached from
an earlier measurement. CPU time: ``time.process_time`` for Python, /proc user+system of the jar's
process (all its threads). The statistics of the two engines are compared on every timed pair.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jar as jarlib  # noqa: E402

from meteor_metric import Meteor  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
MAIN = "mt/wmt21-news/zh-en.seg.jsonl.gz"
UNIQUE = ["mt/wmt21-tedtalks/zh-en.seg.jsonl.gz", "mt/wmt22-general/zh-en.seg.jsonl.gz",
          "mt/wmt22-general/de-en.seg.jsonl.gz", "mt/wmt23-general-sxs/zh-en.seg.jsonl.gz"]


def read_pairs(path: Path) -> list[tuple[str, str]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [(row["hyp"], row["ref"]) for row in map(json.loads, f)]


def unique_pairs(data: Path, n: int) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out = []
    for name in UNIQUE:
        for hyp, ref in read_pairs(data / name):
            if ref not in seen:
                seen.add(ref)
                out.append((hyp, ref))
    return out[:n]


def corpus_run(m: Meteor, pairs):
    return m.corpus_score([h for h, _ in pairs], [r for _, r in pairs]).segments


def sentence_run(m: Meteor, pairs):
    return [m.sentence_score(h, r) for h, r in pairs]


def measure(impl: str, run, warm, timed) -> tuple[float, list]:
    """CPU seconds of ``run`` on ``timed`` with a new scorer of engine ``impl`` warmed on ``warm``."""
    m = Meteor(impl=impl)
    run(m, warm)
    t0 = time.process_time()
    segments = run(m, timed)
    return time.process_time() - t0, [s.stats for s in segments]


def jar_rates(warm, sets: dict) -> dict:
    out = {}
    with jarlib.JarStdio() as jar:
        jar.score_many([h for h, _ in warm], [r for _, r in warm])
        for name, pairs in sets.items():
            c0 = jar.cpu_seconds()
            jar.score_many([h for h, _ in pairs], [r for _, r in pairs])
            out[name] = len(pairs) / (jar.cpu_seconds() - c0)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data", help="shared data folder")
    p.add_argument("--warmup", type=int, default=20_000, help="pairs every tool scores before timing")
    p.add_argument("--n", type=int, default=5_000, help="pairs timed per measurement")
    p.add_argument("--skip-jar", action="store_true", help="do not run the jar")
    a = p.parse_args()
    pairs = read_pairs(a.data / MAIN)
    warm, timed = pairs[:a.warmup], pairs[a.warmup:a.warmup + a.n]
    sets = {"wmt21 zh-en": timed, "unique refs": unique_pairs(a.data, a.n)}
    print(f"{len(warm):,} warm-up pairs; timed: " + ", ".join(f"{k} {len(v):,}" for k, v in sets.items()),
          flush=True)
    jar = {} if a.skip_jar else jar_rates(warm, sets)
    rows = []
    for set_name, chosen in sets.items():
        for how, run in (("corpus_score", corpus_run), ("sentence_score loop", sentence_run)):
            rates, stats = {}, {}
            for impl in ("python", "native"):
                cpu, stats[impl] = measure(impl, run, warm, chosen)
                rates[impl] = len(chosen) / cpu
            differ = sum(x != y for x, y in zip(stats["python"], stats["native"]))
            rows.append((set_name, how, jar.get(set_name), rates["python"], rates["native"], differ))
            print(f"  {set_name}, {how}: python {rates['python']:,.0f}/s, native {rates['native']:,.0f}/s, "
                  f"{differ} of {len(chosen):,} statistics differ", flush=True)
    print("\n| pairs | call | jar (steady) | Python engine | native engine | native vs jar | native vs Python |")
    print("|---|---|---|---|---|---|---|")
    for set_name, how, j, py, nat, _ in rows:
        jar_cell = f"{j:,.0f}" if j else "-"
        vs_jar = f"{nat / j:.1f}x" if j else "-"
        print(f"| {set_name} | `{how}` | {jar_cell} | {py:,.0f} | {nat:,.0f} | {vs_jar} | {nat / py:.1f}x |")
    return 1 if any(r[-1] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
