"""The second graders' labels: every one names an item of the batches it covers, with a valid label.

benchmarks/strict_label_agreement.py reads them for aggregate figures only.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).parent / "data"


def test_second_labels_name_test_items_with_valid_labels() -> None:
    second = json.loads((DATA / "strict_agreement" / "second_labels.json").read_text("utf-8"))
    split = {
        case["id"]: case["split"]
        for name in ("blind_hard_cases3.json", "blind_hard_cases4.json")
        for case in json.loads((DATA / "strict" / name).read_text("utf-8"))
    }
    ids = [row["id"] for row in second["items"]]
    assert len(ids) == len(set(ids))
    assert set(ids) == {i for i, part in split.items() if part == "test"}
    for row in second["items"]:
        assert row["label"] in (0, 0.5, 1), row["id"]
        assert isinstance(row["doubtful"], bool), row["id"]


def test_later_second_labels_name_items_of_batches_15_to_20() -> None:
    """Test halves of batches 15-18, both halves of 19 and 20, each id once, labels valid."""
    second = json.loads(
        (DATA / "strict_agreement" / "second_labels_b15_20.json").read_text("utf-8")
    )
    split = {}
    for batch in range(15, 21):
        cases = json.loads((DATA / "strict" / f"blind_hard_cases{batch}.json").read_text("utf-8"))
        for case in cases["items"] if isinstance(cases, dict) else cases:
            split[case["id"]] = (batch, case["split"])
    ids = [row["id"] for row in second["items"]]
    assert len(ids) == len(set(ids))
    assert set(ids) == {i for i, (batch, part) in split.items() if part == "test" or batch >= 19}
    for row in second["items"]:
        assert row["label"] in (0, 0.5, 1), row["id"]
        assert isinstance(row["doubtful"], bool), row["id"]


def test_second_labels_of_batches_23_and_24_name_each_item_once() -> None:
    second = json.loads(
        (DATA / "strict_agreement" / "second_labels_b23_24.json").read_text("utf-8")
    )
    wanted = set()
    for batch in (23, 24):
        cases = json.loads((DATA / "strict" / f"blind_hard_cases{batch}.json").read_text("utf-8"))
        wanted |= {case["id"] for case in (cases["items"] if isinstance(cases, dict) else cases)}
    ids = [row["id"] for row in second["items"]]
    assert len(ids) == len(set(ids)) and set(ids) == wanted
    for row in second["items"]:
        assert row["label"] in (0, 0.5, 1), row["id"]
        assert isinstance(row["doubtful"], bool), row["id"]
