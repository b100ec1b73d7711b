"""The override journal: append-only JSON Lines, one file per reviewer.

Every override, undo and redo is one line in ``<results>/journal/<annotator>.jsonl``,
written with a single ``write`` and fsynced before the caller is told it is
saved. The JSON results files are rewritten from the journal, so the journal is
the durable record: a crash between the append and the rewrite loses nothing.

One file per reviewer means two reviewers in two processes never write the same
file, and journals from several machines merge through git without conflicts
(each file only ever grows at its end).

:class:`Replay` turns the merged lines into the override in force for each item.
Its result does not depend on how lines of different reviewers interleave: each
reviewer's own file order drives that reviewer's undo/redo stack, and a
reviewer's override replaces another's only if it lists it in ``supersedes``
(it was on screen when the reviewer decided). Two current overrides with
different scores that do not know of each other are a conflict for a human to
resolve, never a silent last-writer-wins.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import orjson

from scorers.adjudicate.annotator import file_stem
from scorers.errors import InputError, json_type
from scorers.io.jsonio import fsync_dir
from scorers.records import HistoryEntry, Human
from scorers.review import is_score, read_score

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: single-process use only
    fcntl = None  # type: ignore[assignment]

JOURNAL_VERSION = 1
JOURNAL_SUFFIX = ".jsonl"
OPS = ("set", "undo", "redo")

# A journal line is a dict with these keys (``supersedes`` and ``target`` optional).
Entry = dict[str, Any]

_HISTORY_KEYS = (
    "id",
    "op",
    "annotator",
    "time",
    "question_id",
    "old",
    "new",
    "reason",
    "content_hash",
)


def utc_now() -> str:
    """UTC time, ISO 8601 with microseconds and a ``Z``; sorts as text."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_id() -> str:
    return uuid.uuid4().hex


def journal_file(journal_dir: str | os.PathLike[str], annotator: str) -> Path:
    return Path(journal_dir) / f"{file_stem(annotator)}{JOURNAL_SUFFIX}"


def encode_entry(entry: Mapping[str, Any]) -> bytes:
    return orjson.dumps(entry) + b"\n"


def history_entry(entry: Mapping[str, Any]) -> HistoryEntry:
    """The audit-trail view of a journal line, as stored under ``review.history``."""
    out: dict[str, Any] = {key: entry[key] for key in _HISTORY_KEYS if key in entry}
    return out  # type: ignore[return-value]


# --------------------------------------------------------------------------- reading


def validate_entry(entry: Any) -> str | None:
    """The problem with a parsed journal line, or None when it is well formed."""
    if not isinstance(entry, dict):
        return f"expected a JSON object, got {json_type(entry)}"
    op = entry.get("op")
    if op not in OPS:
        return f"`op` must be one of {', '.join(OPS)}, got {op!r}"
    for key in ("id", "annotator", "time", "question_id"):
        value = entry.get(key)
        if not isinstance(value, str) or not value:
            return f"`{key}` must be a non-empty string"
    for key in ("old", "new"):
        value = entry.get(key)
        if value is not None and not is_score(value):
            return f"`{key}` must be a number in [0, 1] or null, got {value!r}"
    if op == "set":
        if not is_score(entry.get("new")):
            return f"`new` of a set must be a number in [0, 1], got {entry.get('new')!r}"
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            return "`reason` of a set must be a non-empty string"
        if not isinstance(entry.get("content_hash"), str):
            return "`content_hash` of a set must be a string"
    supersedes = entry.get("supersedes", [])
    if not isinstance(supersedes, list) or not all(isinstance(s, str) for s in supersedes):
        return "`supersedes` must be a list of entry ids"
    return None


@dataclass
class JournalRead:
    entries: list[Entry]
    warnings: list[str]
    good_size: int  # bytes up to the end of the last complete line


# Only rome-tui appends to a journal, so a bad line in the middle was edited or damaged
# outside it: say how to open the run again.
_MENDING = (
    "; every command refuses the run until that line is mended (restore it from a copy) "
    "or deleted (dropping that one entry)"
)


def parse_journal_bytes(data: bytes, path: str, *, first_line: int = 1) -> JournalRead:
    """Parse JSON Lines; a torn last line is skipped with a warning, any other bad line raises."""
    entries: list[Entry] = []
    warnings: list[str] = []
    pos = 0
    line_no = first_line - 1
    size = len(data)
    good = 0
    while pos < size:
        end = data.find(b"\n", pos)
        last = end == -1
        chunk = data[pos:] if last else data[pos:end]
        line_no += 1
        next_pos = size if last else end + 1
        if not chunk.strip():
            pos = next_pos
            if not last:
                good = pos
            continue
        try:
            entry = orjson.loads(chunk)
        except orjson.JSONDecodeError as exc:
            if last:
                warnings.append(
                    f"{path}:{line_no}: incomplete last line ignored (an append was interrupted)"
                )
                break
            raise InputError(
                path, f"invalid journal line: {exc.msg}{_MENDING}", line=line_no
            ) from None
        problem = validate_entry(entry)
        if problem is not None:
            if last:
                warnings.append(f"{path}:{line_no}: incomplete last line ignored ({problem})")
                break
            raise InputError(path, f"invalid journal line: {problem}{_MENDING}", line=line_no)
        entries.append(entry)
        pos = next_pos
        if not last:
            good = pos
    return JournalRead(entries, warnings, good)


