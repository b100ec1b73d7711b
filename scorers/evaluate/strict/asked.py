"""What a question asks, read as small facts: whether it asks for one thing, the
names it offers beside a key, the unit, count, scale or bound it asks for.

An evaluator reads these through ``Reading`` (:mod:`scorers.evaluate.strict.reading`),
never the question's text, so strict mode's memo keys an outcome by the facts'
values: answers to other questions that ask alike share it. Each is a function
of the question (and of arguments from the kwargs), remembered per question:
a run asks each question of many models.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scorers.evaluate.strict.answer_names import CAPITALISED, FUNCTION_WORDS, SKIP_WORDS
from scorers.evaluate.strict.final import without_echo
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.numbers import find_numbers

_PER_QUESTION = 1024  # questions remembered, as for the question's options

# A question asking for one thing: "Which fighter ...", "What part ...", not "Which two ...".
_ASKS_ONE = re.compile(
    r"[ \t]*(?:which|what)[ \t]+(?:[\"“][^\"”]*[\"”][ \t]+)?(?!two|three|four|several|some|all|of)[a-z]+(?<!s)\b",
    re.I,
)
_JOINED_AFTER = re.compile(r",?[ \t]+(?:or|and)[ \t]+")
_JOINED_BEFORE = re.compile(r",?[ \t]+(?:or|and)[ \t]+\Z")
# The unit a question asks its number in, at its end ("..., in °C?", "(in km)"),
# or the thing it counts ("How many eggs ...", "How much flour ...").
_UNIT_AT_END = re.compile(r"\bin[ \t]+(°[ \t]?[CFK]|%|[^\W\d_]{1,3})[ \t]*\)?[ \t]*[?.]?[ \t]*$")
_ASKED_NOUN = re.compile(r"\bhow[ \t]+(?:many|much)[ \t]+([^\W\d_]{3,})", re.IGNORECASE)
# A question that asks for a year, or for a share.
_ASKED_YEAR = re.compile(r"\b(?:what|which)[ \t]+year\b|^[ \t]*when\b", re.IGNORECASE)
_ASKED_SHARE = re.compile(r"\b(?:what|which)[ \t]+(?:percentage|percent|share)\b|%", re.IGNORECASE)
# The unit a question asks in, spelt out: "..., in grams?", "How many hours ...".
_ASKED_IN_REACH = 40
_ASKED_IN = re.compile(r"\bin[ \t]+([^\W\d_]+(?:/[^\W\d_]+)?)[ \t]*\)?[ \t]*[?.]?[ \t]*$")
SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_ASKED_SCALE = re.compile(
    r"\b(?:in|of)[ \t]+(thousand|million|billion)s\b|\((thousand|million|billion)s\)"
)
_ASKED_BOUND = re.compile(r"\b(?:least|most|minimum|maximum|fewest|at[ \t]+(?:least|most))\b", re.I)


@lru_cache(maxsize=_PER_QUESTION)
def asks_one(question: str) -> bool:
    """The question asks for one thing ("Which fighter ...?")."""
    return _ASKS_ONE.match(question) is not None


@lru_cache(maxsize=_PER_QUESTION)
def alternatives(question: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    """The capitalised names the question joins to a key with "or"/"and"."""
    out = []
    for key in keys:
        at = question.find(key)
        if at < 0:
            continue
        after = _JOINED_AFTER.match(question, at + len(key))
        if after and (m := CAPITALISED.match(question, after.end())):
            out.append(m.group())
        before = _JOINED_BEFORE.search(question[:at])
        if before is not None:
            names_before = [
                m.group()
                for m in CAPITALISED.finditer(question[: before.start()])
                if m.end() == before.start()
            ]
            out.extend(names_before)
        for series in _SERIES.finditer(question):
            # "Alan, Bob, Colin and Dave": every name of a series holding the key
            # is an alternative to it, not only its neighbours by "and"/"or"
            if series.start() <= at < series.end():
                out.extend(m.group() for m in CAPITALISED.finditer(series.group()))
    keys_folded = {fold_phrase(k) for k in keys}
    out = [o for o in dict.fromkeys(out) if fold_phrase(o) not in keys_folded]
    return tuple(o for o in out if fold_phrase(o) not in SKIP_WORDS)


_SERIES = re.compile(
    rf"{CAPITALISED.pattern}(?:,[ \t]+{CAPITALISED.pattern})+,?[ \t]+(?:or|and)[ \t]+{CAPITALISED.pattern}"
)


def _first_line(question: str) -> str:
    return question[: question.find("\n")] if "\n" in question else question


@lru_cache(maxsize=_PER_QUESTION)
def unit_at_end(question: str) -> str | None:
    """The unit the question's first line ends by asking in ("..., in °C?")."""
    m = _UNIT_AT_END.search(_first_line(question).rstrip()[-24:])  # (its end only)
    return None if m is None else m.group(1)


