"""METEOR as a Hugging Face ``evaluate`` metric (the class behind ``evaluate.load``).

Load it offline from the installed package folder::

    evaluate.load(meteor_metric.EVALUATE_MODULE)      # or meteor_metric.load_metric()

Nothing is downloaded: every resource ships with the package or an installed dependency.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import datasets
import evaluate

from ..core.checks import check_corpus
from ..profiles.registry import DEFAULT_PROFILE, PROFILES, SCORER_OPTIONS, get_scorer
from .coco import check_tokenize, pretokenize, tokenized_signature

_CITATION = """\
@inproceedings{banerjee-lavie-2005-meteor,
  title = "{METEOR}: An Automatic Metric for {MT} Evaluation with Improved Correlation with Human Judgments",
  author = "Banerjee, Satanjeev and Lavie, Alon",
  booktitle = "Proceedings of the {ACL} Workshop on Intrinsic and Extrinsic Evaluation Measures for Machine Translation and/or Summarization",
  year = "2005",
  pages = "65--72",
}
@inproceedings{denkowski-lavie-2014-meteor,
  title = "Meteor Universal: Language Specific Translation Evaluation for Any Target Language",
  author = "Denkowski, Michael and Lavie, Alon",
  booktitle = "Proceedings of the Ninth Workshop on Statistical Machine Translation",
  year = "2014",
  pages = "376--380",
}
"""

_DESCRIPTION = """\
METEOR aligns a hypothesis with its references word by word (exact words, stems, WordNet synonyms and
paraphrases), then combines unigram precision and recall into a recall-weighted harmonic mean and
discounts it by a fragmentation penalty (how many separate chunks the matches fall into).

