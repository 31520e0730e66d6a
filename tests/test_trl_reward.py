"""The METEOR reward function for TRL: its calling convention, and one real ``GRPOTrainer`` training step.

Oracles: the Java METEOR 1.5 jar (examples/jar-scores.json, from benchmarks/jar.py) for the reward values, and
TRL itself (a real ``GRPOTrainer`` on a tiny randomly initialised GPT-2 built from its config, with a word-level
tokenizer built here: nothing is downloaded) for the calling convention.
"""

from __future__ import annotations

import json
import math
import pickle
from pathlib import Path

import pytest

from meteor_metric.core.corpus_io import read_lines
from meteor_metric.integrations.trl import make_meteor_reward

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
HYPS = read_lines(str(EXAMPLES / "hyp.txt"))
REFS = read_lines(str(EXAMPLES / "ref.txt"))
REFS2 = read_lines(str(EXAMPLES / "ref2.txt"))
TOLERANCE = 1e-12


@pytest.fixture(scope="module", autouse=True)
def paraphrase_table(default_meteor):
    """Everything here needs the English paraphrase table."""


def test_plain_completions_score_like_the_jar():
    reward = make_meteor_reward()
    got = reward(prompts=["translate"] * len(HYPS), completions=HYPS, reference=REFS)
    assert len(got) == len(HYPS)
    for value, expected in zip(got, JAR["one_ref"]["segment_scores"]):
        assert abs(value - expected) <= TOLERANCE


def test_several_references_and_conversational_completions():
    reward = make_meteor_reward(reference_column="refs")
    chats = [[{"role": "assistant", "content": h}] for h in HYPS]
    got = reward(completions=chats, refs=[[a, b] for a, b in zip(REFS, REFS2)], log_metric=print)
    for value, expected in zip(got, JAR["two_refs"]["segment_scores"]):
        assert abs(value - expected) <= TOLERANCE
    # the last assistant message counts; multimodal content parts give their text
    chat = [{"role": "user", "content": "x"}, {"role": "assistant", "content": [{"type": "text", "text": HYPS[0]}]}]
    assert abs(reward(completions=[chat], refs=[REFS[0]])[0] - JAR["one_ref"]["segment_scores"][0]) <= TOLERANCE


def test_missing_reference_gives_none():
    reward = make_meteor_reward()
    got = reward(completions=HYPS[:3], reference=[None, REFS[1], []])
    assert got[0] is None and got[2] is None
    assert abs(got[1] - JAR["one_ref"]["segment_scores"][1]) <= TOLERANCE


def test_errors_name_the_column_and_the_completion():
    reward = make_meteor_reward()
    with pytest.raises(ValueError, match=r"no column 'reference' .*\['answer'\].*reference_column="):
        reward(completions=["a"], answer=["a"])
    with pytest.raises(TypeError, match=r"reference\[1\] must be a string or a list of strings, got int"):
        reward(completions=["a", "b"], reference=["a", 3])
    with pytest.raises(TypeError, match=r"reference\[0\]\[1\] must be a string, got int"):
        reward(completions=["a"], reference=[["a", 3]])
    with pytest.raises(TypeError, match=r"completion 0 must be a string or a list of chat messages, got int"):
        reward(completions=[3], reference=["a"])
    with pytest.raises(ValueError, match="2 completions but 1 items"):
        reward(completions=["a", "b"], reference=["a"])
    with pytest.raises(ValueError, match="normalization 'bogus' does not apply"):
        make_meteor_reward(normalization="bogus")


def test_other_profile_and_pickle():
    from meteor_metric import get_scorer

    reward = pickle.loads(pickle.dumps(make_meteor_reward(profile="nltk")))
    assert reward.__name__ == "meteor"
    assert reward(completions=HYPS[:2], reference=REFS[:2]) == [
        get_scorer("nltk").sentence_score(h, r).score for h, r in zip(HYPS[:2], REFS[:2])]


def test_one_grpo_training_step(tmp_path):
    torch = pytest.importorskip("torch")
    trl = pytest.importorskip("trl")
    transformers = pytest.importorskip("transformers")
    tokenizers = pytest.importorskip("tokenizers")
    datasets = pytest.importorskip("datasets")

    words = sorted({w for t in HYPS[:4] + REFS[:4] for w in t.split()} | {"translate", ":"})
    vocab = {"<pad>": 0, "</s>": 1, "<unk>": 2, **{w: k + 3 for k, w in enumerate(words)}}
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    tok.decoder = tokenizers.decoders.WordPiece(prefix="\u0000", cleanup=False)  # words joined by spaces
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="</s>",
                                                     unk_token="<unk>", clean_up_tokenization_spaces=False)
    torch.manual_seed(0)
    config = transformers.GPT2Config(vocab_size=len(vocab), n_positions=64, n_embd=16, n_layer=1, n_head=2,
                                     bos_token_id=1, eos_token_id=1, pad_token_id=0)
    model = transformers.GPT2LMHeadModel(config)
    dataset = datasets.Dataset.from_dict({"prompt": [f"translate : {h}" for h in HYPS[:4]],
                                          "reference": REFS[:4]})
    seen = []
    meteor = make_meteor_reward()

    def recording(completions, **columns):  # TRL's call, recorded; the reward is meteor's
        rewards = meteor(completions, **columns)
        seen.append((list(completions), list(columns["reference"]), rewards))
        return rewards

    args = trl.GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=4,
                          max_completion_length=6, max_steps=1, learning_rate=1e-3, report_to=[], use_cpu=True,
                          save_strategy="no", logging_steps=1, disable_tqdm=True)
    trainer = trl.GRPOTrainer(model=model, reward_funcs=[recording, meteor], args=args, train_dataset=dataset,
                              processing_class=tokenizer)
    before = [p.detach().clone() for p in model.parameters()]
    torch.set_grad_enabled(True)  # frameworks tested earlier in the same process (lm-eval) may leave it off
    trainer.train()
    assert trainer.state.global_step == 1
    assert any(not torch.equal(a, b.detach()) for a, b in zip(before, model.parameters()))
    (completions, references, rewards), = seen
    assert len(completions) == len(references) == len(rewards) == 4
    assert all(isinstance(r, float) and 0.0 <= r <= 1.0 and not math.isnan(r) for r in rewards)
    assert set(references) <= set(REFS[:4])
    history = trainer.state.log_history[0]
    assert "rewards/meteor/mean" in history
    assert abs(history["rewards/meteor/mean"] - sum(rewards) / 4) <= 1e-6
