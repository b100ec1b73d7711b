"""The annotation's ``evaluator_kwargs``, checked: each evaluator's required and
allowed names, and lists of strings read as the evaluators take them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorers.errors import EvaluatorError


def fail(evaluator: str, problem: str) -> EvaluatorError:
    return EvaluatorError(f"{evaluator}: {problem}")


_KWARGS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # evaluator: (required, allowed)
    "key_items_matching": (frozenset({"key_items"}), frozenset({"key_items", "remove_space"})),
    "choices_matching": (frozenset({"label"}), frozenset({"label"})),
    "number_matching": (frozenset({"value_to_match"}), frozenset({"value_to_match"})),
    "ordered_list_matching": (frozenset({"order"}), frozenset({"order"})),
    "location_matching": (
        frozenset({"location_fine_grained"}),
        frozenset(
            {
                "location_fine_grained",
                "location_coarse_grained",
                "fine_grained_score",
                "coarse_grained_score",
            }
        ),
    ),
    "interval_matching": (frozenset({"interval"}), frozenset({"interval", "units"})),
    "multi_interval_matching": (frozenset({"intervals"}), frozenset({"intervals", "units"})),
}


def check_kwargs(evaluator: str, kwargs: Mapping[str, Any]) -> None:
    if type(kwargs) is dict:  # the common case, without the ABC check
        names = kwargs.keys()
        if names <= _KWARGS[evaluator][1] and _KWARGS[evaluator][0] <= names:
            return
    if not isinstance(kwargs, Mapping):
        raise fail(evaluator, f"evaluator_kwargs must be an object, got {type(kwargs).__name__}")
    required, allowed = _KWARGS[evaluator]
    keys = kwargs.keys()
    if keys <= allowed and required <= keys:
        return
    unknown = sorted(map(str, keys - allowed))
    if unknown:
        raise fail(evaluator, f"unknown evaluator_kwargs {', '.join(unknown)}")
    missing = sorted(required - keys)
    raise fail(evaluator, f"missing evaluator_kwargs {', '.join(missing)}")


def strings(evaluator: str, name: str, value: Any, *, allow_str: bool = True) -> list[str]:
    """A list of non-empty strings; a bare string is one candidate, not its letters."""
    if isinstance(value, str) and allow_str:
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise fail(evaluator, f"{name} must be a list of strings, got {value!r:.80}")
    return [v for v in value if v.strip()]
