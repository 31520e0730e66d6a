#!/usr/bin/env python3
"""How well METEOR variants, BLEU and chrF agree with human judgments on ../shared/data.

    python benchmarks/correlation.py [--sets NAME ...] [--workers 2] [--json-out FILE] [--no-ptb]
        [--slow-max-rows 10000] [--extras NAME ...] [--extras-only]

Segment level: Kendall tau (tau-b; tau-c for Flickr8k-Expert) and Pearson against the judgments;
system level: Pearson and Kendall of system scores against MQM / DA / THumB human scores (machine
systems only). Protocols: ``evalsets.py`` and the data README. Columns: the profiles meteor-1.5,
nltk and original (original, whose exact search is slow, only on sets of at most --slow-max-rows
rows), the METEOR 1.5 English tasks, the shipped tuned presets, sentence/corpus BLEU and chrF from
sacrebleu (the ``dev`` extra), and the extensions of issue 16 (``ext:crossings``, ``ext:lemma``,
``ext:wn_similarity``: the meteor-1.5 default plus one extra, see EXTRA_COLUMNS) on the training sets
only (``--extras`` picks some, ``--extras-only`` skips every other column).

METEOR 1.5 is aligned once per (segment, reference) and cached in ``benchmarks/.cache/``; every
METEOR 1.5 column is then rescored from those statistics (``meteor_metric.analysis.vectorized``).
``flickr8k/expert+ptb`` repeats Flickr8k-Expert on text PTB-tokenized like pycocoevalcap's Stanford
tokenizer (the protocol of the data README's 41.8), by ``meteor_metric.integrations.coco``'s pure-Python tokenizer (no Java).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]
import evalsets  # noqa: E402

from meteor_metric import Meteor, get_scorer  # noqa: E402
from meteor_metric.analysis.correlation import kendall, pearson  # noqa: E402
from meteor_metric.integrations.ptb_tokenizer import ptb_tokenize  # noqa: E402
from meteor_metric.meteor15.params import resolve_params  # noqa: E402
from meteor_metric.meteor15.presets import SHIPPED_TASKS, load_shipped  # noqa: E402
from meteor_metric.core.stats import StatsTotal  # noqa: E402
from meteor_metric.analysis.vectorized import StatsTable, collect_stats, corpus_scores, segment_scores  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache"
TASK_COLUMNS = ("rank", "adq", "hter", "util", "li", "tune")


# -- cached scoring ------------------------------------------------------------------------------

def _digest(ev: evalsets.EvalSet) -> str:
    h = hashlib.sha256(json.dumps([ev.hyps, ev.refs], ensure_ascii=False).encode()).hexdigest()
    return h[:12]


def _cache_path(ev: evalsets.EvalSet, key: str, ext: str) -> Path:
    return CACHE / f"{ev.name.replace('/', '__')}.{key}.{_digest(ev)}.{ext}"


_worker: Optional[Callable] = None


_RANK = resolve_params("en", "rank")
#: The extensions' columns: METEOR 1.5's default (rank) plus one extension. An added module gets the
#: rank weight of its nearest jar module (lemma: stem's 0.6; wn_similarity: synonym's 0.8), last in order.
EXTRA_COLUMNS = {
    "ext:crossings": {"fragmentation": "crossings"},
    "ext:lemma": {"modules": _RANK.modules + ("lemma",), "weights": _RANK.weights + (0.6,)},
    "ext:wn_similarity": {"modules": _RANK.modules + ("wn_similarity",), "weights": _RANK.weights + (0.8,)},
}


def _init(kind: str) -> None:
    global _worker
    if kind.startswith("extra:"):
        meteor = Meteor(**EXTRA_COLUMNS[kind[6:]])
        _worker = lambda hyps, refs: [(s.score, s.stats) for s in meteor.score_pairs(list(zip(hyps, refs)))]  # noqa: E731
    elif kind.startswith("meteor:"):
        meteor = Meteor(modules=kind[7:].split(","))
        _worker = lambda hyps, refs: collect_stats(meteor, hyps, refs)  # noqa: E731
    else:
        scorer = get_scorer(kind)
        _worker = lambda hyps, refs: np.array([scorer.sentence_score(h, r).score for h, r in zip(hyps, refs)])  # noqa: E731


def _run(job: tuple) -> object:
    return _worker(*job)


def _parallel(kind: str, ev: evalsets.EvalSet, workers: int, chunk: int = 500) -> list:
    jobs = [(ev.hyps[k:k + chunk], ev.refs[k:k + chunk]) for k in range(0, len(ev.hyps), chunk)]
    if workers == 1:
        _init(kind)
        return [_run(j) for j in jobs]
    with multiprocessing.get_context("fork").Pool(workers, _init, (kind,)) as pool:
        return pool.map(_run, jobs)


def meteor_table(ev: evalsets.EvalSet, modules: tuple[str, ...], workers: int) -> StatsTable:
    path = _cache_path(ev, "stats-" + "_".join(modules), "npz")
    if path.exists():
        return StatsTable.load(str(path))
    t0 = time.time()
    table = StatsTable.concat(_parallel("meteor:" + ",".join(modules), ev, workers))
    CACHE.mkdir(exist_ok=True)
    table.save(str(path))
    print(f"  aligned {ev.name} ({table.n_pairs} pairs, {'+'.join(modules)}) in {time.time() - t0:.0f} s",
          file=sys.stderr)
    return table


def profile_scores(ev: evalsets.EvalSet, profile: str, workers: int) -> np.ndarray:
    path = _cache_path(ev, profile, "npy")
    if path.exists():
        return np.load(path)
    t0 = time.time()
    scores = np.concatenate(_parallel(profile, ev, workers))
    CACHE.mkdir(exist_ok=True)
    np.save(path, scores)
    print(f"  scored {ev.name} with {profile} in {time.time() - t0:.0f} s", file=sys.stderr)
    return scores


def extra_column(ev: evalsets.EvalSet, name: str, workers: int) -> dict:
    """Correlations of an EXTRA_COLUMNS configuration: segment scores, and system scores from the
    summed statistics of each system's segments (cached)."""
    path = _cache_path(ev, name.replace(":", "-"), "json")
    if path.exists():
        return json.loads(path.read_text())
    t0 = time.time()
    rows = [r for part in _parallel("extra:" + name, ev, workers) for r in part]
    seconds = time.time() - t0
    print(f"  scored {ev.name} with {name} in {seconds:.0f} s", file=sys.stderr)
    scorer = Meteor(**EXTRA_COLUMNS[name])
    totals: dict[str, StatsTotal] = {}
    for system, (_, stats) in zip(ev.system, rows):
        totals.setdefault(system, StatsTotal()).add(stats)
    sys_scores = {n: scorer.score_stats(t.total).score for n, t in totals.items()}
    out = correlate(ev, np.array([score for score, _ in rows]), sys_scores)
    out["seconds"] = round(seconds, 1)
    CACHE.mkdir(exist_ok=True)
    path.write_text(json.dumps(out))
    return out


