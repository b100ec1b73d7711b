"""Readings of strict mode's session-13 rules, each shown both ways: the short
line an answer without a marker ends on after its reasoning, an option's value
in LaTeX, another's belief before a marker, and a heading that poses a new problem.

Each case is (evaluator, kwargs, answer, question, score, unsure), as in
tests/strict_fixtures.py.
"""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

C, K, LOC, N = "choices_matching", "key_items_matching", "location_matching", "number_matching"
_DEBUT = "Maria Callas made her stage debut in 1938. She was 14 years old."
_MARBLES = (
    "Step 1: Add the red and blue marbles: 6 + 9 = 15.\n"
    "Step 2: Take away the lost ones: 15 - 4 = 11.\n"
    "Step 3: Now share what is"
)
AREA = "What is the triangle's area?\n1. 18\n2. 9\n3. 18*sqrt(2)\n4. 9*sqrt(2)"
PLANETS = "Which planet is the largest?\nA) Mars\nB) Jupiter\nC) Venus\nD) Mercury"
MOONS = "Which planet has no moons?\nA) Mars\nB) Earth\nC) Jupiter\nD) Mercury"
_RUN_ON = (
    "Mercury has no moons, and Venus none either.\n\n**Final Answer:** D\n## Practice Question\n\n"
    "Which planet has rings?\nA) Saturn\nB) Mars\n\n**Final Answer:** A"
)

_STEPS = (
    "Step 1: look at the crate and the labels stencilled on its side.\n"
    "Step 2: the pale round shapes are too large for limes and too smooth for oranges; "
    "lemons were a first thought, but the skins are green.\n"
    "Step 3: weigh the colour against the shapes once more before settling.\n"
)
_PUZZLE = (
    "Clue 2 puts the fox in the barn, and clue 5 leaves the stable or the shed for the goat. "
    "The shed was my first guess, but clue 7 puts the hen there, and the hen cannot share a "
    "building, so by elimination the goat must be somewhere else.\n\n"
)

