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

from ..core.results import CorpusResult
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


def _caption_list(image: Hashable, value: object, what: str) -> list[str]:
    """``value`` checked as the list of caption strings of ``image`` (``what``: references, captions, ...)."""
    if isinstance(value, str):
        raise TypeError(f"image {image}: {what} must be a list of strings, got a single string {value[:60]!r} "
                        f"(put it in a list: [{value[:60]!r}])")
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"image {image}: {what} must be a list of strings, got {_kind(value)}")
    for caption in value:
        if not isinstance(caption, str):
            raise TypeError(f"image {image}: caption must be a string, got {_kind(caption)}")
    return list(value)


def _kind(value: object) -> str:
    return "None" if value is None else type(value).__name__


def _check_keys(gts: Mapping, res: Mapping) -> None:
    """pycocoevalcap's ``assert gts.keys() == res.keys()``, with the first differing images named."""
    if gts.keys() != res.keys():
        only_gts = [k for k in gts if k not in res][:5]
        only_res = [k for k in res if k not in gts][:5]
        raise AssertionError(f"gts and res must hold the same images: only in gts {only_gts}, only in res {only_res}")


class Meteor:
    """pycocoevalcap's ``Meteor`` (METEOR 1.5, ``-l en -norm``) in pure Python."""

    def __init__(self) -> None:
        self._scorer = _Meteor15()

    def method(self) -> str:
        return "METEOR"

    def corpus_result(self, gts: Mapping[Hashable, Sequence[str]],
                      res: Mapping[Hashable, Sequence[str]]) -> CorpusResult:
        """The full result behind :meth:`compute_score`: corpus statistics, one segment per image in
        ``gts.keys()`` order, and the signature."""
        _check_keys(gts, res)
        hyps, refs = [], []
        for image in gts.keys():
            hypothesis = _caption_list(image, res[image], "the result (res) captions")
            assert len(hypothesis) == 1, f"image {image}: one result caption expected, got {len(hypothesis)}"
            hyp, image_refs = protocol_fields(hypothesis[0], _caption_list(image, gts[image], "the references (gts)"))
            if not hyp or not all(image_refs):
                raise ValueError(f"image {image}: empty hypothesis or reference after pycocoevalcap's line "
                                 "protocol ('|||' removed, Java trim); the jar cannot score it, give non-empty text")
            hyps.append(hyp)
            refs.append(image_refs)
        if not hyps:
            raise ValueError("compute_score needs at least one image")
        return self._scorer.corpus_score(hyps, refs)

    def compute_score(self, gts: Mapping[Hashable, Sequence[str]],
                      res: Mapping[Hashable, Sequence[str]]) -> tuple[float, list[float]]:
        """(corpus score, image scores in ``gts.keys()`` order) for references ``gts`` and one hypothesis per
        image in ``res``; an ``AssertionError`` as pycocoevalcap's on mismatched keys or not one hypothesis
        (with the image named), a ``TypeError`` naming the image for a caption that is not a string."""
        corpus = self.corpus_result(gts, res)
        return corpus.score, corpus.segment_scores


class PTBTokenizer:
    """pycocoevalcap's ``PTBTokenizer`` (Stanford CoreNLP 3.4.1, ``-preserveLines -lowerCase``, punctuation
    removed) in pure Python: see :mod:`meteor_metric.integrations.ptb_tokenizer`."""

    def tokenize(self, captions_for_image: Mapping[Hashable, Sequence[Mapping[str, str]]]
                 ) -> dict[Hashable, list[str]]:
        """``{image_id: [{"caption": text}, ...]}`` -> ``{image_id: [token string, ...]}``. As in pycocoevalcap,
        an image with no captions is left out of the result; a caption that is not a string is a
        ``TypeError`` naming its image."""
        out: dict[Hashable, list[str]] = {}
        for image, captions in captions_for_image.items():
            if isinstance(captions, (str, Mapping)) or not isinstance(captions, (list, tuple)):
                raise TypeError(f"image {image}: expected a list of {{'caption': text}} records, got {_kind(captions)}")
            texts = []
            for record in captions:
                if not isinstance(record, Mapping) or "caption" not in record:
                    raise TypeError(f"image {image}: each record must be a dict with a 'caption' key, "
                                    f"got {_kind(record)}")
                text = record["caption"]
                if not isinstance(text, str):
                    raise TypeError(f"image {image}: caption must be a string, got {_kind(text)}")
                texts.append(ptb_tokenize(text))
            if texts:
                out[image] = texts
        return out


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
