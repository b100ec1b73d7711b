"""The writer of a run's records (``updated_predictions.json``): a batch at a time, atomically.

The bytes are those of ``orjson.dumps(records, OPT_INDENT_2)`` whatever the
path: records dumped here, or spans a grade already serialised elsewhere
(:class:`Serialised`) copied in place.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import orjson

from scorers.errors import InputError
from scorers.io.jsonio import dumps_any_keys, replacing
from scorers.io.record_checks import TOO_DEEP, first_too_deep
from scorers.io.run_paths import UPDATED_NAME
from scorers.io.writeback import Writeback
from scorers.records import REVIEW_KEY

T = TypeVar("T")


def _dumps(records: Sequence[dict[str, Any]]) -> bytes:
    """``orjson.dumps(records, OPT_INDENT_2 | OPT_NON_STR_KEYS)``."""
    return dumps_any_keys(records, orjson.OPT_INDENT_2, _default)


BATCH = 64  # records serialised per orjson call (the streamed grade batches alike)


@runtime_checkable
class Serialised(Protocol):
    """Records some of which arrive already serialised (``scorers.grade.run.DeferredRecords``)."""

    def spans(self) -> Iterator[tuple[int, int, bytes | memoryview | None]]:
        """``(start, stop, data)`` in order, covering every record once: ``data``
        is ``_dumps(records[start:stop])`` or None to dump here."""
        ...


def serialise(records: Sequence[dict[str, Any]]) -> bytes | None:
    """``records`` as one indented JSON array, as the writer would write them;
    None if orjson cannot write one of them (the writer then names it)."""
    try:
        return _dumps(records)
    except orjson.JSONEncodeError:
        return None


def _updated_chunks(
    records: Sequence[dict[str, Any]] | Serialised, target: str = UPDATED_NAME
) -> Iterable[bytes | memoryview]:
    """The bytes of ``orjson.dumps(records, OPT_INDENT_2)``, a few records at a time.

    Serialising in small batches bounds the extra memory of writing a large
    run. A batch is dumped as an array of its own, which indents its records
    exactly as they sit in the whole array; only its brackets are dropped.
    A record orjson cannot write (nested too deep) is an InputError naming it.
    """
    spans: Iterable[tuple[int, int, bytes | memoryview | None]]
    if isinstance(records, Serialised):
        spans = records.spans()  # never empty: a run with no record to write is an error
    elif not records:
        yield b"[]"
        return
    else:
        spans = [(0, len(records), None)]
    yield b"[\n"
    for first, stop, data in spans:
        if data is not None:
            if first:
                yield b",\n"
            yield memoryview(data)[2:-2]
            continue
        assert isinstance(records, Sequence)
        for start in range(first, stop, BATCH):
            chunk = records[start : min(stop, start + BATCH)]
            try:
                batch = _dumps(chunk)
            except orjson.JSONEncodeError as exc:
                raise _unwritable(chunk, start, target, exc) from None
            for record in chunk:
                _drop_utf8_copies(record)
            if start:
                yield b",\n"
            yield memoryview(batch)[2:-2]  # without "[\n" and "\n]"
    yield b"\n]"


def _unwritable(
    chunk: Sequence[dict[str, Any]], start: int, target: str, exc: Exception
) -> InputError:
    deep = first_too_deep(list(chunk))
    index = start + (deep if deep is not None else 0)
    record = chunk[deep] if deep is not None else None
    problem = TOO_DEEP if deep is not None else f"cannot be written as JSON: {exc}"
    qid = record.get("question_id", index) if isinstance(record, dict) else None
    return InputError(target, problem, record=qid)


_LONG = 1024  # characters: below this a cached UTF-8 copy is not worth a new string


def _fresh(value: str, seen: dict[int, tuple[str, str]]) -> str:
    known = seen.get(id(value))
    if known is None:
        # The old string stays in ``seen`` until the walk ends, so no id is reused meanwhile.
        known = seen[id(value)] = (value, "".join((value, "")))
    return known[1]


def _drop_utf8_copies(record: dict[str, Any]) -> None:
    """Free the UTF-8 copies orjson left inside the record's long non-ASCII texts.

    CPython caches a UTF-8 encoding inside every non-ASCII ``str`` that orjson
    serialises and keeps it as long as the string lives: writing a run would
    otherwise add the size of its reasoning texts again. An equal new string
    has no cache; the old one (and its copy) is freed with the last reference,
    so every place in the record that shared it gets the same new string.
    """
    seen: dict[int, tuple[str, str]] = {}
    for key, value in record.items():
        if type(value) is str:
            if len(value) > _LONG and not value.isascii():
                record[key] = _fresh(value, seen)
        elif type(value) is list:
            for i, item in enumerate(value):
                if type(item) is str and len(item) > _LONG and not item.isascii():
                    value[i] = _fresh(item, seen)
    review = record.get(REVIEW_KEY)
    if seen and type(review) is dict:
        for verdict in review.get("verdicts") or ():
            if type(verdict) is dict:
                text = verdict.get("extracted")
                if type(text) is str and id(text) in seen:
                    verdict["extracted"] = seen[id(text)][1]


def _default(value: Any) -> Any:
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def updated_bytes(records: Sequence[dict[str, Any]]) -> bytes:
    return b"".join(bytes(chunk) for chunk in _updated_chunks(records))


def write_updated(
    path: str | os.PathLike[str],
    records: Sequence[dict[str, Any]] | Serialised,
    *,
    while_syncing: Callable[[], T] | None = None,
) -> T | None:
    """Atomically replace ``path`` with the records, streamed in chunks.

    ``while_syncing`` runs while the data is flushed to disk (fsync releases
    the GIL); its result is returned once the file is in place.
    """
    result: T | None = None
    with replacing(path, sync=False) as handle:
        writeback = Writeback(handle)
        try:
            for chunk in _updated_chunks(records, str(path)):
                handle.write(chunk)
                writeback.wrote(len(chunk))
        finally:
            writeback.finish()
        handle.flush()
        if while_syncing is None:
            os.fsync(handle.fileno())
        else:
            result = _run_while_syncing(handle.fileno(), while_syncing)
    return result


def _run_while_syncing(fd: int, work: Callable[[], T]) -> T:
    errors: list[OSError] = []

    def sync() -> None:
        try:
            os.fsync(fd)
        except OSError as exc:
            errors.append(exc)

    thread = threading.Thread(target=sync, name="rome-tui-fsync", daemon=True)
    thread.start()
    try:
        result = work()
    finally:
        thread.join()
    if errors:
        raise errors[0]
    return result
