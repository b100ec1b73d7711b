"""Runs rome-tui did not grade, read for review like its own.

The reference grader's ``updated_predictions.json``, a production-harness
``*_evaluated.json`` and BAAI/ROME-Evaluated rows carry a ``correct`` but no
``review``: their ``correct`` becomes a ``rule:rome`` (or ``judge:rome``)
verdict, and the settings they were graded with are guessed from their fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from scorers.io.run_settings import RunSettings
from scorers.io.scores import REJECTED_KEY
from scorers.records import REVIEW_VERSION, Review, Verdict, content_hash

# The production harness's answers that are an API's refusal, not the model's answer.
REJECT_PREFIXES = (
    "Error code",
    "Can not answer because of",
    "Input data may contain inappropriate content",
)


def guess_settings(
    records: Sequence[dict[str, Any]], warnings: list[str], path: str
) -> RunSettings:
    """Settings for a run rome-tui did not grade: the reference's defaults, or the harness's buckets."""
    has_task = any("task" in r for r in records[:1000])
    has_image_type = any("image_type" in r for r in records[:1000])
    if not has_task and has_image_type:
        settings = RunSettings(
            mode="rome", tracker_type="image_type", tracker_subtype="image_subtype"
        )
    else:
        settings = RunSettings(mode="rome")
    warnings.append(
        f"{path}: no run settings found; assuming rome mode with buckets by "
        f"{settings.tracker_type}"
        + (f"/{settings.tracker_subtype}" if settings.tracker_subtype else "")
    )
    return settings


def imported_review(record: dict[str, Any]) -> Review:
    """A review for a record graded elsewhere: its ``correct`` as the verdict it came from."""
    review = Review(version=REVIEW_VERSION, mode="rome", verdicts=[], flags=[], history=[])
    score = record.get("correct")
    if isinstance(score, bool):
        score = int(score)
    judged = record.get("judgement_response")
    extracted = record.get("answer")
    if isinstance(score, (int, float)):
        source = "judge:rome" if judged else "rule:rome"
        verdict = Verdict(
            source=source,
            score=score,
            extracted=extracted if isinstance(extracted, str) else None,
            explanation="imported from a reference grader output",
        )
        if judged:
            verdict["raw"] = str(judged)
        review["verdicts"] = [verdict]
        review["primary"] = source
    else:
        raw = record.get("raw_answer", record.get("answer"))
        if isinstance(raw, str) and raw.startswith(REJECT_PREFIXES):
            cast(dict[str, Any], review)[REJECTED_KEY] = raw[:80]
        review["primary"] = "rule:rome"
    review["content_hash"] = content_hash(record)
    return review


def an_annotation(record: dict[str, Any]) -> bool:
    """Whether a record is an annotation (named where graded results were expected)."""
    return "evaluator" in record and not ({"answer", "response"} & record.keys())
