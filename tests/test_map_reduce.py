"""Corpus METEOR map-reduce style (meteor_metric.analysis.mapreduce): segment statistics are serializable and additive.

On Apache Spark (pyspark, local mode) the corpus score equals the single-process score, which the
jar's score of the example files (examples/jar-scores.json) pins down.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
from pathlib import Path

import pytest

from meteor_metric import MeteorStats
from meteor_metric.core.corpus_io import read_lines
from meteor_metric.analysis.mapreduce import add_vectors, contribution_vectors, corpus_score_of
from meteor_metric.core.stats import StatsTotal

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
HYPS = read_lines(str(EXAMPLES / "hyp.txt"))
REFS = [list(r) for r in zip(read_lines(str(EXAMPLES / "ref.txt")), read_lines(str(EXAMPLES / "ref2.txt")))]


@pytest.fixture(scope="module")
def meteor(default_meteor):
    return default_meteor


def test_contributions_sum_in_any_order_and_grouping(meteor):
    segments = [meteor.sentence_score(h, r).stats for h, r in zip(HYPS, REFS)]
    single = MeteorStats.sum(segments)
    vectors = [s.corpus_contribution().to_list() for s in segments]
    for seed in range(5):
        random.Random(seed).shuffle(vectors)
        cut = random.Random(seed).randrange(1, len(vectors))
        halves = [[sum(col) for col in zip(*part)] for part in (vectors[:cut], vectors[cut:])]
        total = MeteorStats.from_list([a + b for a, b in zip(*halves)], n_modules=4)
        assert total == single
    plain = StatsTotal(exclude_perfect_chunks=False)
    for s in segments:
        plain.add(MeteorStats.from_line(s.corpus_contribution().to_line()))
    assert plain.total == single
    assert abs(meteor.score_stats(single).score - JAR["two_refs"]["final_score"]) <= 1e-12


@pytest.mark.skipif(shutil.which("java") is None and not os.environ.get("JAVA_HOME"), reason="Spark needs Java")
def test_spark_local_mode_gives_the_single_process_score(meteor, monkeypatch):
    pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[spark]')")
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)  # Spark's workers run this interpreter
    spark = (pyspark.sql.SparkSession.builder.master("local[2]").appName("meteor-map-reduce")
             .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
    try:
        rdd = spark.sparkContext.parallelize(list(zip(HYPS, REFS)), numSlices=4)
        total = rdd.mapPartitions(contribution_vectors).reduce(add_vectors)
    finally:
        spark.stop()
    distributed = corpus_score_of(total).score
    single = meteor.corpus_score(HYPS, REFS).score
    assert distributed == single
    assert abs(distributed - JAR["two_refs"]["final_score"]) <= 1e-12
