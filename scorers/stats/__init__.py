"""Statistics for summaries: bootstrap intervals, paired tests, agreement, spread.

Plain functions over numbers; nothing here knows about records except the
``summary*`` modules, which read graded records into these. Every random
draw comes from :func:`rng_for`, seeded by the caller's seed and a label, so
one interval never changes because another was added or computed first.
"""

from __future__ import annotations

from scorers.stats.agreement import (
    KappaResult,
    cohen_kappa,
    confusion_matrix,
    fleiss_kappa,
    weighted_kappa,
)
from scorers.stats.bootstrap import (
    DEFAULT_RESAMPLES,
    Interval,
    PairedTest,
    bootstrap_mean_ci,
    paired_bootstrap,
    resampled_means,
)
from scorers.stats.seeding import rng_for
from scorers.stats.spread import MeanStd, mean_std

__all__ = [
    "DEFAULT_RESAMPLES",
    "Interval",
    "KappaResult",
    "MeanStd",
    "PairedTest",
    "bootstrap_mean_ci",
    "cohen_kappa",
    "confusion_matrix",
    "fleiss_kappa",
    "mean_std",
    "paired_bootstrap",
    "resampled_means",
    "rng_for",
    "weighted_kappa",
]
