"""Paired significance tests: vectorized scores against the jar's golden corpus scores, p-values
against a direct scalar implementation, seeds, errors, CI coverage, and the compare command.

Oracles: Java METEOR 1.5 corpus scores (examples/jar-scores.json, tests/data/java15/*.corpus.json)
computed by the jar from its own -ssOut statistics.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from conformance import JAVA15, read_jsonl, scorer_for
from meteor_metric import Meteor, MeteorStats, SegmentResult, get_scorer
from meteor_metric.cli.main import main
from meteor_metric.analysis.significance import (paired_approximate_randomization, paired_bootstrap, sample_model)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
TOLERANCE = 1e-12
TESTS = (paired_bootstrap, paired_approximate_randomization)


def _lines(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


def _from_stats(stats: list[MeteorStats], scorer) -> list[SegmentResult]:
    """Segment results carrying given (jar) statistics; the tests only read stats and signature."""
    return [SegmentResult(scorer.score_stats(s).score, 0.0, 0.0, 0.0, 0.0, s.chunks, s, 0, (), (), (),
                          scorer.signature) for s in stats]


def _degrade(text: str, rng: random.Random) -> str:
    """Drop every third word and shuffle the rest: a clearly worse translation."""
    words = [w for i, w in enumerate(text.split()) if i % 3]
    rng.shuffle(words)
    return " ".join(words)


@pytest.fixture(scope="module")
def meteor() -> Meteor:
    return get_scorer("meteor-1.5")


@pytest.fixture(scope="module")
def example_systems(meteor):
    refs = _lines("ref.txt")
    rng = random.Random(5)
    hyps = _lines("hyp.txt")
    return {
        "mt": [meteor.sentence_score(h, r) for h, r in zip(hyps, refs)],
        "degraded": [meteor.sentence_score(_degrade(h, rng), r) for h, r in zip(hyps, refs)],
    }


@pytest.fixture(scope="module")
def ted_pair():
    """Two WMT21 systems on the same 106 TED segments, with the jar's statistics."""
    by_system = defaultdict(dict)
    args = None
    for row in read_jsonl(JAVA15 / "tedtalks_zh-en.sample.jsonl.gz"):
        if row["variant"] == "1ref" and row["system"] in ("Facebook-AI", "metricsystem5"):
            by_system[row["system"]][row["seg_id"]] = MeteorStats.from_list(row["expected"]["stats"])
            args = tuple(row["config"]["args"])
    scorer = scorer_for(args)
    ids = sorted(set(by_system["Facebook-AI"]) & set(by_system["metricsystem5"]))
    assert len(ids) == 106
    return scorer, {name: _from_stats([stats[k] for k in ids], scorer) for name, stats in by_system.items()}


# -- the vectorized scorer equals the jar ---------------------------------------------------------


@pytest.mark.parametrize("variant", ["one_ref", "two_refs"])
def test_vectorized_score_of_jar_stats_equals_jar_corpus_score(meteor, variant):
    stats = [MeteorStats.from_line(line) for line in JAR[variant]["stats_lines"]]
    segments = _from_stats(stats, meteor)
    model = sample_model(meteor)
    rows = model.rows(segments)
    got = model.scores(rows.sum(0, keepdims=True), len(rows))[0]
    assert abs(got - JAR[variant]["final_score"]) <= TOLERANCE
    assert abs(paired_bootstrap({"x": segments}, "x", meteor, 10).systems["x"].score
               - JAR[variant]["final_score"]) <= TOLERANCE


def test_test_scores_of_our_segments_equal_jar_and_aggregate(meteor, example_systems):
    segments = example_systems["mt"]
    aggregate = meteor.aggregate(segments, [1] * len(segments)).score
    for test in TESTS:
        score = test(example_systems, "mt", meteor, 20).systems["mt"].score
        assert abs(score - JAR["one_ref"]["final_score"]) <= TOLERANCE
        assert abs(score - aggregate) <= TOLERANCE


def _edge_groups():
    return json.loads((JAVA15 / "edge_cases.corpus.json").read_text())["groups"]


@pytest.mark.parametrize("group", _edge_groups(), ids=lambda g: g["config"]["name"])
def test_vectorized_score_equals_jar_for_every_configuration(group):
    """25 configurations (tasks, custom parameters, module subsets and orders, char mode, languages)."""
    stats_by_id = {row["id"]: row["expected"]["stats"] for row in read_jsonl(JAVA15 / "edge_cases.jsonl.gz")}
    scorer = scorer_for(tuple(group["config"]["args"]))
    n_modules = len(group["config"]["modules"])
    segments = _from_stats([MeteorStats.from_list(stats_by_id[i], n_modules) for i in group["ids"]], scorer)
    model = sample_model(scorer)
    got = model.scores(model.rows(segments).sum(0, keepdims=True), len(segments))[0]
    assert abs(got - group["corpus_score"]) <= TOLERANCE