def sacrebleu_scores(ev: evalsets.EvalSet, metric: str) -> tuple[np.ndarray, dict[str, float]]:
    """Sentence scores and corpus score per system (sacrebleu defaults, /100)."""
    import sacrebleu

    path = _cache_path(ev, metric, "json")
    if path.exists():
        data = json.loads(path.read_text())
        return np.array(data["seg"]), data["sys"]
    sentence = sacrebleu.sentence_bleu if metric == "bleu" else sacrebleu.sentence_chrf
    corpus = sacrebleu.corpus_bleu if metric == "bleu" else sacrebleu.corpus_chrf
    seg = [sentence(h, r).score / 100 for h, r in zip(ev.hyps, ev.refs)]
    sys_scores = {}
    for name in ev.sys_human:
        rows = [k for k, s in enumerate(ev.system) if s == name]
        width = min(len(ev.refs[k]) for k in rows)
        streams = [[ev.refs[k][j] for k in rows] for j in range(width)]
        sys_scores[name] = corpus([ev.hyps[k] for k in rows], streams).score / 100
    CACHE.mkdir(exist_ok=True)
    path.write_text(json.dumps({"seg": seg, "sys": sys_scores}))
    return np.array(seg), sys_scores


# -- PTB tokenization (pycocoevalcap's PTBTokenizer, pure Python: meteor_metric.integrations.coco) ------------------

