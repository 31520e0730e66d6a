#!/usr/bin/env python3
"""How long the ``original`` profile takes on segments that make its exact search exponential (issue 15).

Times, on one process: random 36- and 60-word anagrams of 5 words at the default budget (API), a
1,800-word segment of 60 shuffled 30-word groups (API and CLI, default budget), a 1,979-character
pair of 22 groups with 16 references at the Space's budget, and 1,800-word ordinary-word segments with
16 references (work outside the search). Each row says whether the segment scored or was refused.

    python benchmarks/bench_original_budget.py
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from anagrams import anagram_groups, anagram_pair

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from app import SEARCH_BUDGET as SPACE_BUDGET  # noqa: E402
from meteor_metric import get_scorer  # noqa: E402


def _api(budget: int | None, hyp: str, refs: list[str]) -> tuple[float, str]:
    scorer = get_scorer("original") if budget is None else get_scorer("original", search_budget=budget)
    start = time.perf_counter()
    try:
        outcome = f"score {scorer.sentence_score(hyp, refs).score:.4f}"
    except ValueError as exc:
        outcome = f"refused ({str(exc)[:60]}...)"
    return time.perf_counter() - start, outcome


def _cli(hyp: str, refs: list[str]) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp, name) for name in ("hyp.txt", *(f"ref{k}.txt" for k in range(len(refs))))]
        for path, text in zip(paths, (hyp, *refs)):
            path.write_text(text + "\n")
        args = [sys.executable, "-m", "meteor_metric", "score", "--profile", "original", "-b", "--hyp", str(paths[0])]
        for path in paths[1:]:
            args += ["--ref", str(path)]
        start = time.perf_counter()
        proc = subprocess.run(args, capture_output=True, text=True, cwd=REPO)
    outcome = f"score {proc.stdout.strip()}" if proc.returncode == 0 else f"refused (exit {proc.returncode})"
    return time.perf_counter() - start, outcome


def _ordinary_words(n_words: int, seed: int) -> str:
    words = [w for w in (REPO / "README.md").read_text(encoding="utf-8").split() if w.isalpha()]
    rng = random.Random(seed)
    return " ".join(rng.choice(words) for _ in range(n_words))


def main() -> None:
    get_scorer("original").sentence_score("warm up", ["warm up"])
    many_groups = anagram_groups([3] * 60)
    rows = [
        ("36-word anagram of 5 words, default budget", _api(None, anagram_pair(36)[0], [anagram_pair(36)[1]])),
        ("60-word anagram of 5 words, default budget", _api(None, anagram_pair(60)[0], [anagram_pair(60)[1]])),
        ("1,800 words in 60 groups, default budget (API)", _api(None, *many_groups)),
        ("1,800 words in 60 groups, default budget (CLI)", _cli(*many_groups)),
        (f"1,979 chars, 22 groups, 16 refs, Space budget {SPACE_BUDGET:,}",
         _api(SPACE_BUDGET, *anagram_groups(list(range(22)), 30, 16))),
        ("1,800 ordinary words, 16 refs, default budget",
         _api(None, _ordinary_words(1800, 0), [_ordinary_words(1800, k) for k in range(1, 17)])),
        ('"the" x 1,800, 16 refs, default budget', _api(None, " ".join(["the"] * 1800), [" ".join(["the"] * 1800)] * 16)),
    ]
    for name, (seconds, outcome) in rows:
        print(f"{name:58s} {seconds:6.2f} s  {outcome}")


if __name__ == "__main__":
    main()
