"""Public path of :mod:`meteor_metric.analysis.mapreduce` (re-exports its public names)."""

from .analysis.mapreduce import add_vectors, contribution_vectors, corpus_score_of

__all__ = ['add_vectors', 'contribution_vectors', 'corpus_score_of']