def ptb_variant(ev: evalsets.EvalSet) -> evalsets.EvalSet:
    path = CACHE / f"{ev.name.replace('/', '__')}.ptb-py.{_digest(ev)}.json"
    if path.exists():
        hyps, refs = json.loads(path.read_text())
    else:
        flat = ev.hyps + [r for refs in ev.refs for r in refs]
        tok = [ptb_tokenize(t) for t in flat]
        hyps, it = tok[:len(ev.hyps)], iter(tok[len(ev.hyps):])
        refs = [[next(it) for _ in r] for r in ev.refs]
        CACHE.mkdir(exist_ok=True)
        path.write_text(json.dumps([hyps, refs], ensure_ascii=False))
    out = evalsets.EvalSet(ev.name, hyps, refs, ev.system, ev.group, ev.judged_rows, ev.judgments,
                           ev.kendall_variant, ev.sys_human, ev.sys_label, ev.notes + "; PTB-tokenized")
    return out


# -- correlations ----------------------------------------------------------------------------------

def correlate(ev: evalsets.EvalSet, seg: np.ndarray, sys_scores: Optional[dict[str, float]]) -> dict:
    """Segment-level Kendall/Pearson and system-level Pearson/Kendall of one metric on one set."""
    out = {}
    if ev.judgments is not None:
        x = seg[ev.judged_rows]
        out["seg_kendall"] = kendall(x, ev.judgments, ev.kendall_variant)
        out["seg_pearson"] = pearson(x, ev.judgments)
    if ev.sys_human and sys_scores is not None:
        names = sorted(ev.sys_human)
        x = np.array([sys_scores[n] for n in names])
        y = np.array([ev.sys_human[n] for n in names])
        out["sys_pearson"] = pearson(x, y)
        out["sys_kendall"] = kendall(x, y, "b")
    return out


def stats_columns(ev: evalsets.EvalSet, table: StatsTable, configs: dict[str, tuple]) -> dict[str, dict]:
    """Correlations of METEOR 1.5 configurations rescored from one statistics table."""
    names = sorted(set(ev.system))
    groups = np.searchsorted(names, ev.system)
    results = {}
    for column, (weights, a, b, g, d) in configs.items():
        seg, best = segment_scores(table, weights, a, b, g, d)
        corpus = corpus_scores(table, best, groups, len(names), weights, a, b, g, d)
        results[column] = correlate(ev, seg, dict(zip(names, corpus)))
    return results


def _task_config(task: str) -> tuple:
    p = resolve_params("en", task)
    return (p.weights, p.alpha, p.beta, p.gamma, p.delta)


def evaluate_set(ev: evalsets.EvalSet, workers: int, slow_max_rows: int, extras: tuple[str, ...] = (),
                 extras_only: bool = False) -> dict[str, dict]:
    results = {name: extra_column(ev, name, workers) for name in extras
               if evalsets.SETS[ev.name.split("+")[0]].startswith("train")}  # training sets only
    if not extras_only:
        results.update(standard_columns(ev, workers, slow_max_rows))
    return results


