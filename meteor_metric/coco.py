"""Public path of :mod:`meteor_metric.integrations.coco` (re-exports its public names)."""

from .integrations.coco import Meteor, PTBTokenizer

__all__ = ['Meteor', 'PTBTokenizer']
