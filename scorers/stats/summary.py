"""A run's numbers: accuracy with intervals, spread over runs, agreement, flags, tokens.

:func:`summarise` turns graded records (one group per model) into a
:class:`Summary`; :meth:`Summary.to_dict` is the ``--format json`` object and
the other formats and the review app render the same object, so every view
shows the same numbers.

This module is the one others import; the work is split by what it holds:
``summary_records`` (what is read in a record, and the names counted by),
``summary_collect`` (one pass over the records into columns),
``summary_estimates`` (columns to figures: intervals, spread, agreement,
error and flag rates), ``summary_types`` (the figures as dataclasses) and
``summary_json`` (the JSON object).

Conventions, stated once:

- accuracy and rates are percentages; ``n`` counts the items behind them;
- intervals are percentile bootstraps over items (seeded, see
  :mod:`scorers.stats`); kappa intervals are the large-sample
  Fleiss-Cohen-Everitt ones;
- agreement, confusion matrices and error rates binarise every score at 0.5
  (``score >= 0.5`` counts as correct), because partial credit has no
  two-by-two table;
- judges that do not grade the answer (``grades_correctness`` false: the
  behaviour rubric, VRC-Bench's step judge) stay out of agreement and error rates;
- a record without a numeric ``correct`` (a rejected answer, a failed judge
  as primary) is left out of accuracy, as scores.json leaves it out, and
  counted as ``ungraded``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scorers.errors import UsageError
from scorers.stats import mean_std, paired_bootstrap
from scorers.stats.summary_collect import Collector
from scorers.stats.summary_estimates import (
    agreements,
    error_rates,
    estimate,
    flag_rates,
    panel_agreements,
    positions_by_code,
    run_spread,
    vrc_steps_score,
)
from scorers.stats.summary_json import (
    comparison_dict,
    leader_dict,
    model_dict,
    settings_dict,
)
from scorers.stats.summary_records import BEHAVIOUR_KINDS, BINARISE_NOTE, group_by_model
from scorers.stats.summary_types import (
    MIN_INTERVAL_ITEMS,
    BucketSummary,
    Comparison,
    ErrorRate,
    Estimate,
    FlagRate,
    ModelSummary,
    OverrideEffect,
    PairAgreement,
    PanelAgreement,
    RunSpread,
    SummaryOptions,
    TokenStats,
    VrcSteps,
)

# The one entry others import: the figures' types and the constants the renderers
# read are re-exported here, so callers need not know how the summary is split.
__all__ = [
    "BEHAVIOUR_KINDS",
    "BINARISE_NOTE",
    "MIN_INTERVAL_ITEMS",
    "BucketSummary",
    "Comparison",
    "ErrorRate",
    "Estimate",
    "FlagRate",
    "ModelSummary",
    "OverrideEffect",
    "PairAgreement",
    "PanelAgreement",
    "RunSpread",
    "Summary",
    "SummaryOptions",
    "TokenStats",
    "VrcSteps",
    "group_by_model",
    "summarise",
    "summarise_model",
]


@dataclass
class Summary:
    """Every model's figures, the pooled ones, the leaderboard and its paired tests.

    Kept here, not with the other dataclasses, because :meth:`to_dict` needs the
    JSON writers, which themselves read those dataclasses.
    """

    options: SummaryOptions
    models: list[ModelSummary]
    pooled: ModelSummary  # every record together (the only model when there is one)
    leaderboard: list[str]  # model names, best first
    comparisons: list[Comparison]
    warnings: list[str] = field(default_factory=list)

    def model(self, name: str) -> ModelSummary:
        for m in self.models:
            if m.model == name:
                return m
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        out = model_dict(self.pooled)
        out["settings"] = settings_dict(self.options)
        out["models"] = [model_dict(m) for m in self.models]
        out["leaderboard"] = [
            leader_dict(rank, self.model(name)) for rank, name in enumerate(self.leaderboard, 1)
        ]
        out["comparisons"] = [comparison_dict(c) for c in self.comparisons]
        out["warnings"] = list(self.warnings)
        return out


def summarise_model(
    name: str, records: Sequence[Mapping[str, Any]], options: SummaryOptions
) -> ModelSummary:
    """Every number of one model's records."""
    c = Collector(len(records), options)
    for i, record in enumerate(records):
        c.add(i, record)
    label = f"{name}|"
    scores = np.asarray(c.scores, dtype=np.float64)
    strict: np.ndarray | None = None
    if c.strict_at:  # strict = loose except where a record gives correct_strict
        strict = scores.copy()
        strict[np.fromiter(c.strict_at.keys(), dtype=np.int64)] = np.fromiter(
            c.strict_at.values(), dtype=np.float64
        )

    def block(name: str, rows: np.ndarray | slice, tag: str) -> BucketSummary:
        return BucketSummary(
            name=name,
            loose=estimate(scores[rows], options, label + tag),
            strict=None
            if strict is None
            else estimate(strict[rows], options, label + tag + "|strict"),
        )

    run_totals = c.run_totals()
    overall = block("overall", slice(None), "overall")
    overall.runs = run_spread(list(run_totals.values()))
    by_bucket = positions_by_code(np.asarray(c.codes, dtype=np.int64), len(c.buckets))
    by_sub = (
        positions_by_code(np.asarray(c.sub_codes, dtype=np.int64), len(c.subs)) if c.subs else []
    )
    subs_of: dict[str, list[tuple[str, int]]] = {}
    for (bucket, sub), code in c.subs.items():
        subs_of.setdefault(bucket, []).append((sub, code))
    buckets = []
    for bucket, code in c.buckets.items():
        entry = block(bucket, by_bucket[code], bucket)
        entry.runs = run_spread([run_totals[bucket]]) if bucket in run_totals else None
        entry.subbuckets = [
            block(sub, by_sub[sc], f"{bucket}|{sub}") for sub, sc in subs_of.get(bucket, [])
        ]
        buckets.append(entry)
    tokens = None
    if c.responses:
        tokens = TokenStats(
            c.responses, mean_std(c.completion), mean_std(c.reasoning), mean_std(c.total_tokens)
        )
    before = 100.0 * math.fsum(c.before) / len(c.before) if c.before else None
    sources = c.source_columns()
    levels = c.source_levels()
    return ModelSummary(
        model=name,
        records=len(records),
        ungraded=c.ungraded,
        overall=overall,
        buckets=buckets,
        tokens=tokens,
        agreement=agreements(sources, options.level, levels),
        error_rates=error_rates(sources, options, name),
        judge_failures=dict(sorted(c.judge_failures.items())),
        flags=flag_rates(c, options.level),
        overrides=OverrideEffect(
            c.overridden, c.changed, before, overall.loose.accuracy, c.stale, c.conflicts
        ),
        with_reasoning=c.with_reasoning,
        scores_by_id=c.by_id,
        panels=panel_agreements(levels),
        vrc_steps=vrc_steps_score(c, options, label),
    )


