"""Large files read a block of records at a time (a pretty-printed or compact array,
JSON Lines), so only one block's objects are held; see :func:`record_stream`.

A file that turns out not to be laid out for this raises :class:`Unstreamable`
and is read whole by :func:`scorers.io.parse.parse_file`.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import orjson

from scorers.errors import InputError
from scorers.io import nonfinite
from scorers.io.jsonio import BOM, not_utf8

# Anything but whitespace: blank lines between JSON Lines records are skipped.
NON_BLANK = re.compile(rb"\S")

# Bytes read at a time when streaming: small blocks parse faster (cache), hold less, and
# a graded piece's answer from a forked grading process (~1.8x its bytes) fits in a pipe
# (scorers.grade.pool).
_BLOCK = 256 << 10
_LINES_PER_BLOCK = 128  # JSON Lines records in one Block

# Called with each run of records a streamed parse has just read, in file
# order, so that work on them can start before the file is read to its end.
# A hint only: the parse may still fail or fall back to reading the whole file.
OnBlock = Callable[[list[Any]], None]
_PRETTY_ARRAY_HEAD = re.compile(rb"\s*\[(\s*\n\s*)\{")
_COMPACT_ARRAY_HEAD = re.compile(rb"[ \t\r\n]*\[[ \t]*\{")
_CUTS_TRIED = 16  # candidate cuts of a compact array tried before reading on
_COMPACT_MAX = 16 << 20  # bytes of a compact array held without a cut: read it whole then


class Unstreamable(Exception):
    """A file that looked streamable turned out not to be: read it whole instead."""


@dataclass
class Block:
    """A run of consecutive top-level records of a streamed file."""

    records: list[Any]
    start: int  # the index in the file of the first record
    lines: list[int] | None  # JSON Lines: the 1-based line of each record
    found: list[nonfinite.Found]  # NaN/Infinity read as null, indices counted in the file


@dataclass
class Piece:
    """Where a Block lies in its file, before it is parsed: ``size`` bytes from
    ``offset``. An array's piece is parsed as ``[`` + those bytes + ``]`` (no
    ``]`` for the last, which runs to the file's end and holds the array's own);
    JSON Lines' are whole lines, the first of them line ``line``, their first
    record the file's ``index``-th. Being only offsets, a piece can be parsed by
    another process (``scorers.grade.pool``)."""

    offset: int
    size: int
    array: bool
    last: bool = False
    line: int = 1
    index: int = 0
    # A compact array's records, parsed already to find the cut (else None).
    records: list[Any] | None = field(default=None, repr=False)


@dataclass
class RecordStream:
    """A large pretty-printed array or JSON Lines file, to be read a Block at a time."""

    path: str
    pieces: Iterator[Piece]
    jsonl: bool
    warnings: list[str]

    @property
    def blocks(self) -> Iterator[Block]:
        """The pieces parsed, in order."""
        start = 0
        with open(self.path, "rb") as handle:
            for piece in self.pieces:
                block = self.block(handle, piece, start)
                start += len(block.records)
                yield block

    def block(self, handle: BinaryIO, piece: Piece, start: int) -> Block:
        """``piece`` read from ``handle`` (this file) and parsed, its first record being the
        file's ``start``-th (for the indices of NaN/Infinity found)."""
        if piece.records is not None:
            return Block(piece.records, start, None, [])
        data = os.pread(handle.fileno(), piece.size, piece.offset)
        if len(data) != piece.size:
            raise Unstreamable  # the file changed since it was cut
        found: list[nonfinite.Found] = []
        if piece.array:
            parsed = _piece(b"".join((b"[", data, b"" if piece.last else b"]")), start, found)
            if parsed is None:
                raise Unstreamable
            return Block(parsed, start, None, found)
        records: list[Any] = []
        numbers: list[int] = []
        for number, line in enumerate(io.BytesIO(data), piece.line):
            if not NON_BLANK.search(line):
                continue
            try:
                records.append(line_value(line, start + len(records), found))
            except orjson.JSONDecodeError as exc:
                if not piece.index and not records:
                    raise Unstreamable from None  # e.g. a pretty-printed object: "{" alone
                raise line_error(self.path, line, exc, number) from None
            numbers.append(number)
        return Block(records, start, numbers, found)


