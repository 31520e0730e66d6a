"""aac-metrics' METEOR without Java, against aac-metrics' own Java path.

Oracle: tests/data/coco/aac_meteor.json.gz, written by scripts/build_aac_meteor_goldens.py: aac-metrics 0.5.4's
``aac_metrics.functional.meteor.meteor`` (its command line, line protocol and parsing, run with ``python -O``
because it refuses Java 17 under ``__debug__``) with pycocoevalcap 1.2's meteor-1.5.jar, on 600 THumB captions,
with the defaults and with ``params``/``weights``. The patched run has no ``java`` on PATH and a
``subprocess.Popen`` that refuses to start anything.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import build_aac_meteor_goldens as gen  # noqa: E402
import build_coco_goldens  # noqa: E402

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch (the aac extra)"),
    pytest.mark.skipif(not (build_coco_goldens.DATA / "captions").is_dir(), reason="../shared/data/captions not present"),
]
needs_aac = pytest.mark.skipif(importlib.util.find_spec("aac_metrics") is None, reason="needs aac-metrics (the aac extra)")


@pytest.fixture(scope="module")
def golden() -> dict:
    with gzip.open(gen.OUT, "rt", encoding="utf-8") as f:
        stored = json.load(f)
    hyps, refs = gen.captions(stored["rows"])
    assert build_coco_goldens.digest(hyps + [r for rs in refs for r in rs]) == stored["sha256"]
    return stored


def test_meteor_equals_aac_metrics_java_path(golden):
    from meteor_metric.aac import meteor

    hyps, refs = gen.captions(golden["rows"])
    for run in golden["runs"]:
        corpus, sents = meteor(hyps, refs, **run["kwargs"])
        assert corpus["meteor"].dtype == sents["meteor"].dtype == __import__("torch").float64
        assert corpus["meteor"].item() == run["corpus"] and sents["meteor"].tolist() == run["sents"], run["kwargs"]
        assert meteor(hyps, refs, return_all_scores=False, **run["kwargs"]).item() == run["corpus"]


PATCHED = textwrap.dedent("""\
    import json, subprocess, sys
    def _refuse(self, args, *rest, **kwargs):
        raise RuntimeError(f"a process was started: {args!r}")
    subprocess.Popen.__init__ = _refuse
    sys.path.insert(0, sys.argv[2])
    import build_aac_meteor_goldens as gen
    import aac_metrics, aac_metrics.functional
    from meteor_metric.aac import aac_metrics_patched, meteor, patch_aac_metrics, unpatch_aac_metrics
    java = aac_metrics.functional.meteor
    hyps, refs = gen.captions(int(sys.argv[1]))
    out = {}
    patch_aac_metrics(); patch_aac_metrics()
    metric = aac_metrics.METEOR(params=[0.9, 3.0, 0.5, 0.75], weights=[1.0, 0.8, 0.6, 0.4])
    metric.update(hyps[:300], refs[:300]); metric.update(hyps[300:], refs[300:])
    corpus, sents = metric.compute()
    out["class"] = [corpus["meteor"].item(), sents["meteor"].tolist()]
    from aac_metrics.functional import meteor as functional_meteor
    corpus, sents = functional_meteor(hyps, refs, cache_path="/nonexistent", java_path="/nonexistent/java")
    out["functional"] = [corpus["meteor"].item(), sents["meteor"].tolist()]
    corpus, sents = aac_metrics.evaluate(hyps, refs, preprocess=False, metrics=["meteor"])
    out["evaluate"] = [corpus["meteor"].item(), sents["meteor"].tolist()]
    unpatch_aac_metrics(); unpatch_aac_metrics()
    modules = [sys.modules[n] for n in ("aac_metrics.functional.meteor", "aac_metrics.classes.meteor",
                                         "aac_metrics.functional.evaluate", "aac_metrics.functional")]
    out["restored"] = all(m.meteor is java for m in modules)
    with aac_metrics_patched():
        out["inside"] = all(m.meteor is meteor for m in modules)
    out["after"] = all(m.meteor is java for m in modules)
    json.dump(out, sys.stdout)
    """)


@needs_aac
def test_patched_aac_metrics_without_java(golden, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    env = dict(os.environ, PATH=str(empty))
    assert shutil.which("java", path=env["PATH"]) is None
    proc = subprocess.run([sys.executable, "-c", PATCHED, str(golden["rows"]), str(ROOT / "scripts")], env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    defaults, custom = golden["runs"]
    assert custom["kwargs"] == {"params": [0.9, 3.0, 0.5, 0.75], "weights": [1.0, 0.8, 0.6, 0.4]}
    assert out["class"] == [custom["corpus"], custom["sents"]]
    assert out["functional"] == out["evaluate"] == [defaults["corpus"], defaults["sents"]]
    assert out["restored"] and out["inside"] and out["after"]


def test_errors_name_the_caption():
    from meteor_metric.aac import meteor

    with pytest.raises(TypeError, match=r"^candidate 1: must be a string, got NoneType$"):
        meteor(["a dog", None], [["a dog"], ["a cat"]])
    with pytest.raises(TypeError, match=r"^candidate 0: references must be a list of strings, got a single string"):
        meteor(["a dog"], ["a dog runs"])
    with pytest.raises(TypeError, match=r"^candidate 0: reference 1 must be a string, got int$"):
        meteor(["a dog"], [["a dog", 3]])
    with pytest.raises(ValueError, match=r"differ in length: 1 != 2"):
        meteor(["a dog"], [["a dog"], ["x"]])
    with pytest.raises(ValueError, match=r"^candidate 0: empty candidate"):
        meteor(["|||"], [["a dog"]])
    with pytest.raises(ValueError, match=r"expected 4 params but found 3"):
        meteor(["a dog"], [["a dog"]], params=[0.9, 3.0, 0.5])
    with pytest.raises(ValueError, match=r"Invalid argument language='xx'"):
        meteor(["a dog"], [["a dog"]], language="xx")


@needs_aac
def test_runner_patches_aac_metrics_when_imported(golden, tmp_path):
    """``python -m meteor_metric.coco run script.py``: aac-metrics is patched when the script imports it."""
    script = tmp_path / "dcase_eval.py"
    script.write_text(textwrap.dedent("""\
        import json, subprocess, sys
        def _refuse(self, args, *rest, **kwargs):
            raise RuntimeError(f"a process was started: {args!r}")
        subprocess.Popen.__init__ = _refuse
        sys.path.insert(0, sys.argv[2])
        import build_aac_meteor_goldens as gen
        from aac_metrics.functional import meteor
        hyps, refs = gen.captions(int(sys.argv[1]))
        corpus, sents = meteor(hyps, refs)
        json.dump([corpus["meteor"].item(), sents["meteor"].tolist()], sys.stdout)
        """), encoding="utf-8")
    empty = tmp_path / "bin"
    empty.mkdir()
    proc = subprocess.run([sys.executable, "-m", "meteor_metric.coco", "run", str(script), str(golden["rows"]),
                           str(ROOT / "scripts")], env=dict(os.environ, PATH=str(empty)), capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    defaults = golden["runs"][0]
    assert json.loads(proc.stdout) == [defaults["corpus"], defaults["sents"]]
