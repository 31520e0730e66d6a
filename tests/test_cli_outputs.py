"""The CLI's outputs as a sacrebleu user expects them (issue 15), run as a subprocess.

Oracle: the jar's scores of the bundled example (examples/jar-scores.json, from the jar's own run)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_metric import Meteor
from meteor_metric.cli.main import main
from meteor_metric.core.corpus_io import read_lines
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound
from meteor_metric.profiles.original_align import DEFAULT_SEARCH_BUDGET

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from anagrams import anagram_pair  # noqa: E402  (shared with the benchmarks)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
HYP, REF, REF2 = (str(EXAMPLES / name) for name in ("hyp.txt", "ref.txt", "ref2.txt"))
ONE_REF = ["--hyp", HYP, "--ref", REF]


@pytest.fixture(scope="module", autouse=True)
def paraphrase_table():
    try:
        Meteor()
    except ParaphraseTableNotFound as exc:
        pytest.skip(f"no English paraphrase table installed: {exc}")


def cli(args, stdin=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "meteor_metric", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8")


def _summary(text: str) -> dict[str, str]:
    """The text output's summary lines, label -> value."""
    return dict(line.split(":", 1) for line in text.split("\n\n", 1)[1].splitlines() if ":" in line)


def test_json_carries_every_figure_the_text_shows():
    text = _summary(cli(["score", *ONE_REF]).stdout)
    out = json.loads(cli(["score", *ONE_REF, "--json"]).stdout)
    assert abs(out["score"] - JAR["one_ref"]["final_score"]) <= 1e-12
    for label, key in (("Precision", "precision"), ("Recall", "recall"), ("Fmean", "fmean"),
                       ("Penalty", "fragmentation_penalty"), ("Chunks", "chunks"), ("Final score", "score")):
        assert float(text[label]) == out[key], label
    assert "segments" not in out  # per segment only on request


def test_per_segment_figures_on_request():
    out = json.loads(cli(["score", *ONE_REF, "--json", "--details"]).stdout)
    segments = out["segments"]
    assert [s["segment"] for s in segments] == list(range(1, 101))
    assert [s["score"] for s in segments] == pytest.approx(JAR["one_ref"]["segment_scores"], abs=1e-12)
    first = cli(["align", *ONE_REF, "--segments", "1", "--format", "json"]).stdout
    aligned = json.loads(first)["segments"][0]
    for key in ("precision", "recall", "fmean", "fragmentation_penalty", "chunks"):
        assert segments[0][key] == aligned[key], key
    tsv = cli(["score", *ONE_REF, "--format", "tsv", "--details"]).stdout.splitlines()
    assert tsv[0].split("\t") == ["segment", "score", "stats", "precision", "recall", "fmean",
                                  "fragmentation_penalty", "chunks"]
    assert tsv[1].split("\t")[7] == str(aligned["chunks"])


def test_align_json_counts_segments_and_references_from_one():
    out = json.loads(cli(["align", "--hyp", HYP, "--ref", REF, "--ref", REF2, "--segments", "1-5",
                          "--format", "json"]).stdout)
    text = cli(["align", "--hyp", HYP, "--ref", REF, "--ref", REF2, "--segments", "1-5"]).stdout
    shown = [int(line.split("reference ")[1].split(" of")[0]) for line in text.splitlines()
             if line.startswith("Segment ")]
    assert [s["segment"] for s in out["segments"]] == [1, 2, 3, 4, 5]
    assert [s["best_ref"] for s in out["segments"]] == shown
    assert set(shown) == {1, 2}  # both references win somewhere, so an off-by-one would show


ALIGN_LINE = re.compile(r"  chunk (\d+) +(\S+) +hyp +(\d+)(?:-(\d+))? '(.*)' +<-> ref +(\d+)(?:-(\d+))? '(.*)'$")


def _text_alignment(text: str) -> tuple[list[tuple], dict[str, str]]:
    """The text view's match lines as (chunk, module, hyp first, hyp last, ref first, ref last, hyp words,
    ref words), and its unmatched lines by side."""
    matches, unmatched = [], {}
    for line in text.splitlines():
        if m := ALIGN_LINE.match(line):
            chunk, module, h0, h1, hyp, r0, r1, ref = m.groups()
            matches.append((int(chunk), module, int(h0), int(h1 or h0), int(r0), int(r1 or r0), hyp, ref))
        elif line.startswith("  unmatched "):
            side, _, rest = line.strip().removeprefix("unmatched ").partition(": ")
            unmatched[side] = rest
    return matches, unmatched


def _json_alignment(segment: dict) -> list[tuple]:
    """The JSON alignment in the text view's terms, its words looked up by 1-based position."""
    out = []
    for a in segment["alignment"]:
        h0, r0 = a["hyp_position"], a["ref_position"]
        h1, r1 = h0 + a["hyp_len"] - 1, r0 + a["ref_len"] - 1
        out.append((a["chunk"], a["module"], h0, h1, r0, r1, " ".join(segment["hyp_tokens"][h0 - 1:h1]),
                    " ".join(segment["ref_tokens"][r0 - 1:r1])))
    return out


def test_align_counts_word_positions_from_one_in_text_and_json(tmp_path):
    """Checkable by eye: in 'a b c x' vs 'c b a', hyp word 3 ('c') is ref word 1 and 'x' (word 4) is unmatched."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b c x\n", encoding="utf-8")
    ref.write_text("c b a\n", encoding="utf-8")
    args = ["align", "--hyp", str(hyp), "--ref", str(ref)]
    text = cli(args).stdout
    segment = json.loads(cli(args + ["--format", "json"]).stdout)["segments"][0]
    matches, unmatched = _text_alignment(text)
    assert matches == [(1, "exact", 3, 3, 1, 1, "c", "c"), (2, "exact", 2, 2, 2, 2, "b", "b"),
                       (3, "exact", 1, 1, 3, 3, "a", "a")]
    assert unmatched == {"hyp": "4:x", "ref": "-"}
    assert _json_alignment(segment) == matches
    assert [(a["hyp_position"], a["ref_position"]) for a in segment["alignment"]] == [(3, 1), (2, 2), (1, 3)]


def test_align_text_and_json_agree_on_multiword_matches():
    """The example's first segment has paraphrase spans (hyp 22-23 'we know' <-> ref 23-24 'our knowledge')."""
    args = ["align", *ONE_REF, "--segments", "1"]
    text = cli(args).stdout
    segment = json.loads(cli(args + ["--format", "json"]).stdout)["segments"][0]
    matches, unmatched = _text_alignment(text)
    assert len(matches) == len(segment["alignment"]) == 25
    assert _json_alignment(segment) == matches
    assert (13, "paraphrase", 22, 23, 23, 24, "we know", "our knowledge") in matches
    assert matches[0][2:6] == (1, 1, 1, 1)  # 'i' is the first word of both
    matched = {k for m in matches for k in range(m[2], m[3] + 1)}
    shown = [f"{k}:{w}" for k, w in enumerate(segment["hyp_tokens"], 1) if k not in matched]
    assert unmatched["hyp"] == " ".join(shown) == "2:want 10:the 21:what"


def test_width_and_score_only():
    score = JAR["one_ref"]["final_score"]
    assert cli(["score", *ONE_REF, "-b"]).stdout == f"{score!r}\n"
    assert cli(["score", *ONE_REF, "-b", "-w", "4"]).stdout == f"{score:.4f}\n"
    text = cli(["score", *ONE_REF, "--width", "3"]).stdout
    assert f"Final score:\t{score:.3f}\n" in text
    assert f"Segment 1 score:\t{JAR['one_ref']['segment_scores'][0]:.3f}\n" in text
    tsv = cli(["score", *ONE_REF, "--format", "tsv", "-w", "2"]).stdout.splitlines()
    assert tsv[-1].split("\t")[1] == f"{score:.2f}"
    assert cli(["score", *ONE_REF, "-w", "x"]).returncode == 2


