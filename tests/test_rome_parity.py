"""rome mode against the reference grader's own outputs (see tests/data/rome_parity/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from grading_fixtures import EXAMPLE, PARITY, grade, read_json, without_review

from scorers.evaluate import rome

CORPORA = [
    ("example", EXAMPLE / "annotation.json", EXAMPLE / "predictions.json", []),
    ("task", PARITY / "task" / "annotations.json", PARITY / "task" / "predictions.json", []),
    (
        "image",
        PARITY / "image" / "annotations.json",
        PARITY / "image" / "predictions.json",
        ["--tracker_type", "image_type", "--tracker_subtype", "image_subtype"],
    ),
    ("keyed", PARITY / "keyed" / "annotations.jsonl", PARITY / "keyed" / "predictions.json", []),
]


@pytest.mark.parametrize(
    ("name", "annotations", "predictions", "extra"), CORPORA, ids=[c[0] for c in CORPORA]
)
def test_rome_mode_reproduces_reference(
    name: str,
    annotations: Path,
    predictions: Path,
    extra: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, _ = grade(
        capsys,
        "--mode",
        "rome",
        "--annotations",
        str(annotations),
        "--predictions",
        str(predictions),
        "--out-dir",
        str(tmp_path),
        *extra,
    )
    assert code == 0
    expected_dir = predictions.parent
    assert (tmp_path / "scores.json").read_bytes() == (expected_dir / "scores.json").read_bytes()
    ours = read_json(tmp_path / "updated_predictions.json")
    theirs = read_json(expected_dir / "updated_predictions.json")
    assert len(ours) == len(theirs)
    plain = without_review(ours)
    for mine, ref in zip(plain, theirs, strict=True):
        assert mine == ref, ref["question_id"]
        assert list(mine) == list(ref), ref["question_id"]  # key order
        assert type(mine["correct"]) is type(ref["correct"]), ref["question_id"]
    for record in ours:
        sources = [v["source"] for v in record["review"]["verdicts"]]
        assert sources[:2] == ["rule:rome", "rule:strict"]
        assert record["review"]["verdicts"][0]["score"] == record["correct"]


def test_interval_evaluators_match_flagevalmm() -> None:
    cases = read_json(PARITY / "intervals.json")
    assert len(cases) > 200
    for case in cases:
        outcome, marks = rome.evaluate_full(
            case["evaluator"], case["evaluator_kwargs"], case["answer"]
        )
        got = {
            "answer": outcome.extracted,
            "raw_answer": case["answer"],
            **marks,
            "correct": outcome.score,
        }
        assert got == case["expected"], case
