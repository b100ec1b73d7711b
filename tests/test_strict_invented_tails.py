"""Strict mode on answers that run on past their answer, worded for this test.

A model that keeps generating after it has answered poses questions of its own
and answers them; a reader stops where the first new question opens. A tail
that asks the asked question again answers it again, and is read as before.
Letters the question does not offer are no choice when its options are known.
"""

from __future__ import annotations

from scorers.evaluate import strict
from scorers.evaluate.invented import before_invented_problem
from scorers.evaluate.strict import yes_no
from scorers.evaluate.strict.final import states_answer

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
    assert before_invented_problem(text, states_answer) == text


def test_a_letter_the_question_does_not_offer_is_no_choice() -> None:
    question = "Which group is cyclic?\nA. Q_4 x Q_4\nB. Z_6\nC. S_3\nD. Q_8"
    answer = "Of these only Z_6 is cyclic, which is B."
    outcome = strict.evaluate("choices_matching", {"label": "B"}, answer, question)
    assert outcome.score == 1
    outcome = strict.evaluate(
        "choices_matching", {"label": "B"}, "The cyclic one is Z_6.", question
    )
    assert outcome.extracted != "Z" and outcome.extracted != "Q"


# Yes and no in other languages (glibc localedata's yesstr/nostr), worded for this test.
K = "key_items_matching"


def test_an_answer_opening_with_no_in_its_language_says_no() -> None:
    for answer in (
        "Nein, dafür braucht man keinen Pass.",
        "Non. Il faut un visa.",
        "いいえ、必要です。",
    ):
        assert strict.evaluate(K, {"key_items": [["yes", "ja", "oui"]]}, answer).score == 0
        assert strict.evaluate(K, {"key_items": [["no"]]}, answer).score == 1


def test_an_answer_opening_with_yes_in_its_language_says_yes() -> None:
    for answer in ("Sí, es posible.", "Да, можно.", "Evet, gerekir.", "是的，可以。"):
        assert strict.evaluate(K, {"key_items": [["yes"]]}, answer).score == 1


def test_a_word_that_opens_a_sentence_is_not_its_answer() -> None:
    assert strict.evaluate(K, {"key_items": [["yes"]]}, "No one doubts it: yes.").score == 1
    assert yes_no.opening("I think so.") is None  # ("i" is yes in a locale; one letter is dropped)
    assert yes_no.opening("Le chat dort.") is None


# A value stated in another unit than the key's, for a question that names no unit.
N = "number_matching"


def test_a_speed_in_kilometres_per_hour_is_read_in_metres_per_second() -> None:
    answer = "A cheetah can reach about 112 kilometres per hour in short bursts."
    outcome = strict.evaluate(N, {"value_to_match": 31}, answer, "how fast can a cheetah run")
    assert outcome.score == 1 and outcome.uncertain is None, outcome


def test_a_length_in_centimetres_is_read_in_inches() -> None:
    answer = "The standard ruler measures 30.5 centimeters."
    outcome = strict.evaluate(N, {"value_to_match": 12}, answer, "how long is a standard ruler")
    assert outcome.score == 1 and outcome.uncertain is None, outcome


def test_no_unit_the_value_converts_to_leaves_it_wrong() -> None:
    outcome = strict.evaluate(
        N, {"value_to_match": 500}, "The tower is 300 meters tall.", "how tall?"
    )
    assert outcome.score == 0 and outcome.uncertain is None
