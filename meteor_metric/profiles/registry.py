"""Scoring profiles: which METEOR a number is.

* ``meteor-1.5`` (default): the Java-exact METEOR 1.5 engine (:class:`~meteor_metric.Meteor`);
  the system score comes from the summed segment statistics, like the jar.
* ``nltk``: bit-exact with ``nltk.translate.meteor_score.meteor_score`` (and so with today's
  ``evaluate.load("meteor")``); the system score is the mean of the segment scores, as HF reports it.
* ``original``: METEOR as first published (Banerjee & Lavie, 2005), with an exact alignment search;
  the system score comes from the summed statistics.

Every profile's scorer has ``sentence_score``, ``corpus_score``, ``aggregate`` (segments already
scored → corpus), ``signature`` and ``modules`` and returns :class:`~meteor_metric.SegmentResult` /
:class:`~meteor_metric.CorpusResult`.
"""

from __future__ import annotations

import threading
from typing import Iterable, Optional, Protocol, Sequence

from ..meteor15.meteor import CorpusResult, Meteor, References, SegmentResult

PROFILES = ("meteor-1.5", "nltk", "original")
DEFAULT_PROFILE = "meteor-1.5"

#: The ``normalization`` values each profile accepts; the first is its default.
NORMALIZATIONS = {
    "meteor-1.5": ("norm", "norm_nopunct", "lc_only", "no_norm"),
    "nltk": ("word_tokenize", "split"),
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
               params_file: Optional[str] = None, fragmentation: Optional[str] = None) -> Scorer:
    """A shared scorer for a profile and its options (created once, then reused; thread-safe).

    ``normalization`` names how text becomes tokens, per profile (``NORMALIZATIONS``);
    ``None`` takes the profile's default. ``language``, ``task`` and ``modules`` are METEOR 1.5
    options; the ``nltk`` and ``original`` profiles are English only and have no tasks.
    ``params_file`` is a preset file (``meteor-metric tune``) for meteor-1.5; its content's digest
    is part of the cache key, so an edited file gives a new scorer. ``fragmentation="crossings"`` is
    the meteor-1.5 extension (``Meteor(fragmentation=...)``).
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
    preset = None
    if params_file is not None:
        from ..meteor15.presets import load_preset

        preset = (params_file, load_preset(params_file).digest)
    key = (profile, language, task, normalization, None if modules is None else tuple(modules), preset,
           fragmentation or "chunks")
    with _lock:
        scorer = _scorers.get(key)
        if scorer is None:
            scorer = _scorers[key] = _make(*key)
    return scorer


def _make(profile: str, language: str, task: Optional[str], normalization: str,
          modules: Optional[tuple[str, ...]], preset: Optional[tuple[str, str]], fragmentation: str) -> Scorer:
    if profile == "meteor-1.5":
        return Meteor(language, task, normalization=normalization, modules=modules,
                      params_file=None if preset is None else preset[0], fragmentation=fragmentation)
    if profile == "nltk":
        from .nltk_profile import NltkMeteor

        return NltkMeteor(tokenizer=normalization)
    from .original import OriginalMeteor

    return OriginalMeteor()
