"""scores.json: the reference's structure, typing, rounding and quirks (spec §7)."""

from __future__ import annotations

import json
from typing import Any

from grading_fixtures import EXAMPLE, read_json

from scorers.io.scores import compute_scores, scores_json_bytes


def rec(task: Any, correct: Any, **extra: Any) -> dict[str, Any]:
    return {"task": task, "correct": correct, **extra}


def test_example_scores_byte_identical() -> None:
    records = read_json(EXAMPLE / "updated_predictions.json")
    scores = compute_scores(records)
    assert scores_json_bytes(scores) == (EXAMPLE / "scores.json").read_bytes()


def test_int_float_typing_and_rounding() -> None:
    scores = compute_scores([rec("a", 1), rec("a", 0), rec("a", 0), rec("b", 0.5), rec("b", 1)])
    assert scores["final_score"] == [2.5, 5]
    assert type(scores["a"][0]) is int and scores["a"][:3] == [1, 3, 0.333]
    assert type(scores["b"][0]) is float and scores["b"][:3] == [1.5, 2, 0.75]
    assert scores["accuracy"] == 50.0
    assert scores["a"][3] == {
        "a": [1, 3, 0.333]
    }  # without a subtype the bucket is its own sub-bucket


def test_header_clobbering_falsy_buckets_and_duplicate_keys() -> None:
    records = [
        rec("accuracy", 1),
        rec("", 0),
        rec(None, 1),
        rec(0, 1),
        rec(1, 1),
        rec("1", 0),
        {"correct": 1},
    ]
    scores = compute_scores(records)
    assert list(scores)[:2] == ["final_score", "accuracy"]
    assert scores["accuracy"] == [1, 1, 1.0, {"accuracy": [1, 1, 1.0]}]
    assert scores["all"][:2] == [3, 4]
    text = scores_json_bytes(scores).decode()
    assert text.count('\n  "1": [') == 2  # int 1 and "1" are two buckets, as in the reference
    assert text == json.dumps(scores, indent=2, ensure_ascii=False)


def test_subtypes() -> None:
    records = [
        {"image_type": "Natural", "image_subtype": "Landmark", "correct": 1.0},
        {"image_type": "Natural", "image_subtype": "", "correct": 0},
        {"image_type": "Natural", "image_subtype": "Landmark", "correct": 0.5},
    ]
    scores = compute_scores(records, "image_type", "image_subtype")
    assert scores["Natural"] == [1.5, 3, 0.5, {"Landmark": [1.5, 2, 0.75], "all": [0, 1, 0.0]}]


def test_accuracy_strict_only_when_some_record_has_it() -> None:
    assert "accuracy_strict" not in compute_scores([rec("a", 1)])
    scores = compute_scores(
        [rec("a", 0.5, correct_strict=0), rec("a", 1), rec("b", 1, correct_strict=1)]
    )
    assert list(scores)[:3] == ["final_score", "accuracy", "accuracy_strict"]
    assert scores["accuracy"] == 83.333
    assert scores["accuracy_strict"] == 66.667
    assert scores["a"] == [1.5, 2, 0.75, {"a": [1.5, 2, 0.75]}, 0.5]
    assert scores["b"][4] == 1.0


def test_rejected_and_usage_only_with_harness_stats() -> None:
    records = [
        rec("a", 1, usage={"total_tokens": 10, "prompt_tokens": 4, "completion_tokens": 6}),
        rec("a", 0),
        {"task": "a", "review": {"rejected": "Error code 500"}},
    ]
    plain = compute_scores(records)
    assert (
        plain["final_score"] == [1, 2]
        and "reject_info" not in plain
        and "average_tokens" not in plain
    )
    scores = compute_scores(records, harness_stats=True)
    assert scores["reject_info"] == {"reject_rate": 33.33, "reject_number": 1, "total_question": 3}
    assert scores["average_tokens"] == 5.0 and scores["average_completion_tokens"] == 3.0


def test_unhashable_bucket_and_no_records() -> None:
    scores = compute_scores([rec(["x"], 1)])
    assert '["x"]' in scores
    assert compute_scores([]) == {"final_score": [0, 0], "accuracy": 0.0}
