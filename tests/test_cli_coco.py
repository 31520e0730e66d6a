"""``meteor-metric coco``: COCO annotation/result files, against pycocoevalcap 1.2 with Java.

Oracles: tests/data/coco/cocoevalcap_flickr8k-expert_1000.json.gz (COCOEvalCap.evaluate()'s METEOR, per image and
overall; scripts/build_cocoevalcap_goldens.py) and tests/data/coco/meteor_scores.jsonl.gz (pycocoevalcap's Meteor on
the raw captions; scripts/build_coco_goldens.py).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

from meteor_metric.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import build_coco_goldens  # noqa: E402
import build_cocoevalcap_goldens as pairs  # noqa: E402

GOLD = ROOT / "tests" / "data" / "coco"
needs_data = pytest.mark.skipif(not (build_coco_goldens.DATA / "captions").is_dir(),
                                reason="../shared/data/captions not present")


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path]:
    return pairs.write_pair("flickr8k-expert", 1000, tmp_path_factory.mktemp("coco"))


def run(capsys, *args) -> tuple[int, str, str]:
    code = main(["coco", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


@needs_data
def test_equals_cocoevalcap_meteor(files, capsys):
    with gzip.open(GOLD / "cocoevalcap_flickr8k-expert_1000.json.gz", "rt", encoding="utf-8") as f:
        golden = json.load(f)
    code, out, _ = run(capsys, "--annotations", files[0], "--results", files[1], "--details", "--format", "json")
    result = json.loads(out)
    column = golden["metrics"].index("METEOR")
    assert code == 0 and result["score"] == golden["eval"]["METEOR"] and result["images"] == 1000
    assert [x["score"] for x in result["image_scores"]] == [golden["images"][str(i)][column] for i in range(1, 1001)]
    assert [x["image_id"] for x in result["image_scores"]] == list(range(1, 1001))
    assert result["signature"].startswith("meteor-1.5|tok:ptb|lang:en|")
    code, out, _ = run(capsys, "--annotations", files[0], "--results", files[1])
    assert out.splitlines()[0] == f"METEOR:\t\t{golden['eval']['METEOR']!r}" and "Images:\t\t1000" in out


@needs_data
def test_no_ptb_scores_raw_captions(files, capsys):
    with gzip.open(GOLD / "meteor_scores.jsonl.gz", "rt", encoding="utf-8") as f:
        raw = next(r for r in map(json.loads, f) if r["set"] == "flickr8k/expert" and r["tokenize"] == "none")
    code, out, _ = run(capsys, "--annotations", files[0], "--results", files[1], "--no-ptb", "--details",
                       "--format", "tsv")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "image_id\tscore" and lines[-1].startswith("system\t")
    ours = [float(line.split("\t")[1]) for line in lines[1:-1]]
    assert ours == raw["images"][:1000]  # image scores do not depend on the other images
    assert "|tok:" not in lines[-1]


def _write(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


ANNOTATIONS = {"images": [{"id": 391895}, {"id": 7}],
               "annotations": [{"image_id": 391895, "caption": "A man rides a bike."},
                               {"image_id": 391895, "caption": "A cyclist on a road."},
                               {"image_id": 7, "caption": "Two dogs play in the snow."}]}


@pytest.mark.parametrize("results, message", [
    ([{"image_id": 391895, "caption": 3}, {"image_id": 7, "caption": "dogs"}],
     "image 391895: caption must be a string, got int"),
    ([{"image_id": 391895, "caption": None}, {"image_id": 7, "caption": "dogs"}],
     "image 391895: caption must be a string, got None"),
    ([{"image_id": 391895, "caption": ["a man"]}, {"image_id": 7, "caption": "dogs"}],
     "image 391895: caption must be a string, got list"),
    ([{"image_id": 391895, "caption": "a man"}, {"image_id": 7, "caption": "dogs"}, {"image_id": 7, "caption": "x"}],
     "image 7 has more than one result (entries 2 and 3); COCOEvalCap scores one caption per image"),
    ([{"image_id": 391895, "caption": "a man"}],
     "has no caption for 1 of the 2 images of"),
    ([{"image_id": 391895, "caption": "a man"}, {"image_id": 7, "caption": "dogs"}, {"image_id": 8, "caption": "x"}],
     "image 8 is not in"),
    ([{"image_id": 391895, "caption": "  "}, {"image_id": 7, "caption": "dogs"}],
     "image 391895: empty result caption"),
    ([{"image_id": 391895, "caption": "..."}, {"image_id": 7, "caption": "dogs"}],
     "image 391895: the result caption is empty after PTB tokenization"),
    ([{"caption": "a man"}], "result 1 has no image_id"),
    ([{"image_id": 7}], "image 7: result has no caption"),
    ({"annotations": []}, "is a COCO annotations file; --results takes a JSON list"),
    ('[{"image_id": 1, "caption": "a"', "not valid JSON (line 1, column"),
])
def test_bad_results_name_the_image(tmp_path, capsys, results, message):
    ann = _write(tmp_path, "captions.json", ANNOTATIONS)
    res = _write(tmp_path, "results.json", results)
    code, out, err = run(capsys, "--annotations", ann, "--results", res)
    assert code == 2 and out == ""
    assert err.startswith("meteor-metric: error: ") and message in err and err.count("\n") == 1, err


@pytest.mark.parametrize("annotations, message", [
    ([{"image_id": 1, "caption": "a"}], "is a JSON list, like a results file"),
    ({"images": [{"id": 1}], "annotations": [{"image_id": 2, "caption": "a"}]},
     'image 2: annotation 1 names an image that "images" does not list'),
    ({"images": [{"id": 1}, {"id": 2}], "annotations": [{"image_id": 1, "caption": "a"}]},
     "image 2 has no reference captions"),
    ({"annotations": [{"image_id": 1, "caption": 5}]}, "image 1: caption must be a string, got int"),
    ({"annotations": []}, "has no annotations: nothing to score"),
])
def test_bad_annotations(tmp_path, capsys, annotations, message):
    ann = _write(tmp_path, "captions.json", annotations)
    res = _write(tmp_path, "results.json", [{"image_id": 1, "caption": "a b"}, {"image_id": 2, "caption": "a b"}])
    code, _, err = run(capsys, "--annotations", ann, "--results", res, "--subset")
    assert code == 2 and message in err, err


def test_subset_and_missing_file(tmp_path, capsys):
    ann = _write(tmp_path, "captions.json", ANNOTATIONS)
    res = _write(tmp_path, "results.json", [{"image_id": 7, "caption": "Dogs play in snow"}])
    code, out, _ = run(capsys, "--annotations", ann, "--results", res, "--subset", "--format", "json")
    assert code == 0 and json.loads(out)["images"] == 1
    code, _, err = run(capsys, "--annotations", tmp_path / "nope.json", "--results", res)
    assert code == 2 and "cannot read" in err and "nope.json" in err


def test_score_points_coco_files_to_coco(tmp_path, capsys):
    ann = _write(tmp_path, "captions.json", ANNOTATIONS)
    res = _write(tmp_path, "results.json", [{"image_id": 7, "caption": "dogs"}])
    ref = _write(tmp_path, "ref.txt", "dogs\n")
    assert main(["score", "--hyp", str(res), "--ref", str(ref)]) == 2
    assert f"is a COCO results file (a JSON list of image_id and caption): score it with meteor-metric coco " \
           f"--annotations CAPTIONS.json --results {res}" in capsys.readouterr().err
    assert main(["score", "--hyp", str(ann), "--ref", str(ref)]) == 2
    assert f"meteor-metric coco --annotations {ann} --results RESULTS.json" in capsys.readouterr().err
    text = _write(tmp_path, "hyp.txt", "[music] dogs\n")  # starts with '[' but is no JSON: scored as text
    assert main(["score", "--hyp", str(text), "--ref", str(ref), "-b"]) == 0
