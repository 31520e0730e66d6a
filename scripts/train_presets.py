#!/usr/bin/env python3
"""Train the shipped presets (meteor_metric/resources/presets/en-{mqm,caption}.json).

    python scripts/train_presets.py [--tasks mqm caption]

Training data, and nothing else (the held-out sets of benchmarks/evalsets.py are never loaded):
  mqm     ← wmt21-news/zh-en + wmt21-tedtalks/zh-en (MQM-rated machine rows, std reference)
  caption ← flickr8k/crowdflower (candidate removed from its refs; tau-b against yes_frac)
Settings fixed before training: objective segment-level Kendall tau-b (mean over the sets), 5-fold
cross-validation by source segment / image, seed 0, start = METEOR 1.5 ``-l en`` (rank), the same
four modules. Statistics come from benchmarks/correlation.py's cache (aligned there if missing).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "benchmarks"), str(REPO)]

import correlation as bench  # noqa: E402  (benchmarks/correlation.py)
import evalsets  # noqa: E402

from meteor_metric.meteor15.params import resolve_params  # noqa: E402
from meteor_metric.meteor15.presets import preset_dict  # noqa: E402
from meteor_metric.analysis.tuning import Config, Fold, correlation, make_set, tune  # noqa: E402

TRAINING = {"mqm": ["wmt21-news/zh-en", "wmt21-tedtalks/zh-en"], "caption": ["flickr8k/crowdflower"]}
DESCRIPTIONS = {
    "mqm": "METEOR 1.5 (English) tuned to expert MQM judgments of zh-en news and TED translations",
    "caption": "METEOR 1.5 (English) tuned to Flickr8k-CrowdFlower caption judgments",
}
OUT = REPO / "meteor_metric" / "resources" / "presets"
FOLDS, SEED, OBJECTIVE = 5, 0, "seg-kendall"


def training_set(name: str, workers: int):
    assert evalsets.SETS[name].startswith("train:"), name
    ev = evalsets.load(name)
    table = bench.meteor_table(ev, ("exact", "stem", "synonym", "paraphrase"), workers)
    judgments = [[] for _ in ev.hyps]
    for row, value in zip(ev.judged_rows, ev.judgments):
        judgments[row].append(float(value))
    return make_set(name, table, judgments, ev.system, ev.group, ev.kendall_variant), ev


def train(task: str, workers: int) -> dict:
    t0 = time.time()
    loaded = [training_set(name, workers) for name in TRAINING[task]]
    sets = [ts for ts, _ in loaded]
    base = resolve_params("en")
    start = Config(base.weights, *base.parameters)

    def report(f: Fold) -> None:
        c = f.config
        print(f"  {task} fold {f.index + 1}: train {f.train:.4f}  validation {f.validation:.4f} "
              f"(default {f.validation_default:.4f})  a {c.alpha:.3f} b {c.beta:.3f} g {c.gamma:.3f} "
              f"d {c.delta:.3f} w {','.join(f'{w:.3f}' for w in c.weights)}", flush=True)

    result = tune(sets, OBJECTIVE, start, folds=FOLDS, seed=SEED, report=report)
    c = result.final.config
    provenance = {
        "training_sets": [{"name": f"../shared/data {name}", "rows": len(ev.hyps), "judgments": len(ev.judgments),
                           "protocol": ev.notes} for name, (_, ev) in zip(TRAINING[task], loaded)],
        "objective": "segment-level Kendall tau-b, mean over the training sets",
        "optimizer": "48 random points + the default, Nelder-Mead (300 evaluations) from the best 2; "
                     "first module weight fixed at 1",
        "start": {"task": "rank", "weights": list(base.weights), "parameters": list(base.parameters)},
        "cv": {"folds": FOLDS, "split": "by source segment / image", "seed": SEED,
               "per_fold": [{"train": f.train, "validation": f.validation, "validation_default": f.validation_default,
                             "weights": list(f.config.weights), "parameters": list(f.config.parameters)}
                            for f in result.folds],
               "mean_validation": result.cv_validation, "mean_validation_default": result.cv_validation_default},
        "train_objective": result.final.train,
        "train_objective_default": float(sum(correlation(ts, start, OBJECTIVE) for ts in sets) / len(sets)),
        "date": datetime.date.today().isoformat(),
        "seconds": round(time.time() - t0, 1),
    }
    return preset_dict(f"meteor-en-{task}", "en", base.modules, c.weights, c.parameters, task=task,
                       description=DESCRIPTIONS[task], provenance=provenance)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", nargs="+", choices=list(TRAINING), default=list(TRAINING))
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for task in args.tasks:
        data = train(task, args.workers)
        path = OUT / f"en-{task}.json"
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        p = data["provenance"]
        print(f"{task}: CV validation {p['cv']['mean_validation']:.4f} (default {p['cv']['mean_validation_default']:.4f}); "
              f"wrote {path.relative_to(REPO)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
