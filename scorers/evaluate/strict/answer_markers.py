"""Answer markers in other languages (``정답:``, ``答え：``, ``Respuesta:``, ``Jibu:``).

The words are published lists, reproduced verbatim in ``answer_markers.json``:
the answer prefixes OpenAI's simple-evals looks for when it grades MMMLU answers
(a word, optional space, a colon), and the word its MGSM prompts ask a model to
end with, in the format the prompts give (``Ответ:``, ``คำตอบ:``: the word and a
colon). Entries the English and Chinese readers of :mod:`final` already know
("Answer", 答案) are left to them. Strict mode and math prose
(``mathmatch.extract``) read markers through this one module.

A marker counts as the English ``Answer:`` does, with the same reading around
it: Markdown dress may stand between the word and its colon (``**Jibu**:``; the
source strips it before matching), a word must not close a longer word of its
script (``Majibu:`` is not ``Jibu:``, Chinese ``解答：`` is not ``答：``), and a marker inside quotation
marks opened earlier on its line is quoted or given as an example
(``reply as "답: X"``), not stated; one in brackets (``(Respuesta: C)``) states. Which of several markers wins, and what a
later correction does, is :mod:`final`'s business, as for the English marker.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

_DATA = Path(__file__).with_name("answer_markers.json")
# Entries the readers in final.py already know, with their own care.
_KNOWN = ("answer", "答案")
# The word of an entry ends where its regex part ("\s*") or its colon starts.
_WORD_END = re.compile(r"\\s\*|[:：]\s*$")
_DRESS = "[ \\t*_`]*"
_DRESS_CHARS = " \t*_`"
# Quotation marks whose closer, if it has not come yet on the line, puts a marker
# in a quotation; '"' opens and closes. (Not brackets: "(Answer: D)" after the
# working states the answer.)
_QUOTE_REACH = 200  # characters before a marker looked at for an open quotation
_PAIRS = (("“", "”"), ("「", "」"), ("『", "』"), ("«", "»"))
_INCHES = re.compile(r'\d"')


class Marker(NamedTuple):
    start: int  # where the marker's word starts
    end: int  # just past its colon and the dress after it: the answer starts here


class _Table(NamedTuple):
    words: tuple[str, ...]
    after: tuple[re.Pattern[str], ...]  # per word: dress, then one of its entries' endings
    script: tuple[str, ...]  # per word: its script (_script)
    last: frozenset[str]  # the words' last letters
    ascii_words: tuple[str, ...]  # the words an ASCII text may hold
    ascii_last: frozenset[str]


def prefixes() -> list[str]:
    """The published MMMLU entries, as the data file holds them."""
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    return list(data["prefixes"])


def mgsm_prefixes() -> dict[str, str]:
    """The published MGSM answer words by language, as the data file holds them."""
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    return dict(data["mgsm_answer_prefixes"])


def written_in(script: str) -> tuple[str, ...]:
    """The listed words written in ``script``, longest first: "hangul" (답변, 정답, 답) or
    "kana", a word holding kana and so Japanese (答え). ``mathmatch.extract`` reads them
    with the topic particle as "the answer is" (정답은, 答えは)."""
    if script == "kana":
        return tuple(w for w in _table().words if any("\u3040" <= c <= "\u30ff" for c in w))
    return tuple(w for w, s in zip(_table().words, _table().script, strict=True) if s == script)


def _script(ch: str) -> str:
    """The script of ``ch``: han (with kana), hangul, or spaced (Latin, Arabic, Bengali,
    Devanagari: scripts that write spaces between words)."""
    if "\u1100" <= ch <= "\u11ff" or "\uac00" <= ch <= "\ud7af" or "\u3130" <= ch <= "\u318f":
        return "hangul"
    if "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff":
        return "han"
    return "spaced"


def _continues(prev: str, script: str) -> bool:
    """Whether a marker word after ``prev`` closes a longer word: after a letter in a
    spaced script (``Majibu:``), after Han for a Han word (Chinese ``解答：`` heads a
    worked solution; 答え after kana, ``最終的な答え：``, is a marker), after Hangul for
    a Hangul one (정답 is its own entry)."""
    if script == "spaced":
        return prev.isalnum()
    return _script(prev) == script and prev.isalpha() and not ("\u3040" <= prev <= "\u30ff")


def _load() -> _Table:
    global _TABLE
    _TABLE = _table()
    return _TABLE


_TABLE: _Table | None = None


@lru_cache(maxsize=1)
def _table() -> _Table:
    endings: dict[str, list[str]] = {}
    # (an MGSM word is written with a colon, as its prompt's format shows: "Ответ:")
    for entry in prefixes() + [re.escape(w) + "\\s*:" for w in mgsm_prefixes().values()]:
        cut = _WORD_END.search(entry)
        word = (entry[: cut.start()] if cut else entry).strip().lower()
        ending = entry[cut.start() :] if cut else ""
        if not word or word.startswith(_KNOWN):
            continue
        # Written text is composed (NFC); a few entries are listed decomposed.
        for form in {word, unicodedata.normalize("NFC", word)}:
            endings.setdefault(form, [])
            if ending not in endings[form]:
                endings[form].append(ending)
    words = tuple(sorted(endings, key=len, reverse=True))
    after = tuple(
        re.compile(_DRESS + "(?:" + "|".join(endings[w]) + ")" + _DRESS, re.IGNORECASE)
        for w in words
    )
    return _Table(
        words,
        after,
        tuple(_script(w[0]) for w in words),
        frozenset(w[-1] for w in words),
        tuple(w for w in words if w.isascii()),
        frozenset(w[-1] for w in words if w.isascii()),
    )


def quoted(text: str, start: int) -> bool:
    """Whether a quotation opened earlier on the line is still open at ``start``."""
    window = max(0, start - _QUOTE_REACH)  # (bounded: a line of a thousand markers stays linear)
    line_start = text.rfind("\n", window, start) + 1
    before = text[line_start or window : start]
    # A '"' both opens and closes, so its count says something only from the line's
    # start: a window cut inside a long line of quoted words may begin between a pair.
    whole_line = line_start > 0 or window == 0 or text[window - 1] == "\n"
    # (a '"' after a digit is an inch mark, not a quotation: 'a 3" pipe')
    if whole_line and (marks := before.count('"')) and (marks - len(_INCHES.findall(before))) % 2:
        return True
    # (every other opener is outside ASCII: the usual line has none)
    return not before.isascii() and any(
        before.count(o) > before.count(c) for o, c in _PAIRS if o in before
    )


def last_marker(text: str, lowered: str, after: int = -1) -> Marker | None:
    """The last other-language marker of ``text`` that starts after ``after``.

    ``lowered`` is ``text`` lowered with its offsets kept. Every entry ends in a
    colon, so only the colons after ``after`` are looked at, last first: one
    ``str.endswith`` says whether a listed word stands before one.
    """
    table = _TABLE or _load()
    plain = lowered.isascii()
    visarga = False  # (the Bengali visarga closes উত্তরঃ as a colon does)
    if plain:
        if lowered.find(":", after + 1) == -1:
            return None  # (the usual answer: no colon after its marker)
        words, last_letters = table.ascii_words, table.ascii_last
    else:
        words, last_letters = table.words, table.last
        visarga = "ঃ" in lowered
    stop = len(lowered)
    while True:
        colon = lowered.rfind(":", after + 1, stop)
        if not plain:
            colon = max(colon, lowered.rfind("：", after + 1, stop))
            if visarga:
                colon = max(colon, lowered.rfind("ঃ", after + 1, stop))
        if colon == -1:
            return None
        stop = colon
        word_end = colon + 1 if lowered[colon] == "ঃ" else colon  # (part of its word: উত্তরঃ)
        before = lowered[word_end - 1 : word_end]
        if before in _DRESS_CHARS:  # ("**Jibu**:")
            while word_end > 0 and lowered[word_end - 1] in _DRESS_CHARS:
                word_end -= 1
            before = lowered[word_end - 1 : word_end]
        # (the usual colon follows no listed word's last letter: one look settles it)
        if before not in last_letters:
            continue
        if not lowered.endswith(words, 0, word_end):
            continue
        for index, word in enumerate(table.words):  # (longest first: 정답 before 답)
            start = word_end - len(word)
            if not lowered.startswith(word, start) or start <= after:
                continue
            if start and _continues(lowered[start - 1], table.script[index]):
                continue  # the end of a longer word
            found = table.after[index].match(lowered, word_end)
            if found is not None and not quoted(text, start):
                return Marker(start, found.end())
