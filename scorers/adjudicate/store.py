"""``ResultsStore``: a graded run open for adjudication, written back safely.

The order of every change is fixed: validate, append one journal line and fsync
it (the override is now durable and may be acknowledged), update the record in
memory, and later rewrite ``updated_predictions.json`` and ``scores.json``
atomically from memory (:meth:`ResultsStore.write_back`, which an app runs in a
background worker). Opening a run replays every reviewer's journal, so a crash
between the append and the rewrite loses nothing.

``write_back`` refuses to replace files another process changed since this store
read or last wrote them (``scorers.io.runfiles``: the one conflict check of every
writer of a run, over both files, under a lock file rome-tui processes share).
What an override means (the score before it, ``correct`` with it, its flags)
is ``scorers.review``'s; this module orders the steps: journal, memory, files. :meth:`ResultsStore.reload` re-reads the files and all
journals, after which writing is safe again: the other process's work is then
part of what is written.

Thread use: call ``override``/``undo``/``redo`` from one thread; ``write_back``
may run in another. Each change replaces whole values on the record (never adds
keys to a dict being serialised), and ``version``/``saved_version`` tell the
caller whether a rewrite is still owed.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import threading
from pathlib import Path
from typing import Any, NamedTuple

from scorers.adjudicate.annotator import resolve_annotator
from scorers.adjudicate.journal import (
    JOURNAL_VERSION,
    Entry,
    ItemOverride,
    JournalWriter,
    Replay,
    history_entry,
    human_of,
    journal_file,
    new_id,
    read_journals,
    utc_now,
    validate_entry,
)
from scorers.errors import InputError, UsageError
from scorers.flags.flagging import recompute_flags
from scorers.io.record_checks import first_ids
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.io.runfiles import RunStamp, load_run, save_run
from scorers.io.scores import scores_of
from scorers.records import (
    REVIEW_KEY,
    HistoryEntry,
    content_hash,
    item_id,
    review_of,
)
from scorers.review import (
    OVERRIDE_KINDS,
    adjudicated,
    flag_context,
    human_in_force,
    machine_scores,
    override_flags,
    read_score,
    valid_reason,
    valid_score,
)
from scorers.review import primary_source as review_primary_source


class ResultsStore:
    """A graded run in memory plus its journals; see the module docstring."""

    records: list[dict[str, Any]]
    settings: RunSettings
    paths: ResultsPaths
    annotator: str
    warnings: list[str]

    def __init__(
        self,
        records: list[dict[str, Any]],
        settings: RunSettings,
        paths: ResultsPaths,
        annotator: str,
        warnings: list[str] | None = None,
    ) -> None:
        self.records = records
        self.settings = settings
        self.paths = paths
        self.annotator = annotator
        self.warnings = list(warnings or ())
        self.version = 0  # bumped by every change in memory
        self.saved_version = 0  # the version the files on disk reflect
        self._write_lock = threading.Lock()
        self._index: dict[str, int] = {}
        self._by_model = False  # items are model/question_id (records.item_id)
        self._repeated: dict[str, int] = {}  # question_id -> how many items share it
        self._baseline: list[Any] = []
        self._hashes: dict[int, str] = {}
        self._read = RunStamp(())  # the files as last read or written (set by open)
        self._replay = Replay()
        self._writer = JournalWriter(journal_file(self._journal_dir(), annotator))
        self._prepare()

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, annotator: str | None = None) -> ResultsStore:
        """Load a run and replay its journals (the app opens its demo set through
        ``rome_tui.demo.shipped.prepare_demo``)."""
        name = resolve_annotator(annotator)
        loaded, read = load_run(path)
        store = cls(loaded.records, loaded.settings, loaded.paths, name, list(loaded.warnings))
        store._read = read
        store._replay_journals()
        store._warm_up()
        return store

    def _warm_up(self) -> None:
        """Run the flag detectors once on a scratch copy so that their lazy imports and
        compiled patterns are paid for here, not by the first override (whose
        journal-to-durable time the reviewer waits on)."""
        if not self.records:
            return
        scratch = dict(self.records[0])
        review = scratch.get(REVIEW_KEY)
        scratch[REVIEW_KEY] = dict(review) if isinstance(review, dict) else {}
        with contextlib.suppress(Exception):  # a detector bug surfaces on a real override
            recompute_flags(scratch, flag_context(self.settings))

    def reload(self) -> None:
        """Re-read the results files and every journal (after a :class:`ConflictError`)."""
        loaded, read = load_run(self._predictions_path())
        self.close()
        self.__init__(  # type: ignore[misc]
            loaded.records, loaded.settings, loaded.paths, self.annotator, list(loaded.warnings)
        )
        self._read = read
        self._replay_journals()

    def _prepare(self) -> None:
        """Index by question_id and remember each record's score before overrides (one pass)."""
        index = self._index
        rule = self.settings.primary_rule
        baseline: list[Any] = []
        strict: list[Any] = []
        repeated = self._repeated
        for i, record in enumerate(self.records):
            qid = item_id(record)
            if "item" in review_of(record):
                self._by_model = True
            # Repeats are reported once, counted, by load_results. The journal names
            # items by their id (model/question_id in a run of several models), so a
            # repeated one cannot be overridden (below);
            # entries that older versions journaled for it replay onto the first.
            if qid in index:
                repeated[qid] = repeated.get(qid, 1) + 1
            else:
                index[qid] = i
            score, all_or_nothing = machine_scores(record, rule)
            baseline.append(score)
            strict.append(all_or_nothing)
        self._baseline = baseline
        self._baseline_strict = strict

    def _replay_journals(self) -> None:
        entries, warnings, sizes = read_journals(self._journal_dir())
        self.warnings.extend(warnings)
        known = {e["id"] for e in entries}
        imported = self._history_only_entries(known)
        if imported:
            # Lines present only in a record's history (journal files lost or not
            # copied): replay them too, ordered by time within each reviewer.
            entries = sorted(entries + imported, key=lambda e: e["time"])
        if self._by_model:
            self._rekey(entries)
        self._replay.extend(entries)
        self.warnings.extend(self._replay.warnings)
        self._replay.warnings.clear()
        self._writer.offset = sizes.get(self._writer.path, 0)
        changed = False
        absent: list[str] = []
        for qid in self._replay.by_question:
            i = self._index.get(qid)
            if i is None:
                absent.append(qid)
                continue
            before = _override_state(self.records[i])
            self._apply_state(i)
            changed = changed or _override_state(self.records[i]) != before
        if absent:
            # One line, however many: a journal kept over a run of other items would
            # otherwise print a warning per item.
            self.warnings.append(
                f"{self._journal_dir()}: overrides of {len(absent)} question_id(s) that are not "
                f"in this run ignored (first: {first_ids(absent)})"
            )
        if changed:
            self.version += 1  # the journal holds changes the files on disk do not

    def _plain_ids(self) -> dict[str, str | None]:
        """Each question_id to the one item id it names (None when several models answered it)."""
        plain: dict[str, str | None] = {}
        for record in self.records:
            qid = str(record.get("question_id"))
            plain[qid] = None if qid in plain else item_id(record)
        return plain

    def _rekey(self, entries: list[Entry]) -> None:
        """Journals written before items of several models were ``model/question_id``
        name them by question_id: such an entry is read as naming the one item with
        that question_id (the journal file itself is left as it is)."""
        index = self._index
        plain = self._plain_ids()
        for entry in entries:
            named = entry.get("question_id")
            if isinstance(named, str) and named not in index:
                item = plain.get(named)
                if item is not None:
                    entry["question_id"] = item

    def _history_only_entries(self, known: set[str]) -> list[Entry]:
        out: list[Entry] = []
        for record in self.records:
            review = record.get(REVIEW_KEY)
            if not isinstance(review, dict):
                continue
            for entry in review.get("history") or ():
                if (
                    isinstance(entry, dict)
                    and entry.get("id") not in known
                    and validate_entry(entry) is None
                ):
                    out.append(dict(entry))
                    known.add(entry["id"])
        return out

    # ------------------------------------------------------------------ paths

    def _predictions_path(self) -> Path:
        return Path(self.paths.updated)

    def _journal_dir(self) -> Path:
        return Path(self.paths.journal)

    def journal_path(self) -> Path:
        """This annotator's journal file."""
        return self._writer.path

    def check_journal(self) -> None:
        """InputError if this annotator's journal cannot be written (see JournalWriter.check)."""
        self._writer.check()

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
        return len(self.records)

    def index_of(self, question_id: str) -> int:
        """Position of the record with this question_id; KeyError if none."""
        return self._index[str(question_id)]

    def primary_source(self, record: dict[str, Any] | None = None) -> str:
        """The source of ``correct`` of ``record`` (default: the run's rule)."""
        rule = self.settings.primary_rule
        return rule if record is None else review_primary_source(record, rule)

    def baseline_score(self, i: int) -> Any:
        """The score before any human override: the primary verdict's (or the file's)."""
        return self._baseline[i]

    def adjudicated_score(self, i: int) -> Any:
        """The record's ``correct``: the human override in force, else the baseline."""
        return self.records[i].get("correct")

    def human(self, i: int) -> dict[str, Any] | None:
        review = self.records[i].get(REVIEW_KEY)
        return review.get("human") if isinstance(review, dict) else None

    def is_overridden(self, i: int) -> bool:
        return human_in_force(self.records[i]) is not None

    def is_stale(self, i: int) -> bool:
        review = self.records[i].get(REVIEW_KEY)
        return isinstance(review, dict) and bool(review.get("stale"))

    def conflicts(self, i: int) -> list[dict[str, Any]]:
        review = self.records[i].get(REVIEW_KEY)
        return list(review.get("conflict") or ()) if isinstance(review, dict) else []

    def history(self, i: int) -> list[HistoryEntry]:
        review = self.records[i].get(REVIEW_KEY)
        return list(review.get("history") or ()) if isinstance(review, dict) else []

    def can_undo(self) -> bool:
        return self._replay.peek(self.annotator, "undo") is not None

    def can_redo(self) -> bool:
        return self._replay.peek(self.annotator, "redo") is not None

    @property
    def dirty(self) -> bool:
        """True while memory holds changes the JSON files do not (the journal always has them)."""
        return self.version != self.saved_version

    # ------------------------------------------------------------------ changing

    def override(self, question_id: str, score: float, reason: str) -> HistoryEntry:
        """Set a human score; durable in the journal when this returns."""
        value = valid_score(score)
        why = valid_reason(reason)
        i = self._require(question_id)
        qid = question_id_of(self.records[i])
        with self._writer.locked() as external:
            self._apply_external(external)
            entry: Entry = {
                "v": JOURNAL_VERSION,
                "id": new_id(),
                "op": "set",
                "annotator": self.annotator,
                "time": utc_now(),
                "question_id": qid,
                "old": self.records[i].get("correct"),
                "new": value,
                "reason": why,
                "content_hash": self._hash(i),
                "supersedes": [e["id"] for e in self._replay.current(qid)],
            }
            self._writer.write(entry)
        self._commit(entry)
        return history_entry(entry)

    def undo(self) -> HistoryEntry | None:
        """Undo this annotator's last override (or redo); None when there is nothing to undo."""
        return self._step("undo")

    def redo(self) -> HistoryEntry | None:
        return self._step("redo")

    def _step(self, op: str) -> HistoryEntry | None:
        with self._writer.locked() as external:
            self._apply_external(external)
            action = self._replay.peek(self.annotator, op)
            if action is None:
                return None
            qid, before, after = action
            i = self._index.get(qid)
            target = after  # the set being undone or redone
            result_id = before if op == "undo" else after
            if i is None:
                old = new = None
                digest = ""
            else:
                old = self.records[i].get("correct")
                digest = self._hash(i)
                outcome = self._replay.resolve(qid, digest, {self.annotator: result_id})
                new = self._correct_for(i, outcome)
            entry: Entry = {
                "v": JOURNAL_VERSION,
                "id": new_id(),
                "op": op,
                "annotator": self.annotator,
                "time": utc_now(),
                "question_id": qid,
                "old": old,
                "new": new,
                "content_hash": digest,
                "target": target,
            }
            self._writer.write(entry)
        self._commit(entry)
        return history_entry(entry)

    def _commit(self, entry: Entry) -> None:
        for qid in self._replay.apply(entry):
            i = self._index.get(qid)
            if i is not None:
                self._apply_state(i)
        self.warnings.extend(self._replay.warnings)
        self._replay.warnings.clear()
        self.version += 1

    def _apply_external(self, entries: list[Entry]) -> None:
        """Lines this annotator wrote from another process since we last looked."""
        if entries:
            for entry in entries:
                self._commit(entry)

    def _require(self, qid: str) -> int:
        i = self._index.get(str(qid))
        if i is None and self._by_model:
            # A plain question_id names its item when only one model answered it.
            item = self._plain_ids().get(str(qid))
            i = None if item is None else self._index.get(item)
        if i is None:
            # The items a user most likely meant: the models' items of a plain
            # question_id several models answered, else ids a typo away.
            close = [item for item in self._index if item.endswith(f"/{qid}")][:5]
            close = close or difflib.get_close_matches(str(qid), list(self._index), 3, 0.8)
            hint = f"; the closest: {', '.join(close)}" if close else ""
            if self._by_model:
                raise UsageError(
                    f"no item with id {qid!r} in {self._predictions_path()} (a run of several "
                    f"models names its items model/question_id){hint}"
                )
            raise UsageError(
                f"no item with question_id {qid!r} in {self._predictions_path()}{hint}"
            )
        times = self._repeated.get(str(qid))
        if times:
            raise UsageError(
                f"question_id {qid!r} names {times} items in {self._predictions_path()}: an "
                "override must name one item, so give the items unique ids (a file of "
                "several models names them model/question_id) and grade again"
            )
        return i

    def _hash(self, i: int) -> str:
        digest = self._hashes.get(i)
        if digest is None:
            digest = self._hashes[i] = content_hash(self.records[i])
        return digest

    def _adjudicated(self, i: int, outcome: ItemOverride) -> tuple[Any, Any]:
        """(correct, correct_strict) of record ``i`` with ``outcome``'s override in force."""
        human = None
        if outcome.human is not None and not outcome.stale:
            human = read_score(outcome.human["new"])
        return adjudicated(self._baseline[i], self._baseline_strict[i], human)

    def _correct_for(self, i: int, outcome: ItemOverride) -> Any:
        return self._adjudicated(i, outcome)[0]

    def _apply_state(self, i: int) -> None:
        record = self.records[i]
        qid = question_id_of(record)
        outcome = self._replay.resolve(qid, self._hash(i), None)
        review: dict[str, Any] = dict(review_of(record))
        for key in ("human", "stale", "conflict"):
            review.pop(key, None)
        if outcome.human is not None:
            review["human"] = human_of(outcome.human)
            if outcome.stale:
                review["stale"] = True
            if outcome.conflict:
                review["conflict"] = [human_of(e) for e in outcome.conflict]
        review["history"] = [history_entry(e) for e in outcome.history]
        correct, correct_strict = self._adjudicated(i, outcome)
        old = review_of(record)
        if record.get("correct") == correct and all(
            old.get(key) == review.get(key) for key in ("human", "stale", "conflict", "history")
        ):
            return  # the file already shows this (the usual case on reopening): skip the flags
        # Build the new review aside and swap it in whole, so a write-back
        # running in another thread sees the old or the new state, not a mix.
        scratch = dict(record)
        scratch[REVIEW_KEY] = review
        try:
            recompute_flags(scratch, flag_context(self.settings))
        except Exception as exc:  # a detector bug must not lose or hide an override
            self.warnings.append(f"{qid}: flags not recomputed ({type(exc).__name__}: {exc})")
            # Keep the journal's own flags right when the detectors could not run.
            kept = [f for f in review.get("flags") or () if f.get("kind") not in OVERRIDE_KINDS]
            review["flags"] = kept + override_flags(review)
        record[REVIEW_KEY] = scratch[REVIEW_KEY]
        record["correct"] = correct
        if correct_strict is not None:
            record["correct_strict"] = correct_strict

    # ------------------------------------------------------------------ writing

    def write_back(self) -> None:
        """Rewrite updated_predictions.json and scores.json atomically from memory.

        Raises :class:`ConflictError` (and writes nothing) if either file changed
        on disk since this store read or last wrote it.
        """
        then = (
            f"Every override is kept in {self._journal_dir()}: "
            "reopen the run to merge both and write again."
        )
        with self._write_lock:
            version = self.version
            try:
                _, self._read = save_run(self.paths, self.records, self.settings, self._read, then)
            except OSError as exc:
                raise InputError(
                    str(exc.filename or self.paths.updated),
                    f"cannot write the results: {exc.strerror or exc}; every override is kept in "
                    f"{self._journal_dir()}",
                ) from None
            self.saved_version = version

    def close(self) -> None:
        self._writer.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _override_state(record: dict[str, Any]) -> tuple[Any, ...]:
    review = record.get(REVIEW_KEY)
    if not isinstance(review, dict):
        return (record.get("correct"),)
    return (
        record.get("correct"),
        review.get("human"),
        review.get("stale"),
        review.get("conflict"),
        review.get("history"),
    )


def question_id_of(record: dict[str, Any]) -> str:
    """The id the journal names the record by: ``records.item_id``."""
    return item_id(record)


# The store that replays journals after a re-grade never overrides: it needs a
# reviewer's name only because every store has one, and appends nothing.
_REPLAY_ONLY = "rome-tui-regrade"


class Replayed(NamedTuple):
    in_force: int  # items with a reviewer's override in force
    stale: int  # overrides made on an answer, reference or evaluator since changed
    scores: dict[str, Any]  # scores.json as now written
    warnings: list[str]  # the journal's: an unreadable line, an item not in this run


def rewrite_with_journals(path: str | os.PathLike[str]) -> Replayed:
    """A run whose files grading just wrote, with its journals replayed onto them and
    written back, so the files show every reviewer's overrides again."""
    with ResultsStore.open(path, annotator=_REPLAY_ONLY) as store:
        if store.dirty:
            store.write_back()
        items = range(len(store))
        return Replayed(
            sum(map(store.is_overridden, items)),
            sum(map(store.is_stale, items)),
            scores_of(store.records, store.settings),
            store.warnings,
        )
