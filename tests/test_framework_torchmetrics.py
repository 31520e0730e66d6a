"""``meteor_metric.integrations.torchmetrics`` against the real torchmetrics (CPU torch).

Oracle: ``get_scorer(profile).corpus_score`` on the same data (the meteor-1.5 profile's segments are the
jar's, tests/test_conformance_java.py), compared with ``==``; DDP runs two real gloo processes on localhost.
"""

from __future__ import annotations

import os

import pytest

torch = pytest.importorskip("torch", reason="the torchmetrics extra is not installed")
pytest.importorskip("torchmetrics", reason="the torchmetrics extra is not installed")

import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
from torchmetrics import Metric  # noqa: E402

from framework_data import corpus  # noqa: E402
from meteor_metric import get_scorer  # noqa: E402
from meteor_metric.integrations.torchmetrics import METEORScore, meteor_score  # noqa: E402

PROFILES = ["meteor-1.5", "nltk"]


@pytest.mark.parametrize("profile", PROFILES)
def test_batches_give_the_corpus_score(profile):
    hyps, refs = corpus()
    want = get_scorer(profile).corpus_score(hyps, refs)
    metric = METEORScore(profile, return_sentence_level_score=True)
    assert isinstance(metric, Metric)
    for start in range(0, len(hyps), 37):
        metric.update(hyps[start:start + 37], refs[start:start + 37])
    score, sentences = metric.compute()
    assert score.dtype == torch.float64 and score.item() == want.score
    assert sentences.tolist() == want.segment_scores
    functional, segment_scores = meteor_score(hyps, refs, profile, return_sentence_level_score=True)
    assert functional.item() == want.score and segment_scores.tolist() == want.segment_scores


def test_states_are_summed_statistics():
    metric = METEORScore()
    assert metric._reductions["stats"] is not None and metric._defaults["stats"].dtype == torch.int64
    assert set(metric._defaults) == {"segments", "stats"}  # no segment scores kept unless asked for
    assert "sentence_scores" in METEORScore("nltk")._defaults  # its corpus score is their mean


def test_options_reach_the_scorer():
    hyps, refs = corpus()
    hyps, refs = hyps[:40], [r[0] for r in refs[:40]]
    options = dict(normalization="lc_only", modules=["exact", "stem"], task="hter")
    want = get_scorer("meteor-1.5", **options).corpus_score(hyps, refs)
    metric = METEORScore(**options, sync_on_compute=False)
    metric.update(hyps, refs)
    assert metric.compute().item() == want.score != get_scorer().corpus_score(hyps, refs).score
    assert metric.signature == get_scorer("meteor-1.5", **options).signature
    assert metric.sync_on_compute is False
    with pytest.raises(ValueError, match="unknown profile"):
        METEORScore("bleu")


def test_forward_and_strings():
    metric = METEORScore()
    batch = metric("the cat sat on the mat", ["the cat sat on a mat"])
    assert batch.item() == get_scorer().corpus_score(["the cat sat on the mat"], ["the cat sat on a mat"]).score
    metric.update(["a dog"], [["a dog", "the dog"]])
    want = get_scorer().corpus_score(["the cat sat on the mat", "a dog"], ["the cat sat on a mat", ["a dog", "the dog"]])
    assert metric.compute().item() == want.score


def test_bad_input_and_empty_state():
    metric = METEORScore()
    with pytest.raises(ValueError, match="no predictions yet"):
        metric.compute()
    with pytest.raises(ValueError, match="2 predictions but 1 references"):
        metric.update(["a", "b"], [["a"]])
    with pytest.raises(TypeError, match=r"references\[0\] must be a string or a list of strings, got int"):
        metric.update(["a"], [3])


def test_plot():
    pytest.importorskip("matplotlib", reason="torchmetrics' plot needs matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    hyps, refs = corpus()
    metric = METEORScore()
    values = [metric(hyps[k:k + 30], refs[k:k + 30]) for k in range(0, 120, 30)]
    fig, ax = metric.plot(values)
    assert [line.get_ydata().tolist() for line in ax.get_lines()][0] == [v.item() for v in values]


def _ddp_worker(rank: int, world: int, init_file: str, profile: str, out_dir: str) -> None:
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=world)
    try:
        hyps, refs = corpus()
        half = len(hyps) // world
        metric = METEORScore(profile, return_sentence_level_score=True)
        metric.update(hyps[rank * half:(rank + 1) * half], refs[rank * half:(rank + 1) * half])
        score, sentences = metric.compute()
        torch.save({"score": score, "sentences": sentences, "local": int(metric.segments)},
                   os.path.join(out_dir, f"rank{rank}.pt"))
    finally:
        dist.destroy_process_group()


@pytest.mark.parametrize("profile", PROFILES)
def test_ddp_two_gloo_processes_give_the_single_process_score(tmp_path, monkeypatch, profile):
    """Two processes, each with half of the corpus, sync their states (sum; cat in rank order)."""
    hyps, refs = corpus()
    want = get_scorer(profile).corpus_score(hyps, refs)
    monkeypatch.setenv("GLOO_SOCKET_IFNAME", "lo")  # localhost only
    mp.spawn(_ddp_worker, args=(2, str(tmp_path / "store"), profile, str(tmp_path)), nprocs=2, join=True)
    for rank in range(2):
        out = torch.load(tmp_path / f"rank{rank}.pt")
        assert out["score"].item() == want.score
        assert out["sentences"].tolist() == want.segment_scores
        assert out["local"] == len(hyps) // 2  # compute() restored the local state after syncing


def test_original_profile_sums_every_chunk():
    """The 2005 profile sums every segment's chunks (no perfect-segment rule): the adapter follows the scorer."""
    hyps, refs = corpus()
    short = [(h, r) for h, r in zip(hyps, refs) if len(h.split()) < 25][:40]
    hyps, refs = [h for h, _ in short], [r for _, r in short]
    metric = METEORScore("original")
    metric.update(hyps[:20], refs[:20])
    metric.update(hyps[20:], refs[20:])
    assert metric.compute().item() == get_scorer("original").corpus_score(hyps, refs).score
