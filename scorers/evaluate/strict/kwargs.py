"""The annotation's ``evaluator_kwargs``, checked: each evaluator's required and
allowed names, and lists of strings read as the evaluators take them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorers.errors import EvaluatorError, json_shown, json_type
from scorers.evaluate.rome import EVALUATORS as REFERENCE_EVALUATORS


def fail(evaluator: str, problem: str) -> EvaluatorError:
    return EvaluatorError(f"{evaluator}: {problem}")


# The reference grader's table says which kwargs an annotation may carry; strict mode
# reads the same annotations. Its one relaxation: an interval's units may be left out
# (the production harness's signature requires them; an empty list checks no unit).
_KWARGS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    name: (required, allowed) for name, (_, required, allowed) in REFERENCE_EVALUATORS.items()
}
for _name, _bounds in (("interval_matching", "interval"), ("multi_interval_matching", "intervals")):
    _KWARGS[_name] = (frozenset({_bounds}), _KWARGS[_name][1])


def check_kwargs(evaluator: str, kwargs: Mapping[str, Any]) -> None:
    if type(kwargs) is dict:  # the common case, without the ABC check
        names = kwargs.keys()
        if names <= _KWARGS[evaluator][1] and _KWARGS[evaluator][0] <= names:
            return
    if not isinstance(kwargs, Mapping):
        raise fail(evaluator, f"evaluator_kwargs must be an object, got {json_type(kwargs)}")
    required, allowed = _KWARGS[evaluator]
    keys = kwargs.keys()
    if keys <= allowed and required <= keys:
        return
    unknown = sorted(map(str, keys - allowed))
    if unknown:
        # Name what the evaluator does take: "unknown value" alone leaves the user to
        # guess that the key is spelled value_to_match.
        named = ", ".join(repr(u) for u in unknown)
        takes = ", ".join(sorted(allowed))
        raise fail(evaluator, f"unknown evaluator_kwargs {named} ({evaluator} takes {takes})")
    missing = sorted(required - keys)
    raise fail(evaluator, f"missing evaluator_kwargs {', '.join(missing)}")


def strings(evaluator: str, name: str, value: Any, *, allow_str: bool = True) -> list[str]:
    """A list of non-empty strings; a bare string is one candidate, not its letters."""
    if isinstance(value, str) and allow_str:
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise fail(evaluator, f"{name} must be a list of strings, got {json_shown(value, 80)}")
    return [v for v in value if v.strip()]
