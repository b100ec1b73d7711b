"""scores.json: per-bucket totals in the reference grader's exact format.

The reference (ROME-evaluation ``cal_accuracy``) keeps Python's own number
types, so a bucket whose scores are all ints shows ``1`` and one that ever
received a float shows ``1.0``; bucket accuracies are fractions rounded to 3
places and the overall ``accuracy`` is a percentage rounded to 3 places. A
bucket named ``final_score`` or ``accuracy`` overwrites that header entry in
place. All of this is reproduced here from each record's ``correct``.

Records without a numeric ``correct`` (answers rejected before grading, see
``scorers.grade.grader``) are left out of every count, as the production harness
leaves rejected answers out of its denominator.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:  # only read here: scores.json's format needs nothing else of a run
    from scorers.io.run_settings import RunSettings

REJECTED_KEY = "rejected"  # review[REJECTED_KEY]: why an answer was filtered before grading


class _Tracker:
    __slots__ = ("count", "strict_total", "subtypes", "total")

    def __init__(self) -> None:
        # Start from int 0 exactly as the reference, so int scores stay ints.
        self.total: Any = 0
        self.count = 0
        self.strict_total: Any = 0
        self.subtypes: dict[Any, list[Any]] = {}


def _bucket_key(value: Any) -> Any:
    """The reference's ``value or "all"``; unhashable values become their JSON text.

    The reference crashes on a list or dict bucket value; a grader that gives
    no scores at all helps nobody, so such values get a stable string key.
    """
    if not value:
        return "all"
    try:
        hash(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()
    return value


def _is_score(value: Any) -> bool:
    return isinstance(value, (int, float))


USAGE_FIELDS = ("total_tokens", "prompt_tokens", "completion_tokens")


def _is_count(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def token_count(value: Any) -> Any:
    """A token count as the averages read it: None for anything but a number >= 0 (a
    negative count, warned about by :func:`negative_counts`, is missing, as NaN is)."""
    return value if _is_count(value) and value >= 0 else None


def negative_counts(value: Any) -> list[str]:
    """The token counts of a record's ``usage`` below 0, as "usage.FIELD = VALUE"."""
    usage = value if type(value) is dict else _usage_of(value)
    if not isinstance(usage, dict):
        return []
    return [
        f"usage.{name} = {count}"
        for name in USAGE_FIELDS
        if isinstance(count := usage.get(name), (int, float)) and count < 0
    ]


def _usage_of(value: Any) -> Any:
    """A record's ``usage``, decoding the JSON text of exports; None when unreadable text."""
    if isinstance(value, str):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return None
    return value


def usage_unreadable(value: Any) -> bool:
    """True for a ``usage`` the token averages cannot read and so count as 0.

    Absent or null usage is normal (a response without it); an object missing
    some counts, or with a null count (NaN in the file, see
    ``scorers.io.nonfinite``), is read as it is. Anything else, or a count that
    is not a number, is unreadable.
    """
    if value is None:
        return False
    if type(value) is dict:  # the common case, without decoding or the generic checks
        for name in USAGE_FIELDS:
            count = value.get(name)
            kind = type(count)
            if kind is not int and kind is not float and count is not None and not _is_count(count):
                return True
        return False
    usage = _usage_of(value)
    if not isinstance(usage, dict):
        return True
    return any(usage.get(name) is not None and not _is_count(usage[name]) for name in USAGE_FIELDS)


def compute_scores(
    records: Iterable[Mapping[str, Any]],
    tracker_type: str = "task",
    tracker_subtype: str | None = None,
    *,
    harness_stats: bool = False,
) -> dict[str, Any]:
    """The reference's scores.json structure from each record's ``correct``.

    ``accuracy_strict`` (all-or-nothing credit, from ``correct_strict`` where a
    record has it, else ``correct``) is added after ``accuracy`` and as a fifth
    element of every bucket, only when some record has ``correct_strict``.
    ``harness_stats`` adds the production harness's ``reject_info`` (when
    answers were rejected) and average token usage (when any record has
    ``usage``); rome mode leaves them out to stay byte-identical.
    """
    tally = ScoreTally(tracker_type, tracker_subtype, harness_stats=harness_stats)
    tally.add(records)
    return tally.result()


# What one record adds to a ScoreTally (ScoreTally.row): its token counts (None
# without a usage object; a count that is not a number is None), its score
# (None when it has none), its strict score, whether it has ``correct_strict``,
# its bucket and subtype keys, and whether its answer was rejected.
TallyRow = tuple[tuple[Any, ...] | None, Any, Any, bool, Any, Any, bool]


