"""METEOR as a reward for reinforcement learning: TRL's ``GRPOTrainer(reward_funcs=[...])`` and the like.

TRL calls a reward function with ``prompts``, ``completions``, ``completion_ids`` and every other dataset column
as keyword lists (one item per completion), and takes back one float (or ``None``) per completion. This module
does not import TRL.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..core.checks import check_refs, plain_refs
from ..profiles.registry import DEFAULT_PROFILE, ScorerSpec, scorer_spec


def completion_text(completion: Any, index: int) -> str:
    """The text of completion number ``index``: a string, or (conversational) a list of messages whose last
    assistant message's ``content`` counts (a string, or a list of parts whose ``text`` parts are joined).
    Errors name it as ``completion {index}`` (the name is built only past a string)."""
    if isinstance(completion, str):
        return completion
    where = f"completion {index}"
    if isinstance(completion, (list, tuple)):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
                return _content_text(message.get("content"), where)
        raise ValueError(f"{where} is a list of {len(completion)} messages without an assistant message")
    kind = "None" if completion is None else type(completion).__name__
    raise TypeError(f"{where} must be a string or a list of chat messages, got {kind}")


def _content_text(content: Any, where: str) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):  # multimodal parts: [{"type": "text", "text": ...}, ...]
        return "".join(part.get("text", "") for part in content
                       if isinstance(part, dict) and part.get("type", "text") == "text")
    kind = "None" if content is None else type(content).__name__
    raise TypeError(f"{where}: the assistant message's content must be a string or a list of parts, got {kind}")


class MeteorReward:
    """A picklable reward function: the METEOR segment score of each completion against its reference(s).

    Build it with :func:`make_meteor_reward`; ``__name__`` (``"meteor"``) is what TRL logs it as."""

    def __init__(self, reference_column: str, spec: ScorerSpec):
        self.reference_column = reference_column
        self.spec = spec
        self.__name__ = "meteor"

    def __call__(self, completions: Sequence[Any], **columns: Any) -> list[Optional[float]]:
        if self.reference_column not in columns:
            names = sorted(k for k in columns if k not in ("trainer_state", "log_extra", "log_metric"))
            raise ValueError(f"the reward has no column {self.reference_column!r} (the dataset's columns given: "
                             f"{names}): pass reference_column= to make_meteor_reward")
        references = columns[self.reference_column]
        if len(references) != len(completions):
            raise ValueError(f"{len(completions)} completions but {len(references)} items in column "
                             f"{self.reference_column!r}")
        pairs, rows = [], []
        for k, (completion, refs) in enumerate(zip(completions, references)):
            if refs is None or (isinstance(refs, (list, tuple)) and not refs):
                continue  # no reference: the reward is None (TRL ignores it)
            # (the references named only when they are wrong)
            pairs.append((completion_text(completion, k),
                          plain_refs(refs) or check_refs(refs, f"{self.reference_column}[{k}]")))
            rows.append(k)
        rewards: list[Optional[float]] = [None] * len(completions)
        scorer = self.spec.build()
        try:
            results = scorer.score_pairs(pairs)
        except ValueError:  # a segment beyond the scorer's limits: name the completion
            for k, (text, refs) in zip(rows, pairs):
                try:
                    scorer.sentence_score(text, refs)
                except ValueError as exc:
                    raise ValueError(f"completion {k}: {exc}") from None
            raise
        for k, result in zip(rows, results):
            rewards[k] = result.score
        return rewards


def make_meteor_reward(reference_column: str = "reference", *, profile: str = DEFAULT_PROFILE,
                       **scorer_options: Any) -> MeteorReward:
    """A reward function for TRL's ``GRPOTrainer(reward_funcs=[...])``: one METEOR score per completion.

    ``completions`` are strings or conversations (the last assistant message counts); the dataset column
    ``reference_column`` holds a reference string or a list of references per prompt (the best one counts;
    ``None`` or an empty list gives the reward ``None``). ``profile`` and ``scorer_options`` are
    :func:`~meteor_metric.get_scorer`'s (``language``, ``task``, ``normalization``, ...), checked now.

    >>> reward = make_meteor_reward()
    >>> reward(["the cat sat on the mat", [{"role": "assistant", "content": "a dog"}]],
    ...        reference=["the cat sat on the mat", ["a dog barked", "the dog"]])
    [1.0, 0.6...]
    """
    if not isinstance(reference_column, str):
        raise TypeError(f"reference_column must be a string (a dataset column), got {type(reference_column).__name__}")
    spec = scorer_spec(profile, **scorer_options)
    spec.build()  # fail now (and load the resources), not at the first training step
    return MeteorReward(reference_column, spec)
