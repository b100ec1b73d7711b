"""Shared helpers for the behaviour-flag tests (scorers/flags)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from scorers.flags import behaviour as flags
from scorers.flags.flagging import FlagContext
from scorers.records import Flag, response_texts

DATA = Path(__file__).parent / "data" / "flags"
LABELLED = DATA / "labelled.json"
_NOT_RECORD = ("expected", "note", "id", "split", "label_note", "source", "style")


def labelled_items(path: Path = LABELLED, split: str | None = None) -> list[dict[str, Any]]:
    """The items of a labelled set, or of one of its splits (``dev`` or ``test``)."""
    items: list[dict[str, Any]] = orjson.loads(path.read_bytes())["items"]
    return [i for i in items if split is None or i.get("split", "test") == split]


def as_record(item: dict[str, Any]) -> dict[str, Any]:
    record = {k: v for k, v in item.items() if k not in _NOT_RECORD}
    record["question_id"] = item.get("id", "q")
    return record


def record(
    reason: str,
    answer: str,
    evaluator: str = "number_matching",
    kwargs: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "question_id": "q1",
        "reason": reason,
        "answer": answer,
        "evaluator": evaluator,
        "evaluator_kwargs": kwargs if kwargs is not None else {"value_to_match": 1},
        "reference": "",
        **extra,
    }


def run(rec: dict[str, Any], ctx: FlagContext | None = None) -> list[Flag]:
    return list(flags.detect(rec, response_texts(rec), ctx or FlagContext()))


def kinds(rec: dict[str, Any], ctx: FlagContext | None = None) -> set[str]:
    return {f["kind"] for f in run(rec, ctx)}


def assert_spans_exact(rec: dict[str, Any], found: list[Flag]) -> None:
    texts = response_texts(rec)
    for f in found:
        assert f["source"] == "heuristic"
        for ev in f["evidence"]:
            source = texts.reasoning if ev["field"] == "reasoning" else texts.answer
            assert ev["field"] in ("reasoning", "answer")
            assert 0 <= ev["start"] <= ev["end"] <= len(source)
            assert ev["text"] == source[ev["start"] : ev["end"]]
