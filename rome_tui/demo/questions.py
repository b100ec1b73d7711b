"""The demo's question bank: 60 items over every evaluator, with right, partly right and wrong answers.

Each question lists the final answers a careful grader would accept (``right``),
half-credit answers (``partial``), wrong ones, and ``quirks``: answers whose
wording trips a rule evaluator one way or the other (the reference grader's
extraction and matching quirks, spec §4-5), each with its true score. The
observations (``facts``) feed the generated reasoning traces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Question:
    qid: str
    task: str
    image_type: str
    image_subtype: str
    question: str
    reference: str
    evaluator: str
    kwargs: dict[str, Any]
    question_type: str
    right: list[str]
    wrong: list[str]
    facts: list[str]
    partial: list[str] = field(default_factory=list)
    quirks: list[tuple[str, float]] = field(default_factory=list)
    steps: str | None = None
    reasoning_type: str = "VL"

    @property
    def img_path(self) -> str | list[str]:
        """ROME's img_path: a list for the multi-image items (drawn by rome_tui.demo.pictures)."""
        if self.task == "multi":
            return [f"images/{self.qid}_1.png", f"images/{self.qid}_2.png"]
        return f"images/{self.qid}.png"

    def annotation(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "question_id": self.qid,
            "question": self.question,
            "img_path": self.img_path,
            "image_type": self.image_type,
            "image_subtype": self.image_subtype,
            "reference": self.reference,
            "question_type": self.question_type,
            "reasoning_type": self.reasoning_type,
            "evaluator": self.evaluator,
            "evaluator_kwargs": self.kwargs,
            "meta_info": {"source": "rome-tui demo (synthetic)"},
            "task": self.task,
        }
        if self.steps:
            record["steps"] = self.steps
        return record


def _geo() -> list[Question]:
    places = [
        (
            "Charles Bridge",
            "Prague",
            "a stone bridge lined with baroque statues over a wide river",
            "Karlův most",
            ["Vienna", "Budapest"],
        ),
        (
            "Sagrada Familia",
            "Barcelona",
            "a basilica with tall perforated spires and cranes around it",
            "Sagrada Família",
            ["Madrid", "Valencia"],
        ),
        (
            "Golden Gate Bridge",
            "San Francisco",
            "a red suspension bridge with fog over the towers",
            "Golden  Gate Bridge",
            ["Lisbon", "Oakland"],
        ),
        (
            "Table Mountain",
            "Cape Town",
            "a flat-topped mountain above a harbour city",
            "Table Mtn",
            ["Durban", "Rio de Janeiro"],
        ),
        (
            "Shibuya Crossing",
            "Tokyo",
            "a scramble crossing with giant video screens at night",
            "Shibuya crossing",
            ["Osaka", "Seoul"],
        ),
        (
            "Ponte Vecchio",
            "Florence",
            "a medieval bridge with shops built along it",
            "Old Bridge (Ponte Vecchio)",
            ["Venice", "Pisa"],
        ),
        (
            "Marina Bay Sands",
            "Singapore",
            "three towers joined by a ship-shaped roof deck",
            "Marina Bay",
            ["Kuala Lumpur", "Hong Kong"],
        ),
        (
            "Nyhavn",
            "Copenhagen",
            "a canal lined with brightly painted townhouses and old boats",
            "Nyhavn harbour",
            ["Amsterdam", "Stockholm"],
        ),
    ]
    out = []
    for k, (fine, coarse, scene, variant, others) in enumerate(places):
        out.append(
            Question(
                qid=f"question_geo_{k + 1}",
                task="geo",
                image_type="Urban",
                image_subtype="landmark",
                question=f"<image 1> Where was this photo taken? The photo shows {scene}. Be as specific as you can.",
                reference=f"{fine}, {coarse}",
                evaluator="location_matching",
                kwargs={"location_fine_grained": [fine], "location_coarse_grained": [coarse]},
                question_type="open",
                right=[f"{fine}, {coarse}", f"the {fine} in {coarse}"],
                partial=[coarse, f"somewhere in {coarse}"],
                wrong=others,
                quirks=[(variant + f", {coarse}", 1.0)],
                facts=[
                    f"the image shows {scene}",
                    f"the architecture and signage look typical of {coarse}",
                    f"the most recognisable structure is consistent with the {fine}",
                ],
                reasoning_type="V",
            )
        )
    return out


