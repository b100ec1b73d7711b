"""Confusion matrices and Cohen's kappa with its large-sample interval."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from scorers.stats.bootstrap import Interval


@dataclass(frozen=True)
class KappaResult:
    n: int
    observed: float  # share of items on which the two raters agree (p_o)
    expected: float  # agreement expected by chance from the margins (p_e)
    kappa: float | None  # None when p_e == 1: both raters constant and equal
    se: float | None
    ci: Interval | None


def confusion_matrix(
    a: Sequence[Hashable], b: Sequence[Hashable], labels: Sequence[Hashable]
) -> list[list[int]]:
    """Counts: row = label given by rater a, column = label given by rater b."""
    if len(a) != len(b):
        raise ValueError(f"raters rated different numbers of items: {len(a)} vs {len(b)}")
    index = {label: i for i, label in enumerate(labels)}
    table = [[0] * len(labels) for _ in labels]
    for x, y in zip(a, b, strict=True):
        try:
            table[index[x]][index[y]] += 1
        except KeyError as exc:
            raise ValueError(f"label {exc.args[0]!r} is not one of {list(labels)}") from None
    return table


def cohen_kappa(table: Sequence[Sequence[int]], *, level: float = 0.95) -> KappaResult:
    """Cohen's kappa of a square table, with the Fleiss-Cohen-Everitt (1969) interval.

    The standard error is the large-sample one for a non-zero kappa:

        var = [ sum_i p_ii (1 - (p_i. + p_.i)(1 - k))^2
                + (1 - k)^2 sum_{i != j} p_ij (p_.i + p_j.)^2
                - (k - p_e (1 - k))^2 ] / (n (1 - p_e)^2)

    and the interval is kappa +/- z * se, clipped to [-1, 1].
    """
    k = len(table)
    if any(len(row) != k for row in table):
        raise ValueError("an agreement table must be square")
    n = sum(sum(row) for row in table)
    if n == 0:
        return KappaResult(0, math.nan, math.nan, None, None, None)
    p = [[cell / n for cell in row] for row in table]
    rows = [sum(row) for row in p]
    cols = [sum(p[i][j] for i in range(k)) for j in range(k)]
    po = sum(p[i][i] for i in range(k))
    pe = sum(rows[i] * cols[i] for i in range(k))
    if pe >= 1.0 - 1e-12:
        return KappaResult(n, po, pe, None, None, None)
    kappa = (po - pe) / (1.0 - pe)
    one_minus = 1.0 - kappa
    diagonal = sum(p[i][i] * (1.0 - (rows[i] + cols[i]) * one_minus) ** 2 for i in range(k))
    off = sum(p[i][j] * (cols[i] + rows[j]) ** 2 for i in range(k) for j in range(k) if i != j)
    var = (diagonal + one_minus**2 * off - (kappa - pe * one_minus) ** 2) / (n * (1.0 - pe) ** 2)
    se = math.sqrt(max(var, 0.0))
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    ci = Interval(max(-1.0, kappa - z * se), min(1.0, kappa + z * se))
    return KappaResult(n, po, pe, kappa, se, ci)


def weighted_kappa(table: Sequence[Sequence[int]]) -> float | None:
    """Cohen's kappa with linear weights, for ordered labels (0 < partial < 1).

    A disagreement one step apart (0 vs partial) counts half as much as one
    two steps apart (0 vs 1), so partial credit is not thrown away by cutting
    it at 0.5. None when chance agreement is already perfect.
    """
    k = len(table)
    if k < 2 or any(len(row) != k for row in table):
        raise ValueError("a weighted kappa needs a square table of at least two ordered labels")
    n = sum(sum(row) for row in table)
    if n == 0:
        return None
    rows = [sum(row) / n for row in table]
    cols = [sum(table[i][j] for i in range(k)) / n for j in range(k)]
    weight = [[abs(i - j) / (k - 1) for j in range(k)] for i in range(k)]
    observed = sum(weight[i][j] * table[i][j] / n for i in range(k) for j in range(k))
    expected = sum(weight[i][j] * rows[i] * cols[j] for i in range(k) for j in range(k))
    if expected <= 1e-12:
        return None
    return 1.0 - observed / expected


def fleiss_kappa(counts: Sequence[Sequence[int]]) -> float | None:
    """Fleiss' kappa: agreement of several raters, one row of label counts per item.

    Rows may have different numbers of raters (at least two each; others are
    skipped). None when there is no item or chance agreement is perfect.
    """
    rows = [list(row) for row in counts if sum(row) >= 2]
    if not rows:
        return None
    total = sum(sum(row) for row in rows)
    labels = len(rows[0])
    share = [sum(row[j] for row in rows) / total for j in range(labels)]
    per_item = [(sum(c * c for c in row) - sum(row)) / (sum(row) * (sum(row) - 1)) for row in rows]
    observed = sum(per_item) / len(per_item)
    expected = sum(p * p for p in share)
    if expected >= 1.0 - 1e-12:
        return None
    return (observed - expected) / (1.0 - expected)
