"""``rome-tui grade`` from files to files: load, pair, grade, save.

A run written into a directory from an annotations file and a predictions file
that can be cut into pieces (an array, JSON Lines) is streamed
(``scorers.grade.stream``, ``_streamed``): a block of predictions read, paired,
graded, written and tallied at a time, never the whole run in memory, the
blocks shared with forked processes when the run is large and the machine has
several CPUs (``scorers.grade.pool``). Everything else, and a stream that meets what only the whole-file path
reports exactly (an error, say), takes that path (``_run``): load, pair, grade,
save. There a small run is graded in this process
(``scorers.grade.grader.grade_pairs``); a large one shares the grading with a
child process (``scorers.grade.worker``): pairs go to it while the predictions
file is still being parsed (``_Feed``), and the records are graded as the
writer reaches them (``DeferredRecords``), half here and half there, so that
the files are the ones a one-process run writes.
"""

from __future__ import annotations

import gc
import os
import pickle
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorers.errors import EvaluatorError, InputError
from scorers.flags import flagging
from scorers.grade import pool
from scorers.grade.grader import Graded, Grader, grade_pairs, named_error
from scorers.grade.notes import Notes, UsageNote, grading_warnings, usage_notes
from scorers.grade.stream import Fallback, GradingStream, SeveralModels, WrittenRecords
from scorers.grade.worker import BatchTally, GradeWorker, Pair, Received
from scorers.io.annotation_index import load_annotation_index
from scorers.io.loading import load_annotations, load_predictions
from scorers.io.pairing import pair, self_annotated, self_pairs, several_models
from scorers.io.parquet import is_parquet, uncompressed_size
from scorers.io.record_checks import needs_decoding
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.io.runfiles import RunStamp, save_run_unstamped
from scorers.io.scores import REJECTED_KEY, scores_of, tally_of
from scorers.io.streaming import record_stream
from scorers.records import REVIEW_KEY


@dataclass
class GradeResult:
    # The graded records. A large run's (DeferredRecords) are rebuilt in this
    # process from what the grading worker sent only when ``records`` is read.
    graded: Sequence[dict[str, Any]]
    scores: dict[str, Any]
    settings: RunSettings
    paths: ResultsPaths | None
    warnings: list[str] = field(default_factory=list)
    rejected: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def flagged(self) -> int:
        """How many graded records have at least one flag: the review queue's length."""
        if isinstance(self.graded, WrittenRecords):
            return self.graded.flagged
        if isinstance(self.graded, DeferredRecords):
            return self.graded.flagged()
        return sum(1 for r in self.graded if r[REVIEW_KEY].get("flags"))

    @property
    def records(self) -> list[dict[str, Any]]:
        if not isinstance(self.graded, list):
            self.graded = list(self.graded)
        return self.graded


# --- the grading worker -----------------------------------------------------------
#
# Grading is pure Python and the behaviour-flag detectors cost more per record
# than both rule modes together. A large run shares the work with a child
# process (scorers.grade.worker) and writes the records in order as they are
# graded: see DeferredRecords.

GRADE_WORKER_MIN_BYTES = 16 << 20  # predictions below this are graded in this process
_JOBS_ENV = pool.JOBS_ENV  # "1": everything in one process


def wants_grade_worker(predictions_bytes: int, settings: RunSettings) -> bool:
    """Whether a run whose predictions file has this size gets a grading worker.

    Decided from the file's size so that the child starts, and imports the
    evaluators and detectors, while this process is still reading the file.
    A judged run is graded here: its time goes to the judge.
    """
    if os.environ.get(_JOBS_ENV, "").strip() == "1" or settings.use_llm_evaluator:
        return False
    if predictions_bytes < GRADE_WORKER_MIN_BYTES:
        return False
    return pool.usable_cpus() > 1


