#!/usr/bin/env python3
"""Scale: memory of a 1,000,000-line CLI run, the --workers 2 speed-up, and a Spark map-reduce run.

  python benchmarks/bench_scale.py [--lines 1000000] [--pairs 5000] [--skip-lines] [--skip-workers] [--skip-spark]
                                  [--rounds 5]

* lines: a corpus of ``--lines`` short segments (4-12 words drawn from the WMT21 news zh-en
  vocabulary) scored by ``meteor-metric score --format tsv --modules exact,stem``; peak RSS is the
  process's VmHWM (ru_maxrss would include the parent's memory before exec).
* workers: the first ``--pairs`` WMT21 news zh-en pairs with the default configuration, one process
  against ``--workers 2``, alternately ``--rounds`` times (medians); the outputs must be byte-identical.
* spark: the same pairs through :mod:`meteor_metric.analysis.mapreduce` on Spark ``local[2]``; the corpus
  score must equal the single-process score exactly.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "mt" / "wmt21-news" / "zh-en.seg.jsonl.gz"
PEAK = ("import runpy, sys; sys.argv = ['meteor-metric'] + sys.argv[1:]\n"
        "try:\n    runpy.run_module('meteor_metric', run_name='__main__')\n"
        "finally:\n    print('VmHWM', next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')),"
        " file=sys.stderr)\n")


def run_cli(args: list[str], out_path: Path) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds of the process tree, peak RSS MiB of the main process)."""
    start = time.perf_counter()
    before = os.times()
    with open(out_path, "wb") as out:
        proc = subprocess.run([sys.executable, "-c", PEAK, *args], stdout=out, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = os.times()
    if proc.returncode != 0:
        sys.exit(f"meteor-metric failed:\n{proc.stderr[-2000:]}")
    peak_kib = int(next(line.split()[1] for line in proc.stderr.splitlines() if line.startswith("VmHWM")))
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, peak_kib / 1024


def load_pairs(n: int) -> tuple[list[str], list[str]]:
    if not DATA.is_file():
        sys.exit(f"missing {DATA} (the shared data folder beside the repository)")
    hyps, refs = [], []
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            hyps.append(" ".join(row["hyp"].split()))
            refs.append(" ".join(row["ref"].split()))
            if len(hyps) == n:
                break
    return hyps, refs


def bench_lines(n_lines: int, tmp: Path) -> dict:
    hyps, refs = load_pairs(5000)
    vocab = sorted({w for text in hyps + refs for w in text.split()})
    rng = random.Random(2026)
    for name in ("hyp.txt", "ref.txt"):
        with open(tmp / name, "w", encoding="utf-8") as f:
            for _ in range(n_lines):
                f.write(" ".join(rng.choice(vocab) for _ in range(rng.randint(4, 12))) + "\n")
    size_mib = (tmp / "hyp.txt").stat().st_size / 2**20
    wall, cpu, peak = run_cli(["score", "--hyp", str(tmp / "hyp.txt"), "--ref", str(tmp / "ref.txt"),
                               "--modules", "exact,stem", "--format", "tsv"], tmp / "lines.tsv")
    with open(tmp / "lines.tsv", "rb") as f:
        out_lines = sum(1 for _ in f)
    assert out_lines == n_lines + 2, out_lines
    return {"lines": n_lines, "hyp_file_mib": round(size_mib, 1), "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "peak_rss_mib": round(peak, 1), "output_lines": out_lines}


def bench_workers(n_pairs: int, tmp: Path, rounds: int) -> dict:
    """One process against ``--workers 2``, alternately ``rounds`` times (a shared machine's speed drifts
    between runs): the median wall time of each and the speed-up of the medians, with every round's."""
    hyps, refs = load_pairs(n_pairs)
    (tmp / "whyp.txt").write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    (tmp / "wref.txt").write_text("".join(r + "\n" for r in refs), encoding="utf-8")
    base = ["score", "--hyp", str(tmp / "whyp.txt"), "--ref", str(tmp / "wref.txt"), "--format", "json"]
    run_cli(base, tmp / "warm.json")  # warms the page cache and the paraphrase index
    ones, twos = [], []
    for _ in range(rounds):
        ones.append(run_cli(base, tmp / "one.json"))
        twos.append(run_cli(base + ["--workers", "2"], tmp / "two.json"))
        if (tmp / "one.json").read_bytes() != (tmp / "two.json").read_bytes():
            sys.exit("--workers 2 wrote other bytes than one process")
    one_wall, two_wall = statistics.median(r[0] for r in ones), statistics.median(r[0] for r in twos)
    return {"pairs": n_pairs, "rounds": rounds, "workers1_wall_s": round(one_wall, 2),
            "workers2_wall_s": round(two_wall, 2), "speedup": round(one_wall / two_wall, 2),
            "speedup_per_round": [round(a[0] / b[0], 2) for a, b in zip(ones, twos)],
            "workers1_cpu_s": round(statistics.median(r[1] for r in ones), 1),
            "workers2_cpu_s": round(statistics.median(r[1] for r in twos), 1), "byte_identical": True,
            "score": json.loads((tmp / "one.json").read_text())["score"]}


def bench_spark(n_pairs: int) -> dict:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    from meteor_metric import Meteor
    from meteor_metric.analysis.mapreduce import add_vectors, contribution_vectors, corpus_score_of

    hyps, refs = load_pairs(n_pairs)
    start = time.perf_counter()
    single = Meteor().corpus_score(hyps, refs).score
    single_s = time.perf_counter() - start
    spark = (SparkSession.builder.master("local[2]").appName("meteor-bench").config("spark.ui.enabled", "false")
             .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
    try:
        start = time.perf_counter()
        rdd = spark.sparkContext.parallelize(list(zip(hyps, [[r] for r in refs])), numSlices=8)
        total = rdd.mapPartitions(contribution_vectors).reduce(add_vectors)
        spark_s = time.perf_counter() - start
    finally:
        spark.stop()
    distributed = corpus_score_of(total).score
    return {"pairs": n_pairs, "single_process_score": single, "spark_score": distributed,
            "equal": distributed == single, "single_wall_s": round(single_s, 1), "spark_wall_s": round(spark_s, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--pairs", type=int, default=5000)
    parser.add_argument("--skip-lines", action="store_true")
    parser.add_argument("--skip-workers", action="store_true")
    parser.add_argument("--rounds", type=int, default=5, help="alternate runs of each for the workers' medians")
    parser.add_argument("--skip-spark", action="store_true")
    parser.add_argument("--json-out", metavar="FILE")
    args = parser.parse_args()
    print(f"# bench_scale on {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}", flush=True)
    results = {}
    with tempfile.TemporaryDirectory(prefix="meteor-scale-") as tmp:
        if not args.skip_workers:
            results["workers"] = bench_workers(args.pairs, Path(tmp), args.rounds)
            print("workers:", json.dumps(results["workers"]), flush=True)
        if not args.skip_spark:
            results["spark"] = bench_spark(args.pairs)
            print("spark:", json.dumps(results["spark"]), flush=True)
        if not args.skip_lines:
            results["lines"] = bench_lines(args.lines, Path(tmp))
            print("lines:", json.dumps(results["lines"]), flush=True)
    print(f"# load average at the end {os.getloadavg()[0]:.1f}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
