"""NaN, Infinity and -Infinity, as Python's json.dump writes them: read as null, named, never counted."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import orjson
import pytest

from scorers.errors import InputError
from scorers.grade.run import grade_files
from scorers.io import streaming
from scorers.io.loading import load_annotations, load_predictions
from scorers.io.parse import parse_file
from scorers.io.results import load_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings

ANNOTATIONS = [
    {
        "question_id": f"item{i}",
        "question": "Which panel?",
        "reference": "C",
        "task": "charts",
        "evaluator": "choices_matching",
        "evaluator_kwargs": {"label": "C"},
    }
    for i in range(5)
]


def _predictions() -> list[dict[str, Any]]:
    out = []
    for i in range(5):
        usage: dict[str, Any] = {"prompt_tokens": 20, "completion_tokens": 8, "total_tokens": 28}
        out.append({"question_id": f"item{i}", "answer": "Final Answer: C", "usage": usage})
    out[1]["usage"]["completion_tokens"] = math.nan
    out[3]["usage"]["total_tokens"] = math.inf
    out[4]["usage"]["prompt_tokens"] = -math.inf
    return out


def _write(path: Path, value: Any, shape: str) -> Path:
    if shape == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in value))
    elif shape == "pretty":
        path.write_text(json.dumps(value, indent=2))
    elif shape == "keyed":
        keyed = {
            r["question_id"]: {k: v for k, v in r.items() if k != "question_id"} for r in value
        }
        path.write_text(json.dumps(keyed))
    else:
        path.write_text(json.dumps(value))
    return path


@pytest.mark.parametrize("shape", ["compact", "pretty", "jsonl", "keyed"])
def test_every_shape_reads_them_as_null_and_names_record_and_field(
    tmp_path: Path, shape: str
) -> None:
    path = _write(tmp_path / "p.json", _predictions(), shape)
    records, warnings = load_predictions(str(path))
    by_id = {r["question_id"]: r for r in records}
    assert by_id["item1"]["usage"]["completion_tokens"] is None
    assert by_id["item3"]["usage"]["total_tokens"] is None
    assert by_id["item4"]["usage"]["prompt_tokens"] is None
    [warning] = [w for w in warnings if "NaN/Infinity" in w]
    assert "3 NaN/Infinity value(s)" in warning
    assert "record item1 usage.completion_tokens = NaN" in warning
    assert "record item3 usage.total_tokens = Infinity" in warning
    assert "record item4 usage.prompt_tokens = -Infinity" in warning


def test_a_streamed_file_reads_them_in_any_piece(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streaming, "_BLOCK", 61)  # many pieces: the bad ones are in the middle
    many = [dict(r, question_id=f"x{i}") for i in range(8) for r in _predictions()]
    path = _write(tmp_path / "p.json", many, "pretty")
    seen: list[Any] = []
    records, warnings = load_predictions(str(path), on_block=seen.extend)
    assert len(records) == 40 and seen == records  # the blocks handed on are clean too
    assert sum(r["usage"][k] is None for r in records for k in r["usage"]) == 24
    assert any("24 NaN/Infinity value(s)" in w for w in warnings)


def test_in_json_text_fields_and_annotations(tmp_path: Path) -> None:
    annotations = [dict(a) for a in ANNOTATIONS]
    annotations[2] = dict(annotations[2], evaluator_kwargs={"value_to_match": math.nan})
    annotations[2]["evaluator"] = "number_matching"
    predictions = _predictions()
    predictions[0]["usage"] = json.dumps(
        {"completion_tokens": math.inf}
    )  # JSON text, as HF exports
    a = _write(tmp_path / "a.json", annotations, "compact")
    p = _write(tmp_path / "p.json", predictions, "compact")
    loaded, warnings = load_annotations(str(a))
    assert loaded["item2"]["evaluator_kwargs"] == {"value_to_match": None}
    assert any("record item2 evaluator_kwargs.value_to_match = NaN" in w for w in warnings)
    records, warnings = load_predictions(str(p))
    assert records[0]["usage"] == {"completion_tokens": None}
    assert any("record item0 usage.completion_tokens = Infinity" in w for w in warnings)


def test_only_when_orjson_refuses(tmp_path: Path) -> None:
    # The words inside strings are text: orjson reads the file, nothing is said.
    quiet = [dict(r, answer="NaN is not a number; Infinity neither") for r in ANNOTATIONS]
    path = _write(tmp_path / "a.json", quiet, "compact")
    _, warnings = load_predictions(str(path))
    assert not [w for w in warnings if "NaN/Infinity" in w]
    # A file that is broken in another way keeps orjson's error, NaN or not.
    path.write_text('[{"question_id": "a", "answer": NaN},')
    with pytest.raises(InputError, match="invalid JSON"):
        parse_file(str(path))


def test_no_statistic_sees_them_and_written_files_are_standard_json(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.json", ANNOTATIONS, "compact")
    p = _write(tmp_path / "p.json", _predictions(), "pretty")
    out = tmp_path / "out"
    settings = RunSettings(mode="strict", harness_stats=True)
    result = grade_files(str(a), str(p), settings, paths=ResultsPaths.of(out))
    assert any("NaN/Infinity" in w for w in result.warnings)
    scores = result.scores
    for key in ("average_tokens", "average_prompt_tokens", "average_completion_tokens"):
        assert math.isfinite(scores[key])
    assert scores["average_completion_tokens"] == pytest.approx(8 * 4 / 5)
    for name in ("updated_predictions.json", "scores.json", "run.json"):
        data = (out / name).read_bytes()
        assert b"NaN" not in data and b"Infinity" not in data
        orjson.loads(data)  # standard JSON
    written = {
        r["question_id"]: r for r in orjson.loads((out / "updated_predictions.json").read_bytes())
    }
    assert written["item1"]["usage"]["completion_tokens"] is None  # null on output
    loaded = load_results(str(out))
    assert not [w for w in loaded.warnings if "NaN/Infinity" in w]


def test_a_results_file_with_a_nan_score_loads_with_the_score_missing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    records = [
        dict(ANNOTATIONS[0], answer="C", correct=math.nan),
        dict(ANNOTATIONS[1], answer="C", correct=1),
    ]
    (out / "updated_predictions.json").write_text(json.dumps(records))
    loaded = load_results(str(out))
    assert loaded.records[0]["correct"] is None
    assert any("record item0 correct = NaN" in w for w in loaded.warnings)


def test_an_overflowing_number_beside_them_is_null_too(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text('[{"question_id": "z1", "answer": "C", "usage": {"a": NaN, "b": 2e400}}]')
    records, warnings = load_predictions(str(path))
    assert records[0]["usage"] == {"a": None, "b": None}
    assert any("record z1 usage.b = 2e400" in w for w in warnings)


@pytest.mark.parametrize("harness_stats", [True, False])
def test_a_negative_token_count_is_named_and_missing_like_nan(
    tmp_path: Path, harness_stats: bool
) -> None:
    """A negative count was summed into the token averages without a word: it is no
    count, so it is read as NaN is (missing) and the grade names the record and field."""
    predictions = _predictions()[:1] + [
        {"question_id": f"item{i}", "answer": "Final Answer: C", "usage": usage}
        for i, usage in (
            (1, {"prompt_tokens": 20, "completion_tokens": -5, "total_tokens": 15}),
            (2, json.dumps({"prompt_tokens": -1, "completion_tokens": 8})),  # JSON text
            (3, {"prompt_tokens": 20, "completion_tokens": 8, "total_tokens": 28}),
            (4, {"prompt_tokens": 20, "completion_tokens": 8, "total_tokens": 28}),
        )
    ]
    a = _write(tmp_path / "a.json", ANNOTATIONS, "compact")
    p = _write(tmp_path / "p.json", predictions, "compact")
    mode = "strict" if harness_stats else "rome"
    settings = RunSettings(mode=mode, harness_stats=harness_stats)
    result = grade_files(str(a), str(p), settings, paths=ResultsPaths.of(tmp_path / "out"))
    [warning] = [w for w in result.warnings if "negative token" in w]
    assert warning == (
        f"{p}: 2 negative token count(s) (first: record item1 usage.completion_tokens = -5, "
        "record item2 usage.prompt_tokens = -1): read as missing, as NaN is: left out of every "
        "sum and average of tokens"
    )
    if harness_stats:  # the harness divides by every graded record
        assert result.scores["average_completion_tokens"] == pytest.approx(8 * 4 / 5)
        assert result.scores["average_prompt_tokens"] == pytest.approx(20 * 4 / 5)
    else:
        assert "average_completion_tokens" not in result.scores
