"""The command line: output formats and errors that name the problem."""

import json
import random
import shlex
import shutil
import subprocess
import sys

from pathlib import Path

import pytest

from conformance import JAVA15, read_jsonl
from meteor_metric import Meteor
from meteor_metric.cli.main import main
from meteor_metric.core.corpus_io import CorpusFormatError, index_lines, read_lines
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound

FLAGS = ["--modules", "exact,stem", "--weights", "1.0,0.6"]


def _write(tmp_path, name, lines, mode="w"):
    p = tmp_path / name
    p.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(p)


def test_json_output(tmp_path, capsys):
    hyp = _write(tmp_path, "h.txt", ["the cat sat", "a dog"])
    r1 = _write(tmp_path, "r1.txt", ["the cat sat", "the dog"])
    r2 = _write(tmp_path, "r2.txt", ["cat", "a dog"])
    assert main(["score", "--hyp", hyp, "--ref", r1, "--ref", r2, "--json", *FLAGS]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"score", "precision", "recall", "fmean", "fragmentation_penalty", "chunks",
                        "segment_scores", "segment_stats", "signature"}
    assert out["segment_scores"] == [1.0, 1.0]
    assert out["segment_stats"][0] == "3.0 3.0 1.0 1.0 2.0 2.0 1.0 1.0 " + "0.0 " * 12 + "1.0 3.0 3.0"
    assert "|nrefs:2|" in out["signature"]


def test_plain_output(tmp_path, capsys):
    hyp = _write(tmp_path, "h.txt", ["the cat sat"])
    assert main(["score", "--hyp", hyp, "--ref", hyp, *FLAGS]) == 0
    out = capsys.readouterr().out
    assert "Segment 1 score:\t1.0\n" in out and "Final score:\t1.0\n" in out and "Signature:\tmeteor-1.5|" in out


def test_line_count_mismatch_names_files(tmp_path, capsys):
    hyp = _write(tmp_path, "h.txt", ["a", "b", "c"])
    ref = _write(tmp_path, "r.txt", ["a", "b"])
    assert main(["score", "--hyp", hyp, "--ref", ref, *FLAGS]) == 2
    err = capsys.readouterr().err
    assert f"{hyp} has 3 lines, {ref} has 2 lines" in err


def test_line_count_mismatch_counts_the_longer_files_to_the_end(tmp_path, capsys):
    hyp = _write(tmp_path, "h.txt", ["a", "b"])
    r1 = _write(tmp_path, "r1.txt", ["a", "b"])
    r2 = _write(tmp_path, "r2.txt", ["a", "b", "c", "d"])
    assert main(["score", "--hyp", hyp, "--ref", r1, "--ref", r2, *FLAGS]) == 2
    assert f"line counts differ: {hyp} has 2 lines, {r2} has 4 lines; {hyp}, {r1} ended before line 3\n" in \
        capsys.readouterr().err


def test_invalid_utf8_names_file_and_line(tmp_path, capsys):
    hyp = tmp_path / "h.txt"
    hyp.write_bytes(b"fine\nbad \xff byte\n")
    assert main(["score", "--hyp", str(hyp), "--ref", str(hyp), *FLAGS]) == 2
    assert f"{hyp}: line 2 is not valid UTF-8" in capsys.readouterr().err


def test_java_line_breaks(tmp_path, capsys):
    hyp = tmp_path / "h.txt"
    hyp.write_bytes(b"a b\r\nc d\re f\n")
    assert main(["score", "--hyp", str(hyp), "--ref", str(hyp), "--json", *FLAGS]) == 0
    assert len(json.loads(capsys.readouterr().out)["segment_scores"]) == 3


def test_counting_lines_counts_the_lines_reading_makes(tmp_path):
    """index_lines' count (the check pass of plain text) against read_lines (Java's line breaks, as above): \\r, \\r\\n
    and \\n, a byte order mark, empty lines, no final break, lines across the 64 KiB blocks, and a bad byte
    (the same error, naming the same line)."""
    rng = random.Random(4)
    pieces = [b"a", b"word ", "\u00e9\u4e2d".encode(), b"\n", b"\r", b"\r\n", b"\n\n", b"x" * 40000]
    cases = [b"", b"\n", b"\r", b"a", b"a\r\n", "\ufeff".encode() + b"a\nb", "\ufeff".encode(), b"\r" * 70000 + b"a"]
    cases += [b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 60))) for _ in range(60)]
    for k, data in enumerate(cases):
        path = tmp_path / f"{k}.txt"
        path.write_bytes(data)
        assert index_lines(str(path)).count == len(read_lines(str(path))), data[:80]
    path = tmp_path / "bad.txt"
    path.write_bytes(b"fine\r\n" * 30000 + b"bad \xff byte\n")
    for count in (index_lines, read_lines):
        with pytest.raises(CorpusFormatError, match="line 30001 is not valid UTF-8"):
            count(str(path))