@lru_cache(maxsize=_PER_QUESTION)
def counted(question: str) -> tuple[str, str] | None:
    """What the question's first line asks a number of: ``("noun", its first
    three letters)`` ("How many eggs"), ``("year", "")``, ``("share", "")``."""
    first_line = _first_line(question)
    if (m := _ASKED_NOUN.search(first_line)) is not None:
        return "noun", m.group(1)[:3].lower()
    if _ASKED_YEAR.search(first_line) is not None:
        return "year", ""
    if _ASKED_SHARE.search(first_line) is not None:
        return "share", ""
    return None


@lru_cache(maxsize=_PER_QUESTION)
def unit_asked(question: str) -> str | None:
    """The unit a question asks in ("..., in grams?", "How many hours ...")."""
    m = _ASKED_IN.search(question[-_ASKED_IN_REACH:]) or _ASKED_NOUN.search(question)
    return None if m is None else m.group(1)


@lru_cache(maxsize=_PER_QUESTION)
def scale_asked(question: str) -> float:
    """The scale a question counts in ("in millions", "(thousands)"), else 1."""
    if "illion" not in question and "housand" not in question:
        return 1.0
    m = _ASKED_SCALE.search(question.lower())
    return 1.0 if m is None else SCALES[m.group(1) or m.group(2)]


@lru_cache(maxsize=_PER_QUESTION)
def asks_bound(question: str) -> bool:
    """The question asks for a bound ("What is the least number ...?")."""
    return _ASKED_BOUND.search(question) is not None


# A question that asks for an estimate: "What is the approximate ...?", "roughly how many".
_ASKED_APPROXIMATE = re.compile(
    r"\b(?:approximate(?:ly)?|approx\.|roughly|estimated?|about how (?:many|much|long|far|big))\b",
    re.IGNORECASE,
)


def asks_approximate(question: str) -> bool:
    """The question asks for an approximate value."""
    return _ASKED_APPROXIMATE.search(question) is not None


# "to three decimal places", "to 2 decimal places", "to one decimal place".
_DECIMALS_ASKED = re.compile(
    r"\b(one|two|three|four|five|six|[1-9])[ \t-]+decimal[ \t]+places?\b", re.IGNORECASE
)
_SMALL_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def decimals_asked(question: str) -> int | None:
    """The decimal places the question asks the answer to ("to three decimal places")."""
    m = _DECIMALS_ASKED.search(question)
    if m is None:
        return None
    word = m.group(1).lower()
    return _SMALL_NUMBERS[word] if word in _SMALL_NUMBERS else int(word)


def echo_free(question: str, text: str) -> str:
    """``text`` less a tail copied from the question (``final.without_echo``)."""
    return without_echo(text, question)


_CONTENT_WORD = re.compile(r"[^\W\d_]{4,}")


@lru_cache(maxsize=_PER_QUESTION)
def topic(question: str) -> tuple[frozenset[str], frozenset[str], frozenset[float]]:
    """The content words of the question's first line (four letters or more, no
    function word, folded, their first five letters), the names among them
    (capitalised inside the sentence, in any language) and the numbers it states."""
    first = _first_line(question)
    words = frozenset(
        w[:5] for w in _CONTENT_WORD.findall(fold_phrase(first)) if w not in FUNCTION_WORDS
    )
    named = frozenset(
        fold_phrase(m.group())[:5]
        for m in _CONTENT_WORD.finditer(first)
        if m.group()[0].isupper() and m.start() > 0 and first[m.start() - 1] == " "
    )
    return words, named & words, frozenset(n.value for n in find_numbers(first))
