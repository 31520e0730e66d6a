"""Every input that used to end in a traceback or a message naming nothing: now a clear error (what,
where, what to do) with exit status 2, or a warning, or it works. The CLI runs in a subprocess.

Oracles: the JSON module's own limits (``sys.get_int_max_str_digits``, recursion), pandas (writing a
TSV with its defaults), markdown-it-py (rendering the Markdown report), the jar's stats lines in
examples/jar-scores.json, and the exact-tested ASCII path for a lone surrogate (a one-code-unit word).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_metric import Meteor, get_scorer
from meteor_metric.core.stats import MeteorStats

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JAR_STATS = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))["one_ref"]["stats_lines"]


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "meteor_metric", *args], capture_output=True, text=True,
                          timeout=300, **kwargs)


def assert_clean_error(done: subprocess.CompletedProcess, *parts: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("meteor-metric: error: ")
    for part in parts:
        assert part in done.stderr


def jsonl(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


GOOD = '{"hypothesis": "the cat sat", "references": ["the cat sat down"]}'


@pytest.mark.parametrize("bad, message", [
    ('{"hypothesis": "a", "references": ["a"], "n": ' + "9" * 5000 + "}",
     "line 2 holds an integer too long to read (over 4,300 digits)"),
    ('{"hypothesis": "a", "references": ["a"], "n": ' + "[" * 100000 + "]" * 100000 + "}",
     "line 2 is nested too deeply"),
    ('{"hypothesis": "a \\ud800 b", "references": ["a b"]}', "line 2 holds a lone surrogate \\ud800"),
    ('{"hypothesis": "a", "references": ["a"], "n": NaN}', "line 2 holds NaN, which is not JSON"),
])
def test_bad_json_lines_are_named(tmp_path, bad, message):
    path = jsonl(tmp_path, GOOD, bad)
    for command in (["score", "--hyp", path], ["align", "--hyp", path, "--format", "json"],
                    ["report", "--hyp", path, "--hyp", path, "--name", "a", "--name", "b",
                     "--out", str(tmp_path / "r.html")]):
        done = cli(*command)
        assert_clean_error(done, f"{path}: {message}")
        assert done.stdout == "" and not (tmp_path / "r.html").exists()


def test_a_lone_surrogate_scores_as_one_code_unit():
    """Java strings hold lone surrogates; the jar counts one as a UTF-16 code unit like any other char
    (here compared with the ASCII word 'q', whose path the conformance suite checks against the jar)."""
    for meteor in (Meteor(), Meteor(char_based=True)):
        odd, plain = (meteor.sentence_score(f"the cat {w} sat", "the cat sat") for w in ("\ud800", "q"))
        assert odd.stats == plain.stats and odd.score == plain.score


@pytest.mark.parametrize("command", [
    ["score", "--confidence"], ["compare", "--hyp", "{ref}"], ["report", "--hyp", "{ref}", "--out", "{out}"]])
def test_crossings_without_a_significance_model_fail_before_any_output(tmp_path, command):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat\na dog\n")
    ref.write_text("the cat sat down\nthe dog\n")
    args = [a.format(ref=ref, out=tmp_path / "r.html") for a in command]
    done = cli(args[0], "--hyp", str(hyp), "--ref", str(ref), *args[1:], "--fragmentation", "crossings")
    assert_clean_error(done, "--fragmentation crossings is not supported here")
    assert done.stdout == "" and not (tmp_path / "r.html").exists()


def test_ctrl_c_with_workers_is_one_line_and_status_130(tmp_path):
    hyps = (EXAMPLES / "hyp.txt").read_text(encoding="utf-8") * 600
    refs = (EXAMPLES / "ref.txt").read_text(encoding="utf-8") * 600
    (tmp_path / "h.txt").write_text(hyps, encoding="utf-8")
    (tmp_path / "r.txt").write_text(refs, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "meteor_metric", "score", "--hyp", str(tmp_path / "h.txt"),
                             "--ref", str(tmp_path / "r.txt"), "--workers", "2"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout.readline().startswith("Segment 1 score:")  # the workers are scoring
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130 and err == "meteor-metric: interrupted\n"


@pytest.mark.parametrize("scorer", ["meteor-1.5", "nltk"])
@pytest.mark.parametrize("pairs, message", [
    ([("a",)], "pairs[0] (segment 0) must be a (hypothesis, references) pair, got 1 item(s)"),
    ([("a", "a"), None], "pairs[1] (segment 1) must be a (hypothesis, references) pair, got None"),
    ("a b", "pairs must be a list of (hypothesis, references) pairs, got str"),
    # the right shape, the wrong contents (past the checks' fast path, which builds no names)
    ([("a", "a"), (None, "a")], "pairs[1] (segment 1) hypothesis must be a string, got None"),
    ([("a", ["a", 3])], "pairs[0] (segment 0) references[1] must be a string, got int"),
    ([("a", ("a",)), ["a", None]], "pairs[1] (segment 1) references must be a string or a list of strings"),
])
def test_score_pairs_names_a_malformed_pair(scorer, pairs, message):
    with pytest.raises(TypeError) as caught:
        get_scorer(scorer).score_pairs(pairs)
    assert str(caught.value).startswith(message)


def test_a_pandas_tsv_is_scored_with_warnings(tmp_path):
    pd = pytest.importorskip("pandas")
    path = tmp_path / "pairs.tsv"
    pd.DataFrame({"hypothesis": ['he said "hi" now', "the cat"],
                  "reference": ["he said hi", "the cat"]}).to_csv(path, sep="\t")  # pandas' defaults
    done = cli("score", "--hyp", str(path))
    assert done.returncode == 0
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith("meteor-metric: warning: ") for line in lines), lines
    assert f"{path}: line 1 looks like a header row" in lines[0]
    assert f"{path}: line 2 has a field in double quotes with doubled quotes inside (CSV quoting" in lines[1]


def test_the_markdown_report_escapes_hypotheses(tmp_path):
    markdown_it = pytest.importorskip("markdown_it")
    hostile = ('<img src=x onerror=alert(1)> **bold** [link](javascript:alert(1)) `code` a|b '
               '<!-- comment --> &amp;')
    a, b, r = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "r.txt"
    a.write_text(f"{hostile}\nthe dog\n", encoding="utf-8")
    b.write_text("the cat\nthe dog\n", encoding="utf-8")
    r.write_text(f"the cat {hostile}\nthe dog\n", encoding="utf-8")
    md = tmp_path / "r.md"
    done = cli("report", "--hyp", str(a), "--hyp", str(b), "--ref", str(r), "--markdown", str(md),
               "--samples", "10", "--modules", "exact")
    assert done.returncode == 0, done.stderr
    rendered = markdown_it.MarkdownIt("commonmark", {"html": True}).enable("table").render(md.read_text())
    for raw in ("<img", "<strong>", "<a ", "<!--"):
        assert raw not in rendered
    assert rendered.count("<code>") == 1  # the signature's
    assert rendered.count("&lt;img src=x onerror=alert(1)&gt; **bold** [link](javascript:alert(1)) `code` a|b "
                          "&lt;!-- comment --&gt; &amp;amp;") == 2  # the hypothesis and the reference, as text


def test_a_stats_line_needs_at_most_four_modules_of_equal_width():
    def stats(*widths):
        return MeteorStats(5, 5, 0, 0, *((1,) * w for w in widths), 1, 5, 5)

    assert stats(2, 2, 2, 2).to_line() == "5.0 5.0 0.0 0.0 " + "1.0 " * 8 + "0.0 " * 8 + "1.0 5.0 5.0"
    with pytest.raises(ValueError, match="4 module slots, these statistics have 5"):
        stats(5, 5, 5, 5).to_line()
    with pytest.raises(ValueError, match="per-module counts of different lengths"):
        stats(2, 1, 2, 2).to_line()


def test_stats_lines_must_be_possible():
    for line in JAR_STATS:  # every jar line parses
        assert MeteorStats.from_line(line).to_line() == line
    fields = JAR_STATS[0].split()
    for k, value in ((0, "inf"), (4, "-1.0"), (5, "nan"), (0, "1e400")):
        with pytest.raises(ValueError, match="non-negative whole numbers"):
            MeteorStats.from_line(" ".join(fields[:k] + [value] + fields[k + 1:]))
    impossible = fields[:]
    impossible[4] = str(float(fields[0]) + 1)  # more exact matches than hypothesis words
    with pytest.raises(ValueError, match="impossible statistics: .* matched hypothesis words"):
        MeteorStats.from_line(" ".join(impossible))
