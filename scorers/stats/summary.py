"""A run's numbers: accuracy with intervals, spread over runs, agreement, flags, tokens.

:func:`summarise` turns graded records (one group per model) into a
:class:`Summary`; :meth:`Summary.to_dict` is the ``--format json`` object and
the other formats and the review app render the same object, so every view
shows the same numbers.

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
from itertools import chain
from typing import Any

import numpy as np
import orjson

from scorers.errors import UsageError
from scorers.judges.parsing import VRC_METRICS
from scorers.records import FLAG_KINDS, HEURISTIC_FLAG_KINDS, REVIEW_KEY, has_reasoning
from scorers.review import grades_correctness, human_score, machine_score
from scorers.stats import (
    DEFAULT_RESAMPLES,
    Interval,
    MeanStd,
    bootstrap_mean_ci,
    cohen_kappa,
    fleiss_kappa,
    mean_std,
    paired_bootstrap,
    weighted_kappa,
)

THRESHOLD = 0.5
BINARISE_NOTE = (
    "Scores binarised at 0.5 (score >= 0.5 counts as correct) for agreement and error rates"
)
HUMAN = "human"
RUBRIC = "judge:rubric"
VRC_STEPS = "judge:vrc-steps"
HEURISTIC = "heuristic"
DISAGREE = "heuristic_rubric_disagree"  # names the kinds in its disagree_on

# The behaviour columns of LRM-Eval's tables, in their order, then the rest.
BEHAVIOUR_KINDS: tuple[str, ...] = tuple(
    kind for kind in HEURISTIC_FLAG_KINDS if kind != "judge_prompt_injection"
)
# Kinds that only a reasoning trace can show: their rate is over items that have one,
# as LRM-Eval leaves models without a visible trace out of those columns.
REASONING_KINDS = frozenset(
    {
        "answer_contradicts_reasoning",
        "hedged_reasoning_certain_answer",
        "claims_web_search",
        "claims_tool_use",
        "reasoning_abstains_answer_does_not",
    }
)
# The kinds the LRM-Eval rubric asks about (questions 2, 4, 6 and 7), so the only
# ones where heuristic and rubric flags can be compared.
RUBRIC_KINDS: tuple[str, ...] = (
    "answer_contradicts_reasoning",
    "hedged_reasoning_certain_answer",
    "claims_web_search",
    "claims_tool_use",
)


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


@dataclass
class Summary:
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


# --- reading a record -----------------------------------------------------------------


def _number(value: Any) -> float | None:
    kind = type(value)  # exact type checks first: this runs several times per record
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is int or kind is bool:
        return float(value)
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    return None


def _decoded(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in ("[", "{"):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return None
    return value


def bucket_key(value: Any) -> str:
    """The reference's ``value or "all"``, as text (JSON text for unhashable values)."""
    if not value:
        return "all"
    if isinstance(value, str):
        return value
    if isinstance(value, (list, dict)):
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()
    return str(value)


def _usages(value: Any) -> list[dict[str, Any]]:
    value = _decoded(value)
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list):
        return [u for u in (_decoded(v) for v in value) if isinstance(u, dict)]
    return []


def _reasoning_tokens(usage: Mapping[str, Any]) -> float | None:
    details = usage.get("completion_tokens_details")
    if isinstance(details, dict):
        found = _number(details.get("reasoning_tokens"))
        if found is not None:
            return found
    return _number(usage.get("reasoning_tokens"))


def _binary(score: float | None) -> int:
    return -1 if score is None else int(score >= THRESHOLD)


def pair_key(record: Mapping[str, Any]) -> str:
    """The id that pairs a question across models.

    A file holding several models needs ids unique per record, so they are often
    written ``<model>/<question_id>``; that prefix is dropped when it is the
    record's own ``model``, so the same question pairs up across models.
    """
    qid = record.get("question_id")
    if type(qid) is not str:
        qid = str(qid)
    model = record.get("model")
    if model and isinstance(model, str) and qid.startswith(model + "/"):
        return qid[len(model) + 1 :]
    return qid


def group_by_model(
    records: Sequence[dict[str, Any]], fallback: str
) -> list[tuple[str, list[dict[str, Any]]]]:
    """Split records by their ``model`` field; records without one get ``fallback``.

    A BAAI/ROME-Evaluated export holds many models in one file; a rome-tui
    results directory usually holds one and no ``model`` field.
    """
    groups: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        name = record.get("model")
        key = name if isinstance(name, str) and name else fallback
        groups.setdefault(key, []).append(record)
    return list(groups.items())


# --- one model ------------------------------------------------------------------------


