"""Scoring profiles: which METEOR a number is.

* ``meteor-1.5`` (default): the Java-exact METEOR 1.5 engine (:class:`~meteor_metric.Meteor`);
  the system score comes from the summed segment statistics, like the jar.
* ``nltk``: bit-exact with Hugging Face's ``evaluate.load("meteor")`` as shipped
  (``nltk.translate.meteor_score.meteor_score`` on ``nltk.word_tokenize`` tokens, Punkt included);
  the system score is the mean of the segment scores, as HF reports it.
* ``original``: METEOR as first published (Banerjee & Lavie, 2005), with an exact alignment search;
  the system score comes from the summed statistics.

Every profile's scorer has ``sentence_score``, ``corpus_score``, ``aggregate`` (segments already
scored → corpus), ``signature`` and ``modules`` and returns :class:`~meteor_metric.SegmentResult` /
:class:`~meteor_metric.CorpusResult`.
"""

from __future__ import annotations

import threading
from numbers import Real
from typing import Iterable, Optional, Protocol, Sequence

from .meteor import CorpusResult, Meteor, References, SegmentResult

PROFILES = ("meteor-1.5", "nltk", "original")
DEFAULT_PROFILE = "meteor-1.5"

#: The ``normalization`` values each profile accepts; the first is its default.
NORMALIZATIONS = {
    "meteor-1.5": ("norm", "norm_nopunct", "lc_only", "no_norm"),
    "nltk": ("word_tokenize", "word_tokenize_line", "split"),
    "original": ("norm",),
}


class Scorer(Protocol):
    """What every profile's scorer provides."""

    @property
    def signature(self) -> str: ...

    @property
    def modules(self) -> tuple[str, ...]: ...

    def sentence_score(self, hypothesis: str, references: References) -> SegmentResult: ...

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[References]) -> CorpusResult: ...

    def score_pairs(self, pairs: Sequence[tuple[str, Sequence[str]]], first: int = 0) -> list[SegmentResult]: ...

    def aggregate(self, segments: Sequence[SegmentResult], n_refs: Iterable[int]) -> CorpusResult: ...


_scorers: dict[tuple, Scorer] = {}
_lock = threading.Lock()


def check_profile(profile: object) -> str:
    """The profile name, or a ``ValueError`` listing the known ones."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose one of: {', '.join(PROFILES)}")
    return profile  # type: ignore[return-value]


def get_scorer(profile: str = DEFAULT_PROFILE, language: str = "en", task: Optional[str] = None,
               normalization: Optional[str] = None, modules: Optional[Sequence[str]] = None,
               params_file: Optional[str] = None, fragmentation: Optional[str] = None,
               alpha: Optional[float] = None, beta: Optional[float] = None,
               gamma: Optional[float] = None) -> Scorer:
    """A shared scorer for a profile and its options (created once, then reused; thread-safe).

    ``normalization`` names how text becomes tokens, per profile (``NORMALIZATIONS``);
    ``None`` takes the profile's default. ``language``, ``task`` and ``modules`` are METEOR 1.5
    options; the ``nltk`` and ``original`` profiles are English only and have no tasks.
    ``params_file`` is a preset file (``meteor-metric tune``) for meteor-1.5; its content's digest
    is part of the cache key, so an edited file gives a new scorer. ``fragmentation="crossings"`` is
    the meteor-1.5 extension (``Meteor(fragmentation=...)``). ``alpha``, ``beta``, ``gamma`` are the
    ``nltk`` profile's parameters (HF's ``meteor`` arguments; defaults 0.9, 3, 0.5).
    """
    check_profile(profile)
    allowed = NORMALIZATIONS[profile]
    if normalization is None:
        normalization = allowed[0]
    elif normalization not in allowed:
        raise ValueError(f"normalization {normalization!r} does not apply to the {profile} profile; "
                         f"it accepts: {', '.join(allowed)}")
    if profile != "meteor-1.5":
        if language not in ("en", "english"):
            raise ValueError(f"the {profile} profile is English only (got language={language!r}); "
                             "use profile='meteor-1.5' for other languages")
        if task is not None or modules is not None or params_file is not None or fragmentation is not None:
            raise ValueError(f"task, modules, params_file and fragmentation apply to the meteor-1.5 profile, "
                             f"not to {profile}")
    nltk_params = _nltk_parameters(profile, alpha, beta, gamma)
    preset = None
    if params_file is not None:
        from .presets import load_preset

        preset = (params_file, load_preset(params_file).digest)
    key = (profile, language, task, normalization, None if modules is None else tuple(modules), preset,
           fragmentation or "chunks", nltk_params)
    with _lock:
        scorer = _scorers.get(key)
        if scorer is None:
            scorer = _scorers[key] = _make(*key)
    return scorer


def _make(profile: str, language: str, task: Optional[str], normalization: str,
          modules: Optional[tuple[str, ...]], preset: Optional[tuple[str, str]], fragmentation: str,
          nltk_params: tuple[float, float, float]) -> Scorer:
    if profile == "meteor-1.5":
        return Meteor(language, task, normalization=normalization, modules=modules,
                      params_file=None if preset is None else preset[0], fragmentation=fragmentation)
    if profile == "nltk":
        from .nltk_profile import NltkMeteor

        return NltkMeteor(*nltk_params, tokenizer=normalization)
    from .original import OriginalMeteor

    return OriginalMeteor()


_NLTK_DEFAULTS = {"alpha": 0.9, "beta": 3.0, "gamma": 0.5}  # nltk's meteor_score and HF's _compute


def _nltk_parameters(profile: str, alpha: Optional[float], beta: Optional[float],
                     gamma: Optional[float]) -> tuple[float, float, float]:
    """(alpha, beta, gamma) for the nltk profile; a ``ValueError`` naming the right option elsewhere."""
    given = {"alpha": alpha, "beta": beta, "gamma": gamma}
    named = [name for name, value in given.items() if value is not None]
    names = f"{', '.join(named)} appl{'ies' if len(named) == 1 else 'y'}"
    if named and profile == "meteor-1.5":
        raise ValueError(f"{names} to the nltk profile (HF's meteor arguments); the meteor-1.5 "
                         "profile takes alpha, beta, gamma and delta from task (a preset such as 'rank') or "
                         "params_file (a preset file written by 'meteor-metric tune'), or "
                         "Meteor(parameters=[alpha, beta, gamma, delta]) in Python")
    if named and profile != "nltk":
        raise ValueError(f"{names} to the nltk profile; the {profile} profile has fixed "
                         "parameters (Banerjee & Lavie 2005); use profile='nltk' to set them")
    for name in named:
        if isinstance(given[name], bool) or not isinstance(given[name], Real):
            raise TypeError(f"{name} must be a number, got {type(given[name]).__name__}")
    return tuple(_NLTK_DEFAULTS[n] if v is None else v for n, v in given.items())  # type: ignore[return-value]
