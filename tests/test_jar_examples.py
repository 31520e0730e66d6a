"""The command line on examples/ gives the jar's numbers (examples/jar-scores.json, from benchmarks/jar.py).

Stats lines must be identical and scores within 1e-12 (the jar's Math.pow is not correctly rounded). A second
test runs the jar itself on a few lines when java and pycocoevalcap's jar are installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
TOLERANCE = 1e-12

sys.path.insert(0, str(REPO / "benchmarks"))
import jar as jarlib  # noqa: E402  (benchmarks/jar.py)

from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")  # each test under both engines (tests/conftest.py)
GOLDEN = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
REF_SETS = {"one_ref": ["ref.txt"], "two_refs": ["ref.txt", "ref2.txt"]}


@pytest.fixture(scope="module", autouse=True)
def paraphrase_table():
    """Skip when the English paraphrase table (from pycocoevalcap) is not installed."""
    from meteor_metric import Meteor

    try:
        Meteor()
    except ParaphraseTableNotFound as exc:
        pytest.skip(f"no English paraphrase table installed: {exc}")


def run_cli(hyp: Path, refs: list[Path]) -> dict:
    cmd = [sys.executable, "-m", "meteor_metric", "score", "--hyp", str(hyp), "--json"]
    for ref in refs:
        cmd += ["--ref", str(ref)]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def differences(got: dict, stats_lines: list[str], segment_scores: list[float], final_score: float) -> list[str]:
    problems = []
    if len(got["segment_stats"]) != len(stats_lines) or len(got["segment_scores"]) != len(segment_scores):
        return [f"{len(got['segment_scores'])} segments, expected {len(segment_scores)}"]
    for k, (ours, theirs) in enumerate(zip(got["segment_stats"], stats_lines), 1):
        if ours != theirs:
            problems.append(f"segment {k} stats: {ours} != {theirs}")
    for k, (ours, theirs) in enumerate(zip(got["segment_scores"], segment_scores), 1):
        if not abs(ours - theirs) <= TOLERANCE:
            problems.append(f"segment {k} score: {ours!r} != {theirs!r}")
    if not abs(got["score"] - final_score) <= TOLERANCE:
        problems.append(f"system score: {got['score']!r} != {final_score!r}")
    return problems


@pytest.mark.parametrize("key", sorted(REF_SETS))
def test_cli_matches_recorded_jar_scores(key):
    expected = GOLDEN[key]
    assert expected["ref_files"] == [f"examples/{name}" for name in REF_SETS[key]]
    got = run_cli(EXAMPLES / "hyp.txt", [EXAMPLES / name for name in REF_SETS[key]])
    assert len(got["segment_scores"]) == 100
    problems = differences(got, expected["stats_lines"], expected["segment_scores"], expected["final_score"])
    assert problems[:20] == [] and not problems


def test_cli_matches_live_jar(tmp_path):
    reason = jarlib.available()
    if reason:
        pytest.skip(f"cannot run the Java jar: {reason}")
    hyps = jarlib.read_lines(EXAMPLES / "hyp.txt")[:5]
    refs = [jarlib.read_lines(EXAMPLES / name)[:5] for name in ("ref.txt", "ref2.txt")]
    # an empty hypothesis and an identical pair as well as the first real lines
    hyps += ["", refs[0][0]]
    refs[0] += ["a reference", refs[0][0]]
    refs[1] += ["another one", "something else"]
    hyp_file = tmp_path / "hyp.txt"
    ref_files = [tmp_path / "ref1.txt", tmp_path / "ref2.txt"]
    jarlib.write_lines(hyp_file, hyps)
    for path, lines in zip(ref_files, refs):
        jarlib.write_lines(path, lines)
    # one JVM start: SCORE gives the stats lines, EVAL the segment scores and the aggregate
    with jarlib.JarStdio() as jar:
        stats_lines = jar.score_many(hyps, [list(r) for r in zip(*refs)])
        segment_scores, final_score = jar.eval(stats_lines)
    got = run_cli(hyp_file, ref_files)
    problems = differences(got, stats_lines, segment_scores, final_score)
    assert problems == []
