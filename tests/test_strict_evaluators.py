"""Every strict evaluator: what it reads, how it scores, and the kwargs it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from scorers.errors import EvaluatorError
from scorers.evaluate import strict
from scorers.evaluate.evaluators import evaluate as registry_evaluate
from scorers.evaluate.strict.final import locate


def run(evaluator: str, kwargs: dict[str, Any], answer: str) -> tuple[Any, str]:
    outcome = strict.evaluate(evaluator, kwargs, answer)
    return outcome.score, outcome.extracted


# --- where the answer is -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "how", "segment"),
    [
        ("Final Answer: B", "marker", "B"),
        ("**Final Answer:** C\n\nBecause...", "marker", "C"),
        ("### Final Answer\n\n1. C\n2. D\n\nNotes", "marker", "1. C\n2. D"),
        ("The answer is D. It fits.", "marker", "D. It fits."),
        ("Final Answer B", "marker", "B"),
        ("Final Answer: B\n\nI hope this answer is helpful.", "marker", "B"),
        ("answer: $\\boxed{\\frac{9}{4}}$ m", "boxed", "\\frac{9}{4}  m"),
        ("\\boxed{3} then \\boxed{5}", "boxed", "5"),
        ("Final Answer: 3\n\nOops: \\boxed{7}", "boxed", "7"),
        ("最终答案：C", "marker", "C"),
        (
            "I cannot answer this question without the image.",
            "whole",
            "I cannot answer this question without the image.",
        ),
        (
            "We answer the question below.\nIt is 5.",
            "whole",
            "We answer the question below.\nIt is 5.",
        ),
    ],
)
def test_locate(text: str, how: str, segment: str) -> None:
    located = locate(text)
    assert (located.how, located.segment) == (how, segment)


def test_only_the_text_after_think_is_graded() -> None:
    answer = "<think>Final Answer: 4</think>\nI count five.\nFinal Answer: 5"
    assert run("number_matching", {"value_to_match": 5}, answer) == (1, "5")
    assert run("number_matching", {"value_to_match": 4}, "<think>4</think>") == (0, "")


def test_registry_dispatches_strict_mode() -> None:
    outcome = registry_evaluate("choices_matching", {"label": "T"}, "Final Answer: T", "strict")
    assert outcome.score == 1 and outcome.extracted == "T"


# --- choices -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "label", "expected"),
    [
        ("Final Answer: C", "C", (1, "C")),
        ("Final Answer: (B) the second one", "B", (1, "B")),
        ("Final Answer: B) back", "B", (1, "B")),
        ("Final Answer: Choice (d)", "D", (1, "D")),
        ("Final Answer: C, A", "AC", (1, "AC")),
        ("Final Answer: A、C", "A,C", (1, "AC")),
        ("Final Answer: AC", "AC", (1, "AC")),
        ("Final Answer: B or D", "B", (0, "BD")),
        ("Final Answer: A", "AC", (0, "A")),
        ("Final Answer: A, C, D", "AC", (0, "ACD")),  # an extra letter is wrong
        ("Final Answer: ABCD", "AC", (0, "ABCD")),
        ("The U.S. flag is option C.", "C", (1, "C")),
        ("Final Answer: the U.S. one, option B", "B", (1, "B")),
        ("Final Answer: none of the options", "A", (0, "")),
        ("故选C", "C", (1, "C")),
        ("Final Answer: Option B and Option D", "BD", (1, "BD")),
    ],
)
def test_choices(answer: str, label: str, expected: tuple[int, str]) -> None:
    assert run("choices_matching", {"label": label}, answer) == expected


@pytest.mark.parametrize("label", ["", "True", 3, None, "A1"])
def test_choices_refuses_labels_that_are_not_letters(label: Any) -> None:
    with pytest.raises(EvaluatorError, match="label"):
        strict.evaluate("choices_matching", {"label": label}, "A")


# --- numbers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "value", "expected"),
    [
        ("Final Answer: 1,234,567", 1234567, (1, "1234567")),
        ("Final Answer: 2^10", 1024, (1, "1024")),
        ("Final Answer: 6.02 x 10^23", 6.02e23, (1, "6.02e+23")),
        ("Final Answer: 45%", 45, (1, "45%")),
        ("Final Answer: 45%", 0.45, (1, "45%")),
        ("Final Answer: approximately 3.5 m", 3.2, (1, "3.5")),
        ("Final Answer: approximately 3.5 m", 3, (0, "3.5")),
        ("Final Answer: about twenty-one", 21, (1, "21")),
        ("I counted 2 red and 3 blue, so 5 in total.", 5, (1, "5")),
        ("Final Answer: unknown", 1, (0, "")),
        ("Final Answer: -\\frac{3}{4}", -0.75, (1, "-0.75")),
        ("Final Answer: x = -2", -2, (1, "-2")),
        ("Final Answer: about 1.5 million people", 1500000, (1, "1500000")),
        ("Final Answer: $12.50", 12.5, (1, "12.5")),
        ("Final Answer: 10 - 3", 10, (1, "10")),
    ],
)
def test_numbers(answer: str, value: float, expected: tuple[int, str]) -> None:
    assert run("number_matching", {"value_to_match": value}, answer) == expected


def test_number_target_as_numeric_string() -> None:
    assert run("number_matching", {"value_to_match": "3"}, "Final Answer: 3.0005")[0] == 1
    assert run("number_matching", {"value_to_match": "3"}, "Final Answer: 3.1")[0] == 0
    assert run("number_matching", {"value_to_match": "3.0"}, "Final Answer: 3.1")[0] == 1


@pytest.mark.parametrize("value", [True, "three", None, [3], float("nan")])
def test_number_refuses_non_numbers(value: Any) -> None:
    with pytest.raises(EvaluatorError, match="value_to_match"):
        strict.evaluate("number_matching", {"value_to_match": value}, "3")


# --- ordered lists --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "order", "score"),
    [
        ("Final Answer: C, D, A, B", ["C", "D", "A", "B"], 1),
        ("Final Answer: c, d, a, b", "C,D,A,B", 1),
        ("Final Answer: (C) sunrise, (D) noon, (A) dusk, (B) night", ["C", "D", "A", "B"], 1),
        ("Final Answer: C, D, A", ["C", "D", "A", "B"], 0),
        ("Final Answer: C, D, A, B, E", ["C", "D", "A", "B"], 0),
        ("Final Answer: 3, 1, 2", [3, 1, 2], 1),
        ("Final Answer: 3 -> 1 -> 2", ["3", "1", "2"], 1),
        ("Final Answer: Zürich, the Louvre, Rome (Italy)", ["Zurich", "Louvre", "Rome"], 1),
        ("Final Answer: CDAB", "CDAB", 1),
        ("Final Answer: Paris, London and Rome", ["Paris", "London", "Rome"], 1),
        ("Final Answer: Bosnia and Herzegovina, Chad", ["Bosnia and Herzegovina", "Chad"], 1),
    ],
)
def test_ordered_lists(answer: str, order: Any, score: int) -> None:
    assert run("ordered_list_matching", {"order": order}, answer)[0] == score


@pytest.mark.parametrize("order", [[], "", [""], [None], {"a": 1}])
def test_ordered_list_refuses_empty_or_odd_orders(order: Any) -> None:
    with pytest.raises(EvaluatorError, match="order"):
        strict.evaluate("ordered_list_matching", {"order": order}, "A, B")


# --- key items and locations ----------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "key_items", "score"),
    [
        ("Paris and Rome", [["Paris"], ["Rome"]], 1),
        ("Paris only", [["Paris"], ["Rome"]], 0),
        ("Lyon", ["Paris", "Lyon"], 1),
        ("The Seattle Sounders' stadium", [["Seattle Sounders"]], 1),
        ("Two cats", ["cat"], 1),
        ("北京市", ["北京"], 1),
        ("not only Paris but also Rome", [["Paris"], ["Rome"]], 1),
        ("It could be Paris rather than Rome", [["Rome"]], 0),
        ("It was the USSR.", [["U.S.S.R.", "Soviet Union"]], 1),
        ("Made in the U.S.A.", ["USA"], 1),
    ],
)
def test_key_items(answer: str, key_items: Any, score: int) -> None:
    assert run("key_items_matching", {"key_items": key_items}, answer)[0] == score


def test_key_items_remove_space_folds_every_space() -> None:
    kwargs = {"key_items": ["12 : 30"], "remove_space": True}
    assert run("key_items_matching", kwargs, "at 12:30\u00a0pm")[0] == 1


@pytest.mark.parametrize(
    "kwargs",
    [
        {"key_items": []},
        {"key_items": [[]]},
        {"key_items": [["a"], "b"]},
        {"key_items": [""]},
        {"key_items": ["a"], "remove_space": "yes"},
        {"key_items": ["a"], "extra": 1},
        {},
    ],
)
def test_key_items_refuses_bad_kwargs(kwargs: dict[str, Any]) -> None:
    with pytest.raises(EvaluatorError, match="key_items"):
        strict.evaluate("key_items_matching", kwargs, "a")


def test_location_scores_and_types() -> None:
    kwargs = {
        "location_fine_grained": ["Shibuya Crossing"],
        "location_coarse_grained": ["Tokyo"],
        "fine_grained_score": 1,
        "coarse_grained_score": 0.25,
    }
    assert run("location_matching", kwargs, "Final Answer: Shibuya crossing, Tokyo")[0] == 1
    assert run("location_matching", kwargs, "Final Answer: Shinjuku, Tokyo")[0] == 0.25
    assert run("location_matching", kwargs, "Final Answer: Osaka")[0] == 0
    with pytest.raises(EvaluatorError, match="location"):
        strict.evaluate("location_matching", {"location_fine_grained": [""]}, "x")
    with pytest.raises(EvaluatorError, match="fine_grained_score"):
        strict.evaluate(
            "location_matching", {"location_fine_grained": ["x"], "fine_grained_score": "1"}, "x"
        )


# --- intervals ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "kwargs", "expected"),
    [
        ("Final Answer: 12 km", {"interval": [10, 15], "units": ["km"]}, (1, "12 km")),
        ("Final Answer: 12km", {"interval": [10, 15], "units": ["km"]}, (1, "12 km")),
        ("Final Answer: 12", {"interval": [10, 15], "units": ["km"]}, (0, "12")),
        ("Final Answer: 12", {"interval": [10, 15], "units": []}, (1, "12")),
        ("Final Answer: 12", {"interval": [10, 15]}, (1, "12")),
        ("Final Answer: 15", {"interval": [10, 15], "units": []}, (1, "15")),
        ("Final Answer: 15.5", {"interval": [10, 15], "units": []}, (0, "15.5")),
        ("Final Answer: 1:05:30", {"interval": ["1:00", "1:10"], "units": []}, (1, "1:05:30")),
        ("Final Answer: 1:15", {"interval": ["1:00", "1:10"], "units": []}, (0, "1:15:00")),
        (
            "Final Answer: \\boxed{12\\text{ km}}",
            {"interval": [10, 15], "units": ["km"]},
            (1, "12 km"),
        ),
    ],
)
def test_interval(answer: str, kwargs: dict[str, Any], expected: tuple[int, str]) -> None:
    assert run("interval_matching", kwargs, answer) == expected


def test_multi_interval() -> None:
    kwargs = {"intervals": [[1, 2], ["0:30", "0:45"]], "units": [["m"], []]}
    assert run("multi_interval_matching", kwargs, "Final Answer: 1.5 m") == (1, "1.5 m")
    assert run("multi_interval_matching", kwargs, "Final Answer: 0:40") == (1, "0:40:00")
    assert run("multi_interval_matching", kwargs, "Final Answer: 3 m")[0] == 0
    with pytest.raises(EvaluatorError, match="units"):
        strict.evaluate(
            "multi_interval_matching", {"intervals": [[1, 2]], "units": [["m"], []]}, "1"
        )


@pytest.mark.parametrize(
    "kwargs",
    [
        {"interval": [15, 10], "units": []},
        {"interval": [1], "units": []},
        {"interval": ["1:00", 3], "units": []},
        {"interval": ["x", "y"], "units": []},
        {"interval": [1, 2], "units": "km"},
    ],
)
def test_interval_refuses_bad_kwargs(kwargs: dict[str, Any]) -> None:
    with pytest.raises(EvaluatorError, match="interval"):
        strict.evaluate("interval_matching", kwargs, "1")


def test_unknown_evaluator_is_named() -> None:
    with pytest.raises(EvaluatorError, match="fuzzy_matching"):
        strict.evaluate("fuzzy_matching", {}, "x")


def test_a_misspelt_kwarg_names_the_ones_the_evaluator_takes() -> None:
    with pytest.raises(EvaluatorError) as caught:
        strict.evaluate("number_matching", {"value": 12}, "12 apples", None)
    assert str(caught.value) == (
        "number_matching: unknown evaluator_kwargs 'value' (number_matching takes value_to_match)"
    )
