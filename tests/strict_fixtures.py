"""What a strict-mode reading case asserts, for the tables of readings in
tests/test_strict_*_readings.py."""

from __future__ import annotations

from typing import Any

from scorers.evaluate import strict

# (evaluator, kwargs, answer, question, score, unsure)
Reading = tuple[str, dict[str, Any], str, str | None, float, bool]


def assert_reading(
    evaluator: str,
    kwargs: dict[str, Any],
    answer: str,
    question: str | None,
    score: float,
    unsure: bool,
) -> None:
    """The answer scores ``score``, and its verdict carries ``uncertain`` exactly
    when ``unsure``."""
    outcome = strict.evaluate(evaluator, kwargs, answer, question)
    assert outcome.score == score, outcome
    assert (outcome.uncertain is not None) == unsure, outcome
