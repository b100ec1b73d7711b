"""The second labeller's reading: every item is a dev item of a labelled set, with known kinds.

benchmarks/flags_label_agreement.py compares it with the first labels and the detectors;
a test item here would leak the frozen split into a figure read while writing rules.
"""

from __future__ import annotations

import json
from pathlib import Path

from flags_fixtures import DATA, labelled_items

from scorers.records import HEURISTIC_FLAG_KINDS

SECOND = Path(__file__).parent / "data" / "flags_agreement" / "second_labels.json"


def test_second_labels_name_dev_items_and_known_kinds() -> None:
    second = json.loads(SECOND.read_text(encoding="utf-8"))
    first = {
        item["id"]: item for path in sorted(DATA.glob("*.json")) for item in labelled_items(path)
    }
    ids = [row["id"] for row in second["items"]]
    assert len(ids) == len(set(ids))
    for row in second["items"]:
        assert first[row["id"]]["split"] == "dev", row["id"]
        assert set(row["kinds"]) <= set(HEURISTIC_FLAG_KINDS), row["id"]
        assert isinstance(row["doubtful"], bool), row["id"]


def test_the_test_half_reading_names_every_test_item_of_its_two_sets_once() -> None:
    second = json.loads(SECOND.with_name("second_labels_test.json").read_text(encoding="utf-8"))
    first = {
        item["id"]: item for path in sorted(DATA.glob("*.json")) for item in labelled_items(path)
    }
    ids = [row["id"] for row in second["items"]]
    wanted = {
        i
        for i, item in first.items()
        if item["split"] == "test" and i.startswith(("real5-", "real6-"))
    }
    assert len(ids) == len(set(ids)) and set(ids) == wanted
    for row in second["items"]:
        assert set(row["kinds"]) <= set(HEURISTIC_FLAG_KINDS), row["id"]
        assert isinstance(row["doubtful"], bool), row["id"]


def test_the_mixed_reading_names_real_trace_items_once_and_reads_two_kinds() -> None:
    second = json.loads(SECOND.with_name("second_labels_mixed.json").read_text(encoding="utf-8"))
    real = {
        item["id"]
        for path in sorted(DATA.glob("real_traces*.json"))
        for item in labelled_items(path)
    }
    ids = [row["id"] for row in second["items"]]
    assert len(ids) == len(set(ids)) and set(ids) <= real
    read = {"answer_contradicts_reasoning", "hedged_reasoning_certain_answer"}
    for row in second["items"]:
        assert set(row["kinds"]) <= read, row["id"]
        assert isinstance(row["doubtful"], bool), row["id"]


def test_the_strata_reading_names_test_items_of_real_traces_once() -> None:
    second = json.loads(
        SECOND.with_name("second_labels_test_strata.json").read_text(encoding="utf-8")
    )
    first = {
        item["id"]: item
        for path in sorted(DATA.glob("real_traces*.json"))
        for item in labelled_items(path)
    }
    ids = [row["id"] for row in second["items"]]
    assert len(ids) == len(set(ids)) == 280
    for row in second["items"]:
        assert first[row["id"]]["split"] == "test", row["id"]
        assert set(row["kinds"]) <= set(HEURISTIC_FLAG_KINDS), row["id"]
        assert isinstance(row["doubtful"], bool), row["id"]
