"""Data files shipped with the package (function words, prefixes, WordNet tables)."""

from __future__ import annotations

from pathlib import Path

_ROOT = Path(__file__).resolve().parent


def resource_path(*parts: str) -> Path:
    """Path of a packaged resource file, e.g. ``resource_path("function", "english.words")``."""
    path = _ROOT.joinpath(*parts)
    if _ROOT not in path.resolve().parents:
        raise ValueError(f"resource path escapes the package: {'/'.join(parts)!r}")
    return path
