"""Scoring profiles: which METEOR a number is, and how a scorer is named and built.

* ``meteor-1.5`` (default): the Java-exact METEOR 1.5 engine (:class:`~meteor_metric.Meteor`);
  the system score comes from the summed segment statistics, like the jar.
* ``nltk``: bit-exact with ``nltk.translate.meteor_score.meteor_score`` (and so with today's
  ``evaluate.load("meteor")``); the system score is the mean of the segment scores, as HF reports it.
* ``original``: METEOR as first published (Banerjee & Lavie, 2005), with an exact alignment search;
  the system score comes from the summed statistics.

Every profile's scorer is a :class:`~meteor_metric.core.scorer.Scorer` and returns
:class:`~meteor_metric.SegmentResult` / :class:`~meteor_metric.CorpusResult`.

A :class:`ScorerSpec` (from :func:`scorer_spec`) is a validated, picklable description of a scorer:
give it to worker processes and call :meth:`ScorerSpec.build` there. :func:`get_scorer` is
``scorer_spec(...).build()``.

>>> spec = scorer_spec("nltk", normalization="split")
>>> spec.build() is get_scorer("nltk", normalization="split")
True
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ..core.scorer import Scorer
from ..meteor15.meteor import MAX_SEGMENT_TOKENS, Meteor
from ..meteor15.names import EXTENSION_NORMALIZATIONS
from ..meteor15.params import MeteorParams, resolve_params

PROFILES = ("meteor-1.5", "nltk", "original")
DEFAULT_PROFILE = "meteor-1.5"

#: The ``normalization`` values each profile accepts; the first is its default.
PROFILE_NORMALIZATIONS = {
    "meteor-1.5": ("norm", "norm_nopunct", "lc_only", "no_norm") + EXTENSION_NORMALIZATIONS,
    "nltk": ("word_tokenize", "word_tokenize_line", "split"),
    "original": ("norm",),
}

#: Options of the meteor-1.5 configuration beyond ``language`` and ``normalization``, with their defaults
#: (:func:`~meteor_metric.meteor15.params.resolve_params`'s keywords).
METEOR15_OPTIONS = {"task": None, "modules": None, "params_file": None, "fragmentation": None, "weights": None,
                    "parameters": None, "char_based": False, "beam_size": 40, "function_words": None,
                    "paraphrase_table": None, "synonyms": None, "similarity_threshold": None}

#: Keyword options of each profile's scorer class that do not change the configuration's identity.
SCORER_OPTIONS = {
    "meteor-1.5": ("max_segment_tokens", "max_segment_candidates", "max_segment_chars"),
    "nltk": ("alpha", "beta", "gamma"),
    "original": ("search_budget",),
}


@dataclass(frozen=True)
class ScorerSpec:
    """A validated, picklable description of a scorer (build it with :func:`scorer_spec`).

    ``params`` is the resolved meteor-1.5 configuration (``None`` for the other profiles);
    ``options`` are keyword arguments of the profile's scorer class (:data:`SCORER_OPTIONS`), sorted.
    Equal specs build the same shared scorer within a process.
    """

    profile: str
    normalization: str
    params: Optional[MeteorParams] = None
    options: tuple[tuple[str, Any], ...] = ()

    def build(self) -> Scorer:
        """The scorer this spec describes: created once per process, then shared (thread-safe)."""
        with _lock:
            scorer = _scorers.get(self)
            if scorer is None:
                scorer = _scorers[self] = self._make()
        return scorer

    def _make(self) -> Scorer:
        options = dict(self.options)
        if self.profile == "meteor-1.5":
            return Meteor.from_params(self.params, **{"max_segment_tokens": MAX_SEGMENT_TOKENS, **options})
        if self.profile == "nltk":
            from .nltk_profile import NltkMeteor

            return NltkMeteor(tokenizer=self.normalization, **options)
        from .original import OriginalMeteor

        return OriginalMeteor(**options)


_scorers: dict[ScorerSpec, Scorer] = {}
_lock = threading.Lock()


def check_profile(profile: object) -> str:
    """The profile name, or a ``ValueError`` listing the known ones."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose one of: {', '.join(PROFILES)}")
    return profile  # type: ignore[return-value]


