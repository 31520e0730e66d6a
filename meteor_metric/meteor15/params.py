"""METEOR 1.5 configuration: languages, tasks, presets and their resolution.

The tables and the resolution order reproduce the jar (``Constants`` and
``MeteorConfiguration``), quirks included: weights are positional, ``-p`` makes
the task "custom", which takes the adequacy weight row, and ``-l other`` always
gets the language-independent parameters.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from typing import Optional, Sequence

from ..core.javafmt import java_double_str
from ..core.languages import LANGUAGE_NAMES, LANGUAGES, OTHER, SUPPORTED_LANGUAGES, normalize_language
from .names import (DEFAULT_SIMILARITY_THRESHOLD, EXTENSION_MODULES, EXTENSION_NORMALIZATIONS, FRAGMENTATIONS,
                    METEOR_VERSION, MODULE_NAMES, MODULE_SHORT, NORMALIZATIONS)
from .presets import SHIPPED_TASKS, load_preset, load_shipped

TASKS = ("adq", "rank", "hter", "util", "li", "tune", "universal", "mqm", "caption", "custom")
TASK_DESCRIPTIONS = {
    "adq": "Adequacy", "rank": "Ranking", "hter": "HTER", "util": "Translator-Utility",
    "li": "Language-Independent", "tune": "Tune", "universal": "Universal", "custom": "Custom",
    "mqm": "MQM (tuned, English)", "caption": "Captions (tuned, English)",
}

_Z = (0.0, 0.0, 0.0, 0.0)
# Per-language rows, in LANGUAGES order: (parameters alpha beta gamma delta, weights).
_PARAM_ROWS = {
    "adq": [(0.75, 1.40, 0.45, 0.70)] + [_Z] * 16,
    "rank": [(0.85, 0.20, 0.60, 0.75), (0.95, 0.20, 0.60, 0.80), (0.90, 1.40, 0.60, 0.65),
             (0.65, 1.30, 0.50, 0.80), (0.95, 1.00, 0.55, 0.55), _Z, _Z,
             (0.75, 1.40, 0.70, 0.50)] + [_Z] * 9,
    "hter": [(0.40, 1.50, 0.35, 0.55)] + [_Z] * 16,
    "util": [(0.65, 0.1, 0.55, 0.65)] + [_Z] * 16,
}
_WEIGHT_ROWS = {
    "adq": [(1.0, 1.0, 0.6, 0.8)] + [_Z] * 16,
    "rank": [(1.0, 0.6, 0.8, 0.6), (1.0, 0.4, 0.0, 0.0), (1.0, 0.2, 0.4, 0.0),
             (1.0, 0.8, 0.6, 0.0), (1.0, 0.8, 0.2, 0.0), _Z, _Z,
             (1.0, 0.5, 0.5, 0.0)] + [_Z] * 9,
    "hter": [(1.0, 0.2, 0.6, 0.8)] + [_Z] * 16,
    "util": [(1.0, 0.0, 0.0, 0.8)] + [_Z] * 16,
}
_PARAM_LI, _WEIGHT_LI = (0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.5)
_PARAM_TUNE, _WEIGHT_TUNE = (0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5, 0.5)
_PARAM_UNIVERSAL, _WEIGHT_UNIVERSAL = (0.70, 1.40, 0.30, 0.70), (1.0, 0.6, 0.0, 0.0)

_DEFAULT_MODULES = {
    "en": ("exact", "stem", "synonym", "paraphrase"),
    "fr": ("exact", "stem", "paraphrase"),
    "es": ("exact", "stem", "paraphrase"),
    "de": ("exact", "stem", "paraphrase"),
    "ru": ("exact", "stem", "paraphrase"),
    "cz": ("exact", "paraphrase"),
    "other": ("exact",),
}

# Languages the jar has a stemmer for (czech and other have none).
STEM_LANGUAGES = frozenset(LANGUAGES) - {"cz"}


def _task_rows(language: str, task: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Parameters and (4-wide) weights of a task, as Constants.getParameters/getModuleWeights."""
    if task == "universal":
        return _PARAM_UNIVERSAL, _WEIGHT_UNIVERSAL
    if language == OTHER or task == "li":
        return _PARAM_LI, _WEIGHT_LI
    if task == "tune":
        return _PARAM_TUNE, _WEIGHT_TUNE
    row = LANGUAGES.index(language)
    table = task if task in _PARAM_ROWS else "adq"  # custom falls back to the adequacy row
    return _PARAM_ROWS[table][row], _WEIGHT_ROWS[table][row]


