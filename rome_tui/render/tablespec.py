"""The summary's tables as plain rows of text, defined once for every output.

Rich (terminal and review app), Markdown and LaTeX all render these same
:class:`TableSpec` objects, so a number cannot differ between formats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rome_tui.textsafe import one_line
from scorers.stats import Interval
from scorers.stats.summary import (
    BEHAVIOUR_KINDS,
    BINARISE_NOTE,
    MIN_INTERVAL_ITEMS,
    BucketSummary,
    Estimate,
    ModelSummary,
    Summary,
)

FLAG_HEADINGS: dict[str, str] = {
    # Short, after LRM-Eval's column names, so the table fits a terminal.
    "answer_contradicts_reasoning": "Incons. ans.",
    "hedged_reasoning_certain_answer": "Incons. cert.",
    "claims_web_search": "Claimed search",
    "claims_tool_use": "Claimed tools",
    "abstained": "Abstained",
    "reasoning_abstains_answer_does_not": "Abstains in trace",
}


@dataclass
class TableSpec:
    key: str  # stable id: "leaderboard", "buckets", ...
    title: str
    columns: list[str]
    rows: list[list[str]]
    numeric: list[bool]  # right-align (and in LaTeX, "r") per column
    note: str = ""
    sections: list[int] = field(default_factory=list)  # row indices that start a new group


# Model, bucket, source and flag names come from the results files. Every
# renderer draws them through :func:`shown`, so a name cannot clear, move or
# retitle the terminal it is printed on (controls become visible pictures).
NAME_LIMIT = 200
TEXT_LIMIT = 4000  # titles, notes and warnings, which hold names among fixed words


def shown(text: object, limit: int = NAME_LIMIT) -> str:
    """``text`` as one printable line: controls made visible, cut at ``limit``."""
    return one_line(str(text), limit)


def shown_spec(spec: TableSpec) -> TableSpec:
    """The spec with every title, heading, cell and note passed through :func:`shown`."""
    return replace(
        spec,
        title=shown(spec.title, TEXT_LIMIT),
        columns=[shown(c) for c in spec.columns],
        rows=[[shown(c) for c in row] for row in spec.rows],
        note=shown(spec.note, TEXT_LIMIT),
    )


def pct(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def ci(value: Interval | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    low, high = round(value.low, digits) + 0.0, round(value.high, digits) + 0.0  # no "-0.0"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def num(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def mean_pm(mean: float | None, std: float | None, digits: int = 1) -> str:
    if mean is None:
        return "–"
    return f"{mean:,.{digits}f}" if std is None else f"{mean:,.{digits}f} ± {std:,.{digits}f}"


def p_value(value: float | None) -> str:
    if value is None:
        return "–"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def kappa(value: float | None) -> str:
    return "–" if value is None else f"{round(value, 3) + 0.0:.3f}"  # + 0.0: no "-0.000"


# A bootstrap interval over fewer items than MIN_INTERVAL_ITEMS is not shown: with 1-4
# items the resampled means take only a handful of values and the "interval" says nothing.
SMALL_NOTE = f"n<{MIN_INTERVAL_ITEMS}"
SMALL_EXPLAINED = (
    f"{SMALL_NOTE}: fewer than {MIN_INTERVAL_ITEMS} items, an interval would not be meaningful."
)


def bucket_ci(e: Estimate | None) -> str:
    if e is not None and 0 < e.n < MIN_INTERVAL_ITEMS:
        return SMALL_NOTE
    return ci(None if e is None else e.ci95)


def _small(n: int) -> bool:
    return 0 < n < MIN_INTERVAL_ITEMS


def _has_small(models: Sequence[ModelSummary]) -> bool:
    def small(b: BucketSummary) -> bool:
        return 0 < b.loose.n < MIN_INTERVAL_ITEMS or any(small(s) for s in b.subbuckets)

    return any(small(b) for m in models for b in m.buckets)


def _has_strict(models: Sequence[ModelSummary]) -> bool:
    return any(m.overall.strict is not None for m in models)


def _has_runs(models: Sequence[ModelSummary]) -> bool:
    return any(m.overall.runs is not None for m in models)


def _has_tokens(models: Sequence[ModelSummary]) -> bool:
    return any(m.tokens is not None for m in models)


def leaderboard(summary: Summary) -> TableSpec:
    models = [summary.model(name) for name in summary.leaderboard]
    columns = ["#", "Model", "n", "Accuracy (%)", "95% CI"]
    numeric = [True, False, True, True, True]
    if _has_strict(models):
        columns += ["Strict (%)", "Strict 95% CI"]
        numeric += [True, True]
    if _has_runs(models):
        columns += ["Runs: mean ± std"]
        numeric += [True]
    if _has_tokens(models):
        columns += ["Completion tokens", "Reasoning tokens"]
        numeric += [True, True]
    rows = []
    for rank, m in enumerate(models, 1):
        est = m.overall.loose
        # The same "n<5" as the bucket tables, whose "overall" row is this figure.
        row = [str(rank), m.model, str(est.n), pct(est.accuracy), bucket_ci(est)]
        if _has_strict(models):
            strict = m.overall.strict
            row += [pct(strict.accuracy), bucket_ci(strict)] if strict else ["–", "–"]
        if _has_runs(models):
            runs = m.overall.runs
            row += [mean_pm(runs.mean, runs.std) if runs else "–"]
        if _has_tokens(models):
            t = m.tokens
            row += (
                [
                    mean_pm(t.completion.mean, t.completion.std, 0),
                    mean_pm(t.reasoning.mean, t.reasoning.std, 0),
                ]
                if t
                else ["–", "–"]
            )
        rows.append(row)
    note = f"{summary.options.level:.0%} percentile bootstrap intervals over items ({summary.options.n_resamples} resamples, seed {summary.options.seed})."
    if any(_small(m.overall.loose.n) for m in models):
        note += " " + SMALL_EXPLAINED
    if _has_runs(models):
        note += " Runs: accuracy of each inference run, mean ± sample std."
    if _has_tokens(models):
        note += " Tokens per response, mean ± std."
    return TableSpec("leaderboard", "Accuracy", columns, rows, numeric, note)


def comparisons(summary: Summary) -> TableSpec | None:
    if not summary.comparisons:
        return None
    rows = [
        [c.a, c.b, str(c.n), pct(c.difference)]
        + ([SMALL_NOTE, "–"] if _small(c.n) else [ci(c.ci95), p_value(c.p_value)])
        for c in summary.comparisons
    ]
    note = (
        "Difference in accuracy points, with its percentile bootstrap interval over the shared "
        "questions (resampled in pairs); two-sided p: the share of resampled differences at "
        "least as far from the observed one as it is from 0."
    )
    if any(_small(c.n) for c in summary.comparisons):
        note += (
            f" {SMALL_NOTE}: fewer than {MIN_INTERVAL_ITEMS} shared questions, no interval or p."
        )
    return TableSpec(
        "comparisons",
        "Adjacent pairs: paired bootstrap on shared questions",
        ["Model A", "Model B", "Shared", "A − B (pp)", "95% CI", "p"],
        rows,
        [False, False, True, True, True, True],
        note,
    )


def _bucket_cells(b: BucketSummary | None, strict: bool, runs: bool) -> list[str]:
    if b is None:
        return ["–"] * (3 + 2 * strict + runs)
    cells = [str(b.loose.n), pct(b.loose.accuracy), bucket_ci(b.loose)]
    if strict:
        s: Estimate | None = b.strict
        cells += [pct(s.accuracy), bucket_ci(s)] if s else ["–", "–"]
    if runs:
        cells += [mean_pm(b.runs.mean, b.runs.std) if b.runs else "–"]
    return cells


def _bucket_rows(
    models: Sequence[ModelSummary],
) -> tuple[list[tuple[str, str | None]], dict[tuple[str, str, str | None], BucketSummary]]:
    """Bucket (and sub-bucket) keys in first-seen order, and each model's entry per key."""
    order: list[tuple[str, str | None]] = []
    seen: set[tuple[str, str | None]] = set()
    lookup: dict[tuple[str, str, str | None], BucketSummary] = {}
    for m in models:
        for b in m.buckets:
            lookup[(m.model, b.name, None)] = b
            keys: list[tuple[str, str | None]] = [(b.name, None)]
            for s in b.subbuckets:
                lookup[(m.model, b.name, s.name)] = s
                keys.append((b.name, s.name))
            for key in keys:
                if key not in seen:
                    seen.add(key)
                    order.append(key)
    return order, lookup


def _label(bucket: str, sub: str | None) -> str:
    return bucket if sub is None else f"  {bucket} / {sub}"


def buckets(summary: Summary) -> list[TableSpec]:
    """Accuracy per bucket (and sub-bucket).

    One model: n, accuracy, interval, strict and runs side by side. Several:
    a bucket-by-model matrix of "accuracy [interval]" (the paper's layout),
    and a second matrix for strict accuracy when there is one.
    """
    models = [summary.model(name) for name in summary.leaderboard]
    strict, runs = _has_strict(models), _has_runs(models)
    order, lookup = _bucket_rows(models)
    by = summary.options.by
    if len(models) == 1:
        m = models[0]
        block = (
            ["n", "Acc. (%)", "95% CI"]
            + (["Strict (%)", "Strict CI"] if strict else [])
            + (["Runs: mean ± std"] if runs else [])
        )
        rows = [
            [_label(b, s)] + _bucket_cells(lookup.get((m.model, b, s)), strict, runs)
            for b, s in order
        ]
        rows.append(["overall"] + _bucket_cells(m.overall, strict, runs))
        return [
            TableSpec(
                "buckets",
                f"Accuracy by {by}",
                [by] + block,
                rows,
                [False] + [True] * len(block),
                SMALL_EXPLAINED if _has_small(models) else "",
                sections=[len(rows) - 1],
            )
        ]

    def matrix(key: str, title: str, pick_strict: bool) -> TableSpec:
        def cell(b: BucketSummary | None) -> str:
            e = None if b is None else (b.strict if pick_strict else b.loose)
            return "–" if e is None or e.accuracy is None else f"{pct(e.accuracy)} {bucket_ci(e)}"

        rows = [
            [_label(b, s)] + [cell(lookup.get((m.model, b, s))) for m in models] for b, s in order
        ]
        rows.append(["overall"] + [cell(m.overall) for m in models])
        return TableSpec(
            key,
            title,
            [by] + [m.model for m in models],
            rows,
            [False] + [True] * len(models),
            "Accuracy (%) [95% bootstrap interval]."
            + (" " + SMALL_EXPLAINED if _has_small(models) else ""),
            sections=[len(rows) - 1],
        )

    specs = [matrix("buckets", f"Accuracy by {by}", False)]
    if strict:
        specs.append(matrix("buckets_strict", f"Strict accuracy by {by}", True))
    return specs


def _agreement_table(m: ModelSummary, key: str, title: str) -> TableSpec | None:
    rows = []
    partial = any(p.levels is not None for p in m.agreement)
    for p in m.agreement:
        (a00, a01), (a10, a11) = p.confusion
        row = [
            p.a,
            p.b,
            str(p.n),
            pct(p.agreement),
            kappa(p.kappa),
            SMALL_NOTE if _small(p.n) else ci(p.kappa_ci95, 3),
            f"{a00}/{a01}/{a10}/{a11}",
        ]
        if partial:
            row += [str(p.partial), kappa(p.weighted_kappa)]
        rows.append(row)
    if not rows:
        return None
    note = BINARISE_NOTE + ". 00/01/10/11: counts of (A, B) = (0,0)/(0,1)/(1,0)/(1,1)."
    note += " κ: Cohen's; its interval the large-sample one (Fleiss, Cohen and Everitt 1969)."
    if any(p.kappa is None for p in m.agreement):
        note += " κ –: both sources gave one and the same value on every item."
    if any(_small(p.n) for p in m.agreement):
        note += f" {SMALL_NOTE}: fewer than {MIN_INTERVAL_ITEMS} items, no interval."
    if partial:
        note += (
            " Partial: items where a verdict gave partial credit; weighted κ keeps it "
            "(0 / partial / 1, linear weights: 0 against partial is half a disagreement)."
        )
    if m.judge_failures:
        failed = ", ".join(f"{name} {count}" for name, count in m.judge_failures.items())
        note += f" Failed or unparsable verdicts, left out: {failed}."
    columns = ["Source A", "Source B", "n", "Agreement (%)", "κ", "κ 95% CI", "00/01/10/11"]
    if partial:
        columns += ["Partial", "Weighted κ"]
    return TableSpec(
        key,
        title,
        columns,
        rows,
        [False, False] + [True] * (len(columns) - 2),
        note,
    )


def agreement(summary: Summary) -> list[TableSpec]:
    """Agreement of every pair of verdict sources: all models together, then each model."""
    title = "Agreement between verdict sources"
    if len(summary.models) == 1:
        only = _agreement_table(summary.models[0], "agreement", title)
        return [only] if only else []
    specs = [_agreement_table(summary.pooled, "agreement", f"{title}: all models")]
    for name in summary.leaderboard:
        specs.append(_agreement_table(summary.model(name), f"agreement:{name}", f"{title}: {name}"))
    return [s for s in specs if s is not None]


def error_rates(summary: Summary) -> TableSpec | None:
    models = [summary.model(name) for name in summary.leaderboard]
    multi = len(models) > 1
    rows = []
    for m in ([summary.pooled] if multi else []) + models:
        for e in m.error_rates:
            rows.append(
                ([m.model] if multi else [])
                + [
                    e.source,
                    str(e.n),
                    str(e.errors),
                    pct(e.rate),
                    SMALL_NOTE if _small(e.n) else ci(e.ci95),
                    str(e.false_positive),
                    str(e.false_negative),
                ]
            )
    if not rows:
        return None
    columns = (["Model"] if multi else []) + [
        "Source",
        "Overridden",
        "Wrong",
        "Error rate (%)",
        "95% CI",
        "False +",
        "False −",
    ]
    return TableSpec(
        "error_rates",
        "Machine verdicts against human overrides",
        columns,
        rows,
        ([False] if multi else []) + [False] + [True] * 6,
        "Over items a human overrode (not a random sample: reviewers open flagged items first). "
        + BINARISE_NOTE
        + "."
        + (
            f" {SMALL_NOTE}: fewer than {MIN_INTERVAL_ITEMS} overrides, no interval."
            if any(_small(e.n) for m in models for e in m.error_rates)
            else ""
        ),
    )


def flags(summary: Summary) -> TableSpec:
    models = [summary.model(name) for name in summary.leaderboard]
    kinds = list(BEHAVIOUR_KINDS)
    rows = []
    for m in models:
        rates = {f.kind: f for f in m.flags}
        row = [m.model, str(m.with_reasoning)]
        for kind in kinds:
            f = rates.get(kind)
            row.append(pct(f.rate) if f else "–")
        rows.append(row)
    return TableSpec(
        "flags",
        "Behaviour flags (% of items)",
        ["Model", "Traces"] + [FLAG_HEADINGS[k] for k in kinds],
        rows,
        [False] + [True] * (1 + len(kinds)),
        "% of items flagged by any source. Traces: items with a reasoning trace, the denominator of every kind but Abstained (all items).",
    )


def flag_agreement(summary: Summary) -> TableSpec | None:
    models = [summary.model(name) for name in summary.leaderboard]
    rows = []
    for m in models:
        for f in m.flags:
            a = f.agreement
            if a is None or not (f.heuristic or f.rubric):
                continue
            (a00, a01), (a10, a11) = a.confusion
            rows.append(
                [
                    m.model,
                    FLAG_HEADINGS.get(f.kind, f.kind),
                    str(a.n),
                    str(a10 + a11),
                    str(a01 + a11),
                    str(f.disagree),
                    pct(a.agreement),
                    kappa(a.kappa),
                    ci(a.kappa_ci95, 3),
                ]
            )
    if not rows:
        return None
    return TableSpec(
        "flag_agreement",
        "Heuristic flags against the LRM-Eval rubric",
        ["Model", "Flag", "n", "Heuristic", "Rubric", "Disagree", "Agreement (%)", "κ", "κ 95% CI"],
        rows,
        [False, False, True, True, True, True, True, True, True],
        "Over items the rubric judge answered. Disagree: items flagged heuristic_rubric_disagree "
        "on that kind (filter flag:heuristic_rubric_disagree in the review app).",
    )


def other_flags(summary: Summary) -> TableSpec | None:
    """Counts of the review flags (verdict disagreements, judge problems, overrides): kind by model."""
    models = [summary.model(name) for name in summary.leaderboard]
    kinds: list[str] = []
    for m in models:
        for f in m.flags:
            if f.kind not in BEHAVIOUR_KINDS and f.count and f.kind not in kinds:
                kinds.append(f.kind)
    if not kinds:
        return None
    counts = {m.model: {f.kind: f.count for f in m.flags} for m in models}
    rows = [[kind] + [str(counts[m.model].get(kind, 0)) for m in models] for kind in kinds]
    rows.append(["items"] + [str(m.records) for m in models])
    return TableSpec(
        "other_flags",
        "Review flags (items flagged)",
        ["Flag"] + [m.model for m in models],
        rows,
        [False] + [True] * len(models),
        sections=[len(rows) - 1],
    )


def overrides(summary: Summary) -> TableSpec | None:
    """How the human overrides moved each model's accuracy (and what still needs a look)."""
    models = [summary.model(name) for name in summary.leaderboard]
    if not any(
        m.overrides.overridden or m.overrides.stale or m.overrides.conflicts for m in models
    ):
        return None
    rows = []
    for m in models:
        o = m.overrides
        change = None if o.before is None or o.after is None else o.after - o.before
        rows.append(
            [
                m.model,
                str(o.overridden),
                str(o.changed),
                pct(o.before, 2),
                pct(o.after, 2),
                "–" if change is None else f"{change:+.2f}",
                str(o.stale),
                str(o.conflicts),
            ]
        )
    return TableSpec(
        "overrides",
        "Human overrides",
        [
            "Model",
            "Overridden",
            "Changed",
            "Before (%)",
            "After (%)",
            "Change (pp)",
            "Stale",
            "Conflicts",
        ],
        rows,
        [False] + [True] * 7,
        "Before: the model's accuracy with the primary machine verdict in place of every "
        "override; after: with the overrides (the accuracy table's figure).",
    )


def vrc_steps(summary: Summary) -> TableSpec | None:
    """VRC-Bench's Steps score and its ten metrics, per model."""
    models = [summary.model(name) for name in summary.leaderboard]
    judged = [m for m in models if m.vrc_steps is not None]
    if not judged:
        return None
    names = list(next(iter(judged)).vrc_steps.metrics)  # type: ignore[union-attr]
    rows = []
    for m in judged:
        v = m.vrc_steps
        assert v is not None
        rows.append(
            [m.model, str(v.n), pct(v.steps.accuracy, 2), bucket_ci(v.steps)]
            + [f"{v.metrics[k]:.2f}" for k in names]
        )
    return TableSpec(
        "vrc_steps",
        "VRC-Bench reasoning steps (judge vrc-steps)",
        ["Model", "n", "Steps (0-100)", "95% CI"] + names,
        rows,
        [False] + [True] * (3 + len(names)),
        "Steps: mean over items of the mean of the ten metrics, times 10 (the paper's headline "
        "figure; its code averages the judge's own Overall Score instead). Metrics: means on the "
        "judge's 1-10 scale, higher is better for every one.",
    )


def panels(summary: Summary) -> TableSpec | None:
    """Inter-judge agreement of each judge panel (Fleiss' kappa), per model."""
    rows = []
    for name in summary.leaderboard:
        for p in summary.model(name).panels:
            rows.append([name, p.judge, ", ".join(p.members), str(p.n), kappa(p.fleiss_kappa)])
    if not rows:
        return None
    return TableSpec(
        "judge_panels",
        "Judge panels: agreement between judge models",
        ["Model", "Judge", "Panel", "n", "Fleiss' κ"],
        rows,
        [False, False, False, True, True],
        "Over items at least two panel members scored, verdicts as 0 / partial / 1.",
    )


def all_tables(summary: Summary) -> list[TableSpec]:
    specs = [
        leaderboard(summary),
        comparisons(summary),
        *buckets(summary),
        vrc_steps(summary),
        *agreement(summary),
        panels(summary),
        error_rates(summary),
        overrides(summary),
        flags(summary),
        flag_agreement(summary),
        other_flags(summary),
    ]
    return [s for s in specs if s is not None]