def test_confidence_is_the_bootstrap_interval_seeded_and_signed():
    out = json.loads(cli(["score", *ONE_REF, "--json", "--confidence"]).stdout)
    lo, hi = out["ci95"]
    assert lo < JAR["one_ref"]["final_score"] < hi
    assert out["signature"].endswith("|ci:bs-1000|seed:12345")
    # the same resampling as `compare` (the significance module) for the same system and seed
    compared = json.loads(cli(["compare", "--hyp", HYP, "--hyp", REF2, "--ref", REF, "--format", "json"]).stdout)
    assert compared["systems"][0]["ci95"] == [lo, hi]
    again = json.loads(cli(["score", *ONE_REF, "--json", "--confidence"]).stdout)
    assert again["ci95"] == [lo, hi]
    other = json.loads(cli(["score", *ONE_REF, "--json", "--confidence", "--seed", "7",
                            "--confidence-n", "200"]).stdout)
    assert other["ci95"] != [lo, hi] and other["signature"].endswith("|ci:bs-200|seed:7")
    text = cli(["score", *ONE_REF, "--confidence", "-w", "4"]).stdout
    assert f"95% CI:\t\t[{lo:.4f}, {hi:.4f}]\n" in text
    assert cli(["score", "--hyp", HYP, "--ref", REF, "-b", "--confidence"]).stdout.count(" [") == 1


def test_compare_shows_the_delta_and_honours_width():
    args = ["compare", "--hyp", HYP, "--hyp", REF2, "--ref", REF]
    out = json.loads(cli(args + ["--format", "json"]).stdout)
    base, other = out["systems"]
    assert abs(base["score"] - JAR["one_ref"]["final_score"]) <= 1e-12
    assert base["delta"] == 0.0 and other["delta"] == other["score"] - base["score"]
    lines = cli(args + ["-w", "2"]).stdout.splitlines()
    assert lines[0].split() [:4] == ["system", "METEOR", "delta", "95%"]
    assert lines[2].split()[1:3] == [f"{other['score']:.2f}", f"{other['delta']:+.2f}"]
    default = cli(args).stdout.splitlines()
    assert default[1].split()[1] == f"{base['score']:.4f}"  # as many digits as the CI beside it


@pytest.mark.parametrize("command", [["score"], ["align"], ["score", "--workers", "2"]])
def test_a_closed_pipe_ends_quietly(tmp_path, command):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("\n".join(read_lines(HYP) * 20) + "\n", encoding="utf-8")
    ref.write_text("\n".join(read_lines(REF) * 20) + "\n", encoding="utf-8")
    proc = subprocess.run(f"{sys.executable} -m meteor_metric {' '.join(command)} --hyp {hyp} --ref {ref} "
                          "| head -1; exit ${PIPESTATUS[0]}", shell=True, executable="/bin/bash",
                          capture_output=True, text=True, timeout=300)  # a pool that deadlocks fails, not hangs
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("Segment 1")


# -- input: formats detected, line-count mismatches located --------------------------------------


def test_jsonl_on_stdin_is_detected():
    rows = "".join(json.dumps({"hypothesis": h, "references": [a, b]}) + "\n"
                   for h, a, b in zip(read_lines(HYP), read_lines(REF), read_lines(REF2)))
    proc = cli(["score", "--hyp", "-", "--json"], stdin=rows)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["segment_stats"] == JAR["two_refs"]["stats_lines"]


def test_text_without_references_says_which_flag(tmp_path):
    proc = cli(["score", "--hyp", "-"], stdin="a plain line\n")
    assert proc.returncode == 2
    assert "<stdin> is read as plain text, which needs at least one --ref FILE" in proc.stderr
    assert "--input-format jsonl or --input-format tsv" in proc.stderr


