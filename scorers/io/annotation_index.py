"""A run's annotations held compactly: each as its JSON bytes, parsed when paired.

``rome-tui grade`` streams the predictions but needs every annotation at
hand to pair them. Parsed, an annotation of ~440 bytes costs ~1.8 KB of
Python objects (a dict, its kwargs dict, a dozen small strings), so the
annotations of a realistic run would take as much memory as both input files.
Kept as orjson's bytes they take little more than the file, and parsing one
when its prediction arrives costs a couple of microseconds.

:func:`load_annotation_index` reads the file a block at a time where it can
(``loading.record_stream``) and makes the checks :func:`loading.load_annotations`
makes, with the same warnings. Anything out of the ordinary (a record that is
not an object, two annotations of an id with different targets, NaN, a file
that cannot be streamed) sends it to ``load_annotations`` itself, which reads
the file whole and reports it exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import orjson

from scorers.errors import InputError
from scorers.io.loading import (
    FIRST_IDS,
    TARGET_FIELDS,
    Unstreamable,
    annotation_warnings,
    decode_json_strings,
    differences,
    load_annotations,
    record_stream,
)


class AnnotationIndex(Mapping[str, dict[str, Any]]):
    """``str(question_id)`` -> annotation, in the file's order (the last copy of an id
    wins, in its first place: a dict's order). Each lookup returns a new dict."""

    def __init__(self) -> None:
        self._positions: dict[str, int] = {}
        # orjson's bytes of [annotation] (the list so that an annotation orjson could
        # not write inside the records' list is refused here); the dict itself when
        # orjson cannot write it at all (an integer beyond 64 bits, read leniently).
        self._data: list[bytes | dict[str, Any]] = []
        self._paired = bytearray()  # 1 for an annotation some prediction was paired with

    @classmethod
    def of(cls, annotations: Mapping[str, dict[str, Any]]) -> AnnotationIndex:
        index = cls()
        for qid, item in annotations.items():
            index.put(qid, item)
        return index

    def put(self, qid: str, item: dict[str, Any]) -> bool:
        """File ``item`` under ``qid``; False when it is kept as a dict (orjson cannot write it)."""
        try:
            # Copied: orjson's own bytes object keeps the slack of the buffer it was
            # written in (a few KB each, in glibc's heap), ten times the text.
            data: bytes | dict[str, Any] = bytes(memoryview(orjson.dumps([item])))
        except orjson.JSONEncodeError:
            data = item
        at = self._positions.get(qid)
        if at is None:
            self._positions[qid] = len(self._data)
            self._data.append(data)
            self._paired.append(0)
        else:
            self._data[at] = data
        return type(data) is bytes

    def __getitem__(self, qid: str) -> dict[str, Any]:
        data = self._data[self._positions[qid]]
        if type(data) is bytes:
            item: dict[str, Any] = orjson.loads(data)[0]
            return item
        return data  # type: ignore[return-value]

    def get(self, qid: str, default: Any = None) -> Any:  # noqa: D102 - Mapping.get, without a KeyError
        at = self._positions.get(qid)
        if at is None:
            return default
        data = self._data[at]
        if type(data) is bytes:
            return orjson.loads(data)[0]
        return data

    def __contains__(self, qid: object) -> bool:
        return qid in self._positions

    def __iter__(self) -> Iterator[str]:
        return iter(self._positions)

    def __len__(self) -> int:
        return len(self._positions)

    def paired(self, qid: str) -> bool:
        """Whether :meth:`mark` was called for ``qid``."""
        return bool(self._paired[self._positions[qid]])

    def mark(self, qid: str) -> None:
        """Note that a prediction was paired with annotation ``qid``."""
        self._paired[self._positions[qid]] = 1

    def clear_marks(self) -> None:
        """Forget every :meth:`mark`."""
        self._paired = bytearray(len(self._paired))

    def unpaired(self) -> list[str]:
        """The ids no prediction was paired with, in the file's order."""
        paired = self._paired
        return [qid for qid, at in self._positions.items() if not paired[at]]


class _Irregular(Exception):
    """Something the streamed read leaves to load_annotations to report or warn about."""


def load_annotation_index(path: str, mode: str = "strict") -> tuple[AnnotationIndex, list[str]]:
    """:func:`loading.load_annotations` of ``path``, held as an AnnotationIndex."""
    stream = record_stream(path)
    if stream is not None:
        try:
            return _streamed(path, stream.blocks, stream.warnings, mode)
        except (_Irregular, Unstreamable, InputError):
            pass  # read whole below: the exact error, or the warning
    annotations, warnings = load_annotations(path, mode)
    return AnnotationIndex.of(annotations), warnings


def _streamed(
    path: str, blocks: Iterator[Any], warnings: list[str], mode: str
) -> tuple[AnnotationIndex, list[str]]:
    """The list branch of load_annotations, a block at a time."""
    index = AnnotationIndex()
    duplicates = 0
    shown: dict[str, None] = {}  # the first duplicated ids
    conflicts: list[str] = []  # "qid (what differs)" of duplicates that are not identical
    missing_id = 0
    decoded = 0
    positions = index._positions  # the loop below is put(), inlined: it runs per annotation
    data = index._data
    paired = index._paired
    dumps = orjson.dumps
    for block in blocks:
        if block.found:
            raise _Irregular  # NaN/Infinity: the warning names records by the whole file
        for item in block.records:
            if type(item) is not dict:
                raise _Irregular
            qid = item.get("question_id")
            if type(qid) is not str:
                if qid is None:
                    if mode != "rome":
                        raise _Irregular
                    missing_id += 1
                qid = str(qid)
            if (
                type(item.get("evaluator_kwargs")) is str
                or type(item.get("usage")) is str
                or type(item.get("inference_scores")) is str
            ):
                found: list[Any] = []
                decoded += decode_json_strings(item, path, qid, found)
                if found:
                    raise _Irregular
            try:
                # Copied: orjson's bytes keep its 4 KB write buffer (see put).
                text = bytes(memoryview(dumps([item])))
            except orjson.JSONEncodeError:
                raise _Irregular from None  # too deep to write, or not writable: reported whole
            at = positions.get(qid)
            if at is None:
                positions[qid] = len(data)
                data.append(text)
                paired.append(0)
                continue
            duplicates += 1
            if len(shown) <= FIRST_IDS:
                shown[qid] = None
            earlier = index[qid]
            if earlier != item:
                differs = differences(earlier, item)
                targets = any(d.split(".", 1)[0].split(":", 1)[0] in TARGET_FIELDS for d in differs)
                if targets and mode != "rome":
                    raise _Irregular
                conflicts.append(f"{qid} ({'; '.join(differs)})")
            data[at] = text
    if not index:
        raise _Irregular
    warnings += annotation_warnings(path, missing_id, duplicates, shown, conflicts)
    if decoded:
        warnings.append(
            f"{path}: {decoded} annotation(s) with evaluator_kwargs/usage as JSON text, decoded"
        )
    return index, warnings
