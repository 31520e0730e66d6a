"""Scorer profiles: ``get_scorer`` and the ``nltk`` and ``original`` METEOR variants."""

from .registry import DEFAULT_PROFILE, PROFILES, Scorer, get_scorer

__all__ = ["DEFAULT_PROFILE", "PROFILES", "Scorer", "get_scorer"]
