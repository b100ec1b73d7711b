"""The published release as it is: Parquet, several models in one file, items
keyed by model and question (tests/release_fixture.py writes the table)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from hardening_fixtures import run_cli
from release_fixture import SCHEMA, release_rows, write_release

from scorers.adjudicate.store import ResultsStore
from scorers.errors import InputError
from scorers.grade.run import grade_files
from scorers.io.loading import load_predictions
from scorers.io.results import load_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.records import item_id


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rome_tui.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={
            "ROME_TUI_ANNOTATOR": "tester",
            "PATH": "/usr/bin:/bin",
            "HOME": str(cwd),
            "PYTHONPATH": os.environ["PYTHONPATH"],  # this checkout's code (conftest.py)
        },
    )


@pytest.fixture
def release(tmp_path: Path) -> Path:
    path = tmp_path / "train-00000-of-00001.parquet"
    write_release(str(path))
    return path


def _grade(release: Path, out: Path) -> list[dict[str, Any]]:
    grade_files(None, str(release), RunSettings(), paths=ResultsPaths.of(out))
    return json.loads((out / "updated_predictions.json").read_text())


def test_release_grades_without_annotations_keyed_by_model(release: Path, tmp_path: Path) -> None:
    before = _digest(release)
    records = _grade(release, tmp_path / "run")
    assert _digest(release) == before
    assert len(records) == 12
    ids = [item_id(r) for r in records]
    assert len(set(ids)) == 12 and "model-b/q1" in ids
    # One-model question ids stay as published.
    assert {r["question_id"] for r in records} == {"q1", "q2", "q3", "q4"}
    b1 = next(r for r in records if item_id(r) == "model-b/q1")
    sources = [v["source"] for v in b1["review"]["verdicts"]]
    assert sources == ["rule:rome", "rule:strict", "release"]
    release_v = b1["review"]["verdicts"][2]
    assert release_v["score"] == 1.0 and release_v["explanation"] == "graded 1.0"
    # The published grade and strict mode disagree: it is in the audit queue.
    assert "release_strict_disagree" in [f["kind"] for f in b1["review"]["flags"]]
    assert b1["correct"] == 0
    settings = json.loads((tmp_path / "run" / "run.json").read_text())
    assert settings["by_model"] and settings["release"] and settings["annotations"] is None
    assert settings["tracker_type"] == "dataset"


def test_override_by_model_slash_question_touches_one_model(release: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    _grade(release, out)
    store = ResultsStore.open(out, annotator="tester")
    entry = store.override("model-b/q1", 1.0, "the release is right")
    assert entry["question_id"] == "model-b/q1"
    store.write_back()
    records = load_results(out).records
    by_id = {item_id(r): r for r in records}
    assert by_id["model-b/q1"]["correct"] == 1.0
    assert by_id["model-a/q1"].get("review", {}).get("human") is None
    assert by_id["model-c/q1"].get("review", {}).get("human") is None
    assert by_id["model-a/q1"]["correct"] == 1 and by_id["model-c/q1"]["correct"] == 1
    # The plain question id names no single item in a file of several models.
    # It lists the items it could mean.
    with pytest.raises(Exception, match="no item with id 'q1'.*model-a/q1, model-b/q1, model-c/q1"):
        store.override("q1", 0.0, "ambiguous")
    # Undo finds the item by the same id; the journal replays on reopening.
    reopened = ResultsStore.open(out, annotator="tester")
    assert reopened.records[reopened.index_of("model-b/q1")]["correct"] == 1.0
    undone = reopened.undo()
    assert undone is not None and undone["question_id"] == "model-b/q1"


def test_cli_grade_override_summary(release: Path, tmp_path: Path) -> None:
    before = _digest(release)
    graded = _cli(
        "grade", "--predictions", str(release), "--out-dir", "run", "--json", cwd=tmp_path
    )
    assert graded.returncode == 0, graded.stderr
    done = _cli("override", "run", "model-c/q2", "1", "--reason", "A is fine", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("model-c/q2: 0 -> 1")
    summary = _cli("summary", "run", "--format", "json", cwd=tmp_path)
    assert summary.returncode == 0, summary.stderr
    text = summary.stdout
    for model in ("model-a", "model-b", "model-c"):
        assert model in text
    assert _digest(release) == before


def test_duplicate_model_question_pairs_are_reported(tmp_path: Path) -> None:
    rows = release_rows()
    rows.append(dict(rows[0]))
    path = tmp_path / "dup.parquet"
    write_release(str(path), rows)
    result = grade_files(None, str(path), RunSettings(), write=False)
    assert any(
        "1 repeated model/question_id pair(s) (first: model-a/q1)" in w for w in result.warnings
    )
    assert len(result.records) == 12


def test_a_row_without_a_usable_published_grade_is_named_and_json_text_is_not(
    tmp_path: Path,
) -> None:
    # JSON-text columns are the release's format, not news; a NaN grade silently had no
    # release verdict, so the row could never be flagged release_strict_disagree.
    rows = release_rows()
    rows[3]["correct"] = float("nan")
    path = tmp_path / "nan.parquet"
    write_release(str(path), rows)
    result = grade_files(None, str(path), RunSettings(), write=False)
    assert not [w for w in result.warnings if "JSON text" in w]
    [warning] = [w for w in result.warnings if "'correct'" in w]
    assert "1 row(s)" in warning and "NaN" in warning and rows[3]["model"] in warning


def test_one_model_file_keeps_plain_ids(tmp_path: Path) -> None:
    rows = [r for r in release_rows() if r["model"] == "model-a"]
    path = tmp_path / "one.parquet"
    write_release(str(path), rows)
    records = _grade(path, tmp_path / "run")
    assert [item_id(r) for r in records] == ["q1", "q2", "q3", "q4"]
    assert all("item" not in r["review"] for r in records)


# --- bad Parquet: one paragraph naming the file, the row and the column -----------


def _error(path: Path) -> str:
    with pytest.raises(InputError) as caught:
        load_predictions(str(path))
    return str(caught.value)


def test_truncated_file(release: Path) -> None:
    data = release.read_bytes()
    release.write_bytes(data[: len(data) // 2])
    message = _error(release)
    assert str(release) in message and "truncated or corrupt" in message


@pytest.mark.parametrize("command", ["summary", "review"])
def test_a_release_that_cannot_be_read_leaves_no_run_folder(release: Path, command: str) -> None:
    """`summary FILE.parquet` on a truncated file left an empty FILE.rome-tui/ behind."""
    from hardening_fixtures import run_cli

    data = release.read_bytes()
    release.write_bytes(data[: len(data) // 2])
    ran = run_cli([command, str(release)])
    assert ran.code == 2 and "truncated or corrupt" in ran.err and "Traceback" not in ran.err
    assert not release.with_suffix(".rome-tui").exists()
    kept = release.parent / "kept"
    kept.mkdir()  # a folder the user named keeps existing
    assert run_cli([command, str(release), "--out-dir", str(kept)]).code == 2
    assert kept.is_dir()


def test_a_release_in_a_folder_that_cannot_hold_its_run(
    release: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A release on a read-only mount: mkdir's OSError was a traceback (exit 1)."""
    import errno

    from hardening_fixtures import run_cli

    def read_only(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "mkdir", read_only)
    ran = run_cli(["summary", str(release)])
    assert ran.code == 2 and "Traceback" not in ran.err, ran.err
    assert "Read-only file system; give --out-dir DIR" in ran.err


