"""Option letters of other scripts, read as the Latin letters of the same place.

An Arabic exam letters its options أ ب ج د, a Russian one А Б В Г, a Greek one
Α Β Γ Δ, a Hebrew one א ב ג ד, a Chinese one 甲 乙 丙 丁: a reader takes "ب" as
the second option, as "B" would be. The sequences are the alphabetic list
markers of W3C's Ready-made Counter Styles (``option_letters.json``); a letter
maps to the Latin letter of its place in the sequence its text uses. A script
with two orders (Arabic abjad أ ب ج د and hijāʾī أ ب ت ث) is read in the order
the question's own option heads follow, else in the one where the letters
stand earliest. Only a letter standing alone is an option letter: one inside a
word, or a capital opening a sentence ("В этом ..."), is not.

The reference grader reads Latin letters only; rome mode keeps that.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

_DATA = json.loads((Path(__file__).with_name("option_letters.json")).read_text(encoding="utf-8"))
_SEQUENCES: dict[str, str] = _DATA["sequences"]
_VARIANTS: dict[str, str] = _DATA["variants"]
_LETTERS = frozenset(ch for seq in _SEQUENCES.values() for ch in seq) | frozenset(
    ch for seq in _SEQUENCES.values() for ch in seq.lower()
)
# A run of letters with their combining marks and Arabic tatweel: one word.
_WORD = re.compile(r"(?:[^\W\d_]|[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u0640])+")
_MARKS = re.compile(r"[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u0640]")
# What follows a letter heading an option ("أ. ", "ب) ", "В: ") or precedes it ("(ج)").
_HEAD_AFTER = frozenset(".)]:：-–")
_HEAD_BEFORE = frozenset("([（")
_MIN_HEADS = 2


def _base(word: str) -> str:
    """A word's letter as the sequences write it, or "" when it is no single letter."""
    word = _MARKS.sub("", unicodedata.normalize("NFKC", word))
    word = _VARIANTS.get(word, word)
    if len(word) != 1:
        return ""
    return _VARIANTS.get(word, word)


def _place(letter: str, sequence: str) -> int:
    """The letter's place in ``sequence`` (0 for the first), else -1."""
    return sequence.find(letter.upper()) if letter.upper() in sequence else sequence.find(letter)


def sequence_for(letters: tuple[str, ...]) -> str | None:
    """The sequence in which all ``letters`` (bases) are option letters, standing
    earliest; the first listed of equals."""
    best: tuple[int, str] | None = None
    for name, sequence in _SEQUENCES.items():
        places = [_place(x, sequence) for x in letters]
        if not places or min(places) < 0:
            continue
        if best is None or max(places) < best[0]:
            best = (max(places), name)
    return None if best is None else best[1]


@lru_cache(maxsize=1024)
def question_script(question: str) -> str | None:
    """The sequence the question's own option heads follow ("أ. ...", "(ب) ...",
    "В) ..."), or None when it heads no options with another script's letters."""
    if not question or question.isascii():
        return None
    heads: list[str] = []
    for m in _WORD.finditer(question):
        letter = _base(m.group())
        if not letter or letter not in _LETTERS:
            continue
        before = question[m.start() - 1 : m.start()]
        after = question[m.end() : m.end() + 1]
        if after in _HEAD_AFTER or before in _HEAD_BEFORE:
            heads.append(letter)
    distinct = tuple(dict.fromkeys(heads))
    if len(distinct) < _MIN_HEADS:
        return None
    return sequence_for(distinct)


_LABEL_SPLIT = re.compile(r"[\s,،、;()\[\].]+")


def latin_label(label: str, script: str | None) -> tuple[str, str] | None:
    """``label`` ("ب", "أ، ج", "В") as Latin letters ("B", "A,C", "C") and the
    sequence read, or None when it is not option letters of another script.
    ``script``: the sequence of the question's option heads, which decides."""
    parts = [p for p in _LABEL_SPLIT.split(label.strip()) if p]
    letters = tuple(_base(p) for p in parts)
    if not letters or not all(letters):
        return None
    names = [script] if script else []
    names.append(sequence_for(letters) or "")
    for name in names:
        sequence = _SEQUENCES.get(name, "")
        places = [_place(x, sequence) for x in letters]
        if sequence and min(places) >= 0:
            return ",".join(chr(ord("A") + k) for k in places), name
    return None


def to_latin(text: str, script: str, count: int = 10) -> str:
    """``text`` with each letter of ``script`` that stands alone written as the
    Latin letter of its place, in its case ("الإجابة: ب" -> "الإجابة: B",
    "ответ: в)" -> "ответ: c)"). A capital followed by a lower-case word opens a
    sentence ("В этом случае"): a word, left as written. Only the first ``count``
    letters are options ("و", the sixth of the abjad, is also "and")."""
    sequence = _SEQUENCES[script]
    out: list[str] = []
    at = 0
    for m in _WORD.finditer(text):
        letter = _base(m.group())
        if not letter:
            continue
        k = _place(letter, sequence)
        if not 0 <= k < count:
            continue
        latin = chr(ord("A") + k)
        if letter != letter.upper():
            latin = latin.lower()
        elif letter != letter.lower() and re.match(r"[ \t]+[^\W\d_]", text[m.end() :]):
            nxt = text[m.end() :].lstrip(" \t")[:1]
            if nxt != nxt.upper():
                continue
        out.append(text[at : m.start()])
        out.append(latin)
        at = m.end()
    if not out:
        return text
    out.append(text[at:])
    return "".join(out)
