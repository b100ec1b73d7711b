"""Readings that must hold for answers worded in ways the labelled sets rarely
use: lower-case option letters, and the same answer rewritten without changing
its meaning (a closing remark, the answer moved first, "I believe").

Each case is (evaluator, kwargs, answer, question, score, unsure), as in
tests/strict_fixtures.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from strict_fixtures import Reading, assert_reading

PETS = "Which pet sleeps in the basket?\n(a) hamster\n(b) beagle\n(c) tabby cat\n(d) parrot"
PETS_UPPER = "Which pet sleeps in the basket?\nA) hamster\nB) beagle\nC) tabby cat\nD) parrot"
ORDER_Q = "Order the fruits from smallest to largest.\nA) plum\nB) melon\nC) grape"
C, N, K, L = "choices_matching", "number_matching", "key_items_matching", "ordered_list_matching"

CASES: list[Reading] = [
    # lower-case labels: a lone lower-case letter is the option, as a capital is
    (C, {"label": "b"}, "Floppy ears and a long muzzle, so b.", PETS, 1, False),
    (C, {"label": "b"}, "so b", PETS, 1, False),
    (C, {"label": "B"}, "I'd say c, not b.", PETS, 0, False),
    (C, {"label": "c"}, "Whiskers and stripes: a tabby, i.e. c", PETS, 1, False),
    # ... the article stays an article, and "e.g." no pair of options
    (C, {"label": "a"}, "It is a hamster; e.g. the cheeks give it away.", PETS, 1, False),
    # upper-case labels: a lower-case letter inside prose may be a word, and is not read
    (C, {"label": "C"}, "Box b holds the tabby cat.", PETS_UPPER, 1, False),
    # yes or no told by restating the question's claim: negated it is no; with a
    # word of its own in place of the question's it is no, unsure; restating
    # nothing it is unsure either way
    (
        K,
        {"key_items": [["no"]]},
        "Penguins have flippers. Therefore a penguin cannot fly.",
        "Can a penguin fly?",
        1,
        False,
    ),
    (
        K,
        {"key_items": [["yes"]]},
        "So the tram is in Lisbon, not Porto.",
        "Is the tram in Lisbon?",
        1,
        False,
    ),
    (
        K,
        {"key_items": [["no"]]},
        "Ann presses it twice, Bo once. So the lamp is off.",
        "Is the lamp still on?",
        1,
        False,
    ),
    (
        K,
        {"key_items": [["yes"]]},
        "Ann presses it twice. So the lamp is still on.",
        "Is the lamp still on?",
        1,
        False,
    ),
    (K, {"key_items": [["no"]]}, "Most vegans avoid honey.", "Would a vegan eat honey?", 0, True),
    (
        K,
        {"key_items": [["no"]]},
        "It is doubtful that Ravel did write the Bolero.",
        "Did Ravel write the Bolero?",
        1,
        False,
    ),
    # a closing that states the writer's confidence is no conclusion ...
    (
        C,
        {"label": "B"},
        "The long ears say beagle.\n\nI'm fairly confident in this answer.",
        PETS_UPPER,
        1,
        False,
    ),
    (C, {"label": "B"}, "The long ears say beagle.\nConfidence: 80%", PETS_UPPER, 1, False),
    # ... but a sentence that goes on to say what it is sure of is one
    (
        C,
        {"label": "B"},
        "The ears say beagle. I'm sure it is a parrot, though.",
        PETS_UPPER,
        0,
        False,
    ),
    # an upper-case question's letter written in lower case, ending the answer
    (C, {"label": "B"}, "I believe b", PETS_UPPER, 1, False),
    # a remark before the answer leaves its number's language to its own sentence
    (
        N,
        {"value_to_match": 2.75},
        "Let me think about this.\n\nDie Länge beträgt 2,750 Meter.",
        None,
        1,
        False,
    ),
    (
        N,
        {"value_to_match": 4500},
        "Let me see.\n\nEs kamen etwa 4,5 Tausend Gäste.",
        None,
        1,
        False,
    ),
    # a closing remark that names nothing of the answer's kind is passed over (for
    # options unsure: the last sentence may name one in words of its own) ...
    (
        C,
        {"label": "B"},
        "Long ears, a wagging tail: a beagle.\n\nThat fits everything described.",
        PETS_UPPER,
        1,
        True,
    ),
    (
        L,
        {"order": ["C", "A", "B"]},
        "Smallest is C, then A, then B.\n\nThis agrees with the picture.",
        ORDER_Q,
        1,
        False,
    ),
    (
        K,
        {"key_items": [["no"]]},
        "Ann presses it once. So the lamp is off. That settles it.",
        "Is the lamp still on?",
        1,
        False,
    ),
    # ... but not one that weighs or turns the answer
    (
        L,
        {"order": ["B", "A", "C"]},
        "A, B, C. That is the reverse of the order asked.",
        ORDER_Q,
        0,
        False,
    ),
    # an abbreviation's dot ends no sentence
    (
        K,
        {"key_items": [["St. Petersburg"]]},
        "Final Answer: St. Petersburg, Russia",
        None,
        1,
        False,
    ),
    # the same quantity in another unit than the question asks: right, unsure;
    # the right number in another unit: unsure too
    (
        N,
        {"value_to_match": 12},
        "The trail is 12,000 m long.",
        "How long is the trail, in km?",
        1,
        True,
    ),
    (N, {"value_to_match": 90}, "It lasts 1.5 hours.", "How many minutes does it last?", 1, True),
    (
        N,
        {"value_to_match": 12},
        "The trail is 12 m long.",
        "How long is the trail, in km?",
        1,
        True,
    ),
    (
        N,
        {"value_to_match": 12},
        "The trail is 13 km long.",
        "How long is the trail, in km?",
        0,
        False,
    ),
    # "make that", "change my answer to": a correction after the final answer
    (
        C,
        {"label": "C"},
        "Final Answer: B. Hmm, the ears are too long for a beagle — make that C.",
        PETS_UPPER,
        1,
        False,
    ),
    (
        N,
        {"value_to_match": 9},
        "Final answer: 8. I'll change my answer to 9: one hid behind the tree.",
        None,
        1,
        False,
    ),
    # another number written with an unambiguous decimal mark settles a lone group;
    # a restatement after a marker's number is a second reading
    (
        N,
        {"value_to_match": 42.2},
        "Answer: 42.195 km, i.e. 42.2 km to one decimal.",
        None,
        1,
        False,
    ),
    # a thousands group followed by more digits ("12,000") is no decimal comma
    (
        N,
        {"value_to_match": 1500},
        "The rooms cost 12,000 yen and 13,500 yen a night: the difference is 1,500 yen.",
        None,
        1,
        False,
    ),
    (N, {"value_to_match": 1.5}, "Bags of 0,75 kg and 0,75 kg: together 1,500 kg.", None, 1, True),
    (N, {"value_to_match": 150}, "Answer: 149.6 million km, so about 150.", None, 0, True),
    (N, {"value_to_match": 12}, "Answer: 12 apples, so 24 halves.", None, 1, False),
    # the answer's own sum settles a lone group, whatever language surrounds it
    (N, {"value_to_match": 1468}, "Let me add them up.\n\n734 + 734 = 1.468", None, 1, False),
    (N, {"value_to_match": 1.468}, "734 + 734 = 1.468", None, 0, False),
    # a marker's first sentence weighs two options, the paragraph settles one
    (C, {"label": "B"}, "Answer: I'm between B and C. Long ears: B.", PETS_UPPER, 1, False),
    (C, {"label": "B"}, "Answer: B and C. A is wrong.", PETS_UPPER, 0, False),
    # a bound is no value: right only where the question asks for one
    (N, {"value_to_match": 30}, "There were at least 30 runners.", "How many ran?", 1, True),
    (N, {"value_to_match": 30}, "Final answer: no more than 30", None, 1, True),
    (
        N,
        {"value_to_match": 30},
        "At least 30.",
        "What is the least number of seats needed?",
        1,
        False,
    ),
    (N, {"value_to_match": 30}, "At least 25.", "How many ran?", 0, False),
]


@pytest.mark.parametrize(("evaluator", "kwargs", "answer", "question", "score", "unsure"), CASES)
def test_transfer_readings(
    evaluator: str,
    kwargs: dict[str, Any],
    answer: str,
    question: str | None,
    score: float,
    unsure: bool,
) -> None:
    assert_reading(evaluator, kwargs, answer, question, score, unsure)
