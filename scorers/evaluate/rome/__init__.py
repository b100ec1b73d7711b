"""rome mode: the reference grader (flageval-baai/ROME-evaluation b6aea4b), quirks included.

``evaluate(evaluator, kwargs, response)`` extracts the answer from the raw
response exactly as the reference does (``scorers.evaluate.rome.extract``) and runs the
evaluator. ``interval_matching`` and ``multi_interval_matching`` follow the
production harness (FlagEvalMM), since the reference never defined them.
Unknown evaluators and kwargs that the reference would crash on raise
:class:`scorers.errors.EvaluatorError` naming the evaluator and the kwarg.

The one departure from ``scorers.records.final_answer`` (the text after the
first ``</think>``, which every other reader grades): the reference never
splits a response, so rome mode extracts from, and sends its LLM judge, the
whole response, think block included. Splitting here would change rome-mode
scores and break byte-identity with the reference (tests/test_rome_parity.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scorers.errors import EvaluatorError, json_type
from scorers.evaluate.memo import MAX_TEXT, Memo, kwargs_key
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.rome import evaluators as _ev
from scorers.evaluate.rome import intervals as _iv
from scorers.evaluate.rome.extract import extract_answer

__all__ = ["EVALUATORS", "evaluate", "evaluate_full", "extract_answer", "judged_text"]

# name -> (function, required kwargs, all kwargs)
EVALUATORS: dict[str, tuple[Callable[..., Any], frozenset[str], frozenset[str]]] = {
    "key_items_matching": (
        _ev.key_items_matching,
        frozenset({"key_items"}),
        frozenset({"key_items", "remove_space"}),
    ),
    "choices_matching": (_ev.choices_matching, frozenset({"label"}), frozenset({"label"})),
    "ordered_list_matching": (
        _ev.ordered_list_matching,
        frozenset({"order"}),
        frozenset({"order"}),
    ),
    "number_matching": (
        _ev.number_matching,
        frozenset({"value_to_match"}),
        frozenset({"value_to_match"}),
    ),
    "location_matching": (
        _ev.location_matching,
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
    "interval_matching": (
        _iv.interval_matching,
        frozenset({"interval", "units"}),
        frozenset({"interval", "units"}),
    ),
    "multi_interval_matching": (
        _iv.multi_interval_matching,
        frozenset({"intervals", "units"}),
        frozenset({"intervals", "units"}),
    ),
}


def check_kwargs(evaluator: str, kwargs: Any) -> Callable[..., Any]:
    """The evaluator's function, after checking the kwargs names as Python's call would."""
    entry = EVALUATORS.get(evaluator)
    # The common case in one step: a dict whose names all fit.
    if entry is not None and type(kwargs) is dict:
        names = kwargs.keys()
        if names <= entry[2] and entry[1] <= names:
            return entry[0]
    if entry is None:
        raise EvaluatorError(
            f"unsupported evaluator {evaluator!r} (known: {', '.join(EVALUATORS)})"
        )
    func, required, allowed = entry
    if not isinstance(kwargs, Mapping):
        raise EvaluatorError(
            f"{evaluator}: evaluator_kwargs must be an object, not {json_type(kwargs)}"
        )
    for name in kwargs:
        if name not in allowed:
            raise EvaluatorError(
                f"{evaluator}: unexpected kwarg {name!r} (accepted: {', '.join(sorted(allowed))})"
            )
    for name in required:
        if name not in kwargs:
            raise EvaluatorError(f"{evaluator}: missing required kwarg {name!r}")
    return func


def judged_text(response: str) -> str:
    """What the reference grades of a response: all of it, never split at ``</think>``."""
    return response


def evaluate_full(
    evaluator: str, kwargs: Mapping[str, Any], response: str, *, kwargs_text: Any = ...
) -> tuple[Outcome, dict[str, int]]:
    """The outcome plus the fields the harness adds to the record (interval evaluators).

    ``kwargs_text`` is ``memo.kwargs_key(kwargs)`` when the caller has it (the
    grader computes it once for both modes)."""
    func = check_kwargs(evaluator, kwargs)
    if not isinstance(response, str):
        raise EvaluatorError(f"{evaluator}: the answer is {json_type(response)}, not text")
    extracted = extract_answer(response)
    # The reference's evaluators read only the extracted answer and the kwargs.
    if len(extracted) > MAX_TEXT:
        kwargs_text = None
    elif kwargs_text is ...:
        kwargs_text = kwargs_key(kwargs)
    if kwargs_text is not None:
        key = (evaluator, kwargs_text, extracted)
        known = _MEMO.get(key)
        if known is not None:
            return known[0], dict(known[1])
    try:
        result = func(extracted, **kwargs)
    except _ev.BadKwarg as exc:
        raise EvaluatorError(f"{evaluator}: kwarg {exc.kwarg!r}: {exc.problem}") from None
    marks: dict[str, int] = result[2] if len(result) == 3 else {}
    outcome = Outcome(score=result[0], extracted=result[1])
    if kwargs_text is not None:
        _MEMO.put(key, (outcome, dict(marks)))
    return outcome, marks


# rome outcomes and marks by (evaluator, kwargs, extracted answer).
_MEMO = Memo()


def evaluate(evaluator: str, kwargs: Mapping[str, Any], response: str) -> Outcome:
    return evaluate_full(evaluator, kwargs, response)[0]
