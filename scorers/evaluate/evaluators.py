"""The evaluator registry: one entry point for every rule evaluator in both modes.

``rome`` mode reproduces the reference grader; ``strict`` mode grades as a careful
human would. Evaluators that the reference never had (``math_matching``) grade the
same in both modes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from scorers.errors import EvaluatorError, json_type
from scorers.evaluate.outcome import Outcome

Mode = Literal["rome", "strict"]
MODES: tuple[Mode, ...] = ("rome", "strict")

RULE_EVALUATORS: tuple[str, ...] = (
    "key_items_matching",
    "choices_matching",
    "ordered_list_matching",
    "number_matching",
    "location_matching",
    "interval_matching",
    "multi_interval_matching",
)
EXTRA_EVALUATORS: tuple[str, ...] = ("math_matching",)
ALL_EVALUATORS: tuple[str, ...] = RULE_EVALUATORS + EXTRA_EVALUATORS


def evaluate(evaluator: str, kwargs: Mapping[str, Any], response: str, mode: Mode) -> Outcome:
    """Grade ``response`` (the text to extract the answer from) for one item.

    Raises :class:`scorers.errors.EvaluatorError` when the evaluator is unknown
    or the kwargs do not fit it.
    """
    if not isinstance(kwargs, Mapping):
        raise EvaluatorError(
            f"{evaluator}: evaluator_kwargs must be an object, not {json_type(kwargs)}"
        )
    if evaluator == "math_matching":
        from scorers.evaluate.mathmatch import math_matching

        return math_matching(response, **kwargs)
    if mode == "rome":
        from scorers.evaluate import rome

        return rome.evaluate(evaluator, kwargs, response)
    from scorers.evaluate import strict

    return strict.evaluate(evaluator, kwargs, response)
