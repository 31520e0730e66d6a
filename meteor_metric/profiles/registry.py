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

from ..meteor15.meteor import CorpusResult, References, SegmentResult
from .spec import DEFAULT_PROFILE, PROFILES, ScorerSpec  # noqa: F401 (PROFILES: re-exported)

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


def get_scorer(profile: str = DEFAULT_PROFILE, language: str = "en", task: Optional[str] = None,
               normalization: Optional[str] = None, modules: Optional[Sequence[str]] = None,
               params_file: Optional[str] = None, fragmentation: Optional[str] = None, **options) -> Scorer:
    """A shared scorer for a profile and its options (created once, then reused; thread-safe).

    ``normalization`` names how text becomes tokens, per profile (``NORMALIZATIONS``);
    ``None`` takes the profile's default. ``language``, ``task`` and ``modules`` are METEOR 1.5
    options; the ``nltk`` and ``original`` profiles are English only and have no tasks.
    ``params_file`` is a preset file (``meteor-metric tune``) for meteor-1.5; its content's digest
    is part of the cache key, so an edited file gives a new scorer. ``fragmentation="crossings"`` is
    the meteor-1.5 extension (``Meteor(fragmentation=...)``). ``options`` are the other fields of
    :class:`~meteor_metric.profiles.spec.ScorerSpec` (``weights``, ``beam_size``, ``search_budget``, ...).
    """
    return scorer_for(ScorerSpec(profile, language, normalization, task=task,
                                 modules=None if modules is None else tuple(modules), params_file=params_file,
                                 fragmentation=fragmentation, **options))


def scorer_for(spec: ScorerSpec) -> Scorer:
    """The shared scorer of a spec (built on first use)."""
    preset = None
    if spec.params_file is not None:
        from ..meteor15.presets import load_preset

        preset = load_preset(spec.params_file).digest
    key = (spec, preset)
    with _lock:
        scorer = _scorers.get(key)
        if scorer is None:
            scorer = _scorers[key] = spec.build()
    return scorer
