"""Options numbered instead of lettered: a digit label ("3") for a question that
numbers its options 1 to n reads the answer's choice of a numbered option, by its
number or its text. Rome mode keeps the reference's letters-only reading; a digit
label for a question that numbers no options stays an annotation error. Worded
unlike the blind batches (no Korean law, no KMMLU layout)."""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

from scorers.errors import EvaluatorError
from scorers.evaluate import rome, strict
from scorers.evaluate.strict.question import options

LINES = "Which port is furthest north?\n1. Valencia\n2. Hamburg\n3. Tromsø\n4. Genoa"
BRACKETED = "Pick the noble gas.\n(1) nitrogen\n(2) argon\n(3) chlorine\n(4) sodium"
CIRCLED = "次のうち哺乳類はどれか。\n① サメ\n② イルカ\n③ マグロ\n④ タコ"
INLINE = "Which planet has rings you can see? (1) Mars (2) Venus (3) Saturn (4) Mercury"
NUMBERS = "How many strings has a cello?\n1) 3\n2) 4\n3) 5\n4) 6"
C = "choices_matching"

CASES: list[Reading] = [
    # the number alone, dressed or in a sentence
    (C, {"label": "3"}, "3", LINES, 1, False),
    (C, {"label": "3"}, "(3)", LINES, 1, False),
    (C, {"label": "3"}, "My choice is number 3, the Arctic one.", LINES, 1, False),
    (C, {"label": "2"}, "Final answer: 4", LINES, 0, False),
    (C, {"label": "2"}, "Argon is the only inert one here, so 2.", BRACKETED, 1, False),
    (C, {"label": "②"}, "答えは②です。", CIRCLED, 1, False),
    (C, {"label": "2"}, "正解：③", CIRCLED, 0, False),
    # the option's text alone
    (C, {"label": "3"}, "Tromsø, well inside the Arctic Circle.", LINES, 1, False),
    (C, {"label": "3"}, "Saturn", INLINE, 1, False),
    (C, {"label": "1"}, "It has to be Saturn.", INLINE, 0, False),
    # the label then its text; a copied text's digits choose nothing
    (C, {"label": "3"}, "3. Tromsø", LINES, 1, False),
    (C, {"label": "3"}, "3. Hamburg", LINES, 1, True),
    # two offered, or the other ruled out
    (C, {"label": "2"}, "Either 2 or 4.", LINES, 0, False),
    (C, {"label": "2"}, "Not 3 but 2.", LINES, 1, False),
    # options that are numbers: the text is the choice, a clash is unsure
    (C, {"label": "2"}, "Six, I thought, until I counted again. So 6.", NUMBERS, 0, False),
    (C, {"label": "2"}, "It has 4 strings.", NUMBERS, 1, True),
    (C, {"label": "2"}, "Five strings.", NUMBERS, 0, False),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[2][:30]}|{c[1]['label']}" for c in CASES])
def test_numbered_option_reading(case: Reading) -> None:
    assert_reading(*case)


@pytest.mark.parametrize("question", [LINES, BRACKETED, CIRCLED, INLINE])
def test_numbered_options_are_read_from_the_question(question: str) -> None:
    assert list(options(question)) == ["1", "2", "3", "4"]


def test_rome_keeps_the_reference_letters_only_reading() -> None:
    assert (
        rome.evaluate(
            C,
            {"label": "3"},
            "3",
        ).score
        == 0
    )
    assert rome.evaluate(C, {"label": "3"}, "Final Answer: 3").score == 0


@pytest.mark.parametrize(
    "question", [None, "What is 1 + 2?", "Which?\nA. one\nB. two\nC. three", "Q\n1. a\n3. b\n4. c"]
)
def test_a_digit_label_without_numbered_options_is_refused(question: str | None) -> None:
    with pytest.raises(EvaluatorError, match="label"):
        strict.evaluate(C, {"label": "3"}, "3", question)


def test_a_number_beyond_the_options_is_refused() -> None:
    with pytest.raises(EvaluatorError, match="label"):
        strict.evaluate(C, {"label": "7"}, "7", LINES)
