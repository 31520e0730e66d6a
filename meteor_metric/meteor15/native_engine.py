"""Which engine scores, and the glue to the compiled core (``meteor_core``, built from ``src/native/``).

Two engines give identical statistics: ``"python"`` (the reference: :mod:`.aligner`, :mod:`.statistics`) and
``"native"`` (the same beam search and statistics count in C). ``METEOR_METRIC_IMPL=python|native|auto`` or
``Meteor(impl=...)`` chooses; ``auto`` (the default) takes the native engine when its extension loads, else
the Python one, saying so once on the ``meteor_metric`` logger. Everything reaching the C code is checked
here first (types, token counts, spans inside the sentences) and again in C.
"""

from __future__ import annotations

import logging
import os
from array import array
from itertools import chain
from typing import Optional, Sequence

from ..core.alignment import Match
from ..core.javafmt import utf16_len
from ..core.stats import MeteorStats
from .statistics import StatsCounter, count_crossings

try:
    from . import meteor_core
except ImportError as exc:  # not built (no compiler, or METEOR_METRIC_BUILD_NATIVE=0) or not loadable
    meteor_core = None
    LOAD_ERROR: Optional[str] = str(exc)
else:
    LOAD_ERROR = None

ENGINES = ("python", "native")
ENV_VAR = "METEOR_METRIC_IMPL"
#: Tokens per side the compiled core accepts (its packed path keys stay exact below this).
MAX_NATIVE_TOKENS = 1 << 20

log = logging.getLogger("meteor_metric")
_announced: list[bool] = []  # whether the fallback to pure Python has been logged in this process


def native_available() -> bool:
    """Whether the compiled core is built and loads."""
    return meteor_core is not None


def resolve_engine(impl: Optional[str] = None) -> str:
    """``"python"`` or ``"native"``: ``impl``, else ``$METEOR_METRIC_IMPL``, else ``"auto"``."""
    choice = impl if impl is not None else os.environ.get(ENV_VAR, "auto") or "auto"
    if not isinstance(choice, str) or choice not in ENGINES + ("auto",):
        source = "impl" if impl is not None else f"${ENV_VAR}"
        raise ValueError(f"{source} must be 'python', 'native' or 'auto', got {choice!r}")
    if choice == "python":
        return "python"
    if meteor_core is not None:
        return "native"
    if choice == "native":
        raise RuntimeError(
            f"the native engine was asked for ({'impl' if impl is not None else ENV_VAR}='native') but its "
            f"extension meteor_metric.meteor15.meteor_core is not available ({LOAD_ERROR}); reinstall with a C "
            "compiler (pip install --force-reinstall --no-deps meteor-metric), or use impl='python'")
    if not _announced:
        _announced.append(True)
        log.info("meteor_metric: the compiled core is not available (%s); scoring in pure Python", LOAD_ERROR)
    return "python"


def raise_over_candidate_limit(n_hyp: int, n_ref: int, limit: int) -> None:
    """The error for a pair with more candidate matches than ``limit`` (the single place it is raised;
    the per-pair work bound of the pure-Python path raises the same)."""
    raise ValueError(f"the pair of {n_hyp:,} hypothesis and {n_ref:,} reference tokens has more than "
                     f"{limit:,} candidate matches: its alignment would take too long. Split long segments")


class NativeAligner:
    """:func:`.aligner.align` for one configuration, in C (the same alignments)."""

    def __init__(self, exact_type: Sequence[bool], beam_size: int):
        if meteor_core is None:
            raise RuntimeError(f"the native engine is not available: {LOAD_ERROR}")
        if isinstance(beam_size, bool) or not isinstance(beam_size, int) or not 1 <= beam_size <= 1 << 16:
            raise ValueError(f"beam_size must be an int in 1..65536 for the native engine, got {beam_size!r}")
        self._exact = bytes(bool(e) for e in exact_type)
        self._beam_size = beam_size

    def align(self, n_hyp: int, candidates: Sequence[Sequence[Match]],
              max_candidates: Optional[int] = None) -> list[Match]:
        """The jar's best alignment of ``candidates`` (per reference position, as
        :func:`.aligner.find_candidates` builds them); past ``max_candidates`` the limit's ValueError."""
        n_ref = len(candidates)
        if not 0 <= n_hyp <= MAX_NATIVE_TOKENS or n_ref > MAX_NATIVE_TOKENS:
            raise ValueError(f"the native engine takes at most {MAX_NATIVE_TOKENS:,} tokens per side, "
                             f"got {n_hyp:,} and {n_ref:,}")
        flat = list(chain.from_iterable(candidates))
        for j, cands in enumerate(candidates):  # C checks spans and order; here each list's position
            for m in cands:
                if m[0] != j:
                    raise ValueError(f"candidate {tuple(m)} is listed at reference position {j}")
        chosen = meteor_core.align(n_hyp, n_ref, array("i", chain.from_iterable(flat)), self._exact,
                                   self._beam_size, -1 if max_candidates is None else max_candidates)
        if chosen is None:
            raise_over_candidate_limit(n_hyp, n_ref, max_candidates)
        return [flat[i] for i in chosen]


class NativeStatsCounter(StatsCounter):
    """:class:`.statistics.StatsCounter` with the count in C (crossings, an extension, stay in Python)."""

    def count(self, hyp: Sequence[str], ref: Sequence[str], matches: Sequence[Match]) -> MeteorStats:
        if self._char_based:
            hyp_size, ref_size = array("i", map(utf16_len, hyp)), array("i", map(utf16_len, ref))
        else:
            hyp_size, ref_size = array("i", [1]) * len(hyp), array("i", [1]) * len(ref)
        fields = meteor_core.count(array("i", chain.from_iterable(matches)), bytes(self.function_flags(hyp)),
                                   bytes(self.function_flags(ref)), hyp_size, ref_size, self._n_modules)
        crossings = count_crossings(matches) if self._crossings else (0, 0)
        return MeteorStats(*fields, *crossings)
