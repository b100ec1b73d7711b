"""Mean and standard deviation over repeated runs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class MeanStd:
    mean: float | None
    std: float | None  # None when fewer than ddof + 1 values
    n: int
    ddof: int = 1


def mean_std(values: Sequence[float], *, ddof: int = 1) -> MeanStd:
    """Mean and standard deviation; ``ddof=1`` (sample std) by default.

    Runs of a model are a sample of its possible runs, so the sample standard
    deviation is the honest spread; pass ``ddof=0`` for the population form.
    """
    n = len(values)
    if n == 0:
        return MeanStd(None, None, 0, ddof)
    mean = math.fsum(values) / n
    if n <= ddof:
        return MeanStd(mean, None, n, ddof)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - ddof)
    return MeanStd(mean, math.sqrt(var), n, ddof)
