"""A scorer's full description: a profile and its options, checked once, hashable and picklable.

:func:`~meteor_metric.get_scorer` caches scorers by their spec; the CLI sends a spec to its worker
processes, which build the same scorer from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..meteor15.meteor import MAX_SEGMENT_TOKENS, Meteor
from ..meteor15.params import EXTENSION_NORMALIZATIONS

PROFILES = ("meteor-1.5", "nltk", "original")
DEFAULT_PROFILE = "meteor-1.5"

#: The ``normalization`` values each profile accepts; the first is its default.
NORMALIZATIONS = {
    "meteor-1.5": ("norm", "norm_nopunct", "lc_only", "no_norm") + EXTENSION_NORMALIZATIONS,
    "nltk": ("word_tokenize", "split"),
    "original": ("norm",),
}

#: Options of the meteor-1.5 profile and their defaults (``None``: the task's or preset's).
METEOR15_OPTIONS = {"task": None, "modules": None, "weights": None, "parameters": None, "char_based": False,
                    "beam_size": 40, "function_words": None, "paraphrase_table": None, "synonyms": None,
                    "params_file": None, "fragmentation": None, "similarity_threshold": None,
                    "max_segment_tokens": MAX_SEGMENT_TOKENS}
#: Options of the original profile.
ORIGINAL_OPTIONS = {"search_budget": None}


def check_profile(profile: object) -> str:
    """The profile name, or a ``ValueError`` listing the known ones."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose one of: {', '.join(PROFILES)}")
    return profile  # type: ignore[return-value]


@dataclass(frozen=True)
class ScorerSpec:
    """Which scorer: the profile, the language, the normalization, and the profile's own options
    (:data:`METEOR15_OPTIONS`, :data:`ORIGINAL_OPTIONS`). Options of another profile, a non-English
    language for ``nltk``/``original`` and an unknown normalization raise ``ValueError``."""

    profile: str = DEFAULT_PROFILE
    language: str = "en"
    normalization: Optional[str] = None
    task: Optional[str] = None
    modules: Optional[tuple[str, ...]] = None
    weights: Optional[tuple[float, ...]] = None
    parameters: Optional[tuple[float, ...]] = None
    char_based: bool = False
    beam_size: int = 40
    function_words: Optional[str] = None
    paraphrase_table: Optional[str] = None
    synonyms: Optional[str] = None
    params_file: Optional[str] = None
    fragmentation: Optional[str] = None
    similarity_threshold: Optional[float] = None
    max_segment_tokens: Optional[int] = MAX_SEGMENT_TOKENS
    search_budget: Optional[int] = None

    def __post_init__(self) -> None:
        check_profile(self.profile)
        for name in ("modules", "weights", "parameters"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        allowed = NORMALIZATIONS[self.profile]
        if self.normalization is None:
            object.__setattr__(self, "normalization", allowed[0])
        elif self.normalization not in allowed:
            raise ValueError(f"normalization={self.normalization!r} does not apply to the {self.profile} profile; "
                             f"it accepts: {', '.join(allowed)}")
        if self.profile == "meteor-1.5":
            foreign = {k: v for k, v in ORIGINAL_OPTIONS.items() if getattr(self, k) != v}
        else:
            if self.language not in ("en", "english"):
                raise ValueError(f"the {self.profile} profile is English only (got language={self.language!r}); "
                                 "use profile='meteor-1.5' for other languages")
            own = ORIGINAL_OPTIONS if self.profile == "original" else {}
            foreign = {k: v for k, v in {**METEOR15_OPTIONS, **ORIGINAL_OPTIONS}.items()
                       if k not in own and getattr(self, k) != v}
        if foreign:
            name = next(iter(foreign))
            owner = "original" if name in ORIGINAL_OPTIONS else "meteor-1.5"
            raise ValueError(f"{name}={getattr(self, name)!r} is an option of the {owner} profile; it does not "
                             f"apply to the {self.profile} profile")

    def build(self):
        """A new scorer for this spec (:func:`~meteor_metric.get_scorer` shares one per spec)."""
        if self.profile == "nltk":
            from .nltk_profile import NltkMeteor

            return NltkMeteor(tokenizer=self.normalization)
        if self.profile == "original":
            from .original import OriginalMeteor

            return OriginalMeteor() if self.search_budget is None else OriginalMeteor(search_budget=self.search_budget)
        extras = {k: getattr(self, k) for k in ("fragmentation", "similarity_threshold") if getattr(self, k) is not None}
        return Meteor(self.language, self.task, modules=self.modules, weights=self.weights,
                      parameters=self.parameters, normalization=self.normalization, char_based=self.char_based,
                      beam_size=self.beam_size, function_words=self.function_words,
                      paraphrase_table=self.paraphrase_table, synonyms=self.synonyms, params_file=self.params_file,
                      max_segment_tokens=self.max_segment_tokens, **extras)
