"""Preset files: a tuned METEOR configuration as JSON, with where it came from.

A preset file holds ``name``, ``language``, ``modules``, ``weights``, ``alpha``, ``beta``, ``gamma``,
``delta`` and optionally ``task``, ``description`` and ``provenance`` (training sets, objective,
cross-validation results, date). ``meteor-metric tune`` writes them; ``--params-file`` /
``params_file=`` read them. The presets shipped in ``resources/presets`` are the tasks ``mqm`` and
``caption`` (``Meteor("en", "mqm")``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Optional, Sequence

from ..core.languages import normalize_language
from .names import MODULE_NAMES

SHIPPED_TASKS = ("mqm", "caption")
REQUIRED = ("name", "language", "modules", "weights", "alpha", "beta", "gamma", "delta")
OPTIONAL = ("task", "description", "provenance")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
PRESET_NAME_HELP = "1-64 characters: ASCII letters, digits and . _ + - (not first)"
BOUNDS = {"alpha": (0.0, 1.0), "beta": (0.0, math.inf), "gamma": (0.0, 1.0), "delta": (0.0, 1.0)}


class PresetError(ValueError):
    """A preset file that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class Preset:
    """A validated preset: the scoring configuration plus its provenance."""

    name: str
    language: str
    modules: tuple[str, ...]
    weights: tuple[float, ...]
    alpha: float
    beta: float
    gamma: float
    delta: float
    task: Optional[str] = None
    description: str = ""
    provenance: dict = field(default_factory=dict, compare=False)
    digest: str = ""  # sha256 of the file (first 12 hex digits)

    @property
    def parameters(self) -> tuple[float, float, float, float]:
        return (self.alpha, self.beta, self.gamma, self.delta)

    @property
    def ident(self) -> str:
        """``name@digest``, as it appears in signatures."""
        return f"{self.name}@{self.digest}"


def preset_from_dict(data: Any, source: str = "<preset>", digest: str = "") -> Preset:
    """Validate a preset's JSON object; errors name ``source`` and the offending field."""
    def fail(msg: str) -> PresetError:
        return PresetError(f"preset {source}: {msg}")

    if not isinstance(data, dict):
        raise fail(f"expected a JSON object, got {type(data).__name__}")
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise fail(f"missing field(s): {', '.join(missing)}")
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise fail(f"unknown field(s): {', '.join(unknown)} (allowed: {', '.join(REQUIRED + OPTIONAL)})")
    if not isinstance(data["name"], str) or not NAME.fullmatch(data["name"]):
        raise fail(f"'name' must be {PRESET_NAME_HELP} (it is printed in signatures and reports), "
                   f"got {data['name']!r}")
    try:
        language = normalize_language(data["language"])
    except (TypeError, ValueError) as exc:
        raise fail(f"'language': {exc}") from None
    modules = data["modules"]
    if not isinstance(modules, list) or not modules or not all(m in MODULE_NAMES for m in modules):
        raise fail(f"'modules' must be a list drawn from {', '.join(MODULE_NAMES)}, got {modules!r}")
    if len(set(modules)) != len(modules):
        raise fail(f"'modules' must not repeat: {modules!r}")
    weights = data["weights"]
    if not isinstance(weights, list) or len(weights) != len(modules) or not all(_number(w) for w in weights):
        raise fail(f"'weights' must be {len(modules)} numbers (one per module), got {weights!r}")
    if any(not 0.0 <= w for w in weights):
        raise fail(f"'weights' must not be negative, got {weights!r}")
    values = {}
    for key, (lo, hi) in BOUNDS.items():
        v = data[key]
        if not _number(v) or not lo <= v <= hi:
            raise fail(f"'{key}' must be a number in [{lo:g}, {hi:g}], got {v!r}")
        values[key] = float(v)
    for key in ("task", "description"):
        if key in data and not isinstance(data[key], str):
            raise fail(f"'{key}' must be a string")
    if not isinstance(data.get("provenance", {}), dict):
        raise fail("'provenance' must be a JSON object")
    return Preset(data["name"], language, tuple(modules), tuple(float(w) for w in weights),
                  task=data.get("task"), description=data.get("description", ""),
                  provenance=data.get("provenance", {}), digest=digest, **values)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def safe_preset_name(text: str) -> str:
    """``text`` (e.g. a file name) made a valid preset name: other characters become ``-``."""
    name = re.sub(r"[^A-Za-z0-9._+-]", "-", text)[:64].lstrip("._+-")
    return name or "preset"


def parse_preset(raw: bytes, source: str) -> Preset:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PresetError(f"preset {source}: not valid UTF-8 JSON ({exc})") from None
    return preset_from_dict(data, source, hashlib.sha256(raw).hexdigest()[:12])


def load_preset(path: str) -> Preset:
    """Read and validate a preset file (``PresetError`` if it is missing or unusable)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise PresetError(f"cannot read preset file {path!r}: {exc.strerror}") from None
    return parse_preset(raw, repr(path))


def load_shipped(task: str) -> Preset:
    """One of the presets shipped with the package (``mqm``, ``caption``)."""
    if task not in SHIPPED_TASKS:
        raise ValueError(f"no shipped preset {task!r}; shipped: {', '.join(SHIPPED_TASKS)}")
    raw = resources.files("meteor_metric.resources").joinpath("presets", f"en-{task}.json").read_bytes()
    return parse_preset(raw, f"en-{task}.json (shipped)")


def preset_dict(name: str, language: str, modules: Sequence[str], weights: Sequence[float],
                parameters: Sequence[float], task: Optional[str] = None, description: str = "",
                provenance: Optional[dict] = None) -> dict:
    """The JSON object of a preset (validated)."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise PresetError(f"preset name must be {PRESET_NAME_HELP}, got {name!r}")
    data = {"name": name, "language": language, "modules": list(modules),
            "weights": [float(w) for w in weights],
            **{k: float(v) for k, v in zip(("alpha", "beta", "gamma", "delta"), parameters)}}
    if task is not None:
        data["task"] = task
    if description:
        data["description"] = description
    data["provenance"] = provenance or {}
    preset_from_dict(data, name)
    return data