def record_stream(path: str) -> RecordStream | None:
    """The file's records a Block at a time, or None when it is not laid out for that
    (then :func:`parse_file` reads it whole).

    orjson copies its whole input before parsing, so reading a 500 MB file at
    once costs the file, the copy and the objects: three times the file. A
    pretty-printed array is cut where one element ends and the next begins
    (``},`` + the indentation + ``{``: a raw newline cannot occur inside a JSON
    string), JSON Lines at newlines, so only one block's objects need be held.
    Each piece is parsed as a complete array: a cut that is not between two
    elements leaves an unbalanced piece that fails to parse, and iterating then
    raises :class:`Unstreamable` (as does JSON Lines whose first line is not a
    value, or that holds a single record, which is one JSON value). An invalid
    JSON Lines record after the first is an InputError naming its line.
    """
    if not os.path.isfile(path):  # a pipe: parse_file refuses it before opening it
        return None
    try:
        with open(path, "rb") as handle:
            head = handle.read(_BLOCK)
    except OSError:
        return None
    bom = head.startswith(BOM)
    start = len(BOM) if bom else 0
    warnings = [bom_warning(path)] if bom else []
    match = _PRETTY_ARRAY_HEAD.match(head, start)
    if match is not None:
        return RecordStream(path, _array_pieces(path, match.group(1)), False, warnings)
    if _COMPACT_ARRAY_HEAD.match(head, start) is not None:
        return RecordStream(path, _compact_pieces(path, start), False, warnings)
    first = NON_BLANK.search(head, start)
    if first is None or head[first.start()] != ord("{"):
        return None
    return RecordStream(path, _line_pieces(path, start), True, warnings)


def _array_pieces(path: str, indent: bytes) -> Iterator[Piece]:
    separator = b"}," + indent + b"{"
    with open(path, "rb") as handle:
        head = handle.read(_BLOCK)
        match = _PRETTY_ARRAY_HEAD.match(head, len(BOM) if head.startswith(BOM) else 0)
        if match is None:
            raise Unstreamable  # the file changed since it was looked at
        offset = match.end() - 1  # the first element's "{"
        # The text not cut yet, from file[offset]: a piece ends with the "}" of a
        # separator, and the next begins after its ",".
        buffer = bytearray(memoryview(head)[offset:])
        del head
        searched = 0  # no separator starts before this offset
        while True:
            block = handle.read(_BLOCK)
            if not block:
                yield Piece(offset, len(buffer), array=True, last=True)
                return
            buffer += block
            del block
            cut = buffer.rfind(separator, searched)
            if cut == -1:
                searched = max(0, len(buffer) - len(separator) + 1)
                continue
            yield Piece(offset, cut + 1, array=True)
            del buffer[: cut + 2]
            offset += cut + 2
            searched = 0


def _compact_pieces(path: str, start: int) -> Iterator[Piece]:
    """An array of objects written without newlines (``json.dump`` without indent).

    An element ends with ``}``, then ``,``, then (maybe after spaces) the next
    ``{``; the same bytes occur inside a record (a list of objects, a string), so
    each candidate cut, from the last, is tried by parsing the piece up to it as
    an array: only a cut between two elements of the top-level array parses.
    """
    with open(path, "rb") as handle:
        handle.seek(start)
        head = handle.read(_BLOCK)
        at = head.index(b"[")
        buffer = bytearray(b"[")
        buffer += memoryview(head)[at + 1 :]
        offset = start + at + 1  # the file offset of buffer[1]
        del head
        while True:
            block = handle.read(_BLOCK)
            if not block:
                yield Piece(offset, len(buffer) - 1, array=True, last=True)
                return
            buffer += block
            del block
            parsed, cut = _compact_piece(buffer)
            if parsed is None:
                if len(buffer) > _COMPACT_MAX:
                    raise Unstreamable
                continue
            yield Piece(offset, cut, array=True, records=parsed)
            buffer[cut + 1] = ord("[")
            del buffer[: cut + 1]
            offset += cut + 1


