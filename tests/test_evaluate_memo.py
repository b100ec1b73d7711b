"""Remembered outcomes are the outcomes: every labelled, parity and benchmark item
graded with the memo warm (and answers paired with other questions) equals the
same item graded from cold (scorers/evaluate/memo.py)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import corpus  # noqa: E402

from scorers.errors import EvaluatorError  # noqa: E402
from scorers.evaluate import memo, rome, strict  # noqa: E402
from scorers.io.loading import load_annotations, load_predictions  # noqa: E402
from scorers.io.pairing import pair  # noqa: E402

DATA = Path(__file__).parent / "data"

Item = tuple[str, Any, Any, Any]  # evaluator, kwargs, answer, question


def _labelled() -> Iterator[Item]:
    for name in (
        "hard_cases.json",
        "blind_hard_cases.json",
        "blind_hard_cases2.json",
        "blind_hard_cases3.json",
        "blind_hard_cases4.json",
    ):
        for case in json.loads((DATA / "strict" / name).read_text(encoding="utf-8")):
            yield case["evaluator"], case["kwargs"], case["answer"], case.get("question")
    for name in ("labelled.json", "blind.json", "real_traces.json", "real_traces2.json"):
        for case in json.loads((DATA / "flags" / name).read_text(encoding="utf-8"))["items"]:
            yield (
                case["evaluator"],
                case["evaluator_kwargs"],
                case["answer"],
                case.get("question"),
            )


def _paired(annotations: Path, predictions: Path) -> Iterator[Item]:
    anns, _ = load_annotations(str(annotations))
    preds, _ = load_predictions(str(predictions))
    for pred, gt in pair(anns, preds, "strict").pairs:
        yield gt["evaluator"], gt["evaluator_kwargs"], pred["answer"], gt.get("question")


def _items(tmp: Path) -> list[Item]:
    items = list(_labelled())
    parity = DATA / "rome_parity"
    items += _paired(
        DATA / "grading" / "example" / "annotation.json",
        DATA / "grading" / "example" / "predictions.json",
    )
    for name, ann in (
        ("task", "annotations.json"),
        ("image", "annotations.json"),
        ("keyed", "annotations.jsonl"),
    ):
        items += _paired(parity / name / ann, parity / name / "predictions.json")
    a_path, p_path = corpus.generate(tmp, 1000, "realistic")
    items += _paired(a_path, p_path)
    items = [i for i in items if i[0] in strict.EVALUATORS and isinstance(i[2], str)]
    # The same answers to other questions: an outcome keyed by its question must
    # not answer for another.
    questions = [i[3] for i in items]
    items += [
        (e, k, a, q) for (e, k, a, _), q in zip(items, questions[1:] + questions[:1], strict=True)
    ]
    return items


def _grade(item: Item) -> tuple[Any, ...]:
    evaluator, kwargs, answer, question = item
    out: list[Any] = []
    try:
        out.append(strict.evaluate(evaluator, kwargs, answer, question))
    except EvaluatorError as exc:
        out.append(str(exc))
    try:
        out.append(rome.evaluate_full(evaluator, kwargs, answer))
    except EvaluatorError as exc:
        out.append(str(exc))
    return tuple(out)


@pytest.fixture(scope="module")
def items(tmp_path_factory: pytest.TempPathFactory) -> list[Item]:
    return _items(tmp_path_factory.mktemp("corpus"))


def test_warm_memo_grades_as_cold(items: list[Item]) -> None:
    cold = []
    for item in items:
        memo.clear_all()
        cold.append(_grade(item))
    memo.clear_all()
    warm = [_grade(item) for item in items]
    again = [_grade(item) for item in reversed(items)][::-1]
    assert len(items) > 5000
    for item, a, b, c in zip(items, cold, warm, again, strict=True):
        assert a == b == c, item


def test_kwargs_keys_keep_json_types_apart() -> None:
    assert memo.kwargs_key({"value_to_match": 1}) != memo.kwargs_key({"value_to_match": 1.0})
    assert memo.kwargs_key({"value_to_match": 1}) != memo.kwargs_key({"value_to_match": True})
    # NaN and infinities are written as null: never remembered.
    assert memo.kwargs_key({"value_to_match": float("nan")}) is None
    assert memo.kwargs_key({"value_to_match": None}) is None
    assert memo.kwargs_key({1: "a"}) is None
    assert memo.kwargs_key([("label", "B")]) is None


def test_memo_is_bounded() -> None:
    m = memo.Memo(capacity=3)
    for i in range(5):
        m.put(i, str(i))
    assert len(m) == 3 and m.get(0) is None and m.get(4) == "4"
