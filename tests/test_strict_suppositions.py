"""Strict mode passes over what an answer only supposes: a sentence that opens with
a condition ("If ..., then the answer is X") states what would follow from it, not
the answer, and a closing paragraph that opens with one ("If you expect ten more
guests, ...") is a supposition after the answer, not a revision of it.

Worded unlike the blind batches (docs/strict-mode.md, "Where the answer is")."""

from __future__ import annotations

import pytest

from scorers.evaluate import strict

ROCKS = "Which rock? A) basalt B) granite C) obsidian D) pumice"


@pytest.mark.parametrize(
    ("evaluator", "kwargs", "answer", "question", "score"),
    [
        # a closing paragraph that supposes another case is not the answer's end
        (
            "number_matching",
            {"value_to_match": 240},
            "The tank holds 240 litres when full.\n\nIf you want a 15% reserve on top,"
            " buy a 276-litre tank instead.",
            None,
            1,
        ),
        (
            "choices_matching",
            {"label": "B"},
            "The sample cooled slowly, so its crystals are large: B.\n\n"
            "If the sample had been quenched instead, D.",
            ROCKS,
            1,
        ),
        # a marker inside a conditional sentence states no answer
        (
            "number_matching",
            {"value_to_match": 2},
            "If the train had left at noon, then the answer would be 3 hours. It left at"
            " 1 pm, so the trip took 2 hours.",
            None,
            1,
        ),
        (
            "key_items_matching",
            {"key_items": [["no"]]},
            "We checked the guest books. If the lodge had hosted him in 1931, then the"
            " answer is yes. Its records for 1931 do not list him: no.",
            "Did the poet ever stay at the lodge?",
            1,
        ),
    ],
)
def test_supposition_passed_over(
    evaluator: str, kwargs: dict, answer: str, question: str | None, score: float
) -> None:
    outcome = strict.evaluate(evaluator, kwargs, answer, question)
    assert (outcome.score, outcome.uncertain) == (score, None), outcome


def test_supposition_after_a_marker_settles_nothing() -> None:
    # the text after the marker supposes another case: no doubt that it revises it
    answer = "Final Answer: 48 chairs\n\nIf ten more guests come, the total is 58 chairs."
    outcome = strict.evaluate("number_matching", {"value_to_match": 48}, answer)
    assert (outcome.score, outcome.uncertain) == (1, None), outcome


@pytest.mark.parametrize(
    ("answer", "key", "score"),
    [
        # a condition that is the whole answer is read as it stands
        ("If the tank is full it holds 240 litres.", 240, 1),
        # a cause is not a condition: the marker stands
        ("Since both sides balance, the answer is 7.", 7, 1),
        # a supposition before the answer is not a closing one
        ("If we count the lid, there are 13 parts.\n\nWithout it there are 12.", 12, 1),
        # a closing paragraph that does not open with a condition is read
        ("First I guessed 30.\n\nRecounting the crates, 36.", 36, 1),
    ],
)
def test_what_is_not_a_supposition(answer: str, key: int, score: float) -> None:
    outcome = strict.evaluate("number_matching", {"value_to_match": key}, answer)
    assert outcome.score == score, outcome
