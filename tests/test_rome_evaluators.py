"""rome mode: the reference's extraction and evaluators, quirk by quirk (spec §4-5)."""

from __future__ import annotations

from typing import Any

import pytest

from scorers.errors import EvaluatorError
from scorers.evaluate import evaluators as registry
from scorers.evaluate import rome
from scorers.evaluate.rome.evaluators import choice_letters
from scorers.evaluate.rome.extract import extract_answer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Reasoning.\nAnswer: 42", "42"),
        ("Final Answer: A\nmore\nFinal Answer: B ", "B"),  # last occurrence
        ("Answers: Paris", "s: Paris"),  # "Answer" inside "Answers"
        (
            "Answer: x ... The Answer is y",
            "x ... The Answer is y",
        ),  # "Answer:" wins over a later "Answer"
        ("**Final Answer:** C", "** C"),
        ("**Final Answer: A, B**", "A, B**"),
        ("answer: 7", "answer: 7"),  # lowercase is no marker: whole text, unstripped
        ("  FINAL ANSWER: 7  ", "  FINAL ANSWER: 7  "),
        ("答案：3 and Answer 4", "4"),  # English wins whatever the position
        ("最终答案：C", "C"),
        ("so \\boxed{\\frac{9}{4}} and \\boxed{2}", "\\frac{9"),  # first box, cut at the first }
        ("\\boxed{} then \\boxed{ 5 }", "5"),
        ("Answer: $\\boxed{B}$", "$\\boxed{B}$"),  # marker wins, box stays
        ("<think>Tentative Answer: A</think>\nIt is B", "A</think>\nIt is B"),
        ("Answer: 5\u2032\u2009\u2010\u2212\u2013\u22c5", "5' ---\u00b7"),
        ("Answer: a\u00a0b\u2014c\u2019", "a\u00a0b\u2014c\u2019"),  # not normalised
    ],
)
def test_extraction(text: str, expected: str) -> None:
    assert extract_answer(text) == expected


@pytest.mark.parametrize(
    ("answer", "label", "score"),
    [
        ("B", "B", 1),
        ("(B)", "B", 1),
        ("B) back", "B", 1),
        ("B. back", "B", 1),
        ("**B**", "B", 1),
        ("\\boxed{B}", "B", 1),
        ("Final Answer: \\boxed{B}", "B", 1),
        ("Option B", "B", 0),
        ("Back right (H)", "H", 0),
        ("b", "B", 0),
        ("\uff23", "C", 0),
        ("B or D", "B", 1),
        ("D or B", "B", 0),
        ("A. first, actually C", "C", 0),
        ("A, C", "AC", 1),
        ("C, A", "AC", 1),
        ("A and C", "AC", 1),
        ("A\u3001C", "AC", 1),
        ("A, C, D", "AC", 0),
        ("Both A and C", "AC", 0),
        ("A, C", "A,C", 0),
        ("I", "I", 0),
        ("T", "T", 0),
        ("FINAL ANSWER: B", "B", 0),
        ("The answer is D.", "D", 1),
        ("最终答案：C", "C", 1),
        ("anything", "b", 0),
        ("B", "b", 1),
    ],
)
def test_choices(answer: str, label: str, score: int) -> None:
    outcome = rome.evaluate("choices_matching", {"label": label}, answer)
    assert outcome.score == score
    assert type(outcome.score) is int


def test_choices_extracted_letters() -> None:
    assert rome.evaluate("choices_matching", {"label": "B"}, "FINAL ANSWER: B").extracted == "F"
    assert rome.evaluate("choices_matching", {"label": "AC"}, "Answer: C, A").extracted == "AC"
    assert choice_letters("If The INST answer is B") == "B"


@pytest.mark.parametrize(
    ("answer", "order", "score"),
    [
        ("C, D, A, B", "C,D,A,B", 1),
        ("c, d, a, b", ["C", "D", "A", "B"], 1),
        ("C, X, D, Y, A, B", ["C", "D", "A", "B"], 1),
        ("1. C, 2. D, 3. A, 4. B", ["C", "D", "A", "B"], 1),
        ("CDAB", ["C", "D", "A", "B"], 0),
        ("C → D → A → B", ["C", "D", "A", "B"], 0),
        ("C\uff0cD\uff0cA\uff0cB", ["C", "D", "A", "B"], 0),
        ("Panel B, then A, then D", ["B", "A", "D"], 1),
        ("paris,london,rome", ["Paris", "London", "Rome"], 1),
        ("whatever", [], 1),
        ("whatever", "", 1),
        ("1, 2", "1, 2", 1),  # spaces removed from the order only
    ],
)
def test_ordered_list(answer: str, order: Any, score: int) -> None:
    assert rome.evaluate("ordered_list_matching", {"order": order}, answer).score == score


