"""What an answer commits to when it names the key outside its commitment, hedges
after it, or takes it back in its last sentence; in this file's own words.

Each case is (evaluator, kwargs, answer, question, score, unsure): ``unsure``
says whether the verdict must carry ``uncertain`` or must not.
"""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

K, L, C, N = "key_items_matching", "location_matching", "choices_matching", "number_matching"
ORD = "ordered_list_matching"
SHAPES = "Which shape is drawn?\nA. oval\nB. square\nC. star"
LENGTHS = "Order the objects by length, longest first.\nA. ruler\nB. pencil\nC. broom"

CASES: list[Reading] = [
    # the key named only outside the committed sentence, which names another
    # name: two readings disagree, the verdict stands, unsure
    (K, {"key_items": [["Vienna"]]}, "My first guess was Vienna. The trams and the river say Budapest.", None, 1, True),
    (K, {"key_items": [["Budapest"]]}, "My first guess was Vienna. The trams and the river say Budapest.", None, 1, False),
    (K, {"key_items": [["Lima"]]}, "Final Answer: Quito. Lima sits on the coast, this city in the Andes.", None, 1, True),
    # ... or after the committed clause's turn
    (L, {"location_fine_grained": ["Porto"], "location_coarse_grained": ["Portugal"]},
     "The azulejos suggest Porto in Portugal, yet the tram line is Lisbon's.", None, 1.0, True),
    (K, {"key_items": [["Vermeer"]]}, "The light recalls Vermeer, but the brushwork is de Hooch's.", None, 1, True),
    # an answer that states the key first, in words holding it as no passing
    # belief, then goes on about it: a name after it is no rival
    (K, {"key_items": [["Agra"]]}, "This is Agra. The white tomb is the Taj Mahal.", None, 1, False),
    (K, {"key_items": [["Agra"]]}, "Final Answer: Agra (the Taj Mahal).", None, 1, False),
    # ... or only in a clause in brackets after it
    (K, {"key_items": [["Seine"]]}, "The Loire (the Seine flows further north).", None, 1, True),
    # two names and no choice
    (K, {"key_items": [["Degas"]]}, "Degas? Cassatt? I cannot decide.", None, 0, True),
    (K, {"key_items": [["Degas"]]}, "Degas, I think; hard to say which of his dancers series.", None, 1, False),
    # a belief held until something changed it
    (L, {"location_fine_grained": ["Porto"], "location_coarse_grained": ["Portugal"]},
     "Porto was my first guess until I noticed the tram number: Lisbon, Portugal.", None, 0.5, False),
    # a long answer's last sentence is as often a remark: not weighed
    (
        K,
        {"key_items": [["Rome"]]},
        "The dome is St Peter's. It stands in Rome. The square is by Bernini. "
        "The colonnade is his too. Nearby runs the Tiber, past Castel Sant'Angelo.",
        None,
        1,
        False,
    ),
    # hedges after the key
    (K, {"key_items": [["Saturn"]]}, "Final Answer: Saturn (or perhaps Jupiter)", None, 0, False),
    (K, {"key_items": [["maple"]]}, "A maple, unless it is a sycamore.", None, 0, False),
    (K, {"key_items": [["Haydn"]]}, "Haydn, though it might just as well be Mozart.", None, 0, False),
    (C, {"label": "B"}, "Probably B, though C cannot be ruled out.", SHAPES, 0, False),
    (C, {"label": "B"}, "B, with C just as likely.", SHAPES, 0, False),
    (C, {"label": "B"}, "B, I believe, though C is not impossible.", SHAPES, 0, False),
    # several options named: what follows the last colon settles it
    (C, {"label": "B"}, "An oval looked likely until I counted the corners: a square.", SHAPES, 1, False),
    # what the answer says it is confused with is no candidate
    (K, {"key_items": [["Elbe"]]}, "It is the Oder, easily confused with the Elbe.", None, 0, False),
    (K, {"key_items": [["Oder"]]}, "It is the Oder, easily confused with the Elbe.", None, 1, False),
    # a concluding sentence that takes back its first list
    (ORD, {"order": "B,C,A"}, "B, A, C — wait, no: B, C, A.", None, 1, False),
    (ORD, {"order": "B,A,C"}, "B, A, C — wait, no: B, C, A.", None, 0, False),
    (ORD, {"order": "B,A,C"}, "Wait, I checked again. B, A, C.", None, 1, False),
    # a remark after the marker's answer is outside the commitment
    (K, {"key_items": [["Bergen"]]}, "Final Answer: Trondheim — Bergen came a close second.", None, 1, True),
    (K, {"key_items": [["Bergen"]]}, "Final Answer: Trondheim (Bergen was my other guess)", None, 1, True),
    # a name or two in brackets is the answer's other name, not a remark
    (L, {"location_fine_grained": ["Karlův most"], "location_coarse_grained": ["Prague"]}, "Final Answer: Charles Bridge (Karlův most), Prague", None, 1.0, False),
    # a list given from the other end, whose ends have several opposites ("shortest")
    (ORD, {"order": "C,A,B"}, "Shortest to longest: pencil, ruler, broom.", LENGTHS, 1, False),
    (ORD, {"order": "C,A,B"}, "From shortest to longest: broom, ruler, pencil.", LENGTHS, 0, False),
    # a belief conceded to others before "but"
    (ORD, {"order": "C,A,B"}, "Some think the ruler is longest, but I rank the broom first, the ruler second and the pencil third.", LENGTHS, 1, False),
    # corrections after the final answer, in other words than the usual cues
    (C, {"label": "C"}, "Final Answer: A\n\nLooking at the photo again, the star is clearer: C.", SHAPES, 1, False),
    (C, {"label": "A"}, "Final Answer: A\n\nLooking at the photo again, the star is clearer: C.", SHAPES, 0, False),
    (C, {"label": "B"}, "Final Answer: C\nI take it back, it is B.", SHAPES, 1, False),
    (N, {"value_to_match": 21}, "Final Answer: 19\n\nI overlooked two behind the tree, so 21.", None, 1, False),
    (N, {"value_to_match": 19}, "Final Answer: 19\n\nI overlooked two behind the tree, so 21.", None, 0, False),
    (K, {"key_items": [["Riga"]]}, "Final Answer: Tallinn\n\nUpon further review of the signs: Riga.", None, 1, False),
    (ORD, {"order": "B,C,A"}, "Final Answer: B, A, C\n\nErratum — the last two are swapped; the order is B, C, A.", None, 1, False),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[2][:50])
def test_committed_reading(case: Reading) -> None:
    assert_reading(*case)
