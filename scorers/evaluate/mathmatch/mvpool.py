"""math-verify behind a per-call deadline that works from any thread.

math-verify's own timeout uses ``signal.alarm``: it raises in any thread but the
main one and is not re-entrant. So its timeouts are switched off and each call
runs in a worker process instead; a call that overruns its deadline has its
worker killed (a new one starts on the next call) and reports ``None``.
When processes cannot be started (e.g. inside a daemonic worker), calls run in a
daemon thread that is abandoned at the deadline: the item still never hangs.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import queue
import select
import subprocess
import sys
import threading
from collections import OrderedDict
from typing import IO, Any

_CACHE_SIZE = 20000
_MAX_WORKERS = 2


def _wrap(s: str) -> str:
    return "$" + s + "$"


def _compare(gold: str, pred: str) -> bool:
    """The comparison itself; runs in the worker (or the fallback thread)."""
    from math_verify import parse, verify

    g = parse(_wrap(gold), parsing_timeout=None)
    p = parse(_wrap(pred), parsing_timeout=None)
    if not g or not p:
        return False
    return bool(verify(g, p, timeout_seconds=None, allow_set_relation_comp=True))


def serve(stdin: IO[str], stdout: IO[str]) -> None:
    """Worker loop: one JSON [gold, pred] per line in, one JSON bool per line out."""
    logging.disable(logging.CRITICAL)  # math-verify logs a warning per call with timeouts off
    _compare("1", "1")  # pay the imports before saying ready
    stdout.write('"ready"\n')
    stdout.flush()
    for line in stdin:
        try:
            gold, pred = json.loads(line)
            result = _compare(gold, pred)
        except Exception:  # noqa: BLE001 - any sympy failure means "not shown equal"
            result = False
        stdout.write("true\n" if result else "false\n")
        stdout.flush()


class _Worker:
    """A child interpreter running :func:`serve` (a plain subprocess: no fork of a
    threaded parent, no re-import of the caller's ``__main__``, allowed from
    daemonic processes)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scorers.evaluate.mathmatch.mvworker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        if self._read(120) != "ready":
            self.kill()
            raise RuntimeError("math-verify worker did not start")

    def _read(self, timeout: float) -> Any:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], max(timeout, 0.0))
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def call(self, gold: str, pred: str, timeout: float) -> bool | None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps([gold, pred]) + "\n")
            self.proc.stdin.flush()
        except OSError:
            self.kill()
            return None
        result = self._read(timeout)
        if result is None:
            self.kill()
            return None
        return bool(result)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


class MathVerifyPool:
    """Thread-safe: each calling thread borrows an idle worker (at most ``_MAX_WORKERS``)."""

    def __init__(self, max_workers: int = _MAX_WORKERS) -> None:
        self._idle: queue.LifoQueue[_Worker] = queue.LifoQueue()
        self._lock = threading.Lock()
        self._started = 0
        self._max = max_workers
        self._processes_ok = True
        self._cache: OrderedDict[tuple[str, str], bool] = OrderedDict()
        self.calls = 0
        self.timeouts = 0

    def equal(self, gold: str, pred: str, timeout: float) -> bool | None:
        """True/False, or None when the deadline passed first."""
        key = (gold, pred)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            self.calls += 1
        result = self._run(gold, pred, timeout)
        with self._lock:
            if result is None:
                self.timeouts += 1
            else:
                self._cache[key] = result
                if len(self._cache) > _CACHE_SIZE:
                    self._cache.popitem(last=False)
        return result

    def _run(self, gold: str, pred: str, timeout: float) -> bool | None:
        if timeout <= 0:
            return None
        worker = self._borrow()
        if worker is None:
            return _in_thread(gold, pred, timeout)
        result = worker.call(gold, pred, timeout)
        if result is None:
            # The worker was killed; its replacement starts now, in the
            # background, so the next item does not wait for an interpreter.
            threading.Thread(target=self._replace, daemon=True, name="math-verify-start").start()
        else:
            self._idle.put(worker)
        return result

    def _replace(self) -> None:
        try:
            self._idle.put(_Worker())
        except (RuntimeError, OSError):
            with self._lock:
                self._started -= 1

    def _borrow(self) -> _Worker | None:
        while True:
            try:
                return (
                    self._idle.get(timeout=0.05)
                    if self._started >= self._max
                    else self._idle.get_nowait()
                )
            except queue.Empty:
                pass
            with self._lock:
                if not self._processes_ok:
                    return None
                start = self._started < self._max
                if start:
                    self._started += 1
            if start:
                break
        try:
            return _Worker()
        except (RuntimeError, OSError):
            with self._lock:
                self._started -= 1
                self._processes_ok = False
            return None

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().kill()
            except queue.Empty:
                return


def _in_thread(gold: str, pred: str, timeout: float) -> bool | None:
    box: list[Any] = []

    def run() -> None:
        try:
            box.append(_compare(gold, pred))
        except Exception:  # noqa: BLE001
            box.append(False)

    logging.getLogger("math_verify").setLevel(logging.ERROR)
    thread = threading.Thread(target=run, daemon=True, name="math-verify")
    thread.start()
    thread.join(timeout)
    return bool(box[0]) if box else None


_POOL: MathVerifyPool | None = None
_POOL_LOCK = threading.Lock()
_INHERITED: list[MathVerifyPool] = []


def _forget_in_child() -> None:
    """A forked process (a streamed grade's worker) starts its own workers: two
    processes talking to the same math-verify worker would mix their answers.
    The parent's pool is kept referenced, never closed: its workers are the parent's."""
    global _POOL, _POOL_LOCK
    if _POOL is not None:
        _INHERITED.append(_POOL)
    _POOL = None
    _POOL_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def pool() -> MathVerifyPool:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = MathVerifyPool()
            atexit.register(_POOL.close)
        return _POOL