def read_journal(path: str | os.PathLike[str]) -> JournalRead:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return JournalRead([], [], 0)
    except OSError as exc:
        raise InputError(str(path), f"cannot read journal: {exc.strerror or exc}") from None
    return parse_journal_bytes(data, str(path))


def journal_files(journal_dir: str | os.PathLike[str]) -> list[Path]:
    directory = Path(journal_dir)
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix == JOURNAL_SUFFIX and p.is_file())


def read_journals(
    journal_dir: str | os.PathLike[str],
) -> tuple[list[Entry], list[str], dict[Path, int]]:
    """Every line of every reviewer's journal (file order kept), warnings, and bytes read per file."""
    entries: list[Entry] = []
    warnings: list[str] = []
    sizes: dict[Path, int] = {}
    for path in journal_files(journal_dir):
        read = read_journal(path)
        entries.extend(read.entries)
        warnings.extend(read.warnings)
        sizes[path] = read.good_size
    return entries, warnings, sizes


# --------------------------------------------------------------------------- writing


class JournalWriter:
    """Appends one reviewer's lines to their journal file, durably.

    The file stays open so an append costs one ``write`` and one ``fsync``.
    While appending, an advisory lock is held and any lines another process of
    the same reviewer appended meanwhile are handed back first, so a reviewer
    with the app open can still use ``rome-tui override`` on the same run.
    """

    def __init__(self, path: str | os.PathLike[str], offset: int = 0) -> None:
        self.path = Path(path)
        self.offset = offset  # bytes of this file already read and applied
        self._fd: int | None = None

    def check(self) -> None:
        """InputError now if this journal could not be appended to, creating nothing:
        the app asks before a reviewer starts, not at their first override."""
        problem = None
        existing = self.path
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if existing == self.path and not self.path.is_file():
            problem = "is a directory"
        elif existing != self.path and not existing.is_dir():
            problem = f"{existing} is a file, not a directory"
        elif not os.access(existing, os.W_OK):
            problem = "read-only file system" if _read_only_fs(existing) else "permission denied"
            problem += " (review a copy of the run in a folder you can write)"
        if problem is not None:
            raise InputError(str(self.path), f"cannot write the journal: {problem}")

    def _open(self) -> int:
        try:
            return self._open_fd()
        except OSError as exc:
            raise InputError(
                str(self.path), f"cannot write the journal: {exc.strerror or exc}"
            ) from None

    def _open_fd(self) -> int:
        if self._fd is None:
            created_dir = not self.path.parent.exists()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if created_dir:
                fsync_dir(self.path.parent.parent)
            existed = self.path.exists()
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
            if not existed:
                fsync_dir(self.path.parent)
        return self._fd

    @contextlib.contextmanager
    def locked(self) -> Iterator[list[Entry]]:
        """Hold the file lock; yields lines other processes appended since ``offset``."""
        fd = self._open()
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield self._catch_up(fd)
        finally:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _catch_up(self, fd: int) -> list[Entry]:
        size = os.fstat(fd).st_size
        if size <= self.offset:
            return []
        data = os.pread(fd, size - self.offset, self.offset)
        read = parse_journal_bytes(data, str(self.path), first_line=1 + self._lines_before())
        good = self.offset + read.good_size
        if good < size:
            tail = data[read.good_size :]
            if read.entries and not read.warnings and not tail.endswith(b"\n"):
                # The last line is whole but lacks its newline: finish it.
                os.write(fd, b"\n")
                good = size + 1
            else:
                # A torn line from a crashed append was never acknowledged: drop it
                # so the next line starts clean.
                os.ftruncate(fd, good)
        os.fsync(fd)
        self.offset = good
        return read.entries

    def _lines_before(self) -> int:
        if self.offset == 0:
            return 0
        return os.pread(self._fd or self._open(), self.offset, 0).count(b"\n")

    def write(self, entry: Mapping[str, Any]) -> None:
        """Append one line and fsync; call inside :meth:`locked`."""
        fd = self._open()
        data = encode_entry(entry)
        try:
            written = os.write(fd, data)
            if written != len(data):  # a short write to a regular file means the disk is full
                raise OSError(f"short write ({written} of {len(data)} bytes)")
            os.fsync(fd)
        except OSError as exc:
            # Not durable, so not acknowledged: take the partial line back out.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, self.offset)
            raise InputError(
                str(self.path), f"cannot write the journal: {exc.strerror or exc}"
            ) from None
        self.offset += written

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


