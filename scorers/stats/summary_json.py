"""The summary as the ``--format json`` object: numbers rounded, intervals as lists,
and the settings that say how they were computed."""

from __future__ import annotations

from typing import Any

from scorers.stats import Interval, MeanStd
from scorers.stats.summary_records import BINARISE_NOTE
from scorers.stats.summary_types import (
    MIN_INTERVAL_ITEMS,
    BucketSummary,
    Comparison,
    Estimate,
    ModelSummary,
    PairAgreement,
    RunSpread,
    SummaryOptions,
)


def _r(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _ci(value: Interval | None, digits: int = 4) -> list[float] | None:
    return None if value is None else value.as_list(digits)


def estimate_dict(e: Estimate) -> dict[str, Any]:
    out: dict[str, Any] = {
        "accuracy": _r(e.accuracy),
        "n": e.n,
        "ci95": _ci(e.ci95),
        "total": _r(e.total, 6),
    }
    if 0 < e.n < MIN_INTERVAL_ITEMS:
        out["ci95_note"] = f"fewer than {MIN_INTERVAL_ITEMS} items: the interval is not meaningful"
    return out


def runs_dict(r: RunSpread | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {
        "n_runs": r.n_runs,
        "per_run": [_r(x) for x in r.per_run],
        "mean": _r(r.mean),
        "std": _r(r.std),
    }


def bucket_dict(b: BucketSummary) -> dict[str, Any]:
    out = estimate_dict(b.loose)
    if b.strict is not None:
        out["strict"] = estimate_dict(b.strict)
    if b.runs is not None:
        out["runs"] = runs_dict(b.runs)
    if b.subbuckets:
        out["subbuckets"] = {s.name: bucket_dict(s) for s in b.subbuckets}
    return out


def _mean_std_dict(m: MeanStd) -> dict[str, Any]:
    return {"mean": _r(m.mean, 2), "std": _r(m.std, 2), "n": m.n}


def agreement_dict(p: PairAgreement) -> dict[str, Any]:
    return {
        "a": p.a,
        "b": p.b,
        "n": p.n,
        "agreement": _r(p.agreement),
        "kappa": _r(p.kappa),
        "kappa_ci95": _ci(p.kappa_ci95),
        "confusion": p.confusion,
        **(
            {
                "partial": p.partial,
                "levels": p.levels,
                "weighted_kappa": _r(p.weighted_kappa),
            }
            if p.levels is not None
            else {}
        ),
    }


def model_dict(m: ModelSummary) -> dict[str, Any]:
    flags: dict[str, Any] = {}
    for f in m.flags:
        entry: dict[str, Any] = {
            "rate": _r(f.rate),
            "count": f.count,
            "n": f.n,
            "heuristic": f.heuristic,
            "rubric": f.rubric,
        }
        if f.agreement is not None:
            entry["heuristic_vs_rubric"] = agreement_dict(f.agreement)
            entry["heuristic_vs_rubric"]["disagree"] = f.disagree
        flags[f.kind] = entry
    tokens = None
    if m.tokens is not None:
        tokens = {
            "responses": m.tokens.responses,
            "completion": _mean_std_dict(m.tokens.completion),
            "reasoning": _mean_std_dict(m.tokens.reasoning),
            "total": _mean_std_dict(m.tokens.total),
        }
    o = m.overrides
    return {
        "model": m.model,
        "records": m.records,
        "ungraded": m.ungraded,
        "overall": bucket_dict(m.overall),
        "buckets": {b.name: bucket_dict(b) for b in m.buckets},
        "runs": runs_dict(m.overall.runs),
        "tokens": tokens,
        "agreement": {f"{p.a} vs {p.b}": agreement_dict(p) for p in m.agreement},
        "error_rates": {
            e.source: {
                "n": e.n,
                "errors": e.errors,
                "rate": _r(e.rate),
                "ci95": _ci(e.ci95),
                "false_positive": e.false_positive,
                "false_negative": e.false_negative,
            }
            for e in m.error_rates
        },
        "judge_failures": m.judge_failures,
        "judge_panels": {
            p.judge: {"members": p.members, "n": p.n, "fleiss_kappa": _r(p.fleiss_kappa)}
            for p in m.panels
        },
        "vrc_steps": None
        if m.vrc_steps is None
        else {
            "n": m.vrc_steps.n,
            "steps": _r(m.vrc_steps.steps.accuracy),
            "ci95": _ci(m.vrc_steps.steps.ci95),
            "metrics": {k: _r(v) for k, v in m.vrc_steps.metrics.items()},
        },
        "flags": flags,
        "with_reasoning": m.with_reasoning,
        "overrides": {
            "overridden": o.overridden,
            "changed": o.changed,
            "before": _r(o.before),
            "after": _r(o.after),
            "stale": o.stale,
            "conflicts": o.conflicts,
        },
    }


def leader_dict(rank: int, m: ModelSummary) -> dict[str, Any]:
    out: dict[str, Any] = {"rank": rank, "model": m.model, **estimate_dict(m.overall.loose)}
    if m.overall.strict is not None:
        out["strict"] = estimate_dict(m.overall.strict)
    if m.overall.runs is not None:
        out["runs"] = runs_dict(m.overall.runs)
    if m.tokens is not None:
        out["completion_tokens"] = _mean_std_dict(m.tokens.completion)
        out["reasoning_tokens"] = _mean_std_dict(m.tokens.reasoning)
    return out


def comparison_dict(c: Comparison) -> dict[str, Any]:
    return {
        "a": c.a,
        "b": c.b,
        "n": c.n,
        "difference": _r(c.difference),
        "ci95": _ci(c.ci95),
        "p_value": _r(c.p_value),
    }


def settings_dict(o: SummaryOptions) -> dict[str, Any]:
    return {
        "by": o.by,
        "subtype": o.subtype,
        "seed": o.seed,
        "bootstrap": o.n_resamples,
        "level": o.level,
        "interval": "percentile bootstrap over items; kappa: Fleiss-Cohen-Everitt large-sample",
        "binarise": BINARISE_NOTE,
        "std": "sample standard deviation (n - 1) over runs and responses",
    }
