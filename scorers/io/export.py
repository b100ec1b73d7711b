"""An adjudicated run written back as a table in the release's own schema.

``rome-tui export DIR --format parquet|jsonl``: one row per record with the
release's columns in its order (BAAI/ROME-Evaluated's, or those of the
Parquet file the run was graded from), then a ``review`` column holding the
record's review as JSON text (every verdict, the human override and its
history, the flags). ``correct`` is :func:`scorers.review.published`: the
human score in force, else the release's own grade, else the run's
``correct``; for release rows ``answer`` and ``judgement_response`` are the
release's own again. So an audited release differs from the published one
only where a reviewer decided, and can be republished as it is.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import orjson

from scorers.errors import UsageError
from scorers.io import parquet
from scorers.io.jsonio import atomic_write_bytes
from scorers.records import REVIEW_KEY
from scorers.review import published, release_verdict

FORMATS = ("parquet", "jsonl")
# BAAI/ROME-Evaluated's columns, in its order (from its dataset card).
RELEASE_COLUMNS = (
    "model",
    "dataset",
    "question_id",
    "question",
    "answer",
    "reason",
    "usage",
    "raw_answer",
    "img_path",
    "image_type",
    "image_subtype",
    "reference",
    "question_type",
    "reasoning_type",
    "meta_info",
    "evaluator",
    "evaluator_kwargs",
    "data_root",
    "correct",
    "judgement_response",
    "inference_scores",
    "num_inferences",
)


def source_columns(predictions: str | None) -> list[str] | None:
    """The columns of the Parquet file a run was graded from, if it is still there."""
    if not predictions or not os.path.isfile(predictions) or not parquet.is_parquet(predictions):
        return None
    import pyarrow.parquet as pq

    try:
        return [n for n in pq.read_schema(predictions).names if n != REVIEW_KEY]
    except (OSError, ValueError):
        return None


def columns_of(records: Sequence[dict[str, Any]], predictions: str | None = None) -> list[str]:
    """The table's columns: the source file's (else the release's) that the records
    have, then any other field of the records, then ``review``."""
    base = source_columns(predictions) or list(RELEASE_COLUMNS)
    present: dict[str, None] = {}
    for record in records:
        present.update(dict.fromkeys(record))
    columns = [c for c in base if c in present or c in RELEASE_COLUMNS]
    columns += [c for c in present if c not in columns and c != REVIEW_KEY]
    return [*columns, REVIEW_KEY]


def row_of(record: dict[str, Any]) -> dict[str, Any]:
    """One record as a row of the release: published ``correct``, the release's
    own answer and judgement where it has them."""
    row = dict(record)
    row["correct"] = published(record)
    verdict = release_verdict(record)
    if verdict is not None:
        if isinstance(verdict.get("extracted"), str):
            row["answer"] = verdict["extracted"]
        row["judgement_response"] = verdict.get("explanation")
    return row


def export(
    records: Sequence[dict[str, Any]],
    path: str,
    fmt: str,
    *,
    predictions: str | None = None,
) -> int:
    """Write ``records`` as a table to ``path`` (atomically); how many rows."""
    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    columns = columns_of(records, predictions)
    rows = [row_of(r) for r in records]
    if fmt == "parquet":
        parquet.write_rows(path, rows, columns)
    else:
        lines = []
        for row in rows:
            out = {c: parquet.cell(row.get(c)) for c in columns}
            lines.append(orjson.dumps(out, option=orjson.OPT_NON_STR_KEYS))
        atomic_write_bytes(path, b"\n".join(lines) + b"\n")
    return len(rows)
