"""Graded runs on disk for the review app's tests, and helpers to drive the app."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from scorers.adjudicate.store import ResultsStore
from scorers.io.results import save_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings

MODELS = ("gemini-2.5-pro", "o3", "claude-4")
BUCKETS = ("academic", "diagrams", "geo", "recognition")
EVALUATORS = ("key_items_matching", "choices_matching", "number_matching", "ordered_list_matching")

# Model text that would break a UI that builds markup from it.
HOSTILE_ANSWER = "[bold red]PWNED[/] [link=https://evil.example]click[/link] \x1b[31mred\x1b[0m \x1b]0;title\x07 bell\x07 cr\rend [/]"


def reasoning_text(rng: random.Random, paragraphs: int, answer: str) -> str:
    words = [
        "the",
        "figure",
        "shows",
        "a",
        "bar",
        "chart",
        "so",
        "we",
        "compare",
        "each",
        "value",
        "and",
        "check",
        "the",
        "legend",
        "carefully",
    ]
    parts = []
    for _ in range(paragraphs):
        parts.append(
            " ".join(rng.choice(words) for _ in range(rng.randint(20, 60))).capitalize() + "."
        )
    parts.append(f"Maybe the answer is {answer}, but I am not sure.")
    return "\n\n".join(parts)


def make_record(i: int, rng: random.Random, *, paragraphs: int = 3) -> dict[str, Any]:
    qid = f"q{i:04d}"
    right = rng.random() < 0.6
    rome = 1 if right else 0
    strict = rome if rng.random() < 0.85 else 1 - rome
    judge = strict if rng.random() < 0.8 else 1 - strict
    answer = f"Answer: {'B' if right else 'C'}"
    reasoning = reasoning_text(rng, paragraphs, "B")
    flags: list[dict[str, Any]] = []
    if rome != strict:
        flags.append(
            {
                "kind": "rome_strict_disagree",
                "source": "verdicts",
                "evidence": [],
                "detail": f"rome {rome} vs strict {strict}",
            }
        )
    if judge != strict:
        flags.append(
            {
                "kind": "rule_judge_disagree",
                "source": "judge:rome",
                "evidence": [],
                "detail": "rule vs judge",
            }
        )
    if i % 7 == 0:
        start = reasoning.index("Maybe")
        end = start + len("Maybe the answer is B")
        flags.append(
            {
                "kind": "hedged_reasoning_certain_answer",
                "source": "heuristic",
                "evidence": [
                    {"field": "reasoning", "start": start, "end": end, "text": reasoning[start:end]}
                ],
                "detail": "hedge at the end",
            }
        )
    return {
        "question_id": qid,
        "question": f"Question {i}: which option fits the chart?",
        "answer": answer,
        "raw_answer": answer,
        "reason": reasoning,
        "reference": "B",
        "evaluator": EVALUATORS[i % len(EVALUATORS)],
        "evaluator_kwargs": {"choices": ["B"]},
        "task": BUCKETS[i % len(BUCKETS)],
        "model": MODELS[i % len(MODELS)],
        "correct": strict,
        "judgement_response": None,
        "review": {
            "version": 1,
            "mode": "strict",
            "primary": "rule:strict",
            "verdicts": [
                {
                    "source": "rule:rome",
                    "score": rome,
                    "extracted": "B" if right else "C",
                    "explanation": None,
                },
                {
                    "source": "rule:strict",
                    "score": strict,
                    "extracted": "B" if right else "C",
                    "explanation": None,
                },
                {
                    "source": "judge:rome",
                    "score": judge,
                    "extracted": None,
                    "explanation": f"The judge thinks the answer is {'right' if judge else 'wrong'}.",
                },
            ],
            "flags": flags,
            "history": [],
        },
    }


def make_records(n: int = 40, seed: int = 7) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [make_record(i, rng) for i in range(n)]


def write_run(directory: Path, records: list[dict[str, Any]]) -> ResultsPaths:
    directory.mkdir(parents=True, exist_ok=True)
    paths = ResultsPaths.of(directory)
    save_results(paths, records, RunSettings())
    return paths


def open_run(directory: Path, annotator: str = "tester") -> ResultsStore:
    return ResultsStore.open(directory, annotator=annotator)


def hostile_record(i: int = 0) -> dict[str, Any]:
    record = make_record(i, random.Random(1))
    record["question_id"] = "[bold]q-markup[/bold]\x1b[2J"
    record["answer"] = record["raw_answer"] = HOSTILE_ANSWER
    record["reason"] = "[red]not red[/red] " + "x" * 100_000 + "\x1b[H\x1b[2J after the long line"
    record["model"] = "[link=x]m[/link]"
    record["review"]["verdicts"][2]["explanation"] = "[/] \x1b[5mblink\x1b[0m [bold]judge[/bold]"
    return record
