"""``evaluate.load`` of the installed package in a fresh process: offline, empty HOME, no nltk_data.

Oracles: the jar's scores of the example files (examples/jar-scores.json) for meteor-1.5, and
NLTK 3.10.4's own scores (tests/data/nltk, from shared/conformance/nltk) for the nltk profile. The
original profile has no external implementation; its plugin numbers must equal the Python API's.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

import meteor_metric
from meteor_metric.core.corpus_io import read_lines

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
NLTK_ROWS = REPO / "tests" / "data" / "nltk" / "edge_cases.jsonl.gz"
TOLERANCE = 1e-12

# Runs in the fresh process: every job through evaluate.load, once by compute() and once by add_batch().
JOBS = textwrap.dedent("""
    import json, sys
    import evaluate, meteor_metric
    jobs = json.load(open(sys.argv[1], encoding="utf-8"))
    out = []
    for job in jobs:
        metric = evaluate.load(meteor_metric.EVALUATE_MODULE, job["profile"])
        options = dict(normalization=job["normalization"], return_segment_scores=True)
        direct = metric.compute(predictions=job["predictions"], references=job["references"], **options)
        for k in range(0, len(job["predictions"]), 7):
            metric.add_batch(predictions=job["predictions"][k:k + 7], references=job["references"][k:k + 7])
        batched = metric.compute(**options)
        out.append({"compute": direct, "add_batch": batched})
    print(json.dumps(out))
""")


def _nltk_rows() -> list[dict]:
    with gzip.open(NLTK_ROWS, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    # default parameters, texts that str.split() tokenizes like the goldens
    return [r for r in rows if (r["params"]["alpha"], r["params"]["beta"], r["params"]["gamma"]) == (0.9, 3.0, 0.5)]


def _jobs() -> list[tuple[dict, list[float], float]]:
    """(job, expected segment scores, expected system score or None)."""
    hyps = read_lines(str(EXAMPLES / "hyp.txt"))
    ref1 = read_lines(str(EXAMPLES / "ref.txt"))
    ref2 = read_lines(str(EXAMPLES / "ref2.txt"))
    two = [[a, b] for a, b in zip(ref1, ref2)]
    jobs = [
        ({"profile": "meteor-1.5", "normalization": None, "predictions": hyps, "references": ref1},
         JAR["one_ref"]["segment_scores"], JAR["one_ref"]["final_score"]),
        ({"profile": "meteor-1.5", "normalization": None, "predictions": hyps, "references": two},
         JAR["two_refs"]["segment_scores"], JAR["two_refs"]["final_score"]),
    ]
    rows = _nltk_rows()
    for wanted in (1, 2):
        chosen = [r for r in rows if (len(r["refs"]) == 1) == (wanted == 1)][:40]
        jobs.append(({"profile": "nltk", "normalization": "split", "predictions": [r["hyp"] for r in chosen],
                      "references": [r["refs"] for r in chosen]},
                     [r["expected"]["score"] for r in chosen], None))
    original = meteor_metric.get_scorer("original")
    for refs in (ref1, two):
        result = original.corpus_score(hyps, refs)
        jobs.append(({"profile": "original", "normalization": None, "predictions": hyps, "references": refs},
                     result.segment_scores, result.score))
    return jobs


def test_load_and_score_offline_in_a_fresh_process(tmp_path):
    jobs = _jobs()
    spec = tmp_path / "jobs.json"
    spec.write_text(json.dumps([job for job, _, _ in jobs]), encoding="utf-8")
    script = tmp_path / "run.py"
    script.write_text(JOBS, encoding="utf-8")
    home, nltk_data, work = tmp_path / "home", tmp_path / "nltk_data", tmp_path / "elsewhere"
    for d in (home, nltk_data, work):
        d.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HF_", "XDG_", "METEOR_METRIC_", "NLTK_")) and k != "HOME"}
    # an empty HOME also means an empty meteor-metric cache: the paraphrase index is built here
    env.update(HOME=str(home), HF_EVALUATE_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1",
               NLTK_DATA=str(nltk_data))
    proc = subprocess.run([sys.executable, str(script), str(spec)], cwd=work, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert not any(nltk_data.iterdir()), "something wrote to nltk_data"
    results = json.loads(proc.stdout.splitlines()[-1])
    for (job, segment_scores, system_score), got in zip(jobs, results):
        for mode in ("compute", "add_batch"):
            result = got[mode]
            assert result["signature"].startswith({"meteor-1.5": "meteor-1.5|", "nltk": "meteor-nltk|",
                                                   "original": "meteor-original|"}[job["profile"]])
            if job["profile"] == "nltk":  # bitwise; the system score is HF's np.mean of them
                assert result["scores"] == segment_scores
                assert result["meteor"] == float(np.mean(segment_scores))
            else:
                assert all(abs(a - b) <= TOLERANCE for a, b in zip(result["scores"], segment_scores))
                assert abs(result["meteor"] - system_score) <= TOLERANCE
