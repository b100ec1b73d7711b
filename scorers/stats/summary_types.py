"""The summary's figures as data: one dataclass per table of numbers.

:mod:`scorers.stats.summary` builds them, :mod:`scorers.stats.summary_json`
writes them as JSON, and the CLI formats and the review app render them; they
hold no behaviour so every view reads the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorers.stats import DEFAULT_RESAMPLES, Interval, MeanStd

# Below this many items a bootstrap interval is not meaningful (a handful of distinct
# resampled means); the tables show "n<5" and the JSON says so beside the numbers.
MIN_INTERVAL_ITEMS = 5


@dataclass(frozen=True)
class SummaryOptions:
    by: str = "task"
    subtype: str | None = None
    seed: int = 0
    n_resamples: int = DEFAULT_RESAMPLES
    level: float = 0.95


@dataclass
class Estimate:
    """Mean score of ``n`` items as a percentage, with its bootstrap interval."""

    n: int
    total: float
    accuracy: float | None
    ci95: Interval | None


@dataclass
class RunSpread:
    """Accuracy of each inference run (``inference_scores``) and their mean and sample std."""

    n_runs: int
    per_run: list[float]
    mean: float | None
    std: float | None


@dataclass
class BucketSummary:
    name: str
    loose: Estimate
    strict: Estimate | None = None
    runs: RunSpread | None = None
    subbuckets: list[BucketSummary] = field(default_factory=list)


@dataclass
class TokenStats:
    """Per-response token counts from ``usage`` (responses without usage left out)."""

    responses: int
    completion: MeanStd
    reasoning: MeanStd
    total: MeanStd


@dataclass
class PairAgreement:
    a: str
    b: str
    n: int
    agreement: float | None  # percent
    kappa: float | None
    kappa_ci95: Interval | None
    confusion: list[list[int]]  # rows: a says 0 / 1; columns: b says 0 / 1
    # Partial credit kept: both verdicts as 0 / partial / 1 (rows a, columns b) and the
    # linearly weighted kappa of that table. Set only where a verdict was partial.
    partial: int = 0  # items where either verdict is strictly between 0 and 1
    levels: list[list[int]] | None = None
    weighted_kappa: float | None = None


@dataclass
class PanelAgreement:
    """Agreement among the members of a judge panel (``judge:NAME@MODEL`` verdicts)."""

    judge: str
    members: list[str]
    n: int  # items at least two members scored
    fleiss_kappa: float | None  # over 0 / partial / 1


@dataclass
class VrcSteps:
    """VRC-Bench's Steps score: the mean of the ten step metrics (1-10), on a 0-100 scale."""

    n: int
    steps: Estimate  # percent, with its bootstrap interval
    metrics: dict[str, float]  # per-metric mean on the judge's 1-10 scale


@dataclass
class ErrorRate:
    """How often a machine source's verdict differs from the human override."""

    source: str
    n: int
    errors: int
    rate: float | None
    ci95: Interval | None
    false_positive: int  # source said correct, human said wrong
    false_negative: int


@dataclass
class FlagRate:
    kind: str
    count: int  # items with the flag from any source
    n: int  # denominator (items with a reasoning trace for reasoning kinds)
    rate: float | None
    heuristic: int = 0
    rubric: int = 0
    agreement: PairAgreement | None = None  # heuristic vs rubric where the rubric ran
    disagree: int = 0  # items whose heuristic_rubric_disagree flag names this kind


@dataclass
class OverrideEffect:
    """Accuracy from the primary machine verdicts versus with human overrides applied."""

    overridden: int
    changed: int  # overrides whose score differs from the machine verdict
    before: float | None
    after: float | None
    stale: int
    conflicts: int


@dataclass
class ModelSummary:
    model: str
    records: int
    ungraded: int
    overall: BucketSummary
    buckets: list[BucketSummary]
    tokens: TokenStats | None
    agreement: list[PairAgreement]
    error_rates: list[ErrorRate]
    judge_failures: dict[str, int]
    flags: list[FlagRate]
    overrides: OverrideEffect
    with_reasoning: int
    scores_by_id: dict[str, float] = field(default_factory=dict, repr=False)
    panels: list[PanelAgreement] = field(default_factory=list)
    vrc_steps: VrcSteps | None = None


@dataclass
class Comparison:
    """Paired bootstrap of two adjacent leaderboard entries on their shared questions."""

    a: str
    b: str
    n: int
    difference: float | None  # percentage points, a minus b
    ci95: Interval | None
    p_value: float | None
