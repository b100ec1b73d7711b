"""Strict readings where an answer can be read two ways: the verdict is sure
when the question or the answer settles which, and ``uncertain`` when the two
readings would grade differently. The wordings are this file's own."""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

from scorers.evaluate import strict

K = "key_items_matching"
N = "number_matching"
C = "choices_matching"
ORD = "ordered_list_matching"
L = "location_matching"
BIRDS = "Which bird is in the photo?\nA. heron\nB. stork\nC. white egret\nD. crane"

CASES: list[Reading] = [
    # Several numbers in an answer without a marker: what the question counts picks one ...
    (N, {"value_to_match": 4}, "The dish takes 4 onions and 600 g of rice.", "How many onions are needed?", 1, False),
    (N, {"value_to_match": 600}, "The dish takes 4 onions and 600 g of rice.", "How much rice, in g?", 1, False),
    (N, {"value_to_match": 1889}, "It stands 330 m tall and opened in 1889.", "In which year did it open?", 1, False),
    (N, {"value_to_match": 35}, "Turnout reached 35% among 2,000 voters.", "What percentage turned out?", 1, False),
    # ... else the other readings of the sentence leave it open
    (N, {"value_to_match": 6}, "Around 6 litres fill about 24 glasses.", "What volume does the jug hold?", 0, True),
    (N, {"value_to_match": 24}, "Around 6 litres fill about 24 glasses.", "What volume does the jug hold?", 1, True),
    # a sentence that settles on its number, or a number in brackets, leaves none open
    (N, {"value_to_match": 9}, "Four on the shelf and five in the box, so 9.", None, 1, False),
    (N, {"value_to_match": 9}, "The total is 9 (not counting the 2 spares).", None, 1, False),
    (N, {"value_to_match": 9}, "I nearly wrote 8, but it is 9.", None, 1, False),
    # A marker whose paragraph opens with a sentence of reasoning is read at its conclusion
    (N, {"value_to_match": 206}, "Answer: Babies are born with about 270 separate bones. Many fuse, so an adult has 206.", None, 1, False),
    (N, {"value_to_match": 12}, "Answer: 12. That is three rows of four.", None, 1, False),
    (N, {"value_to_match": 50}, "Answer: Each crate holds 25. Two crates arrive. So there are 50 jars.", None, 1, False),
    # A marker's number, and a later sentence that settles on another
    (N, {"value_to_match": 21}, "Final Answer: 18\n\nAdding the back row of three makes 21.", None, 0, True),
    (N, {"value_to_match": 18}, "Final Answer: 18\n\nThree rows of six gives 18.", None, 1, False),
    (N, {"value_to_match": 18}, "Final Answer: 18\n\nThere are 3 rows of 6 chairs.", None, 1, False),
    # Number words: twelves, spelled decimals, and several words in one sentence
    (N, {"value_to_match": 6}, "Half a dozen.", None, 1, False),
    (N, {"value_to_match": 36}, "Three dozen, packed in boxes.", None, 1, False),
    (N, {"value_to_match": 9.8}, "Nine point eight metres per second squared.", None, 1, False),
    (N, {"value_to_match": 7}, "Seven, two per shelf.", "How many jars are there?", 0, True),
    (N, {"value_to_match": 4}, "Three cats and four dogs.", "How many dogs live there?", 1, False),
    # Negative numbers in words and digits, Roman numerals that are the whole answer
    (N, {"value_to_match": -18}, "Minus eighteen degrees.", None, 1, False),
    (N, {"value_to_match": -18}, "It drops to minus 18.", None, 1, False),
    (N, {"value_to_match": 14}, "XIV", None, 1, False),
    (N, {"value_to_match": 1066}, "**MLXVI**", None, 1, False),
    # A range offered as the answer commits to neither end; a change told "from ... to" does
    (N, {"value_to_match": 20}, "18 to 20, depending on the model.", None, 0, False),
    (N, {"value_to_match": 20}, "Final Answer: 18 to 20", None, 0, False),
    (N, {"value_to_match": 20}, "Eighteen to twenty.", None, 0, False),
    # An approximation to three figures or more that the exact value rounds to
    (N, {"value_to_match": 149597871}, "Roughly 1.496·10⁸ km.", None, 0, True),
    (N, {"value_to_match": 299}, "About 300.", None, 0, False),
    (N, {"value_to_match": 149597871}, "1.496·10⁸ km.", None, 0, False),
    # Fractions in words
    (N, {"value_to_match": 0.75}, "Three quarters of the pie.", None, 1, False),
    (N, {"value_to_match": 2.5}, "Two and a half days.", None, 1, False),
    (N, {"value_to_match": 0.4}, "Two fifths.", None, 1, False),
    # A counted noun decides only when every number of the sentence names what it counts
    (N, {"value_to_match": 32}, "A grown adult has 32 teeth, a child 20.", "How many teeth does an adult have?", 0, True),
    # A question's ends without "from"; a list right only from its other end
    (ORD, {"order": ["B", "A", "C"]}, "Heaviest to lightest: C, A, B.", "Sort them lightest to heaviest.\nA. cat\nB. mouse\nC. horse", 1, False),
    (ORD, {"order": ["B", "A", "C"]}, "Backwards: C, A, B.", None, 0, True),
    (ORD, {"order": ["B", "A", "C"]}, "C, A, B", None, 0, False),
    # Ordinals before every item rank them; a remark after a dash that comments
    # on the list is no part of it, one that offers another order hedges
    (ORD, {"order": ["B", "A", "C"]}, "3rd C, 1st B, 2nd A", None, 1, False),
    (ORD, {"order": ["B", "A", "C"]}, "B, A, C — though A and B are close.", None, 1, False),
    (ORD, {"order": ["B", "A", "C"]}, "B, A, C — though it could be A, B, C.", None, 0, False),
    # A heading that names the end the list starts from
    (ORD, {"order": ["Nile", "Amazon", "Yangtze"]}, "From shortest: Yangtze, Amazon, Nile.", "Rank by length, longest first: Amazon, Yangtze, Nile.", 1, False),
    (ORD, {"order": ["Nile", "Amazon", "Yangtze"]}, "Starting with the longest: Nile, Amazon, Yangtze.", "Rank by length, longest first: Amazon, Yangtze, Nile.", 1, False),
    # A few sentences whose last names too few items are read from every mention
    (
        ORD,
        {"order": ["bronze", "iron", "steel", "plastic"]},
        "Bronze came first and plastic last. Of the two in between, iron came before steel.",
        "Put these materials in chronological order: steel, plastic, bronze, iron.",
        1,
        False,
    ),
    # A one-word heading before a colon ranks what follows, in prose too
    (
        ORD,
        {"order": ["copper", "iron", "steel", "plastic"]},
        "Earliest: copper; latest: plastic; in between, iron and then steel.",
        "Put these materials in chronological order of first use: steel, plastic, copper, iron.",
        1,
        False,
    ),
    # A letter the answer only talks about, beside another option's text
    (C, {"label": "D"}, "A is tempting, yet the long neck says crane.", BIRDS, 0, True),
    (C, {"label": "B"}, "B. stork", BIRDS, 1, False),
    # Another candidate called possible after the key: no commitment
    (K, {"key_items": [["cedar"]]}, "Likely a cedar; it might also be a cypress.", None, 0, False),
    (K, {"key_items": [["cedar"]]}, "A cedar, although a cypress is also plausible.", None, 0, False),
    (K, {"key_items": [["cedar"]]}, "A cedar; it may be a century old.", None, 1, False),
    (K, {"key_items": [["Verdi"]]}, "Might be Verdi, might be Puccini.", None, 0, False),
    (K, {"key_items": [["Verdi"]]}, "Verdi, with Puccini as an outside chance.", None, 0, False),
    (K, {"key_items": [["Verdi"]]}, "I'd go with Verdi. Puccini is possible too.", None, 0, False),
    (K, {"key_items": [["Verdi"]]}, "Torn between Verdi and Puccini.", None, 0, True),
    # A compound that ends in the key's other number
    (K, {"key_items": [["fly"]]}, "Two dragonflies over the pond.", None, 1, True),
    # A candidate the answer only entertained before its conclusion is ruled out
    (K, {"key_items": [["heron"]]}, "I suspected a heron, then saw the short neck: a bittern.", None, 0, False),
    (K, {"key_items": [["bittern"]]}, "I suspected a heron, then saw the short neck: a bittern.", None, 1, False),
    (K, {"key_items": [["Lyon"]]}, "Lyon seemed likely until I noticed that the river is the Seine; so, Paris.", None, 0, False),
    (K, {"key_items": [["copper"]]}, "Copper springs to mind, though silver conducts better, so silver.", None, 0, False),
    # A later paragraph that says the answer needs fixing corrects it
    (K, {"key_items": [["Quito"]]}, "Final Answer: Guayaquil\n\nI need to fix that: the capital is Quito.", None, 1, False),
    (N, {"value_to_match": 15}, "Final Answer: 14\n\nAmendment: one was hidden, so 15.", None, 1, False),
    # A name's own word for a key of several words: most often the same thing, unsure
    (K, {"key_items": [["Lake Baikal"]]}, "Baikal.", None, 1, True),
    (K, {"key_items": [["Vincent van Gogh"]]}, "Van Gogh", None, 1, True),
    (K, {"key_items": [["Marie Curie"]]}, "Pierre Curie", None, 0, True),
    (K, {"key_items": [["South Africa"]]}, "South Sudan", None, 0, False),
    # "Small correction:" amends a detail; a firm cue after a weak one corrects
    (K, {"key_items": [["Monet"]]}, "Final answer: Claude Monet.\n\nMinor correction: he painted the series with help from his stepdaughter Blanche.", None, 1, True),
    (K, {"key_items": [["Degas"]]}, "Final answer: Edgar Degas.\n\nActually, I have to correct that — it was Claude Monet.", None, 0, False),
    # Number words in brackets count only when nothing else does
    (N, {"value_to_match": 4}, "A cow has four stomach chambers (people have one).", None, 1, False),
    # A correction's own concluding sentence is what it commits to
    (K, {"key_items": [["Fe"]]}, "Final Answer: Fe\n\nWait, no — Fe is iron. Lead is Pb.", None, 1, True),
    (K, {"key_items": [["Pb"]]}, "Final Answer: Fe\n\nWait, no — Fe is iron. Lead is Pb.", None, 1, False),
    # A short first line alone in its paragraph states the answer a correction replaces
    (N, {"value_to_match": 13}, "12\n\nCorrection: I missed one, so 13.", None, 1, False),
    (C, {"label": "C"}, "B\n\nActually it is C.", None, 1, False),
    # The committed clause after "though": a name key outside it is unsure
    (K, {"key_items": [["Turin"]]}, "Turin crossed my mind, though the canals make it Venice.", None, 1, True),
    # A question that offers the alternatives: the answer weighs both on the way and its
    # conclusion chooses; one that concludes with the other alternative is unsure 0 ...
    (K, {"key_items": [["Ada Byron"]]}, "Ada Byron wrote four papers and Mary Shelley six. Hence Mary Shelley wrote more.", "Who wrote more papers, Ada Byron or Mary Shelley?", 0, True),
    (K, {"key_items": [["Kestrel Lake"]]}, "Kestrel Lake is 40 m deep, Otter Pond 12 m, so Otter Pond is shallower.", "Which is shallower: Kestrel Lake and Otter Pond?", 0, True),
    # ... one that concludes with the key, or a question naming one candidate, is read as before
    (K, {"key_items": [["Kestrel Lake"]]}, "Otter Pond is 40 m deep, Kestrel Lake 12 m, so Kestrel Lake.", "Which is shallower, Otter Pond or Kestrel Lake?", 1, False),
    (K, {"key_items": [["Ada Byron"]]}, "Ada Byron wrote four papers. Hence Mary Shelley wrote more.", "Did Ada Byron write more papers than anyone?", 1, False),
    # The parts of a time in an option are no words: "4:30 P.M." names no option "10:30 A.M."
    (C, {"label": "B"}, "The bus leaves at 4:30 P.M.", "When does it leave?\nA. 9:15 A.M.\nB. 10:30 A.M.", 0, True),
    (C, {"label": "B"}, "The bus leaves at 10:30 A.M.", "When does it leave?\nA. 9:15 A.M.\nB. 10:30 A.M.", 1, False),
    # An option listed twice, word for word: either copy's letter names the key's answer (unsure)
    (C, {"label": "D"}, "So the speed is 9 m/s, option (B).", "Speed?\nA. 3 m/s\nB. 9 m/s\nC. 12 m/s\nD. 9 m/s", 1, False),
    (C, {"label": "D"}, "The answer is heron.", "Which bird?\nA. heron\nB. stork\nC. crane\nD. heron", 1, False),
    (C, {"label": "D"}, "So the speed is 3 m/s, option (A).", "Speed?\nA. 3 m/s\nB. 9 m/s\nC. 12 m/s\nD. 9 m/s", 0, False),
    # Two names joined by "and" for a question that asks for one: no choice
    (K, {"key_items": [["Lena Dorsey"]]}, "Thus the answer is: Mark Ibsen and Lena Dorsey.", "Which \"Harbor Nine\" rower won the 2012 sculls?", 0, False),
    (K, {"key_items": [["Lake Orta"]]}, "Answer: Lake Garda, Lake Orta and Lake Iseo.", "Which lake hosts the regatta?", 0, False),
    (K, {"key_items": [["Lake Orta"]]}, "Answer: Lake Orta and Lake Iseo.", "Which lakes host the regatta?", 1, False),
    (K, {"key_items": [["Lake Orta"]]}, "Answer: Lake Orta, and it is the smallest.", "Which lake hosts the regatta?", 1, False),
    (K, {"key_items": [["North Pact"]]}, "Malta is part of the North Pact and Reef trio.", "What body, such as the North Pact or the Reef trio, is Malta part of?", 0, False),
    (K, {"key_items": [["Ida Brandt"]]}, "Answer: Ida Brandt and Tom Wilde both sang; Ida Brandt took the lead.", "Which singer took the lead?", 1, False),
    # A key date named to its month or year only: right to that precision, unsure
    (K, {"key_items": [["9 March 1931", "1931-03-09"]]}, "Final Answer: 1931.", "When did the dam open?", 1, True),
    (K, {"key_items": [["9 March 1931"]]}, "Le barrage a ouvert en mars 1931, après deux ans de travaux.", "Quand ?", 1, True),
    (K, {"key_items": [["9 November 1989"]]}, "El muro cayó en noviembre de 1989.", None, 1, True),
    (K, {"key_items": [["9 November 1989"]]}, "Datum: 11/09/1989", None, 0, False),
    (K, {"key_items": [["9 March 1931"]]}, "It opened on 14 March 1931.", "When did the dam open?", 0, False),
    (K, {"key_items": [["9 March 1931"]]}, "It opened in June 1931.", "When did the dam open?", 0, False),
    (K, {"key_items": [["9 March 1931"]]}, "Work began in 1929 and it opened in 1931.", "When did the dam open?", 0, False),
    # A list of values and nothing more is no commitment; a system's solution is one
    (N, {"value_to_match": 3}, "Final answer: t = 3, -1", None, 0, False),
    (N, {"value_to_match": 1912}, "Answer: 1912 (the first edition), 1925 (the revised one).", None, 0, False),
    (N, {"value_to_match": 4500}, "Answer: 4,500", None, 1, False),
    (N, {"value_to_match": 7}, "Final answer: 7 (checked twice, about 90% sure)", None, 1, False),
    # A Chinese answer heading alone on its line heads the line below
    (N, {"value_to_match": 0.25}, "【分析】\n由题意得。\n【答案】\n$m = 1/4$", None, 1, False),
    (N, {"value_to_match": 7}, "推导如下，共 12 步。\n【答案】\n7", None, 1, False),
    # A negated verb of knowing before "if"/"whether" leaves the claim open: neither yes nor no
    (K, {"key_items": [["no"]]}, "The logs are thin. So we cannot tell whether the keeper owned a boat.", "Did the keeper own a boat?", 0, True),
    (K, {"key_items": [["no"]]}, "Hence it remains unclear whether the keeper owned a boat.", "Did the keeper own a boat?", 0, True),
    (K, {"key_items": [["no"]]}, "It is not possible to say when he bought it, but the keeper did not own a boat.", "Did the keeper own a boat?", 1, False),
    # The adjective of a name of several words, for a location's candidate too
    (L, {"location_fine_grained": ["West Africa"], "location_coarse_grained": ["Africa"]}, "Ghana is a small West African nation on the Gulf of Guinea.", "Where is Ghana?", 1, False),
    (K, {"key_items": [["Central America"]]}, "It is a Central American republic.", "Which region is Belize in?", 1, False),
    (L, {"location_fine_grained": ["West Africa"], "location_coarse_grained": ["Africa"]}, "Ghana is an East African nation.", "Where is Ghana?", 0, False),
    # An answer laid out as a numbered list, each item explained below its head, is read from the heads
    (ORD, {"order": ["Crust", "Mantle", "Outer core", "Inner core"]}, "Four shells, from the surface down:\n\n1. **Crust**\n   - Thin and rocky; the mantle lies below it.\n2. **Mantle**: hot, slowly flowing rock.\n3. **Outer core**\n   - Liquid iron, around the inner core.\n4. **Inner core**\n   - Solid iron.\n\nTogether they make up the planet, each with its own role.", None, 1, False),
    (ORD, {"order": ["Crust", "Mantle", "Outer core", "Inner core"]}, "Four shells:\n\n1. **Crust**\n   - Thin.\n2. **Outer core**\n   - Liquid.\n3. **Mantle**\n   - Flowing.\n4. **Inner core**\n   - Solid.\n\nTogether they make up the planet, each with its own role.", None, 0, False),
    (ORD, {"order": ["Crust", "Mantle", "Core"]}, "Three shells:\n\n1. **Crust**\n   - Thin.\n2. **Middle shell (also known as Mantle)**\n   - Flowing.\n3. **Core**\n   - Iron.\n\nTogether they make up the planet, each with its own role.", None, 1, False),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c[2][:40] for c in CASES])
