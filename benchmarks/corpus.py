"""The benchmark corpora every script in benchmarks/ grades: ``realistic`` and ``synthetic``.

    from corpus import generate            # benchmarks/ on sys.path
    a_path, p_path = generate(directory, 100_000, "realistic")

``realistic`` is shaped like a real ROME run (about 1.7 KB an item):

- an even mix of the five ROME evaluators (choices, numbers, locations,
  ordered lists, key items), each item an annotation and final answer taken
  from the parity corpus in tests/data/rome_parity (the reference grader's own
  traps: options, thousands separators and units, fine and coarse locations,
  orders), replicated under new question ids;
- annotations of about 430 bytes: a ~60-character question and the usual
  ROME fields (reference, question_type, evaluator and kwargs, image fields,
  task);
- predictions of about 1.3 KB: the question with ROME's post-prompt for its
  evaluator, a ~530-character reasoning as ``<think>…</think>`` in ``reason``
  (absent on a quarter of them), a ~470-character answer ending in the parity
  item's final answer, and ``usage``. The reasoning and the answer's working
  are cut from the demo's traces (rome_tui/demo), whose styles imitate what
  reasoning models publish; the reasoning closes on the answer's final phrase.

``synthetic`` is the older corpus: every rule evaluator, a handful of fixed
answers, and 2-8 KB of reasoning repeated from twelve sentences, half in
``reason`` and half as a ``<think>`` block inside ``answer``. Its shape follows
the code that generates it, not real runs; it is kept for comparison.

Both are deterministic for a given ``n`` and seed, and written as indented
JSON lists (``annotations.json``, ``predictions.json``).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
PARITY = ROOT / "tests" / "data" / "rome_parity"
CORPORA = ("realistic", "synthetic")

# The five evaluators of the ROME reference grader, in the order items cycle through them.
ROME_EVALUATORS = (
    "choices_matching",
    "number_matching",
    "location_matching",
    "ordered_list_matching",
    "key_items_matching",
)

# ROME's post-prompts, as its annotations append them to the question shown to the model.
POST_PROMPTS = {
    "choices_matching": "\n**Finalize your output with:** `Final Answer:`, followed by a letter or a comma-separated list of letters which means the option of correct answer.",
    "number_matching": "\n**Finalize your output with:** `Final Answer:`, followed by a number.\n**Format example:** `Final Answer: 123`",
    "location_matching": "\n**Finalize your output with:** `Final Answer:`, followed by a string representing the correct answer.",
    "ordered_list_matching": "\n**Finalize your output with:** `Final Answer:`, followed by a comma-separated list.\n**Format example:** `Final Answer: A, B, C, D, E`",
    "key_items_matching": "\n**Finalize your output with:** `Final Answer:`, followed by a string representing the correct answer.",
}

REASONING_CHARS = 530
ANSWER_CHARS = 470
QUESTION_CHARS = 60


def add_argument(parser: argparse.ArgumentParser) -> None:
    """``--corpus realistic|synthetic`` (realistic by default) for a benchmark script."""
    parser.add_argument(
        "--corpus",
        choices=CORPORA,
        default="realistic",
        help="realistic: shaped like a ROME run (default); synthetic: the older generated corpus",
    )


def generate(
    directory: Path, n: int, corpus: str = "realistic", seed: int = 1
) -> tuple[Path, Path]:
    """Write ``n`` items of ``corpus`` into ``directory``; the two paths written."""
    if corpus == "realistic":
        annotations, predictions = realistic(n, seed)
    elif corpus == "synthetic":
        annotations, predictions = synthetic(n, seed)
    else:
        raise ValueError(f"unknown corpus {corpus!r}: one of {', '.join(CORPORA)}")
    a_path, p_path = directory / "annotations.json", directory / "predictions.json"
    a_path.write_bytes(orjson.dumps(annotations, option=orjson.OPT_INDENT_2))
    p_path.write_bytes(orjson.dumps(predictions, option=orjson.OPT_INDENT_2))
    return a_path, p_path


# --------------------------------------------------------------------------- realistic


def _load_list(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    data = json.loads(path.read_text())
    if isinstance(data, dict):  # keyed by question_id
        return [{"question_id": k, **v} for k, v in data.items()]
    return list(data)


_THINK = re.compile(r"<think>.*?</think>", re.S)


def parity_items() -> dict[str, list[tuple[dict[str, Any], str]]]:
    """(annotation, answer text after any ``<think>`` block) of the parity items, by evaluator.

    Items whose kwargs strict mode refuses (the parity corpus has some, for rome
    mode's quirks) are left out, so that both modes grade the whole corpus."""
    sys.path.insert(0, str(ROOT))
    from scorers.errors import EvaluatorError
    from scorers.evaluate.evaluators import evaluate

    out: dict[str, list[tuple[dict[str, Any], str]]] = {ev: [] for ev in ROME_EVALUATORS}
    for folder in sorted(p for p in PARITY.iterdir() if p.is_dir()):
        a_file = next(f for f in folder.iterdir() if f.name.startswith("annotations"))
        answers: dict[str, str] = {}
        for pred in _load_list(folder / "predictions.json"):
            answer = pred.get("answer")
            if isinstance(answer, str):
                answers.setdefault(str(pred.get("question_id")), answer)
        for ann in _load_list(a_file):
            answer = answers.get(str(ann.get("question_id")))
            if answer is None or ann.get("evaluator") not in out:
                continue
            tail = _THINK.sub("", answer).strip()
            try:
                evaluate(ann["evaluator"], ann.get("evaluator_kwargs") or {}, tail, "strict")
            except EvaluatorError:
                continue
            if tail:
                out[ann["evaluator"]].append((ann, tail))
    return out


def _demo_texts() -> tuple[list[list[str]], dict[str, list[str]]]:
    """The demo's reasoning traces as paragraph lists (their closing paragraph dropped),
    and its questions' first sentences by evaluator."""
    sys.path.insert(0, str(ROOT))
    from rome_tui.demo.build import SEED, make_items
    from rome_tui.demo.questions import all_questions

    traces = []
    for item in make_items(SEED):
        response = item.response
        text = response.reason or response.answer
        match = re.search(r"<think>(.*?)</think>", text, re.S)
        body = (match.group(1) if match else text).strip()
        paragraphs = [p.strip() for p in body.split("\n\n") if p.strip()]
        if len(paragraphs) > 2:
            traces.append(paragraphs[:-1])
    questions: dict[str, list[str]] = {}
    for q in all_questions():
        first = q.question.replace("<image 1> ", "").split("\n")[0]
        first = re.split(r"(?<=[?.])\s", first)[0]
        questions.setdefault(q.evaluator, []).append(first)
    return traces, questions


def _cut(text: str, size: int) -> str:
    """``text`` cut to about ``size`` characters at a sentence end."""
    if len(text) <= size:
        return text
    cut = text.rfind(". ", 0, size)
    return text[: cut + 1] if cut > size // 2 else text[:size].rsplit(" ", 1)[0] + "."


def _window(traces: list[list[str]], rng: random.Random, size: int) -> str:
    """About ``size`` characters of consecutive paragraphs of one demo trace."""
    paragraphs = rng.choice(traces)
    start = rng.randrange(len(paragraphs))
    out: list[str] = []
    total = 0
    for paragraph in paragraphs[start:] + paragraphs[:start]:
        if total >= size:
            break
        out.append(paragraph)
        total += len(paragraph) + 2
    return _cut("\n\n".join(out), size)


def _final_phrase(tail: str) -> str:
    """The phrase an answer ends on, without its marker, box or heading."""
    last = tail.strip().splitlines()[-1]
    last = re.sub(r"^.*?final answer\W*", "", last, flags=re.I)
    last = re.sub(r"\\boxed\{(.*)\}", r"\1", last).strip(" $*#.`")
    return last or tail.strip()[-40:]


def _question(rng: random.Random, pool: list[str], i: int) -> str:
    base = rng.choice(pool)
    if len(base) > QUESTION_CHARS + 15:
        base = base[:QUESTION_CHARS].rsplit(" ", 1)[0] + "?"
    return f"{base} (#{i})"


def _realistic_items(n: int, seed: int) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    rng = random.Random(seed)
    parity = parity_items()
    traces, questions = _demo_texts()
    buckets = ["diagrams", "academic", "multi", "recognition", "geo", "spatial", "puzzles", "memes"]
    for i in range(n):
        evaluator = ROME_EVALUATORS[i % len(ROME_EVALUATORS)]
        source, tail = rng.choice(parity[evaluator])
        qid = f"rome_{i:06d}"
        question = _question(rng, questions[evaluator], i)
        annotation = {
            "question_id": qid,
            "question": question,
            "img_path": f"images/{qid}.png",
            "image_type": buckets[i % 8],
            "image_subtype": "photo" if i % 3 else "chart",
            "reference": source.get("reference", ""),
            "question_type": source.get("question_type", "open"),
            "evaluator": evaluator,
            "evaluator_kwargs": source["evaluator_kwargs"],
            "task": buckets[(i * 5) % 8],
        }
        final = _final_phrase(tail)
        reasoning = _window(traces, rng, int(rng.gauss(REASONING_CHARS + 20, 60)))
        reasoning += f"\n\nSo the answer is {final}."
        working = _window(traces, rng, max(60, int(rng.gauss(ANSWER_CHARS + 60, 50)) - len(tail)))
        answer = f"{working}\n\n{tail}"
        completion = (len(reasoning) + len(answer)) // 4
        prompt = 600 + len(question) // 4
        prediction: dict[str, Any] = {
            "question_id": qid,
            "question": f"<image 1> {question}{POST_PROMPTS[evaluator]}",
            "answer": answer,
        }
        if i % 4 != 3:
            prediction["reason"] = f"<think>{reasoning}</think>"
        prediction["usage"] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        yield annotation, prediction


def realistic(n: int, seed: int = 1) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    annotations: list[dict[str, Any]] = []
    predictions: list[dict[str, Any]] = []
    for annotation, prediction in _realistic_items(n, seed):
        annotations.append(annotation)
        predictions.append(prediction)
    return annotations, predictions


# --------------------------------------------------------------------------- synthetic

SENTENCES = [
    "Let me look at the image again and count the objects in the left panel.",
    "The axis runs from 0 to 100, so each tick is worth 10 units.",
    "Hmm, wait. I should double-check the second bar, it might be 35 rather than 30.",
    "Option B mentions the river, which matches the blue line in the map.",
    "If the train leaves at 10:45 and arrives at 12:15, the trip takes 1:30.",
    "I recall that the Golden Gate Bridge is in San Francisco, California.",
    "Ordering the panels by time: first C, then A, then D, and finally B.",
    "Perhaps the answer is 42, but I am not entirely sure about the scale.",
    "I cannot search the web, so I will rely on what is visible in the picture.",
    "Let me compute: 12 × 3 = 36, plus 6 gives 42.",
    "The legend says red is for 2023 and blue for 2024.",
    "So the final ordering seems consistent with the timestamps shown.",
]


def _synthetic_reasoning(rng: random.Random) -> str:
    size = rng.randint(2048, 8192)
    parts: list[str] = []
    total = 0
    while total < size:
        sentence = rng.choice(SENTENCES)
        parts.append(sentence)
        total += len(sentence) + 1
    text = " ".join(parts)
    return "\n\n".join(text[i : i + 400] for i in range(0, len(text), 400))


def _synthetic_item(rng: random.Random) -> tuple[dict[str, Any], str]:
    kwargs: dict[str, Any]
    kind = rng.random()
    if kind < 0.35:
        label = rng.choice("ABCDE")
        guess = label if rng.random() < 0.6 else rng.choice("ABCDE")
        return {
            "evaluator": "choices_matching",
            "evaluator_kwargs": {"label": label},
        }, f"**Final Answer:** {guess}"
    if kind < 0.6:
        value = rng.choice([42, 3.5, 1200, 0.25, 17])
        shown = (
            value if rng.random() < 0.6 else rng.choice(["1,200", "3.5 m", "17 apples", "2.5e2"])
        )
        return {
            "evaluator": "number_matching",
            "evaluator_kwargs": {"value_to_match": value},
        }, f"Final Answer: {shown}"
    if kind < 0.72:
        order = rng.sample(["A", "B", "C", "D"], 4)
        shown = ", ".join(order if rng.random() < 0.6 else rng.sample(order, 4))
        return {
            "evaluator": "ordered_list_matching",
            "evaluator_kwargs": {"order": order},
        }, f"Final Answer: {shown}"
    if kind < 0.84:
        kwargs = {"key_items": [["Monterrey"], ["Seattle Sounders", "Sounders"]]}
        shown = rng.choice(
            [
                "Monterrey and the Seattle Sounders",
                "Only Monterrey",
                "Seattle Sounders FC and CF Monterrey",
            ]
        )
        return {"evaluator": "key_items_matching", "evaluator_kwargs": kwargs}, shown
    if kind < 0.95:
        kwargs = {
            "location_fine_grained": ["golden gate bridge"],
            "location_coarse_grained": ["san francisco"],
        }
        shown = rng.choice(
            ["Golden Gate Bridge, San Francisco", "Somewhere in San Francisco", "Brooklyn Bridge"]
        )
        return {
            "evaluator": "location_matching",
            "evaluator_kwargs": kwargs,
        }, f"Final Answer: {shown}"
    if kind < 0.98:
        kwargs = {"interval": ["1:20", "1:40"], "units": []}
        return {
            "evaluator": "interval_matching",
            "evaluator_kwargs": kwargs,
        }, f"Final Answer: {rng.choice(['1:30', '2:10'])}"
    kwargs = {"intervals": [[10, 15], [1000, 1500]], "units": [["km"], ["m"]]}
    return {
        "evaluator": "multi_interval_matching",
        "evaluator_kwargs": kwargs,
    }, f"Final Answer: {rng.choice(['12 km', '1200 m', '3 km'])}"


def synthetic(n: int, seed: int = 1) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rng = random.Random(seed)
    pool = [_synthetic_reasoning(rng) for _ in range(256)]
    annotations = []
    predictions = []
    buckets = ["diagrams", "academic", "multi", "recognition", "geo", "spatial", "puzzles", "memes"]
    for i in range(n):
        qid = f"q{i}"
        spec, final = _synthetic_item(rng)
        annotations.append(
            {
                "question_id": qid,
                "question": f"Question {i}?",
                "reference": "",
                "task": buckets[i % 8],
                **spec,
            }
        )
        reasoning = f"Item {i}. " + pool[rng.randrange(len(pool))]
        usage = {
            "prompt_tokens": 900,
            "completion_tokens": len(reasoning) // 4,
            "total_tokens": 900 + len(reasoning) // 4,
        }
        if i % 2:
            predictions.append(
                {
                    "question_id": qid,
                    "question": f"Question {i}?",
                    "answer": "\n" + final,
                    "reason": f"<think>{reasoning}</think>",
                    "usage": usage,
                }
            )
        else:
            predictions.append(
                {
                    "question_id": qid,
                    "question": f"Question {i}?",
                    "answer": f"<think>{reasoning}</think>\n\n{final}",
                    "usage": usage,
                }
            )
    return annotations, predictions


def main() -> None:
    """Print the realistic corpus's shape (sizes per record) and one item."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000)
    add_argument(parser)
    args = parser.parse_args()
    annotations, predictions = (realistic if args.corpus == "realistic" else synthetic)(args.n)
    a_bytes = len(orjson.dumps(annotations, option=orjson.OPT_INDENT_2))
    p_bytes = len(orjson.dumps(predictions, option=orjson.OPT_INDENT_2))

    def mean(values: list[int]) -> float:
        return sum(values) / max(1, len(values))

    reasons = [len(p["reason"]) for p in predictions if "reason" in p]
    print(
        f"{args.corpus}: {args.n} items; annotation {a_bytes / args.n:.0f} B, prediction "
        f"{p_bytes / args.n:.0f} B (indented JSON); question "
        f"{mean([len(a['question']) for a in annotations]):.0f} chars, reason "
        f"{mean(reasons):.0f} chars on {len(reasons) / args.n:.0%}, answer "
        f"{mean([len(p['answer']) for p in predictions]):.0f} chars"
    )
    print(json.dumps(annotations[1], indent=2, ensure_ascii=False))
    print(json.dumps(predictions[1], indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
