#!/usr/bin/env python3
"""First contact: a new process scoring one segment from an empty cache, against the jar's first segment.

    python benchmarks/bench_cold_start.py [--runs N] [--core C] [--no-pin] [--skip-jar] [--build-path]

Every measured program is a new process pinned with ``taskset -c CORE`` (one core), timed from spawn to
the line that carries the first segment's score, with its own peak RSS (os.wait4):

1. cold, ours: ``python -m meteor_metric score --hyp one.hyp --ref one.ref`` with ``$METEOR_METRIC_CACHE``
   pointing at a new empty directory for every run (the first score a new user, CI job or container sees);
   the same through the Python API (``Meteor().sentence_score``).
2. the jar: ``java -jar meteor-1.5.jar one.hyp one.ref -l en -norm`` until ``Segment 1 score:``.
3. warm, ours: the same two commands again with the cache the cold run left behind, and, inside the API
   process, the seconds from ``Meteor()`` to the first segment's score (import excluded).
4. ``--build-path``: a paraphrase table that is *not* the shipped one (pycocoevalcap's table recompressed,
   so its sha256 differs) forces a real index build: its wall time and peak RSS, measured once.

The segment is the first line of examples/hyp.txt and examples/ref.txt. Targets (issue 12): cold CLI
<= 1.0x the jar's wall time and <= 300 MiB peak RSS; warm first segment <= 0.3 s. Misses print MISS.
Only the standard library, meteor_metric and benchmarks/jar.py are used.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jar as jarlib  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

API_CODE = r"""
import sys, time
from meteor_metric import Meteor
t0 = time.perf_counter()
r = Meteor().sentence_score(sys.argv[1], [sys.argv[2]])
print("RESULT", repr(r.score), f"{time.perf_counter() - t0:.4f}", flush=True)
"""

BUILD_CODE = r"""
import sys
from meteor_metric import Meteor
r = Meteor(paraphrase_table=sys.argv[3]).sentence_score(sys.argv[1], [sys.argv[2]])
print("RESULT", repr(r.score), flush=True)
"""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run(cmd: list[str], pattern: str, cwd: Path, cache: Optional[Path]) -> tuple[float, int, str]:
    """(seconds to the score line, peak RSS KiB, that line) of one new process."""
    env = dict(os.environ)
    if cache is not None:
        env["METEOR_METRIC_CACHE"] = str(cache)
    t_result, _, _, line, rss = jarlib.time_to_line(cmd, pattern, cwd, env=env)
    return t_result, rss, line


def series(label: str, cmd: list[str], pattern: str, cwd: Path, runs: int, fresh_cache: Optional[Path],
           warm_cache: Optional[Path] = None) -> dict:
    """``runs`` measured runs, each with a new empty cache under ``fresh_cache`` or with ``warm_cache``."""
    times, rsss, lines = [], [], []
    for i in range(runs):
        if fresh_cache is not None:
            cache = fresh_cache / f"{label}-{i}"
            shutil.rmtree(cache, ignore_errors=True)
        else:
            cache = warm_cache
        t, rss, line = run(cmd, pattern, cwd, cache)
        times.append(t)
        rsss.append(rss)
        lines.append(line)
        log(f"  {label} run {i + 1}: {t:.3f} s, peak RSS {rss / 1024:.0f} MiB  ({line[:60]})")
    return {"s": statistics.median(times), "rss_kb": max(rsss), "all_s": times, "lines": lines}


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISS"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="measured runs per program (median; default 3)")
    ap.add_argument("--core", type=int, default=0, help="the core to pin every measured process to")
    ap.add_argument("--no-pin", action="store_true", help="do not pin (the report says so)")
    ap.add_argument("--skip-jar", action="store_true", help="do not run the jar")
    ap.add_argument("--build-path", action="store_true",
                    help="also measure a real index build (a table that is not the shipped one; ~30 s, ~900 MiB)")
    args = ap.parse_args(argv)
    pin = jarlib.pin_prefix(None if args.no_pin else args.core)
    hyp = (EXAMPLES / "hyp.txt").read_text(encoding="utf-8").splitlines()[0]
    ref = (EXAMPLES / "ref.txt").read_text(encoding="utf-8").splitlines()[0]
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="mm-cold-") as tmp_name:
        tmp = Path(tmp_name)
        one_hyp, one_ref = tmp / "one.hyp", tmp / "one.ref"
        jarlib.write_lines(one_hyp, [hyp])
        jarlib.write_lines(one_ref, [ref])
        cli = pin + [sys.executable, "-m", "meteor_metric", "score", "--hyp", str(one_hyp), "--ref", str(one_ref)]
        api = pin + [sys.executable, "-c", API_CODE, hyp, ref]
        log(f"pinning: {' '.join(pin) if pin else 'NONE'}; python {sys.version.split()[0]}; segment: {hyp[:50]}...")
        log("1. cold (a new empty cache per run)")
        results["cold_cli"] = series("cold CLI", cli, r"^Segment 1 score:", REPO, args.runs, tmp / "caches")
        results["cold_api"] = series("cold API", api, r"^RESULT ", REPO, args.runs, tmp / "caches")
        if not args.skip_jar:
            log("2. the jar (one unmeasured run first, for the page cache)")
            jar_cmd = jarlib.jar_command(one_hyp, one_ref, pin=None if args.no_pin else args.core)
            run(jar_cmd, r"^Segment 1 score:", jarlib.find_jar().parent, None)
            results["jar"] = series("jar", jar_cmd, r"^Segment 1 score:", jarlib.find_jar().parent, args.runs, None)
        log("3. warm (the cache a cold run left)")
        warm = tmp / "caches" / "cold API-0"
        results["warm_cli"] = series("warm CLI", cli, r"^Segment 1 score:", REPO, args.runs, None, warm)
        results["warm_api"] = series("warm API", api, r"^RESULT ", REPO, args.runs, None, warm)
        in_process = statistics.median(float(line.split()[2]) for line in results["warm_api"]["lines"])
        if args.build_path:
            log("4. a real index build (a recompressed copy of the table: same content, new sha256)")
            from meteor_metric.meteor15.paraphrase import find_paraphrase_table

            copy = tmp / "paraphrase-en.gz"
            with gzip.open(find_paraphrase_table("en"), "rb") as src, gzip.open(copy, "wb", compresslevel=1) as dst:
                shutil.copyfileobj(src, dst)
            results["build"] = series("build", pin + [sys.executable, "-c", BUILD_CODE, hyp, ref, str(copy)],
                                      r"^RESULT ", REPO, 1, tmp / "caches")
    scores = {line.split()[-1] if line.startswith("Segment") else line.split()[1]
              for key in ("cold_cli", "cold_api", "jar", "warm_cli", "warm_api", "build") if key in results
              for line in results[key]["lines"]}

    print(f"\nFirst segment, new process, {'pinned: ' + ' '.join(pin) if pin else 'NOT pinned'}; "
          f"median of {args.runs}, peak RSS the maximum")
    print(f"{'':34} {'wall s':>8} {'peak RSS':>10}")
    for key, label in (("cold_cli", "ours, CLI, empty cache"), ("cold_api", "ours, API, empty cache"),
                       ("jar", "jar, -l en -norm"), ("warm_cli", "ours, CLI, warm cache"),
                       ("warm_api", "ours, API, warm cache"), ("build", "ours, API, index build (not shipped)")):
        if key in results:
            r = results[key]
            print(f"{label:34} {r['s']:8.3f} {r['rss_kb'] / 1024:8.0f} MiB")
    print(f"{'ours, in process: Meteor() + segment':34} {in_process:8.3f}")
    print(f"segment scores seen: {', '.join(sorted(scores))}")
    cold = results["cold_cli"]
    print("\ntargets:")
    if "jar" in results:
        ratio = cold["s"] / results["jar"]["s"]
        print(f"  cold CLI / jar wall time   {ratio:6.2f}x  (<= 1.0)   {verdict(ratio <= 1.0)}")
    print(f"  cold CLI peak RSS          {cold['rss_kb'] / 1024:6.0f} MiB (<= 300) {verdict(cold['rss_kb'] <= 300 * 1024)}")
    warm_s = results["warm_api"]["s"]
    print(f"  warm first segment, API    {warm_s:6.3f} s  (<= 0.3)   {verdict(warm_s <= 0.3)}  (spawn to score)")
    print(f"  warm first segment, API    {in_process:6.3f} s  (<= 0.3)   {verdict(in_process <= 0.3)}  "
          "(in process: Meteor() + score, import excluded)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
