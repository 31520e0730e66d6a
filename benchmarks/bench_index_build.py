#!/usr/bin/env python3
"""Compile a paraphrase table with the pre-rework compiler (the package at commit 853f551, from ``git archive``)
and the current one, each in a new process pinned to one core: wall time and peak RSS side by side.

  python benchmarks/bench_index_build.py TABLE.gz [--cpu 0]
"""
from __future__ import annotations

import argparse, re, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = """
import atexit, io, shutil, sys, tarfile, tempfile, time, subprocess
from pathlib import Path
if sys.argv[1] == "old":  # the whole package as it was at 853f551, ahead of the installed one on sys.path
    archive = subprocess.run(["git", "-C", sys.argv[3], "archive", "853f551", "meteor_metric"],
                             check=True, capture_output=True).stdout
    old_tree = tempfile.mkdtemp(prefix="meteor-old-")
    atexit.register(shutil.rmtree, old_tree, ignore_errors=True)
    tarfile.open(fileobj=io.BytesIO(archive)).extractall(old_tree)
    sys.path.insert(0, old_tree)
    from meteor_metric.paraphrase_build import compile_table
    assert compile_table.__module__ == "meteor_metric.paraphrase_build" and old_tree in sys.modules["meteor_metric"].__file__
else:
    from meteor_metric.meteor15.paraphrase_build import compile_table
t = time.perf_counter(); compile_table(Path(sys.argv[2])); print(f"wall {time.perf_counter() - t:.2f}")
"""


def run(which: str, table: Path, cpu: int) -> tuple[float, float]:
    out = subprocess.run(["taskset", "-c", str(cpu), "/usr/bin/time", "-v", sys.executable, "-c", RUN, which,
                          str(table), str(ROOT)], check=True, capture_output=True, text=True)
    wall = float(re.search(r"wall (\S+)", out.stdout).group(1))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr).group(1)) / 1024
    return wall, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", type=Path)
    parser.add_argument("--cpu", type=int, default=0)
    args = parser.parse_args()
    for which in ("old", "new"):
        wall, rss = run(which, args.table, args.cpu)
        print(f"{which}: {wall:6.2f} s  peak RSS {rss:6.0f} MB")


if __name__ == "__main__":
    main()
