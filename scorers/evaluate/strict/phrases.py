"""Key phrases and place names found the way a reader finds them.

A phrase matches as whole words (``la`` is not in ``Atlanta``, ``red`` is not
in ``reddish``) after folding case, accents, quotes, dashes and whitespace
(``Zurich`` is in ``Zürich``, ``New York`` in ``New\\u00a0York``). A
compound's parts count as words (``Tokyo Disney`` is in ``Tokyo DisneySea``),
a plural ``s``/``es`` is allowed after a phrase of three or more letters, and a
mention right after a negation (``not Seattle``, ``rather than Seattle``) does
not count.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scorers.evaluate.strict.fold import fold_phrase, split_camel

_NEGATORS = frozenset(("not", "never", "nor", "neither", "except", "excluding", "unlike"))
_NEGATING_PAIRS = frozenset(("rather than", "instead of", "other than"))
_ARTICLES = frozenset(("the", "a", "an"))
_NEGATION_WINDOW = 24
_PLURAL_MIN = 3


def _wordish(ch: str) -> bool:
    # Scripts written without spaces (CJK, kana) have no word boundaries to honour.
    return ch.isalnum() and ord(ch) < 0x2E80


@lru_cache(maxsize=4096)
def fold_key(key: str) -> str:
    return fold_phrase(key)


@lru_cache(maxsize=4096)
def fold_camel_key(key: str) -> str:
    return fold_phrase(split_camel(key))


def _boundary_after(hay: str, j: int, needle: str) -> bool:
    if j == len(hay) or not _wordish(hay[j]) or not _wordish(needle[-1]):
        return True
    if len(needle) >= _PLURAL_MIN and needle[-1].isalpha():
        for suffix in ("s", "es"):
            k = j + len(suffix)
            if hay.startswith(suffix, j) and (k == len(hay) or not _wordish(hay[k])):
                return True
    return False


def _negated(hay: str, i: int) -> bool:
    """The words just before position ``i`` negate what follows ("not the X")."""
    words = hay[max(0, i - _NEGATION_WINDOW) : i].replace(",", " ").split()
    if words and words[-1] in _ARTICLES:
        words.pop()
    if not words:
        return False
    last = words[-1]
    if last in _NEGATORS or last.endswith("n't"):
        return True
    return len(words) >= 2 and f"{words[-2]} {last}" in _NEGATING_PAIRS


def find_phrase(hay: str, needle: str) -> bool:
    """``needle`` occurs in ``hay`` as whole words and not negated (both folded)."""
    start = 0
    first_wordish = _wordish(needle[0])
    while True:
        i = hay.find(needle, start)
        if i == -1:
            return False
        if (
            (i == 0 or not first_wordish or not _wordish(hay[i - 1]))
            and _boundary_after(hay, i + len(needle), needle)
            and not _negated(hay, i)
        ):
            return True
        start = i + 1


class Answer:
    """An answer text folded once, with its compound-split form made on demand."""

    __slots__ = ("_camel", "_spaceless", "folded", "raw")

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.folded = fold_phrase(raw)
        self._camel: str | None = None
        self._spaceless: str | None = None

    def contains(self, key: str, *, remove_space: bool = False) -> bool:
        needle = fold_key(key)
        if not needle:
            return False
        if remove_space:
            # Spaces removed on both sides leave no word boundaries to check:
            # the reference's substring test, on folded text.
            if self._spaceless is None:
                self._spaceless = self.folded.replace(" ", "")
            return needle.replace(" ", "") in self._spaceless
        if find_phrase(self.folded, needle):
            return True
        if self._camel is None:
            self._camel = fold_phrase(split_camel(self.raw)) if _has_camel(self.raw) else ""
        return bool(self._camel) and find_phrase(self._camel, fold_camel_key(key))


_has_camel = re.compile(r"[a-z][A-Z]").search