@pytest.mark.parametrize(
    ("answer", "value", "score"),
    [
        ("1,234", 1234, 0),
        ("1,234", 234, 1),
        ("3e8", 8, 1),
        ("3.0 × 10^8", 8, 1),
        ("12 m^2", 2, 1),
        ("12 m²", 12, 1),
        (".5", 5, 1),
        ("\\frac{9}{4}", 4, 1),
        ("2023-2024", -2024, 1),
        ("2024\u20132025", -2025, 1),  # en dash normalised to a hyphen, read as a sign
        ("\u22125", -5, 1),
        ("\u20145", 5, 1),
        ("\uff13", 3, 1),  # full-width digits are \d
        ("3.001", 3, 1),  # float error decides at the boundary
        ("3.0011", 3, 0),
        ("0", 0.0, 0),  # a float 0.0 can never match
        ("0.0004", 0, 1),
        ("7.9", 7.5, 1),
        ("8.3", 7.5, 0),
        ("37 °C (98.6 °F)", 37, 0),
        ("no digits", 1, 0),
        ("1", True, 1),
    ],
)
def test_number(answer: str, value: Any, score: int) -> None:
    assert rome.evaluate("number_matching", {"value_to_match": value}, answer).score == score


@pytest.mark.parametrize(
    ("answer", "kwargs", "score"),
    [
        ("Golden Gate Bridge", {"location_fine_grained": ["golden gate bridge"]}, 1.0),
        (
            "Golden  Gate Bridge, San Francisco",
            {
                "location_fine_grained": ["golden gate bridge"],
                "location_coarse_grained": ["san francisco"],
            },
            0.5,
        ),
        ("New\u00a0York", {"location_fine_grained": ["new york"]}, 0),
        ("Tokyo DisneySea", {"location_fine_grained": ["Tokyo Disney"]}, 1.0),
        ("spain", {"location_fine_grained": "Paris"}, 1.0),  # a string iterates its characters
        ("x", {"location_fine_grained": [""]}, 1.0),
        (
            "Peru",
            {
                "location_fine_grained": ["lima"],
                "location_coarse_grained": ["peru"],
                "coarse_grained_score": 0.25,
            },
            0.25,
        ),
        ("Lima", {"location_fine_grained": ["lima"], "fine_grained_score": 1}, 1),
    ],
)
def test_location(answer: str, kwargs: dict[str, Any], score: float) -> None:
    outcome = rome.evaluate("location_matching", kwargs, answer)
    assert outcome.score == score
    assert type(outcome.score) is type(score)


@pytest.mark.parametrize(
    ("answer", "kwargs", "score"),
    [
        ("Monterrey and Seattle Sounders", {"key_items": [["Monterrey"], ["Seattle Sounders"]]}, 1),
        ("Only Monterrey", {"key_items": [["Monterrey"], ["Seattle Sounders"]]}, 0),
        ("Atlanta", {"key_items": ["la", "los angeles"]}, 1),  # no word boundaries
        ("Zurich", {"key_items": ["Zürich"]}, 0),
        ("ZÜRICH", {"key_items": ["Zürich"]}, 1),
        ("NewYork", {"key_items": [["New York"]], "remove_space": True}, 1),
        ("New  York", {"key_items": [["New York"]]}, 0),
        ("anything", {"key_items": [[""]]}, 1),
        ("anything", {"key_items": [[]]}, 0),
    ],
)
def test_key_items(answer: str, kwargs: dict[str, Any], score: int) -> None:
    assert rome.evaluate("key_items_matching", kwargs, answer).score == score


@pytest.mark.parametrize(
    ("evaluator", "kwargs", "needle"),
    [
        ("fuzzy_matching", {}, "fuzzy_matching"),
        ("choices_matching", {}, "'label'"),
        ("choices_matching", {"label": "A", "extra": 1}, "'extra'"),
        ("choices_matching", {"label": 1}, "'label'"),
        ("number_matching", {"value_to_match": "3"}, "'value_to_match'"),
        ("key_items_matching", {"key_items": []}, "'key_items'"),
        ("key_items_matching", {"key_items": [["a"], "b"]}, "'key_items'"),
        ("location_matching", {"location_fine_grained": [1]}, "'location_fine_grained'"),
        ("ordered_list_matching", {"order": 3}, "'order'"),
        ("interval_matching", {"interval": ["1:00", 2], "units": []}, "'interval'"),
        ("Choices_Matching", {"label": "A"}, "Choices_Matching"),  # names are case-sensitive
    ],
)
def test_bad_evaluator_or_kwargs_name_both(
    evaluator: str, kwargs: dict[str, Any], needle: str
) -> None:
    with pytest.raises(EvaluatorError) as info:
        rome.evaluate(evaluator, kwargs, "Answer: A 1")
    assert needle in str(info.value)
    assert evaluator.split("_")[0] in str(info.value) or evaluator in str(info.value)


def test_registry_dispatches_rome_mode() -> None:
    outcome = registry.evaluate("number_matching", {"value_to_match": 3}, "Answer: 3", "rome")
    assert (outcome.score, outcome.extracted) == (1, "3")


def test_interval_marks() -> None:
    outcome, marks = rome.evaluate_full(
        "interval_matching", {"interval": [10, 15], "units": ["km"]}, "Answer: 12 m"
    )
    assert outcome.score == 0 and marks == {"number_correct": 1}
    outcome, marks = rome.evaluate_full(
        "multi_interval_matching",
        {"intervals": [["1:00", "2:00"], [0, 10]], "units": [[], ["s"]]},
        "Answer: 1:30",
    )
    assert outcome.score == 1 and marks == {"number_correct": 1}
