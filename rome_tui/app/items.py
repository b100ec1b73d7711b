"""The item table's view model: one compact row per record, filters, sorting, progress.

Plain Python with no Textual import, so filtering and sorting 100,000 rows is
measured and tested without a terminal. Rows are derived from the store's
records once at start and again only for a record an override touched.
"""

from __future__ import annotations

import math
import re
import threading
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, overload

import numpy as np

from scorers.records import item_id, response_texts
from scorers.review import RELEASE_SOURCE, grades_correctness, machine_score

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
    release: float | None  # the published grade of a release row (None elsewhere)
    machine: float | None  # the primary verdict: the score before any human override
    correct: float | None  # the adjudicated score now in force
    human: float | None
    flags: tuple[str, ...]  # the distinct kinds, in order (what filters and the palette match)
    flag_count: int  # how many flags: the number the table shows and the detail pane lists
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


def record_flags(review: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The flags of a record's review, as the detail pane numbers them: the one owner of
    what the table's flag count counts (two sources raising one kind are two flags)."""
    return [f for f in review.get("flags") or () if isinstance(f, dict)]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


_UNKNOWN = object()


def make_row(
    index: int, record: Mapping[str, Any], bucket_field: str = "task", baseline: Any = _UNKNOWN
) -> Row:
    """The row of one record; ``baseline`` is the store's pre-override score when it keeps one."""
    review = record.get("review")
    review = review if isinstance(review, dict) else {}
    rome = strict = judge = release = None
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
        elif source == RELEASE_SOURCE:
            release = score
        elif source.startswith("judge:") and judge is None and grades_correctness(source):
            if verdict.get("error"):
                judge_error = True
            else:
                judge = score
    human_info = review.get("human")
    human = as_score(human_info.get("score")) if isinstance(human_info, dict) else None
    correct = as_score(record.get("correct"))
    machine = as_score(machine_score(record) if baseline is _UNKNOWN else baseline)
    flag_list = record_flags(review)
    flags = tuple(dict.fromkeys(_text(f.get("kind", "?")) for f in flag_list))
    # model/question_id in a run of several models: the id an override takes
    qid = item_id(record) if record.get("question_id") is not None else ""
    model = record_model(record)
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
        release=release,
        machine=machine,
        correct=correct,
        human=human,
        flags=flags,
        flag_count=len(flag_list),
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


_NAME_BREAKS = "-_/.: "


def distinct_parts(names: Iterable[str]) -> dict[str, str]:
    """Each name cut to the part that tells it from the others, for a narrow column: the
    start it shares with the names nearest it and the end every name shares are dropped,
    at a word break, and an ellipsis marks each cut ("gemini-2.5-pro-thinking" beside
    "gemini-2.5-flash-thinking": "…pro…" and "…flash…"). A name sharing nothing stays."""
    unique = sorted(set(names))
    if len(unique) < 2:
        return {name: name for name in unique}
    shared_end = _shared_start([name[::-1] for name in unique])[::-1]
    breaks = [shared_end.find(c) for c in _NAME_BREAKS if c in shared_end]
    end = len(shared_end) - min(breaks) if breaks else 0
    parts = {}
    for i, name in enumerate(unique):
        # Sorted, the names sharing the longest start with this one are beside it.
        shared = max(
            (
                _shared_start([name, other])
                for other in unique[max(0, i - 1) : i + 2]
                if other != name
            ),
            key=len,
        )
        start = max(shared.rfind(c) for c in _NAME_BREAKS) + 1
        core = name[start : len(name) - end] if start + end < len(name) else ""
        if not core.strip(_NAME_BREAKS):
            core, start, cut_end = name, 0, 0
        else:
            cut_end = end
        parts[name] = ("…" if start else "") + core + ("…" if cut_end else "")
    return parts


def _shared_start(names: Sequence[str]) -> str:
    first, last = min(names), max(names)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


def record_model(record: Mapping[str, Any]) -> str:
    return _text(record.get("model") or record.get("model_name"))


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
        self._model_labels: dict[str, str] | None = None

    @property
    def model_labels(self) -> dict[str, str]:
        """Each model's :func:`distinct_parts` label, from the records (no row is built)."""
        if self._model_labels is None:
            self._model_labels = distinct_parts(map(record_model, self._records))
        return self._model_labels

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


# Texts are casefolded and UTF-8 encoded; an ASCII byte that is not a letter, digit or
# "_" ends a word. Bytes of other characters stay inside words: a word may then hold a
# non-ASCII mark ("don’t"), which only makes it longer, never splits a match.
_WORD_BYTE = bytes(
    c if (c >= 128 or c == ord("_") or chr(c).isalnum()) else ord(" ") for c in range(256)
)


def _folded(text: str) -> bytes:
    return text.casefold().encode("utf-8", "replace")


class _Inversion:
    """Words and the records holding them, as flat arrays (built once, then read-only).

    ``vocabulary`` is every distinct word joined by newlines (a byte no word holds);
    ``starts[w]`` is where word ``w`` begins in it. The records holding word ``w`` are
    ``postings[offsets[w]:offsets[w + 1]]``, ascending.
    """

    def __init__(self, vocab: dict[bytes, int], ids: array[int], counts: array[int]) -> None:
        word_ids = np.frombuffer(ids, dtype=np.uint32) if ids else np.zeros(0, np.uint32)
        per_record = np.frombuffer(counts, dtype=np.uint32) if counts else np.zeros(0, np.uint32)
        self.records = len(counts)
        items = np.repeat(np.arange(self.records, dtype=np.uint32), per_record)
        # Stable: each word's records stay in ascending order.
        self.postings = items[np.argsort(word_ids, kind="stable")]
        self.per_word = np.bincount(word_ids, minlength=len(vocab))
        self.offsets = np.zeros(len(vocab) + 1, dtype=np.int64)
        np.cumsum(self.per_word, out=self.offsets[1:])
        words = list(vocab)  # in id order: a dict keeps insertion order
        self.vocabulary = b"\n".join(words) + b"\n"
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words)) + 1
        bounds = np.zeros(len(words) + 1, dtype=np.int64)
        np.cumsum(lengths, out=bounds[1:])
        self.starts = array("q", bounds.tobytes())

    def word(self, w: int) -> bytes:
        return self.vocabulary[self.starts[w] : self.starts[w + 1] - 1]

    def words_containing(
        self, needle: bytes, among: Sequence[int] | None, cancelled: Callable[[], bool]
    ) -> list[int] | None:
        """Ids of the words holding ``needle``; None when ``cancelled`` stopped the scan."""
        if among is not None:  # a longer word: only the words its prefix matched
            return [w for w in among if needle in self.word(w)]
        found: list[int] = []
        vocabulary, starts = self.vocabulary, self.starts
        pos = vocabulary.find(needle)
        while pos != -1:
            w = bisect_right(starts, pos) - 1
            found.append(w)
            if len(found) % 65536 == 0 and cancelled():
                return None
            pos = vocabulary.find(needle, starts[w + 1])  # each word once
        return found

    def records_of(self, words: list[int]) -> frozenset[int]:
        """The records holding any of ``words``."""
        postings, offsets = self.postings, self.offsets
        if len(words) <= 64:
            parts = [postings[offsets[w] : offsets[w + 1]] for w in words]
            found: set[int] = set()
            for part in parts:
                found.update(part.tolist())
            return frozenset(found)
        chosen = np.zeros(len(self.per_word), dtype=bool)
        chosen[words] = True
        held = np.zeros(self.records, dtype=bool)
        held[postings[np.repeat(chosen, self.per_word)]] = True
        return frozenset(np.flatnonzero(held).tolist())


