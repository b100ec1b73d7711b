"""Which of the numbers an answer without a marker states is its answer: the one
in the unit the question asks, or carrying the thing it counts, a year or a
share it asks for; else the last, with the others of its sentence as rivals."""

from __future__ import annotations

import re

from scorers.evaluate.strict import numbers
from scorers.evaluate.strict.commit import FEW_SENTENCES
from scorers.evaluate.strict.numbers import Number, find_numbers
from scorers.evaluate.strict.reading import Reading

DIGIT = re.compile(r"\d")
# A remark in brackets.
PAREN = re.compile(r"\([^()\n]*\)")
# The unit a question asks its number in, at its end ("..., in °C?", "(in km)"),
# or the thing it counts ("How many eggs ...", "How much flour ...").
_ASKED_UNIT = re.compile(r"\bin[ \t]+(°[ \t]?[CFK]|%|[^\W\d_]{1,3})[ \t]*\)?[ \t]*[?.]?[ \t]*$")
ASKED_NOUN = re.compile(r"\bhow[ \t]+(?:many|much)[ \t]+([^\W\d_]{3,})", re.IGNORECASE)
# A question that asks for a year, or for a share.
_ASKED_YEAR = re.compile(r"\b(?:what|which)[ \t]+year\b|^[ \t]*when\b", re.IGNORECASE)
_ASKED_SHARE = re.compile(r"\b(?:what|which)[ \t]+(?:percentage|percent|share)\b|%", re.IGNORECASE)
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
    answer holds another number (outcomes that read it are remembered by its text)."""
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
    question = reading.question
    first_line = question[: question.find("\n")] if "\n" in question else question
    m = _ASKED_UNIT.search(first_line.rstrip()[-24:])  # (its end only)
    if m is None and len(text) > FEW_SENTENCES * 200:
        return number, []  # a long answer's last sentence is as often a remark: not weighed
    start, end = _sentence_of(text, number)
    if m is None and not (
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
    if m is not None:
        unit = m.group(1).replace(" ", "")
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
    question = reading.question
    first_line = question[: question.find("\n")] if "\n" in question else question
    if (m := ASKED_NOUN.search(first_line)) is not None:
        stem = m.group(1)[:3].lower()
        if not all(_WORD_AFTER.match(text, n.end) for n in [number, *rivals]):
            return number, rivals  # a bare number may count the same thing ("206 bones; ... 270")

        def carries(n: Number) -> bool:
            return text[n.end : n.end + 12].lstrip(" \t").lower().startswith(stem)

    elif _ASKED_YEAR.search(first_line) is not None:

        def carries(n: Number) -> bool:  # a year: four digits, whole
            return 1000 <= n.value < 3000 and n.value == int(n.value) and not n.percent

    elif _ASKED_SHARE.search(first_line) is not None:

        def carries(n: Number) -> bool:
            return n.percent

    else:
        return number, rivals
    carrying = [n for n in [number, *rivals] if carries(n)]
    if len(carrying) == 1:
        return carrying[0], []
    return number, rivals