@pytest.mark.parametrize("hyp_bytes, hint", [
    (b"a b\nc d\n\n", "h.txt ends with 1 blank line"),
    (b"a b\rx\nc d\n", "h.txt: line 1 holds a carriage return (\\r) that starts a new line"),
    (b"a b\nc d\ne f\n", None),
])
def test_line_count_mismatch_says_where(tmp_path, hyp_bytes, hint):
    (tmp_path / "h.txt").write_bytes(hyp_bytes)
    (tmp_path / "r.txt").write_bytes(b"a b x\nc d\n")
    proc = subprocess.run([sys.executable, "-m", "meteor_metric", "score", "--hyp", "h.txt", "--ref", "r.txt"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2
    assert "line counts differ: h.txt has 3 lines, r.txt has 2 lines; r.txt ended before line 3" in proc.stderr
    if hint:
        assert hint in proc.stderr
    else:
        assert "blank" not in proc.stderr and "carriage" not in proc.stderr


# -- messages name CLI flags; every normalization and the original profile's budget reachable ----

PYTHON_SPELLING = ("normalization=", "max_segment_tokens", "search_budget", "paraphrase_table", "beam_size",
                   "language=", "profile=", "folds=", "OriginalMeteor(", "[", "True", "give task", " folds must")


def _error(args, tmp_path, lines=("der hund",), stdin=None) -> str:
    hyp = tmp_path / "h.txt"
    hyp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "meteor_metric", *[str(hyp) if a == "H" else a for a in args]],
                          capture_output=True, text=True, input=stdin)
    assert proc.returncode in (1, 2) and proc.stderr.startswith("meteor-metric: error: ")
    assert not any(word in proc.stderr for word in PYTHON_SPELLING), proc.stderr
    return proc.stderr


@pytest.mark.parametrize("args, message", [
    (["--lang", "da"], "use --normalization lc_only or --normalization no_norm, the extension "
                       "--normalization norm_ext (not in the jar)"),
    (["--max-tokens", "1"], "more than --max-tokens 1"),
    (["--profile", "nltk", "--beam", "5"], "--beam 5 is an option of the meteor-1.5 profile"),
    (["--profile", "nltk", "--lang", "de"], "(got --lang de); use --profile meteor-1.5"),
    (["--search-budget", "5"], "--search-budget 5 is an option of the original profile"),
    (["--profile", "nltk", "--normalization", "lc_only"], "error: --normalization lc_only does not apply to the nltk"),
    (["--profile", "original", "--max-tokens", "5"],
     "error: --max-tokens 5 is an option of the meteor-1.5 profile; it does not apply to the original profile"),
    (["--profile", "nltk", "--max-tokens", "5"], "error: --max-tokens 5 is an option of the meteor-1.5 profile"),
    (["--profile", "nltk", "--weights", "1,0.5"], "error: --weights 1.0,0.5 is an option of the meteor-1.5 profile"),
    (["--profile", "nltk", "--modules", "exact,stem"], "error: --modules exact,stem is an option of the meteor-1.5"),
    (["--profile", "nltk", "--char"], "error: --char is an option of the meteor-1.5 profile"),
    (["--task", "hter", "--params-file", "H"], "--params-file already sets the task and parameters; do not also "
                                               "give --task"),
    (["--lang", "ar-bw-red"], "use --normalization lc_only or --normalization no_norm, or a language among"),
])
def test_messages_name_cli_flags(tmp_path, args, message):
    assert message in _error(["score", "--hyp", "H", "--ref", "H", *args], tmp_path)


def test_a_language_without_paraphrase_table_names_the_modules(tmp_path, monkeypatch):
    monkeypatch.delenv("METEOR_METRIC_PARAPHRASE_DIR", raising=False)
    err = _error(["score", "--hyp", "H", "--ref", "H", "--lang", "de"], tmp_path)
    assert "leave the paraphrase module out: --modules exact,stem" in err and "--paraphrase-table FILE" in err
    ok = cli(["score", "--hyp", HYP, "--ref", HYP, "--lang", "de", "--modules", "exact,stem", "-b"])
    assert ok.returncode == 0 and ok.stdout == "1.0\n"


@pytest.mark.parametrize("mode", ["lc_only", "no_norm", "norm_nopunct"])
def test_normalization_flag_equals_the_jar_style_flags(mode):
    jar_style = {"lc_only": ["--no-norm", "--lower"], "no_norm": ["--no-norm"], "norm_nopunct": ["--no-punct"]}
    by_name = cli(["score", *ONE_REF, "--normalization", mode, "--json"])
    by_flags = cli(["score", *ONE_REF, *jar_style[mode], "--json"])
    assert by_name.returncode == 0 and by_name.stdout == by_flags.stdout
    assert f"|norm:{mode}|" in json.loads(by_name.stdout)["signature"]


