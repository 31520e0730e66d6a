"""Outputs written atomically and never onto an input; preset names that cannot forge output lines;
``tune``'s input and output kept honest. The CLI runs in a subprocess.

Human judgments for ``tune`` are the segment scores of a METEOR configuration (exact matches,
alpha 0.5, beta 1.0, gamma 0.4, delta 0.6) on examples/hyp.txt and ref.txt, as in test_tuning.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_metric import Meteor
from meteor_metric.meteor15.presets import load_preset

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HYPS = (EXAMPLES / "hyp.txt").read_text(encoding="utf-8").splitlines()[:40]
REFS = (EXAMPLES / "ref.txt").read_text(encoding="utf-8").splitlines()[:40]
FAST = ["--modules", "exact", "--folds", "0", "--random-starts", "2", "--max-evals", "10"]


def cli(*args: str, prelude: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    """``meteor-metric ARGS`` in a new Python process (``prelude``: code run first, e.g. a patch)."""
    code = f"import sys\n{prelude}\nfrom meteor_metric.cli.main import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout)


def texts(tmp_path: Path) -> tuple[str, str, str]:
    """Two systems and a reference file (the first 40 example segments)."""
    a, b, r = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "r.txt"
    a.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    b.write_text("\n".join(h.upper() for h in HYPS) + "\n", encoding="utf-8")
    r.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    return str(a), str(b), str(r)


def report(a: str, b: str, r: str, *extra: str, prelude: str = "") -> subprocess.CompletedProcess:
    return cli("report", "--hyp", a, "--hyp", b, "--ref", r, "--modules", "exact", "--samples", "20",
               "--top", "2", *extra, prelude=prelude)


@pytest.fixture(scope="module")
def judged() -> list[dict]:
    target = Meteor(modules=["exact"], weights=[1.0], parameters=(0.5, 1.0, 0.4, 0.6))
    return [{"hypothesis": h, "references": [r], "human": target.sentence_score(h, r).score}
            for h, r in zip(HYPS, REFS)]


def write_jsonl(path: Path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def test_report_refuses_to_write_onto_an_input(tmp_path):
    a, b, r = texts(tmp_path)
    before = Path(b).read_bytes()
    for flag, target in (("--out", b), ("--markdown", os.path.join(tmp_path, ".", "r.txt"))):
        done = report(a, b, r, flag, target)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert f"{flag} {target} is the same file as" in done.stderr and "choose another" in done.stderr
    assert Path(b).read_bytes() == before
    same = report(a, b, r, "--out", str(tmp_path / "x.html"), "--markdown", str(tmp_path / "x.html"))
    assert same.returncode == 2 and "(another output)" in same.stderr


def test_a_failing_render_leaves_the_previous_reports_whole(tmp_path):
    a, b, r = texts(tmp_path)
    html, md = tmp_path / "report.html", tmp_path / "report.md"
    assert report(a, b, r, "--out", str(html), "--markdown", str(md)).returncode == 0
    previous = html.read_bytes(), md.read_bytes()
    assert previous[0].startswith(b"<!DOCTYPE html>") and previous[1].startswith(b"# METEOR comparison")
    patch = ("import meteor_metric.analysis.report as r\n"
             "def fail(report): raise OSError('No space left on device')\n"
             "r.render_markdown = fail")
    done = report(a, b, r, "--out", str(html), "--markdown", str(md), prelude=patch)
    assert done.returncode == 1 and "No space left on device" in done.stderr
    assert (html.read_bytes(), md.read_bytes()) == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt", "r.txt", "report.html", "report.md"]


def test_tune_refuses_to_write_onto_its_data(tmp_path, judged):
    data = write_jsonl(tmp_path / "data.jsonl", judged)
    before = Path(data).read_bytes()
    done = cli("tune", "--data", data, "--out", data, *FAST)
    assert done.returncode == 2 and f"--out {data} is the same file as --data {data}" in done.stderr
    assert Path(data).read_bytes() == before


def test_a_damaged_stats_cache_is_recomputed(tmp_path, judged):
    data, cache = write_jsonl(tmp_path / "data.jsonl", judged), tmp_path / "stats"
    first = cli("tune", "--data", data, "--out", str(tmp_path / "p.json"), "--stats-cache", str(cache), *FAST)
    assert first.returncode == 0, first.stderr
    (stored,) = cache.iterdir()
    sound = stored.read_bytes()
    stored.write_bytes(sound[:len(sound) // 2])  # a run killed while writing it
    again = cli("tune", "--data", data, "--out", str(tmp_path / "q.json"), "--stats-cache", str(cache), *FAST)
    assert again.returncode == 0 and "Traceback" not in again.stderr
    assert f"warning: the statistics cache {stored} is damaged" in again.stderr
    assert stored.read_bytes() == sound and list(cache.iterdir()) == [stored]
    assert load_preset(str(tmp_path / "q.json")).parameters == load_preset(str(tmp_path / "p.json")).parameters


FORGED = "x\nFinal score:\t0.9999\nSignature:\tmeteor-1.5|forged"


@pytest.mark.parametrize("name", [FORGED, "x|version:9.9.9", "x@y", "", " x", "a" * 65])
def test_a_preset_name_cannot_forge_output(tmp_path, name):
    preset = {"name": name, "language": "en", "modules": ["exact"], "weights": [1.0], "alpha": 0.9,
              "beta": 3.0, "gamma": 0.5, "delta": 0.5}
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(preset), encoding="utf-8")
    a, _, r = texts(tmp_path)
    done = cli("score", "--hyp", a, "--ref", r, "--params-file", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert "'name' must be 1-64 characters: ASCII letters, digits and . _ + - (not first)" in done.stderr


def test_tune_writes_only_safe_names(tmp_path, judged):
    data = write_jsonl(tmp_path / "data.jsonl", judged)
    bad = cli("tune", "--data", data, "--out", str(tmp_path / "p.json"), "--name", "x|version:9.9.9", *FAST)
    assert bad.returncode == 2 and "--name must be 1-64 characters" in bad.stderr
    assert not (tmp_path / "p.json").exists()
    done = cli("tune", "--data", data, "--out", str(tmp_path / "my preset|v2.json"), *FAST)
    assert done.returncode == 0, done.stderr
    assert load_preset(str(tmp_path / "my preset|v2.json")).name == "my-preset-v2"
    text = (tmp_path / "my preset|v2.json").read_text(encoding="utf-8")  # strict JSON: no NaN, no Infinity
    written = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in the preset"))
    assert written["provenance"]["cv"]["mean_validation"] is None  # no cross-validation (--folds 0)


def test_tune_reads_lines_split_at_newlines_only(tmp_path, judged):
    rows = [dict(row, hypothesis=row["hypothesis"] + " a\u2028b\u0085c") for row in judged]
    data = tmp_path / "data.jsonl"  # the line separators raw, as JSON allows them inside strings
    data.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    assert "\u2028" in data.read_text(encoding="utf-8")
    done = cli("tune", "--data", str(data), "--out", str(tmp_path / "p.json"), *FAST)
    assert done.returncode == 0, done.stderr


def test_tune_names_invalid_utf8_and_bad_json(tmp_path, judged):
    data = tmp_path / "data.jsonl"
    lines = [json.dumps(row).encode() for row in judged]
    lines[2] = lines[2].replace(b'"hypothesis": "', b'"hypothesis": "\xff')
    data.write_bytes(b"\n".join(lines))
    done = cli("tune", "--data", str(data), "--out", str(tmp_path / "p.json"), *FAST)
    assert done.returncode == 2 and f"{data}:3: not valid UTF-8 (byte 17 of the line)" in done.stderr
    for bad, message in (("[" * 100000, "line 1 is nested too deeply"),
                         ('{"hypothesis": "a", "references": ["a"], "human": NaN}', "line 1 holds NaN"),
                         ('{"hypothesis": "a", "references": ["a"], "human": 1' + "0" * 5000 + "}",
                          "line 1 holds an integer too long to read")):
        data.write_text(bad + "\n", encoding="utf-8")
        done = cli("tune", "--data", str(data), "--out", str(tmp_path / "p.json"), *FAST)
        assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_tune_refuses_to_write_an_unfitted_preset(tmp_path, judged):
    rows = [dict(row, system="only") for row in judged]  # one system: no system-level correlation exists
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    done = cli("tune", "--data", data, "--out", str(tmp_path / "p.json"), *FAST, "--objective", "sys-pearson")
    assert done.returncode == 2 and "nothing was fitted and no preset is written" in done.stderr
    assert not (tmp_path / "p.json").exists()