class _Feed:
    """Pairs predictions with annotations as the predictions file is parsed,
    and hands each pair to the worker at once: the child grades while this
    process is still reading.

    It pairs as :func:`pairing.pair` does and stops at the first record it
    is unsure of (not an object, a field still JSON text, a pair that pair()
    would reject); :meth:`matches` then checks that what it submitted is the
    start of pair()'s list, object for object.
    """

    def __init__(
        self, annotations: Mapping[str, Mapping[str, Any]], mode: str, worker: GradeWorker
    ) -> None:
        self._annotations = annotations
        self._repeats = mode == "rome"  # rome mode grades each copy of a repeated id
        self._worker = worker
        self._seen: set[str] = set()
        self.fed: list[Pair] = []
        self._open = True

    def __call__(self, block: list[Any]) -> None:
        if not self._open:
            return
        annotations = self._annotations
        seen = self._seen
        for pred in block:
            if type(pred) is not dict or needs_decoding(pred):
                self._open = False
                return
            qid = str(pred.get("question_id"))
            gt = annotations.get(qid)
            if gt is None:
                continue  # not graded (strict) or the run stops (rome)
            if "answer" not in pred or "evaluator" not in gt or "evaluator_kwargs" not in gt:
                self._open = False
                return
            if qid in seen and not self._repeats:
                continue
            seen.add(qid)
            item = (pred, gt)
            self.fed.append(item)
            self._worker.submit(item)

    def matches(self, pairs: Sequence[Pair]) -> bool:
        fed = self.fed
        return len(fed) <= len(pairs) and all(
            a is c and b is d for (a, b), (c, d) in zip(fed, pairs, strict=False)
        )


