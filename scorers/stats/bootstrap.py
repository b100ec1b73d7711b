"""Percentile bootstrap intervals for means, and the paired bootstrap test.

A bootstrap resample of n items draws each item's multiplicity from
Multinomial(n, 1/n, ..., 1/n). Items with equal values are interchangeable, so
the resampled mean depends only on how many draws land on each *distinct*
value: Multinomial(n, count_j / n) over the K distinct values. Graded scores
take few values (0/1, partial credit in steps), so drawing B x K counts instead
of B x n indices gives the same distribution at a tiny fraction of the cost:
100,000 binary items cost one vector of B binomial draws. Values with many
distinct levels fall back to ordinary index resampling in chunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scorers.stats.seeding import rng_for

DEFAULT_RESAMPLES = 2000
# Above this many distinct values the multinomial draw stops paying for itself.
_MAX_LEVELS = 512
# Indices drawn per chunk in the fallback, to bound memory (8 bytes each).
_CHUNK_CELLS = 4_000_000

FloatArray = np.ndarray


@dataclass(frozen=True)
class Interval:
    low: float
    high: float

    def scaled(self, factor: float) -> Interval:
        return Interval(self.low * factor, self.high * factor)

    def as_list(self, digits: int | None = None) -> list[float]:
        if digits is None:
            return [self.low, self.high]
        return [round(self.low, digits), round(self.high, digits)]


@dataclass(frozen=True)
class PairedTest:
    """Paired comparison of two score vectors on the same items (a minus b)."""

    n: int
    mean_a: float
    mean_b: float
    difference: float
    ci: Interval
    p_value: float  # two-sided, from the bootstrap distribution centred on the observed difference


def _as_array(values: Sequence[float] | FloatArray) -> FloatArray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError("expected a one-dimensional sequence of numbers")
    if arr.size and not np.all(np.isfinite(arr)):
        raise ValueError("values must be finite numbers")
    return arr


def resampled_means(values: FloatArray, n_resamples: int, rng: np.random.Generator) -> FloatArray:
    """Means of ``n_resamples`` bootstrap resamples of ``values`` (see module doc)."""
    n = values.size
    if n == 0:
        raise ValueError("cannot resample an empty sample")
    levels, counts = np.unique(values, return_counts=True)
    if levels.size == 1:
        return np.full(n_resamples, float(levels[0]))
    if levels.size == 2:
        ones = rng.binomial(n, counts[1] / n, size=n_resamples)
        return (levels[0] * (n - ones) + levels[1] * ones) / n
    if levels.size <= _MAX_LEVELS:
        draws = rng.multinomial(n, counts / n, size=n_resamples)
        return np.asarray(draws @ levels / n, dtype=np.float64)
    out = np.empty(n_resamples, dtype=np.float64)
    step = max(1, _CHUNK_CELLS // n)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        idx = rng.integers(0, n, size=(rows, n))
        out[start : start + rows] = values[idx].mean(axis=1)
    return out


def _percentile_interval(draws: FloatArray, level: float) -> Interval:
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(draws, [tail, 1.0 - tail])
    return Interval(float(low), float(high))


def bootstrap_mean_ci(
    values: Sequence[float] | FloatArray,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    label: str = "",
    level: float = 0.95,
) -> Interval | None:
    """Percentile bootstrap interval of the mean; None for an empty sample.

    Reproducible: the same values, seed and label give the same interval.
    """
    arr = _as_array(values)
    if arr.size == 0:
        return None
    _check(n_resamples, level)
    return _percentile_interval(resampled_means(arr, n_resamples, rng_for(seed, label)), level)


def paired_bootstrap(
    a: Sequence[float] | FloatArray,
    b: Sequence[float] | FloatArray,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    label: str = "",
    level: float = 0.95,
) -> PairedTest:
    """Paired bootstrap of mean(a - b) over the same items.

    Resampling items keeps each item's pair together, so the interval of the
    difference reflects item difficulty shared by both systems (far narrower
    than two independent intervals). The p-value is the share of resampled
    differences at least as far from the observed one as the observed one is
    from zero (the shift method), with the usual +1 correction so it is never 0.
    """
    xa, xb = _as_array(a), _as_array(b)
    if xa.size != xb.size:
        raise ValueError(f"paired samples differ in length: {xa.size} vs {xb.size}")
    if xa.size == 0:
        raise ValueError("paired bootstrap needs at least one shared item")
    _check(n_resamples, level)
    diffs = xa - xb
    observed = float(diffs.mean())
    draws = resampled_means(diffs, n_resamples, rng_for(seed, label))
    if observed == 0.0:
        p_value = 1.0
    else:
        extreme = int(np.count_nonzero(np.abs(draws - observed) >= abs(observed)))
        p_value = (extreme + 1) / (n_resamples + 1)
    return PairedTest(
        n=int(xa.size),
        mean_a=float(xa.mean()),
        mean_b=float(xb.mean()),
        difference=observed,
        ci=_percentile_interval(draws, level),
        p_value=p_value,
    )


def _check(n_resamples: int, level: float) -> None:
    if n_resamples < 1:
        raise ValueError("the number of bootstrap resamples must be at least 1")
    if not 0.0 < level < 1.0:
        raise ValueError("the confidence level must lie strictly between 0 and 1")