class TextIndex:
    """Case-insensitive substring search over every record's texts, through a word index.

    Each record's texts are casefolded ("Straße" and "STRASSE" match each other) and
    split into words; every distinct word is kept once, in one newline-joined byte
    string, beside the (ascending) list of records holding it. A search word that is
    letters and digits only lies inside one word of any text holding it, so it is
    found with ``bytes.find`` over the distinct words (a few MB, not the texts' hundreds)
    and mapped to records through the postings: no per-record work at search time,
    and no match can run from one record or word into the next. A word typed one
    letter at a time is looked for among the words its prefix matched. A search with
    spaces or punctuation ("sagrada familia", "x=5") narrows to the records holding
    all its words, then reads those records' texts to confirm.

    The index is built on the first search (or by ``build`` in a worker): a run nobody
    searches pays nothing. It costs the distinct words and 4 bytes per (word, record)
    pair, far less than the texts themselves.
    """

    _CACHED = 16
    _NARROW = 50_000  # narrow among a prefix's words when it matched no more than this

    def __init__(self, records: Sequence[Mapping[str, Any]]) -> None:
        self._records = records
        self._index: _Inversion | None = None
        # Building state, kept when a build is cancelled so the next one resumes.
        self._vocab: dict[bytes, int] = {}
        self._ids: array[int] = array("I")
        self._counts: array[int] = array("I")
        self._lock = threading.Lock()  # held while the index is built
        self._cache_lock = threading.Lock()  # a search may run in a worker thread
        self._hits: OrderedDict[bytes, frozenset[int]] = OrderedDict()
        self._words: OrderedDict[bytes, list[int]] = OrderedDict()

    @property
    def ready(self) -> bool:
        return self._index is not None

    def build(self, cancelled: Callable[[], bool] = lambda: False) -> bool:
        """Index every record not yet indexed; False if ``cancelled`` stopped it first."""
        with self._lock:
            if self._index is not None:
                return True
            records, vocab, ids, counts = self._records, self._vocab, self._ids, self._counts
            for i in range(len(counts), len(records)):
                if i % 1024 == 0 and cancelled():
                    return False
                words = set(_folded(record_text(records[i])).translate(_WORD_BYTE).split())
                new = words.difference(vocab)
                if new:
                    vocab.update(zip(new, range(len(vocab), len(vocab) + len(new)), strict=True))
                ids.extend(map(vocab.__getitem__, words))
                counts.append(len(words))
            self._index = _Inversion(vocab, ids, counts)
            self._vocab, self._ids, self._counts = {}, array("I"), array("I")
            return True

    def refresh(self) -> None:
        """Forget the index (a reload): it is built again at the next search."""
        with self._lock, self._cache_lock:
            self._index = None
            self._vocab, self._ids, self._counts = {}, array("I"), array("I")
            self._hits.clear()
            self._words.clear()

    @staticmethod
    def _needle(word: str) -> bytes:
        return _folded(word)

    def cached(self, word: str) -> bool:
        """Whether ``matching(word)`` answers at once (its hits are remembered)."""
        with self._cache_lock:
            return self._needle(word) in self._hits

    def matching(
        self, word: str, cancelled: Callable[[], bool] = lambda: False
    ) -> frozenset[int] | None:
        """Indices of the records whose texts contain ``word``, ignoring case; None only
        when ``cancelled`` stopped the search."""
        needle = self._needle(word)
        with self._cache_lock:
            hits = self._hits.get(needle)
            if hits is not None:
                self._hits.move_to_end(needle)
                return hits
        if not self.build(cancelled):
            return None
        index = self._index
        assert index is not None
        parts = needle.translate(_WORD_BYTE).split()
        if parts == [needle]:
            hits = self._word_hits(index, needle, cancelled)
        else:
            hits = self._phrase_hits(index, word, parts, cancelled)
        if hits is None:
            return None
        with self._cache_lock:
            self._hits[needle] = hits
            if len(self._hits) > self._CACHED:
                self._hits.popitem(last=False)
        return hits

    def _word_hits(
        self, index: _Inversion, needle: bytes, cancelled: Callable[[], bool]
    ) -> frozenset[int] | None:
        with self._cache_lock:
            prefixes = [w for n, w in self._words.items() if n in needle]
        among = min(prefixes, key=len) if prefixes else None
        if among is not None and len(among) > self._NARROW:
            among = None
        words = index.words_containing(needle, among, cancelled)
        if words is None:
            return None
        with self._cache_lock:
            self._words[needle] = words
            if len(self._words) > self._CACHED:
                self._words.popitem(last=False)
        return index.records_of(words)

    def _phrase_hits(
        self, index: _Inversion, word: str, parts: list[bytes], cancelled: Callable[[], bool]
    ) -> frozenset[int] | None:
        candidates: frozenset[int] | None = None
        for part in parts:  # every word of the phrase is in a record that holds it
            hits = self._word_hits(index, part, cancelled)
            if hits is None:
                return None
            candidates = hits if candidates is None else candidates & hits
        if candidates is None:  # punctuation only: every record is a candidate
            candidates = frozenset(range(index.records))
        folded = word.casefold()
        found: list[int] = []
        for n, i in enumerate(sorted(candidates)):
            if n % 256 == 0 and cancelled():
                return None
            if folded in record_text(self._records[i]).casefold():
                found.append(i)
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
    "qid": "the question_id is VALUE: every model's answer to one question (c sets it)",
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


def _same_question(value: str) -> Callable[[Any], bool]:
    # An item id is the question_id, or model/question_id in a run of several models.
    tail = "/" + value
    return lambda v: isinstance(v, str) and (v.lower() == value or v.lower().endswith(tail))


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
        elif key == "qid":
            test = _field_test("qid", _same_question(value), negate)
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
    "flags": lambda r: r.flag_count,
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
