"""The ``evaluate`` loading script: ``evaluate.load(os.path.dirname(meteor_metric.__file__))``.

evaluate loads a folder through the script named like the folder, and takes the first metric class
it finds in it; the class lives in :mod:`meteor_metric.integrations.evaluate_metric`.
"""

from meteor_metric.integrations.evaluate_metric import MeteorMetric

__all__ = ["MeteorMetric"]
