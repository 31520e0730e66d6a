"""The ``evaluate`` plugin: loading, schemas, incremental and distributed use, against the jar's numbers.

Oracle: Java METEOR 1.5 (pycocoevalcap 1.2 jar) scores of the example files, stored in
examples/jar-scores.json by benchmarks/jar.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import evaluate
import pytest

import meteor_metric
import meteor_metric.meteor15.paraphrase
from meteor_metric.meteor15.paraphrase import default_cache_dir
from meteor_metric.core.corpus_io import read_lines

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
TOLERANCE = 1e-12
HYPS = read_lines(str(EXAMPLES / "hyp.txt"))
REF1 = read_lines(str(EXAMPLES / "ref.txt"))
REF2 = read_lines(str(EXAMPLES / "ref2.txt"))


@pytest.fixture(scope="module", autouse=True)
def paraphrase_table(default_meteor):
    """Everything here needs the English paraphrase table."""


@pytest.fixture()
def metric(tmp_path):
    return evaluate.load(meteor_metric.EVALUATE_MODULE, cache_dir=str(tmp_path))


def assert_jar(result: dict, golden: dict) -> None:
    assert abs(result["meteor"] - golden["final_score"]) <= TOLERANCE
    assert len(result["scores"]) == len(golden["segment_scores"])
    assert all(abs(a - b) <= TOLERANCE for a, b in zip(result["scores"], golden["segment_scores"]))


def test_single_reference_strings_equal_the_jar(metric):
    result = metric.compute(predictions=HYPS, references=REF1, return_segment_scores=True)
    assert_jar(result, JAR["one_ref"])
    assert result["signature"].startswith("meteor-1.5|lang:en|task:rank|norm:norm|")
    assert "|nrefs:1|" in result["signature"]
    assert set(result) == {"meteor", "precision", "recall", "fmean", "fragmentation_penalty", "signature", "scores"}


def test_multiple_references_equal_the_jar(metric):
    refs = [[a, b] for a, b in zip(REF1, REF2)]
    assert_jar(metric.compute(predictions=HYPS, references=refs, return_segment_scores=True), JAR["two_refs"])


@pytest.mark.parametrize("first", ["list", "string"])
def test_a_batch_may_mix_strings_and_lists(metric, first):
    """evaluate alone would split the plain strings into characters when the first item is a list."""
    refs = [[r] if (k % 2 == 0) == (first == "list") else r for k, r in enumerate(REF1)]
    assert_jar(metric.compute(predictions=HYPS, references=refs, return_segment_scores=True), JAR["one_ref"])


def test_add_and_add_batch_accumulate(metric):
    for k in range(0, 60, 20):
        metric.add_batch(predictions=HYPS[k:k + 20], references=REF1[k:k + 20])
    for hyp, ref in zip(HYPS[60:], REF1[60:]):
        metric.add(prediction=hyp, reference=ref)
    assert_jar(metric.compute(return_segment_scores=True), JAR["one_ref"])


def test_keep_in_memory():
    metric = evaluate.load(meteor_metric.EVALUATE_MODULE, keep_in_memory=True)
    metric.add_batch(predictions=HYPS, references=REF1)
    assert_jar(metric.compute(return_segment_scores=True), JAR["one_ref"])


def test_combine_with_another_profile(tmp_path):
    combined = evaluate.combine([
        evaluate.load(meteor_metric.EVALUATE_MODULE, cache_dir=str(tmp_path)),
        evaluate.load(meteor_metric.EVALUATE_MODULE, "original", cache_dir=str(tmp_path)),
    ], force_prefix=True)
    result = combined.compute(predictions=HYPS, references=REF1)
    assert abs(result["meteor_metric_0_meteor"] - JAR["one_ref"]["final_score"]) <= TOLERANCE
    original = meteor_metric.get_scorer("original").corpus_score(HYPS, REF1)
    assert result["meteor_metric_1_meteor"] == original.score
    assert result["meteor_metric_1_signature"].startswith("meteor-original|")


def test_bad_input_is_named_and_leaves_the_metric_usable(metric):
    with pytest.raises(TypeError, match=r"predictions\[1\] must be a string, got None"):
        metric.add_batch(predictions=["a", None], references=["a", "b"])
    with pytest.raises(ValueError, match="2 predictions but 1 references"):
        metric.add_batch(predictions=["a", "b"], references=["a"])
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        metric.add_batch(predictions=["a"], references=[[]])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] must be a string, got int"):
        metric.add(prediction="a", reference=["a", 3])
    with pytest.raises(ValueError, match="unknown profile 'java'"):
        metric.compute(predictions=["a"], references=["a"], profile="java")
    with pytest.raises(ValueError, match="does not apply to the nltk profile"):
        metric.compute(predictions=["a"], references=["a"], profile="nltk", normalization="norm")
    assert_jar(metric.compute(predictions=HYPS, references=REF1, return_segment_scores=True), JAR["one_ref"])


def test_empty_corpus_is_an_error(metric):
    with pytest.raises(ValueError, match="empty corpus"):
        metric.compute(predictions=[], references=[])


DISTRIBUTED = textwrap.dedent("""
    import json, sys, evaluate, meteor_metric
    from meteor_metric.core.corpus_io import read_lines
    rank, cache, profile = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    hyps = read_lines(sys.argv[4]); refs = read_lines(sys.argv[5])
    metric = evaluate.load(meteor_metric.EVALUATE_MODULE, num_process=2, process_id=rank,
                           experiment_id="dist-test", cache_dir=cache)
    half = len(hyps) // 2
    part = slice(0, half) if rank == 0 else slice(half, None)
    for k in range(part.start, part.stop or len(hyps), 10):
        stop = min(k + 10, part.stop or len(hyps))
        metric.add_batch(predictions=hyps[k:stop], references=refs[k:stop])
    print(json.dumps(metric.compute(profile=profile, return_segment_scores=True)))
