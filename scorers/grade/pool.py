"""Pieces of a streamed grade handed to forked processes, their answers taken in order.

``rome-tui grade`` is pure Python, so one process keeps one core busy. A
streamed run (``scorers.grade.stream``) is cut into pieces of ~256 KB of
predictions; once the annotations are indexed and the first piece is graded
(which loads strict mode's data and the flag detectors), this process forks
workers that share all of that copy-on-write. Each worker is given pieces by
their place in the file (offsets, a few bytes through a pipe: the worker reads
the bytes itself), grades them and answers with bytes. This process hands out
pieces as workers free up, a few ahead, grades pieces itself while no answer is
due, and takes the answers in file order.

Forking is safe only in a process without other threads (one could hold a
lock the child then waits for forever), on a platform with ``fork``:
:func:`processes` says 1 otherwise, as it does when ``ROME_TUI_JOBS`` is 1.

Protocol: the parent writes ``_TASK`` records (a piece's place) to a worker's
task pipe; the worker answers each, in order, with an 8-byte length and a body,
which is empty when it could not do the piece (the parent then does it, and
meets whatever stopped the worker). A worker that dies makes
:class:`GradingProcessDied`. Closing the task pipe ends a worker.
"""

from __future__ import annotations

import contextlib
import gc
import os
import select
import signal
import struct
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from scorers.errors import GradingProcessDied

try:
    import fcntl
except ImportError:  # Windows: no fork either
    fcntl = None  # type: ignore[assignment]
from scorers.io.streaming import Piece

JOBS_ENV = "ROME_TUI_JOBS"  # at most this many grading processes (1: never fork)
_AHEAD = 2  # pieces given to a worker before it answers: it never waits for the next
_TASK = struct.Struct("<QQ??QQ")  # offset, size, array, last, line, index
_LENGTH = struct.Struct("<Q")
_F_SETPIPE_SZ = 1031  # fcntl.F_SETPIPE_SZ (Linux)
_PIPE_BYTES = 1 << 20

# Runs in a worker: a piece's answer, as parts to send (empty: the parent does it).
Work = Callable[[Piece], Sequence[bytes | memoryview]]


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity where the platform says (a container
    or ``taskset`` may allow fewer than the machine has), else the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def processes() -> int:
    """How many processes may grade a streamed run, this one included: the CPUs it
    may run on, at most ``$ROME_TUI_JOBS``; 1 where forking is unsafe or impossible."""
    if not hasattr(os, "fork") or not sys.platform.startswith("linux"):
        return 1
    if threading.active_count() > 1:
        return 1  # e.g. the review app grading from a worker thread
    cpus = usable_cpus()
    cap = os.environ.get(JOBS_ENV, "").strip()
    if cap.isdigit() and int(cap) >= 1:
        cpus = min(cpus, int(cap))
    return cpus


@dataclass
class _Worker:
    pid: int
    tasks: int  # the write end of its task pipe
    answers: int  # the read end of its answer pipe
    waiting: deque[int] = field(default_factory=deque)  # numbers of the pieces it holds