def scorer_spec(profile: str = DEFAULT_PROFILE, language: str = "en", task: Optional[str] = None,
                normalization: Optional[str] = None, modules: Optional[Sequence[str]] = None,
                params_file: Optional[str] = None, fragmentation: Optional[str] = None,
                **options: Any) -> ScorerSpec:
    """Check a profile and its options, and describe the scorer they give (``ValueError`` if they do not fit).

    ``normalization`` names how text becomes tokens, per profile (:data:`PROFILE_NORMALIZATIONS`);
    ``None`` takes the profile's default. ``language``, ``task``, ``modules``, ``params_file`` (a preset
    file written by ``meteor-metric tune``), ``fragmentation`` (``"crossings"``: the extension) and the
    other keywords of :data:`METEOR15_OPTIONS` configure the meteor-1.5 profile; the ``nltk`` and
    ``original`` profiles are English only and have no tasks. The keywords of :data:`SCORER_OPTIONS`
    go to the profile's scorer class (e.g. ``search_budget`` for ``original``).
    """
    check_profile(profile)
    allowed = PROFILE_NORMALIZATIONS[profile]
    if normalization is None:
        normalization = allowed[0]
    elif normalization not in allowed:
        raise ValueError(f"normalization {normalization!r} does not apply to the {profile} profile; "
                         f"it accepts: {', '.join(allowed)}")
    config = {**METEOR15_OPTIONS, "task": task, "modules": modules, "params_file": params_file,
              "fragmentation": fragmentation}
    own = [*METEOR15_OPTIONS, *SCORER_OPTIONS[profile]] if profile == "meteor-1.5" else SCORER_OPTIONS[profile]
    for name in options:
        if name in own:
            continue
        owner = next((p for p in PROFILES if name in SCORER_OPTIONS[p]), "meteor-1.5" if name in METEOR15_OPTIONS
                     else None)
        if owner is None:
            raise ValueError(f"unknown option {name!r} for the {profile} profile; it takes: {', '.join(own)}")
        if name not in METEOR15_OPTIONS or options[name] != METEOR15_OPTIONS[name]:
            raise _foreign_option(name, options[name], owner, profile)
    config.update((name, value) for name, value in options.items() if name in METEOR15_OPTIONS)
    scorer_options = tuple(sorted((name, value) for name, value in options.items() if name not in METEOR15_OPTIONS))
    if profile != "meteor-1.5":
        if language not in ("en", "english"):
            raise ValueError(f"the {profile} profile is English only (got language={language!r}); "
                             "use profile='meteor-1.5' for other languages")
        given = [name for name, default in METEOR15_OPTIONS.items() if config[name] != default]
        if given:
            raise _foreign_option(given[0], config[given[0]], "meteor-1.5", profile)
        return ScorerSpec(profile, normalization, None, scorer_options)
    if config["fragmentation"] is None:
        config["fragmentation"] = "chunks"
    if config["similarity_threshold"] is None:
        del config["similarity_threshold"]
    params = resolve_params(language, normalization=normalization, **config)
    return ScorerSpec(profile, normalization, params, scorer_options)


def _foreign_option(name: str, value: Any, owner: str, profile: str) -> ValueError:
    message = f"{name}={value!r} is an option of the {owner} profile; it does not apply to the {profile} profile"
    if name in SCORER_OPTIONS["nltk"] and profile == "meteor-1.5":
        message += ("; the meteor-1.5 profile takes alpha, beta, gamma and delta from task (a preset such as "
                    "'rank'), params_file (a preset file written by 'meteor-metric tune') or parameters "
                    "(four numbers: alpha, beta, gamma, delta)")
    elif name in SCORER_OPTIONS["nltk"]:
        message += f" (its parameters are fixed, Banerjee & Lavie 2005); use profile='nltk' to set {name}"
    return ValueError(message)


def get_scorer(profile: str = DEFAULT_PROFILE, language: str = "en", task: Optional[str] = None,
               normalization: Optional[str] = None, modules: Optional[Sequence[str]] = None,
               params_file: Optional[str] = None, fragmentation: Optional[str] = None, **options: Any) -> Scorer:
    """A shared scorer for a profile and its options: ``scorer_spec(...).build()`` (see :func:`scorer_spec`).

    Created once, then reused (thread-safe). A ``params_file``'s content digest is part of the
    configuration, so an edited file gives a new scorer.
    """
    return scorer_spec(profile, language, task, normalization, modules, params_file, fragmentation,
                       **options).build()
