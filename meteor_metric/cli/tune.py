"""``meteor-metric tune``: fit METEOR parameters to human judgments and write a preset file."""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import math
import os
import sys
import zipfile
import warnings
from typing import TYPE_CHECKING, Optional, TextIO

from ..analysis.objectives import OBJECTIVES
from ..core.corpus_io import parse_json_line
from ..core.outputs import atomic_output
from ..meteor15.meteor import Meteor
from ..meteor15.params import resolve_params
from ..meteor15.presets import NAME, PRESET_NAME_HELP, preset_dict, safe_preset_name
from .common import InputError, checked_outputs

if TYPE_CHECKING:  # numpy: imported when tune runs, not for every command line
    from ..analysis.tuning import Fold, TuningSet
    from ..analysis.vectorized import StatsTable

EPILOG = """\
input: one JSONL file per --data (each file is one set; correlations are computed within a set and
averaged over the sets). Each line:
  {"hypothesis": "...", "references": ["...", ...], "human": 0.5, "system": "sysA", "group": "doc1#3"}
  human: a number, a list of numbers (several judgments of the segment) or null (not judged);
  system: needed for --objective sys-pearson (the human system score is the mean of its segments);
  group: segments of one source/image, kept in one cross-validation fold (default: the line).

examples:
  meteor-metric tune --data mqm.jsonl --out my-preset.json
  meteor-metric tune --data a.jsonl --data b.jsonl --objective sys-pearson --folds 5 --out p.json
  meteor-metric score --hyp h.txt --ref r.txt --params-file p.json
"""


class TuneInputError(ValueError):
    """A problem with a --data file (reported by the CLI as a usage error)."""


def add_parser(commands) -> argparse.ArgumentParser:
    p = commands.add_parser(
        "tune", help="fit alpha, beta, gamma, delta and module weights to human judgments",
        description="Fit METEOR 1.5 parameters to human judgments (align once, then vectorized trials; "
                    "Nelder-Mead from random starts; k-fold cross-validation) and write a preset file.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", action="append", required=True, metavar="FILE", help="JSONL judgments (repeatable)")
    p.add_argument("--out", required=True, metavar="FILE", help="preset file to write (JSON)")
    p.add_argument("--name", help=f"preset name (default: the --out file name); {PRESET_NAME_HELP}")
    p.add_argument("--objective", choices=OBJECTIVES, default="seg-kendall",
                   help="segment-level Kendall tau or system-level Pearson (default seg-kendall)")
    p.add_argument("--kendall", choices=("b", "c"), default="b", help="Kendall variant (default b)")
    p.add_argument("--folds", type=int, default=5, help="cross-validation folds (0: none; default 5)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--random-starts", type=int, default=48, help="random points before Nelder-Mead")
    p.add_argument("--max-evals", type=int, default=300, help="evaluations per Nelder-Mead run")
    p.add_argument("-l", "--lang", default="en", help="language (default en)")
    p.add_argument("--task", default=None, help="starting configuration (default: the language's default task)")
    p.add_argument("--modules", help="modules to align with, comma-separated (default: the task's)")
    p.add_argument("--stats-cache", metavar="DIR", help="keep the aligned statistics here for re-runs")
    return p


