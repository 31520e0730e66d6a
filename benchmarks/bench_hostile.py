#!/usr/bin/env python3
"""Hostile segments on every path: CPU time and peak RSS of a fresh process per (path, case).

    python benchmarks/bench_hostile.py [--paths sentence_score,align,corpus_score,score,evaluate]
                                       [--cases NAME,...] [--core N]

Each run is a new process (pinned with ``taskset -c CORE`` where available) that imports the package,
builds the default scorer and scores the case's files (a hypothesis file and one file per reference set);
its CPU time (user + system) and peak RSS come from ``os.wait4``. The ``normal`` case (one ordinary sentence) is the anchor: what any run costs.

The bounds under test (docs/limits.md): a segment within the limits (``max_segment_candidates``,
``max_segment_chars``, ``max_segment_tokens``) finishes, scored or refused, in under 10 s of CPU on one
core on every path, and streams through ``score`` stay under 500 MB peak RSS (through ``evaluate``: 500 MB
above its anchor run, since the frameworks it imports weigh what the environment holds). A run over a bound
prints MISS; the script exits 1 if any run missed. ``METEOR_METRIC_IMPL`` chooses the engine of every run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CPU_BOUND_S = 10.0
RSS_BOUND_MB = 500.0

SCRIPTS = {
    "sentence_score": """
import sys
from meteor_metric import Meteor
m = Meteor()
hyps, refs = open(sys.argv[1]).read().split("\\n")[:-1], [open(f).read().split("\\n")[:-1] for f in sys.argv[2:]]
for k, (h, r) in enumerate(zip(hyps, zip(*refs))):
    try:
        m.sentence_score(h, list(r))
    except ValueError as exc:
        print(f"segment {k}: refused: {str(exc)[:60]}")
""",
    "corpus_score": """
import sys
from meteor_metric import Meteor
hyps, refs = open(sys.argv[1]).read().split("\\n")[:-1], [open(f).read().split("\\n")[:-1] for f in sys.argv[2:]]
try:
    Meteor().corpus_score(hyps, [list(r) for r in zip(*refs)])
except ValueError as exc:
    print(f"refused: {str(exc)[:60]}")
""",
    "evaluate": """
import sys, tempfile
import evaluate, meteor_metric
hyps, refs = open(sys.argv[1]).read().split("\\n")[:-1], [open(f).read().split("\\n")[:-1] for f in sys.argv[2:]]
with tempfile.TemporaryDirectory() as cache:
    metric = evaluate.load(meteor_metric.EVALUATE_MODULE, cache_dir=cache)
    try:
        metric.compute(predictions=hyps, references=[list(r) for r in zip(*refs)])
    except ValueError as exc:
        print(f"refused: {str(exc)[:60]}")
""",
}
CLI = {"align": "align", "score": "score"}
COUNT_SCRIPT = """
import sys
from meteor_metric import Meteor
from meteor_metric.meteor15.aligner import find_candidates
from meteor_metric.meteor15.matcher import token_keys
meteor = Meteor()
hyps, refs = open(sys.argv[1]).read().split("\\n")[:-1], [open(f).read().split("\\n")[:-1] for f in sys.argv[2:]]
most = 0
for h, group in zip(hyps, zip(*refs)):
    used = 0
    for r in group:
        try:
            ht, rt = meteor.tokens(h), meteor.tokens(r)
            if max(len(ht), len(rt)) > meteor.max_segment_tokens:
                sys.exit(print(f"none, over max_segment_tokens={meteor.max_segment_tokens:,}"))
            matchers = meteor._matchers  # the scorer's own, as it finds candidates
            found = find_candidates(ht, rt, token_keys(ht), token_keys(rt), matchers, meteor.max_segment_candidates,
                                    "the hypothesis and its references", used)
        except ValueError as exc:
            sys.exit(print("none, " + str(exc).split(":")[0].split(", more")[0].replace("the text has", "a text has")))
        used += sum(map(len, found))
    most = max(most, used)
