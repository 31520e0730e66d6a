"""sacreBLEU's ``PairedTest`` with our METEOR vs ``meteor-metric compare``, on real multi-system WMT sets.

For each set: every MT system against the std reference, the first system (file order) the baseline;
paired bootstrap (1000 resamples) and approximate randomization (10000 trials), seed 12345 on both sides.
Prints, per system, both system scores (sacreBLEU's / 100) and both p-values, and counts where the
decision "significantly different at alpha" differs. The draws differ (sacreBLEU draws its own samples;
our p counts samples >= the observed statistic, sacreBLEU's >), so p-values differ by sampling noise;
the scores must be equal.

    python benchmarks/frameworks_paired_test.py [--out benchmarks/frameworks_paired_test.json]

Needs the sacrebleu extra and /work/shared/data/mt (or --data DIR).
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sacrebleu.significance import PairedTest

from meteor_metric.integrations.sacrebleu import METEOR

SETS = ("wmt21-tedtalks/zh-en", "wmt23-general-sxs/zh-en", "wmt21-tedtalks/en-de")
ALPHAS = (0.05, 0.01)


def load(data: Path, name: str) -> tuple[dict[str, list[str]], list[str]]:
    """(MT system -> hypotheses in segment order, std references)."""
    hyps: dict[str, list[str]] = {}
    refs: dict[int, str] = {}
    with gzip.open(data / f"{name}.seg.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if not row["is_human"]:
                hyps.setdefault(row["system"], []).append(row["hyp"])
                refs.setdefault(row["seg_id"], row["ref"])
    return hyps, list(refs.values())


def ours(hyps: dict[str, list[str]], refs: list[str], folder: Path) -> dict:
    """``meteor-metric compare --test both --format json`` on the systems, as files."""
    args = [sys.executable, "-m", "meteor_metric", "compare", "--test", "both", "--format", "json", "--seed", "12345"]
    (folder / "ref.txt").write_text("".join(r.replace("\n", " ") + "\n" for r in refs), encoding="utf-8")
    for k, (name, lines) in enumerate(hyps.items()):
        path = folder / f"sys{k}.txt"
        path.write_text("".join(h.replace("\n", " ") + "\n" for h in lines), encoding="utf-8")
        args += ["--hyp", str(path), "--name", name]
    out = subprocess.run(args + ["--ref", str(folder / "ref.txt")], capture_output=True, text=True, check=True)
    return {s["name"]: s for s in json.loads(out.stdout)["systems"]}


def theirs(hyps: dict[str, list[str]], refs: list[str], test: str) -> dict:
    """sacreBLEU's ``PairedTest`` with :class:`METEOR` (its default sample counts: bs 1000, ar 10000)."""
    _, scores = PairedTest(list(hyps.items()), {"METEOR": METEOR()}, [refs], test_type=test)()
    return {name: result for name, result in zip(scores["System"], scores["METEOR"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/mt"))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    report = {}
    for name in SETS:
        hyps, refs = load(args.data, name)
        start = time.process_time()
        with tempfile.TemporaryDirectory() as tmp:
            mine = ours(hyps, refs, Path(tmp))
        sb = {test: theirs(hyps, refs, test) for test in ("bs", "ar")}
        rows = []
        for system in hyps:
            row = {"system": system, "ours": mine[system]["score"], "sacrebleu": sb["bs"][system].score / 100,
                   "sacrebleu_ar": sb["ar"][system].score / 100}
            for test, key in (("bs", "paired-bs"), ("ar", "paired-ar")):
                row[f"p_{test}_ours"] = mine[system]["p_values"][key]
                row[f"p_{test}_sacrebleu"] = sb[test][system].p_value
            rows.append(row)
        max_diff = max(abs(100 * r["ours"] - 100 * r["sacrebleu"]) for r in rows)
        same_ar = all(r["sacrebleu"] == r["sacrebleu_ar"] for r in rows)
        disagreements = {f"{test}@{alpha}": [r["system"] for r in rows[1:]
                                             if (r[f"p_{test}_ours"] < alpha) != (r[f"p_{test}_sacrebleu"] < alpha)]
                         for test in ("bs", "ar") for alpha in ALPHAS}
        report[name] = {"systems": len(hyps), "segments": len(refs), "max_abs_score_diff_x100": max_diff,
                        "bs_and_ar_scores_equal": same_ar, "decision_disagreements": disagreements, "rows": rows,
                        "cpu_seconds_this_process": round(time.process_time() - start, 1)}
        print(f"\n{name}: {len(hyps)} systems x {len(refs)} segments, baseline {rows[0]['system']}; "
              f"max |100*ours - sacrebleu| = {max_diff!r}")
        print(f"{'system':<24}{'ours':>10}{'sacrebleu':>11}{'p_bs ours':>11}{'p_bs sb':>9}{'p_ar ours':>11}"
              f"{'p_ar sb':>9}")
        for r in rows:
            fmt = (lambda p: "-" if p is None else f"{p:.4f}")
            print(f"{r['system']:<24}{100 * r['ours']:>10.4f}{r['sacrebleu'] * 100:>11.4f}"
                  f"{fmt(r['p_bs_ours']):>11}{fmt(r['p_bs_sacrebleu']):>9}{fmt(r['p_ar_ours']):>11}"
                  f"{fmt(r['p_ar_sacrebleu']):>9}")
        print("decisions that differ:", disagreements)
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