def test_normalization_flag_reaches_the_extensions(tmp_path):
    hyp = tmp_path / "h.txt"
    hyp.write_text("Hunden løb, hurtigt!\n", encoding="utf-8")
    ref = tmp_path / "r.txt"
    ref.write_text("hunden løb hurtigt\n", encoding="utf-8")
    args = ["score", "--hyp", str(hyp), "--ref", str(ref), "--lang", "da", "--json"]
    ext = json.loads(cli(args + ["--normalization", "norm_ext"]).stdout)
    lower = json.loads(cli(args + ["--normalization", "lc_only"]).stdout)
    assert "|norm:norm_ext|" in ext["signature"] and ext["score"] != lower["score"]
    # norm_ext splits "," and "!" off: 3 of 5 tokens match; lc_only keeps "løb," and "hurtigt!": 1 of 3
    assert ext["precision"] == 3 / 5 and lower["precision"] == 1 / 3
    nltk = cli(["score", *ONE_REF, "--profile", "nltk", "--normalization", "split", "-b"])
    assert nltk.returncode == 0 and nltk.stdout != cli(["score", *ONE_REF, "--profile", "nltk", "-b"]).stdout


def test_original_profile_search_budget_flag(tmp_path):
    words = "alpha beta gamma delta eps".split()
    hyp = " ".join(words[k % 5] for k in range(60))
    ref = " ".join(words[(k * 7) % 5] for k in range(60))  # the same words, shuffled
    (tmp_path / "hyp.txt").write_text(hyp + "\n")
    (tmp_path / "ref.txt").write_text(ref + "\n")
    base = ["score", "--hyp", str(tmp_path / "hyp.txt"), "--ref", str(tmp_path / "ref.txt"), "--profile", "original"]
    assert cli(base + ["-b"]).returncode == 0  # a regular 60-word anagram of 5 words scores within the default budget
    err = _error(base + ["--search-budget", "10"], tmp_path)
    assert "segment 1: original profile: the exact alignment search of this segment" in err
    assert "exceeded its budget of 10 steps" in err and "a larger --search-budget N" in err


def test_original_profile_default_budget_refuses_a_random_60_word_anagram(tmp_path):
    # the case at default settings: a random shuffle is refused with the clear message (no timing here)
    hyp, ref = anagram_pair(60)
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\n" + hyp + "\n")
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\n" + ref + "\n")
    err = _error(["score", "--hyp", str(tmp_path / "hyp.txt"), "--ref", str(tmp_path / "ref.txt"),
                  "--profile", "original"], tmp_path)
    assert (f"segment 2: original profile: the exact alignment search of this segment (all its references, "
            f"matching stages and word groups together) exceeded its budget of {DEFAULT_SEARCH_BUDGET} steps") in err
    assert "pass a larger --search-budget N to wait longer, or shorten or drop the segment" in err


def test_tune_errors_and_warnings_are_clean(tmp_path):
    rows = [{"hypothesis": "a b c", "references": ["a b c"], "human": h} for h in (0.1, 0.5, 0.9)]
    data = tmp_path / "t.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    folds = cli(["tune", "--data", str(data), "--out", str(tmp_path / "p.json"), "--modules", "exact"])
    assert folds.returncode == 2 and "Traceback" not in folds.stderr
    assert "5 folds but only 3 judged group(s); use --folds 3 (or fewer) or --folds 0" in folds.stderr
    tiny = cli(["tune", "--data", str(data), "--out", str(tmp_path / "p.json"), "--modules", "exact",
                "--folds", "0", "--random-starts", "2", "--max-evals", "5"])
    assert tiny.returncode == 2 and "only 3 judgments" in tiny.stderr  # and equal scores: nothing to fit
    assert "nothing was fitted and no preset is written" in tiny.stderr and not (tmp_path / "p.json").exists()
    differing = tmp_path / "d.jsonl"
    differing.write_text("".join(json.dumps({**r, "hypothesis": h}) + "\n" for r, h in zip(rows, ("a b c", "a c b", "x"))))
    tiny = cli(["tune", "--data", str(differing), "--out", str(tmp_path / "p.json"), "--modules", "exact",
                "--folds", "0", "--random-starts", "2", "--max-evals", "5"])
    assert tiny.returncode == 0 and "meteor-metric: warning: " in tiny.stderr and "only 3 judgments" in tiny.stderr
    one = cli(["tune", "--data", str(data), "--out", str(tmp_path / "p.json"), "--modules", "exact", "--folds", "1"])
    assert one.returncode == 2 and "error: --folds must be 0 (no cross-validation) or at least 2, got 1" in one.stderr
    data.write_text("".join(json.dumps({**r, "human": 0.5}) + "\n" for r in rows))
    constant = cli(["tune", "--data", str(data), "--out", str(tmp_path / "c.json"), "--modules", "exact"])
    assert constant.returncode == 2 and "all 3 judgments are equal (0.5)" in constant.stderr
    assert not (tmp_path / "c.json").exists()
    data.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "human"}) + "\n" for r in rows))
    none = cli(["tune", "--data", str(data), "--out", str(tmp_path / "p.json"), "--modules", "exact"])
    assert none.returncode == 2 and "no segment has a human judgment" in none.stderr


