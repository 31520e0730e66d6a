#!/usr/bin/env python3
"""METEOR in loops, side by side on one core, CPU time: the jar at steady state, the pure-Python engine and the
compiled core (``METEOR_METRIC_IMPL=python|native``, each in its own process).

    python benchmarks/bench_loops.py [--quick] [--core 0] [--rounds 1] [--data ../shared/data] [--json out.json]

Data: the 5,000 first MQM-rated WMT21 news zh-en pairs (benchmarks/evalsets.py; each reference occurs 8 times),
and a variant whose references are all different (one row per source segment of WMT21 news and TED zh-en,
WMT22 de-en and WMT23 zh-en). Tasks: ``corpus_score``, ``score_pairs``, a ``sentence_score`` loop (each on both
sets), a 64-completion reward call (``make_meteor_reward``, windows of 64 consecutive pairs), a 64 x 64
``pairwise`` matrix (windows of 64 consecutive WMT hypotheses), and the ``nltk`` profile against NLTK's own
``meteor_score`` on ``word_tokenize`` tokens, as Hugging Face's ``evaluate.load("meteor")`` runs it (where
NLTK finds WordNet and punkt_tab: ``python scripts/make_nltk_data.py DIR``, then ``NLTK_DATA=DIR``; both
warmed up on the same 200 pairs).

Every measurement runs in a fresh process pinned to one core (``os.sched_setaffinity``), after loading the
scorer and scoring 2,000 warm-up pairs from WMT22 zh-en (disjoint from the measured ones); the jar runs in one
``-stdio`` process pinned to the same core, after 20,000 warm-up pairs (its JIT's steady state), and its CPU
time is read from /proc. Ratios are against the jar on the same pairs (the nltk row: against NLTK). The jar
scores a task's pairs again right before each of our processes for that task, so each ratio compares two
measurements seconds apart (this VM's speed swings 20-40 % within minutes); ``--rounds R`` repeats every
measurement R times and reports the median ratio with its range. An engine whose process fails, or that says
it runs in pure Python when native is asked for, is reported unavailable.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
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
            raise SystemExit("NLTK's data (punkt_tab, wordnet) is not installed: python scripts/make_nltk_data.py "
                             "DIR, then NLTK_DATA=DIR") from None
        for h, r in warm:  # the warm-up the nltk profile had
            meteor_score([word_tokenize(r)], word_tokenize(h))
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

class Jar:
    """The jar in one ``-stdio`` session, warmed up: its CPU seconds for a set's pairs, measured when asked."""

    def __init__(self, args, sets: dict):
        import jar as jarlib

        jarlib.find_jar()
        jarlib.find_java()
        self.sets, self.windows = sets, args.windows
        self.session = jarlib.JarStdio(pin=args.core)

    def __enter__(self) -> "Jar":
        self.session.__enter__()
        warm = self.sets["warm"]
        self.session.score_many([h for h, _ in warm], [r for _, r in warm])
        return self

    def __exit__(self, *exc) -> None:
        self.session.__exit__(*exc)

    def _timed(self, hyps: list[str], refs: list[str]) -> float:
        c0 = self.session.cpu_seconds()
        self.session.score_many(hyps, refs)
        return self.session.cpu_seconds() - c0

    def measure(self, key: str) -> dict:
        """CPU seconds and items of a jar key: a set's pairs ("wmt", "unique"), or the reward and matrix
        windows of the WMT pairs ("reward64", "pairwise64")."""
        if key in ("wmt", "unique"):
            pairs = self.sets[key]
            return {"cpu_s": self._timed([h for h, _ in pairs], [r for _, r in pairs]), "items": len(pairs)}
        pairs, cpu = self.sets["wmt"], 0.0
        for k in range(self.windows):
            window = pairs[64 * k:64 * k + 64]
            if key == "reward64":
                cpu += self._timed([h for h, _ in window], [r for _, r in window])
            else:
                hyps = [h for h, _ in window]
                cpu += self._timed([a for a in hyps for _ in hyps], [b for _ in hyps for b in hyps])
        return {"cpu_s": cpu, "items": self.windows}


def open_jar(args, sets: dict):
    """A context giving the warmed-up :class:`Jar`, or an error dict where the jar cannot run."""
    import contextlib

    import jar as jarlib

    if args.no_jar:
        return contextlib.nullcontext({"error": "skipped (--no-jar)"})
    try:
        return Jar(args, {**sets, "warm": sets["warm"][:args.jar_warmup]})
    except jarlib.JarUnavailable as exc:
        return contextlib.nullcontext({"error": str(exc)})


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


