"""Correlation coefficients for metric meta-evaluation: Pearson and Kendall tau-b / tau-c.

Kendall's tau runs in O(n log^2 n) with numpy (the discordant pairs are the inversions of the human
scores once the items are sorted by metric score), so it is fast enough to sit inside an optimizer.
The formulas are those of ``scipy.stats.kendalltau`` (variants ``b`` and ``c``).
"""

from __future__ import annotations

import numpy as np


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r (NaN when either side is constant)."""
    x, y = _pair(x, y)
    xc, yc = x - x.mean(), y - y.mean()
    denom = np.sqrt((xc * xc).sum() * (yc * yc).sum())
    return float((xc * yc).sum() / denom) if denom > 0 else float("nan")


def kendall(x: np.ndarray, y: np.ndarray, variant: str = "b") -> float:
    """Kendall's tau-b or tau-c between two score vectors (NaN when undefined)."""
    if variant not in ("b", "c"):
        raise ValueError(f"variant must be 'b' or 'c', got {variant!r}")
    x, y = _pair(x, y)
    n = len(x)
    _, xr = np.unique(x, return_inverse=True)
    _, yr = np.unique(y, return_inverse=True)
    order = np.lexsort((yr, xr))  # by x, ties by y: tied-x pairs are never inversions
    xs, ys = xr[order], yr[order]
    discordant = _inversions(ys)
    n0 = n * (n - 1) // 2
    n1, n2 = _tied_pairs(xs), _tied_pairs(np.sort(yr))
    n3 = _tied_pairs(np.cumsum(np.r_[True, (xs[1:] != xs[:-1]) | (ys[1:] != ys[:-1])])) if n else 0
    diff = n0 - n1 - n2 + n3 - 2 * discordant  # concordant minus discordant
    if variant == "b":
        denom = np.sqrt(float(n0 - n1) * float(n0 - n2))
        return float(diff / denom) if denom > 0 else float("nan")
    m = min(int(xr.max()) + 1, int(yr.max()) + 1) if n else 0
    return float(2 * diff / (n * n * (m - 1) / m)) if m > 1 else float("nan")


def _pair(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"need two 1-D arrays of the same length, got shapes {x.shape} and {y.shape}")
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("scores must not be NaN")
    return x, y


def _tied_pairs(sorted_keys: np.ndarray) -> int:
    """Pairs with equal keys, from sorted keys (runs of equal values)."""
    if len(sorted_keys) == 0:
        return 0
    bounds = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1], True])
    counts = np.diff(bounds)
    return int((counts * (counts - 1) // 2).sum())


_FEW_CLASSES = 256


def _inversions(a: np.ndarray) -> int:
    """Pairs i < j with a[i] > a[j] (a: non-negative ints), by a bottom-up merge sort in numpy."""
    a = np.asarray(a, dtype=np.int64).copy()
    n = len(a)
    radix = int(a.max()) + 1 if n else 1
    if radix <= _FEW_CLASSES:  # few distinct values: count, per value, the larger ones before it
        return sum(int(np.cumsum(a > v)[a == v].sum()) for v in range(radix - 1))
    idx = np.arange(n)
    total = 0
    width = 1
    while width < n:
        block = idx // (2 * width)
        right = (idx // width) % 2 == 1
        keys = block * radix + a  # each half is sorted, so keys of the left halves are sorted
        left_keys = keys[~right]
        right_keys, right_block = keys[right], block[right]
        left_end = np.searchsorted(left_keys, (right_block + 1) * radix, side="left")
        total += int((left_end - np.searchsorted(left_keys, right_keys, side="right")).sum())
        a = np.sort(keys) - block * radix  # merge: blocks stay in place, each block sorted
        width *= 2
    return total