def test_vectorized_samples_equal_the_scalar_scorer(ted_pair):
    """Random multisets of segments (perfect ones included) scored both ways."""
    scorer, systems = ted_pair
    segments = systems["Facebook-AI"] + systems["metricsystem5"]
    assert any(s.stats.is_perfect for s in segments)
    model = sample_model(scorer)
    rows = model.rows(segments)
    rng = np.random.default_rng(3)
    counts = np.array([np.bincount(rng.integers(len(segments), size=size), minlength=len(segments))
                       for size in (1, 2, 3, 50, 212, 400)], dtype=np.float64)
    counts[0] = 0
    counts[0, [s.stats.is_perfect for s in segments].index(True)] = 1  # a lone perfect segment
    got = model.scores(counts @ rows, len(segments))
    for c, value in zip(counts, got):
        chosen = [s.stats for s, times in zip(segments, c) for _ in range(int(times))]
        assert abs(value - scorer.score_stats(MeteorStats.sum(chosen)).score) <= TOLERANCE


def test_nltk_profile_samples_are_means_of_segment_scores():
    nltk = get_scorer("nltk")
    hyps, refs = _lines("hyp.txt"), _lines("ref.txt")
    segments = [nltk.sentence_score(h, r) for h, r in zip(hyps, refs)]
    result = paired_bootstrap({"mt": segments}, "mt", nltk, 50)
    assert abs(result.systems["mt"].score - nltk.aggregate(segments, [1] * len(segments)).score) <= TOLERANCE
    assert "|test:paired-bs|n:50|seed:12345" in result.signature and result.signature.startswith("meteor-nltk|")


def test_original_profile_samples_equal_its_summed_statistics():
    """The 2005 formula on summed statistics (no perfect-segment rule), sampled and scored both ways."""
    original = get_scorer("original")
    hyps, refs, refs2 = _lines("hyp.txt"), _lines("ref.txt"), _lines("ref2.txt")
    mt = [original.sentence_score(h, r) for h, r in zip(hyps, refs)]
    human = [original.sentence_score(h, r) for h, r in zip(refs2, refs)]
    model = sample_model(original)
    rng = np.random.default_rng(5)
    counts = np.array([np.bincount(rng.integers(len(mt), size=size), minlength=len(mt)) for size in (1, 7, 100)],
                      dtype=np.float64)
    for c, value in zip(counts, model.scores(counts @ model.rows(mt), len(mt))):
        chosen = [s for s, times in zip(mt, c) for _ in range(int(times))]
        assert abs(value - original.aggregate(chosen, [1] * len(chosen)).score) <= TOLERANCE
    result = paired_bootstrap({"mt": mt, "same": mt, "human": human}, "mt", original, 200)
    assert result.systems["same"].p_value == 1.0
    assert result.signature.startswith("meteor-original|")


# -- p-values ------------------------------------------------------------------------------------


def _scalar_score(scorer, stats: list[MeteorStats]) -> float:
    return scorer.score_stats(MeteorStats.sum(stats)).score


def test_bootstrap_p_value_and_ci_match_a_direct_implementation(ted_pair):
    """The same resamples drawn one by one, every sample scored by the scalar scorer."""
    scorer, systems = ted_pair
    a, b = systems["Facebook-AI"], systems["metricsystem5"]
    n, samples = len(a), 300
    rng = np.random.default_rng(77)
    diffs, scores_b = [], []
    for pick in rng.integers(n, size=(samples, n)):  # one block: all samples in one draw
        sa = _scalar_score(scorer, [a[k].stats for k in pick])
        sb = _scalar_score(scorer, [b[k].stats for k in pick])
        diffs.append(abs(sb - sa))
        scores_b.append(sb)
    observed = abs(_scalar_score(scorer, [s.stats for s in b]) - _scalar_score(scorer, [s.stats for s in a]))
    centred = np.array(diffs) - np.mean(diffs)
    expected_p = (np.sum(centred >= observed) + 1) / (samples + 1)
    result = paired_bootstrap(systems, "Facebook-AI", scorer, samples, seed=77)
    assert result.systems["metricsystem5"].p_value == pytest.approx(expected_p, abs=1e-12)
    ordered = sorted(scores_b)
    assert result.systems["metricsystem5"].ci == pytest.approx((ordered[7], ordered[292]), abs=1e-12)