def _task_modules(language: str, task: str) -> tuple[str, ...]:
    if task == "universal":
        return ("exact", "paraphrase")
    return _DEFAULT_MODULES.get(language, ("exact", "stem"))


def _parse_list(value, what: str, convert):
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    try:
        items = tuple(convert(v) for v in value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"invalid {what} {value!r}: {exc}") from None
    if not items:
        raise ValueError(f"{what} must not be empty")
    return items


@dataclass(frozen=True)
class MeteorParams:
    """A fully resolved METEOR configuration (what the jar calls its configuration).

    Build one with :func:`resolve_params` (or :meth:`from_jar_args`); the fields
    are the resolved values, e.g. ``weights`` always has one entry per module.
    """

    language: str = "en"
    task: str = "rank"
    modules: tuple[str, ...] = ("exact", "stem", "synonym", "paraphrase")
    weights: tuple[float, ...] = (1.0, 0.6, 0.8, 0.6)
    alpha: float = 0.85
    beta: float = 0.20
    gamma: float = 0.60
    delta: float = 0.75
    normalization: str = "norm"
    char_based: bool = False
    beam_size: int = 40
    function_words: Optional[str] = None  # path of a word list; None = the jar's English list
    paraphrase_table: Optional[str] = None  # path of a table; None = find it (see paraphrase.py)
    synonyms: Optional[str] = None  # extension: "omw" / "omw:<code>" synonyms for non-English (omw.py)
    preset: Optional[str] = None  # ``name@digest`` of the preset file the configuration came from
    fragmentation: str = "chunks"  # extension "crossings": the order penalty from crossing match pairs
    similarity_threshold: float = DEFAULT_SIMILARITY_THRESHOLD  # of the wn_similarity module

    @property
    def parameters(self) -> tuple[float, float, float, float]:
        return (self.alpha, self.beta, self.gamma, self.delta)

    @property
    def language_name(self) -> str:
        return LANGUAGE_NAMES[self.language]

    @property
    def eval_id(self) -> str:
        """The jar's configuration id, e.g. ``meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy_pa-1.0_0.6_0.8_0.6``."""
        return "-".join((
            f"meteor-{METEOR_VERSION}",
            "ch" if self.char_based else "wo",
            self.language,
            self.normalization,
            "_".join(java_double_str(p) for p in self.parameters),
            "_".join(MODULE_SHORT[m] for m in self.modules),
            "_".join(java_double_str(w) for w in self.weights),
        ))

    @classmethod
    def from_jar_args(cls, args: Sequence[str]) -> "MeteorParams":
        """Resolve the jar's command-line options (``-l en -norm -m "exact stem" ...``, ``-new DIR``)."""
        return resolve_params(**_jar_args_to_kwargs(list(args)))


def _language_label(given: str, lang: str) -> str:
    """The resolved language's name, with the user's spelling when it differs (``'xx' (other)``)."""
    name = LANGUAGE_NAMES[lang]
    return name if given.lower() in (lang, name) else f"{given!r} ({name})"