def _choices() -> list[Question]:
    items = [
        (
            "academic",
            "Which force keeps the satellite in the diagram in a circular orbit? (A) friction (B) gravity (C) magnetism (D) buoyancy",
            "B",
            "gravity provides the centripetal force",
            "A",
        ),
        (
            "academic",
            "According to the supply-demand plot, what happens to the equilibrium price after the supply curve shifts left? (A) it falls (B) it is unchanged (C) it rises (D) it becomes zero",
            "C",
            "a leftward supply shift raises the price along the demand curve",
            "A",
        ),
        (
            "academic",
            "Which organelle labelled in the cell diagram produces most of the ATP? (A) nucleus (B) ribosome (C) Golgi body (D) mitochondrion",
            "D",
            "label D points to the folded inner membrane",
            "C",
        ),
        (
            "academic",
            "In the circuit shown, which bulb is brightest? (A) bulb 1 (B) bulb 2 (C) bulb 3 (D) all equal",
            "A",
            "bulb 1 carries the full current before the parallel branch",
            "D",
        ),
        (
            "academic",
            "Which of the graphs shows a function that is its own derivative? (A) graph A (B) graph B (C) graph C (D) graph D",
            "B",
            "graph B rises exponentially through (0, 1)",
            "C",
        ),
        (
            "charts",
            "Which region had the largest growth between 2019 and 2023 in the bar chart? (A) North (B) South (C) East (D) West",
            "C",
            "the East bars grow from 12 to 31",
            "D",
        ),
        (
            "academic",
            "Which two statements about the titration curve are true? (A) the equivalence point is at pH 7 (B) the acid is weak (C) the buffer region is flat (D) the base is weak",
            "BC",
            "the curve starts above pH 2 and has a flat buffer region",
            "AB",
        ),
        (
            "puzzles",
            "Which piece completes the pattern? (A) piece A (B) piece B (C) piece C (D) piece D (E) piece E",
            "E",
            "the dots rotate by 90 degrees each step",
            "B",
        ),
        (
            "academic",
            "Which label marks the anther in the flower diagram? (A) A (B) B (C) C (D) D",
            "A",
            "the anther sits at the tip of the stamen",
            "B",
        ),
    ]
    out = []
    for k, (task, question, label, fact, wrong) in enumerate(items):
        letters = " and ".join(label) if len(label) > 1 else label
        out.append(
            Question(
                qid=f"question_{task}_{k + 11}",
                task=task,
                image_type="Expert" if task == "academic" else "Artificial",
                image_subtype="diagram" if task != "charts" else "bar chart",
                question=f"<image 1> {question}\n**Finalize your output with:** `Final Answer:`, followed by a letter or a comma-separated list of letters which means the option of correct answer.",
                reference=label,
                evaluator="choices_matching",
                kwargs={"label": label},
                question_type="multiple-choice",
                right=[
                    ", ".join(label),
                    f"({label[0]})" if len(label) == 1 else " and ".join(label),
                ],
                wrong=[wrong, f"{wrong[0]}."],
                quirks=[(f"Option {label}", 1.0), (f"{letters} (the others do not fit)", 1.0)]
                if len(label) == 1
                else [(f"Both {label[0]} and {label[1]}", 1.0)],
                facts=[
                    fact,
                    f"option {wrong[0]} looks tempting at first glance",
                    "the labels in the figure are small but legible",
                ],
                steps=f"Step 1: Read the figure. Step 2: Note that {fact}. Step 3: Eliminate the other options. Step 4: Answer {label}.",
            )
        )
    return out


