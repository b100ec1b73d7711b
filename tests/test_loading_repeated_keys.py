"""A key written twice in one JSON object keeps its last value, on every reading path, as
Python's json (and so the reference grader) reads it; docs/formats.md says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorers.io.loading import load_predictions

TWICE = b'{"question_id": "q1", "answer": "first", "answer": "second"}'


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("array.json", b"[" + TWICE + b"]"),
        ("pretty.json", b"[\n  " + TWICE + b',\n  {"question_id": "q2", "answer": "x"}\n]'),
        ("lines.jsonl", TWICE + b"\n"),
        # NaN sends the record through the lenient parser (scorers.io.nonfinite)
        ("lenient.json", b"[" + TWICE[:-1] + b', "tokens": NaN}]'),
    ],
)
def test_the_last_of_a_repeated_key_is_read(tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    records, _ = load_predictions(str(path), "strict")
    assert records[0]["question_id"] == "q1" and records[0]["answer"] == "second"


def test_an_id_keyed_object_with_an_id_twice_keeps_the_last_record(tmp_path: Path) -> None:
    path = tmp_path / "keyed.json"
    path.write_bytes(
        b'{"q1": {"question_id": "q1", "answer": "first"},'
        b' "q1": {"question_id": "q1", "answer": "second"}}'
    )
    records, _ = load_predictions(str(path), "strict")
    assert [(r["question_id"], r["answer"]) for r in records] == [("q1", "second")]
