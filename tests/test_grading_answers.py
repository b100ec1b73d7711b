"""Answers and usage that are not what the format says: how they are read, and that it is said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from grading_fixtures import detectors_ready

from scorers.errors import InputError
from scorers.grade.grader import is_multi_run
from scorers.grade.run import GradeResult, grade_files
from scorers.io.run_settings import RunSettings

CHOICE = {"evaluator": "choices_matching", "evaluator_kwargs": {"label": "B"}, "task": "t"}


def grade_answers(
    tmp_path: Path, answers: dict[str, Any], mode: str = "strict", **extra: dict[str, Any]
) -> GradeResult:
    detectors_ready()
    annotations = [{"question_id": qid, **CHOICE} for qid in answers]
    predictions = [
        {"question_id": qid, "answer": answer, **extra.get(qid, {})}
        for qid, answer in answers.items()
    ]
    a, p = tmp_path / "a.json", tmp_path / "p.json"
    a.write_text(json.dumps(annotations))
    p.write_text(json.dumps(predictions))
    strict = mode == "strict"
    settings = RunSettings(mode=mode, reject_filter=strict, harness_stats=strict)
    return grade_files(str(a), str(p), settings, write=False)


def by_id(result: GradeResult) -> dict[str, dict[str, Any]]:
    return {r["question_id"]: r for r in result.records}


def scores(record: dict[str, Any]) -> dict[str, Any]:
    return {v["source"]: v["score"] for v in record["review"]["verdicts"]}


def test_multi_run_means_every_key_is_inference_n() -> None:
    assert is_multi_run({"inference_0": "a", "inference_12": "b"})
    for value in ({}, {"text": "B"}, {"inference_0": "a", "note": "b"}, {"inference_x": "a"}):
        assert not is_multi_run(value), value
    assert not is_multi_run(["a"]) and not is_multi_run("inference_0")


def test_an_object_that_is_not_runs_is_graded_as_its_text_and_said(tmp_path: Path) -> None:
    result = grade_answers(tmp_path, {"q1": {"text": "B"}, "q2": "Final Answer: B"})
    q1 = by_id(result)["q1"]
    assert q1["raw_answer"] == {"text": "B"}  # the original kept
    assert "num_inferences" not in q1 and "inference_scores" not in q1
    [warning] = [w for w in result.warnings if "not text" in w]
    assert (
        "1 answer(s) were not text (an object whose keys are not all inference_N; first: q1)"
        in (warning)
    )
    # rome mode stops on it, as it does on every answer that is not text.
    with pytest.raises(InputError) as err:
        grade_answers(tmp_path, {"q1": {"text": "B"}}, mode="rome")
    assert err.value.record == "q1" and "answer is an object whose keys" in str(err.value)


def test_non_text_runs_are_counted_with_their_run(tmp_path: Path) -> None:
    runs = {"inference_0": "Final Answer: B", "inference_1": 5, "inference_2": None}
    result = grade_answers(tmp_path, {"q1": runs, "q2": {"inference_0": "B", "inference_1": "B"}})
    q1 = by_id(result)["q1"]
    assert q1["inference_scores"] == [1, 0, 0] and q1["num_inferences"] == 3
    [warning] = [w for w in result.warnings if "run(s)" in w]
    assert "2 run(s) of multi-run answers were not text (a number, null;" in warning
    assert "first: q1/inference_1, q1/inference_2)" in warning


@pytest.mark.parametrize("mode", ["strict", "rome"])
def test_a_list_answer_is_read_as_runs_in_both_modes(tmp_path: Path, mode: str) -> None:
    result = grade_answers(tmp_path, {"q1": ["B", 3, None], "q2": "B"}, mode=mode)
    q1 = by_id(result)["q1"]
    assert q1["raw_answer"] == ["B", 3, None]
    assert q1["inference_scores"] == [1, 0, 0]
    # Both rule modes grade the same runs: no disagreement made up by the reading.
    assert scores(q1)["rule:rome"] == scores(q1)["rule:strict"] == pytest.approx(1 / 3)
    assert "rome_strict_disagree" not in {f["kind"] for f in q1["review"]["flags"]}
    assert [w for w in result.warnings if "1 answer(s) were a list (first: q1)" in w]
    assert [w for w in result.warnings if "2 run(s) of multi-run answers were not text" in w]


def test_regrading_a_multi_run_output_gives_the_same_records(tmp_path: Path) -> None:
    runs = {"inference_0": "Final Answer: B", "inference_1": "Final Answer: C"}
    first = grade_answers(tmp_path, {"q1": runs, "q2": "B"})
    graded = tmp_path / "graded.json"
    graded.write_text(json.dumps(first.records))
    a = tmp_path / "a.json"
    again = grade_files(str(a), str(graded), first.settings, write=False)
    assert again.records == json.loads(graded.read_text())
    assert not [w for w in again.warnings if "list" in w or "not text" in w]


def test_null_and_numbers_are_graded_as_text_and_counted(tmp_path: Path) -> None:
    result = grade_answers(tmp_path, {"q1": None, "q2": 7, "q3": True, "q4": "B"})
    [warning] = [w for w in result.warnings if "not text" in w]
    assert "3 answer(s) were not text (null, a number, true/false; first: q1, q2, q3)" in warning
    assert [by_id(result)[q]["correct"] for q in ("q1", "q2", "q3", "q4")] == [0, 0, 0, 1]


def test_unreadable_usage_is_counted_as_zero_and_said(tmp_path: Path) -> None:
    usages: dict[str, Any] = {
        "q1": {"usage": {"completion_tokens": "many", "prompt_tokens": None}},
        "q2": {"usage": [1, 2]},
        "q3": {"usage": {"completion_tokens": 30, "total_tokens": 40}},
        "q4": {"usage": None},
        "q5": {"usage": "lots"},
        "q6": {"usage": {"completion_tokens": True}},
    }
    answers = dict.fromkeys(usages, "Final Answer: B")
    result = grade_answers(tmp_path, answers, **usages)
    [warning] = [w for w in result.warnings if "usage" in w]
    assert "4 prediction(s) with unreadable usage (first: q1, q2, q5, q6)" in warning
    assert result.scores["average_completion_tokens"] == 5.0  # 30 over the 6 graded
    # rome mode writes no token averages, so it has nothing to warn about.
    rome = grade_answers(tmp_path, answers, mode="rome", **usages)
    assert not [w for w in rome.warnings if "usage" in w]
