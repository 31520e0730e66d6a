#!/usr/bin/env python3
"""Experiment: a learned METEOR (ridge regression over METEOR features) against the tuned presets.

    python benchmarks/learned.py        # after benchmarks/correlation.py has filled the cache

Features of each segment's best reference (under the default parameters): precision, recall, Fmean,
fragmentation, penalty, score, per-module match shares on both sides, content/function match rates,
log length ratio, matches per chunk. The ridge model is fit in numpy (standardized features, human
scores z-scored within each training set; lambda by grouped 5-fold CV on the training sets only)
and evaluated on the held-out sets with the same protocols as the benchmark.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]
import correlation as bench  # noqa: E402
import evalsets  # noqa: E402

from meteor_metric.analysis.correlation import kendall, pearson  # noqa: E402
from meteor_metric.meteor15.presets import load_shipped  # noqa: E402
from meteor_metric.analysis.tuning import fold_segments, make_set  # noqa: E402
from meteor_metric.analysis.vectorized import StatsTable, pair_scores, segment_scores  # noqa: E402

FULL = ("exact", "stem", "synonym", "paraphrase")
DEFAULT = ((1.0, 0.6, 0.8, 0.6), 0.85, 0.2, 0.6, 0.75)
TRAIN = {"mqm": ["wmt21-news/zh-en", "wmt21-tedtalks/zh-en"], "caption": ["flickr8k/crowdflower"]}
HELD_OUT = {"mqm": ["wmt23-general-sxs/zh-en"], "caption": ["flickr8k/expert", "thumb-mscoco"]}
LAMBDAS = (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)


def features(table: StatsTable) -> np.ndarray:
    _, best = segment_scores(table, *DEFAULT)
    s = table.stats[best].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        t_len, r_len = np.maximum(s[:, 0], 1), np.maximum(s[:, 1], 1)
        t_match = [s[:, 4 + 4 * i] + s[:, 6 + 4 * i] for i in range(4)]
        r_match = [s[:, 5 + 4 * i] + s[:, 7 + 4 * i] for i in range(4)]
        p, r = sum(t_match) / t_len, sum(r_match) / r_len
        frag = np.where(s[:, 21] + s[:, 22] > 0, s[:, 20] / np.maximum((s[:, 21] + s[:, 22]) / 2, 1), 1.0)
        t_content = np.maximum(s[:, 0] - s[:, 2], 1)
        r_content = np.maximum(s[:, 1] - s[:, 3], 1)
        cols = [p, r, 2 * p * r / np.maximum(p + r, 1e-9), frag, frag ** 0.2, pair_scores(s, *DEFAULT),
                *(m / t_len for m in t_match), *(m / r_len for m in r_match),
                sum(s[:, 4 + 4 * i] for i in range(4)) / t_content, sum(s[:, 5 + 4 * i] for i in range(4)) / r_content,
                sum(s[:, 6 + 4 * i] for i in range(4)) / np.maximum(s[:, 2], 1),
                np.log(t_len / r_len), np.abs(np.log(t_len / r_len)), s[:, 21] / np.maximum(s[:, 20], 1)]
    return np.nan_to_num(np.column_stack(cols))


def _data(name: str):
    ev = evalsets.load(name)
    table = bench.meteor_table(ev, FULL, 2)
    return ev, features(table), table


def _ridge(x: np.ndarray, y: np.ndarray, lam: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mu, sd = x.mean(0), x.std(0) + 1e-12
    z = np.column_stack([(x - mu) / sd, np.ones(len(x))])
    reg = lam * np.eye(z.shape[1])
    reg[-1, -1] = 0
    return np.linalg.solve(z.T @ z + reg, z.T @ y), mu, sd


def _predict(model, x: np.ndarray) -> np.ndarray:
    w, mu, sd = model
    return np.column_stack([(x - mu) / sd, np.ones(len(x))]) @ w


def _training_rows(ev, x):
    """One row per judgment, human z-scored within the set."""
    y = (ev.judgments - ev.judgments.mean()) / ev.judgments.std()
    return x[ev.judged_rows], y


def train(task: str) -> tuple:
    loaded = [_data(n) for n in TRAIN[task]]
    # choose lambda by grouped 5-fold CV (mean Kendall over sets), training data only
    scores = {}
    for lam in LAMBDAS:
        vals = []
        for ev, x, table in loaded:
            ts = make_set(ev.name, table, [[0.0]] * len(ev.hyps), None, ev.group)
            for fold in fold_segments(ts, 5, 0):
                test = np.isin(np.arange(len(ev.hyps)), fold)
                parts = [_training_rows(e, xx) for e, xx, _ in loaded if e is not ev]
                xt, yt = _training_rows(ev, x)
                keep = ~test[ev.judged_rows]
                xs = np.concatenate([xt[keep]] + [p[0] for p in parts])
                ys = np.concatenate([yt[keep]] + [p[1] for p in parts])
                model = _ridge(xs, ys, lam)
                judged = ev.judged_rows[~keep]
                vals.append(kendall(_predict(model, x)[judged], ev.judgments[~keep], ev.kendall_variant))
        scores[lam] = float(np.mean(vals))
    lam = max(scores, key=scores.get)
    rows = [_training_rows(ev, x) for ev, x, _ in loaded]
    return _ridge(np.concatenate([r[0] for r in rows]), np.concatenate([r[1] for r in rows]), lam), lam, scores


def main() -> int:
    report = {}
    for task in TRAIN:
        model, lam, cv = train(task)
        preset = load_shipped(task)
        cfg = (preset.weights, *preset.parameters)
        for name in HELD_OUT[task]:
            ev, x, table = _data(name)
            out = {}
            for label, seg in (("learned", _predict(model, x)), ("tuned", segment_scores(table, *cfg)[0]),
                               ("meteor-1.5", segment_scores(table, *DEFAULT)[0])):
                s = seg[ev.judged_rows]
                out[label] = {"seg_kendall": kendall(s, ev.judgments, ev.kendall_variant),
                              "seg_pearson": pearson(s, ev.judgments)}
            report[f"{task}:{name}"] = {"lambda": lam, "cv_kendall_by_lambda": cv, **out}
            print(f"{task} on {name} (lambda {lam}): " + "  ".join(
                f"{k} τ {v['seg_kendall']:.4f} r {v['seg_pearson']:.4f}" for k, v in out.items()))
    (Path(__file__).resolve().parent / "learned.json").write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