""")


@pytest.mark.parametrize("profile", ["meteor-1.5", "nltk", "original"])
def test_two_process_distributed_run_equals_one_process(tmp_path, profile):
    script = tmp_path / "rank.py"
    script.write_text(DISTRIBUTED)
    cmd = [sys.executable, str(script), "", str(tmp_path / "cache"), profile,
           str(EXAMPLES / "hyp.txt"), str(EXAMPLES / "ref.txt")]
    # offline, an empty HOME and no nltk_data, like test_evaluate_offline.py; the compiled paraphrase
    # index is taken from this session's cache (that test builds one from nothing)
    home, nltk_data = tmp_path / "home", tmp_path / "nltk_data"
    home.mkdir()
    nltk_data.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "XDG_", "NLTK_")) and k != "HOME"}
    env.update(HOME=str(home), HF_EVALUATE_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1",
               NLTK_DATA=str(nltk_data), METEOR_METRIC_CACHE=str(default_cache_dir()))
    procs = []
    for rank in (0, 1):
        cmd[2] = str(rank)
        procs.append(subprocess.Popen(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                      env=env, cwd=tmp_path))
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs[0][1][-3000:] + outs[1][1][-3000:]
    assert outs[1][0].strip() == "null"  # only rank 0 returns the result
    distributed = json.loads(outs[0][0])
    single = evaluate.load(meteor_metric.EVALUATE_MODULE, cache_dir=str(tmp_path / "single"))
    assert distributed == single.compute(predictions=HYPS, references=REF1, profile=profile,
                                         return_segment_scores=True)
    if profile == "meteor-1.5":
        assert_jar(distributed, JAR["one_ref"])


def test_an_unknown_config_name_fails_at_load(tmp_path):
    with pytest.raises(ValueError, match="unknown config name 'foo'.*meteor-1.5, nltk, original"):
        evaluate.load(meteor_metric.EVALUATE_MODULE, "foo", cache_dir=str(tmp_path))


def test_a_missing_resource_fails_at_load_with_the_library_message(tmp_path, monkeypatch):
    monkeypatch.delenv("METEOR_METRIC_PARAPHRASE_DIR", raising=False)
    with pytest.raises(meteor_metric.meteor15.paraphrase.ParaphraseTableNotFound) as err:
        evaluate.load(meteor_metric.EVALUATE_MODULE, language="de", cache_dir=str(tmp_path))
    with pytest.raises(meteor_metric.meteor15.paraphrase.ParaphraseTableNotFound) as direct:
        meteor_metric.get_scorer("meteor-1.5", "de")
    assert str(err.value) == str(direct.value)
    assert "choose modules without 'paraphrase'" in str(err.value)


def test_resources_are_prepared_at_load(tmp_path, monkeypatch):
    """After evaluate.load, compute() needs no paraphrase table load: the scorer was made at load."""
    metric = evaluate.load(meteor_metric.EVALUATE_MODULE, cache_dir=str(tmp_path))

    def no_more_loading(*args, **kwargs):
        raise AssertionError("compute() loaded a paraphrase table")

    monkeypatch.setattr(meteor_metric.meteor15.paraphrase.ParaphraseTable, "load", no_more_loading)
    result = metric.compute(predictions=HYPS, references=REF1)
    assert abs(result["meteor"] - JAR["one_ref"]["final_score"]) <= TOLERANCE


def test_load_time_options_are_the_compute_defaults(tmp_path):
    """Options given to evaluate.load are compute()'s defaults: the same numbers as passing them to compute()."""
    at_load = evaluate.load(meteor_metric.EVALUATE_MODULE, modules=["exact", "stem"], cache_dir=str(tmp_path))
    by_load = at_load.compute(predictions=HYPS, references=REF1)
    by_compute = evaluate.load(meteor_metric.EVALUATE_MODULE, cache_dir=str(tmp_path / "b")).compute(
        predictions=HYPS, references=REF1, modules=["exact", "stem"])
    assert by_load == by_compute
    assert "|mods:ex_st|" in by_load["signature"]
    with pytest.raises(TypeError, match="unexpected argument.*langauge"):
        at_load.compute(predictions=HYPS, references=REF1, langauge="de")
