"""The ``nltk`` profile against Hugging Face's ``evaluate.load("meteor")`` as shipped (Punkt included).

Oracle: HF's metrics/meteor ``_compute`` code path, run for real by scripts/build_hf_meteor_goldens.py:
NLTK 3.10.4 ``meteor_score`` / ``single_meteor_score`` on ``nltk.word_tokenize`` tokens (Punkt
``punkt_tab/english`` sentence splitting first), WordNet 3.0, for five (alpha, beta, gamma) sets.
tests/data/nltk/hf_meteor_golden.jsonl.gz keeps every row where Punkt changes a token, every edge case
and every 25th other row of ../shared/conformance/nltk, THumB, Flickr8k-Expert and WMT23 zh-en.
No nltk_data is needed here; every score is compared with ``==``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
from functools import lru_cache

import evaluate
import numpy as np
import pytest

import meteor_metric
from conformance import DATA
from meteor_metric import get_scorer
from meteor_metric.cli.main import main
from meteor_metric.profiles.nltk_punkt import MODEL, punkt_parameters, word_tokenize_punkt
from meteor_metric.resources import resource_path

GOLDEN = DATA / "nltk" / "hf_meteor_golden.jsonl.gz"


@lru_cache(maxsize=None)
def golden() -> tuple[dict, list[dict]]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8", newline="\n") as f:
        header, *rows = (json.loads(line) for line in f)
    return header, rows


def parameters() -> list[tuple[float, float, float]]:
    return [tuple(p) for p in golden()[0]["parameters"]]


def test_packaged_punkt_model_is_the_real_punkt_tab():
    """The shipped files, uncompressed, have the SHA-256 of the real punkt_tab/english files."""
    real = golden()[0]["punkt_english_sha256"]
    assert len(real) == 4
    for name, digest in real.items():
        data = gzip.decompress(resource_path(*MODEL, name + ".gz").read_bytes())
        assert hashlib.sha256(data).hexdigest() == digest, name


NLTK_LOADER = """
import gzip, json, os, sys
from pathlib import Path
import nltk
from meteor_metric.profiles.nltk_punkt import MODEL, punkt_parameters
from meteor_metric.resources import resource_path
data = Path(sys.argv[1]); folder = data / "tokenizers" / "punkt_tab" / "english"
folder.mkdir(parents=True)
for path in resource_path(*MODEL).glob("*.gz"):
    (folder / path.name[:-3]).write_bytes(gzip.decompress(path.read_bytes()))
for path in (data, *data.rglob("*")):
    os.chmod(path, 0o755 if path.is_dir() else 0o644)
