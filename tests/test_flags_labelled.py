"""The labelled set: per-flag precision and recall targets, and exact evidence spans."""

from __future__ import annotations

import pytest
from flags_fixtures import as_record, assert_spans_exact, labelled_items, run

from scorers.records import FLAG_KINDS, HEURISTIC_FLAG_KINDS, response_texts


def test_labelled_set_is_large_and_covers_every_flag_with_hard_negatives() -> None:
    items = labelled_items()
    assert len(items) >= 80
    assert len({i["id"] for i in items}) == len(items)
    for kind in HEURISTIC_FLAG_KINDS:
        assert kind in FLAG_KINDS
        positives = [i for i in items if kind in i["expected"]]
        assert len(positives) >= 5, kind
    # multi-paragraph traces and Gemini-style summaries are both present
    # (a trace may sit in the answer as a <think> block, with no "reason" at all)
    traces = [response_texts(as_record(i)).reasoning for i in items]
    assert sum("\n\n" in t for t in traces) >= 60
    assert sum(t.lstrip().startswith("**") for t in traces) >= 15
    for item in items:
        assert set(item["expected"]) <= set(HEURISTIC_FLAG_KINDS), item["id"]


@pytest.fixture(scope="module")
def results() -> list[tuple[dict, set[str]]]:
    out = []
    for item in labelled_items():
        found = run(as_record(item))
        out.append((item, {f["kind"] for f in found}))
    return out


@pytest.mark.parametrize("kind", HEURISTIC_FLAG_KINDS)
def test_precision_and_recall_targets(kind: str, results: list[tuple[dict, set[str]]]) -> None:
    tp = sum(1 for item, got in results if kind in got and kind in item["expected"])
    fp = [item["id"] for item, got in results if kind in got and kind not in item["expected"]]
    fn = [item["id"] for item, got in results if kind not in got and kind in item["expected"]]
    precision = tp / (tp + len(fp)) if tp + len(fp) else 1.0
    recall = tp / (tp + len(fn)) if tp + len(fn) else 1.0
    assert precision >= 0.9, f"{kind}: false alarms {fp}"
    assert recall >= 0.8, f"{kind}: misses {fn}"


def test_every_evidence_span_is_exact_text_of_its_field() -> None:
    for item in labelled_items():
        rec = as_record(item)
        found = run(rec)
        assert_spans_exact(rec, found)
        texts = response_texts(rec)
        for f in found:
            assert f["kind"] in FLAG_KINDS
            if f["kind"] != "abstained" or texts.answer.strip():
                assert f["evidence"], f"{item['id']}: {f['kind']} without evidence"
