"""Bounded work per segment (issue 25, items 1, 2, 4 and 9): candidate matches and characters are
limited on every path, batches are sized by their candidates, standard input is spooled with a bound
and never left behind, and the garbage-collector pause is right under threads.

Time and memory figures are measured by benchmarks/bench_hostile.py, not asserted here."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from meteor_metric import Meteor
from meteor_metric.cli.main import main
from meteor_metric.core.gcpause import gc_paused
from meteor_metric.meteor15 import meteor as meteor_module
from meteor_metric.meteor15.batch_aligner import align_batch

REPO = Path(__file__).resolve().parents[1]


def repeated(n: int, changed: int = -1) -> tuple[str, str]:
    """The worst case of the issue: one word n times, against the same with one word changed."""
    ref = ["the"] * n
    ref[changed] = "cat"
    return " ".join(["the"] * n), " ".join(ref)


def cli(*args: str, stdin: str | None = None, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "meteor_metric", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout, cwd=REPO, **kwargs)


# -- candidates (items 1 and 2) ------------------------------------------------------------------

def test_sentence_score_refuses_a_segment_over_the_candidate_limit_and_names_it():
    hyp, ref = repeated(2_499)  # 6.2 million candidates: 200 s in sentence_score before the limit
    with pytest.raises(ValueError, match=r"the hypothesis and references 0-1 have more than "
                                         r"max_segment_candidates=500,000 candidate matches.*raise "
                                         r"max_segment_candidates"):
        Meteor().sentence_score(hyp, ["a b", ref])


def _smallest_accepted_limit(score, high: int) -> int:
    """The least ``max_segment_candidates`` under which ``score(limit)`` does not raise (bisection)."""
    low = 0  # refused
    while high - low > 1:
        mid = (low + high) // 2
        try:
            score(mid)
            high = mid
        except ValueError as exc:
            assert "max_segment_candidates" in str(exc)
            low = mid
    return high


def test_the_candidate_limit_counts_a_segment_against_all_its_references(engine):
    # issue 25, "any segment within the limits finishes in under 10 s": a limit per reference let a segment's
    # work grow with its number of references (16 references of 666 repeated 2-letter words: 15 s on the Python
    # engine, 64 of them 7 s on the native one). The count is the segment's: 5 'the' against 4 of 5, 20 exact
    # candidates per reference, 60 for three references.
    hyp, ref = repeated(5)
    refs = [ref, ref.replace("cat", "the", 1).replace("the", "cat", 1), ref]
    assert _smallest_accepted_limit(lambda limit: Meteor(max_segment_candidates=limit).sentence_score(hyp, refs),
                                    1_000) == 60
    with pytest.raises(ValueError, match=r"^the hypothesis and references 0-2 have more than "
                                         r"max_segment_candidates=59 candidate"):
        Meteor(max_segment_candidates=59).sentence_score(hyp, refs)
    with pytest.raises(ValueError, match=r"^segment 1: the hypothesis and references 0-2 have more than "
                                         r"max_segment_candidates=59 candidate"):
        Meteor(max_segment_candidates=59).corpus_score(["a", hyp], [["a"], refs])
    scorer = Meteor(max_segment_candidates=59)
    scorer.corpus_score([hyp], [ref])  # the pair alone is within the limit, and cached ...
    with pytest.raises(ValueError, match=r"references 0-2 have more than"):  # ... the segment is not
        scorer.score_pairs([(hyp, refs)])
    within = Meteor(max_segment_candidates=60)
    assert within.corpus_score([hyp], [refs]).score == Meteor().corpus_score([hyp], [refs]).score


def test_both_engines_count_the_same_candidates_on_real_text():
    # stems, WordNet synonyms and paraphrases as well as exact matches, against two references
    from conftest import skip_unless_built

    skip_unless_built("native")
    hyp = "The quick brown foxes were jumping over the lazy dogs in the big garden yesterday."
    refs = ["A fast brown fox jumped over a lazy dog in the large garden yesterday.",
            "Yesterday the speedy foxes leapt over sleepy dogs in a huge yard."]
    counts = {impl: _smallest_accepted_limit(
        lambda limit: Meteor(impl=impl, max_segment_candidates=limit).sentence_score(hyp, refs), 10_000)
        for impl in ("python", "native")}
    assert counts["python"] == counts["native"] > 30, counts


def test_corpus_score_names_the_refused_segment():
    hyp, ref = repeated(2_499)
    with pytest.raises(ValueError, match=r"^segment 2: the hypothesis and reference 0 have more than"):
        Meteor().corpus_score(["a", "b", hyp], ["a", "b", ref])


def test_a_raised_candidate_limit_scores_what_the_default_refuses():
    hyp, ref = repeated(120)  # 14,280 exact candidates
    with pytest.raises(ValueError, match="max_segment_candidates=10,000"):
        Meteor(max_segment_candidates=10_000).sentence_score(hyp, ref)
    unlimited = Meteor(max_segment_candidates=None)
    assert unlimited.sentence_score(hyp, ref).score == Meteor().sentence_score(hyp, ref).score


@pytest.mark.parametrize("value", [0, -1, 2.5, True, "10"])
def test_bad_limits_are_refused(value):
    with pytest.raises(ValueError, match="must be a positive integer or None"):
        Meteor(max_segment_candidates=value)
    with pytest.raises(ValueError, match="max_segment_chars must be a positive integer or None"):
        Meteor(max_segment_chars=value)


def test_the_policy_takes_a_count_from_any_engine():
    from meteor_metric.meteor15.limits import MAX_SEGMENT_CANDIDATES, check_candidates

    check_candidates(MAX_SEGMENT_CANDIDATES, MAX_SEGMENT_CANDIDATES, "x")
    check_candidates(10**9, None, "x")
    with pytest.raises(ValueError, match="^segment 7: the hypothesis and reference 2 have more than"):
        check_candidates(MAX_SEGMENT_CANDIDATES + 1, MAX_SEGMENT_CANDIDATES,
                         "segment 7: the hypothesis and reference 2")


def test_align_cli_refuses_the_repeated_segment_with_the_flag_to_raise(tmp_path):
    hyp, ref = repeated(2_499)
    (tmp_path / "h.txt").write_text(hyp + "\n")
    (tmp_path / "r.txt").write_text(ref + "\n")
    proc = cli("align", "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt"), timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("meteor-metric: error: segment 1: the hypothesis and reference 0 have more than "
                                  "--max-candidates 500,000 candidate matches")
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_batches_are_sized_by_their_candidates(monkeypatch):
    """The Python engine's batches (the native engine aligns pair by pair): 20 segments of 40 repeated words (1,560 candidates each, the changed word moving) with a budget of
    5,000 candidates per batch: every batch of several pairs stays within it, and every score equals the
    single-pair aligner's (the one the conformance tests compare with the jar)."""
    calls = []

    def recording(problems, beam_size):
        calls.append(sum(len(p[1]) + sum(map(len, p[1])) for p in problems) if len(problems) > 1 else 0)
        return align_batch(problems, beam_size)

    monkeypatch.setattr(meteor_module, "BATCH_CANDIDATES", 5_000)
    monkeypatch.setattr("meteor_metric.meteor15.batch_aligner.align_batch", recording)
    pairs = [repeated(40, k) for k in range(20)]
    batched = Meteor(impl="python").corpus_score([h for h, _ in pairs], [[r] for _, r in pairs])
    assert len(calls) >= 7 and max(calls) <= 5_000
    single = Meteor(impl="python")
    assert batched.segment_scores == [single.sentence_score(h, r).score for h, r in pairs]


