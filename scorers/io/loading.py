"""Reading annotation and prediction files in every shape seen in the wild.

Accepted: a JSON array, a JSON object keyed by question_id (pretty-printed or
not), a single record object, or JSON Lines; an optional UTF-8 BOM; and
``evaluator_kwargs`` / ``usage`` given as JSON strings (the BAAI/ROME-Evaluated
export). Anything else is an :class:`InputError` naming the file, the line
(JSONL) or record, and the problem.

The reference grader reads fewer shapes (spec §2.1) and counts ids in its own
way (spec §2.2-2.4). ``rome`` mode reproduces its counting (duplicate
predictions count twice, missing predictions are ignored, a prediction without
an annotation stops the run) and warns where the reference would have read the
file differently; ``strict`` mode grades each id once and reports the rest.
Warnings are returned as plain strings; the caller decides where they go.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TypeGuard

import orjson

from scorers.errors import InputError
from scorers.io import nonfinite, parquet
from scorers.io.jsonio import BOM, json_error, not_utf8, read_bytes, require_a_file

FIRST_IDS = 5  # how many ids a warning quotes
_NON_BLANK = re.compile(rb"\S")
JSON_STRING_FIELDS = ("evaluator_kwargs", "usage", "inference_scores")
# orjson parses 1024 levels of nesting but writes only 254, and a record is
# written inside the list of records: a record may nest this many containers,
# itself included, or it could be read but never written back.
WRITABLE_DEPTH = 253
TOO_DEEP = (
    f"nested more than {WRITABLE_DEPTH} levels deep (rome-tui could read it but not write it back)"
)
_CONTAINERS = frozenset((dict, list))


@dataclass
class Parsed:
    """A file's top-level JSON value, with where each record came from."""

    value: Any
    lines: list[int] | None = None  # JSONL: the 1-based line of each record
    warnings: list[str] = field(default_factory=list)
    # NaN/Infinity values read as null: (record position or key, field, word)
    nonfinite: list[nonfinite.Found] = field(default_factory=list)


def deeper_than(values: list[Any], limit: int = WRITABLE_DEPTH) -> bool:
    """True when some value of ``values`` nests more than ``limit`` containers, itself included.

    Walks all the values one level at a time, so a large run costs a few list
    comprehensions per level rather than a Python loop per record; records
    rarely nest more than five levels.
    """
    level = [value for value in values if type(value) in _CONTAINERS]
    for _ in range(limit):
        level = [
            item
            for node in level
            for item in (node.values() if type(node) is dict else node)
            if type(item) in _CONTAINERS
        ]
        if not level:
            return False
    return True


def _writable_in_a_list(values: list[Any]) -> bool:
    """True when orjson can write ``values`` as one list: then no value nests more
    than WRITABLE_DEPTH containers (orjson writes 254 levels, the list is one).

    orjson checks in C what deeper_than walks in Python: for annotations, whose
    kwargs nest a few levels, several times faster. For predictions, mostly
    long texts it would copy, the walk is the cheaper. False also when orjson
    cannot write a value for another reason: the walk then decides.
    """
    try:
        orjson.dumps(values)
    except orjson.JSONEncodeError:
        return False
    return True


def first_too_deep(values: list[Any], limit: int = WRITABLE_DEPTH) -> int | None:
    """Index of the first value nested more than ``limit`` levels, or None."""
    if not deeper_than(values, limit):
        return None
    return next(i for i, value in enumerate(values) if deeper_than([value], limit))


def annotation_warnings(
    path: str, missing_id: int, duplicates: int, shown: Iterable[Any], conflicts: list[str]
) -> list[str]:
    """What both annotation readers (whole file, streamed index) warn of: ids missing,
    and duplicates graded last-wins as the reference grader does."""
    warnings = []
    if missing_id:
        warnings.append(
            f"{path}: {missing_id} annotation(s) without question_id, filed under the id 'None' as the reference does"
        )
    if duplicates:
        differing = (
            f"; {len(conflicts)} of them differ (first: {conflicts[0]})" if conflicts else ""
        )
        warnings.append(
            f"{path}: {duplicates} duplicate annotation id(s) (first: {first_ids(shown)})"
            f"{differing}; the last of each is used, as in the reference grader"
        )
    return warnings


