"""The item table's view model: one compact row per record, filters, sorting, progress.

Plain Python with no Textual import, so filtering and sorting 100,000 rows is
measured and tested without a terminal. Rows are derived from the store's
records once at start and again only for a record an override touched.
"""

from __future__ import annotations

import math
import re
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, overload

from scorers.records import item_id, response_texts
from scorers.review import grades_correctness, machine_score

_SCORE_WORDS = {"none": None, "null": None, "nan": None, "": None}


def as_score(value: Any) -> float | None:
    """A score from what the files hold: 1, 0.5, "1", "0", "None", None."""
    if value is None or isinstance(value, bool):
        return None if value is None else float(value)
    if isinstance(value, (int, float)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _SCORE_WORDS:
            return None
        try:
            number = float(word)
        except ValueError:
            return None
        return None if math.isnan(number) else number
    return None


@dataclass(slots=True)
class Row:
    index: int  # position in the store's record list
    qid: str
    model: str
    bucket: str
    evaluator: str
    rome: float | None
    strict: float | None
    judge: float | None
    judge_error: bool
    machine: float | None  # the primary verdict: the score before any human override
    correct: float | None  # the adjudicated score now in force
    human: float | None
    flags: tuple[str, ...]
    stale: bool
    conflict: bool
    search: str  # lower-cased text the free-text filter matches

    @property
    def reviewed(self) -> bool:
        return self.human is not None

    @property
    def overridden(self) -> bool:
        return self.human is not None and self.human != self.machine

    @property
    def needs_review(self) -> bool:
        return bool(self.flags) and self.human is None


def _text(value: Any) -> str:
    return "" if value is None else str(value)


_UNKNOWN = object()


def make_row(
    index: int, record: Mapping[str, Any], bucket_field: str = "task", baseline: Any = _UNKNOWN
) -> Row:
    """The row of one record; ``baseline`` is the store's pre-override score when it keeps one."""
    review = record.get("review")
    review = review if isinstance(review, dict) else {}
    rome = strict = judge = None
    judge_error = False
    for verdict in review.get("verdicts") or ():
        if not isinstance(verdict, dict):
            continue
        source = verdict.get("source") or ""
        score = as_score(verdict.get("score"))
        if source == "rule:rome":
            rome = score
        elif source == "rule:strict":
            strict = score
        elif source.startswith("judge:") and judge is None and grades_correctness(source):
            if verdict.get("error"):
                judge_error = True
            else:
                judge = score
    human_info = review.get("human")
    human = as_score(human_info.get("score")) if isinstance(human_info, dict) else None
    correct = as_score(record.get("correct"))
    machine = as_score(machine_score(record) if baseline is _UNKNOWN else baseline)
    flags = tuple(
        dict.fromkeys(f.get("kind", "?") for f in review.get("flags") or () if isinstance(f, dict))
    )
    # model/question_id in a run of several models: the id an override takes
    qid = item_id(record) if record.get("question_id") is not None else ""
    model = _text(record.get("model") or record.get("model_name"))
    bucket = _text(record.get(bucket_field) or record.get("task"))
    evaluator = _text(record.get("evaluator"))
    search = " ".join((qid, model, bucket, evaluator, *flags)).lower()
    return Row(
        index=index,
        qid=qid,
        model=model,
        bucket=bucket,
        evaluator=evaluator,
        rome=rome,
        strict=strict,
        judge=judge,
        judge_error=judge_error,
        machine=machine,
        correct=correct,
        human=human,
        flags=flags,
        stale=bool(review.get("stale")),
        conflict=bool(review.get("conflict")),
        search=search,
    )


def build_rows(
    records: Sequence[Mapping[str, Any]],
    bucket_field: str = "task",
    baseline: Callable[[int], Any] | None = None,
) -> list[Row]:
    if baseline is None:
        return [make_row(i, record, bucket_field) for i, record in enumerate(records)]
    return [make_row(i, record, bucket_field, baseline(i)) for i, record in enumerate(records)]


class LazyRows(Sequence[Row]):
    """Rows made on first access, so the first screen needs only the visible ones.

    ``build_all`` (run by the app in a worker thread) fills in the rest; filters,
    sorting and counts work at any time, building what is still missing.
    Rows are immutable snapshots: ``refresh(i)`` replaces one after its record changed.
    """

    def __init__(
        self,
        records: Sequence[Mapping[str, Any]],
        bucket_field: str = "task",
        baseline: Callable[[int], Any] | None = None,
    ) -> None:
        self._records = records
        self._bucket_field = bucket_field
        self._baseline = baseline
        self._rows: list[Row | None] = [None] * len(records)

    def _make(self, i: int) -> Row:
        if self._baseline is None:
            return make_row(i, self._records[i], self._bucket_field)
        return make_row(i, self._records[i], self._bucket_field, self._baseline(i))

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, i: int) -> Row: ...

    @overload
    def __getitem__(self, i: slice) -> list[Row]: ...

    def __getitem__(self, i: int | slice) -> Row | list[Row]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        row = self._rows[i]
        if row is None:
            row = self._rows[i] = self._make(i)
        return row

    def __iter__(self) -> Iterator[Row]:
        for i in range(len(self._rows)):
            yield self[i]

    def refresh(self, i: int) -> Row:
        row = self._rows[i] = self._make(i)
        return row

    def build_all(self, cancelled: Callable[[], bool] = lambda: False) -> bool:
        """Make every missing row; False if ``cancelled`` stopped it first."""
        rows = self._rows
        for i in range(len(rows)):
            if rows[i] is None:
                rows[i] = self._make(i)
            if i % 4096 == 0 and cancelled():
                return False
        return True


