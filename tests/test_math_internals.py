"""The exact evaluator, ranges and units underneath math_matching."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorers.evaluate.mathmatch import math_matching
from scorers.evaluate.mathmatch.numeric import evaluate, same_equation, same_function
from scorers.evaluate.mathmatch.ranges import Interval, parse_range
from scorers.evaluate.mathmatch.units import split_unit


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1/2", Fraction(1, 2)),
        (r"\frac12", Fraction(1, 2)),
        ("1,887,800", Fraction(1887800)),
        ("1 887 800", Fraction(1887800)),
        (r"\sqrt[3]{8}", Fraction(2)),
        ("3(2+1)", Fraction(9)),
        ("50%", Fraction(1, 2)),
        ("2^{-2}", Fraction(1, 4)),
    ],
)
def test_exact_values(text: str, value: Fraction) -> None:
    assert evaluate(text) == value


@pytest.mark.parametrize("text", ["x+1", "1/0", r"\sqrt{-1}", "2^{100000}", "(5,0)", "", "1+"])
def test_not_numeric(text: str) -> None:
    assert evaluate(text) is None


def test_sampled_comparison_knows_when_it_cannot_decide() -> None:
    assert same_function("(x+1)^2", "x^2+2x+1") is True
    assert same_function("x^2-1", "(x-1)^2") is False
    assert same_function("3+4i", "4i+3") is None  # i is left to math-verify
    assert same_equation(("y", "2x+1"), ("2y", "4x+2")) is True
    assert same_equation(("y", "2x+1"), ("y", "2x")) is False


def test_ranges() -> None:
    assert parse_range(r"x \in [0, 1)", allow_open_pair=False) == [Interval("0", True, "1", False)]
    assert parse_range(r"x \ge 2", allow_open_pair=False) == [Interval("2", True, r"\infty", False)]
    assert parse_range("(0, 1)", allow_open_pair=False) is None  # a point until shown otherwise
    assert parse_range("(0, 1)", allow_open_pair=True) == [Interval("0", False, "1", False)]


def test_unit_split_keeps_a_closing_brace_with_the_value() -> None:
    value, unit, _ = split_unit(r"1731\sqrt{5} 元", lambda v: evaluate(v) is not None)
    assert value == r"1731\sqrt{5}"
    assert unit is not None and unit.name == "yuan"


def test_unit_letter_after_an_expression_is_not_a_unit() -> None:
    assert split_unit("2x+3m", lambda v: evaluate(v) is not None)[1] is None


def test_text_math_verify_would_half_read_is_not_sent_to_it() -> None:
    out = math_matching(r"\boxed{1731√5 元}", answer=r"1731\sqrt{2}元")
    assert out.strict == 0.0


def test_a_text_far_longer_than_any_value_is_not_evaluated() -> None:
    # 3,000 numbers in a row would be one product by implicit multiplication.
    assert evaluate("7 " * 3000) is None
    assert evaluate("7 " * 300) == Fraction(7) ** 300


def test_a_boxed_run_of_numbers_scores_without_reaching_math_verify() -> None:
    out = math_matching(r"\boxed{" + "3 " * 3000 + "}", answer="3")
    assert out.strict == 0.0
    assert out.parts is not None and out.parts[0]["how"] == "too long to be one value"


@settings(max_examples=100, deadline=None)
@given(
    response=st.text(
        alphabet=st.sampled_from(list("0123456789xyz+-=()[]{},;. ABor\\fracboxed①②\n元cm")),
        max_size=40,
    ),
    reference=st.sampled_from(
        ["5", "(1)3;(2)B", "x>3", "(1,0),(9,8)", "5 or -75", "②;③", r"\frac{1}{2}cm"]
    ),
)
def test_any_response_gets_a_score_in_range(response: str, reference: str) -> None:
    out = math_matching(response, answer=reference)
    assert 0.0 <= out.score <= 1.0
    assert out.strict in (0.0, 1.0)
    assert out.strict == (1.0 if out.score == 1.0 else 0.0)
    assert out.parts
