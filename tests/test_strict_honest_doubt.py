"""Strict mode says "needs a look" where its reading is shaky, by general signals:
a yes/no key answered in words it cannot parse, a wrong town in the right country
the answer does not name, a number near a key that may itself be rounded, an
answer less precise than asked, a correction cue read only as an
interjection, and a 0 beside a word spelled almost as a key's. Each signal with cases it must not mark. The wordings are this
file's own."""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

K = "key_items_matching"
N = "number_matching"
C = "choices_matching"
L = "location_matching"

CASES: list[Reading] = [
    # A yes/no key, and an answer that says neither word nor restates a question it
    # can parse (another language; a question without its auxiliary verb): unsure.
    (
        K,
        {"key_items": [["yes", "oui"]]},
        "Les ressortissants de la plupart des pays présentent un passeport à la frontière.",
        "faut-il un passeport pour entrer au Canada",
        0,
        True,
    ),
    (
        K,
        {"key_items": [["no"]]},
        "Wild penguins live almost entirely in the southern hemisphere.",
        "Penguins nesting in the Arctic, true?",
        0,
        True,
    ),
    # ... sure when the answer says it, or restates an English question's claim
    (K, {"key_items": [["yes", "oui"]]}, "Oui, un passeport est exigé.", "faut-il un passeport", 1, False),
    (K, {"key_items": [["no"]]}, "Mars is not larger than Earth.", "Is Mars larger than Earth?", 1, False),
    (K, {"key_items": [["yes"]]}, "No: the ferry stopped running in 1998.", "Does the ferry still run?", 0, False),
    # A wrong town in a coarse candidate's country (or US state) the answer does not
    # name: labellers differ on whether that earns the coarse credit; unsure.
    (L, {"location_fine_grained": ["Bergen"], "location_coarse_grained": ["Norway"]}, "Trondheim", None, 0, True),
    (
        L,
        {"location_fine_grained": ["San Diego"], "location_coarse_grained": ["California"]},
        "The pier scenes were shot in Sacramento.",
        None,
        0,
        True,
    ),
    # ... in any script
    (L, {"location_fine_grained": ["Берген"], "location_coarse_grained": ["Норвегия"]}, "Тронхейм.", None, 0, True),
    # ... sure for a town elsewhere, or with the country named (its coarse credit)
    (L, {"location_fine_grained": ["Bergen"], "location_coarse_grained": ["Norway"]}, "Gothenburg", None, 0, False),
    (L, {"location_fine_grained": ["Берген"], "location_coarse_grained": ["Норвегия"]}, "Гётеборг.", None, 0, False),
    (
        L,
        {"location_fine_grained": ["Bergen"], "location_coarse_grained": ["Norway"]},
        "Trondheim, Norway",
        None,
        0.5,
        False,
    ),
    # A 0 with a word of five letters or more spelled almost as a word of a key item
    # the answer does not name (a misspelling, an inflection, or another word): unsure.
    (
        K,
        {"key_items": [["Katharine Hepburn"]]},
        "Critics credit Katherine Hepburn with the part. The film ran for weeks after its 1940 release.",
        "Who played the lead?",
        0,
        True,
    ),
    (K, {"key_items": [["mountain range"]]}, "They count as ranges or massifs.", "What are they?", 0, True),
    # ... sure without one, for a word the question holds, against a key word that is a
    # place (its adjectives and neighbours read as such) or no word (a puzzle's letters)
    (K, {"key_items": [["mountain range"]]}, "They count as massifs.", "What are they?", 0, False),
    (
        K,
        {"key_items": [["three spoons of honey"]]},
        "They are the same: one spoon.",
        "Which is sweeter, a spoon of sugar or three spoons of honey?",
        0,
        False,
    ),
    (K, {"key_items": [["Niger"]]}, "Nigeria.", "Niamey is the capital of?", 0, False),
    (K, {"key_items": [["tkae"]]}, "The answer is tkkae.", "Join the words' last letters.", 0, False),
    (L, {"location_fine_grained": ["West Africa"]}, "Ghana is an East African nation.", "Where is Ghana?", 0, False),
    # A count within 2 % of a whole key that is a rounder figure (the key may be
    # the value rounded), or of any key when the question asks an estimate: unsure.
    (N, {"value_to_match": 4000}, "The monastery library holds 3,964 manuscripts.", "How many manuscripts?", 0, True),
    (N, {"value_to_match": 8849}, "The summit stands at 8,850 metres.", "Roughly how tall is the peak, in metres?", 0, True),
    # ... sure when further off, or when the key is the precise figure
    (N, {"value_to_match": 4000}, "The library holds 3,600 manuscripts.", "How many manuscripts?", 0, False),
    (N, {"value_to_match": 4017}, "The library holds 4,000 manuscripts.", "How many manuscripts?", 0, False),
    # Inside an estimate key's band but less precise than asked, or the key cut off
    # rather than rounded: unsure.
    (N, {"value_to_match": 2.718}, "It is 2.71.", "What is e to three decimal places?", 1, True),
    (N, {"value_to_match": 12.8}, "The tank holds 12 litres.", "How many litres?", 1, True),
    # ... sure when rounded to the places it states, or as precise as asked
    (N, {"value_to_match": 12.3}, "The tank holds 12 litres.", "How many litres?", 1, False),
    (N, {"value_to_match": 2.718}, "It is 2.718.", "What is e to three decimal places?", 1, False),
    (N, {"value_to_match": 26.2}, "Twenty-six point two.", "How far, to one decimal place?", 1, False),
    # "wait" as a noun corrects nothing; as an interjection it still does.
    (
        C,
        {"label": "B"},
        "Final Answer: B. The others (a short wait, a long wait) do not fit.",
        "Which slot?\nA. 3pm\nB. 5pm",
        1,
        False,
    ),
    (C, {"label": "B"}, "Final Answer: A\n\nBut wait, the shop shuts at 4, so B.", "Which?\nA. 3pm\nB. 5pm", 1, False),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[2][:40])
def test_honest_doubt(case: Reading) -> None:
    assert_reading(*case)
