"""Keeping a large file's data moving to disk while it is still being written.

``rome-tui grade`` writes updated_predictions.json (hundreds of MB for a large
run) and fsyncs it before the rename that makes it the run's file. Left to
the end, that fsync waits for everything at once: on a virtual disk whose
host caches writes, 0.1-0.5 s for 650 MB, with both cores idle (measured
with ``benchmarks/grade_throughput.py``). :class:`Writeback` spreads the work
over the writing instead:

- every ``WRITEBACK_EVERY`` bytes it asks Linux to start writing the stretch
  just finished (``sync_file_range``, which returns at once);
- every ``SYNC_EVERY`` bytes, when the previous one is done, a background
  thread runs ``fdatasync``, which also makes the disk flush its cache. The
  thread waits on the disk, not the CPU, and releases the GIL meanwhile.

The final fsync then has only the last stretch left. Durability is the
caller's final fsync, as before: an error a background sync met is raised
by :meth:`Writeback.finish` (a later fsync may not report it again).
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Callable
from functools import cache
from typing import BinaryIO

WRITEBACK_EVERY = 8 << 20  # bytes written between two writeback requests
SYNC_EVERY = 64 << 20  # bytes written between two background fdatasyncs


@cache
def _writeback_starter() -> Callable[[int, int, int], object] | None:
    """``sync_file_range(fd, offset, n, SYNC_FILE_RANGE_WRITE)`` where Linux offers it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        func = libc.sync_file_range
    except (OSError, AttributeError):
        return None
    func.argtypes = (ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint)
    func.restype = ctypes.c_int

    def start(fd: int, offset: int, nbytes: int) -> object:
        return func(fd, offset, nbytes, 2)  # SYNC_FILE_RANGE_WRITE: start, do not wait

    return start


def _datasync() -> Callable[[int], None]:
    # fdatasync skips metadata the data does not need; where it is missing, fsync.
    return getattr(os, "fdatasync", os.fsync)


class Writeback:
    """Call :meth:`wrote` after each write to ``handle``, :meth:`finish` before the final fsync."""

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle
        self._fd = handle.fileno()
        self._start = _writeback_starter()
        self._written = 0
        self._started = 0  # bytes handed to sync_file_range
        self._synced = 0  # bytes written when the last background sync began
        self._thread: threading.Thread | None = None
        self._error: OSError | None = None

    def wrote(self, nbytes: int) -> None:
        self._written += nbytes
        written = self._written
        if written - self._started >= WRITEBACK_EVERY:
            self._handle.flush()  # the buffered tail must reach the kernel first
            if self._start is not None:
                self._start(self._fd, self._started, written - self._started)
            self._started = written
            if written - self._synced >= SYNC_EVERY and not self._syncing():
                self._synced = written
                self._thread = threading.Thread(
                    target=self._sync, name="rome-tui-datasync", daemon=True
                )
                self._thread.start()

    def _syncing(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _sync(self) -> None:
        try:
            _datasync()(self._fd)
        except OSError as exc:
            self._error = exc

    def finish(self) -> None:
        """Wait for the background sync; raise the error it met, if any."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._error is not None:
            raise self._error