class _Collector:
    """One pass over the records, keeping only what the statistics need."""

    def __init__(self, n: int, options: SummaryOptions) -> None:
        self.options = options
        self.n = n
        # Per graded record: score, bucket code, sub-bucket code; strict only where given.
        self.scores: list[float] = []
        self.codes: list[int] = []
        self.sub_codes: list[int] = []
        self.strict_at: dict[int, float] = {}  # position in ``scores`` -> correct_strict
        self.buckets: dict[str, int] = {}  # bucket name -> code, in first-seen order
        self.subs: dict[tuple[str, str], int] = {}
        # Bucket -> the ``inference_scores`` list of each of its questions.
        self.run_rows: dict[str, list[list[Any]]] = {}
        self.completion: list[float] = []
        self.reasoning: list[float] = []
        self.total_tokens: list[float] = []
        self.responses = 0
        self.hits: dict[str, tuple[list[int], list[bool], list[float]]] = {}
        self.vrc_steps: list[list[float]] = []  # per item judged: its ten metric scores
        self.judge_failures: dict[str, int] = {}
        self.flag_any: dict[str, int] = dict.fromkeys(FLAG_KINDS, 0)
        self.flag_heuristic: dict[str, int] = dict.fromkeys(FLAG_KINDS, 0)
        self.flag_rubric: dict[str, int] = dict.fromkeys(FLAG_KINDS, 0)
        # Per behaviour kind, per item that the rubric judged: (heuristic flagged, rubric flagged).
        self.rubric_pairs: dict[str, list[tuple[int, int]]] = {k: [] for k in RUBRIC_KINDS}
        self.rubric_disagree: dict[
            str, int
        ] = {}  # kind -> items flagged heuristic_rubric_disagree on it
        self.with_reasoning = 0
        self._rubric_ran = False  # set per record by _add_verdicts, read by _add_flags
        self.ungraded = 0
        self.overridden = 0
        self.changed = 0
        self.before: list[float] = []
        self.stale = 0
        self.conflicts = 0
        self.by_id: dict[str, float] = {}

    def _mark(self, name: str, i: int, value: float) -> None:
        hits = self.hits.get(name)
        if hits is None:
            hits = self.hits[name] = ([], [], [])
        hits[0].append(i)
        hits[1].append(value >= THRESHOLD)
        hits[2].append(value)

    def source_columns(self) -> dict[str, np.ndarray]:
        """Per verdict source, one binarised verdict per record: 1, 0, or -1 for none."""
        columns = {}
        for name, (rows, values, _raw) in self.hits.items():
            column = np.full(self.n, -1, dtype=np.int8)
            column[np.asarray(rows, dtype=np.int64)] = np.asarray(values, dtype=np.int8)
            columns[name] = column
        return columns

    def source_levels(self) -> dict[str, np.ndarray]:
        """Per verdict source, one verdict per record as 0, 1 (partial) or 2; -1 for none."""
        columns = {}
        for name, (rows, _binary, raw) in self.hits.items():
            values = np.asarray(raw, dtype=np.float64)
            levels = np.where(values <= 0.0, 0, np.where(values >= 1.0, 2, 1)).astype(np.int8)
            column = np.full(self.n, -1, dtype=np.int8)
            column[np.asarray(rows, dtype=np.int64)] = levels
            columns[name] = column
        return columns

    def add(self, i: int, record: Mapping[str, Any]) -> None:
        options = self.options
        value = record.get(options.by)
        bucket = value if type(value) is str and value else bucket_key(value)  # fast path
        sub = bucket_key(record.get(options.subtype)) if options.subtype else None
        review = record.get(REVIEW_KEY)
        review = review if isinstance(review, dict) else {}
        score = _number(record.get("correct"))
        code = self.buckets.get(bucket)
        if code is None:  # a bucket of ungraded items still shows, with n = 0
            code = self.buckets[bucket] = len(self.buckets)
        if score is None:
            self.ungraded += 1
        else:
            if sub is not None:
                sub_code = self.subs.get((bucket, sub))
                if sub_code is None:
                    sub_code = self.subs[(bucket, sub)] = len(self.subs)
                self.sub_codes.append(sub_code)
            strict = record.get("correct_strict")
            if strict is not None:
                strict = _number(strict)
                if strict is not None:
                    self.strict_at[len(self.scores)] = strict
            self.scores.append(score)
            self.codes.append(code)
            self.by_id[pair_key(record)] = score
            self._add_runs(record, bucket)
        self._add_usage(record.get("usage"))
        self._add_verdicts(i, record, review, score)
        self._add_flags(record, review)

    def _add_runs(self, record: Mapping[str, Any], bucket: str) -> None:
        runs = record.get("inference_scores")
        if runs is None:
            return
        runs = _decoded(runs)
        if isinstance(runs, list) and runs:
            self.run_rows.setdefault(bucket, []).append(runs)

    def run_totals(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Per bucket, per inference run: (sum of scores, number of questions with that run)."""
        out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for bucket, rows in self.run_rows.items():
            width = max(len(row) for row in rows)
            table: np.ndarray | None = None
            if all(len(row) == width for row in rows):
                try:  # the usual case: every question has the same number of numeric runs
                    flat = np.fromiter(
                        chain.from_iterable(rows), dtype=np.float64, count=len(rows) * width
                    )
                    table = flat.reshape(len(rows), width)
                except (TypeError, ValueError):
                    table = None
            if table is None:
                table = np.full((len(rows), width), np.nan)
                for i, row in enumerate(rows):
                    for r, value in enumerate(row):
                        number = _number(value)
                        if number is not None:
                            table[i, r] = number
            present = np.isfinite(table)
            out[bucket] = (np.where(present, table, 0.0).sum(axis=0), present.sum(axis=0))
        return out

    def _add_usage(self, value: Any) -> None:
        if value is None:
            return
        for usage in [value] if type(value) is dict else _usages(value):
            self.responses += 1
            completion = _number(usage.get("completion_tokens"))
            if completion is not None:
                self.completion.append(completion)
            reasoning = _reasoning_tokens(usage)
            if reasoning is not None:
                self.reasoning.append(reasoning)
            total = _number(usage.get("total_tokens"))
            if total is not None:
                self.total_tokens.append(total)

    def _add_verdicts(
        self, i: int, record: Mapping[str, Any], review: Mapping[str, Any], score: float | None
    ) -> None:
        self._rubric_ran = False
        hits = self.hits
        verdicts = review.get("verdicts")
        # A malformed review (a number, a string) is read as no verdicts, not a crash.
        for verdict in verdicts if isinstance(verdicts, list) else ():
            if type(verdict) is not dict:
                continue
            source = verdict.get("source")
            if type(source) is not str:
                continue
            if verdict.get("error"):
                self.judge_failures[source] = self.judge_failures.get(source, 0) + 1
                continue
            if source == RUBRIC:
                self._rubric_ran = True  # a rubric verdict carries flags, not a score
            value = verdict.get("score")
            if type(value) is not float:
                value = _number(value)
                if value is None:
                    continue
            elif value != value or value in (math.inf, -math.inf):
                continue
            found = hits.get(source)
            if found is None:
                found = hits[source] = ([], [], [])
            found[0].append(i)
            found[1].append(value >= THRESHOLD)
            found[2].append(value)
            if source == VRC_STEPS:
                self._add_steps(verdict.get("metrics"))
        before: float | None = score
        if isinstance(review.get("human"), dict):
            # "Before" is what the machine said, the human column only the override in
            # force: a stale one was made on other content (scorers.review owns both).
            before = _number(machine_score(record))
            value = _number(human_score(record))
            if value is not None:
                self._mark(HUMAN, i, value)
                self.overridden += 1
                if before is not None and before != value:
                    self.changed += 1
        if review.get("stale"):
            self.stale += 1
        if review.get("conflict"):
            self.conflicts += 1
        if before is not None:
            self.before.append(before)

    def _add_steps(self, metrics: Any) -> None:
        if not isinstance(metrics, dict):
            return
        values = [_number(metrics.get(name)) for name in VRC_METRICS]
        if all(v is not None for v in values):
            self.vrc_steps.append(values)  # type: ignore[arg-type]

    def _add_flags(self, record: Mapping[str, Any], review: Mapping[str, Any]) -> None:
        reasoning = has_reasoning(record)
        self.with_reasoning += reasoning
        flags = review.get("flags")
        if not isinstance(flags, list):
            flags = ()
        rubric_ran = self._rubric_ran
        if not flags and not rubric_ran:
            return
        kinds: set[str] = set()
        heuristic: set[str] = set()
        rubric: set[str] = set()
        for flag in flags:
            if not isinstance(flag, dict):
                continue
            kind = flag.get("kind")
            if not isinstance(kind, str):
                continue
            kinds.add(kind)
            source = flag.get("source")
            if kind == DISAGREE and isinstance(about := flag.get("disagree_on"), list):
                for other in {k for k in about if type(k) is str and k in RUBRIC_KINDS}:
                    self.rubric_disagree[other] = self.rubric_disagree.get(other, 0) + 1
            elif source == RUBRIC:
                rubric.add(kind)
            elif source == HEURISTIC:
                heuristic.add(kind)
        for kind in kinds:
            self.flag_any[kind] = self.flag_any.get(kind, 0) + 1
        for kind in heuristic:
            self.flag_heuristic[kind] = self.flag_heuristic.get(kind, 0) + 1
        for kind in rubric:
            self.flag_rubric[kind] = self.flag_rubric.get(kind, 0) + 1
        if rubric_ran:
            for kind in RUBRIC_KINDS:
                if kind in REASONING_KINDS and not reasoning:
                    continue
                self.rubric_pairs[kind].append((int(kind in heuristic), int(kind in rubric)))


def _groups(codes: np.ndarray, count: int) -> list[np.ndarray]:
    """Positions of each code 0..count-1, by one stable sort (not one scan per group)."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(count + 1))
    return [order[bounds[k] : bounds[k + 1]] for k in range(count)]


def _estimate(
    values: Sequence[float] | np.ndarray, options: SummaryOptions, label: str
) -> Estimate:
    n = len(values)
    if n == 0:
        return Estimate(0, 0.0, None, None)
    arr = np.asarray(values, dtype=np.float64)
    total = float(arr.sum())
    ci = bootstrap_mean_ci(
        arr, n_resamples=options.n_resamples, seed=options.seed, label=label, level=options.level
    )
    return Estimate(n, total, 100.0 * total / n, ci.scaled(100.0) if ci else None)


def _spread(totals: Sequence[tuple[np.ndarray, np.ndarray]]) -> RunSpread | None:
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


def _panels(levels: Mapping[str, np.ndarray]) -> list[PanelAgreement]:
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


def _vrc_steps(c: _Collector, options: SummaryOptions, label: str) -> VrcSteps | None:
    if not c.vrc_steps:
        return None
    table = np.asarray(c.vrc_steps, dtype=np.float64)
    per_item = table.mean(axis=1) / 10.0  # the Steps score of one item, 0-1
    return VrcSteps(
        n=len(table),
        steps=_estimate(per_item, options, label + "vrc-steps"),
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


def _agreements(
    sources: Mapping[str, np.ndarray],
    level: float,
    levels: Mapping[str, np.ndarray] | None = None,
) -> list[PairAgreement]:
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


def _error_rates(
    sources: Mapping[str, np.ndarray], options: SummaryOptions, label: str
) -> list[ErrorRate]:
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


def _flag_rates(c: _Collector, level: float) -> list[FlagRate]:
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


def summarise_model(
    name: str, records: Sequence[Mapping[str, Any]], options: SummaryOptions
) -> ModelSummary:
    """Every number of one model's records."""
    c = _Collector(len(records), options)
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
            loose=_estimate(scores[rows], options, label + tag),
            strict=None
            if strict is None
            else _estimate(strict[rows], options, label + tag + "|strict"),
        )

    run_totals = c.run_totals()
    overall = block("overall", slice(None), "overall")
    overall.runs = _spread(list(run_totals.values()))
    by_bucket = _groups(np.asarray(c.codes, dtype=np.int64), len(c.buckets))
    by_sub = _groups(np.asarray(c.sub_codes, dtype=np.int64), len(c.subs)) if c.subs else []
    subs_of: dict[str, list[tuple[str, int]]] = {}
    for (bucket, sub), code in c.subs.items():
        subs_of.setdefault(bucket, []).append((sub, code))
    buckets = []
    for bucket, code in c.buckets.items():
        entry = block(bucket, by_bucket[code], bucket)
        entry.runs = _spread([run_totals[bucket]]) if bucket in run_totals else None
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
        agreement=_agreements(sources, options.level, levels),
        error_rates=_error_rates(sources, options, name),
        judge_failures=dict(sorted(c.judge_failures.items())),
        flags=_flag_rates(c, options.level),
        overrides=OverrideEffect(
            c.overridden, c.changed, before, overall.loose.accuracy, c.stale, c.conflicts
        ),
        with_reasoning=c.with_reasoning,
        scores_by_id=c.by_id,
        panels=_panels(levels),
        vrc_steps=_vrc_steps(c, options, label),
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


# --- the JSON object --------------------------------------------------------------------


def _r(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _ci(value: Interval | None, digits: int = 4) -> list[float] | None:
    return None if value is None else value.as_list(digits)


# Below this many items a bootstrap interval is not meaningful (a handful of distinct
# resampled means); the tables show "n<5" and the JSON says so beside the numbers.
MIN_INTERVAL_ITEMS = 5


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
