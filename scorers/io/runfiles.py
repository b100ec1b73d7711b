"""The one write path of a graded run: load it with a stamp, save it only if unchanged.

Every writer of a run's files (``rome-tui grade`` into an existing directory,
``rome-tui judge``, the review store's write-back) goes through
:func:`save_run`: under the run's lock file it checks that neither
``updated_predictions.json`` nor ``scores.json`` changed since it read them
(size and content hash), then rewrites them atomically and returns the new
stamp (:func:`save_run_unstamped`, for a writer done with the run, skips it: it
reads back the whole file). A check that fails writes nothing and raises
:class:`ConflictError`.

The flow is one way: :func:`load_run` stamps and loads (``results``),
:func:`save_run` checks, saves and scores (``results`` -> ``scores``) and
stamps again; callers above (``scorers.judges.run``, ``scorers.adjudicate.store``,
``scorers.grade.run``) never reach into the stamps or the lock.
"""

from __future__ import annotations

import contextlib
import glob
import os
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorers.errors import ConflictError
from scorers.io.jsonio import require_a_file, unreadable
from scorers.io.results import LoadedResults, load_results, save_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.io.updated_writer import Serialised

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".rome-tui.lock"
_HUGE = 64 << 20  # bytes: an unchanged size and mtime is trusted without re-hashing


@dataclass(frozen=True)
class FileStamp:
    """What a results file looked like when it was last read or written."""

    size: int
    mtime_ns: int
    digest: str

    @classmethod
    def of(cls, path: Path) -> FileStamp | None:
        try:
            st = path.stat()
        except FileNotFoundError:
            return None
        require_a_file(path)  # a pipe would block the checksum, or be eaten by it
        return cls(st.st_size, st.st_mtime_ns, _digest(path))


def _digest(path: Path) -> str:
    """CRC-32 of the content: a change detector, not a security check, and 8x faster
    than blake2b (it runs over the whole file at every open and write-back)."""
    crc = 0
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 22):
                crc = zlib.crc32(chunk, crc)
    except OSError as exc:  # a directory where the file should be, or unreadable
        raise unreadable(path, exc) from None
    return f"{crc:08x}"


def _changed(path: Path, known: FileStamp | None) -> bool:
    try:
        st = path.stat()
    except FileNotFoundError:
        return known is not None
    if known is None:
        return True
    if st.st_size != known.size:
        return True
    # Same size: only the content decides (a rewrite with equal bytes is no change,
    # and an edit within one mtime tick must still be caught).
    if st.st_mtime_ns == known.mtime_ns and st.st_size > _HUGE:
        return False  # a huge file unchanged in size and mtime: skip the re-hash
    return _digest(path) != known.digest


@dataclass(frozen=True)
class RunStamp:
    """The two files a save rewrites and what they held when read (None: absent)."""

    files: tuple[tuple[Path, FileStamp | None], ...]

    @classmethod
    def of(cls, paths: ResultsPaths) -> RunStamp:
        return cls(tuple((path, FileStamp.of(path)) for path in _watched(paths)))

    def first_changed(self) -> Path | None:
        """The first file that differs on disk from this stamp, or None."""
        for path, known in self.files:
            if _changed(path, known):
                return path
        return None

    def covering(self, paths: ResultsPaths) -> RunStamp:
        """This stamp, plus a fresh one of any file of ``paths`` it does not cover
        (a scores.json that run.json placed elsewhere, known only after loading)."""
        known = {path for path, _ in self.files}
        extra = tuple((p, FileStamp.of(p)) for p in _watched(paths) if p not in known)
        return RunStamp(self.files + extra) if extra else self


def _watched(paths: ResultsPaths) -> tuple[Path, Path]:
    return (Path(paths.updated), Path(paths.scores))


def stamp_run(path: str | os.PathLike[str]) -> RunStamp:
    """The run at ``path`` stamped as it is now: take it *before* loading, so that a
    write landing while the run is read shows up as a change instead of being adopted."""
    return RunStamp.of(ResultsPaths.of(path))


def load_run(path: str | os.PathLike[str]) -> tuple[LoadedResults, RunStamp]:
    """Load a run (:func:`scorers.io.results.load_results`) with the stamp to save it by."""
    before = stamp_run(path)
    loaded = load_results(path)
    return loaded, before.covering(loaded.paths)


@contextlib.contextmanager
def run_lock(directory: Path) -> Iterator[None]:
    """The run directory's write lock (LOCK_NAME), held by every writer of its files."""
    if fcntl is None:
        yield
        return
    try:
        fd = os.open(directory / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield  # read-only or missing directory: the save reports it
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def save_run(
    paths: ResultsPaths,
    records: Sequence[dict[str, Any]] | Serialised,
    settings: RunSettings,
    read: RunStamp,
    then: str,
    *,
    scores_when_written: Callable[[], dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], RunStamp]:
    """Rewrite the run's files unless one changed since ``read``; returns (scores, new stamp).

    On a change: ConflictError naming the file and ending with ``then`` (what
    the user can do); nothing is written.
    """
    with run_lock(Path(paths.updated).parent):
        scores = _save_locked(paths, records, settings, read, then, scores_when_written)
        return scores, RunStamp.of(paths)


def save_run_unstamped(
    paths: ResultsPaths,
    records: Sequence[dict[str, Any]] | Serialised,
    settings: RunSettings,
    read: RunStamp,
    then: str,
    *,
    scores_when_written: Callable[[], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """:func:`save_run` for a writer done with the run (``grade``, ``judge``): without
    the new stamp, which reads back the whole file just written to checksum it."""
    with run_lock(Path(paths.updated).parent):
        return _save_locked(paths, records, settings, read, then, scores_when_written)


def save_unless_changed(loaded: LoadedResults, read: RunStamp, then: str) -> dict[str, Any]:
    """:func:`save_run_unstamped` for a run loaded with :func:`load_run` and changed in memory."""
    return save_run_unstamped(loaded.paths, loaded.records, loaded.settings, read, then)


def _save_locked(
    paths: ResultsPaths,
    records: Sequence[dict[str, Any]] | Serialised,
    settings: RunSettings,
    read: RunStamp,
    then: str,
    scores_when_written: Callable[[], dict[str, Any]] | None,
) -> dict[str, Any]:
    changed = read.first_changed()
    if changed is not None:
        raise ConflictError(
            f"{changed} changed on disk since it was read (another process wrote it); "
            f"nothing was overwritten. {then}"
        )
    _remove_orphans(paths)
    return save_results(paths, records, settings, scores_when_written=scores_when_written)


def _remove_orphans(paths: ResultsPaths) -> None:
    """Temp files of rewrites killed midway (the lock is held: none is in progress)."""
    for path in (Path(paths.updated), Path(paths.scores), Path(paths.run)):
        with contextlib.suppress(OSError):
            for orphan in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
                orphan.unlink()
