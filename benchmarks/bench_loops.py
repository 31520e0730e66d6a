#!/usr/bin/env python3
"""METEOR in loops, side by side on one core, CPU time: the jar at steady state, the pure-Python engine and the
compiled core (``METEOR_METRIC_IMPL=python|native``, each in its own process).

    python benchmarks/bench_loops.py [--quick] [--core 0] [--data ../shared/data] [--json out.json]

Data: the 5,000 first MQM-rated WMT21 news zh-en pairs (benchmarks/evalsets.py; each reference occurs 8 times),
and a variant whose references are all different (one row per source segment of WMT21 news and TED zh-en,
WMT22 de-en and WMT23 zh-en). Tasks: ``corpus_score``, ``score_pairs``, a ``sentence_score`` loop (each on both
sets), a 64-completion reward call (``make_meteor_reward``, windows of 64 consecutive pairs), a 64 x 64
``pairwise`` matrix (windows of 64 consecutive WMT hypotheses), and the ``nltk`` profile against NLTK's own
``meteor_score`` (where NLTK's WordNet data is installed).

Every measurement runs in a fresh process pinned to one core (``os.sched_setaffinity``), after loading the
scorer and scoring 2,000 warm-up pairs from WMT22 zh-en (disjoint from the measured ones); the jar runs in one
``-stdio`` process pinned to the same core, after 20,000 warm-up pairs (its JIT's steady state), and its CPU
time is read from /proc. Ratios are against the jar on the same pairs (the nltk row: against NLTK). An engine
whose process fails, or that says it runs in pure Python when native is asked for, is reported unavailable.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalsets  # noqa: E402

ENGINES = ("python", "native")
UNIQUE_SOURCES = ("wmt21-news/zh-en", "wmt21-tedtalks/zh-en", "wmt22-general/de-en", "wmt23-general-sxs/zh-en")
WARMUP_SOURCE = "wmt22-general/zh-en"


# -------------------------------------------------------------------------------------------- data

def _rows(name: str, data: Path) -> list[dict]:
    return [r for r in evalsets._jsonl(data / "mt" / f"{name}.seg.jsonl.gz") if not r["is_human"]]


def datasets(data: Path, n: int) -> dict[str, list[tuple[str, str]]]:
    """name -> (hypothesis, reference) pairs."""
    wmt = evalsets.load_mt("wmt21-news/zh-en", data)
    shared = [(h, r[0]) for h, r in zip(wmt.hyps, wmt.refs)][:n]
    unique, seen_refs, seen_segs = [], set(), set()
    for name in UNIQUE_SOURCES:
        for row in _rows(name, data):
            key = (name, row["seg_id"])
            if key not in seen_segs and row["ref"] not in seen_refs:
                seen_segs.add(key)
                seen_refs.add(row["ref"])
                unique.append((row["hyp"], row["ref"]))
    warm = [(r["hyp"], r["ref"]) for r in _rows(WARMUP_SOURCE, data)]
    return {"wmt": shared, "unique": unique[:n], "warm": warm}


# ------------------------------------------------------------------------------ one measurement (child)

def child(task: str, data: Path, n: int, windows: int, core: int) -> dict:
    """Run one task in this process (pinned to ``core``) and return its CPU seconds and item count."""
    os.sched_setaffinity(0, {core})
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logging.getLogger().addHandler(Keep())
    logging.getLogger().setLevel(logging.INFO)
    from meteor_metric import get_scorer
    from meteor_metric.integrations.trl import make_meteor_reward

    sets = datasets(data, n)
    scorer = get_scorer("nltk" if task.startswith("nltk") else "meteor-1.5")
    if os.environ.get("METEOR_METRIC_IMPL") == "native":
        import meteor_metric

        package = Path(meteor_metric.__file__).parent
        if not any(package.rglob("*.so")) and not any(package.rglob("*.pyd")):
            raise SystemExit(f"no compiled extension in {package} (the compiled core is not built here)")
        if any("pure python" in m.lower() for m in records):
            raise SystemExit("native requested, but the package runs in pure Python: " + records[-1])
    warm = sets["warm"][:2000 if not task.startswith("nltk") else 200]
    scorer.score_pairs([(h, [r]) for h, r in warm])

    name, _, variant = task.partition(":")
    pairs = sets[variant or "wmt"]
    hyps, refs = [h for h, _ in pairs], [[r] for _, r in pairs]
    c0 = time.process_time()
    if name == "corpus_score":
        scorer.corpus_score(hyps, refs)
        items = len(hyps)
    elif name == "score_pairs":
        scorer.score_pairs(list(zip(hyps, refs)))
        items = len(hyps)
    elif name in ("sentence_score", "nltk"):
        for h, r in zip(hyps, refs):
            scorer.sentence_score(h, r)
        items = len(hyps)
    elif name == "reward64":
        reward = make_meteor_reward()
        c0 = time.process_time()
        for k in range(windows):
            reward(completions=hyps[64 * k:64 * k + 64], reference=[r[0] for r in refs[64 * k:64 * k + 64]])
        items = windows
    elif name == "pairwise64":
        for k in range(windows):
            scorer.pairwise(hyps[64 * k:64 * k + 64])
        items = windows
    elif name == "nltk_itself":
        from nltk import word_tokenize
        from nltk.translate.meteor_score import meteor_score

        try:
            meteor_score([word_tokenize("a test")], word_tokenize("a test"))
        except LookupError:
            raise SystemExit("NLTK's data (punkt_tab, wordnet) is not installed: nltk.download(...)") from None
        c0 = time.process_time()
        for h, r in zip(hyps, refs):
            meteor_score([word_tokenize(r[0])], word_tokenize(h))
        items = len(hyps)
    else:
        raise SystemExit(f"unknown task {task!r}")
    return {"cpu_s": time.process_time() - c0, "items": items}


def run_child(engine: str, task: str, args) -> dict:
    env = {**os.environ, "METEOR_METRIC_IMPL": engine}
    cmd = [sys.executable, __file__, "--child", task, "--data", str(args.data), "--n", str(args.n),
           "--windows", str(args.windows), "--core", str(args.core)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        return {"error": lines[-1] if lines else f"exit status {proc.returncode}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------------------------- the jar

def run_jar(args, sets: dict) -> dict[str, dict]:
    """CPU seconds of the jar per task (the same pairs as ours), after its warm-up."""
    import jar as jarlib

    out: dict[str, dict] = {}
    try:
        jarlib.find_jar()
        jarlib.find_java()
    except jarlib.JarUnavailable as exc:
        return {"error": str(exc)}  # type: ignore[dict-item]
    with jarlib.JarStdio(pin=args.core) as session:
        warm = sets["warm"][:args.jar_warmup]
        session.score_many([h for h, _ in warm], [r for _, r in warm])

        def timed(hyps: list[str], refs: list[str]) -> float:
            c0 = session.cpu_seconds()
            session.score_many(hyps, refs)
            return session.cpu_seconds() - c0

        for variant in ("wmt", "unique"):
            pairs = sets[variant]
            out[variant] = {"cpu_s": timed([h for h, _ in pairs], [r for _, r in pairs]), "items": len(pairs)}
        pairs = sets["wmt"]
        cpu = sum(timed([h for h, _ in pairs[64 * k:64 * k + 64]], [r for _, r in pairs[64 * k:64 * k + 64]])
                  for k in range(args.windows))
        out["reward64"] = {"cpu_s": cpu, "items": args.windows}
        cpu = 0.0
        for k in range(args.windows):
            window = [h for h, _ in pairs[64 * k:64 * k + 64]]
            cpu += timed([a for a in window for _ in window], [b for _ in window for b in window])
        out["pairwise64"] = {"cpu_s": cpu, "items": args.windows}
    return out


# ------------------------------------------------------------------------------------------------ report

TASKS = [  # (row label, our task, jar key, unit: "pairs" -> pairs per CPU-second, "call" -> ms per item)
    ("corpus_score, WMT21 zh-en", "corpus_score", "wmt", "pairs"),
    ("score_pairs, WMT21 zh-en", "score_pairs", "wmt", "pairs"),
    ("sentence_score loop, WMT21 zh-en", "sentence_score", "wmt", "pairs"),
    ("corpus_score, unique references", "corpus_score:unique", "unique", "pairs"),
    ("score_pairs, unique references", "score_pairs:unique", "unique", "pairs"),
    ("sentence_score loop, unique references", "sentence_score:unique", "unique", "pairs"),
    ("reward call, 64 completions", "reward64", "reward64", "call"),
    ("pairwise 64 x 64 matrix", "pairwise64", "pairwise64", "call"),
    ("nltk profile, sentence loop", "nltk", None, "pairs"),
]


def figure(m: Optional[dict], unit: str) -> str:
    if m is None:
        return "-"
    if "error" in m:
        return "unavailable"
    if unit == "pairs":
        return f"{m['items'] / m['cpu_s']:,.0f} pairs/CPU-s"
    return f"{1000 * m['cpu_s'] / m['items']:,.1f} ms"


def ratio(m: Optional[dict], base: Optional[dict]) -> str:
    if not m or not base or "error" in m or "error" in base:
        return "-"
    return f"{(base['cpu_s'] / base['items']) / (m['cpu_s'] / m['items']):.2f}x"


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="a smoke run: 300 pairs, 2 windows, 1,000 jar warm-up pairs")
    p.add_argument("--core", type=int, default=0, help="the core every measured process is pinned to")
    p.add_argument("--data", type=Path, default=evalsets.DATA, help="the shared data folder (default: %(default)s)")
    p.add_argument("--json", type=Path, help="also write the measurements here")
    p.add_argument("--engines", default=",".join(ENGINES), help="comma-separated: python,native")
    p.add_argument("--no-jar", action="store_true", help="skip the jar")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, default=5000, help=argparse.SUPPRESS)
    p.add_argument("--windows", type=int, default=10, help=argparse.SUPPRESS)
    p.add_argument("--jar-warmup", type=int, default=20000, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.data, args.n, args.windows, args.core)))
        return 0
    if not (args.data / "mt").is_dir():
        p.error(f"no data in {args.data}: give --data (the folder holding mt/wmt21-news ...)")
    if args.quick:
        args.n, args.windows, args.jar_warmup = 300, 2, 1000
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    bad = [e for e in engines if e not in ENGINES]
    if bad:
        p.error(f"unknown engine {bad[0]!r}: choose from {', '.join(ENGINES)}")
    sets = datasets(args.data, args.n)
    print(f"pairs: {len(sets['wmt'])} WMT21 zh-en, {len(sets['unique'])} with unique references; "
          f"{args.windows} windows of 64; core {args.core}", flush=True)
    results: dict = {"jar": {} if args.no_jar else run_jar(args, sets)}
    if "error" in results["jar"]:
        print(f"jar: unavailable ({results['jar']['error']})")
    for engine in engines:
        results[engine] = {}
        for _, task, _, _ in TASKS:
            results[engine][task] = run_child(engine, task, args)
            if "error" in results[engine][task]:
                print(f"{engine} {task}: unavailable ({results[engine][task]['error']})", flush=True)
                if engine == "native":  # one failure says it for all its tasks
                    results[engine] = {t: results[engine][task] for _, t, _, _ in TASKS}
                    break
    results["nltk_itself"] = run_child("python", "nltk_itself", args)
    if "error" in results["nltk_itself"]:
        print(f"NLTK's meteor_score: unavailable ({results['nltk_itself']['error']})")

    header = ["task", "jar"] + [f"{e}" for e in engines] + [f"{e} vs jar" for e in engines]
    print("\n| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    for label, task, jar_key, unit in TASKS:
        base = results["nltk_itself"] if jar_key is None else results["jar"].get(jar_key)
        cells = [label, ("NLTK: " if jar_key is None else "") + figure(base, unit)]
        cells += [figure(results[e].get(task), unit) for e in engines]
        cells += [ratio(results[e].get(task), base) for e in engines]
        print("| " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
