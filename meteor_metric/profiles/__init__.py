"""Scorer profiles: ``get_scorer``, the picklable ``ScorerSpec``, and the ``nltk`` and ``original`` METEOR variants."""

from .registry import DEFAULT_PROFILE, PROFILES, Scorer, ScorerSpec, get_scorer, scorer_spec

__all__ = ["DEFAULT_PROFILE", "PROFILES", "Scorer", "ScorerSpec", "get_scorer", "scorer_spec"]