def resolve_params(
    language: str = "en",
    task: Optional[str] = None,
    *,
    parameters: Optional[Sequence[float]] = None,
    weights: Optional[Sequence[float]] = None,
    modules: Optional[Sequence[str]] = None,
    normalization: str = "norm",
    char_based: bool = False,
    beam_size: int = 40,
    function_words: Optional[str] = None,
    paraphrase_table: Optional[str] = None,
    synonyms: Optional[str] = None,
    params_file: Optional[str] = None,
    fragmentation: str = "chunks",
    similarity_threshold: float = DEFAULT_SIMILARITY_THRESHOLD,
) -> MeteorParams:
    """Resolve a configuration in the jar's order: language, task, parameters, weights, modules.

    ``parameters`` (alpha, beta, gamma, delta) make the task "custom", which like the
    jar starts from the adequacy weight row; ``modules`` keeps weights positionally
    (missing ones become 0.0, as in the jar). Lists may be sequences or
    comma/space-separated strings. Invalid combinations the jar would crash on
    raise ``ValueError``. Extensions beyond the jar: ``normalization`` in
    :data:`EXTENSION_NORMALIZATIONS`, ``synonyms="omw"`` (synonyms for other languages), the modules in
    :data:`EXTENSION_MODULES` (``similarity_threshold`` is wn_similarity's) and ``fragmentation="crossings"``.
    ``params_file`` (a preset JSON file, see ``presets.py``) gives the
    modules, weights and parameters instead of a task; the tasks ``mqm`` and ``caption`` are the
    presets shipped with the package (English).
    """
    lang = normalize_language(language)
    extras = _check_extras(fragmentation, similarity_threshold)
    if params_file is not None:
        return replace(_from_preset(lang, params_file, None, task, parameters, weights, modules, normalization,
                                    char_based, beam_size, function_words, paraphrase_table, synonyms), **extras)
    if task is not None and str(task).lower() in SHIPPED_TASKS and parameters is None:
        return replace(_from_preset(lang, None, str(task).lower(), None, None, weights, modules, normalization,
                                    char_based, beam_size, function_words, paraphrase_table, synonyms), **extras)
    if parameters is not None:
        task_name = "custom"
    elif task is None or task == "default":
        task_name = "rank" if lang in SUPPORTED_LANGUAGES else "li"
    else:
        task_name = str(task).lower()
        if task_name not in TASKS or task_name == "custom":
            raise ValueError(f"unknown task {task!r}; choose one of {', '.join(TASKS[:-1])}")
    params, weight_row = _task_rows(lang, task_name)
    mods = _task_modules(lang, task_name)
    resolved_weights = weight_row[: len(mods)]
    if parameters is not None:
        params = _parse_list(parameters, "parameters", float)
        if len(params) != 4:
            raise ValueError(f"parameters must be 4 numbers (alpha beta gamma delta), got {len(params)}")
    if weights is not None:
        resolved_weights = _parse_list(weights, "weights", float)
    if modules is not None:
        mods = _parse_list(modules, "modules", lambda m: str(m).lower())
        for m in mods:
            if m not in MODULE_NAMES:
                raise ValueError(f"unknown module {m!r}; choose from {', '.join(MODULE_NAMES)}")
        if len(set(mods)) != len(mods):
            raise ValueError(f"modules must not repeat: {', '.join(mods)}")
        if weights is None:
            unweighted = [m for m in mods[len(resolved_weights):] if m in EXTENSION_MODULES]
            if unweighted:
                raise ValueError(f"the module(s) {', '.join(unweighted)} have no weight in the preset (the jar's "
                                 f"weights are positional, {len(resolved_weights)} here): give one weight per "
                                 f"module, e.g. weights=[1, 0.6, 0.8, 0.6, 0.6] (CLI --weights 1,0.6,0.8,0.6,0.6)")
            resolved_weights = tuple(resolved_weights[i] if i < len(resolved_weights) else 0.0
                                     for i in range(len(mods)))
    if len(resolved_weights) != len(mods):
        raise ValueError(
            f"{len(resolved_weights)} weights for {len(mods)} modules ({', '.join(mods)}): "
            "give exactly one weight per module")
    for name, value in zip(("alpha", "beta", "gamma", "delta"), params):
        if not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {value!r}")
    if not all(math.isfinite(w) for w in resolved_weights):
        raise ValueError(f"weights must be finite numbers, got {resolved_weights!r}")
    if normalization not in NORMALIZATIONS + EXTENSION_NORMALIZATIONS:
        raise ValueError(f"unknown normalization {normalization!r}; choose one of "
                         f"{', '.join(NORMALIZATIONS + EXTENSION_NORMALIZATIONS)}")
    if normalization in ("norm", "norm_nopunct") and lang not in SUPPORTED_LANGUAGES:
        extension = ("" if lang == "ar-bw-red" else  # norm_ext would split Buckwalter letters (below)
                     f", the extension '{normalization.replace('norm', 'norm_ext', 1)}' (not in the jar)")
        raise ValueError(
            f"METEOR 1.5 has no normalizer for {_language_label(language, lang)} (the jar exits with "
            f"'No normalizer for language'); use normalization='lc_only' or 'no_norm'{extension}, or a "
            f"language among {', '.join(sorted(SUPPORTED_LANGUAGES))}")
    if normalization in ("norm_ext", "norm_ext_nopunct") and lang == "ar-bw-red":
        raise ValueError(f"{normalization!r} would split Buckwalter letters ($ & * < > | ' ...) off words; "
                         "use 'lc_only' or 'no_norm' for ar-bw-red")
    if normalization in ("norm_ext", "norm_ext_nopunct") and lang in SUPPORTED_LANGUAGES:
        raise ValueError(f"{normalization!r} is an extension for languages whose -norm METEOR 1.5 refuses; "
                         f"for {LANGUAGE_NAMES[lang]} use the jar's own {normalization.replace('_ext', '')!r}")
    if synonyms is not None:
        if not isinstance(synonyms, str) or not (synonyms == "omw" or synonyms.startswith("omw:")):
            raise ValueError(f"synonyms must be 'omw' or 'omw:<iso-639-3 code>', got {synonyms!r}")
        if lang == "en":
            raise ValueError("English synonyms are METEOR's WordNet 3.0 table; synonyms='omw' is for other languages")
        if "synonym" not in mods:
            raise ValueError("synonyms='omw' needs the synonym module in modules")
    if "synonym" in mods and lang != "en" and synonyms is None:
        raise ValueError("the synonym module exists only for English (WordNet) in METEOR 1.5; remove it "
                         "from modules, or use the extension synonyms='omw' (Open Multilingual Wordnet)")
    if lang != "en" and set(mods) & set(EXTENSION_MODULES):
        raise ValueError(f"the modules {', '.join(EXTENSION_MODULES)} use the English WordNet; "
                         f"they do not apply to {LANGUAGE_NAMES[lang]}")
    if "stem" in mods and lang not in STEM_LANGUAGES:
        raise ValueError(f"METEOR 1.5 has no stemmer for {LANGUAGE_NAMES[lang]}; remove 'stem' from modules")
    if isinstance(beam_size, bool) or not isinstance(beam_size, int) or beam_size < 1:
        raise ValueError(f"beam_size must be a positive integer, got {beam_size!r}")
    return MeteorParams(
        language=lang, task=task_name, modules=mods, weights=tuple(float(w) for w in resolved_weights),
        alpha=params[0], beta=params[1], gamma=params[2], delta=params[3],
        normalization=normalization, char_based=bool(char_based), beam_size=beam_size,
        function_words=function_words, paraphrase_table=paraphrase_table, synonyms=synonyms, **extras,
    )


