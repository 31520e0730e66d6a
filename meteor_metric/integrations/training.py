"""METEOR inside training and data pipelines: a ``Seq2SeqTrainer`` hook and ``datasets`` scoring.

Neither helper imports ``transformers``: the tokenizer is used through ``batch_decode`` and
``pad_token_id`` only.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from ..core.checks import check_corpus
from ..profiles.registry import DEFAULT_PROFILE, get_scorer

IGNORE_INDEX = -100  # what transformers puts in labels (and padded predictions) to mask them


def _token_ids(array: Any, what: str, pad_token_id: int) -> np.ndarray:
    """Token ids as an int matrix with the masked positions set to the pad token."""
    if isinstance(array, tuple):
        array = array[0]  # (generated ids, ...), as some models return
    ids = np.asarray(array)
    if ids.ndim == 3:
        raise ValueError(f"{what} are logits (shape {ids.shape}): use Seq2SeqTrainingArgument "
                         "predict_with_generate=True, or preprocess_logits_for_metrics to take the argmax")
    if ids.ndim != 2 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"{what} must be a 2-D array of token ids, got shape {ids.shape} ({ids.dtype})")
    return np.where(ids == IGNORE_INDEX, pad_token_id, ids)


def make_compute_metrics(tokenizer: Any, *, profile: str = DEFAULT_PROFILE, language: str = "en",
                         task: Optional[str] = None, normalization: Optional[str] = None,
                         metric_name: str = "meteor") -> Callable[[Any], dict]:
    """A ``compute_metrics`` function for ``Seq2SeqTrainer(predict_with_generate=True)``.

    It takes ``EvalPrediction`` (or a ``(predictions, labels)`` tuple), replaces -100 by the pad
    token in both, decodes with ``skip_special_tokens=True``, strips, and returns
    ``{metric_name: score, metric_name + "_signature": ...}`` for the chosen profile.
    """
    pad = getattr(tokenizer, "pad_token_id", None)
    if pad is None:
        raise ValueError("the tokenizer has no pad_token_id: set tokenizer.pad_token first")
    scorer = get_scorer(profile, language, task, normalization)  # fail now, not after an epoch

    def compute_metrics(eval_preds: Any) -> dict:
        if hasattr(eval_preds, "predictions"):
            preds, labels = eval_preds.predictions, eval_preds.label_ids
        else:
            preds, labels = eval_preds
        texts = tokenizer.batch_decode(_token_ids(preds, "predictions", pad), skip_special_tokens=True)
        refs = tokenizer.batch_decode(_token_ids(labels, "labels", pad), skip_special_tokens=True)
        result = scorer.corpus_score([t.strip() for t in texts], [[r.strip()] for r in refs])
        return {metric_name: result.score, f"{metric_name}_signature": result.signature}

    return compute_metrics


def score_texts(predictions: list, references: list, *, profile: str = DEFAULT_PROFILE,
                language: str = "en", task: Optional[str] = None,
                normalization: Optional[str] = None) -> list[float]:
    """Segment scores; each reference is a string, a list of strings, or ``[label]``-wrapped."""
    scorer = get_scorer(profile, language, task, normalization)
    pairs = list(check_corpus(predictions, references, hyp_name="predictions"))
    return [result.score for result in scorer.score_pairs(pairs)]  # the batched path


class _ScoreBatch:
    """A picklable ``datasets.map`` function (each worker process builds its own scorer)."""

    def __init__(self, prediction_column: str, reference_column: str, output_column: str, options: dict):
        self.columns = (prediction_column, reference_column, output_column)
        self.options = options

    def __call__(self, batch: dict) -> dict:
        pred, ref, out = self.columns
        return {out: score_texts(batch[pred], batch[ref], **self.options)}


def score_dataset(dataset: Any, *, prediction_column: str = "prediction", reference_column: str = "references",
                  output_column: str = "meteor", profile: str = DEFAULT_PROFILE, language: str = "en",
                  task: Optional[str] = None, normalization: Optional[str] = None,
                  batch_size: int = 1000, num_proc: Optional[int] = None) -> Any:
    """A copy of a ``datasets.Dataset`` with a column of segment scores (batched ``map``)."""
    missing = [c for c in (prediction_column, reference_column) if c not in dataset.column_names]
    if missing:
        raise ValueError(f"dataset has no column {missing[0]!r}; its columns are {dataset.column_names}")
    if output_column in dataset.column_names:
        raise ValueError(f"dataset already has a column {output_column!r}: choose another output_column")
    options = dict(profile=profile, language=language, task=task, normalization=normalization)
    get_scorer(**options)  # validate the options once, in this process
    fn = _ScoreBatch(prediction_column, reference_column, output_column, options)
    return dataset.map(fn, batched=True, batch_size=batch_size, num_proc=num_proc,
                       desc=f"METEOR ({profile})")
