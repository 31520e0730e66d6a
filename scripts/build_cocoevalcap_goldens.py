#!/usr/bin/env python3
"""The real pycocoevalcap 1.2 ``COCOEvalCap.evaluate()``, with Java and patched without it, on caption data
turned into COCO annotation/result files; writes the Java run's scores as goldens for tests/test_coco_patch.py.

    python scripts/build_cocoevalcap_goldens.py [--set flickr8k-expert] [--rows N] [--keep DIR] [--no-write]

Each row of Flickr8k-Expert (5,822 rows, 1,000 Flickr images) or THumB (2,500 rows, 500 COCO images) becomes
one COCO image: its references are the annotations, its candidate caption the result (image ids 1..N in row order).
Two child processes run ``COCOEvalCap(coco, coco.loadRes(results)).evaluate()`` with pycocotools:

- ``java``: pycocoevalcap as installed (Java PTBTokenizer and METEOR), SPICE left out (it needs a CoreNLP download);
- ``patched``: ``meteor_metric.coco.patch_pycocoevalcap(spice=False)``, with no ``java`` on PATH and
  ``subprocess.Popen`` refusing to start any process.

It prints each metric's largest difference per image and overall, and both runs' wall and CPU time (children
included); then writes tests/data/coco/cocoevalcap_<set>[_<rows>].json.gz (the java run's scores; ``--no-write``: not).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_coco_goldens  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "coco"
SETS = {"flickr8k-expert": "flickr8k/expert", "thumb": "thumb-mscoco"}
METRICS = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr")


def coco_pair(name: str, rows: int | None = None, data: Path = build_coco_goldens.DATA) -> tuple[dict, list[dict]]:
    """(annotations, results) in COCO's caption format for the first ``rows`` rows (None: all) of a set of
    :data:`SETS`."""
    hyps, refs = (x[:rows] for x in build_coco_goldens.meteor_sets(data)[SETS[name]])
    images = [{"id": i} for i in range(1, len(hyps) + 1)]
    annotations, n = [], 0
    for image, image_refs in enumerate(refs, 1):
        for ref in image_refs:
            n += 1
            annotations.append({"image_id": image, "id": n, "caption": ref})
    annotations_file = {"info": {"description": f"{name} as COCO captions"}, "licenses": [], "type": "captions",
                        "images": images, "annotations": annotations}
    return annotations_file, [{"image_id": i, "caption": h} for i, h in enumerate(hyps, 1)]


def golden_name(name: str, rows: int | None) -> str:
    return f"{name}_{rows}" if rows else name


def write_pair(name: str, rows: int | None, folder: Path) -> tuple[Path, Path]:
    annotations, results = coco_pair(name, rows)
    stem = golden_name(name, rows)
    ann, res = folder / f"{stem}_annotations.json", folder / f"{stem}_results.json"
    ann.write_text(json.dumps(annotations), encoding="utf-8")
    res.write_text(json.dumps(results), encoding="utf-8")
    return ann, res


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refuse_processes() -> None:
    """Make every attempt to start a process fail loudly (the patched run must start none)."""
    def refuse(self, args, *rest, **kwargs):
        raise RuntimeError(f"a process was started: {args!r}")
    subprocess.Popen.__init__ = refuse


def evaluate(annotations: Path, results: Path, mode: str) -> dict:
    """COCOEvalCap.evaluate() in this process; ``mode`` java or patched (SPICE left out either way)."""
    import contextlib

    from pycocotools.coco import COCO

    from meteor_metric.integrations.pycocoevalcap_patch import leave_out_spice

    if mode == "patched":
        refuse_processes()
        from meteor_metric.coco import patch_pycocoevalcap
        patch_pycocoevalcap(spice=False)
    else:
        leave_out_spice()
    from pycocoevalcap.eval import COCOEvalCap

    with contextlib.redirect_stdout(sys.stderr):
        coco = COCO(str(annotations))
        coco_eval = COCOEvalCap(coco, coco.loadRes(str(results)))
        start = time.perf_counter()
        coco_eval.evaluate()
        seconds = time.perf_counter() - start
    return {"eval": coco_eval.eval, "images": {str(k): v for k, v in coco_eval.imgToEval.items()},
            "evaluate_seconds": seconds}


def run_child(annotations: Path, results: Path, mode: str, out: Path) -> dict:
    env = dict(os.environ)
    if mode == "patched":
        env["PATH"] = str(out.parent / "empty-path")  # no java (python is run by its full path)
        (out.parent / "empty-path").mkdir(exist_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--child", mode, "--annotations", str(annotations),
                    "--results", str(results), "--out", str(out)], check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = json.loads(out.read_text(encoding="utf-8"))
    result["wall_seconds"] = wall
    result["cpu_seconds"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result


def compare(java: dict, patched: dict) -> dict[str, tuple[float, float]]:
    """metric -> (largest per-image difference, overall difference)."""
    assert java["images"].keys() == patched["images"].keys()
    assert set(java["eval"]) == set(patched["eval"]) == set(METRICS), (java["eval"].keys(), patched["eval"].keys())
    return {m: (max(abs(java["images"][k][m] - patched["images"][k][m]) for k in java["images"]),
                abs(java["eval"][m] - patched["eval"][m])) for m in METRICS}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=SETS, default="flickr8k-expert")
    ap.add_argument("--rows", type=int, help="only the first N rows of the set (default: all)")
    ap.add_argument("--keep", type=Path, help="write the COCO files and both runs' scores into this folder")
    ap.add_argument("--no-write", action="store_true", help="do not write the golden file")
    ap.add_argument("--child", choices=("java", "patched"), help=argparse.SUPPRESS)
    ap.add_argument("--annotations", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--results", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        args.out.write_text(json.dumps(evaluate(args.annotations, args.results, args.child)), encoding="utf-8")
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        stem = golden_name(args.set, args.rows)
        ann, res = write_pair(args.set, args.rows, folder)
        runs = {mode: run_child(ann, res, mode, folder / f"{stem}_{mode}.json") for mode in ("java", "patched")}
        n = len(runs["java"]["images"])
        print(f"{args.set}: {n} images, SPICE left out in both runs")
        for metric, (per_image, overall) in compare(runs["java"], runs["patched"]).items():
            print(f"  {metric:8s} java {runs['java']['eval'][metric]:.6f}  patched {runs['patched']['eval'][metric]:.6f}"
                  f"  max |diff| per image {per_image}  overall {overall}")
        for mode, run in runs.items():
            print(f"  {mode:8s} evaluate() {run['evaluate_seconds']:.1f} s; process wall {run['wall_seconds']:.1f} s, "
                  f"CPU {run['cpu_seconds']:.1f} s (children included)")
        if not args.no_write:
            OUT.mkdir(parents=True, exist_ok=True)
            golden = {"oracle": "pycocoevalcap 1.2 COCOEvalCap.evaluate() with Java (PTBTokenizer: "
                                "stanford-corenlp-3.4.1.jar, METEOR: meteor-1.5.jar), SPICE left out",
                      "set": args.set, "rows": args.rows, "annotations_sha256": digest(ann), "results_sha256": digest(res),
                      "eval": runs["java"]["eval"],
                      "images": {k: [v[m] for m in METRICS] for k, v in runs["java"]["images"].items()},
                      "metrics": list(METRICS)}
            with gzip.open(OUT / f"cocoevalcap_{stem}.json.gz", "wt", encoding="utf-8") as f:
                json.dump(golden, f)


if __name__ == "__main__":
    main()
