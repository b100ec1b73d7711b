"""Generate the rome-mode parity corpus (inputs only; the expected outputs come from the reference).

    python tests/data/rome_parity/generate.py tests/data/rome_parity

writes annotations and predictions for three runs: ``task/`` (bucket by
``task``, with the bucket-name quirks of spec Q9 and duplicate ids),
``image/`` (bucket by ``image_type`` / ``image_subtype``) and ``keyed/``
(JSON Lines annotations, predictions as a one-line object keyed by id). The answers are
built from templates that hit every quirk of spec §10 that the reference
survives: marker variants, boxed, choices oddities, number formats, locations,
ordered lists, key items, character normalisation. Deterministic (seeded).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

THINKS = [
    "",
    "<think>Let me look at the figure carefully. The left part shows two panels.</think>\n",
    "<think>Tentative Answer: A. Hmm, maybe not; let me recount the items.</think>\n",
    "<think>I think the answer is 12, but the scale bar suggests 1,200.</think>\n\n",
]

# Wrappers: how the final answer is presented. {a} is the answer text.
WRAPPERS = [
    "Final Answer: {a}",
    "**Final Answer:** {a}",
    "**Final Answer: {a}**",
    "### Final Answer\n{a}",
    "Answer: {a}",
    "answer: {a}",
    "FINAL ANSWER: {a}",
    "The answer is {a}.",
    "So the result is {a}.",
    "Answers: {a}",
    "Answering the question: {a}",
    "Final Answer: $\\boxed{{{a}}}$",
    "Therefore \\boxed{{{a}}}",
    "We get \\boxed{{\\text{{{a}}}}} in the end.",
    "最终答案：{a}",
    "答案: {a}",
    "答案{a}",
    "Answer: {a}\n\nConfidence: 80% (step 2 was hardest)",
    "{a}",
    "Reasoning first. Tentative Answer: {a}\nAfter checking, no change.",
]

CHOICE_FORMS = [
    "{l}",
    "({l})",
    "{l}) the second one",
    "{l}. the option",
    "**{l}**",
    "\\boxed{{{l}}}",
    "Option {l}",
    "{low}",
    "({low})",
    "{full}",
    "{l} or {o}",
    "{o} or {l}",
    "{o}. at first, actually {l}",
    "Back right ({l})",
]
MULTI_FORMS = [
    "{a}, {b}",
    "{b}, {a}",
    "{a} and {b}",
    "{a}{b}",
    "{a}、{b}",
    "{a}, {b}, {c}",
    "Both {a} and {b}",
]

NUMBER_CASES: list[tuple[Any, str]] = [
    (1234, "1,234"),
    (1234, "1 234"),
    (1234, "1234"),
    (300000000, "3e8"),
    (300000000.0, "3.0 × 10^8"),
    (12, "12 m^2"),
    (12, "12 m²"),
    (45, "45%"),
    (0.45, "45%"),
    (0.5, ".5"),
    (0.5, "1/2"),
    (2.25, "\\frac{9}{4}"),
    (2.25, "9:4"),
    (2024, "2023-2024"),
    (2025, "2024–2025"),
    (-5, "−5"),
    (-5, "—5"),
    (3, "３"),
    (3, "3.001"),
    (3, "3.0011"),
    (0.0, "0"),
    (0, "0.0004"),
    (98.6, "37 °C (98.6 °F)"),
    (3, "3 (from 2 planes)"),
    (7.5, "7.9"),
    (7.5, "8.3"),
    (7.5, "6.76"),
    (100, "100.0005"),
    (1.5e-3, "1.5E-3"),
    (54, "54.584"),
    (True, "1"),
    (-12, "-12"),
    (4, "\\boxed{4}"),
    (4, "\\boxed{\\frac{8}{2}}"),
    (17, "17 apples and 3 pears"),
    (3, "There are 3"),
]

PLACES = [
    (["golden gate bridge"], ["san francisco"], "Golden Gate Bridge, San Francisco"),
    (["golden gate bridge"], ["san francisco"], "Golden  Gate Bridge"),
    (["new york"], ["usa"], "New\u00a0York, USA"),
    (["valletta"], ["malta"], "Valetta, Malta"),
    (["tokyo disney"], ["japan"], "Tokyo DisneySea, Japan"),
    (["zürich"], ["switzerland"], "Zurich, Switzerland"),
    (["eiffel tower"], ["paris", "france"], "Somewhere in Paris"),
    (["machu picchu"], ["peru"], "Cusco region, Peru"),
    (["big ben"], ["london"], "no idea"),
]

KEY_CASES: list[tuple[Any, bool, str]] = [
    ([["Monterrey"], ["Seattle Sounders"]], False, "Monterrey and Seattle Sounders"),
    ([["Monterrey"], ["Seattle Sounders"]], False, "Monterrey, not the Seattle Sounders"),
    ([["Monterrey"], ["Seattle Sounders"]], False, "Only Monterrey"),
    (["la", "los angeles"], False, "Atlanta"),
    (["red"], False, "reddish"),
    (["Zürich"], False, "Zurich"),
    (["Zürich"], False, "ZÜRICH"),
    ([["New York"], ["Boston"]], True, "NewYork and Bos ton"),
    ([["New York"], ["Boston"]], False, "New  York and Boston"),
    ([["**bold**"]], False, "**bold**"),
    ([[""]], False, "anything"),
    ([[]], False, "anything"),
    (["Seattle"], False, "seattle"),
    ([["ivory"], ["carved"]], False, "Carved ivory"),
    (["U.S.S.R."], False, "Soviet Union"),
]

ORDER_CASES: list[tuple[Any, str]] = [
    (["C", "D", "A", "B"], "C, D, A, B"),
    (["C", "D", "A", "B"], "C,D,A,B"),
    (["C", "D", "A", "B"], "c, d, a, b"),
    (["C", "D", "A", "B"], "C, X, D, Y, A, B"),
    (["C", "D", "A", "B"], "1. C, 2. D, 3. A, 4. B"),
    (["C", "D", "A", "B"], "C, D, A, B**"),
    (["C", "D", "A", "B"], "CDAB"),
    (["C", "D", "A", "B"], "C D A B"),
    (["C", "D", "A", "B"], "C → D → A → B"),
    (["C", "D", "A", "B"], "C > D > A > B"),
    (["C", "D", "A", "B"], "C; D; A; B"),
    (["C", "D", "A", "B"], "C\nD\nA\nB"),
    (["C", "D", "A", "B"], "C，D，A，B"),
    (["C", "D", "A", "B"], "D, C, A, B"),
    (["B", "A", "D"], "Panel B, then A, then D"),
    (["Paris", "London", "Rome"], "Paris, London, Rome"),
    (["Paris", "London", "Rome"], "paris,london,rome"),
    ("1,2,3", "１, ２, ３"),
    ("1, 2, 3", "1, 2, 3"),
    ([], "whatever"),
    ("", "whatever"),
]

NORMALISE = [
    "\u2032",
    "\u2009",
    "\u2010",
    "\u2212",
    "\u2013",
    "\u22c5",
    "\u00a0",
    "\u2014",
    "\u2019",
]


def _wrap(rng: random.Random, text: str) -> str:
    wrapper = rng.choice(WRAPPERS)
    body = wrapper.replace("{a}", text) if "{{" not in wrapper else wrapper.format(a=text)
    prefix = rng.choice(THINKS)
    lead = rng.choice(
        [
            "\n",
            "",
            "Looking at the image, I count the items.\n\n",
            "Step 1: read the axis (0 to 10).\n",
        ]
    )
    return prefix + lead + body


def _choices(rng: random.Random) -> tuple[dict[str, Any], str, str]:
    letters = "ABCDEFGHIJNST"
    if rng.random() < 0.25:
        a, b, c = rng.sample("ABCDEF", 3)
        label = rng.choice([a + b, "".join(sorted(a + b)), f"{a},{b}", f"{a}, {b}"])
        text = rng.choice(MULTI_FORMS).format(a=a, b=b, c=c)
        return {"label": label}, text, "multiple-choice"
    label = rng.choice(letters)
    other = rng.choice([x for x in "ABCDEFGH" if x != label])
    full = chr(ord("Ａ") + ord(label) - ord("A"))
    text = rng.choice(CHOICE_FORMS).format(l=label, low=label.lower(), o=other, full=full)
    return {"label": rng.choice([label, label.lower()])}, text, "multiple-choice"


def _item(
    rng: random.Random, i: int, bucket: Any, extra: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    kind = rng.choice(["choices", "choices", "number", "number", "ordered", "key", "location"])
    if kind == "choices":
        kwargs, text, qtype = _choices(rng)
        evaluator = "choices_matching"
    elif kind == "number":
        value, text = rng.choice(NUMBER_CASES)
        if rng.random() < 0.3 and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = float(value) if isinstance(value, int) else value
        kwargs, evaluator, qtype = {"value_to_match": value}, "number_matching", "numerical"
    elif kind == "ordered":
        order, text = rng.choice(ORDER_CASES)
        kwargs, evaluator, qtype = {"order": order}, "ordered_list_matching", "ordering"
    elif kind == "key":
        keys, remove_space, text = rng.choice(KEY_CASES)
        kwargs = {"key_items": keys}
        if remove_space or rng.random() < 0.2:
            kwargs["remove_space"] = remove_space
        evaluator, qtype = "key_items_matching", "open"
    else:
        fine, coarse, text = rng.choice(PLACES)
        kwargs = {"location_fine_grained": fine, "location_coarse_grained": coarse}
        roll = rng.random()
        if roll < 0.15:
            kwargs = {"location_fine_grained": fine}
        elif roll < 0.3:
            kwargs["fine_grained_score"] = 1
            kwargs["coarse_grained_score"] = 0.25
        elif roll < 0.35:
            kwargs["location_fine_grained"] = fine[0]  # a string: matches single characters
        evaluator, qtype = "location_matching", "open"
    if rng.random() < 0.2:
        text = text.replace("-", rng.choice(NORMALISE)).replace(
            " ", rng.choice([" ", "\u2009", "\u00a0"])
        )
        text += rng.choice(NORMALISE)
    answer = _wrap(rng, text)
    qid = f"q{i:04d}" if rng.random() < 0.9 else i
    annotation = {
        "question_id": qid,
        "question": f"Question {i}?",
        "reference": text[:40],
        "question_type": qtype,
        "evaluator": evaluator,
        "evaluator_kwargs": kwargs,
        **extra,
    }
    if bucket is not _MISSING:
        annotation["task"] = bucket
    prediction = {
        "question_id": qid if rng.random() < 0.8 else str(qid),
        "question": f"<image 1> Question {i}?\nFinalize your output with: Final Answer:",
        "answer": answer,
        "reason": "<think>" + "Some reasoning. " * rng.randint(1, 5) + "</think>",
    }
    if rng.random() < 0.1:
        prediction["task"] = rng.choice(["pred_bucket", ""])
    return annotation, prediction


_MISSING = object()
TASKS: list[Any] = [
    "diagrams",
    "academic",
    "multi",
    "recognition",
    "geo",
    "spatial",
    "puzzles",
    "memes",
]
ODD_TASKS: list[Any] = ["accuracy", "final_score", "", None, 0, 1, "1", _MISSING, False]


def generate(out: Path) -> None:
    rng = random.Random(20251122)
    annotations, predictions = [], []
    for i in range(420):
        bucket = rng.choice(ODD_TASKS) if rng.random() < 0.12 else rng.choice(TASKS)
        a, p = _item(rng, i, bucket, {})
        annotations.append(a)
        predictions.append(p)
    # Duplicate predictions count twice; an unanswered annotation is ignored.
    predictions.append(dict(predictions[3]))
    predictions.append(dict(predictions[10]))
    annotations.append({**annotations[0], "question_id": "unanswered", "task": "geo"})
    (out / "task").mkdir(parents=True, exist_ok=True)
    _write(out / "task" / "annotations.json", annotations)
    _write(out / "task" / "predictions.json", predictions)

    rng = random.Random(7)
    annotations, predictions = [], []
    types = {
        "Artificial": ["Diagram", "Chart", "Map"],
        "Natural": ["Landmark", "Object"],
        "Expert": ["Science"],
    }
    for i in range(300):
        image_type = rng.choice(list(types))
        extra: dict[str, Any] = {
            "image_type": image_type,
            "image_subtype": rng.choice(types[image_type]),
        }
        if rng.random() < 0.05:
            extra["image_subtype"] = ""
        a, p = _item(rng, 1000 + i, _MISSING, extra)
        annotations.append(a)
        predictions.append(p)
    (out / "image").mkdir(parents=True, exist_ok=True)
    _write(out / "image" / "annotations.json", annotations)
    _write(out / "image" / "predictions.json", predictions)

    # Other file shapes the reference reads: JSON Lines annotations and a
    # one-line object of predictions keyed by id (its values lack question_id).
    rng = random.Random(99)
    (out / "keyed").mkdir(parents=True, exist_ok=True)
    lines, keyed = [], {}
    for i in range(80):
        a, p = _item(rng, 2000 + i, rng.choice(TASKS), {})
        a["question_id"] = str(a["question_id"])
        lines.append(json.dumps(a, ensure_ascii=False))
        qid = p.pop("question_id")
        keyed[str(qid)] = p
    (out / "keyed" / "annotations.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "keyed" / "predictions.json").write_text(
        json.dumps(keyed, ensure_ascii=False), encoding="utf-8"
    )


def _write(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2), encoding="utf-8")


if __name__ == "__main__":
    generate(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent))
