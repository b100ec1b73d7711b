"""Parquet files: the published BAAI/ROME-Evaluated release and tables like it.

Read with pyarrow one row group at a time, so the Arrow buffers of only one
group are alive while the rows become the same dicts a JSON list gives
(:func:`read_rows`). Columns the release stores as JSON text
(``evaluator_kwargs``, ``usage``, ``inference_scores``, ``meta_info``) are
decoded here, where the row and the column are known, so that a cell that
does not parse is reported by both. Everything wrong with a file is an
:class:`InputError` naming the file, the row (counted from 0, as pandas and
the dataset viewer count) and the column.

:func:`write_rows` writes records back in the release's own schema
(``rome-tui export --format parquet``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import orjson

from scorers.errors import InputError
from scorers.io.jsonio import replacing

MAGIC = b"PAR1"
SUFFIXES = (".parquet", ".pq")
# Columns the release writes as JSON text.
JSON_TEXT_COLUMNS = ("evaluator_kwargs", "usage", "inference_scores", "meta_info", "review")
# Columns that must hold numbers when present (the release's float64 and int64).
NUMBER_COLUMNS = ("correct", "correct_strict", "num_inferences")
# Columns that must hold text when present (question_id may also be an integer).
TEXT_COLUMNS = ("model", "dataset", "evaluator", "reference", "judgement_response")

OnBlock = Callable[[list[Any]], None]


def is_parquet(path: str | os.PathLike[str]) -> bool:
    """A Parquet file: by its name, or by its first four bytes."""
    name = os.fspath(path)
    if name.lower().endswith(SUFFIXES):
        return True
    if not os.path.isfile(name):  # opening a pipe would block, or eat what it holds
        return False
    try:
        with open(name, "rb") as handle:
            return handle.read(4) == MAGIC
    except OSError:
        return False


def uncompressed_size(path: str) -> int:
    """The bytes of a Parquet file's data uncompressed (0 when its footer cannot be read)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(path).metadata
    except (pa.ArrowException, OSError, ValueError):
        return 0
    return sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))


def _where(row: int, record: dict[str, Any] | None = None) -> str:
    where = f"row {row}"
    if record is not None:
        qid = record.get("question_id")
        model = record.get("model")
        if qid is not None:
            where += f" ({model}/{qid})" if isinstance(model, str) and model else f" ({qid})"
    return where


def _open(path: str) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path)
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise InputError(
            path,
            f"not a readable Parquet file (truncated or corrupt: {_short(exc)}); "
            "download it again or check that it is the whole file",
        ) from None


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] or type(exc).__name__


def _check_schema(path: str, schema: Any, required: Sequence[str]) -> None:
    """Missing columns and columns of the wrong type, named before any row is read."""
    import pyarrow.types as t

    names = list(schema.names)
    missing = [c for c in required if c not in names]
    if missing:
        raise InputError(
            path,
            f"column {', '.join(repr(c) for c in missing)} missing (every row needs it; "
            f"the file has: {', '.join(names)})",
        )
    for name in names:
        kind = schema.field(name).type
        if t.is_null(kind):
            continue
        if name in NUMBER_COLUMNS and not (
            t.is_floating(kind) or t.is_integer(kind) or t.is_boolean(kind)
        ):
            raise InputError(
                path, f"column {name!r} is {kind}, expected a number (float64 or int64)"
            )
        text = t.is_string(kind) or t.is_large_string(kind)
        if name in TEXT_COLUMNS and not text:
            raise InputError(path, f"column {name!r} is {kind}, expected a string")
        if name == "question_id" and not (text or t.is_integer(kind)):
            raise InputError(path, f"column 'question_id' is {kind}, expected a string or integer")


