"""Training-loop helpers: a Seq2SeqTrainer ``compute_metrics`` with a real fast tokenizer, and datasets scoring.

Oracle: Java METEOR 1.5 scores of the example files (examples/jar-scores.json, from benchmarks/jar.py).
The tokenizer is a real ``transformers.PreTrainedTokenizerFast`` built offline from the example texts.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from meteor_metric.core.corpus_io import read_lines
from meteor_metric.integrations.training import make_compute_metrics, score_dataset, score_texts

NO_TRANSFORMERS = "transformers is not installed (pip install -e '.[transformers]')"
transformers = pytest.importorskip("transformers", reason=NO_TRANSFORMERS)
tokenizers = pytest.importorskip("tokenizers", reason=NO_TRANSFORMERS)
datasets = pytest.importorskip("datasets")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
TOLERANCE = 1e-12


@pytest.fixture(scope="module", autouse=True)
def paraphrase_table(default_meteor):
    """Everything here needs the English paraphrase table."""


HYPS = read_lines(str(EXAMPLES / "hyp.txt"))
REFS = read_lines(str(EXAMPLES / "ref.txt"))


@pytest.fixture(scope="module")
def tokenizer():
    """A word-level fast tokenizer over the example vocabulary, with pad/eos special tokens (no Hub).

    Its decoding joins words with single spaces, which gives back the example lines exactly."""
    assert all(" ".join(t.split()) == t for t in HYPS + REFS)
    vocab = {"<pad>": 0, "</s>": 1, "<unk>": 2}
    for text in HYPS + REFS:
        for word in text.split():
            vocab.setdefault(word, len(vocab))
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    tok.decoder = tokenizers.decoders.WordPiece(prefix="\u0000", cleanup=False)  # words joined by spaces
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="</s>",
                                                unk_token="<unk>", clean_up_tokenization_spaces=False)


def _padded(tokenizer, texts: list[str], fill: int) -> np.ndarray:
    ids = [tokenizer(t)["input_ids"] + [tokenizer.eos_token_id] for t in texts]
    width = max(map(len, ids)) + 2
    return np.array([row + [fill] * (width - len(row)) for row in ids])


def test_compute_metrics_decodes_and_scores_like_the_jar(tokenizer):
    preds = _padded(tokenizer, HYPS, tokenizer.pad_token_id)
    labels = _padded(tokenizer, REFS, -100)  # the collator masks label padding with -100
    assert tokenizer.batch_decode(np.where(labels == -100, 0, labels), skip_special_tokens=True) == REFS
    compute_metrics = make_compute_metrics(tokenizer)
    out = compute_metrics(transformers.EvalPrediction(predictions=preds, label_ids=labels))
    assert abs(out["meteor"] - JAR["one_ref"]["final_score"]) <= TOLERANCE
    assert out["meteor_signature"].startswith("meteor-1.5|") and "|nrefs:1|" in out["meteor_signature"]
    # -100 in predictions too, and the (ids, ...) tuple some models return
    preds[:, -1] = -100
    assert compute_metrics(((preds, None), labels))["meteor"] == out["meteor"]


def test_compute_metrics_rejects_logits_and_a_tokenizer_without_pad(tokenizer):
    compute_metrics = make_compute_metrics(tokenizer)
    with pytest.raises(ValueError, match="logits"):
        compute_metrics((np.zeros((2, 3, 5)), np.zeros((2, 3), dtype=int)))

    class NoPad:
        pad_token_id = None

    with pytest.raises(ValueError, match="pad_token_id"):
        make_compute_metrics(NoPad())
    with pytest.raises(ValueError, match="unknown profile"):
        make_compute_metrics(tokenizer, profile="bleu")


def test_score_texts_accepts_plain_and_wrapped_references():
    plain = score_texts(HYPS, REFS)
    assert score_texts(HYPS, [[r] for r in REFS]) == plain
    assert all(abs(a - b) <= TOLERANCE for a, b in zip(plain, JAR["one_ref"]["segment_scores"]))


@pytest.mark.parametrize("num_proc", [None, 2])
def test_score_dataset_adds_a_column(num_proc):
    refs = [[a, b] for a, b in zip(REFS, read_lines(str(EXAMPLES / "ref2.txt")))]
    ds = datasets.Dataset.from_dict({"prediction": HYPS, "references": refs})
    scored = score_dataset(ds, batch_size=16, num_proc=num_proc)
    assert scored.column_names == ["prediction", "references", "meteor"]
    golden = JAR["two_refs"]["segment_scores"]
    assert all(abs(a - b) <= TOLERANCE for a, b in zip(scored["meteor"], golden))
    with pytest.raises(ValueError, match="already has a column 'meteor'"):
        score_dataset(scored)
    with pytest.raises(ValueError, match="no column 'hyp'"):
        score_dataset(ds, prediction_column="hyp")
