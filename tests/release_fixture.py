"""A small table in the schema of the published BAAI/ROME-Evaluated release.

The release is one Parquet split holding every model's responses, each row
carrying its own annotation (``evaluator``, ``evaluator_kwargs`` as JSON
text, ``reference``) and the published grade (``correct``,
``judgement_response``). Its columns, from the dataset card: model, dataset,
question_id, question, answer, reason, usage (JSON text), raw_answer,
img_path, image_type, image_subtype, reference, question_type,
reasoning_type, meta_info (JSON text), evaluator, evaluator_kwargs (JSON
text), data_root, correct (float64), judgement_response, inference_scores
(JSON text), num_inferences (int64).

Here: three models answering the same four questions (so every question_id
repeats across models), nulls in the optional columns, a multi-run
``inference_scores`` and one published grade that strict mode disagrees
with. ``python tests/release_fixture.py OUT.parquet`` writes it; the tests
call :func:`write_release`.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

MODELS = ("model-a", "model-b", "model-c")

# The release's columns, in its order, with their Arrow types.
SCHEMA = pa.schema(
    [
        ("model", pa.string()),
        ("dataset", pa.string()),
        ("question_id", pa.string()),
        ("question", pa.string()),
        ("answer", pa.string()),
        ("reason", pa.string()),
        ("usage", pa.string()),
        ("raw_answer", pa.string()),
        ("img_path", pa.string()),
        ("image_type", pa.string()),
        ("image_subtype", pa.string()),
        ("reference", pa.string()),
        ("question_type", pa.string()),
        ("reasoning_type", pa.string()),
        ("meta_info", pa.string()),
        ("evaluator", pa.string()),
        ("evaluator_kwargs", pa.string()),
        ("data_root", pa.string()),
        ("correct", pa.float64()),
        ("judgement_response", pa.string()),
        ("inference_scores", pa.string()),
        ("num_inferences", pa.int64()),
    ]
)
COLUMNS = tuple(SCHEMA.names)

# question_id -> (dataset, question, reference, evaluator, kwargs)
QUESTIONS: dict[str, tuple[str, str, str, str, dict[str, Any]]] = {
    "q1": (
        "textual",
        "What is 6 times 7?",
        "42",
        "number_matching",
        {"value_to_match": 42},
    ),
    "q2": (
        "textual",
        "Which is a primary colour? A. green B. red C. orange",
        "B",
        "choices_matching",
        {"label": "B"},
    ),
    "q3": (
        "visual",
        "Name the two cities in the picture.",
        "Paris, Rome",
        "key_items_matching",
        {"key_items": [["Paris"], ["Rome"]]},
    ),
    "q4": (
        "visual",
        "Order the steps: bake, mix, serve.",
        "mix, bake, serve",
        "ordered_list_matching",
        {"order": ["mix", "bake", "serve"]},
    ),
}

# (model, question_id) -> the response; every model answers every question.
RESPONSES: dict[tuple[str, str], str] = {
    ("model-a", "q1"): "<think>6*7=42</think>The answer is 42.",
    ("model-a", "q2"): "<think>Red is primary.</think>B",
    ("model-a", "q3"): "<think>Eiffel tower and Colosseum.</think>Paris and Rome.",
    ("model-a", "q4"): "<think>First mix.</think>mix, bake, serve",
    ("model-b", "q1"): "<think>6*7 is 41?</think>41",
    ("model-b", "q2"): "<think>Red.</think>B",
    ("model-b", "q3"): "<think>Only one is clear.</think>Paris",
    ("model-b", "q4"): "<think>Bake first.</think>bake, mix, serve",
    ("model-c", "q1"): "<think>Easy.</think>42",
    ("model-c", "q2"): "<think>Green is not.</think>A",
    ("model-c", "q3"): "<think>Two capitals.</think>Rome, Paris",
    ("model-c", "q4"): "<think>mix then bake</think>mix, bake, serve",
}

# The published grade where it differs from what the rules give: model-b's q1 was
# marked right in the release (41 is not 42), the queue of release-vs-strict disagreements.
PUBLISHED_OVERRIDES: dict[tuple[str, str], float] = {("model-b", "q1"): 1.0}


def _published(model: str, qid: str, response: str, reference: str) -> float:
    if (model, qid) in PUBLISHED_OVERRIDES:
        return PUBLISHED_OVERRIDES[(model, qid)]
    answer = response.split("</think>", 1)[-1]
    words = [w.strip(" .,").lower() for w in answer.replace(",", " ").split()]
    needed = [w.strip().lower() for w in reference.replace(",", " ").split()]
    if qid == "q4":
        return 1.0 if answer.strip() == reference else 0.0
    return 1.0 if all(w in words for w in needed) else 0.0


def release_rows() -> list[dict[str, Any]]:
    """The rows, model by model, every column present (None where the release has null)."""
    rows = []
    for model in MODELS:
        for qid, (dataset, question, reference, evaluator, kwargs) in QUESTIONS.items():
            response = RESPONSES[(model, qid)]
            reason, _, answer = response.partition("</think>")
            correct = _published(model, qid, response, reference)
            multi = model == "model-c" and qid == "q1"
            rows.append(
                {
                    "model": model,
                    "dataset": dataset,
                    "question_id": qid,
                    "question": question,
                    "answer": response,
                    "reason": reason.removeprefix("<think>") if model != "model-a" else None,
                    "usage": json.dumps(
                        {"prompt_tokens": 20, "completion_tokens": 10 + len(response)}
                    ),
                    "raw_answer": response,
                    "img_path": f"images/{qid}.png" if dataset == "visual" else None,
                    "image_type": "photo" if dataset == "visual" else None,
                    "image_subtype": None,
                    "reference": reference,
                    "question_type": "open" if evaluator != "choices_matching" else "choice",
                    "reasoning_type": None if qid == "q2" else "multi-step",
                    "meta_info": json.dumps({"source": "fixture", "level": 1}),
                    "evaluator": evaluator,
                    "evaluator_kwargs": json.dumps(kwargs),
                    "data_root": None,
                    "correct": correct,
                    "judgement_response": None if model == "model-a" else f"graded {correct}",
                    "inference_scores": json.dumps([1.0, 1.0, 0.0] if multi else [correct]),
                    "num_inferences": 3 if multi else 1,
                }
            )
    return rows


def write_release(
    path: str,
    rows: list[dict[str, Any]] | None = None,
    *,
    schema: pa.Schema = SCHEMA,
    row_group_size: int = 5,
) -> None:
    """Write ``rows`` (default :func:`release_rows`) as Parquet in several row groups."""
    rows = release_rows() if rows is None else rows
    table = pa.Table.from_pylist(rows, schema=schema)
    pq.write_table(table, path, row_group_size=row_group_size)


if __name__ == "__main__":
    write_release(sys.argv[1] if len(sys.argv) > 1 else "release.parquet")
