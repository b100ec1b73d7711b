"""Reading and writing JSON files: clear errors in, atomic writes out."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from scorers.errors import InputError

BOM = b"\xef\xbb\xbf"


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise unreadable(path, exc) from None


def require_a_file(path: str | os.PathLike[str]) -> None:
    """InputError for a pipe or device given as a file (``<(zcat x.gz)``, a FIFO): its
    content can be read only once, and a file is looked at more than once (its first
    bytes, a checksum, the whole), so it would read as empty or cut, or block."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # reading it names what is wrong (no such file, permission, ...)
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise InputError(
            str(path),
            "not a regular file (a pipe such as <(zcat FILE)?): it can be read only once; "
            "save it to a file first",
        )


def unreadable(path: str | os.PathLike[str], exc: OSError) -> InputError:
    """The error for a file of a run or an input that the OS would not let us read."""
    if isinstance(exc, FileNotFoundError):
        return InputError(str(path), "no such file")
    if isinstance(exc, IsADirectoryError):
        return InputError(str(path), "is a directory, expected a JSON file")
    return InputError(str(path), f"cannot read: {exc.strerror or exc}")


# Files that are something else than JSON text, by their first bytes: what to do instead.
_OTHER_FILES = (
    (b"\x1f\x8b", "a gzip-compressed file, not JSON text; decompress it first (gunzip)"),
    (b"PK\x03\x04", "a zip archive, not JSON text; extract the file from it first"),
    (
        b"version https://git-lfs.github.com/spec/",
        "a Git LFS pointer, not the file itself; fetch it with `git lfs pull`",
    ),
)


def _not_text(data: bytes | memoryview) -> str | None:
    head = bytes(data[:64])
    for magic, problem in _OTHER_FILES:
        if head.startswith(magic):
            return problem
    return None


def not_utf8(data: bytes | memoryview) -> tuple[str, int] | None:
    """What is wrong with text that is not UTF-8, and its 1-based line; None if it is.

    orjson says "str is not valid UTF-8: surrogates not allowed" at line 1 column 1
    for any such file, which points nowhere; saved as UTF-16 or Latin-1 is the usual
    cause, and the fix (save it as UTF-8) is the same for both.
    """
    raw = bytes(data)
    # UTF-16 has its byte-order mark, or else ASCII's zero high byte, in the first two.
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(raw) > 1 and (raw[0] == 0) != (raw[1] == 0)):
        return "not UTF-8: the file is UTF-16 (or UTF-32) text; save it as UTF-8", 1
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = line_of(raw, exc.start)
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        byte = raw[exc.start]
        return (
            f"not UTF-8: byte 0x{byte:02X} at column {column} (Latin-1 or Windows-1252 "
            "text?); save it as UTF-8",
            line,
        )
    return None


def line_of(data: bytes, offset: int) -> int:
    """1-based line number of a byte offset."""
    return data.count(b"\n", 0, max(0, offset)) + 1


def dumps_any_keys(value: Any, option: int = 0, default: Any = None) -> bytes:
    """``orjson.dumps(value, option | OPT_NON_STR_KEYS, default)``.

    When every key is a string, as JSON's are, the bytes are the same without
    OPT_NON_STR_KEYS, which costs a third more: it is only added for a value
    orjson refuses without it.
    """
    try:
        return orjson.dumps(value, option=option, default=default)
    except orjson.JSONEncodeError:
        return orjson.dumps(value, option=option | orjson.OPT_NON_STR_KEYS, default=default)


def parse_json(data: bytes, path: str, *, line: int | None = None) -> Any:
    """orjson.loads with the error turned into an :class:`InputError`."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise json_error(path, data, exc, line=line) from None


def json_error(
    path: str, data: bytes | memoryview, exc: orjson.JSONDecodeError, *, line: int | None = None
) -> InputError:
    """The InputError for ``data`` that orjson refused: its own message, or what is
    wrong with the encoding when the text is not UTF-8. ``line`` is where ``data``
    starts in the file when it is one line of it (JSON Lines)."""
    kind = _not_text(data)
    if kind is not None:
        return InputError(path, kind)
    encoding = not_utf8(data)
    if encoding is not None:
        problem, within = encoding
        return InputError(path, problem, line=within if line is None else line + within - 1)
    return InputError(
        path, f"invalid JSON: {exc.msg} (column {exc.colno})", line=line or exc.lineno
    )


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a reader sees the old or the new file, never half."""
    atomic_write_chunks(path, (data,))


def atomic_write_chunks(path: str | os.PathLike[str], chunks: Iterable[bytes]) -> None:
    """Atomically replace ``path`` with the concatenated chunks, streamed to disk."""
    with replacing(path) as handle:
        for chunk in chunks:
            handle.write(chunk)


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], *, sync: bool = True) -> Iterator[BinaryIO]:
    """A file to write that replaces ``path`` atomically when the block ends without error.

    The temp file lives in the same directory (``os.replace`` is atomic only
    within a file system), is fsynced before the rename, and the directory is
    fsynced after it so the rename itself survives a power cut. The new file
    keeps the old one's permissions (``mkstemp`` would leave it owner-only).
    With ``sync=False`` the block flushes and fsyncs the file itself, e.g. to
    overlap the fsync with other work. On an error the temp file is removed.
    """
    target = Path(path)
    if target.is_dir():  # os.replace would fail only after the whole file was written
        raise InputError(str(target), "is a directory, expected a file to write")
    mode = _mode_for(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # no such directory, a file in its place, read-only
        raise InputError(str(target), f"cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb", buffering=1 << 20) as handle:
            os.fchmod(handle.fileno(), mode)
            yield handle
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.errno in _DEVICE_ERRNOS:
            # A full or failing disk: the old file is intact, the temp file gone.
            raise InputError(
                str(target), f"cannot write: {exc.strerror or exc}; the old file is unchanged"
            ) from None
        raise
    fsync_dir(target.parent)


# Errors of the device written to, not of the data: said in one line, not a traceback.
_DEVICE_ERRNOS = frozenset(
    getattr(errno, name)
    for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EROFS")
    if hasattr(errno, name)
)


def _mode_for(target: Path) -> int:
    """The permissions a rewrite of ``target`` gets: the old file's, else the umask's default."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def fsync_dir(directory: str | os.PathLike[str]) -> None:
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def dumps_pretty(value: Any) -> bytes:
    """Indented JSON, non-ASCII kept, keys in insertion order (orjson's indent is 2)."""
    return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)
