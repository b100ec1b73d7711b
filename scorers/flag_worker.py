"""The behaviour-flag detectors of a large run, computed in a second process.

Grading is pure Python, so one process keeps one core busy, and the
heuristic detectors (``scorers.flags``: cue scans, negation and resolution
checks) cost more per record than both rule modes together. For a large run
the grader queues every graded record for a child process that runs those
detectors while grading goes on; once grading is done, the writer flags the
batches the child has not started itself, from the back of the queue, and
splices every batch's flags into place as it writes the records in order.
Both cores work until the last batch.

The child sees only what the detectors read (``JOB_FIELDS``, the record's
verdicts and its two texts), so the flags are the ones a serial run computes:
``tests/test_flag_worker.py`` holds the files of the two runs equal.
Anything that goes wrong with the child (it cannot start, dies, or reports
an error) hands its unfinished batches back to this process, which runs the
detectors itself: a failure costs time, never a flag.

Protocol, on the child's stdin and stdout: frames of an 8-byte little-endian
length and a pickle. The parent sends the run's FlagContext, then batches of
jobs, then an empty frame; the child answers each batch with the list of its
records' flags, or with ``("error", message)`` and exits.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import struct
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, Any

from scorers.records import REVIEW_KEY, Flag, ResponseTexts, response_texts

# What scorers.flags.detect reads from a record besides its texts.
JOB_FIELDS = ("reference", "evaluator", "evaluator_kwargs", "tools_available")
MODULE = "scorers.flags"  # the detector module the child runs
BATCH = 128  # records per frame: ~0.7 MB of 5 KB traces, ~30 ms of work
_LENGTH = struct.Struct("<Q")

Job = tuple[dict[str, Any], str, str]


def job_of(record: Mapping[str, Any], texts: ResponseTexts) -> Job:
    """What the child needs to flag ``record``: references, nothing is copied here."""
    slim = {name: record[name] for name in JOB_FIELDS if name in record}
    review = record.get(REVIEW_KEY)
    if isinstance(review, dict):
        slim[REVIEW_KEY] = {"verdicts": review.get("verdicts", [])}
    return slim, texts.reasoning, texts.answer


def _write_frame(stream: IO[bytes], payload: bytes) -> None:
    stream.write(_LENGTH.pack(len(payload)))
    stream.write(payload)
    stream.flush()


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


class FlagWorker:
    """A child process that flags batches of graded records, and a queue it shares.

    Graded records are queued in numbered batches (``submit``; the queue
    holds the records themselves, never copies of their texts). A sender
    thread hands the front batch to the child as soon as the child can take
    it and a receiver thread collects the answers, so neither pipe fills
    while the other side waits. The caller, once it has graded everything,
    asks for each batch in order (``poll``) and, while the child is still
    busy with it, flags batches from the back of the queue itself
    (``steal``): the two work through what is left from both ends, each on
    its own core.
    """

    def __init__(self, proc: subprocess.Popen[bytes], context: bytes) -> None:
        self._proc = proc
        self._context = context
        self._batch: list[Mapping[str, Any]] = []
        self.slots: list[int] = []  # per submitted record: where its flags go
        self._count = 0  # batches submitted
        self._queued: deque[int] = deque()  # batch numbers nobody has taken, in order
        self._records: dict[int, list[Mapping[str, Any]]] = {}  # queued or with the child
        self._sending: deque[int] = deque()  # batch numbers the child has, in order
        self._answers: dict[int, list[list[Flag]]] = {}
        self._closed = False
        self._lock = threading.Condition()
        self._failure: str | None = None
        self._sender = threading.Thread(target=self._send, name="rome-tui-flags-send", daemon=True)
        self._receiver = threading.Thread(
            target=self._receive, name="rome-tui-flags-receive", daemon=True
        )

    @classmethod
    def start(cls, ctx: Any) -> FlagWorker | None:
        """A running worker for a run with ``ctx`` (a FlagContext), or None if none can start."""
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
        worker = cls(proc, pickle.dumps(ctx, protocol=pickle.HIGHEST_PROTOCOL))
        worker._sender.start()
        worker._receiver.start()
        return worker

    @property
    def failure(self) -> str | None:
        """Why the child stopped before it was done, if it did."""
        return None if self._failure == "stopped" else self._failure

    # --- parent side ------------------------------------------------------------

    def submit(self, record: Mapping[str, Any], at: int) -> None:
        """Queue a graded record, in batch ``n // BATCH`` for the n-th record submitted.

        ``at`` is where its flags go in ``review.flags`` (flagging.flags_without).
        The record must not change until its batch has been polled.
        """
        self.slots.append(at)
        self._batch.append(record)
        if len(self._batch) >= BATCH:
            self._flush()

    def close(self) -> None:
        """No more records: the child's input ends once the queue is empty."""
        self._flush()
        with self._lock:
            self._closed = True
            self._lock.notify_all()

    def _flush(self) -> None:
        if self._batch:
            with self._lock:
                self._records[self._count] = self._batch
                self._queued.append(self._count)
                self._count += 1
                self._lock.notify_all()
            self._batch = []

    def poll(self, number: int) -> tuple[list[list[Flag]] | None, list[Mapping[str, Any]] | None]:
        """Batch ``number``: ``(flags, None)`` once the child has answered it,
        ``(None, records)`` when it is the caller's to flag (nobody took it, or
        the child failed), ``(None, None)`` while the child is working on it."""
        with self._lock:
            if number >= self._count:
                raise IndexError(f"batch {number} was never submitted")
            if number in self._answers:
                return self._answers.pop(number), None
            if self._queued and self._queued[0] == number:
                self._queued.popleft()
                return None, self._records.pop(number)
            if self._failure is not None and number in self._records:
                with contextlib.suppress(ValueError):
                    self._queued.remove(number)
                return None, self._records.pop(number)
            return None, None

    def steal(self) -> tuple[int, list[Mapping[str, Any]]] | None:
        """The last batch nobody has taken, now the caller's to flag; None if there is none."""
        with self._lock:
            if not self._queued:
                return None
            number = self._queued.pop()
            return number, self._records.pop(number)

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
                    while not self._queued and not self._closed and self._failure is None:
                        self._lock.wait()
                    if self._failure is not None:
                        return
                    if not self._queued:  # closed, and every batch is taken
                        break
                    number = self._queued.popleft()
                    batch = self._records[number]
                    self._sending.append(number)
                jobs = [job_of(record, response_texts(record)) for record in batch]
                _write_frame(stream, pickle.dumps(jobs, protocol=pickle.HIGHEST_PROTOCOL))
                del jobs, batch
            _write_frame(stream, b"")
            stream.close()
        except (OSError, ValueError, pickle.PicklingError) as exc:
            self._fail(f"cannot send to the flag worker: {exc}")

    def _receive(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        try:
            while True:
                payload = _read_frame(stream)
                if payload is None:
                    code = self._proc.wait()
                    with self._lock:
                        done = self._closed and not self._queued and not self._sending
                    if code != 0 or not done:
                        self._fail(f"the flag worker ended early (exit code {code})")
                    return
                answer = pickle.loads(payload)
                if isinstance(answer, tuple):
                    self._fail(f"the flag worker failed: {answer[1]}")
                    return
                with self._lock:
                    number = self._sending.popleft()
                    del self._records[number]
                    self._answers[number] = answer
                    self._lock.notify_all()
        except (OSError, ValueError, EOFError, pickle.UnpicklingError) as exc:
            self._fail(f"cannot read from the flag worker: {exc}")


class DeferredFlags(Sequence[dict[str, Any]]):
    """A run's records, whose ``scorers.flags`` flags come from a FlagWorker.

    Reading a record (by index, slice or iteration) first merges the flags of
    every record up to it, so a writer walking the records in order streams
    right behind the worker; while it waits for the child it flags batches
    from the back of the queue itself. Without a worker, or once it failed,
    the detectors all run here: the records end the same either way.
    """

    def __init__(self, records: list[dict[str, Any]], worker: FlagWorker | None, ctx: Any) -> None:
        self._records = records
        self._worker = worker
        self._ctx = ctx
        self._done = 0 if worker is not None else len(records)
        self._stolen: dict[int, list[list[Flag]]] = {}

    @property
    def failure(self) -> str | None:
        """Why the worker stopped before it was done, if it did."""
        return self._worker.failure if self._worker is not None else None

    def _flag_here(self, records: Sequence[Mapping[str, Any]]) -> list[list[Flag]]:
        detect = importlib.import_module(MODULE).detect
        ctx = self._ctx
        return [list(detect(record, response_texts(record), ctx)) for record in records]

    def _batch_flags(self, number: int) -> list[list[Flag]]:
        worker = self._worker
        assert worker is not None
        if number in self._stolen:
            return self._stolen.pop(number)
        while True:
            flags, records = worker.poll(number)
            if flags is not None:
                return flags
            if records is not None:
                return self._flag_here(records)
            stolen = worker.steal()
            if stolen is None:
                worker.wait(number)
            else:
                self._stolen[stolen[0]] = self._flag_here(stolen[1])

    def _reach(self, stop: int) -> None:
        if stop <= self._done:
            return
        from scorers.flagging import insert_flags

        assert self._worker is not None
        slots = self._worker.slots
        while self._done < stop:
            number = self._done // BATCH
            end = min(len(self._records), (number + 1) * BATCH)
            flags = self._batch_flags(number)
            for i, found in zip(range(self._done, end), flags, strict=True):
                insert_flags(self._records[i], slots[i], found)
            self._done = end

    def resolve(self) -> list[dict[str, Any]]:
        """Every record, with all its flags."""
        self._reach(len(self._records))
        return self._records

    def __len__(self) -> int:
        return len(self._records)

    def __getitem__(self, index: Any) -> Any:
        reached = range(len(self._records))[index]
        if isinstance(reached, range):
            if reached:
                self._reach(max(reached) + 1)
        else:
            self._reach(reached + 1)
        return self._records[index]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.resolve())


# --- child side -----------------------------------------------------------------


def flag_jobs(jobs: Iterable[Job], ctx: Any) -> list[list[Flag]]:
    """Every job's heuristic flags: what the child computes for one frame."""
    from scorers.flags import detect

    return [
        list(detect(slim, ResponseTexts(reasoning, answer), ctx))
        for slim, reasoning, answer in jobs
    ]


def serve(source: IO[bytes], sink: IO[bytes]) -> int:
    """The child's loop: read the context, then answer batches until the empty frame."""
    head = _read_frame(source)
    if head is None:
        return 0
    ctx = pickle.loads(head)
    while True:
        payload = _read_frame(source)
        if not payload:
            return 0
        try:
            answer: Sequence[Any] = flag_jobs(pickle.loads(payload), ctx)
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which recomputes
            _write_frame(sink, pickle.dumps(("error", f"{type(exc).__name__}: {exc}")))
            return 1
        _write_frame(sink, pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))


def main() -> int:
    # The protocol owns stdout: anything printed by accident goes to stderr.
    sink = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr
    try:
        return serve(sys.stdin.buffer, sink)
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
    finally:
        with contextlib.suppress(OSError):
            sink.close()


if __name__ == "__main__":
    sys.exit(main())
