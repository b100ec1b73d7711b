"""A streamed grade writes, warns and fails exactly as the whole-file path does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from scorers.errors import InputError
from scorers.grade import run as grade_run
from scorers.grade.stream import WrittenRecords
from scorers.io import loading, streaming
from scorers.io.annotation_index import AnnotationIndex, load_annotation_index
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings

FINALS = [
    ("choices_matching", {"label": "B"}, ["Final Answer: B", "**Final Answer:** C", "Option b"]),
    ("number_matching", {"value_to_match": 1200}, ["Answer: 1,200", "1.2e3 m", "no idea"]),
    ("ordered_list_matching", {"order": ["A", "B", "C"]}, ["A, B, C", "Answer: C → B → A"]),
    (
        "location_matching",
        {"location_fine_grained": ["Zürich HB"], "location_coarse_grained": ["Zürich"]},
        ["Final Answer: Zürich HB", "Somewhere in Zurich", "Genève"],
    ),
]


def _run(n: int, mode: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Annotations and predictions with every irregularity the stream handles itself:
    repeated and unannotated predictions, unused and repeated annotations, rejected and
    non-text answers, runs, usage as JSON text, NaN token counts, long non-ASCII texts."""
    annotations: list[dict[str, Any]] = []
    predictions: list[dict[str, Any]] = []
    for i in range(n):
        name, kwargs, finals = FINALS[i % len(FINALS)]
        final = finals[i % len(finals)]
        annotations.append(
            {
                "question_id": f"q{i}",
                "question": f"Question {i}?",
                "task": "abc"[i % 3],
                "evaluator": name,
                "evaluator_kwargs": kwargs,
            }
        )
        if i % 17 == 4:
            continue  # an annotation without a prediction
        pred: dict[str, Any] = {"question_id": f"q{i}", "answer": final}
        if i % 2:
            pred["answer"] = f"<think>{'Étape: 12 × 3 = 36. ' * 80}</think>\n{final}"
        if i % 7 == 3:
            pred["answer"] = {"inference_1": final, "inference_0": f"<think>x</think>{final}"}
        if i % 11 == 5:
            pred["answer"] = "Error code: 500"
        if i % 13 == 6 and mode == "strict":
            pred["answer"] = None
        if i % 5 == 1:
            pred["usage"] = json.dumps({"total_tokens": i, "prompt_tokens": 3})
        elif i % 5 == 2:
            pred["usage"] = {"total_tokens": float("nan") if i % 3 else i}
        predictions.append(pred)
        if i % 19 == 7:
            predictions.append(dict(pred))  # a repeated prediction
    annotations.append(dict(annotations[3]))  # an identical repeated annotation
    annotations.append({**annotations[5], "question": "Reworded?"})  # differs, not in its target
    if mode == "strict":
        predictions.insert(10, {"question_id": "nobody", "answer": "B"})
    return annotations, predictions


def _write(directory: Path, annotations: Any, predictions: Any, shape: str) -> tuple[str, str]:
    directory.mkdir(parents=True, exist_ok=True)
    a_path, p_path = directory / "a.json", directory / "p.json"
    a_path.write_text(json.dumps(annotations, indent=2, ensure_ascii=False), encoding="utf-8")
    if shape == "jsonl":
        p_path = directory / "p.jsonl"
        text = "\n".join(json.dumps(p, ensure_ascii=False) for p in predictions) + "\n"
    else:
        indent = {"pretty": 2, "compact": None}.get(shape, 4)
        text = json.dumps(predictions, indent=indent, ensure_ascii=False)
    p_path.write_bytes((b"\xef\xbb\xbf" if shape == "bom" else b"") + text.encode())
    return str(a_path), str(p_path)


def _grade(a: str, p: str, out: Path, mode: str) -> grade_run.GradeResult:
    strict = mode == "strict"
    settings = RunSettings(mode=mode, reject_filter=strict, harness_stats=strict)
    return grade_run.grade_files(a, p, settings, paths=ResultsPaths.of(out))


def _files(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in ("updated_predictions.json", "scores.json")}


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streaming, "_BLOCK", 2000)  # a few records a block
    monkeypatch.setattr(streaming, "_LINES_PER_BLOCK", 3)


def _whole_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grade_run, "_streamed", lambda *args: None)