def _ordered() -> list[Question]:
    items = [
        (
            "multi",
            "Order the four panels (A-D) chronologically.",
            ["C", "D", "A", "B"],
            "the clock on the wall advances from panel C to D, then A, then B",
        ),
        (
            "puzzles",
            "Arrange the gears A-D from fastest to slowest.",
            ["B", "A", "D", "C"],
            "smaller gears turn faster and B has the fewest teeth",
        ),
        (
            "multi",
            "Sort the photos A-E from oldest to newest.",
            ["E", "A", "C", "B", "D"],
            "the cars and clothing move from 1950s to 2010s styles",
        ),
        (
            "puzzles",
            "Put the stages of the mitosis images (A-D) in order.",
            ["D", "B", "A", "C"],
            "chromosomes condense in D, align in B, separate in A, and divide in C",
        ),
        (
            "multi",
            "Rank the planets shown (A-D) by distance from the Sun, nearest first.",
            ["A", "C", "B", "D"],
            "A is rocky and small, D is a ringed gas giant",
        ),
        (
            "multi",
            "Order the cities in the photos (A-D) from west to east.",
            ["B", "D", "A", "C"],
            "the time zones on the station clocks increase from B to C",
        ),
    ]
    out = []
    for k, (task, question, order, fact) in enumerate(items):
        joined = ", ".join(order)
        swapped = order[:]
        swapped[0], swapped[1] = swapped[1], swapped[0]
        out.append(
            Question(
                qid=f"question_{task}_{k + 21}",
                task=task,
                image_type="Natural" if task == "multi" else "Artificial",
                image_subtype="photo set" if task == "multi" else "puzzle",
                # The multi-image items show panels A-B in <image 1> and C-D in <image 2>.
                question=f"{'<image 1> <image 2>' if task == 'multi' else '<image 1>'} {question}\n**Finalize your output with:** `Final Answer:`, followed by a comma-separated list.\n**Format example:** `Final Answer: A, B, C, D, E`",
                reference=joined,
                evaluator="ordered_list_matching",
                kwargs={"order": order},
                question_type="open",
                right=[joined, ",".join(order)],
                wrong=[", ".join(swapped), ", ".join(reversed(order))],
                quirks=[(" → ".join(order), 1.0), (" ".join(order), 1.0)],
                facts=[
                    fact,
                    f"the first item is clearly {order[0]}",
                    "the middle items are the hardest to tell apart",
                ],
                steps=f"Step 1: Identify a cue that orders the items. Step 2: Observe that {fact}. Step 3: The order is {joined}.",
            )
        )
    return out


