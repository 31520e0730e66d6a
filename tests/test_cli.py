"""The command line: output formats and errors that name the problem."""

import json
import subprocess
import sys

import pytest

from meteor_metric.cli import main

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
    assert set(out) == {"score", "segment_scores", "segment_stats", "signature"}
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
    assert f"{hyp} has 3 lines, {ref} has 2" in err


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


@pytest.mark.parametrize("args, message", [
    (["--lang", "da"], "no normalizer for danish"),
    (["--no-norm", "--no-punct"], "--no-punct only works with --norm"),
    (["--weights", "1.0"], "1 weights for 2 modules"),
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
