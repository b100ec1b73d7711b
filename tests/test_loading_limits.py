"""Inputs that parse but cannot be graded or written: empty annotations, nesting orjson cannot write."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from scorers.errors import InputError
from scorers.io.loading import load_annotations, load_predictions
from scorers.io.record_checks import WRITABLE_DEPTH, deeper_than, first_too_deep


def nested(levels: int, kind: str, inner: Any = 1) -> Any:
    value = inner
    for _ in range(levels):
        value = [value] if kind == "list" else {"k": value}
    return value


def writable(record: dict[str, Any]) -> bool:
    """What the results writer can do: dump the record inside the list of records."""
    try:
        orjson.dumps([record])
    except orjson.JSONEncodeError:
        return False
    return True


@pytest.mark.parametrize("kind", ["list", "dict"])
@pytest.mark.parametrize("inner", [1, [], {}])
def test_depth_limit_is_exactly_what_orjson_can_write(kind: str, inner: Any) -> None:
    for levels in range(WRITABLE_DEPTH - 4, WRITABLE_DEPTH + 3):
        record = {"question_id": "q", "field": nested(levels, kind, inner)}
        assert deeper_than([record]) == (not writable(record)), (levels, kind, inner)


def test_first_too_deep_finds_the_record() -> None:
    records: list[Any] = [{"a": nested(5, "list")} for _ in range(10)]
    assert first_too_deep(records) is None
    records[7] = {"a": [{"b": nested(WRITABLE_DEPTH, "dict")}]}
    records[8] = {"a": nested(WRITABLE_DEPTH + 10, "list")}
    assert first_too_deep(records) == 7
    assert first_too_deep([]) is None


def write(path: Path, value: Any) -> str:
    path.write_text(json.dumps(value))
    return str(path)


def test_empty_annotations_are_named_as_empty(tmp_path: Path) -> None:
    for name, text in (("zero.json", ""), ("blank.json", "\n \n"), ("list.json", "[]")):
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(InputError) as err:
            load_annotations(str(path))
        assert str(err.value) == f"{path}: empty: no annotations"
    with pytest.raises(InputError, match="empty: no annotations"):
        load_annotations(write(tmp_path / "obj.json", {}))


def test_annotations_nested_too_deep_name_the_record(tmp_path: Path) -> None:
    good = {"question_id": "a1", "evaluator": "choices_matching", "evaluator_kwargs": {}}
    bad = dict(good, question_id="a2", meta=nested(300, "list"))
    path = write(tmp_path / "a.json", [good, bad])
    with pytest.raises(InputError) as err:
        load_annotations(path)
    assert err.value.record == "a2" and "nested more than 253 levels" in str(err.value)
    # Just inside the limit is fine (the graded record carries it at the same depth).
    ok = dict(good, meta=nested(WRITABLE_DEPTH - 2, "list"))
    annotations, _ = load_annotations(write(tmp_path / "ok.json", [ok]))
    assert writable(annotations["a1"])


def test_predictions_nested_too_deep_name_the_line_and_record(tmp_path: Path) -> None:
    lines = [
        {"question_id": "p1", "answer": "A"},
        {"question_id": "p2", "answer": "B", "extra": nested(300, "dict")},
    ]
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    with pytest.raises(InputError) as err:
        load_predictions(str(path))
    assert (err.value.line, err.value.record) == (2, "p2")
    assert str(err.value).startswith(f"{path}:2: record p2: nested more than")


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_annotations_are_held_to_the_same_depth_limit_at_its_edge(
    tmp_path: Path, kind: str
) -> None:
    """load_annotations asks orjson first: it refuses exactly what the walk refuses."""
    for levels in range(WRITABLE_DEPTH - 3, WRITABLE_DEPTH + 3):
        record = {"question_id": "a1", "evaluator": "x", "meta": nested(levels - 1, kind)}
        path = write(tmp_path / f"a{levels}.json", [record])
        if deeper_than([record]):
            with pytest.raises(InputError, match="record a1: nested more than"):
                load_annotations(path)
        else:
            annotations, _ = load_annotations(path)
            assert writable(annotations["a1"]), levels
