"""Half the grading of a large run, done in a second process.

Grading is pure Python, so one process keeps one core busy. For a large run
``rome-tui grade`` starts a child process before it reads the files and
queues every (prediction, annotation) pair for it in numbered batches. The
child grades a batch from the front of the queue the way this process would
(both rule modes, the content hash, every flag detector) and answers with
what it computed. This process writes the records in order right behind it,
and while it waits for the child it grades the next batch nobody has taken
itself: both cores work until the last batch, and the writing overlaps the
grading. (Taking from the front, not the back, keeps what this process grades
close to where it writes, so no graded batch waits long to be written and
the last batches are not all this process's to write.)

The child runs the same code on the same input, so the records are the ones
a one-process run writes: ``tests/test_grade_worker.py`` holds the files of
the two runs equal. A record the child cannot grade exactly as this process
would (an answer that is not text, a rejected answer, an evaluator error:
anything that adds to the run's notes or stops it) comes back as None and is
graded here, in order. Anything that goes wrong with the child (it cannot
start, dies, or reports an error) hands its unfinished batches back to this
process: a failure costs time, never a grade.

Protocol, on the child's stdin and stdout: frames of an 8-byte little-endian
length and a body. The parent sends pickles: the run's settings and detector
modules, then batches of pairs, then an empty frame. The child answers each
batch with ``A``, then two length-prefixed pickles: one :data:`Graded` or None
per pair, and the batch's :data:`BatchTally` (or None); then the batch's
records serialised (raw bytes, written to the output as they are: pickling
them would copy them twice more). Or with ``E`` and a pickled message, and
exits.

A batch the child graded whole needs nothing more from this process while
the run is written: its records' bytes go to the file and its tally rows to
the scores. So its verdicts stay pickled until someone reads its records
(``DeferredRecords``); ``rome-tui grade`` never does.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from scorers.io.scores import TallyRow
from scorers.records import REVIEW_KEY

if TYPE_CHECKING:
    from scorers.grade.grader import Graded
    from scorers.io.run_settings import RunSettings

BATCH = 128  # pairs per frame: ~0.7 MB of 5 KB traces, ~6-25 ms of work
_READY = 4  # batches pickled ahead of the sender
_LENGTH = struct.Struct("<Q")
_ANSWER, _ERROR = b"A", b"E"  # the first byte of the child's frames

Pair = tuple[dict[str, Any], Mapping[str, Any]]
# For a batch the child graded whole: each record's ScoreTally row, and the
# predictions whose usage a grade warns about (grade.notes.usage_notes).
BatchTally = tuple[list[TallyRow], list[tuple[str, str]]]


class Answer(NamedTuple):
    """The child's answer to a batch."""

    graded: list[Graded | None]  # one per pair; None: left to the parent
    tally: BatchTally | None  # None unless every pair was graded there
    data: bytes | memoryview | None  # the records as the writer would serialise them


class Received(NamedTuple):
    """An answer frame as read here: the verdicts still pickled, the bytes a view."""

    graded: memoryview  # the pickle of Answer.graded
    tally: BatchTally | None
    data: memoryview | None

    def unpickled(self) -> list[Graded | None]:
        graded: list[Graded | None] = pickle.loads(self.graded)
        return graded


_LONG = 1024  # characters: a longer non-ASCII text crosses the pipe as UTF-8 bytes