def test_ar_p_value_matches_a_direct_implementation(ted_pair):
    scorer, systems = ted_pair
    a, b = systems["Facebook-AI"], systems["metricsystem5"]
    n, samples = len(a), 300
    rng = np.random.default_rng(78)
    count = 0
    observed = abs(_scalar_score(scorer, [s.stats for s in b]) - _scalar_score(scorer, [s.stats for s in a]))
    for swap in rng.integers(2, size=(samples, n), dtype=bool):
        sa = _scalar_score(scorer, [(y if s else x).stats for x, y, s in zip(a, b, swap)])
        sb = _scalar_score(scorer, [(x if s else y).stats for x, y, s in zip(a, b, swap)])
        count += abs(sa - sb) >= observed
    result = paired_approximate_randomization(systems, "Facebook-AI", scorer, samples, seed=78)
    assert result.systems["metricsystem5"].p_value == pytest.approx((count + 1) / (samples + 1), abs=1e-12)


@pytest.mark.parametrize("test", TESTS, ids=["bs", "ar"])
def test_a_system_against_itself_gives_p_1(test, meteor, example_systems):
    systems = {"mt": example_systems["mt"], "copy": list(example_systems["mt"])}
    result = test(systems, "mt", meteor, 200)
    assert result.systems["copy"].p_value == 1.0
    assert result.systems["mt"].p_value is None


@pytest.mark.parametrize("test", TESTS, ids=["bs", "ar"])
def test_a_clearly_worse_system_is_significant(test, meteor, example_systems):
    result = test(example_systems, "mt", meteor, 1000)
    worse = result.systems["degraded"]
    assert worse.score < result.systems["mt"].score - 0.1
    assert worse.p_value < 0.05
    assert worse.ci[1] < result.systems["mt"].ci[0]


def test_a_one_segment_change_is_not_significant(meteor, example_systems):
    tweaked = list(example_systems["mt"])
    tweaked[5] = example_systems["degraded"][5]
    systems = {"mt": example_systems["mt"], "tweaked": tweaked}
    assert paired_bootstrap(systems, "mt", meteor, 1000).systems["tweaked"].p_value > 0.05
    # with one differing segment, every swap pattern reproduces the observed difference
    assert paired_approximate_randomization(systems, "mt", meteor, 1000).systems["tweaked"].p_value == 1.0


def test_human_translation_vs_mt_on_ted(ted_pair):
    """Both tests agree on the real pair, and p does not depend on which one is the baseline."""
    scorer, systems = ted_pair
    for test in TESTS:
        forward = test(systems, "Facebook-AI", scorer, 500).systems["metricsystem5"].p_value
        backward = test(systems, "metricsystem5", scorer, 500).systems["Facebook-AI"].p_value
        assert forward == pytest.approx(backward, abs=1e-12)
        assert 0 < forward <= 1


@pytest.mark.parametrize("test", TESTS, ids=["bs", "ar"])
def test_seeded_and_reproducible(test, meteor, example_systems):
    first = test(example_systems, "mt", meteor, 300, seed=1)
    assert test(example_systems, "mt", meteor, 300, seed=1) == first
    other = test(example_systems, "mt", meteor, 300, seed=2)
    assert other.systems["mt"].ci != first.systems["mt"].ci
    assert first.signature.endswith(f"|test:{first.test}|n:300|seed:1" + ("|ci:bs-1000" if test is TESTS[1] else ""))
    assert other.signature != first.signature


def test_bootstrap_ci_covers_the_true_score(meteor):
    """Synthetic segment statistics with known expectations: the corpus score is scale-free, so the
    true score is the score of the expected statistics; the 95% CI must cover it ~95% of the time."""
    scorer = Meteor(modules=["exact", "stem"], weights=[1.0, 0.6])
    rng = np.random.default_rng(2024)

    def segments(n: int) -> list[SegmentResult]:
        t_len, r_len = 5 + rng.poisson(10, n), 5 + rng.poisson(12, n)
        t_fw, r_fw = rng.binomial(t_len, 0.4), rng.binomial(r_len, 0.4)
        exact = rng.binomial(t_len - t_fw, 0.5)
        exact_fw = rng.binomial(t_fw, 0.6)
        stem = rng.binomial(t_len - t_fw - exact, 0.3)
        chunks = 2 + rng.poisson(3, n)
        columns = zip(*(a.tolist() for a in (t_len, r_len, t_fw, r_fw, exact, stem, exact_fw, chunks)))
        return _from_stats([MeteorStats(tl, rl, tf, rf, (ex, st), (ex, st), (ef, 0), (ef, 0), ch,
                                        ex + st + ef, ex + st + ef)
                            for tl, rl, tf, rf, ex, st, ef, ch in columns], scorer)

    # expectations: t_len 15, r_len 17, t_fw 6, r_fw 6.8, exact 4.5, exact_fw 3.6, stem 1.35, chunks 5
    truth = scorer.score_stats(MeteorStats(15, 17, 6, 6.8, (4.5, 1.35), (4.5, 1.35), (3.6, 0), (3.6, 0),
                                           5, 9.45, 9.45)).score
    reps, covered = 200, 0
    for rep in range(reps):
        low, high = paired_bootstrap({"s": segments(300)}, "s", scorer, 500, seed=rep).systems["s"].ci
        covered += low <= truth <= high
    assert 0.89 <= covered / reps <= 0.99, covered


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("test", TESTS, ids=["bs", "ar"])
def test_errors(test, meteor, example_systems):
    mt = example_systems["mt"]
    with pytest.raises(ValueError, match="differ in length: 'mt' has 100 segments, 'short' has 99"):
        test({"mt": mt, "short": mt[:99]}, "mt", meteor)
    with pytest.raises(ValueError, match="at least 2 segments, got 1"):
        test({"mt": mt[:1]}, "mt", meteor)
    with pytest.raises(ValueError, match="unknown baseline 'nope'; the systems are: mt"):
        test({"mt": mt}, "nope", meteor)
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="n_samples must be a whole number >= 1"):
            test({"mt": mt}, "mt", meteor, bad)
    with pytest.raises(ValueError, match="seed must be a whole number >= 0"):
        test({"mt": mt}, "mt", meteor, 10, -1)
    with pytest.raises(ValueError, match="non-empty mapping"):
        test({}, "mt", meteor)
    other = Meteor(modules=["exact"])
    with pytest.raises(ValueError, match=r"systems\['mt'\]\[0\] was scored with another configuration"):
        test({"mt": mt}, "mt", other)
    with pytest.raises(TypeError, match="no significance test for object"):
        test({"mt": mt}, "mt", object())


