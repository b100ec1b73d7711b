"""math_matching's interface: kwargs, Outcome shape, registry routing."""

from __future__ import annotations

from typing import Any

import pytest

from scorers.errors import EvaluatorError
from scorers.evaluate.evaluators import evaluate
from scorers.evaluate.mathmatch import math_matching


def test_unknown_kwarg_is_an_evaluator_error() -> None:
    with pytest.raises(EvaluatorError, match="unknown kwargs tolerance"):
        math_matching("5", answer="5", tolerance=0.1)


def test_missing_answer_is_an_evaluator_error() -> None:
    with pytest.raises(EvaluatorError, match="'answer'"):
        math_matching("5")


@pytest.mark.parametrize("bad", [["5"], {"a": 1}, True])
def test_answer_must_be_text_or_number(bad: object) -> None:
    kwargs: dict[str, Any] = {"answer": bad}  # as read from an annotations file
    with pytest.raises(EvaluatorError, match="'answer' must be text"):
        math_matching("5", **kwargs)


def test_empty_reference_is_an_evaluator_error() -> None:
    with pytest.raises(EvaluatorError, match="empty"):
        math_matching("5", answer="  ")


def test_numeric_answer_is_accepted() -> None:
    assert math_matching(r"\boxed{0.5}", answer=0.5).strict == 1.0
    assert math_matching(r"\boxed{12}", answer=12).score == 1.0


def test_outcome_has_one_part_per_blank() -> None:
    out = math_matching(
        r"\boxed{1800 mL} \boxed{C} \boxed{2280 cm^2}", answer="(1)1800mL;\n(2)B;\n(3)2280cm^2."
    )
    assert out.extracted == "1800 mL; C; 2280 cm^2"
    assert out.parts is not None and len(out.parts) == 3
    assert [p["reference"] for p in out.parts] == ["1800mL", "B", "2280cm^2"]
    assert [p["predicted"] for p in out.parts] == ["1800 mL", "C", "2280 cm^2"]
    assert [p["score"] for p in out.parts] == [1.0, 0.0, 1.0]
    assert all(set(p) == {"reference", "predicted", "score", "how"} for p in out.parts)
    assert out.score == pytest.approx(2 / 3, abs=1e-4)
    assert out.strict == 0.0
    assert out.note is None


def test_no_answer_scores_zero() -> None:
    out = math_matching("", answer="5")
    assert (out.score, out.strict, out.extracted) == (0.0, 0.0, "")


def test_registry_routes_math_matching_in_both_modes() -> None:
    kwargs = {"answer": "5 or -75", "question_type": "FillInTheBlank"}
    rome = evaluate("math_matching", kwargs, r"\boxed{5}", "rome")
    strict = evaluate("math_matching", kwargs, r"\boxed{5}", "strict")
    assert rome == strict
    assert (rome.score, rome.strict) == (0.5, 0.0)


def test_registry_passes_unknown_kwargs_on_as_error() -> None:
    with pytest.raises(EvaluatorError):
        evaluate("math_matching", {"answer": "1", "unit": "cm"}, "1", "strict")