def _rows_of(path: str, handle: Any, group: int, start: int) -> list[dict[str, Any]]:
    """One row group as dicts; a group that cannot be decoded names its rows and column."""
    import pyarrow as pa

    names = handle.schema_arrow.names
    try:
        table = handle.read_row_group(group)
        columns = [column.to_pylist() for column in table.columns]
    except (pa.ArrowException, OSError, ValueError) as exc:
        rows = handle.metadata.row_group(group).num_rows
        bad = None
        for name in names:  # find the column at fault
            try:
                handle.read_row_group(group, columns=[name]).column(0).to_pylist()
            except (pa.ArrowException, OSError, ValueError):
                bad = name
                break
        column = f", column {bad!r}" if bad is not None else ""
        raise InputError(
            path,
            f"rows {start}-{start + rows - 1}{column} cannot be read (truncated or corrupt: "
            f"{_short(exc)})",
        ) from None
    return [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]


def _decode(path: str, rows: list[dict[str, Any]], start: int, names: Iterable[str]) -> None:
    """Decode the JSON-text columns in place."""
    columns = [n for n in JSON_TEXT_COLUMNS if n in names]
    if not columns:
        return
    loads = orjson.loads
    for offset, record in enumerate(rows):
        for name in columns:
            value = record[name]
            if type(value) is str and value[:1] in ("{", "["):
                try:
                    record[name] = loads(value)
                except orjson.JSONDecodeError as exc:
                    raise InputError(
                        path,
                        f"{_where(start + offset, record)}, column {name!r}: not valid JSON "
                        f"({exc.msg}): {value[:80]!r}",
                    ) from None
            elif name == "evaluator_kwargs" and type(value) is str:
                raise InputError(
                    path,
                    f"{_where(start + offset, record)}, column 'evaluator_kwargs': not a JSON "
                    f"object: {value[:80]!r}",
                )


def read_rows(
    path: str,
    *,
    required: Sequence[str] = ("question_id",),
    on_block: OnBlock | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Every row of a Parquet file as a dict, in file order, with warnings.

    ``on_block`` sees each row group's rows as soon as they are decoded.
    """
    handle = _open(path)
    try:
        schema = handle.schema_arrow
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several kinds for a bad footer
        raise InputError(path, f"not a readable Parquet file ({_short(exc)})") from None
    _check_schema(path, schema, required)
    names = set(schema.names)
    records: list[dict[str, Any]] = []
    start = 0
    for group in range(handle.num_row_groups):
        rows = _rows_of(path, handle, group, start)
        _decode(path, rows, start, names)
        if "question_id" in names:
            for offset, record in enumerate(rows):
                if record["question_id"] is None:
                    raise InputError(
                        path,
                        f"row {start + offset}, column 'question_id': null (every row needs one)",
                    )
        if on_block is not None:
            on_block(rows)
        records.extend(rows)
        start += len(rows)
    # JSON text is how Parquet stores these columns (the release does): no warning for it.
    return records, []


# --- writing --------------------------------------------------------------------------


def cell(value: Any) -> Any:
    """A value as the release stores it: objects and lists as JSON text."""
    if isinstance(value, (dict, list)):
        # As Python's json.dumps writes it, as the release's JSON-text columns are.
        return json.dumps(value, ensure_ascii=False, default=str)
    return value


def write_rows(path: str, rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> None:
    """Write ``rows`` as Parquet with ``columns`` in order, atomically (``jsonio.replacing``).

    Objects and lists become JSON text as in the release (``review`` too); a
    column whose values are all numbers is written as float64 (``correct``)
    or int64.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrays = {}
    for name in columns:
        values = [cell(row.get(name)) for row in rows]
        kinds = {type(v) for v in values if v is not None}
        if name in ("correct", "correct_strict") or kinds == {float} or kinds == {int, float}:
            arrays[name] = pa.array(
                [None if v is None else float(v) for v in values], type=pa.float64()
            )
        elif kinds <= {int} and kinds:
            arrays[name] = pa.array(values, type=pa.int64())
        elif kinds <= {bool} and kinds:
            arrays[name] = pa.array(values, type=pa.bool_())
        else:
            arrays[name] = pa.array(
                [None if v is None else v if isinstance(v, str) else str(v) for v in values],
                type=pa.string(),
            )
    table = pa.table(arrays)
    with replacing(path) as handle:
        pq.write_table(table, handle)
