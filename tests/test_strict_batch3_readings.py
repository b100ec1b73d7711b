"""Readings made general after the third blind batch's dev half and probes of the
same categories, in this file's own words.

Each case is (evaluator, kwargs, answer, question, score, unsure): ``unsure``
says whether the verdict must carry ``uncertain`` or must not.
"""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

K, C, N = "key_items_matching", "choices_matching", "number_matching"
ORD = "ordered_list_matching"
FRACTIONS = "Order these from smallest to largest: 0.7, 2/3, 5/8."
LEGS = "Order by number of legs, fewest first: spider, bird, dog."
HEIGHTS = "Order by height, shortest first: giraffe, grey wolf, Shetland pony."
ROUNDS = "Order the stages of the cup: final, first round, second round, semi-final."
CITIES = "Which is the capital of Norway?\nA) Bergen\nB) Oslo\nC) Tromsø"

CASES: list[Reading] = [
    # a chain of ">" runs from the high end
    (ORD, {"order": ["5/8", "2/3", "0.7"]}, "0.7 > 2/3 > 5/8", FRACTIONS, 1, False),
    (ORD, {"order": ["5/8", "2/3", "0.7"]}, "5/8 > 2/3 > 0.7", FRACTIONS, 0, False),
    # "fewest" and "most" are the ends of a count
    (ORD, {"order": ["bird", "dog", "spider"]}, "Most to fewest: spider, dog, bird.", LEGS, 1, False),
    # an item named by a word of its own ("the pony"), ranks and a relation
    (ORD, {"order": ["Shetland pony", "grey wolf", "giraffe"]},
     "The giraffe is last and the pony is first; the wolf comes in between.", HEIGHTS, 1, False),
    # an ordinal that begins an item's name is no numbering
    (ORD, {"order": ["first round", "second round", "semi-final", "final"]},
     "It opens with the first round, then the second round, then the semi-final, and it ends with the final.",
     ROUNDS, 1, False),
    # "after that" goes on, it does not reverse
    (ORD, {"order": ["giraffe", "grey wolf", "Shetland pony"]},
     "The giraffe comes first, the wolf next, and after that the pony.", None, 1, False),
    # "correct this" corrects
    (N, {"value_to_match": 8}, "Final answer: 12\n\nLet me correct this: 12 counts the edges. A cube has 8 corners.", None, 1, False),
    # a key's adjective anywhere in the answer, unsure; not inside a place's own name
    (K, {"key_items": [["Chile"]]}, "Santiago, the Chilean capital, founded in 1541 by Valdivia.", None, 1, False),
    (K, {"key_items": [["Dominica"]]}, "Final Answer: the Dominican Republic", None, 0, False),
    # the question's unit picks the number an answer without a marker gives
    (N, {"value_to_match": 5.6}, "Roughly 5,6 km long, surveyed in 2004.", "How long is the tunnel, in km?", 1, False),
    (N, {"value_to_match": 2004}, "Roughly 5,6 km long, surveyed in 2004.", "In which year was the tunnel surveyed?", 1, False),
    # fractions written with the fraction slash, in super- and subscripts
    (N, {"value_to_match": 0.6}, "So the share is ³⁄₅.", None, 1, False),
    (N, {"value_to_match": 2.25}, "Final Answer: 2¹⁄₄ cups", None, 1, False),
    # a question asking for decimal places reads a lone comma group as decimals
    (N, {"value_to_match": 2.236}, "√5 ≈ 2,236", "What is the square root of 5, to three decimal places?", 1, False),
    # a question counting in millions or thousands takes the number in them
    (N, {"value_to_match": 8.9}, "Rund 8,9 Mio. Menschen.", "How many people live in Austria, in millions?", 1, False),
    (N, {"value_to_match": 8.9}, "About 8,900,000.", "Population of Austria (millions)?", 1, False),
    (N, {"value_to_match": 8.9}, "About 8,900,000.", "What is the population of Austria?", 0, False),
    # a letter and an option's text that disagree
    (C, {"label": "A"}, "Oslo (option A).", CITIES, 1, True),
    (C, {"label": "B"}, "Oslo (option B).", CITIES, 1, False),
    # a country whose English name CLDR also writes in another's bracket
    (K, {"key_items": [["China"]]}, "Final Answer: Chine", None, 1, False),
    (K, {"key_items": [["China"]]}, "Final Answer: Hong Kong", None, 0, False),
    # a name spelled almost as the key, before a remark
    (K, {"key_items": [["Dostoevsky"]]}, "Dostoyevskiy; he wrote it in 1866 in Saint Petersburg.", None, 0, True),
    # a place counted from one of the question's ends ("second lightest")
    (ORD, {"order": ["ox", "goat", "hen", "mouse"]},
     "The mouse is lightest, the hen second lightest, the goat second heaviest and the ox heaviest.",
     "Order by weight, heaviest first: goat, hen, mouse, ox.", 1, False),
    # a direction in brackets after the list, with "oldest" for "earliest"
    (ORD, {"order": ["abacus", "slide rule", "calculator"]},
     "Calculator, slide rule, abacus (newest to oldest).",
     "Put these in chronological order: calculator, abacus, slide rule.", 1, False),
    # an item named by the last word of its own, its other words being ranks or
    # shared ("the war" for "First World War"), pronouns no items
    (ORD, {"order": ["invention of the printing press", "Thirty Years War", "fall of the Bastille"]},
     "The press came first and the Bastille fell last; between them came the war.",
     "Put these in chronological order: the fall of the Bastille, the Thirty Years War, the invention of the printing press.",
     1, False),
    # headings that name an end, "in between" filling the places left
    (ORD, {"order": ["Nile", "Amazon", "Yangtze", "Mississippi"]},
     "Longest: Nile. Shortest: Mississippi. In between: Amazon, then Yangtze.",
     "Rank these rivers by length, longest first: Amazon, Mississippi, Nile, Yangtze.", 1, False),
    # a heading naming the ends without "from", and antonym superlatives
    (ORD, {"order": ["cork", "oak", "iron"]}, "Densest to lightest: iron, oak, cork.",
     "Order by density, lightest first: iron, cork, oak.", 1, False),
    (ORD, {"order": ["pond", "lake", "ocean"]}, "Deepest to shallowest: ocean, lake, pond.",
     "Order by depth, shallowest first: lake, ocean, pond.", 1, False),
    # a country's two-letter code or CLDR alias, dotted or not; not an English word
    (K, {"key_items": [["United States"]]}, "Final Answer: the U.S.", None, 1, False),
    (K, {"key_items": [["United Kingdom"]]}, "It was filmed in the UK.", None, 1, False),
    (K, {"key_items": [["India"]]}, "MADE IN CHINA", None, 0, False),
    # names joined by particles are one name
    (K, {"key_items": [["Gabon"]]}, "Final Answer: the Republic of the Congo", None, 0, False),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[2][:50])
def test_batch3_reading(case: Reading) -> None:
    assert_reading(*case)
