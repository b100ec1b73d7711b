"""What a grade observed and warns about: answers that were not text, unreadable usage,
negative token counts.

A grade counts each kind of observation with its first ids (:class:`Notes`)
and words one warning per kind at the end, so a run of a million predictions
says "3 answer(s) were not text (first: ...)" once, whichever path graded it
(this process, the grading worker or the streamed grade, whose notes merge).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorers.errors import json_type
from scorers.io.record_checks import FIRST_IDS, first_ids
from scorers.io.scores import negative_counts, usage_unreadable


def kind_of(value: Any) -> str:
    """An answer's kind as JSON names it (:func:`json_type`), NaN and objects said more."""
    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, dict):
        return "an object whose keys are not all inference_N"
    return json_type(value)


class Notes:
    """Counted observations made while grading: per kind, how many and the first ids."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.first: dict[str, list[str]] = {}
        self.types: dict[str, dict[str, None]] = {}

    def add(self, kind: str, where: str, value: Any = None) -> None:
        self.count[kind] = self.count.get(kind, 0) + 1
        first = self.first.setdefault(kind, [])
        if len(first) <= FIRST_IDS:  # one more than shown, so the warning can say "..."
            first.append(where)
        self.types.setdefault(kind, {})[kind_of(value)] = None

    def merge(self, other: Notes) -> None:
        """Add the notes of records graded after this object's."""
        for kind, n in other.count.items():
            self.count[kind] = self.count.get(kind, 0) + n
            first = self.first.setdefault(kind, [])
            first.extend(other.first[kind][: FIRST_IDS + 1 - len(first)])
            self.types.setdefault(kind, {}).update(other.types[kind])

    def __bool__(self) -> bool:
        return bool(self.count)

    def warnings(self, predictions_path: str) -> list[str]:
        out = []
        for kind, n in self.count.items():
            first = first_ids(self.first[kind])
            types = ", ".join(self.types[kind])
            if kind == "not_text":
                out.append(
                    f"{predictions_path}: {n} answer(s) were not text ({types}; first: {first}); "
                    "graded as their JSON text, null as an empty answer"
                )
            elif kind == "list":
                out.append(
                    f"{predictions_path}: {n} answer(s) were a list (first: {first}); "
                    "graded as runs inference_0, inference_1, ... like a multi-run answer"
                )
            elif kind == "release_no_grade":
                out.append(
                    f"{predictions_path}: {n} row(s) whose 'correct' is no score from 0 to 1 "
                    f"({types}; first: {first}): no published grade to audit them against "
                    "(no release verdict, never release_strict_disagree)"
                )
            elif kind == "run_not_text":
                out.append(
                    f"{predictions_path}: {n} run(s) of multi-run answers were not text "
                    f"({types}; first: {first}); graded as their JSON text, null as an empty answer"
                )
        return out


# A prediction's usage as a grade warns about it: (question_id, "") for usage the
# token averages cannot read, (question_id, "usage.FIELD = -5") for a negative count.
UsageNote = tuple[str, str]


def usage_notes(records: Iterable[Mapping[str, Any]], harness_stats: bool) -> list[UsageNote]:
    """The usage a grade warns about: unreadable (only with the harness's token
    averages, which count it as 0) and negative token counts (always)."""
    out: list[UsageNote] = []
    for r in records:
        usage = r.get("usage")
        if usage is None:
            continue
        if harness_stats and usage_unreadable(usage):
            out.append((str(r.get("question_id")), ""))
            continue
        out += [(str(r.get("question_id")), field) for field in negative_counts(usage)]
    return out


def grading_warnings(notes: Notes, usage: list[UsageNote], predictions_path: str) -> list[str]:
    warnings = notes.warnings(predictions_path)
    unreadable = [qid for qid, field in usage if not field]
    if unreadable:
        warnings.append(
            f"{predictions_path}: {len(unreadable)} prediction(s) with unreadable usage "
            f"(first: {first_ids(unreadable)}): not an object of numeric token counts; counted as "
            "0 tokens in scores.json's averages, as the harness does"
        )
    negative = [f"record {qid} {field}" for qid, field in usage if field]
    if negative:
        warnings.append(
            f"{predictions_path}: {len(negative)} negative token count(s) (first: "
            f"{first_ids(negative)}): read as missing, as NaN is: left out of every sum and "
            "average of tokens"
        )
    return warnings
