"""Small graded runs on disk for the store, journal and crash tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from scorers.io.results import save_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.records import REVIEW_VERSION, content_hash

# (question_id, task, strict rule score, judge score)
ITEMS: list[tuple[str, str, int, int]] = [
    ("q1", "geo", 1, 1),
    ("q2", "geo", 0, 1),
    ("q3", "academic", 0, 0),
    ("q4", "academic", 1, 1),
]


def make_record(
    qid: str, task: str, rule: float, judge: float, answer: str | None = None
) -> dict[str, Any]:
    answer = answer if answer is not None else f"The answer to {qid} is 42."
    record: dict[str, Any] = {
        "question_id": qid,
        "question": f"Question {qid}?",
        "answer": answer,
        "raw_answer": answer,
        "reason": f"Let me think about {qid}. It is probably 42.",
        "reference": "42",
        "evaluator": "number_matching",
        "evaluator_kwargs": {"value_to_match": 42},
        "task": task,
        "correct": rule,
        "judgement_response": None,
    }
    record["review"] = {
        "version": REVIEW_VERSION,
        "mode": "strict",
        "primary": "rule:strict",
        "verdicts": [
            {"source": "rule:strict", "score": rule, "extracted": "42", "explanation": None},
            {
                "source": "judge:rome",
                "score": judge,
                "extracted": None,
                "explanation": "judge says",
            },
        ],
        "flags": [],
        "history": [],
        "content_hash": content_hash(record),
    }
    return record


def make_run(directory: Path, n_extra: int = 0) -> Path:
    """A rome-tui results directory with the four ITEMS (plus ``n_extra`` filler items)."""
    directory.mkdir(parents=True, exist_ok=True)
    records = [make_record(*item) for item in ITEMS]
    for k in range(n_extra):
        records.append(make_record(f"x{k}", "multi", k % 2, k % 2))
    save_results(ResultsPaths.of(directory), records, RunSettings(mode="strict"))
    return directory


def load_json(path: Path) -> Any:
    return orjson.loads(path.read_bytes())


def by_id(directory: Path) -> dict[str, dict[str, Any]]:
    return {r["question_id"]: r for r in load_json(directory / "updated_predictions.json")}


def journal_lines(directory: Path) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    for path in sorted((directory / "journal").glob("*.jsonl")):
        lines.extend(orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip())
    return lines
