"""Grading in two processes gives the serial result; writing frees orjson's UTF-8 copies."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from scorers import grading
from scorers.errors import InputError
from scorers.results import ResultsPaths, RunSettings, save_results, updated_bytes

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the forked worker exists on Linux only"
)

_FINALS = {
    "choices_matching": ({"label": "B"}, ["Final Answer: B", "**Final Answer:** C", "Option b"]),
    "number_matching": ({"value_to_match": 1200}, ["Answer: 1,200", "1.2e3 m", "no idea"]),
    "ordered_list_matching": ({"order": ["A", "B", "C"]}, ["A, B, C", "Answer: C → B → A"]),
    "key_items_matching": (
        {"key_items": [["Monterrey"], ["Seattle Sounders", "Sounders"]]},
        ["Monterrey and the Seattle Sounders", "Only Monterrey"],
    ),
    "location_matching": (
        {"location_fine_grained": ["Zürich HB"], "location_coarse_grained": ["Zürich"]},
        ["Final Answer: Zürich HB", "Somewhere in Zurich", "Genève"],
    ),
    "interval_matching": ({"interval": ["1:20", "1:40"], "units": []}, ["Answer: 1:30", "2:10"]),
}


def _inputs(n: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    pairs = []
    names = sorted(_FINALS)
    for i in range(n):
        name = names[i % len(names)]
        kwargs, finals = _FINALS[name]
        final = finals[i % len(finals)]
        reasoning = f"Étape {i}: je compte 12 × 3 = 36. " * 40
        gt = {
            "question_id": f"q{i}",
            "question": f"Question {i}?",
            "reference": "",
            "task": "abc"[i % 3],
            "evaluator": name,
            "evaluator_kwargs": kwargs,
        }
        pred: dict[str, Any] = {"question_id": f"q{i}", "question": f"Question {i}?"}
        if i % 7 == 3:
            pred["answer"] = {"inference_1": final, "inference_0": f"<think>x</think>{final}"}
        elif i % 11 == 5:
            pred["answer"] = "Error code: 500"
        elif i % 13 == 6:
            pred["answer"] = None
        elif i % 2:
            pred["answer"] = f"<think>{reasoning}</think>\n{final}"
        else:
            pred["answer"] = final
            pred["reason"] = reasoning
        pairs.append((pred, gt))
    return pairs


def _grade(
    pairs: list[tuple[dict[str, Any], dict[str, Any]]], settings: RunSettings, workers: int
) -> tuple[bytes, list[str]]:
    fresh = orjson.loads(orjson.dumps(pairs))  # grading mutates the predictions
    records, warnings = grading.grade_pairs([(p, g) for p, g in fresh], settings, workers=workers)
    return orjson.dumps(records), warnings


@pytest.fixture
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grading, "PARALLEL_MIN_ITEMS", 1)
    monkeypatch.setenv("ROME_TUI_JOBS", "2")


@pytest.mark.parametrize("mode", ["strict", "rome"])
def test_two_processes_give_the_serial_records(small_threshold: None, mode: str) -> None:
    pairs = _inputs(120)
    if mode == "rome":  # the reference crashes on a null answer: keep those out
        pairs = [(p, g) for p, g in pairs if isinstance(p["answer"], (str, dict))]
    settings = RunSettings(mode=mode, reject_filter=mode == "strict")
    assert grading.grading_workers(len(pairs), settings) == 2
    serial = _grade(pairs, settings, workers=1)
    forked = _grade(pairs, settings, workers=2)
    assert forked == serial
    assert b"rome_strict_disagree" in serial[0]  # the records really were graded


def test_regrading_own_output_in_two_processes(small_threshold: None) -> None:
    settings = RunSettings(mode="strict", reject_filter=True)
    graded, _ = _grade(_inputs(60), settings, workers=1)
    again = [
        (record, gt) for record, (_, gt) in zip(orjson.loads(graded), _inputs(60), strict=True)
    ]
    assert _grade(again, settings, workers=2) == _grade(again, settings, workers=1)


@pytest.mark.parametrize("where", [5, 100])  # first half: parent; second half: worker
def test_an_error_in_either_half_is_the_serial_error(small_threshold: None, where: int) -> None:
    pairs = _inputs(120)
    pairs[where][1]["evaluator_kwargs"] = {"labels": "B"}
    pairs[where][1]["evaluator"] = "choices_matching"
    settings = RunSettings(mode="strict")
    with pytest.raises(InputError) as serial:
        _grade(pairs, settings, workers=1)
    with pytest.raises(InputError) as forked:
        _grade(pairs, settings, workers=2)
    assert str(forked.value) == str(serial.value)
    assert forked.value.record == f"q{where}"


def test_serial_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROME_TUI_JOBS", raising=False)
    assert grading.grading_workers(10**6) == 1
    monkeypatch.setenv("ROME_TUI_JOBS", "2")
    assert grading.grading_workers(10) == 1  # too small to pay for a fork
    assert grading.grading_workers(10**6, RunSettings(use_llm_evaluator=True)) == 1


def test_writing_frees_utf8_copies_and_keeps_the_bytes(tmp_path: Path) -> None:
    settings = RunSettings(mode="rome")
    records, _ = grading.grade_pairs(
        [(p, g) for p, g in orjson.loads(orjson.dumps(_inputs(30))) if p["answer"]], settings
    )
    long_texts = [
        r["raw_answer"]
        for r in records
        if isinstance(r["raw_answer"], str) and "Étape" in r["raw_answer"]
    ]
    assert long_texts
    bare = [sys.getsizeof(t) for t in long_texts]
    expected = orjson.dumps(records, option=orjson.OPT_INDENT_2)
    # Serialised, each non-ASCII text now carries a cached UTF-8 copy.
    assert all(sys.getsizeof(t) > b for t, b in zip(long_texts, bare, strict=True))
    assert updated_bytes(records) == expected
    # The records now hold equal strings without the copy.
    after = [
        r["raw_answer"]
        for r in records
        if isinstance(r["raw_answer"], str) and "Étape" in r["raw_answer"]
    ]
    assert after == long_texts
    assert [sys.getsizeof(t) for t in after] == bare
    # rome mode's extracted answer may be the same object as the record's answer: still shared.
    for record in records:
        rome_verdict = record["review"]["verdicts"][0]
        if rome_verdict["extracted"] == record["answer"] and len(record["answer"]) > 1024:
            assert rome_verdict["extracted"] is record["answer"]
    save_results(ResultsPaths.of(tmp_path), records, settings)
    assert (tmp_path / "updated_predictions.json").read_bytes() == expected
