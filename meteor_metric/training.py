"""Public path of :mod:`meteor_metric.integrations.training` (re-exports its public names)."""

from .integrations.training import make_compute_metrics, score_dataset, score_texts

__all__ = ['make_compute_metrics', 'score_dataset', 'score_texts']