def test_evaluate_compute_applies_the_limits(tmp_path):
    evaluate = pytest.importorskip("evaluate")
    import meteor_metric

    metric = evaluate.load(meteor_metric.EVALUATE_MODULE, cache_dir=str(tmp_path))
    hyp, ref = repeated(2_499)
    with pytest.raises(ValueError, match="^segment 1: the hypothesis and reference 0 have more than "
                                         "max_segment_candidates=500,000"):
        metric.compute(predictions=["a", hyp], references=[["a"], [ref]])
    small = repeated(20)  # 380 candidates
    with pytest.raises(ValueError, match="max_segment_candidates=100 "):
        metric.compute(predictions=[small[0]], references=[[small[1]]], max_segment_candidates=100)
    with pytest.raises(ValueError, match="has 40 characters, more than max_segment_chars=39"):
        metric.compute(predictions=["a" * 40], references=[["a"]], max_segment_chars=39)
    expected = Meteor().sentence_score(*small).score
    assert metric.compute(predictions=[small[0]], references=[[small[1]]])["meteor"] == expected
    unlimited = metric.compute(predictions=["a" * 100_001], references=[["a" * 100_001]], max_segment_chars=0)
    assert unlimited["meteor"] == Meteor(max_segment_chars=None).sentence_score("a" * 100_001, "a" * 100_001).score


# -- characters (item 4) -------------------------------------------------------------------------

