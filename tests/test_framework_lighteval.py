"""``meteor_metric.integrations.lighteval`` inside the real lighteval pipeline.

A custom task (a module with ``TASKS_TABLE``) reads local JSON lines (nothing downloaded); a model
answers each query with a WMT system's stored output; lighteval's ``Pipeline`` runs the task.
Oracle: ``get_scorer(profile).corpus_score`` of the same outputs against the same references (``==``).
lighteval 0.13's task registry imports every built-in task module, and one of them (tiny_benchmarks)
downloads a file when imported; offline that fails, so the built-in tasks are not loaded here (the
custom task, the pipeline, the model calls, the metric and the aggregation are lighteval's own).
"""

from __future__ import annotations

import json
import types

import pytest

pytest.importorskip("lighteval", reason="the lighteval extra is not installed")

from lighteval.logging.evaluation_tracker import EvaluationTracker  # noqa: E402
from lighteval.metrics.utils.metric_utils import CorpusLevelMetric  # noqa: E402
from lighteval.models.dummy.dummy_model import DummyModel, DummyModelConfig  # noqa: E402
from lighteval.models.model_output import ModelResponse  # noqa: E402
from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters  # noqa: E402
from lighteval.tasks.lighteval_task import LightevalTaskConfig  # noqa: E402
from lighteval.tasks.registry import Registry  # noqa: E402
from lighteval.tasks.requests import Doc  # noqa: E402

from framework_data import corpus  # noqa: E402
from meteor_metric import get_scorer  # noqa: E402
from meteor_metric.integrations.lighteval import meteor_corpus_metric  # noqa: E402


class StoredOutputs(DummyModel):
    """lighteval's dummy model, answering each query with a stored system output."""

    def __init__(self, config: DummyModelConfig, outputs: dict[str, str]):
        super().__init__(config)
        self.outputs = outputs

    def greedy_until(self, docs: list[Doc]) -> list[ModelResponse]:
        return [ModelResponse(text=[self.outputs[doc.query]]) for doc in docs]


def prompt(line: dict, task_name: str) -> Doc:
    return Doc(task_name=task_name, query=f"Segment {line['seg']}:", choices=[line["refs"]], gold_index=0)


def run_task(tmp_path, monkeypatch, metric: CorpusLevelMetric) -> float:
    monkeypatch.setattr(Registry, "_load_from_files", staticmethod(lambda files, module_prefix: {}))
    monkeypatch.setattr(Registry, "_load_from_subdirs", staticmethod(lambda subdirs: {}))
    hyps, refs = corpus()
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "test.jsonl").write_text("".join(json.dumps({"seg": k, "refs": r}) + "\n" for k, r in enumerate(refs)),
                                     encoding="utf-8")
    task = LightevalTaskConfig(name="meteor_local", prompt_function=prompt, hf_repo=str(data), hf_subset="default",
                               metrics=[metric], evaluation_splits=["test"], few_shots_split=None,
                               few_shots_select=None, generation_size=64, stop_sequence=["\n"])
    module = types.ModuleType("meteor_local_tasks")
    module.TASKS_TABLE = [task]
    config = DummyModelConfig(model_name="stored-outputs", cache_dir=str(tmp_path / "cache"))
    model = StoredOutputs(config, {f"Segment {k}:": h for k, h in enumerate(hyps)})
    pipeline = Pipeline(tasks="meteor_local|0", model=model,
                        pipeline_parameters=PipelineParameters(launcher_type=ParallelismManager.NONE,
                                                               custom_tasks_directory=module),
                        evaluation_tracker=EvaluationTracker(output_dir=str(tmp_path / "out")))
    pipeline.evaluate()
    results = pipeline.get_results()["results"]
    return results["meteor_local:0"][metric.metric_name]


@pytest.mark.parametrize("profile", ["meteor-1.5", "nltk"])
def test_pipeline_gives_the_corpus_score(tmp_path, monkeypatch, profile):
    hyps, refs = corpus()
    metric = meteor_corpus_metric(profile)
    assert isinstance(metric, CorpusLevelMetric)
    assert run_task(tmp_path, monkeypatch, metric) == get_scorer(profile).corpus_score(hyps, refs).score
