"""Fit METEOR's alpha, beta, gamma, delta and module weights to human judgments.

The statistics of every (segment, reference) pair are collected once (:mod:`.vectorized`); each
trial is numpy arithmetic over them. The optimizer is Nelder–Mead inside the valid box (points are
clipped to it) started from the best of a set of random points and from the METEOR 1.5 defaults.
The weight of the first module is fixed at 1 (scaling all weights scales every score alike, which
no correlation sees). :func:`tune` reports k-fold cross-validation (folds split by ``group``: a
source segment or an image, so the folds share no source) and then fits on everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Optional, Sequence
import warnings

import numpy as np

from .correlation import kendall, pearson
from .objectives import OBJECTIVES
from .vectorized import StatsTable, corpus_scores, segment_scores

PARAM_NAMES = ("alpha", "beta", "gamma", "delta")
#: Search box: alpha, beta, gamma, delta, then each free module weight (beta is unbounded in theory).
PARAM_BOUNDS = ((0.0, 1.0), (0.0, 5.0), (0.0, 1.0), (0.0, 1.0))
WEIGHT_BOUNDS = (0.0, 1.0)


@dataclass(frozen=True, eq=False)
class TuningSet:
    """Human judgments of one data set, over a statistics table.

    ``judged[j]`` is the segment of judgment ``human[j]`` (a segment may have several, e.g. one per
    annotator). ``system[k]`` (optional) is segment ``k``'s system; the human system score is the
    mean of its segments' judgments unless ``sys_human`` gives it. ``group[k]`` keeps segments that
    share a source together in cross-validation.
    """

    name: str
    table: StatsTable
    judged: np.ndarray
    human: np.ndarray
    group: np.ndarray
    system: Optional[np.ndarray] = None
    sys_human: Optional[np.ndarray] = None
    kendall_variant: str = "b"

    def __post_init__(self) -> None:
        n = self.table.n_segments
        if len(self.judged) != len(self.human):
            raise ValueError(f"{self.name}: {len(self.judged)} judged segments but {len(self.human)} judgments")
        if len(self.judged) and (self.judged.min() < 0 or self.judged.max() >= n):
            raise ValueError(f"{self.name}: judged segment indices must be in 0..{n - 1}")
        for what, arr in (("group", self.group), ("system", self.system)):
            if arr is not None and len(arr) != n:
                raise ValueError(f"{self.name}: {what} needs one entry per segment ({n}), got {len(arr)}")

    def select(self, segments: np.ndarray) -> "TuningSet":
        """The set restricted to some segments (sorted indices), e.g. one cross-validation fold."""
        segments = np.asarray(segments)
        keep = np.isin(self.judged, segments)
        return replace(self, table=self.table.select(segments),
                       judged=np.searchsorted(segments, self.judged[keep]), human=self.human[keep],
                       group=self.group[segments], system=None if self.system is None else self.system[segments])

    def system_human(self) -> np.ndarray:
        if self.sys_human is not None:
            return self.sys_human
        sums = np.bincount(self.system[self.judged], self.human, minlength=int(self.system.max()) + 1)
        counts = np.bincount(self.system[self.judged], minlength=len(sums))
        with np.errstate(invalid="ignore"):
            return sums / counts


@dataclass(frozen=True)
class Config:
    """Weights (one per module) and alpha, beta, gamma, delta."""

    weights: tuple[float, ...]
    alpha: float
    beta: float
    gamma: float
    delta: float

    @property
    def parameters(self) -> tuple[float, float, float, float]:
        return (self.alpha, self.beta, self.gamma, self.delta)

    @classmethod
    def from_vector(cls, x: np.ndarray) -> "Config":
        return cls((1.0,) + tuple(float(v) for v in x[4:]), *(float(v) for v in x[:4]))

    def vector(self) -> np.ndarray:
        return np.array(self.parameters + tuple(self.weights[1:]), dtype=float)


def correlation(ts: TuningSet, config: Config, objective: str) -> float:
    """The objective on one set: segment-level Kendall or system-level Pearson."""
    seg, best = segment_scores(ts.table, config.weights, *config.parameters)
    if objective == "seg-kendall":
        return kendall(seg[ts.judged], ts.human, ts.kendall_variant)
    if objective == "sys-pearson":
        if ts.system is None:
            raise ValueError(f"{ts.name}: the sys-pearson objective needs systems")
        human = ts.system_human()
        metric = corpus_scores(ts.table, best, ts.system, len(human), config.weights, *config.parameters)
        present = ~np.isnan(human)
        return pearson(metric[present], human[present])
    raise ValueError(f"unknown objective {objective!r}; choose one of {', '.join(OBJECTIVES)}")


def mean_correlation(sets: Sequence[TuningSet], config: Config, objective: str) -> float:
    """The objective averaged over the sets (each correlation is computed within its set)."""
    values = [correlation(ts, config, objective) for ts in sets]
    return float(np.mean(values)) if not any(np.isnan(values)) else float("nan")


def bounds(n_modules: int) -> tuple[np.ndarray, np.ndarray]:
    box = PARAM_BOUNDS + (WEIGHT_BOUNDS,) * (n_modules - 1)
    return np.array([b[0] for b in box]), np.array([b[1] for b in box])


def nelder_mead(f: Callable[[np.ndarray], float], x0: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                max_evals: int = 300, step: float = 0.1, tol: float = 1e-6) -> tuple[np.ndarray, float, int]:
    """Minimize ``f`` by Nelder–Mead inside the box [lo, hi] (every point is clipped to it)."""
    def g(x: np.ndarray) -> tuple[np.ndarray, float]:
        x = np.clip(x, lo, hi)
        return x, f(x)

    n = len(x0)
    simplex = [g(x0)]
    for i in range(n):
        x = np.array(x0, dtype=float)
        d = step * (hi[i] - lo[i])
        x[i] = x[i] + d if x[i] + d <= hi[i] else x[i] - d
        simplex.append(g(x))
    evals = n + 1
    while evals < max_evals:
        simplex.sort(key=lambda p: p[1])
        if simplex[-1][1] - simplex[0][1] <= tol:
            break
        centroid = np.mean([p[0] for p in simplex[:-1]], axis=0)
        worst = simplex[-1]
        reflected = g(centroid + (centroid - worst[0]))
        evals += 1
        if reflected[1] < simplex[0][1]:
            expanded = g(centroid + 2 * (centroid - worst[0]))
            evals += 1
            simplex[-1] = expanded if expanded[1] < reflected[1] else reflected
        elif reflected[1] < simplex[-2][1]:
            simplex[-1] = reflected
        else:
            inside = reflected[1] < worst[1]
            contracted = g(centroid + 0.5 * ((reflected[0] if inside else worst[0]) - centroid))
            evals += 1
            if contracted[1] < min(reflected[1], worst[1]):
                simplex[-1] = contracted
            else:  # shrink towards the best point
                best = simplex[0][0]
                simplex = [simplex[0]] + [g(best + 0.5 * (p[0] - best)) for p in simplex[1:]]
                evals += n
    simplex.sort(key=lambda p: p[1])
    return simplex[0][0], simplex[0][1], evals


@dataclass(frozen=True)
class Fit:
    config: Config
    train: float  # objective on the training data
    evaluations: int


def fit(sets: Sequence[TuningSet], objective: str, start: Config, *, random_starts: int = 48,
        restarts: int = 2, max_evals: int = 300, seed: int = 0) -> Fit:
    """Maximize the mean objective: random points in the box, then Nelder–Mead from the best few."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; choose one of {', '.join(OBJECTIVES)}")
    n_modules = sets[0].table.n_modules
    if any(ts.table.n_modules != n_modules for ts in sets) or len(start.weights) != n_modules:
        raise ValueError("all sets and the start configuration need the same modules")
    lo, hi = bounds(n_modules)

    def loss(x: np.ndarray) -> float:
        value = mean_correlation(sets, Config.from_vector(x), objective)
        return -value if np.isfinite(value) else np.inf

    rng = np.random.default_rng(seed)
    points = [np.clip(start.vector(), lo, hi)] + [lo + rng.random(len(lo)) * (hi - lo) for _ in range(random_starts)]
    scored = sorted(((loss(x), i, x) for i, x in enumerate(points)), key=lambda t: t[:2])
    evals = len(points)
    best_x, best_f = scored[0][2], scored[0][0]
    for _, _, x0 in scored[:restarts]:
        x, fx, n = nelder_mead(loss, x0, lo, hi, max_evals)
        evals += n
        if fx < best_f:
            best_x, best_f = x, fx
    return Fit(Config.from_vector(best_x), -best_f, evals)