def test_characters_are_limited_before_normalisation():
    with pytest.raises(ValueError, match=r"the hypothesis has 100,001 characters, more than max_segment_chars="):
        Meteor().sentence_score("a" * 100_001, "a")
    with pytest.raises(ValueError, match=r"^segment 1: reference 1 has 100,001 characters"):
        Meteor().score_pairs([("a", ["a"]), ("a", ["a", "b" * 100_001])])
    with pytest.raises(ValueError, match="the text has 11 characters, more than max_segment_chars=10"):
        Meteor(max_segment_chars=10).tokens("a" * 11)
    assert Meteor(max_segment_chars=None).sentence_score("a" * 100_001, "a" * 100_001).score > 0.9


def test_score_cli_refuses_a_huge_token_by_name(tmp_path):
    (tmp_path / "h.txt").write_text("a\n" + "x" * 300_000 + "\n")
    (tmp_path / "r.txt").write_text("a\nb\n")
    proc = cli("score", "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt"), timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == ("meteor-metric: error: segment 2: the hypothesis has 300,000 characters, more than "
                           "--max-chars 100,000: normalising a text takes time in proportion to its length. Split "
                           "long documents into sentences, or raise --max-chars\n")
    ok = cli("score", "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt"), "--max-chars", "0",
             "--score-only", timeout=60)
    assert ok.returncode == 0, ok.stderr


# -- standard input (item 4) ---------------------------------------------------------------------

def test_standard_input_beyond_the_spool_bound_is_refused_and_not_kept(tmp_path, monkeypatch, capsys):
    import io

    from meteor_metric.cli import common

    monkeypatch.setattr(common, "MAX_SPOOL_BYTES", 1_000)
    monkeypatch.setattr(common, "_SPOOL_CHUNK", 100)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ref = tmp_path / "r.txt"
    ref.write_text("a b\n" * 500)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a b\n" * 500)))
    assert main(["score", "--hyp", "-", "--ref", str(ref)]) == 2
    assert "standard input holds more than 1,000 bytes" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.txt"]


def test_a_full_disk_while_spooling_is_a_clear_error_and_leaves_nothing(tmp_path):
    """A file-size limit makes writing the spool fail like a full disk (EFBIG instead of ENOSPC)."""
    spool_dir = tmp_path / "tmp"
    spool_dir.mkdir()
    ref = tmp_path / "r.txt"
    ref.write_text("a b\n" * 100_000)

    def small_files():
        import resource
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))

    proc = cli("score", "--hyp", "-", "--ref", str(ref), stdin="a b\n" * 100_000, preexec_fn=small_files,
               env={**os.environ, "TMPDIR": str(spool_dir)})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("meteor-metric: error: cannot copy standard input to a temporary file in ")
    assert "Traceback" not in proc.stderr
    assert list(spool_dir.iterdir()) == []


def test_ctrl_c_while_spooling_leaves_nothing(tmp_path):
    spool_dir = tmp_path / "tmp"
    spool_dir.mkdir()
    ref = tmp_path / "r.txt"
    ref.write_text("a b\n")
    proc = subprocess.Popen([sys.executable, "-m", "meteor_metric", "score", "--hyp", "-", "--ref", str(ref)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
                            env={**os.environ, "TMPDIR": str(spool_dir)})
    try:
        proc.stdin.write(b"a b\n" * 1000)
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while not list(spool_dir.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list(spool_dir.iterdir()), "the spool file never appeared"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    finally:
        proc.kill()
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    assert list(spool_dir.iterdir()) == []


# -- the garbage-collector pause (item 9) --------------------------------------------------------

def test_gc_pause_holds_while_any_thread_is_inside_and_ends_with_the_last():
    assert gc.isenabled()
    entered, leave_first, first_left, leave_second = (threading.Event() for _ in range(4))
    states = {}

    def first():
        with gc_paused():
            entered.set()
            leave_first.wait(10)
        first_left.set()

    def second():
        entered.wait(10)
        with gc_paused():
            leave_first.set()
            first_left.wait(10)
            states["inside after the first left"] = gc.isenabled()
            leave_second.wait(10)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    first_left.wait(10)
    time.sleep(0.05)
    leave_second.set()
    for t in threads:
        t.join(10)
    assert states == {"inside after the first left": False}
    assert gc.isenabled()


def test_gc_pause_keeps_a_collector_the_host_stopped_stopped():
    gc.disable()
    try:
        with gc_paused():
            with gc_paused():
                assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("flag", ["--max-candidates", "--max-chars", "--max-tokens"])
def test_limit_flags_take_whole_numbers(tmp_path, capsys, flag):
    text = tmp_path / "a.txt"
    text.write_text("a b\n")
    for bad in ("-1", "x"):
        with pytest.raises(SystemExit) as stop:
            main(["score", "--hyp", str(text), "--ref", str(text), flag, bad])
        assert stop.value.code == 2
        assert f"argument {flag}: expected a whole number >= 0 (0: no limit), got '{bad}'" in capsys.readouterr().err
