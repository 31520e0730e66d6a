"""Public path of :mod:`meteor_metric.analysis.significance` (re-exports its public names)."""

from .analysis.significance import (ComparisonResult, SystemResult, paired_approximate_randomization, paired_bootstrap,
                                    sample_model)

__all__ = ['ComparisonResult', 'SystemResult', 'paired_approximate_randomization', 'paired_bootstrap', 'sample_model']