@dataclass(frozen=True)
class Fold:
    index: int
    config: Config
    train: float
    validation: float
    validation_default: float  # the start configuration on the same validation data


@dataclass(frozen=True)
class TuneResult:
    final: Fit
    folds: list[Fold] = field(default_factory=list)

    @property
    def cv_validation(self) -> float:
        return float(np.mean([f.validation for f in self.folds])) if self.folds else float("nan")

    @property
    def cv_validation_default(self) -> float:
        return float(np.mean([f.validation_default for f in self.folds])) if self.folds else float("nan")


def fold_segments(ts: TuningSet, k: int, seed: int) -> list[np.ndarray]:
    """Segment indices of each of ``k`` folds; all segments of a group share a fold."""
    _, group_ids = np.unique(ts.group, return_inverse=True)
    perm = np.random.default_rng(seed).permutation(int(group_ids.max()) + 1)
    fold_of = perm[group_ids] % k
    return [np.flatnonzero(fold_of == f) for f in range(k)]


TINY = 30


class TuningWarning(UserWarning):
    """Tuning data too small or folds degenerate: the fitted parameters are unreliable."""


def check_sets(sets: Sequence[TuningSet], folds: int) -> None:
    """Reject sets without judgments or with fewer CV groups than ``folds``; warn on tiny data."""
    if not sets:
        raise ValueError("tune needs at least one tuning set")
    for ts in sets:
        if len(ts.human) == 0:
            raise ValueError(f"{ts.name}: no segment has a human judgment (is the 'human' field missing from "
                             "every line?); give each judged segment a 'human' number")
        if np.ptp(ts.human) == 0:
            raise ValueError(f"{ts.name}: all {len(ts.human)} judgments are equal ({ts.human[0]:g}), so no "
                             "correlation with them exists; tune on judgments that differ")
        groups = len(np.unique(ts.group[np.unique(ts.judged)]))
        if folds and groups < folds:
            raise ValueError(f"{ts.name}: {folds} folds but only {groups} judged group(s); use folds <= {groups} "
                             "or folds=0 to skip cross-validation")
        if len(ts.human) < TINY:
            warnings.warn(f"{ts.name}: only {len(ts.human)} judgments (< {TINY}); the fitted parameters and "
                          "correlations are unreliable", TuningWarning, stacklevel=3)


