#!/usr/bin/env python3
"""meteor-metric against the Java METEOR 1.5 jar, side by side on the same input, both on one core.

    python benchmarks/bench_vs_jar.py [--limit N] [--skip-jar-e2e] [--skip-warm] [--skip-startup] ...

Input: the 44,804 (hyp, ref) pairs of ../shared/data/mt/wmt21-news/zh-en.seg.jsonl.gz (relative to the repo
root; --data to point elsewhere). Measured, in this order, every program pinned with ``taskset -c CORE``:

1. time to first segment: a new process that imports, builds the scorer and scores one segment (our
   paraphrase index is built by an unmeasured run first); for the jar, scoring a 1-line file.
2. end to end: ``java -jar meteor-1.5.jar HYP REF -l en -norm`` (and again with ``-ssOut``) against
   ``python -m meteor_metric score --hyp HYP --ref REF --json``: wall time and peak RSS of each process
   (os.wait4), and whether every segment score (1e-12), every stats line and the system score agree.
3. warm throughput: the jar's ``-stdio`` mode after a warm-up batch of SCORE lines, against a pinned Python
   process that creates ``Meteor()``, scores the same warm-up batch, then times ``corpus_score`` on the
   same N pairs.

Exit status 1 if any segment or system score differs from the jar's; missed speed targets only print MISS.
Only the standard library and meteor_metric are used.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jar as jarlib  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data"
DATASET = Path("mt") / "wmt21-news" / "zh-en.seg.jsonl.gz"
TOLERANCE = 1e-12

TARGETS = {  # name: (comparison, bound, what the bound applies to)
    "e2e": ("<=", 0.5, "ratio"),
    "warm": (">=", 1.0, "ratio"),
    "rss": ("<=", 0.6, "ratio"),
    "startup": ("<=", 1.5, "ours_s"),
}

FIRST_SEGMENT_CODE = r"""
import sys
from meteor_metric import Meteor
r = Meteor().sentence_score(sys.argv[1], [sys.argv[2]])
print("RESULT", repr(r.score), flush=True)
"""


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------------ data

def load_pairs(data_dir: Path, limit: Optional[int]) -> tuple[list[str], list[str]]:
    path = data_dir / DATASET
    if not path.is_file():
        sys.exit(f"error: benchmark data not found: {path}\n"
                 f"(expected the shared data folder next to the repository, ../shared/data from {REPO}; "
                 f"use --data DIR to point to it)")
    hyps, refs = [], []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            # one line per segment for both tools (Java's readLine also splits at \r)
            hyps.append(jarlib.clean_line(row["hyp"]))
            refs.append(jarlib.clean_line(row["ref"]))
            if limit is not None and len(hyps) >= limit:
                break
    return hyps, refs


# --------------------------------------------------------------------------------------------- helpers

def our_cli(hyp: Path, ref: Path, pin: Optional[int]) -> list[str]:
    return jarlib.pin_prefix(pin) + [sys.executable, "-m", "meteor_metric", "score", "--hyp", str(hyp),
                                     "--ref", str(ref), "--json"]


def mib(kb: Optional[int]) -> str:
    return "n/a" if kb is None else f"{kb / 1024:,.0f} MiB"


def secs(s: Optional[float]) -> str:
    return "n/a" if s is None else f"{s:,.2f} s"


def rate(r: Optional[float]) -> str:
    return "n/a" if r is None else f"{r:,.0f} pairs/s"


def verdict(name: str, ratio: Optional[float], ours_s: Optional[float] = None) -> tuple[str, str]:
    op, bound, kind = TARGETS[name]
    value = ratio if kind == "ratio" else ours_s
    text = f"{op} {bound:g}" + ("x" if kind == "ratio" else " s")
    if value is None:
        return text, "n/a"
    ok = value <= bound if op == "<=" else value >= bound
    return text, "PASS" if ok else "MISS"


def environment(pinned: bool, core: Optional[int]) -> list[str]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        commit += " (+ uncommitted changes)" if dirty else ""
    except OSError:
        commit = "?"
    try:
        java = jarlib.java_version()[0]
    except Exception as exc:  # noqa: BLE001 - only informative
        java = f"unavailable ({exc})"
    load = os.getloadavg()
    return [
        f"machine:  {cpu or platform.processor()} ({os.cpu_count()} logical CPUs), {platform.platform()}",
        f"load:     {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1/5/15 min) at start",
        f"python:   {platform.python_version()} ({sys.executable})",
        f"java:     {java}",
        f"pinning:  " + (f"taskset -c {core} for every measured process (this driver runs on the other cores)"
                         if pinned else
                         "NONE (taskset unavailable or --no-pin): all runs unpinned"),
        f"repo:     {commit}",
    ]


# ------------------------------------------------------------------------------------ measurement steps

def measure_startup(tmp: Path, hyps: list[str], refs: list[str], pin: Optional[int], runs: int,
                    do_jar: bool) -> dict:
    out: dict = {"runs": runs}
    h, r = hyps[0], refs[0]
    log("startup: building our paraphrase index / warming caches (unmeasured run)")
    jarlib.time_to_line([sys.executable, "-c", FIRST_SEGMENT_CODE, h, r], r"^RESULT ", REPO)
    ours, ours_cpu = [], []
    for i in range(runs):
        t_res, t_exit, cpu, line, _ = jarlib.time_to_line(jarlib.pin_prefix(pin) + [sys.executable, "-c",
                                                                          FIRST_SEGMENT_CODE, h, r],
                                                r"^RESULT ", REPO)
        ours.append(t_res)
        ours_cpu.append(cpu)
        log(f"startup ours run {i + 1}: {t_res:.3f} s to result, {t_exit:.3f} s to exit, {cpu:.3f} CPU-s ({line})")
    out["ours_s"] = statistics.median(ours)
    out["ours_cpu_s"] = statistics.median(ours_cpu)
    out["ours_all_s"] = ours
    if do_jar:
        hyp1, ref1 = tmp / "one.hyp.txt", tmp / "one.ref.txt"
        jarlib.write_lines(hyp1, [h])
        jarlib.write_lines(ref1, [r])
        cmd = jarlib.jar_command(hyp1, ref1, pin=pin)
        log("startup: jar unmeasured run (page cache)")
        jarlib.time_to_line(cmd, r"^Segment 1 score:", jarlib.find_jar().parent)
        jars, jars_cpu = [], []
        for i in range(runs):
            t_res, t_exit, cpu, line, _ = jarlib.time_to_line(cmd, r"^Segment 1 score:", jarlib.find_jar().parent)
            jars.append(t_res)
            jars_cpu.append(cpu)
            log(f"startup jar run {i + 1}: {t_res:.3f} s to result, {t_exit:.3f} s to exit, {cpu:.3f} CPU-s "
                f"({line})")
        out["jar_s"] = statistics.median(jars)
        out["jar_cpu_s"] = statistics.median(jars_cpu)
        out["jar_all_s"] = jars
    return out


def measure_e2e(hyp: Path, ref: Path, n: int, pin: Optional[int], do_jar: bool) -> dict:
    out: dict = {"pairs": n}
    jar_plain = jar_ss = None
    if do_jar:
        log(f"e2e: jar file mode on {n:,} pairs")
        jar_plain = jarlib.score_files(hyp, ref, pin=pin)
        log(f"e2e: jar {jar_plain.wall_s:.1f} s ({jar_plain.cpu_s:.1f} CPU-s), peak RSS {mib(jar_plain.max_rss_kb)}; "
            f"again with -ssOut")
        jar_ss = jarlib.score_files(hyp, ref, ssout=True, pin=pin)
        log(f"e2e: jar -ssOut {jar_ss.wall_s:.1f} s ({jar_ss.cpu_s:.1f} CPU-s), peak RSS {mib(jar_ss.max_rss_kb)}")
        out.update(jar_s=jar_plain.wall_s, jar_cpu_s=jar_plain.cpu_s, jar_ssout_cpu_s=jar_ss.cpu_s,
                   jar_rss_kb=jar_plain.max_rss_kb, jar_ssout_s=jar_ss.wall_s,
                   jar_ssout_rss_kb=jar_ss.max_rss_kb, jar_final=jar_plain.final_score,
                   jar_command=" ".join(jar_plain.command))
    log(f"e2e: python -m meteor_metric score --json on {n:,} pairs")
    cmd = our_cli(hyp, ref, pin)
    res = jarlib.run_measured(cmd, cwd=REPO)
    if res.returncode != 0:
        raise RuntimeError(f"our CLI failed (exit {res.returncode}):\n{res.stderr[-3000:]}")
    ours = json.loads(res.stdout)
    log(f"e2e: ours {res.wall_s:.1f} s ({res.cpu_s:.1f} CPU-s), peak RSS {mib(res.max_rss_kb)}")
    out.update(ours_s=res.wall_s, ours_cpu_s=res.cpu_s, ours_rss_kb=res.max_rss_kb, ours_final=ours["score"],
               ours_command=" ".join(cmd), signature=ours.get("signature"))
    if len(ours["segment_scores"]) != n or len(ours["segment_stats"]) != n:
        raise RuntimeError(f"our CLI returned {len(ours['segment_scores'])} segments for {n} pairs")
    if do_jar:
        bad_scores = [k for k, (a, b) in enumerate(zip(ours["segment_scores"], jar_plain.segment_scores))
                      if not abs(a - b) <= TOLERANCE]
        bad_stats = [k for k, (a, b) in enumerate(zip(ours["segment_stats"], jar_ss.stats_lines)) if a != b]
        out.update(score_mismatches=len(bad_scores), stats_mismatches=len(bad_stats),
                   final_diff=abs(ours["score"] - jar_plain.final_score),
                   max_score_diff=max((abs(a - b) for a, b in zip(ours["segment_scores"],
                                                                   jar_plain.segment_scores)), default=0.0))
        examples = []
        for k in sorted(set(bad_scores) | set(bad_stats))[:5]:
            examples.append({"segment": k + 1, "ours_score": ours["segment_scores"][k],
                             "jar_score": jar_plain.segment_scores[k], "ours_stats": ours["segment_stats"][k],
                             "jar_stats": jar_ss.stats_lines[k]})
        out["mismatch_examples"] = examples
    return out


def measure_warm(hyp: Path, ref: Path, hyps: list[str], refs: list[str], pin: Optional[int], warmup: int,
                 n: int, do_jar: bool) -> dict:
    total = len(hyps)
    warmup = min(warmup, max(total - 1, 0))
    n = min(n, total - warmup)
    out: dict = {"warmup": warmup, "pairs": n}
    jar_lines = None
    if do_jar:
        log(f"warm: jar -stdio, {warmup:,} warm-up SCORE lines, then {n:,} timed")
        with jarlib.JarStdio(pin=pin) as session:
            t0 = time.perf_counter()
            session.score_many(hyps[:warmup], refs[:warmup])
            out["jar_warmup_s"] = time.perf_counter() - t0
            c0, t0 = session.cpu_seconds(), time.perf_counter()
            jar_lines = session.score_many(hyps[warmup:warmup + n], refs[warmup:warmup + n])
            out["jar_s"] = time.perf_counter() - t0
            out["jar_cpu_s"] = session.cpu_seconds() - c0
        out["jar_rate"] = n / out["jar_s"]
        out["jar_cpu_rate"] = n / out["jar_cpu_s"]
        log(f"warm: jar {out['jar_rate']:,.0f} pairs/s ({out['jar_s']:.2f} s, {out['jar_cpu_s']:.2f} CPU-s "
            f"for {n:,})")
    log(f"warm: ours in a pinned process, {warmup:,} warm-up pairs, then {n:,} timed")
    cmd = jarlib.pin_prefix(pin) + [sys.executable, str(Path(__file__).resolve()), "_warm-worker",
                                    "--hyp", str(hyp), "--ref", str(ref), "--warmup", str(warmup), "--n", str(n)]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, encoding="utf-8")
    if proc.returncode != 0:
        raise RuntimeError(f"warm worker failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    worker = json.loads(proc.stdout)
    out.update(ours_s=worker["elapsed_s"], ours_cpu_s=worker["cpu_s"], ours_init_s=worker["init_s"],
               ours_warmup_s=worker["warmup_s"], ours_rate=n / worker["elapsed_s"],
               ours_cpu_rate=n / worker["cpu_s"])
    log(f"warm: ours {out['ours_rate']:,.0f} pairs/s ({worker['elapsed_s']:.2f} s, {worker['cpu_s']:.2f} CPU-s "
        f"for {n:,}; "
        f"Meteor() {worker['init_s']:.2f} s)")
    if jar_lines is not None:
        # informative: -stdio trims fields and cannot carry '|||', so it may differ from file mode
        out["stdio_stats_mismatches"] = sum(a != b for a, b in zip(worker["stats_lines"], jar_lines))
    return out


def warm_worker(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="bench_vs_jar.py _warm-worker")
    p.add_argument("--hyp", required=True)
    p.add_argument("--ref", required=True)
    p.add_argument("--warmup", type=int, required=True)
    p.add_argument("--n", type=int, required=True)
    a = p.parse_args(argv)
    hyps, refs = jarlib.read_lines(a.hyp), jarlib.read_lines(a.ref)
    t0 = time.perf_counter()
    from meteor_metric import Meteor

    m = Meteor()
    init_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    if a.warmup:
        m.corpus_score(hyps[:a.warmup], refs[:a.warmup])
    warmup_s = time.perf_counter() - t0
    sel_h, sel_r = hyps[a.warmup:a.warmup + a.n], refs[a.warmup:a.warmup + a.n]
    c0, t0 = time.process_time(), time.perf_counter()
    result = m.corpus_score(sel_h, sel_r)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    json.dump({"init_s": init_s, "warmup_s": warmup_s, "elapsed_s": elapsed, "cpu_s": cpu,
               "stats_lines": [s.stats.to_line() for s in result.segments]}, sys.stdout)
    return 0


# --------------------------------------------------------------------------------------------- report

def table(results: dict) -> list[str]:
    """Wall-clock rows (the targets) and, under them, the same runs on CPU time (user + system of the
    measured process, all threads): CPU time does not grow when other work shares the core."""
    head = ("measurement", "jar", "meteor-metric", "ours/jar", "target", "result")
    wall_rows, cpu_rows = [], []
    e2e, warm, st = results.get("e2e"), results.get("warm"), results.get("startup")

    def ratio(a, b):
        return None if a is None or b is None or b == 0 else a / b

    def fmt_ratio(r):
        return "n/a" if r is None else f"{r:.2f}x"

    if e2e:
        n = f"{e2e['pairs']:,}"
        r = ratio(e2e.get("ours_s"), e2e.get("jar_s"))
        wall_rows.append((f"end-to-end wall, {n} pairs", secs(e2e.get("jar_s")), secs(e2e["ours_s"]),
                          fmt_ratio(r), *verdict("e2e", r)))
        if e2e.get("jar_ssout_s") is not None:
            r2 = ratio(e2e["ours_s"], e2e["jar_ssout_s"])
            wall_rows.append(("  (jar with -ssOut)", secs(e2e["jar_ssout_s"]), secs(e2e["ours_s"]), fmt_ratio(r2),
                              "", ""))
        r = ratio(e2e.get("ours_rss_kb"), e2e.get("jar_rss_kb"))
        wall_rows.append(("peak RSS, end-to-end run", mib(e2e.get("jar_rss_kb")), mib(e2e["ours_rss_kb"]),
                          fmt_ratio(r), *verdict("rss", r)))
        r = ratio(e2e.get("ours_cpu_s"), e2e.get("jar_cpu_s"))
        cpu_rows.append((f"end-to-end CPU, {n} pairs", secs(e2e.get("jar_cpu_s")), secs(e2e.get("ours_cpu_s")),
                         fmt_ratio(r), *verdict("e2e", r)))
        if e2e.get("jar_ssout_cpu_s") is not None:
            r2 = ratio(e2e.get("ours_cpu_s"), e2e["jar_ssout_cpu_s"])
            cpu_rows.append(("  (jar with -ssOut)", secs(e2e["jar_ssout_cpu_s"]), secs(e2e.get("ours_cpu_s")),
                             fmt_ratio(r2), "", ""))
    if warm:
        r = ratio(warm.get("ours_rate"), warm.get("jar_rate"))
        wall_rows.append((f"warm throughput, {warm['pairs']:,} pairs", rate(warm.get("jar_rate")),
                          rate(warm["ours_rate"]), fmt_ratio(r), *verdict("warm", r)))
        r = ratio(warm.get("ours_cpu_rate"), warm.get("jar_cpu_rate"))
        cpu_rows.append((f"warm throughput per CPU-s", rate(warm.get("jar_cpu_rate")),
                         rate(warm.get("ours_cpu_rate")), fmt_ratio(r), *verdict("warm", r)))
    if st:
        r = ratio(st.get("ours_s"), st.get("jar_s"))
        wall_rows.append((f"time to first segment (median of {st['runs']})", secs(st.get("jar_s")),
                          secs(st["ours_s"]), fmt_ratio(r), *verdict("startup", r, st["ours_s"])))
        r = ratio(st.get("ours_cpu_s"), st.get("jar_cpu_s"))
        cpu_rows.append(("first-segment process CPU (to exit)", secs(st.get("jar_cpu_s")),
                         secs(st.get("ours_cpu_s")), fmt_ratio(r), *verdict("startup", r, st.get("ours_cpu_s"))))
    rows = [head, *wall_rows, *cpu_rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]

    def fmt(row):
        return "  ".join([row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]).rstrip()

    lines = [fmt(head), "  ".join("-" * w for w in widths)]
    lines += [fmt(row) for row in wall_rows]
    if cpu_rows:
        lines.append("same runs, CPU time (user+sys of the measured process; insensitive to other load on the core):")
        lines += [fmt(row) for row in cpu_rows]
    return lines


def correctness(results: dict) -> tuple[list[str], bool]:
    e2e = results.get("e2e")
    if not e2e or "score_mismatches" not in e2e:
        return ["agreement with the jar: not checked (no jar end-to-end run)"], True
    n = e2e["pairs"]
    ok = e2e["score_mismatches"] == 0 and e2e["stats_mismatches"] == 0 and e2e["final_diff"] <= TOLERANCE
    lines = [
        f"segment scores differing by more than 1e-12: {e2e['score_mismatches']} of {n:,} "
        f"(largest difference {e2e['max_score_diff']:.3g})",
        f"stats lines differing from the jar's -ssOut: {e2e['stats_mismatches']} of {n:,}",
        f"system score: jar {e2e['jar_final']!r}, ours {e2e['ours_final']!r} (difference {e2e['final_diff']:.3g})"
        + ("" if e2e["final_diff"] <= TOLERANCE else "  MISMATCH"),
    ]
    warm = results.get("warm") or {}
    if "stdio_stats_mismatches" in warm:
        lines.append(f"warm run: our stats lines vs the jar's -stdio replies: {warm['stdio_stats_mismatches']} "
                     f"of {warm['pairs']:,} differ (informative: -stdio trims fields)")
    for ex in e2e.get("mismatch_examples", []):
        lines.append(f"  segment {ex['segment']}: ours {ex['ours_score']!r} [{ex['ours_stats']}]")
        lines.append(f"  {' ' * len(str(ex['segment']))}        jar  {ex['jar_score']!r} [{ex['jar_stats']}]")
    return lines, ok


# ----------------------------------------------------------------------------------------------- main

def main(argv: Optional[list[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_warm-worker"]:
        return warm_worker(argv[1:])
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"shared data folder (default {DEFAULT_DATA})")
    p.add_argument("--limit", type=int, help="use only the first N pairs (default: all 44,804)")
    p.add_argument("--core", type=int, default=0, help="core to pin to (default 0)")
    p.add_argument("--no-pin", action="store_true", help="do not pin to a core")
    p.add_argument("--skip-jar", action="store_true", help="measure only meteor-metric")
    p.add_argument("--skip-jar-e2e", action="store_true", help="no jar end-to-end run (and no agreement check)")
    p.add_argument("--skip-e2e", action="store_true", help="no end-to-end runs at all")
    p.add_argument("--skip-warm", action="store_true", help="no warm-throughput measurement")
    p.add_argument("--skip-startup", action="store_true", help="no time-to-first-segment measurement")
    p.add_argument("--warmup", type=int, default=2000, help="warm-up pairs before the warm timing (default 2000)")
    p.add_argument("--warm-n", type=int, default=10000, help="pairs timed warm (default 10000)")
    p.add_argument("--startup-runs", type=int, default=3, help="repetitions of the startup timing (median)")
    p.add_argument("--json-out", type=Path, help="also write all measurements to this JSON file")
    p.add_argument("--keep", type=Path, help="write the hyp/ref files here and keep them")
    a = p.parse_args(argv)

    pin: Optional[int] = None if a.no_pin else a.core
    if pin is not None and not shutil.which("taskset"):
        print("NOTE: taskset is not available; every run is UNPINNED", file=sys.stderr)
        pin = None
    if pin is not None and hasattr(os, "sched_setaffinity"):
        # keep this driver process (data loading, the -stdio pipe) off the measured core
        others = set(range(os.cpu_count() or 1)) - {pin}
        if others:
            os.sched_setaffinity(0, others)
    do_jar = not a.skip_jar
    if do_jar:
        reason = jarlib.available()
        if reason:
            sys.exit(f"error: cannot run the jar: {reason}\n(use --skip-jar to measure meteor-metric alone)")

    hyps, refs = load_pairs(a.data, a.limit)
    log(f"{len(hyps):,} pairs from {a.data / DATASET}")
    results: dict = {"pairs": len(hyps), "pinned_core": pin}
    with tempfile.TemporaryDirectory(prefix="meteor-bench-") as tmpname:
        tmp = Path(tmpname)
        files = a.keep or tmp
        files.mkdir(parents=True, exist_ok=True)
        hyp_file, ref_file = files / "hyp.txt", files / "ref.txt"
        jarlib.write_lines(hyp_file, hyps)
        jarlib.write_lines(ref_file, refs)
        env_lines = environment(pin is not None, pin)
        if not a.skip_startup:
            results["startup"] = measure_startup(tmp, hyps, refs, pin, a.startup_runs, do_jar)
        if not a.skip_e2e:
            results["e2e"] = measure_e2e(hyp_file, ref_file, len(hyps), pin, do_jar and not a.skip_jar_e2e)
        if not a.skip_warm:
            results["warm"] = measure_warm(hyp_file, ref_file, hyps, refs, pin, a.warmup, a.warm_n, do_jar)

    print()
    print("meteor-metric vs Java METEOR 1.5 (pycocoevalcap 1.2 jar), -l en -norm, wmt21-news zh-en")
    for line in env_lines:
        print(line)
    end_load = os.getloadavg()
    print(f"load:     {end_load[0]:.2f} {end_load[1]:.2f} {end_load[2]:.2f} (1/5/15 min) at the end")
    print()
    for line in table(results):
        print(line)
    print()
    check, ok = correctness(results)
    for line in check:
        print(line)
    e2e = results.get("e2e") or {}
    if e2e:
        print()
        if "jar_command" in e2e:
            print(f"jar:  {e2e['jar_command']}   (cwd: the jar's directory)")
        print(f"ours: {e2e['ours_command']}")
        print(f"signature: {e2e.get('signature')}")
    if a.json_out:
        a.json_out.write_text(json.dumps({"environment": env_lines, **results}, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
