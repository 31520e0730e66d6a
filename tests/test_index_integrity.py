"""The English paraphrase index in new processes: shipped, damaged, rebuilt once, scoring the jar's numbers.

The expected numbers are the jar's own (``examples/jar-scores.json``, from benchmarks/jar.py: pycocoevalcap
1.2's meteor-1.5.jar on examples/hyp.txt and ref.txt).
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import shutil
import sys
from pathlib import Path

import pytest

from meteor_metric import Meteor
from meteor_metric.meteor15 import paraphrase as pp
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound, find_paraphrase_table
from meteor_metric.meteor15.paraphrase_index import read_header

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
GOLDEN = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))["one_ref"]
HYPS = (EXAMPLES / "hyp.txt").read_text(encoding="utf-8").splitlines()
REFS = (EXAMPLES / "ref.txt").read_text(encoding="utf-8").splitlines()
PROCESSES = 4


@pytest.fixture(scope="module")
def english_table() -> Path:
    try:
        table = find_paraphrase_table("en")
    except ParaphraseTableNotFound as exc:
        pytest.skip(f"no English paraphrase table installed: {exc}")
    if not pp.shipped_indexes():
        pytest.skip("no shipped index (run scripts/build_shipped_paraphrase_index.py)")
    return table


def _score_in_child(cache: Path, shipped: Path, barrier, queue) -> None:
    """Score the example in this (forked) process with ``shipped`` as the only shipped index."""
    pp.shipped_indexes = lambda: [shipped]
    builds, warnings = [], []
    real_build = pp.build_index
    pp.build_index = lambda *args, **kwargs: (builds.append(1), real_build(*args, **kwargs))
    handler = logging.Handler()
    handler.emit = lambda record: warnings.append(record.getMessage())
    logging.getLogger("meteor_metric").addHandler(handler)
    barrier.wait()
    result = Meteor(cache_dir=str(cache)).corpus_score(HYPS, REFS)
    queue.put((len(builds), warnings, result.score, [s.stats.to_line() for s in result.segments]))


def run_processes(cache: Path, shipped: Path) -> list[tuple]:
    ctx = multiprocessing.get_context("fork")
    barrier, queue = ctx.Barrier(PROCESSES), ctx.Queue()
    procs = [ctx.Process(target=_score_in_child, args=(cache, shipped, barrier, queue)) for _ in range(PROCESSES)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=900) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    return results


def assert_jar_numbers(results: list[tuple]) -> None:
    for _, _, score, stats_lines in results:
        assert abs(score - GOLDEN["final_score"]) <= 1e-12
        assert stats_lines == GOLDEN["stats_lines"]


def test_processes_on_an_empty_cache_map_the_shipped_index(english_table, tmp_path):
    results = run_processes(tmp_path / "cache", pp.shipped_indexes()[0])
    assert [r[0] for r in results] == [0] * PROCESSES  # nothing compiled
    assert not list((tmp_path / "cache").glob("*.idx"))
    assert_jar_numbers(results)


def test_body_damaged_index_is_detected_rebuilt_once_and_scores_the_jar_value(english_table, tmp_path):
    damaged = tmp_path / "shipped" / "paraphrase-en.idx"
    damaged.parent.mkdir()
    shutil.copyfile(pp.shipped_indexes()[0], damaged)
    data = bytearray(damaged.read_bytes())
    for name in ("tok", "start"):  # a byte in the middle of the body, not the header
        lo, hi = read_header(data).sections[name]
        data[(lo + hi) // 2] ^= 0x04
    damaged.write_bytes(bytes(data))
    results = run_processes(tmp_path / "cache", damaged)
    assert sum(r[0] for r in results) == 1  # one process compiled; the others waited and mapped its file
    for _, warnings, _, _ in results:
        assert any("damaged" in w and "tok" in w and "start" in w for w in warnings), warnings
    assert len(list((tmp_path / "cache").glob("*.idx"))) == 1
    assert_jar_numbers(results)