def _check_extras(fragmentation: str, similarity_threshold: float) -> dict:
    """The validated ``fragmentation`` and ``similarity_threshold`` as MeteorParams fields."""
    if fragmentation not in FRAGMENTATIONS:
        raise ValueError(f"unknown fragmentation {fragmentation!r}; choose one of {', '.join(FRAGMENTATIONS)}")
    if (isinstance(similarity_threshold, bool) or not isinstance(similarity_threshold, (int, float))
            or not 0.0 < similarity_threshold <= 1.0):
        raise ValueError(f"similarity_threshold must be a number in (0, 1] (a WordNet path similarity), "
                         f"got {similarity_threshold!r}")
    return {"fragmentation": fragmentation, "similarity_threshold": float(similarity_threshold)}


def _from_preset(lang: str, path: Optional[str], shipped: Optional[str], task: Optional[str],
                 parameters: Optional[Sequence[float]], weights: Optional[Sequence[float]],
                 modules: Optional[Sequence[str]], normalization: str, char_based: bool, beam_size: int,
                 function_words: Optional[str], paraphrase_table: Optional[str],
                 synonyms: Optional[str]) -> MeteorParams:
    """A configuration from a preset file (``path``) or a shipped preset task; other options still apply."""
    if path is not None:
        given = [n for n, v in (("task", task), ("parameters", parameters)) if v is not None]
        if given:
            raise ValueError(f"params_file already sets the task and parameters; do not also give {given[0]}")
    preset = load_preset(path) if path is not None else load_shipped(shipped)
    if preset.language != lang:
        raise ValueError(f"preset {preset.name!r} is for language {preset.language!r}, not {lang!r}")
    mods = preset.modules if modules is None else modules
    if weights is None:  # the preset's weight of each module by name (0 for a module it lacks)
        by_name = dict(zip(preset.modules, preset.weights))
        weights = [by_name.get(str(m).lower(), 0.0) for m in _parse_list(mods, "modules", str)]
    base = resolve_params(lang, parameters=preset.parameters, weights=weights, modules=mods,
                          normalization=normalization, char_based=char_based, beam_size=beam_size,
                          function_words=function_words, paraphrase_table=paraphrase_table, synonyms=synonyms)
    return replace(base, task=shipped or "custom", preset=preset.ident)


