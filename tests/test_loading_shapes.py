"""Loading annotations and predictions in every accepted shape, and clear errors otherwise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorers.errors import InputError
from scorers.io.loading import load_annotations, load_predictions
from scorers.io.pairing import pair

ANN = [
    {
        "question_id": "a",
        "evaluator": "choices_matching",
        "evaluator_kwargs": {"label": "A"},
        "task": "t",
    },
    {
        "question_id": "b",
        "evaluator": "number_matching",
        "evaluator_kwargs": {"value_to_match": 3},
        "task": "t",
    },
]
PRED = [{"question_id": "a", "answer": "Answer: A"}, {"question_id": "b", "answer": "Answer: 3"}]


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return str(path)


def shapes(records: list[dict[str, Any]]) -> dict[str, str]:
    keyed = {r["question_id"]: {k: v for k, v in r.items() if k != "question_id"} for r in records}
    return {
        "array": json.dumps(records),
        "array-pretty": json.dumps(records, indent=2),
        "jsonl": "\n".join(json.dumps(r) for r in records) + "\n",
        "keyed": json.dumps(keyed),
        "keyed-pretty": json.dumps(keyed, indent=4),
        "bom": "\ufeff" + json.dumps(records, indent=2),
    }


@pytest.mark.parametrize("shape", list(shapes(PRED)))
@pytest.mark.parametrize("mode", ["rome", "strict"])
def test_prediction_shapes(shape: str, mode: str, tmp_path: Path) -> None:
    path = write(tmp_path, "p.json", shapes(PRED)[shape])
    records, warnings = load_predictions(path, mode)
    assert [(r["question_id"], r["answer"]) for r in records] == [
        ("a", "Answer: A"),
        ("b", "Answer: 3"),
    ]
    if shape in ("keyed-pretty", "bom"):
        assert warnings and "reference grader" in warnings[0]


@pytest.mark.parametrize("shape", list(shapes(ANN)))
def test_annotation_shapes(shape: str, tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", shapes(ANN)[shape])
    annotations, _ = load_annotations(path, "strict")
    assert sorted(annotations) == ["a", "b"]
    assert annotations["b"]["evaluator_kwargs"] == {"value_to_match": 3}


def test_single_objects(tmp_path: Path) -> None:
    records, _ = load_predictions(write(tmp_path, "p.json", json.dumps(PRED[0], indent=2)), "rome")
    assert records == [PRED[0]]
    annotations, warnings = load_annotations(
        write(tmp_path, "a.jsonl", json.dumps(ANN[0]) + "\n"), "rome"
    )
    assert list(annotations) == ["a"]
    assert "field names as ids" in warnings[0]


def test_json_string_kwargs_and_usage(tmp_path: Path) -> None:
    ann = [{**ANN[0], "evaluator_kwargs": json.dumps(ANN[0]["evaluator_kwargs"])}]
    pred = [{**PRED[0], "usage": json.dumps({"total_tokens": 5})}]
    annotations, warnings = load_annotations(write(tmp_path, "a.json", json.dumps(ann)), "strict")
    assert annotations["a"]["evaluator_kwargs"] == {"label": "A"}
    assert any("decoded" in w for w in warnings)
    records, _ = load_predictions(write(tmp_path, "p.json", json.dumps(pred)), "strict")
    assert records[0]["usage"] == {"total_tokens": 5}


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        (
            '[{"question_id": "a", "answer": "x"},\n {"question_id": "b" "answer": 1}]',
            ":2",
            "invalid JSON",
        ),
        (
            '{"question_id": "a", "answer": "x"}\n{"question_id": "b", "answer": }\n',
            ":2",
            "invalid JSON Lines record",
        ),
        ('{\n  "a": {"answer": "x"},\n  "b": oops\n}', ":3", "invalid JSON"),
        # A line cut short mid-string said only "unexpected control character in string".
        (
            '{"question_id": "a", "answer": "x"}\n{"question_id": "b", "answer": "y\n'
            '{"question_id": "c", "answer": "z"}\n',
            ":2",
            "unexpected control character in string (column 34); the line ends before its "
            "record does (cut short?)",
        ),
        ('{"question_id": "a", "answer": "x"}\n{"question_id": "b", "ans', ":2", "(cut short?)"),
        ("[1, 2]", "record 0", "expected a JSON object"),
        ('{"question_id": "a"}\n[1]\n', ":2", "expected a JSON object"),
        ('"just a string"', "p.json", "expected a list of predictions"),
        ('{"a": {"answer": "x"}, "b": 3}', "record b", "object keyed by question_id"),
        ('{"a": {"reason": "x"}}', "record a", "no 'answer'"),
        (b"\xff\xfe[]", "p.json", "not UTF-8: the file is UTF-16"),
        (
            '{"question_id": "a", "answer": "x", "usage": "{not json"}',
            "record a",
            "usage is a string but not valid JSON",
        ),
    ],
)
def test_malformed_predictions_name_file_place_and_problem(
    tmp_path: Path, text: str | bytes, where: str, problem: str
) -> None:
    path = write(tmp_path, "p.json", text)
    with pytest.raises(InputError) as info:
        load_predictions(path, "strict")
    message = str(info.value)
    assert message.startswith(path)
    assert where in message
    assert problem in message


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_predictions(str(tmp_path / "nope.json"))
    with pytest.raises(InputError, match="is a directory"):
        load_annotations(str(tmp_path))


def test_annotation_without_id(tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", json.dumps([{"evaluator": "x", "evaluator_kwargs": {}}]))
    with pytest.raises(InputError, match="record 0: annotation has no question_id"):
        load_annotations(path, "strict")
    annotations, warnings = load_annotations(path, "rome")
    assert list(annotations) == ["None"]
    assert "'None'" in warnings[0]


def _ids(n: int) -> list[dict[str, Any]]:
    return [
        {
            "question_id": f"q{i}",
            "evaluator": "choices_matching",
            "evaluator_kwargs": {"label": "A"},
        }
        for i in range(n)
    ]


def test_pairing_rome_counts_like_the_reference() -> None:
    annotations = {a["question_id"]: a for a in _ids(8)}
    preds = [
        {"question_id": "q0", "answer": "A"},
        {"question_id": "q1", "answer": "A"},
        {"question_id": "q0", "answer": "B"},
    ]
    paired = pair(annotations, preds, "rome")
    assert len(paired.pairs) == 3  # the duplicate counts twice
    assert paired.duplicates == ["q0"]
    assert paired.missing == ["q2", "q3", "q4", "q5", "q6", "q7"]
    assert any(
        "6 annotation(s) without a prediction (first: q2, q3, q4, q5, q6, ...)" in w
        for w in paired.warnings
    )
    with pytest.raises(
        InputError, match="1 prediction\\(s\\) without an annotation \\(first: zz\\)"
    ):
        pair(annotations, [*preds, {"question_id": "zz", "answer": "A"}], "rome")


def test_pairing_strict_grades_each_id_once_and_reports() -> None:
    annotations = {a["question_id"]: a for a in _ids(3)}
    preds: list[dict[str, Any]] = [
        {"question_id": "q0", "answer": "A"},
        {"question_id": "zz", "answer": "A"},
        {"question_id": "q0", "answer": "B"},
        {"question_id": 1, "answer": "A"},
    ]
    paired = pair(annotations, preds, "strict")
    assert [p["answer"] for p, _ in paired.pairs] == ["A"]  # q1 is "q1", not 1
    assert paired.unmatched == ["zz", "1"]
    text = " | ".join(paired.warnings)
    assert "2 prediction(s) without an annotation (first: zz, 1); not graded" in text
    assert "1 repeated prediction id(s) (first: q0); only the first of each is graded" in text
    assert "2 annotation(s) without a prediction (first: q1, q2)" in text


def test_pairing_requires_answer_and_evaluator() -> None:
    annotations: dict[str, dict[str, Any]] = {
        "a": {"question_id": "a", "evaluator": "choices_matching"}
    }
    with pytest.raises(
        InputError, match="record a: annotation must include 'evaluator' and 'evaluator_kwargs'"
    ):
        pair(annotations, [{"question_id": "a", "answer": "A"}], "strict")
    annotations["a"]["evaluator_kwargs"] = {"label": "A"}
    with pytest.raises(InputError, match="record a: prediction has no 'answer'"):
        pair(annotations, [{"question_id": "a"}], "strict")
    with pytest.raises(InputError, match="no prediction to grade"):
        pair(annotations, [], "rome")


def test_integer_ids_match_strings() -> None:
    annotations = {"1": {"question_id": 1, "evaluator": "x", "evaluator_kwargs": {}}}
    paired = pair(annotations, [{"question_id": 1, "answer": "A"}], "rome")
    assert len(paired.pairs) == 1


def test_a_prediction_with_no_question_id_is_named_by_its_place() -> None:
    # It was reported as the id "None", which no file holds.
    annotations = {a["question_id"]: a for a in _ids(2)}
    preds: list[dict[str, Any]] = [
        {"question_id": "q0", "answer": "A"},
        {"answer": "A"},
        {"question_id": None, "answer": "B"},
    ]
    paired = pair(annotations, preds, "strict", predictions_path="p.json")
    assert paired.unmatched == ["record #1 (no question_id)", "record #2 (no question_id)"]
    assert "p.json: 2 prediction(s) without an annotation (first: record #1" in paired.warnings[0]


def test_a_bad_line_that_is_whole_is_not_called_cut_short(tmp_path: Path) -> None:
    text = '{"question_id": "a", "answer": "x"}\n{"question_id": "b", "answer": "y"}}\n'
    with pytest.raises(InputError) as info:
        load_predictions(write(tmp_path, "p.jsonl", text), "strict")
    assert "unexpected content after document" in str(info.value)
    assert "cut short" not in str(info.value)
