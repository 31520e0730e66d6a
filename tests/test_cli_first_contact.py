"""The CLI as a new user meets it (run as a subprocess): other tools' habits get a rewritten command, a flag
given twice is never silently dropped, ranges and lists, plurals, files named once, signatures with nrefs.

Scores are the jar's (``examples/jar-scores.json``: pycocoevalcap 1.2's meteor-1.5.jar on the examples).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
HYP, REF, REF2 = (str(EXAMPLES / name) for name in ("hyp.txt", "ref.txt", "ref2.txt"))
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))


def cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "meteor_metric", *argv], capture_output=True, text=True,
                          timeout=300, cwd=REPO)


def error_line(proc: subprocess.CompletedProcess) -> str:
    """The last stderr line (argparse puts the one-line usage before it)."""
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    return proc.stderr.strip().splitlines()[-1]


def test_repeated_hyp_in_score_points_to_compare():
    line = error_line(cli("score", "--hyp", HYP, "--hyp", REF2, "--ref", REF, "-b"))
    assert line == (f"meteor-metric score: error: argument --hyp: score scores one system, got --hyp {HYP} and "
                    f"--hyp {REF2}; to compare systems use 'meteor-metric compare --hyp {HYP} --hyp {REF2} "
                    "--ref ...' (paired significance tests), or run 'score' once per system")


@pytest.mark.parametrize("argv, flags", [
    (["score", "--hyp", HYP, "--ref", REF, "--format", "text", "--json"], "--format text and --json"),
    (["score", "--hyp", HYP, "--ref", REF, "-w", "3", "--width", "5"], "-w 3 and --width 5"),
    (["score", "--hyp", HYP, "--ref", REF, "--lang", "en", "-l", "de"], "--lang en and -l de"),
    (["align", "--hyp", HYP, "--ref", REF, "--segments", "1", "--segments", "2"], "--segments 1 and --segments 2"),
    (["compare", "--hyp", HYP, "--hyp", REF2, "--ref", REF, "--seed", "1", "--seed", "2"], "--seed 1 and --seed 2"),
    (["cache", "build", "--lang", "en", "-l", "de"], "--lang en and -l de"),
    (["tune", "--data", "x.jsonl", "--out", "a.json", "--out", "b.json"], "--out a.json and --out b.json"),
])
def test_a_flag_of_one_value_given_twice_with_different_values_is_refused(argv, flags):
    assert error_line(cli(*argv)).endswith(f"given twice with different values ({flags}): give it once")


def test_the_same_value_twice_and_append_flags_are_fine():
    proc = cli("score", "--hyp", HYP, "--ref", REF, "--ref", REF2, "--json", "--format", "json", "-l", "en")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert abs(out["score"] - JAR["two_refs"]["final_score"]) <= 1e-12 and "|nrefs:2|" in out["signature"]


def test_dash_l_is_lang():
    proc = cli("score", "--hyp", HYP, "--ref", REF, "-l", "en", "-b")
    assert proc.returncode == 0 and float(proc.stdout) == pytest.approx(JAR["one_ref"]["final_score"], abs=1e-12)


@pytest.mark.parametrize("argv, suggestion, why", [
    (["score", "-i", "h.txt", "-r", "r.txt"], "meteor-metric score --hyp h.txt --ref r.txt", "-i is --hyp; -r is --ref"),
    (["score", "h.txt", "r.txt"], "meteor-metric score --hyp h.txt --ref r.txt",
     "files come after --hyp and --ref: the jar's order, hypotheses then references"),
    (["score", "r.txt", "-i", "h.txt", "-l", "en"], "meteor-metric score --hyp h.txt -l en --ref r.txt",
     "-i is --hyp; files come after --ref"),  # sacrebleu: REF -i HYP
    (["score", "--hyp", "h.txt", "--ref", "a.txt", "b.txt"], "meteor-metric score --hyp h.txt --ref a.txt --ref b.txt",
     "--ref takes one file: repeat it for each reference set"),
    (["align", "h.txt", "r.txt", "-norm", "-t", "rank"], "meteor-metric align --norm --task rank --hyp h.txt --ref r.txt",
     "-norm is --norm; -t is --task; files come after --hyp and --ref"),
    (["compare", "--hyp", "a.txt", "--hyp", "b.txt", "--ref", "r1.txt", "r2.txt"],
     "meteor-metric compare --hyp a.txt --hyp b.txt --ref r1.txt --ref r2.txt", "--ref takes one file"),
])
def test_other_tools_shapes_get_the_command_rewritten(argv, suggestion, why):
    proc = cli(*argv)
    assert proc.stderr.startswith(f"usage: meteor-metric {argv[0]} --hyp FILE ")
    assert len(proc.stderr.splitlines()) == 2  # the one-line usage, then the error
    line = error_line(proc)
    assert f"; did you mean '{suggestion}'? (" in line and why in line


def test_the_rewritten_command_runs():
    proc = cli("score", HYP, REF, "-b")
    fixed = error_line(proc).split("did you mean '")[1].split("'?")[0].split()
    assert fixed[:2] == ["meteor-metric", "score"]
    rerun = cli(*fixed[1:])
    assert rerun.returncode == 0 and float(rerun.stdout) == pytest.approx(JAR["one_ref"]["final_score"], abs=1e-12)


def test_segments_ranges_and_lists():
    proc = cli("align", "--hyp", HYP, "--ref", REF, "--segments", "3,1-2,2", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    segments = json.loads(proc.stdout)["segments"]
    assert [s["segment"] for s in segments] == [1, 2, 3]
    assert [s["score"] for s in segments] == pytest.approx(JAR["one_ref"]["segment_scores"][:3], abs=1e-12)
    assert error_line(cli("align", "--hyp", HYP, "--ref", REF, "--segments", "5-3")) == \
        "meteor-metric: error: --segments 5-3 is reversed: write 3-5"
    assert error_line(cli("align", "--hyp", HYP, "--ref", REF, "--segments", "1,101")) == \
        "meteor-metric: error: --segments 101 is outside 1-100 (the input has 100 segments)"
    assert "comma-separated list" in error_line(cli("align", "--hyp", HYP, "--ref", REF, "--segments", "1;3"))


def test_plurals_and_each_file_named_once(tmp_path):
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text("a cat\n", encoding="utf-8")
    two.write_text("a cat\na dog\n", encoding="utf-8")
    line = error_line(cli("score", "--hyp", str(two), "--ref", str(one), "--ref", str(one)))
    assert line == (f"meteor-metric: error: line counts differ: {two} has 2 lines, {one} has 1 line; "
                    f"{one} ended before line 2")


def test_compare_with_one_system_explains_itself():
    assert error_line(cli("compare", "--hyp", HYP, "--ref", REF)) == (
        "meteor-metric: error: compare tests systems against each other and needs at least two (--hyp A --hyp B), "
        f"got one: {HYP}; to score one system use 'meteor-metric score --hyp {HYP} --ref ...'")


def _signatures(stdout: str) -> list[str]:
    """The signatures in text output (``Signature:`` lines) or JSON output (top level or per test)."""
    lines = [line.split("\t")[1] for line in stdout.splitlines() if line.startswith("Signature:")]
    if lines:
        return lines
    data = json.loads(stdout)
    return [data["signature"]] if "signature" in data else [t["signature"] for t in data["tests"].values()]


@pytest.mark.parametrize("command", [
    ["score"], ["score", "--confidence", "--confidence-n", "20"], ["score", "--format", "json"],
    ["align", "--segments", "1-3", "--format", "json"],
    ["compare", "--hyp", REF2, "--samples", "20"],
    ["compare", "--hyp", REF2, "--samples", "20", "--test", "both", "--format", "json"],
])
def test_every_signature_carries_nrefs(command):
    proc = cli(command[0], "--hyp", HYP, *command[1:], "--ref", REF, "--ref", REF2)
    assert proc.returncode == 0, proc.stderr
    signatures = _signatures(proc.stdout)
    assert signatures and all("|nrefs:2|version:" in s for s in signatures), signatures


def test_scoring_loads_neither_numpy_nor_tqdm():
    """``score`` imports what scoring needs: numpy (for --confidence, compare, report, tune) and tqdm (for a
    progress bar shown) cost 57 and 34 ms of start-up, a sixth of a short run's time. The score is the jar's."""
    from meteor_metric.meteor15.native_engine import resolve_engine

    if resolve_engine() != "native":  # (not built, or METEOR_METRIC_IMPL=python, which the command inherits)
        pytest.skip("the pure-Python engine aligns batches with numpy")
    code = ("import sys; from meteor_metric.cli.main import main; rc = main(sys.argv[1:]); "
            "print(sorted({'numpy', 'tqdm'} & set(sys.modules)), rc, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code, "score", "--hyp", HYP, "--ref", REF, "--format", "json"],
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert proc.stderr.strip().splitlines()[-1] == "[] 0", proc.stderr
    assert abs(json.loads(proc.stdout)["score"] - JAR["one_ref"]["final_score"]) <= 1e-12