def standard_columns(ev: evalsets.EvalSet, workers: int, slow_max_rows: int) -> dict[str, dict]:
    full = ("exact", "stem", "synonym", "paraphrase")
    configs = {"meteor-1.5": _task_config("rank")}
    configs.update({f"task:{t}": _task_config(t) for t in TASK_COLUMNS if t != "rank"})
    for task in SHIPPED_TASKS:
        try:
            p = load_shipped(task)
        except FileNotFoundError:
            continue  # not trained yet
        if p.modules == full:
            configs[f"tuned:{task}"] = (p.weights, p.alpha, p.beta, p.gamma, p.delta)
    results = stats_columns(ev, meteor_table(ev, full, workers), configs)
    results.update(stats_columns(ev, meteor_table(ev, ("exact", "paraphrase"), workers),
                                 {"task:universal": _task_config("universal")}))
    for metric in ("bleu", "chrf"):
        seg, sys_scores = sacrebleu_scores(ev, metric)
        results[metric] = correlate(ev, seg, sys_scores)
    profiles = ["nltk", "original"] if len(ev.hyps) <= slow_max_rows else ["nltk"]
    for profile in profiles:
        seg = profile_scores(ev, profile, workers)
        means = {n: float(seg[[k for k, s in enumerate(ev.system) if s == n]].mean()) for n in ev.sys_human}
        results[profile] = correlate(ev, seg, means)
    return results


# -- output ----------------------------------------------------------------------------------------

COLUMN_ORDER = ["meteor-1.5", "nltk", "original", "task:adq", "task:hter", "task:util", "task:li", "task:tune",
                "task:universal", "tuned:mqm", "tuned:caption", "bleu", "chrf", *EXTRA_COLUMNS]
MEASURES = [("seg_kendall", "seg τ"), ("seg_pearson", "seg r"), ("sys_pearson", "sys r"),
            ("sys_kendall", "sys τ")]


def markdown(results: dict[str, dict[str, dict]]) -> str:
    columns = [c for c in COLUMN_ORDER if any(c in r for r in results.values())]
    lines = ["| set | split | measure | " + " | ".join(columns) + " |",
             "|---|---|---|" + "---|" * len(columns)]
    for name, res in results.items():
        base = name.split("+")[0]
        for key, label in MEASURES:
            if not any(key in res.get(c, {}) for c in columns):
                continue
            if key == "seg_kendall" and base == "flickr8k/expert":
                label = "seg τ-c"
            cells = [f"{res[c][key]:.3f}" if key in res.get(c, {}) else "–" for c in columns]
            lines.append(f"| {name} | {evalsets.SETS[base]} | {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="+", default=list(evalsets.SETS), choices=list(evalsets.SETS))
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--no-ptb", action="store_true", help="skip the PTB-tokenized Flickr8k-Expert run")
    ap.add_argument("--slow-max-rows", type=int, default=10000,
                    help="score with the (slow) original profile only sets of at most N rows")
    ap.add_argument("--json-out", default=str(Path(__file__).resolve().parent / "correlation.json"))
    ap.add_argument("--extras", nargs="*", default=list(EXTRA_COLUMNS), choices=list(EXTRA_COLUMNS),
                    help="extension columns, computed on the training sets only (default: all)")
    ap.add_argument("--extras-only", action="store_true", help="only the extension columns")
    args = ap.parse_args(argv)
    t0 = time.time()
    results: dict[str, dict] = {}
    timings = {}
    for name in args.sets:
        t = time.time()
        ev = evalsets.load(name)
        results[name] = evaluate_set(ev, args.workers, args.slow_max_rows, tuple(args.extras), args.extras_only)
        if name == "flickr8k/expert" and not args.no_ptb and not args.extras_only:
            results[name + "+ptb"] = evaluate_set(ptb_variant(ev), args.workers, 0)
        timings[name] = round(time.time() - t, 1)
    table = markdown(results)
    print(table)
    Path(args.json_out).write_text(json.dumps({
        "date": datetime.date.today().isoformat(), "results": results, "seconds": timings,
        "total_seconds": round(time.time() - t0, 1)}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
