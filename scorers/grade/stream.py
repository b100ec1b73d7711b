"""``rome-tui grade`` as a stream: a block of predictions parsed, paired, graded,
written and tallied at a time, so that memory holds the annotations (compactly,
``scorers.io.annotation_index``), one block of the predictions file and the
records being written, never the whole run.

The files are the ones the whole-file path (``scorers.grade.run``: load every
prediction, pair, grade, save) writes, byte for byte, and so are the warnings.
Errors are the exception: which one a run with several problems reports depends
on the order of the whole-file path (every parse error, then every shape
problem, then pairing, then grading). So the stream stops at the first thing
that could be an error or that it does not handle itself (a record that is not
an object, NaN, a JSON-text field that does not parse, a prediction without an
annotation in rome mode, an evaluator error, a file that cannot be cut into
pieces after all) and raises :class:`Fallback`: the caller then runs the
whole-file path, which reports the error it would have, or grades the file. The
output is written to a temporary file and renamed only at the end, so a stream
stopped midway leaves nothing behind.

Whether items are ``model/question_id`` (a file of several models) is known
only once every prediction is read; the stream assumes one model and, on
meeting a second, raises :class:`SeveralModels` to be run again knowing it.

A large run's blocks are graded by forked processes too (``scorers.grade.pool``):
a worker grades a block knowing nothing of the others (``_answer``) and this
process takes its answer in order (``_takes``), or grades the block itself when
the answer cannot be the one-process run's (an id graded before, a second model,
anything the worker left to it), so the files, warnings and errors stay the same.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, overload

import orjson

from scorers.errors import EvaluatorError
from scorers.grade.grader import Grader
from scorers.grade.notes import Notes, UsageNote, grading_warnings, usage_notes
from scorers.grade.pool import PiecePool
from scorers.io import nonfinite
from scorers.io.annotation_index import AnnotationIndex
from scorers.io.pairing import item_key
from scorers.io.record_checks import (
    FIRST_IDS,
    decode_json_strings,
    deeper_than,
    first_ids,
    load_warnings,
)
from scorers.io.scores import REJECTED_KEY, TallyRow, tally_of
from scorers.io.streaming import Block, Piece, RecordStream, Unstreamable
from scorers.io.updated_writer import BATCH, serialise
from scorers.records import REVIEW_KEY

# Predictions left after the first piece below which no process is forked: a
# fork and the pieces' round trips would cost more than they save.
POOL_MIN_BYTES = 8 << 20


class Fallback(Exception):
    """The stream stopped: grade the run by the whole-file path (see the module doc)."""


class SeveralModels(Exception):
    """The predictions hold a second model: stream again with ``settings.by_model``."""


class _Firsts:
    """A count, and the first few ids of a warning."""

    def __init__(self, distinct: bool = False) -> None:
        self.count = 0
        self.first: dict[str, None] | list[str] = {} if distinct else []

    def add(self, qid: str) -> None:
        self.count += 1
        if len(self.first) <= FIRST_IDS:
            if isinstance(self.first, dict):
                self.first[qid] = None
            else:
                self.first.append(qid)

    def merge(self, other: _Firsts) -> None:
        """Add ``other``'s ids, met after this object's."""
        self.count += other.count
        room = FIRST_IDS + 1 - len(self.first)
        if room > 0:
            if isinstance(self.first, dict):
                self.first.update(dict.fromkeys(list(other.first)[:room]))
            else:
                assert isinstance(self.first, list)
                self.first += list(other.first)[:room]

    def __str__(self) -> str:
        return first_ids(self.first)


@dataclass
class _Pairing:
    """What pairing a run's predictions has met so far, in run order. One owner, because
    a forked worker grades its piece with a fresh one (:meth:`GradingStream._answer`) and
    the parent sets its own aside while it answers a piece itself (``_answer_here``)."""

    model: str | None = None  # the first model met
    seen: set[str] = field(default_factory=set)  # item keys graded, when items are model/qid
    unmatched: _Firsts = field(default_factory=_Firsts)
    duplicates: _Firsts = field(default_factory=lambda: _Firsts(distinct=True))
    read_found: list[nonfinite.Found] = field(default_factory=list)  # NaN/Infinity met parsing
    text_found: list[nonfinite.Found] = field(default_factory=list)  # ... decoding JSON text
    decoded: int = 0  # records with JSON-text fields decoded


class PieceGraded(NamedTuple):
    """What a forked process sends back for a piece it graded whole, besides the
    records' bytes: what the run's counts and pairing need, in record order."""

    read: int  # records in the piece
    model: str | None  # the one model of its records, if they name one
    qids: list[str]  # the question_id of each record paired, in order
    keys: list[str]  # the item key of each (its qid unless the run is by model)
    unmatched: _Firsts
    decoded: int
    notes: Notes
    rows: list[TallyRow]
    unreadable: list[UsageNote]
    rejected: int
    flagged: int
    written: int  # records graded, so written


class GradingStream:
    """The run's records as the writer asks for them: ``spans`` (``updated_writer.Serialised``)
    reads, pairs, grades and serialises the predictions a block at a time, and the
    tally, the counts and the warnings grow as it goes."""

    def __init__(
        self,
        annotations: AnnotationIndex,
        predictions: RecordStream,
        grader: Grader,
        *,
        annotations_path: str,
        processes: int = 1,
    ) -> None:
        self._annotations = annotations
        self._predictions = predictions
        self._grader = grader
        settings = grader.settings
        self._settings = settings
        self._path = predictions.path
        self._annotations_path = annotations_path
        self._by_model = settings.by_model
        self._pairing = _Pairing()
        self.tally = tally_of(settings)
        self.count = 0  # records written
        self.flagged = 0
        self.rejected = 0
        self.unreadable: list[UsageNote] = []
        self._read = 0  # records read from the predictions, paired or not
        self._processes = processes
        self._pool: PiecePool | None = None
        self._handle: BinaryIO | None = None
        # In a forked grading process: the (qid, key) of each record paired in its piece.
        self._alone: tuple[list[str], list[str]] | None = None

    @property
    def processes(self) -> int:
        """How many processes graded the run: this one and the workers it forked."""
        return 1 + (self._pool.size if self._pool is not None else 0)

    def spans(self) -> Iterator[tuple[int, int, bytes | memoryview]]:
        """``(start, stop, bytes)`` of each batch of graded records, in order."""
        try:
            yield from self._spans()
        except Unstreamable:
            raise Fallback from None
        finally:
            self.close()
        if not self.count:
            raise Fallback  # no prediction to grade: an error the whole-file path words

    def close(self) -> None:
        """End the forked workers, if any (the stream is done or abandoned)."""
        if self._pool is not None:
            self._pool.close()

    def _spans(self) -> Iterator[tuple[int, int, bytes | memoryview]]:
        pieces = self._predictions.pieces
        with open(self._path, "rb") as handle:
            self._handle = handle
            for piece in pieces:
                records = self._graded(self._block(piece))
                if self._pool is None and self._processes > 1:
                    # The first piece is graded: strict mode's data and the detectors
                    # are loaded, to be shared with the workers.
                    left = os.fstat(handle.fileno()).st_size - piece.offset - piece.size
                    if left >= POOL_MIN_BYTES:
                        self._pool = PiecePool.start(self._answer, self._processes - 1)
                yield from self._written(records)
                if self._pool is not None:
                    break
            if self._pool is None:
                return
            for piece, answer in self._pool.answers(pieces, self._answer_here):
                taken = _taken(answer)
                if taken is None or not self._takes(taken[0]):
                    # The worker stopped at something (an error, a repeated id, NaN):
                    # grade the piece here, to meet it as one process would.
                    yield from self._written(self._graded(self._block(piece)))
                    continue
                graded, data = taken
                self.tally.add_rows(graded.rows)
                self.unreadable += graded.unreadable
                self.rejected += graded.rejected
                self.flagged += graded.flagged
                if graded.written:
                    yield self.count, self.count + graded.written, data
                    self.count += graded.written

    def _block(self, piece: Piece) -> Block:
        assert self._handle is not None
        block = self._predictions.block(self._handle, piece, self._read)
        self._read += len(block.records)
        return block

    def _written(self, records: list[dict[str, Any]]) -> Iterator[tuple[int, int, bytes]]:
        for start in range(0, len(records), BATCH):
            batch = records[start : start + BATCH]
            data = serialise(batch)
            if data is None:
                raise Fallback  # the whole-file path names the record
            self._tally(batch)
            yield self.count, self.count + len(batch), data
            self.count += len(batch)

    def _answer(self, piece: Piece) -> list[bytes | memoryview]:
        """In a forked worker: ``piece`` graded with no knowledge of the others, as
        the parts of the answer :func:`_taken` reads; none when the parent must
        grade it (anything that could be a warning or an error it words in order)."""
        assert self._handle is not None
        block = self._predictions.block(self._handle, piece, 0)
        self._pairing = _Pairing()
        self._grader.notes = Notes()
        qids: list[str] = []
        keys = qids if not self._by_model else []
        self._alone = (qids, keys)
        records = self._graded(block)
        if self._pairing.read_found or self._pairing.text_found:
            return []  # named by their index in the file, which only the parent knows
        if self._pairing.duplicates.count and self._settings.mode != "rome":
            return []  # only the first copy is graded
        parts: list[bytes | memoryview] = []
        for start in range(0, len(records), BATCH):
            data = serialise(records[start : start + BATCH])
            if data is None:
                return []
            parts += (b",\n" if start else b"[\n", memoryview(data)[2:-2])
        if parts:
            parts.append(b"\n]")
        row = self.tally.row
        graded = PieceGraded(
            len(block.records),
            self._pairing.model,
            qids,
            keys,
            self._pairing.unmatched,
            self._pairing.decoded,
            self._grader.notes,
            [row(record) for record in records],
            usage_notes(records, self._settings.harness_stats),
            sum(1 for r in records if r[REVIEW_KEY].get(REJECTED_KEY)),
            sum(1 for r in records if r[REVIEW_KEY].get("flags")),
            len(records),
        )
        head = pickle.dumps(graded, protocol=pickle.HIGHEST_PROTOCOL)
        return [len(head).to_bytes(8, "little"), head, *parts]

    def _answer_here(self, piece: Piece) -> list[bytes | memoryview]:
        """:meth:`_answer` in this process, ahead of the pieces being written: the
        run's pairing and counts are set aside meanwhile, to be taken in order."""
        kept = self._pairing, self._grader.notes
        try:
            return self._answer(piece)
        finally:
            self._pairing, self._grader.notes = kept
            self._alone = None

    def _takes(self, graded: PieceGraded) -> bool:
        """Whether a worker's piece is the one this process would grade: pairs it in
        run order and counts it if so; False (nothing changed) if this process
        must grade it (a second model, an id already graded)."""
        by_model = self._by_model
        pairing = self._pairing
        if not by_model and graded.model is not None and pairing.model not in (None, graded.model):
            return False
        annotations = self._annotations
        rome = self._settings.mode == "rome"
        seen = pairing.seen
        if not rome and (
            any(key in seen for key in graded.keys)
            if by_model
            else any(annotations.paired(qid) for qid in graded.qids)
        ):
            return False
        if not by_model and pairing.model is None:
            pairing.model = graded.model
        for qid, key in zip(graded.qids, graded.keys, strict=True):
            if by_model:
                repeated = key in seen
                seen.add(key)
            else:
                repeated = annotations.paired(qid)
            annotations.mark(qid)
            if repeated:
                pairing.duplicates.add(key)
        pairing.unmatched.merge(graded.unmatched)
        pairing.decoded += graded.decoded
        self._grader.notes.merge(graded.notes)
        self._read += graded.read
        return True

    def _tally(self, batch: Sequence[dict[str, Any]]) -> None:
        self.tally.add(batch)
        self.unreadable += usage_notes(batch, self._settings.harness_stats)
        for record in batch:
            review = record[REVIEW_KEY]
            if review.get(REJECTED_KEY):
                self.rejected += 1
            if review.get("flags"):
                self.flagged += 1

    def _graded(self, block: Block) -> list[dict[str, Any]]:
        """The block's predictions checked as ``load_predictions`` checks them, paired
        as ``pairing.pair`` pairs them, and graded."""
        records = block.records
        path = self._path
        for at, name, word in block.found:
            assert isinstance(at, int)  # a record of a list
            self._pairing.read_found.append((_record_name(records, at, block.start), name, word))
        for i, pred in enumerate(records):
            if type(pred) is not dict:
                raise Fallback
            if (  # decode_json_strings' own test, without a call per record
                type(pred.get("usage")) is str
                or type(pred.get("evaluator_kwargs")) is str
                or type(pred.get("inference_scores")) is str
            ):
                found: list[nonfinite.Found] = []
                try:
                    self._pairing.decoded += decode_json_strings(
                        pred, path, pred.get("question_id", block.start + i), found
                    )
                except Exception:  # noqa: BLE001 - reported by the whole-file path
                    raise Fallback from None
                self._pairing.text_found += found
        if deeper_than(records):
            raise Fallback
        if not self._by_model:
            self._check_models(records)
        return self._grade(records)

    def _check_models(self, records: list[dict[str, Any]]) -> None:
        for pred in records:
            model = pred.get("model")
            if isinstance(model, str) and model:
                if self._pairing.model is None:
                    self._pairing.model = model
                elif model != self._pairing.model:
                    raise SeveralModels

    def _grade(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        annotations = self._annotations
        grader = self._grader
        rome = self._settings.mode == "rome"
        by_model = self._by_model
        seen = self._pairing.seen
        out: list[dict[str, Any]] = []
        paired: list[tuple[dict[str, Any], dict[str, Any]]] = []
        alone = self._alone
        for pred in records:
            qid = str(pred.get("question_id"))
            # Marked as paired here, but in a worker: the parent pairs its pieces with the
            # run. (Marked before the checks below: a Fallback abandons the marks.)
            gt, repeated = annotations.pair(qid, mark=alone is None)
            if gt is None:
                if rome or pred.get("question_id") is None:
                    raise Fallback  # the run stops, with a count of them all; or the
                    # whole-file path names a record with no id by its place
                self._pairing.unmatched.add(qid)
                continue
            if "answer" not in pred or "evaluator" not in gt or "evaluator_kwargs" not in gt:
                raise Fallback
            if alone is not None:  # a worker: the parent pairs it with the run
                key = item_key(pred) if by_model else qid
                repeated = key in seen
                seen.add(key)
                alone[0].append(qid)
                if by_model:
                    alone[1].append(key)
            elif by_model:
                key = item_key(pred)
                repeated = key in seen
                seen.add(key)
            else:
                key = qid
            if repeated:
                self._pairing.duplicates.add(key)
                if not rome:
                    continue
            paired.append((pred, gt))
        # The rule evaluators first, over the whole block, then the records built from
        # their verdicts (as the grading worker does): the evaluators' code and data stay
        # in the CPU's caches from one record to the next, rather than being displaced
        # by each record's building, hashing and flags in between.
        single = grader.single_response
        verdicts = grader.rule_verdicts
        try:
            given = [
                None
                if grader.settings.release or (response := single(pred)) is None
                else verdicts(gt, response)
                for pred, gt in paired
            ]
            for (pred, gt), rules in zip(paired, given, strict=True):
                record = grader.grade_record(pred, gt, rules)
                grader.finish(record)
                out.append(record)
        except EvaluatorError:
            raise Fallback from None  # named, in the whole-file path's order
        return out

    def warnings(self, loading: list[str]) -> list[str]:
        """The run's warnings once every record is written: ``loading`` (the
        annotations'), then the predictions' as load_predictions, pair and the
        grader word them."""
        path = self._path
        out = list(loading) + self._predictions.warnings
        found = self._pairing.read_found + self._pairing.text_found
        out += load_warnings(
            path, "predictions", self._pairing.decoded, found, None, fields="usage/evaluator_kwargs"
        )
        unmatched = self._pairing.unmatched
        if unmatched.count:
            out.append(
                f"{path}: {unmatched.count} prediction(s) without an annotation "
                f"(first: {unmatched}); not graded"
            )
        duplicates = self._pairing.duplicates
        if duplicates.count:
            if self._settings.mode == "rome":
                out.append(
                    f"{path}: {duplicates.count} repeated prediction id(s) (first: "
                    f"{duplicates}); each copy is graded and counted, as in the reference grader"
                )
            else:
                out.append(
                    f"{path}: {duplicates.count} repeated prediction id(s) (first: "
                    f"{duplicates}); only the first of each is graded"
                )
        missing = self._annotations.unpaired()
        if missing:
            out.append(
                f"{self._annotations_path}: {len(missing)} annotation(s) without a prediction "
                f"(first: {first_ids(missing)}); they are not in the denominator"
                + (", as in the reference grader" if self._settings.mode == "rome" else "")
            )
        out += grading_warnings(self._grader.notes, self.unreadable, path)
        return out


def _taken(answer: memoryview) -> tuple[PieceGraded, memoryview] | None:
    """A worker's answer (``GradingStream._answer``) as what it counted and the
    records' bytes; None if it left the piece to this process."""
    if not answer:
        return None
    size = int.from_bytes(answer[:8], "little")
    graded: PieceGraded = pickle.loads(answer[8 : 8 + size])
    return graded, answer[8 + size :]


def _record_name(records: list[Any], at: int, start: int) -> str:
    """How ``nonfinite.warning`` names record ``at`` of the file, the block's
    ``records[at - start]``: its question_id, else its position."""
    record = records[at - start]
    if isinstance(record, dict) and record.get("question_id") is not None:
        return str(record["question_id"])
    return f"#{at}"


class WrittenRecords(Sequence[dict[str, Any]]):
    """The records of a streamed run: only counted while grading, read back from the
    written file if someone asks for them (``GradeResult.records``)."""

    def __init__(self, path: Path, count: int, flagged: int) -> None:
        self._path = path
        self._count = count
        self.flagged = flagged
        self._records: list[dict[str, Any]] | None = None

    def _loaded(self) -> list[dict[str, Any]]:
        if self._records is None:
            self._records = orjson.loads(self._path.read_bytes())
        return self._records

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[dict[str, Any]]: ...

    def __getitem__(self, index: Any) -> Any:
        return self._loaded()[index]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self._loaded())
