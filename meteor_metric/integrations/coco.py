"""Drop-in replacements for pycocoevalcap 1.2's ``Meteor`` and ``PTBTokenizer``, without Java.

Two-line switch in a COCO/Flickr captioning evaluation::

    from meteor_metric.integrations.coco import Meteor        # was: from pycocoevalcap.meteor.meteor import Meteor
    from meteor_metric.integrations.coco import PTBTokenizer  # was: from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

``Meteor().compute_score(gts, res)`` scores like pycocoevalcap's wrapper of ``meteor-1.5.jar -stdio -l en -norm``:
each image's score and the corpus score from the summed statistics (the jar's ``EVAL``), images in
``gts.keys()`` order. The wrapper's line-protocol quirks are reproduced: ``|||`` is removed from the hypothesis
(then each pair of spaces becomes one, Python ``str.replace``), a reference containing ``|||`` becomes several
references, and every field is trimmed like Java ``String.trim()`` (characters up to U+0020). Where the wrapper
would send the jar an empty field (an empty hypothesis or reference), this raises a ``ValueError`` naming the
image instead of scoring it.
"""

from __future__ import annotations

from typing import Hashable, Mapping, Sequence

from ..meteor15.meteor import Meteor as _Meteor15
from .ptb_tokenizer import ptb_tokenize

__all__ = ["Meteor", "PTBTokenizer"]


def _java_trim(text: str) -> str:
    """Java ``String.trim()``: strip characters <= U+0020 at both ends."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def protocol_fields(hypothesis: str, references: Sequence[str]) -> tuple[str, list[str]]:
    """The hypothesis and references as the jar receives them from pycocoevalcap's ``SCORE`` line."""
    hyp = hypothesis.replace("|||", "").replace("  ", " ")
    refs = [_java_trim(r) for r in " ||| ".join(references).split("|||")]
    return _java_trim(hyp), refs


class Meteor:
    """pycocoevalcap's ``Meteor`` (METEOR 1.5, ``-l en -norm``) in pure Python."""

    def __init__(self) -> None:
        self._scorer = _Meteor15()

    def method(self) -> str:
        return "METEOR"

    def compute_score(self, gts: Mapping[Hashable, Sequence[str]],
                      res: Mapping[Hashable, Sequence[str]]) -> tuple[float, list[float]]:
        """(corpus score, image scores in ``gts.keys()`` order) for references ``gts`` and one hypothesis per
        image in ``res``; the same ``AssertionError`` as pycocoevalcap on mismatched keys or not one hypothesis."""
        assert gts.keys() == res.keys()
        hyps, refs = [], []
        for image in gts.keys():
            assert len(res[image]) == 1
            hyp, image_refs = protocol_fields(res[image][0], gts[image])
            if not hyp or not all(image_refs):
                raise ValueError(f"image {image!r}: empty hypothesis or reference after pycocoevalcap's line "
                                 "protocol ('|||' removed, Java trim); the jar cannot score it, give non-empty text")
            hyps.append(hyp)
            refs.append(image_refs)
        if not hyps:
            raise ValueError("compute_score needs at least one image")
        corpus = self._scorer.corpus_score(hyps, refs)
        return corpus.score, corpus.segment_scores


class PTBTokenizer:
    """pycocoevalcap's ``PTBTokenizer`` (Stanford CoreNLP 3.4.1, ``-preserveLines -lowerCase``, punctuation
    removed) in pure Python: see :mod:`meteor_metric.integrations.ptb_tokenizer`."""

    def tokenize(self, captions_for_image: Mapping[Hashable, Sequence[Mapping[str, str]]]
                 ) -> dict[Hashable, list[str]]:
        """``{image_id: [{"caption": text}, ...]}`` -> ``{image_id: [token string, ...]}``."""
        return {image: [ptb_tokenize(c["caption"]) for c in captions]
                for image, captions in captions_for_image.items()}


#: Values of the ``tokenize`` option of the evaluate wrapper and the CLI (``--tokenize``).
TOKENIZE_OPTIONS = ("none", "ptb")


def check_tokenize(tokenize: str) -> str:
    """``tokenize`` if it is one of :data:`TOKENIZE_OPTIONS`, else a ``ValueError`` listing them."""
    if tokenize not in TOKENIZE_OPTIONS:
        raise ValueError(f"tokenize={tokenize!r} is unknown: give one of {', '.join(TOKENIZE_OPTIONS)}")
    return tokenize


def pretokenize(hypothesis: str, references: Sequence[str], tokenize: str) -> tuple[str, list[str]]:
    """A segment as the scorer should see it: unchanged (``"none"``) or PTB-tokenized (``"ptb"``: COCO-style
    METEOR, pycocoevalcap's PTBTokenizer before METEOR 1.5)."""
    if check_tokenize(tokenize) == "none":
        return hypothesis, list(references)
    return ptb_tokenize(hypothesis), [ptb_tokenize(r) for r in references]


def tokenized_signature(signature: str, tokenize: str) -> str:
    """``signature`` with ``tok:ptb`` after its first field (unchanged for ``"none"``)."""
    if check_tokenize(tokenize) == "none":
        return signature
    head, _, rest = signature.partition("|")
    return f"{head}|tok:{tokenize}|{rest}" if rest else f"{head}|tok:{tokenize}"