def normalization_mode(norm: bool, lower: bool, no_punct: bool) -> str:
    """The jar's mapping of -norm / -lower / -noPunct to a mode (-noPunct alone is ignored)."""
    if norm:
        return "norm_nopunct" if no_punct else "norm"
    return "lc_only" if lower else "no_norm"


_JAR_VALUE_OPTIONS = {"-l": "language", "-t": "task", "-p": "parameters", "-w": "weights",
                      "-m": "modules", "-x": "beam_size", "-s": "function_words", "-a": "paraphrase_table",
                      "-new": "new_language_dir"}
_JAR_FLAGS = {"-norm", "-lower", "-noPunct", "-ch"}


def _jar_args_to_kwargs(args: list[str]) -> dict:
    kwargs: dict = {}
    flags = set()
    i = 0
    while i < len(args):
        opt = args[i]
        if opt in _JAR_VALUE_OPTIONS:
            if i + 1 >= len(args):
                raise ValueError(f"jar option {opt} needs a value")
            kwargs[_JAR_VALUE_OPTIONS[opt]] = args[i + 1]
            i += 2
        elif opt in _JAR_FLAGS:
            flags.add(opt)
            i += 1
        else:
            raise ValueError(f"unsupported jar option {opt!r}")
    if "beam_size" in kwargs:
        kwargs["beam_size"] = int(kwargs["beam_size"])
    new_dir = kwargs.pop("new_language_dir", None)
    if new_dir is not None:
        # MeteorConfiguration.newLang runs last: language other, task universal, lowercasing only and
        # the directory's function.words and paraphrase.gz, whatever -l -t -p -w -m -s -a -norm -ch say.
        return {"language": "other", "task": "universal", "normalization": "lc_only",
                "function_words": os.path.join(new_dir, "function.words"),
                "paraphrase_table": os.path.join(new_dir, "paraphrase.gz"),
                **({"beam_size": kwargs["beam_size"]} if "beam_size" in kwargs else {})}
    kwargs["normalization"] = normalization_mode("-norm" in flags, "-lower" in flags, "-noPunct" in flags)
    kwargs["char_based"] = "-ch" in flags
    return kwargs
