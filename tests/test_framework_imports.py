"""The framework adapters stay optional: importing the package imports no framework (a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys

FRAMEWORKS = ("torch", "torchmetrics", "sacrebleu", "lm_eval", "lighteval", "mbrs")


def test_import_meteor_metric_imports_no_framework():
    code = ("import json, sys, meteor_metric, meteor_metric.integrations, meteor_metric.integrations.summable; "
            f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []
