"""From a model's collected columns to the summary's figures: accuracy with bootstrap
intervals, spread over runs, agreement between verdict sources and within judge
panels, error rates against human overrides, flag rates."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from scorers.judges.parsing import VRC_METRICS
from scorers.records import FLAG_KINDS
from scorers.review import grades_correctness
from scorers.stats import (
    bootstrap_mean_ci,
    cohen_kappa,
    fleiss_kappa,
    mean_std,
    weighted_kappa,
)
from scorers.stats.summary_collect import Collector
from scorers.stats.summary_records import (
    BEHAVIOUR_KINDS,
    HEURISTIC,
    HUMAN,
    REASONING_KINDS,
    RUBRIC,
)
from scorers.stats.summary_types import (
    ErrorRate,
    Estimate,
    FlagRate,
    PairAgreement,
    PanelAgreement,
    RunSpread,
    SummaryOptions,
    VrcSteps,
)


def positions_by_code(codes: np.ndarray, count: int) -> list[np.ndarray]:
    """Positions of each code 0..count-1, by one stable sort (not one scan per group)."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(count + 1))
    return [order[bounds[k] : bounds[k + 1]] for k in range(count)]


def estimate(values: Sequence[float] | np.ndarray, options: SummaryOptions, label: str) -> Estimate:
    """The mean as a percentage with its interval; ``label`` names its own random stream."""
    n = len(values)
    if n == 0:
        return Estimate(0, 0.0, None, None)
    arr = np.asarray(values, dtype=np.float64)
    total = float(arr.sum())
    ci = bootstrap_mean_ci(
        arr, n_resamples=options.n_resamples, seed=options.seed, label=label, level=options.level
    )
    return Estimate(n, total, 100.0 * total / n, ci.scaled(100.0) if ci else None)


def run_spread(totals: Sequence[tuple[np.ndarray, np.ndarray]]) -> RunSpread | None:
    """Accuracy of each run from (sums, counts) of one or more buckets added together."""
    if not totals:
        return None
    width = max(len(sums) for sums, _ in totals)
    sums, counts = np.zeros(width), np.zeros(width)
    for s, c in totals:
        sums[: len(s)] += s
        counts[: len(c)] += c
    per_run = [100.0 * float(a) / float(b) for a, b in zip(sums, counts, strict=True) if b > 0]
    if not per_run:
        return None
    stats = mean_std(per_run)
    return RunSpread(len(per_run), per_run, stats.mean, stats.std)


def pair_agreement(
    a_name: str,
    b_name: str,
    a: np.ndarray,
    b: np.ndarray,
    level: float = 0.95,
    *,
    a_levels: np.ndarray | None = None,
    b_levels: np.ndarray | None = None,
) -> PairAgreement:
    """Agreement of two binarised columns (-1 = no verdict) over items both rated.

    With the 0 / partial / 1 columns (``*_levels``) and a partial verdict on
    either side, the 3 x 3 table and its linearly weighted kappa are added, so
    a judge's 0.5 against a rule's 1 counts as half a disagreement, not as a
    full agreement or a full disagreement after cutting at 0.5.
    """
    both = (a >= 0) & (b >= 0)
    cells = np.bincount(a[both].astype(np.int64) * 2 + b[both].astype(np.int64), minlength=4)
    confusion = [[int(cells[0]), int(cells[1])], [int(cells[2]), int(cells[3])]]
    n = int(cells.sum())
    if n == 0:
        return PairAgreement(a_name, b_name, 0, None, None, None, confusion)
    kappa = cohen_kappa(confusion, level=level)
    agree = 100.0 * (confusion[0][0] + confusion[1][1]) / n
    ci = kappa.ci
    pair = PairAgreement(a_name, b_name, n, agree, kappa.kappa, ci, confusion)
    if a_levels is not None and b_levels is not None:
        la, lb = a_levels[both].astype(np.int64), b_levels[both].astype(np.int64)
        partial = int(((la == 1) | (lb == 1)).sum())
        if partial:
            grid = np.bincount(la * 3 + lb, minlength=9).reshape(3, 3)
            pair.partial = partial
            pair.levels = [[int(x) for x in row] for row in grid]
            pair.weighted_kappa = weighted_kappa(pair.levels)
    return pair


def _is_member(source: str) -> bool:
    """A judge panel member's verdict (``judge:NAME@MODEL``): counted in the panel's kappa."""
    return source.startswith("judge:") and "@" in source


def panel_agreements(levels: Mapping[str, np.ndarray]) -> list[PanelAgreement]:
    """Fleiss' kappa of each panel's members over the items at least two of them scored."""
    members: dict[str, list[str]] = {}
    for source in levels:
        if _is_member(source):
            judge, _, model = source.partition("@")
            members.setdefault(judge, []).append(model)
    out = []
    for judge, models in sorted(members.items()):
        if len(models) < 2:
            continue
        stack = np.stack([levels[f"{judge}@{m}"] for m in models])
        counts = np.stack([(stack == k).sum(axis=0) for k in range(3)], axis=1)
        rated = counts.sum(axis=1) >= 2
        rows = counts[rated]
        kappa = fleiss_kappa(rows.tolist()) if len(rows) else None
        out.append(PanelAgreement(judge, sorted(models), int(rated.sum()), kappa))
    return out


def vrc_steps_score(c: Collector, options: SummaryOptions, label: str) -> VrcSteps | None:
    """VRC-Bench's Steps score over the items its step judge scored, or None if none."""
    if not c.vrc_steps:
        return None
    table = np.asarray(c.vrc_steps, dtype=np.float64)
    per_item = table.mean(axis=1) / 10.0  # the Steps score of one item, 0-1
    return VrcSteps(
        n=len(table),
        steps=estimate(per_item, options, label + "vrc-steps"),
        metrics={name: float(table[:, k].mean()) for k, name in enumerate(VRC_METRICS)},
    )


def _source_order(name: str) -> tuple[int, str]:
    rank = {"rule:rome": 0, "rule:strict": 1}.get(name)
    if rank is not None:
        return (rank, name)
    if name.startswith("rule:"):
        return (2, name)
    if name.startswith("judge:"):
        return (3, name)
    if name == HUMAN:
        return (5, name)
    return (4, name)


def agreements(
    sources: Mapping[str, np.ndarray],
    level: float,
    levels: Mapping[str, np.ndarray] | None = None,
) -> list[PairAgreement]:
    """Every pair of sources that grade correctness (panel members aside), on shared items."""
    names = sorted(
        (s for s in sources if grades_correctness(s) and not _is_member(s)), key=_source_order
    )
    levels = levels or {}
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if a == HUMAN and b.startswith("human:") or b == HUMAN and a.startswith("human:"):
                continue  # the override in force is one of the annotators' own verdicts
            pair = pair_agreement(
                a,
                b,
                sources[a],
                sources[b],
                level,
                a_levels=levels.get(a),
                b_levels=levels.get(b),
            )
            if pair.n:
                out.append(pair)
    return out


def error_rates(
    sources: Mapping[str, np.ndarray], options: SummaryOptions, label: str
) -> list[ErrorRate]:
    """Each machine source against the human override in force, where both gave a verdict."""
    human = sources.get(HUMAN)
    if human is None:
        return []
    out = []
    for name in sorted(sources, key=_source_order):
        if name == HUMAN or name.startswith("human:") or not grades_correctness(name):
            continue
        column = sources[name]
        both = (column >= 0) & (human >= 0)
        n = int(both.sum())
        if n == 0:
            continue
        machine, truth = column[both], human[both]
        wrong = (machine != truth).astype(np.float64)
        ci = bootstrap_mean_ci(
            wrong,
            n_resamples=options.n_resamples,
            seed=options.seed,
            label=f"{label}|err|{name}",
            level=options.level,
        )
        out.append(
            ErrorRate(
                source=name,
                n=n,
                errors=int(wrong.sum()),
                rate=100.0 * float(wrong.mean()),
                ci95=ci.scaled(100.0) if ci else None,
                false_positive=int(((machine == 1) & (truth == 0)).sum()),
                false_negative=int(((machine == 0) & (truth == 1)).sum()),
            )
        )
    return out


def flag_rates(c: Collector, level: float) -> list[FlagRate]:
    """Per flag kind: how often it was raised, by which side, and heuristic vs rubric."""
    kinds = list(BEHAVIOUR_KINDS) + [k for k in FLAG_KINDS if k not in BEHAVIOUR_KINDS]
    kinds += sorted(k for k in c.flag_any if k not in FLAG_KINDS)
    out = []
    graded = len(c.scores) + c.ungraded
    for kind in kinds:
        count = c.flag_any.get(kind, 0)
        n = c.with_reasoning if kind in REASONING_KINDS else graded
        rate = 100.0 * count / n if n else None
        pairs = c.rubric_pairs.get(kind)
        agreement = None
        if pairs:
            arr = np.asarray(pairs, dtype=np.int8)
            agreement = pair_agreement(HEURISTIC, RUBRIC, arr[:, 0], arr[:, 1], level)
        out.append(
            FlagRate(
                kind=kind,
                count=count,
                n=n,
                rate=rate,
                heuristic=c.flag_heuristic.get(kind, 0),
                rubric=c.flag_rubric.get(kind, 0),
                agreement=agreement,
                disagree=c.rubric_disagree.get(kind, 0),
            )
        )
    return out