def _read_rows(path: str) -> list[dict]:
    """The rows of a --data file: lines end at \\n only (JSON strings may hold U+2028, U+0085, \\r)."""
    try:
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
    except OSError as exc:
        raise FileNotFoundError(f"cannot read {path}: {exc.strerror}") from None
    rows = []
    for n, raw in enumerate(lines, 1):
        try:
            line = raw.decode("utf-8-sig" if n == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise TuneInputError(f"{path}:{n}: not valid UTF-8 (byte {exc.start + 1} of the line); "
                                 "save the file as UTF-8") from None
        if not line.strip():
            continue
        try:
            row = parse_json_line(line)
        except ValueError as exc:
            raise TuneInputError(f"{path}: line {n} {exc}") from None
        if not isinstance(row, dict) or not isinstance(row.get("hypothesis"), str):
            raise TuneInputError(f"{path}:{n}: needs an object with a string 'hypothesis'")
        refs = row.get("references")
        row["references"] = [refs] if isinstance(refs, str) else refs
        if not isinstance(row["references"], list) or not row["references"] or \
                not all(isinstance(r, str) for r in row["references"]):
            raise TuneInputError(f"{path}:{n}: 'references' must be a string or a non-empty list of strings")
        human = row.get("human")
        human = [] if human is None else human if isinstance(human, list) else [human]
        if not all(isinstance(h, (int, float)) and not isinstance(h, bool) and _finite(h) for h in human):
            raise TuneInputError(f"{path}:{n}: 'human' must be a finite number, a list of them or null")
        row["human"] = [float(h) for h in human]
        rows.append(row)
    if not rows:
        raise TuneInputError(f"{path}: no rows")
    return rows


def _finite(h: float) -> bool:
    try:
        return math.isfinite(h)
    except OverflowError:  # an integer beyond any float
        return False


def _table(meteor: Meteor, rows: list[dict], cache_dir: Optional[str]) -> StatsTable:
    """The statistics of the rows: from ``cache_dir`` when a sound copy is there, else aligned (and stored
    there, atomically; a damaged copy is recomputed with a warning)."""
    from ..analysis.vectorized import StatsTable, collect_stats

    hyps, refs = [r["hypothesis"] for r in rows], [r["references"] for r in rows]
    path = None
    if cache_dir:
        key = hashlib.sha256(json.dumps([meteor.signature, hyps, refs]).encode()).hexdigest()[:16]
        path = os.path.join(cache_dir, f"stats-{key}.npz")
        if os.path.isfile(path):
            try:
                return StatsTable.load(path)
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
                print(f"meteor-metric: warning: the statistics cache {path} is damaged ({exc}); "
                      "recomputing it", file=sys.stderr)
    table = collect_stats(meteor, hyps, refs)
    if path:
        os.makedirs(cache_dir, exist_ok=True)
        with atomic_output(path, binary=True) as f:
            table.save(f)
    return table


def load_sets(args, meteor: Meteor) -> list[TuningSet]:
    from ..analysis.tuning import make_set

    sets = []
    for path in args.data:
        rows = _read_rows(path)
        systems = [r.get("system") for r in rows]
        if args.objective == "sys-pearson" and any(s is None for s in systems):
            raise TuneInputError(f"{path}: --objective sys-pearson needs a 'system' on every line")
        groups = [str(r.get("group", f"line{k}")) for k, r in enumerate(rows)]
        sets.append(make_set(path, _table(meteor, rows, args.stats_cache), [r["human"] for r in rows],
                             None if any(s is None for s in systems) else [str(s) for s in systems],
                             groups, args.kendall))
    return sets


def _fold_line(fold: Fold) -> str:
    c = fold.config
    return (f"fold {fold.index + 1}: train {fold.train:.4f}  validation {fold.validation:.4f} "
            f"(start config {fold.validation_default:.4f})  alpha {c.alpha:.3f} beta {c.beta:.3f} "
            f"gamma {c.gamma:.3f} delta {c.delta:.3f} weights {','.join(f'{w:.3f}' for w in c.weights)}")


def _finite_or_null(value):
    """``value`` with every NaN or infinity (e.g. a fold's undefined correlation) as None (JSON null)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite_or_null(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite_or_null(v) for v in value]
    return value


def run(args, out: TextIO) -> None:
    """Run ``tune``: bad input and settings raise :class:`~meteor_metric.cli.common.InputError` (exit 2)."""
    from ..analysis.tuning import TuningWarning

    with warnings.catch_warnings():
        warnings.simplefilter("always", TuningWarning)  # each reaches the command line's handler (once each)
        try:
            _tune(args, out)
        except (ValueError, FileNotFoundError) as exc:
            raise InputError(str(exc)) from None


def _tune(args, out: TextIO) -> None:
    from ..analysis.tuning import Config, tune

    checked_outputs([("--out", args.out)], [("--data", path) for path in args.data])
    name = args.name or safe_preset_name(os.path.splitext(os.path.basename(args.out))[0])
    if not NAME.fullmatch(name):
        raise TuneInputError(f"--name must be {PRESET_NAME_HELP} (it is printed in signatures), got {name!r}")
    params = resolve_params(args.lang, args.task, modules=args.modules)
    meteor = Meteor.from_params(params)
    print(f"aligning {len(args.data)} set(s) once ({'+'.join(params.modules)}) ...", file=sys.stderr)
    sets = load_sets(args, meteor)
    start = Config(params.weights, *params.parameters)
    result = tune(sets, args.objective, start, folds=args.folds, seed=args.seed,
                  report=lambda f: print(_fold_line(f), file=out, flush=True),
                  random_starts=args.random_starts, max_evals=args.max_evals)
    if not math.isfinite(result.final.train):
        raise TuneInputError(f"the {args.objective} correlation on all the data is {result.final.train} (too few or "
                             f"constant judgments within the sets): nothing was fitted and no preset is written; "
                             "tune on more judgments that differ")
    c = result.final.config
    provenance = {
        "training_sets": [{"file": os.path.basename(p), "segments": ts.table.n_segments,
                           "judgments": len(ts.human)} for p, ts in zip(args.data, sets)],
        "objective": args.objective + (f" (tau-{args.kendall})" if args.objective == "seg-kendall" else ""),
        "start": {"task": params.task, "weights": list(start.weights), "parameters": list(start.parameters)},
        "cv": {"folds": args.folds, "seed": args.seed,
               "per_fold": [{"train": f.train, "validation": f.validation, "validation_start": f.validation_default}
                            for f in result.folds],
               "mean_validation": result.cv_validation, "mean_validation_start": result.cv_validation_default},
        "train_objective": result.final.train,
        "date": datetime.date.today().isoformat(),
    }
    data = preset_dict(name, params.language, params.modules, c.weights, c.parameters,
                       description=f"tuned by meteor-metric tune on {len(sets)} set(s)", provenance=provenance)
    with atomic_output(args.out) as f:
        json.dump(_finite_or_null(data), f, indent=1, allow_nan=False)
        f.write("\n")
    if result.folds:
        print(f"cross-validation: mean validation {result.cv_validation:.4f} "
              f"(start config {result.cv_validation_default:.4f})", file=out)
    print(f"all data: {args.objective} {result.final.train:.4f}; alpha {c.alpha:.4f} beta {c.beta:.4f} "
          f"gamma {c.gamma:.4f} delta {c.delta:.4f} weights {','.join(f'{w:.4f}' for w in c.weights)}\n"
          f"wrote {args.out}", file=out)