@pytest.mark.parametrize("shape", ["pretty", "indent4", "compact", "jsonl", "bom"])
@pytest.mark.parametrize("mode", ["strict", "rome"])
def test_a_streamed_run_writes_and_warns_as_the_whole_file_path(
    small_blocks: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mode: str, shape: str
) -> None:
    a, p = _write(tmp_path / "in", *_run(120, mode), shape)
    streamed = _grade(a, p, tmp_path / "s", mode)
    assert isinstance(streamed.graded, WrittenRecords)  # it really streamed
    _whole_file(monkeypatch)
    whole = _grade(a, p, tmp_path / "w", mode)
    assert not isinstance(whole.graded, WrittenRecords)
    assert _files(tmp_path / "s") == _files(tmp_path / "w")
    assert streamed.warnings == whole.warnings
    assert streamed.scores == whole.scores
    assert streamed.rejected == whole.rejected
    assert (streamed.rejected > 0) == (mode == "strict")
    assert len(streamed.graded) == len(whole.graded)
    assert streamed.flagged == whole.flagged
    assert streamed.records == whole.records  # read back from the file when asked for
    kinds = " ".join(streamed.warnings)
    for words in ("NaN", "repeated prediction", "duplicate annotation", "without a prediction"):
        assert words in kinds
    if mode == "strict":
        assert "without an annotation" in kinds and "JSON text, decoded" in kinds


@pytest.mark.parametrize("mode", ["strict", "rome"])
def test_the_first_error_is_the_whole_file_paths(
    small_blocks: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mode: str
) -> None:
    """An evaluator error early and a record without an answer late: the whole-file
    path pairs every record before grading, so it reports the missing answer."""
    annotations, predictions = _run(60, mode)
    annotations[0]["evaluator_kwargs"] = {"labels": "B"}
    cases = {
        "missing answer": predictions[:-1] + [{"question_id": "q59"}],
        "evaluator": predictions,
        "not an object": predictions + [[1, 2]],
    }
    for name, preds in cases.items():
        a, p = _write(tmp_path / name, annotations, preds, "pretty")
        out = tmp_path / name / "out"
        with pytest.raises(InputError) as streamed:
            _grade(a, p, out, mode)
        assert not out.exists() or not any(out.iterdir())  # nothing written
        with monkeypatch.context() as m:
            _whole_file(m)
            with pytest.raises(InputError) as whole:
                _grade(a, p, out, mode)
        assert str(streamed.value) == str(whole.value)
        assert ("record q0" in str(streamed.value)) == (name == "evaluator")


