"""Strict mode on answers that run on past their answer, worded for this test.

A model that keeps generating after it has answered poses questions of its own
and answers them; a reader stops where the first new question opens. A tail
that asks the asked question again answers it again, and is read as before.
Letters the question does not offer are no choice when its options are known.
"""

from __future__ import annotations

from scorers.evaluate import strict
from scorers.evaluate.strict.final import before_invented_question

TIDES = "What causes the tides?\n(A) wind\n(B) the Moon\n(C) rivers\n(D) earthquakes"


def test_an_invented_question_after_the_answer_is_not_read() -> None:
    answer = (
        "Final answer: (B) the Moon\n\nQuestion: What causes rainbows?\n(A) light\n(B) sound\n"
        "(C) heat\n(D) salt\nAnswer: (A) light\n\nQuestion: Which gas do plants take in?\nAnswer: (C)"
    )
    assert strict.evaluate("choices_matching", {"label": "B"}, answer, TIDES).score == 1


def test_invented_questions_after_a_boxed_number_are_not_read() -> None:
    answer = "The sum is \\boxed{14}.\n\nQUESTION 2: What is 9 + 9?\nThe sum is \\boxed{18}."
    assert (
        strict.evaluate("number_matching", {"value_to_match": 14}, answer, "What is 6 + 8?").score
        == 1
    )


def test_the_asked_question_posed_again_is_read_again() -> None:
    answer = (
        "Answer: (A) wind\n\nQuestion: What causes the tides?\n(A) wind\n(B) the Moon\n"
        "Answer: (B) the Moon"
    )
    assert strict.evaluate("choices_matching", {"label": "B"}, answer, TIDES).score == 1


def test_no_answer_before_the_question_line_keeps_the_text() -> None:
    text = "Let me restate it.\nQuestion: what causes the tides?\nAnswer: the Moon"
    assert before_invented_question(text, "") == text


def test_a_letter_the_question_does_not_offer_is_no_choice() -> None:
    question = "Which group is cyclic?\nA. Q_4 x Q_4\nB. Z_6\nC. S_3\nD. Q_8"
    answer = "Of these only Z_6 is cyclic, which is B."
    outcome = strict.evaluate("choices_matching", {"label": "B"}, answer, question)
    assert outcome.score == 1
    outcome = strict.evaluate(
        "choices_matching", {"label": "B"}, "The cyclic one is Z_6.", question
    )
    assert outcome.extracted != "Z" and outcome.extracted != "Q"