CASES: list[Reading] = [
    # a reader may take the line it ends on for the answer: a key named only in the
    # reasoning above it keeps its credit, unsure
    (K, {"key_items": [["lemons"]]}, _STEPS + "green apples", None, 1, True),
    (K, {"key_items": [["apples"]]}, _STEPS + "green apples", None, 1, False),
    (K, {"key_items": [["lemons"], ["limes"]]}, _STEPS + "limes and pears", None, 1, True),
    (K, {"key_items": [["pears"]]}, _STEPS + "limes and plums", None, 0, False),
    # ... a closing JSON object is that line
    (
        K,
        {"key_items": [["shed"]]},
        _PUZZLE + '```json\n{\n  "place": "stable"\n}\n```',
        None,
        1,
        True,
    ),
    (
        K,
        {"key_items": [["stable"]]},
        _PUZZLE + '```json\n{\n  "place": "stable"\n}\n```',
        None,
        1,
        False,
    ),
    # ... not a list item, a line cut off, or a sentence of its own
    (K, {"key_items": [["lemons"]]}, _STEPS + "- green apples", None, 1, False),
    (K, {"key_items": [["lemons"]]}, _STEPS + "So what grows here is,", None, 1, False),
    (
        K,
        {"key_items": [["lemons"]]},
        _STEPS + "The crate holds limes from a farm near the coast, by the look of them.",
        None,
        1,
        False,
    ),
    # ... nor a short answer with no reasoning above it
    (K, {"key_items": [["lemons"]]}, "Lemons, I'd say.\ngreen apples", None, 1, False),
    # location candidates, as key items
    (
        LOC,
        {"location_fine_grained": ["Lyon"], "location_coarse_grained": ["France"]},
        "The bridge's arches are like those in Lyon, yet the river is too wide and the "
        "hills too far for the city; the tram livery is Swiss, and the lake front with its "
        "fountain settles the matter beyond doubt for anyone who has seen it.\n"
        "Geneva, Switzerland",
        None,
        1,
        True,
    ),
    # an option's value in LaTeX names the option written in plain text, not the
    # option whose number starts it
    (C, {"label": "3"}, r"The area is $\boxed{18\sqrt{2}}$.", AREA, 1, False),
    (C, {"label": "1"}, r"The area is $\boxed{18\sqrt{2}}$.", AREA, 0, False),
    (C, {"label": "1"}, r"The area is $\boxed{18}$.", AREA, 1, False),
    (C, {"label": "4"}, r"So the area is $9 \cdot \sqrt{2}$ square units.", AREA, 1, False),
    # another's belief reported with a marker is not the answer's own (single source:
    # researchaudio cot-experiments, batch 17)
    (
        C,
        {"label": "B"},
        "Jupiter is by far the largest, so the answer is B.\n\n"
        "A reader who is often right believes the answer is C, but Venus is smaller than Earth.",
        PLANETS,
        1,
        False,
    ),
    (C, {"label": "B"}, "Jupiter is largest. I think the answer is B.", PLANETS, 1, False),
    (C, {"label": "B"}, "They say Mars; I believe the answer is B.", PLANETS, 1, False),
    # a Markdown heading that names a new problem after the answer starts one the model
    # invented (single source: CoTLab, batch 16); a heading about the question does not
    (C, {"label": "D"}, _RUN_ON, MOONS, 1, False),
    (C, {"label": "A"}, _RUN_ON, MOONS, 0, False),
    (
        C,
        {"label": "D"},
        "Mercury has no moons.\n\n### Understanding the Question\n\nIt asks which has none, "
        "so the answer is D.",
        MOONS,
        1,
        False,
    ),
    # a year the first sentence dates its fact by is no amount, unless a year is asked
    (
        N,
        {"value_to_match": 14},
        _DEBUT,
        "What was Maria Callas's age at her stage debut?",
        1,
        False,
    ),
    (
        N,
        {"value_to_match": 1938},
        _DEBUT,
        "What was Maria Callas's age at her stage debut?",
        0,
        False,
    ),
    (
        N,
        {"value_to_match": 1938},
        _DEBUT,
        "In which year did Maria Callas first sing on stage?",
        1,
        False,
    ),
    # a step's number is no amount: a reasoning cut off in step 3 states step 2's result
    (N, {"value_to_match": 11}, _MARBLES, "How many marbles are left?", 1, False),
    (N, {"value_to_match": 3}, _MARBLES, "How many marbles are left?", 0, False),
    # a key that spells a month and its year is named by a date of that month
    (
        K,
        {"key_items": [["March 1921"]]},
        "It was signed on March 12, 1921, in Riga.",
        None,
        1,
        False,
    ),
    (
        K,
        {"key_items": [["March 1921"]]},
        "It was signed on April 12, 1921, in Riga.",
        None,
        0,
        False,
    ),
    (
        K,
        {"key_items": [["March 1921"]]},
        "Signed on March 12, 1921 and ratified on May 2, 1921.",
        None,
        0,
        False,
    ),
    # a key joining two phrases with "or" or "/" is named by either phrase
    (
        K,
        {"key_items": [["hit points or health points"]]},
        "HP stands for health points.",
        None,
        1,
        False,
    ),
    (
        K,
        {"key_items": [["hit points or health points"]]},
        "It counts points of health.",
        None,
        0,
        False,
    ),
    (
        K,
        {"key_items": [["gift of God/gift of the sea"]]},
        "It means 'gift of the sea'.",
        None,
        1,
        False,
    ),
    (K, {"key_items": [["gift of God/gift of the sea"]]}, "It means 'gift'.", None, 0, False),
    # ... not a name with "or" or "/" inside it
    (
        K,
        {"key_items": [["To SquarePants or Not to SquarePants"]]},
        "Not to SquarePants.",
        None,
        0,
        False,
    ),
    (K, {"key_items": [["AC/DC"]]}, "They play AC in the first half.", None, 0, False),
    # a word in capitals spelling a key's initials names it; two letters say too little
    (
        K,
        {"key_items": [["all-terrain vehicle"]]},
        "It is an ATV, built for trails.",
        None,
        1,
        False,
    ),
    (K, {"key_items": [["National Basketball Association"]]}, "He joined the NBA.", None, 1, False),
    (K, {"key_items": [["National Basketball Association"]]}, "He joined the NFL.", None, 0, False),
    (K, {"key_items": [["all-terrain vehicle"]]}, "Not an ATV but a dirt bike.", None, 0, False),
    (K, {"key_items": [["Charles Dickens"]]}, "The CD sold well.", None, 0, False),
]


@pytest.mark.parametrize("case", CASES)
def test_reading(case: Reading) -> None:
    assert_reading(*case)