nltk.data.path[:] = [str(data)]
from nltk.tokenize.punkt import PunktTokenizer
real, ours = vars(PunktTokenizer("english")._params), vars(punkt_parameters())
print(json.dumps({"same": real == ours, "fields": sorted(ours), "abbrevs": len(ours["abbrev_types"])}))
"""


def test_parameters_equal_nltks_own_loader(tmp_path):
    """NLTK's ``PunktTokenizer("english")`` reading the same files from an nltk_data folder gets the
    parameters ``punkt_parameters()`` decodes (in a subprocess: nltk.data.path is global)."""
    proc = subprocess.run([sys.executable, "-c", NLTK_LOADER, str(tmp_path / "nltk_data")],
                          capture_output=True, text=True, check=True)
    out = json.loads(proc.stdout)
    assert out == {"same": True, "fields": ["abbrev_types", "collocations", "ortho_context", "sent_starters"],
                   "abbrevs": 156}


def test_punkt_splits_at_abbreviation_like_tokens():
    """THumB's ``a t.v. and a bunch of chairs``: Punkt ends a sentence after ``t.v.``, so the period splits
    off (the golden rows hold this caption; HF scores it this way)."""
    assert word_tokenize_punkt("a t.v. and a bunch of chairs") == ["a", "t.v", ".", "and", "a", "bunch", "of",
                                                                    "chairs"]
    assert get_scorer("nltk", normalization="word_tokenize_line").tokens("a t.v. and a") == ("a", "t.v.", "and", "a")
    assert any("a t.v. and  a bunch of chairs" in row["hyp"] and row["punkt"] for row in golden()[1])


def test_every_row_bit_for_bit():
    header, rows = golden()
    # every row where Punkt changes a token (1,835 per the header's counts) is stored and replayed
    assert sum(row["punkt"] for row in rows) == sum(counts[1] for counts in header["rows"].values()) == 1835
    assert {row["source"] for row in rows} == set(header["rows"])
    for k, (alpha, beta, gamma) in enumerate(parameters()):
        scorer = get_scorer("nltk", alpha=alpha, beta=beta, gamma=gamma)
        diffs = [row["id"] for row in rows if scorer.sentence_score(row["hyp"], row["refs"]).score != row["hf"][k]]
        assert diffs == [], (alpha, beta, gamma)


def test_preserve_line_is_a_different_number():
    """``word_tokenize_line`` (the old default) differs from HF as shipped on Punkt rows."""
    line = get_scorer("nltk", normalization="word_tokenize_line")
    punkt_rows = [row for row in golden()[1] if row["punkt"]]
    assert sum(line.sentence_score(row["hyp"], row["refs"]).score != row["hf"][0] for row in punkt_rows) > 50


@pytest.fixture(scope="module")
def metric(tmp_path_factory):
    return evaluate.load(meteor_metric.EVALUATE_MODULE, cache_dir=str(tmp_path_factory.mktemp("hf")))


@pytest.mark.parametrize("source", ["thumb", "wmt23_zh-en"])
def test_plugin_takes_hfs_alpha_beta_gamma(metric, source):
    """compute(profile="nltk", alpha=, beta=, gamma=) gives HF's rows and HF's np.mean."""
    rows = [row for row in golden()[1] if row["source"] == source]
    for k, (alpha, beta, gamma) in enumerate(parameters()):
        out = metric.compute(predictions=[r["hyp"] for r in rows], references=[r["refs"] for r in rows],
                             profile="nltk", alpha=alpha, beta=beta, gamma=gamma, return_segment_scores=True)
        want = [r["hf"][k] for r in rows]
        assert out["scores"] == want
        assert out["meteor"] == float(np.mean(want))
        assert f"|a:{float(alpha)!r},b:{float(beta)!r},g:{float(gamma)!r}|tok:word_tokenize+punkt|" in out["signature"]


@pytest.mark.parametrize("profile, names", [("meteor-1.5", "params_file"), ("original", "profile='nltk'")])
def test_other_profiles_name_the_right_argument(metric, profile, names):
    with pytest.raises(ValueError, match=f"alpha=0.8 is an option of the nltk profile.*{names}"):
        metric.compute(predictions=["a"], references=["a"], profile=profile, alpha=0.8)
    with pytest.raises(TypeError, match="beta must be a number"):
        metric.compute(predictions=["a"], references=["a"], profile="nltk", beta="3")


def test_cli_params_and_tokenizer(tmp_path, capsys):
    rows = [row for row in golden()[1] if row["source"] == "wmt23_zh-en" and row["punkt"]][:20]
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("".join(r["hyp"] + "\n" for r in rows), encoding="utf-8")
    ref.write_text("".join(r["refs"] + "\n" for r in rows), encoding="utf-8")
    for k, (alpha, beta, gamma) in enumerate(parameters()):
        params = f"{alpha},{beta},{gamma}"
        assert main(["score", "--hyp", str(hyp), "--ref", str(ref), "--profile", "nltk", "--params", params,
                     "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["segment_scores"] == [r["hf"][k] for r in rows]
    assert main(["score", "--hyp", str(hyp), "--ref", str(ref), "--profile", "nltk", "--json",
                 "--normalization", "word_tokenize_line"]) == 0
    assert "|tok:word_tokenize_line|" in json.loads(capsys.readouterr().out)["signature"]
    assert main(["score", "--hyp", str(hyp), "--ref", str(ref), "--profile", "nltk", "--params", "0.9,3"]) == 2
    assert "--params for --profile nltk is alpha,beta,gamma (3 numbers" in capsys.readouterr().err
