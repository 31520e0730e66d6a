"""Conformance with Java METEOR 1.5 (the pycocoevalcap 1.2 jar): stats lines identical, scores within 1e-12.

Golden values were produced by the jar itself (tests/data/java15/PROVENANCE.json). The full files in
../shared/conformance are checked when present; a 1-in-10 sample is kept in tests/data.
"""

from __future__ import annotations

import json

import pytest

from conformance import JAVA15, SHARED, read_jsonl, scorer_for
from meteor_metric import MeteorStats
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound

pytestmark = pytest.mark.usefixtures("engine")  # each test under both engines (tests/conftest.py)
TOLERANCE = 1e-12  # the jar's Math.pow is not correctly rounded (1 ulp on 13 of 26,628 rows)


def _scorer(args):
    try:
        return scorer_for(tuple(args))
    except ParaphraseTableNotFound as exc:
        pytest.skip(f"no paraphrase table installed: {exc}")


def check_row(row: dict, collect: list | None = None, got=None) -> list[str]:
    """Differences between our result (``got``, else ``sentence_score``) and the jar's for one golden row
    (our stats go to ``collect``)."""
    if got is None:
        got = _scorer(row["config"]["args"]).sentence_score(row["hyp"], row["refs"])
    exp = row["expected"]
    if collect is not None:
        collect.append(got.stats)
    problems = []
    if got.stats.to_line() != exp["stats_line"]:
        problems.append(f"stats {got.stats.to_line()} != {exp['stats_line']}")
    if not abs(got.score - exp["score"]) <= TOLERANCE:
        problems.append(f"score {got.score!r} != {exp['score']!r}")
    if got.best_ref != exp.get("best_ref", 0):
        problems.append(f"best_ref {got.best_ref} != {exp.get('best_ref', 0)}")
    if exp.get("alignment") is not None and [m.as_list() for m in got.alignment] != exp["alignment"]:
        problems.append(f"alignment {[m.as_list() for m in got.alignment]} != {exp['alignment']}")
    return [f"{row['id']}: {p}" for p in problems]


def batched(rows, size: int = 700):
    """(row, result) with each run of rows of one configuration scored together by ``score_pairs``
    (the batch beam search of corpus scoring and the CLI), at most ``size`` rows at a time."""
    run: list[dict] = []
    for row in rows:
        if run and (row["config"]["args"] != run[0]["config"]["args"] or len(run) == size):
            yield from _score_run(run)
            run = []
        run.append(row)
    if run:
        yield from _score_run(run)


def _score_run(run: list[dict]):
    scorer = _scorer(run[0]["config"]["args"])
    return zip(run, scorer.score_pairs([(r["hyp"], r["refs"]) for r in run]))


EDGE_ROWS = list(read_jsonl(JAVA15 / "edge_cases.jsonl.gz"))


@pytest.mark.parametrize("row", EDGE_ROWS, ids=[r["id"] for r in EDGE_ROWS])
def test_edge_case(row):
    assert check_row(row) == []


def _corpus_groups():
    return json.loads((JAVA15 / "edge_cases.corpus.json").read_text())["groups"]


@pytest.mark.parametrize("group", _corpus_groups(), ids=lambda g: g["config"]["name"])
def test_edge_corpus_score(group):
    by_id = {r["id"]: r for r in EDGE_ROWS}
    scorer = _scorer(group["config"]["args"])
    rows = [by_id[i] for i in group["ids"]]
    result = scorer.corpus_score([r["hyp"] for r in rows], [r["refs"] for r in rows])
    assert result.stats.to_line() == group["aggregate_stats_line"]
    assert abs(result.score - group["corpus_score"]) <= TOLERANCE


SAMPLES = ["tedtalks_zh-en", "tedtalks_en-de", "flickr8k_cf"]


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("path", ["sentence_score", "score_pairs"])
def test_real_data_sample(name, path):
    rows = list(read_jsonl(JAVA15 / f"{name}.sample.jsonl.gz"))
    scored = batched(rows) if path == "score_pairs" else ((row, None) for row in rows)
    problems = [p for row, got in scored for p in check_row(row, got=got)]
    assert len(rows) > 400
    assert problems[:20] == [] and not problems


@pytest.mark.parametrize("name", SAMPLES)
def test_real_data_full(name):
    """Every row of the full golden file (scored in batches, as corpus scoring and the CLI do), and the
    corpus score of every group and system."""
    path = SHARED / "java15" / f"{name}.jsonl.gz"
    if not path.exists():
        pytest.skip(f"{path} not present (full conformance files live in ../shared)")
    sidecar = json.loads((SHARED / "java15" / f"{name}.corpus.json").read_text())
    problems = []
    stats_by_group: dict = {}
    for row, got in batched(read_jsonl(path)):
        ours = stats_by_group.setdefault(row.get("variant", "all"), {}).setdefault(row.get("system"), [])
        problems += check_row(row, ours, got)
    assert problems[:20] == [] and not problems
    for group in sidecar["groups"]:
        scorer = _scorer(group["config"]["args"])
        systems = stats_by_group[group.get("variant", "all")]
        total = MeteorStats.sum(s for per_system in systems.values() for s in per_system)
        assert total.to_line() == group["aggregate_stats_line"]
        assert abs(scorer.score_stats(total).score - float(group["corpus_score"])) <= TOLERANCE
        for system, info in (group.get("per_system") or {}).items():
            got = scorer.score_stats(MeteorStats.sum(systems[system])).score
            assert abs(got - float(info["corpus_score"])) <= TOLERANCE, system