def rate(m: dict, unit: str) -> float:
    """Pairs per CPU-second, or ms per item."""
    return m["items"] / m["cpu_s"] if unit == "pairs" else 1000 * m["cpu_s"] / m["items"]


def figure(ms: Optional[list[dict]], unit: str) -> str:
    """The median of the rounds' figures."""
    if not ms:
        return "-"
    if any("error" in m for m in ms):
        return "unavailable"
    value = statistics.median(rate(m, unit) for m in ms)
    return f"{value:,.0f} pairs/CPU-s" if unit == "pairs" else f"{value:,.1f} ms"


def ratio(ms: Optional[list[dict]], bases: Optional[list[dict]]) -> str:
    """Median (and range, over several rounds) of the jar's CPU a pair over ours, round by round."""
    if not ms or not bases or any("error" in m for m in ms + bases):
        return "-"
    ratios = [(b["cpu_s"] / b["items"]) / (m["cpu_s"] / m["items"]) for m, b in zip(ms, bases)]
    text = f"{statistics.median(ratios):.2f}x"
    return text if len(ratios) == 1 else f"{text} ({min(ratios):.2f}-{max(ratios):.2f})"


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="a smoke run: 300 pairs, 2 windows, 1,000 jar warm-up pairs")
    p.add_argument("--core", type=int, default=0, help="the core every measured process is pinned to")
    p.add_argument("--data", type=Path, default=evalsets.DATA, help="the shared data folder (default: %(default)s)")
    p.add_argument("--json", type=Path, help="also write the measurements here")
    p.add_argument("--engines", default=",".join(ENGINES), help="comma-separated: python,native")
    p.add_argument("--no-jar", action="store_true", help="skip the jar")
    p.add_argument("--rounds", type=int, default=1, help="measure every task this many times (default: 1)")
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
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    if args.quick:
        args.n, args.windows, args.jar_warmup = 300, 2, 1000
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    bad = [e for e in engines if e not in ENGINES]
    if bad:
        p.error(f"unknown engine {bad[0]!r}: choose from {', '.join(ENGINES)}")
    sets = datasets(args.data, args.n)
    print(f"pairs: {len(sets['wmt'])} WMT21 zh-en, {len(sets['unique'])} with unique references; "
          f"{args.windows} windows of 64; core {args.core}", flush=True)
    results: dict = {"jar": {}, **{e: {} for e in engines}}  # key -> a measurement per round
    failed: set[str] = set()
    with open_jar(args, sets) as jar:
        if isinstance(jar, dict):
            print(f"jar: unavailable ({jar['error']})")
        for key in ("reward64", "pairwise64"):  # (absolute targets: measured once)
            results["jar"][key] = [jar if isinstance(jar, dict) else jar.measure(key)]
        for _ in range(args.rounds):
            for engine in engines:
                for _, task, jar_key, unit in TASKS:
                    if engine in failed or jar_key is None:
                        continue
                    if unit == "pairs":  # the jar's window right before ours
                        base = jar if isinstance(jar, dict) else jar.measure(jar_key)
                        results["jar"].setdefault(f"{engine} {task}", []).append(base)
                    measured = run_child(engine, task, args)
                    results[engine].setdefault(task, []).append(measured)
                    if "error" in measured:
                        print(f"{engine} {task}: unavailable ({measured['error']})", flush=True)
                        if engine == "native":  # one failure says it for all its tasks
                            failed.add(engine)
                            results[engine] = {t: [measured] for _, t, _, _ in TASKS}
    for engine in engines:
        if engine not in failed:
            results[engine]["nltk"] = [run_child(engine, "nltk", args)]
    results["nltk_itself"] = [run_child("python", "nltk_itself", args)]
    if "error" in results["nltk_itself"][0]:
        print(f"NLTK's meteor_score: unavailable ({results['nltk_itself'][0]['error']})")

    header = ["task", "jar"] + [f"{e}" for e in engines] + [f"{e} vs jar" for e in engines]
    print("\n| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    for label, task, jar_key, unit in TASKS:
        def base_of(engine: str) -> Optional[list[dict]]:
            if jar_key is None:
                return results["nltk_itself"]
            return results["jar"].get(jar_key if unit == "call" else f"{engine} {task}")
        bases = [m for e in engines for m in base_of(e) or []] if unit == "pairs" else base_of("")
        cells = [label, ("NLTK: " if jar_key is None else "") + figure(bases, unit)]
        cells += [figure(results[e].get(task), unit) for e in engines]
        cells += [ratio(results[e].get(task), base_of(e)) for e in engines]
        print("| " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
