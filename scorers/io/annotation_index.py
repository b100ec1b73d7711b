"""A run's annotations held compactly: each as its JSON bytes, parsed when paired.

``rome-tui grade`` streams the predictions but needs every annotation at
hand to pair them. Parsed, an annotation of ~440 bytes costs ~1.8 KB of
Python objects (a dict, its kwargs dict, a dozen small strings), so the
annotations of a realistic run would take as much memory as both input files.
Kept as orjson's bytes they take little more than the file, and parsing one
when its prediction arrives costs a couple of microseconds.

:func:`load_annotation_index` reads the file a block at a time where it can
(``streaming.record_stream``) and makes the checks :func:`loading.load_annotations`
makes, with the same warnings. Anything out of the ordinary (a record that is
not an object, two annotations of an id with different targets, NaN, a file
that cannot be streamed) sends it to ``load_annotations`` itself, which reads
the file whole and reports it exactly.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping
from typing import Any

import orjson

from scorers.errors import InputError
from scorers.io.loading import TARGET_FIELDS, differences, load_annotations
from scorers.io.record_checks import (
    FIRST_IDS,
    annotation_warnings,
    decode_json_strings,
    load_warnings,
)
from scorers.io.streaming import Unstreamable, record_stream


class AnnotationIndex(Mapping[str, dict[str, Any]]):
    """``str(question_id)`` -> annotation, in the file's order (the last copy of an id
    wins, in its first place: a dict's order). Each lookup returns a new dict."""

    def __init__(self) -> None:
        self._positions: dict[str, int] = {}
        # orjson's bytes of each [annotation] (a list, so that an annotation orjson could
        # not write inside the records' list is refused here), one after the other in a
        # single buffer, annotation i at _starts[i]:_stops[i]. One object rather than one
        # per annotation: a forked grading process reading an annotation then writes to
        # no page of the index (a bytes object's reference count is in its first bytes),
        # so the index stays shared with the parent (scorers.grade.pool).
        self._blob = bytearray()
        self._starts = array("Q")
        self._stops = array("Q")  # 0: the annotation is in _dicts
        # Annotations orjson cannot write (an integer beyond 64 bits, read leniently).
        self._dicts: dict[int, dict[str, Any]] = {}
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
            text: bytes | None = orjson.dumps([item])
        except orjson.JSONEncodeError:
            text = None
        self._put(qid, text, item)
        return text is not None

    def _put(self, qid: str, text: bytes | None, item: dict[str, Any]) -> None:
        at = self._positions.get(qid)
        if at is None:
            at = self._positions[qid] = len(self._starts)
            self._starts.append(0)
            self._stops.append(0)
            self._paired.append(0)
        self._dicts.pop(at, None)
        if text is None:
            self._starts[at] = self._stops[at] = 0
            self._dicts[at] = item
            return
        # A repeated id's earlier text stays in the buffer, unused (repeats are rare).
        self._starts[at] = len(self._blob)
        self._blob += text
        self._stops[at] = len(self._blob)

    def _at(self, at: int) -> dict[str, Any]:
        stop = self._stops[at]
        if not stop:
            return self._dicts[at]
        # A slice of the buffer (a copy of one annotation's bytes) costs less than a
        # memoryview of it made and released per annotation.
        item: dict[str, Any] = orjson.loads(self._blob[self._starts[at] : stop])[0]
        return item

    def __getitem__(self, qid: str) -> dict[str, Any]:
        return self._at(self._positions[qid])

    def get(self, qid: str, default: Any = None) -> Any:  # noqa: D102 - Mapping.get, without a KeyError
        at = self._positions.get(qid)
        if at is None:
            return default
        return self._at(at)

    def __contains__(self, qid: object) -> bool:
        return qid in self._positions

    def __iter__(self) -> Iterator[str]:
        return iter(self._positions)

    def __len__(self) -> int:
        return len(self._positions)

    def pair(self, qid: str, mark: bool = True) -> tuple[dict[str, Any] | None, bool]:
        """The annotation of ``qid`` (None if there is none) and whether a prediction
        was paired with it before; with ``mark``, note that one is now: ``get``,
        ``paired`` and ``mark`` in one lookup of the id."""
        at = self._positions.get(qid)
        if at is None:
            return None, False
        repeated = bool(self._paired[at])
        if mark:
            self._paired[at] = 1
        return self._at(at), repeated

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
    positions = index._positions
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
                text = dumps([item])
            except orjson.JSONEncodeError:
                raise _Irregular from None  # too deep to write, or not writable: reported whole
            if qid not in positions:
                index._put(qid, text, item)
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
            index._put(qid, text, item)
    if not index:
        raise _Irregular
    warnings += annotation_warnings(path, missing_id, duplicates, shown, conflicts)
    warnings += load_warnings(path, "annotations", decoded, [], None)
    return index, warnings