def tune(sets: Sequence[TuningSet], objective: str, start: Config, *, folds: int = 5, seed: int = 0,
         report: Optional[Callable[[Fold], None]] = None, **fit_options) -> TuneResult:
    """k-fold cross-validation (``folds`` >= 2; 0 skips it), then the fit on all the data."""
    if folds == 1 or folds < 0:
        raise ValueError(f"folds must be 0 (no cross-validation) or at least 2, got {folds}")
    check_sets(sets, folds)
    results = []
    parts = [fold_segments(ts, folds, seed) for ts in sets] if folds else []
    for f in range(folds):
        train = [ts.select(np.sort(np.concatenate([p[i] for i in range(folds) if i != f])))
                 for ts, p in zip(sets, parts)]
        valid = [ts.select(p[f]) for ts, p in zip(sets, parts)]
        result = fit(train, objective, start, seed=seed + f, **fit_options)
        fold = Fold(f, result.config, result.train, mean_correlation(valid, result.config, objective),
                    mean_correlation(valid, start, objective))
        if np.isnan(fold.validation):
            warnings.warn(f"fold {f + 1}: validation correlation is NaN (too few or constant judgments in the fold); "
                          "use fewer folds or more data", TuningWarning, stacklevel=2)
        if report is not None:
            report(fold)
        results.append(fold)
    final = fit(sets, objective, start, seed=seed, **fit_options)
    if not np.isfinite(final.train):
        warnings.warn(f"the {objective} correlation on all the data is {final.train} (too few or constant "
                      "judgments within the sets); no parameters could be fitted", TuningWarning,
                      stacklevel=2)
    return TuneResult(final, results)


def make_set(name: str, table: StatsTable, judgments: Sequence[Sequence[float]],
             system: Optional[Sequence[str]] = None, group: Optional[Sequence[str]] = None,
             kendall_variant: str = "b") -> TuningSet:
    """A :class:`TuningSet` from per-segment lists of judgments (empty: not judged), system names
    and CV groups (default: each segment its own group)."""
    n = table.n_segments
    if len(judgments) != n:
        raise ValueError(f"{name}: {len(judgments)} judgment lists for {n} segments")
    judged = np.array([k for k, js in enumerate(judgments) for _ in js], dtype=np.int64)
    human = np.array([j for js in judgments for j in js], dtype=float)
    groups = np.unique(np.asarray(group if group is not None else np.arange(n)).astype(str), return_inverse=True)[1]
    systems = None if system is None else np.unique(np.asarray(system, dtype=str), return_inverse=True)[1]
    return TuningSet(name, table, judged, human, groups, systems, kendall_variant=kendall_variant)