def _numbers() -> list[Question]:
    items = [
        (
            "recognition",
            "How many people are sitting on the bench?",
            3,
            "two adults and a child share the bench",
            4,
        ),
        (
            "charts",
            "What is the value of the tallest bar (in thousands)?",
            1234,
            "the tallest bar reaches just above the 1,200 gridline",
            1200,
        ),
        (
            "recognition",
            "How many windows are on the front of the house?",
            9,
            "three rows of three windows",
            8,
        ),
        (
            "charts",
            "What was the average temperature in July, in degrees Celsius?",
            23.5,
            "the July point sits between 23 and 24",
            25.0,
        ),
        (
            "recognition",
            "How many birds are on the wire?",
            7,
            "seven silhouettes, one partly hidden by a pole",
            6,
        ),
        (
            "charts",
            "By how many percentage points did turnout rise from 2016 to 2020?",
            6.6,
            "the two labelled values are 60.1 and 66.7",
            6.0,
        ),
        (
            "recognition",
            "What is the number on the runner's bib?",
            2417,
            "the bib reads 2417 in black digits",
            2471,
        ),
        (
            "charts",
            "How many countries in the chart exceed 50 million people?",
            5,
            "five bars cross the 50 million line",
            4,
        ),
        (
            "recognition",
            "How many dice show an even number?",
            4,
            "the faces show 2, 4, 4, 6, 1 and 5",
            3,
        ),
    ]
    out = []
    for k, (task, question, value, fact, wrong) in enumerate(items):
        shown = f"{value:,}" if isinstance(value, int) and value >= 1000 else str(value)
        quirks = [(f"{value} (I counted twice; confidence 80%)", 1.0)]
        if isinstance(value, int) and value >= 1000:
            quirks.append((shown, 1.0))
        out.append(
            Question(
                qid=f"question_{task}_{k + 31}",
                task=task,
                image_type="Urban" if task == "recognition" else "Artificial",
                image_subtype="counting" if task == "recognition" else "chart",
                question=f"<image 1> {question}\n**Finalize your output with:** `Final Answer:`, followed by a number.\n**Format example:** `Final Answer: 123`",
                reference=str(value),
                evaluator="number_matching",
                kwargs={"value_to_match": value},
                question_type="open",
                right=[str(value)],
                wrong=[str(wrong)],
                quirks=quirks,
                facts=[
                    fact,
                    "the image is slightly blurred at the edges",
                    "I should not double count overlapping objects",
                ],
            )
        )
    return out


def _key_items() -> list[Question]:
    items = [
        (
            "diagrams",
            "Which teams play all group games in one city without travelling?",
            [["Monterrey"], ["Seattle Sounders", "Seattle"]],
            "Monterrey and Seattle Sounders",
            "Monterrey only",
            "Urawa Red Diamonds",
        ),
        (
            "diagrams",
            "Which two ingredients in the recipe card contain gluten?",
            [["flour"], ["soy sauce"]],
            "flour and soy sauce",
            "flour",
            "rice vinegar",
        ),
        (
            "diagrams",
            "Name the two stations where the red and blue lines meet.",
            [["Central"], ["Harbour"]],
            "Central and Harbour",
            "Central",
            "Museum",
        ),
        ("memes", "What film is this meme referencing?", [["Titanic"]], "Titanic", None, "Avatar"),
        (
            "diagrams",
            "Which components in the flowchart run in parallel?",
            [["parser"], ["validator"]],
            "the parser and the validator",
            "the parser",
            "the scheduler",
        ),
        (
            "memes",
            "Which painting is parodied in the image?",
            [["Mona Lisa", "La Gioconda"]],
            "the Mona Lisa",
            None,
            "The Scream",
        ),
        (
            "diagrams",
            "Which two countries share the longest border on the map?",
            [["Canada"], ["United States", "USA"]],
            "Canada and the United States",
            "Canada",
            "Mexico",
        ),
        (
            "charts",
            "Which products sold out in March according to the table?",
            [["lamps"], ["kettles"]],
            "lamps and kettles",
            "lamps",
            "toasters",
        ),
        (
            "diagrams",
            "What two gases are exchanged in the leaf diagram?",
            [["carbon dioxide", "CO2"], ["oxygen", "O2"]],
            "carbon dioxide and oxygen",
            "oxygen",
            "nitrogen",
        ),
    ]
    out = []
    for k, (task, question, keys, right, half, wrong) in enumerate(items):
        wrong_list = [wrong] + ([half] if half else [])
        first = keys[0][0]
        out.append(
            Question(
                qid=f"question_{task}_{k + 41}",
                task=task,
                image_type="Artificial",
                image_subtype="diagram" if task != "memes" else "meme",
                question=f"<image 1> {question}",
                reference=right,
                evaluator="key_items_matching",
                kwargs={"key_items": keys},
                question_type="open",
                right=[right],
                wrong=wrong_list,
                # Names the key only to reject it: the substring rule still scores it right.
                quirks=[(f"{wrong}; it is not {first}", 0.0)],
                facts=[
                    f"the figure points to {right}",
                    f"{wrong} appears too but does not qualify",
                    "the legend explains the symbols",
                ],
                steps=f"Step 1: Read the legend. Step 2: Check each candidate. Step 3: Only {right} satisfy the condition.",
            )
        )
    return out


