"""Threads share one scorer safely; no resource or cache file is unpickled or evaluated.

Thread results are compared with the jar's scores of the example files (examples/jar-scores.json).
Multi-process scoring (`--workers`), evaluate's distributed mode and concurrent paraphrase-index
builds are tested in test_cli.py, test_evaluate_plugin.py and test_paraphrase.py.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import meteor_metric
from meteor_metric import Meteor
from meteor_metric.core.corpus_io import read_lines
from meteor_metric.profiles.nltk_profile import NltkMeteor
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
HYPS = read_lines(str(EXAMPLES / "hyp.txt"))
REFS = read_lines(str(EXAMPLES / "ref.txt"))


def test_threads_sharing_one_fresh_scorer_get_the_jars_scores():
    try:
        meteor = Meteor()  # fresh: its caches fill while four threads use it
    except ParaphraseTableNotFound as exc:
        pytest.skip(str(exc))
    nltk = NltkMeteor()
    order = [k % len(HYPS) for k in range(0, 7 * len(HYPS), 7)] * 4

    def score(k: int) -> tuple[float, float]:
        return meteor.sentence_score(HYPS[k], REFS[k]).score, nltk.sentence_score(HYPS[k], REFS[k]).score

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(score, order))
    for k, (score_15, score_nltk) in zip(order, results):
        assert abs(score_15 - JAR["one_ref"]["segment_scores"][k]) <= 1e-12
        assert score_nltk == nltk.sentence_score(HYPS[k], REFS[k]).score


UNSAFE = re.compile(r"\b(pickle|marshal|shelve|dill|cloudpickle)\b|\beval\(|\bexec\(|yaml\.load\(")


def test_no_code_loads_data_by_unpickling_or_evaluating():
    """Resource and cache files are parsed as data: text, JSON, gzip, or the checked binary index."""
    offenders = []
    for path in sorted((REPO / "meteor_metric").rglob("*.py")) + [REPO / "app.py"]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if UNSAFE.search(code) and "__reduce__" not in code:
                offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert offenders == []


def test_package_resources_cannot_escape_the_package():
    from meteor_metric.resources import resource_path

    with pytest.raises(ValueError):
        resource_path("..", "..", "etc", "passwd")
    assert resource_path("function", "english.words").is_file()
    assert Path(meteor_metric.__file__).parent in resource_path("function", "english.words").parents