# --------------------------------------------------------------------------- replay


@dataclass
class ItemOverride:
    """What the journal says about one item after replay."""

    human: Entry | None = None  # the override in force (latest current one)
    stale: bool = False  # ``human`` was made on different content
    conflict: list[Entry] = field(
        default_factory=list
    )  # current overrides disagreeing with ``human``
    history: list[Entry] = field(default_factory=list)  # every line about the item, time order


@dataclass
class _Annotator:
    state: dict[str, str | None] = field(default_factory=dict)  # question_id -> entry id in force
    undo: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    redo: list[tuple[str, str | None, str | None]] = field(default_factory=list)


def _time_key(entry: Mapping[str, Any]) -> tuple[str, str, str]:
    return (entry["time"], entry["annotator"], entry["id"])


class Replay:
    """Incremental replay of journal lines into per-item override state."""

    def __init__(self) -> None:
        self.entries: dict[str, Entry] = {}
        self.by_question: dict[str, list[Entry]] = {}
        self.annotators: dict[str, _Annotator] = {}
        self.warnings: list[str] = []

    def extend(self, entries: Iterable[Entry]) -> set[str]:
        touched: set[str] = set()
        for entry in entries:
            touched.update(self.apply(entry))
        return touched

    def apply(self, entry: Entry) -> set[str]:
        """Apply one line; returns the question ids whose state may have changed."""
        if entry["id"] in self.entries:
            return set()  # the same line seen twice (e.g. journal and imported history)
        who = self.annotators.setdefault(entry["annotator"], _Annotator())
        op = entry["op"]
        if op == "set":
            q = entry["question_id"]
            action = (q, who.state.get(q), entry["id"])
            who.state[q] = entry["id"]
            who.undo.append(action)
            who.redo.clear()
        else:
            stack, other = (who.undo, who.redo) if op == "undo" else (who.redo, who.undo)
            if not stack:
                self.warnings.append(
                    f"journal entry {entry['id']}: {op} by {entry['annotator']} has nothing to {op}; ignored"
                )
                self._record(entry)
                return {entry["question_id"]}
            q, before, after = stack.pop()
            who.state[q] = before if op == "undo" else after
            other.append((q, before, after))
            if q != entry["question_id"]:
                self.warnings.append(
                    f"journal entry {entry['id']}: {op} names {entry['question_id']} but applies to {q}"
                )
        self._record(entry)
        return {entry["question_id"]}

    def _record(self, entry: Entry) -> None:
        self.entries[entry["id"]] = entry
        items = self.by_question.setdefault(entry["question_id"], [])
        items.append(entry)
        if len(items) > 1 and _time_key(items[-2]) > _time_key(entry):
            items.sort(key=_time_key)

    # -- queries

    def peek(self, annotator: str, op: str) -> tuple[str, str | None, str | None] | None:
        who = self.annotators.get(annotator)
        if who is None:
            return None
        stack = who.undo if op == "undo" else who.redo
        return stack[-1] if stack else None

    def current(
        self, question_id: str, hypothetical: Mapping[str, str | None] | None = None
    ) -> list[Entry]:
        """Overrides of the item in force and not superseded, oldest first.

        ``hypothetical`` maps annotator -> entry id (or None) to ask "what if".
        """
        in_force: list[Entry] = []
        for name, who in self.annotators.items():
            if hypothetical is not None and name in hypothetical:
                entry_id = hypothetical[name]
            else:
                entry_id = who.state.get(question_id)
            if entry_id is not None:
                in_force.append(self.entries[entry_id])
        suppressed = {old for e in in_force for old in e.get("supersedes", ())}
        return sorted((e for e in in_force if e["id"] not in suppressed), key=_time_key)

    def resolve(
        self,
        question_id: str,
        content_hash: str,
        hypothetical: Mapping[str, str | None] | None = None,
    ) -> ItemOverride:
        current = self.current(question_id, hypothetical)
        history = list(self.by_question.get(question_id, ()))
        if not current:
            return ItemOverride(history=history)
        fresh = [e for e in current if e.get("content_hash") == content_hash]
        if fresh:
            human = fresh[-1]
            conflict = [e for e in fresh[:-1] if e["new"] != human["new"]]
            return ItemOverride(human=human, conflict=conflict, history=history)
        return ItemOverride(human=current[-1], stale=True, history=history)


def human_of(entry: Mapping[str, Any]) -> Human:
    return Human(
        score=read_score(entry["new"]),  # type: ignore[typeddict-item]
        annotator=entry["annotator"],
        time=entry["time"],
        reason=entry.get("reason", ""),
        content_hash=entry.get("content_hash", ""),
    )


def _read_only_fs(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only (os.access says only "no")."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows)
        return False
