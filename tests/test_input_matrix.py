"""Bad and odd input, row by row, through the Python API, the evaluate wrapper and the command line.

Every row gets either the correct score or a clear error (what, where, what to do); nothing is
dropped or truncated silently. Correct scores come from the Java METEOR 1.5 jar: the edge cases of
tests/data/java15/edge_cases.jsonl.gz, and NUL_CASES below (benchmarks/jar.py, -l en -norm).
"""

from __future__ import annotations

import json
import subprocess
import sys

import evaluate
import pytest

import meteor_metric
from conformance import JAVA15, read_jsonl
from meteor_metric.cli.main import main
from meteor_metric.profiles.nltk_profile import NltkMeteor

TOLERANCE = 1e-12
EDGE = {r["id"]: r for r in read_jsonl(JAVA15 / "edge_cases.jsonl.gz")}
# The jar (pycocoevalcap 1.2, -l en -norm), run through benchmarks/jar.py score_lines on 2026-12-02.
NUL_CASES = [
    ("the\x00cat sat", "the cat sat", 0.4197512445337911,
     "4.0 3.0 1.0 1.0 2.0 2.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 2.0 3.0 3.0"),
    ("a\x00 b \x7f c", "a b c", 0.3544303797468355,
     "5.0 3.0 1.0 1.0 2.0 2.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 3.0 3.0 3.0"),
    ("x\u200by z", "x y z", 0.4254621458199651,
     "4.0 3.0 0.0 0.0 3.0 3.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 2.0 3.0 3.0"),
]
ODD_TEXT_ROWS = ["empty_hyp@en_norm", "empty_ref@en_norm", "empty_both@en_norm", "bom@en_norm",
                 "vertical_tab@en_norm", "control_chars@en_norm", "tabs_spaces@en_norm", "pipes_in_hyp@en_norm",
                 "mr_empty_first@en_norm", "mr_ref_with_pipes@en_norm", "mr_all_empty@en_norm"]


@pytest.fixture(scope="module")
def meteor(default_meteor):
    return default_meteor


@pytest.fixture()
def metric(tmp_path, meteor):
    return evaluate.load(meteor_metric.EVALUATE_MODULE, cache_dir=str(tmp_path))


def _odd_rows() -> list[tuple[str, list[str], float, str]]:
    rows = [(EDGE[i]["hyp"], EDGE[i]["refs"], EDGE[i]["expected"]["score"], EDGE[i]["expected"]["stats_line"])
            for i in ODD_TEXT_ROWS]
    return rows + [(h, [r], score, line) for h, r, score, line in NUL_CASES]


# -- rows with a correct score: empty strings, BOM, NUL and control characters, |||, mixed references --

def test_odd_texts_score_like_the_jar_in_the_api(meteor):
    for hyp, refs, score, line in _odd_rows():
        seg = meteor.sentence_score(hyp, refs)
        assert seg.stats.to_line() == line and abs(seg.score - score) <= TOLERANCE, (hyp, refs)


def test_odd_texts_and_mixed_references_in_the_wrapper(metric):
    rows = _odd_rows()
    refs = [r[0] if len(r) == 1 else r for _, r, _, _ in rows]  # single references as plain strings
    out = metric.compute(predictions=[h for h, *_ in rows], references=refs, return_segment_scores=True)
    assert all(abs(a - s) <= TOLERANCE for a, (_, _, s, _) in zip(out["scores"], rows))
    assert "nrefs:var" in out["signature"]


