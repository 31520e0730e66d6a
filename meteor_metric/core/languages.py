"""The jar's language tables (``Constants``), spelled once: short names, resource names, aliases."""

from __future__ import annotations

# Jar language order (index = Java langID for rows of the per-language tables).
LANGUAGES = (
    "en", "cz", "fr", "es", "de", "ar-bw-red", "pt", "ru", "da", "ro",
    "hu", "tr", "fi", "nl", "it", "no", "se",
)
OTHER = "other"
#: Jar short name -> resource base name (``Constants.getLanguageName``).
LANGUAGE_NAMES = {
    "en": "english", "cz": "czech", "fr": "french", "es": "spanish", "de": "german",
    "ar-bw-red": "arabic-buckwalter-reduced", "pt": "portuguese", "ru": "russian",
    "da": "danish", "ro": "romanian", "hu": "hungarian", "tr": "turkish", "fi": "finnish",
    "nl": "dutch", "it": "italian", "no": "norwegian", "se": "swedish", "other": "other",
}
# Every name ``Constants.normLanguageName`` accepts -> short name.
_ALIASES = {name: short for short, name in LANGUAGE_NAMES.items()}
_ALIASES.update({short: short for short in LANGUAGE_NAMES}, cs="cz", sv="se", xx="other")

#: Languages with tuned parameters; only these accept -norm in the jar (``Constants.isSupported``).
SUPPORTED_LANGUAGES = frozenset({"en", "cz", "fr", "es", "de", "ru"})


def normalize_language(language: str) -> str:
    """Map a language name or code (``english``, ``en``, ``cs``, ...) to the jar's short name."""
    if not isinstance(language, str):
        raise TypeError(f"language must be a string, got {type(language).__name__}")
    short = _ALIASES.get(language.lower())
    if short is None:
        known = ", ".join(sorted(LANGUAGE_NAMES))
        raise ValueError(f"unknown language {language!r}; known: {known}")
    return short
