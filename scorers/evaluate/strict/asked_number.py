"""Which of the numbers an answer without a marker states is its answer: the one
in the unit the question asks, or carrying the thing it counts, a year or a
share it asks for; else the last, with the others of its sentence as rivals."""

from __future__ import annotations

import re

from scorers.evaluate.strict import numbers
from scorers.evaluate.strict.commit import CONCLUDING, FEW_SENTENCES, sentences
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.numbers import Number, find_numbers, pick_number
from scorers.evaluate.strict.reading import Reading

DIGIT = re.compile(r"\d")
# A remark in brackets.
PAREN = re.compile(r"\([^()\n]*\)")
# Where a sentence settles its number: after an equals sign or a conclusion
# ("3 on the left and 2 on the right, so 5"); the numbers before it lead there.
_SETTLES = re.compile(
    r"=|≈|→|\b(?:so|therefore|thus|hence|total|totals|makes|making|gives|giving|but|yet|however"
    r"|instead|is|are|was|were|equals)\b",
    re.IGNORECASE,
)
_SENTENCE_REACH = 300
_ENDS = (". ", ".\n", "! ", "? ", "\n")
_WORD_AFTER = re.compile(r"[ \t]*[^\W\d_]")


def _sentence_of(text: str, number: Number) -> tuple[int, int]:
    """The bounds of the sentence holding ``number`` (a period after a one-letter
    word abbreviates: "i.e.", "e.g."), looked for within a few hundred characters."""
    lo = start = max(0, number.start - _SENTENCE_REACH)
    at = number.start
    while at > lo:
        at = max(text.rfind(e, lo, at) for e in _ENDS)
        if at < 0:
            break
        if not _ABBREVIATES.match(text, max(0, at - 2)):
            start = at + 1
            break
    hi = min(len(text), number.end + _SENTENCE_REACH)
    end = hi
    at = number.end
    while at < hi:
        found = [i for i in (text.find(e, at, hi) for e in _ENDS) if i >= 0]
        if not found:
            break
        at = min(found)
        if not _ABBREVIATES.match(text, max(0, at - 2)):
            end = at
            break
        at += 1
    return start, end


_ABBREVIATES = re.compile(r"(?:^|\W)[^\W\d_]\.")


def in_asked_unit(number: Number, text: str, reading: Reading) -> tuple[Number, list[Number]]:
    """Without a marker the last number is read, unless the question asks for a
    unit or a thing that only another number of the answer carries ("About
    −89.2 °C, measured in 1983" for "..., in °C?"; "8 legs and 2 body segments"
    for "How many legs ...?"): that one is the answer, the others remarks. Else
    the other numbers of its sentence, after where it settles and outside
    brackets, are returned: read another way, the answer states one of them
    ("3 eggs for every 250 g of flour"). The question is read only when the
    answer holds another number (an outcome that reads it is remembered by what it read of it,
    ``scorers.evaluate.strict.asked``)."""
    if DIGIT.search(text, 0, number.start) is None and DIGIT.search(text, number.end) is None:
        if DIGIT.search(text) is not None or numbers.LARGE_WORD.search(text):
            return number, []
        # Number words only ("Five, one per region"): the other words of its sentence.
        start, end = _sentence_of(text, number)
        asides = [p.span() for p in PAREN.finditer(text, start, end)] if "(" in text else []
        rivals = [
            n
            for n in numbers.word_numbers(text, start, end)
            if n.start != number.start and not any(s <= n.start < e for s, e in asides)
        ]
        if not rivals:
            return number, []
        return _asked_one(number, rivals, text, reading)
    asked_unit = reading.unit_at_end
    if asked_unit is None and len(text) > FEW_SENTENCES * 200:
        return number, []  # a long answer's last sentence is as often a remark: not weighed
    start, end = _sentence_of(text, number)
    if asked_unit is None and not (
        DIGIT.search(text, start, number.start) or DIGIT.search(text, number.end, end)
    ):
        return number, []
    # The other numbers of its sentence, from where it settles on, outside brackets.
    for settle in _SETTLES.finditer(text, start, number.start):
        start = settle.end()
    asides = [(p.start(), p.end()) for p in PAREN.finditer(text, start, end)] if "(" in text else []
    rivals = [
        n._replace(start=n.start + start, end=n.end + start)
        for n in find_numbers(text[start:end])
        if n.start + start != number.start
        and not any(s <= n.start + start and n.end + start <= e for s, e in asides)
    ]
    if asked_unit is not None:
        unit = asked_unit.replace(" ", "")
        carrying = [
            n
            for n in find_numbers(text)
            if text[n.end : n.end + 12].replace(" ", "").startswith(unit)
        ]
        return (carrying[0], []) if len(carrying) == 1 else (number, rivals)
    if not rivals:
        return number, []
    return _asked_one(number, rivals, text, reading)


def _asked_one(
    number: Number, rivals: list[Number], text: str, reading: Reading
) -> tuple[Number, list[Number]]:
    """The one number of a sentence that carries what the question counts, a
    year or a share it asks for; else ``number`` with its rivals."""
    counted = reading.counted
    if counted is None:
        return number, rivals
    kind, stem = counted
    if kind == "noun":
        if not all(_WORD_AFTER.match(text, n.end) for n in [number, *rivals]):
            return number, rivals  # a bare number may count the same thing ("206 bones; ... 270")

        def carries(n: Number) -> bool:
            return text[n.end : n.end + 12].lstrip(" \t").lower().startswith(stem)

    elif kind == "year":

        def carries(n: Number) -> bool:  # a year: four digits, whole
            return 1000 <= n.value < 3000 and n.value == int(n.value) and not n.percent

    else:  # a share

        def carries(n: Number) -> bool:
            return n.percent

    carrying = [n for n in [number, *rivals] if carries(n)]
    if len(carrying) == 1:
        return carrying[0], []
    return number, rivals


_CONTENT_WORD = re.compile(r"[^\W\d_]{4,}")
_BLANKS_MAX = 4


def answered_first(segment: str, reading: Reading) -> tuple[Number, str] | None:
    """The number of an answer that states it in its first sentence and goes on
    to tell about it ("The population of Mersin Province in 2022 was 1,916,432.
    This figure includes 958,642 men and ..."): the first sentence restates the
    question (half its content words, or half its names) with a number the question
    does not state, and no later sentence concludes ("so", "=", "total", ...),
    so the numbers after it are details, not a result worked towards. The
    question's own numbers in that sentence are passed over ("The 1961 house
    comprises three frames" for "How many frames does the 1961 house ...?")."""
    ends = [i for i in (segment.find(". "), segment.find("\n")) if i >= 0]
    if not ends or CONCLUDING.search(segment, min(ends)):
        return None  # (one pass: a cue anywhere after the first stop)
    parts = sentences(segment)
    if len(parts) < 2:
        return None
    first = parts[0]
    asked_words, asked_names, asked_numbers = reading.topic
    words = {w[:5] for w in _CONTENT_WORD.findall(fold_phrase(first))}
    if not (
        _restates(words, asked_words) or _restates(words, asked_names)
    ):  # (its names, in a language whose function words are not known)
        return None
    text = first
    for _ in range(_BLANKS_MAX):
        number, text = pick_number(text, last=True)
        if number is None:
            return None
        if number.value not in asked_numbers:
            return number, text
        text = text[: number.start] + " " * (number.end - number.start) + text[number.end :]
    return None


def _restates(words: set[str], asked: frozenset[str]) -> bool:
    return bool(asked) and 2 * len(words & asked) >= len(asked)