def _compact_piece(buffer: bytearray) -> tuple[list[Any] | None, int]:
    """The elements before the last cut of ``buffer`` that parses, and the cut (the
    offset of its ``}``); (None, -1) when none of the last few does. Standard JSON
    only: a piece with NaN in it is read with the file (then whole)."""
    end = len(buffer)
    for _ in range(_CUTS_TRIED):
        cut = buffer.rfind(b"},", 0, end)
        if cut == -1:
            return None, -1
        end = cut
        following = NON_BLANK.search(buffer, cut + 2)
        if following is None or buffer[following.start()] != ord("{"):
            continue
        buffer[cut + 1] = ord("]")
        try:
            with memoryview(buffer) as view:
                parsed = orjson.loads(view[: cut + 2])
        except orjson.JSONDecodeError:
            continue
        finally:
            buffer[cut + 1] = ord(",")
        if isinstance(parsed, list):
            return parsed, cut
    return None, -1


def _piece(data: Any, offset: int, found: list[nonfinite.Found]) -> Any:
    """A piece of a streamed array parsed; None when it is not valid JSON. NaN and
    Infinity are read as null (``nonfinite``), each recorded in ``found``."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        lenient = nonfinite.loads(data)
        if lenient is None or not isinstance(lenient[0], list):
            return None
        found += nonfinite.shifted(lenient[1], offset)
        return lenient[0]


def line_value(line: Any, index: int, found: list[nonfinite.Found]) -> Any:
    """One JSON Lines record; orjson's error when it is not JSON even with NaN allowed."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        lenient = nonfinite.loads(line)
        if lenient is None:
            raise
        found += [(index, path, word) for _, path, word in lenient[1]]
        return lenient[0]


def _line_pieces(path: str, start: int) -> Iterator[Piece]:
    """JSON Lines, a Piece every _LINES_PER_BLOCK non-blank lines."""
    with open(path, "rb") as handle:
        handle.seek(start)
        offset = start  # where the piece being gathered begins
        end = start
        first = 1  # its first line
        count = 0  # records in the pieces yielded
        held = 0  # records in the piece being gathered
        number = 0
        for number, line in enumerate(handle, 1):
            end += len(line)
            if NON_BLANK.search(line):
                held += 1
                if held >= _LINES_PER_BLOCK:
                    yield Piece(offset, end - offset, array=False, line=first, index=count)
                    count += held
                    held = 0
                    offset, first = end, number + 1
        if count + held == 1:
            raise Unstreamable  # a one-line file is one JSON value, as when parsed whole
        if held:
            yield Piece(offset, end - offset, array=False, line=first, index=count)


def line_error(
    path: str, line: bytes | memoryview, exc: orjson.JSONDecodeError, number: int
) -> InputError:
    """A JSON Lines record that does not parse, named by its line: not UTF-8, or orjson's
    message (the whole-file and the streamed reads say the same)."""
    encoding = not_utf8(line)
    if encoding is not None:
        return InputError(path, encoding[0], line=number)
    # A line cut short said "unexpected control character in string" (its own newline,
    # inside the unclosed string) or "unexpected end of data": say what that means.
    whole = bytes(line).decode("utf-8", "replace").rstrip()
    cut = "; the line ends before its record does (cut short?)" if exc.pos >= len(whole) else ""
    return InputError(
        path, f"invalid JSON Lines record: {exc.msg} (column {exc.colno}){cut}", line=number
    )


def bom_warning(path: str) -> str:
    """The warning for a file that starts with a UTF-8 BOM, streamed or read whole."""
    return f"{path}: starts with a UTF-8 BOM (ignored; the reference grader cannot read it)"
