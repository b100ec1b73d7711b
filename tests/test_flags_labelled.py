"""The labelled sets: their shape, their splits, and the detectors' figures on the dev splits.

The targets (precision >= 0.9, recall >= 0.8) are reported on the frozen ``test``
splits by benchmarks/flags_precision_recall.py; here the ``dev`` splits guard
against regressions: each kind must stay at or above the floor below.
"""

from __future__ import annotations

import pytest
from flags_fixtures import DATA, as_record, assert_spans_exact, labelled_items, run

from scorers.records import FLAG_KINDS, HEURISTIC_FLAG_KINDS, response_texts

SETS = sorted(DATA.glob("*.json"))
# (precision, recall) floors on the labelled set's dev split, a little under the
# figures at the time of writing; raise them as the detectors improve.
DEV_FLOORS = {
    "answer_contradicts_reasoning": (0.9, 0.9),
    "hedged_reasoning_certain_answer": (0.9, 0.9),
    "claims_web_search": (0.95, 0.95),
    "claims_tool_use": (0.95, 0.95),
    "abstained": (0.95, 0.9),
    "reasoning_abstains_answer_does_not": (0.9, 0.75),
    "judge_prompt_injection": (0.95, 0.95),
}


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_every_set_is_split_and_labelled_with_known_kinds(path) -> None:
    items = labelled_items(path)
    assert len({i["id"] for i in items}) == len(items)
    assert {i.get("split") for i in items} <= {"dev", "test"}
    for item in items:
        assert set(item["expected"]) <= set(HEURISTIC_FLAG_KINDS), item["id"]


def test_labelled_set_covers_every_flag_in_both_splits() -> None:
    for split in ("dev", "test"):
        items = labelled_items(split=split)
        for kind in HEURISTIC_FLAG_KINDS:
            assert sum(kind in i["expected"] for i in items) >= 5, (split, kind)


@pytest.fixture(scope="module")
def dev_results() -> list[tuple[dict, set[str]]]:
    return [
        (item, {f["kind"] for f in run(as_record(item))}) for item in labelled_items(split="dev")
    ]


@pytest.mark.parametrize("kind", HEURISTIC_FLAG_KINDS)
def test_dev_split_stays_above_its_floor(
    kind: str, dev_results: list[tuple[dict, set[str]]]
) -> None:
    tp = sum(1 for item, got in dev_results if kind in got and kind in item["expected"])
    fp = [item["id"] for item, got in dev_results if kind in got and kind not in item["expected"]]
    fn = [item["id"] for item, got in dev_results if kind not in got and kind in item["expected"]]
    precision = tp / (tp + len(fp)) if tp + len(fp) else 1.0
    recall = tp / (tp + len(fn)) if tp + len(fn) else 1.0
    low_precision, low_recall = DEV_FLOORS[kind]
    assert precision >= low_precision, f"{kind}: false alarms {fp}"
    assert recall >= low_recall, f"{kind}: misses {fn}"


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_every_flag_has_exact_evidence_and_a_confidence(path) -> None:
    for item in labelled_items(path):
        rec = as_record(item)
        found = run(rec)
        assert_spans_exact(rec, found)
        texts = response_texts(rec)
        for f in found:
            assert f["kind"] in FLAG_KINDS
            assert f.get("confidence") in ("high", "low")
            if f["kind"] != "abstained" or texts.answer.strip():
                assert f["evidence"], f"{item['id']}: {f['kind']} without evidence"