@pytest.mark.parametrize("typo, suggestion", [
    (["score", "--formt", "json"], "(did you mean --format?)"),
    (["score", "--confidance"], "(did you mean --confidence?)"),
    (["scroe"], "(did you mean score?)"),
    (["score", "--format", "jsno"], "(did you mean json?)"),
])
def test_typos_get_a_suggestion(typo, suggestion):
    proc = cli([*typo, "--hyp", HYP, "--ref", REF])
    assert proc.returncode == 2 and suggestion in proc.stderr


@pytest.mark.parametrize("argv, usage, message", [
    (["score", "--hyp", HYP, "--ref", REF, "--widht", "3"], "usage: meteor-metric score ",
     "meteor-metric score: error: unrecognized arguments: --widht 3 (did you mean --width?)"),
    (["cache", "build", "--lnag", "en"], "usage: meteor-metric cache build ",
     "meteor-metric cache build: error: unrecognized arguments: --lnag en (did you mean --lang?)"),
    (["cache", "info", "--formt", "json"], "usage: meteor-metric cache info ",
     "meteor-metric cache info: error: unrecognized arguments: --formt json (did you mean --format?)"),
    (["align", "--hyp", HYP, "--ref", REF, "--workers", "2"], "usage: meteor-metric align ",
     "meteor-metric align: error: unrecognized arguments: --workers 2 (--workers is a flag of: score, compare, report)"),
])
def test_an_unknown_flag_is_reported_with_its_commands_usage(argv, usage, message):
    """The usage line and the suggestion come from the command the flag was given to, not the top level."""
    proc = cli(argv)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(usage) and proc.stderr.rstrip().endswith(message)


def test_a_flag_of_another_command_is_named_once_per_command(capsys):
    """The CLI built twice in one process (as by two main() calls) still names each command once."""
    for _ in range(2):
        with pytest.raises(SystemExit):
            main(["align", "--hyp", HYP, "--ref", REF, "--workers", "2"])
        assert capsys.readouterr().err.rstrip().endswith("(--workers is a flag of: score, compare, report)")


def test_a_typo_in_a_required_flag_is_named():
    """argparse reports the missing --hyp first; the message also names the typo that caused it."""
    proc = cli(["score", "--hpy", HYP, "--ref", REF])
    assert proc.returncode == 2
    assert "required: --hyp; --hpy is not a flag (did you mean --hyp?)" in proc.stderr
    abbreviated = cli(["score", "--hy", HYP, "--ref", REF, "-b"])  # argparse's prefix matching still works
    assert abbreviated.returncode == 0 and abs(float(abbreviated.stdout) - JAR["one_ref"]["final_score"]) <= 1e-12


def test_a_meteor15_score_does_not_import_nltk():
    """Only the nltk and original profiles need NLTK; importing it costs every CLI start ~0.1 s and ~20 MiB
    (measured: 0.43 -> 0.29 s, 164 -> 145 MiB for one segment). The score must still be the jar's."""
    code = ("import sys; from meteor_metric.cli.main import main; "
            f"rc = main(['score', '--hyp', {HYP!r}, '--ref', {REF!r}, '-b', '-w', '16']); "
            "print(rc, sorted(m for m in sys.modules if m == 'nltk' or m.startswith('nltk.')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    score, status = proc.stdout.splitlines()
    assert abs(float(score) - JAR["one_ref"]["final_score"]) <= 1e-12
    assert status == "0 []"
