"""The ``meteor-metric`` command line (entry point ``meteor_metric.cli.main:main``)."""
