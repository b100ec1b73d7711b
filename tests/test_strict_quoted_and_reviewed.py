"""Strict mode reads an answer marker only where the answer states it, and an option's
letter only where the answer chooses it:

- a marker inside a quotation opened earlier on its line is quoted (a hint, a format,
  someone else's claim), not stated, in English and Chinese as in other languages;
- the letters heading an answer's walk-through of the options ("A) ... B) ... C) ...")
  name the option each line discusses; only what follows the walk-through chooses,
  and an answer that stops inside it chooses nothing.

Worded unlike the blind batches (docs/strict-mode.md, "Where the answer is")."""

from __future__ import annotations

import pytest

from scorers.evaluate import strict

METALS = "Which conducts electricity best?\nA) Copper\nB) Glass\nC) Silver\nD) Rubber"
CITIES = "Which capital lies farthest north?\nA. Lisbon\nB. Oslo\nC. Rome\nD. Athens"


@pytest.mark.parametrize(
    ("label", "answer", "question", "score"),
    [
        # a quoted marker: the answer's own choice comes after it
        (
            "A",
            "The margin note reads \u201cFinal answer: C\u201d in pencil. Working it through"
            " myself, copper's free electrons decide it: A.",
            METALS,
            1,
        ),
        (
            "C",
            'My study partner wrote "the correct answer is A" on the sheet, yet silver'
            " beats copper by a few percent, so C.",
            METALS,
            1,
        ),
        (
            "B",
            "\u8001\u5e08\u8bf4\u300c\u7b54\u6848\u662fD\u300d\uff0c\u4f46\u5965\u65af\u9646"
            "\u5728\u6700\u5317\u8fb9\uff0c\u6240\u4ee5\u662fB\u3002",
            CITIES,
            1,
        ),
        # controls: a marker before its quoted answer, an unquoted one, an inch mark
        ("C", 'The answer is "C".', METALS, 1),
        ("B", 'A 2" rod of it shatters when bent, so the answer is B. D bends.', METALS, 1),
        ("C", "Final answer: C (silver)", METALS, 1),
    ],
)
def test_quoted_marker_is_not_the_answer(
    label: str, answer: str, question: str, score: float
) -> None:
    outcome = strict.evaluate("choices_matching", {"label": label}, answer, question)
    assert outcome.score == score, outcome


def test_inch_mark_opens_no_quotation() -> None:
    answer = 'The pipe is 3" wide, so the answer is 4. Then 7 more were checked.'
    assert strict.evaluate("number_matching", {"value_to_match": 4}, answer).score == 1


@pytest.mark.parametrize(
    ("label", "answer", "question", "score"),
    [
        # the walk-through ends the answer (cut off mid-line): nothing chosen
        (
            "D",
            "Going through them one at a time:\n(A) Copper: a good conductor.\n"
            "(B) Glass: an insulator at room temperature.\n(C) Silver: the best metallic"
            " conductor.\n(D) Rubber: insula",
            METALS,
            0,
        ),
        # after the walk-through, the option named by its text is chosen
        (
            "B",
            "- A. Lisbon: sits near 39 degrees north.\n- B. Oslo: close to 60 degrees north.\n"
            "- C. Rome: about 42 degrees.\n- D. Athens: under 38 degrees.\n\n"
            "The northernmost of the four is plainly Oslo.",
            CITIES,
            1,
        ),
        # controls: a last line that calls its option the answer; a letter chosen after
        # the walk-through; two options compared
        (
            "D",
            "A) Copper: a conductor.\nB) Glass: fragile.\nC) Silver: a conductor too.\n"
            "D) Rubber: the right answer for an insulator.",
            METALS,
            1,
        ),
        (
            "B",
            "1. A) Lisbon, 38.7 N\n2. B) Oslo, 59.9 N\n3. C) Rome, 41.9 N\n4. D) Athens,"
            " 38.0 N\n\nHighest latitude wins, so B.",
            CITIES,
            1,
        ),
        (
            "C",
            "A) Copper is excellent.\nC) Silver is slightly better still.",
            METALS,
            1,
        ),
    ],
)
def test_option_walk_through(label: str, answer: str, question: str, score: float) -> None:
    outcome = strict.evaluate("choices_matching", {"label": label}, answer, question)
    assert outcome.score == score, outcome
