"""Strict mode's reading rules, each worded unlike the issue's and the blind set's examples.

What the answer commits to (conclusion, hedges, compounds, list joiners), what the
question says (options by text, orders by names and ranks, number conventions),
names from maintained data, corrections, exclusions, and the ``rule_uncertain``
flag raised where strict mode cannot decide.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorers.evaluate import strict
from scorers.evaluate.strict import names
from scorers.grade.grader import Grader
from scorers.io.run_settings import RunSettings

INSTRUMENTS = "Which instrument is shown?\nA. violin\nB. cello\nC. trumpet\nD. flute"
MEDALS = "Rank the medals by value.\nA. bronze\nB. gold\nC. silver"

Case = tuple[str, dict[str, Any], str, "str | None", float]


def _check(case: Case) -> None:
    evaluator, kwargs, answer, question, label = case
    outcome = strict.evaluate(evaluator, kwargs, answer, question)
    assert outcome.score == label, outcome


COMMITMENT: list[Case] = [
    ("number_matching", {"value_to_match": 6},
     "At first glance I counted 8 boats, but two of them are reflections. So there are 6 boats.", None, 1),
    ("choices_matching", {"label": "D"},
     "C looks tempting, yet the dial reads too high for it. The reading matches D.", None, 1),
    ("key_items_matching", {"key_items": [["hawk"]]},
     "It isn't a hawk: the flat face and forward eyes mark it as an owl.", None, 0),
    ("key_items_matching", {"key_items": [["owl"]]},
     "It isn't a hawk: the flat face and forward eyes mark it as an owl.", None, 1),
]  # fmt: skip

EARLIER_BELIEFS: list[Case] = [
    ("location_matching", {"location_fine_grained": ["Porto"], "location_coarse_grained": ["Portugal"]},
     "My first thought was Porto, but the tram and the hills say Lisbon, Portugal.", None, 0.5),
    ("key_items_matching", {"key_items": [["horse"]]},
     "I initially guessed a horse; looking at the stripes, it is a zebra.", None, 0),
    ("key_items_matching", {"key_items": [["zebra"]]},
     "I initially guessed a horse; looking at the stripes, it is a zebra.", None, 1),
]  # fmt: skip

HEDGES: list[Case] = [
    ("number_matching", {"value_to_match": 6}, "Final Answer: 6 (possibly 7)", None, 0),
    ("choices_matching", {"label": "B"}, "Final Answer: B, though C is also possible", None, 0),
    ("number_matching", {"value_to_match": 7}, "Final Answer: 7 or 8", None, 0),
    ("number_matching", {"value_to_match": 7}, "I'd say either 7 or possibly 9 apples.", None, 0),
    ("key_items_matching", {"key_items": [["oak"]]}, "The leaf is from an oak or perhaps a maple.", None, 0),
    ("location_matching", {"location_fine_grained": ["Lyon"], "location_coarse_grained": ["France"]},
     "Final Answer: Lyon or Marseille, France", None, 0.5),
    # Not hedges: another name of the same thing, and "or" between ways of counting.
    ("key_items_matching", {"key_items": [["Mumbai"]]}, "Final Answer: Mumbai (or Bombay)", None, 1),
    ("number_matching", {"value_to_match": 4}, "Counting rows or columns, both ways give 4.", None, 1),
]  # fmt: skip

COMPOUNDS: list[Case] = [
    ("key_items_matching", {"key_items": [["star"]]}, "The logo shows a starfish.", None, 0),
    ("key_items_matching", {"key_items": [["7"]]}, "The shirt number is 17.", None, 0),
    ("key_items_matching", {"key_items": [["Type"]]}, "It is set in TypeScript.", None, 0),
    ("key_items_matching", {"key_items": [["bear"]]}, "Two bears stand by the river.", None, 1),
    ("key_items_matching", {"key_items": [["child"]]}, "Three children are skating.", None, 1),
    ("key_items_matching", {"key_items": [["loaf"]]}, "Two loaves of bread.", None, 1),
    ("key_items_matching", {"key_items": [["cherry"]]}, "A bowl of cherries.", None, 1),
    ("key_items_matching", {"key_items": [["goose"]]}, "Geese on the lake.", None, 1),
    ("key_items_matching", {"key_items": [["sea lion"]]}, "That's a sea-lion on the rock.", None, 1),
]  # fmt: skip

LISTS: list[Case] = [
    ("ordered_list_matching", {"order": ["Rome", "Paris", "Berlin"]}, "Final Answer: Rome, Paris, & Berlin", None, 1),
    ("ordered_list_matching", {"order": ["C", "A", "D", "B"]}, "Final Answer: C—A—D—B", None, 1),
    ("ordered_list_matching", {"order": ["C", "A", "D", "B"]}, "Order: C-A-D-B", None, 1),
    ("ordered_list_matching", {"order": ["C", "A", "D", "B"]}, "1. C 2. A 3. D 4. B", None, 1),
    ("ordered_list_matching", {"order": ["Paris", "Rome", "Berlin"]},
     "(1) Paris (2) Rome (3) Berlin", None, 1),
    ("ordered_list_matching", {"order": ["C", "A", "D", "B"]}, "Final Answer: C, A, D and B", None, 1),
    ("ordered_list_matching", {"order": ["C", "A", "D", "B"]},
     "First C, then A, then D, and finally B.", None, 1),
    ("ordered_list_matching", {"order": ["red", "green", "blue"]},
     "Final Answer: red, then green, finally blue", None, 1),
    ("ordered_list_matching", {"order": ["B", "A", "C"]}, "B comes first, A second and C last.", None, 1),
]  # fmt: skip

QUESTION: list[Case] = [
    ("choices_matching", {"label": "C"}, "The player holds a trumpet.", INSTRUMENTS, 1),
    ("choices_matching", {"label": "C"}, "Final Answer: violin", INSTRUMENTS, 0),
    ("choices_matching", {"label": "C"}, "It is a trumpet or a flute.", INSTRUMENTS, 0),
    ("choices_matching", {"label": "B"}, "Final Answer: 30%", "What share is red?\n(A) 20%\n(B) 30%\n(C) 40%", 1),
    ("choices_matching", {"label": "B"}, "Final Answer: twenty", "How many?\nA) 10\nB) 20\nC) 30", 1),
    ("ordered_list_matching", {"order": ["B", "C", "A"]}, "Final Answer: gold, silver, bronze", MEDALS, 1),
    ("ordered_list_matching", {"order": ["B", "C", "A"]}, "Final Answer: silver, gold, bronze", MEDALS, 0),
    ("ordered_list_matching", {"order": ["B", "C", "A"]}, "Final Answer: A = 3rd, B = 1st, C = 2nd", MEDALS, 1),
    ("ordered_list_matching", {"order": ["B", "C", "A"]}, "1st: gold; 2nd: silver; 3rd: bronze", MEDALS, 1),
    ("ordered_list_matching", {"order": ["B", "C", "A"]}, "Ranks: A=3, B=1, C=2", MEDALS, 1),
]  # fmt: skip

CONTAINERS = "Order the jars by volume from smallest to largest.\nA. the jam jar\nB. the barrel\nC. the thimble"
ANIMALS = "Which picture shows a fox?\nA. a badger\nB. a fox\nC. a hare"

SIZES = "Order the animals from smallest to largest.\nA. cat\nB. elephant\nC. mouse\nD. horse"
RECIPE = (
    "Order the recipe steps.\nA. bake the cake\nB. mix the batter\nC. preheat the oven\nD. serve"
)

ENDS_AND_PLACES: list[Case] = [
    (
        "ordered_list_matching",
        {"order": ["C", "A", "D", "B"]},
        "The biggest is the elephant, then the horse, then the cat, and the mouse is the tiniest.",
        SIZES,
        1,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "A", "D", "B"]},
        "Top: mouse; then cat; then horse; bottom: elephant",
        SIZES,
        1,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "A", "D", "B"]},
        "mouse < cat < horse < elephant",
        SIZES,
        1,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "A", "D", "B"]},
        "From biggest to smallest: elephant, horse, cat, mouse",
        SIZES,
        1,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "A", "D", "B"]},
        "From biggest to smallest: mouse, cat, horse, elephant",
        SIZES,
        0,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "B", "A", "D"]},
        "Preheating, mixing, baking, serving.",
        RECIPE,
        1,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "B", "A", "D"]},
        "Preheat the oven before you mix the batter; baking comes before serving.",
        RECIPE,
        1,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "B", "A", "D"]},
        "C is ranked 1, B is ranked 2, A is ranked 3, D is ranked 4",
        RECIPE,
        1,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "B", "A", "D"]},
        "Mixing, preheating, baking, serving.",
        RECIPE,
        0,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "A", "B"]},
        "The barrel is largest, the jam jar is in the middle, and the thimble is smallest.",
        CONTAINERS,
        1,
    ),
    (
        "ordered_list_matching",
        {"order": ["C", "A", "B"]},
        "From largest to smallest: barrel, jam jar, thimble.",
        CONTAINERS,
        1,
    ),
    ("choices_matching", {"label": "B"}, "It is the second picture.", ANIMALS, 1),
    ("choices_matching", {"label": "B"}, "Final Answer: option 2", ANIMALS, 1),
    (
        "choices_matching",
        {"label": "B"},
        "Final Answer: hens and ducks",
        "Which birds are shown?\nA. hens\nB. hens and ducks\nC. ducks",
        1,
    ),
    ("choices_matching", {"label": "C"}, "Final Answer: the last option", ANIMALS, 1),
]

NUMBERS: list[Case] = [
    ("number_matching", {"value_to_match": 0.001}, "Final Answer: 0,001", None, 1),
    ("number_matching", {"value_to_match": 7.25}, "Final Answer: 7¼", None, 1),
    ("number_matching", {"value_to_match": 2.5},
     "Ich habe die Anzeige genau abgelesen, sie zeigt etwas über zwei.\n\nFinal Answer: 2,500", None, 1),
    ("number_matching", {"value_to_match": 2.5}, "Final Answer: 2,500", "Welchen Wert zeigt die Waage über Null an?", 1),
    ("number_matching", {"value_to_match": 2500000}, "Il y a 2,5 millions d'habitants.", None, 1),
    ("number_matching", {"value_to_match": 12}, "It takes about 12 min to walk there.", None, 1),
    ("number_matching", {"value_to_match": 10000}, "Final Answer: 10.000", "How many visitors are counted?", 1),
    ("number_matching", {"value_to_match": 250000}, "Final Answer: 2,50,000", None, 1),
    ("number_matching", {"value_to_match": 4321.5}, "Final Answer: 4'321.5", None, 1),
    ("number_matching", {"value_to_match": 2.75}, "Die Länge beträgt 2,75 Meter.", None, 1),
    ("number_matching", {"value_to_match": 48000}, "Final Answer: 48 000", None, 1),
    ("number_matching", {"value_to_match": 0.5}, "Final Answer: ½", None, 1),
    ("number_matching", {"value_to_match": 2.5}, "Final Answer: 2½ cups", None, 1),
    ("number_matching", {"value_to_match": -12}, "The thermometer reads −12 °C.", None, 1),
    ("number_matching", {"value_to_match": 1250}, "La población es de 1.250 habitantes.", None, 1),
    ("number_matching", {"value_to_match": 1.25}, "La población es de 1.250 habitantes.", None, 0),
    ("number_matching", {"value_to_match": 3200000}, "Final Answer: 3.2M", None, 1),
    ("number_matching", {"value_to_match": 2500}, "Il y a environ 2,5 mille personnes.", None, 1),
    ("number_matching", {"value_to_match": 1234567}, "Final Answer: 1.234.567", None, 1),
    ("number_matching", {"value_to_match": 1234.5}, "Final Answer: 1.234,5", None, 1),
    ("number_matching", {"value_to_match": 2300}, "Final Answer: 2.300", "How many bricks are in the wall?", 1),
]  # fmt: skip

NAMES: list[Case] = [
    ("location_matching", {"location_fine_grained": ["Munich"], "location_coarse_grained": ["Germany"]},
     "Final Answer: München, Deutschland", None, 1),
    ("key_items_matching", {"key_items": [["color"]]}, "The colour is what gives it away.", None, 1),
    ("key_items_matching", {"key_items": [["theater"]]}, "It is a theatre.", None, 1),
    ("location_matching", {"location_fine_grained": ["Mount Rainier"], "location_coarse_grained": ["Washington"]},
     "Final Answer: Mt. Rainier, Washington", None, 1),
    ("key_items_matching", {"key_items": [["Spain"]]}, "Final Answer: España", None, 1),
    ("key_items_matching", {"key_items": [["Prague"]]}, "Final Answer: Praha", None, 1),
    ("key_items_matching", {"key_items": [["Sweden"]]}, "Final Answer: Switzerland", None, 0),
    ("key_items_matching", {"key_items": [["United States"]]}, "Final Answer: USA", None, 1),
    ("key_items_matching", {"key_items": [["New York City"]]}, "Final Answer: NYC", None, 1),
    ("key_items_matching", {"key_items": [["Myanmar"]]}, "Final Answer: Burma", None, 1),
    ("key_items_matching", {"key_items": [["Türkiye"]]}, "Final Answer: Turkey", None, 1),
    # The same name, another place: the longer name, or the region it is placed in.
    ("key_items_matching", {"key_items": [["Jersey"]]}, "Final Answer: New Jersey", None, 0),
    ("key_items_matching", {"key_items": [["Paris"]]}, "Final Answer: Paris, Texas", None, 0),
    ("key_items_matching", {"key_items": [["Georgia"]]}, "It is in Savannah, Georgia, USA.", None, 0),
    ("key_items_matching", {"key_items": [["Georgia"]]}, "Final Answer: Kutaisi, Georgia", None, 1),
    ("location_matching", {"location_fine_grained": ["Zocalo"], "location_coarse_grained": ["Mexico"]},
     "Final Answer: Mexico City", None, 0.5),
]  # fmt: skip

EXCLUSIONS: list[Case] = [
    ("key_items_matching", {"key_items": [["Rome"]]}, "Final Answer: Florence, as opposed to Rome", None, 0),
    ("number_matching", {"value_to_match": 15}, "Final Answer: 15 (not 51, the digits are mirrored)", None, 1),
    ("key_items_matching", {"key_items": [["Madrid"]]}, "Final Answer: Barcelona rather than Madrid", None, 0),
    ("location_matching", {"location_fine_grained": ["Oslo"], "location_coarse_grained": ["Norway"]},
     "Final Answer: Bergen, Norway (Oslo is ruled out by the fjord)", None, 0.5),
    ("ordered_list_matching", {"order": ["D", "C", "B", "A"]}, "Final Answer: A, B, C, D, not D, C, B, A", None, 0),
    ("choices_matching", {"label": "A"}, "Final Answer: C, not A", None, 0),
    ("key_items_matching", {"key_items": [["Paris"], ["Rome"]]}, "Not only Paris but also Rome.", None, 1),
]  # fmt: skip

CORRECTIONS: list[Case] = [
    ("number_matching", {"value_to_match": 14},
     "Final Answer: 12\n\nI made a mistake: there are 14 once the hidden ones are counted.", None, 1),
    ("number_matching", {"value_to_match": 9}, "Final Answer: 8\n\nWait, I missed the one behind the tree: 9.", None, 1),
    ("key_items_matching", {"key_items": [["heron"]]},
     "Final Answer: stork\n\nUpdate: the S-shaped neck in flight means it is a heron.", None, 1),
    ("choices_matching", {"label": "B"}, "Final Answer: B\n\nActually, yes, B is right.", None, 1),
    ("number_matching", {"value_to_match": 12}, "Final Answer: 12\n\nEdit: 12 metres, not feet.", None, 1),
    ("ordered_list_matching", {"order": ["A", "C", "B"]},
     "Final Answer: A, B, C\n\nSorry, I swapped the last two: A, C, B.", None, 1),
    ("key_items_matching", {"key_items": [["Barcelona"]]},
     "Final Answer: Barcelona\n\nScratch that: the Royal Palace means Madrid.", None, 0),
    ("key_items_matching", {"key_items": [["Barcelona"]]},
     "Final Answer: Barcelona\n\nActually, I am quite sure of this one.", None, 1),
]  # fmt: skip


@pytest.mark.parametrize("case", COMMITMENT, ids=lambda c: c[2][:40])
def test_the_conclusion_counts_not_every_mention(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", EARLIER_BELIEFS, ids=lambda c: c[2][:40])
def test_an_earlier_belief_the_answer_replaces_does_not_count(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", HEDGES, ids=lambda c: c[2][:40])
def test_two_candidates_are_no_commitment(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", COMPOUNDS, ids=lambda c: c[2][:40])
def test_keys_match_whole_words_and_written_compound_parts(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", LISTS, ids=lambda c: c[2][:40])
def test_and_then_finally_join_list_items(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", QUESTION, ids=lambda c: c[2][:40])
def test_options_and_orders_are_read_through_the_question(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", ENDS_AND_PLACES, ids=lambda c: c[2][:40])
def test_orders_by_the_questions_ends_and_options_by_their_place(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", NUMBERS, ids=lambda c: c[2][:40])
def test_number_formats_of_other_conventions(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", NAMES, ids=lambda c: c[2][:40])
def test_other_names_from_maintained_data(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", EXCLUSIONS, ids=lambda c: c[2][:40])
def test_an_excluded_alternative_does_not_count(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", CORRECTIONS, ids=lambda c: c[2][:40])
def test_a_correction_after_the_final_answer_replaces_it(case: Case) -> None:
    _check(case)


def test_the_name_data_comes_from_its_sources() -> None:
    assert "deutschland" in names.alternatives("Germany")  # CLDR, through Babel
    assert "firenze" in names.alternatives("Florence")  # GeoNames alternate names
    assert "grey" in names.alternatives("gray")  # breame's British/American pairs
    assert "st. louis" in names.alternatives("Saint Louis")  # abbreviation
    # A name another place also carries is nobody's alternative.
    assert "bienne" not in names.alternatives("Vienna")


@pytest.mark.parametrize(
    ("evaluator", "kwargs", "answer", "question", "why"),
    [
        # A key that only ends a longer word: a sunflower is a flower, a pineapple no apple.
        ("key_items_matching", {"key_items": [["fish"]]}, "It is a goldfish.", None, "goldfish"),
        # A place name the data does not know may be a name of the key.
        ("location_matching", {"location_fine_grained": ["Bratislava"]}, "Final Answer: Pressburgum", None, "Pressburgum"),
        # "1.500" is one and a half or fifteen hundred; nothing says which.
        ("number_matching", {"value_to_match": 1500}, "Final Answer: 1.500", "What does the meter show?", "1.500"),
    ],
)  # fmt: skip
def test_undecidable_verdicts_say_why(
    evaluator: str, kwargs: dict[str, Any], answer: str, question: str, why: str
) -> None:
    outcome = strict.evaluate(evaluator, kwargs, answer, question)
    assert outcome.uncertain is not None and why in outcome.uncertain


def test_decided_verdicts_are_not_uncertain() -> None:
    for evaluator, kwargs, answer in [
        ("key_items_matching", {"key_items": [["cat"]]}, "A catamaran is moored."),
        ("location_matching", {"location_fine_grained": ["Vienna"]}, "Final Answer: Venice"),
        ("number_matching", {"value_to_match": 1500}, "Final Answer: 1,500"),
    ]:
        assert strict.evaluate(evaluator, kwargs, answer).uncertain is None


def _graded(mode: str) -> dict[str, Any]:
    grader = Grader(RunSettings(mode=mode))
    record = grader.grade_record(
        {"question_id": "q1", "answer": "<think>hm</think>Final Answer: 1.500"},
        {
            "question_id": "q1",
            "question": "What does the meter show?",
            "evaluator": "number_matching",
            "evaluator_kwargs": {"value_to_match": 1.5},
        },
    )
    grader.finish(record)
    return record


def test_rule_uncertain_flags_the_record_in_strict_mode_only() -> None:
    flags = [f for f in _graded("strict")["review"]["flags"] if f["kind"] == "rule_uncertain"]
    assert len(flags) == 1 and "1.500" in flags[0]["detail"]
    assert flags[0]["source"] == "rule:strict"
    # rome mode reproduces the reference, which never doubts.
    assert not [f for f in _graded("rome")["review"]["flags"] if f["kind"] == "rule_uncertain"]


def test_judge_flagged_rule_uncertain_selects_exactly_those() -> None:
    from scorers.judges.runner import select_flagged

    doubtful = _graded("strict")
    grader = Grader(RunSettings(mode="strict"))
    sure = grader.grade_record(
        {"question_id": "q2", "answer": "Final Answer: 1,500"},
        {
            "question_id": "q2",
            "evaluator": "number_matching",
            "evaluator_kwargs": {"value_to_match": 1500},
        },
    )
    grader.finish(sure)
    assert select_flagged([doubtful, sure], ["rule_uncertain"]) == [doubtful]
