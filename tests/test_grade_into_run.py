"""Grading into a directory that already holds a run: a re-grade of the same inputs keeps
the reviewers' overrides in the files; a run of other inputs is not replaced unasked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from grading_fixtures import EXAMPLE, grade, read_json

from rome_tui.cli import main

GEO = "question_geo_20"  # strict mode grades its answer 1


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the example pair, so a test may edit it."""
    a, p = tmp_path / "annotation.json", tmp_path / "predictions.json"
    shutil.copy(EXAMPLE / "annotation.json", a)
    shutil.copy(EXAMPLE / "predictions.json", p)
    return a, p


def _grade_into(capsys: pytest.CaptureFixture[str], a: Path, p: Path, out: Path, *more: str):
    return grade(
        capsys, "--annotations", str(a), "--predictions", str(p), "--out-dir", str(out), *more
    )


@pytest.fixture
def reviewed(
    capsys: pytest.CaptureFixture[str], inputs: tuple[Path, Path], tmp_path: Path
) -> tuple[Path, Path, Path]:
    """The inputs and the run they were graded into (tmp_path/run), with ana's override of
    GEO to 0 in its journal."""
    a, p = inputs
    out = tmp_path / "run"
    code, _, _ = _grade_into(capsys, a, p, out)
    assert code == 0
    code = main(
        ["override", str(out), GEO, "0", "--reason", "the wrong park", "--annotator", "ana"]
    )
    assert code == 0
    capsys.readouterr()
    return a, p, out


def _other_model(p: Path) -> Path:
    """The same predictions under another file name: to the grader, another model's run."""
    other = p.parent / "other_model.json"
    shutil.copy(p, other)
    return other


def _geo(out: Path, name: str = "updated_predictions.json") -> dict:
    return next(r for r in read_json(out / name) if r["question_id"] == GEO)


def test_regrading_the_same_inputs_keeps_the_override_in_the_files(
    capsys: pytest.CaptureFixture[str], reviewed: tuple[Path, Path, Path]
) -> None:
    a, p, out = reviewed
    before = read_json(out / "scores.json")["final_score"]

    code, stdout, stderr = _grade_into(capsys, a, p, out)

    assert code == 0
    record = _geo(out)
    assert record["correct"] == 0
    assert record["review"]["human"]["annotator"] == "ana"
    assert read_json(out / "scores.json")["final_score"] == before
    assert json.loads(stdout)["final_score"] == before  # what it prints includes the override
    assert "1 override(s) in force" in stderr and "ana" in stderr


def test_regrading_after_the_reference_changed_marks_the_override_stale(
    capsys: pytest.CaptureFixture[str], reviewed: tuple[Path, Path, Path]
) -> None:
    a, p, out = reviewed
    annotations = read_json(a)
    for row in annotations:
        if row["question_id"] == GEO:
            row["evaluator_kwargs"]["location_fine_grained"] = ["Tokyo DisneySea"]
    a.write_text(json.dumps(annotations), encoding="utf-8")

    code, _, stderr = _grade_into(capsys, a, p, out)

    assert code == 0
    review = _geo(out)["review"]
    assert review["stale"] and review["human"]["score"] == 0
    assert any(f["kind"] == "override_stale" for f in review["flags"])
    assert "1 stale" in stderr


def test_a_run_of_other_predictions_is_refused_and_left_as_it_was(
    capsys: pytest.CaptureFixture[str], reviewed: tuple[Path, Path, Path]
) -> None:
    a, p, out = reviewed
    other = _other_model(p)
    files = {f.name: f.read_bytes() for f in out.iterdir() if f.is_file()}

    code, _, stderr = _grade_into(capsys, a, other, out)

    assert code == 2
    assert str(out) in stderr and str(p) in stderr and "ana" in stderr
    assert "--overwrite" in stderr and "another --out-dir" in stderr
    assert {f.name: f.read_bytes() for f in out.iterdir() if f.is_file()} == files


def test_overwrite_replaces_the_run_and_still_replays_its_journal(
    capsys: pytest.CaptureFixture[str], reviewed: tuple[Path, Path, Path]
) -> None:
    a, p, out = reviewed
    other = _other_model(p)

    code, _, _ = _grade_into(capsys, a, other, out, "--overwrite")

    assert code == 0
    assert read_json(out / "run.json")["predictions"] == str(other)
    assert (out / "journal" / "ana.jsonl").stat().st_size > 0
    assert _geo(out)["review"]["human"]["annotator"] == "ana"  # the same answer: still in force


def test_a_run_without_overrides_is_refused_too(
    capsys: pytest.CaptureFixture[str], inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, p = inputs
    out = tmp_path / "run"
    assert _grade_into(capsys, a, p, out)[0] == 0
    other = _other_model(p)
    code, _, stderr = _grade_into(capsys, a, other, out)
    assert code == 2 and "already holds a run graded from" in stderr


def test_results_of_unknown_origin_in_a_chosen_directory_are_refused(
    capsys: pytest.CaptureFixture[str], inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, p = inputs
    out = tmp_path / "run"
    out.mkdir()
    shutil.copy(EXAMPLE / "updated_predictions.json", out / "updated_predictions.json")
    code, _, stderr = _grade_into(capsys, a, p, out)
    assert code == 2 and "unknown origin" in stderr
    assert _grade_into(capsys, a, p, out, "--overwrite")[0] == 0


def test_beside_the_predictions_a_reference_output_is_replaced_as_the_reference_does(
    capsys: pytest.CaptureFixture[str], inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, p = inputs
    shutil.copy(EXAMPLE / "updated_predictions.json", tmp_path / "updated_predictions.json")
    code, _, _ = grade(capsys, "--annotations", str(a), "--predictions", str(p))
    assert code == 0
    assert read_json(tmp_path / "run.json")["predictions"] == str(p)


def test_a_run_under_its_own_file_name_keeps_its_journal_too(
    capsys: pytest.CaptureFixture[str], inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, p = inputs
    out = tmp_path / "run"
    named = ("--updated", str(out / "gemini_evaluated.json"))
    assert _grade_into(capsys, a, p, out, *named)[0] == 0
    reason = ["--reason", "the wrong park", "--annotator", "ana"]
    assert main(["override", str(out / "gemini_evaluated.json"), GEO, "0", *reason]) == 0
    assert _grade_into(capsys, a, p, out, *named)[0] == 0
    geo = _geo(out, "gemini_evaluated.json")
    assert geo["correct"] == 0 and geo["review"]["human"]["annotator"] == "ana"


def test_overrides_of_items_missing_from_the_new_run_are_reported_in_one_line(
    capsys: pytest.CaptureFixture[str], inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, p = inputs
    out = tmp_path / "run"
    assert _grade_into(capsys, a, p, out)[0] == 0
    ids = [r["question_id"] for r in read_json(p)]
    for qid in ids[:3]:
        assert (
            main(["override", str(out), qid, "1", "--reason", "read it", "--annotator", "bo"]) == 0
        )
    capsys.readouterr()
    fewer = tmp_path / "fewer.json"
    fewer.write_text(json.dumps(read_json(p)[3:]), encoding="utf-8")

    code, _, stderr = _grade_into(capsys, a, fewer, out, "--overwrite")

    assert code == 0
    missing = [line for line in stderr.splitlines() if "not in this run" in line]
    assert len(missing) == 1
    assert "3 question_id(s)" in missing[0] and ids[0] in missing[0]
