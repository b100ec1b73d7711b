"""A JSON, JSON Lines or Parquet file to its top-level value: :func:`parse_file`.

Large arrays and JSON Lines are read a block at a time (:mod:`scorers.io.streaming`),
the rest whole. NaN and Infinity are read as null and recorded; anything else
that is not JSON is an :class:`InputError` naming the file and the line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from scorers.errors import InputError
from scorers.io import nonfinite, parquet
from scorers.io.jsonio import BOM, json_error, read_bytes, require_a_file
from scorers.io.streaming import (
    NON_BLANK,
    OnBlock,
    Unstreamable,
    bom_warning,
    line_error,
    line_value,
    record_stream,
)


@dataclass
class Parsed:
    """A file's top-level JSON value, with where each record came from."""

    value: Any
    lines: list[int] | None = None  # JSONL: the 1-based line of each record
    warnings: list[str] = field(default_factory=list)
    # NaN/Infinity values read as null: (record position or key, field, word)
    nonfinite: list[nonfinite.Found] = field(default_factory=list)


def _iter_lines(data: bytes, start: int = 0) -> Iterator[tuple[int, memoryview]]:
    """Non-blank lines with their 1-based numbers, without copying the buffer."""
    view = memoryview(data)
    number = 0
    size = len(data)
    while start < size:
        end = data.find(b"\n", start)
        if end == -1:
            end = size
        number += 1
        if NON_BLANK.search(data, start, end):
            yield number, view[start:end]
        start = end + 1


def _stream(path: str, on_block: OnBlock | None = None) -> Parsed | None:
    """A streamable file (:func:`record_stream`) parsed whole, piece by piece."""
    stream = record_stream(path)
    if stream is None:
        return None
    records: list[Any] = []
    numbers: list[int] | None = [] if stream.jsonl else None
    found: list[nonfinite.Found] = []
    try:
        for block in stream.blocks:
            records += block.records
            found += block.found
            if numbers is not None and block.lines is not None:
                numbers += block.lines
            if on_block is not None:
                on_block(block.records)
    except Unstreamable:
        return None
    return Parsed(records, numbers, stream.warnings, found)


def parse_file(path: str, on_block: OnBlock | None = None) -> Parsed:
    """Parse ``path`` as JSON, JSON Lines or Parquet; InputError on anything malformed."""
    require_a_file(path)
    if parquet.is_parquet(path):
        rows, notes = parquet.read_rows(path, on_block=on_block)
        return Parsed(rows, None, notes)
    streamed = _stream(path, on_block)
    if streamed is not None:
        return streamed
    raw = read_bytes(path)
    warnings: list[str] = []
    data: bytes | memoryview = raw
    if raw.startswith(BOM):
        data = memoryview(raw)[len(BOM) :]
        warnings.append(bom_warning(path))
    # Look at the first character without copying a file that may be 500 MB.
    first = NON_BLANK.search(raw, len(raw) - len(data))
    if first is None:
        return Parsed([], None, warnings)
    found: list[nonfinite.Found] = []
    if raw[first.start()] != ord("{"):
        return Parsed(_loads(data, path, found), None, warnings, found)
    try:
        value = _whole_value(data, found)
    except orjson.JSONDecodeError as whole_error:
        lines = list(_iter_lines(raw, len(raw) - len(data)))
        if not lines:
            raise InputError(path, "empty") from None
        try:
            line_value(lines[0][1], 0, [])
        except orjson.JSONDecodeError:
            # Not JSON Lines either: report the error of the whole document.
            raise json_error(path, data, whole_error) from None
        records: list[Any] = []
        numbers = []
        for number, line in lines:
            try:
                records.append(line_value(line, len(records), found))
            except orjson.JSONDecodeError as exc:
                raise line_error(path, line, exc, number) from None
            numbers.append(number)
        return Parsed(records, numbers, warnings, found)
    # One JSON object. The reference takes any multi-line text starting with
    # "{" for JSON Lines and so fails on a pretty-printed object (spec Q5).
    end = len(raw)
    while end > 0 and raw[end - 1] in b" \t\r\n":
        end -= 1
    if raw.find(b"\n", first.start(), end) != -1:
        warnings.append(
            f"{path}: a pretty-printed JSON object; the reference grader would read it as "
            "JSON Lines and fail"
        )
    return Parsed(value, None, warnings, found)


def _whole_value(data: bytes | memoryview, found: list[nonfinite.Found]) -> Any:
    """A whole document; NaN and Infinity read as null (recorded in ``found``), and
    orjson's error when it is not JSON even with them allowed."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        lenient = nonfinite.loads(data)
        if lenient is None:
            raise
        found += lenient[1]
        return lenient[0]


def _loads(data: bytes | memoryview, path: str, found: list[nonfinite.Found]) -> Any:
    try:
        return _whole_value(data, found)
    except orjson.JSONDecodeError as exc:
        raise json_error(path, data, exc) from None