print(f"{most:,}")
"""
PATHS = ("sentence_score", "align", "corpus_score", "score", "evaluate")


def repeated(n: int, changed: int) -> tuple[str, str]:
    """One word n times, against the same with the word at ``changed`` replaced (issue 25's worst case)."""
    ref = ["the"] * n
    ref[changed % n] = "cat"
    return " ".join(["the"] * n), " ".join(ref)


def cycle(k: int, n: int) -> tuple[str, str]:
    """k distinct words repeated in turn to n tokens: a 2,500-token segment near the candidate limit."""
    words = [f"w{i}" for i in range(k)]
    hyp = [words[i % k] for i in range(n)]
    ref = list(hyp)
    ref[n // 2] = "cat"
    return " ".join(hyp), " ".join(ref)


def repeated_refs(n: int, n_refs: int, word: str) -> tuple[str, list[str]]:
    """One word n times, against ``n_refs`` references of it with one word changed (each another)."""
    refs = []
    for k in range(n_refs):
        ref = [word] * n
        ref[(k + 1) * n // (n_refs + 1)] = "cat"
        refs.append(" ".join(ref))
    return " ".join([word] * n), refs


def cases() -> dict[str, tuple[list[str], list[list[str]], str]]:
    """name -> (hypothesis lines, reference lines of each reference set, what it is)."""
    out = {}

    def add(name, pairs, what):
        out[name] = ([h for h, _ in pairs], [[r for _, r in pairs]], what)

    def add_multi(name, hyp, refs, what):
        out[name] = ([hyp], [[r] for r in refs], what)

    add("normal", [("The cat sat on the mat.", "A cat was sitting on the mat.")], "one ordinary sentence (anchor)")
    add("repeat700", [repeated(700, -1)], "'the' x700 vs the same with one changed")
    add("cycle13x2496", [cycle(13, 2_496)], "13 words cycled to 2,496 tokens, one changed")
    add("synonym404", [(" ".join(["big"] * 404), " ".join(["large"] * 403 + ["cat"]))],
        "'big' x404 vs 'large' x403 (synonym and paraphrase candidates)")
    add("chars100k_token", [("x" * 100_000, "x" * 99_999 + "y")], "one token of 100,000 characters each side")
    add("chars100k_punct", [("U.S.-based " * 9_090, "U.S. based " * 9_090)],
        "100,000 characters of abbreviations and hyphens (refused by the token limit after normalising)")
    add("repeat2499", [repeated(2_499, -1)], "'the' x2,499 vs one changed (6.2 million candidates: refused)")
    add("chars1M_token", [("x" * 1_000_000, "x")], "one token of 1,000,000 characters (refused)")
    add_multi("refs2x480", *repeated_refs(480, 2, "an"), "'an' x480 vs 2 references of it, one word changed each")
    add_multi("refs16x666", *repeated_refs(666, 16, "an"),
              "'an' x666 vs 16 references of it (442,890 candidates each: refused at the second)")
    add("stream_256x300", [repeated(300, k) for k in range(256)],
        "256 lines of 'the' x300, the changed word moving")
    add("stream_8x2499", [repeated(2_499, k) for k in range(8)], "8 lines of 'the' x2,499 (refused at the first)")
    add("stream_8x700", [repeated(700, k) for k in range(8)], "8 lines of 'the' x700 (each under the limit)")
    return out


def most_candidates(hyp: Path, refs: list[Path]) -> str:
    """The largest candidate count of the case's segments under the default scorer (or why there is none),
    counted in another process: this one stays small, because a child's peak RSS (``ru_maxrss``)
    starts from its parent's at the fork."""
    proc = subprocess.run([sys.executable, "-c", COUNT_SCRIPT, str(hyp), *map(str, refs)], capture_output=True,
                          text=True, cwd=REPO)
    return proc.stdout.strip() or proc.stderr.strip().splitlines()[-1]


def run(path: str, hyp: Path, refs: list[Path], core: int | None) -> tuple[float, float, int, str]:
    """CPU seconds, peak RSS (MB), exit status and the last output line of one fresh process."""
    if path in CLI:
        cmd = [sys.executable, "-m", "meteor_metric", CLI[path], "--hyp", str(hyp)]
        for ref in refs:
            cmd += ["--ref", str(ref)]
        if path == "score":
            cmd.append("--score-only")
    else:
        cmd = [sys.executable, "-c", SCRIPTS[path], str(hyp), *map(str, refs)]
    if core is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(core)] + cmd
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL if path == "align" else out,
                                stderr=out, cwd=REPO)
        _, status, usage = os.wait4(proc.pid, 0)
        out.seek(0)
        lines = out.read().decode("utf-8", "replace").strip().splitlines()
    code = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code, (lines[-1] if lines else "")[:90]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", default=",".join(PATHS))
    parser.add_argument("--cases", default=None, help="comma-separated case names (default: all)")
    parser.add_argument("--core", type=int, default=0, help="CPU core to pin to (-1: no pinning)")
    args = parser.parse_args()
    table = cases()
    names = args.cases.split(",") if args.cases else list(table)
    if "normal" not in names:  # the anchor every evaluate stream is judged against
        names.insert(0, "normal")
    missed = 0
    anchor_rss: dict[str, float] = {}  # the normal case's peak RSS per path
    print(f"{'case':<18} {'path':<15} {'CPU s':>7} {'RSS MB':>7} {'exit':>4}  result")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            hyps, ref_sets, what = table[name]
            hyp, refs = Path(tmp, f"{name}.hyp"), [Path(tmp, f"{name}.ref{k}") for k in range(len(ref_sets))]
            hyp.write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
            for ref, lines in zip(refs, ref_sets):
                ref.write_text("".join(r + "\n" for r in lines), encoding="utf-8")
            print(f"# {name}: {what}; most candidates of a segment: {most_candidates(hyp, refs)}", flush=True)
            for path in args.paths.split(","):
                if name.startswith("stream") and path in ("sentence_score", "align"):
                    continue  # the memory bound is for streams through the batch paths
                cpu, rss, code, last = run(path, hyp, refs, None if args.core < 0 else args.core)
                if name == "normal":
                    anchor_rss[path] = rss
                if not name.startswith("stream"):
                    miss = cpu > CPU_BOUND_S
                elif path == "evaluate":
                    miss = rss - anchor_rss[path] > RSS_BOUND_MB
                else:
                    miss = rss > RSS_BOUND_MB
                missed += miss
                print(f"{name:<18} {path:<15} {cpu:7.2f} {rss:7.0f} {code:>4}  {'MISS ' if miss else ''}{last}",
                      flush=True)
    print(f"bounds: CPU < {CPU_BOUND_S:g} s per run; streams < {RSS_BOUND_MB:g} MB peak RSS "
          f"(evaluate: above its anchor's {anchor_rss.get('evaluate', 0.0):.0f} MB); "
          f"{missed} run(s) missed")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