# --- text search ------------------------------------------------------------------------


def record_text(record: Mapping[str, Any]) -> str:
    """What a text search reads: the question, the reference, the reasoning and the answer."""
    texts = response_texts(record)
    return "\n".join(
        (
            _text(record.get("question")),
            _text(record.get("reference")),
            texts.reasoning,
            texts.answer,
        )
    )


class TextIndex:
    """Case-insensitive substring search over every record's texts.

    The texts are lower-cased once into UTF-8 blocks of ``CHUNK`` records joined by
    NUL, so one search is a few ``bytes.find`` calls per block (C speed, no Python
    step per record) and a record is skipped as soon as it matches. UTF-8 keeps a
    block one byte per ASCII character whatever else a trace holds. A word typed
    one letter at a time is searched among the hits of the word before it.
    The blocks are built on the first search (or by ``build`` in a worker):
    a run nobody searches pays nothing.
    """

    CHUNK = 512
    _CACHED = 16

    def __init__(self, records: Sequence[Mapping[str, Any]]) -> None:
        self._records = records
        self._blocks: list[tuple[bytes, list[int]]] = []
        self._built = 0  # records indexed so far
        self._lock = threading.Lock()  # held while blocks are built
        self._cache_lock = threading.Lock()  # a search may run in a worker thread
        self._hits: OrderedDict[bytes, frozenset[int]] = OrderedDict()

    @property
    def ready(self) -> bool:
        return self._built >= len(self._records)

    def build(self, cancelled: Callable[[], bool] = lambda: False) -> bool:
        """Index every record not yet indexed; False if ``cancelled`` stopped it first."""
        with self._lock:
            records = self._records
            while self._built < len(records):
                if cancelled():
                    return False
                stop = min(len(records), self._built + self.CHUNK)
                parts = [
                    record_text(records[i]).lower().encode("utf-8", "replace")
                    for i in range(self._built, stop)
                ]
                starts, at = [], 0
                for part in parts:
                    starts.append(at)
                    at += len(part) + 1
                self._blocks.append((b"\0".join(parts), starts))
                self._built = stop
            return True

    def refresh(self) -> None:
        """Forget the texts (a reload): they are indexed again at the next search."""
        with self._lock:
            self._blocks, self._built = [], 0
            self._hits.clear()

    @staticmethod
    def _needle(word: str) -> bytes:
        return word.lower().encode("utf-8", "replace")

    def cached(self, word: str) -> bool:
        """Whether ``matching(word)`` answers at once (its hits are remembered)."""
        with self._cache_lock:
            return self._needle(word) in self._hits

    def matching(
        self, word: str, cancelled: Callable[[], bool] = lambda: False
    ) -> frozenset[int] | None:
        """Indices of the records whose texts contain ``word``, ignoring case; None only
        when ``cancelled`` (checked between blocks) stopped the search."""
        needle = self._needle(word)
        with self._cache_lock:
            hits = self._hits.get(needle)
            if hits is not None:
                self._hits.move_to_end(needle)
                return hits
            narrower = [h for w, h in self._hits.items() if w in needle]
        if not self.build(cancelled):
            return None
        hits = (
            self._among(needle, min(narrower, key=len))
            if narrower
            else self._scan(needle, cancelled)
        )
        if hits is None:
            return None
        with self._cache_lock:
            self._hits[needle] = hits
            if len(self._hits) > self._CACHED:
                self._hits.popitem(last=False)
        return hits

    def _scan(self, needle: bytes, cancelled: Callable[[], bool]) -> frozenset[int] | None:
        found: list[int] = []
        for number, (blob, starts) in enumerate(self._blocks):
            if cancelled():  # typed over: the next word's search takes the CPU
                return None
            base = number * self.CHUNK
            pos = blob.find(needle)
            while pos != -1:
                i = bisect_right(starts, pos) - 1
                found.append(base + i)
                if i + 1 >= len(starts):
                    break
                pos = blob.find(needle, starts[i + 1])
        return frozenset(found)

    def _among(self, needle: bytes, candidates: frozenset[int]) -> frozenset[int]:
        found: list[int] = []
        chunk = self.CHUNK
        for index in candidates:
            blob, starts = self._blocks[index // chunk]
            i = index % chunk
            end = starts[i + 1] - 1 if i + 1 < len(starts) else len(blob)
            if blob.find(needle, starts[i], end) != -1:
                found.append(index)
        return frozenset(found)


# --- filtering --------------------------------------------------------------------------
#
# A filter narrows a list of row positions. Each test is a list comprehension
# over the surviving positions with no Python call per row where it can be
# avoided (a field test decides once per distinct value, then checks set
# membership), which keeps a filter of 100,000 rows within tens of milliseconds.

FILTER_KEYS: dict[str, str] = {
    "flag": "flag kind contains VALUE (flag:judge_error)",
    "bucket": "bucket contains VALUE",
    "eval": "evaluator contains VALUE",
    "model": "model contains VALUE",
    "score": "adjudicated score: 0, 1, partial, none, or a number",
    "is": "reviewed, unreviewed, overridden, flagged, unflagged, stale, conflict, todo",
    "text": "question, reference, reasoning or answer contains VALUE (any case)",
}
_ALIASES = {"evaluator": "eval", "kind": "flag", "flags": "flag", "task": "bucket"}
_TOKEN = re.compile(r'(-?)(\w+):("[^"]*"|\S+)|"([^"]*)"|(\S+)')

Narrow = Callable[[Sequence[Row], list[int]], list[int]]


def _field_test(attr: str, pred: Callable[[Any], bool], negate: bool) -> Narrow:
    get = attrgetter(attr)

    def narrow(rows: Sequence[Row], keep: list[int]) -> list[int]:
        values = {get(rows[p]) for p in keep}
        ok = {v for v in values if pred(v) != negate}
        return [p for p in keep if get(rows[p]) in ok]

    return narrow


def _is_test(word: str, negate: bool) -> Narrow | None:
    tests: dict[str, Callable[[Sequence[Row], list[int]], list[int]]] = {
        "reviewed": lambda rows, keep: [p for p in keep if rows[p].human is not None],
        "unreviewed": lambda rows, keep: [p for p in keep if rows[p].human is None],
        "overridden": lambda rows, keep: [p for p in keep if rows[p].overridden],
        "flagged": lambda rows, keep: [p for p in keep if rows[p].flags],
        "unflagged": lambda rows, keep: [p for p in keep if not rows[p].flags],
        "stale": lambda rows, keep: [p for p in keep if rows[p].stale],
        "conflict": lambda rows, keep: [p for p in keep if rows[p].conflict],
        "todo": lambda rows, keep: [p for p in keep if rows[p].flags and rows[p].human is None],
    }
    test = tests.get(word)
    if test is None or not negate:
        return test

    def negated(rows: Sequence[Row], keep: list[int]) -> list[int]:
        hit = set(test(rows, keep))
        return [p for p in keep if p not in hit]

    return negated


def _contains(value: str) -> Callable[[Any], bool]:
    return lambda text: value in str(text).lower()


def _any_contains(value: str) -> Callable[[Any], bool]:
    return lambda kinds: any(value in kind for kind in kinds)


def _score_pred(value: str) -> Callable[[Any], bool] | None:
    if value in ("none", "null"):
        return lambda v: v is None
    if value == "partial":
        return lambda v: v is not None and 0 < v < 1
    try:
        wanted = float(value)
    except ValueError:
        return None
    return lambda v: v is not None and abs(v - wanted) < 1e-9


@dataclass
class Query:
    text: list[str] = field(default_factory=list)  # plain words: short fields or the texts
    tests: list[Narrow] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    in_texts: list[tuple[str, bool]] = field(default_factory=list)  # text:VALUE, negated

    @property
    def text_words(self) -> list[str]:
        """The words searched in the records' texts."""
        return [*self.text, *(word for word, _ in self.in_texts)]

    @property
    def empty(self) -> bool:
        return not self.text and not self.tests and not self.in_texts


def parse_query(source: str) -> Query:
    """``flag:judge bucket:geo is:todo some words``: every part must match."""
    query = Query()
    for match in _TOKEN.finditer(source):
        negate_mark, key, value, quoted, word = match.groups()
        if key is None:
            query.text.append((quoted if quoted is not None else word).lower())
            continue
        negate = bool(negate_mark)
        key = _ALIASES.get(key.lower(), key.lower())
        value = value.strip('"').lower()
        test: Narrow | None = None
        if key == "flag":
            test = _field_test("flags", _any_contains(value), negate)
        elif key in ("bucket", "model"):
            test = _field_test(key, _contains(value), negate)
        elif key == "eval":
            test = _field_test("evaluator", _contains(value), negate)
        elif key == "score":
            pred = _score_pred(value)
            test = None if pred is None else _field_test("correct", pred, negate)
        elif key == "is":
            test = _is_test(value, negate)
        elif key == "text":
            if value:
                query.in_texts.append((value, negate))
            else:
                query.errors.append("text: needs a value")
            continue
        else:
            query.errors.append(f"unknown filter {key}: (use {', '.join(FILTER_KEYS)})")
            continue
        if test is None:
            query.errors.append(f"bad value for {key}: {value}")
            continue
        query.tests.append(test)
    return query


def filter_rows(
    rows: Sequence[Row], order: Iterable[int], query: Query, texts: TextIndex | None = None
) -> list[int]:
    """Positions from ``order`` (a sorted list of row positions) whose rows match.

    Plain words match the row's short fields (id, model, bucket, evaluator, flag
    kinds) or, with ``texts``, the record's question, reference, reasoning and answer.
    """
    keep = list(order)
    for test in query.tests:
        keep = test(rows, keep)
    for word in query.text:
        if not keep:
            break
        hits = (texts.matching(word) if texts is not None else None) or frozenset()
        keep = [p for p in keep if p in hits or word in rows[p].search]
    for word, negate in query.in_texts:
        if not keep or texts is None:
            break
        hits = texts.matching(word) or frozenset()
        keep = [p for p in keep if (p in hits) != negate]
    return keep


# --- sorting ---------------------------------------------------------------------------


def _score_key(value: float | None) -> float:
    return -1.0 if value is None else value


SORT_KEYS: dict[str, Callable[[Row], Any]] = {
    "order": lambda r: r.index,
    "id": lambda r: r.qid,
    "model": lambda r: r.model,
    "bucket": lambda r: r.bucket,
    "evaluator": lambda r: r.evaluator,
    "rule": lambda r: _score_key(r.strict if r.strict is not None else r.rome),
    "judge": lambda r: _score_key(r.judge),
    "human": lambda r: _score_key(r.human),
    "flags": lambda r: len(r.flags),
}


def sorted_positions(rows: Sequence[Row], key: str, reverse: bool = False) -> list[int]:
    getter = SORT_KEYS[key]
    keys = [getter(row) for row in rows]
    return sorted(range(len(rows)), key=keys.__getitem__, reverse=reverse)


# --- progress and accuracy -------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    reviewed: int
    flagged: int
    flagged_left: int
    overridden: int
    total: int


def progress(rows: Iterable[Row]) -> Progress:
    reviewed = flagged = left = overridden = total = 0
    for row in rows:
        total += 1
        if row.human is not None:
            reviewed += 1
            if row.human != row.machine:
                overridden += 1
        if row.flags:
            flagged += 1
            if row.human is None:
                left += 1
    return Progress(reviewed, flagged, left, overridden, total)


@dataclass(frozen=True)
class Accuracy:
    """Accuracy in percent over ``n`` items, before and after human overrides."""

    name: str
    n: int
    before: float
    after: float


def accuracy(rows: Iterable[Row]) -> tuple[Accuracy, list[Accuracy]]:
    """Overall and per-bucket accuracy of the items with a score (as scores.json counts them).

    "Before" is the primary verdict's score, "after" the adjudicated one; an item
    whose machine score is missing counts as 0 before.
    """
    sums: dict[str, list[float]] = {}
    for row in rows:
        if row.correct is None and row.machine is None:
            continue
        entry = sums.setdefault(row.bucket, [0, 0.0, 0.0])
        entry[0] += 1
        entry[1] += row.machine or 0.0
        entry[2] += row.correct or 0.0
    buckets = [
        Accuracy(name, int(n), 100 * b / n, 100 * a / n) for name, (n, b, a) in sorted(sums.items())
    ]
    n = sum(a.n for a in buckets)
    before = sum(s[1] for s in sums.values())
    after = sum(s[2] for s in sums.values())
    overall = Accuracy("overall", n, 100 * before / n if n else 0.0, 100 * after / n if n else 0.0)
    return overall, buckets
