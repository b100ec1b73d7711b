"""One pass over a model's records, keeping only the columns the statistics need."""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import chain
from typing import Any

import numpy as np

from scorers.judges.parsing import VRC_METRICS
from scorers.records import FLAG_KINDS, REVIEW_KEY, has_reasoning
from scorers.review import human_score, machine_score
from scorers.stats.summary_records import (
    DISAGREE,
    HEURISTIC,
    HUMAN,
    REASONING_KINDS,
    RUBRIC,
    RUBRIC_KINDS,
    THRESHOLD,
    VRC_STEPS,
    bucket_key,
    decoded,
    number,
    pair_key,
    reasoning_tokens,
    token_count,
    usages,
)
from scorers.stats.summary_types import SummaryOptions


class Collector:
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
        score = number(record.get("correct"))
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
                strict = number(strict)
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
        runs = decoded(runs)
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
                        parsed = number(value)
                        if parsed is not None:
                            table[i, r] = parsed
            present = np.isfinite(table)
            out[bucket] = (np.where(present, table, 0.0).sum(axis=0), present.sum(axis=0))
        return out

    def _add_usage(self, value: Any) -> None:
        if value is None:
            return
        for usage in [value] if type(value) is dict else usages(value):
            self.responses += 1
            completion = token_count(usage.get("completion_tokens"))
            if completion is not None:
                self.completion.append(completion)
            reasoning = reasoning_tokens(usage)
            if reasoning is not None:
                self.reasoning.append(reasoning)
            total = token_count(usage.get("total_tokens"))
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
                value = number(value)
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
            before = number(machine_score(record))
            value = number(human_score(record))
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
        values = [number(metrics.get(name)) for name in VRC_METRICS]
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
