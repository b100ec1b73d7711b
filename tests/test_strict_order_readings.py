"""Strict mode reading orders told in prose, by ranks and from either end.

Each case is (kwargs, answer, question, score, unsure): ``unsure`` says whether
the verdict must carry ``uncertain`` (a reading that rests on a guess) or must
not. Wordings are this file's own.
"""

from __future__ import annotations

from typing import Any

import pytest
from strict_fixtures import assert_reading

RIVERS = "Order the rivers from longest to shortest.\nA. Thames\nB. Nile\nC. Danube\nD. Amazon"
TOWNS = "List the towns from west to east.\nA. Leeds\nB. Liverpool\nC. Hull"
RACE = (
    "Rank the boats by finishing position.\nA. the yellow boat\nB. the grey boat\nC. the pink boat"
)
DAY = "Put these meals in order.\nA. supper\nB. elevenses\nC. breakfast"

CASES: list[tuple[dict[str, Any], str, str | None, int, bool]] = [
    # prose: each item's mention, ranked by the words in its clause
    (
        {"order": ["Ann", "Ben", "Cy"]},
        "Cy ended third while Ann took first and Ben was second.",
        None,
        1,
        False,
    ),
    (
        {"order": ["Ann", "Ben", "Cy"]},
        "Ann won the race, Ben was the runner-up and Cy came last.",
        None,
        1,
        False,
    ),
    ({"order": ["Ann", "Ben", "Cy"]}, "Ann crossed the line, then Cy, then Ben.", None, 0, False),
    ({"order": ["oak", "elm", "ash"]}, "#1 oak, #2 elm, #3 ash", None, 1, False),
    (
        {"order": ["oak", "elm", "ash"]},
        "The oak is number 1, the elm number 2 and the ash number 3.",
        None,
        1,
        False,
    ),
    ({"order": ["oak", "elm", "ash"]}, "ash (3rd), oak (1st), elm (2nd)", None, 1, False),
    ({"order": ["oak", "elm", "ash"]}, "Ash comes after elm, and elm after oak.", None, 0, True),
    # bare numbers after every item, together 1..n, are ranks
    ({"order": "B,D,C,A"}, "Thames 4, Nile 1, Danube 3, Amazon 2", RIVERS, 1, False),
    # medals rank
    ({"order": "B,C,A"}, "Gold: grey boat; silver: pink boat; bronze: yellow boat", RACE, 1, False),
    # a bracketed remark after a list of letters is not part of it
    ({"order": "B,C,A"}, "Final Answer: B, C, A (grey, pink, yellow)", RACE, 1, False),
    # the list written from the other end than the question asks
    ({"order": "B,A,C"}, "East to west: Hull, Leeds, Liverpool", TOWNS, 1, False),
    ({"order": "B,A,C"}, "Final Answer: Liverpool, Leeds, Hull", TOWNS, 1, False),
    ({"order": "B,D,C,A"}, "In increasing length: Thames, Danube, Amazon, Nile.", RIVERS, 1, False),
    ({"order": "B,D,C,A"}, "Thames < Danube < Amazon < Nile", RIVERS, 1, False),
    (
        {"order": "B,D,C,A"},
        "Sorted in descending order: Nile, Amazon, Danube, Thames.",
        RIVERS,
        1,
        False,
    ),
    # an item that names no option where the option it needs is missing: a guess
    ({"order": "C,B,A"}, "Frühstück, elevenses, supper", DAY, 0, True),
    # an item that names no option where the order is wrong anyway: sure
    ({"order": "C,B,A"}, "supper, brunch, breakfast", DAY, 0, False),
    # a known place where another belongs is surely wrong; an unknown name may be it
    (
        {"order": ["Oslo", "Bergen", "Trondheim"]},
        "Final Answer: Oslo, Bergen, Lyon",
        None,
        0,
        False,
    ),
    (
        {"order": ["Oslo", "Bergen", "Trondheim"]},
        "Final Answer: Oslo, Bergen, Tronjem",
        None,
        0,
        True,
    ),
    # options described in prose ("A shows ...", "Photo B: ...", "C - ...")
    (
        {"order": "C,A,B"},
        "dawn chorus, lunch, bedtime",
        "Order the clips by time. A shows lunch, B shows bedtime, C shows the dawn chorus.",
        1,
        False,
    ),
    (
        {"order": "C,A,B"},
        "bedtime, lunch, dawn chorus",
        "Photo A: lunch. Photo B: bedtime. Photo C: the dawn chorus. Order them.",
        0,
        False,
    ),
    (
        {"order": "C,A,B"},
        "The dawn chorus first, then lunch, then bedtime.",
        "Order them: A - lunch; B - bedtime; C - dawn chorus",
        1,
        False,
    ),
    # letters joined by slashes or dots; some items ranked, the rest fill the places left
    ({"order": ["C", "A", "B"]}, "Final Answer: C/A/B", None, 1, False),
    ({"order": ["C", "A", "B"]}, "Final Answer: C.A.B", None, 1, False),
    (
        {"order": ["Ann", "Ben", "Cy", "Di"]},
        "Ann took first and Di came last, Ben and Cy in between.",
        None,
        1,
        False,
    ),
    (
        {"order": ["Ann", "Ben", "Cy", "Di"]},
        "Di was last and Ann first; Cy finished just behind Ben.",
        None,
        0,
        True,
    ),
    # an extra item of its own makes a clean list, wrongly long
    ({"order": ["C", "A", "B"]}, "Final Answer: C, A, B, E", None, 0, False),
    # asides with commas of their own, digit groups, remarks after a dash
    (
        {"order": ["Nile", "Amazon", "Yangtze"]},
        "Nile (6,650 km), Amazon (6,400 km), Yangtze (6,300 km)",
        None,
        1,
        False,
    ),
    (
        {"order": ["Nile", "Amazon", "Yangtze"]},
        "1) Nile – 6650 km\n2) Amazon – 6400 km\n3) Yangtze – 6300 km",
        None,
        1,
        False,
    ),
    (
        {"order": ["Nile", "Amazon", "Yangtze"]},
        "Final answer: Nile, Amazon, Yangtze — the Nile narrowly.",
        None,
        1,
        False,
    ),
    (
        {"order": ["Nile", "Amazon", "Yangtze"]},
        "Nile, Amazon, Yangtze — or possibly Amazon first.",
        None,
        0,
        False,
    ),
    # hyphens, other names and spellings of the items
    ({"order": ["steam engine", "light bulb"]}, "steam-engine, light-bulb", None, 1, False),
    (
        {"order": ["Germany", "Austria", "Hungary"]},
        "Deutschland, Österreich, Magyarország",
        None,
        1,
        False,
    ),
    # "chronological" asks from the earliest; "newest first" answers from the other end
    (
        {"order": ["sail", "steam", "diesel"]},
        "Newest first: diesel, steam, sail.",
        "Put these in chronological order: steam, diesel, sail.",
        1,
        False,
    ),
    # middle dots, names joined by hyphens, "in that order", partial names
    (
        {"order": ["Nile", "Amazon", "Yangtze"]},
        "1st Nile · 2nd Amazon · 3rd Yangtze",
        None,
        1,
        False,
    ),
    (
        {"order": ["Nile", "Amazon", "Yangtze"]},
        "The ranking is Nile-Amazon-Yangtze.",
        None,
        1,
        False,
    ),
    (
        {"order": ["Nile", "Amazon", "Yangtze"]},
        "Nile, Amazon and Yangtze, in that order.",
        None,
        1,
        False,
    ),
    (
        {"order": ["steam locomotive", "first airplane"]},
        "The locomotive came before the airplane.",
        None,
        1,
        False,
    ),
    # a bare number in brackets is a value, not a rank
    (
        {"order": ["Nile", "Amazon", "Yangtze"]},
        "Nile (1), Amazon (0.96), Yangtze (0.95)",
        None,
        1,
        False,
    ),
    (
        {"order": ["sail", "steam", "diesel"]},
        "Most recent first: diesel, steam, sail.",
        "Order these chronologically: steam, diesel, sail.",
        1,
        False,
    ),
    # a correction whose list follows "so"
    (
        {"order": ["Nile", "Amazon", "Yangtze"]},
        "Final answer: Amazon, Nile, Yangtze.\n\nCorrection: the Nile is longer than the Amazon, so Nile, Amazon, Yangtze.",
        None,
        1,
        False,
    ),
    # every option named, in prose the list reader cannot split
    (
        {"order": "B,D,C,A"},
        "The Nile beats the Amazon narrowly while the Thames trails the Danube.",
        RIVERS,
        0,
        True,
    ),
]


@pytest.mark.parametrize(("kwargs", "answer", "question", "score", "unsure"), CASES)
def test_order_readings(
    kwargs: dict[str, Any], answer: str, question: str | None, score: int, unsure: bool
) -> None:
    assert_reading("ordered_list_matching", kwargs, answer, question, score, unsure)
