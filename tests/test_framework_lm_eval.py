"""``meteor_metric.integrations.lm_eval`` inside the real lm-evaluation-harness.

A task is built from local data (a YAML file and a JSON-lines file in tmp_path, nothing downloaded) and run
by lm-eval's ``simple_evaluate`` with a model that answers each prompt with a WMT system's stored output.
Oracle: ``get_scorer(profile).corpus_score`` of the same outputs against the same references (``==``).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("lm_eval", reason="the lm-eval extra is not installed")

from lm_eval import simple_evaluate  # noqa: E402
from lm_eval.api.model import LM  # noqa: E402
from lm_eval.api.registry import get_aggregation, get_metric  # noqa: E402
from lm_eval.tasks import TaskManager  # noqa: E402

from framework_data import corpus  # noqa: E402
from meteor_metric import get_scorer  # noqa: E402
from meteor_metric.integrations import lm_eval as meteor_lm_eval  # noqa: E402

TASK = """task: {name}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: generate_until
doc_to_text: "Segment {{{{seg}}}}:"
doc_to_target: "{{{{ref}}}}"
generation_kwargs:
  until: ["\\n"]
metric_list:
  - metric: meteor
    aggregation: meteor
    higher_is_better: true
{options}"""


class StoredOutputs(LM):
    """A model whose generations are stored system outputs, looked up by the prompt."""

    def __init__(self, outputs: dict[str, str]):
        super().__init__()
        self.outputs = outputs

    def generate_until(self, requests, disable_tqdm: bool = False):
        return [self.outputs[request.arguments[0]] for request in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError


def run_task(tmp_path, name: str, options: str = "") -> tuple[float, list[str], list[str]]:
    hyps, refs = corpus()
    refs = [r[0] for r in refs]  # lm-eval scores a list target as any-of (0/1): one reference per sample
    data = tmp_path / f"{name}.jsonl"
    data.write_text("".join(json.dumps({"seg": k, "ref": r}) + "\n" for k, r in enumerate(refs)), encoding="utf-8")
    (tmp_path / f"{name}.yaml").write_text(TASK.format(name=name, data=data, options=options), encoding="utf-8")
    model = StoredOutputs({f"Segment {k}:": h for k, h in enumerate(hyps)})
    out = simple_evaluate(model=model, tasks=[name], task_manager=TaskManager(include_path=str(tmp_path)),
                          log_samples=True, bootstrap_iters=0)
    samples = out["samples"][name]
    assert [s["resps"][0][0] for s in samples] == hyps and [s["target"] for s in samples] == refs
    return out["results"][name]["meteor,none"], hyps, refs


def test_registered_under_meteor():
    assert get_metric("meteor") is meteor_lm_eval.meteor_sample
    assert get_aggregation("meteor") is meteor_lm_eval.meteor_corpus
    assert get_metric("bleu") is not None  # lm-eval's own metrics are still there


def test_simple_evaluate_gives_the_corpus_score(tmp_path):
    score, hyps, refs = run_task(tmp_path, "meteor_local")
    assert score == get_scorer().corpus_score(hyps, refs).score


def test_yaml_options_reach_the_scorer(tmp_path):
    score, hyps, refs = run_task(tmp_path, "meteor_local_nltk", "    profile: nltk\n")
    assert score == get_scorer("nltk").corpus_score(hyps, refs).score != get_scorer().corpus_score(hyps, refs).score


def test_aggregation_refuses_mixed_settings():
    a = meteor_lm_eval.meteor_sample(["a cat"], ["a cat"])
    b = meteor_lm_eval.meteor_sample(["a cat"], ["a cat"], profile="nltk")
    with pytest.raises(ValueError, match="2 different settings"):
        meteor_lm_eval.meteor_corpus([a, b])
