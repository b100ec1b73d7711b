"""Outcomes remembered by what an evaluator read, so each distinct answer is read once.

A run grades the same question for many models, and short answers repeat ("B",
"12", "Paris"): rule evaluators are pure functions of the annotation's kwargs and
the stated answer, so an outcome computed once is the outcome for every record
that states the same answer to the same kwargs. Each mode keys its outcomes by
exactly what its evaluator reads (rome mode: the extracted answer; strict mode:
the located answer, plus the question when the evaluator read it), and a test
grades every labelled and parity item with and without the memo.

Kwargs are keyed by their JSON text: equal text is equal kwargs for the JSON
types annotations hold (``1`` and ``1.0`` and ``true`` stay apart). NaN and
infinities, which orjson writes as ``null``, and anything orjson cannot write are
not remembered, so no two different kwargs share a key.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import orjson

# Entries per mode: a run's distinct (kwargs, answer) pairs in the span over
# which they recur; the texts kept are short (MAX_TEXT), so a full memo holds a
# few megabytes.
CAPACITY = 8192
# A stated answer longer than this is prose, which does not recur (on the
# realistic benchmark corpus, answers of 100 characters or more recurred 5 times
# in 2,700): not kept, so it never pushes out one that does.
MAX_TEXT = 200


_MEMOS: list[Memo] = []


def clear_all() -> None:
    """Forget every remembered outcome (benchmarks time a run from cold)."""
    for memo in _MEMOS:
        memo.clear()


def kwargs_key(kwargs: Any) -> str | None:
    """A key equal only for equal kwargs, or None when they are not plain JSON."""
    if type(kwargs) is not dict:
        return None
    try:
        # As text: the bytes orjson returns keep a 4 KB buffer, which a memo
        # of thousands of keys would hold.
        text = orjson.dumps(kwargs).decode()
    except orjson.JSONEncodeError:
        return None
    return None if "null" in text else text


class Memo:
    """A bounded map from a read input to its outcome, least recently used first out."""

    __slots__ = ("_entries", "capacity")

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self.capacity = capacity
        _MEMOS.append(self)

    def get(self, key: Hashable) -> Any:
        value = self._entries.get(key)
        if value is not None:
            # try/except, not contextlib.suppress: this runs twice a record, and
            # suppress() costs more than the lookup itself.
            try:  # noqa: SIM105
                self._entries.move_to_end(key)
            except KeyError:  # another thread evicted it meanwhile
                pass
        return value

    def put(self, key: Hashable, value: Any) -> None:
        entries = self._entries
        entries[key] = value
        if len(entries) > self.capacity:
            entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