def test_missing_question_id(tmp_path: Path) -> None:
    schema = pa.schema([f for f in SCHEMA if f.name != "question_id"])
    rows = [{k: v for k, v in r.items() if k != "question_id"} for r in release_rows()]
    path = tmp_path / "noid.parquet"
    write_release(str(path), rows, schema=schema)
    message = _error(path)
    assert str(path) in message and "column 'question_id' missing" in message


def test_evaluator_kwargs_not_json(tmp_path: Path) -> None:
    rows = release_rows()
    rows[6]["evaluator_kwargs"] = '{"value_to_match": 42'
    path = tmp_path / "kwargs.parquet"
    write_release(str(path), rows)
    message = _error(path)
    assert str(path) in message
    assert "row 6 (model-b/q3), column 'evaluator_kwargs': not valid JSON" in message


def test_correct_is_a_string(tmp_path: Path) -> None:
    schema = pa.schema(
        [pa.field("correct", pa.string()) if f.name == "correct" else f for f in SCHEMA]
    )
    rows = [dict(r, correct=str(r["correct"])) for r in release_rows()]
    path = tmp_path / "correct.parquet"
    write_release(str(path), rows, schema=schema)
    message = _error(path)
    assert str(path) in message and "column 'correct' is string, expected a number" in message


@pytest.mark.parametrize("damage", ["truncate", "kwargs"])
def test_cli_error_is_one_paragraph_exit_2(release: Path, tmp_path: Path, damage: str) -> None:
    if damage == "truncate":
        release.write_bytes(release.read_bytes()[:-100])
    else:
        rows = release_rows()
        rows[0]["evaluator_kwargs"] = "not json"
        write_release(str(release), rows)
    done = _cli("grade", "--predictions", str(release), "--out-dir", "run", cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert str(release) in done.stderr
    assert "\n\n" not in done.stderr.strip()


# --- a release opened directly, and written back ------------------------------------


def test_summary_of_a_release_file_grades_it_beside(release: Path, tmp_path: Path) -> None:
    before = _digest(release)
    done = _cli("summary", str(release), "--by", "dataset", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    run_dir = release.with_name(release.stem + ".rome-tui")
    assert (run_dir / "updated_predictions.json").is_file()
    assert "textual" in done.stdout and "visual" in done.stdout
    # Opened again: the same run, not graded a second time.
    stamp = (run_dir / "updated_predictions.json").stat().st_mtime_ns
    again = _cli("summary", str(release), "--out-dir", str(run_dir), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (run_dir / "updated_predictions.json").stat().st_mtime_ns == stamp
    # A release is never a run that could be written back over it.
    refused = _cli("override", str(release), "model-a/q1", "0", "--reason", "x", cwd=tmp_path)
    assert refused.returncode == 2 and "not a run" in refused.stderr
    assert _digest(release) == before


def test_review_release_opens_the_run(release: Path, tmp_path: Path) -> None:
    from scorers.grade.release import release_run

    run_dir, _ = release_run(release, tmp_path / "audit")
    store = ResultsStore.open(run_dir, annotator="tester")
    assert len(store) == 12
    assert store.records[store.index_of("model-c/q4")]["model"] == "model-c"


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_export_in_the_release_schema(release: Path, tmp_path: Path, fmt: str) -> None:
    import pyarrow.parquet as pq

    out = tmp_path / "run"
    _grade(release, out)
    store = ResultsStore.open(out, annotator="tester")
    store.override("model-a/q3", 0.5, "one city is wrong")  # journaled, not yet written back
    target = tmp_path / f"audited.{fmt}"
    done = _cli("export", str(out), "--format", fmt, "--output", str(target), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    if fmt == "parquet":
        rows = pq.read_table(target).to_pylist()
        assert pq.read_schema(target).names == [*SCHEMA.names, "review"]
        assert pq.read_schema(target).field("correct").type == pa.float64()
    else:
        rows = [json.loads(line) for line in target.read_text().splitlines()]
    original = release_rows()
    assert len(rows) == len(original)
    for got, want in zip(rows, original, strict=True):
        review = json.loads(got.pop("review"))
        assert [v["source"] for v in review["verdicts"]][-1] == "release"
        if (got["model"], got["question_id"]) == ("model-a", "q3"):
            assert got["correct"] == 0.5 and review["human"]["score"] == 0.5
            got["correct"] = want["correct"]
        # Everything else is the published table, JSON-text columns included.
        assert got == want


def test_journal_written_before_model_keys_still_replays(tmp_path: Path) -> None:
    # Two models with distinct question ids: before items of several models were
    # model/question_id, the journal named them by question_id alone.
    rows = [
        r
        for r in release_rows()
        if (r["model"], r["question_id"])
        in {("model-a", "q1"), ("model-a", "q2"), ("model-b", "q3"), ("model-b", "q4")}
    ]
    path = tmp_path / "two.parquet"
    write_release(str(path), rows)
    out = tmp_path / "run"
    records = _grade(path, out)
    digest = next(r for r in records if r["question_id"] == "q3")["review"]["content_hash"]
    journal = out / "journal"
    journal.mkdir()
    line = {
        "v": 1,
        "id": "0" * 32,
        "op": "set",
        "annotator": "old",
        "time": "2026-01-01T00:00:00Z",
        "question_id": "q3",
        "old": 0,
        "new": 1.0,
        "reason": "before",
        "content_hash": digest,
        "supersedes": [],
    }
    (journal / "old.jsonl").write_text(json.dumps(line) + "\n")
    store = ResultsStore.open(out, annotator="tester")
    record = store.records[store.index_of("model-b/q3")]
    assert record["correct"] == 1.0 and record["review"]["human"]["annotator"] == "old"
    assert not [w for w in store.warnings if "not in this run" in w]


def test_judge_a_release_run_item_by_item(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fake_openai_server import FakeOpenAIServer
    from judges_fixtures import clear_openai_env

    from rome_tui.cli import main
    from scorers.records import verdict_of

    out = tmp_path / "run"
    _grade(release, out)
    clear_openai_env(monkeypatch)
    with FakeOpenAIServer() as server:
        # The judge accepts 41 (model-b's q1 answer) and nothing else.
        server.responder = lambda body: (
            f"Judgement: {1 if '41' in body['messages'][-1]['content'] else 0}"
        )
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        assert main(["judge", str(out), "--judge", "rome", "--model", "m1"]) == 0
    by_id = {item_id(r): r for r in load_results(out).records}
    assert len(by_id) == 12
    for model, score in (("model-a", 0.0), ("model-b", 1.0), ("model-c", 0.0)):
        verdict = verdict_of(by_id[f"{model}/q1"], "judge:rome")
        assert verdict is not None and verdict["score"] == score


def test_a_parquet_graded_elsewhere_opens_as_graded(tmp_path: Path) -> None:
    from scorers.grade.release import release_run

    keep = ("model", "question_id", "answer", "correct", "dataset")
    schema = pa.schema([f for f in SCHEMA if f.name in keep])
    rows = [{k: r[k] for k in keep} for r in release_rows()]
    path = tmp_path / "graded.parquet"
    write_release(str(path), rows, schema=schema)
    run_dir, warnings = release_run(path)
    loaded = load_results(run_dir)
    assert [r["correct"] for r in loaded.records] == [r["correct"] for r in rows]
    assert item_id(loaded.records[4]) == "model-b/q1"
    assert "no 'evaluator' and 'evaluator_kwargs' columns, so nothing is graded" in warnings[0]


def test_a_release_without_the_answers_names_the_columns_and_the_row(tmp_path: Path) -> None:
    """It said "record q1: prediction has no 'answer'": no column of the release is
    called that alone, and three models have a q1."""
    gone = ("answer", "raw_answer")
    schema = pa.schema([f for f in SCHEMA if f.name not in gone])
    rows = [{k: v for k, v in r.items() if k not in gone} for r in release_rows()]
    path = tmp_path / "release.parquet"
    write_release(str(path), rows, schema=schema)
    done = run_cli(["summary", str(path)])
    assert done.code == 2 and "Traceback" not in done.err, done.err
    assert str(path) in done.err and "record q1 (model model-a)" in done.err
    assert "no 'answer' or 'raw_answer'" in done.err


@pytest.mark.parametrize("dropped", ["evaluator", "evaluator_kwargs"])
def test_a_release_missing_one_annotation_column_is_refused(tmp_path: Path, dropped: str) -> None:
    # It used to be read as graded elsewhere with only a warning: an audit of nothing.
    schema = pa.schema([f for f in SCHEMA if f.name != dropped])
    rows = [{k: v for k, v in r.items() if k != dropped} for r in release_rows()]
    path = tmp_path / "release.parquet"
    write_release(str(path), rows, schema=schema)
    done = _cli("summary", str(path), cwd=tmp_path)
    assert done.returncode == 2
    assert str(path) in done.stderr and f"no {dropped!r} column" in done.stderr
    assert "Traceback" not in done.stderr
    assert not path.with_name("release.rome-tui").exists()


def test_the_first_command_on_a_release_says_where_it_graded_it(tmp_path: Path) -> None:
    """A FILE.rome-tui/ folder appeared beside the release with no word of why."""
    path = tmp_path / "release.parquet"
    write_release(str(path))
    first = run_cli(["summary", str(path), "--format", "json"])
    assert first.code == 0, first.err
    said = f"rome-tui summary: graded {path} into {tmp_path / 'release.rome-tui'} (once"
    assert said in first.err and first.out.lstrip().startswith("{")
    again = run_cli(["summary", str(path), "--format", "json"])
    assert again.code == 0 and "graded" not in again.err, again.err


def test_predictions_without_an_answer_column_name_the_column(tmp_path: Path) -> None:
    """A predictions Parquet with no 'answer' column said "record q1: prediction has no
    'answer'", as if one row lacked it: the column is missing, so it names the column."""
    import pyarrow.parquet as pq

    predictions = tmp_path / "p.parquet"
    pq.write_table(pa.table({"question_id": ["q1", "q2"], "response": ["5", "6"]}), predictions)
    annotations = tmp_path / "a.json"
    annotations.write_text(
        json.dumps(
            [
                {"question_id": q, "evaluator": "number_matching"}
                | {"evaluator_kwargs": {"value_to_match": 5}}
                for q in ("q1", "q2")
            ]
        )
    )
    ran = run_cli(
        ["grade", "--annotations", str(annotations), "--predictions", str(predictions)]
        + ["--out-dir", str(tmp_path / "out")]
    )
    assert ran.code == 2, ran.err
    assert ran.err.strip() == (
        f"rome-tui grade: error: {predictions}: column 'answer' missing (every row needs it; "
        "the file has: question_id, response)"
    )
    # An annotations table given as the predictions: the column, and why it may be missing.
    pq.write_table(pa.table({"question_id": ["q1"], "evaluator": ["number_matching"]}), predictions)
    ran = run_cli(
        ["grade", "--annotations", str(annotations), "--predictions", str(predictions)]
        + ["--out-dir", str(tmp_path / "out")]
    )
    assert "column 'answer' missing" in ran.err and "wrong way round" in ran.err, ran.err
