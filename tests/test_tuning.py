"""Tuning: vectorized scores equal Meteor's (and the jar's), the tuner recovers known parameters,
shipped presets, preset files through the CLI, and clear errors for bad preset files."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from meteor_metric import Meteor, get_scorer
from meteor_metric.cli.main import main
from meteor_metric.analysis.correlation import kendall
from meteor_metric.meteor15.presets import SHIPPED_TASKS, PresetError, load_preset, load_shipped, preset_dict
from meteor_metric.core.stats import MeteorStats
from meteor_metric.analysis.tuning import Config, TuningWarning, fit, make_set, nelder_mead, tune
from meteor_metric.analysis.vectorized import StatsTable, collect_stats, corpus_scores, segment_scores

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
DEFAULT = ((1.0, 0.6, 0.8, 0.6), 0.85, 0.2, 0.6, 0.75)


@pytest.fixture(scope="module")
def meteor(default_meteor) -> Meteor:
    return default_meteor


def _lines(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def two_ref_table(meteor) -> tuple[StatsTable, list[str], list[list[str]]]:
    hyps = _lines("hyp.txt")
    refs = [list(r) for r in zip(_lines("ref.txt"), _lines("ref2.txt"))]
    return collect_stats(meteor, hyps, refs), hyps, refs


def test_vectorized_equals_jar_two_refs(two_ref_table):
    table, hyps, _ = two_ref_table
    gold = JAR["two_refs"]
    seg, best = segment_scores(table, *DEFAULT)
    assert np.max(np.abs(seg - np.array(gold["segment_scores"]))) <= 1e-12
    assert [MeteorStats.from_list(row.tolist()).to_line() for row in table.stats[best]] == gold["stats_lines"]
    corpus = corpus_scores(table, best, np.zeros(len(hyps), dtype=int), 1, *DEFAULT)
    assert abs(corpus[0] - gold["final_score"]) <= 1e-12


def test_vectorized_equals_jar_captions(meteor):
    """500 Flickr8k-CrowdFlower candidates with 5 references each, scored by the jar."""
    with gzip.open(REPO / "tests/data/java15/flickr8k_cf.sample.jsonl.gz", "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f][:200]
    table = collect_stats(meteor, [r["hyp"] for r in rows], [r["refs"] for r in rows])
    seg, best = segment_scores(table, *DEFAULT)
    assert np.max(np.abs(seg - np.array([r["expected"]["score"] for r in rows]))) <= 1e-12
    assert all(table.stats[b].tolist() == [int(v) for v in r["expected"]["stats"]] for b, r in zip(best, rows))


@pytest.mark.parametrize("weights, params", [((1.0, 0.2, 0.9, 0.1), (0.3, 2.5, 0.9, 0.4)),
                                            ((1.0, 1.0, 0.0, 1.0), (1.0, 0.0, 0.0, 0.0)),
                                            ((1.0, 0.0, 0.5, 0.7), (0.0, 5.0, 1.0, 1.0))])
def test_vectorized_equals_scalar_any_parameters(two_ref_table, weights, params):
    """The best reference can change with the parameters; the first maximum wins, as in Meteor."""
    table, hyps, refs = two_ref_table
    scalar = Meteor(weights=weights, parameters=params)
    results = [scalar.sentence_score(h, r) for h, r in zip(hyps, refs)]
    seg, best = segment_scores(table, weights, *params)
    assert np.max(np.abs(seg - np.array([r.score for r in results]))) <= 1e-12
    assert (best - 2 * np.arange(len(hyps))).tolist() == [r.best_ref for r in results]


def test_kendall_matches_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(40):
        n = int(rng.integers(2, 40))
        x, y = rng.integers(0, 5, n).astype(float), rng.integers(0, 4, n).astype(float)
        c = d = 0
        for i in range(n):
            for j in range(i + 1, n):
                s = np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
                c, d = c + (s > 0), d + (s < 0)
        m = min(len(set(x)), len(set(y)))
        if m > 1:
            assert kendall(x, y, "c") == pytest.approx(2 * (c - d) / (n * n * (m - 1) / m), abs=1e-12)


def _synthetic_table(n: int, rng: np.random.Generator) -> StatsTable:
    """Plausible random statistics: 2 references per segment, 4 modules."""
    rows = []
    for _ in range(2 * n):
        t_len, r_len = rng.integers(4, 30, 2)
        t_fw, r_fw = rng.integers(0, t_len // 2 + 1), rng.integers(0, r_len // 2 + 1)
        left_t, left_r = t_len, r_len
        slots = []
        for _m in range(4):
            k = int(rng.integers(0, max(1, min(left_t, left_r) // 2) + 1))
            fw = int(rng.integers(0, k + 1)) // 2
            slots += [k - fw, k - fw, fw, fw]
            left_t, left_r = left_t - k, left_r - k
        words = sum(slots[0::4]) + sum(slots[2::4])
        chunks = int(rng.integers(1, words + 1)) if words else 0
        rows.append([t_len, r_len, t_fw, r_fw] + slots + [chunks, words, words])
    return StatsTable(np.array(rows), np.repeat(np.arange(n), 2), 4)


def test_tuner_recovers_known_parameters():
    rng = np.random.default_rng(7)
    table = _synthetic_table(1500, rng)
    truth = Config((1.0, 0.3, 0.7, 0.5), 0.6, 1.5, 0.8, 0.6)
    human, _ = segment_scores(table, truth.weights, *truth.parameters)
    ts = make_set("synthetic", table, [[h] for h in human])
    start = Config(*DEFAULT)
    result = fit([ts], "seg-kendall", start, random_starts=24, restarts=2, max_evals=250, seed=1)
    assert result.train > 0.99
    got = np.array(result.config.vector())
    assert np.max(np.abs(got - truth.vector())) < 0.1, result.config


def test_nelder_mead_stays_in_bounds():
    lo, hi = np.zeros(3), np.ones(3)
    x, fx, _ = nelder_mead(lambda v: float(((v - np.array([0.2, 1.7, -3.0])) ** 2).sum()), np.full(3, 0.5), lo, hi)
    assert np.allclose(x, [0.2, 1.0, 0.0], atol=1e-3)


@pytest.mark.parametrize("task", SHIPPED_TASKS)
def test_shipped_presets_are_used(meteor, task):
    preset = load_shipped(task)
    assert preset.provenance["training_sets"] and preset.provenance["cv"]["per_fold"]
    m = Meteor("en", task)
    assert m.params.task == task
    assert (m.params.weights, m.params.parameters) == (preset.weights, preset.parameters)
    assert f"|task:{task}|" in m.signature and f"|preset:{preset.ident}|" in m.signature
    assert get_scorer("meteor-1.5", task=task).signature == m.signature


def _write(path: Path, data) -> str:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_tune_cli_round_trip(tmp_path, meteor, capsys):
    """tune writes a preset; score --params-file and params_file= then score with it."""
    hyps, refs = _lines("hyp.txt"), _lines("ref.txt")
    target = Meteor(weights=(1.0, 0.2, 0.9, 0.3), parameters=(0.5, 1.0, 0.4, 0.6))
    rows = [{"hypothesis": h, "references": [r], "human": target.sentence_score(h, r).score, "system": f"s{k % 4}"}
            for k, (h, r) in enumerate(zip(hyps, refs))]
    data = _write(tmp_path / "train.jsonl", "\n".join(json.dumps(r) for r in rows))
    out = tmp_path / "p.json"
    assert main(["tune", "--data", data, "--out", str(out), "--folds", "2", "--random-starts", "4",
                 "--max-evals", "40"]) == 0
    printed = capsys.readouterr().out
    assert "fold 1: train" in printed and "fold 2: train" in printed and "cross-validation" in printed
    preset = load_preset(str(out))
    assert preset.name == "p" and preset.provenance["cv"]["folds"] == 2
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    assert main(["score", "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt"),
                 "--params-file", str(out), "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    expected = Meteor(weights=preset.weights, parameters=preset.parameters).corpus_score(hyps, refs)
    assert scored["score"] == expected.score
    assert f"preset:p@{preset.digest}" in scored["signature"]
    assert get_scorer("meteor-1.5", params_file=str(out)).signature == Meteor(params_file=str(out)).signature


GOOD = preset_dict("x", "en", ["exact", "stem"], [1.0, 0.5], [0.8, 1.0, 0.5, 0.7])


@pytest.mark.parametrize("change, message", [
    ({"alpha": 1.5}, "'alpha' must be a number in [0, 1]"),
    ({"beta": -1}, "'beta' must be a number in [0, inf]"),
    ({"weights": [1.0]}, "'weights' must be 2 numbers"),
    ({"modules": ["exact", "bogus"]}, "'modules' must be a list"),
    ({"language": "xx-yy"}, "'language': unknown language"),
    ({"gamma": "0.5"}, "'gamma' must be a number"),
    ({"alhpa": 0.5}, "unknown field(s): alhpa"),
    ({"delta": None}, "'delta' must be a number"),
])
def test_bad_preset_files(tmp_path, change, message):
    path = _write(tmp_path / "bad.json", {**GOOD, **change})
    with pytest.raises(PresetError) as err:
        load_preset(path)
    assert message in str(err.value) and "bad.json" in str(err.value)


def test_bad_preset_file_messages(tmp_path, capsys):
    assert "missing field(s): alpha" in _error(_write(tmp_path / "a.json", {k: v for k, v in GOOD.items()
                                                                            if k != "alpha"}))
    assert "not valid UTF-8 JSON" in _error(_write(tmp_path / "b.json", "{not json"))
    assert "cannot read preset file" in _error(str(tmp_path / "missing.json"))
    h = _write(tmp_path / "h.txt", "a cat\n")
    assert main(["score", "--hyp", h, "--ref", h, "--params-file", str(tmp_path / "b.json")]) == 2
    assert "not valid UTF-8 JSON" in capsys.readouterr().err
    with pytest.raises(ValueError, match="do not also give task"):
        Meteor(task="adq", params_file=_write(tmp_path / "g.json", GOOD))


def _error(path: str) -> str:
    with pytest.raises(PresetError) as err:
        load_preset(path)
    return str(err.value)


def test_evaluate_wrapper_params_file_and_task(tmp_path, meteor):
    import evaluate

    import meteor_metric

    preset = _write(tmp_path / "e.json", GOOD)
    metric = evaluate.load(meteor_metric.EVALUATE_MODULE, keep_in_memory=True)
    hyps, refs = _lines("hyp.txt")[:5], [[r] for r in _lines("ref.txt")[:5]]
    out = metric.compute(predictions=hyps, references=refs, params_file=preset)
    assert out["meteor"] == Meteor(params_file=preset).corpus_score(hyps, refs).score
    assert f"preset:x@{load_preset(preset).digest}" in out["signature"]
    out = metric.compute(predictions=hyps, references=refs, task="mqm")
    assert out["meteor"] == Meteor("en", "mqm").corpus_score(hyps, refs).score


def test_tune_rejects_sets_without_judgments():
    table = _synthetic_table(8, np.random.default_rng(3))
    ts = make_set("nohuman.jsonl", table, [[] for _ in range(8)])
    with pytest.raises(ValueError, match=r"nohuman.jsonl: no segment has a human judgment.*'human'"):
        tune([ts], "seg-kendall", Config(*DEFAULT), folds=2)


def test_tune_checks_folds_against_groups():
    table = _synthetic_table(3, np.random.default_rng(3))
    ts = make_set("three.jsonl", table, [[0.1], [0.5], [0.9]])
    with pytest.raises(ValueError, match=r"three.jsonl: 5 folds but only 3 judged group\(s\); use folds <= 3"):
        tune([ts], "seg-kendall", Config(*DEFAULT), folds=5)


def test_tune_warns_on_tiny_data_and_nan_folds():
    table = _synthetic_table(3, np.random.default_rng(3))
    ts = make_set("three.jsonl", table, [[0.1], [0.5], [0.9]])
    with pytest.warns(TuningWarning) as caught:
        result = tune([ts], "seg-kendall", Config(*DEFAULT), folds=3, random_starts=2, restarts=1, max_evals=20)
    messages = [str(w.message) for w in caught]
    assert any("only 3 judgments" in m for m in messages)
    assert any("validation correlation is NaN" in m for m in messages)  # one segment per fold: no pairs
    assert len(result.folds) == 3