def first_ids(ids: Iterable[Any]) -> str:
    """The first few ids of a warning, comma-separated."""
    shown = []
    for i, value in enumerate(ids):
        if i == FIRST_IDS:
            shown.append("...")
            break
        shown.append(repr(value) if not isinstance(value, str) else value)
    return ", ".join(shown)


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
        if _NON_BLANK.search(data, start, end):
            yield number, view[start:end]
        start = end + 1


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
            if not _NON_BLANK.search(line):
                continue
            try:
                records.append(_line_value(line, start + len(records), found))
            except orjson.JSONDecodeError as exc:
                if not piece.index and not records:
                    raise Unstreamable from None  # e.g. a pretty-printed object: "{" alone
                raise _line_error(self.path, line, exc, number) from None
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
    warnings = (
        [f"{path}: starts with a UTF-8 BOM (ignored; the reference grader cannot read it)"]
        if bom
        else []
    )
    match = _PRETTY_ARRAY_HEAD.match(head, start)
    if match is not None:
        return RecordStream(path, _array_pieces(path, match.group(1)), False, warnings)
    if _COMPACT_ARRAY_HEAD.match(head, start) is not None:
        return RecordStream(path, _compact_pieces(path, start), False, warnings)
    first = _NON_BLANK.search(head, start)
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
        following = _NON_BLANK.search(buffer, cut + 2)
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


def _line_value(line: Any, index: int, found: list[nonfinite.Found]) -> Any:
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
            if _NON_BLANK.search(line):
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
        warnings.append(
            f"{path}: starts with a UTF-8 BOM (ignored; the reference grader cannot read it)"
        )
    # Look at the first character without copying a file that may be 500 MB.
    first = _NON_BLANK.search(raw, len(raw) - len(data))
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
            _line_value(lines[0][1], 0, [])
        except orjson.JSONDecodeError:
            # Not JSON Lines either: report the error of the whole document.
            raise json_error(path, data, whole_error) from None
        records: list[Any] = []
        numbers = []
        for number, line in lines:
            try:
                records.append(_line_value(line, len(records), found))
            except orjson.JSONDecodeError as exc:
                raise _line_error(path, line, exc, number) from None
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


def _line_error(
    path: str, line: bytes | memoryview, exc: orjson.JSONDecodeError, number: int
) -> InputError:
    encoding = not_utf8(line)
    if encoding is not None:
        return InputError(path, encoding[0], line=number)
    return InputError(
        path, f"invalid JSON Lines record: {exc.msg} (column {exc.colno})", line=number
    )


