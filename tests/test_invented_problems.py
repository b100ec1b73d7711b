"""One reading of where a model starts a problem of its own, for strict mode and math
prose alike (``scorers.evaluate.invented``), worded for this test."""

from __future__ import annotations

from scorers.evaluate import strict
from scorers.evaluate.invented import before_invented_problem
from scorers.evaluate.mathmatch import math_matching
from scorers.evaluate.mathmatch.extract import extract_answer


def _says_answer(text: str) -> bool:
    return "answer" in text.lower()


def test_a_dialogue_turn_after_a_boxed_value_ends_the_strict_answer() -> None:
    answer = (
        "Eleven crates of six hold \\boxed{66} jars.\n\n"
        "User: A shelf holds 9 rows of 4 tins; how many tins?\nAssistant: \\boxed{36}"
    )
    outcome = strict.evaluate("number_matching", {"value_to_match": 66}, answer, "How many jars?")
    assert outcome.score == 1


def test_a_question_turn_without_a_question_mark_ends_the_math_answer() -> None:
    answer = (
        "Adding the two legs gives a perimeter of 24 cm.\nThe answer is 24.\n\n"
        "Question 2: Find the area of a square of side 5 cm.\nThe answer is 25."
    )
    assert extract_answer(answer)[0].strip(" .") == "24"
    assert math_matching(answer, answer="24").score == 1


def test_a_problem_in_another_script_is_cut_once_answered() -> None:
    answer = "答案：12\n\nQuestion：一个长方形长5厘米，宽3厘米，面积是多少\n答案：15"
    assert math_matching(answer, answer="12").score == 1


def test_the_problem_asked_posed_again_is_read_again() -> None:
    asked = "Question: How many legs do three spiders have in total?"
    text = (
        "Answer: 18\n\nQuestion: How many legs do three spiders have in total?\n"
        "Answer: 24\n\nQ: How many wings do two bees have?\nAnswer: 8"
    )
    kept = before_invented_problem(text, _says_answer, asked)
    assert kept.endswith("Answer: 24\n\n")


def test_a_turn_before_any_answer_is_the_writer_restating_the_problem() -> None:
    text = "Problem: a train covers 120 km in 2 hours; its speed?\nSpeed = 60 km/h.\nAnswer: 60"
    assert before_invented_problem(text, _says_answer) == text


def test_a_restated_problem_under_another_label_is_no_new_turn() -> None:
    text = "Answer: 7\n\nChecking the given problem: 3 + 4 = ?\nYes, the answer is 7."
    assert before_invented_problem(text, _says_answer) == text
