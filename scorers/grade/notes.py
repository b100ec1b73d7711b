"""What a grade observed and warns about: answers that were not text, unreadable usage.

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
from scorers.io.scores import usage_unreadable


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


def unreadable_usage(records: Iterable[Mapping[str, Any]]) -> list[str]:
    return [str(r.get("question_id")) for r in records if usage_unreadable(r.get("usage"))]


def grading_warnings(notes: Notes, unreadable: list[str], predictions_path: str) -> list[str]:
    warnings = notes.warnings(predictions_path)
    if unreadable:
        warnings.append(
            f"{predictions_path}: {len(unreadable)} prediction(s) with unreadable usage "
            f"(first: {first_ids(unreadable)}): not an object of numeric token counts; counted as "
            "0 tokens in scores.json's averages, as the harness does"
        )
    return warnings
