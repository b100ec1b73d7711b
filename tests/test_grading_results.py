"""Results on disk: paths, loading every kind of graded output, saving atomically."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import orjson
import pytest
from grading_fixtures import EXAMPLE, read_json

from scorers.errors import InputError
from scorers.io.results import load_results, save_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.io.updated_writer import updated_bytes
from scorers.records import verdict_of


def test_paths_of_directory_and_files(tmp_path: Path) -> None:
    paths = ResultsPaths.of(tmp_path)
    assert (paths.updated.name, paths.scores.name, paths.run.name, paths.journal.name) == (
        "updated_predictions.json",
        "scores.json",
        "run.json",
        "journal",
    )
    other = ResultsPaths.of(tmp_path / "rome_geo_evaluated.json")
    assert other.directory == tmp_path
    assert other.scores.name == "rome_geo_evaluated.scores.json"
    assert other.run.name == "rome_geo_evaluated.run.json"
    assert ResultsPaths.of(tmp_path / "updated_predictions.json") == paths


def test_load_reference_output_imports_verdicts(tmp_path: Path) -> None:
    shutil.copy(EXAMPLE / "updated_predictions.json", tmp_path)
    loaded = load_results(tmp_path)
    assert loaded.settings.mode == "rome" and loaded.settings.tracker_type == "task"
    assert len(loaded.records) == 5
    first = loaded.records[0]
    verdict = verdict_of(first, "rule:rome")
    assert verdict is not None and verdict["score"] == first["correct"] == 0
    assert first["review"]["content_hash"]
    assert any("graded elsewhere" in w for w in loaded.warnings)


def test_load_hf_rows_and_harness_output(tmp_path: Path) -> None:
    rows = [
        {
            "question_id": "x_1",
            "answer": "B",
            "raw_answer": "Final Answer: B",
            "reason": "<think>hmm</think>",
            "usage": json.dumps({"total_tokens": 3}),
            "evaluator": "choices_matching",
            "evaluator_kwargs": json.dumps({"label": "B"}),
            "image_type": "Natural",
            "image_subtype": "Object",
            "correct": 1.0,
            "judgement_response": None,
        },
        {
            "question_id": "x_2",
            "answer": "Error code: 429",
            "raw_answer": "Error code: 429",
            "image_type": "Natural",
        },
    ]
    path = tmp_path / "rome_evaluated.json"
    path.write_text(json.dumps(rows, indent=2))
    loaded = load_results(path)
    assert (
        loaded.settings.tracker_type == "image_type"
        and loaded.settings.tracker_subtype == "image_subtype"
    )
    assert loaded.records[0]["evaluator_kwargs"] == {"label": "B"}
    assert loaded.records[0]["usage"] == {"total_tokens": 3}
    assert loaded.records[1]["review"]["rejected"].startswith("Error code")
    assert loaded.paths.scores == tmp_path / "rome_evaluated.scores.json"


def test_save_then_load_round_trip(tmp_path: Path) -> None:
    records = read_json(EXAMPLE / "updated_predictions.json")
    settings = RunSettings(mode="rome", tools_available=["web_search"])
    paths = ResultsPaths.of(tmp_path)
    scores = save_results(paths, records, settings)
    assert paths.scores.read_bytes() == (EXAMPLE / "scores.json").read_bytes()
    assert scores["final_score"] == [2.0, 5]
    loaded = load_results(tmp_path / "updated_predictions.json")
    assert loaded.settings.tools_available == ["web_search"]
    assert [r["question_id"] for r in loaded.records] == [r["question_id"] for r in records]
    assert not list(tmp_path.glob(".*.tmp"))  # no temp files left behind


@pytest.mark.parametrize("n", [0, 1, 2, 63, 64, 65, 2049])
def test_streamed_writer_equals_orjson(n: int) -> None:
    records = [
        {"question_id": f"q{i}", "answer": "a\nb", "nested": {"x": [1, {"y": "é"}]}}
        for i in range(n)
    ]
    assert updated_bytes(records) == orjson.dumps(records, option=orjson.OPT_INDENT_2)


def test_bad_results_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_results(tmp_path)
    (tmp_path / "updated_predictions.json").write_text("[1]")
    with pytest.raises(InputError, match="record 0: expected a JSON object"):
        load_results(tmp_path)
    (tmp_path / "updated_predictions.json").write_text("[]")
    (tmp_path / "run.json").write_text("{oops")
    with pytest.raises(InputError, match="run.json:1: invalid JSON"):
        load_results(tmp_path)


def test_written_files_get_the_usual_permissions_and_keep_changed_ones(tmp_path: Path) -> None:
    import os
    import stat

    from scorers.grade.run import grade_files

    umask = os.umask(0o022)
    try:
        paths = ResultsPaths.of(tmp_path / "out")
        result = grade_files(
            str(EXAMPLE / "annotation.json"),
            str(EXAMPLE / "predictions.json"),
            RunSettings(),
            paths=paths,
        )
        modes = {
            p.name: stat.S_IMODE(p.stat().st_mode) for p in (paths.updated, paths.scores, paths.run)
        }
        # Not mkstemp's owner-only 0600: a results directory is shared with other readers.
        assert modes == dict.fromkeys(modes, 0o644)
        paths.updated.chmod(0o640)
        save_results(paths, result.records, result.settings)
        assert stat.S_IMODE(paths.updated.stat().st_mode) == 0o640
    finally:
        os.umask(umask)
