"""Paired significance tests for METEOR: bootstrap resampling and approximate randomization.

A sample is a multiset of segments; its system score is recomputed the way the profile scores a
corpus: for ``meteor-1.5`` from the summed segment statistics (the jar's rule, a perfect segment
adds no chunks), for ``nltk`` as the mean of the segment scores. All samples are summed at once
with numpy, and the vectorized scorer repeats the jar's arithmetic operation for operation.

p-values follow sacreBLEU 2's ``--paired-bs`` and ``--paired-ar`` (and so the Moses script and
MultEval), with one change: a sample counts when its statistic is *at least* the observed one
(Riezler & Maxwell 2005; sacreBLEU counts only *greater*), so a system compared with itself gets
p = 1 rather than 1/(R+1). With R samples and c counted, p = (c + 1) / (R + 1).

* paired bootstrap (Koehn 2004): the same R resamples of segment indices for every system;
  statistic ``|d_i| - mean(|d|)`` with ``d_i`` = system minus baseline score in sample i, against
  the observed ``|d|``.
* approximate randomization (Riezler & Maxwell 2005): R times, each segment's pair of outputs is
  swapped with probability 1/2; statistic ``|score(A') - score(B')|`` against the observed ``|d|``.

The 95% confidence interval is the bootstrap percentile interval as sacreBLEU takes it: the sorted
sample scores at positions ``R // 40`` and ``R - 1 - R // 40``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Mapping, Optional, Sequence

import numpy as np

from ..core.results import SegmentResult
from ..core.sampling import SampleModel
from ..core.scorer import Scorer
from ..core.wording import plural

TESTS = {"bs": "paired-bs", "ar": "paired-ar"}
_CHUNK_ELEMENTS = 1 << 22  # samples are summed in blocks of about this many (sample, segment) cells


@dataclass(frozen=True)
class SystemResult:
    """One system in a comparison: its score, 95% CI and p-value against the baseline
    (``None`` for the baseline itself)."""

    name: str
    score: float
    ci: tuple[float, float]
    p_value: Optional[float]


@dataclass(frozen=True)
class ComparisonResult:
    """The outcome of a paired test; ``systems`` keeps the input order and includes the baseline."""

    test: str
    baseline: str
    n_samples: int
    seed: int
    systems: dict[str, SystemResult]
    signature: str


def sample_model(scorer: Scorer) -> SampleModel:
    """The vectorized system scoring of a scorer: its own ``sample_model()`` hook."""
    hook = getattr(scorer, "sample_model", None)
    if not callable(hook):
        raise TypeError(f"no significance test for {type(scorer).__name__}: a scorer needs a sample_model() "
                        "hook (meteor_metric.core.scorer.Scorer), as the meteor-1.5, nltk and original profiles have")
    return hook()


# -- the tests -----------------------------------------------------------------------------------


def paired_bootstrap(systems: Mapping[str, Sequence[SegmentResult]], baseline: str, scorer: Scorer,
                     n_samples: int = 1000, seed: int = 12345) -> ComparisonResult:
    """Paired bootstrap resampling (Koehn 2004) of every system against ``baseline``.

    ``systems`` maps names to the segment results of each system on the same segments, scored by
    ``scorer``. The same ``n_samples`` resamples serve every system and give the 95% CIs.
    """
    model, rows, n = _prepare(systems, baseline, scorer, n_samples, seed)
    observed = {name: _observed(model, r) for name, r in rows.items()}
    samples = _bootstrap_scores(model, rows, n, n_samples, seed)
    base = samples[baseline]
    results = {}
    for name in rows:
        p_value = None
        if name != baseline:
            diffs = np.abs(samples[name] - base)
            p_value = _p_value(diffs - diffs.mean(), abs(observed[name] - observed[baseline]))
        results[name] = SystemResult(name, observed[name], _ci(samples[name]), p_value)
    return _result("bs", baseline, n_samples, seed, results, scorer)


def paired_approximate_randomization(systems: Mapping[str, Sequence[SegmentResult]], baseline: str,
                                     scorer: Scorer, n_samples: int = 10000, seed: int = 12345,
                                     ci_samples: int = 1000) -> ComparisonResult:
    """Paired approximate randomization (Riezler & Maxwell 2005) of every system against ``baseline``.

    The same ``n_samples`` random swap patterns serve every system; the 95% CIs come from
    ``ci_samples`` bootstrap resamples (the same as :func:`paired_bootstrap` with that many samples).
    """
    model, rows, n = _prepare(systems, baseline, scorer, n_samples, seed)
    if isinstance(ci_samples, bool) or not isinstance(ci_samples, int) or ci_samples < 1:
        raise ValueError(f"ci_samples must be a whole number >= 1, got {ci_samples!r}")
    observed = {name: _observed(model, r) for name, r in rows.items()}
    boot = _bootstrap_scores(model, rows, n, ci_samples, seed)
    base_rows = rows[baseline]
    others = [name for name in rows if name != baseline]
    deltas = {name: rows[name] - base_rows for name in others}
    totals = {name: rows[name].sum(0) for name in rows}
    stats: dict[str, list[np.ndarray]] = {name: [] for name in others}
    rng = np.random.default_rng(seed)
    for block in _blocks(n_samples, n):
        swap = rng.integers(2, size=(len(block), n), dtype=bool).astype(np.float64)
        for name in others:
            a = totals[baseline] + swap @ deltas[name]  # the baseline with swapped segments
            b = totals[baseline] + totals[name] - a
            stats[name].append(np.abs(model.scores(a, n) - model.scores(b, n)))
    results = {}
    for name in rows:
        p_value = None
        if name != baseline:
            p_value = _p_value(np.concatenate(stats[name]), abs(observed[name] - observed[baseline]))
        results[name] = SystemResult(name, observed[name], _ci(boot[name]), p_value)
    return _result("ar", baseline, n_samples, seed, results, scorer, ci_samples)


# -- helpers -------------------------------------------------------------------------------------


def _prepare(systems: Mapping[str, Sequence[SegmentResult]], baseline: str, scorer: Scorer,
             n_samples: int, seed: int) -> tuple[SampleModel, dict[str, np.ndarray], int]:
    if not isinstance(systems, Mapping) or not systems:
        raise ValueError("systems must be a non-empty mapping of names to segment results")
    if baseline not in systems:
        raise ValueError(f"unknown baseline {baseline!r}; the systems are: {', '.join(map(str, systems))}")
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 1:
        raise ValueError(f"n_samples must be a whole number >= 1, got {n_samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
    n = len(systems[baseline])
    for name, segments in systems.items():
        if len(segments) != n:
            raise ValueError(f"systems differ in length: {baseline!r} has {plural(n, 'segment')}, "
                             f"{name!r} has {len(segments):,}")
    if n < 2:
        raise ValueError(f"a paired test needs at least 2 segments, got {n}")
    model = sample_model(scorer)
    for name, segments in systems.items():
        for k, s in enumerate(segments):
            if not isinstance(s, SegmentResult):
                raise TypeError(f"systems[{name!r}][{k}] must be a SegmentResult, got {type(s).__name__}")
            if s.signature != scorer.signature:
                raise ValueError(f"systems[{name!r}][{k}] was scored with another configuration "
                                 f"({s.signature}) than the scorer ({scorer.signature})")
    return model, {name: model.rows(segments) for name, segments in systems.items()}, n


def _observed(model: SampleModel, rows: np.ndarray) -> float:
    return float(model.scores(rows.sum(0, keepdims=True), len(rows))[0])


def _blocks(n_samples: int, n: int) -> Iterator[range]:
    """Sample numbers in blocks small enough to hold a (block × segments) matrix; each block's
    random draws are one call, so results depend on the block size (fixed for a given ``n``)."""
    size = max(1, _CHUNK_ELEMENTS // n)
    for start in range(0, n_samples, size):
        yield range(start, min(start + size, n_samples))


def _bootstrap_scores(model: SampleModel, rows: Mapping[str, np.ndarray], n: int, n_samples: int,
                      seed: int) -> dict[str, np.ndarray]:
    """Each system's score in ``n_samples`` resamples of the segment indices (shared by all systems)."""
    rng = np.random.default_rng(seed)
    out: dict[str, list[np.ndarray]] = {name: [] for name in rows}
    for block in _blocks(n_samples, n):
        picks = rng.integers(n, size=(len(block), n))
        cells = (picks + (np.arange(len(block)) * n)[:, None]).ravel()
        counts = np.bincount(cells, minlength=len(block) * n).reshape(len(block), n).astype(np.float64)
        for name, r in rows.items():
            out[name].append(model.scores(counts @ r, n))
    return {name: np.concatenate(parts) for name, parts in out.items()}


def _p_value(stats: np.ndarray, observed: float) -> float:
    """(c + 1) / (R + 1), c = the samples whose statistic is at least the observed one."""
    return (int(np.count_nonzero(stats >= observed)) + 1) / (len(stats) + 1)


def _ci(samples: np.ndarray) -> tuple[float, float]:
    ordered = np.sort(samples)
    cut = len(ordered) // 40
    return float(ordered[cut]), float(ordered[len(ordered) - 1 - cut])


def _result(test: str, baseline: str, n_samples: int, seed: int, systems: dict[str, SystemResult],
            scorer: Scorer, ci_samples: Optional[int] = None) -> ComparisonResult:
    signature = f"{scorer.signature}|test:{TESTS[test]}|n:{n_samples}|seed:{seed}"
    if ci_samples is not None:
        signature += f"|ci:bs-{ci_samples}"
    return ComparisonResult(TESTS[test], baseline, n_samples, seed, systems, signature)