class ScoreTally:
    """:func:`compute_scores` fed a run at a time, in record order.

    A run graded while it is written (``scorers.grade.run.DeferredRecords``)
    adds each batch as it is done, so the scores are ready with the last one.
    """

    def __init__(
        self, tracker_type: str = "task", tracker_subtype: str | None = None, *, harness_stats: bool
    ) -> None:
        self.tracker_type = tracker_type
        self.tracker_subtype = tracker_subtype
        self.harness_stats = harness_stats
        self.trackers: dict[Any, _Tracker] = {}
        self.n = 0
        self.strict_total: Any = 0
        self.any_strict = False
        self.rejected = 0
        self.usage_sums = [0.0, 0.0, 0.0]
        self.usage_seen = False

    def row(self, record: Mapping[str, Any]) -> TallyRow:
        """What ``record`` adds to the tally, read from it once.

        The grading worker sends these instead of the records it graded, so
        this process tallies in record order without rebuilding them.
        """
        counts: tuple[Any, ...] | None = None
        if self.harness_stats:
            usage = _usage_of(record.get("usage"))
            if isinstance(usage, dict) and usage:
                # Anything else counts as 0, as the harness does (usage_unreadable says so);
                # a negative count is missing, as NaN is (negative_counts says so).
                counts = tuple(token_count(usage.get(name)) for name in USAGE_FIELDS)
        score = record.get("correct")
        if not _is_score(score):
            review = record.get("review")
            rejected = isinstance(review, dict) and bool(review.get(REJECTED_KEY))
            return (counts, None, None, False, None, None, rejected)
        strict = record.get("correct_strict", score)
        if not _is_score(strict):
            strict = score
        bucket = _bucket_key(record.get(self.tracker_type))
        subtype = self.tracker_subtype
        sub = bucket if subtype is None else _bucket_key(record.get(subtype))
        return (counts, score, strict, "correct_strict" in record, bucket, sub, False)

    def add(self, records: Iterable[Mapping[str, Any]]) -> None:
        row = self.row
        self.add_rows([row(record) for record in records])

    def add_rows(self, rows: Iterable[TallyRow]) -> None:
        """Add the rows of records, in record order (float sums depend on it)."""
        trackers = self.trackers
        usage_sums = self.usage_sums
        n = self.n
        strict_total = self.strict_total
        for counts, score, strict, has_strict, bucket, sub, rejected in rows:
            if counts is not None:
                self.usage_seen = True
                for i, value in enumerate(counts):
                    if value is not None:
                        usage_sums[i] += value
            if score is None:
                if rejected:
                    self.rejected += 1
                continue
            n += 1
            if has_strict:
                self.any_strict = True
            strict_total += strict
            tracker = trackers.get(bucket)
            if tracker is None:
                tracker = trackers[bucket] = _Tracker()
            tracker.total += score
            tracker.count += 1
            tracker.strict_total += strict
            entry = tracker.subtypes.get(sub)
            if entry is None:
                entry = tracker.subtypes[sub] = [0, 0, 0]
            entry[0] += score
            entry[1] += 1
        self.n = n
        self.strict_total = strict_total

    def result(self) -> dict[str, Any]:
        """The scores of every record added so far."""
        n, trackers, any_strict = self.n, self.trackers, self.any_strict
        final_score: Any = 0
        for tracker in trackers.values():
            final_score += tracker.total
        results: dict[Any, Any] = {"final_score": [final_score, n]}
        results["accuracy"] = round(final_score / n * 100, 3) if n else 0.0
        if any_strict:
            results["accuracy_strict"] = round(self.strict_total / n * 100, 3) if n else 0.0
        if self.harness_stats and self.rejected:
            total_questions = n + self.rejected
            results["reject_info"] = {
                "reject_rate": round(self.rejected / total_questions * 100, 2),
                "reject_number": self.rejected,
                "total_question": total_questions,
            }
        if self.harness_stats and self.usage_seen and n:
            # The harness divides by every graded record, with or without usage.
            usage_sums = self.usage_sums
            results["average_tokens"] = usage_sums[0] / n
            results["average_prompt_tokens"] = usage_sums[1] / n
            results["average_completion_tokens"] = usage_sums[2] / n
        for bucket, tracker in trackers.items():
            subtypes = {
                sub: [e[0], e[1], round(e[0] / e[1], 3)] for sub, e in tracker.subtypes.items()
            }
            row: list[Any] = [
                tracker.total,
                tracker.count,
                round(tracker.total / tracker.count, 3),
                subtypes,
            ]
            if any_strict:
                row.append(round(tracker.strict_total / tracker.count, 3))
            results[bucket] = row
        return results


def scores_json_bytes(scores: Mapping[Any, Any]) -> bytes:
    """Exactly what the reference's ``json.dump(indent=2, ensure_ascii=False)`` writes."""
    return json.dumps(scores, ensure_ascii=False, indent=2).encode("utf-8")


def scores_of(records: Iterable[dict[str, Any]], settings: RunSettings) -> dict[str, Any]:
    """The scores of a run graded with ``settings`` (its buckets, its harness figures)."""
    return compute_scores(
        records,
        settings.tracker_type,
        settings.tracker_subtype,
        harness_stats=settings.harness_stats,
    )


def tally_of(settings: RunSettings) -> ScoreTally:
    """An empty score tally for a run with ``settings``."""
    return ScoreTally(
        settings.tracker_type, settings.tracker_subtype, harness_stats=settings.harness_stats
    )
