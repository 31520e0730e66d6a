"""aac-metrics' METEOR without Java: :func:`meteor` (aac-metrics' ``meteor`` arguments and return structure) and
:func:`patch_aac_metrics`, after which ``aac_metrics.functional.meteor`` and the ``METEOR`` class use it."""

from .integrations.aac_metrics_patch import aac_metrics_patched, meteor, patch_aac_metrics, unpatch_aac_metrics

__all__ = ["meteor", "patch_aac_metrics", "unpatch_aac_metrics", "aac_metrics_patched"]
