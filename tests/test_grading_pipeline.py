"""`rome-tui grade` end to end: both verdicts, modes, harness behaviours, outputs, errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from grading_fixtures import EXAMPLE, grade, read_json

from rome_tui.commands.grade import parse_primary
from scorers.errors import UsageError


def files(
    tmp_path: Path, annotations: list[dict[str, Any]], predictions: list[dict[str, Any]]
) -> tuple[str, str]:
    a, p = tmp_path / "ann.json", tmp_path / "pred.json"
    a.write_text(json.dumps(annotations), encoding="utf-8")
    p.write_text(json.dumps(predictions), encoding="utf-8")
    return str(a), str(p)


def ann(
    qid: str, evaluator: str, kwargs: dict[str, Any], task: str = "t", **extra: Any
) -> dict[str, Any]:
    return {
        "question_id": qid,
        "evaluator": evaluator,
        "evaluator_kwargs": kwargs,
        "task": task,
        **extra,
    }


def run(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    annotations: list[dict[str, Any]],
    predictions: list[dict[str, Any]],
    *args: str,
) -> tuple[int, list[dict[str, Any]], dict[str, Any], str]:
    a, p = files(tmp_path, annotations, predictions)
    out = tmp_path / "out"
    code, stdout, err = grade(
        capsys, "--annotations", a, "--predictions", p, "--out-dir", str(out), *args
    )
    if code != 0:
        return code, [], {}, err
    assert json.loads(stdout) == read_json(out / "scores.json")  # piped: the scores as JSON
    return code, read_json(out / "updated_predictions.json"), read_json(out / "scores.json"), err


def test_example_writes_next_to_predictions_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("annotation.json", "predictions.json"):
        shutil.copy(EXAMPLE / name, tmp_path)
    code, _, _ = grade(
        capsys,
        "--mode",
        "rome",
        "--annotations",
        str(tmp_path / "annotation.json"),
        "--predictions",
        str(tmp_path / "predictions.json"),
    )
    assert code == 0
    assert (tmp_path / "scores.json").read_bytes() == (EXAMPLE / "scores.json").read_bytes()
    settings = read_json(tmp_path / "run.json")
    assert settings["mode"] == "rome" and settings["tracker_type"] == "task"
    records = read_json(tmp_path / "updated_predictions.json")
    for record in records:
        review = record["review"]
        assert review["mode"] == "rome" and review["primary"] == "rule:rome"
        assert [v["source"] for v in review["verdicts"]] == ["rule:rome", "rule:strict"]
        assert set(review["verdicts"][0]) >= {"source", "score", "extracted", "explanation"}
        assert len(review["content_hash"]) == 16
        assert isinstance(review["flags"], list)


def test_custom_output_paths_and_never_overwriting_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, p = str(EXAMPLE / "annotation.json"), str(EXAMPLE / "predictions.json")
    code, _, _ = grade(
        capsys,
        "--mode",
        "rome",
        "--annotations",
        a,
        "--predictions",
        p,
        "--updated",
        str(tmp_path / "u.json"),
        "--output",
        str(tmp_path / "s.json"),
    )
    assert code == 0
    assert (tmp_path / "s.json").read_bytes() == (EXAMPLE / "scores.json").read_bytes()
    assert read_json(tmp_path / "u.run.json")["scores_path"] == str(tmp_path / "s.json")
    code, _, err = grade(capsys, "--annotations", a, "--predictions", p, "--updated", p)
    assert code == 2 and "refusing to overwrite the --predictions file" in err


def test_strict_grades_the_final_answer_and_keeps_reasoning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    predictions = [
        {"question_id": "1", "answer": "<think>Answer: A? no, wait.</think>\nIt is B", "reason": ""}
    ]
    code, records, scores, _ = run(
        capsys, tmp_path, [ann("1", "choices_matching", {"label": "B"})], predictions
    )
    assert code == 0
    record = records[0]
    rome_v, strict_v = record["review"]["verdicts"]
    assert (rome_v["score"], strict_v["score"]) == (0, 1)
    assert record["correct"] == 1 and record["review"]["primary"] == "rule:strict"
    assert record["raw_answer"] == predictions[0]["answer"]  # reasoning kept
    assert "rome_strict_disagree" in [f["kind"] for f in record["review"]["flags"]]
    assert scores["final_score"] == [1, 1]


def test_rome_mode_key_order_and_annotation_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    annotations = [
        ann("1", "number_matching", {"value_to_match": 3}, question="bare?", extra_field=1)
    ]
    predictions = [
        {
            "question_id": 1,
            "question": "prompt?",
            "answer": "Answer: 3",
            "reason": "<think>x</think>",
        }
    ]
    code, records, _, _ = run(capsys, tmp_path, annotations, predictions, "--mode", "rome")
    assert code == 0
    record = records[0]
    assert list(record) == [
        "question_id",
        "question",
        "answer",
        "reason",
        "raw_answer",
        "evaluator",
        "evaluator_kwargs",
        "task",
        "extra_field",
        "correct",
        "judgement_response",
        "review",
    ]
    assert (
        record["question"] == "bare?" and record["question_id"] == "1" and record["answer"] == "3"
    )


def test_reject_filtering_in_strict_mode_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    annotations = [
        ann("1", "choices_matching", {"label": "A"}),
        ann("2", "choices_matching", {"label": "A"}),
    ]
    usage = {"total_tokens": 10, "prompt_tokens": 4, "completion_tokens": 6}
    predictions: list[dict[str, Any]] = [
        {"question_id": "1", "answer": "Final Answer: A", "usage": usage},
        {"question_id": "2", "answer": "Error code: 429 - rate limited"},
    ]
    code, records, scores, err = run(capsys, tmp_path, annotations, predictions)
    assert code == 0
    assert "correct" not in records[1] and records[1]["review"]["rejected"].startswith("Error code")
    assert scores["final_score"] == [1, 1]
    assert scores["reject_info"] == {"reject_rate": 50.0, "reject_number": 1, "total_question": 2}
    assert scores["average_tokens"] == 10.0
    assert "rejected before grading" in err
    code, records, scores, _ = run(capsys, tmp_path, annotations, predictions, "--mode", "rome")
    assert (
        records[1]["correct"] == 0
        and scores["final_score"] == [1, 2]
        and "reject_info" not in scores
    )


@pytest.mark.parametrize("mode", ["rome", "strict"])
def test_multi_run_answers(mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = {
        "inference_1": "Final Answer: B",
        "inference_0": "Final Answer: A",
        "inference_2": "Final Answer: A",
    }
    code, records, scores, _ = run(
        capsys,
        tmp_path,
        [ann("1", "choices_matching", {"label": "A"})],
        [{"question_id": "1", "answer": runs}],
        "--mode",
        mode,
    )
    assert code == 0
    record = records[0]
    assert record["inference_scores"] == [1, 0, 1] and record["num_inferences"] == 3
    assert record["correct"] == pytest.approx(2 / 3)
    assert record["raw_answer"] == ["Final Answer: A", "Final Answer: B", "Final Answer: A"]
    assert record["answer"] == {"inference_0": "A", "inference_1": "B", "inference_2": "A"}
    assert scores["accuracy"] == 66.667


def test_math_items_get_correct_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    annotations = [
        ann("1", "math_matching", {"answer": "3"}),
        ann("2", "choices_matching", {"label": "A"}),
    ]
    predictions = [{"question_id": "1", "answer": "x = 3"}, {"question_id": "2", "answer": "A"}]
    code, records, scores, _ = run(capsys, tmp_path, annotations, predictions)
    assert code == 0
    assert records[0]["correct_strict"] == records[0]["review"]["verdicts"][1]["strict"]
    assert "correct_strict" not in records[1]
    assert "accuracy_strict" in scores and len(scores["t"]) == 5


@pytest.mark.parametrize("mode", ["rome", "strict"])
def test_bad_evaluator_exits_2_naming_file_record_and_kwarg(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _, err = run(
        capsys,
        tmp_path,
        [ann("q7", "choices_matching", {"labels": "A"})],
        [{"question_id": "q7", "answer": "A"}],
        "--mode",
        mode,
    )
    assert code == 2
    assert "ann.json: record q7" in err and "labels" in err and "Traceback" not in err


def test_malformed_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "p.jsonl"
    bad.write_text('{"question_id": "1", "answer": "A"}\n{"question_id": 2,\n')
    code, _, err = grade(
        capsys,
        "--annotations",
        str(EXAMPLE / "annotation.json"),
        "--predictions",
        str(bad),
        "--out-dir",
        str(tmp_path / "o"),
    )
    assert code == 2 and f"{bad}:2: invalid JSON Lines record" in err


def test_primary_option() -> None:
    assert parse_primary(None) == ("rule", {})
    assert parse_primary(["judge:Diagrams,judge:Charts", "rule"]) == (
        "rule",
        {"Diagrams": "judge", "Charts": "judge"},
    )
    with pytest.raises(UsageError):
        parse_primary(["human"])


def test_primary_judge_needs_llm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _, err = run(
        capsys,
        tmp_path,
        [ann("1", "choices_matching", {"label": "A"})],
        [{"question_id": "1", "answer": "A"}],
        "--primary",
        "judge",
    )
    assert code == 2 and "--use_llm_evaluator" in err


def test_terminal_table_shows_buckets_literally(capsys: pytest.CaptureFixture[str]) -> None:
    from rome_tui.commands.grade import _print_table
    from scorers.io.run_paths import ResultsPaths
    from scorers.io.run_settings import RunSettings
    from scorers.io.scores import compute_scores

    scores = compute_scores([{"task": "[bold]x[/]", "correct": 1}, {"task": "geo", "correct": 0.5}])
    _print_table(scores, RunSettings(mode="rome"), ResultsPaths.of("out"))
    out = capsys.readouterr().out
    assert "[bold]x[/]" in out and "geo" in out and "75.0%" in out


def test_on_a_terminal_grade_ends_with_the_queue_and_the_review_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    annotations = [ann(str(i), "choices_matching", {"label": "A"}) for i in range(3)]
    predictions = [
        {"question_id": "0", "answer": "A"},
        {"question_id": "1", "answer": "B"},
        # the reference grader reads "Option a" as no answer; strict mode reads "A"
        {"question_id": "2", "answer": "The answer is Option a."},
    ]
    a, p = files(tmp_path, annotations, predictions)
    out = tmp_path / "my run"
    code, stdout, _ = grade(capsys, "--annotations", a, "--predictions", p, "--out-dir", str(out))
    assert code == 0
    graded = read_json(out / "updated_predictions.json")
    flagged = sum(1 for r in graded if r["review"]["flags"])
    assert flagged >= 1
    lines = stdout.rstrip().splitlines()
    assert lines[-2] == f"{flagged} of 3 items flagged for review; to review them:"
    assert lines[-1] == f"  rome-tui review '{out}'"


def test_answer_that_is_not_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    annotations = [
        ann("1", "number_matching", {"value_to_match": 3}),
        ann("2", "number_matching", {"value_to_match": 3}),
    ]
    predictions: list[dict[str, Any]] = [
        {"question_id": "1", "answer": 3},
        {"question_id": "2", "answer": None},
    ]
    code, _, _, err = run(capsys, tmp_path, annotations, predictions, "--mode", "rome")
    assert code == 2 and "pred.json: record 1: answer is a number, not text" in err
    code, records, _, err = run(capsys, tmp_path, annotations, predictions)
    assert code == 0 and "2 answer(s) were not text" in err
    assert [r["raw_answer"] for r in records] == [3, None]  # the original kept