This module computes METEOR 1.5 exactly as the Java reference (the number papers and pycocoevalcap
report), with no Java and no downloads. The `nltk` profile reproduces `evaluate.load("meteor")` as
shipped (NLTK, Punkt sentence splitting included) bit for bit; the `original` profile is METEOR as first published (2005).
"""

_KWARGS_DESCRIPTION = """
Computes METEOR for a corpus of predictions against one or several references each.
Args:
    predictions (`list` of `str`): the system outputs, one string per segment (untokenized text).
    references (`list` of `str` or `list` of `list` of `str`): for each prediction, one reference
        string or a list of reference strings (a batch may mix both).
    profile (`str`): "meteor-1.5" (default, Java METEOR 1.5), "nltk" (NLTK / today's HF "meteor")
        or "original" (Banerjee & Lavie 2005). The loading config name (`evaluate.load(path, "nltk")`)
        sets the default profile.
    language (`str`): METEOR 1.5 language ("en", "de", "fr", ...); default "en".
    task (`str`): METEOR 1.5 parameter preset ("rank", "adq", "hter", "li", ...; "mqm" and "caption"
        are tuned on human judgments, English); default: the language's default.
    params_file (`str`): a preset JSON file written by `meteor-metric tune` (meteor-1.5 profile).
    modules (`list` of `str`): meteor-1.5 matchers, e.g. ["exact", "stem", "synonym", "paraphrase", "lemma"]
        ("lemma" and "wn_similarity" are extensions, named in the signature).
    fragmentation (`str`): meteor-1.5 order penalty, "chunks" (default) or the extension "crossings".
    normalization (`str`): how text becomes tokens; meteor-1.5: "norm" (default, the jar's -norm),
        "norm_nopunct", "lc_only", "no_norm"; nltk: "word_tokenize" (default, `nltk.word_tokenize(text)`
        with Punkt sentence splitting, as HF's module), "word_tokenize_line" (`preserve_line=True`: no
        sentence splitting) or "split" (`str.split()`).
    alpha, beta, gamma (`float`): the nltk profile's parameters, as in HF's module (defaults 0.9, 3, 0.5);
        meteor-1.5 takes its parameters from `task` or `params_file` instead.
    tokenize (`str`): "none" (default) or "ptb": pycocoevalcap's PTB tokenization first (pure Python,
        `meteor_metric.integrations.coco`), i.e. COCO-style METEOR; named `tok:ptb` in the signature.
    max_segment_candidates, max_segment_chars (`int`): meteor-1.5's bounds on one segment's work: the
        candidate matches of a prediction against all its references (default 500,000) and the characters of
        each text (default 100,000); 0: no limit. A segment past them is refused with a `ValueError`
        naming it (docs/limits.md).
    return_segment_scores (`bool`): also return the per-segment scores (default False).
Returns:
    meteor (`float`): the system score of the profile: METEOR from the summed segment statistics
        (meteor-1.5, original), or the mean of segment scores (nltk).
    precision, recall, fmean, fragmentation_penalty (`float`): its parts (nltk: segment means).
    signature (`str`): every setting that changes the number, and the package version.
    scores (`list` of `float`): per-segment scores, only with `return_segment_scores=True`.
Examples:
    >>> import evaluate, meteor_metric
    >>> meteor = evaluate.load(meteor_metric.EVALUATE_MODULE)
    >>> predictions = ["The cat sat on the mat.", "A dog runs in the park"]
    >>> references = [["The cat sat on the mat.", "A cat is sitting on the mat."],
    ...               ["A dog is running in a park.", "The dog runs."]]
    >>> results = meteor.compute(predictions=predictions, references=references)
    >>> results["meteor"]  # java -jar meteor-1.5.jar ... -l en -norm -r 2: 0.523270557216095
    0.523270557216095
    >>> results["signature"].split("|")[0]
    'meteor-1.5'
"""


_NLTK_PARAMETERS = SCORER_OPTIONS["nltk"]  # alpha, beta, gamma: HF meteor's arguments
_LIMITS = ("max_segment_candidates", "max_segment_chars")  # 0: no limit


def _given(options: dict[str, Any]) -> dict[str, Any]:
    """The scorer options without the nltk parameters and limits left unset (``None``: the profile's
    defaults); a limit of 0 is none."""
    unset = (*_NLTK_PARAMETERS, *_LIMITS)
    return {name: None if name in _LIMITS and value == 0 else value
            for name, value in options.items() if value is not None or name not in unset}


def _as_reference_lists(references: Any) -> Any:
    """Each item as a list of strings: a plain string becomes a one-item list.

    evaluate picks one schema for a whole batch from its first example, and would split a plain
    string into characters in a batch that starts with a list; wrapping every string avoids that.
    """
    if isinstance(references, str) or not isinstance(references, (list, tuple)):
        return references  # check_corpus names the problem
    return [[r] if isinstance(r, str) else list(r) if isinstance(r, tuple) else r for r in references]


def _check_batch(predictions: Any, references: Any) -> None:
    """Clear errors before evaluate stores anything (a failed write leaves it in a broken state)."""
    try:
        for _ in check_corpus(predictions, references, hyp_name="predictions"):
            pass
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{exc} (in this batch)") from None


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class MeteorMetric(evaluate.Metric):
    """METEOR (1.5, NLTK-compatible or original) for ``evaluate``."""

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({
                    "predictions": datasets.Value("string", id="sequence"),
                    "references": datasets.Sequence(datasets.Value("string", id="sequence"), id="references"),
                }),
                datasets.Features({
                    "predictions": datasets.Value("string", id="sequence"),
                    "references": datasets.Value("string", id="sequence"),
                }),
            ],
            codebase_urls=["https://github.com/cmu-mtlab/meteor"],
            reference_urls=["https://www.cs.cmu.edu/~alavie/METEOR/",
                            "https://aclanthology.org/W05-0909/", "https://aclanthology.org/W14-3348/"],
        )

    def __init__(self, config_name: Optional[str] = None, *, language: str = "en", task: Optional[str] = None,
                 normalization: Optional[str] = None, params_file: Optional[str] = None,
                 modules: Optional[Sequence[str]] = None, fragmentation: Optional[str] = None,
                 tokenize: str = "none", alpha: Optional[float] = None, beta: Optional[float] = None,
                 gamma: Optional[float] = None, max_segment_candidates: Optional[int] = None,
                 max_segment_chars: Optional[int] = None, **kwargs: Any) -> None:
        """``evaluate.load(path, config_name, **options)``: the scorer options given here are the
        defaults of every ``compute()`` (which may override each of them)."""
        super().__init__(config_name=config_name, **kwargs)
        self._options = {"language": language, "task": task, "normalization": normalization,
                         "params_file": params_file, "modules": modules, "fragmentation": fragmentation,
                         "tokenize": tokenize, "alpha": alpha, "beta": beta, "gamma": gamma,
                         "max_segment_candidates": max_segment_candidates, "max_segment_chars": max_segment_chars}

    def _download_and_prepare(self, dl_manager) -> None:
        """Nothing to download; the scorer of the load-time options is made now (paraphrase index
        mapped, or built once under a lock), so a bad config name or a missing resource fails at
        ``evaluate.load`` and the first ``compute()`` is fast."""
        options = dict(self._options)
        check_tokenize(options.pop("tokenize"))
        get_scorer(self._config_profile(), **_given(options))

    def _config_profile(self) -> str:
        """The profile the config name selects (``default``: the default profile)."""
        if self.config_name not in ("default",) + PROFILES:
            raise ValueError(f"unknown config name {self.config_name!r}: give one of the profiles "
                             f"{', '.join(PROFILES)}, or none")
        return DEFAULT_PROFILE if self.config_name == "default" else self.config_name

    def add_batch(self, *, predictions=None, references=None, **kwargs) -> None:
        """Add a batch; a reference may be a string or a list of strings, mixed freely.\n"""
        references = _as_reference_lists(references)
        if predictions is not None or references is not None:
            _check_batch(predictions, references)
            if len(predictions) == 0:
                return  # nothing to add (evaluate itself fails on a first empty batch)
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs) -> None:
        """Add one prediction and its reference (a string or a list of strings).\n"""
        reference = _as_reference_lists([reference])[0]
        _check_batch([prediction], [reference])
        super().add(prediction=prediction, reference=reference, **kwargs)

    def compute(self, *, predictions=None, references=None, **kwargs) -> Optional[dict]:
        """The metric over everything added, plus ``predictions``/``references`` if given."""
        if predictions is not None and len(predictions) == 0 and self.writer is None:
            raise ValueError("cannot score an empty corpus: give at least one prediction")
        return super().compute(predictions=predictions, references=references, **kwargs)

    def _compute(self, predictions: Sequence[str], references: Sequence[Sequence[str]],
                 profile: Optional[str] = None, return_segment_scores: bool = False, **options: Any) -> dict:
        unknown = sorted(set(options) - set(self._options))
        if unknown:
            raise TypeError(f"unexpected argument(s) {', '.join(unknown)}; the options are: profile, "
                            f"return_segment_scores, {', '.join(self._options)}")
        options = {**self._options, **options}
        tokenize = options.pop("tokenize")
        scorer = get_scorer(profile or self._config_profile(), **_given(options))
        pairs = [pretokenize(h, r, tokenize) for h, r in zip(predictions, references)]
        result = scorer.corpus_score([h for h, _ in pairs], [r for _, r in pairs])
        output = {
            "meteor": float(result.score),
            "precision": float(result.precision),
            "recall": float(result.recall),
            "fmean": float(result.fmean),
            "fragmentation_penalty": float(result.fragmentation_penalty),
            "signature": tokenized_signature(result.signature, tokenize),
        }
        if return_segment_scores:
            output["scores"] = [float(s) for s in result.segment_scores]
        return output