def _compare(a: ModelSummary, b: ModelSummary, options: SummaryOptions) -> Comparison:
    shared = [q for q in a.scores_by_id if q in b.scores_by_id]
    if not shared:
        return Comparison(a.model, b.model, 0, None, None, None)
    test = paired_bootstrap(
        [a.scores_by_id[q] for q in shared],
        [b.scores_by_id[q] for q in shared],
        n_resamples=options.n_resamples,
        seed=options.seed,
        label=f"paired|{a.model}|{b.model}",
        level=options.level,
    )
    return Comparison(
        a.model, b.model, test.n, 100.0 * test.difference, test.ci.scaled(100.0), test.p_value
    )


def summarise(
    groups: Iterable[tuple[str, Sequence[Mapping[str, Any]]]],
    options: SummaryOptions | None = None,
    *,
    warnings: Sequence[str] = (),
) -> Summary:
    """The summary of one or more models: ``groups`` is (model name, its records)."""
    options = options or SummaryOptions()
    groups = list(groups)
    if not groups:
        raise UsageError("nothing to summarise: no records")
    models = [summarise_model(name, records, options) for name, records in groups]
    if len(models) == 1:
        pooled = models[0]
    else:
        everything: list[Mapping[str, Any]] = [r for _, records in groups for r in records]
        pooled = summarise_model("all", everything, options)
    ranked = sorted(
        models,
        key=lambda m: (
            m.overall.loose.accuracy is None,
            -(m.overall.loose.accuracy or 0.0),
            m.model,
        ),
    )
    comparisons = [_compare(x, y, options) for x, y in zip(ranked, ranked[1:], strict=False)]
    return Summary(options, models, pooled, [m.model for m in ranked], comparisons, list(warnings))