def _portable(fields: Mapping[str, Any]) -> tuple[Mapping[str, Any], tuple[tuple[str, str], ...]]:
    """``fields`` with each long non-ASCII text encoded, and (key, codec) of each.

    Pickle encodes a ``str`` through CPython's cached UTF-8 form, which then
    stays inside the string as long as it lives: sending a run's reasoning
    would add its size again to this process. ``str.encode`` makes no cache.
    A text whose characters all fit in Latin-1 ("×", "é") is stored one byte
    a character, so Latin-1 encoding is a copy; UTF-8 is several times slower.
    """
    encoded: list[str] | None = None
    for key, value in fields.items():
        # isascii() reads a flag: no scan.
        if type(value) is str and len(value) > _LONG and not value.isascii():
            if encoded is None:
                encoded = []
            encoded.append(key)
    if encoded is None:
        return fields, ()
    copy = dict(fields)
    codecs: list[tuple[str, str]] = []
    for key in encoded:
        text = copy[key]
        try:
            copy[key] = text.encode("latin-1")
            codecs.append((key, "latin-1"))
        except UnicodeEncodeError:
            copy[key] = text.encode()
            codecs.append((key, "utf-8"))
    return copy, tuple(codecs)


def _restored(fields: dict[str, Any], encoded: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """The child's copy of what :func:`_portable` sent, texts decoded in place."""
    for key, codec in encoded:
        fields[key] = fields[key].decode(codec)
    return fields


def _job(pair: Pair) -> tuple[Any, ...]:
    pred_fields, pred_encoded = _portable(pair[0])
    gt_fields, gt_encoded = _portable(pair[1])
    return pred_fields, pred_encoded, gt_fields, gt_encoded


def _batch_frame(batch: list[Pair]) -> bytes:
    return pickle.dumps([_job(pair) for pair in batch], protocol=pickle.HIGHEST_PROTOCOL)


_PIPE_BYTES = 1 << 20  # Linux's default limit for an unprivileged process
_F_SETPIPE_SZ = 1031


def _widen(stream: IO[bytes] | None) -> None:
    """Let a whole frame sit in the pipe.

    A 64 KB pipe splits a frame into a dozen reads, and between two reads
    the receiving thread waits for the GIL while this process grades (up to
    the 5 ms switch interval each): the child would starve. Linux only.
    """
    if stream is None or not sys.platform.startswith("linux"):
        return
    import fcntl

    with contextlib.suppress(OSError):
        fcntl.fcntl(stream.fileno(), _F_SETPIPE_SZ, _PIPE_BYTES)


def _write_frame(stream: IO[bytes], *parts: bytes | memoryview) -> None:
    """One frame whose body is ``parts`` in order, written without joining them."""
    stream.write(_LENGTH.pack(sum(len(part) for part in parts)))
    for part in parts:
        stream.write(part)
    stream.flush()


def _write_answer(stream: IO[bytes], answer: Answer) -> None:
    graded = pickle.dumps(answer.graded, protocol=pickle.HIGHEST_PROTOCOL)
    tally = pickle.dumps(answer.tally, protocol=pickle.HIGHEST_PROTOCOL)
    _write_frame(
        stream,
        _ANSWER,
        _LENGTH.pack(len(graded)),
        graded,
        _LENGTH.pack(len(tally)),
        tally,
        answer.data or b"",
    )


def read_answer(body: bytes) -> Received:
    """An ``A`` frame's body as :class:`Received`: the verdicts' pickle and the
    serialised records are views into ``body``, not copies. ValueError if the
    body is not an answer frame."""
    if body[:1] != _ANSWER:
        raise ValueError("not an answer frame")
    view = memoryview(body)
    graded, at = _part(view, 1)
    tally_bytes, at = _part(view, at)
    tally = pickle.loads(tally_bytes)
    # A batch has records, so their serialisation is never empty.
    return Received(graded, tally, view[at:] if at < len(body) else None)


def _part(view: memoryview, at: int) -> tuple[memoryview, int]:
    """The length-prefixed part of an answer frame at ``at``, and where the next begins."""
    if at + _LENGTH.size > len(view):
        raise ValueError("an answer frame cut short")
    (size,) = _LENGTH.unpack_from(view, at)
    start = at + _LENGTH.size
    if start + size > len(view):
        raise ValueError("an answer frame cut short")
    return view[start : start + size], start + size


def _read_frame(stream: IO[bytes]) -> bytes | None:
    """The next frame's payload; None at the end of the stream."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (size,) = _LENGTH.unpack(head)
    payload = stream.read(size)
    if len(payload) < size:
        return None
    return payload


class GradeWorker:
    """A child process that grades batches of pairs, and a queue it shares.

    Pairs are queued in numbered batches (``submit``; the queue holds the
    pairs themselves, never copies). A sender thread hands the front batch to
    the child as soon as the child can take it and a receiver thread collects
    the answers, so neither pipe fills while the other side waits. The
    caller asks for each batch in order (``poll``) and, while the child is
    still busy with it, grades the next batch nobody has taken itself
    (``steal``): the two share the queue, each on its own core.

    The threads only move bytes. The caller pickles the next few batches
    (``prepare``, also run by ``submit``) and unpickles the answers: a thread
    that needs the GIL while the caller grades waits up to the switch
    interval for it each time, and the child would wait with it.
    """

    def __init__(self, proc: subprocess.Popen[bytes], context: bytes) -> None:
        self._proc = proc
        self._context = context
        self.batch_size = BATCH  # fixed for the run, whatever BATCH is later set to
        self._batch: list[Pair] = []
        self._count = 0  # batches submitted
        self._queued: deque[int] = deque()  # batch numbers nobody has taken, in order
        self._pairs: dict[int, list[Pair]] = {}  # queued or with the child
        self._sending: deque[int] = deque()  # batch numbers the child has, in order
        self._answers: dict[int, bytes] = {}  # answer frames, unpickled by poll
        self._ready: deque[tuple[int, bytes]] = deque()  # pickled batches for the sender
        self._preparing = 0  # batches the caller is pickling
        self._closed = False
        self._lock = threading.Condition()
        self._failure: str | None = None
        self._sender = threading.Thread(target=self._send, name="rome-tui-grade-send", daemon=True)
        self._receiver = threading.Thread(
            target=self._receive, name="rome-tui-grade-receive", daemon=True
        )

    @classmethod
    def start(cls, settings: RunSettings, detector_modules: Sequence[str]) -> GradeWorker | None:
        """A running worker for a run with ``settings``, or None if none can start.

        ``detector_modules`` is the flag detectors the child runs: this
        process's ``flagging.DETECTOR_MODULES``.
        """
        env = dict(os.environ)
        # The child imports this package from where the parent did, installed or not.
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (root, env.get("PYTHONPATH"))))
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", __name__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        except OSError:
            return None
        for stream in (proc.stdin, proc.stdout):
            _widen(stream)
        context = pickle.dumps(
            (settings, tuple(detector_modules)), protocol=pickle.HIGHEST_PROTOCOL
        )
        worker = cls(proc, context)
        worker._sender.start()
        worker._receiver.start()
        return worker

    @property
    def failure(self) -> str | None:
        """Why the child stopped before it was done, if it did."""
        return None if self._failure == "stopped" else self._failure

    # --- parent side ------------------------------------------------------------

    @property
    def submitted(self) -> int:
        """How many pairs were submitted."""
        return self._count * self.batch_size + len(self._batch)

    def submit(self, pair: Pair) -> None:
        """Queue a pair, in batch ``n // batch_size`` for the n-th pair submitted.

        The pair must not change until its batch has been polled or stolen.
        """
        self._batch.append(pair)
        if len(self._batch) >= self.batch_size:
            self._flush()

    def close(self) -> None:
        """No more pairs: the child's input ends once the queue is empty."""
        self._flush()
        with self._lock:
            self._closed = True
            self._lock.notify_all()

    def _flush(self) -> None:
        if self._batch:
            with self._lock:
                self._pairs[self._count] = self._batch
                self._queued.append(self._count)
                self._count += 1
                self._lock.notify_all()
            self._batch = []
            self.prepare()

    def prepare(self) -> None:
        """Pickle the front batches for the sender, up to a few ahead of it."""
        while True:
            with self._lock:
                if (
                    len(self._ready) + self._preparing >= _READY
                    or not self._queued
                    or self._failure is not None
                ):
                    return
                number = self._queued.popleft()
                batch = self._pairs[number]
                self._preparing += 1
            try:
                frame = _batch_frame(batch)
            except Exception as exc:  # noqa: BLE001 - the batch stays the caller's to grade
                self._fail(f"cannot send to the grading worker: {type(exc).__name__}: {exc}")
                frame = None
            with self._lock:
                self._preparing -= 1
                if frame is not None:
                    self._ready.append((number, frame))
                self._lock.notify_all()
            if frame is None:
                return

    def poll(self, number: int) -> tuple[Received | None, list[Pair] | None]:
        """Batch ``number``: ``(answer, None)`` once the child has answered it,
        ``(None, pairs)`` when it is the caller's to grade (nobody took it, or
        the child failed), ``(None, None)`` while the child is working on it."""
        payload: bytes | None = None
        with self._lock:
            if number >= self._count:
                raise IndexError(f"batch {number} was never submitted")
            if number in self._answers:
                payload = self._answers.pop(number)
                pairs = self._pairs.pop(number)
        if payload is not None:
            try:
                answer = read_answer(payload)
                # A whole batch's verdicts are read when its records are; its
                # tally has one row per record.
                answered = (
                    len(answer.tally[0]) if answer.tally is not None else len(answer.unpickled())
                )
                if answered != len(pairs):
                    raise ValueError(f"{answered} answers for {len(pairs)} pairs")
            except (ValueError, TypeError, IndexError, EOFError, pickle.UnpicklingError) as exc:
                self._fail(f"cannot read from the grading worker: {exc}")
                return None, pairs
            return answer, None
        with self._lock:
            if self._queued and self._queued[0] == number:
                self._queued.popleft()
                return None, self._pairs.pop(number)
            if self._failure is not None and number in self._pairs:
                with contextlib.suppress(ValueError):
                    self._queued.remove(number)
                return None, self._pairs.pop(number)
            return None, None

    def steal(self) -> tuple[int, list[Pair]] | None:
        """The first batch nobody has taken, now the caller's to grade; None if there is none."""
        with self._lock:
            if not self._queued:
                return None
            number = self._queued.popleft()
            return number, self._pairs.pop(number)

    def wait(self, number: int) -> None:
        """Wait until batch ``number`` is answered or the child has failed."""
        with self._lock:
            while number not in self._answers and self._failure is None:
                self._lock.wait()

    def stop(self) -> None:
        """End the child (at once if it is still working) and the threads."""
        self._fail("stopped")
        proc = self._proc
        if proc.poll() is None:
            # Idle or not, the child has nothing left that anyone will read.
            proc.kill()
            proc.wait()
        for thread in (self._sender, self._receiver):
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(timeout=5)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def _fail(self, reason: str) -> None:
        with self._lock:
            if self._failure is None:
                self._failure = reason
            self._lock.notify_all()

    def _send(self) -> None:
        stream = self._proc.stdin
        assert stream is not None
        try:
            _write_frame(stream, self._context)
            while True:
                with self._lock:
                    while (
                        not self._ready
                        and not self._queued
                        and (self._preparing or not self._closed)
                        and self._failure is None
                    ):
                        self._lock.wait()
                    if self._failure is not None:
                        return
                    frame: bytes | None = None
                    batch = None
                    if self._ready:
                        number, frame = self._ready.popleft()
                    elif self._queued:  # the caller is busy: pickle it here
                        number = self._queued.popleft()
                        batch = self._pairs[number]
                    else:  # closed, and every batch is taken
                        break
                    self._sending.append(number)
                if frame is None:
                    assert batch is not None
                    frame = _batch_frame(batch)
                _write_frame(stream, frame)
                del frame, batch
            _write_frame(stream, b"")
            stream.close()
        except Exception as exc:  # noqa: BLE001 - a dead thread must not leave a batch unanswered
            self._fail(f"cannot send to the grading worker: {type(exc).__name__}: {exc}")

    def _receive(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        try:
            while True:
                payload = _read_frame(stream)
                if payload is None:
                    code = self._proc.wait()
                    with self._lock:
                        done = (
                            self._closed
                            and not self._queued
                            and not self._ready
                            and not self._preparing
                            and not self._sending
                        )
                    if code != 0 or not done:
                        self._fail(f"the grading worker ended early (exit code {code})")
                    return
                tag = payload[:1]
                if tag == _ERROR:
                    self._fail(f"the grading worker failed: {pickle.loads(payload[1:])}")
                    return
                if tag != _ANSWER:
                    raise ValueError("not an answer frame")
                with self._lock:
                    number = self._sending.popleft()
                    self._answers[number] = payload
                    self._lock.notify_all()
        except Exception as exc:  # noqa: BLE001 - a dead thread must not leave a batch unanswered
            self._fail(f"cannot read from the grading worker: {type(exc).__name__}: {exc}")


# --- child side -----------------------------------------------------------------


def grade_jobs(jobs: Iterable[tuple[Any, ...]], grader: Any) -> Answer:
    """What the child computes for one frame: each pair graded as the parent
    would, or None where only the parent can (see the module doc)."""
    from scorers.errors import EvaluatorError
    from scorers.grade.notes import usage_notes
    from scorers.io.scores import tally_of
    from scorers.io.updated_writer import serialise

    graded: list[Graded | None] = []
    records: list[dict[str, Any]] = []
    for pred_fields, pred_encoded, gt_fields, gt_encoded in jobs:
        pred = _restored(pred_fields, pred_encoded)
        gt = _restored(gt_fields, gt_encoded)
        response = grader.single_response(pred)
        if response is None:
            graded.append(None)
            continue
        try:
            given = grader.rule_verdicts(gt, response)
            record = grader.grade_record(pred, gt, given)
        except EvaluatorError:
            graded.append(None)  # the parent raises it, naming the record, in order
            continue
        grader.finish(record)
        review = record[REVIEW_KEY]
        graded.append((given, review["content_hash"], review["flags"]))
        records.append(record)
    if len(records) != len(graded):
        return Answer(graded, None, None)
    # The records are written and tallied as the parent would: it need not rebuild them.
    settings = grader.settings
    row = tally_of(settings).row
    unreadable = usage_notes(records, settings.harness_stats)
    return Answer(graded, ([row(r) for r in records], unreadable), serialise(records))


def serve(source: IO[bytes], sink: IO[bytes]) -> int:
    """The child's loop: read the context, then answer batches until the empty frame."""
    from scorers.flags import flagging
    from scorers.grade.grader import Grader

    head = _read_frame(source)
    if head is None:
        return 0
    settings, modules = pickle.loads(head)
    flagging.DETECTOR_MODULES = modules
    flagging.detectors()  # imported now, not inside the first batch's timing
    grader = Grader(settings)
    while True:
        payload = _read_frame(source)
        if not payload:
            return 0
        try:
            answer = grade_jobs(pickle.loads(payload), grader)
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which grades it
            _write_frame(sink, _ERROR, pickle.dumps(f"{type(exc).__name__}: {exc}"))
            return 1
        _write_answer(sink, answer)


def main() -> int:
    # The protocol owns stdout: anything printed by accident goes to stderr.
    sink = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr
    # Import grading and the detectors while the parent is still reading its files.
    import scorers.flags.behaviour  # noqa: F401
    import scorers.grade.grader  # noqa: F401

    try:
        return serve(sys.stdin.buffer, sink)
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
    finally:
        with contextlib.suppress(OSError):
            sink.close()


if __name__ == "__main__":
    sys.exit(main())