class PiecePool:
    """Forked workers doing ``work`` on pieces; :meth:`answers` yields them in order."""

    def __init__(self, workers: list[_Worker]) -> None:
        self._workers = workers
        self.size = len(workers)  # the workers forked

    @classmethod
    def start(cls, work: Work, count: int) -> PiecePool | None:
        """``count`` workers forked now, or None if none could be (or another
        thread runs: then forking is unsafe)."""
        if count < 1 or threading.active_count() > 1:
            return None
        workers: list[_Worker] = []
        for _ in range(count):
            try:
                worker = _fork(work, workers)
            except OSError:
                break  # no more processes: work with those started
            workers.append(worker)
        if not workers:
            return None
        return cls(workers)

    def answers(self, pieces: Iterator[Piece], here: Work) -> Iterator[tuple[Piece, memoryview]]:
        """Each piece with its answer, in order. The workers are kept ``_AHEAD``
        pieces ahead; while the next answer due is not in, this process does the
        next piece itself with ``here`` (so it is one of the grading processes).
        An error raised by ``pieces`` is raised once the answers to the pieces
        before it are taken, where reading them in one process would have met it."""
        held: deque[tuple[int, Piece]] = deque()  # handed out or done, not yet yielded
        done: dict[int, memoryview] = {}
        number = 0
        stopped: BaseException | None = None
        more = True

        def following() -> Piece | None:
            nonlocal more, stopped
            try:
                return next(pieces)
            except StopIteration:
                pass
            except Exception as exc:  # noqa: BLE001 - raised in order, below
                stopped = exc
            more = False
            return None

        while True:
            while more and sum(len(w.waiting) for w in self._workers) < _AHEAD * self.size:
                piece = following()
                if piece is None:
                    break
                worker = min(self._workers, key=lambda w: len(w.waiting))
                task = _TASK.pack(
                    piece.offset, piece.size, piece.array, piece.last, piece.line, piece.index
                )
                try:
                    _write_all(worker.tasks, task)
                except BrokenPipeError:
                    raise GradingProcessDied(_died(worker.pid)) from None
                worker.waiting.append(number)
                held.append((number, piece))
                number += 1
            if not held:
                if stopped is not None:
                    raise stopped
                return
            first, piece = held[0]
            while first not in done:
                if self._receive(done, wait=False):
                    continue
                # Nothing in yet: do a piece here, unless this process is ahead enough.
                mine = following() if more and len(held) < 2 * _AHEAD * self.size else None
                if mine is None:
                    self._receive(done, wait=True)
                    continue
                try:
                    parts = here(mine)
                except Exception:  # noqa: BLE001 - graded again in order, and met then
                    parts = ()
                done[number] = memoryview(b"".join(parts))
                held.append((number, mine))
                number += 1
            held.popleft()
            yield piece, done.pop(first)

    def _receive(self, done: dict[int, memoryview], *, wait: bool) -> bool:
        """Read one answer from a worker that has one ready (with ``wait``, once one
        has); False if none has."""
        busy = {w.answers: w for w in self._workers if w.waiting}
        if not busy:
            return False
        ready, _, _ = select.select(list(busy), [], [], None if wait else 0)
        if not ready:
            return False
        worker = busy[ready[0]]
        head = _read_exactly(worker.answers, _LENGTH.size)
        body = None if head is None else _read_exactly(worker.answers, _LENGTH.unpack(head)[0])
        if body is None:
            raise GradingProcessDied(_died(worker.pid))
        done[worker.waiting.popleft()] = memoryview(body)
        return True

    def close(self) -> None:
        """End the workers (at once, if they are still busy) and wait for them."""
        workers, self._workers = self._workers, []
        for worker in workers:
            for fd in (worker.tasks, worker.answers):
                with contextlib.suppress(OSError):
                    os.close(fd)
            if worker.waiting:
                with contextlib.suppress(OSError):
                    os.kill(worker.pid, signal.SIGTERM)
        for worker in workers:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(worker.pid, 0)


def _fork(work: Work, others: list[_Worker]) -> _Worker:
    task_read, task_write = os.pipe()
    answer_read, answer_write = os.pipe()
    # Room for the answers the worker may owe, so that it never waits for this
    # process to read one before it goes on (1 MB: Linux's limit without privileges).
    if fcntl is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(answer_write, _F_SETPIPE_SZ, _PIPE_BYTES)
    try:
        pid = os.fork()
    except OSError:
        for fd in (task_read, task_write, answer_read, answer_write):
            os.close(fd)
        raise
    if pid == 0:  # the worker: never returns
        code = 1
        try:
            # Ctrl+C is the parent's to handle: it ends the workers.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            # A collection would write to every object's header and so copy each
            # page shared with the parent; nothing here makes cycles.
            gc.disable()
            gc.freeze()
            os.close(task_write)
            os.close(answer_read)
            for other in others:  # else their task pipes never see EOF
                os.close(other.tasks)
                os.close(other.answers)
            _serve(task_read, answer_write, work)
            code = 0
        finally:
            os._exit(code)  # no atexit handlers, no flushing the parent's buffers
    os.close(task_read)
    os.close(answer_write)
    return _Worker(pid, task_write, answer_read)


def _serve(tasks: int, answers: int, work: Work) -> None:
    while True:
        task = _read_exactly(tasks, _TASK.size)
        if task is None:
            return
        offset, size, array, last, line, index = _TASK.unpack(task)
        piece = Piece(offset, size, array, last, line, index)
        try:
            parts = work(piece)
        except BaseException:  # noqa: BLE001 - the parent does the piece and meets it
            parts = ()
        _write_all(answers, _LENGTH.pack(sum(len(part) for part in parts)))
        for part in parts:
            _write_all(answers, part)


def _read_exactly(fd: int, size: int) -> bytearray | None:
    """``size`` bytes from ``fd``; None at end of file (the other side is gone)."""
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        n = os.readv(fd, [view[got:]])
        if n == 0:
            return None
        got += n
    return buffer


def _write_all(fd: int, data: bytes | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _died(pid: int) -> str:
    how = "ended"
    with contextlib.suppress(ChildProcessError):
        _, status = os.waitpid(pid, 0)  # its answer pipe closed: it is gone or going
        if os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            how = f"was killed by signal {number} ({signal.Signals(number).name})"
        else:
            how = f"exited with status {os.WEXITSTATUS(status)}"
    return (
        f"a grading process (pid {pid}) {how} before it was done; nothing was written "
        f"and the run it would replace is kept. Grade again ({JOBS_ENV}=1 grades in "
        "one process)"
    )