def _json_text(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value[:1] in ("{", "[")


def needs_decoding(record: dict[str, Any]) -> bool:
    """Whether :func:`decode_json_strings` would change ``record`` (or reject it)."""
    for name in JSON_STRING_FIELDS:  # noqa: SIM110 - any() over a generator costs more per record
        if _json_text(record.get(name)):
            return True
    return False


def load_warnings(
    path: str,
    what: str,
    decoded: int,
    found: list[nonfinite.Found],
    value: Any,
    *,
    fields: str = "evaluator_kwargs/usage",
) -> list[str]:
    """The warnings a load of ``what`` ("annotations", "predictions", "records") ends with,
    worded here for every loader, whole-file or streamed: how many records had JSON-text
    fields decoded (``decode_json_strings``), and the NaN/Infinity values read as null."""
    out = []
    if decoded:
        out.append(f"{path}: {decoded} {what[:-1]}(s) with {fields} as JSON text, decoded")
    if found:
        out.append(nonfinite.warning(path, found, value, what))
    return out


def decode_json_strings(
    record: dict[str, Any],
    path: str,
    where: str | int,
    found: list[nonfinite.Found] | None = None,
) -> bool:
    """Decode fields that exports store as JSON text; True if one was decoded.
    NaN/Infinity inside them are read as null and recorded in ``found``."""
    changed = False
    for name in JSON_STRING_FIELDS:
        value = record.get(name)
        # (_json_text written out: this runs for every annotation and prediction)
        if type(value) is str and value[:1] in ("{", "["):
            try:
                record[name] = orjson.loads(value)
            except orjson.JSONDecodeError as exc:
                lenient = nonfinite.loads(value.encode())
                if lenient is None or found is None:
                    raise InputError(
                        path, f"{name} is a string but not valid JSON: {exc.msg}", record=where
                    ) from None
                record[name] = lenient[0]
                found += [(str(where), f"{name}{_dot(p)}", w) for _, p, w in lenient[1]]
            changed = True
    return changed


def _dot(path: str) -> str:
    return "" if not path else path if path.startswith("[") else "." + path


def _records_of(parsed: Parsed, path: str, what: str) -> list[tuple[Any, Any]]:
    """(where, record) pairs of a top-level list; ``where`` is a line or an index."""
    if not isinstance(parsed.value, list):
        raise InputError(path, f"expected a list of {what}")
    out = []
    for i, item in enumerate(parsed.value):
        where = parsed.lines[i] if parsed.lines is not None else i
        if not isinstance(item, dict):
            raise _bad(path, where, parsed, f"expected a JSON object, got {type(item).__name__}")
        out.append((where, item))
    return out


def _bad(path: str, where: Any, parsed: Parsed, problem: str) -> InputError:
    if parsed.lines is not None:
        return InputError(path, problem, line=where)
    return InputError(path, problem, record=where)


def _keys_differ(path: str, value: dict[str, Any], wins: str, what: str) -> list[str]:
    """A warning for records of an object keyed by question_id whose own question_id
    is another (a hand edit, a merge): which one is used is easy to get wrong."""
    differ = [
        f"{key} holds {item['question_id']!r}"
        for key, item in value.items()
        if isinstance(item, dict)
        and item.get("question_id") is not None
        and str(item["question_id"]) != str(key)
    ]
    if not differ:
        return []
    return [
        f"{path}: {len(differ)} of its {what} have a question_id other than their key "
        f"(first: {first_ids(differ)}); {wins} is used"
    ]


def _looks_like_record(value: dict[str, Any], *keys: str) -> bool:
    return "question_id" in value and any(k in value for k in keys)


# What an annotation's verdict depends on: two annotations of one question_id that
# differ here give the question two right answers, and strict mode cannot pick one.
TARGET_FIELDS = frozenset(("evaluator", "evaluator_kwargs", "reference"))
_SHOWN_DIFFERENCES = 3


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where ``a`` and ``b`` differ, as ``field.sub: A vs B`` (at most a few)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in list(a) + [k for k in b if k not in a]:
            if a.get(key, _ABSENT) != b.get(key, _ABSENT):
                where = f"{path}.{key}" if path else str(key)
                out += differences(a.get(key, _ABSENT), b.get(key, _ABSENT), where)
            if len(out) >= _SHOWN_DIFFERENCES:
                return out[:_SHOWN_DIFFERENCES]
        return out
    return [f"{path}: {_shown(a)} vs {_shown(b)}"]


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


_ABSENT = _Absent()


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _conflict(path: str, parsed: Parsed, qid: str, where: Any, differs: list[str]) -> InputError:
    """The error for two annotations of ``qid`` with different targets, naming both."""
    value = parsed.value
    first = next(
        i
        for i, item in enumerate(value)
        if isinstance(item, dict) and str(item.get("question_id")) == qid
    )
    if parsed.lines is not None:
        both = f"lines {parsed.lines[first]} and {where}"
    else:
        both = f"records #{first} and #{where} (counting from 0)"
    return InputError(
        path,
        f"question_id {qid} is annotated twice with different targets ({both}: "
        f"{'; '.join(differs)}); strict mode cannot tell which is right. Remove one, or "
        "grade with --mode rome, which uses the last as the reference grader does",
    )


def load_annotations(
    path: str, mode: str = "strict"
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Annotations keyed by ``str(question_id)``; the last of duplicate ids wins, as in the reference."""
    parsed = parse_file(path)
    warnings = parsed.warnings
    value = parsed.value
    found = parsed.nonfinite
    out: dict[str, dict[str, Any]] = {}
    decoded = 0
    if isinstance(value, dict) and _looks_like_record(value, "evaluator", "evaluator_kwargs"):
        warnings.append(
            f"{path}: a single annotation object; the reference grader would read its field names as ids"
        )
        value = [value]
        parsed = Parsed(value, None, warnings)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(item, dict):
                raise InputError(
                    path, f"expected an annotation object, got {type(item).__name__}", record=key
                )
            decoded += decode_json_strings(item, path, key, found)
            out[str(key)] = item
        warnings += _keys_differ(path, value, "the key", "annotations")
    elif isinstance(value, list):
        duplicates: list[str] = []
        conflicts: list[str] = []  # "qid (what differs)" of duplicates that are not identical
        missing_id = 0
        for where, item in _records_of(parsed, path, "annotations"):
            if "question_id" not in item or item["question_id"] is None:
                if mode != "rome":
                    raise _bad(path, where, parsed, "annotation has no question_id")
                missing_id += 1
            qid = str(item.get("question_id"))
            decoded += decode_json_strings(item, path, qid, found)
            earlier = out.get(qid)
            if earlier is not None:
                duplicates.append(qid)
                if earlier != item:
                    differs = differences(earlier, item)
                    targets = any(
                        d.split(".", 1)[0].split(":", 1)[0] in TARGET_FIELDS for d in differs
                    )
                    if targets and mode != "rome":
                        raise _conflict(path, parsed, qid, where, differs)
                    conflicts.append(f"{qid} ({'; '.join(differs)})")
            out[qid] = item
        warnings += annotation_warnings(
            path, missing_id, len(duplicates), dict.fromkeys(duplicates), conflicts
        )
    else:
        raise InputError(
            path,
            "expected a list of annotations or an object keyed by question_id, "
            f"got {type(value).__name__}",
        )
    if not out:
        raise InputError(path, "empty: no annotations")
    values = list(out.values())
    deep = None if _writable_in_a_list(values) else first_too_deep(values)
    if deep is not None:
        raise InputError(path, TOO_DEEP, record=list(out)[deep])
    warnings += load_warnings(path, "annotations", decoded, found, value)
    return out, warnings


def load_predictions(
    path: str, mode: str = "strict", *, on_block: OnBlock | None = None
) -> tuple[list[dict[str, Any]], list[str]]:
    """Predictions as a list, in file order (spec §2.3 shapes).

    ``on_block`` sees the records of a large file as they are parsed, before
    they are checked and before JSON-text fields are decoded in place.
    """
    parsed = parse_file(path, on_block)
    warnings = parsed.warnings
    value = parsed.value
    found = parsed.nonfinite
    records: list[dict[str, Any]]
    if isinstance(value, list):
        records = [item for _, item in _records_of(parsed, path, "predictions")]
    elif isinstance(value, dict):
        if "question_id" in value and "answer" in value:
            records = [value]
        elif all(isinstance(v, dict) for v in value.values()):
            records = []
            warnings += _keys_differ(path, value, "its question_id", "predictions")
            for key, item in value.items():
                merged = {"question_id": key, **item}
                if "answer" not in merged:
                    raise InputError(path, _no_answer(merged), record=key)
                records.append(merged)
        else:
            bad = next(k for k, v in value.items() if not isinstance(v, dict))
            raise InputError(
                path,
                "expected a list of predictions, a single prediction with question_id and answer, "
                "or an object keyed by question_id whose values are objects",
                record=bad,
            )
    else:
        raise InputError(path, f"expected a list of predictions, got {type(value).__name__}")
    decoded = 0
    for i, record in enumerate(records):
        if "usage" in record or "evaluator_kwargs" in record or "inference_scores" in record:
            decoded += decode_json_strings(record, path, record.get("question_id", i), found)
    deep = first_too_deep(records)
    if deep is not None:
        raise InputError(
            path,
            TOO_DEEP,
            line=parsed.lines[deep] if parsed.lines is not None else None,
            record=_where(records[deep], deep),
        )
    warnings += load_warnings(
        path, "predictions", decoded, found, value, fields="usage/evaluator_kwargs"
    )
    return records, warnings


@dataclass
class Paired:
    """Predictions matched with their annotations, in grading order."""

    pairs: list[tuple[dict[str, Any], dict[str, Any]]]
    warnings: list[str]
    unmatched: list[str]  # prediction ids without an annotation (strict mode: not graded)
    duplicates: list[str]  # prediction ids seen more than once
    missing: list[str]  # annotation ids no prediction refers to


def pair(
    annotations: dict[str, dict[str, Any]],
    predictions: list[dict[str, Any]],
    mode: str,
    *,
    annotations_path: str = "annotations",
    predictions_path: str = "predictions",
) -> Paired:
    """Match predictions to annotations as ``mode`` counts them (see module doc)."""
    warnings: list[str] = []
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    unmatched: list[str] = []
    duplicates: list[str] = []
    seen: set[str] = set()
    by_model = several_models(predictions)
    for index, pred in enumerate(predictions):
        qid = str(pred.get("question_id"))
        gt = annotations.get(qid)
        if gt is None:
            # A record with no id at all is named by its place, not as the id "None".
            no_id = "question_id" not in pred or pred["question_id"] is None
            unmatched.append(f"record #{index} (no question_id)" if no_id else qid)
            continue
        if "answer" not in pred:
            raise InputError(predictions_path, _no_answer(pred), record=_where(pred, index))
        if "evaluator" not in gt or "evaluator_kwargs" not in gt:
            raise InputError(
                annotations_path,
                "annotation must include 'evaluator' and 'evaluator_kwargs'",
                record=qid,
            )
        key = item_key(pred) if by_model else qid
        if key in seen:
            duplicates.append(key)
            if mode != "rome":
                continue
        seen.add(key)
        pairs.append((pred, gt))
    if unmatched:
        message = (
            f"{predictions_path}: {len(unmatched)} prediction(s) without an annotation "
            f"(first: {first_ids(unmatched)})"
        )
        if mode == "rome":
            raise InputError(
                predictions_path,
                f"{len(unmatched)} prediction(s) without an annotation (first: {first_ids(unmatched)}); "
                "the reference grader stops here (use --mode strict to grade the rest)",
            )
        warnings.append(message + "; not graded")
    if duplicates:
        if mode == "rome":
            warnings.append(
                f"{predictions_path}: {len(duplicates)} repeated prediction id(s) (first: "
                f"{first_ids(dict.fromkeys(duplicates))}); each copy is graded and counted, as in the reference grader"
            )
        else:
            warnings.append(
                f"{predictions_path}: {len(duplicates)} repeated prediction id(s) (first: "
                f"{first_ids(dict.fromkeys(duplicates))}); only the first of each is graded"
            )
    paired_ids = {str(p.get("question_id")) for p, _ in pairs} if by_model else seen
    missing = [qid for qid in annotations if qid not in paired_ids]
    if missing:
        warnings.append(
            f"{annotations_path}: {len(missing)} annotation(s) without a prediction (first: {first_ids(missing)}); "
            "they are not in the denominator"
            + (", as in the reference grader" if mode == "rome" else "")
        )
    if not pairs:
        if not predictions:
            raise InputError(predictions_path, "no prediction to grade")
        # Show both sides' ids: a mismatch is usually the wrong pair of files, or ids
        # written differently (numbers vs "question_..." strings, a missing field).
        theirs = first_ids(dict.fromkeys(unmatched))
        raise InputError(
            predictions_path,
            f"no prediction matches an annotation (predictions' ids: {theirs}; "
            f"annotations' ids in {annotations_path}: {first_ids(annotations)})",
        )
    return Paired(pairs, warnings, unmatched, duplicates, missing)


def _no_answer(prediction: dict[str, Any]) -> str:
    """The problem of a prediction without an answer, saying so when it is an annotation
    (the two files given the wrong way round)."""
    if "evaluator" in prediction:
        return (
            "prediction has no 'answer' but has an 'evaluator': an annotations file? "
            "(--annotations and --predictions given the wrong way round)"
        )
    return "prediction has no 'answer'"


def _where(pred: dict[str, Any], index: int) -> str | int:
    qid = pred.get("question_id")
    return str(qid) if qid is not None else index


# --- rows that carry their own annotation (the published release) ----------------------

ANNOTATION_FIELDS = ("evaluator", "evaluator_kwargs")


def several_models(records: Iterable[Mapping[str, Any]]) -> bool:
    """Whether the records hold more than one ``model``: then an item is
    (model, question_id), written ``model/question_id``."""
    first: Any = None
    for record in records:
        model = record.get("model")
        if isinstance(model, str) and model:
            if first is None:
                first = model
            elif model != first:
                return True
    return False


def item_key(record: Mapping[str, Any]) -> str:
    """``model/question_id``: the id of an item in a file of several models (an id
    already written so, as the demo set's are, is kept)."""
    qid = str(record.get("question_id"))
    model = record.get("model")
    if not isinstance(model, str) or not model or qid.startswith(model + "/"):
        return qid
    return f"{model}/{qid}"


def self_annotated(predictions: list[dict[str, Any]]) -> bool:
    """Whether the rows carry their own annotation (``evaluator`` and its kwargs)."""
    return bool(predictions) and all(k in predictions[0] for k in ANNOTATION_FIELDS)


def self_pairs(predictions: list[dict[str, Any]], mode: str, path: str) -> Paired:
    """Each row paired with its own annotation, as the release holds them.

    The grader grades the row's ``raw_answer`` (the model's whole response;
    ``answer`` is the release's extraction). Repeated items (the same
    question_id, or model/question_id in a file of several models) are
    reported as repeated ids are with an annotations file.
    """
    by_model = several_models(predictions)
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    duplicates: list[str] = []
    seen: set[str] = set()
    for index, pred in enumerate(predictions):
        for name in ANNOTATION_FIELDS:
            if pred.get(name) is None:
                raise InputError(
                    path,
                    f"row {index} has no {name!r}: rows graded without --annotations carry "
                    "their own (evaluator, evaluator_kwargs, reference), as the release does",
                    record=_where(pred, index),
                )
        if "answer" not in pred and "raw_answer" not in pred:
            raise InputError(path, "prediction has no 'answer'", record=_where(pred, index))
        key = item_key(pred) if by_model else str(pred.get("question_id"))
        if key in seen:
            duplicates.append(key)
            if mode != "rome":
                continue
        seen.add(key)
        gt = {
            name: pred[name]
            for name in ("question", "reference", *ANNOTATION_FIELDS)
            if name in pred
        }
        pairs.append((pred, gt))
    warnings: list[str] = []
    if duplicates:
        what = "model/question_id pair(s)" if by_model else "prediction id(s)"
        warnings.append(
            f"{path}: {len(duplicates)} repeated {what} (first: "
            f"{first_ids(dict.fromkeys(duplicates))}); "
            + (
                "each copy is graded and counted, as in the reference grader"
                if mode == "rome"
                else "only the first of each is graded"
            )
        )
    if not pairs:
        raise InputError(path, "no prediction to grade")
    return Paired(pairs, warnings, [], duplicates, [])