def test_odd_texts_from_files_on_the_command_line(tmp_path, meteor, capsys):
    """Lines may hold NUL, \\x0b, \\x1f and '|||'; CRLF and a leading BOM are line/file structure."""
    rows = [(h, r[0], s, line) for h, r, s, line in _odd_rows() if len(r) == 1 and "\ufeff" not in h]
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(h for h, *_ in rows).encode() + b"\r\n")
    ref.write_bytes("\n".join(r for _, r, *_ in rows).encode())
    assert main(["score", "--hyp", str(hyp), "--ref", str(ref), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["segment_stats"] == [line for *_, line in rows]
    assert all(abs(a - s) <= TOLERANCE for a, (_, _, s, _) in zip(out["segment_scores"], rows))


# -- rows with a clear error --------------------------------------------------------------------------

BAD_API = [
    ("None hypothesis", [None], ["a"], TypeError, r"hypotheses\[0\] must be a string, got None"),
    ("number", ["a", 3], ["a", "b"], TypeError, r"hypotheses\[1\] must be a string, got int"),
    ("bytes", [b"a"], ["a"], TypeError, r"hypotheses\[0\] must be a string, got bytes"),
    ("None reference", ["a"], [None], TypeError, r"references\[0\] must be a string or a list of strings"),
    ("nested lists", ["a"], [[["a"]]], TypeError, r"references\[0\]\[0\] must be a string, got list"),
    ("zero references", ["a"], [[]], ValueError, r"references\[0\] is empty"),
    ("mismatched lengths", ["a", "b"], ["a"], ValueError, "2 hypotheses but 1 references"),
    ("empty corpus", [], [], ValueError, "empty corpus"),
    ("corpus not a list", "a b", ["a"], TypeError, "hypotheses must be a list"),
]


@pytest.mark.parametrize("name, hyps, refs, error, message", BAD_API, ids=[r[0] for r in BAD_API])
def test_bad_input_in_the_api(meteor, name, hyps, refs, error, message):
    with pytest.raises(error, match=message):
        meteor.corpus_score(hyps, refs)
    with pytest.raises(error, match=message):
        NltkMeteor().corpus_score(hyps, refs)


@pytest.mark.parametrize("name, hyps, refs, error, message", BAD_API[:-2], ids=[r[0] for r in BAD_API[:-2]])
def test_bad_input_in_the_wrapper(metric, name, hyps, refs, error, message):
    with pytest.raises(error, match=message.replace("hypotheses", "predictions")):
        metric.add_batch(predictions=hyps, references=refs)
    with pytest.raises(error, match=message.replace("hypotheses", "predictions")):
        metric.compute(predictions=hyps, references=refs)


def test_empty_corpus_in_the_wrapper(metric):
    with pytest.raises(ValueError, match="empty corpus"):
        metric.compute(predictions=[], references=[])


BAD_FILES = [
    ("invalid UTF-8", "text", b"fine\nbad \xff byte\n", b"a\nb\n", "h.txt: line 2 is not valid UTF-8"),
    ("line counts", "text", b"a\nb\nc\n", b"a\nb\n", "h.txt has 3 lines, "),
    ("empty corpus", "text", b"", b"", "is empty: nothing to score"),
    ("JSON null", "jsonl", b'{"hypothesis": "a", "references": "a"}\nnull\n', None,
     "line 2 must be a string or an object, got NoneType"),
    ("JSON number", "jsonl", b'{"hypothesis": 3, "references": "a"}\n', None, '"hypothesis" must be a string'),
    ("nested lists", "jsonl", b'{"hypothesis": "a", "references": [["a"]]}\n', None,
     "references must be a string or a non-empty list of strings"),
    ("zero references", "jsonl", b'{"hypothesis": "a", "references": []}\n', None,
     "references must be a string or a non-empty list of strings"),
    ("no references", "jsonl", b'{"hypothesis": "a"}\n', None, "line 1 has no reference"),
    ("no tab", "tsv", b"a\tb\nc\n", None, "line 2 has no tab"),
]


@pytest.mark.parametrize("name, fmt, hyp_bytes, ref_bytes, message", BAD_FILES, ids=[r[0] for r in BAD_FILES])
def test_bad_files_on_the_command_line(tmp_path, capsys, name, fmt, hyp_bytes, ref_bytes, message):
    hyp = tmp_path / "h.txt"
    hyp.write_bytes(hyp_bytes)
    args = ["score", "--hyp", str(hyp), "--input-format", fmt, "--modules", "exact"]
    if ref_bytes is not None:
        (tmp_path / "r.txt").write_bytes(ref_bytes)
        args += ["--ref", str(tmp_path / "r.txt")]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""  # errors come before any output


# -- size: a 100,000-token segment and a 1,000,000-line corpus --------------------------------------

def _long_text(n: int) -> str:
    words = "the cat sat on a mat while the dog ran in the park near a big old tree".split()
    return " ".join(words[k % len(words)] for k in range(n))


def test_a_100000_token_segment_is_a_clear_error_in_meteor_15_and_scored_by_nltk(meteor, metric):
    text = _long_text(100_000)  # 394,443 characters: refused by the character limit, before normalisation
    with pytest.raises(ValueError, match="has 394,443 characters, more than max_segment_chars=100,000"):
        meteor.sentence_score(text, text)
    with pytest.raises(ValueError, match="segment 1: the hypothesis has 394,443 characters"):
        meteor.corpus_score(["a b", text], ["a b", "x"])
    with pytest.raises(ValueError, match="max_segment_chars"):
        metric.compute(predictions=[text], references=[text])
    shorter = _long_text(3_000)  # within the character limit: the token limit refuses it
    with pytest.raises(ValueError, match="3,000 tokens, more than max_segment_tokens=2,500"):
        meteor.sentence_score(shorter, shorter)
    # the greedy NLTK profile handles it: every word matched, in one chunk
    nltk_score = NltkMeteor().sentence_score(text, text)
    assert nltk_score.chunks == 1 and nltk_score.stats.test_word_matches == 100_000
    assert 1.0 - 1e-12 < nltk_score.score < 1.0


def test_a_100000_token_segment_on_the_command_line(tmp_path):
    hyp = tmp_path / "h.txt"
    hyp.write_text("a b\n" + _long_text(100_000) + "\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "meteor_metric", "score", "--hyp", str(hyp), "--ref", str(hyp),
                           "--modules", "exact"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "segment 2: the hypothesis has 394,443 characters, more than --max-chars 100,000" in proc.stderr


def test_a_1000000_line_corpus_streams_in_bounded_memory(tmp_path):
    """One million segments through the CLI: every line scored, peak RSS far below the input size."""
    hyp = tmp_path / "h.txt"
    with open(hyp, "w", encoding="utf-8") as f:
        for k in range(1_000_000):
            f.write("a b\n" if k % 2 else "a\n")
    # VmHWM (peak RSS of this process image; ru_maxrss would include the forked pytest before exec)
    script = ("import runpy, sys; sys.argv = ['meteor-metric'] + sys.argv[1:]\n"
              "try:\n    runpy.run_module('meteor_metric', run_name='__main__')\n"
              "finally:\n    print(next(line.split()[1] for line in open('/proc/self/status') "
              "if line.startswith('VmHWM')), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", script, "score", "--hyp", str(hyp), "--ref", str(hyp),
                           "--modules", "exact", "--format", "tsv"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert len(lines) == 1_000_002 and lines[-2].startswith("1000000\t1.0\t")
    assert lines[-1].startswith("system\t1.0\t")
    peak_mib = int(proc.stderr.split()[-1]) / 1024
    assert peak_mib < 150, f"peak RSS {peak_mib:.0f} MiB"
