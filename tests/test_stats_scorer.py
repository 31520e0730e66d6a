"""Statistics lines and scoring, against the jar's own stats lines, scores and corpus aggregates."""

import json
import math

import pytest

from conformance import JAVA15, read_jsonl
from meteor_metric import MeteorStats
from meteor_metric.core.javafmt import java_div, java_double_str, java_string_hash
from meteor_metric.meteor15.formula import compute_metrics

ROWS = list(read_jsonl(JAVA15 / "edge_cases.jsonl.gz")) + list(read_jsonl(JAVA15 / "tedtalks_zh-en.sample.jsonl.gz"))


def _score(stats, config):
    p = config["parameters"]
    return compute_metrics(stats, config["weights"], p["alpha"], p["beta"], p["gamma"], p["delta"])


def test_stats_line_round_trip():
    for row in ROWS:
        line = row["expected"]["stats_line"]
        assert MeteorStats.from_line(line, len(row["config"]["modules"])).to_line() == line


def test_score_from_jar_stats():
    """computeMetrics on the jar's statistics gives the jar's score, precision and recall."""
    for row in ROWS:
        exp = row["expected"]
        m = _score(MeteorStats.from_line(exp["stats_line"], len(row["config"]["modules"])), row["config"])
        assert abs(m.score - exp["score"]) <= 1e-12, row["id"]
        for got, text in ((m.precision, exp["precision_str"]), (m.recall, exp["recall_str"])):
            want = float(text)
            assert (math.isnan(got) and math.isnan(want)) or got == want, row["id"]


def test_corpus_aggregate_matches_jar():
    """Summing with the perfect-segment chunk rule reproduces the jar's aggregate line and corpus score."""
    groups = json.loads((JAVA15 / "edge_cases.corpus.json").read_text())["groups"]
    by_id = {r["id"]: r for r in ROWS}
    for g in groups:
        n_mod = len(g["config"]["modules"])
        total = MeteorStats.sum(MeteorStats.from_line(by_id[i]["expected"]["stats_line"], n_mod) for i in g["ids"])
        assert total.to_line() == g["aggregate_stats_line"], g["config"]["name"]
        assert abs(_score(total, g["config"]).score - g["corpus_score"]) <= 1e-12, g["config"]["name"]


def test_perfect_segment_adds_no_chunks():
    perfect = MeteorStats.from_line("3.0 3.0 1.0 1.0 2.0 2.0 1.0 1.0 " + "0.0 " * 12 + "1.0 3.0 3.0")
    broken = MeteorStats.from_line("3.0 3.0 1.0 1.0 2.0 2.0 1.0 1.0 " + "0.0 " * 12 + "2.0 3.0 3.0")
    assert perfect.is_perfect and not broken.is_perfect
    assert (perfect + perfect).chunks == 0
    assert (perfect + broken).chunks == 2


def test_stats_line_errors():
    with pytest.raises(ValueError, match="23 numbers"):
        MeteorStats.from_line("1.0 2.0")
    with pytest.raises(ValueError, match="whole numbers"):
        MeteorStats.from_line(" ".join(["-1.0"] * 23))
    with pytest.raises(ValueError, match="empty"):
        MeteorStats.sum([])


def test_java_double_format():
    assert [java_double_str(x) for x in (19.0, 0.85, 9.5e-4, 1e7, 0.001, -0.0, math.nan, 1.2345678e7)] == [
        "19.0", "0.85", "9.5E-4", "1.0E7", "0.001", "-0.0", "NaN", "1.2345678E7"]


def test_java_division():
    assert math.isnan(java_div(0.0, 0.0)) and java_div(1.0, 0.0) == math.inf and java_div(-1.0, 0.0) == -math.inf


@pytest.mark.parametrize("a, b", [("Aa", "BB"), ("aþ", "bß"), ("20s", "225"), ("q4", "or"), ("g7", "eu"),
                                  ("h2o", "fpo"), ("co", "e1"), ("ball-shaped", "gesso"), ("men's", "meles")])
def test_java_hash_collisions_the_jar_treats_as_equal(a, b):
    """Token pairs the jar matched as exact because their String.hashCode collides (conformance README)."""
    assert java_string_hash(a) == java_string_hash(b)


def test_java_hash_value():
    assert java_string_hash("hello") == 99162322  # "hello".hashCode() in Java
    assert java_string_hash("😀") == (31 * 0xD83D + 0xDE00)  # surrogate pair
