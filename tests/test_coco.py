"""meteor_metric.integrations.coco against the real pycocoevalcap 1.2 (Java: stanford-corenlp-3.4.1.jar and meteor-1.5.jar).

Stored oracle outputs: tests/data/coco/, written by scripts/build_coco_goldens.py, which also rebuilds the
inputs from ../shared/data/captions (the tests skip when that folder is absent). The last test runs the real
pycocoevalcap when java and pycocoevalcap are installed.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import shutil
import sys
from pathlib import Path

import pytest

from meteor_metric.integrations.coco import Meteor, PTBTokenizer, protocol_fields, tokenized_signature
from meteor_metric.integrations.ptb_tokenizer import ptb_tokenize

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "data" / "coco"
sys.path.insert(0, str(ROOT / "scripts"))
import build_coco_goldens as gen  # noqa: E402

pytestmark = pytest.mark.skipif(not (gen.DATA / "captions").is_dir(), reason="../shared/data/captions not present")


def _jsonl(name: str) -> list:
    with gzip.open(GOLD / name, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return gen.caption_lines()


def test_ptb_tokens_equal_stanford_on_every_caption_line(lines):
    header, *tokens = _jsonl("ptb_tokens.jsonl.gz")
    assert header["sha256"] == gen.digest(lines) and header["lines"] == len(lines) == len(tokens)
    ours = PTBTokenizer().tokenize({i: [{"caption": t}] for i, t in enumerate(lines)})
    wrong = [(lines[i], tokens[i], ours[i][0]) for i in range(len(lines)) if ours[i][0] != tokens[i]]
    assert wrong == [], f"{len(wrong)} of {len(lines)} lines differ from Stanford PTBTokenizer"


@pytest.mark.parametrize("row", _jsonl("meteor_scores.jsonl.gz") if GOLD.is_dir() else [],
                         ids=lambda r: f"{r['set']}-{r['tokenize']}")
def test_compute_score_equals_pycocoevalcap(row):
    hyps, refs = gen.meteor_sets()[row["set"]]
    if row["tokenize"] == "ptb":  # our tokenizer (equal to the Java one: test above)
        hyps, refs = [ptb_tokenize(h) for h in hyps], [[ptb_tokenize(r) for r in rs] for rs in refs]
    assert gen.digest(hyps + [r for rs in refs for r in rs]) == row["sha256"]
    score, scores = Meteor().compute_score({i: r for i, r in enumerate(refs)}, {i: [h] for i, h in enumerate(hyps)})
    assert len(scores) == len(row["images"])
    assert max(abs(a - b) for a, b in zip(scores, row["images"])) <= 1e-12
    assert abs(score - row["corpus"]) <= 1e-12


def test_assertions_and_quirks():
    m = Meteor()
    assert m.method() == "METEOR"
    with pytest.raises(AssertionError):
        m.compute_score({1: ["a b"]}, {2: ["a b"]})
    with pytest.raises(AssertionError):
        m.compute_score({1: ["a b"]}, {1: ["a b", "c"]})
    with pytest.raises(ValueError, match="image 1"):
        m.compute_score({1: ["a b"]}, {1: [" ||| "]})
    assert protocol_fields(" a ||| b ", ["x ||| y", "z\t"]) == ("a b", ["x", "y", "z"])
    assert tokenized_signature("meteor-1.5|lang:en", "ptb") == "meteor-1.5|tok:ptb|lang:en"


@pytest.mark.skipif(shutil.which("java") is None or importlib.util.find_spec("pycocoevalcap") is None,
                    reason="needs java and pycocoevalcap")
def test_against_live_pycocoevalcap():
    caps = {"a": [{"caption": "A man's dog, in the park."}, {"caption": 'He said "hi" (twice) at St. Mary\'s!'}],
            "b": [{"caption": "Two t.v. sets; one can't work..."}]}
    from pycocoevalcap.meteor.meteor import Meteor as JavaMeteor
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer as JavaPTB

    java_tok = JavaPTB().tokenize(caps)
    assert PTBTokenizer().tokenize(caps) == java_tok
    gts = {"a": java_tok["a"], "b": ["two tv sets one does not work", java_tok["b"][0]]}
    res = {"a": ["a man 's dog in a park"], "b": ["two sets"]}
    java = JavaMeteor().compute_score(gts, res)
    ours = Meteor().compute_score(gts, res)
    assert abs(ours[0] - java[0]) <= 1e-12 and all(abs(x - y) <= 1e-12 for x, y in zip(ours[1], java[1]))


def test_tokenize_ptb_in_cli_and_evaluate(tmp_path, capsys, lines):
    """``--tokenize ptb`` / ``tokenize="ptb"`` score the PTB tokens with METEOR 1.5 (the THumB goldens' first rows)."""
    import evaluate

    import meteor_metric
    from meteor_metric.cli.main import main

    hyps, refs = (x[:20] for x in gen.meteor_sets()["thumb-mscoco"])
    expected = Meteor().compute_score({i: [ptb_tokenize(x) for x in r] for i, r in enumerate(refs)},
                                      {i: [ptb_tokenize(h)] for i, h in enumerate(hyps)})
    assert expected[1] != Meteor().compute_score(dict(enumerate(refs)), {i: [h] for i, h in enumerate(hyps)})[1]
    (tmp_path / "h.txt").write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    ref_args = []
    for j in range(4):
        (tmp_path / f"r{j}.txt").write_text("".join(r[j] + "\n" for r in refs), encoding="utf-8")
        ref_args += ["--ref", str(tmp_path / f"r{j}.txt")]
    assert main(["score", "--hyp", str(tmp_path / "h.txt"), *ref_args, "--json", "--tokenize", "ptb"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["segment_scores"] == expected[1] and out["score"] == expected[0]
    assert out["signature"].startswith("meteor-1.5|tok:ptb|")
    result = evaluate.load(meteor_metric.EVALUATE_MODULE).compute(
        predictions=hyps, references=refs, tokenize="ptb", return_segment_scores=True)
    assert result["scores"] == expected[1] and result["meteor"] == expected[0]
    assert result["signature"] == out["signature"]