# -- the compare command -------------------------------------------------------------------------


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_compare_command_text_and_json(tmp_path, capsys):
    rng = random.Random(9)
    hyps = _lines("hyp.txt")
    worse = _write(tmp_path / "worse.txt", [_degrade(h, rng) for h in hyps])
    base = str(EXAMPLES / "hyp.txt")
    refs = ["--ref", str(EXAMPLES / "ref.txt"), "--ref", str(EXAMPLES / "ref2.txt")]
    assert main(["compare", "--hyp", base, "--hyp", worse, *refs, "--test", "both", "--samples", "300"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["system", "METEOR", "delta", "95%", "CI", "p", "(paired-bs)", "p", "(paired-ar)"]
    assert lines[1].split()[:3] == ["hyp", f"{JAR['two_refs']['final_score']:.4f}", "-"]
    assert lines[1].split()[-2:] == ["baseline", "baseline"]
    assert lines[2].split()[0] == "worse" and lines[2].split()[-4:] == ["0.0033", "*", "0.0033", "*"]
    assert "|test:paired-bs|n:300|seed:12345" in out and "|test:paired-ar|n:300|seed:12345|ci:bs-1000" in out
    assert main(["compare", "--hyp", base, "--hyp", worse, *refs, "--format", "json", "--baseline", "worse",
                 "--name", "fb", "--name", "worse", "--seed", "4", "--samples", "200"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["baseline"] == "worse" and [s["name"] for s in data["systems"]] == ["fb", "worse"]
    fb = data["systems"][0]
    assert abs(fb["score"] - JAR["two_refs"]["final_score"]) <= TOLERANCE
    assert fb["ci95"][0] < fb["score"] < fb["ci95"][1] and fb["p_values"] == {"paired-bs": 1 / 201}
    assert data["tests"]["paired-bs"]["seed"] == 4


@pytest.mark.parametrize("argv, message", [
    (["--hyp", "H", "--hyp", "H"], "two systems are named 'hyp': give each one a --name"),
    (["--hyp", "H", "--hyp", "H", "--name", "a", "--name", "b", "--name", "c"], "3 --name for 2 --hyp"),
    (["--hyp", "H", "--hyp", "H", "--name", "a", "--name", "b", "--baseline", "zz"],
     "--baseline 'zz' is not one of the systems: a, b"),
    (["--hyp", "H", "--hyp", "ONE", "--name", "a", "--name", "b"], "has 1 line,"),
    (["--hyp", "H"], "compare tests systems against each other and needs at least two (--hyp A --hyp B), got one"),
])
def test_compare_command_errors(argv, message, tmp_path, capsys):
    one = _write(tmp_path / "one.txt", ["a single line"])
    argv = [one if a == "ONE" else str(EXAMPLES / "hyp.txt") if a == "H" else a for a in argv]
    assert main(["compare", *argv, "--ref", str(EXAMPLES / "ref.txt"), "--samples", "10"]) == 2
    assert message in capsys.readouterr().err


def test_compare_needs_two_segments(tmp_path, capsys):
    one = _write(tmp_path / "one.txt", ["a single line"])
    assert main(["compare", "--hyp", one, "--hyp", one, "--name", "a", "--name", "b", "--ref", one,
                 "--modules", "exact"]) == 2
    assert "at least 2 segments, got 1" in capsys.readouterr().err
