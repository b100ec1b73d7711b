"""Strict mode on wordings written for this test, unlike the blind set's and each other.

Orders given by names, prose ranks and numbered lines; numbers in other
languages' formats and scripts; options restated loosely (articles, plurals,
case, units, derived words); list items joined by "as well as", ";", arrows,
bars, guillemets and newlines; keys inside or ending longer words; other names
of places. Each case must be graded as its label says, or be reported
``rule_uncertain``: a verdict may be unsure, never confidently wrong.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorers.evaluate import strict

SIZES = "Order the animals from smallest to largest.\nA. cat\nB. elephant\nC. mouse\nD. horse"
MEDALS = "Rank the medals by value, highest first.\nA. bronze\nB. gold\nC. silver"
PLANETS = "Order the planets by distance from the Sun.\n1. Mars\n2. Venus\n3. Earth\n4. Mercury"
RUNNERS = "Rank the runners by finishing position.\n(A) the runner in green\n(B) the runner in black\n(C) the runner in orange"
STEPS = "Put the steps in order.\nA) rinse the cup\nB) pour the tea\nC) boil the water\nD) add the tea bag"
K = "key_items_matching"
ORD = "ordered_list_matching"
C = "choices_matching"
N = "number_matching"
L = "location_matching"
PETS = "Which animal is on the mat?\nA. Dog\nB. Cat\nC. Rabbit\nD. Horse"
TOWER = "What landmark is shown?\nA. The Eiffel Tower\nB. Big Ben\nC. The Leaning Tower of Pisa\nD. The Colosseum"
BOY = "What is the boy doing?\nA. The boy is running\nB. The boy is sitting on a bench\nC. The boy is eating\nD. The boy is swimming"
LEN = "How long is the pencil?\nA. 12 cm\nB. 15 cm\nC. 18 cm"
FRUIT = "Which fruits are in the bowl? (select all)\nA. apples\nB. bananas\nC. cherries\nD. grapes"
WEATHER = "What is the weather like?\n(a) sunny\n(b) rainy\n(c) snowy\n(d) foggy"
CASES: list[tuple[str, str, dict[str, Any], str, str | None, float]] = [
    # orders by names or ranks
    ("order", ORD, {"order": "C,A,D,B"}, "The mouse comes first, then the cat, then the horse, and the elephant comes last.", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "Mice are smallest, followed by cats, then horses, with elephants the largest.", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "1) mouse\n2) cat\n3) horse\n4) elephant", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "Final Answer:\n- Mouse\n- Cat\n- Horse\n- Elephant", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "The cat is second, the horse third, the elephant fourth and the mouse first.", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "In first place the mouse, in second place the cat, in third the horse, in fourth the elephant.", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "Mouse (1), cat (2), horse (3), elephant (4).", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "#1 mouse, #2 cat, #3 horse, #4 elephant", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "The order is: mouse, cat, elephant, horse.", SIZES, 0),
    ("order", ORD, {"order": "C,A,D,B"}, "cat, mouse, horse, elephant", SIZES, 0),
    ("order", ORD, {"order": "C,A,D,B"}, "Smallest to largest: the mouse, the cat, the horse and the elephant.", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "Mouse < Cat < Horse < Elephant", SIZES, 1),
    ("order", ORD, {"order": "B,C,A"}, "Gold is the most valuable, silver comes next and bronze is last.", MEDALS, 1),
    ("order", ORD, {"order": "B,C,A"}, "The gold medal ranks first, the silver medal second and the bronze medal third.", MEDALS, 1),
    ("order", ORD, {"order": "B,C,A"}, "Gold ranks highest, then silver, then bronze.", MEDALS, 1),
    ("order", ORD, {"order": "B,C,A"}, "Bronze is third, gold is first, silver is second.", MEDALS, 1),
    ("order", ORD, {"order": "B,C,A"}, "Silver first, then gold, then bronze.", MEDALS, 0),
    ("order", ORD, {"order": "4,2,3,1"}, "Mercury, Venus, Earth, Mars.", PLANETS, 1),
    ("order", ORD, {"order": "4,2,3,1"}, "Closest is Mercury, followed by Venus, Earth and then Mars.", PLANETS, 1),
    ("order", ORD, {"order": "4,2,3,1"}, "Venus, Mercury, Earth, Mars.", PLANETS, 0),
    ("order", ORD, {"order": "B,A,C"}, "The runner in black won, the runner in green came second, and the runner in orange was third.", RUNNERS, 1),
    ("order", ORD, {"order": "B,A,C"}, "1st: black, 2nd: green, 3rd: orange", RUNNERS, 1),
    ("order", ORD, {"order": "B,A,C"}, "Black finished first, green finished second, orange finished last.", RUNNERS, 1),
    ("order", ORD, {"order": "B,A,C"}, "Green first, black second, orange third.", RUNNERS, 0),
    ("order", ORD, {"order": "C,D,B,A"}, "Boil the water first; then add the tea bag, pour the tea and finally rinse the cup.", STEPS, 1),
    ("order", ORD, {"order": "C,D,B,A"}, "First you boil water, next you add a tea bag, after that pour the tea, and lastly rinse the cup.", STEPS, 1),
    ("order", ORD, {"order": "C,D,B,A"}, "boiling → adding the tea bag → pouring → rinsing", STEPS, 1),
    ("order", ORD, {"order": "C,D,B,A"}, "Rinse the cup, boil the water, add the tea bag, pour the tea.", STEPS, 0),
    # local number formats
    ("num", N, {"value_to_match": 1234.5}, "Le total est de 1 234,5 euros.", None, 1),
    ("num", N, {"value_to_match": 12345}, "Final Answer: 12\u202f345", None, 1),
    ("num", N, {"value_to_match": 12345}, "Final Answer: 12\u00a0345", None, 1),
    ("num", N, {"value_to_match": 3.14}, "Il valore è 3,14.", None, 1),
    ("num", N, {"value_to_match": 1250}, "O preço é 1.250,00 reais.", None, 1),
    ("num", N, {"value_to_match": 3.5}, "Масса равна 3,5 кг.", None, 1),
    ("num", N, {"value_to_match": 3.5}, "Final Answer: ٣٫٥", None, 1),
    ("num", N, {"value_to_match": 12}, "Final Answer: ۱۲", None, 1),
    ("num", N, {"value_to_match": 12}, "Final Answer: १२", None, 1),
    ("num", N, {"value_to_match": 123}, "Final Answer: １２３", None, 1),
    ("num", N, {"value_to_match": 1.5}, "Het is 1,5 meter lang.", None, 1),
    ("num", N, {"value_to_match": 2500}, "Es leben ca. 2.500 Einwohner dort.", None, 1),
    ("num", N, {"value_to_match": 3500000}, "Hay 3,5 millones de personas.", None, 1),
    ("num", N, {"value_to_match": 1500000}, "Es sind 1,5 Mio. Besucher.", None, 1),
    ("num", N, {"value_to_match": 12.5}, "Der Anteil beträgt 12,5 %.", None, 1),
    ("num", N, {"value_to_match": 1234}, "The sign says 1,234 people.", None, 1),
    ("num", N, {"value_to_match": 1234567.89}, "Final Answer: 1'234'567.89", None, 1),
    ("num", N, {"value_to_match": 1234.5}, "Il y a 1.234,5 kg.", None, 1),
    ("num", N, {"value_to_match": -3.5}, "Final Answer: −3,5", None, 1),
    ("num", N, {"value_to_match": 0.75}, "Final Answer: ¾", None, 1),
    ("num", N, {"value_to_match": 1.75}, "Final Answer: 1 ¾", None, 1),
    ("num", N, {"value_to_match": 2.5}, "La temperatura es de 2,5 grados.", None, 1),
    ("num", N, {"value_to_match": 2500}, "La temperatura es de 2,5 grados.", None, 0),
    ("num", N, {"value_to_match": 7.5}, "Final Answer: 7,5", None, 1),
    ("num", N, {"value_to_match": 1000000}, "Final Answer: 1.000.000", None, 1),
    ("num", N, {"value_to_match": 45.6}, "Es sind 45,6 Prozent.", None, 1),
    ("num", N, {"value_to_match": 30000}, "Final Answer: 30 000 km", None, 1),
    # options by text
    ("opt", C, {"label": "B"}, "The cats.", PETS, 1),
    ("opt", C, {"label": "D"}, "THE HORSE", PETS, 1),
    ("opt", C, {"label": "A"}, "It's a Dog.", PETS, 1),
    ("opt", C, {"label": "C"}, "Final Answer: rabbits", PETS, 1),
    ("opt", C, {"label": "C"}, "A rabbit is sitting on the mat.", PETS, 1),
    ("opt", C, {"label": "B"}, "A dog.", PETS, 0),
    ("opt", C, {"label": "A"}, "Final Answer: Eiffel Tower", TOWER, 1),
    ("opt", C, {"label": "C"}, "This is the leaning tower of Pisa.", TOWER, 1),
    ("opt", C, {"label": "C"}, "It's the tower in Pisa.", TOWER, 1),
    ("opt", C, {"label": "D"}, "the colosseum in Rome", TOWER, 1),
    ("opt", C, {"label": "B"}, "He is sitting on a bench.", BOY, 1),
    ("opt", C, {"label": "B"}, "The boy sits on the bench.", BOY, 1),
    ("opt", C, {"label": "D"}, "He's swimming.", BOY, 1),
    ("opt", C, {"label": "B"}, "He is running.", BOY, 0),
    ("opt", C, {"label": "B"}, "Final Answer: 15 centimetres", LEN, 1),
    ("opt", C, {"label": "B"}, "The pencil is 15cm long.", LEN, 1),
    ("opt", C, {"label": "C"}, "The pencil is 15cm long.", LEN, 0),
    ("opt", C, {"label": "AC"}, "There are apples and cherries.", FRUIT, 1),
    ("opt", C, {"label": "AC"}, "An apple and a cherry.", FRUIT, 1),
    ("opt", C, {"label": "AC"}, "Apples, bananas and cherries.", FRUIT, 0),
    ("opt", C, {"label": "b"}, "It is rainy.", WEATHER, 1),
    ("opt", C, {"label": "b"}, "Final Answer: Rain", WEATHER, 1),
    ("opt", C, {"label": "b"}, "Final Answer: Foggy", WEATHER, 0),
    # list joiners
    ("list", ORD, {"order": "C,A,D,B"}, "C, A, D as well as B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C; A; D; B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C -> A -> D -> B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C => A => D => B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "Final Answer:\nC\nA\nD\nB", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "Final Answer:\n- C\n- A\n- D\n- B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C then A then D then B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C, then A, after that D, and lastly B.", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C followed by A followed by D followed by B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C | A | D | B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C / A / D / B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C » A » D » B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C, A, D, and, finally, B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "first C, second A, third D, fourth B", None, 1),
    ("list", ORD, {"order": "C,A,D,B"}, "C, A, B as well as D", None, 0),
    ("list", ORD, {"order": "C,A,D,B"}, "C → A → D", None, 0),
    ("list", ORD, {"order": "Rome,Paris,Berlin"}, "Rome, Paris as well as Berlin", None, 1),
    ("list", ORD, {"order": "Rome,Paris,Berlin"}, "Rome; Paris; and Berlin", None, 1),
    ("list", ORD, {"order": "Rome,Paris,Berlin"}, "Rome, next Paris, and last Berlin.", None, 1),
    ("list", ORD, {"order": "Rome,Paris,Berlin"}, "Final Answer:\n1. Rome\n2. Paris\n3. Berlin", None, 1),
    ("list", ORD, {"order": "Rome,Paris,Berlin"}, "Rome, followed by Paris and then Berlin", None, 1),
    ("list", ORD, {"order": "red,green,blue"}, "red → green → blue", None, 1),
    ("list", ORD, {"order": "red,green,blue"}, "red, green along with blue", None, 1),
    # keys inside or ending words
    ("word", K, {"key_items": [["car"]]}, "It's a cartoon about a dog.", None, 0),
    ("word", K, {"key_items": [["pen"]]}, "The carpenter holds a hammer.", None, 0),
    ("word", K, {"key_items": [["ice"]]}, "A bowl of rice.", None, 0),
    ("word", K, {"key_items": [["owl"]]}, "It is a bowl.", None, 0),
    ("word", K, {"key_items": [["ring"]]}, "A ball of string.", None, 0),
    ("word", K, {"key_items": [["ant"]]}, "A giant elephant.", None, 0),
    ("word", K, {"key_items": [["hat"]]}, "What is that?", None, 0),
    ("word", K, {"key_items": [["4"]]}, "The year is 2024.", None, 0),
    ("word", K, {"key_items": [["one"]]}, "He is on the phone.", None, 0),
    ("word", K, {"key_items": [["art"]]}, "It is a party.", None, 0),
    ("word", K, {"key_items": [["Face"]]}, "The logo is Facebook's.", None, 0),
    ("word", K, {"key_items": [["apple"]]}, "Three apples.", None, 1),
    ("word", K, {"key_items": [["bird"]]}, "It is a bluebird.", None, 1),
    ("word", K, {"key_items": [["boat"]]}, "A sailboat in the bay.", None, 1),
    ("word", K, {"key_items": [["chair"]]}, "An armchair by the fire.", None, 1),
    ("word", K, {"key_items": [["brush"]]}, "A toothbrush.", None, 1),
    ("word", K, {"key_items": [["dog"]]}, "A bulldog.", None, 1),
    ("word", K, {"key_items": [["fish"]]}, "A starfish on the sand.", None, 0),
    ("word", K, {"key_items": [["horse"]]}, "A seahorse.", None, 0),
    ("word", K, {"key_items": [["fly"]]}, "A butterfly.", None, 0),
    ("word", K, {"key_items": [["red"]]}, "The shirt is red-and-white striped.", None, 1),
    ("word", K, {"key_items": [["red"]]}, "The car is bright red.", None, 1),
    ("word", K, {"key_items": [["man"]]}, "A woman and a child.", None, 0),
    # other names of a place
    ("place", K, {"key_items": [["Germany"]]}, "Final Answer: Germania", None, 1),
    ("place", K, {"key_items": [["Japan"]]}, "Final Answer: Nippon", None, 1),
    ("place", K, {"key_items": [["Netherlands"]]}, "Final Answer: Holland", None, 1),
    ("place", K, {"key_items": [["Netherlands"]]}, "Final Answer: Nederland", None, 1),
    ("place", K, {"key_items": [["Czech Republic"]]}, "Final Answer: Czechia", None, 1),
    ("place", K, {"key_items": [["United Kingdom"]]}, "Final Answer: Great Britain", None, 1),
    ("place", K, {"key_items": [["Cologne"]]}, "Final Answer: Köln", None, 1),
    ("place", K, {"key_items": [["Lisbon"]]}, "Final Answer: Lisboa", None, 1),
    ("place", K, {"key_items": [["Venice"]]}, "Final Answer: Venezia", None, 1),
    ("place", K, {"key_items": [["Mumbai"]]}, "Final Answer: Bombay", None, 1),
    ("place", K, {"key_items": [["Kyiv"]]}, "Final Answer: Kiev", None, 1),
    ("place", K, {"key_items": [["Beijing"]]}, "Final Answer: 北京", None, 1),
    ("place", K, {"key_items": [["Moscow"]]}, "Final Answer: Москва", None, 1),
    ("place", K, {"key_items": [["Saint Petersburg"]]}, "Final Answer: St Petersburg, Russia", None, 1),
    ("place", K, {"key_items": [["Ho Chi Minh City"]]}, "Final Answer: Saigon", None, 1),
    ("place", K, {"key_items": [["Vienna"]]}, "Final Answer: Venice", None, 0),
    ("place", K, {"key_items": [["Sweden"]]}, "Final Answer: Schweiz", None, 0),
    ("place", L, {"location_fine_grained": ["Naples"], "location_coarse_grained": ["Italy"]}, "Final Answer: Napoli, Italia", None, 1),
    ("place", L, {"location_fine_grained": ["Geneva"], "location_coarse_grained": ["Switzerland"]}, "Final Answer: Genève, Suisse", None, 1),
    ("place", K, {"key_items": [["New York"]]}, "Final Answer: New York City", None, 1),
    ("place", K, {"key_items": [["USA"]]}, "Final Answer: United States of America", None, 1),
    ("place", K, {"key_items": [["UK"]]}, "Final Answer: United Kingdom", None, 1),
    ("place", K, {"key_items": [["Washington, D.C."]]}, "Final Answer: Washington DC", None, 1),
]  # fmt: skip


SIZES = "Order the animals from smallest to largest.\nA. cat\nB. elephant\nC. mouse\nD. horse"
TALL = "Rank the buildings by height, tallest first.\nA. the church\nB. the tower\nC. the house"
AGES = (
    "Order the people from youngest to oldest.\n1 = the baby, 2 = the grandmother, 3 = the teenager"
)
CARS = "Arrange the cars by speed from fastest to slowest.\nA. red car\nB. blue car\nC. green car\nD. yellow car"
DAYS = "Put the events in chronological order.\nA. lunch\nB. breakfast\nC. dinner"
COLORS = "What colour is the bus?\nA. Red\nB. Yellow\nC. Green\nD. White"
SHAPES = "Which shape is shown?\nA. a triangle\nB. a square\nC. a circle\nD. a hexagon"
SPORT = "Which sport are they playing?\nA. Tennis\nB. Badminton\nC. Table tennis\nD. Squash"
MOOD = "How does the woman feel?\nA. happy\nB. sad\nC. angry\nD. surprised"
COUNT = "How many birds are on the wire?\nA. 3\nB. 5\nC. 7\nD. 9"
TIME = "What is the man holding?\nA. an umbrella\nB. a newspaper\nC. a briefcase\nD. a phone"

MORE_CASES: list[tuple[str, str, dict[str, Any], str, str | None, float]] = [
    ("order", ORD, {"order": "C,A,D,B"}, "The tiniest is the mouse. The cat is a bit bigger. Then the horse. The elephant is the biggest.", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "From smallest to largest, I'd go with the mouse, the cat, the horse, then the elephant.", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "Final Answer: C A D B", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "Final Answer: (C) mouse, (A) cat, (D) horse, (B) elephant", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "Final Answer: mouse (C), cat (A), horse (D), elephant (B)", SIZES, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "The elephant is the largest and the mouse is the smallest; the horse is bigger than the cat.", SIZES, 1),
    ("order", ORD, {"order": "B,A,C"}, "The tower is the tallest, the church comes second, and the house is the shortest.", TALL, 1),
    ("order", ORD, {"order": "B,A,C"}, "Tower > church > house", TALL, 1),
    ("order", ORD, {"order": "B,A,C"}, "The house is shortest, then the church, and the tower is tallest.", TALL, 1),
    ("order", ORD, {"order": "B,A,C"}, "Church, tower, house.", TALL, 0),
    ("order", ORD, {"order": "1,3,2"}, "baby, teenager, grandmother", AGES, 1),
    ("order", ORD, {"order": "1,3,2"}, "The baby is youngest, then the teenager, and the grandmother is oldest.", AGES, 1),
    ("order", ORD, {"order": "1,3,2"}, "Final Answer: 1, 3, 2", AGES, 1),
    ("order", ORD, {"order": "1,3,2"}, "grandmother, teenager, baby", AGES, 0),
    ("order", ORD, {"order": "C,A,D,B"}, "Green is fastest, red is second fastest, yellow is third and blue is slowest.", CARS, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "The green car wins, followed by the red one, the yellow one, and finally the blue one.", CARS, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "green, red, yellow, blue", CARS, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "Fastest to slowest: green → red → yellow → blue", CARS, 1),
    ("order", ORD, {"order": "C,A,D,B"}, "green, yellow, red, blue", CARS, 0),
    ("order", ORD, {"order": "B,A,C"}, "Breakfast comes first, then lunch, and dinner is last.", DAYS, 1),
    ("order", ORD, {"order": "B,A,C"}, "First breakfast, second lunch, third dinner.", DAYS, 1),
    ("order", ORD, {"order": "B,A,C"}, "Breakfast happens before lunch, which happens before dinner.", DAYS, 1),
    ("order", ORD, {"order": "B,A,C"}, "Lunch, breakfast, dinner", DAYS, 0),
    ("opt", C, {"label": "B"}, "The bus is yellow.", COLORS, 1),
    ("opt", C, {"label": "B"}, "It's a yellow school bus.", COLORS, 1),
    ("opt", C, {"label": "B"}, "YELLOW", COLORS, 1),
    ("opt", C, {"label": "B"}, "yellowish", COLORS, 1),
    ("opt", C, {"label": "B"}, "The bus is white with a red stripe.", COLORS, 0),
    ("opt", C, {"label": "C"}, "Circle.", SHAPES, 1),
    ("opt", C, {"label": "C"}, "It's circular.", SHAPES, 1),
    ("opt", C, {"label": "C"}, "A round shape, i.e. a circle", SHAPES, 1),
    ("opt", C, {"label": "C"}, "The shape has four equal sides: a square.", SHAPES, 0),
    ("opt", C, {"label": "C"}, "They're playing table tennis (ping pong).", SPORT, 1),
    ("opt", C, {"label": "C"}, "Ping-pong.", SPORT, 1),
    ("opt", C, {"label": "A"}, "This is tennis on a grass court.", SPORT, 1),
    ("opt", C, {"label": "A"}, "She looks happy.", MOOD, 1),
    ("opt", C, {"label": "A"}, "She is smiling, so she feels happiness.", MOOD, 1),
    ("opt", C, {"label": "D"}, "She seems surprised.", MOOD, 1),
    ("opt", C, {"label": "A"}, "She isn't happy; she is sad.", MOOD, 0),
    ("opt", C, {"label": "B"}, "I count five birds.", COUNT, 1),
    ("opt", C, {"label": "B"}, "There are 5.", COUNT, 1),
    ("opt", C, {"label": "B"}, "3 on the left and 2 on the right, so 5 in total.", COUNT, 1),
    ("opt", C, {"label": "B"}, "Seven birds.", COUNT, 0),
    ("opt", C, {"label": "A"}, "He holds an umbrella.", TIME, 1),
    ("opt", C, {"label": "A"}, "Umbrellas", TIME, 1),
    ("opt", C, {"label": "B"}, "He is reading the paper.", TIME, 1),
    ("opt", C, {"label": "D"}, "A mobile phone.", TIME, 1),
    ("opt", C, {"label": "D"}, "his smartphone", TIME, 1),
    ("list", ORD, {"order": "B,C,A"}, "B, next C, last A", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "B; then C; then A.", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "B and C and A", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "B, after which C, after which A", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "B ➜ C ➜ A", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "B ⇒ C ⇒ A", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "B\u2192C\u2192A", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "(B), (C), (A)", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "[B, C, A]", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "B-C-A", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "Step 1: B\nStep 2: C\nStep 3: A", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "B, C, and A.", None, 1),
    ("list", ORD, {"order": "B,C,A"}, "B, C, A, D", None, 0),
    ("list", ORD, {"order": "London,Paris,Madrid"}, "London\nParis\nMadrid", None, 1),
    ("list", ORD, {"order": "London,Paris,Madrid"}, "London; Paris; as well as Madrid", None, 1),
    ("list", ORD, {"order": "London,Paris,Madrid"}, "London first, then Paris, and Madrid last", None, 1),
    ("list", ORD, {"order": "London,Paris,Madrid"}, "london → paris → madrid", None, 1),
    ("list", ORD, {"order": "London,Paris,Madrid"}, "London, Madrid and Paris", None, 0),
    ("word", K, {"key_items": [["tree"]]}, "A palm tree on the beach.", None, 1),
    ("word", K, {"key_items": [["bus"]]}, "A business meeting.", None, 0),
    ("word", K, {"key_items": [["bus"]]}, "A minibus.", None, 1),
    ("word", K, {"key_items": [["car"]]}, "A racecar.", None, 1),
    ("word", K, {"key_items": [["car"]]}, "A scar on his arm.", None, 0),
    ("word", K, {"key_items": [["cup"]]}, "A teacup.", None, 1),
    ("word", K, {"key_items": [["ball"]]}, "A football.", None, 1),
    ("word", K, {"key_items": [["ball"]]}, "They are at a ball.", None, 1),
    ("word", K, {"key_items": [["pot"]]}, "A teapot.", None, 1),
    ("word", K, {"key_items": [["pot"]]}, "A spot on the wall.", None, 0),
    ("word", K, {"key_items": [["hat"]]}, "He wears a top hat.", None, 1),
    ("word", K, {"key_items": [["table"]]}, "A vegetable stall.", None, 0),
    ("word", K, {"key_items": [["lion"]]}, "A million stars.", None, 0),
    ("word", K, {"key_items": [["8"]]}, "The number is 18.", None, 0),
    ("word", K, {"key_items": [["12"]]}, "It shows 12:30.", None, 1),
    ("num", N, {"value_to_match": 4.5}, "Final Answer: 4,5 cm", None, 1),
    ("num", N, {"value_to_match": 1999.99}, "Der Preis: 1.999,99 €", None, 1),
    ("num", N, {"value_to_match": 1999.99}, "Final Answer: €1.999,99", None, 1),
    ("num", N, {"value_to_match": 25}, "Final Answer: 25,-", None, 1),
    ("num", N, {"value_to_match": 1500}, "Final Answer: 1 500", None, 1),
    ("num", N, {"value_to_match": 1500}, "Final Answer: 1.5k", None, 1),
    ("num", N, {"value_to_match": 3.75}, "Final Answer: 3 3/4", None, 1),
    ("num", N, {"value_to_match": 0.6}, "Final Answer: 3/5", None, 1),
    ("num", N, {"value_to_match": 60}, "Final Answer: 60 %", None, 1),
    ("num", N, {"value_to_match": 2.5}, "Il pèse 2,5 kilos.", None, 1),
    ("num", N, {"value_to_match": 12000}, "Final Answer: 12.000 Einwohner", None, 1),
    ("num", N, {"value_to_match": 7}, "Final Answer: sieben", None, 1),
    ("num", N, {"value_to_match": 1.05}, "Final Answer: 1,05", None, 1),
]  # fmt: skip
CASES += MORE_CASES

KEY = "key_items_matching"
LOC = "location_matching"
PLACES: list[tuple[str, str, dict[str, Any], str, str | None, float]] = [
    ("place", KEY, {"key_items": [["Florence"]]}, "It's Firenze.", None, 1),
    ("place", KEY, {"key_items": [["Munich"]]}, "This is München, in Bavaria.", None, 1),
    ("place", KEY, {"key_items": [["Switzerland"]]}, "Final Answer: Schweiz", None, 1),
    ("place", KEY, {"key_items": [["Switzerland"]]}, "Final Answer: Suisse", None, 1),
    ("place", KEY, {"key_items": [["Greece"]]}, "Final Answer: Hellas", None, 1),
    ("place", KEY, {"key_items": [["Greece"]]}, "Final Answer: Ελλάδα", None, 1),
    ("place", KEY, {"key_items": [["South Korea"]]}, "Final Answer: Republic of Korea", None, 1),
    ("place", KEY, {"key_items": [["South Korea"]]}, "Final Answer: North Korea", None, 0),
    ("place", KEY, {"key_items": [["The Hague"]]}, "Final Answer: Den Haag", None, 1),
    ("place", KEY, {"key_items": [["Brussels"]]}, "Final Answer: Bruxelles", None, 1),
    ("place", KEY, {"key_items": [["Warsaw"]]}, "Final Answer: Warszawa", None, 1),
    ("place", KEY, {"key_items": [["Copenhagen"]]}, "Final Answer: København", None, 1),
    ("place", KEY, {"key_items": [["Copenhagen"]]}, "Final Answer: Kobenhavn", None, 1),
    ("place", KEY, {"key_items": [["Seoul"]]}, "Final Answer: 서울", None, 1),
    ("place", KEY, {"key_items": [["Tokyo"]]}, "Final Answer: 東京", None, 1),
    ("place", KEY, {"key_items": [["Cairo"]]}, "Final Answer: القاهرة", None, 1),
    ("place", KEY, {"key_items": [["Athens"]]}, "Final Answer: Athens, Georgia", None, 0),
    ("place", KEY, {"key_items": [["Athens"]]}, "Final Answer: Athina", None, 1),
    ("place", LOC, {"location_fine_grained": ["Lisbon"], "location_coarse_grained": ["Portugal"]}, "Lisboa, Portugal", None, 1),
    ("place", LOC, {"location_fine_grained": ["Seville"], "location_coarse_grained": ["Spain"]}, "Sevilla, España", None, 1),
    ("place", LOC, {"location_fine_grained": ["Cologne"], "location_coarse_grained": ["Germany"]}, "Final Answer: Köln, Germany", None, 1),
    ("place", LOC, {"location_fine_grained": ["Cologne"], "location_coarse_grained": ["Germany"]}, "Final Answer: Bonn, Germany", None, 0.5),
    ("place", KEY, {"key_items": [["USA"]]}, "Final Answer: the United States", None, 1),
    ("place", KEY, {"key_items": [["Russia"]]}, "Final Answer: Russian Federation", None, 1),
    ("place", KEY, {"key_items": [["UAE"]]}, "Final Answer: United Arab Emirates", None, 1),
    ("place", KEY, {"key_items": [["Guinea"]]}, "Final Answer: Papua New Guinea", None, 0),
    ("place", KEY, {"key_items": [["Sydney"]]}, "Final Answer: Sydney, NSW", None, 1),
]  # fmt: skip
CASES += PLACES

WEIGHTS = (
    "Order the fruits by weight, lightest first.\nA. watermelon\nB. grape\nC. apple\nD. pineapple"
)
LENGTHS = "Rank these rivers by length, longest first.\nA) Danube\nB) Nile\nC) Thames"
BIRTHS = "Order the scientists by birth year, earliest first.\n1. Einstein\n2. Newton\n3. Galileo"
STAGES = "Put the stages in order.\n(A) the caterpillar\n(B) the egg\n(C) the butterfly\n(D) the chrysalis"
POPULATION = "Order the cities by population, largest first.\nA. Berlin\nB. Munich\nC. Hamburg"

# A third set, written with the weakest blind categories in mind and labelled
# before it was run: orders in markdown lists, chains and prose with dates;
# keys at the start or end of longer words; spellings and other languages'
# names; joiners in other languages and "no"/"without" before an item;
# corrections in other languages ("Korrektur:") or owned slips ("I made an
# arithmetic slip"); grouped and other-language numbers.
THIRD_CASES: list[tuple[str, str, dict[str, Any], str, str | None, float]] = [
    # orders by names or ranks
    ("order", ORD, {"order": "B,C,D,A"}, "**Lightest to heaviest:**\n1. Grape\n2. Apple\n3. Pineapple\n4. Watermelon", WEIGHTS, 1),
    ("order", ORD, {"order": "B,C,D,A"}, "Final answer: grape → apple → pineapple → watermelon", WEIGHTS, 1),
    ("order", ORD, {"order": "B,C,D,A"}, "The grape weighs the least. An apple is heavier than a grape but lighter than a pineapple, and the watermelon is heaviest.\n\nFinal Answer: B, C, D, A", WEIGHTS, 1),
    ("order", ORD, {"order": "B,C,D,A"}, "Answer: grapes, apples, pineapples, watermelons", WEIGHTS, 1),
    ("order", ORD, {"order": "B,C,D,A"}, "Answer: watermelon, pineapple, apple, grape", WEIGHTS, 0),
    ("order", ORD, {"order": "B,C,D,A"}, "Traube, Apfel, Ananas, Wassermelone — i.e. B, C, D, A.", WEIGHTS, 1),
    ("order", ORD, {"order": "B,C,D,A"}, "The lightest is the grape (B), next the apple (C), then the pineapple (D); the watermelon (A) is heaviest.", WEIGHTS, 1),
    ("order", ORD, {"order": "B,C,D,A"}, "- grape\n- pineapple\n- apple\n- watermelon", WEIGHTS, 0),
    ("order", ORD, {"order": "B,C,A"}, "The Nile is the longest river, the Danube is second, and the Thames is the shortest of the three.", LENGTHS, 0),
    ("order", ORD, {"order": "B,A,C"}, "The Nile is the longest river, the Danube is second, and the Thames is the shortest of the three.", LENGTHS, 1),
    ("order", ORD, {"order": "B,A,C"}, "Nile (6,650 km) > Danube (2,850 km) > Thames (346 km)", LENGTHS, 1),
    ("order", ORD, {"order": "B,A,C"}, "Ranking: 1. Nile 2. Danube 3. Thames", LENGTHS, 1),
    ("order", ORD, {"order": "B,A,C"}, "Thames, Danube, Nile (shortest to longest)", LENGTHS, 1),
    ("order", ORD, {"order": "B,A,C"}, "Longest first: Nile, then the Danube, with the Thames last.", LENGTHS, 1),
    ("order", ORD, {"order": "3,2,1"}, "Galileo (1564), Newton (1643), Einstein (1879).", BIRTHS, 1),
    ("order", ORD, {"order": "3,2,1"}, "Galileo was born first, Newton next and Einstein last.", BIRTHS, 1),
    ("order", ORD, {"order": "3,2,1"}, "Newton, Galileo, Einstein", BIRTHS, 0),
    ("order", ORD, {"order": "3,2,1"}, "Final Answer: 3, 2, 1 (Galileo, Newton, Einstein)", BIRTHS, 1),
    ("order", ORD, {"order": "B,A,D,C"}, "Egg → caterpillar → chrysalis → butterfly.", STAGES, 1),
    ("order", ORD, {"order": "B,A,D,C"}, "It starts as an egg, hatches into a caterpillar, forms a chrysalis, and emerges as a butterfly.", STAGES, 1),
    ("order", ORD, {"order": "B,A,D,C"}, "egg, caterpillar, butterfly, chrysalis", STAGES, 0),
    ("order", ORD, {"order": "A,C,B"}, "Berlin is the biggest, followed by Hamburg and then Munich.", POPULATION, 1),
    ("order", ORD, {"order": "A,C,B"}, "Berlin > Munich > Hamburg", POPULATION, 0),
    ("order", ORD, {"order": "A,C,B"}, "Largest: Berlin; second: Hamburg; third: Munich.", POPULATION, 1),
    ("order", ORD, {"order": "A,C,B"}, "Munich is smallest of the three, Hamburg is in the middle, Berlin is largest.", POPULATION, 1),
    # keys inside longer words
    ("key", K, {"key_items": [["ant"]]}, "It's an elephant.", None, 0),
    ("key", K, {"key_items": [["ant"]]}, "A small black ant.", None, 1),
    ("key", K, {"key_items": [["ant"]]}, "Final Answer: ants", None, 1),
    ("key", K, {"key_items": [["car"]]}, "It is a cart pulled by a horse.", None, 0),
    ("key", K, {"key_items": [["car"]]}, "The picture shows a carpet.", None, 0),
    ("key", K, {"key_items": [["car"]]}, "**Answer:** a racecar", None, 1),
    ("key", K, {"key_items": [["bird"]]}, "A blackbird on the fence.", None, 1),
    ("key", K, {"key_items": [["horse"]]}, "It's a seahorse.", None, 0),
    ("key", K, {"key_items": [["bear"]]}, "The animal is a bearded dragon.", None, 0),
    ("key", K, {"key_items": [["bear"]]}, "A polar bear cub.", None, 1),
    ("key", K, {"key_items": [["pen"]]}, "She is holding a pencil.", None, 0),
    ("key", K, {"key_items": [["pen"]]}, "A fountain pen.", None, 1),
    ("key", K, {"key_items": [["rose"]]}, "The flowers are primroses.", None, 0),
    ("key", K, {"key_items": [["Paris"]]}, "Final Answer: Parisian café", None, 1),
    ("key", K, {"key_items": [["oak"]]}, "It is a cloak.", None, 0),
    ("key", K, {"key_items": [["cat"]]}, "Answer: a wildcat", None, 1),
    ("key", K, {"key_items": [["cat"]]}, "Final answer: a caterpillar", None, 0),
    ("key", K, {"key_items": [["Java"]]}, "It is written in Java (not JavaScript).", None, 1),
    ("key", K, {"key_items": [["Python"]]}, "The snippet is in CPython's C API.", None, 0),
    ("key", K, {"key_items": [["tea"]]}, "Final Answer: steam", None, 0),
    ("key", K, {"key_items": [["water"]]}, "It's a watermelon.", None, 0),
    # other names and spellings
    ("alias", K, {"key_items": [["gray"]]}, "The cat is grey.", None, 1),
    ("alias", K, {"key_items": [["aluminum"]]}, "Final Answer: aluminium", None, 1),
    ("alias", K, {"key_items": [["theater"]]}, "It is a theatre.", None, 1),
    ("alias", L, {"location_fine_grained": ["Vienna"], "location_coarse_grained": ["Austria"]}, "Final Answer: Wien, Österreich", None, 1),
    ("alias", L, {"location_fine_grained": ["Florence"], "location_coarse_grained": ["Italy"]}, "This is Firenze, Italia.", None, 1),
    ("alias", L, {"location_fine_grained": ["Cologne"], "location_coarse_grained": ["Germany"]}, "Final Answer: Köln", None, 1),
    ("alias", L, {"location_fine_grained": ["Lisbon"], "location_coarse_grained": ["Portugal"]}, "Lisboa", None, 1),
    ("alias", K, {"key_items": [["Saint Petersburg"]]}, "Final Answer: St. Petersburg", None, 1),
    ("alias", K, {"key_items": [["Saint Petersburg"]]}, "Final Answer: Санкт-Петербург", None, 1),
    ("alias", K, {"key_items": [["United Kingdom"]]}, "Final Answer: UK", None, 1),
    ("alias", K, {"key_items": [["United States"]]}, "Final Answer: the USA", None, 1),
    ("alias", K, {"key_items": [["New York City"]]}, "Final Answer: NYC", None, 1),
    ("alias", K, {"key_items": [["Mount Everest"]]}, "Mt Everest", None, 1),
    ("alias", K, {"key_items": [["Beijing"]]}, "Answer: Peking", None, 1),
    ("alias", K, {"key_items": [["Mumbai"]]}, "It is Bombay.", None, 1),
    ("alias", K, {"key_items": [["Munich"]]}, "München", None, 1),
    ("alias", K, {"key_items": [["Munich"]]}, "Final Answer: Nuremberg (Nürnberg)", None, 0),
    ("alias", K, {"key_items": [["Tchaikovsky"]]}, "Final Answer: Pyotr Ilyich Tchaikovsky", None, 1),
    ("alias", K, {"key_items": [["Tchaikovsky"]]}, "Final Answer: Chaikovsky", None, 1),
    ("alias", K, {"key_items": [["Germany"]]}, "Deutschland", None, 1),
    ("alias", K, {"key_items": [["Japan"]]}, "日本", None, 1),
    ("alias", K, {"key_items": [["Netherlands"]]}, "Final answer: Holland", None, 1),
    ("alias", K, {"key_items": [["Czech Republic"]]}, "Final Answer: Czechia", None, 1),
    # list joiners
    ("join", ORD, {"order": "C,A,B"}, "C; A; B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C then A then B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "C, followed by A, and lastly B.", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C — A — B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C => A => B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C, A, B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C-A-B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: CAB", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: [C, A, B]", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: (C, A, B)", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer:\nC\nA\nB", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C, A y B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C, A und B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C, A et B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C、A、B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C → B → A", None, 0),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C, A, and then B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C, next A, after that B", None, 1),
    ("join", ORD, {"order": "C,A,B"}, "Final Answer: C » A » B", None, 1),
    ("join", K, {"key_items": [["salt"], ["pepper"]]}, "Salt & pepper.", None, 1),
    ("join", K, {"key_items": [["salt"], ["pepper"]]}, "Salt, plus a pinch of pepper.", None, 1),
    ("join", K, {"key_items": [["salt"], ["pepper"]]}, "Salt; no pepper.", None, 0),
    ("join", K, {"key_items": [["salt"], ["pepper"]]}, "Salt but no pepper.", None, 0),
    ("join", K, {"key_items": [["salt"], ["pepper"]]}, "Salt, without pepper.", None, 0),
    ("join", K, {"key_items": [["salt"], ["pepper"]]}, "Just salt - no pepper", None, 0),
    ("join", K, {"key_items": [["salt"], ["pepper"]]}, "Salt and pepper, without a doubt.", None, 1),
    ("join", K, {"key_items": [["salt"], ["pepper"]]}, "No, it is salt and pepper.", None, 1),
    ("join", K, {"key_items": [["salt"], ["pepper"]]}, "Salt and pepper, with no other spices.", None, 1),
    # corrections after the final answer
    ("corr", C, {"label": "C"}, "Final Answer: B\n\nWait — I misread the axis. It's C.", None, 1),
    ("corr", C, {"label": "C"}, "Final Answer: B\n\n**Edit:** C, the second bar is taller.", None, 1),
    ("corr", C, {"label": "B"}, "Final Answer: B\n\nEdit: fixed a typo in the explanation.", None, 1),
    ("corr", C, {"label": "B"}, "Final Answer: B\n\nNote: C is a common distractor.", None, 1),
    ("corr", N, {"value_to_match": 14}, "Final Answer: 12\n\nOops, I forgot the two on the roof: 14.", None, 1),
    ("corr", N, {"value_to_match": 12}, "Final Answer: 12\n\nDouble-checking: 5 + 7 = 12. Confirmed.", None, 1),
    ("corr", N, {"value_to_match": 14}, "Final Answer: 12\n\nActually, recounting gives 14.", None, 1),
    ("corr", N, {"value_to_match": 12}, "Final Answer: 12\n\nActually, recounting gives 12 again.", None, 1),
    ("corr", K, {"key_items": [["Monet"]]}, "Final Answer: Manet\n\nCorrection: Monet — the water lilies give it away.", None, 1),
    ("corr", K, {"key_items": [["Manet"]]}, "Final Answer: Manet\n\nCorrection: Monet — the water lilies give it away.", None, 0),
    ("corr", C, {"label": "D"}, "Final Answer: A\n\nHmm, on reflection the answer is D.", None, 1),
    ("corr", C, {"label": "D"}, "Final Answer: A\n\nScratch that: D.", None, 1),
    ("corr", C, {"label": "D"}, "Final Answer: A\n\nNo wait, D.", None, 1),
    ("corr", C, {"label": "D"}, "**Final Answer: A**\n\n*Update:* after rechecking, **D**.", None, 1),
    ("corr", C, {"label": "A"}, "Final Answer: A\n\nI double-checked and A holds; D was tempting.", None, 1),
    ("corr", N, {"value_to_match": 30}, "Final Answer: 25\n\nErratum: the correct total is 30.", None, 1),
    ("corr", N, {"value_to_match": 30}, "Final Answer: 25\n\nI made an arithmetic slip above; the total should be 30.", None, 1),
    ("corr", C, {"label": "B"}, "Final Answer: C\n\nLet me reconsider... yes, B is better supported by the graph. Final: B", None, 1),
    ("corr", C, {"label": "B"}, "Final Answer: C\n\nKorrektur: B.", None, 1),
    ("corr", C, {"label": "B"}, "Final Answer: C\n\nCorrección: la respuesta es B.", None, 1),
    ("corr", C, {"label": "D"}, "Final Answer: B\n\n(Revised: D)", None, 1),
    ("corr", C, {"label": "D"}, "Final Answer: B\n\nI apologize for the confusion earlier; the correct choice is D.", None, 1),
    ("corr", C, {"label": "D"}, "Final Answer: B\n\nApologies — I mixed up the labels. D is correct.", None, 1),
    ("corr", N, {"value_to_match": 42}, "Final Answer: 24\n\nTypo: 42.", None, 1),
    ("corr", C, {"label": "A"}, "Final Answer: C\n\nRectification : la bonne réponse est A.", None, 1),
    ("corr", C, {"label": "A"}, "Final Answer: C\n\nPerdón, es A.", None, 1),
    ("corr", C, {"label": "A"}, "Final Answer: C\n\nEntschuldigung, ich meinte A.", None, 1),
    ("corr", N, {"value_to_match": 12}, "Final Answer: 12\n\nI apologize, but the image is blurry, so this count may be off by one.", None, 1),
    ("corr", N, {"value_to_match": 12}, "Final Answer: 12\n\nI apologize for any confusion in my earlier explanation.", None, 1),
    ("corr", C, {"label": "D"}, "Final Answer: B\n\nCorrected Final Answer: D", None, 1),
    ("corr", C, {"label": "D"}, "Final Answer: B\n\nUpon re-examination, the answer should be D.", None, 1),
    ("corr", N, {"value_to_match": 16}, "Final Answer: 16\n\nWait, is it 18? No — 16 is right.", None, 1),
    ("corr", K, {"key_items": [["Kyoto"]]}, "Final Answer: Tokyo\n\nEdit: I meant Kyoto — the temple is Kinkaku-ji.", None, 1),
    # local number formats
    ("num", N, {"value_to_match": 1234567}, "Final Answer: 1.234.567", None, 1),
    ("num", N, {"value_to_match": 1234567}, "Final Answer: 1'234'567", None, 1),
    ("num", N, {"value_to_match": 1234567}, "Final Answer: 12,34,567", None, 1),
    ("num", N, {"value_to_match": 0.75}, "Final Answer: 0,75", None, 1),
    ("num", N, {"value_to_match": 0.75}, "Die Wahrscheinlichkeit beträgt 0,75.", None, 1),
    ("num", N, {"value_to_match": 2.5}, "Il pèse 2,5 kg.", None, 1),
    ("num", N, {"value_to_match": 2500}, "Il pèse 2 500 g.", None, 1),
    ("num", N, {"value_to_match": 1500}, "Die Miete beträgt 1.500 € im Monat.", None, 1),
    ("num", N, {"value_to_match": 1.5}, "Die Miete beträgt 1.500 € im Monat.", None, 0),
    ("num", N, {"value_to_match": 15000}, "Final Answer: 15.000", None, 1),
    ("num", N, {"value_to_match": 7.25}, "La respuesta es 7,25 metros.", None, 1),
    ("num", N, {"value_to_match": 1200000}, "Final Answer: 1,2 Mio.", None, 1),
    ("num", N, {"value_to_match": 1200000}, "About 1.2 million.", None, 1),
    ("num", N, {"value_to_match": 12.5}, "Ответ: 12,5", None, 1),
    ("num", N, {"value_to_match": 1024}, "Ответ: 1 024", None, 1),
    ("num", N, {"value_to_match": 0.5}, "Final Answer: ½", None, 1),
    ("num", N, {"value_to_match": 3.75}, "Final Answer: 3¾", None, 1),
    ("num", N, {"value_to_match": 12.5}, "The discount is 12.5%.", None, 1),
    ("num", N, {"value_to_match": 2.345}, "Final Answer: 2,345 km", None, 0),
    ("num", N, {"value_to_match": 9.81}, "g ≈ 9,81 m/s².", None, 1),
    ("num", N, {"value_to_match": 100000}, "Final Answer: 1 lakh", None, 1),
    ("num", N, {"value_to_match": 25}, "Final Answer: vingt-cinq", None, 1),
    ("num", N, {"value_to_match": 25}, "Antwort: fünfundzwanzig", None, 1),
]  # fmt: skip
CASES += THIRD_CASES

# Confidently wrong today: the knowledge is not in the data strict mode reads
# (CLDR has no Northern Ireland, GeoNames' regions outside the US are not
# indexed, "America" is a continent or a country).
KNOWN_MISSES: list[tuple[str, str, dict[str, Any], str, str | None, float]] = [    ("place", KEY, {"key_items": [["United States"]]}, "Final Answer: America", None, 1),
    ("place", KEY, {"key_items": [["Ireland"]]}, "Final Answer: Northern Ireland", None, 0),
    ("place", KEY, {"key_items": [["Sydney"]]}, "Final Answer: Sydney, Nova Scotia", None, 0),
]  # fmt: skip

Case = tuple[str, str, dict[str, Any], str, "str | None", float]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[3][:40]}")
def test_never_confidently_wrong(case: Case) -> None:
    _category, evaluator, kwargs, answer, question, label = case
    outcome = strict.evaluate(evaluator, kwargs, answer, question)
    assert outcome.score == label or outcome.uncertain is not None, outcome


@pytest.mark.parametrize("case", KNOWN_MISSES, ids=lambda c: f"{c[0]}-{c[3][:40]}")
@pytest.mark.xfail(strict=True, reason="needs knowledge strict mode's data does not hold")
def test_known_misses(case: Case) -> None:
    test_never_confidently_wrong(case)


def test_most_are_decided() -> None:
    """Uncertain verdicts stay rare: at most 15% of these cases."""
    doubts = sum(
        strict.evaluate(ev, kw, answer, q).uncertain is not None
        for _, ev, kw, answer, q, _ in CASES
    )
    assert doubts <= 0.15 * len(CASES)