def _intervals() -> list[Question]:
    single = [
        (
            "charts",
            "Estimate the length of the hiking trail on the map.",
            [11.5, 13.0],
            ["km", "kilometers"],
            "12.3 km",
            "15 km",
            "the scale bar of 2 km fits about six times along the trail",
        ),
        (
            "charts",
            "What time does the last train leave according to the timetable photo?",
            ["23:40", "23:50"],
            [],
            "23:45",
            "22:45",
            "the bottom row of the timetable reads 23:45",
        ),
        (
            "recognition",
            "How tall is the lighthouse, judging by the people next to it?",
            [28, 36],
            ["m", "meters", "metres"],
            "about 32 m",
            "about 50 m",
            "a person is roughly 1.7 m and the tower is about nineteen people tall",
        ),
        (
            "charts",
            "What is the boiling point at the marked altitude?",
            [90, 94],
            ["°C", "degrees"],
            "92 °C",
            "100 °C",
            "the curve crosses the altitude line near 92",
        ),
        (
            "recognition",
            "How long is the bus in the photo?",
            [11, 13],
            ["m", "meters"],
            "12 m",
            "8 m",
            "the bus is as long as about two and a half cars",
        ),
    ]
    out = []
    for k, (task, question, interval, units, right, wrong, fact) in enumerate(single):
        out.append(
            Question(
                qid=f"question_{task}_{k + 51}",
                task=task,
                image_type="Artificial" if task == "charts" else "Urban",
                image_subtype="estimation",
                question=f"<image 1> {question}\n**Finalize your output with:** `Final Answer:`, followed by a string representing the correct answer.",
                reference=right,
                evaluator="interval_matching",
                kwargs={"interval": interval, "units": units},
                question_type="open",
                right=[right],
                wrong=[wrong],
                quirks=[
                    (
                        right.replace(" km", "").replace(" m", "").replace(" °C", ""),
                        0.5 if units else 1.0,
                    )
                ]
                if units
                else [(f"around {right}", 1.0)],
                facts=[
                    fact,
                    "the estimate has a reasonable margin of error",
                    "the units matter for this question",
                ],
            )
        )
    multi: list[tuple[str, str, list[Any], list[Any], str, str, str]] = [
        (
            "charts",
            "Give either the peak temperature (°C) or the peak rainfall (mm) shown.",
            [[30, 33], [110, 130]],
            [["°C"], ["mm"]],
            "31 °C",
            "45 °C",
            "the red line peaks just above 30 and the bars reach 120 mm",
        ),
        (
            "recognition",
            "Estimate the width of the river in metres or in feet.",
            [[45, 60], [150, 200]],
            [["m", "meters"], ["ft", "feet"]],
            "about 50 m",
            "about 20 m",
            "the river is about ten boat lengths wide",
        ),
        (
            "charts",
            "What is the median income shown, in dollars or in thousands of dollars?",
            [[52000, 56000], [52, 56]],
            [["$", "dollars"], ["k", "thousand"]],
            "$54,000",
            "$64,000",
            "the median marker sits at 54",
        ),
        (
            "charts",
            "When does the shop open on Saturday?",
            [["8:45", "9:15"], ["9:00", "9:00"]],
            [[], []],
            "9:00",
            "10:00",
            "the sign says Saturday 9:00 to 17:00",
        ),
    ]
    for k, (task, question, intervals, units, right, wrong, fact) in enumerate(multi):
        out.append(
            Question(
                qid=f"question_{task}_{k + 56}",
                task=task,
                image_type="Artificial",
                image_subtype="estimation",
                question=f"<image 1> {question}",
                reference=right,
                evaluator="multi_interval_matching",
                kwargs={"intervals": intervals, "units": units},
                question_type="open",
                right=[right],
                wrong=[wrong],
                quirks=[(f"roughly {right} (give or take)", 1.0)],
                facts=[fact, "either unit is accepted", "I will state the unit explicitly"],
            )
        )
    return out