@pytest.mark.parametrize("shape", ["pretty", "jsonl"])
def test_invalid_json_late_in_the_file_is_the_parse_error(
    small_blocks: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, shape: str
) -> None:
    """Records graded, then a piece that does not parse: the parse error, nothing written."""
    annotations, predictions = _run(60, "strict")
    annotations[0]["evaluator_kwargs"] = {"labels": "B"}  # an evaluator error before it
    a, p = _write(tmp_path / "in", annotations, predictions, shape)
    text = Path(p).read_text(encoding="utf-8")
    cut = text.index('"q50"')
    Path(p).write_text(text[:cut] + "oops" + text[cut:], encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(InputError) as streamed:
        _grade(a, p, out, "strict")
    assert not (out / "updated_predictions.json").exists()
    _whole_file(monkeypatch)
    with pytest.raises(InputError) as whole:
        _grade(a, p, out, "strict")
    assert str(streamed.value) == str(whole.value)
    assert "invalid JSON" in str(streamed.value)


def test_a_one_line_predictions_file_is_one_record(tmp_path: Path) -> None:
    annotations, predictions = _run(5, "strict")
    a, p = _write(tmp_path / "in", annotations, predictions[:1], "jsonl")
    result = _grade(a, p, tmp_path / "out", "strict")
    assert len(result.graded) == 1


def test_a_second_model_grades_items_as_model_and_question(
    small_blocks: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    annotations, predictions = _run(40, "strict")
    for pred in predictions:
        pred["model"] = "m1"
    copy = [dict(p, model="m2") for p in predictions[:10]]
    a, p = _write(
        tmp_path / "in", annotations, predictions[:30] + copy + predictions[30:], "pretty"
    )
    streamed = _grade(a, p, tmp_path / "s", "strict")
    assert isinstance(streamed.graded, WrittenRecords)
    assert streamed.settings.by_model
    _whole_file(monkeypatch)
    whole = _grade(a, p, tmp_path / "w", "strict")
    assert _files(tmp_path / "s") == _files(tmp_path / "w")
    assert streamed.warnings == whole.warnings
    items = [r["review"].get("item") for r in streamed.records]
    assert "m2/q0" in items and "m1/q0" in items


def test_a_compact_array_of_nested_objects_streams(
    small_blocks: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Regrading a run's own output written compactly: each record holds lists of
    objects ('}, {' inside it), so most candidate cuts fail and the next is tried."""
    a, p = _write(tmp_path / "in", *_run(40, "strict"), "pretty")
    _grade(a, p, tmp_path / "first", "strict")
    graded = orjson.loads((tmp_path / "first" / "updated_predictions.json").read_bytes())
    compact = tmp_path / "in" / "graded.json"
    compact.write_bytes(orjson.dumps(graded))
    streamed = _grade(a, str(compact), tmp_path / "s", "strict")
    assert isinstance(streamed.graded, WrittenRecords)
    _whole_file(monkeypatch)
    whole = _grade(a, str(compact), tmp_path / "w", "strict")
    assert _files(tmp_path / "s") == _files(tmp_path / "w")
    assert streamed.warnings == whole.warnings


def test_shapes_that_cannot_be_streamed_take_the_whole_file_path(tmp_path: Path) -> None:
    annotations, predictions = _run(20, "strict")
    keyed = {
        p["question_id"]: {k: v for k, v in p.items() if k != "question_id"} for p in predictions
    }
    a, p = _write(tmp_path / "in", annotations, keyed, "pretty")
    result = _grade(a, p, tmp_path / "out", "strict")
    assert not isinstance(result.graded, WrittenRecords)
    assert len(result.graded) > 10


@pytest.mark.parametrize("layout", ["pretty", "jsonl", "compact"])
def test_the_annotation_index_is_load_annotations(
    small_blocks: None, tmp_path: Path, layout: str
) -> None:
    annotations, _ = _run(50, "strict")
    annotations[7]["evaluator_kwargs"] = json.dumps(annotations[7]["evaluator_kwargs"])
    path = tmp_path / "a.json"
    if layout == "jsonl":
        path.write_text("\n".join(json.dumps(a) for a in annotations), encoding="utf-8")
    else:
        path.write_bytes(
            orjson.dumps(annotations, option=orjson.OPT_INDENT_2 if layout == "pretty" else 0)
        )
    index, warnings = load_annotation_index(str(path))
    expected, expected_warnings = loading.load_annotations(str(path))
    assert isinstance(index, AnnotationIndex)
    assert warnings == expected_warnings and any("duplicate" in w for w in warnings)
    assert list(index) == list(expected)
    assert all(index[qid] == expected[qid] for qid in expected)
    assert index.get("nobody") is None
    assert index["q1"] is not index["q1"]  # a new dict each time: grading changes none


def test_annotations_with_two_targets_are_refused_as_before(
    small_blocks: None, tmp_path: Path
) -> None:
    annotations, _ = _run(30, "strict")
    annotations.append({**annotations[2], "evaluator_kwargs": {"label": "C"}})
    path = tmp_path / "a.json"
    path.write_text(json.dumps(annotations, indent=2), encoding="utf-8")
    with pytest.raises(InputError) as streamed:
        load_annotation_index(str(path))
    with pytest.raises(InputError) as whole:
        loading.load_annotations(str(path))
    assert str(streamed.value) == str(whole.value)
    assert "annotated twice with different targets" in str(streamed.value)


def test_kept_json_bytes_hold_their_size_not_orjsons_buffer() -> None:
    """orjson returns bytes that keep its 4 KB write buffer: what is kept for a whole run
    (the annotation index, the evaluators' memo keys) is copied to its own size."""
    import tracemalloc

    from scorers.evaluate.memo import kwargs_key

    annotations = {
        f"q{i}": {"question_id": f"q{i}", "evaluator_kwargs": {"label": "B"}} for i in range(400)
    }
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        index = AnnotationIndex.of(annotations)
        keys = [kwargs_key({"label": "B", "i": i}) for i in range(400)]
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(index) == len(keys) == 400
    assert kept < 800 * 400  # bytes per annotation and key together, against 8 KB uncopied


def test_a_run_written_meanwhile_is_not_overwritten(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Another process rewrites the run after grade stamped it: exit 3, its file kept."""
    from scorers.errors import ConflictError

    a, p = _write(tmp_path / "in", *_run(20, "strict"), "pretty")
    out = tmp_path / "out"
    _grade(a, p, out, "strict")
    theirs = out / "updated_predictions.json"
    load = grade_run.load_annotation_index

    def load_while_another_writes(*args: Any) -> Any:
        theirs.write_bytes(theirs.read_bytes() + b"\n")  # the review app saved
        return load(*args)

    monkeypatch.setattr(grade_run, "load_annotation_index", load_while_another_writes)
    before = theirs.read_bytes()
    with pytest.raises(ConflictError, match="changed on disk"):
        _grade(a, p, out, "strict")
    assert theirs.read_bytes() == before + b"\n"
    assert not [f for f in out.iterdir() if f.name.endswith(".tmp")]