def test_two_readings(case: Reading) -> None:
    assert_reading(*case)


CLOSINGS = ["\n\nHope this helps!", " Let me know if you need anything else.", "\n\nGood luck! 🙂"]
ANSWERS: list[tuple[str, dict[str, object], str, str | None]] = [
    (C, {"label": "D"}, "The long neck and legs say crane.", BIRDS),
    (ORD, {"order": ["B", "A", "C"]}, "B, then A, then C", None),
    (N, {"value_to_match": 21}, "Three rows of seven make 21.", None),
    (K, {"key_items": [["heron"]]}, "It is a grey heron.", None),
    (C, {"label": "B"}, "Final Answer: B", BIRDS),
]


@pytest.mark.parametrize("closing", CLOSINGS)
@pytest.mark.parametrize("case", ANSWERS, ids=[c[2][:30] for c in ANSWERS])
def test_a_closing_formula_changes_nothing(
    case: tuple[str, dict[str, object], str, str | None], closing: str
) -> None:
    """ "Hope this helps!" after an answer states nothing: the verdict is the answer's."""
    evaluator, kwargs, answer, question = case
    alone = strict.evaluate(evaluator, kwargs, answer, question)
    closed = strict.evaluate(evaluator, kwargs, answer + closing, question)
    assert (closed.score, closed.uncertain) == (alone.score, alone.uncertain)
    assert alone.score == 1