class DeferredRecords(Sequence[dict[str, Any]]):
    """A run's records, graded as they are read, half of them by a GradeWorker.

    Every pair is submitted to the worker up front. Reading a record (by
    index, slice or iteration) first completes every record up to it, so a
    writer walking the records in order streams right behind the worker;
    while it waits for the child it grades the next batch nobody has taken
    itself. Records are completed in order, so an evaluator error is the one
    a one-process run raises, and the notes (answers that were not text) list
    the same first ids.

    A batch the child graded whole is completed without its records: its
    bytes come from the child (``spans``), its tally rows too. Its verdicts
    stay pickled until one of its records is read, and are then applied to
    the predictions here (``_build``), giving the records a one-process run
    holds.
    """

    def __init__(
        self,
        pairs: Sequence[Pair],
        grader: Grader,
        worker: GradeWorker,
        places: tuple[str, str],
        *,
        writing: bool,
    ) -> None:
        settings = grader.settings
        # Counted batch by batch as the records are done, while the child still works.
        self.tally = tally_of(settings)
        self.unreadable: list[UsageNote] = []  # predictions whose usage a grade warns about
        self.rejected = 0
        self._harness_stats = settings.harness_stats
        self._pairs = pairs
        self._records = [pred for pred, _ in pairs]
        self._grader = grader
        self._worker = worker
        self._places = places
        self._size = worker.batch_size
        self.notes = grader.notes  # the run's, merged batch by batch in order
        self._done = 0
        # Batches graded here ahead of the writer: the notes they made, and the first
        # error, raised when the writer reaches it.
        self._stolen: dict[int, tuple[Notes, InputError | None]] = {}
        # With ``writing``: the child's serialisation of the batches it graded, until written.
        self._writing = writing
        self._serialised: dict[int, bytes | memoryview] = {}
        # Batches the child graded whole, completed but not yet built: the pickle
        # of their verdicts, applied when one of their records is read.
        self._unbuilt: dict[int, bytes] = {}
        for item in pairs[worker.submitted :]:
            worker.submit(item)
        worker.close()

    @property
    def failure(self) -> str | None:
        """Why the worker stopped before it was done, if it did."""
        return self._worker.failure

    def _bounds(self, number: int) -> tuple[int, int]:
        """The indices of batch ``number``'s first record and of the one after its last."""
        start = number * self._size
        return start, min(len(self._pairs), start + self._size)

    def _grade_here(self, start: int, stop: int) -> tuple[Notes, InputError | None]:
        """Grade ``pairs[start:stop]`` in this process, with notes of their own; the
        first evaluator error stops it and is returned, to be raised in order."""
        grader = self._grader
        run_notes, grader.notes = grader.notes, Notes()
        try:
            for i in range(start, stop):
                pred, gt = self._pairs[i]
                try:
                    grader.finish(grader.grade_record(pred, gt))
                except EvaluatorError as exc:
                    return grader.notes, named_error(exc, pred, self._places)
            return grader.notes, None
        finally:
            grader.notes = run_notes

    def _take(self, number: int, start: int, answer: Received) -> Notes:
        if answer.data is not None and self._writing:
            self._serialised[number] = answer.data
        if answer.tally is not None:
            # Copied out of the frame, which is freed once its bytes are written.
            self._unbuilt[number] = bytes(answer.graded)
            return Notes()
        grader = self._grader
        notes = Notes()
        for i, graded in enumerate(answer.unpickled(), start):
            if graded is None:  # the child left it to this process: notes or an error
                found, error = self._grade_here(i, i + 1)
                notes.merge(found)
                if error is not None:
                    raise error
            else:
                pred, gt = self._pairs[i]
                grader.take(pred, gt, graded)
        return notes

    def _complete(self, number: int) -> tuple[Notes, BatchTally | None]:
        """Grade or take batch ``number``: its notes, and the child's tally of it
        when the child graded it whole (None: its records are here to tally)."""
        start, stop = self._bounds(number)
        worker = self._worker
        while True:
            if number in self._stolen:
                notes, error = self._stolen.pop(number)
                if error is not None:
                    raise error
                return notes, None
            worker.prepare()  # keep the child fed while this process grades
            answer, pairs = worker.poll(number)
            if answer is not None:
                return self._take(number, start, answer), answer.tally
            if pairs is not None:
                notes, error = self._grade_here(start, stop)
                if error is not None:
                    raise error
                return notes, None
            stolen = worker.steal()
            if stolen is None:
                worker.wait(number)
            else:
                self._stolen[stolen[0]] = self._grade_here(*self._bounds(stolen[0]))

    def _reach(self, stop: int) -> None:
        """Complete (grade or take, and tally) every batch up to record ``stop``."""
        while self._done < stop:
            number = self._done // self._size
            notes, tally = self._complete(number)
            self.notes.merge(notes)
            end = self._bounds(number)[1]
            if tally is not None:
                rows, unreadable = tally
                self.tally.add_rows(rows)
                self.unreadable += unreadable
                self.rejected += sum(1 for *_, rejected in rows if rejected)
            else:
                batch = self._records[self._done : end]
                self.tally.add(batch)
                self.unreadable += usage_notes(batch, self._harness_stats)
                self.rejected += sum(1 for r in batch if r[REVIEW_KEY].get(REJECTED_KEY))
            self._done = end

    def _ready(self, start: int, stop: int) -> None:
        """Every record up to ``stop`` completed, and those from ``start`` on built."""
        self._reach(stop)
        if self._unbuilt:
            for number in range(start // self._size, -(-stop // self._size)):
                blob = self._unbuilt.pop(number, None)
                if blob is not None:
                    self._build(number, blob)

    def _build(self, number: int, blob: bytes) -> None:
        """Turn batch ``number``'s predictions into the records the child graded."""
        grader = self._grader
        pairs = self._pairs
        graded_list: list[Graded] = pickle.loads(blob)
        for i, graded in enumerate(graded_list, self._bounds(number)[0]):
            pred, gt = pairs[i]
            grader.take(pred, gt, graded)

    def spans(self) -> Iterator[tuple[int, int, bytes | memoryview | None]]:
        """The batches in order, each with the child's serialisation if it has one
        (``updated_writer.Serialised``): the writer copies those bytes instead of
        serialising the records again."""
        for number in range(-(-len(self._records) // self._size)):
            start, stop = self._bounds(number)
            self._reach(stop)
            yield start, stop, self._serialised.pop(number, None)

    def complete(self) -> None:
        """Every batch completed and tallied; the records themselves are built when read."""
        self._reach(len(self._records))

    def flagged(self) -> int:
        """How many records have a flag, without building the batches the child graded
        (their flags are read from the pickle of its verdicts)."""
        self.complete()
        count = 0
        for number in range(-(-len(self._records) // self._size)):
            blob = self._unbuilt.get(number)
            if blob is not None:
                graded: list[Graded] = pickle.loads(blob)
                count += sum(1 for _given, _hash, flags in graded if flags)
            else:
                start, stop = self._bounds(number)
                count += sum(1 for r in self._records[start:stop] if r[REVIEW_KEY].get("flags"))
        return count

    def resolve(self) -> list[dict[str, Any]]:
        """Every record, graded."""
        self._ready(0, len(self._records))
        return self._records

    def __len__(self) -> int:
        return len(self._records)

    def __getitem__(self, index: Any) -> Any:
        reached = range(len(self._records))[index]
        if isinstance(reached, range):
            if reached:
                self._ready(min(reached), max(reached) + 1)
        else:
            self._ready(reached, reached + 1)
        return self._records[index]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.resolve())


def _predictions_size(path: str) -> int:
    """The size the worker decision reads: a Parquet file's uncompressed size (its
    compressed one is a fifth of the JSON the same rows make)."""
    try:
        if is_parquet(path):
            return uncompressed_size(path)
        return os.path.getsize(path)
    except OSError:
        return 0  # loading reports the problem


def grade_files(
    annotations_path: str | None,
    predictions_path: str,
    settings: RunSettings,
    *,
    paths: ResultsPaths | None = None,
    write: bool = True,
) -> GradeResult:
    """Load, pair, grade and (with ``write``) save: the whole of ``rome-tui grade``."""
    # Grading allocates a few containers per record while every record stays
    # alive; the cyclic collector would re-scan the whole run again and again
    # for garbage that does not exist. Nothing here creates cycles.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _grade_files(annotations_path, predictions_path, settings, paths=paths, write=write)
    finally:
        if enabled:
            gc.enable()


def _grade_files(
    annotations_path: str | None,
    predictions_path: str,
    settings: RunSettings,
    *,
    paths: ResultsPaths | None,
    write: bool,
) -> GradeResult:
    if write and paths is not None:
        for target in (paths.updated, paths.scores, paths.run):
            if target.is_dir():  # else an OSError midway, after grading
                raise InputError(str(target), "is a directory, not a file grade can write")
    # Grading into a run's directory replaces its files: refuse if another
    # process (the review app, a judge run) writes them while we grade.
    read = RunStamp.of(paths) if write and paths is not None else None
    if (
        annotations_path is not None
        and read is not None
        and paths is not None
        and not settings.use_llm_evaluator
    ):
        streamed = _streamed(annotations_path, predictions_path, settings, paths, read)
        if streamed is not None:
            return streamed
    worker = None
    if wants_grade_worker(_predictions_size(predictions_path), settings):
        worker = GradeWorker.start(settings, flagging.DETECTOR_MODULES)
    try:
        return _run(annotations_path, predictions_path, settings, paths, read, worker)
    finally:
        if worker is not None:
            worker.stop()


def _streamed(
    annotations_path: str,
    predictions_path: str,
    settings: RunSettings,
    paths: ResultsPaths,
    read: RunStamp,
) -> GradeResult | None:
    """The run graded and written a block of predictions at a time
    (``scorers.grade.stream``); None when the whole-file path must grade it."""
    if is_parquet(predictions_path) or record_stream(predictions_path) is None:
        return None
    timings: dict[str, float] = {"grade": 0.0, "processes": 1}
    t0 = time.perf_counter()
    annotations, loaded = load_annotation_index(annotations_path, settings.mode)
    timings["load"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    settings.annotations = os.path.abspath(annotations_path)
    settings.predictions = os.path.abspath(predictions_path)
    settings.graded_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    settings.by_model = False
    while True:
        predictions = record_stream(predictions_path)
        if predictions is None:
            return None
        graded = GradingStream(
            annotations,
            predictions,
            Grader(settings),
            annotations_path=annotations_path,
            processes=pool.processes(),
        )
        try:
            scores = save_run_unstamped(
                paths, graded, settings, read, _THEN, scores_when_written=graded.tally.result
            )
        except SeveralModels:
            if settings.by_model:
                return None
            settings.by_model = True  # items are model/question_id: grade again so
            annotations.clear_marks()
            continue
        except Fallback:
            settings.by_model = False
            return None
        finally:
            graded.close()  # the workers, if the writer stopped before the stream did
        break
    timings["processes"] = graded.processes
    warnings = graded.warnings(loaded)
    if graded.rejected:
        warnings.append(
            f"{graded.rejected} answer(s) rejected before grading (reported as reject_info)"
        )
    timings["save"] = time.perf_counter() - t1
    records = WrittenRecords(paths.updated, graded.count, graded.flagged)
    return GradeResult(records, scores, settings, paths, warnings, graded.rejected, timings)


_THEN = "Grade again once the other process is done."


def _run(
    annotations_path: str | None,
    predictions_path: str,
    settings: RunSettings,
    paths: ResultsPaths | None,
    read: RunStamp | None,
    worker: GradeWorker | None,
) -> GradeResult:
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    write = read is not None
    feed: _Feed | None = None
    if annotations_path is None:
        # Rows that carry their own annotation (the published release): no feed,
        # the pairs go to the worker once the file is read.
        warnings: list[str] = []
        predictions, more = load_predictions(predictions_path, settings.mode)
        if not self_annotated(predictions):
            raise InputError(
                predictions_path,
                "the rows carry no annotation (evaluator, evaluator_kwargs): "
                "give --annotations FILE",
            )
        settings.release = True
        first = predictions[0]
        if settings.tracker_type == "task" and "task" not in first and "dataset" in first:
            settings.tracker_type = "dataset"  # the release's split (textual, visual)
        paired = self_pairs(predictions, settings.mode, predictions_path)
    else:
        annotations, warnings = load_annotations(annotations_path, settings.mode)
        feed = _Feed(annotations, settings.mode, worker) if worker is not None else None
        predictions, more = load_predictions(predictions_path, settings.mode, on_block=feed)
        paired = pair(
            annotations,
            predictions,
            settings.mode,
            annotations_path=annotations_path,
            predictions_path=predictions_path,
        )
    warnings += more
    warnings += paired.warnings
    settings.by_model = several_models(predictions)
    if feed is not None and not feed.matches(paired.pairs):
        # Never seen on a well-formed file; the records given to the child are
        # not the ones to grade, so this process grades them all.
        assert worker is not None
        worker.stop()
        worker = None
    timings["load"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    settings.annotations = os.path.abspath(annotations_path) if annotations_path else None
    settings.predictions = os.path.abspath(predictions_path)
    settings.graded_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    cache_dir = str(paths.directory) if paths is not None else None
    deferred: DeferredRecords | None = None
    records: Sequence[dict[str, Any]]
    if worker is None:
        records, more = grade_pairs(
            paired.pairs,
            settings,
            predictions_path=predictions_path,
            annotations_path=annotations_path or predictions_path,
            judge_cache_dir=cache_dir,
        )
        warnings += more
    else:
        # Graded as they are written: the time goes to "save".
        places = (predictions_path, annotations_path or predictions_path)
        records = deferred = DeferredRecords(
            paired.pairs, Grader(settings), worker, places, writing=write and paths is not None
        )
    timings["grade"] = time.perf_counter() - t1
    timings["processes"] = 1 if worker is None else 2
    t2 = time.perf_counter()
    if deferred is None:
        scores = (
            save_run_unstamped(paths, records, settings, read, _THEN)
            if read is not None and paths is not None
            else scores_of(records, settings)
        )
        rejected = sum(1 for r in records if r[REVIEW_KEY].get(REJECTED_KEY))
    else:
        tally = deferred.tally
        if read is not None and paths is not None:
            scores = save_run_unstamped(
                paths, deferred, settings, read, _THEN, scores_when_written=tally.result
            )
        else:
            deferred.complete()
            scores = tally.result()
        records = deferred  # built only if the caller reads GradeResult.records
        warnings += grading_warnings(deferred.notes, deferred.unreadable, predictions_path)
        rejected = deferred.rejected
    if rejected:
        warnings.append(f"{rejected} answer(s) rejected before grading (reported as reject_info)")
    if deferred is not None and deferred.failure is not None:
        warnings.append(f"{deferred.failure}; its records were graded in this process")
    timings["save"] = time.perf_counter() - t2
    return GradeResult(records, scores, settings, paths, warnings, rejected, timings)