@pytest.mark.parametrize("args, message", [
    (["--lang", "da"], "no normalizer for danish"),
    (["--no-norm", "--no-punct"], "--no-punct only works with --norm"),
    (["--weights", "1.0"], "1 weights for 2 modules"),
    (["--params", "0.9,3,0.5"], "--params must be 4 numbers (alpha beta gamma delta), got 3"),
    (["--profile", "nltk", "--params", "0.9,3"], "--params for --profile nltk is alpha,beta,gamma (3 numbers"),
])
def test_bad_flags(tmp_path, capsys, args, message):
    hyp = _write(tmp_path, "h.txt", ["a"])
    assert main(["score", "--hyp", hyp, "--ref", hyp, "--modules", "exact,stem", *args]) == 2
    assert message in capsys.readouterr().err


def test_missing_file(tmp_path, capsys):
    assert main(["score", "--hyp", str(tmp_path / "nope.txt"), "--ref", "x"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_module_entry_point_help():
    out = subprocess.run([sys.executable, "-m", "meteor_metric", "score", "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert "--hyp" in out and "exit status" in out


# -- input formats, output formats, workers and the align command (oracle: the jar's example scores) --

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
HYPS = read_lines(str(EXAMPLES / "hyp.txt"))
REFS = [read_lines(str(EXAMPLES / name)) for name in ("ref.txt", "ref2.txt")]


@pytest.fixture(scope="module")
def paraphrase_table(default_meteor):
    """Skips where no English paraphrase table is installed."""


def _cli(args, stdin=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "meteor_metric", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8")


def _assert_jar_json(stdout: str, golden: dict) -> None:
    out = json.loads(stdout)
    assert out["segment_stats"] == golden["stats_lines"]
    assert abs(out["score"] - golden["final_score"]) <= 1e-12


@pytest.mark.parametrize("layout", ["jsonl", "tsv", "jsonl+ref-files", "stdin", "pipes"])
def test_input_formats_give_the_jars_numbers(tmp_path, paraphrase_table, layout):
    if layout == "jsonl":
        path = tmp_path / "pairs.jsonl"
        path.write_text("".join(json.dumps({"hypothesis": h, "references": [a, b]}) + "\n"
                                for h, a, b in zip(HYPS, *REFS)), encoding="utf-8")
        proc = _cli(["score", "--hyp", str(path), "--json"])
    elif layout == "tsv":
        path = tmp_path / "pairs.tsv"
        path.write_text("".join(f"{h}\t{a}\t{b}\n" for h, a, b in zip(HYPS, *REFS)), encoding="utf-8")
        proc = _cli(["score", "--hyp", str(path), "--json"])
    elif layout == "jsonl+ref-files":
        path = tmp_path / "hyps.jsonl"
        path.write_text("".join(json.dumps(h) + "\n" for h in HYPS), encoding="utf-8")
        refs = tmp_path / "refs.jsonl"
        refs.write_text("".join(json.dumps([a, b]) + "\n" for a, b in zip(*REFS)), encoding="utf-8")
        proc = _cli(["score", "--hyp", str(path), "--ref", str(refs), "--json"])
    elif layout == "stdin":
        proc = _cli(["score", "--hyp", "-", "--ref", str(EXAMPLES / "ref.txt"), "--ref", str(EXAMPLES / "ref2.txt"),
                     "--json"], stdin="".join(h + "\n" for h in HYPS))
    else:  # every file a pipe that can be read once only, as bash's <(...) gives them
        if shutil.which("bash") is None:
            pytest.skip("needs bash for <(...)")
        pipes = " ".join(f"--ref <(cat {shlex.quote(str(EXAMPLES / name))})" for name in ("ref.txt", "ref2.txt"))
        proc = subprocess.run(["bash", "-c", f"{shlex.quote(sys.executable)} -m meteor_metric score "
                               f"--hyp <(cat {shlex.quote(str(EXAMPLES / 'hyp.txt'))}) {pipes} --json"],
                              capture_output=True, text=True, encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    _assert_jar_json(proc.stdout, JAR["two_refs"])


def test_tsv_and_text_output_carry_scores_and_signature(paraphrase_table):
    args = ["score", "--hyp", str(EXAMPLES / "hyp.txt"), "--ref", str(EXAMPLES / "ref.txt")]
    tsv = _cli(args + ["--format", "tsv"]).stdout.splitlines()
    assert tsv[0] == "segment\tscore\tstats" and len(tsv) == 102
    assert [line.split("\t")[2] for line in tsv[1:101]] == JAR["one_ref"]["stats_lines"]
    system, score, signature = tsv[101].split("\t")
    assert system == "system" and abs(float(score) - JAR["one_ref"]["final_score"]) <= 1e-12
    assert signature.startswith("meteor-1.5|") and "|nrefs:1|" in signature
    text = _cli(args).stdout
    assert all(f"Segment {k} score:\t" in text for k in (1, 100)) and f"Signature:\t{signature}\n" in text


def test_two_workers_give_byte_identical_output(paraphrase_table):
    for fmt in ("json", "tsv", "text"):
        args = ["score", "--hyp", str(EXAMPLES / "hyp.txt"), "--ref", str(EXAMPLES / "ref.txt"),
                "--ref", str(EXAMPLES / "ref2.txt"), "--format", fmt]
        one, two = _cli(args), _cli(args + ["--workers", "2"])
        assert one.returncode == two.returncode == 0, two.stderr
        assert one.stdout == two.stdout
        if fmt == "json":
            _assert_jar_json(two.stdout, JAR["two_refs"])
    assert _cli(args + ["--workers", "0"]).returncode == 2


def test_progress_bar_on_request(paraphrase_table):
    proc = _cli(["score", "--hyp", str(EXAMPLES / "hyp.txt"), "--ref", str(EXAMPLES / "ref.txt"), "--progress",
                 "--format", "tsv"])
    assert proc.returncode == 0 and "100/100" in proc.stderr
    quiet = _cli(["score", "--hyp", str(EXAMPLES / "hyp.txt"), "--ref", str(EXAMPLES / "ref.txt")])
    assert quiet.stderr == ""


def test_align_shows_the_jars_alignment(tmp_path):
    """Oracle: the jar's -writeAlignments for a stored edge case (tests/data/java15/edge_cases.jsonl.gz)."""
    row = next(r for r in read_jsonl(JAVA15 / "edge_cases.jsonl.gz") if r["config"]["name"] == "en_norm"
               and len(r["expected"]["alignment"]) >= 3 and len(r["refs"]) == 1 and r.get("stdio_safe", True)
               and "\t" not in r["hyp"] + r["refs"][0])
    path = tmp_path / "pair.tsv"
    path.write_text(f"{row['hyp']}\t{row['refs'][0]}\n", encoding="utf-8")
    try:
        Meteor()
    except ParaphraseTableNotFound as exc:
        pytest.skip(str(exc))
    out = json.loads(_cli(["align", "--hyp", str(path), "--format", "json"]).stdout)
    seg = out["segments"][0]
    modules = row["config"]["modules"]
    # the JSON counts words from 1; the stored jar alignment, like Match, from 0
    got = [[a["ref_position"] - 1, a["ref_len"], a["hyp_position"] - 1, a["hyp_len"], modules.index(a["module"])]
           for a in seg["alignment"]]
    assert got == row["expected"]["alignment"]
    assert " ".join(seg["hyp_tokens"]) == row["expected"]["norm_hyp"]
    text = _cli(["align", "--hyp", str(path)]).stdout
    assert text.startswith("Segment 1: score ") and "chunk 1" in text and "unmatched hyp:" in text


def test_align_segment_range(paraphrase_table):
    args = ["align", "--hyp", str(EXAMPLES / "hyp.txt"), "--ref", str(EXAMPLES / "ref.txt")]
    out = _cli(args + ["--segments", "3-5"]).stdout
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("Segment")] == \
        ["Segment 3", "Segment 4", "Segment 5"]
    bad = _cli(args + ["--segments", "0-500"])
    assert bad.returncode == 2 and "outside 1-100" in bad.stderr


@pytest.mark.parametrize("args, message", [
    (["--input-format", "tsv"], "line 1 has no tab"),
    (["--input-format", "jsonl"], "line 1 is not JSON"),
    (["--profile", "nltk", "--lang", "de"], "the nltk profile is English only (got --lang de); use --profile meteor-1.5"),
    ([], "needs at least one --ref FILE; if it holds the references too, say how: --input-format jsonl"),
])
def test_bad_input_names_the_problem(tmp_path, args, message):
    hyp = _write(tmp_path, "h.txt", ["a b", "c"])
    proc = _cli(["score", "--hyp", hyp, *args])
    assert proc.returncode == 2 and message in proc.stderr


@pytest.mark.parametrize("command", [[], ["score"], ["align"]])
def test_every_command_has_help_with_examples(command):
    out = _cli([*command, "--help"]).stdout
    assert "exit status" in out
    if command:
        assert "examples:" in out
