"""patch_pycocoevalcap(): the real pycocoevalcap 1.2 running without Java, against its own Java run.

Oracle: tests/data/coco/cocoevalcap_flickr8k-expert_1000.json.gz, written by scripts/build_cocoevalcap_goldens.py
(``COCOEvalCap.evaluate()`` with Java, SPICE left out, on the first 1,000 Flickr8k-Expert rows as COCO files).
The runs here have no ``java`` on PATH; the script's patched mode and the runner scripts also make
``subprocess.Popen`` refuse to start anything, so a Java process would fail the test.
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
import warnings
from pathlib import Path

import pytest

from meteor_metric import coco
from meteor_metric.integrations.pycocoevalcap_patch import SpiceLeftOut

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import build_coco_goldens  # noqa: E402
import build_cocoevalcap_goldens as pairs  # noqa: E402

GOLDEN = ROOT / "tests" / "data" / "coco" / "cocoevalcap_flickr8k-expert_1000.json.gz"
ROWS = 1000

needs_pycocoevalcap = pytest.mark.skipif(importlib.util.find_spec("pycocoevalcap") is None,
                                         reason="needs pycocoevalcap (the test extra)")
needs_data = pytest.mark.skipif(not (build_coco_goldens.DATA / "captions").is_dir(),
                                reason="../shared/data/captions not present")
needs_pycocotools = pytest.mark.skipif(importlib.util.find_spec("pycocotools") is None,
                                       reason="needs pycocotools (the test extra)")

GUARD = textwrap.dedent("""\
    import subprocess
    def _refuse(self, args, *rest, **kwargs):
        raise RuntimeError(f"a process was started: {args!r}")
    subprocess.Popen.__init__ = _refuse
    """)


@pytest.fixture(scope="module")
def coco_files(tmp_path_factory) -> tuple[Path, Path, dict]:
    folder = tmp_path_factory.mktemp("coco")
    ann, res = pairs.write_pair("flickr8k-expert", ROWS, folder)
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        golden = json.load(f)
    assert (pairs.digest(ann), pairs.digest(res)) == (golden["annotations_sha256"], golden["results_sha256"])
    return ann, res, golden


def no_java_env(tmp_path: Path) -> dict:
    empty = tmp_path / "bin-without-java"
    empty.mkdir(exist_ok=True)
    env = dict(os.environ, PATH=str(empty), PYTHONPATH=str(ROOT))
    assert shutil.which("java", path=env["PATH"]) is None
    return env


def assert_equals_golden(eval_: dict, images: dict, golden: dict) -> None:
    """Every metric, overall and per image, exactly (difference 0.0)."""
    assert eval_ == golden["eval"]
    assert set(images) == set(golden["images"])
    for image, scores in golden["images"].items():
        assert [images[image][m] for m in golden["metrics"]] == scores, image


@needs_data
@needs_pycocoevalcap
@needs_pycocotools
def test_cocoevalcap_evaluate_patched_without_java_equals_java_run(coco_files, tmp_path):
    ann, res, golden = coco_files
    out = tmp_path / "patched.json"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_cocoevalcap_goldens.py"), "--child", "patched",
                    "--annotations", str(ann), "--results", str(res), "--out", str(out)],
                   env=no_java_env(tmp_path), check=True, capture_output=True, timeout=600)
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "SPICE" not in result["eval"]  # left out by patch_pycocoevalcap(spice=False)
    assert_equals_golden(result["eval"], result["images"], golden)


LMMS_EVAL_STYLE = GUARD + textwrap.dedent("""\
    # lmms-eval's captioning tasks (coco_cap, flickr30k, nocaps) import and aggregate like this
    import json, sys
    from pycocoevalcap.eval import Bleu, Cider, COCOEvalCap, Meteor, Rouge, Spice
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
    from pycocotools.coco import COCO

    annotations, results, out = sys.argv[1:]
    coco = COCO(annotations)
    coco_eval = COCOEvalCap(coco, coco.loadRes(results))
    gts = {i: coco_eval.coco.imgToAnns[i] for i in coco_eval.params["image_id"]}
    res = {i: coco_eval.cocoRes.imgToAnns[i] for i in coco_eval.params["image_id"]}
    tokenizer = PTBTokenizer()
    gts, res = tokenizer.tokenize(gts), tokenizer.tokenize(res)
    scores = {}
    for scorer, name in [(Bleu(4), "Bleu_4"), (Meteor(), "METEOR"), (Rouge(), "ROUGE_L"), (Cider(), "CIDEr")]:
        score, image_scores = scorer.compute_score(gts, res)
        scores[name] = [score[3], image_scores[3]] if name == "Bleu_4" else [score, list(image_scores)]
    json.dump({"classes": [Meteor.__module__, PTBTokenizer.__module__, Spice.__name__], "scores": scores,
               "images": [str(i) for i in gts]}, open(out, "w"))
    """)


@needs_data
@needs_pycocoevalcap
@needs_pycocotools
def test_runner_lmms_eval_import_path_without_java(coco_files, tmp_path):
    """``python -m meteor_metric.coco run script.py``: the script imports as lmms-eval does (no code edit)."""
    ann, res, golden = coco_files
    script, out = tmp_path / "lmms_style.py", tmp_path / "out.json"
    script.write_text(LMMS_EVAL_STYLE, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "meteor_metric.coco", "run", "--no-spice", str(script), str(ann), str(res),
                    str(out)], env=no_java_env(tmp_path), check=True, capture_output=True, timeout=600)
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["classes"] == ["meteor_metric.integrations.coco", "meteor_metric.integrations.coco", "SpiceLeftOut"]
    images = result["images"]
    for name, (score, image_scores) in result["scores"].items():
        assert score == golden["eval"][name], name
        column = golden["metrics"].index(name)
        assert image_scores == [golden["images"][i][column] for i in images], name


@needs_data
@needs_pycocoevalcap
@needs_pycocotools
def test_runner_module_form_cocoevalcap_evaluate(coco_files, tmp_path):
    """``python -m meteor_metric.coco run -m module``: argv and __main__ as ``python -m`` sets them."""
    ann, res, golden = coco_files
    (tmp_path / "caption_eval.py").write_text(GUARD + textwrap.dedent("""\
        import json, sys
        from pycocotools.coco import COCO
        from pycocoevalcap.eval import COCOEvalCap
        if __name__ == "__main__":
            coco = COCO(sys.argv[1])
            e = COCOEvalCap(coco, coco.loadRes(sys.argv[2]))
            e.evaluate()
            json.dump({"eval": e.eval, "images": {str(k): v for k, v in e.imgToEval.items()}}, open(sys.argv[3], "w"))
        """), encoding="utf-8")
    out = tmp_path / "out.json"
    subprocess.run([sys.executable, "-m", "meteor_metric.coco", "run", "--no-spice", "-m", "caption_eval", str(ann),
                    str(res), str(out)], env=no_java_env(tmp_path), cwd=tmp_path, check=True, capture_output=True,
                   timeout=600)
    result = json.loads(out.read_text(encoding="utf-8"))
    assert_equals_golden(result["eval"], result["images"], golden)


def test_runner_usage_errors(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "meteor_metric.coco", *args], capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert run("--help").returncode == 0 and "--no-spice" in run("--help").stdout
    for args in (["evaluate"], ["run"], ["run", "--no-spice", "-m"], ["run", str(tmp_path / "nope.py")],
                 ["run", "-m", "no_such_module_here"]):
        done = run(*args)
        assert done.returncode == 2 and "meteor_metric.coco: error:" in done.stderr, args


@needs_pycocoevalcap
def test_patch_binds_every_path_idempotent_and_reversible():
    import pycocoevalcap.eval as evaluation
    import pycocoevalcap.meteor.meteor as java_meteor
    import pycocoevalcap.tokenizer.ptbtokenizer as java_ptb

    originals = (evaluation.Meteor, evaluation.PTBTokenizer, java_meteor.Meteor, java_ptb.PTBTokenizer,
                 evaluation.Spice, evaluation.COCOEvalCap.evaluate)
    assert evaluation.Meteor is java_meteor.Meteor and evaluation.Meteor is not coco.Meteor
    try:
        coco.patch_pycocoevalcap()
        coco.patch_pycocoevalcap()  # idempotent: the originals are still what unpatch restores
        from pycocoevalcap.eval import Meteor, PTBTokenizer
        from pycocoevalcap.meteor.meteor import Meteor as MeteorDirect
        from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer as PTBDirect
        assert Meteor is MeteorDirect is coco.Meteor and PTBTokenizer is PTBDirect is coco.PTBTokenizer
        assert evaluation.Spice is originals[4]  # SPICE kept by default
        coco.patch_pycocoevalcap(spice=False)
        assert evaluation.Spice is SpiceLeftOut and evaluation.COCOEvalCap.evaluate is not originals[5]
        coco.patch_pycocoevalcap(spice=True)
        assert evaluation.Spice is originals[4] and evaluation.COCOEvalCap.evaluate is originals[5]
        coco.unpatch_pycocoevalcap()
        coco.unpatch_pycocoevalcap()
        assert (evaluation.Meteor, evaluation.PTBTokenizer, java_meteor.Meteor, java_ptb.PTBTokenizer,
                evaluation.Spice, evaluation.COCOEvalCap.evaluate) == originals
        with coco.pycocoevalcap_patched(spice=False):
            assert evaluation.Meteor is coco.Meteor and evaluation.Spice is SpiceLeftOut
            with coco.pycocoevalcap_patched():
                assert evaluation.Spice is originals[4]
            assert evaluation.Meteor is coco.Meteor and evaluation.Spice is SpiceLeftOut
        assert (evaluation.Meteor, evaluation.PTBTokenizer, java_meteor.Meteor, java_ptb.PTBTokenizer,
                evaluation.Spice, evaluation.COCOEvalCap.evaluate) == originals
    finally:
        coco.unpatch_pycocoevalcap()


@needs_pycocoevalcap
def test_patch_warns_about_a_module_that_imported_the_java_class_first():
    import types

    from pycocoevalcap.eval import Meteor as JavaMeteor
    early = types.ModuleType("early_caption_task")
    early.Meteor = JavaMeteor
    sys.modules["early_caption_task"] = early
    try:
        with pytest.warns(RuntimeWarning, match=r"early_caption_task\.Meteor imported pycocoevalcap's Java class"):
            coco.patch_pycocoevalcap()
    finally:
        del sys.modules["early_caption_task"]
        coco.unpatch_pycocoevalcap()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with coco.pycocoevalcap_patched():
            pass


@needs_pycocoevalcap
def test_spice_left_out_gives_results_without_spice():
    """A tiny COCOEvalCap run in-process (our METEOR and tokenizer: no Java) with SPICE left out."""
    from pycocoevalcap.eval import COCOEvalCap

    class Coco:  # the two attributes COCOEvalCap reads (pycocotools' COCO has them)
        def __init__(self, anns):
            self.imgToAnns = anns

        def getImgIds(self):
            return list(self.imgToAnns)

    gts = Coco({1: [{"caption": "A dog runs on the grass."}, {"caption": "A brown dog running."}],
                2: [{"caption": "Two men play chess."}, {"caption": "Men playing a board game."}]})
    res = Coco({1: [{"caption": "a dog running on grass"}], 2: [{"caption": "two people playing chess"}]})
    with coco.pycocoevalcap_patched(spice=False):
        e = COCOEvalCap(gts, res)
        e.evaluate()
    expected = coco.Meteor().compute_score(coco.PTBTokenizer().tokenize(gts.imgToAnns),
                                           coco.PTBTokenizer().tokenize(res.imgToAnns))
    assert e.eval["METEOR"] == expected[0] and [x["METEOR"] for x in e.evalImgs] == expected[1]
    assert set(e.eval) == {"Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"}
    assert all("SPICE" not in x for x in e.evalImgs)


def test_every_caption_error_names_the_image():
    m, tok = coco.Meteor(), coco.PTBTokenizer()
    with pytest.raises(TypeError, match=r"^image 391895: caption must be a string, got int$"):
        m.compute_score({391895: ["a dog"]}, {391895: [7]})
    with pytest.raises(TypeError, match=r"^image 5: caption must be a string, got None$"):
        m.compute_score({5: ["a dog", None]}, {5: ["a dog"]})
    with pytest.raises(TypeError, match=r"^image 8: the references \(gts\) must be a list of strings, got a single "
                                        r"string 'a dog on grass' \(put it in a list"):
        m.compute_score({8: "a dog on grass"}, {8: ["a dog"]})  # pycocoevalcap's jar would score 'a', ' ', 'd', ...
    with pytest.raises(TypeError, match=r"^image 9: the result \(res\) captions must be a list of strings, got a "
                                        r"single string"):
        m.compute_score({9: ["a dog"]}, {9: "a"})
    with pytest.raises(AssertionError, match=r"image 3: one result caption expected, got 2"):
        m.compute_score({3: ["a dog"]}, {3: ["a dog", "a cat"]})
    with pytest.raises(AssertionError, match=r"only in gts \[4\], only in res \[6\]"):
        m.compute_score({4: ["a dog"]}, {6: ["a dog"]})
    with pytest.raises(TypeError, match=r"^image 391895: caption must be a string, got int$"):
        tok.tokenize({391895: [{"caption": 3}]})
    with pytest.raises(TypeError, match=r"^image 2: caption must be a string, got None$"):
        tok.tokenize({1: [{"caption": "a dog"}], 2: [{"caption": None}]})
    with pytest.raises(TypeError, match=r"^image 2: each record must be a dict with a 'caption' key, got str"):
        tok.tokenize({2: ["a dog"]})
    with pytest.raises(TypeError, match=r"^image 2: expected a list of \{'caption': text\} records, got str"):
        tok.tokenize({2: "a dog"})
    # as pycocoevalcap's Java tokenizer: an image without captions is left out of the result
    assert tok.tokenize({1: [], 2: [{"caption": "A dog."}]}) == {2: ["a dog"]}
