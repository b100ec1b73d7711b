"""One question_id annotated more than once: refused in strict mode when the targets differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorers.errors import InputError
from scorers.io.loading import differences, load_annotations


def _annotation(qid: str, label: str = "D", **extra: Any) -> dict[str, Any]:
    return {
        "question_id": qid,
        "question": "Which gear turns fastest?",
        "reference": label,
        "evaluator": "choices_matching",
        "evaluator_kwargs": {"label": label},
        "task": "diagrams",
        **extra,
    }


def _write(tmp_path: Path, records: list[dict[str, Any]], lines: bool = False) -> str:
    path = tmp_path / ("a.jsonl" if lines else "a.json")
    if lines:
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    else:
        path.write_text(json.dumps(records, indent=2))
    return str(path)


def test_strict_refuses_two_targets_and_names_both_records(tmp_path: Path) -> None:
    records = [_annotation("g1"), _annotation("g2"), _annotation("g3"), _annotation("g2", "A")]
    with pytest.raises(InputError) as caught:
        load_annotations(_write(tmp_path, records), "strict")
    message = str(caught.value)
    assert "question_id g2 is annotated twice with different targets" in message
    assert "records #1 and #3" in message
    assert "evaluator_kwargs.label: 'D' vs 'A'" in message and "reference: 'D' vs 'A'" in message
    assert caught.value.exit_code == 2


def test_strict_names_the_lines_of_json_lines(tmp_path: Path) -> None:
    records = [_annotation("g1", "B"), _annotation("g1", "B", evaluator="number_matching")]
    with pytest.raises(InputError, match=r"lines 1 and 2: evaluator: 'choices_matching' vs"):
        load_annotations(_write(tmp_path, records, lines=True), "strict")


def test_identical_copies_only_warn(tmp_path: Path) -> None:
    records = [_annotation("g1"), _annotation("g2"), _annotation("g1")]
    loaded, warnings = load_annotations(_write(tmp_path, records), "strict")
    assert list(loaded) == ["g1", "g2"]
    [warning] = [w for w in warnings if "duplicate" in w]
    assert "1 duplicate annotation id(s) (first: g1); the last of each is used" in warning


def test_copies_that_differ_outside_the_target_warn_with_the_difference(tmp_path: Path) -> None:
    records = [_annotation("g1"), _annotation("g1", task="charts")]
    loaded, warnings = load_annotations(_write(tmp_path, records), "strict")
    assert loaded["g1"]["task"] == "charts"
    assert any("differ (first: g1 (task: 'diagrams' vs 'charts'))" in w for w in warnings)


def test_rome_mode_keeps_the_last_and_says_what_differed(tmp_path: Path) -> None:
    records = [_annotation("g1"), _annotation("g1", "E")]
    loaded, warnings = load_annotations(_write(tmp_path, records), "rome")
    assert loaded["g1"]["evaluator_kwargs"] == {"label": "E"}
    [warning] = [w for w in warnings if "duplicate" in w]
    assert "evaluator_kwargs.label: 'D' vs 'E'" in warning
    assert "as in the reference grader" in warning


def test_differences_reads_nested_kwargs_and_absent_fields() -> None:
    a = {"evaluator_kwargs": {"order": ["A", "B"], "units": []}, "task": "x"}
    b = {"evaluator_kwargs": {"order": ["B", "A"]}, "task": "x", "extra": 1}
    assert differences(a, b) == [
        "evaluator_kwargs.order: ['A', 'B'] vs ['B', 'A']",
        "evaluator_kwargs.units: [] vs (absent)",
        "extra: (absent) vs 1",
    ]