def _math() -> list[Question]:
    items = [
        (
            "Find the value of x in the triangle shown.",
            "\\frac{9}{4}",
            ["\\frac{9}{4}", "2.25"],
            ["\\frac{4}{9}"],
            "the similar triangles give 4x = 9",
        ),
        (
            "Solve the system read from the photo of the whiteboard: give x and y.",
            "x=3; y=-2",
            ["x=3; y=-2"],
            ["x=-2; y=3"],
            "substituting y = 1 - x into the second equation gives x = 3",
        ),
        (
            "What is the area of the shaded region (in terms of pi)?",
            "16-4\\pi",
            ["16-4\\pi", "4(4-\\pi)"],
            ["16-2\\pi"],
            "the square has side 4 and each quarter circle has radius 2",
        ),
        (
            "Compute the limit written on the worksheet.",
            "\\frac{1}{2}",
            ["\\frac{1}{2}", "0.5"],
            ["1"],
            "L'Hôpital's rule once gives sin x over 2x",
        ),
        (
            "Find both roots of the quadratic in the picture.",
            "2; 5",
            ["2; 5", "x=2, x=5"],
            ["-2; -5"],
            "the polynomial factors as (x-2)(x-5)",
        ),
        (
            "What is the probability shown by the tree diagram for two heads?",
            "\\frac{1}{4}",
            ["\\frac{1}{4}", "0.25"],
            ["\\frac{1}{2}"],
            "each branch has probability one half",
        ),
        (
            "Find the sum of the interior angles of the polygon drawn.",
            "720",
            ["720", "720^\\circ"],
            ["540"],
            "the polygon has six sides",
        ),
        (
            "Give the slope and the y-intercept of the line on the grid.",
            "slope=\\frac{2}{3}; intercept=1",
            ["slope=\\frac{2}{3}; intercept=1"],
            ["slope=\\frac{3}{2}; intercept=1"],
            "the line rises 2 for every 3 across and crosses the axis at 1",
        ),
        (
            "Evaluate the definite integral on the exam sheet.",
            "\\ln 2",
            ["\\ln 2", "\\ln(2)"],
            ["\\ln 3"],
            "the antiderivative of 1/x evaluated from 1 to 2",
        ),
        (
            "What is the volume of the cylinder in the sketch?",
            "45\\pi",
            ["45\\pi"],
            ["15\\pi"],
            "radius 3 and height 5 give pi times 9 times 5",
        ),
    ]
    out = []
    for k, (question, reference, right, wrong, fact) in enumerate(items):
        partial = []
        if ";" in reference:
            first, second = reference.split(";", 1)
            partial = [f"{first}; {second.strip()}0"]
        out.append(
            Question(
                qid=f"question_math_{k + 61}",
                task="math",
                image_type="Expert",
                image_subtype="handwritten math",
                question=f"<image 1> {question}",
                reference=reference,
                evaluator="math_matching",
                kwargs={"answer": reference, "question_type": "fill-in-the-blank"},
                question_type="fill-in-the-blank",
                right=right,
                wrong=wrong,
                partial=partial,
                facts=[
                    fact,
                    "the photo is taken at an angle but the numbers are readable",
                    "I need to keep exact values, not decimals",
                ],
                steps=f"Step 1: Read the problem from the image. Step 2: Note that {fact}. Step 3: Compute the result: {reference}.",
            )
        )
    return out


def all_questions() -> list[Question]:
    questions = (
        _geo() + _choices() + _ordered() + _numbers() + _key_items() + _intervals() + _math()
    )
    assert len({q.qid for q in questions}) == len(questions), "question ids must be unique"
    return questions
