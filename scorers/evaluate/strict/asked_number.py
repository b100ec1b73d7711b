"""Which of the numbers an answer without a marker states is its answer: the one
in the unit the question asks, or carrying the thing it counts, a year or a
share it asks for; else the last, with the others of its sentence as rivals."""

from __future__ import annotations

import re

from scorers.evaluate.strict import numbers
from scorers.evaluate.strict.answer_names import FUNCTION_WORDS
from scorers.evaluate.strict.commit import CONCLUDING, FEW_SENTENCES, sentences
from scorers.evaluate.strict.dates import date_spans
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
    ("3 eggs for every 250 g of flour"); of those, the day and year of a written
    date are no amount (``date_spans``). A number the question gives, restated
    after the result, is passed over (``_beside_given``); a count stated before its
    breakdown is read (``_counted_in_sentence``). The question is read only when the
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
    if (new := _beside_given(number, text, reading)) is not None:
        return new, []
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
    rivals = [n for n in _numbers_between(text, start, end) if n.start != number.start]
    if asked_unit is not None:
        unit = asked_unit.replace(" ", "")
        carrying = [
            n
            for n in find_numbers(text)
            if text[n.end : n.end + 12].replace(" ", "").startswith(unit)
        ]
        return (carrying[0], []) if len(carrying) == 1 else (number, rivals)
    if rivals and (spans := date_spans(text[start:end])):
        # "died at the age of 80 on March 8, 2005" for "How old ...?": a date's day
        # and year place the amount asked in time; they are no amount of their own.
        def dated(n: Number) -> bool:
            return any(a <= n.start - start and n.end - start <= b for a, b in spans)

        if _ASKS_AMOUNT.search(reading.question):
            amounts = [n for n in rivals if not dated(n)]
            if dated(number) and len(amounts) == 1:
                return amounts[0], []
            rivals = amounts
    if not rivals:
        return _counted_in_sentence(number, text, reading), []
    return _asked_one(number, rivals, text, reading)


# A question asking an amount, not a time ("How old ...?", "How many ...?"; not "When
# ...?", whose answer a date may hold).
_ASKS_AMOUNT = re.compile(
    r"\bhow[ \t]+(?:many|much|old|long|far|tall|high|big|large|deep|heavy|wide|fast)\b",
    re.IGNORECASE,
)


def _numbers_between(text: str, start: int, end: int) -> list[Number]:
    """The numbers of ``text[start:end]``, placed in ``text``, outside brackets."""
    asides = [(p.start(), p.end()) for p in PAREN.finditer(text, start, end)] if "(" in text else []
    return [
        n._replace(start=n.start + start, end=n.end + start)
        for n in find_numbers(text[start:end])
        if not any(s <= n.start + start and n.end + start <= e for s, e in asides)
    ]


def _carries(text: str, number: Number, stem: str) -> bool:
    """The word after ``number`` is what the question counts ("24 ribs" for "rib")."""
    return text[number.end : number.end + 12].lstrip(" \t").lower().startswith(stem)


def _beside_given(number: Number, text: str, reading: Reading) -> Number | None:
    """The one new number of a concluding sentence that ends by restating a
    number the question gives ("So the train took 16 hours to cover the same
    480 miles" for "... 480 miles, how long ...?"): the given is a remark, the
    new number the result."""
    if not DIGIT.search(text, 0, number.start):
        return None
    given = reading.topic[2]
    if number.value not in given:
        return None
    start, end = _sentence_of(text, number)
    for settle in _SETTLES.finditer(text, start, number.start):
        start = settle.end()
    new = [
        n
        for n in _numbers_between(text, start, end)
        if n.start < number.start and n.value not in given
    ]
    return new[0] if len(new) == 1 else None


def _counted_in_sentence(number: Number, text: str, reading: Reading) -> Number:
    """The one number of ``number``'s whole sentence that carries what the
    question counts, when ``number`` does not ("Humans have 24 ribs, in 12 pairs:
    7 pairs are true ribs and 5 pairs false ones" for "How many ribs ...?"): the
    numbers after it break the count down."""
    counted = reading.counted
    if counted is None or counted[0] != "noun":
        return number
    stem = counted[1]
    if _carries(text, number, stem):
        return number
    start, end = _sentence_of(text, number)
    carrying = [n for n in _numbers_between(text, start, end) if _carries(text, n, stem)]
    if len(carrying) != 1 or not _restates_asked(text[start : carrying[0].start], reading):
        return number
    return carrying[0]


_ASKED_WORD = re.compile(r"[^\W\d_]{3,}")


def _restates_asked(clause: str, reading: Reading) -> bool:
    """``clause`` holds every word the question's first line asks with, besides
    "how many" and what it counts ("Humans have" for "How many ribs do humans
    have?"; not "The relay has" for "How many legs does Ann run in the relay?")."""
    counted = reading.counted[1] if reading.counted else ""
    asked = {
        w[:5]
        for w in _ASKED_WORD.findall(fold_phrase(reading.question.split("\n", 1)[0]))
        if w not in FUNCTION_WORDS and w not in ("many", "much") and not w.startswith(counted)
    }
    said = {w[:5] for w in _ASKED_WORD.findall(fold_phrase(clause))}
    return asked <= said


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
            return _carries(text, n, stem)

    elif kind == "year":

        def carries(n: Number) -> bool:  # a year: four digits, whole
            return 1000 <= n.value < 3000 and n.value == int(n.value) and not n.percent

    else:  # a share

        def carries(n: Number) -> bool:
            return n.percent

    carrying = [n for n in [number, *rivals] if carries(n)]
    if len(carrying) == 1:
        return carrying[0], []
    if not carrying and kind == "noun":
        # (the count stated before where the sentence settles, then broken down)
        whole = _counted_in_sentence(number, text, reading)
        if whole is not number:
            return whole, []
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
    comprises three frames" for "How many frames does the 1961 house ...?"), and so is
    a year it dates its fact by ("in 2006"), unless the question asks a year."""
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
        if number.value not in asked_numbers and not _year_of(number, text, reading):
            return number, text
        text = text[: number.start] + " " * (number.end - number.start) + text[number.end :]
    return None


# A year the sentence dates its fact by ("released her first album in 2006"): a date,
# no amount, unless the question asks a year.
_DATED_BY = re.compile(r"\b(?:in|since|by|until|from)[ \t]+$", re.IGNORECASE)
_YEARS = (1000, 2100)


def _year_of(number: Number, text: str, reading: Reading) -> bool:
    return (
        number.value == int(number.value)
        and _YEARS[0] <= number.value <= _YEARS[1]
        and text[number.start : number.end].strip().isdigit()
        and _DATED_BY.search(text, max(0, number.start - 8), number.start) is not None
        and (reading.counted or ("", ""))[0] != "year"
    )


def _restates(words: set[str], asked: frozenset[str]) -> bool:
    return bool(asked) and 2 * len(words & asked) >= len(asked)
